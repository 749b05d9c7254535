"""The reader's PDFium in a worker process of its own, so that a hostile PDF cannot take
the window with it.

PDFium can crash on a damaged file, spend minutes on one page, or inflate a small
stream into gigabytes, none of which can be stopped inside the caller's process. So one
long-lived worker (`Server`, started at its first request) holds the opened documents
and answers one request at a time: a document's layout, a page rendered into plain
bytes, a page's characters with their boxes and links, the places a query is. Its
address space is capped (RLIMIT_AS, where the system allows) and each request has a
deadline: a worker that crashes, runs out of memory or misses the deadline is killed,
the request's file is `Lost` (one line naming it), and the next request starts a fresh
worker, where every other document (`Remote`) opens again by itself.

No Qt here: what crosses the pipe is bytes, numbers and the dataclasses below.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import multiprocessing
import os
import signal
import tempfile
import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from papershelf.messages import Text, text
from papershelf.metadata.pdftext import PdfError
from papershelf.reading import bounded, document

Rect = document.Rect
SECONDS = 30.0  # a request's deadline
MEMORY = bounded.MEMORY  # the worker's address space
HEADINGS_MAX = 10_000
LINKS_MAX = 2_000  # a page's
PIXELS_MAX = 100 << 20  # a page rendered larger crosses the pipe (the view asks ≤ 96 MB)
CHARS_MAX = 30_000  # a page's characters read (a dense page has some 10,000)
HITS_MAX = 10_000  # places found by one search
SEARCH_PAGES = 25  # pages searched by one request (a search stops between two)
_XYZ = 1  # (PDFDEST_VIEW_XYZ: a destination with a place on its page)
_NO_BOX = (0.0, 0.0, 0.0, 0.0)  # (a line break's)


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
    bottom, right, top; an empty box for a character without one, a line break).

    The boxes cross the pipe as one flat run of doubles (`flat`, four a character:
    bytes, not thousands of small objects to pickle and collect); `boxes` makes them
    rectangles when first asked for (a selection, a link looked for), not before."""

    page: int
    text: str
    flat: bytes = b""
    links: list[Link] = field(default_factory=list)

    @cached_property
    def boxes(self) -> list[Rect]:
        values = array("d")
        values.frombytes(self.flat)
        return list(zip(values[0::4], values[1::4], values[2::4], values[3::4], strict=True))


@dataclass(frozen=True)
class Hit:
    """Where the text looked for is: its page and rectangles (one per line)."""

    page: int
    rects: tuple[Rect, ...]


@dataclass(frozen=True)
class Bitmap:
    """A rendered page: BGRX bytes, `stride` bytes a row (or what the `Server`'s `take`
    made of them)."""

    data: Any
    width: int
    height: int
    stride: int


@dataclass(frozen=True)
class Fit:
    """The scale a view shows a new document's pages at before it knows their sizes:
    the widest page `pixels` wide (within `zoom_min`..`zoom_max` pixels per point) on a
    screen of `ratio` device pixels a pixel."""

    pixels: float
    ratio: float = 1.0
    zoom_min: float = 0.0
    zoom_max: float = float("inf")

    def zoom(self, sizes: list[tuple[float, float]]) -> float:
        widest = max((w for w, _h in sizes), default=1.0)
        return max(self.zoom_min, min(self.pixels / widest, self.zoom_max))

    def scale(self, sizes: list[tuple[float, float]]) -> float:
        return self.zoom(sizes) * self.ratio


def unreadable(name: str, why: Text) -> Text:
    """The line of a file the worker died on: "paper.pdf: this PDF could not be read (…)"."""
    return text("{name}: this PDF could not be read ({why})", name=name, why=why)


class Lost(PdfError):
    """The worker died on this file (crashed, out of memory, out of time): the file is
    given up, the other documents open again in a new worker. Its line names the file
    first ("paper.pdf: this PDF could not be read (…)")."""

    @property
    def message(self) -> Text:
        problem = self.problem  # (it names the file already: no "PDF: " before it)
        return problem if isinstance(problem, Text) else text("{problem}", problem=problem)

    def __str__(self) -> str:
        return str(self.problem)


# -- in the worker


def _layout(pdf: Any) -> Layout:
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


class _Documents:
    """The worker's opened documents, by the number each was given."""

    def __init__(self, pixels: mmap.mmap | None = None) -> None:
        self.open: dict[int, tuple[str, Any]] = {}
        self.pixels = pixels
        self._next = 0

    def page(self, number: int, index: int) -> tuple[Any, Any]:
        name, pdf = self.open[number]
        if not 0 <= index < len(pdf):
            raise PdfError("PDF", f"{name} has no page {index + 1}")
        try:
            return pdf, pdf[index]
        except Exception:  # (PDFium could not load it)
            raise PdfError("PDF", f"page {index + 1} of {name} is damaged") from None

    def do_open(self, path: str, password: str | None) -> tuple[int, Layout]:
        pdf = document.open_document(path, password)
        self._next += 1
        self.open[self._next] = (Path(path).name, pdf)
        return self._next, _layout(pdf)

    def do_close(self, number: int) -> None:
        _name, pdf = self.open.pop(number, ("", None))
        if pdf is not None:
            pdf.close()

    def do_render(self, number: int, index: int, scale: float) -> Bitmap:
        _pdf, page = self.page(number, index)
        try:
            # (BGRX: a QImage's RGB32 on a little-endian machine, painted without
            # converting its pixels)
            bitmap = page.render(scale=scale, may_draw_forms=True, prefer_bgrx=True)
            try:
                size = bitmap.stride * bitmap.height
                data = b""  # (in `pixels`, the caller's too)
                if self.pixels is not None and size <= len(self.pixels):
                    self.pixels[:size] = memoryview(bitmap.buffer).cast("B")
                else:
                    data = bytes(bitmap.buffer)
                return Bitmap(data, bitmap.width, bitmap.height, bitmap.stride)
            finally:
                bitmap.close()
        finally:
            page.close()

    def do_text(self, number: int, index: int) -> PageText:
        pdf, page = self.page(number, index)
        textpage = page.get_textpage()
        try:
            text = document.page_text(textpage, CHARS_MAX)
            flat = array("d")
            for i, char in enumerate(text):
                flat.extend(_NO_BOX if char in "\r\n" else textpage.get_charbox(i))
            return PageText(index, text, flat.tobytes(), _links(pdf, page))
        finally:
            textpage.close()
            page.close()

    def do_search(self, number: int, query: str, start: int, stop: int, limit: int
                  ) -> list[Hit]:
        hits: list[Hit] = []
        for index in range(start, min(stop, len(self.open[number][1]))):
            if len(hits) >= limit:
                break
            try:
                _pdf, page = self.page(number, index)
            except PdfError:  # (a page PDFium cannot read: the others are searched)
                continue
            textpage = page.get_textpage()
            try:
                searcher = textpage.search(query, match_case=False)
                found = searcher.get_next()
                while found is not None and len(hits) < limit:
                    at, count = found
                    hits.append(Hit(index, tuple(document.line_rects(textpage, at, count,
                                                                     None))))
                    found = searcher.get_next()
                searcher.close()
            finally:
                textpage.close()
                page.close()
        return hits


def _mapped(path: str) -> mmap.mmap | None:
    """The file at `path` mapped (None: no file, or it cannot be)."""
    if not path:
        return None
    try:
        with open(path, "r+b") as file:
            return mmap.mmap(file.fileno(), 0)
    except (OSError, ValueError):
        return None


def serve(conn: Any, memory: int, pixels: str = "") -> None:
    """The worker: say `("ready", None)` once the file `pixels` (where rendered pages are
    written, the caller reading them there) is mapped, then answer requests `(operation,
    arguments)` until the pipe closes, each with `("done", result)`, `("error",
    PdfError)`, `("memory", "")` or `("broken", the exception's name)`."""
    bounded.cap_memory(memory)
    documents = _Documents(_mapped(pixels))
    try:
        conn.send(("ready", None))
    except OSError:  # (the caller is gone)
        return
    while True:
        try:
            operation, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("done", getattr(documents, "do_" + operation)(*args))
        except PdfError as error:
            reply = ("error", error)
        except MemoryError:
            reply = ("memory", "")
        except Exception as error:  # (a file that breaks the engine: one line)
            reply = ("broken", type(error).__name__)
        try:
            conn.send(reply)
        except MemoryError:
            conn.send(("memory", ""))
        except OSError:  # (the caller is gone)
            return


# -- in the caller


def _pixels_file() -> tuple[str, mmap.mmap | None]:
    """A file of PIXELS_MAX bytes (sparse, in memory where /dev/shm is) that the worker
    writes rendered pages into, and its mapping here; ("", None) where none can be made
    (then the pages cross the pipe)."""
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
    try:
        handle, path = tempfile.mkstemp(prefix="papershelf-pages-", dir=folder)
    except OSError:
        return "", None
    try:
        os.ftruncate(handle, PIXELS_MAX)
        return path, mmap.mmap(handle, PIXELS_MAX)
    except (OSError, ValueError):
        os.unlink(path)
        return "", None
    finally:
        os.close(handle)


Take = Callable[[memoryview, int, int, int], Any]


def _bytes(pixels: memoryview, _width: int, _height: int, _stride: int) -> bytes:
    return bytes(pixels)


class Server:
    """The caller's end of the worker: `ask` sends one request and waits for its answer
    (from any thread, one at a time), starting the worker if need be. A page rendered
    is taken out of the file the worker wrote it to by `take(pixels, width, height,
    stride)` (its bytes by default; the reader's window makes its image there, the
    pixels copied once)."""

    def __init__(self, seconds: float = SECONDS, memory: int = MEMORY,
                 take: Take = _bytes) -> None:
        self.seconds = seconds
        self.memory = memory
        self.take = take
        self.generation = 0  # (one more each time a worker starts)
        self._lock = threading.RLock()
        self._process: Any = None
        self._conn: Any = None
        self._killed = False  # (by `kill`: stopped at the next request)
        self._pixels: mmap.mmap | None = None

    def pid(self) -> int | None:
        """The worker's process id (None: none runs)."""
        process = self._process
        return None if process is None else int(process.pid)

    def start(self) -> None:
        with self._lock:
            if self._process is not None:
                return
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            path, self._pixels = _pixels_file()
            process = context.Process(target=serve, args=(theirs, self.memory, path),
                                      daemon=True, name="papershelf-pdfium")
            try:
                process.start()
                theirs.close()
                self._process, self._conn = process, ours
                self.generation += 1
                if ours.poll(self.seconds):  # (its "ready": the pixels' file mapped)
                    ours.recv()
            except (EOFError, OSError):
                pass  # (no process here, or it died at once: `ask` says so)
            finally:
                if path:
                    with contextlib.suppress(OSError):
                        os.unlink(path)  # (nothing left behind, whatever happens)

    def ask(self, name: str, operation: str, *args: Any) -> Any:
        """`operation(*args)` done by the worker, for the file called `name`: its result,
        its PdfError, or `Lost` when the worker died on it (then stopped)."""
        with self._lock:
            if self._killed:
                self.stop()
            self.start()
            conn = self._conn
            if conn is None:
                raise Lost("PDF", unreadable(name, text("no worker process can be started here")))
            try:
                conn.send((operation, args))
                kind, value = "ready", None
                while kind == "ready":  # (a worker slow to start says it late)
                    if not conn.poll(self.seconds):
                        self.stop()
                        raise Lost("PDF", unreadable(name, text("it took longer than {seconds} s",
                                                              seconds=f"{self.seconds:g}")))
                    kind, value = conn.recv()
            except (EOFError, OSError):
                raise Lost("PDF", unreadable(name, self._death())) from None
            if kind == "done":
                value = self._fetched(value)
        if kind == "done":
            return value
        if kind == "error" and isinstance(value, PdfError):
            raise value
        self.stop()
        if kind == "memory":
            raise Lost("PDF", unreadable(name, text("it needs more than {gb} GB of memory",
                                                  gb=f"{self.memory / (1 << 30):g}")))
        raise Lost("PDF", unreadable(name, text("it is damaged: {error}", error=value)))

    def _fetched(self, value: Any) -> Any:
        """A reply with its bitmap's pixels read from the shared file (once: the
        caller's copy), in place of the empty bytes that crossed the pipe."""
        if isinstance(value, tuple):
            return tuple(self._fetched(item) for item in value)
        if isinstance(value, Bitmap) and not value.data and self._pixels is not None:
            size = value.stride * value.height
            with memoryview(self._pixels) as pixels, pixels[:size] as page:
                data = self.take(page, value.width, value.height, value.stride)
            return Bitmap(data, value.width, value.height, value.stride)
        return value

    def _death(self) -> Text:
        """Why the worker is gone (it is stopped)."""
        process = self._process
        code = None
        if process is not None:
            process.join(2)
            code = process.exitcode
        self.stop()
        if code == -signal.SIGKILL:
            return text("its reader was killed")
        if code is not None and code < 0:
            return text("it crashed the reader: {signal}", signal=signal.Signals(-code).name)
        return text("its reader stopped")

    def alive(self, generation: int) -> bool:
        """Whether the worker of that generation still runs."""
        return (self._process is not None and generation == self.generation
                and not self._killed)

    def kill(self) -> None:
        """Kill the worker now, from any thread, without waiting for the request it is
        on (which fails): the next request starts another."""
        self._killed = True
        process = self._process
        if process is not None:
            with contextlib.suppress(Exception):  # (gone meanwhile)
                process.kill()

    def stop(self) -> None:
        """Kill the worker (the next request starts another)."""
        with self._lock:
            process, conn = self._process, self._conn
            self._process = self._conn = None
            self._killed = False
            if conn is not None:
                conn.close()
            if process is not None:
                process.kill()
                process.join()
                process.close()
            if self._pixels is not None:
                self._pixels.close()
                self._pixels = None


class Remote:
    """One PDF as the worker holds it, opened again in a new worker after a restart,
    unless the worker died on this file: then every request raises that `Lost`."""

    def __init__(self, server: Server, path: str, password: str | None = None) -> None:
        self.server = server
        self.path = path
        self.name = Path(path).name
        self.password = password
        self.lost: Lost | None = None
        self._number = 0
        self._generation = -1

    def _ask(self, operation: str, *args: Any) -> Any:
        if self.lost is not None:
            raise self.lost
        try:
            if not self.server.alive(self._generation):
                self._number, _layout = self.server.ask(self.name, "open", self.path,
                                                        self.password)
                self._generation = self.server.generation
            return self.server.ask(self.name, operation, self._number, *args)
        except Lost as error:
            self.lost = error
            raise

    def open(self, password: str | None = None) -> Layout:
        """Open the file (with `password`): its layout, or PdfError."""
        if self.lost is not None:
            raise self.lost
        self.password = password
        try:
            if self.server.alive(self._generation):
                self.server.ask(self.name, "close", self._number)
            number, layout = self.server.ask(self.name, "open", self.path, password)
        except Lost as error:
            self.lost = error
            raise
        self._number, self._generation = number, self.server.generation
        return layout  # type: ignore[no-any-return]

    def render(self, index: int, scale: float) -> Bitmap:
        return self._ask("render", index, scale)  # type: ignore[no-any-return]

    def text(self, index: int) -> PageText:
        return self._ask("text", index)  # type: ignore[no-any-return]

    def search(self, query: str, pages: int, cancelled: Callable[[], bool]) -> list[Hit]:
        """Every place `query` is (ignoring case) on the `pages` pages, a few pages a
        request, until `cancelled()`; the first HITS_MAX."""
        hits: list[Hit] = []
        for start in range(0, pages, SEARCH_PAGES):
            if cancelled() or len(hits) >= HITS_MAX:
                break
            hits.extend(self._ask("search", query, start, start + SEARCH_PAGES,
                                  HITS_MAX - len(hits)))
        return hits

    def close(self) -> None:
        """Close the file in the worker (none is started for that)."""
        if self.lost is None and self.server.alive(self._generation):
            with contextlib.suppress(PdfError):
                self.server.ask(self.name, "close", self._number)
        self._generation = -1
