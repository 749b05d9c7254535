"""PostgreSQL's store: the generic store plus what PostgreSQL does better (see `core.store`).

A library on a server is opened by the URL users know, `postgresql://` or `postgres://`,
through the psycopg 3 driver. Passwords are never stored: libpq finds them where it
always does (~/.pgpass, PGPASSWORD, a service file). Connections send TCP keep-alives,
so a dead network shows as an error within a minute instead of a hung window, and are
checked before use. Id sets and looked-up values go to the server as one array each;
citation keys are matched by prefix whatever the database's collation. Search is
`search.PostgresSearch` (a table of tsvectors walked in id order). Each user is a database
role (`user`); `explain` turns the server's errors into one line for the user.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    ClauseElement,
    ColumnElement,
    CompoundSelect,
    Connection,
    Engine,
    Integer,
    Text,
    and_,
    any_,
    create_engine,
    delete,
    event,
    exists,
    func,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.types import NullType, TypeEngine

from papershelf.core import ingest
from papershelf.core.models import Paper, Personal, PersonalKept
from papershelf.core.search import PostgresSearch, SearchIndex
from papershelf.core.search.annotated import AnnotatedIndex
from papershelf.core.search.postgres import pg_annotation_hits
from papershelf.core.store import pg_members
from papershelf.core.store.generic import GenericStore, column_of
from papershelf.messages import text as message

# The columns `read_current` reads grouped by value: the user's own, of few values.
_GROUPED_COLUMNS = frozenset({"starred", "read_state", "read_at"})
# The advisory lock number of transactions adding papers (any fixed 64-bit number).
ADDING_LOCK = 0x50415045525348  # "PAPERSH"
# Memory a search may sort and mark matches in. With the server's default (4 MB) the
# bitmap of a common word's matches in a big library turns lossy, and every row of the
# pages it covers is checked again by recomputing its text vector: "quantization" on a
# million papers (300,000 matches) took 100 s instead of 2.4 s.
SEARCH_WORK_MEM = "64MB"
# The columns of the rows of new papers' texts and authors (`ingest.insert_rows`).
_TEXT_COLUMNS = ("paper_id", "abstract", "bib_fields", "bib_extra")
_AUTHOR_COLUMNS = ("paper_id", "position", "family", "given")
# The locales of libc and of PostgreSQL's builtin provider that order text by code point
# (as UTF-8 bytes compare).
_CODE_POINT_LOCALES = frozenset({"C", "POSIX", "C.UTF-8", "C.utf8"})
_LAST_CHARACTER = chr(0x10FFFF)
# The B-tree indexes of the key column with the default operator class: the collation
# of each (its name, schema, catalog row), and the database's catalog row (as JSON: the
# columns differ between PostgreSQL versions).
_KEY_INDEXES = """
SELECT c.collname, n.nspname, to_jsonb(c), to_jsonb(d)
FROM pg_index i
JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
JOIN pg_opclass o ON o.oid = i.indclass[0] AND o.opcdefault
JOIN pg_am m ON m.oid = o.opcmethod AND m.amname = 'btree'
JOIN pg_collation c ON c.oid = i.indcollation[0]
JOIN pg_namespace n ON n.oid = c.collnamespace
JOIN pg_database d ON d.datname = current_database()
WHERE i.indrelid = 'papers'::regclass AND a.attname = 'key' AND i.indpred IS NULL
ORDER BY c.collprovider = 'd' DESC
"""
# `bulk_session`'s compression of long values (PostgreSQL 14 and later, built with lz4).
_LZ4_FOR_THIS_TRANSACTION = (
    "SELECT set_config('default_toast_compression', 'lz4', true) FROM pg_settings "
    "WHERE name = 'default_toast_compression' AND source = 'default' "
    "AND 'lz4' = ANY(enumvals)")
# The URL schemes users type, and the driver they get.
SCHEMES = ("postgresql", "postgres")
DRIVER = "postgresql+psycopg"
# libpq's connection settings unless the URL sets them: keep-alives (a dead peer is
# noticed after 30 + 3 x 10 s of silence), a connection time-out, our name in
# pg_stat_activity.
CONNECT_ARGS: dict[str, Any] = {
    "keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10,
    "keepalives_count": 3, "connect_timeout": 10, "application_name": "papershelf",
}

# What the server says, lower-cased, for each kind of failure `explain` names.
_AUTHENTICATION = ("password authentication failed", "no password supplied",
                   "authentication failed for user")
_UNREACHABLE = ("connection refused", "no such file or directory", "timeout expired",
                "could not translate host name", "failed to resolve host",
                "is the server running", "network is unreachable", "no route to host",
                "the database system is starting up", "the database system is shutting down",
                "the database system is in recovery mode")
_LOST = ("server closed the connection", "terminating connection", "connection reset",
         "connection is closed", "connection is lost", "the connection is bad",
         "broken pipe", "could not receive data", "could not send data",
         "ssl syscall error", "eof detected", "consuming input failed")


# The memory a query's hash or sort may take before it spills, at least (kB): a search's
# `NOT IN (papers matching a word)`, `-learning` over a million papers, is looked up in a
# hash of the matching ids only if that hash fits (about 50 bytes an id); otherwise the
# server compares each paper with the whole list, for minutes. A server or role set
# higher keeps its own setting.
WORK_MEM_FLOOR_KB = 64 * 1024


def _work_mem_floor(dbapi_connection: Any, _record: Any) -> None:
    """At each new connection: work_mem raised to WORK_MEM_FLOOR_KB if set lower."""
    with dbapi_connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('work_mem', %s, false) FROM pg_settings "
            "WHERE name = 'work_mem' AND setting::bigint < %s",
            (f"{WORK_MEM_FLOOR_KB}kB", WORK_MEM_FLOOR_KB))
    dbapi_connection.commit()  # (the setting outlives the transaction it was made in)


def array_text(values: Iterable[str]) -> str:
    """Strings as the text of a PostgreSQL array: `{"a","b \\"c\\""}`."""
    return "{" + ",".join(
        '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"


def array(values: Iterable[Any], item: TypeEngine[Any]) -> ColumnElement[Any]:
    """Strings or integers (`item` says which) as one array parameter, sent as the text
    of an array and cast on the server: psycopg's own conversion of a Python list is
    several times slower (70 ms for 100,000 ids, 4 ms for an import batch's 2,000
    titles)."""
    if isinstance(item, Integer):
        text_of = "{" + ",".join(map(str, values)) + "}"
    else:
        text_of = array_text(values)
    # (A parameter of no type, not text: the array is then read when the statement is
    # planned, and `= ANY` looks values up in a hash table instead of comparing each
    # with every one, as it does with an array cast from text as the statement runs.)
    return sql_cast(literal(text_of, NullType()), ARRAY(item))


class Copy:
    """PostgreSQL's COPY … FROM STDIN of `columns` into `table`, in the transaction of
    `conn` (psycopg 3), many times quicker than INSERTs for many rows: `start`, `write`
    rows as many times as needed, `finish`. COPY does not check row-level security: into
    a table under it, rows are copied into a temporary table and moved over with one
    INSERT … SELECT at the end (which the policies check, row by row, on the server)."""

    def __init__(self, conn: Connection, table: str, columns: Sequence[str]) -> None:
        quote = conn.dialect.identifier_preparer.quote
        self.table = quote(table)
        self.columns = ", ".join(map(quote, columns))
        secured = conn.scalar(text("SELECT relrowsecurity FROM pg_class "
                                   "WHERE oid = to_regclass(:name)"), {"name": self.table})
        self.staging = quote(f"papershelf_copy_{table}") if secured else None
        self.sql = f"COPY {self.staging or self.table} ({self.columns}) FROM STDIN"

    def start(self, conn: Connection) -> None:
        """Before the first rows are written."""
        if self.staging is not None:
            conn.exec_driver_sql(f"CREATE TEMPORARY TABLE {self.staging} "
                                 f"(LIKE {self.table} INCLUDING DEFAULTS) ON COMMIT DROP")

    def write(self, conn: Connection, rows: Iterable[Sequence[Any]]) -> None:
        """Rows of values as psycopg adapts them (a JSON column's value as JSON text)."""
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        with cursor, cursor.copy(self.sql) as copy:
            for row in rows:
                copy.write_row(row)

    def finish(self, conn: Connection) -> None:
        """After the last rows were written."""
        if self.staging is not None:
            conn.exec_driver_sql(f"INSERT INTO {self.table} ({self.columns}) "
                                 f"SELECT {self.columns} FROM {self.staging}")
            conn.exec_driver_sql(f"DROP TABLE {self.staging}")


def copy_rows(conn: Connection, table: str, columns: Sequence[str],
              rows: Iterable[Sequence[Any]]) -> None:
    """COPY `rows` of `columns` into `table` in the transaction of `conn` (`Copy`)."""
    copy = Copy(conn, table, columns)
    copy.start(conn)
    copy.write(conn, rows)
    copy.finish(conn)


class PostgresStore(GenericStore):
    """`core.store.Store` for PostgreSQL."""

    search: SearchIndex = AnnotatedIndex(PostgresSearch(), func.current_user(),
                                          pg_annotation_hits)
    # `_key_order`, once known.
    _key_order_known = False
    _key_collate: str | None = None
    # Whose stars and read states: the database role the library was opened as.
    user: ColumnElement[str] = func.current_user()

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        # The statements `estimated_rows` was asked about, compiled, by their id.
        self._explained: dict[int, tuple[ClauseElement, SQLCompiler]] = {}

    @classmethod
    def engine_for(cls, url: str) -> Engine:
        """An engine on psycopg 3 with keep-alives, a connection time-out and
        pre-ping; what the URL's query sets itself wins over these settings."""
        parsed = make_url(url)
        if parsed.drivername in SCHEMES:
            parsed = parsed.set(drivername=DRIVER)
        connect_args = {k: v for k, v in CONNECT_ARGS.items() if k not in parsed.query}
        engine = create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
        event.listen(engine, "connect", _work_mem_floor)
        return engine

    def interrupt(self, conn: Connection) -> None:
        """A cancel request to the server (psycopg's, made to be sent from another
        thread; a server out of reach is given up on after a second or two)."""
        import psycopg  # (loaded by the driver already: this store's library is open)

        with contextlib.suppress(psycopg.Error):
            conn.connection.driver_connection.cancel_safe(timeout=2)  # type: ignore[union-attr]

    @classmethod
    def describe(cls, url: str) -> str:
        """The library's URL without its password (a socket folder's slashes as they are)."""
        rendered = make_url(url)._replace(password=None).render_as_string(hide_password=False)
        return rendered.replace("%2F", "/")

    @classmethod
    def explain(cls, url: str, exc: BaseException) -> str | None:
        """One line for the user about a PostgreSQL error that is the environment's
        (server down, login refused, no such database, no permission, connection
        lost, and a few more), naming the server and database; None if not one of them."""
        orig = getattr(exc, "orig", None) or exc
        detail = str(orig).strip()
        lowered = detail.lower()
        state = str(getattr(orig, "sqlstate", None) or "")
        where = cls.describe(url)
        parsed = make_url(url)
        server = _server(parsed)
        database = parsed.database or _user(parsed)
        reason = _server_message(detail)
        user = repr(_user(parsed))
        # (libpq's own errors, and the server's refusals of a connection, carry no
        # SQLSTATE through psycopg: those are told apart by their words.)
        unknown_role = 'role "' in lowered and "does not exist" in lowered
        if (state.startswith("28") or any(s in lowered for s in _AUTHENTICATION)
                or (unknown_role and not state)):
            if "no password supplied" in lowered:
                return message("{where}: the server {server} asks for the password of "
                               "{user} and none was given (put it in ~/.pgpass or "
                               "PGPASSWORD)", where=where, server=server, user=user)
            if unknown_role:
                return message("{where}: the server {server} has no user {user}",
                               where=where, server=server, user=user)
            return message("{where}: the server {server} refused the login of {user}: "
                           "wrong password (or no such user)", where=where, server=server,
                           user=user)
        if state == "3D000" or ("database" in lowered and "does not exist" in lowered):
            return message("{where}: the database {database} does not exist on the server "
                           "{server}; create it first (createdb)", where=where,
                           database=repr(database), server=server)
        if state == "42501" or "permission denied" in lowered or "pg_hba.conf" in lowered:
            return message("{where}: the role {user} may not do this on the server "
                           "{server}: {reason}", where=where, user=user, server=server,
                           reason=reason)
        if state == "57P03" or (not state and any(s in lowered for s in _UNREACHABLE)):
            unknown_host = "resolve host" in lowered or "translate host name" in lowered
            question = message("is its name right?") if unknown_host \
                else message("is it running?")
            return message("{where}: cannot reach the PostgreSQL server {server}: {reason} "
                           "({question})", where=where, server=server, reason=reason,
                           question=question)
        if state == "53300" or "too many clients" in lowered:
            return message("{where}: the server {server} has no connection to spare; try "
                           "again later", where=where, server=server)
        if state in ("53100", "53200"):
            return message("{where}: the server {server} is out of disk or memory; nothing "
                           "was changed", where=where, server=server)
        if state == "25006":
            return message("{where}: the server {server} only allows reading (a standby?); "
                           "nothing was changed", where=where, server=server)
        if state in ("40001", "40P01", "55P03"):
            return message("{where}: the library is busy (another user is changing the "
                           "same papers); nothing was changed, try again", where=where)
        if not state and ("connection failed" in lowered
                          or "connection to server at" in lowered):
            # (a failure while connecting: never "lost", it never was connected)
            return message("{where}: cannot connect to the PostgreSQL server {server}: "
                           "{reason} (is it a PostgreSQL server, and the port right?)",
                           where=where, server=server, reason=reason)
        if (state.startswith("08") or state.startswith("57P")
                or getattr(exc, "connection_invalidated", False)
                or (not state and any(s in lowered for s in _LOST))):
            return message("{where}: the connection to the server {server} was lost; "
                           "nothing was changed", where=where, server=server)
        return None

    @contextmanager
    def bulk_session(self) -> Iterator[Session]:
        """With long values (abstracts, BibTeX fields) compressed by lz4, where the
        server has it and its administrator left the default (pglz) unchosen: lz4 is
        several times quicker, and the texts of a 100,000-paper import took 3.6 s
        instead of 6.5 s of the server's time. Values keep how they were compressed:
        every other write, and reading, are as before."""
        with super().bulk_session() as session:
            session.execute(text(_LZ4_FOR_THIS_TRANSACTION))
            yield session

    def estimated_rows(self, conn: Connection, query: ClauseElement,
                       values: dict[str, Any] | None = None) -> list[float] | None:
        """The planner's estimates (EXPLAIN, which runs nothing); of each part of a
        UNION ALL in one round trip."""
        kept = self._explained.get(id(query))
        if kept is None or kept[0] is not query:  # (compiled once: 1.5 ms of Python)
            if len(self._explained) >= 64:
                self._explained.clear()
            statement = query.compile(dialect=conn.dialect)
            assert isinstance(statement, SQLCompiler)  # (a SELECT's)
            kept = self._explained[id(query)] = (query, statement)
        compiled = kept[1]
        # (an IN of a list, as of a tag's ids, expanded as executing a statement does)
        expanded = compiled.construct_expanded_state(compiled.construct_params(values))
        found = conn.exec_driver_sql("EXPLAIN (FORMAT JSON) " + expanded.statement,
                                     expanded.parameters).scalar()
        if found is None:
            return None
        plan = (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]
        parts = len(query.selects) if isinstance(query, CompoundSelect) else 1
        nodes = plan.get("Plans", []) if parts > 1 else [plan]
        if len(nodes) != parts:  # (not an Append of the parts: no estimate)
            return None
        return [float(node["Plan Rows"]) for node in nodes]

    def prepare_search(self, conn: Connection) -> None:
        """A search with room for its matches (`SEARCH_WORK_MEM`), and neither compiled
        (JIT) nor run by parallel workers, this transaction only: its plan's cost is
        estimated for every match, but its first page reads a few hundred rows in a few
        milliseconds, and compiling it took 25 ms, starting workers 20 ms."""
        conn.exec_driver_sql(  # (one round trip)
            f"SELECT set_config('work_mem', '{SEARCH_WORK_MEM}', true), "
            "set_config('jit', 'off', true), "
            "set_config('max_parallel_workers_per_gather', '0', true)")

    def lock_for_adding(self, session: Session) -> None:
        """A transaction-scoped advisory lock: two imports (two users, or two windows)
        take turns instead of taking the same new ids; edits go on meanwhile."""
        session.execute(select(func.pg_advisory_xact_lock(ADDING_LOCK)))

    # The other members' personal rows are out of a member's sight (row-level
    # security): the library's triggers keep them when a paper goes, fold them into the
    # paper a merge keeps, and bring them back with the paper (`pg_members`). The
    # user's own rows travel in the undo: they go before the paper does.

    def clear_leftovers(self, session: Session, first_id: int) -> None:
        """Nothing: a server's foreign keys hold for every client (and the members' kept
        rows are the triggers', for undo)."""

    def keep_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """The user's own rows of papers about to be deleted go, with any of theirs kept
        from an earlier deletion of the same ids; the others' are kept by the trigger."""
        if ids:
            for table in (Personal, PersonalKept):
                session.execute(delete(table).where(
                    table.paper_id == any_(array(ids, Integer())),
                    table.user_name == self.user).execution_options(
                        synchronize_session=False))

    def fold_others_personal(self, session: Session, from_id: int, into_id: int) -> None:
        """The user's own row of `from_id` goes (the caller folded it already); when
        `from_id` is deleted in this transaction, the trigger folds the others' rows
        into theirs of `into_id`."""
        session.execute(delete(Personal).where(Personal.paper_id == from_id,
                                               Personal.user_name == self.user))
        session.execute(select(func.set_config(pg_members.MERGE_FROM, str(from_id), True),
                               func.set_config(pg_members.MERGE_INTO, str(into_id), True)))

    def deletion(self, session: Session) -> str | None:
        """When this transaction keeps the other members' personal rows and annotations
        of the papers it deletes (the triggers' `kept_at`)."""
        return str(session.execute(text(pg_members.DELETION_TIME)).scalar_one())

    def restoring(self, session: Session, deletions: Sequence[str | None]) -> None:
        """This transaction undoes the `deletions`: the triggers bring back the personal
        rows and annotations they kept, to the papers they were taken from (to any other
        paper given their ids, none)."""
        names = " ".join(d for d in deletions if d is not None)
        if names:
            session.execute(select(func.set_config(pg_members.RESTORING, names, True)))

    def bring_back_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """Nothing: the papers' insertion brought their kept rows back (the trigger)."""

    def _insert_rows(self, session: Session, rows: list[tuple[Any, ...]],
                     texts: list[tuple[Any, ...]], authors: list[tuple[Any, ...]],
                     personal: list[tuple[Any, ...]]) -> None:
        """With COPY, in the session's transaction (an import stays one transaction, gone
        whole on an error or a cancel). The values go as `ingest.insert_rows` gives them:
        JSON as text, and `title_provisional` as 0 or 1, which a boolean column reads as
        false or true. The user's own rows (restoring deleted papers; an import has
        none) go in by one INSERT of arrays, which row-level security checks: it refuses
        COPY, and a temporary table would need a privilege a member may lack."""
        conn = session.connection()
        copy_rows(conn, "papers", ingest.INSERT_COLUMNS, rows)
        copy_rows(conn, "paper_texts", _TEXT_COLUMNS, texts)
        if authors:
            copy_rows(conn, "paper_authors", _AUTHOR_COLUMNS, authors)
        if personal:
            names = ingest.PERSONAL_INSERT_COLUMNS
            table = Personal.__table__
            arrays = ", ".join(f"CAST(:{name} AS {table.c[name].type.compile(conn.dialect)}[])"
                               for name in names)
            conn.execute(text(f"INSERT INTO personal (user_name, {', '.join(names)}) "
                              f"SELECT :user_name, * FROM unnest({arrays})"),
                         {"user_name": self.user_name,
                          **{name: list(values) for name, values in zip(names, zip(*personal))}})

    def read_current(self, session: Session, ids: Sequence[int], columns: Sequence[str]
                     ) -> dict[int, dict[str, Any]]:
        """The user's stars and read states (what a selection's Star and Mark Read
        change) as one row per distinct value, with the ids that have it as an array,
        as the SQLite store reads them: 100,000 papers come in a few rows, not 100,000
        (0.26 s instead of 0.40 s for the read states; the value dicts shared, as
        `edits.current` allows). The ids are a table, `unnest(:ids)`, hash-joined to
        the user's rows, each read once: not `IN (SELECT unnest(…))`, which makes them
        distinct first (spilling to disk) and looks each up in the papers' key. A paper
        with a row of the user's exists (its row goes with it); only the ids without
        one are looked for among the papers (the join of all 100,000 to the papers took
        as long again, more on a bigger library). Only the user's rows between the least
        and the greatest id are read, through their key (`set_personal`: the first
        100,000 of a million papers in 0.26 s instead of 0.63). Other columns may be
        JSON, which has no GROUP BY."""
        if not set(columns) <= _GROUPED_COLUMNS:
            return super().read_current(session, ids, columns)
        if not ids:
            return {}
        values = [column_of(c) for c in columns]
        given = func.unnest(array(ids, Integer())).table_valued("id").render_derived()
        rowless = Personal.paper_id.is_(None)
        query = select(func.array_agg(given.c.id), rowless, *values).select_from(
            given.outerjoin(Personal, and_(Personal.paper_id == given.c.id,
                                           Personal.user_name == self.user_name,
                                           Personal.paper_id.between(min(ids), max(ids))))
        ).group_by(rowless, *values)
        conn = session.connection()
        current: dict[int, dict[str, Any]] = {}
        defaults: dict[str, Any] = {}
        unknown: list[int] = []
        for row in conn.execute(query):
            shared = dict(zip(columns, row[2:]))
            if row[1]:  # (no row of the user's: the defaults, if the paper exists)
                defaults = shared
                unknown.extend(row[0])
            else:
                current.update(dict.fromkeys(row[0], shared))
        if unknown:
            found = func.unnest(array(unknown, Integer())).table_valued("id").render_derived()
            papers = conn.execute(select(func.array_agg(Paper.id)).select_from(
                found.join(Paper, Paper.id == found.c.id))).scalar()
            current.update(dict.fromkeys(papers or (), defaults))
        return current

    def id_sets(self, session: Session, ids: Sequence[int]) -> Iterator[Any]:
        """All the ids as one array parameter: `IN (SELECT unnest(:ids))` (the ids
        themselves ride along as the execution option `papershelf_ids`, for
        `set_personal`)."""
        if ids:
            yield select(func.unnest(array(ids, Integer()))).execution_options(
                papershelf_ids=ids)

    def hold_rows(self, session: Session, ids: Sequence[int], personal: bool) -> None:
        """As the generic store, but the ids a table, `unnest(:ids)`, joined to the rows
        to lock, as `read_current` reads them: an undo of 100,000 stars held its rows
        in 0.16 s of the server's time per table instead of 0.44."""
        if not ids:
            return
        given = func.unnest(array(ids, Integer())).table_valued("id").render_derived()
        conn = session.connection()
        conn.execute(select(Paper.id).select_from(given.join(Paper, Paper.id == given.c.id))
                     .order_by(Paper.id).with_for_update(of=Paper))
        if personal:
            conn.execute(select(Personal.paper_id).select_from(given.join(
                Personal, Personal.paper_id == given.c.id)).where(
                Personal.user_name == self.user_name)
                .order_by(Personal.paper_id).with_for_update(of=Personal))

    def set_personal(self, session: Session, id_set: Any, values: dict[str, Any]) -> None:
        """The user's rows that exist: one UPDATE joined to the ids, `unnest(:ids)`,
        hash-joined to the user's rows between the least and the greatest id (a heap-only
        tuple each where `personal`'s fillfactor left room: schema 0021). The server
        reads only that stretch of the rows, through their key: the first 100,000 papers
        of a million found in 0.1 s instead of the 0.3 to 0.5 s of a scan of every row
        with `paper_id = ANY(:ids)`, which also planned each of the 100,000 values
        (30 to 60 ms); not a speculative insertion and an index probe of `papers` per
        row (half the time for 100,000 papers; a quarter with the fillfactor); nor
        `= ANY(ARRAY(SELECT unnest(…)))`, planned blind, which probed the key per id.
        Only when some are missing, the INSERT … ON CONFLICT that creates them
        (row-level security sees to both). A list of ids (a merge's one paper): that
        INSERT alone."""
        ids = id_set.get_execution_options().get("papershelf_ids") \
            if isinstance(id_set, Select) else None
        if ids is None:
            super().set_personal(session, id_set, values)
            return
        conn = session.connection()
        given = func.unnest(array(ids, Integer())).table_valued("id").render_derived()
        updated = conn.execute(update(Personal).where(
            Personal.user_name == self.user_name, Personal.paper_id == given.c.id,
            Personal.paper_id.between(min(ids), max(ids))).values(**values))
        distinct_ids = set(ids)
        if updated.rowcount < len(distinct_ids):  # (or papers deleted meanwhile)
            conn.execute(self._missing_personal(sorted(distinct_ids), values))

    def _missing_personal(self, ids: list[int], values: dict[str, Any]) -> Any:
        """The INSERT of the user's rows of the papers `ids` (distinct) that have none
        yet: only those (an anti-join with the user's rows), not every paper with a
        conflict turned into an update (4,761 rows missing of 100,000 took 6.3 s that
        way); ON CONFLICT still for a row another window of the user added meanwhile."""
        names = list(values)
        table = Personal.__table__
        held = table.alias("held")
        given = func.unnest(array(ids, Integer())).table_valued("id").render_derived()
        stmt = pg_insert(Personal).from_select(
            ["user_name", "paper_id", *names],
            select(literal(self.user_name), Paper.id,
                   *(literal(values[n], table.c[n].type) for n in names))
            .select_from(given.join(Paper, Paper.id == given.c.id))
            .where(~exists().where(held.c.paper_id == Paper.id,
                                   held.c.user_name == self.user_name)))
        return stmt.on_conflict_do_update(index_elements=["paper_id", "user_name"],
                                          set_={n: stmt.excluded[n] for n in names})

    def _values_and_ids(self, session: Session, column: ColumnElement[Any],
                        chunk: Sequence[Any], below: int) -> Iterable[Any]:
        """`= ANY(:values)`: one array parameter, not thousands; through an index."""
        item = Text() if isinstance(column.type, NullType) else column.type  # (lower(doi))
        with _through_indexes(session) as conn:
            return conn.execute(select(column, Paper.id).where(
                column == any_(array(chunk, item)), Paper.id < below)).all()

    def keys_starting_with(self, session: Session, prefixes: set[str]) -> set[str]:
        """In one statement. Where an index of the keys orders them by code point (a
        database or column collation "C", "POSIX" or "C.UTF-8"), each prefix's keys are
        one range of it: `prefix <= key < successor(prefix)`, a few index pages per
        prefix. Elsewhere (a language's collation: the generic `key < prefix || '~'`
        holds in a C collation only) each key's first characters are compared, which
        reads every key of the library: for each batch of an import into a big library."""
        if not prefixes:
            return set()
        collate = self._key_order(session)
        if collate is not None and all(p.rstrip(_LAST_CHARACTER) for p in prefixes):
            ordered = sorted(prefixes)
            with _through_indexes(session) as conn:
                return set(conn.scalars(text(
                    "SELECT p.key FROM unnest(CAST(:lo AS text[]), CAST(:hi AS text[])) "
                    f"AS r(lo, hi) JOIN papers p ON p.key{collate} >= r.lo "
                    f"AND p.key{collate} < r.hi AND starts_with(p.key, r.lo)"),
                    {"lo": array_text(ordered), "hi": array_text(map(_successor, ordered))}))
        by_length: dict[int, list[str]] = {}
        for prefix in prefixes:
            by_length.setdefault(len(prefix), []).append(prefix)
        return set(session.scalars(select(Paper.key).where(or_(*(
            func.left(Paper.key, length) == any_(array(sorted(group), Text()))
            for length, group in sorted(by_length.items()))))))

    def _key_order(self, session: Session) -> str | None:
        """The COLLATE clause under which a B-tree index of `papers.key` orders the keys
        by code point ('' for the column's own collation), or None if none does (read
        once per store)."""
        if not self._key_order_known:
            self._key_order_known = True
            for name, schema, collation, database in session.execute(text(_KEY_INDEXES)):
                if collation.get("collprovider") == "d":  # the database's own
                    if _by_code_point(database, "dat"):
                        self._key_collate = ""
                        break
                elif _by_code_point(collation, "coll") and schema == "pg_catalog":
                    self._key_collate = f' COLLATE "{name}"'
                    break
        return self._key_collate


@contextmanager
def _through_indexes(session: Session) -> Iterator[Connection]:
    """The session's connection, its statements in the block planned for their own
    values and told to prefer indexes to reading whole tables.

    For the look-ups of an import: it runs them batch after batch while the tables grow
    from a few rows to many, and the planner goes by the statistics of the library
    before the import (they are gathered after a commit). A statement psycopg prepares
    (from its fifth run) gets a plan the server keeps, made for the tables as they
    were; planned anew, the statistics still say that a library of 38 papers holds
    every value looked up. Either way whole tables were read, for each batch: the key
    look-ups of a 100,000-paper import took minutes, those by DOI, title and abstract
    2.5 s instead of 0.2 s."""
    conn = session.connection()
    driver: Any = conn.connection.driver_connection
    threshold = driver.prepare_threshold
    scans = conn.exec_driver_sql("SELECT current_setting('enable_seqscan')").scalar()
    driver.prepare_threshold = None
    conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
    try:
        yield conn
    finally:
        driver.prepare_threshold = threshold
    conn.exec_driver_sql(f"SET LOCAL enable_seqscan = {'on' if scans == 'on' else 'off'}")


def _successor(prefix: str) -> str:
    """The first string in code point order after every string starting with `prefix`
    (a non-empty prefix whose characters are not all U+10FFFF)."""
    head = prefix.rstrip(_LAST_CHARACTER)
    following = ord(head[-1]) + 1
    if following == 0xD800:  # (surrogates are no characters of a text)
        following = 0xE000
    return head[:-1] + chr(following)


def _by_code_point(settings: dict[str, Any], prefix: str) -> bool:
    """Whether a collation's (`coll…`) or a database's (`dat…`) catalog row, as JSON,
    says that it orders text by code point."""
    provider = settings.get(f"{prefix}provider" if prefix == "coll" else "datlocprovider",
                            "c")  # (libc's, before PostgreSQL 15 named providers)
    if provider == "c":
        return settings.get(f"{prefix}collate") in _CODE_POINT_LOCALES
    if provider == "b":  # PostgreSQL's builtin provider (17 and later)
        return settings.get(f"{prefix}locale") in _CODE_POINT_LOCALES
    return False


def _user(url: URL) -> str:
    """The role libpq logs in as for `url`."""
    return (url.username or str(url.query.get("user") or "") or os.environ.get("PGUSER")
            or getpass.getuser())


def _server(url: URL) -> str:
    """The server of `url` as libpq finds it: host and port, or socket folder and port."""
    host = str(url.host or url.query.get("host") or os.environ.get("PGHOST") or "")
    port = str(url.port or url.query.get("port") or os.environ.get("PGPORT") or 5432)
    if not host or host.startswith("/"):
        return message("on socket {path}", path=f"{host or '(default folder)'}/.s.PGSQL.{port}")
    return message("at {host}:{port}", host=host, port=port)


def _server_message(detail: str) -> str:
    """The server's or libpq's own words, on one line, without the driver's preamble
    (`connection failed: connection to server on socket "…" failed:`)."""
    line = detail.splitlines()[0] if detail else ""
    marker = line.rfind(" failed: ")
    if marker != -1 and line.lower().startswith(("connection failed", "connection is bad",
                                                 "connection to server")):
        line = line[marker + len(" failed: "):]
    line = line.replace("FATAL:  ", "").strip()
    return _SYSTEM_REASONS.get(line, line) or message("no details")


# The system's words libpq passes on most often, translatable.
_SYSTEM_REASONS: dict[str, str] = {str(reason): reason for reason in (
    message("Connection refused"), message("No such file or directory"),
    message("Connection timed out"), message("No route to host"),
    message("Network is unreachable"), message("Name or service not known"),
    message("Temporary failure in name resolution"))}
