"""PostgreSQL's store: the generic store plus what PostgreSQL does better (see `core.store`).

A library on a server is opened by the URL users know, `postgresql://` or `postgres://`,
through the psycopg 3 driver. Passwords are never stored: libpq finds them where it
always does (~/.pgpass, PGPASSWORD, a service file). Connections send TCP keep-alives,
so a dead network shows as an error within a minute instead of a hung window, and are
checked before use. Id sets and looked-up values go to the server as one array each;
citation keys are matched by prefix whatever the database's collation. Search is
`search.PostgresSearch` (GIN indexes on tsvector expressions). Each user is a database
role (`user`); `explain` turns the server's errors into one line for the user.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Integer,
    Select,
    Text,
    any_,
    create_engine,
    func,
    literal,
    or_,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session
from sqlalchemy.types import NullType

from papershelf.core.models import Paper
from papershelf.core.search import PostgresSearch, SearchIndex
from papershelf.core.store.generic import GenericStore

# The advisory lock number of transactions adding papers (any fixed 64-bit number).
ADDING_LOCK = 0x50415045525348  # "PAPERSH"
# Memory a search may sort and mark matches in. With the server's default (4 MB) the
# bitmap of a common word's matches in a big library turns lossy, and every row of the
# pages it covers is checked again by recomputing its text vector: "quantization" on a
# million papers (300,000 matches) took 100 s instead of 2.4 s.
SEARCH_WORK_MEM = "64MB"
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


class PostgresStore(GenericStore):
    """`core.store.Store` for PostgreSQL."""

    search: SearchIndex = PostgresSearch()
    # Whose stars and read states: the database role the library was opened as.
    user: ColumnElement[str] = func.current_user()

    @classmethod
    def engine_for(cls, url: str) -> Engine:
        """An engine on psycopg 3 with keep-alives, a connection time-out and
        pre-ping; what the URL's query sets itself wins over these settings."""
        parsed = make_url(url)
        if parsed.drivername in SCHEMES:
            parsed = parsed.set(drivername=DRIVER)
        connect_args = {k: v for k, v in CONNECT_ARGS.items() if k not in parsed.query}
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)

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
        # (libpq's own errors, and the server's refusals of a connection, carry no
        # SQLSTATE through psycopg: those are told apart by their words.)
        unknown_role = 'role "' in lowered and "does not exist" in lowered
        if (state.startswith("28") or any(s in lowered for s in _AUTHENTICATION)
                or (unknown_role and not state)):
            if "no password supplied" in lowered:
                return (f"{where}: the server {server} asks for the password of "
                        f"{_user(parsed)!r} and none was given (put it in ~/.pgpass or "
                        "PGPASSWORD)")
            if unknown_role:
                return f"{where}: the server {server} has no user {_user(parsed)!r}"
            return (f"{where}: the server {server} refused the login of "
                    f"{_user(parsed)!r}: wrong password (or no such user)")
        if state == "3D000" or ("database" in lowered and "does not exist" in lowered):
            return (f"{where}: the database {database!r} does not exist on the server "
                    f"{server}; create it first (createdb)")
        if state == "42501" or "permission denied" in lowered or "pg_hba.conf" in lowered:
            return (f"{where}: the role {_user(parsed)!r} may not do this on the server "
                    f"{server}: {reason}")
        if state == "57P03" or (not state and any(s in lowered for s in _UNREACHABLE)):
            unknown_host = "resolve host" in lowered or "translate host name" in lowered
            question = "is its name right?" if unknown_host else "is it running?"
            return f"{where}: cannot reach the PostgreSQL server {server}: {reason} ({question})"
        if state == "53300" or "too many clients" in lowered:
            return f"{where}: the server {server} has no connection to spare; try again later"
        if state in ("53100", "53200"):
            return f"{where}: the server {server} is out of disk or memory; nothing was changed"
        if state == "25006":
            return (f"{where}: the server {server} only allows reading (a standby?); "
                    "nothing was changed")
        if state in ("40001", "40P01", "55P03"):
            return (f"{where}: the library is busy (another user is changing the same "
                    "papers); nothing was changed, try again")
        if (state.startswith("08") or state.startswith("57P")
                or getattr(exc, "connection_invalidated", False)
                or (not state and any(s in lowered for s in _LOST))):
            return (f"{where}: the connection to the server {server} was lost; "
                    "nothing was changed")
        return None

    def view_ids(self, conn: Connection, query: Select[Any], search: str) -> list[int]:
        """With room for a search's matches (`SEARCH_WORK_MEM`, this transaction only)."""
        if search.strip():
            conn.exec_driver_sql(f"SET LOCAL work_mem = '{SEARCH_WORK_MEM}'")
        return super().view_ids(conn, query, search)

    def lock_for_adding(self, session: Session) -> None:
        """A transaction-scoped advisory lock: two imports (two users, or two windows)
        take turns instead of taking the same new ids; edits go on meanwhile."""
        session.execute(select(func.pg_advisory_xact_lock(ADDING_LOCK)))

    # The other members' personal rows are out of a member's sight (row-level
    # security): functions running as the library's owner move them (migration 0009).

    def keep_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """The other members' rows of papers about to be deleted go to `personal_kept`."""
        if ids:
            session.execute(select(func.papershelf_keep_personal(
                literal(list(ids), ARRAY(Integer)), func.current_user())))

    def fold_others_personal(self, session: Session, from_id: int, into_id: int) -> None:
        """The other members' rows of `from_id` are combined into their rows of `into_id`."""
        session.execute(select(func.papershelf_fold_personal(
            from_id, into_id, func.current_user())))

    def bring_back_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """The kept rows of papers restored with their ids come back."""
        if ids:
            session.execute(select(func.papershelf_bring_back_personal(
                literal(list(ids), ARRAY(Integer)))))

    def id_sets(self, session: Session, ids: Sequence[int]) -> Iterator[Any]:
        """All the ids as one array parameter: `IN (SELECT unnest(:ids))`."""
        if ids:
            yield select(func.unnest(literal(list(ids), ARRAY(Integer))))

    def _values_and_ids(self, session: Session, column: ColumnElement[Any],
                        chunk: Sequence[Any], below: int) -> Iterable[Any]:
        """`= ANY(:values)`: one array parameter, not thousands."""
        item = Text() if isinstance(column.type, NullType) else column.type  # (lower(doi))
        return session.execute(select(column, Paper.id).where(
            column == any_(literal(list(chunk), ARRAY(item))), Paper.id < below))

    def keys_starting_with(self, session: Session, prefixes: set[str]) -> set[str]:
        """In one statement, comparing each key's first characters: the generic range
        (`key < prefix || '~'`) holds in a C collation only, and a server's database
        usually sorts by a language's rules."""
        if not prefixes:
            return set()
        by_length: dict[int, list[str]] = {}
        for prefix in prefixes:
            by_length.setdefault(len(prefix), []).append(prefix)
        return set(session.scalars(select(Paper.key).where(or_(*(
            func.left(Paper.key, length) == any_(literal(sorted(group), ARRAY(Text)))
            for length, group in sorted(by_length.items()))))))


def _user(url: URL) -> str:
    """The role libpq logs in as for `url`."""
    return (url.username or str(url.query.get("user") or "") or os.environ.get("PGUSER")
            or getpass.getuser())


def _server(url: URL) -> str:
    """The server of `url` as libpq finds it: host and port, or socket folder and port."""
    host = str(url.host or url.query.get("host") or os.environ.get("PGHOST") or "")
    port = str(url.port or url.query.get("port") or os.environ.get("PGPORT") or 5432)
    if not host or host.startswith("/"):
        return f"on socket {host or '(default folder)'}/.s.PGSQL.{port}"
    return f"at {host}:{port}"


def _server_message(detail: str) -> str:
    """The server's or libpq's own words, on one line, without the driver's preamble
    (`connection failed: connection to server on socket "…" failed:`)."""
    line = detail.splitlines()[0] if detail else ""
    marker = line.rfind(" failed: ")
    if marker != -1 and line.lower().startswith(("connection failed", "connection is bad",
                                                 "connection to server")):
        line = line[marker + len(" failed: "):]
    return line.replace("FATAL:  ", "").strip() or "no details"
