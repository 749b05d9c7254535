"""The storage seam: what differs between databases, behind one small interface.

Everything a library does is plain SQLAlchemy, written once, except what goes through
its `Store`: opening an engine with the database's settings, the bulk paths of imports
and big edits (id sets, reading many papers, inserting new ones, look-ups by value),
and full-text search (its `search`, a `core.search.SearchIndex`). `GenericStore`
(store/generic.py) does all of it in plain SQLAlchemy, for any database; `SQLiteStore`
(store/sqlite.py) adds SQLite's fast paths (the driver's own cursor, temporary id
tables, PRAGMAs) and its FTS5 index (core/search.py); `PostgresStore`
(store/postgres.py) adds PostgreSQL's: psycopg 3 with keep-alives, ids and values as one
array parameter, collation-proof key prefixes, GIN tsvector search (core/search.py), a
database role per user and one-line explanations of the server's errors. A library
picks its store by the engine's dialect (`store_for`): adding a database means writing
its module, a subclass of `GenericStore` overriding what it does better, and naming it
in `STORES`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from sqlalchemy import ClauseElement, ColumnElement, Connection, Engine, Select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from papershelf.core.search import SearchIndex
from papershelf.core.store.generic import CHUNK, GenericStore, Make, T, chunks
from papershelf.core.store.postgres import PostgresStore
from papershelf.core.store.sqlite import SQLiteStore


class Store(Protocol):
    """What a library asks of its database beyond plain SQLAlchemy."""

    search: SearchIndex
    # The current user as SQL (the database role, or '' where there is one user), and
    # its value, read once on open: whose personal rows (`models.Personal`) are read.
    user: ColumnElement[str]
    user_name: str

    @classmethod
    def engine_for(cls, url: str) -> Engine:
        """An engine for `url` with the database's connection settings."""
        ...

    @classmethod
    def describe(cls, url: str) -> str:
        """A human name for the library at `url` (a file path, a URL without password)."""
        ...

    def bulk_session(self) -> AbstractContextManager[Session]:
        """One transaction for a big import, with the database tuned for it."""
        ...

    def id_sets(self, session: Session, ids: Sequence[int]) -> Iterator[Any]:
        """WHERE-able sets (`Paper.id.in_(s)`) covering `ids`, for `session`'s transaction."""
        ...

    def read_current(self, session: Session, ids: Sequence[int], columns: Sequence[str]
                     ) -> dict[int, dict[str, Any]]:
        """Papers' values of `columns` (of papers or paper_texts), by id; papers with
        equal values may share one dict: read it, do not change it."""
        ...

    def read_papers(self, session: Session, ids: Sequence[int], columns: Sequence[str],
                    make: Make[T]) -> dict[int, T]:
        """Many papers at once (an export, the details of a selection), by id: what `make`
        makes of each paper's `columns` (of papers or paper_texts; values as the column
        types give them), authors in order and tags by name."""
        ...

    def insert_papers(self, session: Session, papers: Sequence[tuple[Any, ...]],
                      ids: Sequence[int], keys_of: Sequence[str],
                      states: Sequence[tuple[Any, ...]] | tuple[Any, ...],
                      import_id: int | None) -> None:
        """Insert new papers prepared by `ingest.prepare` with their texts and authors."""
        ...

    def lock_for_adding(self, session: Session) -> None:
        """Hold off other transactions adding papers until this one ends."""
        ...

    def clear_leftovers(self, session: Session, first_id: int) -> None:
        """Before papers are added with ids from `first_id` on (past every paper's): no
        row about an earlier paper of such an id is left for them to get."""
        ...

    def set_indexes_aside(self, session: Session, existing: int, coming: int) -> list[str]:
        """Before a big import of about `coming` papers into a library of `existing`:
        drop the indexes of `papers` that are cheaper to build again after it than to
        keep up row by row, in its transaction; what `restore_indexes` needs."""
        ...

    def restore_indexes(self, session: Session, aside: list[str]) -> None:
        """Build the indexes `set_indexes_aside` dropped again, before the import ends."""
        ...

    def set_personal(self, session: Session, id_set: Any, values: dict[str, Any]) -> None:
        """Give the user's personal `values` to the papers of `id_set` (from `id_sets`),
        creating their personal rows where missing."""
        ...

    def hold_rows(self, session: Session, ids: Sequence[int], personal: bool) -> None:
        """Lock the papers' rows (and with `personal` the user's own rows of them), in
        id order, until the transaction ends (a server's undo: `edits.hold_for_undo`)."""
        ...

    def deletion(self, session: Session) -> str | None:
        """What names this transaction's deletion of papers, for `restoring` (None where
        no other users' rows are kept)."""
        ...

    def restoring(self, session: Session, deletions: Sequence[str | None]) -> None:
        """This transaction undoes the `deletions` of papers (puts them back with their
        ids): what was kept of them by those, and only those, comes back."""
        ...

    def keep_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """Before papers are deleted: see that the other users' personal rows of them
        are kept, for `bring_back_others_personal` (on a shared library, where the
        database keeps them itself and the user's own go first: they travel in the undo;
        nothing where one user is)."""
        ...

    def fold_others_personal(self, session: Session, from_id: int, into_id: int) -> None:
        """Before paper `from_id` is merged into `into_id` and deleted (in the same
        transaction): see that the other users' personal data of the first goes to the
        second (stars and read states combined, private notes joined)."""
        ...

    def bring_back_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """After papers were restored with their ids: see that the other users'
        personal rows kept when they were deleted come back."""
        ...

    def first_ids(self, session: Session, column: ColumnElement[Any],
                  values: Sequence[Any], below: int) -> dict[Any, int]:
        """For each of `values` found in `column`, the first paper with an id under
        `below` holding it."""
        ...

    def keys_starting_with(self, session: Session, prefixes: set[str]) -> set[str]:
        """Existing citation keys that start with any of `prefixes`."""
        ...

    def estimated_rows(self, conn: Connection, query: ClauseElement,
                       values: dict[str, Any] | None = None) -> list[float] | None:
        """How many rows the database expects `query` to select, without running it
        (`values`: of its parameters); of each part, for a UNION ALL. None where it
        cannot tell."""
        ...

    def prepare_search(self, conn: Connection) -> None:
        """Settings for a view's search, for the rest of the connection's transaction."""
        ...

    def view_ids(self, conn: Connection, query: Select[Any], search: str,
                 values: dict[str, Any] | None = None) -> list[int]:
        """The ids `query` selects, in its order (`search`: the view's search text;
        `values`: its parameters' values, where they are not those it was built with)."""
        ...

    def ids(self, conn: Connection, query: Select[Any]) -> list[int]:
        """Every id `query` selects, however many, read a row at a time in Python, so
        that the window's thread gets its turn: SQLAlchemy's `.all()` and ORM results
        convert all the rows in one call that holds the interpreter (600 ms for 800k
        ids, the window frozen meanwhile; core.tally counts in a worker)."""
        ...

    def interrupt(self, conn: Connection) -> None:
        """Stop the statement running on `conn` in another thread (it raises there), as
        soon as the database can; nothing if none runs, or the database cannot."""
        ...


# The stores by SQLAlchemy backend name; any other database gets the generic one.
STORES: dict[str, type[GenericStore]] = {
    "sqlite": SQLiteStore,
    "postgresql": PostgresStore,
    "postgres": PostgresStore,  # (the scheme of libpq's URLs, which SQLAlchemy lacks)
}


def store_type(url: str) -> type[GenericStore]:
    """The store class for a database URL."""
    return STORES.get(make_url(url).get_backend_name(), GenericStore)


def store_for(engine: Engine) -> Store:
    """The store for an engine's database."""
    return STORES.get(engine.dialect.name, GenericStore)(engine)


__all__ = [
    "CHUNK", "STORES", "GenericStore", "Make", "PostgresStore", "SQLiteStore",
    "SearchIndex", "Store",
    "chunks", "store_for", "store_type",
]
