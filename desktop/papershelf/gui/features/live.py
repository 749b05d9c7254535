"""Changes made elsewhere to the library, shown in the window as they happen.

On a shared library `LiveUpdates` watches its `core.live.ChangeFeed`'s listening socket
with a QSocketNotifier (no polling timer): when PostgreSQL notifies a commit, the change
log is read in a worker and, back in the GUI thread, what changed is announced through
the window's `Operations.changed` as a `Change` like the window's own writes, so the
table, the sidebar and the detail pane each refresh only what it names. A lost
connection is said once in the status bar and retried with the feed's back-off (a
single-shot timer); reconnecting reads everything missed meanwhile.

On a library file, which notifies no one, a timer asks the feed every `FILE_POLL_MS`
whether anything was committed to the file (`ChangeFeed.committed`: SQLite's data
version, a few microseconds in the GUI thread, nothing read); only then is the log read
in a worker, as above. Another program's change shows within about a quarter of a
second. (Asking costs about 5 µs, 20 µs a second: a QFileSystemWatcher on the WAL file
would save little, and file system notifications do not come on network file systems.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.qt import QEvent, QObject, QSocketNotifier, QTimer, Signal, Translator
from papershelf.gui.shell import Feature, Shell

if TYPE_CHECKING:
    from papershelf.core import edits
    from papershelf.core import live as core_live
    from papershelf.core.live import RemoteChange
    from papershelf.gui import operations
    from papershelf.gui.workers import Job
else:
    edits = lazy.module("papershelf.core.edits")
    core_live = lazy.module("papershelf.core.live")
    operations = lazy.module("papershelf.gui.operations")

tr = Translator("LiveUpdates")

BACK_MESSAGE_MS = 6000
FILE_POLL_MS = 250  # how often a window on a library file asks whether it changed


class LiveFeature(Feature):
    """The window's live updates (`updates`: None on a database in memory)."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.updates: LiveUpdates | None = None

    def attach(self) -> None:
        # Changes made elsewhere to a shared library or a file, from before the first
        # read on; stops itself when the window closes.
        self.updates = LiveUpdates.attach(self.shell)


class LiveUpdates(QObject):
    """Keeps a window up to date with the changes other windows, machines and the
    command line make to its library; stops when the window closes."""

    connectionChanged = Signal(bool)  # listening (True) or lost (False)
    applied = Signal(object)  # the Change announced for changes made elsewhere

    @classmethod
    def attach(cls, window: Shell) -> LiveUpdates | None:
        """Live updates for a window on a shared library or a library file (None for a
        database in memory, which no one else sees). Made before the window first reads
        the library, since the feed starts at the newest change: nothing committed in
        between is missed."""
        library = window.library
        if library.dialect != "postgresql" and core_live.library_file(library) is None:
            return None
        return cls(window)

    def __init__(self, window: Shell) -> None:
        super().__init__(window)
        self._window = window
        self.feed = core_live.ChangeFeed(window.library)  # (read it, do not drive it)
        self._notifier: QSocketNotifier | None = None
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.timeout.connect(self._reconnect)
        self._connecting = False  # an attempt runs in a worker
        self._polling = False  # a poll runs in a worker
        self._poll_again = False  # notified while it ran
        self._told_lost = False  # the status bar says the connection is lost
        self._stopped = False
        self._ticks: QTimer | None = None  # asks a library file whether it changed
        window.installEventFilter(self)  # stops at the window's Close
        if self.feed.shared:
            self._reconnect()
        elif self.feed.path is not None:
            self._ticks = QTimer(self)
            self._ticks.setInterval(FILE_POLL_MS)
            self._ticks.timeout.connect(self._tick)
            self._ticks.start()

    @property
    def connected(self) -> bool:
        """Whether changes made elsewhere reach the window now."""
        if self._ticks is not None:
            return not self._stopped
        return self._notifier is not None

    def stop(self) -> None:
        """Stop listening for good (the window is closing)."""
        if self._stopped:
            return
        self._stopped = True
        self._retry.stop()
        if self._ticks is not None:
            self._ticks.stop()
        self._drop_notifier()
        self.feed.close()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Close:
            self.stop()
        return False

    # -- the socket ------------------------------------------------------------------------

    def _watch(self, fileno: int) -> None:
        notifier = QSocketNotifier(fileno, QSocketNotifier.Type.Read, self)
        notifier.activated.connect(self._readable)
        self._notifier = notifier

    def _drop_notifier(self) -> None:
        """Forget the socket before its connection closes it (Qt must not watch a closed
        descriptor, nor one the system hands out again)."""
        notifier, self._notifier = self._notifier, None
        if notifier is not None:
            notifier.setEnabled(False)
            notifier.deleteLater()

    def _readable(self) -> None:
        if self._stopped or self._notifier is None:
            return
        notified = self.feed.consume()
        if not self.feed.connected:
            self._lost()
        elif notified:
            self._poll()

    def _tick(self) -> None:
        """A library file: read the log if anything was committed since the last tick
        (the window's own writes too: known as its own, they are left out)."""
        if not self._stopped and self.feed.committed():
            self._poll()

    def _poll(self) -> None:
        """Read the log in a worker; notifications meanwhile make one more read."""
        if self._polling:
            self._poll_again = True
            return
        self._polling = True

        def done(changes: object) -> None:
            self._polling = False
            if self._stopped:
                return
            assert isinstance(changes, list)
            self._apply(changes)
            if self._poll_again:
                self._poll_again = False
                self._poll()

        def failed(exc: BaseException) -> None:
            self._polling = False
            self._poll_again = False
            if self._stopped:
                return
            if self._ticks is not None and core_live.lost_connection(exc):  # (the file busy)
                self.feed.close()  # (so the next tick reads the log again)
                return
            if not core_live.lost_connection(exc):
                self._window.ops.report(exc)  # our bug: raised in the GUI thread
                return
            self._drop_notifier()
            self.feed.close()
            self._lost()

        self._window.tasks.run(lambda _job: self.feed.poll(), done, failed)

    # -- losing and finding the server -----------------------------------------------------

    def _lost(self) -> None:
        self._drop_notifier()
        if not self._told_lost:
            self._told_lost = True
            self._window.statusBar().showMessage(
                tr("Lost the connection to the shared library; reconnecting…"))
            self.connectionChanged.emit(False)
        self._retry.start(int(self.feed.retry_delay * 1000))

    def _reconnect(self) -> None:
        """Listen (again) in a worker: connecting may take seconds when the server is
        out of reach, and must not freeze the window."""
        if self._stopped or self._connecting:
            return
        self._connecting = True
        feed = self.feed

        def attempt(_job: Job) -> list[RemoteChange] | None:
            changes = feed.reconnect()
            if self._stopped:  # the window closed meanwhile: no connection left open
                feed.close()
            return changes

        def done(changes: object) -> None:
            self._connecting = False
            if self._stopped:
                feed.close()
                return
            fileno = feed.fileno()
            if changes is None or fileno is None:
                self._lost()
                return
            assert isinstance(changes, list)
            self._watch(fileno)
            self._apply(changes)
            if self._told_lost:
                self._told_lost = False
                self._window.statusBar().showMessage(
                    tr("Connected to the shared library again"), BACK_MESSAGE_MS)
            self.connectionChanged.emit(True)

        def failed(exc: BaseException) -> None:
            self._connecting = False
            feed.close()
            if not self._stopped:  # (a window closing meanwhile closed its library)
                self._window.ops.report(exc)

        self._window.tasks.run(attempt, done, failed)

    # -- showing the changes -----------------------------------------------------------------

    def _apply(self, changes: list[RemoteChange]) -> None:
        """Announce what changed elsewhere as the window's own writes are announced (once
        for a batch: a catch-up refreshes each view once). The window's own writes come
        back too: announced already, they are left out."""
        remote = core_live.RemoteChange.merged([c for c in changes if not c.own])
        if remote is None or self._stopped:
            return
        window = self._window
        shown = window.detail.current_id()
        ids = remote.ids
        if ids is None:  # too many papers to name: everything the window shows is stale
            ids = frozenset(window.model.ids) | ({shown} if shown is not None else set())
        change = edits.Change("", ids, structural=remote.structural, touched=remote.touched)
        window.ops.announce(operations.ChangeEvent(change))
        self.applied.emit(change)
