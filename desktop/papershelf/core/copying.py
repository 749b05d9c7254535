"""Copying a whole library into a new one: a file onto a server, a server into a file.

`copy_library` carries every row of every table of the schema (`Base.metadata`, so
whatever the schema is at head) with its ids, keys and timestamps unchanged, a chunk at a
time. The source is read in one snapshot and never written. The destination is new or
empty and gets everything or nothing: a library file is built beside its final name and
renamed into place when complete; a library on a database server is filled in one
transaction. Not copied: `alembic_version` (the destination is migrated when it is
opened), the change log (`changes`, the source's own history) and SQLite's search index
(rebuilt on the destination). A row that belongs to a user (its `user_name`) is the
copying user's: their rows in the source become the destination's current user's, so
Alice's stars in her file become her stars on the server, and a copy off a server takes
the copier's own rows (all that row-level security shows them anyway).

`init_shared` sets up an empty library on a database server, for `copy_library` or for
a first window to fill.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    Engine,
    Table,
    TableClause,
    column,
    create_engine,
    event,
    func,
    insert,
    inspect,
    literal,
    select,
    table,
    text,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from papershelf.core import backup, db, edits, search
from papershelf.core.context import Context
from papershelf.core.importing import Progress
from papershelf.core.models import Base
from papershelf.core.store import pg_members, store_for
from papershelf.core.store.postgres import Copy
from papershelf.errors import LibraryError, NewerLibraryError, UserError

# Tables of the schema whose rows stay where they are: the source's change log, and
# the rows other users of a shared library keep for undoing deletions (not the copier's),
# and the auto-exports (files of this computer: the copy would write over them too).
NOT_COPIED = frozenset({"changes", "personal_kept", "annotations_kept", "auto_exports"})
# A column naming the user a row belongs to.
USER_COLUMN = "user_name"
CHUNK = 5000  # rows read, and written, at a time


@dataclass(frozen=True)
class CopyReport:
    """What a copy carried: rows per table, rows with notes, and how long it took."""

    source: str
    destination: str
    rows: dict[str, int]
    notes: int
    seconds: float

    @property
    def papers(self) -> int:
        """How many papers were copied."""
        return self.rows.get("papers", 0)

    @property
    def tags(self) -> int:
        """How many tags were copied."""
        return self.rows.get("tags", 0)

    @property
    def personal(self) -> int:
        """How many rows of the user's own data (stars, read states...) were copied."""
        return self.rows.get("personal", 0)

    def summary(self) -> str:
        """One line: from where, to where, and the counts a user recognises."""
        return (f"copied {self.source} to {self.destination}: "
                f"{_count(self.papers, 'paper')}, {_count(self.tags, 'tag')}, "
                f"{_count(self.notes, 'note')}, {_count(self.personal, 'personal row')} "
                f"({self.seconds:.1f} s)")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def copy_library(source: str, destination: str,
                 progress: Progress | None = None) -> CopyReport:
    """Copy the library at `source` (a path or URL) into a new one at `destination`: a
    library file that does not exist yet, or an empty database on a server. UserError or
    LibraryError, one line, and nothing written, if either cannot be used. `progress`
    counts rows."""
    started = time.monotonic()
    source_url, dest_url = db.resolve_target(source), db.resolve_target(destination)
    if source_url == dest_url:
        raise UserError(f"{db.describe(source_url)}: a library cannot be copied onto itself")
    reader = _open_source(source_url)
    try:
        with _errors_of(source_url), reader.connect() as src:
            if src.dialect.name != "sqlite":  # (a library file's BEGIN is a snapshot)
                src.execution_options(isolation_level="REPEATABLE READ",
                                      postgresql_readonly=True)
            with src.begin():
                fill = _Filler(src, _Plan.read(src, source_url), progress)
                dest_file = backup.library_file(dest_url)
                if dest_file is None:
                    _to_server(dest_url, fill)
                else:
                    _to_file(dest_file, fill)
    finally:
        reader.dispose()
    return CopyReport(db.describe(source_url), db.describe(dest_url), fill.copied,
                      fill.notes, time.monotonic() - started)


def init_shared(url: str) -> str:
    """Create the schema of an empty library in the empty database at `url` (a server's,
    e.g. PostgreSQL's); one line saying what was done. UserError or LibraryError if the
    database holds anything else or is a Papershelf library already."""
    url = db.resolve_target(url)
    where = db.describe(url)
    if backup.library_file(url) is not None:
        raise UserError(f"{where}: not a database server's URL (a library file needs no "
                        "setting up: it is created when it is first opened)")
    engine = db.create_library_engine(url)
    try:
        with _errors_of(url):
            revision = db.current_revision(engine)  # other tables: LibraryError
    finally:
        engine.dispose()
    if revision == db.SCHEMA_HEAD:
        raise UserError(f"{where}: already a Papershelf library (schema {revision}); "
                        "nothing was changed")
    engine, _ = db.open_engine(url)
    engine.dispose()
    if revision is not None:
        return (f"{where}: upgraded the Papershelf library from schema {revision} to "
                f"{db.SCHEMA_HEAD}")
    return (f"{where}: created an empty Papershelf library (schema {db.SCHEMA_HEAD}); "
            f"fill it with `papershelf copy LIBRARY {where}`")


def grant_to_group(url: str, role: str) -> str:
    """Let the members of database role `role` read and write the shared library at `url`
    as the app does, and no more (`pg_members.grant_to`); one line saying so. Each member
    still sees only their own personal rows (row-level security)."""
    url = db.resolve_target(url)
    where = db.describe(url)
    if backup.library_file(url) is not None:
        raise UserError(f"{where}: a library file has no database roles to grant to")
    engine = db.create_library_engine(url)
    try:
        with _errors_of(url), engine.begin() as conn:
            pg_members.grant_to(conn, conn.dialect.identifier_preparer.quote(role))
    finally:
        engine.dispose()
    return f"{where}: the members of {role!r} may now read and write the library"


# -- the source --------------------------------------------------------------------------


def _open_source(url: str) -> Engine:
    """An engine that only reads the library at `url`; a library file is opened
    read-only, with none of the settings a library's engine writes (its journal mode)."""
    path = backup.library_file(url)
    if path is None:
        return db.create_library_engine(url)
    if not path.is_file():
        raise UserError(f"{path}: no such library file")
    uri = f"{path.as_uri()}?mode=ro"
    engine = create_engine(
        "sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # BEGIN comes from "begin" below
        dbapi_conn.execute(f"PRAGMA busy_timeout = {db.BUSY_TIMEOUT_MS}")

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")  # every table read in one snapshot

    return engine


@dataclass(frozen=True)
class _Plan:
    """What is copied: the tables in the order their rows can be inserted, how many rows
    each has (for progress), and the user whose rows are copied."""

    url: str
    tables: list[Table]
    counts: dict[str, int]
    user: str

    @classmethod
    def read(cls, src: Connection, url: str) -> _Plan:
        """The plan for the library `src` reads; UserError if it is not one at head."""
        _check_source(src, url)
        user = str(src.scalar(select(store_for(src.engine).user)) or "")
        tables = [t for t in Base.metadata.sorted_tables if t.name not in NOT_COPIED]
        counts = {t.name: int(src.scalar(
            _owned(select(func.count()).select_from(t), t, user)) or 0) for t in tables}
        return cls(url, tables, counts, user)


def _check_source(src: Connection, url: str) -> None:
    """UserError unless `src` is a Papershelf library at this version's schema."""
    where = db.describe(url)
    tables = set(inspect(src).get_table_names())
    if "alembic_version" not in tables:
        raise UserError(f"{where}: not a Papershelf library"
                        + ("" if tables else " (it is empty)"))
    revision = src.scalar(text("SELECT version_num FROM alembic_version"))
    if revision == db.SCHEMA_HEAD:
        return
    if revision in db.KNOWN_REVISIONS:
        raise UserError(f"{where}: the library's schema ({revision}) is older than this "
                        f"Papershelf's ({db.SCHEMA_HEAD}); open it once with Papershelf to "
                        "upgrade it, then copy it")
    raise NewerLibraryError(f"{where}: this library was written by a newer version of "
                            f"Papershelf (schema {revision}); update Papershelf to copy it")


def _owned(query: Any, source: Table, user: str) -> Any:
    """`query` on `source`, kept to the rows of `user` if its rows belong to users."""
    if USER_COLUMN in source.c:
        return query.where(source.c[USER_COLUMN] == user)
    return query


# -- copying rows --------------------------------------------------------------------------


class _Filler:
    """Copies a plan's rows from the source into a destination, in the destination's
    transaction, and keeps count. The copy is logged as one change of many papers, for
    the windows open on the (empty) destination."""

    def __init__(self, src: Connection, plan: _Plan, progress: Progress | None) -> None:
        self.src = src
        self.plan = plan
        self.progress = progress
        self.copied: dict[str, int] = {}
        self.notes = 0

    def __call__(self, ctx: Context, session: Session) -> None:
        total, done = sum(self.plan.counts.values()), 0
        if self.progress is not None:
            self.progress(done, total)
        dst = session.connection()
        deferred = ctx.store.search.defer(dst, 0)  # an index that can wait: built after
        for source in self.plan.tables:
            copy = _TableCopy(source, dst, self.plan.user, ctx.user_name)
            self.copied[source.name] = 0
            copy.start(dst)
            for rows in _read(self.src, copy.query, self.plan.url):
                copy.write(dst, rows)
                self.copied[source.name] += len(rows)
                self.notes += copy.notes(rows)
                done += len(rows)
                if self.progress is not None:
                    self.progress(done, total)
            copy.finish(dst)
        _advance_sequences(dst, self.plan.tables)
        if deferred:
            search.rebuild(dst)
        ctx.log(session, {edits.PAPERS}, None, structural=True)


def _read(src: Connection, query: Any, url: str) -> Iterator[Sequence[Any]]:
    """The rows of `query`, a chunk at a time; a database error is the source's."""
    with _errors_of(url):
        yield from src.execution_options(yield_per=CHUNK).execute(query).partitions()


class _TableCopy:
    """The rows of one table: read from the source, converted, written to the destination
    in the quickest way it takes many rows: COPY on PostgreSQL, the driver's executemany
    where parameters are positional (SQLite), else SQLAlchemy's executemany."""

    def __init__(self, source: Table, dst: Connection, source_user: str,
                 dest_user: str) -> None:
        columns = [c for c in source.columns if c.computed is None]
        self.names = [c.name for c in columns]
        self.query = _owned(select(*columns), source, source_user).order_by(
            *source.primary_key.columns)
        # A nullable JSON column stores None as SQL NULL, as it was read, not JSON null.
        self.target: TableClause = table(source.name, *(
            column(c.name, JSON(none_as_null=True)
                   if isinstance(c.type, JSON) and c.nullable else c.type)
            for c in columns))
        self.dest_user = dest_user
        self.user_at = self.names.index(USER_COLUMN) if USER_COLUMN in self.names else None
        self.times = [i for i, c in enumerate(columns) if isinstance(c.type, DateTime)]
        self.notes_at = [i for i, name in enumerate(self.names) if name.endswith("notes")]
        # COPY on PostgreSQL's psycopg (row-level security respected: see `Copy`).
        self.copy = (Copy(dst, source.name, self.names)
                     if dst.dialect.driver == "psycopg" else None)
        compiled = insert(self.target).compile(dialect=dst.dialect)
        self.insert_sql = compiled.string if compiled.positiontup == self.names else None
        # What the driver takes for each value, as SQLAlchemy would bind it.
        self.binds = [c.type.dialect_impl(dst.dialect).bind_processor(dst.dialect)
                      for c in self.target.columns]

    def write(self, dst: Connection, rows: Sequence[Any]) -> None:
        """Insert the source's `rows`: the user rewritten, times in UTC."""
        if self.copy is None and self.insert_sql is None:
            dst.execute(insert(self.target),
                        [dict(zip(self.names, row)) for row in self._convert(rows)])
            return
        binds = self.binds
        values = [[v if f is None else f(v) for f, v in zip(binds, row)]
                  for row in self._convert(rows)]
        if self.copy is None:
            dst.exec_driver_sql(self.insert_sql or "", list(map(tuple, values)))
        else:
            self.copy.write(dst, values)

    def start(self, dst: Connection) -> None:
        """Before the first rows are written."""
        if self.copy is not None:
            self.copy.start(dst)

    def finish(self, dst: Connection) -> None:
        """After the last rows were written."""
        if self.copy is not None:
            self.copy.finish(dst)

    def _convert(self, rows: Sequence[Any]) -> Sequence[Sequence[Any]]:
        if self.user_at is None and not self.times:
            return rows
        converted = []
        for row in rows:
            values = list(row)
            if self.user_at is not None:
                values[self.user_at] = self.dest_user
            for i in self.times:
                values[i] = _utc(values[i])
            converted.append(values)
        return converted

    def notes(self, rows: Sequence[Any]) -> int:
        """How many of `rows` carry notes (shared or private)."""
        if not self.notes_at:
            return 0
        return sum(1 for row in rows if any(row[i] for i in self.notes_at))


def _utc(value: datetime | None) -> datetime | None:
    """A stored time as an aware UTC time (a library file's, without its zone, is UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _advance_sequences(dst: Connection, tables: Sequence[Table]) -> None:
    """On PostgreSQL, move each integer key's sequence past the ids copied, so that new
    rows do not collide with them (SQLite takes the next id from the table itself)."""
    if dst.dialect.name != "postgresql":
        return
    quote = dst.dialect.identifier_preparer.quote
    for copied in tables:
        key = copied.autoincrement_column
        if key is not None:
            dst.execute(text(f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                             f"(SELECT max({quote(key.name)}) FROM {quote(copied.name)}))"),
                        {"table": quote(copied.name), "column": key.name})


# -- the destination -------------------------------------------------------------------

# Fills a destination library in its transaction (a `_Filler`).
_Fill = Callable[[Context, Session], None]


def _to_file(path: Path, fill: _Fill) -> None:
    """Fill a new library file at `path`: built as a temporary file beside it, renamed
    into place when complete; on any failure no file is left behind."""
    if path.exists():
        raise UserError(f"{path}: exists already; name a new file (a copy never "
                        "replaces a library)")
    _remove_stale_temporaries(path.parent)
    # Named as backups name theirs: what a copy killed midway left is cleared later.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        engine, url = db.open_engine(str(tmp))
        try:
            ctx = Context(engine, url, store_for(engine))
            # Without the write-ahead log, the rows go straight into the new file (the
            # log would hold all of them, then copy them over); and the file is whole.
            _journal_without_log(engine, url)
            with _writing(ctx) as session:
                fill(ctx, session)
            _journal_without_log(engine, url)
        finally:
            engine.dispose()
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        if path.exists():
            raise UserError(f"{path}: was created by something else during the copy; "
                            "it was left as it is")
        os.replace(tmp, path)
    except OSError as exc:
        raise LibraryError(f"{path}: cannot be written ({exc.strerror})") from None
    except LibraryError as exc:  # (about the file the user named, not its temporary)
        raise type(exc)(str(exc).replace(str(tmp), str(path))) from None
    finally:
        _remove_with_logs(tmp)


def _journal_without_log(engine: Engine, url: str) -> None:
    """Leave WAL mode for a rollback journal, on the connection the engine hands out
    next (a library's engine sets WAL again on each new connection: harmless here)."""
    with _errors_of(url):
        raw = engine.raw_connection()
        try:
            raw.driver_connection.execute(  # type: ignore[union-attr]
                "PRAGMA journal_mode = DELETE")
        finally:
            raw.close()


def _to_server(url: str, fill: _Fill) -> None:
    """Fill the empty database at `url` in one transaction (its schema is created or
    upgraded first, when it is opened: only once it is known to hold no rows)."""
    engine = db.create_library_engine(url)
    try:
        with _errors_of(url):
            if db.current_revision(engine) is not None:  # other tables: LibraryError
                with engine.connect() as conn:
                    _refuse_unless_empty(conn, url)
    finally:
        engine.dispose()
    engine, url = db.open_engine(url)
    try:
        with _errors_of(url):
            ctx = Context(engine, url, store_for(engine))
        with _writing(ctx) as session:
            _refuse_unless_empty(session.connection(), url)  # (in case someone wrote since)
            fill(ctx, session)
    finally:
        engine.dispose()


def _refuse_unless_empty(conn: Connection, url: str) -> None:
    """UserError if a table of the library at `url` holds a row (its change log aside:
    the log of an empty library is empty enough)."""
    present = set(inspect(conn).get_table_names())
    for checked in Base.metadata.sorted_tables:
        if checked.name in present and checked.name not in NOT_COPIED and conn.scalar(
                select(literal(1)).select_from(checked).limit(1)) is not None:
            raise UserError(f"{db.describe(url)}: not empty (it has {checked.name}); copy "
                            "into a new library file or an empty database")


@contextmanager
def _writing(ctx: Context) -> Iterator[Session]:
    """One transaction on the destination, tuned for a big write by its store; any
    database error is the destination's."""
    with _errors_of(ctx.url), ctx.bulk_write() as session:
        yield session


@contextmanager
def _errors_of(url: str) -> Iterator[None]:
    """A database error becomes a LibraryError about the library at `url`."""
    try:
        yield
    except DBAPIError as exc:
        raise LibraryError(db.environment_message(url, exc)) from None


def _remove_stale_temporaries(folder: Path) -> None:
    """Clear what copies and backups killed midway left in `folder`, logs included."""
    for path in backup.remove_stale_temporaries(folder):
        _remove_with_logs(path)


def _remove_with_logs(path: Path) -> None:
    """Delete a library file and its SQLite logs, whichever exist."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()
