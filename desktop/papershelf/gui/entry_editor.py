"""The detail pane's editors of a paper's bibliographic fields (issue 25).

`FieldsEditor` lays out every field of a paper (its entry type, title, authors and
editors as lists, year, venue, volume, number, pages, publisher, DOI, arXiv id, URL,
abstract, keywords, and any other BibTeX field, added or removed by name) and
`SourceEditor` the paper's BibTeX entry as it is exported (JabRef's source tab). Both
show the values as BibTeX writes them (`core.editing.fields_of`: a macro as written).
The editor of each field (a line, a text, a list of names) is gui.field_editors'.

Nothing here writes: an edit is checked first (`core.editing.checked_value`, the same
check the library makes; a broken value is one line under its field and is not sent,
an unusual one a warning) and then emitted as `fieldsEdited(paper id, values, base)`,
`base` being the values it replaces, which the window hands to `Operations.set_fields`
(one undo step per edit; another member's edit of another field is kept). A field is
sent when the user leaves it (Enter, Tab, a click elsewhere), never by a "Save"
button. When the paper is read again (after any change) the editors show the new values
without touching the field being typed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from papershelf.core import editing
from papershelf.errors import UserError
from papershelf.gui.field_editors import FieldLine, FieldText, NamesEditor
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QApplication,
    QComboBox,
    QFont,
    QFontDatabase,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QKeySequence,
    QLabel,
    QPalette,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QShortcut,
    Qt,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
)

tr = Translator("EntryEditor")

TYPES = ("article", "inproceedings", "book", "incollection", "inbook", "phdthesis",
         "mastersthesis", "techreport", "misc", "unpublished", "online", "proceedings")
VENUES = ("booktitle", "journal", "howpublished", "school", "institution")
# The fields every paper is offered, in this order (the venue's by the paper's type).
COMMON = ("title", "author", "editor", "year", "venue", "volume", "number", "pages",
          "publisher", "doi", "eprint", "url", "abstract", "keywords")
NAME_LISTS = ("author", "editor")
# Not offered as a field: bibtex's sort key an author-less export writes.
HIDDEN = frozenset({"key"})


fields_of = editing.fields_of
entry_of = editing.entry_of


def labels() -> dict[str, str]:
    """The fields' names as the form shows them."""
    return {
        "type": tr("Type"), "title": tr("Title"), "author": tr("Authors"),
        "editor": tr("Editors"), "year": tr("Year"), "volume": tr("Volume"),
        "number": tr("Number"), "pages": tr("Pages"), "publisher": tr("Publisher"),
        "doi": tr("DOI"), "eprint": tr("arXiv id"), "url": tr("URL"),
        "abstract": tr("Abstract"), "keywords": tr("Keywords"),
        "booktitle": tr("Booktitle"), "journal": tr("Journal"),
        "howpublished": tr("Published as"), "school": tr("School"),
        "institution": tr("Institution"),
    }


def warning_for(name: str, value: str) -> str:
    """A value that is stored but unusual: one line saying why ('' when it is not)."""
    if name == "year" and value.isdigit():
        year = int(value)
        if year > date.today().year + 1:
            return tr("A year still to come")
        if year < 1800:
            return tr("A year before 1800")
    if name == "url" and value.startswith("http://"):
        return tr("Not https: the link is not encrypted")
    if name == "title" and value.isupper() and len(value) > 12:
        return tr("All in capitals (BibTeX styles change the case of titles themselves)")
    return ""


def problem_of(name: str, value: str) -> str:
    """What is wrong with `value` for the field `name`, as one line ('' when nothing)."""
    try:
        editing.checked_value(name, value)
    except editing.FieldError as exc:
        return exc.problem
    return ""


class FieldsEditor(QWidget):
    """Every field of one paper, each sent on its own when the user leaves it."""

    fieldsEdited = Signal(int, object, object)  # paper id, {field: value}, {field: base}
    escaped = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id: int | None = None
        self._fields: dict[str, str] = {}
        self._editors: dict[str, FieldLine | FieldText | NamesEditor | QComboBox] = {}
        self._problems: dict[str, QLabel] = {}
        self._labels = labels()

        self.form_widget = QWidget()
        self.form_widget.setBackgroundRole(QPalette.ColorRole.Base)
        self.form = QFormLayout(self.form_widget)
        self.form.setContentsMargins(10, 8, 10, 8)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.form_widget)
        self.add_field_button = QPushButton(tr("Add Field…"))
        self.add_field_button.setToolTip(tr("Another BibTeX field, by its name (note, isbn, "
                                            "series, …)"))
        self.add_field_button.clicked.connect(self.ask_new_field)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(scroll, 1)
        bottom = QHBoxLayout()
        bottom.setContentsMargins(10, 0, 10, 4)
        bottom.addWidget(self.add_field_button)
        bottom.addStretch(1)
        layout.addLayout(bottom)

    # -- what it shows ---------------------------------------------------------------

    def paper_id(self) -> int | None:
        return self._paper_id

    def editor(self, name: str) -> QWidget | None:
        """The editor of the field `name` (None if the form has none)."""
        return self._editors.get(name)

    def show_fields(self, paper_id: int, values: Mapping[str, str]) -> None:
        """Show a paper's fields (as `fields_of` gives them). The same paper again: only
        the values that changed, never the field being typed in."""
        values = {k: v for k, v in values.items() if k not in HIDDEN}
        wanted = self._names_for(values)
        if paper_id != self._paper_id or wanted != list(self._editors):
            self._rebuild(wanted)  # (another paper: no line of the last one stays)
        self._paper_id = paper_id
        self._fields = dict(values)
        for name, widget in self._editors.items():
            value = values.get(name, "")
            if (_focused(widget) and self._editing(name)) or self._refused(name):
                continue  # (the user's typing stays, sent when they leave; or refused)
            self._set(widget, value)
            self._show_problem(name, warning_for(name, value), warning=True)

    def _names_for(self, values: Mapping[str, str]) -> list[str]:
        names = ["type"]
        for name in COMMON:
            if name == "venue":
                names.append(self._venue_name(values))
            else:
                names.append(name)
        names.extend(n for n in values if n not in names and n != "type")
        return names

    @staticmethod
    def _venue_name(values: Mapping[str, str]) -> str:
        for name in VENUES:
            if name in values:
                return name
        entry_type = values.get("type", "misc")
        return {"article": "journal", "inproceedings": "booktitle", "incollection":
                "booktitle", "phdthesis": "school", "mastersthesis": "school",
                "techreport": "institution"}.get(entry_type, "howpublished")

    def _rebuild(self, names: list[str]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._editors.clear()
        self._problems.clear()
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for name in names:
            widget = self._make_editor(name, mono)
            self._editors[name] = widget
            problem = QLabel()
            problem.setWordWrap(True)
            problem.setObjectName(f"problem-{name}")
            small = QFont(problem.font())
            small.setPointSizeF(small.pointSizeF() * 0.9)
            problem.setFont(small)
            problem.hide()
            self._problems[name] = problem
            holder = QWidget()
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(1)
            row = QHBoxLayout()
            row.setContentsMargins(0, 0, 0, 0)
            row.addWidget(widget, 1)
            if name not in COMMON and name not in VENUES and name != "type":
                remove = QToolButton()
                remove.setText("×")
                remove.setObjectName(f"remove-{name}")
                remove.setToolTip(tr("Remove this field"))
                remove.clicked.connect(lambda _=False, n=name: self._send(n, ""))
                row.addWidget(remove)
            column.addLayout(row)
            column.addWidget(problem)
            self.form.addRow(self._labels.get(name, name), holder)

    def _make_editor(self, name: str, mono: QFont
                     ) -> FieldLine | FieldText | NamesEditor | QComboBox:
        if name == "type":
            combo = QComboBox()
            combo.setEditable(True)
            combo.addItems(TYPES)
            combo.setObjectName("field-type")
            combo.activated.connect(lambda _n: self._send("type", combo.currentText()))
            line = combo.lineEdit()
            if line is not None:
                line.editingFinished.connect(lambda: self._send("type", combo.currentText()))
            return combo
        if name in NAME_LISTS:
            names = NamesEditor(name)
            names.changed.connect(lambda n=name, w=names: self._send(n, w.text()))
            names.list.escaped.connect(self.escaped)
            return names
        widget: FieldLine | FieldText = FieldText(name) if name == "abstract" else FieldLine(name)
        widget.setObjectName(f"field-{name}")
        if name in ("doi", "eprint", "url"):
            widget.setFont(mono)
        if isinstance(widget, FieldText):
            widget.setMinimumHeight(120)
        widget.left.connect(lambda n=name, w=widget: self._send(n, w.text()))
        widget.escaped.connect(self.escaped)
        if isinstance(widget, FieldLine):
            widget.textEdited.connect(lambda text, n=name: self._show_problem(
                n, problem_of(n, text) if text.strip() else ""))
            widget.restored.connect(lambda n=name: self._show_problem(n, ""))
        return widget

    def _set(self, widget: QWidget, value: str) -> None:
        if isinstance(widget, QComboBox):
            widget.setCurrentText(value)
        elif isinstance(widget, FieldLine | FieldText | NamesEditor):
            widget.shown = value
            if widget.text() != value:
                widget.setText(value)

    def _editing(self, name: str) -> bool:
        widget = self._editors[name]
        text = widget.currentText() if isinstance(widget, QComboBox) else widget.text()
        return text != self._fields.get(name, "")

    # -- sending an edit -------------------------------------------------------------

    def flush(self) -> None:
        """Send what is being typed in a field now (before another paper is shown, or the
        window closes)."""
        for name, widget in self._editors.items():
            if isinstance(widget, FieldLine | FieldText) and widget.text() != widget.shown:
                self._send(name, widget.text())

    def _send(self, name: str, text: str) -> None:
        if self._paper_id is None:
            return
        old = self._fields.get(name, "")
        value = text.strip() if name != "abstract" else text.strip("\n")
        if value == old.strip() or (not value and not old):
            self._show_problem(name, "")
            return
        problem = problem_of(name, value) if value or name in ("type", "title") else ""
        if problem:
            self._show_problem(name, problem)
            return
        self._show_problem(name, warning_for(name, value), warning=True)
        self._fields[name] = value
        widget = self._editors.get(name)
        if isinstance(widget, FieldLine | FieldText | NamesEditor):
            widget.shown = value
        self.fieldsEdited.emit(self._paper_id, {name: value or None}, {name: old or None})

    def _show_problem(self, name: str, problem: str, *, warning: bool = False) -> None:
        label = self._problems.get(name)
        if label is None:
            return
        if not problem:
            label.hide()
            return
        label.setText(("⚠ " if warning else "✖ ") + problem)
        label.setForegroundRole(QPalette.ColorRole.PlaceholderText if warning
                                else QPalette.ColorRole.Highlight)
        label.setStyleSheet("" if warning else "color: #c62828;")
        label.show()

    def _refused(self, name: str) -> bool:
        return self.problem_text(name).startswith("✖")

    def problem_text(self, name: str) -> str:
        """The line under a field ('' when none is shown)."""
        label = self._problems.get(name)
        return label.text() if label is not None and not label.isHidden() else ""

    def ask_new_field(self) -> None:
        """Add Field…: a BibTeX field by its name, then its value is typed in."""
        name, ok = QInputDialog.getText(self, tr("Add Field"), tr("Name of the BibTeX field "
                                                                  "(e.g. note, isbn, series):"))
        if ok and name.strip():
            self.add_field(name)

    def add_field(self, name: str) -> None:
        """A row for the field `name` (focused, to type its value in)."""
        try:
            name = editing.field_name(name)
        except UserError as exc:
            self._show_problem("type", error_text(exc))
            return
        if name not in self._editors and self._paper_id is not None:
            self._rebuild([*self._editors, name])
            for other, widget in self._editors.items():
                self._set(widget, self._fields.get(other, ""))
        widget = self._editors[name]
        widget.setFocus(Qt.FocusReason.OtherFocusReason)


def _focused(widget: QWidget) -> bool:
    if isinstance(widget, QComboBox):
        line = widget.lineEdit()
        return widget.hasFocus() or (line is not None and line.hasFocus())
    return widget.hasFocus()


class SourceEditor(QWidget):
    """The paper's BibTeX entry, as exported: edited and applied (Ctrl+Return, or by
    leaving it); a mistake is shown with its line and nothing is sent until it parses."""

    fieldsEdited = Signal(int, object, object)  # as FieldsEditor's
    escaped = Signal()
    notice = Signal(str)  # for the status bar: an entry left without being applied

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id: int | None = None
        self._key = ""
        self._fields: dict[str, str] = {}
        self._shown = ""
        self.text_edit = FieldText("bibtex")
        self.text_edit.setObjectName("bibtexSource")
        self.text_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text_edit.left.connect(self.apply)
        self.text_edit.escaped.connect(self._escape)
        self.problem = QLabel()
        self.problem.setObjectName("bibtexProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c62828;")
        self.problem.hide()
        self.apply_button = QPushButton(tr("Apply"))
        self.apply_button.setToolTip(tr("Read the entry again and keep what changed "
                                        "(Ctrl+Return; leaving the text does it too)"))
        self.apply_button.clicked.connect(self.apply)
        shortcut = QShortcut(QKeySequence("Ctrl+Return"), self.text_edit)
        shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
        shortcut.activated.connect(self.apply)
        hint = QLabel(tr("The entry as it is exported; the citation key is changed with "
                         "Paper › Edit Citation Key…"))
        hint.setWordWrap(True)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(4)
        layout.addWidget(hint)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(self.problem)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.apply_button)
        layout.addLayout(row)

    def show_entry(self, paper_id: int, key: str, source: str) -> None:
        """Show a paper's entry (`entry_of`); the same paper's while its text is being
        edited: kept. Its fields are read from it (as `fields_of` reads them)."""
        same = paper_id == self._paper_id
        typed = self.text_edit.toPlainText()
        if not same and self._paper_id is not None and typed != self._shown:
            # (flush could not apply it: it does not parse) never dropped without a word
            QApplication.clipboard().setText(typed)
            self.notice.emit(tr("The BibTeX entry of {key} was not applied ({problem}); "
                                "the text you typed is on the clipboard").format(
                key=self._key, problem=self.problem.text().removeprefix("✖ ")))
        _key, entry_type, found = editing.parse_entry(source)
        self._paper_id, self._key = paper_id, key
        self._fields = {"type": entry_type, **found}
        if same and self.text_edit.toPlainText() != self._shown:
            return  # (being edited: applied when the user leaves it)
        self._shown = source
        self.text_edit.setPlainText(source)
        self.problem.hide()

    def flush(self) -> None:
        """Apply the text being edited now (it is not sent if it does not parse)."""
        if self.text_edit.toPlainText() != self._shown:
            self.apply()

    def _escape(self) -> None:
        if self.text_edit.toPlainText() != self._shown:
            self.text_edit.setPlainText(self._shown)
            self.problem.hide()
        else:
            self.escaped.emit()

    def apply(self) -> None:
        """Read the text again; send the fields that changed (one edit)."""
        source = self.text_edit.toPlainText()
        if self._paper_id is None or source == self._shown:
            return
        try:
            key, entry_type, found = editing.parse_entry(source, tr("the BibTeX entry"))
            if key != self._key:
                raise UserError(tr("the citation key is {old} (change it with Paper › "
                                   "Edit Citation Key…)").format(old=self._key))
            wanted = {"type": entry_type, **found}
            for name, value in wanted.items():
                problem = problem_of(name, value)
                if problem:
                    raise editing.FieldError(name, problem)
        except UserError as exc:
            self.problem.setText("✖ " + error_text(exc))
            self.problem.show()
            return
        self.problem.hide()
        values: dict[str, str | None] = {
            n: v for n, v in wanted.items() if self._fields.get(n) != v and n not in HIDDEN}
        values.update({n: None for n in self._fields if n not in wanted and n not in HIDDEN})
        if not values:
            self._shown = source
            return
        base = {n: self._fields.get(n) for n in values}
        self._shown = source
        self.fieldsEdited.emit(self._paper_id, values, base)
