"""The window's small dialogs: import summary, export check, tag input, a line of text
(a saved search's name or query), citation keys, shortcuts, about.

Each is one function (or class) the window calls by module attribute, so a test
can replace exactly the dialog it does not want to click through.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from papershelf import __version__
from papershelf.formats.records import ReadProblem
from papershelf.gui.actions import Actions, shortcut_text
from papershelf.gui.i18n import localized, number
from papershelf.gui.operations import ImportOutcome
from papershelf.gui.qt import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFontDatabase,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPalette,
    QPlainTextEdit,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Translator,
    dpi_size,
    icon,
)

tr = Translator("Dialogs")


def problem_text(problem: ReadProblem) -> str:
    """A problem of a file read, in the interface's language: where, then what."""
    where = f"{problem.path}:{problem.line}" if problem.line else problem.path
    return tr("{where}: {problem}").format(where=where, problem=localized(problem.message))


class ImportSummaryDialog(QDialog):
    """What an import did: counts in one line, then every problem with its reason."""

    def __init__(self, outcome: ImportOutcome, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Import Finished") if not outcome.cancelled
                            else tr("Import Cancelled"))
        self.outcome = outcome
        layout = QVBoxLayout(self)
        self.headline = QLabel(f"<b>{html.escape(outcome.report.source)}</b>: "
                               f"{html.escape(outcome.summary())}")
        self.headline.setTextFormat(Qt.TextFormat.RichText)
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)
        lines = outcome.file_summaries()
        lines += [tr("{path}: not imported: {reason}").format(path=path,
                                                              reason=localized(reason))
                  for path, reason in outcome.failed_files]
        lines += [problem_text(problem) for problem in outcome.report.problems]
        lines += [tr("Note: {notice}").format(notice=localized(n))
                  for n in outcome.report.notices]
        self.details = QPlainTextEdit("\n".join(lines))
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.details.setVisible(bool(lines))
        if lines:
            layout.addWidget(QLabel(tr("Each file, problems and notes:")
                                    if outcome.file_summaries() else tr("Problems and notes:")))
        layout.addWidget(self.details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.resize(dpi_size(560, 360 if lines else 120))

    def text(self) -> str:
        """Everything the dialog says, as plain text."""
        return f"{self.outcome.report.source}: {self.outcome.summary()}\n" \
            + self.details.toPlainText()


def show_import_summary(parent: QWidget, outcome: ImportOutcome) -> ImportSummaryDialog:
    """Show the summary without blocking (window-modal); it deletes itself when closed."""
    dialog = ImportSummaryDialog(outcome, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


def confirm_incomplete(parent: QWidget, count: int, total: int, lines: Sequence[str]) -> bool:
    """Before an export: list the incomplete entries; True to export anyway."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(tr("Incomplete Entries"))
    box.setText(tr("{count} of the {total} papers to export are incomplete.")
                .format(count=count, total=total))
    box.setInformativeText(tr("They lack authors, a real title or a year; a bibliography "
                              "would show the gaps. Export them anyway?"))
    more = count - len(lines)
    extra = ("\n" + tr("… {n} more").format(n=more)) if more > 0 else ""
    box.setDetailedText("\n".join(lines) + extra)
    go = box.addButton(tr("Export Anyway"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(go)
    box.exec()
    return box.clickedButton() is go


def confirm_regenerate_keys(parent: QWidget, count: int, pattern: str) -> bool:
    """Before new keys replace old ones: say how many and from which pattern."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(tr("Regenerate Citation Keys"))
    text = (tr("Give the selected paper a new citation key?") if count == 1 else
            tr("Give the {n} selected papers new citation keys?").format(n=number(count)))
    box.setText(text)
    box.setInformativeText(
        tr("Keys are built from the pattern <tt>{pattern}</tt> (Edit › Preferences). "
           "Documents that cite the old keys will not find them; Undo restores them.")
        .format(pattern=html.escape(pattern)))
    go = box.addButton(tr("Regenerate"), QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(go)
    box.exec()
    return box.clickedButton() is go


class LineDialog(QDialog):
    """Ask for one line of text (a saved search's name or query, a citation key), with
    an optional hint below it: OK once it has some."""

    def __init__(self, title: str, label: str, text: str, parent: QWidget | None = None,
                 hint: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        caption = QLabel(label)
        caption.setTextFormat(Qt.TextFormat.PlainText)
        caption.setWordWrap(True)
        layout.addWidget(caption)
        self.edit = QLineEdit(text)
        self.edit.selectAll()
        caption.setBuddy(self.edit)
        layout.addWidget(self.edit)
        if hint:
            below = QLabel(hint)
            below.setWordWrap(True)
            below.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            layout.addWidget(below)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(text.strip()))
        self.edit.textChanged.connect(lambda typed: ok.setEnabled(bool(typed.strip())))
        self.resize(dpi_size(420, 0).width(), self.sizeHint().height())


class KeyDialog(LineDialog):
    """Ask for a paper's new citation key (checked by the library when it is set)."""

    def __init__(self, key: str, title: str, parent: QWidget | None = None) -> None:
        shown = title if len(title) <= 70 else title[:69].rstrip() + "…"
        super().__init__(tr("Edit Citation Key"),
                         tr("Citation key of “{title}”:").format(title=shown), key, parent,
                         hint=tr("Use letters, digits and - _ : . / only; no other paper "
                                 "may have the same key."))
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))

    def key(self) -> str:
        """The key typed, stripped."""
        return self.edit.text().strip()


def ask_citation_key(parent: QWidget, key: str, title: str) -> str | None:
    """The new citation key for a paper, or None if the user cancelled or kept it."""
    dialog = KeyDialog(key, title, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        new = dialog.key()
        return new if new and new != key else None
    finally:
        dialog.deleteLater()


class NewPaperDialog(QDialog):
    """File › New Paper…: the entry type and the title of a paper typed in by hand."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from papershelf.gui.entry_editor import TYPES

        self.setWindowTitle(tr("New Paper"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Type of the entry:")))
        self.type_box = QComboBox()
        self.type_box.setEditable(True)
        self.type_box.addItems(TYPES)
        self.type_box.setCurrentText("inproceedings")
        layout.addWidget(self.type_box)
        layout.addWidget(QLabel(tr("Title (the other fields are filled in next):")))
        self.title_edit = QLineEdit()
        layout.addWidget(self.title_edit)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c62828;")
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._check)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(dpi_size(420, 0).width(), self.sizeHint().height())

    def _check(self) -> None:
        from papershelf.gui.entry_editor import problem_of

        for name, value in (("type", self.type_box.currentText()),
                            ("title", self.title_edit.text())):
            problem = problem_of(name, value.strip())
            if problem:
                self.problem.setText("✖ " + problem)
                self.problem.show()
                return
        self.accept()

    def values(self) -> tuple[str, str]:
        return self.type_box.currentText().strip(), self.title_edit.text().strip()


def ask_new_paper(parent: QWidget) -> tuple[str, str] | None:
    """The type and title of a new paper, or None if the user cancelled."""
    dialog = NewPaperDialog(parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.values()
    finally:
        dialog.deleteLater()


def ask_line(parent: QWidget, title: str, label: str, text: str = "") -> str | None:
    """The line typed (stripped), or None if the user cancelled or kept `text`."""
    dialog = LineDialog(title, label, text, parent)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        typed = dialog.edit.text().strip()
        return typed if typed and typed != text else None
    finally:
        dialog.deleteLater()


def ask_saved_search(parent: QWidget, query: str) -> tuple[str, str, bool] | None:
    """On a shared library: the name to save `query` under, the query and whether it is
    for the whole group; None if the user cancelled."""
    dialog = LineDialog(tr("Save Search"),
                        tr("Name of the saved search “{query}”:").format(query=query), "",
                        parent)
    share = QCheckBox(tr("&Share with the group (every member sees it)"), dialog)
    share.setObjectName("shareSavedSearch")
    layout = dialog.layout()
    assert isinstance(layout, QVBoxLayout)
    layout.insertWidget(layout.indexOf(dialog.buttons), share)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        name = dialog.edit.text().strip()
        return (name, query, share.isChecked()) if name else None
    finally:
        dialog.deleteLater()


class TagDialog(QDialog):
    """Ask for tags to add, completing from the library's tags."""

    def __init__(self, existing: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Add Tag"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Tag for the selected papers (separate several with "
                                   "commas):")))
        self.edit = QLineEdit()
        completer = QCompleter(list(existing), self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.edit.setCompleter(completer)
        layout.addWidget(self.edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(dpi_size(380, 110))

    def tags(self) -> list[str]:
        """The tags typed, cleaned."""
        return [t.strip() for t in self.edit.text().split(",") if t.strip()]


def ask_tags_to_add(parent: QWidget, existing: Sequence[str]) -> list[str]:
    """The tags to add, or [] if the user cancelled."""
    dialog = TagDialog(existing, parent)
    try:
        return dialog.tags() if dialog.exec() == QDialog.DialogCode.Accepted else []
    finally:
        dialog.deleteLater()


def ask_tag_to_remove(parent: QWidget, tags: Sequence[str]) -> str | None:
    """Which of the selection's tags to take off, or None."""
    if not tags:
        QMessageBox.information(parent, tr("Remove Tag"),
                                tr("The selected papers have no tags."))
        return None
    name, ok = QInputDialog.getItem(parent, tr("Remove Tag"),
                                    tr("Tag to take off the selected papers:"),
                                    list(tags), 0, False)
    return name if ok and name else None


class ShortcutsDialog(QDialog):
    """Every keyboard shortcut, generated from the actions (so it can never be stale)."""

    def __init__(self, actions: Actions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Keyboard Shortcuts"))
        rows = [(action.text().replace("&", ""), shortcut_text(actions.specs[name]))
                for name in actions.specs
                if (action := actions[name]) and shortcut_text(actions.specs[name])]
        rows += [(tr("Next / previous paper"), tr("Down / Up")),
                 (tr("Extend the selection"), tr("Shift+Down / Shift+Up, Shift+click")),
                 (tr("Clear the search"), tr("Escape (in the search field)"))]
        table = QTableWidget(len(rows), 2, self)
        table.setHorizontalHeaderLabels([tr("Action"), tr("Shortcut")])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        table.setShowGrid(False)
        table.setAlternatingRowColors(True)
        for n, (text, keys) in enumerate(rows):
            table.setItem(n, 0, QTableWidgetItem(text))
            table.setItem(n, 1, QTableWidgetItem(keys))
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table = table
        layout = QVBoxLayout(self)
        note = QLabel(tr("Single-key shortcuts work while the paper list has the focus."))
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addWidget(table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(dpi_size(480, 620))


def show_about(parent: QWidget, location: str) -> None:
    """Version and where the library lives."""
    box = QMessageBox(parent)
    box.setWindowTitle(tr("About Papershelf"))
    box.setIconPixmap(icon("papershelf").pixmap(64, 64))
    box.setText(tr("<b>Papershelf {version}</b>").format(version=__version__))
    box.setInformativeText(
        tr("A reading list for researchers: triage, annotate and cite papers.<br><br>"
           "Library: {location}<br>Licence: GPL-3.0-or-later")
        .format(location=html.escape(location)))
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.exec()
