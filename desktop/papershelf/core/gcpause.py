"""The cyclic garbage collector's full collections held off while a job builds many
objects at once.

A full collection looks at every object the process holds and keeps the interpreter
lock throughout, so any thread's allocations may make the window's thread wait for it.
A job that reads and writes thousands of records (an auto-export's first build, an
import, an inbox check of 100,000 items, the ranking model learnt from the library)
sets off one full collection after another as its objects pile up, each longer than
the last: the first star after opening a 100,000-paper library, with a starred file of
14,000 entries to build, stalled the window for 430 ms in one of them; a check of 50
feeds, 1.5 s.

The young collections go on: each looks at a few hundred objects (collecting the job's
short-lived cycles). Turning the collector off altogether instead piled every object
made meanwhile into the youngest generation, and the first collection once it was on
again walked them all: a stall of 1.1 s after a check.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_full_threshold = 10


@contextmanager
def young_collections_only() -> Iterator[None]:
    """No full collection while any thread is inside (the threshold as it was once the
    last one leaves); the young ones go on."""
    global _holders, _full_threshold
    with _lock:
        if _holders == 0:
            young, middle, _full_threshold = gc.get_threshold()
            gc.set_threshold(young, middle, 1 << 30)
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0:
                young, middle, _full = gc.get_threshold()
                gc.set_threshold(young, middle, _full_threshold)
