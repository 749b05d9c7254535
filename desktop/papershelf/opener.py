"""Opening a file with the desktop's program for it (an attached PDF), and saying so
when nothing opened it.

Qt's `QDesktopServices.openUrl` and Python's `webbrowser` start `xdg-open` and return at
once: a desktop with no PDF viewer "opens" the file silently, and `xdg-open`'s own
complaints land on the terminal. Here the opener runs with its output kept: it exits
at once when it fails (no program for the file: its exit status says so), and a program
it starts in the foreground is left running after a few seconds. No Qt: the command line
and the window (in a worker) use it alike.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

WAIT = 5.0  # seconds an opener may take to fail; still running after that, it opened


def _command(target: str) -> list[str]:
    return ["open", target] if sys.platform == "darwin" else ["xdg-open", target]


def open_externally(path: Path) -> str | None:
    """Open `path` with the desktop's program for its type; None once it opened, else
    one line saying why it could not (naming the file, so the user can open it)."""
    target = str(path)
    if sys.platform == "win32":  # pragma: no cover - the tests run on Linux
        try:
            os.startfile(target)  # type: ignore[attr-defined]
        except OSError as exc:
            return f"{target}: could not be opened ({exc.strerror})"
        return None
    command = _command(target)
    with tempfile.TemporaryFile() as said:
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                       stdout=said, stderr=said, start_new_session=True)
        except OSError:
            return (f"{target}: could not be opened: {command[0]} is not installed (no "
                    "program here opens files of this type); open the file yourself")
        try:
            status = process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:  # (a program started in the foreground)
            threading.Thread(target=process.wait, daemon=True).start()
            return None
    if status == 0:
        return None
    return (f"{target}: could not be opened (no program here opens files of this type, "
            f"{command[0]} said so); open the file yourself")
