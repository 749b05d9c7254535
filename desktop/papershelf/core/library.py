"""The one facade the command line and the window call: queries and operations.

Every write is one transaction and returns a `Change` saying which papers it
touched and how to undo it (each operation knows how to reverse itself, as in
Anki's collection). Queries hand out plain dataclasses, never ORM objects, so
callers on any thread can hold them without a session.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    Text,
    cast,
    column,
    delete,
    func,
    insert,
    select,
    table,
    update,
)
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from papershelf.core import db, ingest, keys, search
from papershelf.core.ingest import abstract_hash, authors_sort, authors_text, normalize_text
from papershelf.core.models import (
    ImportBatch,
    Meta,
    Paper,
    PaperAuthor,
    PaperTag,
    PaperText,
    ReadState,
    Tag,
    utcnow,
)
from papershelf.formats import bibtex
from papershelf.formats.records import (
    Author,
    PaperRecord,
    ReadProblem,
    ReadResult,
    bib_extra,
    with_bib_extra,
)

CHUNK = 5000  # ids per IN (...) clause, well under SQLite's variable limit
READ_STATES = tuple(s.value for s in ReadState)
FILTERS = ("all", "unread", "reading", "read", "starred")
SORT_COLUMNS = ("title", "authors", "venue", "year", "added", "starred", "read_state", "key")
SAMPLE_FLAG = "sample_imported"
KEY_PATTERN = "key_pattern"
# Columns of paper_texts, not papers.
TEXT_COLUMNS = frozenset(("abstract", "bib_fields", "bib_extra"))
BULK_INDEX_THRESHOLD = 1000  # imports this big defer their search indexing
IMPORT_BATCH = 2000  # records merged, keyed and inserted at a time
BULK_CACHE_KB = 64 * 1024  # SQLite's page cache during an import
# Fields a record carries as attributes; everything else of an entry lives in bib_fields.
_TEXT_FIELDS = ("title", "abstract", "venue", "volume", "pages", "publisher", "doi", "url")
# The BibTeX fields a venue is read from.
_VENUE_FIELDS = ("booktitle", "journal", "howpublished", "school", "institution")


class UserError(Exception):
    """Something the user asked for cannot be done (unknown key, invalid key...); safe to show."""


class ImportCancelled(Exception):
    """The user cancelled an import; nothing was written."""


@dataclass(frozen=True)
class View:
    """Which papers a list shows, and in what order."""

    filter: str = "all"
    tag: str | None = None
    search: str = ""
    sort: str = "added"
    descending: bool = False
    starred: bool = False  # starred papers only, with any filter (the CLI's --starred)


@dataclass(frozen=True)
class PaperRow:
    """What one row of the paper table shows."""

    id: int
    key: str
    title: str
    title_provisional: bool
    authors: str
    venue: str
    year: int | None
    starred: bool
    read_state: str
    added_at: datetime


@dataclass
class PaperDetail:
    """Everything about one paper: its bibliographic record and the user's data."""

    id: int
    record: PaperRecord
    starred: bool
    read_state: str
    read_at: datetime | None
    added_at: datetime
    modified_at: datetime

    @property
    def key(self) -> str:
        """The citation key (always set for a stored paper)."""
        return self.record.key or ""


@dataclass(frozen=True)
class Counts:
    """How many papers each sidebar filter holds."""

    all: int
    unread: int
    reading: int
    read: int
    starred: int
    tags: dict[str, int]


# What a change can touch (`Change.touched`), so each view can tell whether its rows,
# its ids or its counts are stale.
STARRED, READ_STATE, NOTES, TITLE, TAGS, PAPERS, KEY = (
    "starred", "read_state", "notes", "title", "tags", "papers", "key")
_TOUCHED_BY_COLUMN = {
    "starred": STARRED, "read_state": READ_STATE, "read_at": READ_STATE, "notes": NOTES,
    "title": TITLE, "title_provisional": TITLE, "title_norm": TITLE, "bib_fields": TITLE,
    "bib_extra": TITLE, "key": KEY,
}


@dataclass
class Change:
    """What an operation did: a description for the undo menu, the papers it touched and
    what of them (`touched`: STARRED, READ_STATE, NOTES, TITLE, TAGS, KEY; PAPERS when
    papers were added or removed)."""

    description: str
    ids: frozenset[int]
    # True when papers were added or removed, so views must re-query their ids.
    structural: bool = False
    undo: Callable[[], Change] | None = None
    touched: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.structural and PAPERS not in self.touched:
            self.touched = self.touched | {PAPERS}


@dataclass(frozen=True)
class DuplicatePair:
    """Two papers that look like one: the older (kept by default), the newer, and why."""

    keep_id: int
    other_id: int
    reason: str


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


Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]

_DETAIL_COLUMNS = (
    Paper.id, Paper.entry_type, Paper.key, Paper.title, Paper.title_provisional, Paper.venue,
    Paper.year, Paper.volume, Paper.pages, Paper.publisher, Paper.doi, Paper.url, Paper.notes,
    Paper.starred, Paper.read_state, Paper.read_at, Paper.added_at, Paper.modified_at,
    PaperText.abstract, PaperText.bib_fields, PaperText.bib_extra,
)


_SELECTED_IDS = table("selected_ids", column("value", Integer))


def _fill_temp_table(session: Session, name: str, sql_type: str,
                     values: Iterable[Any]) -> None:
    """A connection-private SQLite table `name(value)` holding `values`, for joins that
    would otherwise need thousands of bound parameters."""
    conn = session.connection()
    conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {name} "
                         f"(value {sql_type} PRIMARY KEY)")
    conn.exec_driver_sql(f"DELETE FROM {name}")
    values = list(values)
    with _driver_cursor(conn) as cursor:
        try:
            # One statement reading a JSON array (100,000 ids: 15 ms, where executemany
            # through SQLAlchemy took 100 ms); rows one by one where SQLite lacks JSON.
            cursor.execute(
                f"INSERT OR IGNORE INTO {name} (value) SELECT value FROM json_each(?)",
                (json.dumps(values),))
        except sqlite3.OperationalError:
            cursor.executemany(f"INSERT OR IGNORE INTO {name} (value) VALUES (?)",
                               [(v,) for v in values])


def _driver_cursor(conn: Connection) -> contextlib.closing[Any]:
    """The SQLite driver's own cursor of `conn`, closed after use: the fast paths that
    skip SQLAlchemy's statement compilation and result rows."""
    return contextlib.closing(conn.connection.driver_connection.cursor())  # type: ignore[union-attr]


def _chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Library:
    """A Papershelf library: open it, ask it, change it."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    # -- opening and closing -------------------------------------------------

    @classmethod
    def open(cls, target: str | None = None) -> Library:
        """Open the library at a path or URL (default: the user's), creating it if new."""
        engine, url = db.open_engine(target)
        return cls(engine, url)

    def close(self) -> None:
        """Release every connection (the WAL is checkpointed by SQLite)."""
        self.engine.dispose()

    @property
    def location(self) -> str:
        """The library's file path, or its URL without a password."""
        return db.describe(self.url)

    @property
    def dialect(self) -> str:
        """The database dialect's name ('sqlite', 'postgresql')."""
        return self.engine.dialect.name

    @contextmanager
    def _write(self) -> Iterator[Session]:
        """One transaction: committed whole, or rolled back and nothing written."""
        try:
            with self._sessions.begin() as session:
                yield session
        except OperationalError as exc:
            # Locked, read-only, disk full, damaged: the environment, not our bug.
            raise db.LibraryError(db.environment_message(self.url, exc)) from exc

    @contextmanager
    def _bulk_write(self) -> Iterator[Session]:
        """`_write` for an import. On SQLite with a bigger page cache (a big import
        updates a dozen indexes all over) and no WAL checkpoint at its commit: that
        copying is left to the next ordinary write, `index_pending` after a big import."""
        if self.dialect != "sqlite":
            with self._write() as session:
                yield session
            return
        try:
            with self.engine.connect() as conn:
                cache = conn.exec_driver_sql("PRAGMA cache_size").scalar()
                checkpoint = conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
                conn.exec_driver_sql(f"PRAGMA cache_size = {-BULK_CACHE_KB}")
                conn.exec_driver_sql("PRAGMA wal_autocheckpoint = 0")
                conn.commit()
                try:
                    with Session(conn, expire_on_commit=False) as session, session.begin():
                        yield session
                finally:
                    conn.rollback()
                    conn.exec_driver_sql(f"PRAGMA cache_size = {int(cache or -2000)}")
                    conn.exec_driver_sql(f"PRAGMA wal_autocheckpoint = {int(checkpoint or 0)}")
                    conn.commit()
        except OperationalError as exc:
            raise db.LibraryError(db.environment_message(self.url, exc)) from exc

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with self._sessions() as session:
            yield session

    # -- the sample library --------------------------------------------------

    def ensure_sample(self, seeds: Path | None) -> ImportReport | None:
        """On the first start of an empty library, import the sample lists, once ever."""
        with self._read() as session:
            if session.get(Meta, SAMPLE_FLAG) is not None:
                return None
            empty = session.scalar(select(func.count(Paper.id))) == 0
        report = None
        if empty and seeds is not None and seeds.is_dir():
            report = ImportReport(source=str(seeds))
            for path in sorted(seeds.glob("*.txt")):
                report.absorb(self.import_file(path))
        with self._write() as session:
            if session.get(Meta, SAMPLE_FLAG) is None:
                session.add(Meta(name=SAMPLE_FLAG, value=utcnow().isoformat()))
        return report

    # -- queries ---------------------------------------------------------------

    def _where(self, view: View, *, with_search: bool = True) -> list[Any]:
        clauses: list[Any] = []
        if view.filter == "starred":
            clauses.append(Paper.starred.is_(True))
        elif view.filter in READ_STATES:
            clauses.append(Paper.read_state == view.filter)
        elif view.filter != "all":
            raise UserError(f"unknown filter {view.filter!r}; use one of {', '.join(FILTERS)}")
        if view.starred:
            clauses.append(Paper.starred.is_(True))
        if view.tag:
            clauses.append(
                Paper.id.in_(
                    select(PaperTag.paper_id).join(Tag).where(Tag.name == view.tag)
                )
            )
        if with_search and view.search.strip():
            clauses.append(search.matches(self.dialect, view.search))
        return clauses

    def _order(self, view: View) -> list[Any]:
        # Ids grow in the order papers are added (a restored paper keeps its id and
        # its date), so "added" is the primary key's order: no sort step at all.
        column: Any = {
            "title": func.lower(Paper.title),
            "authors": Paper.authors_sort,
            "venue": Paper.venue,
            "year": Paper.year,
            "added": None,
            "starred": Paper.starred,
            "read_state": Paper.read_state,
            "key": Paper.key,
        }.get(view.sort, False)
        if column is False:
            raise UserError(f"cannot sort by {view.sort!r}; use one of {', '.join(SORT_COLUMNS)}")
        if column is None:
            return [Paper.id.desc() if view.descending else Paper.id.asc()]
        if view.descending:
            return [column.desc(), Paper.id.desc()]
        return [column.asc(), Paper.id.asc()]

    def _view_query(self, view: View, limit: int | None) -> Any:
        driving = search.driving_match(self.dialect, view.search) \
            if view.sort == "added" and view.search.strip() else None
        if driving is not None:
            fts, match = driving
            order = fts.c.rowid.desc() if view.descending else fts.c.rowid.asc()
            query = (select(Paper.id).select_from(fts.join(Paper, Paper.id == fts.c.rowid))
                     .where(match, *self._where(view, with_search=False)).order_by(order))
        else:
            query = select(Paper.id).where(*self._where(view)).order_by(*self._order(view))
        return query.limit(limit) if limit is not None else query

    def view_ids(self, view: View = View(), limit: int | None = None) -> list[int]:
        """The ids of the papers a view shows, in its order (the first `limit` only).

        Runs on the driver's cursor: a million ids in a third of a second, where going
        through SQLAlchemy's result objects takes several times that.
        """
        query = self._view_query(view, limit)
        with self.engine.connect() as conn:
            compiled = query.compile(dialect=conn.dialect,
                                     compile_kwargs={"render_postcompile": True})
            params = compiled.construct_params()
            names = compiled.positiontup or []
            with _driver_cursor(conn) as cursor:
                if "fts_query" in params and self.dialect == "sqlite":
                    params["fts_query"] = search.expanded_query(cursor, view.search)
                args = [params[name] for name in names] if names else params
                cursor.execute(compiled.string, args)
                return [row[0] for row in cursor]

    def size_estimate(self) -> int:
        """An instant upper bound of the number of papers (the largest id)."""
        with self._read() as session:
            return session.scalar(select(func.max(Paper.id))) or 0

    def count(self, view: View = View()) -> int:
        """How many papers a view shows."""
        with self._read() as session:
            return session.scalar(select(func.count(Paper.id)).where(*self._where(view))) or 0

    def rows(self, ids: Sequence[int]) -> dict[int, PaperRow]:
        """Table rows for the given ids (missing ids are simply absent)."""
        columns = (
            Paper.id, Paper.key, Paper.title, Paper.title_provisional,
            Paper.authors_text.label("authors"),
            Paper.venue, Paper.year, Paper.starred, Paper.read_state, Paper.added_at,
        )
        found: dict[int, PaperRow] = {}
        with self._read() as session:
            for chunk in _chunks(list(ids)):
                for row in session.execute(select(*columns).where(Paper.id.in_(chunk))):
                    found[row.id] = PaperRow(**row._asdict())
        return found

    def paper(self, paper_id: int) -> PaperDetail | None:
        """Everything about one paper, or None if it no longer exists."""
        details = self.details([paper_id])
        return details[0] if details else None

    def details(self, ids: Sequence[int]) -> list[PaperDetail]:
        """Full details of papers, in the order of `ids` (missing ids skipped)."""
        result: dict[int, PaperDetail] = {}
        with self._read() as session:
            conn = session.connection()  # Core rows: no ORM objects for big exports
            for chunk in _chunks(list(ids)):
                papers = conn.execute(
                    select(*_DETAIL_COLUMNS)
                    .outerjoin(PaperText, PaperText.paper_id == Paper.id)
                    .where(Paper.id.in_(chunk))
                ).all()
                authors: dict[int, list[Author]] = {}
                for pid, family, given in conn.execute(
                    select(PaperAuthor.paper_id, PaperAuthor.family, PaperAuthor.given)
                    .where(PaperAuthor.paper_id.in_(chunk))
                    .order_by(PaperAuthor.paper_id, PaperAuthor.position)
                ):
                    authors.setdefault(pid, []).append(Author(family, given))
                tags: dict[int, list[str]] = {}
                for pid, name in conn.execute(
                    select(PaperTag.paper_id, Tag.name)
                    .join(Tag)
                    .where(PaperTag.paper_id.in_(chunk))
                    .order_by(Tag.name)
                ):
                    tags.setdefault(pid, []).append(name)
                for p in papers:
                    result[p.id] = self._detail(p, authors.get(p.id, []), tags.get(p.id, []))
        return [result[i] for i in ids if i in result]

    @staticmethod
    def _detail(p: Any, authors: list[Author], tags: list[str]) -> PaperDetail:
        record = with_bib_extra(PaperRecord(
            entry_type=p.entry_type, key=p.key, title=p.title,
            title_provisional=p.title_provisional, authors=authors,
            abstract=p.abstract or "", venue=p.venue, year=p.year, volume=p.volume,
            pages=p.pages, publisher=p.publisher, doi=p.doi, url=p.url,
            raw=dict(p.bib_fields or {}), notes=p.notes, tags=tags,
        ), p.bib_extra)
        return PaperDetail(
            id=p.id, record=record, starred=p.starred, read_state=p.read_state,
            read_at=p.read_at, added_at=p.added_at, modified_at=p.modified_at,
        )

    def records(self, ids: Sequence[int]) -> list[PaperRecord]:
        """The bibliographic records of papers, in the order of `ids` (for export).

        On SQLite straight through the driver: for 100,000 papers SQLAlchemy's rows
        and their type processing took longer than writing the BibTeX.
        """
        if self.dialect != "sqlite":
            return [d.record for d in self.details(ids)]
        found: dict[int, PaperRecord] = {}
        people: dict[tuple[str, str], Author] = {}  # one Author per name, shared
        loads = json.JSONDecoder().decode
        with self._read() as session, _driver_cursor(session.connection()) as cursor:
            for chunk in _chunks(list(ids)):
                marks = ", ".join("?" * len(chunk))
                authors: dict[int, list[Author]] = {}
                for pid, family, given in cursor.execute(
                        "SELECT paper_id, family, given FROM paper_authors "
                        f"WHERE paper_id IN ({marks}) ORDER BY paper_id, position", chunk):
                    person = people.get((family, given))
                    if person is None:
                        person = people[family, given] = Author(family, given)
                    authors.setdefault(pid, []).append(person)
                tags: dict[int, list[str]] = {}
                for pid, name in cursor.execute(
                        "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t "
                        f"ON t.id = pt.tag_id WHERE pt.paper_id IN ({marks}) "
                        "ORDER BY t.name", chunk):
                    tags.setdefault(pid, []).append(name)
                for (pid, entry_type, key, title, provisional, venue, year, volume, pages,
                     publisher, doi, url, notes, abstract, bib_fields, extra) in cursor.execute(
                        "SELECT p.id, p.entry_type, p.key, p.title, p.title_provisional, "
                        "p.venue, p.year, p.volume, p.pages, p.publisher, p.doi, p.url, "
                        "p.notes, t.abstract, t.bib_fields, t.bib_extra FROM papers p LEFT JOIN "
                        f"paper_texts t ON t.paper_id = p.id WHERE p.id IN ({marks})",
                        chunk):
                    found[pid] = PaperRecord(
                        entry_type=entry_type, key=key, title=title,
                        title_provisional=bool(provisional),
                        authors=authors.get(pid, []), abstract=abstract or "",
                        venue=venue, year=year, volume=volume, pages=pages,
                        publisher=publisher, doi=doi, url=url,
                        raw=(loads(bib_fields) or {}) if bib_fields else {},
                        notes=notes, tags=tags.get(pid, []))
                    if extra is not None:
                        with_bib_extra(found[pid], loads(extra))
        return [found[i] for i in ids if i in found]

    def ids_for_keys(self, wanted: Iterable[str]) -> tuple[list[int], list[str]]:
        """Ids of the papers with these citation keys, in the given order, and unknown keys.

        A key that no paper has may be the key of an entry merged into a paper on import
        (an alias of that paper): it names that paper.
        """
        wanted = [k for k in wanted if k]
        found: dict[str, int] = {}
        with self._read() as session:
            for chunk in _chunks(wanted):
                found.update(
                    (key, pid) for pid, key in session.execute(
                        select(Paper.id, Paper.key).where(Paper.key.in_(chunk))
                    )
                )
            unknown = {k for k in wanted if k not in found}
            if unknown:
                for pid, extra in session.execute(
                        select(PaperText.paper_id, PaperText.bib_extra)
                        .where(cast(PaperText.bib_extra, Text).like('%"aliases"%'))):
                    for key in unknown.intersection((extra or {}).get("aliases", ())):
                        found.setdefault(key, pid)
        return [found[k] for k in wanted if k in found], [k for k in wanted if k not in found]

    def counts(self) -> Counts:
        """Paper counts for the sidebar: each filter and each tag."""
        with self._read() as session:
            starred = session.scalar(
                select(func.count(Paper.id)).where(Paper.starred.is_(True))) or 0
            by_state = dict(
                session.execute(
                    select(Paper.read_state, func.count(Paper.id)).group_by(Paper.read_state)
                ).all()
            )
            total = sum(by_state.values())  # every paper has one read state
            tags = dict(
                session.execute(
                    select(Tag.name, func.count(PaperTag.paper_id))
                    .outerjoin(PaperTag)
                    .group_by(Tag.id)
                    .order_by(func.lower(Tag.name))
                ).all()
            )
        return Counts(
            all=total, unread=by_state.get("unread", 0), reading=by_state.get("reading", 0),
            read=by_state.get("read", 0), starred=int(starred), tags=tags,
        )

    def tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        """The tags of each paper (for "Remove tag…" on a selection)."""
        with self._read() as session:
            return {pid: sorted(tags) for pid, tags in self._tags_of(session, ids).items()}

    def count_starred(self, ids: Sequence[int]) -> int:
        """How many of these papers are starred (to decide whether S stars or unstars)."""
        with self._read() as session:
            return self._count_starred(session, ids)

    def _count_starred(self, session: Session, ids: Sequence[int]) -> int:
        return sum(session.scalar(select(func.count(Paper.id)).where(
            Paper.id.in_(id_set), Paper.starred.is_(True))) or 0
            for id_set in self._id_sets(session, ids))

    def tag_names(self) -> list[str]:
        """Every tag, alphabetically."""
        with self._read() as session:
            return list(session.scalars(select(Tag.name).order_by(func.lower(Tag.name))))

    def info(self) -> dict[str, Any]:
        """Location, schema version and counts, for `papershelf info`."""
        counts = self.counts()
        with self._read() as session:
            imports = session.scalar(select(func.count(ImportBatch.id))) or 0
        return {
            "location": self.location,
            "dialect": self.dialect,
            "schema": db.current_revision(self.engine),
            "papers": counts.all,
            "unread": counts.unread,
            "reading": counts.reading,
            "read": counts.read,
            "starred": counts.starred,
            "tags": len(counts.tags),
            "imports": imports,
        }

    # -- citation keys -----------------------------------------------------------

    @staticmethod
    def _key_pattern(session: Session) -> str:
        stored = session.get(Meta, KEY_PATTERN)
        return stored.value if stored is not None and stored.value else keys.DEFAULT_PATTERN

    @property
    def key_pattern(self) -> str:
        """The pattern new papers get their citation key from (a library-wide setting)."""
        with self._read() as session:
            return self._key_pattern(session)

    def set_key_pattern(self, pattern: str) -> None:
        """Change the key pattern for papers added from now on; existing keys stay."""
        pattern = pattern.strip() or keys.DEFAULT_PATTERN
        try:
            keys.validate_pattern(pattern)
        except ValueError as exc:
            raise UserError(f"invalid key pattern {pattern!r}: {exc}") from None
        with self._write() as session:
            session.merge(Meta(name=KEY_PATTERN, value=pattern))

    def regenerate_keys(self, ids: Sequence[int]) -> Change:
        """Give papers new keys from the current pattern (the user's explicit request)."""
        details = self.details(ids)
        with self._read() as session:
            pattern = self._key_pattern(session)
            bases = {d.id: keys.format_key(pattern, d.record) for d in details}
            # The papers' own keys are free for them; the keys others hold that could
            # collide come in one range scan, as for an import.
            allocator = keys.KeyAllocator(
                self._keys_starting_with(session, set(bases.values()))
                - {d.key for d in details})
        new_values: dict[int, dict[str, Any]] = {}
        for detail in details:
            key = allocator.key(bases[detail.id])
            if key != detail.key:
                new_values[detail.id] = {"key": key}
        if not new_values:
            return Change(_describe("Regenerate keys of", ids), frozenset(), touched=_KEY)
        originals = {d.id: d.key for d in details if d.id in new_values}
        self._set_keys({pid: v["key"] for pid, v in new_values.items()})
        description = _describe("Regenerate keys of", list(new_values))

        def undo() -> Change:
            self._set_keys(originals)
            return Change(description, frozenset(originals),
                          undo=lambda: self.regenerate_keys(list(originals)), touched=_KEY)

        return Change(description, frozenset(originals), undo=undo, touched=_KEY)

    def _set_keys(self, new_keys: dict[int, str]) -> None:
        """Set several keys in one transaction; keys may move between these papers."""
        now = utcnow()
        with self._write() as session:
            for pid in new_keys:  # first out of the way, so swaps cannot clash
                session.execute(update(Paper).where(Paper.id == pid).values(key=f"~{pid}~"))
            for pid, key in new_keys.items():
                session.execute(update(Paper).where(Paper.id == pid)
                                .values(key=key, modified_at=now))

    # -- operations on the user's data ----------------------------------------

    def _id_sets(self, session: Session, ids: Sequence[int]) -> Iterator[Any]:
        """WHERE-able id sets covering `ids`: IN lists for a few, a temporary table for
        many (one statement instead of dozens with thousands of parameters each)."""
        if len(ids) <= CHUNK or self.dialect != "sqlite":
            yield from _chunks(list(ids))
            return
        key = (len(ids), hash(tuple(ids)))
        if session.info.get("selected_ids") != key:  # filled once per transaction
            _fill_temp_table(session, "selected_ids", "INTEGER", ids)
            session.info["selected_ids"] = key
        yield select(_SELECTED_IDS.c.value)

    def _current(self, session: Session, ids: Sequence[int], columns: Sequence[str]
                 ) -> dict[int, dict[str, Any]]:
        """Papers' current values of `columns` (read once per transaction; the value
        dicts may be shared between papers: read them, do not change them)."""
        key = (len(ids), hash(tuple(ids)), tuple(columns))
        cached = session.info.get("current")
        if cached is not None and cached[0] == key:
            return dict(cached[1])
        current = self._read_current(session, ids, columns)
        session.info["current"] = (key, current)
        return dict(current)

    def _read_current(self, session: Session, ids: Sequence[int], columns: Sequence[str]
                      ) -> dict[int, dict[str, Any]]:
        cols = [getattr(PaperText if c in TEXT_COLUMNS else Paper, c) for c in columns]
        query = select(Paper.id, *cols)
        if any(c in TEXT_COLUMNS for c in columns):
            query = query.outerjoin(PaperText, PaperText.paper_id == Paper.id)
        current: dict[int, dict[str, Any]] = {}
        conn = session.connection()  # Core, not ORM: no per-row ORM work on big selections
        if self.dialect == "sqlite" and len(ids) > CHUNK:
            # A big selection (star 100,000 papers): through the driver, each column
            # converted by its type's own result processor, as SQLAlchemy would.
            dialect = conn.dialect
            convert = [c.type.dialect_impl(dialect).result_processor(dialect, None)
                       for c in cols]
            names = ", ".join(f"{'t' if c in TEXT_COLUMNS else 'p'}.{c}" for c in columns)
            join = (" LEFT JOIN paper_texts t ON t.paper_id = p.id"
                    if any(c in TEXT_COLUMNS for c in columns) else "")
            list(self._id_sets(session, ids))  # fills the selected_ids table
            with _driver_cursor(conn) as cursor:
                if join:
                    for pid, *values in cursor.execute(
                            f"SELECT p.id, {names} FROM papers p{join} "
                            "WHERE p.id IN (SELECT value FROM selected_ids)"):
                        current[pid] = {
                            name: (f(v) if f is not None and v is not None else v)
                            for name, f, v in zip(columns, convert, values)}
                    return current
                # Short values (star, read state): papers alike come as one group, and
                # share one (read-only) dict of values.
                for *values, members in cursor.execute(
                        f"SELECT {names}, group_concat(p.id) FROM papers p "
                        f"WHERE p.id IN (SELECT value FROM selected_ids) GROUP BY {names}"):
                    shared = {name: (f(v) if f is not None and v is not None else v)
                              for name, f, v in zip(columns, convert, values)}
                    current.update(dict.fromkeys(map(int, members.split(",")), shared))
            return current
        for id_set in self._id_sets(session, ids):
            for row in conn.execute(query.where(Paper.id.in_(id_set))):
                current[row[0]] = dict(zip(columns, row[1:]))
        return current

    def _apply(self, description: str, new_values: dict[int, dict[str, Any]]) -> Change:
        """Set columns per paper in one transaction; the Change's undo restores them."""
        groups: dict[Any, tuple[dict[str, Any], list[int]]] = {}
        for pid, values in new_values.items():
            try:
                group_key: Any = tuple(values.items())
                hash(group_key)
            except TypeError:  # e.g. a dict value (bib_fields)
                group_key = repr(sorted(values.items()))
            groups.setdefault(group_key, (values, []))[1].append(pid)
        return self._apply_groups(description, list(groups.values()))

    def _apply_groups(self, description: str,
                      groups: Sequence[tuple[dict[str, Any], Sequence[int]]],
                      decide: Callable[[Session], tuple[str, Sequence[tuple[
                          dict[str, Any], Sequence[int]]]]] | None = None
                      ) -> Change:
        """Give each group of papers its values, all in one transaction; one UPDATE per
        group, so starring 100,000 papers is one statement. Undo restores each paper.

        `decide`, if given, computes the description and the groups inside that
        transaction (e.g. star or unstar from the papers' current state).
        """
        now = utcnow()
        with self._write() as session:
            if decide is not None:
                description, groups = decide(session)
            groups = [(values, pids) for values, pids in groups if pids]
            if not groups:
                return Change(description, frozenset())
            columns = sorted({c for values, _ in groups for c in values})
            before = self._current(session, [pid for _, pids in groups for pid in pids],
                                   columns)
            for values, pids in groups:
                own = {c: v for c, v in values.items() if c not in TEXT_COLUMNS}
                texts = {c: v for c, v in values.items() if c in TEXT_COLUMNS}
                conn = session.connection()
                for id_set in self._id_sets(session, pids):
                    conn.execute(
                        update(Paper).where(Paper.id.in_(id_set)).values(**own, modified_at=now)
                    )
                    if texts:
                        conn.execute(update(PaperText)
                                     .where(PaperText.paper_id.in_(id_set)).values(**texts))
        changed = frozenset(before)

        def undo() -> Change:
            restore: dict[int, dict[str, Any]] = {}
            for values, pids in groups:
                for pid in pids:
                    if pid in before:
                        restore[pid] = {c: before[pid][c] for c in values}
            return self._apply(description, restore)

        return Change(description, changed, undo=undo, touched=_touched(columns))

    def set_starred(self, ids: Sequence[int], starred: bool) -> Change:
        """Star or unstar papers."""
        what = "Star" if starred else "Unstar"
        return self._apply_groups(_describe(what, ids), [({"starred": starred}, ids)])

    def toggle_starred(self, ids: Sequence[int]) -> Change:
        """Star the papers, or unstar them if every one is already starred (the S key);
        decided and written in one transaction."""
        ids = list(ids)

        def decide(session: Session) -> tuple[str, list[tuple[dict[str, Any], Sequence[int]]]]:
            # (the values read here are the ones undo restores: one read, not two)
            current = self._current(session, ids, ["starred"])
            star = sum(1 for v in current.values() if v["starred"]) != len(set(ids))
            return _describe("Star" if star else "Unstar", ids), [({"starred": star}, ids)]

        return self._apply_groups("", [], decide)

    def set_read_state(self, ids: Sequence[int], state: str) -> Change:
        """Mark papers unread, reading or read (read also records when)."""
        if state not in READ_STATES:
            raise UserError(f"unknown read state {state!r}; use one of {', '.join(READ_STATES)}")
        read_at = utcnow() if state == ReadState.READ.value else None
        values = {"read_state": state, "read_at": read_at}
        return self._apply_groups(_describe(f"Mark {state}:", ids), [(values, ids)])

    def cycle_read_state(self, ids: Sequence[int]) -> Change:
        """Unread → reading → read → unread, all papers following the first one's state."""
        if not ids:
            return Change("Cycle read state", frozenset(), touched=frozenset({READ_STATE}))
        with self._read() as session:
            first = session.scalar(select(Paper.read_state).where(Paper.id == ids[0]))
        order = list(READ_STATES)
        following = order[(order.index(first) + 1) % len(order)] if first in order else "unread"
        return self.set_read_state(ids, following)

    def set_notes(self, paper_id: int, notes: str) -> Change:
        """Replace a paper's notes (Markdown text)."""
        return self._apply("Edit notes", {paper_id: {"notes": notes}})

    def set_title(self, paper_id: int, title: str) -> Change:
        """Give a paper a real title: no longer provisional; the raw BibTeX title is dropped."""
        title = " ".join(title.split())
        if not title:
            raise UserError("a title cannot be empty")
        with self._read() as session:
            row = session.execute(
                select(PaperText.bib_fields, PaperText.bib_extra)
                .where(PaperText.paper_id == paper_id)).first()
        fields = dict(row.bib_fields or {}) if row else {}
        fields.pop("title", None)
        values: dict[str, Any] = {"title": title, "title_provisional": False,
                                  "bib_fields": fields, "title_norm": normalize_text(title)}
        extra = row.bib_extra if row else None
        if extra and "title" in extra.get("raw_source", {}):
            record = with_bib_extra(PaperRecord(), extra)
            del record.raw_source["title"]
            values["bib_extra"] = bib_extra(record)
        return self._apply("Edit title", {paper_id: values})

    def set_key(self, paper_id: int, key: str) -> Change:
        """Change a paper's citation key (the user's explicit choice); must stay unique."""
        key = key.strip()
        if not keys.is_valid_key(key):
            raise UserError(
                f"{key!r} is not a valid citation key (use letters, digits and - _ : . /)"
            )
        with self._read() as session:
            other = session.scalar(select(Paper.id).where(Paper.key == key))
        if other is not None and other != paper_id:
            raise UserError(f"the citation key {key!r} is already used by another paper")
        return self._apply("Change citation key", {paper_id: {"key": key}})

    def _tags_of(self, session: Session, ids: Sequence[int]) -> dict[int, list[str]]:
        tags: dict[int, list[str]] = {i: [] for i in ids}
        for chunk in _chunks(list(ids)):
            for pid, name in session.execute(
                select(PaperTag.paper_id, Tag.name).join(Tag).where(PaperTag.paper_id.in_(chunk))
            ):
                tags[pid].append(name)
        return tags

    def _write_tags(self, session: Session, wanted: dict[int, list[str]]
                    ) -> tuple[dict[int, list[str]], list[int]]:
        """Give each paper exactly the listed tags; returns the tags before and who changed."""
        existing_ids = list(self._current(session, list(wanted), ["id"]))
        before = self._tags_of(session, existing_ids)
        names = {n for pid in existing_ids for n in wanted[pid]}
        tag_ids = dict(session.execute(select(Tag.name, Tag.id).where(Tag.name.in_(names))).all())
        for name in sorted(names - set(tag_ids)):
            tag = Tag(name=name)
            session.add(tag)
            session.flush()
            tag_ids[name] = tag.id
        changed = [pid for pid in existing_ids if sorted(before[pid]) != sorted(wanted[pid])]
        for chunk in _chunks(changed):
            session.execute(delete(PaperTag).where(PaperTag.paper_id.in_(chunk)))
        links = [
            {"paper_id": pid, "tag_id": tag_ids[n]} for pid in changed for n in set(wanted[pid])
        ]
        if links:
            session.execute(insert(PaperTag), links)
        now = utcnow()
        groups: dict[str, list[int]] = {}
        for pid in changed:
            groups.setdefault(", ".join(sorted(set(wanted[pid]), key=str.lower)), []).append(pid)
        for text_value, pids in groups.items():
            for chunk in _chunks(pids):
                session.execute(
                    update(Paper).where(Paper.id.in_(chunk))
                    .values(tags_text=text_value, modified_at=now)
                )
        # Tags no paper carries any more disappear from the sidebar.
        session.execute(delete(Tag).where(~Tag.id.in_(select(PaperTag.tag_id))))
        return before, changed

    def _set_tags(self, description: str, wanted: dict[int, list[str]]) -> Change:
        """Give each paper exactly the listed tags; the Change's undo restores the old ones."""
        with self._write() as session:
            before, changed = self._write_tags(session, wanted)

        def undo() -> Change:
            return self._set_tags(description, {pid: before[pid] for pid in changed})

        return Change(description, frozenset(changed), undo=undo, touched=frozenset({TAGS}))

    def add_tags(self, ids: Sequence[int], names: Iterable[str]) -> Change:
        """Put tags on papers (tags are created as needed)."""
        clean = _clean_tags(names)
        with self._read() as session:
            current = self._tags_of(session, ids)
        wanted = {pid: sorted(set(tags) | set(clean)) for pid, tags in current.items()}
        return self._set_tags(f"Tag {', '.join(clean)}", wanted)

    def remove_tags(self, ids: Sequence[int], names: Iterable[str]) -> Change:
        """Take tags off papers."""
        clean = set(_clean_tags(names))
        with self._read() as session:
            current = self._tags_of(session, ids)
        wanted = {pid: sorted(set(tags) - clean) for pid, tags in current.items()}
        return self._set_tags(f"Remove tag {', '.join(sorted(clean))}", wanted)

    def delete_papers(self, ids: Sequence[int]) -> Change:
        """Delete papers (with their notes and tags); undo brings them back whole."""
        snapshot = self.details(ids)
        with self._write() as session:
            for chunk in _chunks(list(ids)):
                session.execute(delete(Paper).where(Paper.id.in_(chunk)))
            session.execute(delete(Tag).where(~Tag.id.in_(select(PaperTag.tag_id))))

        def undo() -> Change:
            self._restore(snapshot)
            return Change(_describe("Restore", ids), frozenset(ids), structural=True,
                          undo=lambda: self.delete_papers(ids))

        return Change(_describe("Delete", ids), frozenset(d.id for d in snapshot),
                      structural=True, undo=undo)

    def _restore(self, snapshot: Sequence[PaperDetail]) -> None:
        """Put papers back exactly as in `snapshot` (same ids), replacing what is there now."""
        with self._write() as session:
            ids = [d.id for d in snapshot]
            for chunk in _chunks(ids):
                session.execute(delete(Paper).where(Paper.id.in_(chunk)))
            papers = ingest.prepare([d.record for d in snapshot], "")
            states = [(d.starred, d.read_state, d.read_at, "", d.added_at, d.modified_at)
                      for d in snapshot]
            self._insert_prepared(session, papers, ids,
                                  [d.record.key or "" for d in snapshot], states)
            tagged = {d.id: d.record.tags for d in snapshot if d.record.tags}
            if tagged:
                self._write_tags(session, tagged)
                for detail in snapshot:  # writing tags touched these; put them back too
                    if detail.id in tagged:
                        session.execute(update(Paper).where(Paper.id == detail.id)
                                        .values(modified_at=detail.modified_at))

    # -- the search index ---------------------------------------------------------

    def pending_index(self) -> int:
        """How many papers a bulk import left for `index_pending` (not yet searchable)."""
        with self.engine.connect() as conn:
            return search.pending(conn)

    def index_pending(self, progress: Progress | None = None,
                      cancelled: Cancelled | None = None, batch: int = 5000,
                      limit: int | None = None) -> int:
        """Add papers left out by bulk imports to the search index, a batch per transaction
        (at most about `limit` ids in this call, so other writes can go in between).

        Safe to stop at any time (cancel, crash): what is indexed is recorded with it.
        Returns how many ids were covered.
        """
        total = self.pending_index()
        done = 0
        while (cancelled is None or not cancelled()) and (limit is None or done < limit):
            with self._write() as session:
                covered = search.index_some(session.connection(), batch)
            if not covered:
                break
            done += covered
            if progress is not None:
                progress(min(done, total), total)
        return done

    # -- duplicates -------------------------------------------------------------

    def find_duplicates(self, limit: int = 1000) -> list[DuplicatePair]:
        """Pairs of papers that look like the same paper: same DOI, same real title
        (ignoring case, accents and punctuation) or the same abstract."""
        pairs: dict[tuple[int, int], str] = {}
        checks = (
            (func.lower(Paper.doi), "same DOI"),
            (Paper.title_norm, "same title"),
            (Paper.abstract_hash, "same abstract"),
        )
        with self._read() as session:
            for column, reason in checks:
                repeated = (
                    select(column).where(column.is_not(None), column != "")
                    .group_by(column).having(func.count(Paper.id) > 1).limit(limit)
                )
                first: dict[Any, int] = {}
                for value, pid in session.execute(
                    select(column, Paper.id).where(column.in_(repeated))
                    .order_by(column, Paper.id)
                ):
                    if value not in first:
                        first[value] = pid
                    else:
                        pairs.setdefault((first[value], pid), reason)
        return [DuplicatePair(a, b, reason) for (a, b), reason in sorted(pairs.items())][:limit]

    def merge_papers(self, keep_id: int, other_id: int) -> Change:
        """Fold `other` into `keep` and delete it; undo puts both back as they were.

        `keep` keeps its key; empty fields are filled from `other`, a provisional title is
        replaced by a real one, notes are joined, stars and tags combined, and the read
        state is the further along of the two.
        """
        if keep_id == other_id:
            raise UserError("a paper cannot be merged with itself")
        snapshot = self.details([keep_id, other_id])
        if len(snapshot) != 2:
            raise UserError("one of the papers to merge no longer exists")
        keep, other = snapshot
        with self._write() as session:
            self._merge(session, keep_id, other.record, leaving=other_id)
            paper = session.get(Paper, keep_id)
            assert paper is not None
            if other.record.notes.strip() and other.record.notes != paper.notes:
                paper.notes = (paper.notes.rstrip() + "\n\n" + other.record.notes).strip()
            paper.starred = keep.starred or other.starred
            order = list(READ_STATES)
            if order.index(other.read_state) > order.index(keep.read_state):
                paper.read_state, paper.read_at = other.read_state, other.read_at
            paper.modified_at = utcnow()
            session.execute(delete(Paper).where(Paper.id == other_id))
            session.flush()
            tags = sorted(set(keep.record.tags) | set(other.record.tags))
            self._write_tags(session, {keep_id: tags})

        def undo() -> Change:
            self._restore(snapshot)
            return Change("Restore merged papers", frozenset((keep_id, other_id)),
                          structural=True, undo=lambda: self.merge_papers(keep_id, other_id))

        return Change(f"Merge {other.key} into {keep.key}", frozenset((keep_id, other_id)),
                      structural=True, undo=undo)

    # -- import ------------------------------------------------------------------

    def import_file(self, path: str | Path, progress: Progress | None = None,
                    cancelled: Cancelled | None = None) -> ImportReport:
        """Read a file (abstract list or BibTeX) and import it; FormatError if unreadable.

        A big file is read in pieces by worker processes while this one writes
        (`core.ingest`); still one transaction, and the same result as reading it whole.
        `progress` counts bytes of the file then, records otherwise.
        """
        from papershelf.formats import format_of, read_file

        fmt = format_of(path)
        try:
            report = self._import_pieces(str(path), fmt, progress, cancelled)
        except ingest.ReadWhole:
            report = None  # rolled back; the whole-file reader says what is unusual
        if report is not None:
            return report
        result = read_file(path)
        return self.import_result(result, str(path), fmt, progress, cancelled)

    def import_result(self, result: ReadResult, source: str, fmt: str,
                      progress: Progress | None = None,
                      cancelled: Cancelled | None = None) -> ImportReport:
        """Add what a reader read, merging duplicates; one transaction, cancellable."""
        report = ImportReport(source=source, problems=list(result.problems),
                              notices=list(result.notices))
        records = result.records
        total = len(records)
        with self._bulk_write() as session:
            importer = _Importer(self, session, source, fmt, report,
                                 defer=total >= BULK_INDEX_THRESHOLD)
            for start in range(0, total, IMPORT_BATCH):
                if cancelled is not None and cancelled():
                    raise ImportCancelled()
                if progress is not None:
                    progress(start, total)
                importer.add(ingest.prepare(records[start:start + IMPORT_BATCH],
                                            importer.pattern))
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            importer.finish()
        if progress is not None:
            progress(total, total)
        return report

    def _import_pieces(self, path: str, fmt: str, progress: Progress | None,
                       cancelled: Cancelled | None) -> ImportReport | None:
        """Import a big file read in pieces by worker processes; None if it is to be
        read whole (small, or see `ingest.pieces`)."""
        source = ingest.pieces(path, fmt)
        if source is None:
            return None
        total = os.path.getsize(path)
        report = ImportReport(source=path)
        heading: str | None = None
        skipped: list[tuple[int, str]] = []
        read = 0
        first_lines: dict[str, int] = {}  # BibTeX entry keys, lower case: first line
        with self._bulk_write() as session:
            importer = _Importer(self, session, path, fmt, report, defer=True)
            context = ingest.FileContext(path, fmt, importer.pattern)
            if fmt == "abstracts":
                context.venue, context.year, heading = ingest.abstract_list_heading(path)
            with ingest.PieceReader() as reader:
                for piece in reader.read(source, context, cancelled):
                    if cancelled is not None and cancelled():
                        raise ImportCancelled()
                    report.problems += piece.problems
                    report.notices += piece.notices
                    skipped += piece.skipped
                    read += len(piece.papers)
                    papers = piece.papers
                    if fmt == "bibtex":
                        papers = _first_of_each_key(papers, first_lines, path, report)
                    importer.add(papers)
                    if progress is not None:
                        progress(piece.end, total)
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            if fmt == "abstracts":
                from papershelf.formats.abstracts import judge_list

                problems, notices = judge_list(path, heading, context.venue, context.year,
                                               read, skipped)
                report.problems += problems
                report.notices += notices
            importer.finish()
        if progress is not None:
            progress(total, total)
        return report

    def _insert_prepared(self, session: Session, papers: Sequence[ingest.Prepared],
                         ids: Sequence[int], keys_of: Sequence[str],
                         states: Sequence[tuple[Any, ...]] | tuple[Any, ...],
                         import_id: int | None = None) -> None:
        """Insert new papers with their texts and authors: the one insert path.

        `states` gives the user's columns (STATE_COLUMNS) for all papers or for each.
        On SQLite straight through the driver's executemany: for 100,000 papers the ORM's
        bulk insert alone took longer than reading the file.
        """
        if not papers:
            return
        each = isinstance(states, list)
        if self.dialect == "sqlite":  # the driver gets what SQLAlchemy would send it
            states = ([tuple(map(_sqlite_value, s)) for s in states] if each
                      else tuple(map(_sqlite_value, states)))
        rows = [(pid, key, import_id, *p[:ingest.N_COLUMNS],
                 *(states[n] if each else states))
                for n, (pid, key, p) in enumerate(zip(ids, keys_of, papers))]
        texts = [(pid, p[ingest.ABSTRACT], p[ingest.RAW_JSON], p[ingest.EXTRA_JSON])
                 for pid, p in zip(ids, papers)]
        authors = [(pid, n, family, given) for pid, p in zip(ids, papers)
                   for n, (family, given) in enumerate(p[ingest.AUTHORS])]
        if self.dialect != "sqlite":
            session.execute(insert(Paper), [
                dict(zip(_INSERT_COLUMNS, row)) | {
                    "title_provisional": bool(row[_INSERT_COLUMNS.index("title_provisional")])}
                for row in rows])
            session.execute(insert(PaperText), [
                {"paper_id": pid, "abstract": a, "bib_fields": json.loads(b),
                 "bib_extra": e and json.loads(e)}
                for pid, a, b, e in texts])
            if authors:
                session.execute(insert(PaperAuthor), [
                    {"paper_id": pid, "position": n, "family": f, "given": g}
                    for pid, n, f, g in authors])
            return
        with _driver_cursor(session.connection()) as cursor:
            cursor.executemany(_INSERT_PAPERS_SQL, rows)
            cursor.executemany(
                "INSERT INTO paper_texts (paper_id, abstract, bib_fields, bib_extra) "
                "VALUES (?, ?, ?, ?)",
                texts)
            cursor.executemany(
                "INSERT INTO paper_authors (paper_id, position, family, given) "
                "VALUES (?, ?, ?, ?)", authors)

    def _find_existing(self, session: Session, papers: Sequence[ingest.Prepared],
                       below: int) -> dict[int, int]:
        """For each prepared paper that is a paper already in the library (one with an id
        under `below`, there before this import), its index and that paper's id.

        The same paper is: the same DOI; the same citation key with the same title or
        abstract; or the same title or abstract (ignoring case, accents, punctuation)
        where the keys do not tell them apart: the incoming paper has no key (an abstract
        list), its key is one the library paper had merged into it before, the library
        paper has no key of its own (it came from an abstract list), or both have the
        same arXiv id. A BibTeX entry with a different key and only the title or
        abstract in common is another paper: it is added, and Find Duplicates lists the
        pair.
        """
        found: dict[int, int] = {}
        hashes = [p[ingest.HASH] for p in papers]
        titles = [p[ingest.TITLE_NORM] for p in papers]
        by_index_hash = {i: h for i, h in enumerate(hashes) if h}
        dois = {i: p[ingest.DOI].strip().lower() for i, p in enumerate(papers)
                if p[ingest.DOI].strip()}
        by_index_title = {i: t for i, t in enumerate(titles) if t}
        record_keys = {i: p[ingest.KEY] for i, p in enumerate(papers) if p[ingest.KEY]}

        def lookup(column: Any, values: Iterable[str], sql: str | None = None
                   ) -> dict[str, int]:
            """Papers by a column's value (`sql`: the column as SQLite text, if not its name)."""
            hits: dict[str, int] = {}
            for chunk in _chunks(sorted(set(values))):
                found: Iterable[Any]
                if self.dialect == "sqlite":  # plain SQL: compiling 2,000 parameters is slow
                    name = sql or column.key
                    found = session.connection().exec_driver_sql(
                        f"SELECT {name}, id FROM papers WHERE {name} IN "
                        f"({', '.join('?' * len(chunk))}) AND id < ?", (*chunk, below))
                else:
                    found = session.execute(
                        select(column, Paper.id).where(column.in_(chunk), Paper.id < below))
                for value, pid in found:
                    hits.setdefault(value, pid)
            return hits

        # DOIs compare case-insensitively (an index on lower(doi)).
        by_doi = lookup(func.lower(Paper.doi), dois.values(), "lower(doi)")
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
            known = self._identities(session, set(weak.values()))
            for i, candidate in weak.items():
                own_key, aliases, arxiv = known[candidate]
                if (not own_key or record_keys[i] in aliases
                        or (arxiv is not None
                            and arxiv == bibtex.arxiv_id(json.loads(papers[i][ingest.RAW_JSON])))):
                    found[i] = candidate
        return found

    @staticmethod
    def _identities(session: Session, ids: Iterable[int]
                    ) -> dict[int, tuple[bool, list[str], str | None]]:
        """For papers: whether their key is their own (they came from BibTeX), the keys
        merged into them, and their arXiv id."""
        known: dict[int, tuple[bool, list[str], str | None]] = {}
        for chunk in _chunks(sorted(ids)):
            for pid, fields, extra in session.execute(
                    select(PaperText.paper_id, PaperText.bib_fields, PaperText.bib_extra)
                    .where(PaperText.paper_id.in_(chunk))):
                fields = fields or {}
                known[pid] = (bool(fields), list((extra or {}).get("aliases", [])),
                              bibtex.arxiv_id(fields))
        for pid in ids:
            known.setdefault(pid, (False, [], None))
        return known

    def _merge(self, session: Session, paper_id: int, record: PaperRecord,
               leaving: int | None = None) -> list[str]:
        """Complete an existing paper from an imported duplicate; the user's data is kept.

        Every field the duplicate has and the paper lacks is filled in (its verbatim
        BibTeX too), a provisional title is replaced by a real one, authors are given to
        a paper that has none; what the paper has stays. The duplicate's citation key
        becomes an alias of the paper, unless another paper (other than `leaving`, one
        about to go) has it. Returns the names of the fields filled in.
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

        def take_raw(name: str, report: bool = True) -> None:
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

        if record.title and paper.title_provisional and not record.title_provisional:
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
        for name in _TEXT_FIELDS[2:]:  # venue, volume, pages, publisher, doi, url
            value = getattr(record, name)
            if not value:
                continue
            if not getattr(paper, name):
                setattr(paper, name, value)
                if name != "venue":
                    take_raw(name, report=False)
                filled.append(name)
            elif value == getattr(paper, name) and name != "venue":
                take_raw(name, report=False)  # the same value: its verbatim spelling
        if record.year and not paper.year:
            paper.year = record.year
            take_raw("year", report=False)
            filled.append("year")
        elif record.year == paper.year:
            take_raw("year", report=False)
        if record.authors and not paper.authors:
            paper.authors = [
                PaperAuthor(position=n, family=a.family, given=a.given)
                for n, a in enumerate(record.authors)
            ]
            paper.authors_text = authors_text(record.authors)
            paper.authors_sort = authors_sort(record.authors)
            take_raw("author", report=False)
            filled.append("author")
        for name in record.raw:
            if name not in _TEXT_FIELDS and name not in ("author", "year"):
                take_raw(name)
        if "venue" in filled and any(n in filled for n in _VENUE_FIELDS):
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
        return filled

    def _keys_starting_with(self, session: Session, prefixes: set[str]) -> set[str]:
        """Existing keys that start with any of `prefixes` (range scans on the key index)."""
        found: set[str] = set()
        if not prefixes:
            return found
        if self.dialect == "sqlite" and len(prefixes) > 50:
            _fill_temp_table(session, "key_prefixes", "TEXT", prefixes)
            with _driver_cursor(session.connection()) as cursor:
                found.update(k for (k,) in cursor.execute(
                    "SELECT p.key FROM key_prefixes b JOIN papers p "
                    "ON p.key >= b.value AND p.key < b.value || '~'"))
            return found
        for prefix in prefixes:
            found.update(session.scalars(
                select(Paper.key).where(Paper.key >= prefix, Paper.key < prefix + "~")))
        return found

_KEY = frozenset({KEY})


def _touched(columns: Iterable[str]) -> frozenset[str]:
    """What setting these columns touches."""
    return frozenset(_TOUCHED_BY_COLUMN[c] for c in columns if c in _TOUCHED_BY_COLUMN)


def _describe(verb: str, ids: Sequence[int]) -> str:
    n = len(ids)
    return f"{verb} {n} paper" + ("" if n == 1 else "s")


def _clean_tags(names: Iterable[str]) -> list[str]:
    clean = []
    for name in names:
        name = " ".join(name.split()).strip(",")
        if name and name not in clean:
            clean.append(name)
    if not clean:
        raise UserError("give at least one non-empty tag")
    return clean


def _sqlite_value(value: Any) -> Any:
    """A column value as SQLAlchemy stores it in SQLite (for the driver-level insert)."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, bool):
        return int(value)
    return value


# The columns of a new paper, as `_insert_prepared` fills them.
STATE_COLUMNS = ("starred", "read_state", "read_at", "tags_text", "added_at", "modified_at")
_INSERT_COLUMNS = ("id", "key", "import_id", *ingest.PAPER_COLUMNS, *STATE_COLUMNS)
_INSERT_PAPERS_SQL = (f"INSERT INTO papers ({', '.join(_INSERT_COLUMNS)}) "
                      f"VALUES ({', '.join('?' * len(_INSERT_COLUMNS))})")


class _Importer:
    """One import's writing: prepared papers in, in batches, each merged into the
    paper it duplicates or keyed and inserted (ids assigned here, in file order)."""

    def __init__(self, library: Library, session: Session, source: str, fmt: str,
                 report: ImportReport, defer: bool) -> None:
        self.library = library
        self.session = session
        self.report = report
        self.pattern = library._key_pattern(session)
        self.batch = ImportBatch(source=source, format=fmt)
        session.add(self.batch)
        session.flush()  # from here on this transaction holds the write lock
        self.first_id = (session.scalar(select(func.max(Paper.id))) or 0) + 1
        self.next_id = self.first_id
        # A big import leaves its papers out of the search index; index_pending()
        # adds them in batches afterwards (one index build instead of row by row).
        self.deferred = defer and search.defer(session.connection(), self.first_id)
        self.seen: set[str] = set()  # fingerprints of the papers added so far
        self.allocator = keys.KeyAllocator(set())  # keys taken, in the library or now
        self.fetched: set[str] = set()  # key bases whose keys in the library are known
        now = utcnow()
        self.states = (False, ReadState.UNREAD.value, None, "", now, now)

    def add(self, papers: Sequence[ingest.Prepared]) -> None:
        library, session, report = self.library, self.session, self.report
        matches = library._find_existing(session, papers, self.first_id)
        new: list[ingest.Prepared] = []
        for index, paper in enumerate(papers):
            existing = matches.get(index)
            if existing is not None:
                filled = library._merge(session, existing, ingest.record_of(paper))
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
            new.append(paper)
        keys_of = self.choose_keys([p[ingest.WANTED_KEY] for p in new],
                                   [p[ingest.KEY_BASE] for p in new])
        ids = range(self.next_id, self.next_id + len(new))
        self.next_id += len(new)
        library._insert_prepared(session, new, ids, keys_of, self.states, self.batch.id)
        report.added_ids.extend(ids)
        tagged = {pid: list(p[ingest.TAGS]) for pid, p in zip(ids, new) if p[ingest.TAGS]}
        if tagged:
            library._write_tags(session, tagged)

    def choose_keys(self, wanted: Sequence[str | None], bases: Sequence[str]) -> list[str]:
        """Unique keys for new papers: the key a record brought if free, else its base
        (from the key pattern) made unique.

        The keys already in the library that could collide (each base and its a, b,
        c... variants) are fetched once per base and import, in one statement a batch.
        """
        fresh = set(bases) - self.fetched
        self.allocator.taken |= self.library._keys_starting_with(self.session, fresh)
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
                    self.report.notices.append(
                        f"citation key {want!r} was already in use; the new paper is {key!r}")
            chosen.append(key)
        return chosen

    def finish(self) -> None:
        report = self.report
        report.added = len(report.added_ids)
        if self.deferred:
            search.close_deferred(self.session.connection(), self.first_id, self.next_id - 1,
                                  index_now=report.added < BULK_INDEX_THRESHOLD)
        self.batch.added, self.batch.merged = report.added, report.merged
        self.batch.failed = report.failed


def _completion(session: Session, path: str, paper_id: int, paper: ingest.Prepared,
                filled: Sequence[str]) -> str:
    """The notice of a merge: which paper an entry completed, and with what."""
    key = session.scalar(select(Paper.key).where(Paper.id == paper_id))
    where = f"{path}:{paper[ingest.LINE]}" if paper[ingest.LINE] else path
    entry = f"entry '{paper[ingest.KEY]}'" if paper[ingest.KEY] else "this paragraph"
    return f"{where}: {entry} completed '{key}' with {', '.join(filled)}"


def _first_of_each_key(papers: list[ingest.Prepared], first_lines: dict[str, int],
                       path: str, report: ImportReport) -> list[ingest.Prepared]:
    """BibTeX entries of a piece whose key came earlier in the file are skipped, as
    the whole-file reader skips them (each piece has done so within itself)."""
    from papershelf.formats.bibtex import duplicate_key

    kept = []
    for paper in papers:
        key, line = paper[ingest.KEY] or "", paper[ingest.LINE]
        first = first_lines.setdefault(key.lower(), line)
        if first != line:
            report.problems.append(duplicate_key(path, key, line, first))
            continue
        kept.append(paper)
    return kept


__all__ = [
    "Change", "Counts", "DuplicatePair", "ImportCancelled", "ImportReport", "Library",
    "PaperDetail", "PaperRow", "UserError", "View",
]
