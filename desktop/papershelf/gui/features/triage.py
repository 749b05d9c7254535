"""Triage: stars, read states, tags and deleting, on the selection (also by a click on
a row's star or read-state mark)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.qt import Translator
from papershelf.gui.shell import Feature, Handler, papers

if TYPE_CHECKING:
    from papershelf.core.edits import Change
    from papershelf.gui import dialogs, operations
else:
    dialogs = lazy.module("papershelf.gui.dialogs")
    operations = lazy.module("papershelf.gui.operations")

tr = Translator("MainWindow")


class TriageFeature(Feature):
    """Star, read state, tags and Delete of the selected papers."""

    def handlers(self) -> dict[str, Handler]:
        return {
            "toggle_star": self.toggle_star,
            "cycle_read": lambda: self._on_selection(self.shell.ops.cycle_read_state),
            "mark_unread": lambda: self.set_read_state("unread"),
            "mark_reading": lambda: self.set_read_state("reading"),
            "mark_read": lambda: self.set_read_state("read"),
            "delete": self.delete_selected,
            "add_tag": self.add_tag,
            "remove_tag": self.remove_tag,
        }

    def attach(self) -> None:
        self.shell.table.starClicked.connect(self._star_clicked)
        self.shell.table.readStateClicked.connect(self._read_state_clicked)

    def _on_selection(self, operation: Callable[[list[int]], object]) -> None:
        ids = self.shell.table.selected_ids()
        if ids:
            operation(ids)

    def toggle_star(self, ids: list[int] | None = None) -> None:
        """Star the papers, or unstar them if every one is starred (S)."""
        ids = self.shell.table.selected_ids() if ids is None else ids
        if not ids:
            return
        self.shell.ops.toggle_starred(ids)  # star or unstar is decided with the write

    def set_read_state(self, state: str) -> None:
        """Mark the selected papers unread, reading or read."""
        ids = self.shell.table.selected_ids()
        if ids:
            self.shell.ops.set_read_state(ids, state)

    def _clicked_ids(self, row: int) -> list[int]:
        pid = self.shell.model.id_at(row)
        if pid is None or not self.shell.model.showing_papers:  # (the inbox's rows)
            return []
        selected = self.shell.table.selected_ids()
        return selected if pid in selected else [pid]

    def _star_clicked(self, row: int) -> None:
        ids = self._clicked_ids(row)
        if ids:
            self.toggle_star(ids)

    def _read_state_clicked(self, row: int) -> None:
        ids = self._clicked_ids(row)
        if ids:
            self.shell.ops.cycle_read_state(ids)

    def delete_selected(self) -> None:
        """Delete the selected papers; one undo step brings them back."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids:
            return

        def deleted(_change: Change) -> None:
            undo = shell.actions["undo"].shortcut().toString(
                shell.actions["undo"].shortcut().SequenceFormat.NativeText)
            shell.statusBar().showMessage(
                tr("Deleted {papers}; {undo} brings them back").format(
                    papers=papers(len(ids)), undo=undo), 6000)

        shell.ops.delete_papers(ids, deleted)

    def add_tag(self) -> None:
        """Ask for a tag and put it on the selected papers."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids:
            return
        names = dialogs.ask_tags_to_add(shell, shell.library.tag_names())
        if names:
            shell.ops.add_tags(ids, names)

    def remove_tag(self) -> None:
        """Ask which of the selection's tags to take off."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids:
            return
        if len(ids) <= operations.BULK:
            tags = sorted({t for names in shell.library.tags_of(ids).values() for t in names},
                          key=str.casefold)
        else:
            tags = shell.library.tag_names()
        name = dialogs.ask_tag_to_remove(shell, tags)
        if name:
            shell.ops.remove_tags(ids, [name])
