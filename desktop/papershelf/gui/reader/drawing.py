"""The reader's tools for marks that are not on text: a sticky note put where one clicks
(N, or "Add Note Here" in the page's menu), and a rectangle dragged over a figure or an
equation (R, or a drag with Alt held) kept with the image of what it frames.

A tool is used once, then the mouse selects text again (Escape puts it away unused).
The rectangle's image is cut from the page's image the view shows already (no call to
PDFium), at `IMAGE_SCALE` pixels a point and at most `IMAGE_SIDE_MAX` pixels a side.
"""

from __future__ import annotations

import math
from typing import Any, Protocol, cast

from papershelf.gui.qt import (
    QBuffer,
    QColor,
    QImage,
    QIODevice,
    QMenu,
    QMouseEvent,
    QPainter,
    QPalette,
    QPen,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QWidget,
    Translator,
)
from papershelf.gui.reader import geometry
from papershelf.gui.reader.keys import make_action
from papershelf.gui.reader.pages import Rect


class PdfView(Protocol):
    """What the tools use of the view (`view.PdfView`, which holds them)."""

    noteRequested: Any  # Signal(int, float, float)
    rectangleRequested: Any  # Signal(int, object, object)

    def viewport(self) -> QWidget: ...
    def palette(self) -> QPalette: ...
    def to_page(self, point: QPointF) -> tuple[int, float, float] | None: ...
    def to_view(self, page_index: int, rect: Rect) -> QRectF: ...
    def page_rect(self, page_index: int) -> QRectF: ...
    def page_size(self, page_index: int) -> tuple[float, float]: ...
    def rendered_image(self, page_index: int) -> QImage | None: ...
    def dark_pages(self) -> bool: ...

tr = Translator("PdfView")
IMAGE_SCALE = 2.0  # pixels a point of a rectangle's image
IMAGE_SIDE_MAX = 2000  # pixels
SMALLEST = 4.0  # points: a rectangle narrower or lower is a slip of the mouse


class Tools:
    """The view's tool (None: select text, "note", "rectangle"), its actions, and the
    rectangle being dragged."""

    def __init__(self, view: PdfView) -> None:
        self.view = view
        self.tool: str | None = None
        self._start: tuple[int, float, float] | None = None  # page, x, y (points)
        self._end: QPointF | None = None
        widget = cast(QWidget, view)  # (the actions' keys work while the view has the focus)
        self.note_action = make_action(widget, tr("Add Note"),
                                       lambda checked=True: self.set_tool("note", checked), "N")
        self.note_action.setToolTip(tr("Add a sticky note where you click next (N)"))
        self.rectangle_action = make_action(
            widget, tr("Add Rectangle"),
            lambda checked=True: self.set_tool("rectangle", checked), "R")
        self.rectangle_action.setToolTip(tr(
            "Frame a figure or an equation: drag over it (R, or drag with Alt held)"))
        for action in (self.note_action, self.rectangle_action):
            action.setCheckable(True)

    def set_tool(self, tool: str, on: bool = True) -> None:
        """Take up a tool for the next click or drag (or put it away)."""
        self.tool = tool if on else None
        self._start = self._end = None
        self.note_action.setChecked(self.tool == "note")
        self.rectangle_action.setChecked(self.tool == "rectangle")
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor if self.tool
                                       else Qt.CursorShape.ArrowCursor)
        self.view.viewport().update()

    def add_to_menu(self, menu: QMenu, point: QPointF) -> None:
        """The page's menu: a note where it was asked for, the tools."""
        menu.addSeparator()
        where = self.view.to_page(point)
        if where is not None:
            menu.addAction(tr("Add Note Here")).triggered.connect(
                lambda: self._note_at(*where))
        menu.addActions([self.note_action, self.rectangle_action])

    # -- the mouse (each True when the tool took the event)

    def press(self, event: QMouseEvent) -> bool:
        alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
        if event.button() != Qt.MouseButton.LeftButton or not (self.tool or alt):
            return False
        if alt and self.tool is None:
            self.tool = "rectangle"
        self._start = self.view.to_page(event.position())
        self._end = event.position()
        return True

    def move(self, event: QMouseEvent) -> bool:
        if self.tool is None:
            return False
        if self._start is not None:
            self._end = event.position()
            self.view.viewport().update()
        return True

    def release(self, event: QMouseEvent) -> bool:
        if self.tool is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        start, tool = self._start, self.tool
        self.set_tool(tool, False)
        if start is None:
            return True
        if tool == "note":
            self._note_at(*start)
            return True
        rect = self._dragged(start, event.position())
        if rect is not None:
            self.view.rectangleRequested.emit(start[0], rect, self.image(start[0], rect))
        return True

    def cancel(self) -> bool:
        """Escape: put the tool away (True when there was one)."""
        if self.tool is None:
            return False
        self.set_tool(self.tool, False)
        return True

    def _note_at(self, page: int, x: float, y: float) -> None:
        """Ask for a note at (x, y), kept on the page (a click in the margin beside it)."""
        width, height = self.view.page_size(page)
        x, y = max(0.0, min(width - geometry.NOTE_SIZE, x)), max(geometry.NOTE_SIZE, min(height, y))
        self.view.noteRequested.emit(page, round(x, 2), round(y, 2))

    def _dragged(self, start: tuple[int, float, float], end: QPointF) -> Rect | None:
        page, x, y = start
        view = self.view
        size = view.page_size(page)
        corner = view.page_rect(page)
        zoom = corner.width() / size[0]
        other = ((end.x() - corner.x()) / zoom, size[1] - (end.y() - corner.y()) / zoom)
        rect = geometry.spanned((x, y), other, size)
        if rect[2] - rect[0] < SMALLEST or rect[3] - rect[1] < SMALLEST:
            return None
        return rect

    def paint(self, painter: QPainter) -> None:
        """The rectangle being dragged, dashed."""
        if self.tool != "rectangle" or self._start is None or self._end is None:
            return
        page, x, y = self._start
        corner = self.view.to_view(page, (x, y, x, y)).topLeft()
        colour = QColor(self.view.palette().color(self.view.palette().ColorRole.Highlight))
        painter.setPen(QPen(colour, 1.5, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(corner, self._end).normalized())

    def image(self, page: int, rect: Rect) -> bytes | None:
        """What `rect` frames on the page as the view shows it, as PNG, or None when
        the page is not drawn yet."""
        image = self.view.rendered_image(page)
        if image is None:
            return None
        return cropped_png(image, self.view.page_size(page), rect, self.view.dark_pages())


def cropped_png(image: QImage, size: tuple[float, float], rect: Rect, dark: bool) -> bytes:
    """The part `rect` (points) of a page's `image` (the page of `size` points), its
    colours put back if the page is shown inverted, scaled to `IMAGE_SCALE` pixels a
    point (at most `IMAGE_SIDE_MAX` a side), as PNG."""
    width, height = size
    across, down = image.width() / width, image.height() / height
    left, bottom, right, top = rect
    x, y = math.floor(left * across), math.floor((height - top) * down)
    area = QRect(x, y, math.ceil(right * across) - x, math.ceil((height - bottom) * down) - y)
    part = image.copy(area.intersected(image.rect()))
    if dark:
        part.invertPixels()
    wanted = (right - left) * IMAGE_SCALE, (top - bottom) * IMAGE_SCALE
    shrink = min(1.0, IMAGE_SIDE_MAX / max(wanted))
    part = part.scaled(QSize(max(1, round(wanted[0] * shrink)), max(1, round(wanted[1] * shrink))),
                       Qt.AspectRatioMode.IgnoreAspectRatio,
                       Qt.TransformationMode.SmoothTransformation)
    part.setDevicePixelRatio(1.0)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    part.save(buffer, "PNG")  # type: ignore[call-overload]  # (the stubs want bytes)
    return bytes(buffer.data().data())
