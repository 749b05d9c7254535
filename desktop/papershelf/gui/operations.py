"""Every write of the window goes through here: run it in a worker, record its undo,
announce it.

An operation runs the core's write in the write worker (one at a time, in order) and,
back in the GUI thread, pushes one QUndoCommand wrapping the core's `Change` onto the
undo stack and emits `changed` once; a failure becomes one `failed` message instead.
Views listen to `changed` only and decide from the Change's `ids` and `touched` what
they must fetch again (Anki's operations). A caller that acts after a write passes
`on_done`, called with the Change after the views have heard of it. Writes of more
than `BULK` papers also hold the table's updates while they run. Undo lives with the
core's Change (each knows how to reverse itself); this module only drives it, also
in the worker.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from papershelf.core import transfer
from papershelf.core.db import LibraryError
from papershelf.core.edits import (
    PRIVATE_NOTES,
    combined,
    describe,
    left_as_they_were,
    merged_text_edits,
)
from papershelf.core.importing import ImportReport
from papershelf.core.library import NOTES, SAVED, Change, Library, UserError
from papershelf.core.messages import listed
from papershelf.core.transfer import Export, ExportOptions, Missing
from papershelf.gui.i18n import error_text, localized, number
from papershelf.gui.qt import (
    QCoreApplication,
    QObject,
    QUndoCommand,
    QUndoStack,
    Signal,
    Translator,
)
from papershelf.gui.workers import Job, TaskManager
from papershelf.metadata import adding, attaching, complete
from papershelf.metadata.catalog import CatalogStore
from papershelf.metadata.http import HttpSettings, make_client
from papershelf.metadata.identifiers import Identifier

tr = Translator("Operations")
log = logging.getLogger(__name__)

# ServiceError kinds a Retry may mend (offline: once the user is online again)
UNREACHED = frozenset({"network", "timeout", "offline"})
BULK = 2000  # papers; bigger writes hold the table's updates while they run
NOTES_BURST_SECONDS = 4.0  # notes edits closer together than this are one undo step
_NOTES_PARTS = frozenset({NOTES, PRIVATE_NOTES})

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

    @property
    def own_notes_edit(self) -> bool:
        """Whether this is notes, shared or private, saved as typed (not undo): a notes
        editor's own typing coming back, which the window does not announce."""
        touched = self.change.touched
        return not self.from_undo and bool(touched) and touched <= _NOTES_PARTS


class ChangeCommand(QUndoCommand):
    """One undo step around a Change that has already been applied.

    Qt's undo() and redo() only show a step the operations layer has already taken in
    the worker (`prepare`); the stack is driven through `Operations.undo`/`redo`.
    """

    def __init__(self, ops: Operations, change: Change) -> None:
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

    def __init__(self, ops: Operations, change: Change, paper_id: int,
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


class Operations(QObject):
    """The write layer of the window, with its undo stack."""

    changed = Signal(object)  # ChangeEvent
    failed = Signal(str)  # a message the user can read
    bulkStarted = Signal(str)  # description; views block their updates
    bulkFinished = Signal()
    textsRead = Signal(list)  # attached files' text read: the problems met (lines)

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
        # Reading attached files' text for search: the running round, and whether files
        # were attached meanwhile (then another round follows).
        self._texts_job: Job | None = None
        self._texts_again = False
        self._texts_problems: list[str] = []

    # -- the machinery -----------------------------------------------------------------

    def announce(self, event: ChangeEvent) -> None:
        """Tell the views what changed."""
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
             on_failed: Callable[[], None] | None = None) -> None:
        """Run one write in the write worker; `landed` gets its Change in the GUI thread.
        Errors become `failed` messages, then `on_failed` is called."""
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

        def done(change: object) -> None:
            ended()
            assert isinstance(change, Change)
            try:
                landed(change)
            finally:
                self._landed()

        def error(exc: BaseException) -> None:
            ended()
            give_up(lambda: self.report(exc))

        self.tasks.run(lambda _job: write(), done, error, write=True)

    def perform(self, write: Callable[[], Change], size: int, on_done: OnDone | None = None,
                command: Callable[[Change], ChangeCommand] | None = None,
                on_failed: Callable[[], None] | None = None) -> None:
        """Run one write of about `size` papers in the worker; back in the GUI thread,
        record its undo step, announce it, then call `on_done` with its Change (or, if
        it failed, show the message and call `on_failed`)."""
        make = command or (lambda change: ChangeCommand(self, change))

        def landed(change: Change) -> None:
            if change.ids or change.structural or SAVED in change.touched:
                self.undo_stack.push(make(change))
                self.announce(ChangeEvent(change))
            if on_done is not None:
                on_done(change)

        self._submit(lambda: self._run(write, size, landed, on_failed))

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

        self._run(reverse, len(command.change.ids), landed)

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

    # -- the operations --------------------------------------------------------------

    def set_starred(self, ids: Sequence[int], starred: bool,
                    on_done: OnDone | None = None) -> None:
        """Star or unstar papers."""
        ids = list(ids)
        self.perform(lambda: self.library.set_starred(ids, starred), len(ids), on_done)

    def toggle_starred(self, ids: Sequence[int], on_done: OnDone | None = None) -> None:
        """Star papers, or unstar them if all are starred; decided with the write, so a
        big selection is not read on the GUI thread."""
        ids = list(ids)
        self.perform(lambda: self.library.toggle_starred(ids), len(ids), on_done)

    def set_read_state(self, ids: Sequence[int], state: str,
                       on_done: OnDone | None = None) -> None:
        """Mark papers unread, reading or read."""
        ids = list(ids)
        self.perform(lambda: self.library.set_read_state(ids, state), len(ids), on_done)

    def cycle_read_state(self, ids: Sequence[int], on_done: OnDone | None = None) -> None:
        """Unread → reading → read → unread (all following the first paper)."""
        ids = list(ids)
        self.perform(lambda: self.library.cycle_read_state(ids), len(ids), on_done)

    def add_tags(self, ids: Sequence[int], names: Sequence[str],
                 on_done: OnDone | None = None) -> None:
        """Put tags on papers."""
        ids, names = list(ids), list(names)
        self.perform(lambda: self.library.add_tags(ids, names), len(ids), on_done)

    def remove_tags(self, ids: Sequence[int], names: Sequence[str],
                    on_done: OnDone | None = None) -> None:
        """Take tags off papers."""
        ids, names = list(ids), list(names)
        self.perform(lambda: self.library.remove_tags(ids, names), len(ids), on_done)

    def add_saved_search(self, name: str, query: str, shared: bool = False) -> None:
        """Save a query under a name (listed in the sidebar); `shared`: for every member
        of a shared library."""
        self.perform(lambda: self.library.add_saved_search(name, query, shared), 0)

    def move_saved_search(self, search_id: int, position: int) -> None:
        """Move a saved search to `position` among them (0: first)."""
        self.perform(lambda: self.library.move_saved_search(search_id, position), 0)

    def rename_saved_search(self, search_id: int, name: str) -> None:
        """Give a saved search another name."""
        self.perform(lambda: self.library.rename_saved_search(search_id, name), 0)

    def edit_saved_search(self, search_id: int, query: str) -> None:
        """Give a saved search another query."""
        self.perform(lambda: self.library.edit_saved_search(search_id, query), 0)

    def remove_saved_search(self, search_id: int) -> None:
        """Delete a saved search (undo brings it back)."""
        self.perform(lambda: self.library.remove_saved_search(search_id), 0)

    def delete_papers(self, ids: Sequence[int], on_done: OnDone | None = None) -> None:
        """Delete papers (undo brings them back whole)."""
        ids = list(ids)
        self.perform(lambda: self.library.delete_papers(ids), len(ids), on_done)

    def set_title(self, paper_id: int, title: str, base: str | None = None,
                  on_done: OnDone | None = None) -> None:
        """Give a paper a real title."""
        self.perform(lambda: self.library.set_title(paper_id, title, base), 1, on_done)

    def set_key(self, paper_id: int, key: str, base: str | None = None,
                on_done: OnDone | None = None) -> None:
        """Give a paper the citation key the user typed (a taken key is a message)."""
        self.perform(lambda: self.library.set_key(paper_id, key, base), 1, on_done)

    def set_fields(self, paper_id: int, values: Mapping[str, str | None],
                   base: Mapping[str, str | None] | None = None,
                   on_done: OnDone | None = None) -> None:
        """Set bibliographic fields of a paper by their BibTeX names (Library.set_fields;
        a wrong value is a `failed` message and nothing is written); one undo step."""
        values, base = dict(values), dict(base) if base is not None else None
        self.perform(lambda: self.library.set_fields(paper_id, values, base), 1, on_done)

    def new_paper(self, values: Mapping[str, str | None],
                  on_done: OnDone | None = None) -> None:
        """Add a paper typed in by hand (Library.new_paper); one undo step takes it away.
        The Change names the new paper's id."""
        values = dict(values)
        self.perform(lambda: self.library.new_paper(values)[0], 1, on_done)

    def regenerate_keys(self, ids: Sequence[int], on_done: OnDone | None = None) -> None:
        """New citation keys from the library's pattern for papers (one undo step)."""
        ids = list(ids)
        self.perform(lambda: self.library.regenerate_keys(ids), len(ids), on_done)

    def merge_papers(self, keep_id: int, other_id: int, on_done: OnDone | None = None,
                     on_failed: Callable[[], None] | None = None) -> None:
        """Fold a duplicate into the paper kept; one undo step restores both."""
        self.perform(lambda: self.library.merge_papers(keep_id, other_id), 2, on_done,
                     on_failed=on_failed)

    def set_notes(self, paper_id: int, notes: str, base: tuple[int, str] | None = None,
                  on_done: OnDone | None = None) -> None:
        """Replace a paper's shared notes; a typing burst is one undo step. `base`: the
        paper's version and the notes the text was typed from, so that an edit someone
        else saved meanwhile is merged, not lost (the Change says if both were kept)."""
        self.perform(lambda: self.library.set_notes(paper_id, notes, base), 1, on_done,
                     lambda change: NotesCommand(self, change, paper_id))

    def set_private_notes(self, paper_id: int, notes: str,
                          on_done: OnDone | None = None) -> None:
        """Replace the user's own notes on a paper; a typing burst is one undo step."""
        self.perform(lambda: self.library.set_private_notes(paper_id, notes), 1, on_done,
                     lambda change: NotesCommand(self, change, paper_id, PRIVATE_NOTES))

    def set_key_pattern(self, pattern: str, on_done: Callable[[], None]) -> None:
        """Change the library's key pattern (a setting, not an undo step); `on_done` runs
        once it is saved, a `failed` message says why it was not."""
        def write() -> Change:  # nothing to undo nor to announce
            self.library.set_key_pattern(pattern)
            return Change("", frozenset())

        self.perform(write, 0, lambda _change: on_done())

    def import_files(self, paths: Sequence[str], on_progress: Callable[[int, int], None],
                     on_done: Callable[[ImportOutcome], None],
                     on_error: Callable[[BaseException], None]) -> Job:
        """Import files in a worker, one transaction per file; cancellable through the
        returned Job. The import is one undo step (its papers go, the papers it
        completed are put back); an undo asked meanwhile waits for it."""
        paths = list(paths)
        source = import_name(paths)

        def task(job: Job) -> ImportOutcome:
            return ImportOutcome.collect(self.library, paths, source, job.progress,
                                         job.cancelled)

        return self._import(task, on_progress, on_done, on_error)

    def import_bibtex(self, text: str, source: str,
                      on_progress: Callable[[int, int], None],
                      on_done: Callable[[ImportOutcome], None],
                      on_error: Callable[[BaseException], None]) -> Job:
        """Import BibTeX source that is no file (a paste, a drop of text) named `source`,
        as `import_files` imports a file: in a worker, cancellable, one undo step."""
        def task(job: Job) -> ImportOutcome:
            return ImportOutcome.collect_bibtex(self.library, text, source, job.progress,
                                                job.cancelled)

        return self._import(task, on_progress, on_done, on_error)

    def _import(self, task: Callable[[Job], ImportOutcome],
                on_progress: Callable[[int, int], None],
                on_done: Callable[[ImportOutcome], None],
                on_error: Callable[[BaseException], None]) -> Job:
        def done(outcome: object) -> None:
            assert isinstance(outcome, ImportOutcome)
            try:
                if outcome.report.added_ids or outcome.report.merged_ids:
                    change = self.library.import_change(outcome.report)
                    self.undo_stack.push(ChangeCommand(self, change))
                    self.announce(ChangeEvent(change))
                on_done(outcome)
            finally:
                self._landed()

        def failed(exc: BaseException) -> None:
            try:
                on_error(exc)
            finally:
                self._landed()

        self._in_flight += 1  # (started at once: its Job is the caller's to cancel)
        return self.tasks.run(task, done, failed, on_progress, write=True)

    def add_identifiers(self, wanted: Sequence[Identifier],
                        on_progress: Callable[[int, int], None],
                        on_done: Callable[[AddOutcome], None],
                        settings: HttpSettings | None = None) -> Job:
        """Look papers up by their identifiers in a worker, then add what was found as
        one write and one undo step (`metadata.adding`); `on_done` gets the outcome in
        the GUI thread, also when nothing was added. Cancelled through the returned Job
        while it looks up, it adds nothing. `settings`: the HTTP client's (default: the
        user's cache, the real services, PAPERSHELF_OFFLINE)."""
        wanted = list(wanted)
        http = settings if settings is not None else HttpSettings()
        job: Job | None = None

        def look(running: Job) -> list[adding.Looked]:
            with make_client(http) as client:
                return adding.look_up_all(wanted, client, running.progress, running.cancelled)

        def looked(result: object) -> None:
            assert isinstance(result, list) and job is not None
            outcome = AddOutcome(len(wanted), tuple(result))
            if job.cancelled():
                on_done(AddOutcome(len(wanted), cancelled=True))
                return
            if not any(item.record is not None for item in outcome.looked):
                on_done(outcome)
                return
            made: list[adding.Adding] = []

            def write() -> Change:
                made.append(adding.add_found(self.library, outcome.looked))
                return made[0].change

            self.perform(write, len(wanted),
                         lambda _change: on_done(replace(outcome, result=made[0])),
                         on_failed=lambda: on_done(replace(outcome, unwritten=True)))

        def failed(exc: BaseException) -> None:
            on_done(AddOutcome(len(wanted), error=error_text(exc)))
            self.report(exc)

        job = self.tasks.run(look, looked, failed, on_progress)
        return job

    def find_metadata(self, ids: Sequence[int] | None,
                      on_progress: Callable[[int, int], None],
                      on_done: Callable[[MetadataLookup], None],
                      catalogs: Callable[[], CatalogStore | None],
                      settings: HttpSettings | None = None) -> Job:
        """Look papers up in the catalogs and the services in a worker
        (`metadata.complete.find_candidates`; `ids` None: every paper whose title is
        provisional); `on_done` gets the candidates in the GUI thread. Nothing is
        written. Cancelled through the returned Job, it hands over the papers looked up
        before. `catalogs` is called in the worker; `settings` as for `add_identifiers`."""
        wanted = None if ids is None else list(ids)
        http = settings if settings is not None else HttpSettings()

        def look(running: Job) -> MetadataLookup:
            chosen = complete.provisional_ids(self.library) if wanted is None else wanted
            notes: list[str] = []
            with make_client(http) as client:
                proposals = complete.find_candidates(
                    self.library, chosen, running.progress, running.cancelled,
                    catalogs=catalogs(), client=client, notes=notes)
            return MetadataLookup(len(chosen), tuple(proposals), tuple(notes),
                                  cancelled=running.cancelled())

        def looked(result: object) -> None:
            assert isinstance(result, MetadataLookup)
            on_done(result)

        def failed(exc: BaseException) -> None:
            on_done(MetadataLookup(len(wanted or ()), error=error_text(exc)))
            self.report(exc)

        return self.tasks.run(look, looked, failed, on_progress)

    def accept_candidates(self, chosen: Sequence[tuple[complete.Proposal, complete.Option]],
                          on_done: Callable[[Acceptance], None]) -> None:
        """Complete each paper from the candidate chosen for it (`metadata.complete.accept`:
        its key, notes, star, read state and tags stay), as one undo step; a paper that
        changed since it was looked up, or is gone, is left as it is and named in the
        Acceptance's failures. `on_done` gets the Acceptance in the GUI thread, also when
        nothing was written."""
        chosen = list(chosen)
        made: list[Acceptance] = []

        def write() -> Change:
            done: list[Change] = []
            completed: list[int] = []
            failures: list[str] = []
            try:
                for proposal, option in chosen:
                    try:
                        change = complete.accept(self.library, proposal, option)
                    except UserError as exc:  # (changed meanwhile, or deleted)
                        text = str(exc)
                        failures.append(text if proposal.key in text
                                        else f"{proposal.key}: {text}")
                        continue
                    if change.ids:
                        done.append(change)
                        completed.append(proposal.paper_id)
            except BaseException:
                _take_back(done)
                raise
            made.append(Acceptance(tuple(completed), tuple(failures)))
            return combined(describe("Complete", completed), done)

        self.perform(write, len(chosen), lambda _change: on_done(made[0]),
                     on_failed=lambda: on_done(Acceptance(unwritten=True)))

    def export_bibtex(self, ids: Sequence[int], path: str, options: ExportOptions,
                      confirm: Callable[[Export], bool], on_done: Callable[[int], None]
                      ) -> None:
        """Write BibTeX for papers to a file, atomically (all or nothing), in workers.

        One reading of the papers, after the writes asked for before, gives the text and
        its incomplete entries; `confirm` sees them in the GUI thread and may stop the
        export before anything is written.
        """
        ids = list(ids)

        def built(export: object) -> None:
            assert isinstance(export, Export)
            if confirm(export):
                self.tasks.run(lambda _job: transfer.write_atomically(Path(path), export.text),
                               lambda _none: on_done(len(ids)), self.report_export)

        self.when_settled(lambda: self.tasks.run(
            lambda _job: transfer.export_bibtex(self.library, ids, options), built,
            self.report_export))

    # -- attached files ----------------------------------------------------------------

    def attach_files(self, paper_id: int, paths: Sequence[str],
                     on_done: OnDone | None = None) -> None:
        """Attach PDF files to a paper, copied into the library's folder, as one undo
        step; a file that is not a PDF (or is attached already) is a message and the
        others are attached. Their text is then read for search."""
        paths = list(paths)
        refused: list[str] = []

        def write() -> Change:
            done, failed = self.library.attach_each([(paper_id, Path(p)) for p in paths])
            if failed and len(paths) == 1:
                raise failed[0][1]
            refused.extend(error_text(exc) for _n, exc in failed)
            return combined(tr("Attach {n} files").format(n=len(done)), done) if done \
                else Change("", frozenset())

        def landed(change: Change) -> None:
            for line in refused:
                self.failed.emit(line)
            self.read_file_texts()
            if on_done is not None:
                on_done(change)

        self.perform(write, 1, landed)

    def detach_files(self, ids: Sequence[int], on_done: OnDone | None = None) -> None:
        """Take the attached files off papers (the files stay on the disk); one undo
        step."""
        ids = list(ids)

        def write() -> Change:
            attached = self.library.attachments_of(ids).values()
            return self.library.detach_files([a.id for files in attached for a in files])

        self.perform(write, len(ids), on_done)

    def download_pdfs(self, ids: Sequence[int], on_progress: Callable[[int, int], None],
                      on_done: Callable[[Downloads], None],
                      settings: HttpSettings | None = None) -> Job:
        """Download the PDF each paper names in a worker (`metadata.attaching`), then
        attach what came as one write and one undo step, and read its text for search;
        `on_done` gets the outcome in the GUI thread. Cancelled through the returned Job
        while it downloads, it attaches nothing (and keeps no file). `settings` as for
        `add_identifiers`."""
        wanted = list(ids)
        http = settings if settings is not None else HttpSettings()
        job: Job | None = None

        def fetch(running: Job) -> list[attaching.Fetched]:
            with make_client(http) as client:
                return attaching.download_all(self.library, wanted, client,
                                              running.progress, running.cancelled)

        def fetched(result: object) -> None:
            assert isinstance(result, list) and job is not None
            got = tuple(result)
            if job.cancelled():
                attaching.discard(got)
                on_done(Downloads(len(wanted), cancelled=True))
                return
            if not any(item.path is not None for item in got):
                on_done(Downloads(len(wanted), got))
                return
            problems: list[str] = []

            def write() -> Change:
                change, refused = attaching.attach_fetched(self.library, got)
                problems.extend(refused)
                return change

            def landed(_change: Change) -> None:
                self.read_file_texts()
                on_done(Downloads(len(wanted), got, tuple(problems)))

            self.perform(write, len(wanted), landed, on_failed=lambda: on_done(
                Downloads(len(wanted), got, unwritten=True)))

        def failed(exc: BaseException) -> None:
            on_done(Downloads(len(wanted), error=error_text(exc)))
            self.report(exc)

        job = self.tasks.run(fetch, fetched, failed, on_progress)
        return job

    def read_file_texts(self) -> None:
        """Read the text of the attached files not read yet, a few at a time in a worker
        (pypdf, outside any transaction), each few stored for search by a short write
        that is no undo step; `textsRead` then gives the problems met (damaged files).
        Asked while a round runs, another round follows it."""
        if self._texts_job is not None:
            self._texts_again = True
            return

        def read(job: Job) -> tuple[dict[int, str], list[str]]:
            return attaching.read_texts(
                self.library.pending_texts(attaching.TEXTS_AT_ONCE), job.cancelled)

        def again() -> None:
            self._texts_job = None
            self._texts_again = False
            self.read_file_texts()

        def got(result: object) -> None:
            assert isinstance(result, tuple)
            texts: dict[int, str] = result[0]
            self._texts_problems += result[1]
            if not texts or job.cancelled():
                if self._texts_again and not job.cancelled():
                    again()
                    return
                self._texts_job = None
                problems, self._texts_problems = self._texts_problems, []
                self.textsRead.emit(problems)
                return

            def stored(change: Change) -> None:
                self.announce(ChangeEvent(change))
                again()  # the next few

            def give_up() -> None:
                self._texts_job = None

            self._submit(lambda: self._run(lambda: self.library.set_file_texts(texts),
                                           len(texts), stored, give_up))

        def failed(exc: BaseException) -> None:
            self._texts_job = None
            self.report(exc)

        job = self._texts_job = self.tasks.run(read, got, failed)

    def stop_reading_texts(self) -> None:
        """Stop reading files' text (what is read stays; the rest at the next start)."""
        if self._texts_job is not None:
            self._texts_job.cancel()

    def report_export(self, exc: BaseException) -> None:
        """An export's error: a record BibTeX cannot hold (ValueError) is a message too."""
        if isinstance(exc, ValueError):
            self.failed.emit(str(exc))
        else:
            self.report(exc)


def _take_back(changes: Sequence[Change]) -> None:
    """Undo the completions a batch made before it failed (the failure is reported; if
    taking back fails too, they stay done)."""
    try:
        for change in reversed(changes):
            if change.undo is not None:
                change.undo()
    except Exception:
        log.exception("could not take back the papers completed before the error")


def import_name(paths: Sequence[str]) -> str:
    """What an import of files is called: the file's name, or how many files."""
    return Path(paths[0]).name if len(paths) == 1 else tr("{n} files").format(n=len(paths))


def incomplete_lines(export: Export) -> list[str]:
    """A line for each incomplete entry an export names: its key and what it lacks."""
    words: dict[Missing, str] = {"authors": tr("no authors"),
                                 "title": tr("provisional title"), "year": tr("no year")}
    return [f"{entry.key}: {', '.join(words[m] for m in entry.missing)}"
            for entry in export.incomplete]


class ImportOutcome(transfer.ImportOutcome):
    """The core's import outcome, with its summary line in the interface language."""

    def summary(self) -> str:
        """One line: added, completed, already present, failed (files included)."""
        text = _counts(self.report, len(self.failed_files))
        if self.cancelled:
            text += " " + tr("(cancelled; the file being read was not imported)")
        return text

    def file_summaries(self) -> list[str]:
        """When several files were imported: a line for each, its name and its counts."""
        if len(self.reports) + len(self.failed_files) < 2:
            return []
        return [tr("{name}: {counts}").format(name=Path(path).name,
                                              counts=_counts(report, 0))
                for path, report in self.reports]


def _counts(report: ImportReport, failed_files: int) -> str:
    """Added, completed, already present, failed: an import's counts in one line."""
    parts = [tr("{n} added").format(n=number(report.added))]
    if report.merged:
        parts.append(tr("{n} completed").format(n=number(report.merged)))
    parts.append(tr("{n} already present").format(n=number(report.already_present)))
    parts.append(tr("{n} failed").format(n=number(report.failed + failed_files)))
    return tr(", ").join(parts)


@dataclass(frozen=True)
class AddOutcome:
    """What adding papers by identifier did: how many identifiers were asked for, each
    lookup (`metadata.adding.Looked`), what the write did (None: nothing was written),
    whether the user cancelled, whether the write failed (its error was shown), and the
    error that stopped the lookups."""

    asked: int
    looked: tuple[adding.Looked, ...] = ()
    result: adding.Adding | None = None
    cancelled: bool = False
    unwritten: bool = False
    error: str = ""

    def failures(self) -> list[str]:
        """One line per identifier that could not be looked up: it, then why."""
        return [localized(item.failure) for item in self.looked if item.error is not None]

    def unreached(self) -> list[Identifier]:
        """The identifiers no service could be reached for (no network, a server down,
        a time-out): worth a Retry, unlike one a service does not know."""
        return [item.identifier for item in self.looked
                if item.error is not None and item.error.kind in UNREACHED]

    def notes(self) -> list[str]:
        """The remarks the lookups made (a service skipped, a fallback), once each."""
        return list(dict.fromkeys(localized(note) for item in self.looked
                                  for note in item.notes))

    def summary(self) -> str:
        """One line: added, completed, already had, failed; or why nothing was added."""
        if self.cancelled:
            return tr("Cancelled; nothing was added")
        if self.unwritten:
            return tr("Nothing was added: the library could not be written")
        if self.error:
            return tr("Nothing was added: {reason}").format(reason=self.error)
        done = self.result
        return tr("Added {added}, completed {completed}, already had {already}, "
                  "failed {failed}").format(
            added=done.count("added") if done else 0,
            completed=done.count("completed") if done else 0,
            already=done.count("already") if done else 0,
            failed=len(self.failures()))

    def report(self) -> str:
        """The summary, then a line per failure and per note."""
        lines = [self.summary(), *self.failures()]
        lines += [tr("Note: {note}").format(note=note) for note in self.notes()]
        return "\n".join(lines)


@dataclass(frozen=True)
class MetadataLookup:
    """What looking papers up for their metadata found: how many papers were asked
    about, a proposal (`metadata.complete.Proposal`) for each paper looked up, the run's
    notes (a service skipped, offline mode), whether the user cancelled (the proposals
    are then those of the papers looked up before), and the error that stopped it."""

    asked: int
    proposals: tuple[complete.Proposal, ...] = ()
    notes: tuple[str, ...] = ()
    cancelled: bool = False
    error: str = ""


@dataclass(frozen=True)
class Downloads:
    """What downloading papers' PDFs did: how many papers were asked for, what came of
    each (`metadata.attaching.Fetched`), the files not attached (the paper has the same
    already), whether the user cancelled, whether the write failed (its error was
    shown), and the error that stopped the downloads."""

    asked: int
    fetched: tuple[attaching.Fetched, ...] = ()
    refused: tuple[str, ...] = ()
    cancelled: bool = False
    unwritten: bool = False
    error: str = ""

    def summary(self) -> str:
        """One line: how many PDFs were attached, how many papers failed."""
        if self.cancelled:
            return tr("Cancelled; no PDF was attached")
        if self.unwritten:
            return tr("No PDF was attached: the library could not be written")
        if self.error:
            return tr("No PDF was attached: {reason}").format(reason=self.error)
        got = sum(1 for item in self.fetched if item.path is not None) - len(self.refused)
        text = tr("1 PDF attached, {failed} failed") if got == 1 else tr(
            "{n} PDFs attached, {failed} failed")
        return text.format(n=got, failed=len(self.failures()))

    def failures(self) -> list[str]:
        """One line per paper whose PDF was not attached: its key, then why."""
        return [item.error for item in self.fetched if item.error] + list(self.refused)

    def report(self) -> str:
        """The summary, then a line per failure."""
        return "\n".join([self.summary(), *self.failures()])


@dataclass(frozen=True)
class Acceptance:
    """What accepting candidates did: the papers completed; a line for each paper left
    as it was (it changed since it was looked up, or is gone); and whether the write
    failed as a whole (its error was shown, nothing was completed)."""

    completed: tuple[int, ...] = ()
    failures: tuple[str, ...] = ()
    unwritten: bool = False
