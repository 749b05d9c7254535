"""The write queue under the window's operations: each write runs in the write worker,
one at a time and in order; back in the GUI thread it is pushed onto the undo stack as
one QUndoCommand wrapping the core's `Change`, and `changed` is emitted once (a failure
becomes one `failed` message instead). Undo and redo run the Change's reversal in the
worker too, after the writes asked for before. Writes of more than `BULK` papers also
hold the table's updates while they run.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from papershelf.core.db import LibraryError
from papershelf.core.edits import (
    BIB_FIELDS,
    KEY,
    PRIVATE_NOTES,
    READ_STATE,
    STARRED,
    left_as_they_were,
    merged_text_edits,
)
from papershelf.core.library import NOTES, SAVED, Change, Library, PaperRow, UserError
from papershelf.feeds.sources import INBOX
from papershelf.gui.i18n import error_text, localized, number
from papershelf.gui.qt import (
    QCoreApplication,
    QObject,
    QUndoCommand,
    QUndoStack,
    Signal,
    Translator,
)
from papershelf.gui.workers import TaskManager
from papershelf.messages import listed

tr = Translator("Operations")
log = logging.getLogger(__name__)

BULK = 2000  # papers; bigger writes hold the table's updates while they run
NOTES_BURST_SECONDS = 4.0  # notes edits closer together than this are one undo step
_NOTES_PARTS = frozenset({NOTES, PRIVATE_NOTES})
# Steps that change no paper but are undone all the same: saved searches, the followed
# sources and the inbox (papershelf.feeds).
_STEPS_WITHOUT_PAPERS = frozenset({SAVED, INBOX})
# A step of at most this many papers, changing what the table shows of them, reads their
# rows again in the write worker right after it (`ChangeEvent.rows`): the table repaints
# from them, not from a read of its own on the GUI thread while other workers read too.
FRESH_ROWS = 64
_ROW_PARTS = frozenset({BIB_FIELDS, KEY, STARRED, READ_STATE})

OnDone = Callable[[Change], None]


@dataclass(frozen=True)
class ChangeEvent:
    """One announced change: the core's Change (its `ids` and `touched` say what is
    stale), and whether it came from undo/redo (so an editor that made the edit itself
    tells its own echo, which never replaces its typing, from its reversal)."""

    change: Change
    from_undo: bool = False
    # For undo and redo, what the window says it did: "Undone: Star 1 paper".
    step_message: str = ""
    # A write that is no step (a place in a PDF, a paper marked reading as it opens):
    # the views refresh, nothing is said over what the status bar shows.
    quiet: bool = False
    # The table rows of the changed papers read just after the write (None: not read;
    # a paper missing from them is gone).
    rows: Mapping[int, PaperRow] | None = field(default=None, compare=False)

    @property
    def own_notes_edit(self) -> bool:
        """Whether this is notes, shared or private, saved as typed (not undo): a notes
        editor's own typing coming back, which the window does not announce."""
        touched = self.change.touched
        return not self.from_undo and bool(touched) and touched <= _NOTES_PARTS


class ChangeCommand(QUndoCommand):
    """One undo step around a Change that has already been applied.

    Qt's undo() and redo() only show a step the operations layer has already taken in
    the worker (`prepare`); the stack is driven through `WriteQueue.undo`/`redo`.
    """

    def __init__(self, ops: WriteQueue, change: Change) -> None:
        super().__init__(localized(change.description))
        self._ops = ops
        self.change = change  # its `undo` reverses the state now in the library
        self._taken: Change | None = None  # the reversal just applied, to be shown

    def prepare(self, taken: Change) -> None:
        """The reversal has been applied; the next undo()/redo() shows it."""
        self._taken = taken

    def redo(self) -> None:
        self._show(tr("Redone: {what}"), undo=False)  # the push's redo() shows nothing:
        # the operation announces its write itself

    def undo(self) -> None:
        self._show(tr("Undone: {what}"), undo=True)

    def _show(self, message: str, *, undo: bool) -> None:
        if self._taken is None:
            return
        self.change, self._taken = self._taken, None
        said = message.format(what=self.text())
        if self.change.skipped:  # papers someone else changed since: left as they are
            done = said if self.change.ids else self.text()  # (none: "Undone" would lie)
            said = localized(listed([done, left_as_they_were(self.change.skipped,
                                                             undo=undo)]))
        self._ops.announce(ChangeEvent(self.change, from_undo=True, step_message=said))


class NotesCommand(ChangeCommand):
    """Edits of one paper's notes (`which`: NOTES, the shared ones, or PRIVATE_NOTES) in
    one typing burst merge into a single undo step."""

    ID = 1001

    def __init__(self, ops: WriteQueue, change: Change, paper_id: int,
                 which: str = NOTES) -> None:
        super().__init__(ops, change)
        self.paper_id = paper_id
        self.which = which
        self.last_edit = time.monotonic()

    def id(self) -> int:
        return self.ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (not isinstance(other, NotesCommand) or other.paper_id != self.paper_id
                or other.which != self.which):
            return False
        if other.last_edit - self.last_edit > NOTES_BURST_SECONDS:
            return False
        # One reversal: the notes from before the burst back, if they are still the
        # burst's last (not someone else's since).
        merged = merged_text_edits(self.change, other.change)
        if merged is None:
            return False
        self.change = merged
        self.last_edit = other.last_edit
        return True


class WriteQueue(QObject):
    """Writes run in order in the write worker, each recorded on the undo stack and
    announced once; the operations (gui.operations) are built on it."""

    changed = Signal(object)  # ChangeEvent
    failed = Signal(str)  # a message the user can read
    bulkStarted = Signal(str)  # description; views block their updates
    bulkFinished = Signal()

    def __init__(self, library: Library, tasks: TaskManager,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.tasks = tasks
        self.undo_stack = QUndoStack(self)
        self._bulk_running = False
        # Steps not yet started, in order; a step that needs every earlier write landed
        # (undo, redo, a read that must see them) holds the ones behind it.
        self._queue: deque[tuple[bool, Callable[[], None]]] = deque()
        self._in_flight = 0  # started steps whose results have not landed yet
        self._fresh: Mapping[int, PaperRow] | None = None  # the landing step's rows

    def announce(self, event: ChangeEvent) -> None:
        """Tell the views what changed (with the rows the step landing read after it)."""
        if self._fresh is not None and event.rows is None:
            event = replace(event, rows=self._fresh)
        self.changed.emit(event)

    def _submit(self, start: Callable[[], None], *, settled: bool = False) -> None:
        """Queue a step; `start` runs it and calls `_landed` once its result is handled."""
        self._queue.append((settled, start))
        self._pump()

    def _pump(self) -> None:
        while self._queue:
            settled, start = self._queue[0]
            if settled and self._in_flight:
                return
            self._queue.popleft()
            self._in_flight += 1
            start()

    def _landed(self) -> None:
        self._in_flight -= 1
        self._pump()

    def when_settled(self, then: Callable[[], object]) -> None:
        """Call `then` in the GUI thread once every write asked for so far has landed
        (at once if none is under way): a read that must see the user's last edits."""
        def start() -> None:
            try:
                then()
            finally:
                self._landed()

        self._submit(start, settled=True)

    def finish(self) -> None:
        """Carry out every step asked for, to the last (the window is closing: an undo
        pressed just before Ctrl+Q, or a logout, is still written). Blocks the GUI thread,
        handing the workers' results over in it, as the event loop would."""
        while self._queue or self._in_flight:
            before = (len(self._queue), self._in_flight)
            self.tasks.wait()
            QCoreApplication.sendPostedEvents()  # results land, the next steps start
            if (len(self._queue), self._in_flight) == before and not self.tasks.busy():
                log.warning("%d write steps could not be finished", before[0] + before[1])
                return

    def _run(self, write: Callable[[], Change], size: int,
             landed: Callable[[Change], None],
             on_failed: Callable[[], None] | None = None, *, rows: bool = False) -> None:
        """Run one write in the write worker; `landed` gets its Change in the GUI thread
        (with `rows`, the rows of a few papers it changed read after it, for what it
        announces meanwhile). Errors become `failed` messages, then `on_failed` is called."""
        def give_up(show: Callable[[], None]) -> None:
            """Say why (`show`), call `on_failed`; the step has landed either way."""
            try:
                show()
                if on_failed is not None:
                    on_failed()
            finally:
                self._landed()

        bulk = size > BULK
        if bulk:
            if self._bulk_running:
                give_up(lambda: self.failed.emit(tr(
                    "Another change is still running; try again when it is done.")))
                return
            self._bulk_running = True
            self.bulkStarted.emit(tr("Changing {n} papers…").format(n=number(size)))

        def ended() -> None:
            if bulk:
                self._bulk_running = False
                self.bulkFinished.emit()

        def done(result: object) -> None:
            ended()
            assert isinstance(result, tuple)
            change, self._fresh = result
            try:
                landed(change)
            finally:
                self._fresh = None
                self._landed()

        def error(exc: BaseException) -> None:
            ended()
            give_up(lambda: self.report(exc))

        self.tasks.run(lambda _job: self._write(write, rows), done, error, write=True)

    def _write(self, write: Callable[[], Change], rows: bool
               ) -> tuple[Change, Mapping[int, PaperRow] | None]:
        """In the write worker: the write, and the rows of the few papers it changed
        where the table shows what it changed of them."""
        change = write()
        if (rows and 0 < len(change.ids) <= FRESH_ROWS and not change.structural
                and change.touched & _ROW_PARTS):
            return change, self.library.rows(sorted(change.ids))
        return change, None

    def perform(self, write: Callable[[], Change], size: int, on_done: OnDone | None = None,
                command: Callable[[Change], ChangeCommand] | None = None,
                on_failed: Callable[[], None] | None = None) -> None:
        """Run one write of about `size` papers in the worker; back in the GUI thread,
        record its undo step, announce it, then call `on_done` with its Change (or, if
        it failed, show the message and call `on_failed`)."""
        make = command or (lambda change: ChangeCommand(self, change))

        def landed(change: Change) -> None:
            if change.ids or change.structural or change.touched & _STEPS_WITHOUT_PAPERS:
                self.undo_stack.push(make(change))
                self.announce(ChangeEvent(change))
            if on_done is not None:
                on_done(change)

        self._submit(lambda: self._run(write, size, landed, on_failed, rows=True))

    def record(self, write: Callable[[], Change], on_done: OnDone | None = None) -> None:
        """Run a write that is no step to undo (where the user is in a PDF) in the
        worker, in order with the others; announce its Change, never stack it."""
        def landed(change: Change) -> None:
            if change.ids:
                self.announce(ChangeEvent(change, quiet=True))
            if on_done is not None:
                on_done(change)

        self._submit(lambda: self._run(write, 0, landed))

    def undo(self) -> None:
        """Undo the last step, in the worker, after the writes asked for before."""
        self._submit(lambda: self._step(back=True), settled=True)

    def redo(self) -> None:
        """Redo the step just undone, in the worker, after the writes asked for before."""
        self._submit(lambda: self._step(back=False), settled=True)

    def _step(self, *, back: bool) -> None:
        stack = self.undo_stack
        if not (stack.canUndo() if back else stack.canRedo()):
            self._landed()
            return
        command = stack.command(stack.index() - 1 if back else stack.index())
        assert isinstance(command, ChangeCommand)
        move = stack.undo if back else stack.redo
        reverse = command.change.undo
        if reverse is None:
            move()
            self._landed()
            return

        def landed(taken: Change) -> None:
            command.prepare(taken)
            move()  # shows it: command.undo()/redo() announces the Change

        self._run(reverse, len(command.change.ids), landed, rows=True)

    def report(self, exc: BaseException) -> None:
        """A worker's error: the user's or the environment's becomes a message; a bug
        is raised again here, in the GUI thread, where the crash handler sees it."""
        if isinstance(exc, (LibraryError, UserError)):
            self.failed.emit(error_text(exc))
        else:
            raise exc

    @property
    def busy(self) -> bool:
        """Whether a bulk write is running."""
        return self._bulk_running
