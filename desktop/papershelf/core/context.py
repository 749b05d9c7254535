"""What every room of a library shares: its engine, its sessions and its store.

The rooms (views, edits, keying, importing, duplicates) are functions of a `Context`;
none reaches into another's private names. A write is one transaction: committed whole,
or rolled back with nothing written, and a database error that is the environment's
(locked, read-only, full, damaged) becomes a `LibraryError` for the user.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from typing import Any

from sqlalchemy import Engine, delete, event, func, insert, select
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from papershelf.core import db
from papershelf.core.models import ChangeLog, utcnow
from papershelf.core.store import Store
from papershelf.errors import LibraryError

# A change of more papers than this is logged as "many papers" (the others re-read all).
LOGGED_IDS_MAX = 2000
# What only the user who made a change sees change (core.edits' names for it).
PERSONAL_TOUCHES = frozenset({"starred", "read_state", "private_notes", "private_annotations",
                              "inbox", "progress"})  # (inbox: papershelf.feeds)
# The change log keeps this much history: a window away longer (a laptop closed for
# months) re-reads everything instead of catching up change by change (core.live).
LOG_KEPT = timedelta(days=30)
PRUNE_EVERY = 1000  # one write in this many prunes the log
OWN_KEPT = 10_000  # the newest seqs of the library's own writes remembered (`own_seqs`)
_LOGGED = "papershelf_logged_seqs"  # (a session's info: the seqs its transaction wrote)


class Context:
    """An open library's engine, session factory and store."""

    def __init__(self, engine: Engine, url: str, store: Store) -> None:
        self.engine = engine
        self.url = url
        self.store = store
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        # Statements kept for reuse, by what they depend on (views.view_ids).
        self.statements: dict[Hashable, Any] = {}
        # The seqs of the change log rows this library's own writes made (committed or
        # still being written), for its change feeds to know them (core.live).
        self._own_seqs: set[int] = set()
        self._own_lock = threading.Lock()
        with engine.connect() as conn:  # whose stars, read states and private notes
            store.user_name = str(conn.scalar(select(store.user)) or "")
        # The driver's own OperationalError, as a raw cursor raises it (the stores' bulk
        # inserts): SQLAlchemy does not wrap it.
        self._driver_error: type[Exception] = engine.dialect.loaded_dbapi.OperationalError

    @property
    def user_name(self) -> str:
        """The user whose own data this library shows ('' on a single-user database)."""
        return self.store.user_name

    @property
    def own_seqs(self) -> AbstractSet[int]:
        """The change log's rows written by this library (the newest `OWN_KEPT`): a
        change feed reading one of them knows it as the library's own. A row whose
        transaction rolled back is forgotten (SQLite may give its seq to someone
        else's next write)."""
        return self._own_seqs

    def log(self, session: Session, touched: Iterable[str], ids: Iterable[int] | None,
            structural: bool = False) -> None:
        """Record a write in the change log, in its transaction, for the library's other
        windows (`ids` None: many papers). A change of the user's own data only is
        theirs alone. Its seq is one of `own_seqs` from now on, unless the transaction
        rolls back (known before it commits: no reader can see the row earlier)."""
        touched = frozenset(touched)
        id_list = None if ids is None else sorted(ids)
        if id_list is not None and len(id_list) > LOGGED_IDS_MAX:
            id_list = None
        personal = bool(touched) and touched <= PERSONAL_TOUCHES and not structural
        seq = session.execute(insert(ChangeLog).values(
            at=utcnow(), user_name=self.user_name if personal else None,
            touched=",".join(sorted(touched)), paper_ids=id_list, structural=structural,
        ).returning(ChangeLog.seq)).scalar_one()
        self._remember(session, seq)
        if seq % PRUNE_EVERY == 0:
            try:
                with session.begin_nested():  # (a refusal must not cost the user's write)
                    prune_log(session)
            except DBAPIError:
                pass

    def _remember(self, session: Session, seq: int) -> None:
        """Note a seq as the library's own, and forget it if its transaction rolls
        back."""
        logged = session.info.get(_LOGGED)
        if logged is None:
            logged = session.info[_LOGGED] = []
            event.listen(session, "after_commit", lambda _s: logged.clear())
            event.listen(session, "after_soft_rollback", partial(self._rolled_back, logged))
        logged.append(seq)
        with self._own_lock:
            self._own_seqs.add(seq)
            if len(self._own_seqs) > OWN_KEPT:
                self._own_seqs = set(sorted(self._own_seqs)[-OWN_KEPT // 2:])

    def _rolled_back(self, seqs: list[int], _session: Session,
                     transaction: SessionTransaction) -> None:
        if transaction.parent is not None:  # (a savepoint: the transaction goes on)
            return
        with self._own_lock:
            self._own_seqs.difference_update(seqs)
        seqs.clear()

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
        except (OperationalError, self._driver_error) as exc:
            raise LibraryError(db.environment_message(self.url, exc)) from exc
        except DBAPIError as exc:  # a server's refusal (no permission, read-only, …)
            explain = getattr(self.store, "explain", None)
            line = explain(self.url, exc) if explain is not None else None
            if line is None:
                raise
            raise LibraryError(line) from exc


def prune_log(session: Session, kept: timedelta = LOG_KEPT) -> int:
    """Drop the change log's rows older than `kept` (those this user may see: on a shared
    library the others' personal rows are theirs to drop); how many were dropped."""
    cut = session.scalar(select(func.max(ChangeLog.seq))
                         .where(ChangeLog.at < utcnow() - kept))
    if cut is None:
        return 0
    result = session.connection().execute(delete(ChangeLog).where(ChangeLog.seq <= cut))
    return int(result.rowcount)
