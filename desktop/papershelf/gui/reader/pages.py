"""The reader's side of PDFium: one opened PDF, worked on in the worker process of
`reading.server`, which no hostile file can take the window down with.

Requests to the worker go one at a time from one thread of a shared serial queue (a
`TaskManager`'s write queue), so the GUI thread never waits on the worker. Results come
back to the GUI thread through the queue's relay (a rendered page's bytes made a
QImage on the way), and a result for a document closed meanwhile is dropped there. When
the worker dies on a file (`Lost`), its view is told once, through the error handler
`open` was given; the other documents open again in the next worker.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from papershelf.gui.qt import (
    QColor,
    QCoreApplication,
    QImage,
    QPainter,
    QSize,
    QThreadPool,
    alive,
)
from papershelf.gui.workers import Failed, Job, TaskManager
from papershelf.metadata.pdftext import PdfError
from papershelf.reading import server
from papershelf.reading.document import Encrypted
from papershelf.reading.server import (
    Fit,
    Heading,
    Hit,
    Layout,
    Link,
    Lost,
    PageText,
    Place,
    Rect,
)

__all__ = ["DARK_GROUND", "Encrypted", "First", "Fit", "Heading", "Hit", "Layout", "Link", "Lost",
           "PageText", "Pdf", "Place", "Rect", "Showing", "pdfium_queue", "render_server"]

DARK_GROUND = "#1e1f22"  # (appearance.dark_palette's Base)
FIT_WAIT = 0.3  # seconds the first request waits for its view to be sized

_queue: list[TaskManager] = []
_server: list[server.Server] = []
_open: set[int] = set()  # (the documents not closed, by id)


def pdfium_queue() -> TaskManager:
    """The one queue every request to the worker is sent from (made at first use, the
    application's child)."""
    if not _queue or not alive(_queue[0].run):  # (first use, or a new application)
        _queue[:] = [TaskManager(QCoreApplication.instance())]
    return _queue[0]


def render_server() -> server.Server:
    """The application's one worker process (started by its first request)."""
    if not _server:
        _server.append(server.Server(take=_taken))
    return _server[0]


def _taken(pixels: memoryview, width: int, height: int, stride: int) -> QImage | bytes:
    """A page's pixels, as the worker wrote them, copied once into an image of their
    own (their bytes where the image's rows are not laid out as theirs): the spare
    image made beforehand when it is that size. A new image's memory costs more than
    the copy (the system maps it in page by page, some 2 ms for a page on the screen),
    so the next page's spare, of the same size, is made meanwhile beside the queue."""
    made = _spare.pop() if _spare and _spare[-1].size() == QSize(width, height) else None
    if made is None:
        made = QImage(width, height, QImage.Format.Format_RGB32)
    if made.isNull() or made.bytesPerLine() != stride:
        return bytes(pixels)
    size = stride * height
    with memoryview(made.bits()) as bits:
        # (ctypes lets go of the interpreter's lock while it copies: the window's
        # thread goes on meanwhile, where a memoryview's copy would hold it)
        ctypes.memmove((ctypes.c_char * size).from_buffer(bits.cast("B")),
                       (ctypes.c_char * size).from_buffer(pixels), size)
    QThreadPool.globalInstance().start(partial(_make_spare, width, height))
    return made


_spare: list[QImage] = []  # (at most one)


def _make_spare(width: int, height: int) -> None:
    spare = QImage(width, height, QImage.Format.Format_RGB32)
    if spare.isNull():
        return
    with memoryview(spare.bits()) as bits:  # (its memory mapped in now, by ctypes: the
        # interpreter's lock let go meanwhile, the window's thread not held up)
        ctypes.memset((ctypes.c_char * spare.sizeInBytes()).from_buffer(bits.cast("B")), 0,
                      spare.sizeInBytes())
    _spare[:] = [spare]


class Showing:
    """The scale a view shows its pages at (`Fit`), told by the GUI thread once the view
    is sized (`sized`) and read by the queue's thread once the file is open (`fit`),
    which waits a little for it: a view opens its file while it is being made, not
    once it is shown, and its first page is rendered next, before any other request."""

    def __init__(self) -> None:
        self._fit: Fit | None = None
        self._known = threading.Event()

    def sized(self, fit: Fit) -> None:
        self._fit = fit
        self._known.set()

    def fit(self) -> Fit | None:
        """The fit (None: the view was not sized within FIT_WAIT seconds)."""
        self._known.wait(FIT_WAIT)
        return self._fit


@dataclass(frozen=True)
class First:
    """The first page, rendered with the layout: its scale and image."""

    scale: float
    image: QImage
    dark: bool


def image(bitmap: server.Bitmap, dark: bool) -> QImage:
    """A rendered page as an image (inverted when `dark`)."""
    image = bitmap.data
    if not isinstance(image, QImage):  # (its bytes, through the pipe: made its own)
        image = QImage(image, bitmap.width, bitmap.height, bitmap.stride,
                       QImage.Format.Format_RGB32).copy()  # (drawn unconverted)
    if dark:
        # Colours inverted (black ink turns white; a hue turns to its complement),
        # then black lifted to the dark palette's ground, less harsh than pure black.
        image.invertPixels()
        painter = QPainter(image)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Lighten)
        painter.fillRect(image.rect(), QColor(DARK_GROUND))
        painter.end()
    return image


class Pdf:
    """The GUI thread's handle on one PDF: each method queues a request to the worker
    and calls `on_done` with its result in the GUI thread (never after `close`)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._remote = server.Remote(render_server(), str(path))
        self._closed = False
        self._pages = 0
        self._on_lost: Failed | None = None
        _open.add(id(self))

    def _run(self, work: Callable[[Job], Any], on_done: Callable[[Any], None],
             on_error: Failed | None = None,
             on_partial: Callable[[Any], None] | None = None) -> Job:
        def done(result: Any) -> None:
            if not self._closed:
                on_done(result)

        def partly(value: Any) -> None:
            if not self._closed and on_partial is not None:
                on_partial(value)

        def failed(error: BaseException) -> None:
            if self._closed:
                return
            if isinstance(error, Lost):
                lost, self._on_lost = self._on_lost, None
                if lost is not None:  # (said once, by the view)
                    lost(error)
            elif on_error is not None:
                on_error(error)

        return pdfium_queue().run(work, done, failed, write=True, on_partial=partly)

    def open(self, on_done: Callable[[Layout], None], on_error: Failed,
             password: str | None = None, fit: Callable[[], Fit | None] = lambda: None,
             on_first: Callable[[First | None], None] = lambda _first: None,
             dark: bool = False) -> None:
        """Open the file: `on_done(Layout)`, or `on_error(PdfError)` (one line;
        `Encrypted` when it needs its password); `on_error(Lost)` later too, once, when
        the worker dies on this file. The file is opened at once; then, when `fit()`
        (asked once the layout is known: it may wait for the view to be sized) gives
        the scale the view will show the pages at, the same job renders the first
        page (inverted when `dark`) before any other request: `on_first(First)`;
        without it (or that page not drawn), `on_first(None)`."""
        self._on_lost = on_error

        def work(job: Job) -> First | None:
            if self._closed:  # (closed before it opened)
                return None
            layout = self._remote.open(password)  # (while the view is being made)
            self._pages = len(layout.sizes)
            job.partial(layout)
            showing = fit()
            if showing is None or not layout.sizes or self._closed:
                return None
            scale = showing.scale(layout.sizes)
            try:
                return First(scale, image(self._remote.render(0, scale), dark), dark)
            except Lost:
                raise
            except PdfError:  # (the view asks again and is told why)
                return None

        self._run(work, on_first, on_error, on_done)

    def render(self, page_index: int, scale: float, dark: bool,
               on_done: Callable[[QImage], None], on_error: Failed) -> Job:
        """Render a page at `scale` device pixels per point (inverted when `dark`); the
        job returned cancels it while it waits."""
        def work(job: Job) -> QImage | None:
            if job.cancelled() or self._closed:
                return None
            return image(self._remote.render(page_index, scale), dark)

        def done(found: QImage | None) -> None:
            if found is not None:
                on_done(found)

        return self._run(work, done, on_error)

    def text(self, page_index: int, on_done: Callable[[PageText], None],
             on_error: Failed) -> None:
        """A page's characters and their boxes."""
        def done(found: PageText | None) -> None:
            if found is not None:
                on_done(found)

        self._run(lambda _job: None if self._closed else self._remote.text(page_index),
                  done, on_error)

    def search(self, query: str, on_done: Callable[[list[Hit]], None]) -> Job:
        """Every place `query` is (ignoring case), page by page."""
        return self._run(
            lambda job: [] if self._closed else self._remote.search(
                query, self._pages, job.cancelled),
            on_done, lambda _error: on_done([]))

    def close(self) -> None:
        """Deliver nothing more, and close the file in the worker after the work queued
        before; the last document closed, the worker is killed at once (whatever it is
        on is not wanted: a hostile page does not hold the application's end)."""
        if self._closed:
            return
        self._closed = True
        _open.discard(id(self))
        if not _open:
            render_server().kill()
            return
        remote = self._remote
        pdfium_queue().run(lambda _job: remote.close(), write=True)
