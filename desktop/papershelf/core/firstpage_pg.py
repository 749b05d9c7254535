"""The first screenful of a shared library (PostgreSQL), read with libpq alone.

As `core.firstpage` does for a library file: the window paints a shared library's first
rows and counts before SQLAlchemy and the core are imported, then opens the library and
takes over. The queries are the file's, as the member the URL logs in as sees the
library: their own stars and read states (`user_name = current_user`, as
core.store.postgres's `user`). They go through the libpq psycopg uses (its wheel's own,
else the system's), called with ctypes: importing psycopg took 0.2 s, as long as Qt's
whole start, loading libpq 0.03 s.

Only when the URL connects without asking anything (a password in it, ~/.pgpass,
PGPASSWORD: where libpq looks, as opening the library does) and the database is at the
schema this code knows; anything else (no such server, a password needed, another
schema, a driver other than psycopg, any error at all): `open_url` returns None and the
window starts the ordinary way. It only reads, in read-only transactions.

`read_ahead`, called as the window starts and before Qt is imported, does all that in a
thread (libpq lets Python run while it waits): the connection, a new server process's
first statements (its caches cold: 30 ms and more on a small library) and the answers
that do not depend on the view (the library's size, the sidebar's counts) are read while
Qt loads, and `open_first_page` takes them.
"""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import re
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, unquote

from papershelf.core.firstpage import (
    COUNTED_BEFORE_SHOWN,
    SCHEMA,
    FirstPage,
    library_file,
    library_url,
)
from papershelf.core.shapes import Counts

# The URL schemes (and driver) `core.store.postgres` opens.
_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg", "postgres+psycopg")
# A SQLAlchemy URL's parts, as sqlalchemy.engine.url parses them.
_URL = re.compile(r"""
    (?P<name>[\w+]+)://
    (?:(?P<username>[^:/]*)(?::(?P<password>[^@]*))?@)?
    (?:(?:\[(?P<ipv6host>[^/?]+)\]|(?P<ipv4host>[^/:?]+))?(?::(?P<port>[^/?]*))?)?
    (?:/(?P<database>[^?]*))?
    (?:\?(?P<query>.*))?
    """, re.X)
# What core.store.postgres.CONNECT_ARGS sets unless the URL does, but a shorter wait for a
# server that does not answer (libpq's least): the ordinary start then waits its own.
_CONNECT_ARGS: dict[str, Any] = {"connect_timeout": 2, "application_name": "papershelf"}
# libpq's names: where it is when psycopg's wheel has no copy of its own, and its codes.
_SYSTEM_LIBPQ = ("libpq.so.5", "libpq.5.dylib", "libpq.dll")
_CONNECTION_OK, _COMMAND_OK, _TUPLES_OK = 0, 1, 2
# The values of the types the queries read, from their text (by type OID).
_VALUES: dict[int, Callable[[str], Any]] = {
    16: lambda text: text == "t",  # bool
    19: str, 25: str, 1042: str, 1043: str,  # name, text, char(n), varchar
    20: int, 21: int, 23: int,  # bigint, smallint, integer
    1114: datetime.fromisoformat, 1184: datetime.fromisoformat,  # timestamp (with zone)
}


class LibpqError(Exception):
    """libpq could not be loaded, or connect, or the server refused a statement."""


def _load_libpq() -> ctypes.CDLL:
    """psycopg's wheel's libpq (psycopg_binary.libs), else the system's."""
    spec = importlib.util.find_spec("psycopg_binary")
    names: list[str] = []
    if spec is not None and spec.origin:
        names += map(str, sorted(Path(spec.origin).parent.parent.glob(
            "psycopg_binary.libs/libpq-*.so*")))
    for name in (*names, *_SYSTEM_LIBPQ):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        void, text, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
        for function, arguments, result in (
                ("PQconnectdbParams", [ctypes.POINTER(text), ctypes.POINTER(text), number],
                 void),
                ("PQstatus", [void], number), ("PQerrorMessage", [void], text),
                ("PQfinish", [void], None),
                ("PQexecParams", [void, text, number, void, ctypes.POINTER(text), void, void,
                                  number], void),
                ("PQresultStatus", [void], number), ("PQresultErrorMessage", [void], text),
                ("PQntuples", [void], number), ("PQnfields", [void], number),
                ("PQftype", [void, number], ctypes.c_uint),
                ("PQgetisnull", [void, number, number], number),
                ("PQgetvalue", [void, number, number], text), ("PQclear", [void], None)):
            getattr(lib, function).argtypes = arguments
            getattr(lib, function).restype = result
        return lib
    raise LibpqError("no libpq")


def _texts(values: Sequence[str]) -> Any:
    """A NULL-terminated C array of UTF-8 strings."""
    return (ctypes.c_char_p * (len(values) + 1))(*(v.encode() for v in values), None)


class _Rows(list[tuple[Any, ...]]):
    """A statement's rows, read as sqlite3's cursor is (`fetchall`, `fetchone`)."""

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self)

    def fetchone(self) -> tuple[Any, ...] | None:
        return self[0] if self else None


class Connection:
    """One libpq connection, in autocommit: `execute` with `$1`… for the values (one
    statement at a time: a libpq connection is not to be used by two threads at once)."""

    def __init__(self, settings: dict[str, str]) -> None:
        self._lib = lib = _load_libpq()
        self._lock = threading.Lock()
        settings = {**settings, "client_encoding": "UTF8"}
        self._conn = lib.PQconnectdbParams(_texts(list(settings)),
                                           _texts(list(settings.values())), 0)
        if not self._conn or lib.PQstatus(self._conn) != _CONNECTION_OK:
            message = lib.PQerrorMessage(self._conn) if self._conn else b"out of memory"
            self.close()
            raise LibpqError((message or b"").decode(errors="replace").strip())

    def execute(self, sql: str, values: Sequence[object] | None = None) -> _Rows:
        lib, given = self._lib, [str(v) for v in values or ()]
        with self._lock:
            result = lib.PQexecParams(self._conn, sql.encode(), len(given), None,
                                      _texts(given), None, None, 0)
        try:
            status = lib.PQresultStatus(result) if result else -1
            if status not in (_COMMAND_OK, _TUPLES_OK):
                message = lib.PQresultErrorMessage(result) if result else None
                raise LibpqError((message or lib.PQerrorMessage(self._conn) or b"")
                                 .decode(errors="replace").strip())
            columns = range(lib.PQnfields(result))
            read = [_VALUES[lib.PQftype(result, c)] for c in columns]  # (KeyError: ours)
            return _Rows(
                tuple(None if lib.PQgetisnull(result, r, c)
                      else read[c](lib.PQgetvalue(result, r, c).decode()) for c in columns)
                for r in range(lib.PQntuples(result)))
        finally:
            if result:
                lib.PQclear(result)

    def close(self) -> None:
        with self._lock:
            if self._conn:
                self._lib.PQfinish(self._conn)
            self._conn = None


def _parts(url: str) -> dict[str, Any] | None:
    """A URL's parts as SQLAlchemy reads them (a value given twice: None, as is a URL of
    another scheme or driver)."""
    found = _URL.match(url)
    if found is None or found["name"] not in _SCHEMES:
        return None
    query: dict[str, str] = {}
    for key, value in parse_qsl(found["query"] or ""):
        if key in query:
            return None  # (several hosts: the ordinary start)
        query[key] = value
    port = found["port"]
    if port and not port.isdigit():
        return None
    return {"name": found["name"],
            "username": None if found["username"] is None else unquote(found["username"]),
            "password": None if found["password"] is None else unquote(found["password"]),
            "host": found["ipv4host"] or found["ipv6host"], "port": int(port) if port else None,
            "database": None if found["database"] is None else unquote(found["database"]),
            "query": query}


def describe(url: str) -> str:
    """The URL without its password, as core.store.postgres.PostgresStore.describe gives
    it (SQLAlchemy's rendering: the query's keys sorted; a socket folder's slashes)."""
    parts = _parts(url)
    if parts is None:
        raise ValueError(f"not a PostgreSQL URL: {url!r}")
    shown: str = parts["name"] + "://"
    if parts["username"] is not None:
        shown += quote(parts["username"], safe=" +") + "@"
    host = parts["host"]
    if host is not None:
        shown += f"[{host}]" if ":" in host else host
    if parts["port"] is not None:
        shown += f":{parts['port']}"
    if parts["database"] is not None:
        shown += "/" + quote(parts["database"], safe=" +/")
    query = parts["query"]
    if query:
        shown += "?" + "&".join(f"{quote_plus(k)}={quote_plus(query[k])}"
                                for k in sorted(query))
    return shown.replace("%2F", "/")


class SharedFirstPage(FirstPage):
    """Read-only answers for the first paint, from a shared library of schema SCHEMA."""

    MARK = "?"  # (numbered by `_rows`: $1, $2…)
    USER = "current_user"
    FALSE = "false"
    shared = True
    errors = (LibpqError, KeyError, ValueError)  # (KeyError: a type `_VALUES` lacks)

    def __init__(self, url: str, connection: Connection, user_name: str) -> None:
        self._url = url
        self._db = connection
        self.user_name = user_name
        # Answers read ahead (`read_ahead`), each given once: (statement, values) -> rows.
        self._ahead: dict[tuple[str, tuple[str, ...]], list[Any]] | None = None
        self._read: dict[tuple[str, tuple[str, ...]], list[Any]] = {}

    def read_ahead(self) -> None:
        """Read now what the first paint asks whatever its view: the library's size and
        the sidebar's counts, or only its tags' names for a library too big to be
        counted before the window shows (each answer is then given once, to the first
        to ask)."""
        self._ahead = {}
        try:
            if self.size_estimate() < COUNTED_BEFORE_SHOWN:
                self.counts()
            else:
                self.tag_names()
        finally:
            self._read, self._ahead = self._ahead, None
        # No paper 0: the rows' statement made once, for the descriptions of its tables
        # and indexes a new server process reads on first use (3 ms).
        self.rows([0])

    @classmethod
    def open_url(cls, url: str) -> SharedFirstPage | None:
        """The first page of the shared library at `url`, or None (the module's
        docstring)."""
        parts = _parts(url)
        if parts is None:
            return None
        given = {"user": parts["username"], "password": parts["password"],
                 "host": parts["host"], "port": parts["port"], "dbname": parts["database"]}
        settings = {k: str(v) for k, v in given.items() if v is not None}
        settings.update(parts["query"])
        for key, value in _CONNECT_ARGS.items():
            settings.setdefault(key, str(value))
        try:  # (libpq never prompts: a password it does not find is an error)
            connection = Connection(settings)
        except (LibpqError, OSError, ValueError):
            return None
        try:
            connection.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            connection.execute("SET DateStyle = ISO")  # (the text `_VALUES` reads)
            schema = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            user = connection.execute("SELECT current_user").fetchone()
            if schema != [(SCHEMA,)] or user is None:
                connection.close()
                return None
        except (LibpqError, KeyError, ValueError):
            connection.close()
            return None
        return cls(url, connection, str(user[0]))

    def counts(self) -> Counts:
        """As `FirstPage.counts`, but the user's rows counted in one pass (a server scans
        them for each count: three passes over a million rows took 0.3 s and more)."""
        ((total, starred, reading, read, unread_not, recent),) = self._rows(
            "SELECT (SELECT count(id) FROM papers), count(*) FILTER (WHERE starred), "
            "count(*) FILTER (WHERE read_state = 'reading'), "
            "count(*) FILTER (WHERE read_state = 'read'), "
            "count(*) FILTER (WHERE read_state != 'unread'), "
            "count(*) FILTER (WHERE last_read_at IS NOT NULL) "
            "FROM personal WHERE user_name = {user}")
        return Counts(all=total, unread=total - unread_not, reading=reading, read=read,
                      starred=starred, tags=self.tag_counts(), recent=recent)

    @property
    def url(self) -> str:
        """The library's URL, as `Library.url` gives it (as it was given)."""
        return self._url

    @property
    def location(self) -> str:
        """The library's name, as `Library.location` gives it (its URL, no password)."""
        return describe(self._url)

    def _rows(self, sql: str, values: Sequence[object] | None = ()) -> list[Any]:
        asked = (sql, tuple(map(str, values or ())))
        if asked in self._read:
            return self._read.pop(asked)
        marks = iter(range(1, sql.count("?") + 1))
        rows = super()._rows(re.sub(r"\?", lambda _: f"${next(marks)}", sql), values)
        if self._ahead is not None:
            self._ahead[asked] = rows
        return rows


# The first pages being read ahead, by URL: the thread reading one, and its page (None:
# the window starts the ordinary way) once read.
_reading: dict[str, tuple[threading.Thread, list[SharedFirstPage | None]]] = {}


def read_ahead(target: str | None) -> None:
    """Start reading the first page of the shared library at `target` (as
    `open_first_page` would) in a thread of its own; nothing for a library file (its first
    page is read in 3 ms when asked). `open_first_page(target)` takes it."""
    if library_file(target) is not None:
        return
    url = str(library_url(target))
    if url in _reading:
        return
    found: list[SharedFirstPage | None] = []

    def read() -> None:
        page = None
        try:
            page = SharedFirstPage.open_url(url)
            if page is not None:
                page.read_ahead()
        except Exception:  # (any error at all: the ordinary start, which reports it)
            logging.getLogger(__name__).info("no first page read ahead", exc_info=True)
            if page is not None:
                page.close()
            page = None
        found.append(page)

    thread = threading.Thread(target=read, name="first page", daemon=True)
    _reading[url] = (thread, found)
    thread.start()


def open_first_page(target: str | None) -> FirstPage | None:
    """The first page of the library at `target`: a library file's (core.firstpage) or a
    shared library's; None when the window must start the ordinary way."""
    if library_file(target) is None:
        url = str(library_url(target))
        reading = _reading.pop(url, None)
        if reading is None:
            return SharedFirstPage.open_url(url)
        thread, found = reading
        thread.join()
        return found[0] if found else None
    return FirstPage.open(target)
