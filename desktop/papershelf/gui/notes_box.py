"""The detail pane's notes editors: a heading over a plain-text editor whose typing the
pane saves as it goes (`NotesBox`), and where the cursor belongs when the notes are read
back changed (`moved_position`).

Saving is the pane's (it debounces and flushes); a box only knows what it last saved or
showed and the paper version that was, the base the next save is typed from.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher
from itertools import accumulate
from typing import TYPE_CHECKING

from papershelf.gui.qt import (
    QFocusEvent,
    QFont,
    QKeyEvent,
    QLabel,
    QPlainTextEdit,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from papershelf.core.library import PaperDetail


def moved_position(old: str, new: str, position: int) -> int:
    """Where a cursor at index `position` of `old` belongs in `new`: at the same place
    of its line if a line diff keeps that line, else as far into what replaced it."""
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    old_at = list(accumulate(map(len, old_lines), initial=0))
    new_at = list(accumulate(map(len, new_lines), initial=0))
    matcher = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for _tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if i1 < i2 and (old_at[i1] <= position < old_at[i2]
                        or position == old_at[i2] == len(old)):
            return new_at[j1] + min(position - old_at[i1], new_at[j2] - new_at[j1])
    return min(position, len(new))


def _index(text: str, position: int) -> int:
    """A Qt text position (UTF-16 code units) as an index of `text`."""
    return len(text.encode("utf-16-le")[:2 * position].decode("utf-16-le", "ignore"))


def _position(text: str, index: int) -> int:
    """An index of `text` as a Qt text position (UTF-16 code units)."""
    return len(text[:index].encode("utf-16-le")) // 2


class _NotesEdit(QPlainTextEdit):
    """The notes editor; tells the pane when it loses focus so typing is saved, and
    when Escape asks to go back to the list. Its own undo (Ctrl+Z while typing) takes
    back one word at a time, not the whole burst Qt would merge into one step."""

    focusLost = Signal()
    escaped = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.escaped.emit()
            return
        typed = event.text()
        if not typed or not typed.isprintable() or event.modifiers() & ~(
                Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier):
            super().keyPressEvent(event)
            return
        # A word typed after white space starts a new undo step; its letters and the
        # spaces after it join that step (Qt merges contiguous typing into one).
        cursor = self.textCursor()
        before = self.toPlainText()[cursor.position() - 1:cursor.position()] \
            if cursor.position() and not cursor.hasSelection() else ""
        if cursor.hasSelection() or not before or (before.isspace()
                                                   and not typed.isspace()):
            cursor.beginEditBlock()
        else:
            cursor.joinPreviousEditBlock()
        try:
            super().keyPressEvent(event)
        finally:
            cursor.endEditBlock()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Save on leaving the editor (before Qt moves focus elsewhere)."""
        self.focusLost.emit()
        super().focusOutEvent(event)


class NotesBox(QWidget):
    """A heading over a notes editor, and what saving its typing needs. The pane has two:
    the notes the group shares and the user's private ones (shown on a shared library).

    `saved` is the text last saved or shown, `version` a version of the paper at which
    the stored text was `saved`: the base the next save is typed from (`take`), against
    which the core merges an edit someone else saved meanwhile.
    """

    def __init__(self, text_of: Callable[[PaperDetail], str], typed: Callable[[], None],
                 heading_font: QFont, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text_of = text_of
        self.saved = ""
        self.version = 0
        self.sent = 0  # saves taken so far, so a read back can tell whether one is queued
        self._loading = False
        self.heading = QLabel()
        self.heading.setFont(heading_font)
        self.editor = _NotesEdit()
        self.editor.setTabChangesFocus(True)
        self.editor.textChanged.connect(lambda: None if self._loading else typed())
        self.heading.setBuddy(self.editor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.editor, 1)

    def set_titles(self, heading: str, placeholder: str) -> None:
        """The heading and the empty editor's hint."""
        self.heading.setText(heading)
        self.editor.setPlaceholderText(placeholder)

    def unsaved(self) -> bool:
        """Whether the editor holds typing not yet taken to be saved."""
        return self.editor.toPlainText() != self.saved

    def take(self) -> tuple[str, tuple[int, str]] | None:
        """The typing to save and the base it was typed from, (version, text); None if
        there is nothing new. It counts as saved from now on."""
        text = self.editor.toPlainText()
        if text == self.saved:
            return None
        base = (self.version, self.saved)
        self.saved = text
        self.sent += 1
        return text, base

    def show_text(self, detail: PaperDetail | None, *, keep: bool = False,
                  same: bool = False) -> None:
        """Show the notes of `detail` (None: empty), unless `keep`: the editor's text is
        newer. On the `same` paper the cursor stays with the text around it."""
        text, version = (self._text_of(detail), detail.version) if detail else ("", 0)
        if keep:
            if text == self.saved:  # stored as saved: a fresher base
                self.version = version
            return
        if self.editor.toPlainText() != text:
            self._set_text(text, keep_cursor=same)
        self.saved, self.version = text, version

    def _set_text(self, text: str, *, keep_cursor: bool) -> None:
        """Replace the text without it counting as typing."""
        editor = self.editor
        old = editor.toPlainText()
        index = _index(old, editor.textCursor().position())
        scrolled = editor.verticalScrollBar().value()
        self._loading = True
        try:
            editor.setPlainText(text)
        finally:
            self._loading = False
        if keep_cursor:
            cursor = editor.textCursor()
            cursor.setPosition(_position(text, moved_position(old, text, index)))
            editor.setTextCursor(cursor)
            editor.verticalScrollBar().setValue(scrolled)
            editor.ensureCursorVisible()

