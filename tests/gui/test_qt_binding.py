"""The Qt binding the window runs on survives a long session of signals."""

from __future__ import annotations

import subprocess
import sys

_EMIT_MANY = """
from PySide6.QtCore import QCoreApplication, QObject, Signal
app = QCoreApplication([])
class Source(QObject):
    changed = Signal(int)
source = Source()
seen = []
source.changed.connect(seen.append)
for n in range(50_000):
    source.changed.emit(n)
print(len(seen))
"""


def test_fifty_thousand_signals_do_not_abort_the_program() -> None:
    """PySide6 6.12.0 lost a reference to True per emit and aborted the interpreter
    ("bool_dealloc") after a few thousand: a day of triage in one window emits more."""
    run = subprocess.run([sys.executable, "-c", _EMIT_MANY], capture_output=True, text=True,
                         timeout=120, env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert run.returncode == 0, run.stderr[-500:]
    assert run.stdout.split() == ["50000"]
