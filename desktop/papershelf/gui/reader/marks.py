"""How the reader draws an annotation over a page, by its kind: a highlight over the
text (multiplied into a light page, so the ink stays black), a line under or through
it, a frame, a sticky note's icon (its box: `geometry.shape`), a text box's square; the
one selected outlined."""

from __future__ import annotations

from collections.abc import Sequence

from papershelf.core.annotating import Annotation
from papershelf.gui.qt import QColor, QLineF, QPainter, QPen, QPointF, QRectF, QSizeF, Qt

DEFAULT_COLOR = "#ffd400"
NOTE_SIZE = 12.0  # points


def paint_annotation(painter: QPainter, annotation: Annotation, rects: Sequence[QRectF], *,
                     zoom: float, dark: bool, chosen: bool) -> None:
    """Draw `annotation`, whose rectangles are `rects` in the painter's pixels; `zoom`
    is pixels per point, `dark` whether the pages are shown inverted."""
    colour = QColor(annotation.color)
    if not colour.isValid():
        colour = QColor(DEFAULT_COLOR)
    kind = annotation.kind
    if kind == "highlight":
        colour.setAlpha(110 if dark else 255)
        if not dark:
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
        for rect in rects:
            painter.fillRect(rect, colour)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
    elif kind in ("underline", "squiggly", "strikeout"):
        style = Qt.PenStyle.DotLine if kind == "squiggly" else Qt.PenStyle.SolidLine
        painter.setPen(QPen(colour, max(1.0, zoom), style))
        painter.drawLines([QLineF(rect.left(), y, rect.right(), y) for rect in rects
                           for y in (rect.center().y() if kind == "strikeout"
                                     else rect.bottom(),)])
    elif kind == "rectangle":
        painter.setPen(QPen(colour, max(1.0, zoom)))
        for rect in rects:
            painter.drawRect(rect)
    elif kind == "note":
        for rect in rects:
            _paint_note(painter, rect, colour)
    else:  # a text box: a square where it is
        for rect in rects:
            painter.fillRect(QRectF(rect.topLeft(), QSizeF(NOTE_SIZE, NOTE_SIZE) * zoom),
                             colour)
    if chosen:
        painter.setPen(QPen(colour.darker(160), 2))
        for rect in rects:
            painter.drawRect(rect.adjusted(-2, -2, 2, 2))


def _paint_note(painter: QPainter, rect: QRectF, colour: QColor) -> None:
    """A sticky note's icon filling `rect`: a coloured sheet with three lines of text."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(colour.darker(170), 1))
    painter.setBrush(colour)
    radius = rect.width() / 6
    painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
    painter.setPen(QPen(colour.darker(220), max(1.0, rect.height() / 14)))
    margin = rect.width() / 4
    for step in (1, 2, 3):
        y = rect.top() + rect.height() * step / 4
        right = rect.right() - margin - (margin if step == 3 else 0)
        painter.drawLine(QPointF(rect.left() + margin, y), QPointF(right, y))
    painter.restore()


def fill(painter: QPainter, rects: Sequence[QRectF], colour: QColor) -> None:
    """Fill rectangles over the page (the places found, the selection)."""
    for rect in rects:
        painter.fillRect(rect, colour)
