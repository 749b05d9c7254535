"""Every write of the window goes through here: run it in a worker, record its undo,
announce it.

An operation runs the core's write in the write worker (one at a time, in order) and,
back in the GUI thread, pushes one QUndoCommand wrapping the core's `Change` onto the
undo stack and emits `changed` once; a failure becomes one `failed` message instead.
Views listen to `changed` only and decide from the Change's `ids` and `touched` what
they must fetch again (Anki's operations). A caller that acts after a write passes
`on_done`, called with the Change after the views have heard of it. Writes of more
than `BULK` papers also hold the table's updates while they run. Undo lives with the
core's Change (each knows how to reverse itself); this layer only drives it, also
in the worker.

The queue that runs the writes and their undo steps is gui.write_queue's. The
operations come in groups, joined in `Operations`: the triage and edit writes here,
imports and exports (gui.operations_transfer), lookups online (gui.operations_lookup),
attached files (gui.operations_files); what the long ones did is told by gui.outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from papershelf.core.edits import PRIVATE_NOTES
from papershelf.core.library import Change
from papershelf.gui.operations_files import FileOperations
from papershelf.gui.operations_lookup import LookupOperations
from papershelf.gui.operations_transfer import TransferOperations
from papershelf.gui.outcomes import (
    Acceptance,
    AddOutcome,
    Downloads,
    ImportOutcome,
    MetadataLookup,
    import_name,
    incomplete_lines,
)
from papershelf.gui.qt import Signal
from papershelf.gui.write_queue import BULK, ChangeEvent, NotesCommand, OnDone

__all__ = [
    "BULK", "Acceptance", "AddOutcome", "ChangeEvent", "Downloads", "ImportOutcome",
    "MetadataLookup", "OnDone", "Operations", "import_name", "incomplete_lines",
]


class Operations(TransferOperations, LookupOperations, FileOperations):
    """The write layer of the window, with its undo stack: the triage and edit writes
    here, imports and exports, lookups, and attached files from the classes it joins."""

    # The signals of FileOperations, declared here, on the class made last: PySide 6.11
    # finds no signal a base class after the first declares once methods were connected
    # as slots (connections to it deliver nothing). Attached files' text read: the
    # problems met (lines); a shared library's copies of attached files (upload_files):
    # bytes sent of all to send, and at the end (how many went, [a line for each refused]).
    textsRead = Signal(list)
    uploadProgress = Signal(int, int)
    filesUploaded = Signal(object)

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
