"""The detail pane: the current paper's record, full abstract, and the user's notes.

The pane shows `PaperDetail`s handed to it and reports edits through `titleEdited`
and `notesEdited`; the main window connects those to the operations layer. Following
the operations (`follow`), it reads its paper again after a change to it, keeping the
notes being typed unless the change was to the notes (undo, a merge). Notes save as
you type (debounced) and are flushed whenever they could otherwise be lost: on
focus-out, before another paper is shown, and when the pane is hidden or closed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from papershelf.core.library import NOTES, PAPERS, PaperDetail
from papershelf.formats.readable import latex_to_text, math_to_text
from papershelf.gui.operations import ChangeEvent, Operations
from papershelf.gui.qt import (
    QCloseEvent,
    QFocusEvent,
    QFont,
    QFontDatabase,
    QFrame,
    QHideEvent,
    QKeyEvent,
    QLabel,
    QMimeData,
    QPalette,
    QPlainTextEdit,
    QResizeEvent,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    Qt,
    QTextEdit,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)

NOTES_DEBOUNCE_MS = 400

# Accent macros that survive in plain text (`{\"u}`, `\'{e}`, `\c{c}`): decoded one by one,
# so a lone backslash elsewhere in an abstract stays a plain character.
_ACCENT_RE = re.compile(
    r"""\{\\(?:["'`^~=.]|[cvuHkr]\s)\s*\{?[A-Za-z]\}?\}"""
    r"""|\\(?:["'`^~=.]\s*|[cvuHkr](?:\s+|(?=\{)))(?:\{[A-Za-z]\}|[A-Za-z])"""
    r"""|\{\\(?:ss|ae|oe|aa|o|l|AE|OE|AA|O|L)\}"""
)


def display_text(text: str) -> str:
    """Stored text (inline `$math$`, stray accent macros) as a reader should see it."""
    text = math_to_text(text)
    if "\\" in text:
        text = _ACCENT_RE.sub(lambda m: latex_to_text(m.group(0)), text)
    return text


def _normalized_title(text: str) -> str:
    return " ".join(text.split())


class _NotesEdit(QPlainTextEdit):
    """The notes editor; tells the pane when it loses focus so typing is saved."""

    focusLost = Signal()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Save on leaving the editor (before Qt moves focus elsewhere)."""
        self.focusLost.emit()
        super().focusOutEvent(event)


class _TitleEdit(QTextEdit):
    """A one-paragraph title editor that wraps and grows, with QLineEdit's habits.

    A QLineEdit would clip a long title in a narrow pane. This keeps QLineEdit's API
    where the pane needs it (`text`, `setText`, `isModified`, `editingFinished` on
    Enter or focus-out, Escape reverts) and shows readable math while not being edited.
    """

    editingFinished = Signal()
    focusEntered = Signal()
    focusLeft = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptRichText(False)
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.document().setDocumentMargin(2)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self._fit_height()
        self.document().setModified(False)

    def text(self) -> str:
        """The title as typed (a paste's line breaks become spaces)."""
        return " ".join(self.toPlainText().splitlines())

    def setText(self, text: str) -> None:
        """Replace the text; not a user edit."""
        self.setPlainText(text)
        self.document().setModified(False)

    def isModified(self) -> bool:
        """Whether the user typed since the last setText/setModified(False)."""
        return self.document().isModified()

    def setModified(self, modified: bool) -> None:
        """Mark the text as (un)edited by the user."""
        self.document().setModified(modified)

    def setCursorPosition(self, position: int) -> None:
        """Move the text cursor (0: the start)."""
        cursor = self.textCursor()
        cursor.setPosition(min(position, len(self.toPlainText())))
        self.setTextCursor(cursor)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter finishes the edit (titles have no line breaks); Escape reverts it."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.editingFinished.emit()
            return
        if event.key() == Qt.Key.Key_Escape and self.isModified():
            self.document().setModified(False)
            self.focusEntered.emit()  # the pane puts the stored title back
            return
        super().keyPressEvent(event)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Paste as one line."""
        if source.hasText():
            self.insertPlainText(" ".join(source.text().split()))

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Switch to the editable source before the user types."""
        self.focusEntered.emit()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Finish the edit, then show the readable form again."""
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:  # not for the context menu
            self.editingFinished.emit()
            self.focusLeft.emit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Re-wrap, then fit the height to the new line count."""
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        doc_height = self.document().size().height()
        margins = self.contentsMargins()
        self.setFixedHeight(int(doc_height) + margins.top() + margins.bottom() + 1)


class _WrapLabel(QLabel):
    """A word-wrapped, selectable label: the pane's read-only text fields."""

    def __init__(self, parent: QWidget | None = None, *, rich: bool = False) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        flags = Qt.TextInteractionFlag.TextSelectableByMouse
        if rich:
            flags |= Qt.TextInteractionFlag.LinksAccessibleByMouse
            flags |= Qt.TextInteractionFlag.LinksAccessibleByKeyboard
            self.setOpenExternalLinks(True)
        else:
            flags |= Qt.TextInteractionFlag.TextSelectableByKeyboard
        self.setTextInteractionFlags(flags)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def set_dimmed(self, dimmed: bool) -> None:
        """Grey (placeholder-coloured) text for "nothing here yet" messages."""
        self.setForegroundRole(
            QPalette.ColorRole.PlaceholderText if dimmed else QPalette.ColorRole.WindowText
        )


class DetailPane(QWidget):
    """Shows one paper and lets the user edit its title and notes."""

    titleEdited = Signal(int, str)  # paper id, new title
    notesEdited = Signal(int, str)  # paper id, full notes text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id: int | None = None
        self._fetch: Callable[[int], PaperDetail | None] | None = None
        self._shown_title = ""
        self._saved_notes = ""
        self._loading = False

        self._notes_timer = QTimer(self)
        self._notes_timer.setSingleShot(True)
        self._notes_timer.setInterval(NOTES_DEBOUNCE_MS)
        self._notes_timer.timeout.connect(self.flush)

        self._stack = QStackedWidget(self)
        self._placeholder = QLabel(self)
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setWordWrap(True)
        self._placeholder.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._stack.addWidget(self._placeholder)
        self._stack.addWidget(self._build_content())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._stack)
        self.show_selection_count(0)

    # -- construction ---------------------------------------------------------------

    def _build_content(self) -> QWidget:
        self.title_edit = _TitleEdit()
        self.title_edit.setObjectName("detailTitle")
        self.title_edit.setPlaceholderText(self.tr("Title"))
        title_font = QFont(self.title_edit.font())
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.3)
        self.title_edit.setFont(title_font)
        self.title_edit.editingFinished.connect(self._commit_title)
        self.title_edit.focusEntered.connect(lambda: self._set_title_text(editing=True))
        self.title_edit.focusLeft.connect(lambda: self._set_title_text(editing=False))

        self.provisional_label = _WrapLabel()
        self.provisional_label.setText(
            self.tr("Provisional title, drawn from the abstract — edit it to set the real one")
        )
        small_italic = QFont(self.provisional_label.font())
        small_italic.setItalic(True)
        self.provisional_label.setFont(small_italic)
        self.provisional_label.set_dimmed(True)

        self.authors_label = _WrapLabel()
        self.venue_label = _WrapLabel()
        self.status_label = _WrapLabel()
        self.status_label.set_dimmed(True)
        self.key_label = _WrapLabel()
        self.key_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.key_label.setToolTip(self.tr("Citation key"))
        self.links_label = _WrapLabel(rich=True)
        self.tags_label = _WrapLabel()

        abstract_heading = QLabel(self.tr("Abstract"))
        heading_font = QFont(abstract_heading.font())
        heading_font.setBold(True)
        abstract_heading.setFont(heading_font)
        self.abstract_label = _WrapLabel()
        self.abstract_label.setObjectName("detailAbstract")

        header = QWidget()
        header.setBackgroundRole(QPalette.ColorRole.Base)
        header_layout = QVBoxLayout(header)
        header_layout.setContentsMargins(10, 8, 10, 10)
        header_layout.setSpacing(4)
        header_layout.addWidget(self.title_edit)
        header_layout.addWidget(self.provisional_label)
        header_layout.addSpacing(2)
        for label in (self.authors_label, self.venue_label, self.status_label,
                      self.key_label, self.links_label, self.tags_label):
            header_layout.addWidget(label)
        header_layout.addSpacing(8)
        header_layout.addWidget(abstract_heading)
        header_layout.addWidget(self.abstract_label)
        header_layout.addStretch(1)

        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._scroll.setWidget(header)

        notes_box = QWidget()
        notes_layout = QVBoxLayout(notes_box)
        notes_layout.setContentsMargins(10, 6, 10, 8)
        notes_layout.setSpacing(4)
        notes_heading = QLabel(self.tr("Notes"))
        notes_heading.setFont(heading_font)
        self.notes_edit = _NotesEdit()
        self.notes_edit.setObjectName("detailNotes")
        self.notes_edit.setPlaceholderText(self.tr("Your notes (Markdown)…"))
        self.notes_edit.setTabChangesFocus(True)
        self.notes_edit.textChanged.connect(self._notes_typed)
        self.notes_edit.focusLost.connect(self.flush)
        notes_heading.setBuddy(self.notes_edit)
        notes_layout.addWidget(notes_heading)
        notes_layout.addWidget(self.notes_edit, 1)

        self._splitter = QSplitter(Qt.Orientation.Vertical)
        self._splitter.setChildrenCollapsible(False)
        self._splitter.addWidget(self._scroll)
        self._splitter.addWidget(notes_box)
        self._splitter.setStretchFactor(0, 3)
        self._splitter.setStretchFactor(1, 2)
        return self._splitter

    # -- public API -------------------------------------------------------------------

    def current_id(self) -> int | None:
        """The id of the paper shown, or None when the placeholder is shown."""
        return self._paper_id

    def show_selection_count(self, n: int) -> None:
        """Show the placeholder: "No paper selected" or "N papers selected"."""
        self.flush()
        self._paper_id = None
        self._set_notes_text("")
        self._saved_notes = ""
        if n <= 0:
            self._placeholder.setText(self.tr("No paper selected"))
        else:
            self._placeholder.setText(self.tr("%n papers selected", "", n))
        self._stack.setCurrentWidget(self._placeholder)

    def follow(self, ops: Operations) -> None:
        """Read the paper shown again (through these operations' library) whenever a
        change names it."""
        self._fetch = ops.library.paper
        ops.changed.connect(self._changed)

    def _changed(self, event: ChangeEvent) -> None:
        pid = self._paper_id
        if (self._fetch is None or pid is None or pid not in event.change.ids
                or event.own_notes_edit):
            return
        touched = event.change.touched
        self.show_paper(self._fetch(pid), notes=event.from_undo or bool(touched & {NOTES, PAPERS}))

    def show_paper(self, detail: PaperDetail | None, *, notes: bool = True) -> None:
        """Show a paper (None: the placeholder); re-showing the same paper refreshes it,
        its notes too unless `notes` is False (the editor's text is newer then)."""
        if detail is None:
            self.show_selection_count(0)
            return
        same = detail.id == self._paper_id
        # Pending edits belong to the paper shown now, saved under its id before switching.
        saved_now = self.flush()
        self._paper_id = detail.id
        self._show_fields(detail, refresh=same)
        text = detail.record.notes
        if same and (saved_now or not notes):
            # `detail` was read before the user's typing was saved, or the change was not
            # to the notes (an edit on its way may be newer than `detail`): keep the typing.
            pass
        elif self.notes_edit.toPlainText() != text:
            self._set_notes_text(text, keep_cursor=same)
            self._saved_notes = text
        else:
            self._saved_notes = text
        self._stack.setCurrentIndex(1)
        if not same:
            self._scroll.verticalScrollBar().setValue(0)

    def focus_notes(self) -> None:
        """Put the keyboard focus in the notes editor (the N shortcut)."""
        if self._paper_id is None:
            return
        self.notes_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def flush(self) -> bool:
        """Save pending edits now (notes, and a changed title); True if anything was emitted."""
        self._notes_timer.stop()
        emitted = self._commit_title()
        pid = self._paper_id
        if pid is None:
            return emitted
        text = self.notes_edit.toPlainText()
        if text != self._saved_notes:
            self._saved_notes = text
            self.notesEdited.emit(pid, text)
            emitted = True
        return emitted

    # -- Qt overrides -------------------------------------------------------------------

    def hideEvent(self, event: QHideEvent) -> None:
        """Nothing typed is lost when the pane (or its window) goes away."""
        self.flush()
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save pending edits before closing."""
        self.flush()
        super().closeEvent(event)

    # -- internals ------------------------------------------------------------------------

    def _show_fields(self, detail: PaperDetail, *, refresh: bool) -> None:
        record = detail.record
        if not (refresh and self._shown_title == record.title):
            self._shown_title = record.title
            self._set_title_text(editing=self.title_edit.hasFocus())
        self.title_edit.setToolTip(self.tr("Click to edit the title"))
        font = self.title_edit.font()
        font.setItalic(record.title_provisional)
        self.title_edit.setFont(font)
        self.provisional_label.setVisible(record.title_provisional)

        if record.authors:
            self.authors_label.setText(", ".join(a.display() for a in record.authors))
            self.authors_label.set_dimmed(False)
        else:
            self.authors_label.setText(self.tr("No authors yet"))
            self.authors_label.set_dimmed(True)

        venue = display_text(record.venue)
        venue_year = ", ".join(p for p in (venue, str(record.year or "")) if p)
        self.venue_label.setText(venue_year)
        self.venue_label.setVisible(bool(venue_year))

        status = [self._state_text(detail.read_state)]
        if detail.starred:
            status.insert(0, "★ " + self.tr("Starred"))
        self.status_label.setText(" · ".join(status))

        self.key_label.setText(detail.key)
        self.key_label.setVisible(bool(detail.key))

        links = []
        if record.doi:
            href = f"https://doi.org/{record.doi}"
            links.append(f'DOI: <a href="{html.escape(href)}">{html.escape(record.doi)}</a>')
        if record.url:
            url = html.escape(record.url)
            links.append(f'<a href="{url}">{url}</a>')
        self.links_label.setText("<br>".join(links))
        self.links_label.setVisible(bool(links))

        if record.tags:
            self.tags_label.setText(self.tr("Tags: %s") % ", ".join(record.tags))
            self.tags_label.set_dimmed(False)
        else:
            self.tags_label.setText(self.tr("No tags"))
            self.tags_label.set_dimmed(True)

        if record.abstract.strip():
            self.abstract_label.setText(display_text(record.abstract))
            self.abstract_label.set_dimmed(False)
        else:
            self.abstract_label.setText(self.tr("No abstract"))
            self.abstract_label.set_dimmed(True)

    def _set_title_text(self, *, editing: bool) -> None:
        """The stored title (with `$math$` source) while editing, else its readable form."""
        if self.title_edit.isModified():
            return  # the user's typing, not ours to replace
        text = self._shown_title if editing else display_text(self._shown_title)
        if self.title_edit.text() != text:
            self.title_edit.setText(text)
            self.title_edit.setCursorPosition(len(text) if editing else 0)

    def _state_text(self, state: str) -> str:
        names = {"unread": self.tr("Unread"), "reading": self.tr("Reading"),
                 "read": self.tr("Read")}
        return names.get(state, state)

    def _set_notes_text(self, text: str, *, keep_cursor: bool = False) -> None:
        """Replace the notes without it counting as typing."""
        position = self.notes_edit.textCursor().position()
        self._loading = True
        try:
            self.notes_edit.setPlainText(text)
        finally:
            self._loading = False
        if keep_cursor:
            cursor = self.notes_edit.textCursor()
            cursor.setPosition(min(position, len(text)))
            self.notes_edit.setTextCursor(cursor)

    def _notes_typed(self) -> None:
        if self._loading or self._paper_id is None:
            return
        self._notes_timer.start()

    def _commit_title(self) -> bool:
        """Emit `titleEdited` if the user changed the title; an empty title is reverted."""
        pid = self._paper_id
        if pid is None or not self.title_edit.isModified():
            return False
        self.title_edit.setModified(False)
        title = _normalized_title(self.title_edit.text())
        if not title:
            self._set_title_text(editing=self.title_edit.hasFocus())
            return False
        if title == _normalized_title(self._shown_title):
            return False
        self._shown_title = title
        self.titleEdited.emit(pid, title)
        return True
