"""The annotations of the paper the detail pane shows, in reading order: each by its
page's label, a colour chip (a rectangle: a small image of what it frames), the quote
cut short and the comment. A click asks for the reader at that annotation
(`annotationChosen`; the reading feature opens it).

They are read in a worker, never on the GUI thread, and a paper with many shows the
first `SHOWN` and says how many more there are (the reader's list has them all). The
way a line describes an annotation is the reader's too (`describe`, `swatch`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from papershelf.gui.i18n import number
from papershelf.gui.qt import (
    QColor,
    QFont,
    QIcon,
    QImage,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPalette,
    QPixmap,
    QSize,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
)
from papershelf.gui.workers import Latest

if TYPE_CHECKING:
    from papershelf.core.annotating import Annotation
    from papershelf.core.library import Library
    from papershelf.gui.operations import Operations

tr = Translator("AnnotationBox")
SHOWN = 200  # annotations the pane lists; the rest are counted
ROWS_TALL = 8  # the list is this many lines tall at most (it scrolls beyond)
THUMBNAIL = QSize(48, 36)  # a rectangle's image in the pane's list
QUOTE_SHOWN = 160  # characters of a quote (and of a comment) a line shows
DEFAULT_COLOR = "#ffd400"


def short(text: str, longest: int = QUOTE_SHOWN) -> str:
    """`text` on one line, cut to `longest` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= longest else text[:longest - 1] + "…"


@cache
def swatch(color: str) -> QIcon:
    """A small square of the annotation's colour (made once a colour: a list of a
    thousand annotations has a few colours)."""
    pixmap = QPixmap(12, 12)
    colour = QColor(color)
    pixmap.fill(colour if colour.isValid() else QColor(DEFAULT_COLOR))
    return QIcon(pixmap)


def describe(annotation: Annotation) -> str:
    """A line of a list: the page, the quote and the comment, each cut short."""
    text = tr("p. {label}").format(label=annotation.page_label
                                   or number(annotation.page_index + 1))
    quote = short(annotation.quote)
    if quote:
        text += f" — “{quote}”"
    elif annotation.kind in ("note", "rectangle"):
        text += " — " + (tr("Note") if annotation.kind == "note" else tr("Figure"))
    comment = short(annotation.comment)
    if comment:
        text += "\n" + comment
    return text


@dataclass(frozen=True)
class Loaded:
    """A paper's annotations as read in the worker: the first `SHOWN`, how many there
    are in all, and the rectangles' images already made small."""

    paper_id: int
    shown: list[Annotation]
    total: int
    images: dict[int, QImage] = field(default_factory=dict)


def load(library: Library, paper_id: int) -> Loaded:
    """Read a paper's annotations for the pane (in a worker: QImage, unlike QPixmap,
    may be made off the GUI thread)."""
    marks = library.annotations_of([paper_id]).get(paper_id, [])
    shown = marks[:SHOWN]
    images: dict[int, QImage] = {}
    for annotation in shown:
        if not annotation.has_image:
            continue
        data = library.annotation_image(annotation.id)
        image = QImage.fromData(data) if data else QImage()
        if not image.isNull():
            images[annotation.id] = image.scaled(
                THUMBNAIL, Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation)
    return Loaded(paper_id, shown, len(marks), images)


class AnnotationBox(QWidget):
    """The detail pane's list of the paper's annotations (hidden when it has none)."""

    annotationChosen = Signal(int, int)  # the paper's id, the annotation's

    def __init__(self, heading_font: QFont, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id: int | None = None
        self._library: Library | None = None
        self._loader: Latest | None = None
        self.heading = QLabel(self.tr("Annotations"))
        self.heading.setFont(heading_font)
        self.list = QListWidget()
        self.list.setObjectName("detailAnnotations")
        self.list.setAccessibleName(self.tr("Annotations"))
        self.list.setIconSize(THUMBNAIL)
        self.list.setWordWrap(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemClicked.connect(self._chosen)
        self.list.itemActivated.connect(self._chosen)
        self.more_label = QLabel()
        self.more_label.setWordWrap(True)
        self.more_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.list)
        layout.addWidget(self.more_label)
        self.hide()

    def follow(self, ops: Operations) -> None:
        """Read annotations through these operations' library and workers."""
        self._library = ops.library
        self._loader = Latest(ops.tasks, ops.report)

    def show_paper(self, paper_id: int | None) -> None:
        """Show this paper's annotations (read again, in a worker); None: none."""
        if paper_id != self._paper_id:
            self.list.clear()
            self.hide()
        self._paper_id = paper_id
        library, loader = self._library, self._loader
        if paper_id is None or library is None or loader is None:
            if loader is not None:
                loader.drop()
            return
        loader.request(lambda: load(library, paper_id), self._loaded)

    @property
    def loading(self) -> bool:
        """Whether a read of the annotations is under way."""
        return self._loader is not None and self._loader.running

    def _loaded(self, loaded: Loaded) -> None:
        if loaded.paper_id != self._paper_id:
            return
        current = self.list.currentItem()
        chosen = current.data(Qt.ItemDataRole.UserRole) if current is not None else None
        scrolled = self.list.verticalScrollBar().value()
        self.list.clear()
        for annotation in loaded.shown:
            item = QListWidgetItem(describe(annotation))
            item.setData(Qt.ItemDataRole.UserRole, annotation.id)
            image = loaded.images.get(annotation.id)
            item.setIcon(QIcon(QPixmap.fromImage(image)) if image is not None
                         else swatch(annotation.color))
            tip = "\n\n".join(short(t, 1000) for t in (annotation.quote, annotation.comment)
                              if t.strip())
            if tip:
                item.setToolTip(tip)
            self.list.addItem(item)
            if annotation.id == chosen:
                self.list.setCurrentItem(item)
        self.heading.setText(self.tr("Annotations ({count})").format(
            count=number(loaded.total)))
        more = loaded.total - len(loaded.shown)
        self.more_label.setText(self.tr("and %n more (the reader lists them all)", "", more))
        self.more_label.setVisible(more > 0)
        rows = min(self.list.count(), ROWS_TALL)
        tall = sum(self.list.sizeHintForRow(row) for row in range(rows))
        self.list.setFixedHeight(tall + 2 * self.list.frameWidth() + 2)
        self.setVisible(loaded.total > 0)
        self.list.verticalScrollBar().setValue(scrolled)  # (the same paper, read again)

    def _chosen(self, item: QListWidgetItem) -> None:
        if self._paper_id is not None:
            self.annotationChosen.emit(self._paper_id, int(item.data(Qt.ItemDataRole.UserRole)))
