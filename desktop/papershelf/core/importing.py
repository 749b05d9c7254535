"""Importing files: each entry becomes a new paper or completes the paper it already is.

An import is one transaction, in batches of prepared papers (`core.ingest`): each is
matched against the library (`find_existing`: same DOI, same key and title, ...) and
either merged into the paper it is (`merge_into`, which fills what the paper lacks
and keeps the user's data) or keyed and inserted. A big file is read in pieces by
worker processes while this process writes (`import_in_pieces`), with the same result
as reading it whole (`import_result` of what a reader read), and indexes each batch for
search as it goes (searchable when it ends). Another big import leaves its papers out of
the search index until `index_pending` adds them in batches.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from papershelf.core import edits, fields, ingest, keying, keys, lookalikes, personal_import
from papershelf.core.context import Context
from papershelf.core.gcpause import young_collections_only
from papershelf.core.ingest import abstract_hash, authors_sort, authors_text, normalize_text
from papershelf.core.models import (
    ImportBatch,
    Meta,
    Paper,
    PaperAuthor,
    PaperText,
    ReadState,
    utcnow,
)
from papershelf.core.search.terms import INDEXED_COLUMNS
from papershelf.formats.bibtex import arxiv_id
from papershelf.formats.bibtex.writer import sort_key
from papershelf.formats.plugin import ReadWhole
from papershelf.formats.records import (
    PaperRecord,
    ReadProblem,
    ReadResult,
    bib_extra,
    with_bib_extra,
)
from papershelf.messages import joined, text

BULK_INDEX_THRESHOLD = 1000  # imports this big defer their search indexing
IMPORT_BATCH = 2000  # records merged, keyed and inserted at a time
SAMPLE_FLAG = "sample_imported"

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]
# Called in an import's transaction before it ends, with the papers it added, each with
# the `source_line` of its record (a Zotero import gives them their notes and files).
Finish = Callable[[Session, "ImportReport", list[tuple[int, int | None]]], None]


class ImportCancelled(Exception):
    """The user cancelled an import; nothing was written."""


@dataclass
class ImportReport:
    """What an import did, for the summary the user sees."""

    source: str
    added: int = 0
    merged: int = 0
    already_present: int = 0
    problems: list[ReadProblem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    added_ids: list[int] = field(default_factory=list)
    merged_ids: list[int] = field(default_factory=list)
    # The papers it completed, as they were before (the first merge into each) and after
    # (the last): what undoing and redoing the import put back (`undoable`).
    merged_before: dict[int, Stored] = field(default_factory=dict, repr=False)
    merged_after: dict[int, Stored] = field(default_factory=dict, repr=False)

    @property
    def failed(self) -> int:
        """How many entries could not be imported."""
        return len(self.problems)

    def summary(self) -> str:
        """One line: added, merged, already present, failed."""
        parts = [f"{self.added} added"]
        if self.merged:
            parts.append(f"{self.merged} completed")
        parts.append(f"{self.already_present} already present")
        parts.append(f"{self.failed} failed")
        return f"{self.source}: " + ", ".join(parts)

    def absorb(self, other: ImportReport) -> None:
        """Add another file's report to this one (for multi-file imports)."""
        self.added += other.added
        self.merged += other.merged
        self.already_present += other.already_present
        self.problems += other.problems
        self.notices += other.notices
        self.added_ids += other.added_ids
        self.merged_ids += other.merged_ids
        for pid, before in other.merged_before.items():
            self.merged_before.setdefault(pid, before)
        self.merged_after.update(other.merged_after)

    def undoable(self, ctx: Context, description: str | None = None) -> edits.Change:
        """The import as one undo step: its undo puts the papers it completed back as
        they were and deletes the papers it added; the redo brings them back whole and
        completes the others again. (Nothing else of theirs is touched: every user's
        star, read state and notes, and other fields edited since, stay.)"""
        added = list(self.added_ids)
        completed = {pid: b for pid, b in self.merged_before.items() if pid not in added}
        after = {pid: self.merged_after[pid] for pid in completed}
        parts = []
        if added:
            parts.append(edits.describe("Import", added))
        if completed:
            parts.append(edits.describe("Complete", list(completed)))
        description = description or (joined(*parts) if len(parts) == 2 else parts[0]
                                      if parts else text("Import"))
        return _import_change(ctx, description, added, completed, after)


def _import_change(ctx: Context, description: str, added: list[int],
                   before: dict[int, Stored], after: dict[int, Stored]) -> edits.Change:
    """`ImportReport.undoable`: a Change whose undo reverses the import (the completed
    papers put back to `before`, the added ones deleted) and returns its redo."""
    ids = frozenset(added) | frozenset(before)

    def restore(states: dict[int, Stored]) -> None:
        if not states:
            return
        with ctx.write() as session:
            present = [pid for pid, state in states.items() if put_back(session, pid, state)]
            ctx.log(session, {edits.BIB_FIELDS}, present)

    def undo() -> edits.Change:
        restore(before)
        deleted = edits.delete_papers(ctx, added) if added else None

        def redo() -> edits.Change:
            if deleted is not None and deleted.undo is not None:
                deleted.undo()
            restore(after)
            return _import_change(ctx, description, added, before, after)

        return edits.Change(description, ids, structural=bool(added), undo=redo,
                            touched=frozenset({edits.BIB_FIELDS}))

    return edits.Change(description, ids, structural=bool(added), undo=undo,
                        touched=frozenset({edits.BIB_FIELDS}))


# -- importing a file ----------------------------------------------------------------


def import_result(ctx: Context, result: ReadResult, source: str, fmt: str,
                  progress: Progress | None = None,
                  cancelled: Cancelled | None = None,
                  finish: Finish | None = None) -> ImportReport:
    """Add what a reader read, merging duplicates; one transaction, cancellable
    (`finish`: more to write in it, for the papers added)."""
    report = ImportReport(source=source, problems=list(result.problems),
                          notices=list(result.notices))
    records = result.records
    total = len(records)
    with ctx.bulk_write() as session:
        importer = _Importer(ctx, session, source, fmt, report,
                             defer=total >= BULK_INDEX_THRESHOLD)
        for start in range(0, total, IMPORT_BATCH):
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            if progress is not None:
                progress(start, total)
            importer.add(ingest.prepare(records[start:start + IMPORT_BATCH], importer.pattern))
        if cancelled is not None and cancelled():
            raise ImportCancelled()
        if finish is not None:
            finish(session, report, importer.added)
        importer.finish()
    if progress is not None:
        progress(total, total)
    return report


def import_in_pieces(ctx: Context, path: str, fmt: str, progress: Progress | None = None,
                     cancelled: Cancelled | None = None) -> ImportReport | None:
    """Import a big file read in pieces by worker processes while this process writes:
    still one transaction, and the same result as reading it whole (`core.ingest`).
    None, with nothing written, if it is to be read whole after all: small, or unusual
    (`ReadWhole`; the whole-file reader then says what is unusual about it).
    `progress` counts bytes of the file."""
    try:
        with young_collections_only():  # (its papers arrive as some 25 objects each: core.gcpause)
            return _import_pieces(ctx, path, fmt, progress, cancelled)
    except ReadWhole:
        return None  # rolled back


def _import_pieces(ctx: Context, path: str, fmt: str, progress: Progress | None,
                   cancelled: Cancelled | None) -> ImportReport | None:
    source = ingest.pieces(path, fmt)
    if source is None:
        return None
    total = os.path.getsize(path)
    report = ImportReport(source=path)
    skipped: list[tuple[int, str]] = []
    read = 0
    first_lines: dict[str, int] = {}  # entry keys (BibTeX's), lower case: first line
    unkept: set[str] = set()  # RIS tags no field keeps, in every piece
    with ctx.bulk_write() as session:
        importer = _Importer(ctx, session, path, fmt, report, defer=True, index_as_added=True)
        context = ingest.start_context(ingest.FileContext(path, fmt, importer.pattern))
        with ingest.PieceReader() as reader:
            for piece in reader.read(source, context, cancelled):
                if cancelled is not None and cancelled():
                    raise ImportCancelled()
                report.problems += piece.said.problems
                report.notices += piece.said.notices
                skipped += piece.said.skipped
                unkept |= piece.said.unkept
                if not read:  # (how many papers the file holds, by its first piece)
                    importer.expect(len(piece.papers) * total // max(piece.end, 1))
                read += len(piece.papers)
                papers = piece.papers
                if ingest.unique_keys(fmt):
                    papers = ingest.first_of_each_key(papers, first_lines, path,
                                                     report.problems)
                importer.add(papers)
                if progress is not None:
                    progress(piece.end, total)
        if cancelled is not None and cancelled():
            raise ImportCancelled()
        problems, notices = ingest.finish(context, read, skipped, unkept)
        report.problems += problems
        report.notices += notices
        importer.finish()
    if progress is not None:
        progress(total, total)
    return report


def ensure_sample(ctx: Context, seeds: Path | None,
                  import_file: Callable[[Path], ImportReport]) -> ImportReport | None:
    """On the first start of an empty library, import the sample lists, once ever."""
    with ctx.read() as session:
        if session.get(Meta, SAMPLE_FLAG) is not None:
            return None
        empty = session.scalar(select(func.count(Paper.id))) == 0
    report = None
    if empty and seeds is not None and seeds.is_dir():
        report = ImportReport(source=str(seeds))
        for path in sorted(seeds.glob("*.txt")):
            report.absorb(import_file(path))
    with ctx.write() as session:
        if session.get(Meta, SAMPLE_FLAG) is None:
            session.add(Meta(name=SAMPLE_FLAG, value=utcnow().isoformat()))
    return report


# -- the writer ------------------------------------------------------------------------


class _Importer:
    """One import's writing: prepared papers in, in batches, each merged into the
    paper it duplicates or keyed and inserted (ids assigned here, in file order)."""

    def __init__(self, ctx: Context, session: Session, source: str, fmt: str,
                 report: ImportReport, defer: bool, index_as_added: bool = False) -> None:
        self.ctx = ctx
        self.session = session
        self.report = report
        self.pattern = keying.pattern_in(session)
        self.batch = ImportBatch(source=source, format=fmt)
        session.add(self.batch)
        session.flush()  # from here on this transaction holds the write lock
        ctx.store.lock_for_adding(session)  # (a server's: one adding transaction at a time)
        self.first_id = (session.scalar(select(func.max(Paper.id))) or 0) + 1
        self.next_id = self.first_id
        ctx.store.clear_leftovers(session, self.first_id)
        # A big import leaves its papers out of the search index's triggers: one index
        # build instead of row by row. A file read in pieces indexes each batch once it
        # is inserted (`index_as_added`: in this transaction, while the worker processes
        # read the next pieces; searchable when the import ends); others leave it to
        # index_pending() afterwards. From `self.unindexed` on, papers are not indexed.
        self.deferred = defer and ctx.store.search.defer(session.connection(), self.first_id)
        self.index_as_added = self.deferred and index_as_added
        self.unindexed = self.first_id
        self.seen: set[str] = set()  # fingerprints of the papers added so far
        self.added: list[tuple[int, int | None]] = []  # (id, source line) of each added
        self.allocator = keys.KeyAllocator(set())  # keys taken, in the library or now
        self.fetched: set[str] = set()  # key bases whose keys in the library are known
        now = utcnow()
        self.states = (False, ReadState.UNREAD.value, None, "", "", now, now)
        self.aside: list[str] = []  # indexes dropped until the end (`expect`)

    def expect(self, coming: int) -> None:
        """About `coming` papers are to be added: the indexes cheaper to build again
        at the end are dropped until then (`Store.set_indexes_aside`)."""
        self.aside = self.ctx.store.set_indexes_aside(self.session, self.first_id - 1, coming)

    def add(self, papers: Sequence[ingest.Prepared]) -> None:
        session, report = self.session, self.report
        looks_like: dict[int, tuple[int, str]] = {}
        matches = find_existing(self.ctx, session, papers, self.first_id, looks_like)
        new: list[ingest.Prepared] = []
        for index, paper in enumerate(papers):
            existing = matches.get(index)
            if existing is not None:
                target = session.get(Paper, existing)
                before = stored(target) if target is not None else None
                filled = merge_into(session, existing, ingest.record_of(paper))
                if filled and target is not None and before is not None:
                    report.merged_before.setdefault(existing, before)
                    report.merged_after[existing] = stored(target)
                if filled:
                    report.merged += 1
                    report.merged_ids.append(existing)
                    report.notices.append(_completion(session, self.batch.source, existing,
                                                      paper, filled))
                else:
                    report.already_present += 1
                continue
            if paper[ingest.KEY] is None:  # (an abstract list): the same one twice is one
                title = paper[ingest.TITLE_NORM]
                fingerprint = paper[ingest.HASH] or (title and "title:" + title)
                if fingerprint:
                    if fingerprint in self.seen:
                        report.already_present += 1
                        continue
                    self.seen.add(fingerprint)
            if index in looks_like:
                report.notices.append(lookalikes.added_notice(
                    session, self.batch.source, paper, *looks_like[index]))
            new.append(paper)
        keys_of = self.choose_keys([p[ingest.WANTED_KEY] for p in new],
                                   [p[ingest.KEY_BASE] for p in new])
        new = [self._replaced(p, k) if p[ingest.KEY] and p[ingest.WANTED_KEY] is None
               else p for p, k in zip(new, keys_of)]
        ids = range(self.next_id, self.next_id + len(new))
        self.next_id += len(new)
        if new:
            self.ctx.store.insert_papers(session, new, ids, keys_of,
                                         personal_import.states(new, self.states),
                                         self.batch.id)
            report.notices += personal_import.link_files(session, ids, new,
                                                         self.batch.source)
        report.added_ids.extend(ids)
        self.added.extend(zip(ids, (p[ingest.LINE] for p in new)))
        tagged = {pid: list(p[ingest.TAGS]) for pid, p in zip(ids, new) if p[ingest.TAGS]}
        if tagged:
            edits.write_tags(self.ctx, session, tagged)
        if self.index_as_added and new:
            self.ctx.store.search.index_deferred(
                session.connection(), self.unindexed, self.next_id - 1,
                ingest.indexed_texts(new, ids, INDEXED_COLUMNS))
            self.unindexed = self.next_id

    def _replaced(self, paper: ingest.Prepared, key: str) -> ingest.Prepared:
        """`paper`, whose key from the file cannot be a citation key, under `key`: the
        user is told (file, line, both keys) and the old key stays as an alias."""
        old = paper[ingest.KEY]
        where = f"{self.batch.source}:{paper[ingest.LINE]}" if paper[ingest.LINE] \
            else self.batch.source
        self.report.notices.append(text(
            "{where}: the key {old} cannot be a citation key ({why}); the paper's key is "
            "{key}, and {old} is kept as an alias", where=where, old=repr(old),
            why=keys.why_invalid_key(old), key=repr(key)))
        return ingest.with_alias(paper, old)

    def choose_keys(self, wanted: Sequence[str | None], bases: Sequence[str]) -> list[str]:
        """Unique keys for new papers: the key a record brought if free, else its base
        (from the key pattern) made unique.

        The keys already in the library that could collide (each base and its a, b,
        c... variants) are fetched once per base and import, in one statement a batch.
        """
        fresh = set(bases) - self.fetched
        if fresh:
            self.allocator.taken |= self.ctx.store.keys_starting_with(self.session, fresh)
        self.fetched |= fresh
        taken = self.allocator.taken
        chosen: list[str] = []
        for want, base in zip(wanted, bases):
            if want and want not in taken:
                key = want
                taken.add(key)
            else:
                key = self.allocator.key(base)
                if want:
                    self.report.notices.append(text(
                        "citation key {wanted} was already in use; the new paper is {key}",
                        wanted=repr(want), key=repr(key)))
            chosen.append(key)
        return chosen

    def finish(self) -> None:
        report = self.report
        report.added = len(report.added_ids)
        self.ctx.store.restore_indexes(self.session, self.aside)
        if self.deferred:
            self.ctx.store.search.close_deferred(
                self.session.connection(), self.unindexed, self.next_id - 1,
                index_now=self.index_as_added or report.added < BULK_INDEX_THRESHOLD)
        self.batch.added, self.batch.merged = report.added, report.merged
        self.batch.failed = report.failed
        if report.added or report.merged:
            self.ctx.log(self.session, {"papers", "title"},
                         [*report.added_ids, *report.merged_ids], structural=True)


def _completion(session: Session, path: str, paper_id: int, paper: ingest.Prepared,
                filled: Sequence[str]) -> str:
    """The notice of a merge: which paper an entry completed, and with what."""
    key = session.scalar(select(Paper.key).where(Paper.id == paper_id))
    where = f"{path}:{paper[ingest.LINE]}" if paper[ingest.LINE] else path
    entry = text("entry '{key}'", key=paper[ingest.KEY]) if paper[ingest.KEY] \
        else text("this paragraph")
    return text("{where}: {entry} completed '{key}' with {fields}", where=where, entry=entry,
                key=key, fields=", ".join(filled))


# -- which papers are already there ----------------------------------------------------


def paper_for(ctx: Context, record: PaperRecord) -> tuple[int | None, PaperRecord]:
    """The paper already in the library that `record` is, found as an import finds it
    (`find_existing`), or None; and the record as an import would merge it."""
    with ctx.read() as session:
        prepared = ingest.prepare([record], keying.pattern_in(session))
        below = (session.scalar(select(func.max(Paper.id))) or 0) + 1
        match = find_existing(ctx, session, prepared, below).get(0)
    return match, ingest.record_of(prepared[0])


def find_existing(ctx: Context, session: Session, papers: Sequence[ingest.Prepared],
                  below: int, looks_like: dict[int, tuple[int, str]] | None = None
                  ) -> dict[int, int]:
    """For each prepared paper that is a paper already in the library (one with an id
    under `below`, there before this import), its index and that paper's id.

    The same paper is: the same DOI; the same citation key with the same title or
    abstract; or the same title or abstract (ignoring case, accents, punctuation)
    where the keys do not tell them apart: the incoming paper has no key (an abstract
    list), its key is one the library paper had merged into it before, the library
    paper has no key of its own (it came from an abstract list, edited by hand or
    not), or both have the same arXiv id. A BibTeX entry with a different key and only
    the title or abstract in common is another paper: it is added, and Find Duplicates
    lists the pair; `looks_like` gets its index: the paper's id, and "title" or
    "abstract" (the import's report names it).
    """
    found: dict[int, int] = {}
    hashes = [p[ingest.HASH] for p in papers]
    titles = [p[ingest.TITLE_NORM] for p in papers]
    by_index_hash = {i: h for i, h in enumerate(hashes) if h}
    dois = {i: p[ingest.DOI].strip().lower() for i, p in enumerate(papers)
            if p[ingest.DOI].strip()}
    by_index_title = {i: t for i, t in enumerate(titles) if t}
    record_keys = {i: p[ingest.KEY] for i, p in enumerate(papers) if p[ingest.KEY]}

    def lookup(column: Any, values: Iterable[str]) -> dict[str, int]:
        return ctx.store.first_ids(session, column, sorted(set(values)), below)

    # DOIs compare case-insensitively (an index on lower(doi)).
    by_doi = lookup(func.lower(Paper.doi), dois.values())
    by_key = lookup(Paper.key, record_keys.values())
    by_title = lookup(Paper.title_norm, by_index_title.values())
    by_hash = lookup(Paper.abstract_hash, by_index_hash.values())
    keyed: dict[int, tuple[str, str | None]] = {}  # paper with a wanted key: title, hash
    if by_key:
        keyed = {pid: (t, h) for pid, t, h in session.execute(
            select(Paper.id, Paper.title_norm, Paper.abstract_hash)
            .where(Paper.id.in_(by_key.values())))}
    weak: dict[int, int] = {}
    for i in range(len(papers)):
        if i in dois and dois[i] in by_doi:
            found[i] = by_doi[dois[i]]
            continue
        if i in record_keys and record_keys[i] in by_key:
            pid = by_key[record_keys[i]]
            title, hashed = keyed[pid]
            if (titles[i] and titles[i] == title) or (hashes[i] and hashes[i] == hashed):
                found[i] = pid
                continue
        candidate = None
        if i in by_index_title:
            candidate = by_title.get(by_index_title[i])
        if candidate is None and i in by_index_hash:
            candidate = by_hash.get(by_index_hash[i])
        if candidate is None:
            continue
        key = record_keys.get(i)
        if key is None or by_key.get(key) == candidate:
            found[i] = candidate
        else:
            weak[i] = candidate
    if weak:
        known = lookalikes.identities(ctx, session, set(weak.values()))
        for i, candidate in weak.items():
            own_key, aliases, arxiv = known[candidate]
            if (not own_key or record_keys[i] in aliases
                    or (arxiv is not None
                        and arxiv == arxiv_id(json.loads(papers[i][ingest.RAW_JSON])))):
                found[i] = candidate
            elif looks_like is not None:  # (added: the report says so, and why)
                how = "title" if by_title.get(by_index_title.get(i, "")) == candidate \
                    else "abstract"
                looks_like[i] = (candidate, how)
    return found


# -- completing a paper from its duplicate ---------------------------------------------


def merge_into(session: Session, paper_id: int, record: PaperRecord,
               leaving: int | None = None) -> list[str]:
    """Complete an existing paper from an imported duplicate; the user's data is kept.

    Every field the duplicate has and the paper lacks is filled in (its verbatim
    BibTeX too), a provisional title is replaced by a real one, authors are given to
    a paper that has none; what the paper has stays (`fields.FIELDS` says which fields
    are filled and which BibTeX field each owns). The duplicate's citation key becomes
    an alias of the paper, unless another paper (other than `leaving`, one about to go)
    has it. Returns the names of the fields filled in.
    """
    paper = session.get(Paper, paper_id)
    if paper is None:
        return []
    if paper.texts is None:
        paper.texts = PaperText(abstract="", bib_fields={})
    texts = paper.texts
    raw = dict(texts.bib_fields or {})
    mine = with_bib_extra(PaperRecord(), texts.bib_extra)
    filled: list[str] = []

    def take_raw(name: str | None, report: bool = True) -> None:
        """The duplicate's verbatim value of a field the paper lacks, as it was written."""
        if name not in record.raw or name in raw:
            return
        raw[name] = record.raw[name]
        if report and name not in filled:
            filled.append(name)
        expression = record.raw_source.get(name)
        if expression is not None and all(
                mine.strings.get(m, v) == v for m, v in record.strings.items()):
            mine.raw_source[name] = expression
            for macro, value in record.strings.items():
                mine.strings.setdefault(macro, value)
            for lower, place in record.string_places.items():
                mine.string_places.setdefault(lower, place)

    if record.title and paper.title_provisional and not record.title_provisional:
        if paper.title and raw.get("key") == sort_key(paper.title):  # (made from it)
            raw["key"] = record.raw.get("key") or sort_key(record.title)
        paper.title, paper.title_provisional = record.title, False
        paper.title_norm = normalize_text(record.title)
        raw.pop("title", None)
        mine.raw_source.pop("title", None)
        take_raw("title", report=False)
        filled.append("title")
    if record.abstract and not texts.abstract:
        texts.abstract = record.abstract
        take_raw("abstract", report=False)
        filled.append("abstract")
    for f in fields.COMPLETED:  # venue, volume, pages, publisher, doi, url, year
        column = f.column or f.name
        value, have = getattr(record, f.name), getattr(paper, column)
        if value and not have:
            setattr(paper, column, value)
            take_raw(f.bibtex, report=False)
            filled.append(f.name)
        elif value == have and (value or not isinstance(value, str)):
            take_raw(f.bibtex, report=False)  # the same value (or no year): its spelling
    if record.authors and not paper.authors:
        paper.authors = [PaperAuthor(position=n, family=a.family, given=a.given)
                         for n, a in enumerate(record.authors)]
        paper.authors_text = authors_text(record.authors)
        paper.authors_sort = authors_sort(record.authors)
        take_raw("author", report=False)
        filled.append("author")
    for name in record.raw:
        if name not in fields.OWNED_BIBTEX:
            take_raw(name)
    if "venue" in filled and any(n in filled for n in fields.VENUE_FIELDS):
        filled.remove("venue")  # named by its BibTeX field
    for name, value in record.inherited.items():
        if name not in raw and name not in mine.inherited:
            mine.inherited[name] = value
            if name not in filled:
                filled.append(name)
    for preamble in record.preambles:
        if preamble not in mine.preambles:
            mine.preambles.append(preamble)
    if record.entry_type and record.raw and paper.entry_type != record.entry_type \
            and not texts.bib_fields:
        paper.entry_type = record.entry_type
    if record.key and record.key != paper.key and record.key not in mine.aliases:
        holder = session.scalar(select(Paper.id).where(Paper.key == record.key))
        if holder is None or holder == leaving:
            mine.aliases.append(record.key)
    if raw != (texts.bib_fields or {}):
        texts.bib_fields = raw
    extra = bib_extra(mine)
    if extra != texts.bib_extra:
        texts.bib_extra = extra
    if filled:
        paper.abstract_hash = abstract_hash(texts.abstract)
        paper.modified_at = utcnow()
        paper.version += 1
    return filled


# What `merge_into` may change of a paper: columns of `papers` (with the ones derived
# from them), of `paper_texts`, and the authors. Undoing a merge (an import's, or
# `completing.complete_paper`'s) puts exactly these back, so the paper's other data and
# every user's star, read state and notes stay as they are (restoring the whole paper,
# as the undo of a delete does, would drop other users' rows on a shared library).
_MERGED_COLUMNS = ("entry_type", "title", "title_provisional", "title_norm", "authors_text",
                   "authors_sort", "abstract_hash",
                   *(f.column for f in fields.COMPLETED if f.column))
_MERGED_TEXTS = ("abstract", "bib_fields", "bib_extra")


@dataclass(frozen=True)
class Stored:
    """A paper's values of what a merge may change, as stored."""

    columns: dict[str, Any]
    texts: dict[str, Any] | None
    authors: tuple[tuple[str, str], ...]


def stored(paper: Paper) -> Stored:
    """What a merge may change of `paper`, as it is now."""
    texts = None
    if paper.texts is not None:
        texts = {name: copy.deepcopy(getattr(paper.texts, name)) for name in _MERGED_TEXTS}
    return Stored({name: getattr(paper, name) for name in _MERGED_COLUMNS}, texts,
                  tuple((a.family, a.given) for a in paper.authors))


def put_back(session: Session, paper_id: int, state: Stored) -> bool:
    """Give the paper the values `state` holds again (a new version of it), in the
    session's transaction; False if it no longer exists."""
    paper = session.get(Paper, paper_id, with_for_update=True)
    if paper is None:
        return False
    for name, value in state.columns.items():
        setattr(paper, name, value)
    if state.texts is not None and paper.texts is not None:
        for name, value in state.texts.items():
            setattr(paper.texts, name, copy.deepcopy(value))
    elif paper.texts is not None:  # (the merge gave it its texts row)
        paper.texts.abstract, paper.texts.bib_fields, paper.texts.bib_extra = "", {}, None
    if [(a.family, a.given) for a in paper.authors] != list(state.authors):
        paper.authors = [PaperAuthor(position=n, family=family, given=given)
                         for n, (family, given) in enumerate(state.authors)]
    paper.modified_at = utcnow()
    paper.version += 1
    return True


# -- the search index after a big import ---------------------------------------------


def pending_index(ctx: Context) -> int:
    """How many papers a bulk import left for `index_pending` (not yet searchable)."""
    with ctx.engine.connect() as conn:
        return ctx.store.search.pending(conn)


def index_pending(ctx: Context, progress: Progress | None = None,
                  cancelled: Cancelled | None = None, batch: int = 5000,
                  limit: int | None = None) -> int:
    """Add papers left out by bulk imports to the search index, a batch per transaction
    (at most about `limit` ids in this call, so other writes can go in between).

    Safe to stop at any time (cancel, crash): what is indexed is recorded with it.
    Returns how many ids were covered.
    """
    total = pending_index(ctx)
    done = 0
    while (cancelled is None or not cancelled()) and (limit is None or done < limit):
        with ctx.write() as session:
            covered = ctx.store.search.index_some(session.connection(), batch)
        if not covered:
            break
        done += covered
        if progress is not None:
            progress(min(done, total), total)
    return done
