"""A PDF's text for search, read within bounds: pages, characters, seconds and memory.

pypdf can spend seconds on one page (a small file whose pages share one huge content
stream) and cannot be interrupted, so the reading runs in a worker process (`Reader`)
that is killed at the deadline. The worker reads page after page and sends each page's
text as soon as it has it: a file that runs out of time keeps the pages read so far and
gets a note; the next file gets a fresh worker. The worker stops by itself after
`Limits.pages` pages or `Limits.chars` characters, and its memory is capped where the
system allows (RLIMIT_AS). pypdf's own warnings (its `logging` records and `warnings`)
are silenced: a damaged file is the one line of a PdfError, nothing else.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from papershelf.metadata.errors import ErrorKind, ServiceError

__all__ = ["LIMITS", "Limits", "PdfError", "Reader", "pages_text", "pdf_failures",
           "quiet_pypdf"]

log = logging.getLogger(__name__)

_UNSEEN = "; it is attached, but search does not see its text"
_POLL = 0.1  # seconds between two looks at `cancelled` while a worker reads


class PdfError(ServiceError):
    """A PDF that cannot be read (damaged, encrypted, not a PDF): one line, the file named."""

    def __init__(self, service: str, problem: str, kind: ErrorKind = "unreadable") -> None:
        super().__init__(service, problem, kind)


@dataclass(frozen=True)
class Limits:
    """How much of one PDF is read for search: at most `pages` pages and `chars`
    characters (what search keeps of a file), within `seconds`, the worker process
    using at most `memory` bytes of address space (where the system can cap it)."""

    pages: int = 1_000
    chars: int = 400_000  # core.files.TEXT_MAX (not imported: the worker starts light)
    seconds: float = 30.0
    memory: int = 1 << 30


LIMITS = Limits()


def quiet_pypdf() -> None:
    """Keep pypdf's own warnings ("EOF marker not found", ...) from the terminal: the
    caller says what went wrong, in one line naming the file."""
    pypdf_log = logging.getLogger("pypdf")
    pypdf_log.setLevel(logging.ERROR + 10)
    pypdf_log.propagate = False
    warnings.filterwarnings("ignore", module=r"pypdf(\.|$)")


@contextlib.contextmanager
def pdf_failures(file: Path) -> Iterator[None]:
    """Any failure of pypdf or PDFium reading `file` as one PdfError line naming it."""
    from pypdf.errors import PdfReadError

    try:
        yield
    except PdfError:
        raise
    except FileNotFoundError:
        raise PdfError("PDF", f"{file.name} does not exist") from None
    except OSError as error:
        raise PdfError("PDF", f"{file.name} cannot be opened ({error.strerror})") from None
    except PdfReadError as error:
        raise PdfError("PDF", f"{file.name} is damaged or not a PDF ({error})") from None
    except MemoryError:
        raise PdfError("PDF", f"{file.name} needs too much memory to read") from None
    except RecursionError:
        raise PdfError("PDF", f"{file.name} is damaged (nested too deeply)") from None
    except Exception as error:  # pypdf raises many kinds on a broken file
        log.info("reading %s failed", file, exc_info=True)
        raise PdfError("PDF", f"{file.name} is damaged ({type(error).__name__})") from None


def pages_text(path: str | os.PathLike[str], limits: Limits = LIMITS
               ) -> Iterator[str | int]:
    """The text of the PDF at `path` page after page (stripped), at most `limits.pages`
    pages and about `limits.chars` characters; then, when pages were left unread, the
    PDF's number of pages (an int). Raises PdfError naming the file when it cannot be
    read. (In this process, unbounded in time: `Reader` bounds that.)"""
    from pypdf import PdfReader

    quiet_pypdf()
    file = Path(path)
    with pdf_failures(file):
        reader = PdfReader(file)
        # Many "encrypted" PDFs only restrict printing: the empty password opens them.
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError("PDF", f"{file.name} is encrypted; its text cannot be read")
        count = len(reader.pages)
        chars = 0
        for number in range(min(count, limits.pages)):
            text = (reader.pages[number].extract_text() or "").strip()
            chars += len(text)
            yield text
            if chars >= limits.chars:
                return
        if count > limits.pages:
            yield count


def joined(pages: list[str], chars: int) -> str:
    """Pages' texts as one (a blank line between two), at most `chars` characters."""
    return "\n\n".join(text for text in pages if text)[:chars]


# -- the worker process ------------------------------------------------------------------


def _serve(conn: Connection, parent: int, limits: Limits) -> None:
    """The worker: for each path received, send ("page", text) for each page, then
    ("pages", count) when pages were left unread, then ("end", "") or ("error", line)."""
    with contextlib.suppress(Exception):  # (not everywhere: Windows has no RLIMIT_AS)
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limits.memory, limits.memory))
    with contextlib.suppress(Exception):
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the reading process decides)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    quiet_pypdf()
    while True:
        try:
            path = conn.recv()
        except (EOFError, OSError):
            return
        try:
            for part in pages_text(path, limits):
                conn.send(("pages", part) if isinstance(part, int) else ("page", part))
            conn.send(("end", ""))
        except PdfError as exc:
            conn.send(("error", str(exc)))
        except (EOFError, OSError):
            return


def _watch_parent(parent: int) -> None:
    """End the worker once the process that started it is gone."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


@dataclass(frozen=True)
class Read:
    """What reading one file gave: its text (maybe only the first pages') and, when not
    all of it was read or none could be, the one line saying so."""

    text: str
    problem: str = ""


class Reader:
    """Reads PDFs' text in a worker process, each file within `limits` (a context
    manager: the worker ends with it). A file that takes longer than `limits.seconds`
    gets the pages read by then; the worker is killed and a new one reads the next."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or LIMITS
        self._process: Any = None
        self._conn: Connection | None = None

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the worker (killed: it may be stuck inside pypdf)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process.close()
            self._process = None

    def _start(self) -> Connection | None:
        """The pipe to the worker, started if need be; None if no process can be
        started here (a sandbox): the file is then read in this process."""
        if self._conn is None:
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, daemon=True,
                                      args=(theirs, os.getpid(), self.limits))
            try:
                process.start()
            except (OSError, RuntimeError):
                log.warning("no worker process for reading PDFs", exc_info=True)
                ours.close()
                return None
            finally:
                theirs.close()
            self._process, self._conn = process, ours
        return self._conn

    def read(self, path: Path, cancelled: Callable[[], bool] | None = None) -> Read | None:
        """The text of the PDF at `path`, within the limits; None when `cancelled`."""
        conn = self._start()
        try:
            if conn is not None:
                conn.send(str(path))
        except OSError:  # the worker is gone (killed since the last file): a new one
            self.close()
            conn = self._start()
            if conn is not None:
                conn.send(str(path))
        if conn is None:
            return _in_process(path, self.limits)
        deadline = time.monotonic() + self.limits.seconds
        pages: list[str] = []
        count = 0
        while True:
            if cancelled is not None and cancelled():
                self.close()
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                return _cut(path, pages, self.limits, f"PDF: {path.name}: reading its "
                            f"text took over {self.limits.seconds:g} s")
            try:
                if not conn.poll(min(left, _POLL)):
                    continue
                what, value = conn.recv()
            except (EOFError, OSError):  # the worker died (out of memory, killed)
                self.close()
                return _cut(path, pages, self.limits,
                            f"PDF: {path.name}: reading its text needed too much memory")
            if what == "page":
                pages.append(value)
            elif what == "pages":
                count = value
            elif what == "error":
                return Read("", f"{value}{_UNSEEN}")
            else:
                return _finished(path, pages, count, self.limits)


def _in_process(path: Path, limits: Limits) -> Read:
    """`Reader.read` without a worker: bounded in pages and characters, not in time."""
    try:
        parts = list(pages_text(path, limits))
    except PdfError as exc:
        return Read("", f"{exc}{_UNSEEN}")
    pages = [part for part in parts if isinstance(part, str)]
    return _finished(path, pages, next((p for p in parts if isinstance(p, int)), 0), limits)


def _finished(path: Path, pages: list[str], count: int, limits: Limits) -> Read:
    """What reading a file to its end (or to `limits.pages` of its `count`) gave."""
    text = joined(pages, limits.chars)
    if count:
        return Read(text, f"PDF: {path.name} has {count} pages; search sees the text of "
                          f"the first {len(pages)}")
    return Read(text)


def _cut(path: Path, pages: list[str], limits: Limits, why: str) -> Read:
    """What is kept of a file whose reading was stopped: the pages read by then, and
    `why` with what search sees of it."""
    if not any(pages):
        return Read("", f"{why}{_UNSEEN}")
    return Read(joined(pages, limits.chars), f"{why}; search sees the text of its first "
                f"{len(pages)} page{'s' if len(pages) > 1 else ''}")
