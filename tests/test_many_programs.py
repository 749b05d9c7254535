"""One library file open in several programs at once (issue 37): the window's process and
a command run in a terminal meanwhile. No write may be lost.

On POSIX, closing any descriptor of a file drops every lock the process holds on it
(sqlite.org, "How To Corrupt An SQLite Database File", 2.2): a process that reads its own
open library with anything but SQLite lets the next program believe it is alone, which
then checkpoints and deletes the write-ahead log under the live connection. These tests
run the real thing: a library held open here, as the window holds it, and real
`papershelf` processes on the same file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from papershelf.core import backup
from papershelf.core.library import Library, View
from tests.conftest import SEEDS


def held_deleted(path: Path) -> list[str]:
    """The files of the library (it, its -wal, its -shm) this process still holds open
    although they were deleted from the disk."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path)) and target.endswith(" (deleted)"):
            found.append(target)
    return found


def papershelf(library: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """`papershelf --library LIBRARY ARGV` as another program (a terminal's command)."""
    return subprocess.run([sys.executable, "-m", "papershelf", "--library", str(library),
                           *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def starred_elsewhere(library: Path) -> int:
    """How many starred papers another program finds in the library."""
    result = papershelf(library, "list", "--starred", "--json")
    assert result.returncode == 0, result.stderr
    return len(json.loads(result.stdout))


def test_a_command_run_beside_an_open_library_loses_none_of_its_later_writes(
        tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    library = Library.open(str(path))
    try:
        library.ensure_sample(SEEDS)
        # What the window does after its start: the daily backup, with the library open.
        assert backup.daily_backup_for(library.url) is not None
        result = papershelf(path, "info")  # a command in a terminal meanwhile
        assert result.returncode == 0, result.stderr
        ids = library.view_ids(View())
        library.set_starred(ids, True)  # the user stars every paper (Ctrl+A, S)
        assert held_deleted(path) == []
        assert starred_elsewhere(path) == len(ids)
    finally:
        library.close()


def test_a_restore_is_refused_while_another_program_has_the_library_open(
        tmp_path: Path) -> None:
    """`papershelf restore` in a terminal while the window is open would replace the file
    under the window and delete its write-ahead log, and the window's last writes with
    it: it is refused in one line, and nothing is changed."""
    path = tmp_path / "library.sqlite"
    library = Library.open(str(path))  # the window
    try:
        library.ensure_sample(SEEDS)
        saved = backup.make_backup(path)
        ids = library.view_ids(View())
        library.set_starred(ids[:5], True)  # waits in the log, not yet in the file
        result = papershelf(path, "restore", str(saved), "--yes")
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and "open in another program" in result.stderr
        assert held_deleted(path) == []
        assert starred_elsewhere(path) == 5
    finally:
        library.close()
    result = papershelf(path, "restore", str(saved), "--yes")  # once the window is closed
    assert result.returncode == 0, result.stderr
    assert starred_elsewhere(path) == 0
