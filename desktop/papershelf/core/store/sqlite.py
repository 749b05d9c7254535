"""SQLite's store: the generic store plus SQLite's own fast paths (see `core.store`).

Connections get WAL journaling, foreign keys and a busy timeout; a big import gets a
bigger page cache and no WAL checkpoint at its commit. The bulk paths run on the
driver's own cursor, skipping SQLAlchemy's statement compilation and result rows (for
100,000 papers those took longer than the work itself): id sets go into a temporary
table filled from one JSON array (`json_each`), new papers go in through the driver's
`executemany`, and many papers are read back with only their columns' own converters.
Search is FTS5 (`search.FTS5Index`). Every other operation is the generic store's.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    Connection,
    Engine,
    Integer,
    Select,
    column,
    create_engine,
    event,
    literal,
    select,
    table,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from papershelf.core import fields, ingest
from papershelf.core.search import FTS5Index, SearchIndex, expanded_query
from papershelf.core.search.annotated import AnnotatedIndex
from papershelf.core.search.fts5 import annotation_hits
from papershelf.core.store.generic import (
    CHUNK,
    GenericStore,
    Make,
    T,
    authors_by_paper,
    chunks,
    column_of,
)
from papershelf.errors import LibraryError
from papershelf.formats.records import Author

BUSY_TIMEOUT_MS = 5000
BULK_CACHE_KB = 64 * 1024  # SQLite's page cache during an import
# The indexes of `papers` an import looks its papers up by (`importing.find_existing`);
# without them, each lookup reads the library's papers, so they are set aside only for
# a library of at most SCANNED_MAX papers.
_LOOKUP_INDEXES = frozenset({"ix_papers_title_norm", "ix_papers_abstract_hash",
                             "ix_papers_doi_lower", "ix_papers_doi"})
SCANNED_MAX = 5000
# More prefixes than this are looked up through a temporary table.
PREFIX_TABLE_MIN = 50

_decode_json = json.JSONDecoder().decode
_SELECTED_IDS = table("selected_ids", column("value", Integer))
_PERSONAL_COLUMNS = ingest.PERSONAL_INSERT_COLUMNS
_INSERT_PAPERS_SQL = (f"INSERT INTO papers ({', '.join(ingest.INSERT_COLUMNS)}) "
                      f"VALUES ({', '.join('?' * len(ingest.INSERT_COLUMNS))})")


def _connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event emit BEGIN, so DDL and DML are both transactional.
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN")


def _driver_cursor(conn: Connection) -> contextlib.closing[Any]:
    """The SQLite driver's own cursor of `conn`, closed after use."""
    return contextlib.closing(conn.connection.driver_connection.cursor())  # type: ignore[union-attr]


def _fill_temp_table(session: Session, name: str, sql_type: str,
                     values: Iterable[Any]) -> None:
    """A connection-private table `name(value)` holding `values`, for joins that would
    otherwise need thousands of bound parameters."""
    conn = session.connection()
    conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {name} "
                         f"(value {sql_type} PRIMARY KEY)")
    conn.exec_driver_sql(f"DELETE FROM {name}")
    values = list(values)
    with _driver_cursor(conn) as cursor:
        try:
            # One statement reading a JSON array, several times faster than executemany
            # through SQLAlchemy; rows one by one where SQLite lacks JSON.
            cursor.execute(
                f"INSERT OR IGNORE INTO {name} (value) SELECT value FROM json_each(?)",
                (json.dumps(values),))
        except sqlite3.OperationalError:
            cursor.executemany(f"INSERT OR IGNORE INTO {name} (value) VALUES (?)",
                               [(v,) for v in values])


def _sqlite_value(value: Any) -> Any:
    """A column value as SQLAlchemy stores it in SQLite (for the driver-level insert)."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, bool):
        return int(value)
    return value


def _converters(conn: Connection, columns: Sequence[str]) -> list[Any]:
    """Each column's result processor (None if its values need none): what SQLAlchemy
    would apply to a driver value of the column. JSON text is decoded straight away
    (SQLAlchemy's processor first checks for numbers, which are never stored here)."""
    dialect = conn.dialect
    types = [column_of(c).type for c in columns]
    return [_decode_json if isinstance(t, JSON)
            else t.dialect_impl(dialect).result_processor(dialect, None) for t in types]


def _name(column: str) -> str:
    """A column in SQL: of papers `p`, paper_texts `t`, or the user's personal row `m`
    (with its default where there is none)."""
    if column in fields.PERSONAL_DEFAULTS:
        default = fields.PERSONAL_DEFAULTS[column]
        if default is None:
            return f"m.{column}"
        return f"coalesce(m.{column}, {_sql_literal(_sqlite_value(default))})"
    return f"{'t' if column in fields.TEXT_COLUMNS else 'p'}.{column}"


def _names(columns: Sequence[str]) -> str:
    """`columns` in SQL (`_name`)."""
    return ", ".join(map(_name, columns))


def _sql_literal(value: Any) -> str:
    """A string or number as an SQL literal."""
    return "'" + value.replace("'", "''") + "'" if isinstance(value, str) else str(value)


def _joins(columns: Sequence[str], user_name: str) -> str:
    """The joins `_names(columns)` needs after `FROM papers p`."""
    joins = ""
    if not fields.TEXT_COLUMNS.isdisjoint(columns):
        joins += " LEFT JOIN paper_texts t ON t.paper_id = p.id"
    if not fields.PERSONAL_DEFAULTS.keys().isdisjoint(columns):
        joins += (" LEFT JOIN personal m ON m.paper_id = p.id "
                  f"AND m.user_name = {_sql_literal(user_name)}")
    return joins


class SQLiteStore(GenericStore):
    """`core.store.Store` for SQLite."""

    search: SearchIndex = AnnotatedIndex(FTS5Index(), literal(""), annotation_hits)

    @classmethod
    def engine_for(cls, url: str) -> Engine:
        """An engine with WAL, foreign keys and a busy timeout; the file's folder is
        created if missing."""
        database = make_url(url).database
        if database and database != ":memory:":
            folder = Path(database).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise LibraryError(
                    f"{folder}: cannot create the library folder ({exc.strerror})"
                ) from None
        engine = create_engine(url)
        event.listen(engine, "connect", _connect)
        event.listen(engine, "begin", _begin)
        return engine

    @classmethod
    def describe(cls, url: str) -> str:
        """The library's file path."""
        return make_url(url).database or ":memory:"

    @contextmanager
    def bulk_session(self) -> Iterator[Session]:
        """With a bigger page cache (a big import updates a dozen indexes all over) and
        no WAL checkpoint at its commit (that copying is left to the next ordinary
        write). Still one transaction, and every foreign key checked as always: a row
        referring to no paper fails its statement, a deleted paper takes its rows (with
        the checks off, 100,000 imported entries took no measurable time less)."""
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

    def set_indexes_aside(self, session: Session, existing: int, coming: int) -> list[str]:
        """An import of more papers than the library holds drops the indexes of `papers`
        (one SQL statement each, as the schema has it) and builds them again at its end:
        sorting the whole table once is cheaper than inserting each row into a dozen
        trees (the 100,000-entry .bib: 0.9 s instead of 2.5 s). The unique key stays (the
        new keys are checked against it), and the lookup indexes where the library has
        more than a few papers. In the import's transaction: a cancel or a crash leaves
        every index as it was."""
        if coming <= existing:
            return []
        conn = session.connection()
        aside = [(name, sql) for name, sql in conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' "
            "AND tbl_name = 'papers' AND sql IS NOT NULL ORDER BY name")
            if existing <= SCANNED_MAX or name not in _LOOKUP_INDEXES]
        for name, _ in aside:
            conn.exec_driver_sql(f'DROP INDEX "{name}"')
        return [sql for _, sql in aside]

    def id_sets(self, session: Session, ids: Sequence[int]) -> Iterator[Any]:
        """IN lists for a few ids, a temporary table for many (one statement instead of
        dozens with thousands of parameters each)."""
        if len(ids) <= CHUNK:
            yield from chunks(list(ids))
            return
        self._select_ids(session, ids)
        yield select(_SELECTED_IDS.c.value)

    @staticmethod
    def _select_ids(session: Session, ids: Sequence[int]) -> None:
        """Put `ids` in the temporary table selected_ids (once per transaction)."""
        key = (len(ids), hash(tuple(ids)))
        if session.info.get("selected_ids") != key:
            _fill_temp_table(session, "selected_ids", "INTEGER", ids)
            session.info["selected_ids"] = key

    def _id_clauses(self, session: Session, ids: Sequence[int]
                    ) -> Iterator[tuple[str, Sequence[int]]]:
        """`id_sets` as SQL for the driver: `IN (...)` and its parameters."""
        if len(ids) <= CHUNK:
            for chunk in chunks(list(ids)):
                yield f"IN ({', '.join('?' * len(chunk))})", chunk
            return
        self._select_ids(session, ids)
        yield "IN (SELECT value FROM selected_ids)", ()

    def read_current(self, session: Session, ids: Sequence[int], columns: Sequence[str]
                     ) -> dict[int, dict[str, Any]]:
        """A big selection (star 100,000 papers) through the driver, each column converted
        by its type's own result processor, as SQLAlchemy would."""
        if len(ids) <= CHUNK:
            return super().read_current(session, ids, columns)
        conn = session.connection()
        convert = _converters(conn, columns)
        names = _names(columns)
        current: dict[int, dict[str, Any]] = {}
        ((where, _),) = self._id_clauses(session, ids)
        joins = _joins(columns, self.user_name)
        with _driver_cursor(conn) as cursor:
            if not fields.TEXT_COLUMNS.isdisjoint(columns):
                for pid, *values in cursor.execute(
                        f"SELECT p.id, {names} FROM papers p{joins} WHERE p.id {where}"):
                    current[pid] = {
                        name: (f(v) if f is not None and v is not None else v)
                        for name, f, v in zip(columns, convert, values)}
                return current
            # Short values (star, read state): papers alike come as one group, and share
            # one (read-only) dict of values.
            for *values, members in cursor.execute(
                    f"SELECT {names}, group_concat(p.id) FROM papers p{joins} "
                    f"WHERE p.id {where} GROUP BY {names}"):
                shared = {name: (f(v) if f is not None and v is not None else v)
                          for name, f, v in zip(columns, convert, values)}
                current.update(dict.fromkeys(map(int, members.split(",")), shared))
        return current

    def read_papers(self, session: Session, ids: Sequence[int], columns: Sequence[str],
                    make: Make[T]) -> dict[int, T]:
        """Through the driver (for 100,000 papers SQLAlchemy's rows and their type
        processing took longer than writing the BibTeX)."""
        found: dict[int, T] = {}
        conn = session.connection()
        convert = [(i, f) for i, f in enumerate(_converters(conn, columns)) if f is not None]
        people: dict[tuple[str, str], Author] = {}  # one Author per name, shared
        names, joins = _names(columns), _joins(columns, self.user_name)
        with _driver_cursor(conn) as cursor:
            for where, params in self._id_clauses(session, ids):
                authors = authors_by_paper(cursor.execute(
                    "SELECT paper_id, family, given FROM paper_authors "
                    f"WHERE paper_id {where} ORDER BY paper_id, position", params), people)
                tags: dict[int, list[str]] = {}
                for pid, name in cursor.execute(
                        "SELECT pt.paper_id, t.name FROM paper_tags pt JOIN tags t "
                        f"ON t.id = pt.tag_id WHERE pt.paper_id {where} ORDER BY t.name",
                        params):
                    tags.setdefault(pid, []).append(name)
                for pid, *row in cursor.execute(
                        f"SELECT p.id, {names} FROM papers p{joins} WHERE p.id {where}",
                        params):
                    for i, f in convert:
                        if row[i] is not None:
                            row[i] = f(row[i])
                    found[pid] = make(pid, row, authors.get(pid, []), tags.get(pid, []))
        return found

    def insert_papers(self, session: Session, papers: Sequence[tuple[Any, ...]],
                      ids: Sequence[int], keys_of: Sequence[str],
                      states: Sequence[tuple[Any, ...]] | tuple[Any, ...],
                      import_id: int | None) -> None:
        """The states as SQLAlchemy would store them: the rows go to the driver as they are."""
        states = ([tuple(map(_sqlite_value, s)) for s in states] if isinstance(states, list)
                  else tuple(map(_sqlite_value, states)))
        super().insert_papers(session, papers, ids, keys_of, states, import_id)

    def _insert_rows(self, session: Session, rows: list[tuple[Any, ...]],
                     texts: list[tuple[Any, ...]], authors: list[tuple[Any, ...]],
                     personal: list[tuple[Any, ...]]) -> None:
        """Through the driver's executemany."""
        with _driver_cursor(session.connection()) as cursor:
            cursor.executemany(_INSERT_PAPERS_SQL, rows)
            cursor.executemany(
                "INSERT INTO paper_texts (paper_id, abstract, bib_fields, bib_extra) "
                "VALUES (?, ?, ?, ?)", texts)
            cursor.executemany(
                "INSERT INTO paper_authors (paper_id, position, family, given) "
                "VALUES (?, ?, ?, ?)", authors)
            if personal:
                cursor.executemany(
                    f"INSERT INTO personal (user_name, {', '.join(_PERSONAL_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * (len(_PERSONAL_COLUMNS) + 1))})",
                    [(self.user_name, *row) for row in personal])

    def _values_and_ids(self, session: Session, column: ColumnElement[Any],
                        chunk: Sequence[Any], below: int) -> Iterable[Any]:
        """In plain SQL: compiling a statement with 2,000 parameters is slow."""
        conn = session.connection()
        name = str(column.compile(dialect=conn.dialect))
        return conn.exec_driver_sql(
            f"SELECT {name}, id FROM papers WHERE {name} IN "
            f"({', '.join('?' * len(chunk))}) AND id < ?", (*chunk, below))

    def keys_starting_with(self, session: Session, prefixes: set[str]) -> set[str]:
        """Many prefixes (an import's batch) in one statement, through a temporary table."""
        if len(prefixes) <= PREFIX_TABLE_MIN:
            return super().keys_starting_with(session, prefixes)
        _fill_temp_table(session, "key_prefixes", "TEXT", prefixes)
        with _driver_cursor(session.connection()) as cursor:
            return {k for (k,) in cursor.execute(
                "SELECT p.key FROM key_prefixes b JOIN papers p "
                "ON p.key >= b.value AND p.key < b.value || '~'")}

    def view_ids(self, conn: Connection, query: Select[Any], search: str,
                 values: dict[str, Any] | None = None) -> list[int]:
        """On the driver's cursor (SQLAlchemy's result objects take several times as long
        for a big library's ids). A search's one-word prefixes are spelled out as the
        index's terms (`search.expanded_query`)."""
        return self._driver_ids(conn, query, values, search)

    def ids(self, conn: Connection, query: Select[Any]) -> list[int]:
        """On the driver's cursor, a row at a time (see `GenericStore.ids`)."""
        return self._driver_ids(conn, query, None, None)

    def interrupt(self, conn: Connection) -> None:
        """sqlite3's interrupt, made to be called from another thread."""
        conn.connection.driver_connection.interrupt()  # type: ignore[union-attr]

    @staticmethod
    def _driver_ids(conn: Connection, query: Select[Any], values: dict[str, Any] | None,
                    search: str | None) -> list[int]:
        compiled = query.compile(dialect=conn.dialect,
                                 compile_kwargs={"render_postcompile": True})
        params = compiled.construct_params(values)
        names = compiled.positiontup or []
        with _driver_cursor(conn) as cursor:
            if search is not None and "fts_query" in params:
                params["fts_query"] = expanded_query(cursor, search)
            args = [params[name] for name in names] if names else params
            cursor.execute(compiled.string, args)
            return [row[0] for row in cursor]
