"""PDFium's side of the reader: one opened PDF, worked on by one thread.

PDFium is not thread-safe, not even for two documents, so every call to it, for every
reader tab, runs on the one thread of a shared serial queue (a `TaskManager`'s write
queue); the GUI thread never calls it. Results come back to the GUI thread through the
queue's relay, and a result for a widget deleted meanwhile is dropped there.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from papershelf.gui.qt import QCoreApplication, QImage
from papershelf.gui.workers import Failed, Job, TaskManager
from papershelf.reading import document

Rect = document.Rect


@dataclass(frozen=True)
class Layout:
    """What the view needs before any page is drawn: each page's size in points (width,
    height) and its label."""

    sizes: list[tuple[float, float]]
    labels: list[str]


@dataclass(frozen=True)
class PageText:
    """A page's characters as PDFium reads them, each with its box in points (left,
    bottom, right, top; an empty box for a character without one, a line break)."""

    page: int
    text: str
    boxes: list[Rect]


@dataclass(frozen=True)
class Hit:
    """Where the text looked for is: its page and rectangles (one per line)."""

    page: int
    rects: tuple[Rect, ...]


_queue: list[TaskManager] = []


def pdfium_queue() -> TaskManager:
    """The one queue every call to PDFium runs on (made at first use, the application's
    child)."""
    if not _queue:
        _queue.append(TaskManager(QCoreApplication.instance()))
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
    return Layout(sizes, document.page_labels(pdf))


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
        image.invertPixels()
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
        return PageText(page_index, text, boxes)
    finally:
        textpage.close()
        page.close()


def _search(file: _File, query: str, job: Job) -> list[Hit]:
    pdf = file.document()
    hits: list[Hit] = []
    for index in range(len(pdf)):
        if job.cancelled():
            break
        page = pdf[index]
        textpage = page.get_textpage()
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
