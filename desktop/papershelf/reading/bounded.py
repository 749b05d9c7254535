"""Work on one PDF file in a worker process, bounded in time and memory.

PDFium and pypdf can spend a long time on a hostile file (a page of one huge content
stream, a decompression bomb) and cannot be interrupted in this process; the worker is
killed at the deadline, its address space is capped where the system allows
(RLIMIT_AS), and its failure is one `PdfError` line naming the file.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from papershelf.metadata.pdftext import PdfError

T = TypeVar("T")
SECONDS = 60.0
MEMORY = 2 << 30


def cap_memory(memory: int) -> None:
    """Cap this process's address space at `memory` bytes, where the system allows."""
    with contextlib.suppress(Exception):  # (not everywhere: Windows has no RLIMIT_AS)
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def _serve(conn: Any, function: Callable[..., Any], args: tuple[Any, ...],
           memory: int) -> None:
    cap_memory(memory)
    try:
        conn.send(("done", function(*args)))
    except PdfError as error:
        conn.send(("error", error.problem))
    except MemoryError:
        conn.send(("memory", ""))
    except Exception as error:  # (a file that breaks the engine: one line)
        conn.send(("broken", type(error).__name__))
    finally:
        conn.close()


def call(function: Callable[..., T], path: str | os.PathLike[str], *args: Any,
         seconds: float = SECONDS, memory: int = MEMORY) -> T:
    """`function(path, *args)` in a worker process (a module-level function: it is
    pickled), within `seconds` and `memory` bytes; its result, or PdfError."""
    name = Path(path).name
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=False)
    process = context.Process(target=_serve, daemon=True,
                              args=(theirs, function, (path, *args), memory))
    try:
        process.start()
    except OSError:  # (no process can be started here: a sandbox)
        return function(path, *args)
    theirs.close()
    try:
        if not ours.poll(seconds):
            raise PdfError("PDF", f"{name} took longer than {seconds:g} s to read: "
                           "it was left")
        try:
            kind, value = ours.recv()
        except EOFError:
            raise PdfError("PDF", f"{name} needs too much memory to read") from None
    finally:
        ours.close()
        process.kill()
        process.join()
        process.close()
    if kind == "done":
        return value  # type: ignore[no-any-return]
    if kind == "error":
        raise PdfError("PDF", value)
    if kind == "memory":
        raise PdfError("PDF", f"{name} needs too much memory to read")
    raise PdfError("PDF", f"{name} is damaged ({value})")
