"""PDFium's side of the reader: one opened PDF, worked on by one thread.

PDFium is not thread-safe, not even for two documents, so every call to it, for every
reader tab, runs on the one thread of a shared serial queue (a `TaskManager`'s write
queue); the GUI thread never calls it. Results come back to the GUI thread through the
queue's relay, and a result for a widget deleted meanwhile is dropped there.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from papershelf.gui.qt import QColor, QCoreApplication, QImage, QPainter, alive
from papershelf.gui.workers import Failed, Job, TaskManager
from papershelf.reading import document

Rect = document.Rect
HEADINGS_MAX = 10_000
LINKS_MAX = 2_000  # a page's
DARK_GROUND = "#1e1f22"  # (appearance.dark_palette's Base)
_XYZ = 1  # (PDFDEST_VIEW_XYZ: a destination with a place on its page)


@dataclass(frozen=True)
class Place:
    """A place in the document: a page (from 0) and how high on it (points from its
    bottom; None: its top)."""

    page: int
    top: float | None = None


@dataclass(frozen=True)
class Heading:
    """An entry of the document's outline (its table of contents)."""

    level: int
    title: str
    place: Place | None


@dataclass(frozen=True)
class Link:
    """A link on a page: its rectangle, and where it goes (a place in the document) or
    what it opens (a URI)."""

    rect: Rect
    place: Place | None
    uri: str = ""


@dataclass(frozen=True)
class Layout:
    """What the view needs before any page is drawn: each page's size in points (width,
    height) and its label; the outline."""

    sizes: list[tuple[float, float]]
    labels: list[str]
    headings: list[Heading] = field(default_factory=list)


@dataclass(frozen=True)
class PageText:
    """A page's characters as PDFium reads them, each with its box in points (left,
    bottom, right, top; an empty box for a character without one, a line break)."""

    page: int
    text: str
    boxes: list[Rect]
    links: list[Link] = field(default_factory=list)


@dataclass(frozen=True)
class Hit:
    """Where the text looked for is: its page and rectangles (one per line)."""

    page: int
    rects: tuple[Rect, ...]


_queue: list[TaskManager] = []


def pdfium_queue() -> TaskManager:
    """The one queue every call to PDFium runs on (made at first use, the application's
    child)."""
    if not _queue or not alive(_queue[0].run):  # (first use, or a new application)
        _queue[:] = [TaskManager(QCoreApplication.instance())]
    return _queue[0]


class _File:
    """The document as the PDFium thread holds it: opened by the first task, closed by
    the last; only ever touched on that thread."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.closed = False
        self._stack: Any = None
        self._document: Any = None

    def document(self) -> Any:
        if self._document is None:
            if self.closed:
                raise RuntimeError("the reader's PDF is closed")
            manager = document.opened(self.path)
            self._document = manager.__enter__()
            self._stack = manager
        return self._document

    def close(self) -> None:
        self.closed = True
        if self._stack is not None:
            self._stack.__exit__(None, None, None)
        self._stack = self._document = None


def _layout(file: _File) -> Layout:
    pdf = file.document()
    sizes = []
    for index in range(len(pdf)):
        try:
            width, height = pdf.get_page_size(index)
        except Exception:  # (a damaged page: drawn blank at a usual size)
            width, height = 612.0, 792.0
        sizes.append((float(width) or 612.0, float(height) or 792.0))
    return Layout(sizes, document.page_labels(pdf), _headings(pdf))


def _headings(pdf: Any) -> list[Heading]:
    """The outline, at most HEADINGS_MAX entries (a damaged one: as far as it reads)."""
    found: list[Heading] = []
    try:
        for bookmark in pdf.get_toc(max_depth=16):
            if len(found) >= HEADINGS_MAX:
                break
            dest = bookmark.get_dest()
            place = None
            if dest is not None:
                index, (mode, view) = dest.get_index(), dest.get_view()
                if index is not None and 0 <= index < len(pdf):
                    top = float(view[1]) if mode == _XYZ and len(view) > 1 and view[1] else None
                    place = Place(index, top)
            found.append(Heading(int(bookmark.level), bookmark.get_title() or "", place))
    except Exception:  # (a broken outline leaves the pages readable)
        pass
    return found


def _links(pdf: Any, page: Any) -> list[Link]:
    """The page's links (PDFium's link annotations): to a place, or a URI."""
    import pypdfium2.raw as raw

    found: list[Link] = []
    position = ctypes.c_int(0)
    link = raw.FPDF_LINK()
    while len(found) < LINKS_MAX and raw.FPDFLink_Enumerate(
            page.raw, ctypes.byref(position), ctypes.byref(link)):
        box = raw.FS_RECTF()
        if not raw.FPDFLink_GetAnnotRect(link, ctypes.byref(box)):
            continue
        rect = (float(box.left), float(min(box.bottom, box.top)), float(box.right),
                float(max(box.bottom, box.top)))
        dest = raw.FPDFLink_GetDest(pdf.raw, link)
        action = raw.FPDFLink_GetAction(link)
        uri = ""
        if not dest and action:
            kind = raw.FPDFAction_GetType(action)
            if kind == raw.PDFACTION_GOTO:
                dest = raw.FPDFAction_GetDest(pdf.raw, action)
            elif kind == raw.PDFACTION_URI:
                size = raw.FPDFAction_GetURIPath(pdf.raw, action, None, 0)
                buffer = ctypes.create_string_buffer(size)
                raw.FPDFAction_GetURIPath(pdf.raw, action, buffer, size)
                uri = buffer.value.decode("utf-8", "replace")
        place = _place(pdf, dest) if dest else None
        if place is not None or uri:
            found.append(Link(rect, place, uri))
    return found


def _place(pdf: Any, dest: Any) -> Place | None:
    import pypdfium2.raw as raw

    index = raw.FPDFDest_GetDestPageIndex(pdf.raw, dest)
    if not 0 <= index < len(pdf):
        return None
    has_x, has_y, has_zoom = raw.FPDF_BOOL(), raw.FPDF_BOOL(), raw.FPDF_BOOL()
    x, y, zoom = raw.FS_FLOAT(), raw.FS_FLOAT(), raw.FS_FLOAT()
    if raw.FPDFDest_GetLocationInPage(dest, has_x, has_y, has_zoom, x, y, zoom) and has_y.value:
        return Place(index, float(y.value))
    return Place(index)


def _render(file: _File, page_index: int, scale: float, dark: bool) -> QImage:
    page = file.document()[page_index]
    try:
        bitmap = page.render(scale=scale, may_draw_forms=True, rev_byteorder=True,
                             prefer_bgrx=True)
        image = QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride,
                       QImage.Format.Format_RGBX8888).copy()  # (before the bitmap goes)
        bitmap.close()
    finally:
        page.close()
    if dark:
        # Colours inverted (black ink turns white; a hue turns to its complement),
        # then black lifted to the dark palette's ground, less harsh than pure black.
        image.invertPixels()
        painter = QPainter(image)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Lighten)
        painter.fillRect(image.rect(), QColor(DARK_GROUND))
        painter.end()
    return image


def _text(file: _File, page_index: int) -> PageText:
    page = file.document()[page_index]
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count > 0 else ""
        if len(text) != count:  # (a character outside the BMP: read them one by one)
            text = "".join(textpage.get_text_range(i, 1)[:1] or " " for i in range(count))
        boxes = []
        for i in range(count):
            if text[i] in "\r\n":
                boxes.append((0.0, 0.0, 0.0, 0.0))
                continue
            left, bottom, right, top = textpage.get_charbox(i)
            boxes.append((float(left), float(bottom), float(right), float(top)))
        return PageText(page_index, text, boxes, _links(file.document(), page))
    finally:
        textpage.close()
        page.close()


def _search(file: _File, query: str, job: Job) -> list[Hit]:
    pdf = file.document()
    hits: list[Hit] = []
    for index in range(len(pdf)):
        if job.cancelled():
            break
        try:
            hits.extend(_search_page(pdf, index, query))
        except Exception:  # (a page PDFium cannot read: the others are searched)
            continue
    return hits


def _search_page(pdf: Any, index: int, query: str) -> list[Hit]:
    page = pdf[index]
    textpage = page.get_textpage()
    hits = []
    try:
        searcher = textpage.search(query, match_case=False)
        found = searcher.get_next()
        while found is not None:
            at, count = found
            rects = []
            for n in range(textpage.count_rects(at, count)):
                left, bottom, right, top = textpage.get_rect(n)
                rects.append((float(left), float(bottom), float(right), float(top)))
            hits.append(Hit(index, tuple(rects)))
            found = searcher.get_next()
        searcher.close()
    finally:
        textpage.close()
        page.close()
    return hits


class Pdf:
    """The GUI thread's handle on one PDF: each method queues work on the PDFium thread
    and calls `on_done` with its result in the GUI thread (never after `close`)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._file = _File(str(path))
        self._closed = False

    def _run(self, work: Callable[[Job], Any], on_done: Callable[[Any], None],
             on_error: Failed | None = None) -> Job:
        def done(result: Any) -> None:
            if not self._closed:
                on_done(result)

        def failed(error: BaseException) -> None:
            if self._closed:
                return
            if on_error is None:
                raise error
            on_error(error)

        return pdfium_queue().run(work, done, failed, write=True)

    def open(self, on_done: Callable[[Layout], None], on_error: Failed) -> None:
        """Open the file: `on_done(Layout)`, or `on_error(PdfError)` (one line)."""
        self._run(lambda _job: _layout(self._file), on_done, on_error)

    def render(self, page_index: int, scale: float, dark: bool,
               on_done: Callable[[QImage], None], on_error: Failed) -> Job:
        """Render a page at `scale` device pixels per point (inverted when `dark`); the
        job returned cancels it while it waits."""
        def work(job: Job) -> QImage | None:
            if job.cancelled() or self._file.closed:
                return None
            return _render(self._file, page_index, scale, dark)

        def done(image: QImage | None) -> None:
            if image is not None:
                on_done(image)

        return self._run(work, done, on_error)

    def text(self, page_index: int, on_done: Callable[[PageText], None],
             on_error: Failed) -> None:
        """A page's characters and their boxes."""
        def done(found: PageText | None) -> None:
            if found is not None:
                on_done(found)

        self._run(lambda _job: None if self._file.closed else _text(self._file, page_index),
                  done, on_error)

    def search(self, query: str, on_done: Callable[[list[Hit]], None]) -> Job:
        """Every place `query` is (ignoring case), page by page."""
        return self._run(
            lambda job: [] if self._file.closed else _search(self._file, query, job),
            on_done)

    def close(self) -> None:
        """Deliver nothing more, and close the file on the PDFium thread after the work
        queued before."""
        self._closed = True
        file = self._file
        file.closed = True
        pdfium_queue().run(lambda _job: file.close(), write=True)
