"""How the detail pane shows a paper's record: its stored text made readable (inline
math, accent macros), its links and attached files as text, and the widgets that show
them: a title editor that wraps and grows, and a wrapping, selectable label.

Only http(s) links and PDF files are ever opened (`open_link`, `open_file`).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.i18n import data_size
from papershelf.gui.qt import (
    QDesktopServices,
    QEvent,
    QFocusEvent,
    QFont,
    QFrame,
    QKeyEvent,
    QLabel,
    QMimeData,
    QPalette,
    QResizeEvent,
    QSizePolicy,
    Qt,
    QTextEdit,
    QUrl,
    QWidget,
    Signal,
    Translator,
)

# (imported when the pane first shows a paper: the window's first paint needs none)
if TYPE_CHECKING:
    from papershelf.core import files
    from papershelf.core.files import Attachment
    from papershelf.formats import readable
    from papershelf.formats.records import PaperRecord
    from papershelf.metadata import identifiers
else:
    files = lazy.module("papershelf.core.files")
    readable = lazy.module("papershelf.formats.readable")
    identifiers = lazy.module("papershelf.metadata.identifiers")

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



class TitleEdit(QTextEdit):
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


def bold(font: QFont, scale: float = 1.0) -> QFont:
    """`font` in bold, its size times `scale`: the panes' titles (1.3) and headings."""
    bolder = QFont(font)
    bolder.setBold(True)
    if scale != 1.0:
        bolder.setPointSizeF(bolder.pointSizeF() * scale)
    return bolder


def heading(text: str) -> QLabel:
    """A pane's bold heading over a block of text ("Abstract")."""
    label = QLabel(text)
    label.setFont(bold(label.font()))
    return label


class WrapLabel(QLabel):
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

