"""Every write of the window goes through here: run it, record its undo, announce it.

An operation calls the core (which returns a `Change`), pushes one QUndoCommand
wrapping that Change onto the undo stack, and emits `changed` once; views listen
to that signal only (Anki's operations). Writes touching more than `BULK`
papers run in a worker while the table holds its updates. Undo lives with the
core's Change (each knows how to reverse itself); this module only drives it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from papershelf.core import transfer
from papershelf.core.db import LibraryError
from papershelf.core.library import Change, Library, UserError
from papershelf.core.transfer import Export, ExportOptions, Missing
from papershelf.gui.qt import QObject, QUndoCommand, QUndoStack, Signal, Translator
from papershelf.gui.workers import Job, TaskManager

tr = Translator("Operations")

BULK = 2000  # papers; bigger writes go to a worker thread
NOTES_BURST_SECONDS = 4.0  # notes edits closer together than this are one undo step

# What a change can touch, so views know whether their rows or their ids are stale.
STARRED, READ_STATE, NOTES, TITLE, TAGS, PAPERS, KEY = (
    "starred", "read_state", "notes", "title", "tags", "papers", "key")


@dataclass(frozen=True)
class ChangeEvent:
    """One announced change: the core's Change, the fields it touched, and whether it
    came from undo/redo (so an editor that made the edit itself can ignore it)."""

    change: Change
    fields: frozenset[str]
    from_undo: bool = False


class ChangeCommand(QUndoCommand):
    """One undo step around a Change that has already been applied."""

    def __init__(self, ops: Operations, change: Change, fields: frozenset[str]) -> None:
        super().__init__(change.description)
        self._ops = ops
        self._change = change
        self.fields = fields
        self._fresh = True  # the first redo() is the push: the write already ran

    def redo(self) -> None:
        if self._fresh:
            self._fresh = False
            return
        self._flip()

    def undo(self) -> None:
        self._flip()

    def _flip(self) -> None:
        """Apply the stored reversal; it returns the reversal of itself (redo)."""
        if self._change.undo is None:
            return
        try:
            self._change = self._change.undo()
        except (LibraryError, UserError) as exc:
            self._ops.failed.emit(str(exc))
            return
        self._ops.announce(ChangeEvent(self._change, self.fields, from_undo=True))


class NotesCommand(ChangeCommand):
    """Notes edits of one paper in one typing burst merge into a single undo step."""

    ID = 1001

    def __init__(self, ops: Operations, change: Change, paper_id: int) -> None:
        super().__init__(ops, change, frozenset({NOTES}))
        self.paper_id = paper_id
        self.last_edit = time.monotonic()

    def id(self) -> int:
        return self.ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, NotesCommand) or other.paper_id != self.paper_id:
            return False
        if other.last_edit - self.last_edit > NOTES_BURST_SECONDS:
            return False
        # Keep our own reversal: it restores the notes from before the burst, and its
        # own reversal captures the latest text at undo time.
        self.last_edit = other.last_edit
        return True


class Operations(QObject):
    """The write layer of the window, with its undo stack."""

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

    # -- the machinery -----------------------------------------------------------------

    def announce(self, event: ChangeEvent) -> None:
        """Tell the views what changed."""
        self.changed.emit(event)

    def _record(self, change: Change, fields: frozenset[str]) -> Change:
        if change.ids or change.structural:
            self.undo_stack.push(ChangeCommand(self, change, fields))
            self.announce(ChangeEvent(change, fields))
        return change

    def perform(self, write: Callable[[], Change], fields: frozenset[str],
                size: int) -> Change | None:
        """Run one write; big ones go to a worker (returns None then, and the Change
        is recorded when the worker is done). Errors become `failed` messages."""
        if size > BULK:
            if self._bulk_running:
                self.failed.emit(tr("Another change is still running; try again when "
                                    "it is done."))
                return None
            self._bulk_running = True
            self.bulkStarted.emit(tr("Changing {n} papers…").format(n=size))

            def done(change: object) -> None:
                self._bulk_running = False
                self.bulkFinished.emit()
                assert isinstance(change, Change)
                self._record(change, fields)

            def error(exc: BaseException) -> None:
                self._bulk_running = False
                self.bulkFinished.emit()
                self.report(exc)

            self.tasks.run(lambda _job: write(), done, error, write=True)
            return None
        try:
            change = write()
        except (LibraryError, UserError) as exc:
            self.failed.emit(str(exc))
            return None
        return self._record(change, fields)

    def report(self, exc: BaseException) -> None:
        """A worker's error: the user's or the environment's becomes a message; a bug
        is raised again here, in the GUI thread, where the crash handler sees it."""
        if isinstance(exc, (LibraryError, UserError)):
            self.failed.emit(str(exc))
        else:
            raise exc

    @property
    def busy(self) -> bool:
        """Whether a bulk write is running."""
        return self._bulk_running

    # -- the operations --------------------------------------------------------------

    def set_starred(self, ids: Sequence[int], starred: bool) -> Change | None:
        """Star or unstar papers."""
        ids = list(ids)
        return self.perform(lambda: self.library.set_starred(ids, starred),
                            frozenset({STARRED}), len(ids))

    def toggle_starred(self, ids: Sequence[int]) -> Change | None:
        """Star papers, or unstar them if all are starred; decided with the write, so a
        big selection is not read on the GUI thread."""
        ids = list(ids)
        return self.perform(lambda: self.library.toggle_starred(ids),
                            frozenset({STARRED}), len(ids))

    def set_read_state(self, ids: Sequence[int], state: str) -> Change | None:
        """Mark papers unread, reading or read."""
        ids = list(ids)
        return self.perform(lambda: self.library.set_read_state(ids, state),
                            frozenset({READ_STATE}), len(ids))

    def cycle_read_state(self, ids: Sequence[int]) -> Change | None:
        """Unread → reading → read → unread (all following the first paper)."""
        ids = list(ids)
        return self.perform(lambda: self.library.cycle_read_state(ids),
                            frozenset({READ_STATE}), len(ids))

    def add_tags(self, ids: Sequence[int], names: Sequence[str]) -> Change | None:
        """Put tags on papers."""
        ids, names = list(ids), list(names)
        return self.perform(lambda: self.library.add_tags(ids, names),
                            frozenset({TAGS}), len(ids))

    def remove_tags(self, ids: Sequence[int], names: Sequence[str]) -> Change | None:
        """Take tags off papers."""
        ids, names = list(ids), list(names)
        return self.perform(lambda: self.library.remove_tags(ids, names),
                            frozenset({TAGS}), len(ids))

    def delete_papers(self, ids: Sequence[int]) -> Change | None:
        """Delete papers (undo brings them back whole)."""
        ids = list(ids)
        return self.perform(lambda: self.library.delete_papers(ids),
                            frozenset({PAPERS}), len(ids))

    def set_title(self, paper_id: int, title: str) -> Change | None:
        """Give a paper a real title."""
        return self.perform(lambda: self.library.set_title(paper_id, title),
                            frozenset({TITLE}), 1)

    def set_key(self, paper_id: int, key: str) -> Change | None:
        """Give a paper the citation key the user typed (a taken key is a message)."""
        return self.perform(lambda: self.library.set_key(paper_id, key), frozenset({KEY}), 1)

    def regenerate_keys(self, ids: Sequence[int]) -> Change | None:
        """New citation keys from the library's pattern for papers (one undo step)."""
        ids = list(ids)
        return self.perform(lambda: self.library.regenerate_keys(ids), frozenset({KEY}),
                            len(ids))

    def merge_papers(self, keep_id: int, other_id: int) -> Change | None:
        """Fold a duplicate into the paper kept; one undo step restores both."""
        return self.perform(lambda: self.library.merge_papers(keep_id, other_id),
                            frozenset({PAPERS}), 2)

    def set_key_pattern(self, pattern: str) -> bool:
        """Change the library's key pattern (a setting, not an undo step); False and a
        `failed` message if the pattern is invalid or the library cannot be written."""
        try:
            self.library.set_key_pattern(pattern)
        except (LibraryError, UserError) as exc:
            self.failed.emit(str(exc))
            return False
        return True

    def set_notes(self, paper_id: int, notes: str) -> Change | None:
        """Replace a paper's notes; a typing burst is one undo step."""
        try:
            change = self.library.set_notes(paper_id, notes)
        except (LibraryError, UserError) as exc:
            self.failed.emit(str(exc))
            return None
        if change.ids:
            self.undo_stack.push(NotesCommand(self, change, paper_id))
            self.announce(ChangeEvent(change, frozenset({NOTES})))
        return change

    def import_files(self, paths: Sequence[str], on_progress: Callable[[int, int], None],
                     on_done: Callable[[ImportOutcome], None],
                     on_error: Callable[[BaseException], None]) -> Job:
        """Import files in a worker, one transaction per file; cancellable through the
        returned Job. Imports are not undo steps (the papers can be deleted)."""
        paths = list(paths)
        source = import_name(paths)

        def done(outcome: object) -> None:
            assert isinstance(outcome, ImportOutcome)
            if outcome.report.added_ids or outcome.report.merged_ids:
                ids = frozenset(outcome.report.added_ids + outcome.report.merged_ids)
                change = Change(tr("Import"), ids, structural=True)
                self.announce(ChangeEvent(change, frozenset({PAPERS})))
            on_done(outcome)

        def task(job: Job) -> ImportOutcome:
            return ImportOutcome.collect(self.library, paths, source, job.progress,
                                         job.cancelled)

        return self.tasks.run(task, done, on_error, on_progress, write=True)

    def export_bibtex(self, ids: Sequence[int], path: str, options: ExportOptions,
                      confirm: Callable[[Export], bool], on_done: Callable[[int], None]
                      ) -> None:
        """Write BibTeX for papers to a file, atomically (all or nothing), in workers.

        One reading of the papers gives the text and its incomplete entries; `confirm`
        sees them in the GUI thread and may stop the export before anything is written.
        """
        ids = list(ids)

        def built(export: object) -> None:
            assert isinstance(export, Export)
            if confirm(export):
                self.tasks.run(lambda _job: transfer.write_atomically(Path(path), export.text),
                               lambda _none: on_done(len(ids)), self.report_export)

        self.tasks.run(lambda _job: transfer.export_bibtex(self.library, ids, options), built,
                       self.report_export)

    def report_export(self, exc: BaseException) -> None:
        """An export's error: a record BibTeX cannot hold (ValueError) is a message too."""
        if isinstance(exc, ValueError):
            self.failed.emit(str(exc))
        else:
            self.report(exc)


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
        report = self.report
        parts = [tr("{n} added").format(n=report.added)]
        if report.merged:
            parts.append(tr("{n} completed").format(n=report.merged))
        parts.append(tr("{n} already present").format(n=report.already_present))
        parts.append(tr("{n} failed").format(n=report.failed + len(self.failed_files)))
        text = ", ".join(parts)
        if self.cancelled:
            text += " " + tr("(cancelled; the file being read was not imported)")
        return text
