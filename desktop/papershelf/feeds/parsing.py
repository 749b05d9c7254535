"""Reading a long feed on two cores: its entries in parts, most of them in a helper
process while this one reads the first part and ranks what is read.

A feed of thousands of entries takes feedparser about half a millisecond an entry, and
its many short-lived objects make the collector walk every object the process keeps
(a window's inbox and the ranking model: a full pass each answer, up to half its time).
A check (feeds.inbox.check) therefore opens a `Helper`: an answer of `SPLIT_BYTES` or
more is cut between entries into documents of their own, each with the feed's own start
(its declaration, namespaces, channel) and end (`parts`, cut where expat, after
defusedxml, says its entries start and end: nothing is guessed), the first read here
and the others in the helper's process, in order. The same feedparser reads each part
as it would the whole (an entry's reading depends on the feed's start and itself alone).
Where no process can be started, or it breaks, the parts are read here.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import threading
import time
import xml.parsers.expat
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import pairwise
from typing import Any, TypeVar

__all__ = ["SPLIT_BYTES", "Helper", "parts"]

SPLIT_BYTES = 256 * 1024  # an answer shorter than this is read whole, here
FIRST_SHARE = 0.3  # of a split answer's entries read here (then ranked while the rest come)
HELPER_PARTS = 3  # the others, in this many parts (each ranked here as it comes)
_ENTRIES = ("entry", "item")  # (Atom's, RSS's; "rdf:item" or "atom:entry" alike)
T = TypeVar("T")


def parts(content: bytes, shares: tuple[float, ...]) -> list[bytes] | None:
    """`content`, a well-formed feed, as feeds of its entries in turn (each of about its
    share of them), each with the feed's own start and end; None when it has too few
    entries, or is not in an encoding where an end tag's ">" is a byte of its own."""
    if not content.startswith((b"<", b"\xef\xbb\xbf<")):
        return None  # (UTF-16 and the like: read whole)
    parser = xml.parsers.expat.ParserCreate()
    starts: list[int] = []
    ends: list[int] = []
    depth = 0
    entry_depth = -1

    def start(name: str, _attributes: Any) -> None:
        nonlocal depth, entry_depth
        depth += 1
        if entry_depth < 0 and name.rpartition(":")[2] in _ENTRIES:
            entry_depth = depth
            starts.append(parser.CurrentByteIndex)

    def end(_name: str) -> None:
        nonlocal depth, entry_depth
        if depth == entry_depth:
            entry_depth = -1
            ends.append(parser.CurrentByteIndex)
        depth -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(content, True)
    except xml.parsers.expat.ExpatError:
        return None
    if len(starts) < 2 * len(shares) or len(ends) != len(starts) \
            or content[ends[-1]:ends[-1] + 2] != b"</":
        return None  # (a last entry that is an empty tag has no title: not worth it)
    last = content.index(b">", ends[-1]) + 1
    head, tail = content[:starts[0]], content[last:]
    cuts, done = [0], 0.0
    for share in shares[:-1]:
        done += share
        cuts.append(max(cuts[-1] + 1, min(len(starts) - 1, round(done * len(starts)))))
    bounds = [starts[cut] for cut in cuts] + [last]
    return [head + content[a:b] + tail for a, b in pairwise(bounds)]


def shares() -> tuple[float, ...]:
    """Each part's share of a split answer's entries: the first (read here), then the
    helper's."""
    rest = (1.0 - FIRST_SHARE) / HELPER_PARTS
    return (FIRST_SHARE, *(rest for _ in range(HELPER_PARTS)))


class Helper:
    """The helper process of a check (started at its first long answer, which is read
    whole meanwhile; one worker) and `early`: what is told each part's papers as they
    are read, in order (the check ranks them meanwhile)."""

    def __init__(self, early: Callable[[list[Any]], None] | None = None) -> None:
        self.early = early
        self._pool: ProcessPoolExecutor | None = None
        self._awake: Future[object] | None = None
        self._broken = (os.cpu_count() or 1) < 2

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def ready(self, warm: Callable[[], object], wait: bool = False) -> bool:
        """Whether the helper process is up, having done `warm` (its imports): it is
        started, if it is not, and the answer read meanwhile is read whole, here (or,
        `wait`ing, once it is up)."""
        if self._broken:
            return False
        if self._awake is None:
            try:
                self._pool = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker, initargs=(os.getpid(),))
                self._awake = self._pool.submit(warm)
            except (OSError, BrokenProcessPool, RuntimeError):
                self._broken = True
                return False
        if wait or self._awake.done():
            try:
                self._awake.result()
            except (OSError, BrokenProcessPool, ImportError):  # (no helper: read here)
                self._broken = True
        return self._awake.done() and not self._broken

    def submit(self, call: Callable[..., T], *args: Any) -> Callable[[], T]:
        """`call(*args)` in the helper process; what waits for its value (or, when no
        process can do it, computes it here)."""
        if not self._broken and self._pool is not None:
            try:
                future: Future[T] = self._pool.submit(call, *args)
            except (OSError, BrokenProcessPool, RuntimeError):
                self._broken = True
            else:
                return lambda: self._value(future, call, args)
        return lambda: call(*args)

    def _value(self, future: Future[T], call: Callable[..., T], args: tuple[Any, ...]) -> T:
        try:
            return future.result()
        except (OSError, BrokenProcessPool):  # (a worker killed: read here)
            self._broken = True
            return call(*args)


def _start_worker(parent: int) -> None:
    """A helper process ignores Ctrl+C (the check's process decides), ends when that
    process is gone, and collects cyclic garbage rarely (reading a feed makes many
    small objects and hardly any cycles)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    gc.set_threshold(100_000, 50, 100)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.25)
    with contextlib.suppress(OSError):
        os._exit(1)
