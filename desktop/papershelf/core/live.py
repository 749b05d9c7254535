"""Changes made elsewhere to a shared library: read from its change log, woken by
PostgreSQL's LISTEN/NOTIFY.

Every write transaction of the core adds a row to `changes` (models.ChangeLog) with an
increasing `seq`; on PostgreSQL a trigger notifies `papershelf_changes` when it commits.
A `ChangeFeed` remembers the last seq it has read and `poll()` reads the rows after it,
so a notification is only a hint to poll: a feed that was disconnected (a laptop asleep,
a server restarted) reads everything it missed once it is back (`reconnect`).

Sequence numbers are handed out when a transaction writes its row but become visible
when it commits, so a later seq can be read before an earlier one: the numbers skipped
over are kept as "holes" and asked for again at each poll for a while (`HOLE_SECONDS`),
and a change that commits late is still seen. (A hole may also be a rolled-back write or
another user's personal change, hidden by row-level security: it is simply never filled.)

The log keeps a month (core.context `LOG_KEPT`): a feed whose last change was pruned away
meanwhile (its rows are all gone) gets one change naming everything, and its window
re-reads all it shows.

A library file (SQLite) notifies no one: `committed()` asks SQLite's `PRAGMA
data_version` on a connection of the feed's own, which changes whenever another
connection commits, in this program or another (a few microseconds, cheap enough to ask
several times a second), and the log is polled when it did. There are no holes there
(one writer at a time, seqs visible in their order).

Which changes the feed's own library wrote is known from the seqs its writes logged
(`Library.own_seqs`), and on PostgreSQL also from the notifications of its connections'
server processes: those are marked `own`.

No Qt here: the window (gui.live) watches `fileno()` with a socket notifier, calls
`consume()` or `drain()` when it is readable, and schedules the reconnection attempts
whose back-off delays the feed computes; on a file, it asks `committed()` on a timer.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, func, or_, select
from sqlalchemy.exc import OperationalError as SQLAlchemyOperationalError

from papershelf.core.edits import PAPERS
from papershelf.core.models import ChangeLog

if TYPE_CHECKING:
    import psycopg

    from papershelf.core.library import Library

CHANNEL = "papershelf_changes"  # what the trigger of migration 0007 notifies
APPLICATION_NAME = "papershelf-live"  # how the listening connection shows in pg_stat_activity
CONNECT_TIMEOUT = 5  # seconds; a reconnection attempt gives up after this
# Dead peers are found within about idle + interval * count seconds (a listener only
# reads, so without keep-alives a vanished server would never be noticed).
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
              "keepalives_count": 3}
FIRST_DELAY, MAX_DELAY = 1.0, 30.0  # seconds between reconnection attempts: 1, 2, 4 … 30
HOLE_SECONDS = 600.0  # how long a skipped seq is asked for again
MAX_HOLES = 1000  # the newest skipped seqs kept
OPEN_LOOKBACK = 100  # seqs below the newest one, at opening, that may still commit
_PID = "papershelf_backend_pid"  # where a pooled connection's server process is noted


def lost_connection(exc: BaseException) -> bool:
    """Whether an error means the database is out of reach (retry later), not our bug."""
    if isinstance(exc, SQLAlchemyOperationalError):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg comes with PostgreSQL support
        return False
    return isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError))


def library_file(library: Library) -> str | None:
    """The file of a SQLite library (None: a server's, or a database in memory)."""
    if library.dialect != "sqlite":
        return None
    database = library.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database


@dataclass(frozen=True)
class RemoteChange:
    """A change read from the log: which papers (None: too many to list, re-read all),
    what of them (`touched`, core.edits' names), whether papers came or went, and
    whether the feed's own library wrote it (`own`: its caller knows it already)."""

    seq: int
    ids: frozenset[int] | None
    touched: frozenset[str]
    structural: bool
    own: bool = False

    @classmethod
    def merged(cls, changes: Sequence[RemoteChange]) -> RemoteChange | None:
        """One change standing for several (a catch-up after a long absence refreshes
        the window once): the union of what they name; None if there are none."""
        if not changes:
            return None
        ids: set[int] | None = set()
        touched: set[str] = set()
        for change in changes:
            if ids is not None:
                ids = None if change.ids is None else ids | change.ids
            touched |= change.touched
        return cls(max(c.seq for c in changes),
                   None if ids is None else frozenset(ids), frozenset(touched),
                   any(c.structural for c in changes), all(c.own for c in changes))


def _remote_change(seq: int, touched: str, paper_ids: Any, structural: bool, own: bool
                   ) -> RemoteChange:
    names = frozenset(name for name in (touched or "").split(",") if name)
    if structural:
        names |= {PAPERS}
    ids = None if paper_ids is None else frozenset(int(i) for i in paper_ids)
    return RemoteChange(seq, ids, names, bool(structural), own)


class ChangeFeed:
    """The changes other windows, machines and the command line make to a library.

    `poll()` may run in a worker thread while the owner's thread uses the listening
    connection (`consume`, `fileno`); `listen`, `consume`, `drain`, `reconnect` and
    `close` are for one thread at a time.

    A change the library itself wrote comes back too. Its notification names the
    server process that sent it, so the feed remembers the processes of the library's
    own connections (each checkout) and marks what they notified `own`. (A change read
    without its notification, as in a catch-up, is never marked: at worst shown twice.)
    """

    def __init__(self, library: Library) -> None:
        self._engine = library.engine
        self._library = library
        self.shared = library.dialect == "postgresql"  # (SQLite has no one to notify)
        # The library file whose commits `committed()` tells (None: not a file).
        self.path = library_file(library)
        self._watcher: sqlite3.Connection | None = None
        self._data_version: int | None = None  # the watcher's last answer
        self._missed = False  # commits may have gone unseen (closed, unreadable)
        self._lock = threading.Lock()  # one poll at a time
        self._own_lock = threading.Lock()  # last_seq, the holes and own seqs (held briefly)
        self._listener: psycopg.Connection[Any] | None = None
        self._failures = 0  # reconnection attempts failed in a row
        self._own_pids: set[int] = set()  # server processes of the library's connections
        self._own_seqs: set[int] = set()  # changes they notified, not yet polled
        if self.shared:
            event.listen(self._engine, "checkout", self._checked_out)
            for name in ("close", "invalidate"):
                event.listen(self._engine, name, self._let_go)
        self.committed()  # (first: a commit while the log is read below is seen next)
        with self._engine.connect() as conn:
            newest = conn.scalar(select(func.max(ChangeLog.seq))) or 0
            # Writes just before the opening may commit after it with a smaller seq.
            recent = set(conn.scalars(select(ChangeLog.seq).where(
                ChangeLog.seq > newest - OPEN_LOOKBACK)))
        self.last_seq: int = newest
        now = time.monotonic()
        # seq skipped → when it was first skipped (monotonic)
        self._holes: dict[int, float] = {
            seq: now for seq in range(max(1, newest - OPEN_LOOKBACK + 1), newest)
            if seq not in recent}

    # -- reading the log ---------------------------------------------------------------

    def poll(self) -> list[RemoteChange]:
        """Every change committed since the last poll, in seq order (on PostgreSQL, row
        security leaves out other users' personal changes); advances `last_seq`."""
        with self._lock:
            now = time.monotonic()
            holes = {s: t for s, t in self._holes.items() if now - t < HOLE_SECONDS}
            after = ChangeLog.seq > self.last_seq
            query = (select(ChangeLog.seq, ChangeLog.touched, ChangeLog.paper_ids,
                            ChangeLog.structural)
                     .where(or_(after, ChangeLog.seq.in_(sorted(holes))) if holes else after)
                     .order_by(ChangeLog.seq))
            with self._engine.connect() as conn:
                rows = conn.execute(query).all()
                pruned_past = (bool(rows) and rows[0][0] > self.last_seq + 1
                               and self.last_seq > 0 and conn.scalar(
                                   select(ChangeLog.seq).where(ChangeLog.seq <= self.last_seq)
                                   .limit(1)) is None)
            with self._own_lock:
                top = self.last_seq
                changes = []
                if pruned_past:  # away longer than the log keeps: everything is stale
                    holes.clear()
                    top = rows[-1][0]
                    changes.append(RemoteChange(top, None, frozenset({PAPERS}), True))
                    rows = []
                for seq, touched, paper_ids, structural in rows:
                    if seq > top:
                        holes.update(dict.fromkeys(range(top + 1, seq), now))
                        top = seq
                    else:
                        holes.pop(seq, None)
                    own = seq in self._own_seqs or seq in self._library.own_seqs
                    self._own_seqs.discard(seq)
                    changes.append(_remote_change(seq, touched, paper_ids, structural, own))
                if len(holes) > MAX_HOLES:
                    holes = {s: holes[s] for s in sorted(holes)[-MAX_HOLES:]}
                self._holes = holes
                self.last_seq = top
            return changes

    # -- a library file's commits ------------------------------------------------------------

    def committed(self) -> bool:
        """Whether anything may have been committed to the library file since the last
        call (or since the feed opened): SQLite's `PRAGMA data_version` on the feed's own
        connection, opened again after `close()` (then True: commits may have been
        missed). False on PostgreSQL (its notifications say so) and while the file
        cannot be read (busy, gone): ask again later. For one thread at a time."""
        if self.path is None:
            return False
        try:
            if self._watcher is None:  # (its own numbers: not comparable with the last's)
                watcher = sqlite3.connect(f"{Path(self.path).resolve().as_uri()}?mode=rw",
                                          uri=True, isolation_level=None,
                                          check_same_thread=False)
                watcher.execute("PRAGMA busy_timeout = 0")  # (never blocks)
                self._watcher, self._data_version = watcher, None
            version = self._watcher.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self._missed = True  # (at worst one read of the log too many, later)
            return False
        changed = self._missed or (self._data_version is not None
                                   and version != self._data_version)
        self._data_version, self._missed = version, False
        return changed

    # -- the notifications -----------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether the feed is listening now (always False on SQLite: nothing to hear)."""
        return self._listener is not None

    def listen(self) -> list[RemoteChange]:
        """Open the listening connection and LISTEN, then poll (what committed before
        the LISTEN took effect is not notified). A no-op on SQLite. Raises if the server
        cannot be reached (`lost_connection` says so of the error)."""
        if not self.shared:
            return []
        self.close()
        import psycopg

        conn = psycopg.connect(autocommit=True, **self._connect_params())
        try:
            conn.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            conn.close()
            raise
        self._listener = conn
        try:
            return self.poll()
        except BaseException:  # (no listening connection is left open by a failure)
            self.close()
            raise

    def fileno(self) -> int | None:
        """The listening connection's socket (readable when a notification arrived or the
        connection broke), or None when not listening."""
        return self._listener.pgconn.socket if self._listener is not None else None

    def consume(self) -> bool:
        """Read what arrived on the listening connection without blocking: whether a
        notification came. A broken connection is closed (`connected` becomes False)."""
        conn = self._listener
        if conn is None:
            return False
        from psycopg import pq

        pgconn = conn.pgconn
        notified = False
        own: list[int] = []
        try:
            pgconn.consume_input()
            while (notify := pgconn.notifies()) is not None:
                notified = True
                if notify.be_pid in self._own_pids and notify.extra.isdigit():
                    own.append(int(notify.extra))
        except Exception as exc:
            if not lost_connection(exc):
                raise
            self.close()
            return False
        if own:
            with self._own_lock:  # (a change polled already is not waited for)
                self._own_seqs.update(s for s in own if s > self.last_seq or s in self._holes)
        if pgconn.status != pq.ConnStatus.OK:
            self.close()
        return notified

    def drain(self) -> list[RemoteChange]:
        """Consume the notifications that arrived, then poll: the changes they announce
        (an empty list if none came, or if the connection was lost meanwhile)."""
        if not self.consume():
            return []
        try:
            return self.poll()
        except Exception as exc:
            if not lost_connection(exc):
                raise
            self.close()
            return []

    # -- losing and finding the server -----------------------------------------------------

    def reconnect(self) -> list[RemoteChange] | None:
        """Try to listen again: the changes missed meanwhile (the catch-up), or None if
        the server is still out of reach (try again after `retry_delay`)."""
        try:
            changes = self.listen()
        except Exception as exc:
            if not lost_connection(exc):
                raise
            self.close()
            self._failures += 1
            return None
        self._failures = 0
        return changes

    @property
    def retry_delay(self) -> float:
        """Seconds to wait before the next reconnection attempt: 1, 2, 4 … then 30."""
        return min(MAX_DELAY, FIRST_DELAY * (1 << min(self._failures, 8)))

    def close(self) -> None:
        """Stop listening, or watching the file (the feed can `listen`, `reconnect` or
        ask `committed()` again)."""
        conn, self._listener = self._listener, None
        if conn is not None:
            conn.close()
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.close()
            self._missed = True

    def _checked_out(self, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        """A connection of the library's is in use (and may write): its server process
        is ours. (Read once per connection, kept with its pool record.)"""
        pid = record.info.get(_PID)
        if pid is None:
            pid = record.info[_PID] = dbapi_connection.info.backend_pid
        self._own_pids.add(pid)

    def _let_go(self, _dbapi_connection: Any, record: Any, *_args: Any) -> None:
        """A connection of the library's is closed or dropped: the server may hand its
        process number to someone else's."""
        self._own_pids.discard(record.info.get(_PID))

    def _connect_params(self) -> dict[str, Any]:
        """How the library's engine connects (its dialect reads the URL), with the
        listener's name and, unless the URL sets them, its time-out and keep-alives
        (passwords: in the URL or where libpq finds them)."""
        _args, params = self._engine.dialect.create_connect_args(self._engine.url)
        params.pop("context", None)  # (the dialect's type adapters: nothing to adapt here)
        settings: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT, **KEEPALIVES}
        return {**settings, **params, "application_name": APPLICATION_NAME}
