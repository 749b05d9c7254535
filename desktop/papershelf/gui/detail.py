"""The detail pane: the current paper's record, full abstract, and the notes.

The pane shows `PaperDetail`s handed to it and reports edits through `titleEdited`,
`notesEdited` (the notes everyone sharing the library reads, with the base they were
typed from) and `privateNotesEdited` (the user's own notes, shown on a shared library
only); the main window connects those to the operations layer. Following the
operations (`follow`), it reads its paper again after a change to it, never replacing
notes being typed. Notes save as you type (debounced) and are flushed whenever they
could otherwise be lost: on focus-out, before another paper is shown, and when the pane
is hidden or closed. Once saves have landed the pane reads the notes back: the paper's
new version is the next save's base, and a merge with someone else's edit is shown.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from difflib import SequenceMatcher
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.shapes import NOTES, PAPERS, PRIVATE_NOTES
from papershelf.gui.i18n import data_size
from papershelf.gui.qt import (
    QCloseEvent,
    QDesktopServices,
    QEvent,
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
    QTabBar,
    QTextEdit,
    QTimer,
    QUrl,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
)
from papershelf.gui.workers import Latest

if TYPE_CHECKING:
    from papershelf.core.files import Attachment
    from papershelf.core.library import PaperDetail
    from papershelf.formats.records import PaperRecord
    from papershelf.gui.operations import ChangeEvent, Operations

# (imported when the pane first shows a paper: the window's first paint needs none)
if TYPE_CHECKING:
    from papershelf.core import files
    from papershelf.formats import readable
    from papershelf.gui import entry_editor
    from papershelf.metadata import identifiers
else:
    files = lazy.module("papershelf.core.files")
    readable = lazy.module("papershelf.formats.readable")
    identifiers = lazy.module("papershelf.metadata.identifiers")
    entry_editor = lazy.module("papershelf.gui.entry_editor")

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
    text = readable.math_to_text(text)
    if "\\" in text:
        text = _ACCENT_RE.sub(lambda m: readable.latex_to_text(m.group(0)), text)
    return text


def is_web_link(url: str) -> bool:
    """Whether `url` is an http(s) link with a host: the only kind Papershelf opens."""
    parsed = QUrl(url)
    return parsed.isValid() and parsed.scheme().lower() in ("http", "https") \
        and bool(parsed.host())


def open_link(url: str) -> bool:
    """Open a web page or PDF in the desktop's browser; anything but an http(s) link is
    refused (False), as is a link the desktop could not open."""
    return is_web_link(url) and QDesktopServices.openUrl(QUrl(url))


def open_file(path: Path) -> bool:
    """Open an attached PDF with the desktop's viewer. Only a file that is a PDF is
    opened (never a program, whatever a row of a shared library names); False if it is
    not, or the desktop could not open it."""
    return files.is_pdf(path) and QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


def files_text(attached: tuple[Attachment, ...]) -> str:
    """The attached files as plain text, one a line: name, size, and what to know
    (linked, not on this computer, text not read yet)."""
    tr = Translator("DetailPane")
    lines = [tr("Attached files:")]
    for attachment in attached:
        notes = [data_size(attachment.size)]
        if attachment.kind == files.LINKED:
            notes.append(tr("linked"))
        if not attachment.present():
            notes.append(tr("not on this computer"))
        elif not attachment.indexed:
            notes.append(tr("text not read yet"))
        lines.append(f"• {attachment.name} ({', '.join(notes)})")
    return "\n".join(lines)


def links_html(record: PaperRecord) -> str:
    """The links row: an anchor for each page and the best PDF the record names
    (`identifiers.links`), built here with every text escaped; '' when it names none."""
    found = identifiers.links(record)
    anchors = []
    for name, label in _link_labels():
        url = found.get(name)
        if url and is_web_link(url):
            anchors.append(f'<a href="{html.escape(url, quote=True)}">{html.escape(label)}</a>')
    return " · ".join(anchors)


def _link_labels() -> tuple[tuple[str, str], ...]:
    """The links the row shows (names of `identifiers.links`), in order, with their
    labels."""
    tr = Translator("DetailPane")
    return (("doi", "DOI"), ("arxiv", "arXiv"), ("openreview", "OpenReview"),
            ("pmlr", tr("Proceedings (PMLR)")), ("acl", tr("ACL Anthology")),
            ("dblp", "DBLP"), ("url", tr("Web page")), ("pdf", "PDF"))


def _normalized_title(text: str) -> str:
    return " ".join(text.split())


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


class _NotesBox(QWidget):
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


class _TitleEdit(QTextEdit):
    """A one-paragraph title editor that wraps and grows, with QLineEdit's habits.

    A QLineEdit would clip a long title in a narrow pane. This keeps QLineEdit's API
    where the pane needs it (`text`, `setText`, `isModified`, `editingFinished` on
    Enter or focus-out, Escape reverts) and shows readable math while not being edited.
    """

    editingFinished = Signal()
    focusEntered = Signal()
    focusLeft = Signal()
    escaped = Signal()  # Escape: the edit reverted, the focus goes back to the list

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
        if event.key() == Qt.Key.Key_Escape:
            if self.isModified():
                self.document().setModified(False)
                self.focusEntered.emit()  # the pane puts the stored title back
            self.escaped.emit()
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

    def changeEvent(self, event: QEvent) -> None:
        """A new palette (the appearance switched to dark or light): rich text takes its
        links' colour when it is set, so it is set again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.textFormat() == \
                Qt.TextFormat.RichText and self.text():
            text = self.text()
            self.clear()
            self.setText(text)

    def set_dimmed(self, dimmed: bool) -> None:
        """Grey (placeholder-coloured) text for "nothing here yet" messages."""
        self.setForegroundRole(
            QPalette.ColorRole.PlaceholderText if dimmed else QPalette.ColorRole.WindowText
        )


class DetailPane(QWidget):
    """Shows one paper and lets the user edit its title and notes."""

    titleEdited = Signal(int, str, str)  # paper id, new title, the title it replaces
    # paper id, full text of the shared notes, base: (version, notes) it was typed from
    notesEdited = Signal(int, str, object)
    privateNotesEdited = Signal(int, str)  # paper id, full text of the user's own notes
    notice = Signal(str)  # a one-line message for the window's status bar
    escaped = Signal()  # Escape in an editor: the keys go back to the list
    # paper id, {BibTeX field: value or None}, {field: the value it replaces}
    fieldsEdited = Signal(int, object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id: int | None = None
        self._detail: PaperDetail | None = None  # the paper shown, as last read
        self.fields_editor: entry_editor.FieldsEditor | None = None  # (made when first used)
        self.source_editor: entry_editor.SourceEditor | None = None
        self._ops: Operations | None = None
        self._reading_back: int | None = None  # the paper a read-back is queued for
        # The paper shown, read again after a change, in a worker: (its id, whether its
        # notes are shown anew, whether the change touched notes).
        self._rereader: Latest | None = None
        self._rereading: tuple[int, bool, bool] | None = None
        self._shown_title = ""

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
        self.title_edit.escaped.connect(self.escaped)
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
        self.files_label = _WrapLabel()  # plain text: file names are never markup
        self.files_label.setObjectName("detailFiles")
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
                      self.key_label, self.links_label, self.files_label, self.tags_label):
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

        # The shared notes (a personal library's only ones) and the user's private notes.
        self._shared = _NotesBox(lambda d: d.record.notes, self._notes_typed, heading_font)
        self._private = _NotesBox(lambda d: d.private_notes, self._notes_typed, heading_font)
        self._boxes = (self._shared, self._private)
        self.notes_edit = self._shared.editor
        self.notes_edit.setObjectName("detailNotes")
        self.notes_heading = self._shared.heading
        self.private_notes_edit = self._private.editor
        self.private_notes_edit.setObjectName("detailPrivateNotes")
        self.private_notes_heading = self._private.heading
        notes_box = QWidget()
        notes_layout = QVBoxLayout(notes_box)
        notes_layout.setContentsMargins(10, 6, 10, 8)
        notes_layout.setSpacing(10)
        for box in self._boxes:
            box.editor.focusLost.connect(self.flush)
            box.editor.escaped.connect(self.escaped)
            notes_layout.addWidget(box, 1)
        self.set_shared(False)

        # Reading it, editing its fields, its BibTeX: the reading view first, always the
        # notes below.
        self.tabs = QTabBar()
        self.tabs.setObjectName("detailTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setDrawBase(False)
        for name in (self.tr("Details"), self.tr("Edit"), self.tr("BibTeX")):
            self.tabs.addTab(name)
        self.tabs.setTabToolTip(1, self.tr("Edit every field of the paper (E)"))
        self.tabs.setTabToolTip(2, self.tr("The paper's BibTeX entry, to edit as text"))
        self.tabs.currentChanged.connect(self._tab_changed)
        self._pages = QStackedWidget()
        self._pages.addWidget(self._scroll)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.setSpacing(0)
        upper_layout.addWidget(self.tabs)
        upper_layout.addWidget(self._pages, 1)

        self._splitter = QSplitter(Qt.Orientation.Vertical)
        self._splitter.setChildrenCollapsible(False)
        self._splitter.addWidget(upper)
        self._splitter.addWidget(notes_box)
        self._splitter.setStretchFactor(0, 3)
        self._splitter.setStretchFactor(1, 2)
        return self._splitter

    # -- public API -------------------------------------------------------------------

    def current_id(self) -> int | None:
        """The id of the paper shown, or None when the placeholder is shown."""
        return self._paper_id

    def set_shared(self, shared: bool) -> None:
        """Notes for a library a group shares: the group's notes and the user's private
        ones, both labelled; else the one "Notes" editor (private notes stay hidden)."""
        if shared:
            self._shared.set_titles(self.tr("Shared notes (everyone in the group)"),
                                    self.tr("Notes everyone in the group reads (Markdown)…"))
            self._private.set_titles(self.tr("Private notes (only you)"),
                                     self.tr("Notes only you see (Markdown)…"))
        else:
            self._shared.set_titles(self.tr("Notes"), self.tr("Your notes (Markdown)…"))
        self._private.setVisible(shared)

    def show_selection_count(self, n: int) -> None:
        """Show the placeholder: "No paper selected" or "N papers selected"."""
        self.flush()
        self._paper_id = None
        for box in self._boxes:
            box.show_text(None)
        if n <= 0:
            self._placeholder.setText(self.tr("No paper selected"))
        else:
            self._placeholder.setText(self.tr("%n papers selected", "", n))
        self._stack.setCurrentWidget(self._placeholder)

    def follow(self, ops: Operations) -> None:
        """Read the paper shown again (through these operations' library) whenever a
        change names it; label the notes for its library."""
        self._ops = ops
        self.set_shared(ops.library.shared)
        ops.changed.connect(self._changed)

    def _changed(self, event: ChangeEvent) -> None:
        change = event.change
        if change.conflict:
            self.notice.emit(self.tr(
                "Someone else changed these notes at the same time; both versions are kept, "
                "marked <<<<<<< … >>>>>>>"))
        pid = self._paper_id
        if self._ops is None or pid is None or pid not in change.ids:
            return
        if event.own_notes_edit:  # typing saved (perhaps merged), or notes from elsewhere
            self._read_back(pid)
            return
        # Read in a worker (a server's round trips cost a field edit's repaint 13 ms
        # on the GUI thread); a burst of changes costs two reads, their wishes joined.
        notes = event.from_undo or PAPERS in change.touched
        wanted = self._rereading if self._rereading is not None and \
            self._rereading[0] == pid else (pid, False, False)
        self._rereading = (pid, wanted[1] or notes,
                           wanted[2] or bool(change.touched & {NOTES, PRIVATE_NOTES}))
        if self._rereader is None:
            self._rereader = Latest(self._ops.tasks, self._ops.report)
        library = self._ops.library
        self._rereader.request(lambda: library.paper(pid), self._reread)

    def _reread(self, detail: PaperDetail | None) -> None:
        """The paper shown, read again after a change: shown unless another was chosen."""
        wanted, self._rereading = self._rereading, None
        if wanted is None or wanted[0] != self._paper_id:
            return
        pid, notes, notes_changed = wanted
        self.show_paper(detail, notes=notes)
        if not notes and notes_changed:
            self._read_back(pid)

    def _read_back(self, pid: int) -> None:
        """Read the paper's notes once every write asked for so far has landed, and show
        them in each box that has no save queued after this read nor typing not yet
        saved: the stored version becomes the next save's base, and what a merge (or
        someone else) made of the notes is shown."""
        ops = self._ops
        if ops is None or self._reading_back == pid:
            return
        self._reading_back = pid
        sent = [box.sent for box in self._boxes]

        def read() -> None:
            if self._reading_back == pid:
                self._reading_back = None
            if self._paper_id != pid or not self.isVisible():
                return
            detail = ops.library.paper(pid)
            if detail is None:
                return
            for box, sent_before in zip(self._boxes, sent, strict=True):
                if box.sent == sent_before:
                    box.show_text(detail, keep=box.unsaved(), same=True)

        ops.when_settled(read)

    def show_paper(self, detail: PaperDetail | None, *, notes: bool = True) -> None:
        """Show a paper (None: the placeholder); re-showing the same paper refreshes it,
        its notes too unless `notes` is False (the editor's text is newer then)."""
        if detail is None:
            self.show_selection_count(0)
            return
        same = detail.id == self._paper_id
        # Pending edits belong to the paper shown now, saved under its id before switching.
        self._notes_timer.stop()
        self._commit_title()
        saved_now = [self._save(box) for box in self._boxes]
        if not same:
            for editor in (self.fields_editor, self.source_editor):
                if editor is not None:
                    editor.flush()
        self._paper_id = detail.id
        self._show_fields(detail, refresh=same)
        for box, saved in zip(self._boxes, saved_now, strict=True):
            # `detail` was read before the typing just saved, or the change was not to the
            # notes (an edit on its way may be newer than `detail`): keep the typing.
            box.show_text(detail, keep=same and (saved or not notes), same=same)
        self._stack.setCurrentIndex(1)
        if not same:
            self._scroll.verticalScrollBar().setValue(0)
        self._detail = detail
        self._fill_editor()

    # -- the editors ------------------------------------------------------------------

    def edit_fields(self, page: int = 1) -> None:
        """Show the fields' editor (1) or the BibTeX source (2) of the paper shown, the
        first field focused (the E shortcut)."""
        if self._paper_id is None:
            return
        self.tabs.setCurrentIndex(page)  # (makes the editor)
        target: QWidget | None = None
        if page == 1 and self.fields_editor is not None:
            target = self.fields_editor.editor("title")
        elif page == 2 and self.source_editor is not None:
            target = self.source_editor.text_edit
        if target is not None:
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _tab_changed(self, index: int) -> None:
        if index == 1 and self.fields_editor is None:
            self.fields_editor = entry_editor.FieldsEditor()
            self.fields_editor.fieldsEdited.connect(self.fieldsEdited)
            self.fields_editor.escaped.connect(self.escaped)
            self._pages.addWidget(self.fields_editor)
        if index == 2 and self.source_editor is None:
            self.source_editor = entry_editor.SourceEditor()
            self.source_editor.fieldsEdited.connect(self.fieldsEdited)
            self.source_editor.escaped.connect(self.escaped)
            self.source_editor.notice.connect(self.notice)
            self._pages.addWidget(self.source_editor)
        page = {1: self.fields_editor, 2: self.source_editor}.get(index) or self._scroll
        self._pages.setCurrentWidget(page)
        self._fill_editor()

    def _fill_editor(self) -> None:
        """The editor shown follows the paper shown (only the editor shown is filled)."""
        detail = self._detail
        if detail is None or detail.id != self._paper_id:
            return
        index = self.tabs.currentIndex()
        if index == 1 and self.fields_editor is not None:
            self.fields_editor.show_fields(detail.id, entry_editor.fields_of(detail.record))
        elif index == 2 and self.source_editor is not None:
            self.source_editor.show_entry(detail.id, detail.key,
                                          entry_editor.entry_of(detail.record))

    def focus_notes(self) -> None:
        """Put the keyboard focus in the notes editor (the N shortcut)."""
        if self._paper_id is None:
            return
        self.notes_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def flush(self) -> bool:
        """Save pending edits now (notes, and a changed title); True if anything was emitted."""
        self._notes_timer.stop()
        emitted = self._commit_title()
        saved = [self._save(box) for box in self._boxes]
        for editor in (self.fields_editor, self.source_editor):
            if editor is not None:
                editor.flush()
        return emitted or any(saved)

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

        links = links_html(record)
        self.links_label.setText(links)
        self.links_label.setVisible(bool(links))
        self.files_label.setText(files_text(detail.files) if detail.files else "")
        self.files_label.setVisible(bool(detail.files))

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

    def _save(self, box: _NotesBox) -> bool:
        """Emit the typing of a notes box not saved yet, under the paper shown."""
        pid = self._paper_id
        if pid is None:
            return False
        typed = box.take()
        if typed is None:
            return False
        text, base = typed
        if box is self._shared:
            self.notesEdited.emit(pid, text, base)
        else:
            self.privateNotesEdited.emit(pid, text)
        return True

    def _notes_typed(self) -> None:
        if self._paper_id is not None:
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
        base, self._shown_title = self._shown_title, title
        self.titleEdited.emit(pid, title, base)
        return True
