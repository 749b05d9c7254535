"""A pytest plugin: no plain open of a library file while this process holds it with
SQLite (issue 37).

On POSIX, closing any descriptor of a file drops every lock the process holds on it, so
a process that opens its own open library (or its -wal, -shm) with anything but SQLite
lets another program delete the write-ahead log under its connections (sqlite.org, "How
To Corrupt An SQLite Database File", 2.2). An audit hook sees every `open` made from
Python (SQLite's own opens are not audited); when the file is already open in this
process as an SQLite database or log, the open is recorded with its stack, and the test
during which it happened fails at its teardown.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
import traceback
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

_SQLITE_HEADER = b"SQLite format 3\x00"
_LOG_SUFFIXES = ("-wal", "-shm", "-journal")
_local = threading.local()
_found: list[str] = []
_PROC_FD = "/proc/self/fd"


def _held(target: os.stat_result) -> int | None:
    """A descriptor of this process open on the file `target` as an SQLite database or
    log (SQLite's own: the audit hook records every other open before it happens)."""
    try:
        fds = os.listdir(_PROC_FD)
    except OSError:
        return None
    for name in fds:
        fd = int(name)
        try:
            info = os.fstat(fd)
        except OSError:
            continue
        if (info.st_ino, info.st_dev) != (target.st_ino, target.st_dev):
            continue
        try:
            link = os.readlink(f"{_PROC_FD}/{fd}")
        except OSError:
            link = ""
        if link.endswith(_LOG_SUFFIXES):
            return fd
        try:
            if os.pread(fd, len(_SQLITE_HEADER), 0) == _SQLITE_HEADER:
                return fd
        except OSError:
            continue
    return None


# The files SQLite was asked to open in this process (sqlite3.connect's audit event):
# only an open of one of them, or of its log, is looked at closely (a few microseconds
# for every other open).
_connected: set[str] = set()


def _real(path: Any) -> str | None:
    try:
        return os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return None


def _connected_to(database: Any) -> None:
    if isinstance(database, bytes | str | os.PathLike):
        name = os.fsdecode(database)
        if name.startswith("file:"):  # (a URI: file:/path?mode=ro)
            name = urllib.parse.unquote(urllib.parse.urlsplit(name).path)
        if name and name != ":memory:" and (real := _real(name)) is not None:
            _connected.add(real)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "sqlite3.connect":
        _connected_to(args[0])
        return
    if event != "open" or getattr(_local, "busy", False):
        return
    path = args[0]
    if isinstance(path, int) or path is None:
        return
    _local.busy = True
    try:
        real = _real(path)
        if real is None or not (real in _connected or any(
                real.endswith(s) and real[:-len(s)] in _connected for s in _LOG_SUFFIXES)):
            return
        try:
            target = os.stat(path)
        except (OSError, TypeError, ValueError):
            return
        if not stat.S_ISREG(target.st_mode) or _held(target) is None:
            return
        stack = "".join(traceback.format_stack(limit=12)[:-1])
        _found.append(f"plain open of {os.fsdecode(path)} while SQLite holds it:\n{stack}")
    finally:
        _local.busy = False


if os.path.isdir(_PROC_FD):  # (Linux: where the tests and CI run)
    sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def no_plain_open_of_open_libraries(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the test if anything opened a library file this process held with SQLite
    (not for a test marked `another_program_here`: it plays another program, such as a
    running Zotero, in this process, whose files Papershelf reads by design)."""
    del _found[:]
    yield
    found, _found[:] = list(_found), []
    if found and request.node.get_closest_marker("another_program_here") is None:
        pytest.fail("\n\n".join(found[:3]), pytrace=False)
