"""The cyclic garbage collector held off while a job builds many objects at once.

A full collection looks at every object the process holds and keeps the interpreter
lock throughout, so any thread's allocations may make the window's thread wait for it.
A job that reads and writes thousands of records (an auto-export's first build, an
export) sets off one full collection after another as its objects pile up, each longer
than the last: the first star after opening a 100,000-paper library, with a starred
file of 14,000 entries to build, stalled the window for 430 ms in one of them. Its
objects are freed by their reference counts when it is done; cycles among them wait
for the next collection after it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = True


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection while any thread is inside (the collector is as it was
    once the last one leaves)."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
