"""Auto-exports: .bib (or RIS or CSL-JSON) files that stay current as the library changes.

An auto-export names a file on this computer, the papers it holds (every paper, the
starred ones, a tag's, a saved search's) and how they are written. `refresh` rebuilds
each one whose papers may have changed and writes the file only when its bytes differ
from those on disk, so a LaTeX build (latexmk watching the .bib) sees no change for an
unrelated edit. A refresh never raises for a file it cannot write: the reason is kept as
the auto-export's state (the file on disk stays as it was) and it is tried again at the
next refresh.

Each member of a shared library has their own auto-exports (the files are on their
computer); a library file has one user. A `Cache` kept between refreshes (the window's)
remembers the papers each file holds and the change log's position, so a refresh after a
change of other papers reads the log and the selection, not the papers.
"""

from __future__ import annotations

import hashlib
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from papershelf.core import autoexport_aux, db
from papershelf.core.gcpause import young_collections_only
from papershelf.core.library import Library
from papershelf.core.models import AutoExport as Row
from papershelf.core.models import ChangeLog, utcnow
from papershelf.core.shapes import (
    FILES,
    KEY,
    NOTES,
    PAPERS,
    PRIVATE_NOTES,
    READ_STATE,
    STARRED,
    TAGS,
    View,
)
from papershelf.core.transfer import (
    ExportOptions,
    export_papers,
    remove_unfinished,
    write_atomically,
    write_records,
)
from papershelf.errors import LibraryError, UserError
from papershelf.formats import registry
from papershelf.formats.records import PaperRecord

# The formats an auto-export writes (formats.registry's writable ones), in the order the
# window lists them.
FORMATS = ("bibtex", "biblatex", "csljson", "ris")
# The names an auto-export's format is asked by (the command line's --format): each
# writable format's own and its aliases (csl-json), with the format each names.
FORMAT_NAMES = {name: fmt.name for fmt in registry.writable() for name in fmt.names}
BUILD_BATCH = 500  # papers read and written at a time when a file's entries are built
# Change-log rows below the newest one seen that may still commit (core.live's holes).
LOOKBACK = 100


@dataclass(frozen=True)
class AutoExport:
    """An auto-export as listed: what it writes, where, and its last refresh's outcome
    (`state` new: not refreshed yet; ok, `message` maybe naming cited keys the library
    lacks; waiting: a LaTeX document not compiled yet; failed, `message` saying why)."""

    id: int
    path: str
    what: str
    format: str
    include_abstract: bool
    include_notes: bool
    ascii_only: bool
    include_files: bool
    state: str
    message: str
    written_at: datetime | None
    created_at: datetime
    # The change log's position when the file was last found current, and the file's
    # size and mtime then ("size:mtime_ns"): a window opened with nothing changed since
    # reads nothing.
    seq: int | None = None
    stamp: str = ""

    def options(self) -> ExportOptions:
        """The export options of `core.transfer` this auto-export writes with."""
        return ExportOptions(
            include_abstract=self.include_abstract, include_notes=self.include_notes,
            ascii_only=self.ascii_only, include_files=self.include_files,
            flavour="biblatex" if self.format == "biblatex" else "bibtex",
            format=self.format if self.format in ("csljson", "ris") else "bibtex")

    def describe_what(self) -> str:
        """Which papers, for a listing: every paper, starred, tag reading, saved Graphs."""
        kind, _colon, name = self.what.partition(":")
        return {"all": "every paper", "starred": "starred papers", "tag": f"tag {name}",
                "saved": f"saved search {name}", "aux": f"papers cited in {name}"}[kind]


@dataclass(frozen=True)
class Outcome:
    """What a refresh did to one auto-export: its new state, and whether it wrote."""

    export: AutoExport
    written: bool
    # When it wrote: a line for each retracted paper the file holds (core.retractions).
    retracted: tuple[str, ...] = ()


# A paper's entry as the file has it: its key (lower-cased, to find duplicates) and its
# UTF-8 bytes. Kept encoded, the file is joined from bytes: no single call over the whole
# text of a big file (a join of strings, an encoding) keeps the window's thread waiting.
_Block = tuple[str, bytes]


@dataclass
class _Seen:
    ids: list[int]
    options: ExportOptions
    file: tuple[int, int] | None  # the file's size and mtime once written or found equal
    digest: bytes  # of the text written
    blocks: dict[int, _Block] | None  # each paper's BibTeX entry (None: not kept)
    source: str = ""  # an aux: selection's .aux files (autoexport_aux.source_stamp)
    note: str = ""  # what the state says beside "ok" (cited keys the library lacks)


# A paper's change log row touching only these leaves its entry as it was (the selection
# may change: it is read again); notes and files count when the export writes them.
_NEVER_WRITTEN = frozenset({STARRED, READ_STATE})
_NOTES = frozenset({NOTES, PRIVATE_NOTES})
Changes = list[tuple[frozenset[int] | None, frozenset[str]]]  # (ids, touched) a row


@dataclass
class Cache:
    """What the refreshes so far saw: per auto-export, the papers it holds and its file;
    the change log's newest position read and the positions read just below it."""

    seen: dict[int, _Seen] = field(default_factory=dict)
    seq: int | None = None
    seqs: set[int] = field(default_factory=set)

    def changes(self, library: Library) -> Changes | None:
        """The changes since the last call: each one's papers (None: many) and what of
        them it touched (None: all may have changed, to a new cache)."""
        with _read(library) as session:
            if self.seq is None:  # (everything is new to a new cache)
                self.seq = int(session.scalar(select(func.max(ChangeLog.seq))) or 0)
                self.seqs = set(session.scalars(select(ChangeLog.seq).where(
                    ChangeLog.seq > self.seq - LOOKBACK)))
                return None
            rows = _log_after(session, self.seq - LOOKBACK)
        changes = [change for seq, change in rows
                   if seq not in self.seqs and seq > self.seq - LOOKBACK]
        self.seqs.update(seq for seq, _change in rows)
        self.seq = max([self.seq, *(seq for seq, _change in rows)])
        self.seqs = {s for s in self.seqs if s > self.seq - LOOKBACK}
        return changes


def _log_after(session: Session, seq: int
               ) -> list[tuple[int, tuple[frozenset[int] | None, frozenset[str]]]]:
    """The change log's rows after `seq`: each one's seq, papers and what it touched (a
    change that added or removed papers touched PAPERS)."""
    rows = session.execute(select(
        ChangeLog.seq, ChangeLog.paper_ids, ChangeLog.touched, ChangeLog.structural).where(
        ChangeLog.seq > seq)).all()
    return [(row_seq, (None if ids is None else frozenset(ids), frozenset(
        [t for t in (touched or "").split(",") if t] + ([PAPERS] if structural else []))))
        for row_seq, ids, touched, structural in rows]


# -- the list -----------------------------------------------------------------------------


def auto_exports(library: Library) -> list[AutoExport]:
    """The member's auto-exports, by path."""
    with _read(library) as session:
        rows = session.execute(select(Row).where(Row.user_name == library.user_name)
                               .order_by(Row.path)).scalars().all()
        return [_export(row) for row in rows]


def _writable(name: str) -> str:
    """The name of the format an auto-export writes called `name` (or an alias of it);
    UserError if there is none."""
    try:
        fmt = registry.by_name(name)
    except KeyError:
        fmt = None
    if fmt is None or fmt.write is None:
        raise UserError(f"unknown auto-export format {name!r} (use {', '.join(FORMATS)})")
    return fmt.name


def find(library: Library, path: str | Path) -> AutoExport | None:
    """The member's auto-export to `path`, if any."""
    wanted = _absolute(path)
    return next((e for e in auto_exports(library) if e.path == wanted), None)


def add(library: Library, path: str | Path, what: str = "all", format: str = "bibtex", *,
        include_abstract: bool = True, include_notes: bool = False, ascii_only: bool = False,
        include_files: bool = False, allow_missing: bool = False) -> Outcome:
    """Keep `path` current with `what` (all, starred, tag:NAME, saved:NAME, aux:PATH)
    in `format`, and write it now. UserError for a bad `what` or format, a path already
    kept, a file that cannot be written (then nothing is kept), or, unless
    `allow_missing`, a document not compiled yet or citing keys the library lacks."""
    what, wanted = check_what(library, what), _absolute(path)
    format = _writable(format)
    if autoexport_aux.is_aux(what) and not allow_missing:
        autoexport_aux.check_complete(library, what)
    if db.describe(library.url) == wanted:
        raise UserError(f"{wanted}: is the library itself")
    try:
        with _write(library) as session:
            new_id = session.execute(insert(Row).values(
                user_name=library.user_name, path=wanted, what=what, format=format,
                include_abstract=include_abstract, include_notes=include_notes,
                ascii_only=ascii_only, include_files=include_files, state="new", message="",
                written_at=None, created_at=utcnow(), seq=None, stamp=""
            ).returning(Row.id)).scalar_one()
    except IntegrityError:
        raise UserError(f"{wanted}: is already auto-exported (see `papershelf auto-export "
                        "list`)") from None
    [outcome] = refresh(library, only=[new_id])
    if outcome.export.state == "failed":  # (kept only once it could be written)
        with _write(library) as session:
            session.execute(delete(Row).where(Row.id == new_id))
        raise UserError(outcome.export.message)
    return outcome


def remove(library: Library, path: str | Path) -> AutoExport:
    """Stop keeping `path` current (the file stays). UserError if it is not kept."""
    found = find(library, path)
    if found is None:
        raise UserError(f"{_absolute(path)}: is not auto-exported (see `papershelf "
                        "auto-export list`)")
    with _write(library) as session:
        session.execute(delete(Row).where(Row.id == found.id))
    return found


def check_what(library: Library, what: str) -> str:
    """`what` tidied (all, starred, tag:NAME, saved:NAME, aux:PATH made absolute);
    UserError if it is none of those, or names a saved search the member does not see."""
    kind, colon, name = what.strip().partition(":")
    kind, name = kind.lower(), name.strip()
    if not colon and kind in ("all", "starred"):
        return kind
    if colon and kind == autoexport_aux.KIND and name:
        return f"{kind}:{_absolute(name)}"
    if colon and kind in ("tag", "saved") and name:
        if kind == "saved":
            _saved_query(library, name)
        return f"{kind}:{name}"
    raise UserError(f"{what!r}: not what an auto-export can hold (all, starred, tag:NAME, "
                    "saved:NAME or aux:FILE.aux)")


# -- refreshing ---------------------------------------------------------------------------


def refresh(library: Library, cache: Cache | None = None,
            only: Iterable[int] | None = None) -> list[Outcome]:
    """Bring the member's auto-exports (those of ids `only`) up to date: each whose
    papers may have changed since `cache` last saw it is rebuilt, and its file written
    if the bytes differ. Never raises for a file: its state says what went wrong."""
    exports = auto_exports(library)
    if only is not None:
        wanted = set(only)
        exports = [e for e in exports if e.id in wanted]
    if not exports:
        return []
    remove_leftovers(exports)
    changes = cache.changes(library) if cache is not None else None
    position = cache.seq if cache is not None and cache.seq is not None else last_change(
        library)
    outcomes = [_refresh_one(library, export, cache, changes, position)
                for export in exports]
    stored = [o.export for o, before in zip(outcomes, exports) if o.export != before]
    if stored:
        with _write(library) as session:
            for after in stored:
                session.execute(update(Row).where(Row.id == after.id).values(
                    state=after.state, message=after.message, written_at=after.written_at,
                    seq=after.seq, stamp=after.stamp))
    return outcomes


def last_change(library: Library) -> int:
    """The change log's newest position (a write moves it on)."""
    with _read(library) as session:
        return int(session.scalar(select(func.max(ChangeLog.seq))) or 0)


def _refresh_one(library: Library, export: AutoExport, cache: Cache | None,
                 changes: Changes | None, position: int) -> Outcome:
    """Refresh one auto-export; the Outcome's export is as it is to be stored."""
    path, options = Path(export.path), export.options()
    written = False
    retracted: tuple[str, ...] = ()
    seen = cache.seen.get(export.id) if cache is not None else None
    source = autoexport_aux.source_stamp(export.what)
    if (seen is None and export.state == "ok" and export.seq is not None
            and export.stamp == _stamp(path, source) and _current(library, export, position)):
        return Outcome(replace(export, seq=position), False)
    try:
        if (seen is not None and changes is not None and seen.source == source
                and not _reselect(changes, export.what)):
            ids, note = seen.ids, seen.note
        else:
            ids, note = _select(library, export.what)
        stale = None
        if (seen is not None and changes is not None and export.state == "ok"
                and seen.options == options):
            stale = _stale(changes, export)
        if (seen is not None and stale is not None and seen.file == _stat(path)
                and seen.ids == ids and stale.isdisjoint(ids)):
            return Outcome(replace(export, seq=position), False)
        with young_collections_only():  # (a first build makes thousands of records at once)
            data, blocks = _build(
                library, ids, options,
                seen.blocks if seen is not None and stale is not None else None,
                stale or frozenset())
        digest = hashlib.blake2b(data, digest_size=20).digest()
        found = _stat(path)
        same = seen is not None and found is not None and (seen.file, seen.digest) == (
            found, digest)
        if not same and _content(path) != data:
            _check_writable(path)
            write_atomically(path, data)
            written = True
            retracted = tuple(library.retraction_warnings(ids))
        if cache is not None:
            cache.seen[export.id] = _Seen(ids, options, _stat(path), digest, blocks,
                                          source, note)
        state, message = "ok", note
    except autoexport_aux.NotCompiled as exc:  # (a state to wait in: nothing written)
        if cache is not None:
            cache.seen.pop(export.id, None)
        state, message = "waiting", str(exc)
    except (UserError, ValueError) as exc:  # (ValueError: a record BibTeX cannot write)
        if cache is not None:
            cache.seen.pop(export.id, None)
        state, message = "failed", str(exc)
    current = state == "ok"
    return Outcome(replace(
        export, state=state, message=message,
        written_at=utcnow() if written else export.written_at,
        seq=position if current else None, stamp=_stamp(path, source) if current else ""),
        written, retracted)


def remove_leftovers(exports: Iterable[AutoExport]) -> None:
    """Remove what refreshes killed mid-write left beside the exports' files."""
    for export in exports:
        remove_unfinished(Path(export.path))


def out_of_date(library: Library, export: AutoExport) -> bool:
    """Whether a file its last refresh found current (state ok) lacks a change made
    since: a refresh killed before it wrote the file, or the file changed on the disk."""
    if export.state != "ok" or export.seq is None:
        return False
    source = autoexport_aux.source_stamp(export.what)
    return export.stamp != _stamp(Path(export.path), source) or not _current(
        library, export, last_change(library))


def _current(library: Library, export: AutoExport, position: int) -> bool:
    """Whether the file written at `export.seq` still holds what it would now (what a
    new cache knows: nothing changed since, or only what the file leaves out)."""
    assert export.seq is not None
    if export.seq == position:
        return True
    with _read(library) as session:
        oldest = session.scalar(select(func.min(ChangeLog.seq)))
        if oldest is None or oldest > export.seq:  # (the log was pruned since)
            return False
        changes = [change for _seq, change in _log_after(session, export.seq)]
    stale = _stale(changes, export)
    if stale is None or _reselect(changes, export.what):
        return False
    return not stale or stale.isdisjoint(_select(library, export.what)[0])


def _reselect(changes: Changes, what: str) -> bool:
    """Whether the changes may have changed which papers `what` holds, or their order."""
    kind = what.partition(":")[0]
    if kind == "saved":  # (a query may name any field)
        return bool(changes)
    moves = {PAPERS, KEY} | {"starred": {STARRED}, "tag": {TAGS}}.get(kind, set())
    return any(not touched or touched & moves for _ids, touched in changes)


def _stale(changes: Changes, export: AutoExport) -> frozenset[int] | None:
    """The papers whose entries the changes may have altered (None: any paper's)."""
    notes = export.include_notes or export.format == "ris"  # (RIS writes notes: N1)
    kept = _NEVER_WRITTEN | (frozenset() if notes else _NOTES) | (
        frozenset() if export.include_files else frozenset({FILES}))
    stale: set[int] = set()
    for ids, touched in changes:
        if touched and touched <= kept:
            continue
        if ids is None:
            return None
        stale |= ids
    return frozenset(stale)


def _build(library: Library, ids: list[int], options: ExportOptions,
           blocks: dict[int, _Block] | None, stale: frozenset[int]
           ) -> tuple[bytes, dict[int, _Block] | None]:
    """The file of the papers `ids`, and each one's BibTeX entry (None: not kept). With
    the entries of the last build (`blocks`), only the `stale` papers and those new to
    the selection are read and written again: entries stand alone, so the file is
    them one after the other (as the BibTeX writer joins them), unless an entry needs
    others (a crossref, @string or @preamble): then the whole export is written."""
    def whole() -> bytes:
        return export_papers(library, ids, options).text.encode("utf-8")

    if options.format != "bibtex":
        return whole(), None
    kept = {} if blocks is None else {
        pid: blocks[pid] for pid in ids if pid in blocks and pid not in stale}
    wanted = [pid for pid in ids if pid not in kept]
    # (Read and written a batch at a time: the records of a whole file freed at once
    # would keep the interpreter lock, and the window waiting, for a tenth of a second.)
    for start in range(0, len(wanted), BUILD_BATCH):
        batch = wanted[start:start + BUILD_BATCH]
        records = library.records(batch, with_files=options.include_files)
        if len(records) != len(batch) or not all(map(_alone, records)):
            return whole(), None
        for pid, record in zip(batch, records):
            block = write_records([record], options)
            kept[pid] = (block[block.index("{") + 1:block.index(",")].lower(),
                         block.encode("utf-8"))
    if len({key for key, _data in kept.values()}) < len(kept):
        return whole(), None  # (a duplicate key: the whole export says which)
    return b"\n".join(kept[pid][1] for pid in ids), kept


def _alone(record: PaperRecord) -> bool:
    """Whether a record's entry is written the same alone as among others."""
    return not (record.preambles or record.strings or "crossref" in record.raw)


def _select(library: Library, what: str) -> tuple[list[int], str]:
    """The papers `what` holds, in the file's order, and a note for the state."""
    if autoexport_aux.is_aux(what):
        return autoexport_aux.select(library, what)
    return library.view_ids(_view(library, what)), ""


def _view(library: Library, what: str) -> View:
    """The papers `what` names, in key order (a file whose diffs stay small)."""
    kind, _colon, name = what.partition(":")
    if kind == "starred":
        return View(starred=True, sort="key")
    if kind == "tag":
        return View(tag=name, sort="key")
    if kind == "saved":
        return View(search=_saved_query(library, name), sort="key")
    return View(sort="key")


def _saved_query(library: Library, name: str) -> str:
    for found in library.saved_searches():
        if found.name.lower() == name.lower():
            return found.query
    raise UserError(f"no saved search named {name!r}")


def _check_writable(path: Path) -> None:
    """UserError if `path` is a file its owner made read-only (we do not replace it)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise UserError(f"{path}: is read-only")


def _content(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _stamp(path: Path, source: str = "") -> str:
    """The file's "size:mtime_ns", and the source stamp of an aux: selection after |."""
    found = _stat(path)
    if found is None:
        return ""
    return f"{found[0]}:{found[1]}" + (f"|{source}" if source else "")


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns


def _absolute(path: str | Path) -> str:
    return str(Path(path).expanduser().absolute())


def _export(row: Row) -> AutoExport:
    return AutoExport(row.id, row.path, row.what, row.format, row.include_abstract,
                      row.include_notes, row.ascii_only, row.include_files, row.state,
                      row.message, row.written_at, row.created_at, row.seq, row.stamp)


@contextmanager
def _read(library: Library) -> Iterator[Session]:
    """A session on the library's engine (a database error that is the environment's,
    locked or unreadable, becomes a LibraryError)."""
    try:
        with Session(library.engine) as session:
            yield session
    except OperationalError as exc:
        raise LibraryError(db.environment_message(library.url, exc)) from exc


@contextmanager
def _write(library: Library) -> Iterator[Session]:
    """One transaction on the library's engine: committed whole, or rolled back."""
    with _read(library) as session, session.begin():
        yield session
