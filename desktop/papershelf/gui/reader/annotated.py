"""The view's annotations (a part of `PdfView`): drawn over their pages, the one under
the mouse found, the one chosen outlined."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf.gui.reader import geometry, marks

if TYPE_CHECKING:
    from papershelf.core.annotating import Annotation
    from papershelf.gui.qt import QPainter, QPointF, QRectF, QWidget
    from papershelf.gui.reader.pages import Rect


class Annotated:
    """The annotations of the document's pages, by page."""

    _annotations: dict[int, list[Annotation]]
    _chosen: int | None
    _zoom: float
    _dark: bool

    if TYPE_CHECKING:
        def viewport(self) -> QWidget: ...
        def to_view(self, page_index: int, rect: Rect) -> QRectF: ...
        def to_page(self, point: QPointF) -> tuple[int, float, float] | None: ...

    def set_annotations(self, annotations: list[Annotation]) -> None:
        """The annotations to draw over the pages (the paper's, in any order)."""
        by_page: dict[int, list[Annotation]] = {}
        for annotation in annotations:
            if annotation.rects:
                by_page.setdefault(annotation.page_index, []).append(annotation)
        self._annotations = by_page
        if self._chosen is not None and not any(
                a.id == self._chosen for items in by_page.values() for a in items):
            self._chosen = None
        self.viewport().update()

    def _paint_annotations(self, painter: QPainter, page: int) -> None:
        for annotation in self._annotations.get(page, ()):
            rects = [self.to_view(page, r)
                     for r in geometry.shape(annotation.kind, annotation.rects)]
            marks.paint_annotation(painter, annotation, rects, zoom=self._zoom,
                                   dark=self._dark, chosen=annotation.id == self._chosen)

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
