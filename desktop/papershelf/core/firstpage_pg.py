"""The first screenful of a shared library (PostgreSQL), read with psycopg alone.

As `core.firstpage` does for a library file: the window paints a shared library's first
rows and counts before SQLAlchemy and the core are imported (psycopg is a fraction of
their import), then opens the library and takes over. The queries are the file's, as the
member the URL logs in as sees the library: their own stars and read states
(`user_name = current_user`, as core.store.postgres's `user`).

Only when the URL connects without asking anything (a password in it, ~/.pgpass,
PGPASSWORD: where libpq looks, as opening the library does) and the database is at the
schema this code knows; anything else (no such server, a password needed, another
schema, a driver other than psycopg, any error at all): `open_url` returns None and the
window starts the ordinary way. It only reads, in read-only transactions.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, unquote

from papershelf.core.firstpage import SCHEMA, FirstPage

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

    MARK = "%s"
    USER = "current_user"
    FALSE = "false"
    shared = True

    def __init__(self, url: str, connection: Any, user_name: str) -> None:
        self._url = url
        self._db = connection
        self.user_name = user_name

    @classmethod
    def open_url(cls, url: str) -> SharedFirstPage | None:
        """The first page of the shared library at `url`, or None (the module's
        docstring)."""
        parts = _parts(url)
        if parts is None:
            return None
        try:
            import psycopg
        except ImportError:
            return None
        given = {"user": parts["username"], "password": parts["password"],
                 "host": parts["host"], "port": parts["port"], "dbname": parts["database"]}
        arguments = {k: v for k, v in given.items() if v is not None}
        arguments.update(parts["query"])
        for key, value in _CONNECT_ARGS.items():
            arguments.setdefault(key, value)
        try:  # (libpq never prompts: a password it does not find is an error)
            connection = psycopg.connect(autocommit=True, **arguments)
        except (psycopg.Error, OSError, ValueError, TypeError):
            return None
        try:
            connection.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            schema = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            user = connection.execute("SELECT current_user").fetchone()
            if schema != [(SCHEMA,)] or user is None:
                connection.close()
                return None
        except (psycopg.Error, OSError, ValueError):
            connection.close()
            return None
        return cls(url, connection, str(user[0]))

    @property
    def url(self) -> str:
        """The library's URL, as `Library.url` gives it (as it was given)."""
        return self._url

    @property
    def location(self) -> str:
        """The library's name, as `Library.location` gives it (its URL, no password)."""
        return describe(self._url)

    def _rows(self, sql: str, values: Any = ()) -> list[Any]:
        return super()._rows(sql, list(values) or None)
