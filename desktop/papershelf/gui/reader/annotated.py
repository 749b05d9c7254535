"""The view's annotations (a part of `PdfView`): drawn over their pages, the one under
the mouse found, the one chosen outlined."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf.gui.qt import QRectF
from papershelf.gui.reader import geometry, marks

if TYPE_CHECKING:
    from papershelf.core.annotating import Annotation
    from papershelf.gui.qt import QPainter, QPointF, QWidget

SHAPES_KEPT = 64  # pages whose annotations' rectangles are kept (at one zoom each)


class Annotated:
    """The annotations of the document's pages, by page."""

    _annotations: dict[int, list[Annotation]]
    _shapes: dict[tuple[int, float], list[tuple[Annotation, list[QRectF]]]]
    _chosen: int | None
    _sizes: list[tuple[float, float]]
    _zoom: float
    _dark: bool

    if TYPE_CHECKING:
        def viewport(self) -> QWidget: ...
        def page_rect(self, page_index: int) -> QRectF: ...
        def to_page(self, point: QPointF) -> tuple[int, float, float] | None: ...

    def set_annotations(self, annotations: list[Annotation]) -> None:
        """The annotations to draw over the pages (the paper's, in any order)."""
        by_page: dict[int, list[Annotation]] = {}
        for annotation in annotations:
            if annotation.rects:
                by_page.setdefault(annotation.page_index, []).append(annotation)
        self._annotations = by_page
        self._shapes.clear()
        if self._chosen is not None and not any(
                a.id == self._chosen for items in by_page.values() for a in items):
            self._chosen = None
        self.viewport().update()

    def _paint_annotations(self, painter: QPainter, page: int) -> None:
        """Draw a page's annotations, from their rectangles in the page's pixels at this
        zoom (worked out once, then kept while the zoom and the annotations are: a
        thousand are redrawn at each scroll step)."""
        if not self._annotations.get(page):
            return
        key = (page, self._zoom)
        shapes = self._shapes.get(key)
        if shapes is None:
            if len(self._shapes) > SHAPES_KEPT:
                self._shapes.clear()
            zoom, height = self._zoom, self._sizes[page][1]
            shapes = self._shapes[key] = [
                (annotation, [QRectF(left * zoom, (height - top) * zoom, (right - left) * zoom,
                                     (top - bottom) * zoom)
                              for left, bottom, right, top in geometry.shape(
                                  annotation.kind, annotation.rects)])
                for annotation in self._annotations[page]]
        painter.save()
        painter.translate(self.page_rect(page).topLeft())
        for annotation, rects in shapes:
            marks.paint_annotation(painter, annotation, rects, zoom=self._zoom,
                                   dark=self._dark, chosen=annotation.id == self._chosen)
        painter.restore()

    def annotation_at(self, point: QPointF) -> int | None:
        """The id of the annotation under a point of the viewport, or None."""
        where = self.to_page(point)
        if where is None:
            return None
        page, x, y = where
        for annotation in reversed(self._annotations.get(page, [])):
            if geometry.holds(geometry.shape(annotation.kind, annotation.rects), x, y):
                return annotation.id
        return None

    def choose_annotation(self, annotation_id: int | None) -> None:
        """Show an annotation as the one selected (outlined), or none."""
        if annotation_id != self._chosen:
            self._chosen = annotation_id
            self.viewport().update()

    def chosen_annotation(self) -> int | None:
        return self._chosen
