"""Editing papers: New Paper…, the fields, title and notes edited in the detail pane,
citation keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.qt import Translator
from papershelf.gui.shell import Feature, Handler, Shell

if TYPE_CHECKING:
    from papershelf.core.edits import Change
    from papershelf.gui import dialogs
else:
    dialogs = lazy.module("papershelf.gui.dialogs")

tr = Translator("MainWindow")


class EditingFeature(Feature):
    """A paper's fields, notes and citation key; new papers."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        # (id, key, selected yet) of a paper New Paper made, keyed once the user leaves it
        self._new_paper: tuple[int, str, bool] | None = None

    def handlers(self) -> dict[str, Handler]:
        detail = self.shell.detail
        return {
            "new_paper": self.new_paper,
            "edit_notes": detail.focus_notes,
            "edit_fields": lambda: detail.edit_fields(1),
            "edit_bibtex": lambda: detail.edit_fields(2),
            "edit_key": self.edit_key,
            "regenerate_keys": self.regenerate_keys,
        }

    def attach(self) -> None:
        detail, ops = self.shell.detail, self.shell.ops
        detail.notesEdited.connect(ops.set_notes)
        detail.privateNotesEdited.connect(ops.set_private_notes)
        detail.titleEdited.connect(ops.set_title)
        detail.fieldsEdited.connect(self._fields_edited)

    def selection_changed(self) -> None:
        self._key_new_paper()

    def _fields_edited(self, paper_id: int, values: dict[str, str | None],
                       base: dict[str, str | None]) -> None:
        """A field edited in the detail pane: written (one undo step); a value someone
        else had changed meanwhile is named, with a button that puts theirs back."""
        def done(change: Change) -> None:
            if change.replaced:
                self._offer_theirs(paper_id, dict(change.replaced))

        self.shell.ops.set_fields(paper_id, values, base, done)

    def _offer_theirs(self, paper_id: int, theirs: dict[str, str | None]) -> None:
        """Say which values of someone else's an edit replaced; Put Theirs Back writes
        them again (one more undo step)."""
        def shown(name: str, value: str | None) -> str:
            if value is None:
                return tr("{field} (they had removed it)").format(field=name)
            value = " ".join(value.split())
            value = value if len(value) <= 60 else value[:59] + "…"
            return tr("{field} “{value}”").format(field=name, value=value)

        self.shell.add_panel.show_message(
            tr("Someone else had changed this paper while you edited it; yours replaced "
               "their {values}.").format(
                values=", ".join(shown(name, value) for name, value in sorted(theirs.items()))),
            action=(tr("Put Theirs Back"), lambda: self.shell.ops.set_fields(paper_id, theirs)))

    def new_paper(self) -> None:
        """File › New Paper… (Ctrl+N): its type and title asked, then it is added, shown
        and its fields opened for the rest (undo takes it away)."""
        asked = dialogs.ask_new_paper(self.shell)
        if asked is None:
            return
        entry_type, title = asked

        def added(change: Change) -> None:
            pid = next(iter(change.ids), None)
            if pid is None:
                return
            # (keyed again from its fields once the user leaves it: _key_new_paper)
            self._new_paper = (pid, self.shell.library.rows([pid])[pid].key, False)
            self._select_when_shown(pid, edit=True)

        self.shell.ops.new_paper({"type": entry_type, "title": title}, added)

    def _key_new_paper(self) -> None:
        """A paper made by New Paper is keyed from the fields filled in once the user
        leaves it (the dialog asked only its title)."""
        if self._new_paper is None:
            return
        pid, made, shown = self._new_paper
        if self.shell.table.focused_id() == pid:
            self._new_paper = (pid, made, True)
            return
        if not shown:  # (not selected yet: the table still shows the paper before it)
            return
        self._new_paper = None
        library = self.shell.library
        self.shell.ops.perform(lambda: library.key_new_paper(pid, made), 1)

    def _select_when_shown(self, pid: int, *, edit: bool = False) -> None:
        """Select a paper (a new one: in the list of all papers) once the table shows it,
        and open its fields' editor if `edit`."""
        shell = self.shell
        model = shell.model

        def select() -> bool:
            row = model.row_of(pid)
            if row is None:
                return False
            shell.table.go_to_row(row)
            if edit:
                shell.detail.edit_fields(1)
            return True

        def refreshed() -> None:
            if select() or model.complete:
                model.refreshed.disconnect(refreshed)

        if select():
            return
        model.refreshed.connect(refreshed)
        view = model.view
        if view.filter != "all" or view.tag or view.search.strip():
            shell.search.clear()
            shell.sidebar.select("all", None)

    def edit_key(self) -> None:
        """Ask for the current paper's new citation key (a taken key is a message)."""
        shell = self.shell
        pid = shell.table.focused_id()
        detail = shell.library.paper(pid) if pid is not None else None
        if detail is None:
            return
        key = dialogs.ask_citation_key(shell, detail.key, detail.record.title)
        if key is not None:
            shell.ops.set_key(detail.id, key, base=detail.key)

    def regenerate_keys(self) -> None:
        """New keys from the library's pattern for the selection, after a confirmation."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids or not dialogs.confirm_regenerate_keys(shell, len(ids),
                                                          shell.library.key_pattern):
            return

        def regenerated(change: Change) -> None:
            if not change.ids:
                shell.statusBar().showMessage(tr("The keys already follow the pattern"), 4000)

        shell.ops.regenerate_keys(ids, regenerated)
