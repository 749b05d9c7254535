"""The reader's page view: every page of a PDF in one continuous scroll.

Pages are rendered by PDFium's worker process (`pages`), only those visible and one
either side, each at the zoom and the screen's device pixel ratio it is shown at (crisp
on HiDPI), kept in a cache bounded in bytes; a page not rendered yet is drawn from an
older rendering scaled, or blank. Its characters' boxes are fetched likewise, so that a
selection made with the mouse is computed here without calling PDFium. Annotations,
the selection and the places found are drawn over the pages, in PDF points turned to
the view's pixels; the tools for a sticky note and a rectangle are `drawing`'s.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from functools import partial

from papershelf.core.annotating import Annotation
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QAbstractScrollArea,
    QApplication,
    QColor,
    QContextMenuEvent,
    QEvent,
    QImage,
    QInputDialog,
    QKeyEvent,
    QKeySequence,
    QMenu,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPoint,
    QPointF,
    QRectF,
    QResizeEvent,
    QShowEvent,
    Qt,
    QTimer,
    QWheelEvent,
    QWidget,
    Signal,
)
from papershelf.gui.reader import drawing, geometry, marks, pages
from papershelf.gui.reader.annotated import Annotated
from papershelf.gui.reader.cache import RenderCache, RenderKey, snapped
from papershelf.gui.reader.finding import Finder, Finding
from papershelf.gui.reader.keys import make_action
from papershelf.gui.reader.layout import GAP, Column
from papershelf.gui.reader.pages import DARK_GROUND, Heading, Layout, Link, PageText, Pdf, Rect
from papershelf.gui.reader.selecting import Selection
from papershelf.gui.workers import Job
from papershelf.reading.document import Encrypted

POINT = 96 / 72  # pixels per point at 100 %
ZOOM_MIN, ZOOM_MAX = 0.1, 8.0
ZOOM_STEP = 1.2
IMAGE_PIXELS_MAX = 24_000_000  # (a page zoomed further is rendered smaller, drawn scaled)
TEXTS_KEPT = 64


class PdfView(Finding, Annotated, QAbstractScrollArea):
    """A PDF's pages, scrolled continuously; see the module's docstring."""

    opened = Signal()  # the pages' sizes and labels are known
    failed = Signal(str)  # the file cannot be shown: one line
    locked = Signal(str)  # the file opens with its password only (one line: why)
    rendered = Signal(int)  # a page's image arrived
    currentPageChanged = Signal(int)
    zoomChanged = Signal(float)
    selectionChanged = Signal(bool)
    highlightRequested = Signal(int, object, str)  # page, rects (points), quote
    noteRequested = Signal(int, float, float)  # page, x, y (points)
    rectangleRequested = Signal(int, object, object)  # page, rect (points), PNG or None
    annotationClicked = Signal(int)  # its id
    linkActivated = Signal(str)  # a link to a URI was clicked
    annotationMenuRequested = Signal(int, QPoint)  # an annotation's id, where (global)
    searched = Signal(int, int)  # the place shown (from 0, -1: none), how many found

    def __init__(self, path: str | os.PathLike[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)  # (the cursor over a link)
        # (always: a bar coming and going would change the width that fit width fills)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._pdf = Pdf(path)
        pdf = self._pdf
        self.destroyed.connect(lambda *_args: pdf.close())
        self._sizes: list[tuple[float, float]] = []
        self._labels: list[str] = []
        self._headings: list[Heading] = []
        self._column = Column([])
        self._zoom = 1.0  # pixels per point
        self._fit: str | None = "width"
        self._dark = self.palette().color(self.backgroundRole()).lightness() < 128
        self._error = ""
        self.failure: BaseException | None = None  # (why it is not shown)
        self._current = -1
        self._cache = RenderCache()
        self._pending: dict[RenderKey, Job] = {}
        self._texts: OrderedDict[int, PageText] = OrderedDict()
        self._texts_asked: set[int] = set()
        self._broken: set[int] = set()  # pages PDFium could not draw
        self._press: QPointF | None = None
        self._anchor: tuple[int, int] | None = None
        self._selection: Selection | None = None
        self._annotations: dict[int, list[Annotation]] = {}
        self._shapes: dict[tuple[int, float], list[tuple[Annotation, list[QRectF]]]] = {}
        self._chosen: int | None = None  # the annotation selected
        self._finder = Finder()
        self._showing = pages.Showing()  # (the fit the queue's thread reads)
        # (the first page on its way with the layout: nothing else asked before it is
        # painted, then the rest asked once it is, `_after_paint`)
        self._first_due = self._after_paint = False
        self.unlock()  # (opened while the rest is made; its first page once it is sized)
        self._make_actions()
        self.tools = drawing.Tools(self)

    # -- actions

    def _make_actions(self) -> None:
        keys = QKeySequence.StandardKey
        self.zoom_in_action = make_action(self, self.tr("Zoom In"), self.zoom_in, keys.ZoomIn,
                                          "Ctrl+=")
        self.zoom_out_action = make_action(self, self.tr("Zoom Out"), self.zoom_out, keys.ZoomOut)
        self.fit_width_action = make_action(self, self.tr("Fit Width"), self.fit_width, "Ctrl+0")
        self.fit_page_action = make_action(self, self.tr("Fit Page"), self.fit_page, "Ctrl+9")
        self.copy_action = make_action(self, self.tr("Copy"), self.copy, keys.Copy)
        self.highlight_action = make_action(self, self.tr("Highlight"), self.highlight, "H")
        self.go_action = make_action(self, self.tr("Go to Page…"), self.ask_page, "G")
        self.dark_action = make_action(self, self.tr("Dark Pages"), self.set_dark_pages)
        self.dark_action.setCheckable(True)
        self.dark_action.setChecked(self._dark)
        self.dark_action.setToolTip(self.tr("Show the pages light on dark"))
        self.copy_action.setEnabled(False)
        self.highlight_action.setEnabled(False)

    # -- the document

    def _opened(self, layout: Layout) -> None:
        self._sizes = layout.sizes
        self._labels = layout.labels
        self._headings = layout.headings
        self._column = Column(layout.sizes)
        self._relayout((0, 0.0))
        self.opened.emit()

    def unlock(self, password: str | None = None) -> None:
        """Open the file (again, with its password)."""
        self._first_due = True
        self._pdf.open(self._opened, self._failed, password, self._showing.fit,
                       self._first_rendered, self._dark)

    def _first_rendered(self, first: pages.First | None) -> None:
        """The first page, rendered by the request that opened the file: kept if it is
        at the zoom the page is shown at; the other pages and the texts asked for once
        it is painted (none of them delays it)."""
        self._first_due = False
        key, scale = self._key(0) if self._sizes else ((0, 0, 0, False), 0.0)
        if first is not None and first.dark == self._dark and math.isclose(first.scale, scale):
            self._after_paint = True
            self._rendered(key, first.image)
        else:
            self._schedule()

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, Encrypted):
            self.locked.emit(error_text(error))
            return
        self.failure = error
        self._error = (error_text(error).strip() or repr(error)).splitlines()[0]
        self.viewport().update()
        self.failed.emit(self._error)

    def close_document(self) -> None:
        """Stop rendering and close the file (the tab closes)."""
        for job in self._pending.values():
            job.cancel()
        self._pending.clear()
        self._finder.stop()
        self._pdf.close()

    @property
    def error(self) -> str:
        """Why the file is not shown (one line), or ''."""
        return self._error

    def page_count(self) -> int:
        return len(self._sizes)

    def page_size(self, page_index: int) -> tuple[float, float]:
        return self._sizes[page_index]  # (points)

    def dark_pages(self) -> bool:
        return self._dark

    def page_label(self, page_index: int) -> str:
        return self._labels[page_index] if 0 <= page_index < len(self._labels) else ""

    def current_page(self) -> int:
        """The page at the top third of the view (from 0; -1 before the file opened)."""
        return self._current

    def zoom(self) -> float:
        """The zoom, 1.0 being 100 % (a point shown as 96/72 pixels)."""
        return self._zoom / POINT

    def place(self) -> tuple[int, float]:
        """The page at the view's top (from 0; -1 before the file opened) and how far
        down it (0 to 1): where a reader is, to come back to (`set_place`)."""
        # (half a pixel on: the scroll bar's rounded value never falls on the page before)
        return self._column.where(self.verticalScrollBar().value() + GAP + 0.5) \
            if len(self._column) else (-1, 0.0)

    def set_place(self, page_index: int, fraction: float) -> None:
        """Show the place `fraction` (0 to 1) down a page (from 0) at the view's top."""
        if 0 <= page_index < len(self._column):
            self._relayout((page_index, max(0.0, min(1.0, fraction))))

    # -- layout

    def _relayout(self, keep: tuple[int, float] | None = None) -> None:
        """Place the pages at the current zoom, the place `keep` (page, fraction down
        it) staying at the top of the view."""
        column = self._column
        if not len(column):
            return
        view = self.viewport()
        if keep is None:
            keep = column.where(self.verticalScrollBar().value() + GAP)
        if self._fit is not None:
            zoom = column.fitting(self._fit, view.width(), view.height(), max(self._current, 0))
            self._zoom = max(ZOOM_MIN * POINT, min(zoom, ZOOM_MAX * POINT))
        column.place(self._zoom)
        vertical, horizontal = self.verticalScrollBar(), self.horizontalScrollBar()
        vertical.setRange(0, max(0, math.ceil(column.height - view.height())))
        vertical.setPageStep(view.height())
        vertical.setSingleStep(max(20, view.height() // 20))
        horizontal.setRange(0, max(0, math.ceil(column.width - view.width())))
        horizontal.setPageStep(view.width())
        horizontal.setSingleStep(20)
        vertical.setValue(round(column.y_of(*keep)) - GAP)
        view.update()
        self._schedule()
        self._update_current()
        self.zoomChanged.emit(self.zoom())

    def page_rect(self, page_index: int) -> QRectF:
        """Where a page is in the viewport, in pixels."""
        width, height = self._sizes[page_index]
        column = self._column
        x = column.left(page_index, self.viewport().width()) - self.horizontalScrollBar().value()
        y = column.tops[page_index] - self.verticalScrollBar().value()
        return QRectF(x, y, width * self._zoom, height * self._zoom)

    def visible_pages(self) -> range:
        """The pages the viewport shows (some of)."""
        return self._column.visible(self.verticalScrollBar().value(), self.viewport().height())

    def to_view(self, page_index: int, rect: Rect) -> QRectF:
        """A rectangle in a page's points as pixels of the viewport."""
        page = self.page_rect(page_index)
        height = self._sizes[page_index][1]
        left, bottom, right, top = rect
        return QRectF(page.x() + left * self._zoom, page.y() + (height - top) * self._zoom,
                      (right - left) * self._zoom, (top - bottom) * self._zoom)

    def to_page(self, point: QPointF) -> tuple[int, float, float] | None:
        """The page under a point of the viewport and the point in its points."""
        for page in self.visible_pages():
            rect = self.page_rect(page)
            if rect.top() - GAP / 2 <= point.y() <= rect.bottom() + GAP / 2:
                x = (point.x() - rect.x()) / self._zoom
                y = self._sizes[page][1] - (point.y() - rect.y()) / self._zoom
                return page, x, y
        return None

    def _update_current(self) -> None:
        if not len(self._column):
            return
        y = self.verticalScrollBar().value() + self.viewport().height() / 3
        current = self._column.page_at(y)
        if current != self._current:
            self._current = current
            self.currentPageChanged.emit(current)

    # -- rendering

    def _key(self, page_index: int) -> tuple[RenderKey, float]:
        ratio = self.devicePixelRatioF()
        width, height = self._sizes[page_index]
        scale = self._zoom * ratio
        pixels = width * height * scale * scale
        if pixels > IMAGE_PIXELS_MAX:
            scale *= math.sqrt(IMAGE_PIXELS_MAX / pixels)
        key = (page_index, round(self._zoom * 1000), round(ratio * 1000), self._dark)
        return key, scale

    def _schedule(self) -> None:
        """Ask for the renderings (and texts) of the pages visible and one either side;
        forget the renderings asked for that are no longer wanted (a page gone out of
        view, an older zoom)."""
        visible = self.visible_pages()
        if not visible or not self.isVisible() or self._first_due:
            return
        wanted = range(max(0, visible.start - 1), min(len(self._sizes), visible.stop + 1))
        keys = {page: self._key(page) for page in wanted}
        for key in [k for k in self._pending if k[0] not in keys or keys[k[0]][0] != k]:
            self._pending.pop(key).cancel()
        for page in (*visible, *wanted):  # (the visible ones first)
            key, scale = keys[page]
            if key not in self._cache and key not in self._pending and page not in self._broken:
                self._pending[key] = self._pdf.render(
                    page, scale, self._dark, partial(self._rendered, key),
                    partial(self._page_failed, key))
            if page not in self._texts and page not in self._texts_asked:
                self._texts_asked.add(page)
                self._pdf.text(page, self._got_text, partial(self._no_text, page))

    def _rendered(self, key: RenderKey, image: QImage) -> None:
        self._pending.pop(key, None)
        image.setDevicePixelRatio(key[2] / 1000)
        self._cache.add(key, image, {self._key(page)[0] for page in self.visible_pages()})
        self.viewport().update()
        self.rendered.emit(key[0])

    def _page_failed(self, key: RenderKey, _error: BaseException) -> None:
        """A page PDFium cannot draw (damaged): shown blank with a line saying so."""
        self._pending.pop(key, None)
        self._broken.add(key[0])
        self.viewport().update()

    def _no_text(self, page: int, _error: BaseException) -> None:
        self._texts_asked.discard(page)
        self._texts[page] = PageText(page, "")

    def _got_text(self, text: PageText) -> None:
        self._texts_asked.discard(text.page)
        self._texts[text.page] = text
        while len(self._texts) > TEXTS_KEPT:
            self._texts.popitem(last=False)

    def has_image(self, page_index: int) -> bool:
        """Whether the page is rendered at the zoom it is shown at."""
        return bool(self._sizes) and self._key(page_index)[0] in self._cache

    def page_text(self, page_index: int) -> PageText | None:
        """The page's characters, once fetched (for the visible pages)."""
        return self._texts.get(page_index)

    def cache_size(self) -> int:
        """The bytes the rendered pages kept take."""
        return self._cache.size

    def broken_pages(self) -> set[int]:
        """The pages PDFium could not draw."""
        return set(self._broken)

    def rendered_image(self, page_index: int) -> QImage | None:
        """The page's image drawn now (at its zoom, or an older one scaled), or None."""
        return self._image_of(page_index)

    def _image_of(self, page_index: int) -> QImage | None:
        return self._cache.best(self._key(page_index)[0])

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.fillRect(event.rect(), self.palette().color(self.palette().ColorRole.Dark))
        if self._error:
            painter.setPen(self.palette().color(self.palette().ColorRole.BrightText))
            painter.drawText(self.viewport().rect().adjusted(GAP, GAP, -GAP, -GAP),
                             Qt.AlignmentFlag.AlignCenter, self._error)
            painter.end()
            return
        blank = QColor(DARK_GROUND if self._dark else "#ffffff")
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        for page in self.visible_pages():
            rect = self.page_rect(page)
            image = self._image_of(page)
            if image is None:
                painter.fillRect(rect, blank)
            else:
                painter.drawImage(snapped(rect, image), image)
            if page in self._broken:
                painter.setPen(QColor("#808080"))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                                 self.tr("This page cannot be shown: it is damaged."))
            self._paint_marks(painter, page)
        self.tools.paint(painter)
        painter.end()
        if self._after_paint:  # (the first page shown: the rest asked for)
            self._after_paint = False
            QTimer.singleShot(0, self, self._schedule)

    def _paint_marks(self, painter: QPainter, page: int) -> None:
        self._paint_annotations(painter, page)
        for number, hit in enumerate(self._finder.hits):
            if hit.page == page:
                marks.fill(painter, [self.to_view(page, r) for r in hit.rects],
                           QColor(255, 140, 0, 170 if number == self._finder.current else 80))
        if self._selection is not None and page in self._selection.pages:
            colour = QColor(self.palette().color(self.palette().ColorRole.Highlight))
            colour.setAlpha(90)
            chosen = self.selection_rects(page)
            marks.fill(painter, [self.to_view(page, r) for r in chosen], colour)

    # -- zoom

    def set_zoom(self, zoom: float) -> None:
        """Show the pages at `zoom` (1.0 is 100 %), leaving fit width or fit page."""
        self._fit = None
        self._zoom = max(ZOOM_MIN, min(zoom, ZOOM_MAX)) * POINT
        self._relayout()

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom() * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom() / ZOOM_STEP)

    def fit_width(self) -> None:
        self._fit = "width"
        self._relayout()

    def fit_page(self) -> None:
        self._fit = "page"
        self._relayout()

    def set_dark_pages(self, dark: bool) -> None:
        """Show the pages light on dark (their colours inverted), for a dark desktop."""
        self._dark = bool(dark)
        self.dark_action.setChecked(self._dark)
        self.viewport().update()
        self._schedule()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.DevicePixelRatioChange:  # (another screen)
            self.viewport().update()
            self._schedule()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._schedule()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._showing.sized(pages.Fit(max(self.viewport().width() - 2 * GAP, 50),
                                      self.devicePixelRatioF(), ZOOM_MIN * POINT,
                                      ZOOM_MAX * POINT))
        if self._sizes:
            self._relayout()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()
        self._schedule()
        self._update_current()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if event.angleDelta().y() > 0:
                self.zoom_in()
            elif event.angleDelta().y() < 0:
                self.zoom_out()
            event.accept()
            return
        super().wheelEvent(event)

    # -- moving about

    def go_to(self, page_index: int, top: float | None = None) -> None:
        """Scroll to a page (from 0), or to the place `top` points from its bottom, a
        little below the view's top."""
        if not 0 <= page_index < len(self._column):
            return
        y = self._column.tops[page_index] - GAP
        if top is not None:
            height = self._sizes[page_index][1]
            y = self._column.y_of(page_index, (height - top) / height) - 3 * GAP
        self.verticalScrollBar().setValue(round(y))

    def go_to_page(self, text: str) -> bool:
        """Go to the page a user names: its label ("iv", "12"), else its number from 1."""
        text = text.strip()
        if text in self._labels:
            self.go_to(self._labels.index(text))
            return True
        if text.isdigit() and 1 <= int(text) <= len(self._labels):
            self.go_to(int(text) - 1)
            return True
        return False

    def ask_page(self) -> None:
        """Ask which page to go to (G)."""
        if not self._labels:
            return
        text, ok = QInputDialog.getText(
            self, self.tr("Go to Page"),
            self.tr("Page (its label, or its number from 1 to {count}):").format(
                count=len(self._labels)))
        if ok and not self.go_to_page(text):
            QApplication.beep()  # (no such page)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        vertical = self.verticalScrollBar()
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key in (Qt.Key.Key_J, Qt.Key.Key_Down):
            vertical.setValue(vertical.value() + vertical.singleStep())
        elif key in (Qt.Key.Key_K, Qt.Key.Key_Up):
            vertical.setValue(vertical.value() - vertical.singleStep())
        elif key == Qt.Key.Key_Space:
            step = vertical.pageStep() - 2 * vertical.singleStep()
            vertical.setValue(vertical.value() + (-step if shift else step))
        elif key == Qt.Key.Key_Home:
            vertical.setValue(0)
        elif key == Qt.Key.Key_End:
            vertical.setValue(vertical.maximum())
        elif key == Qt.Key.Key_Escape and (self.tools.cancel() or self._selection is not None):
            self.clear_selection()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # -- selection

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self.tools.press(event):
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
            self._anchor = None
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self.tools.move(event):
            return
        if self._press is None or not event.buttons() & Qt.MouseButton.LeftButton:
            over_link = self.link_at(event.position()) is not None
            self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if over_link
                                      else Qt.CursorShape.ArrowCursor)
            return
        if self._anchor is None:
            moved = (event.position() - self._press).manhattanLength()
            if moved < QApplication.startDragDistance():
                return
            start = self._char_under(self._press)
            if start is None:
                return
            self._anchor = start
        end = self._char_under(event.position())
        if end is not None:
            self._set_selection(Selection.between(self._anchor, end))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self.tools.release(event):
            return
        if event.button() == Qt.MouseButton.LeftButton and self._press is not None:
            link = self.link_at(event.position()) if self._anchor is None else None
            if link is not None:
                self._press = None
                self.follow(link)
                return
            self._press = None
            if self._anchor is None:  # a click, not a drag
                self.clear_selection()
                clicked = self.annotation_at(event.position())
                self.choose_annotation(clicked)
                if clicked is not None:
                    self.annotationClicked.emit(clicked)
        super().mouseReleaseEvent(event)

    def link_at(self, point: QPointF) -> Link | None:
        """The link under a point of the viewport, or None."""
        where = self.to_page(point)
        text = None if where is None else self._texts.get(where[0])
        if where is None or text is None:
            return None
        return next((link for link in text.links
                     if geometry.holds([link.rect], where[1], where[2], 0)), None)

    def follow(self, link: Link) -> None:
        """Go where a link goes in the document, or hand on the URI it opens."""
        if link.place is not None:
            self.go_to(link.place.page, link.place.top)
        elif link.uri:
            self.linkActivated.emit(link.uri)

    def headings(self) -> list[Heading]:
        """The document's outline (once opened)."""
        return list(self._headings)

    def _char_under(self, point: QPointF) -> tuple[int, int] | None:
        where = self.to_page(point)
        if where is None:
            return None
        page, x, y = where
        text = self._texts.get(page)
        if text is None:
            return None
        found = geometry.char_at(text.boxes, x, y)
        return None if found is None else (page, found)

    def _set_selection(self, selection: Selection | None) -> None:
        if selection == self._selection:
            return
        self._selection = selection
        self.copy_action.setEnabled(selection is not None)
        self.highlight_action.setEnabled(selection is not None and selection.one_page)
        self.viewport().update()
        self.selectionChanged.emit(selection is not None)

    def select(self, page_index: int, first: int, last: int) -> None:
        """Select characters `first`..`last` of a page (its text must be fetched)."""
        self._set_selection(Selection((page_index, first), (page_index, last)))

    def clear_selection(self) -> None:
        self._set_selection(None)

    def selection_rects(self, page_index: int | None = None) -> tuple[Rect, ...]:
        """The selection's rectangles on a page (its first page by default; points, one
        per line), or ()."""
        if self._selection is None:
            return ()
        page = self._selection.start[0] if page_index is None else page_index
        return self._selection.rects(self._texts.get(page))

    def selected_text(self) -> str:
        """The selection as it reads (over pages: joined by a space), or ''."""
        return "" if self._selection is None else self._selection.text(self._texts)

    def copy(self) -> None:
        """Copy the selection's text (Ctrl+C)."""
        text = self.selected_text()
        if text:
            QApplication.clipboard().setText(text)

    def highlight(self) -> None:
        """Ask for a highlight of the selection (H), on one page: `highlightRequested`."""
        if self._selection is None or not self._selection.one_page:
            return  # (a highlight is on one page)
        quote = self.selected_text()
        rects = self.selection_rects()
        if quote and rects:
            self.highlightRequested.emit(self._selection.start[0], rects, quote)
            self.clear_selection()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        point = QPointF(self.viewport().mapFrom(self, event.pos()))
        clicked = self.annotation_at(point)
        if self._selection is None and clicked is not None:
            self.choose_annotation(clicked)
            self.annotationClicked.emit(clicked)
            self.annotationMenuRequested.emit(clicked, event.globalPos())
            return
        menu = QMenu(self)
        if self._selection is not None:
            menu.addAction(self.copy_action)
            menu.addAction(self.highlight_action)
        else:
            menu.addActions([self.zoom_in_action, self.zoom_out_action,
                             self.fit_width_action, self.fit_page_action])
            menu.addSeparator()
            menu.addActions([self.go_action, self.dark_action])
            self.tools.add_to_menu(menu, point)
        menu.exec(event.globalPos())
        menu.deleteLater()
