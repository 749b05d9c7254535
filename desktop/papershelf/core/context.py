"""What every room of a library shares: its engine, its sessions and its store.

The rooms (views, edits, keying, importing, duplicates) are functions of a `Context`;
none reaches into another's private names. A write is one transaction: committed whole,
or rolled back with nothing written, and a database error that is the environment's
(locked, read-only, full, damaged) becomes a `LibraryError` for the user.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from papershelf.core import db
from papershelf.core.errors import LibraryError
from papershelf.core.store import Store


class Context:
    """An open library's engine, session factory and store."""

    def __init__(self, engine: Engine, url: str, store: Store) -> None:
        self.engine = engine
        self.url = url
        self.store = store
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading (its transaction ends with it, nothing committed)."""
        with self.sessions() as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction: committed whole, or rolled back and nothing written."""
        with self._environment_errors(), self.sessions.begin() as session:
            yield session

    @contextmanager
    def bulk_write(self) -> Iterator[Session]:
        """`write` for an import, with the database tuned for it (`Store.bulk_session`)."""
        with self._environment_errors(), self.store.bulk_session() as session:
            yield session

    @contextmanager
    def _environment_errors(self) -> Iterator[None]:
        """A database error that is the environment's becomes a `LibraryError`."""
        try:
            yield
        except OperationalError as exc:
            raise LibraryError(db.environment_message(self.url, exc)) from exc
