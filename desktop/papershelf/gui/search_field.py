"""The window's search field: completion of the search language as you type, and its help.

The completion applies to the term at the cursor, not the whole text (as in Qt's
"Custom Completer" example): a field name while a word begins one (`au` offers
`author:` and `au:`), after a field its values: the flags of `is:` and `has:`, the
entry types of `type:`, and the library's tags and venues for `tag:` and `venue:`,
which are read in a worker when the window follows a library and whenever the sidebar
counts again, never while typing; for `author:` the first authors' family names that
begin as typed, read in a worker as the letters come (a million papers' authors are
too many to hold). Enter, Tab or a click chooses; Escape only closes the
popup (with none shown, the window's Escape clears the search). The "?" in the field
and F1 open a popover listing the language (core.query) with examples to click.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.qt import (
    QAbstractItemView,
    QCompleter,
    QEvent,
    QFrame,
    QGridLayout,
    QKeyEvent,
    QLabel,
    QLineEdit,
    QPoint,
    QStringListModel,
    Qt,
    QToolButton,
    QWidget,
    Signal,
    Translator,
    icon,
)
from papershelf.gui.workers import Latest

if TYPE_CHECKING:
    from papershelf.core import query
    from papershelf.core.library import Library
    from papershelf.gui import entry_editor
    from papershelf.gui.operations import Operations
    from papershelf.gui.sidebar import Sidebar
else:
    query = lazy.module("papershelf.core.query")
    entry_editor = lazy.module("papershelf.gui.entry_editor")

tr = Translator("SearchField")

# Keys the completer handles while its popup is shown: choose or close.
_POPUP_KEYS = frozenset({Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab,
                         Qt.Key.Key_Backtab, Qt.Key.Key_Escape})


def _is_help_key(event: QKeyEvent) -> bool:
    """F1 alone (Shift+F1 is Qt's "What's This?")."""
    return event.key() == Qt.Key.Key_F1 and not event.modifiers()


def term_at(text: str, cursor: int) -> tuple[int, str]:
    """Where the term ending at `cursor` starts and its text: from the last whitespace,
    `(` or `|` outside quotes, past the `(` and `-` that open it."""
    start, quoted = 0, False
    for i, c in enumerate(text[:cursor]):
        if c == '"':
            quoted = not quoted
        elif not quoted and (c.isspace() or c in "(|"):
            start = i + 1
    while start < cursor and text[start] in "(-":
        start += 1
    return start, text[start:cursor]


def completions(term: str, values: Mapping[str, Sequence[str]]) -> list[str]:
    """What `term` may become: the field names its letters begin (alphabetically), or
    after a field (by any spelling) the `values` of that field starting as typed,
    ignoring case and accents, in their order; a value with a space or parenthesis is
    quoted. Never the term itself (in any case)."""
    name, colon, typed = term.partition(":")
    if not colon:
        found = sorted(f"{field}:" for field in query.FIELDS
                       if name.isalpha() and field.startswith(name.lower()))
    else:
        typed = _folded(typed.removeprefix('"'))
        field = query.FIELDS.get(name.lower(), "")
        found = [f"{name}:{_quoted(value)}" for value in values.get(field, ())
                 if _folded(value).startswith(typed)]
    return [option for option in found if option.casefold() != term.casefold()]


def _folded(text: str) -> str:
    """`text` without case or accents, as typed letters are matched (lo: López)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c)).casefold()


def _quoted(value: str) -> str:
    """A value as a query writes it: in quotes when it would otherwise split."""
    return f'"{value}"' if any(c.isspace() or c in "()|" for c in value) else value


class SearchField(QLineEdit):
    """The search field, completing the search language and explaining it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._read: dict[str, Sequence[str]] = {}  # the library's tags and venues
        # First authors beginning as typed after `au:`, read as typed: (typed, names).
        self._authors: tuple[str, Sequence[str]] = ("", ())
        self._author_reader: Latest | None = None
        self._library: Library | None = None
        self._help: SearchHelp | None = None  # (made when first opened)
        self._options = QStringListModel(self)
        self._completer = QCompleter(self._options, self)
        self._completer.setWidget(self)
        self._completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self._completer.activated.connect(self._choose)
        self.textEdited.connect(self._complete)
        self.help_action = self.addAction(icon("help"), QLineEdit.ActionPosition.TrailingPosition)
        self.help_action.setObjectName("searchHelp")
        self.help_action.setToolTip(tr("The search language: fields, ranges, OR, NOT… (F1)"))
        self.help_action.triggered.connect(self.show_help)

    def follow(self, ops: Operations, sidebar: Sidebar) -> None:
        """Complete the tags and venues of the operations' library: read now, in a
        worker, and again whenever the sidebar has counted (tags come and go then)."""
        reading, library = Latest(ops.tasks, ops.report), ops.library
        self._library = library
        self._author_reader = Latest(ops.tasks, ops.report, overlap=True)

        def read() -> None:
            reading.request(lambda: {"tag": library.tag_names(), "venue": library.venues()},
                            self._read.update)

        sidebar.counted.connect(lambda _counts: read())
        read()

    @property
    def completer_popup(self) -> QAbstractItemView:
        """The list of completions (shown while there are some for the term typed)."""
        popup = self._completer.popup()
        assert popup is not None  # (a completer makes its own when asked)
        return popup

    def show_help(self) -> None:
        """Open the popover on the search language under the field, at its right edge."""
        if self._help is None:
            self._help = SearchHelp(self)
            self._help.chosen.connect(self._use_example)
        self._help.adjustSize()
        corner = self.mapToGlobal(QPoint(self.width(), self.height()))
        self._help.move(max(corner.x() - self._help.width(), 0), corner.y())
        self._help.show()

    # -- Qt overrides --------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        """F1 is the help here, not the window's shortcut (the list of shortcuts)."""
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and _is_help_key(event)):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """F1 opens the help; while completions show, their keys are the completer's."""
        if _is_help_key(event):
            self.show_help()
        elif self.completer_popup.isVisible() and event.key() in _POPUP_KEYS:
            event.ignore()  # the completer chooses (Enter, Tab) or closes (Escape)
        else:
            super().keyPressEvent(event)

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab chooses the completion shown instead of moving the focus."""
        if self.completer_popup.isVisible():
            return False
        return super().focusNextPrevChild(next)

    # -- internals ---------------------------------------------------------------------

    def _complete(self) -> None:
        """Show the completions of the term the cursor ends, or none."""
        text, cursor = self.text(), self.cursorPosition()
        found: list[str] = []
        if cursor == len(text) or text[cursor].isspace() or text[cursor] == ")":
            term = term_at(text, cursor)[1]
            values = {**query.FLAGS, "type": entry_editor.TYPES, **self._read}
            name, colon, typed = term.partition(":")
            typed = typed.removeprefix('"')
            if colon and query.FIELDS.get(name.lower()) == "author" and typed:
                if self._authors[0] != typed.casefold():
                    self._read_authors(typed)
                values["author"] = self._authors[1]
            found = completions(term, values)
        self._options.setStringList(found)
        popup = self.completer_popup
        if not found:
            popup.hide()
            return
        popup.setCurrentIndex(self._completer.completionModel().index(0, 0))
        area = self.cursorRect()
        area.setWidth(popup.sizeHintForColumn(0) + popup.verticalScrollBar().sizeHint().width())
        self._completer.complete(area)

    def _read_authors(self, typed: str) -> None:
        """Read the first authors beginning as typed, in a worker; then complete again
        if the same letters are still being typed."""
        library, reader = self._library, self._author_reader
        if library is None or reader is None:
            return

        def show(names: list[str]) -> None:
            self._authors = (typed.casefold(), names)
            if term_at(self.text(), self.cursorPosition())[1].partition(":")[2] \
                    .removeprefix('"').casefold() == typed.casefold():
                self._complete()

        reader.request(lambda: library.first_authors(typed), show)

    def _choose(self, completion: str) -> None:
        """Put the completion chosen in place of the term: a field name with the cursor
        after its colon (its values are offered next), a value with a space after it."""
        cursor = self.cursorPosition()
        start, _term = term_at(self.text(), cursor)
        field = completion.endswith(":")
        space_after = self.text()[cursor:cursor + 1].isspace()
        self.setSelection(start, cursor - start)
        self.insert(completion if field or space_after else completion + " ")
        if not field and space_after:
            self.cursorForward(False, 1)  # past the space that was there

    def _use_example(self, example: str) -> None:
        self.setText(example)
        self.setFocus(Qt.FocusReason.PopupFocusReason)


class SearchHelp(QFrame):
    """A popover listing the search language, with examples that fill the field."""

    chosen = Signal(str)  # an example query clicked

    def __init__(self, field: SearchField) -> None:
        super().__init__(field, Qt.WindowType.Popup)
        self.setObjectName("searchHelp")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.examples: list[QToolButton] = []
        layout = QGridLayout(self)
        table = "".join(f"<tr><td><code>{html.escape(syntax)}</code>&nbsp;&nbsp;</td>"
                        f"<td>{html.escape(meaning)}</td></tr>" for syntax, meaning in _syntax())
        language = QLabel(f"<table cellspacing='2'>{table}</table>", self)
        language.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(language, 0, 0, 1, 2)
        heading = QLabel(tr("Examples"), self)
        bold = heading.font()
        bold.setBold(True)
        heading.setFont(bold)
        layout.addWidget(heading, 1, 0, 1, 2)
        for row, (example, meaning) in enumerate(_examples(), start=2):
            button = QToolButton(self)
            button.setText(example)
            button.setAutoRaise(True)
            button.setToolTip(tr("Search for this"))
            button.clicked.connect(lambda _checked=False, text=example: self._choose(text))
            layout.addWidget(button, row, 0)
            layout.addWidget(QLabel(meaning, self), row, 1)
            self.examples.append(button)

    def _choose(self, example: str) -> None:
        self.hide()
        self.chosen.emit(example)


def _syntax() -> list[tuple[str, str]]:
    """The language, row by row: how it is written and what it finds."""
    fields = " ".join(f"{field}:" for field in (*query.TEXT_FIELDS, "au"))
    return [
        (tr("words"), tr("papers with all of them, in the title, authors, abstract, notes, "
                         "tags or PDFs")),
        (tr('"a phrase"'), tr("the words in this order")),
        ("vari*", tr("words starting with “vari” (as the word being typed does)")),
        ("a OR b,  a | b", tr("either")),
        ("-a,  NOT a", tr("not this")),
        ("(a OR b) c", tr("grouping; AND binds tighter than OR: a b OR c is (a b) OR c")),
        (fields, tr("words in that field only (au: is author:)")),
        ('tag:"to read"', tr("a tag (in quotes when it has spaces)")),
        ("key:smith2020  key:smith*", tr("a citation key, or the keys starting so")),
        ("doi:10.1000/xyz  type:article", tr("a DOI; an entry type")),
        ("year:2024  year:2020..2024  year:>=2022",
         tr("a year or years (also >, <, <=, 2020.. and ..2024)")),
        ("added:<30d  added:>30d",
         tr("added in the last 30 days, or before them (d, w, m = months, y)")),
        ("added:2026-11  added:>=2026-01-01",
         tr("added in a month, on a day, since a day; read: the same, for when a paper "
            "was marked read")),
        (" ".join(f"is:{flag}" for flag in query.FLAGS["is"]),
         tr("starred; a read state; with a placeholder title")),
        (" ".join(f"has:{flag}" for flag in query.FLAGS["has"]),
         tr("with a PDF, notes, a DOI, an abstract")),
    ]


def _examples() -> list[tuple[str, str]]:
    """Queries worth a click, with what they find."""
    return [
        ("author:hinton year:2020..2024 -survey", tr("by Hinton, 2020 to 2024, no surveys")),
        ('tag:"to read"', tr("tagged “to read”")),
        ("is:starred has:pdf", tr("starred, with a PDF")),
        ("venue:icml", tr("at ICML")),
        ("graph OR network", tr("either word")),
        ("added:<7d is:unread", tr("added this week, not read yet")),
    ]
