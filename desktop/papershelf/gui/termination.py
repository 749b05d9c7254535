"""A desktop logout (SIGTERM), a closed terminal (SIGHUP) or Ctrl+C (SIGINT) ends the
window as closing it does: typed notes saved, every write asked for committed, then quit.

Python runs a signal handler only between bytecodes, and Qt's event loop runs in C++ for
as long as no event comes. So the signal's number is written to a socket (Python's
`signal.set_wakeup_fd`) that a QSocketNotifier watches: the loop wakes, Python runs the
handler, and the handler asks the window to close from the event loop (qutebrowser's
and Picard's way).
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable

from papershelf.gui.qt import QApplication, QObject, QSocketNotifier, QTimer

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT")
                if hasattr(signal, name))


class Termination(QObject):
    """While it lives, the termination signals call `close` once, in the GUI thread (a
    second signal while closing changes nothing: the first close finishes the writes)."""

    def __init__(self, close: Callable[[], object], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._close = close
        self._asked = False
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read,
                                         self)
        self._notifier.activated.connect(self._drain)
        self._old_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._old = {number: signal.signal(number, self._handle) for number in SIGNALS}

    def _handle(self, _number: int, _frame: object) -> None:
        if not self._asked:
            self._asked = True
            QTimer.singleShot(0, self._close)

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            while self._reader.recv(64):
                pass

    def remove(self) -> None:
        """Give the signals back to what handled them before."""
        for number, old in self._old.items():
            signal.signal(number, old)
        signal.set_wakeup_fd(self._old_fd)
        self._notifier.setEnabled(False)
        self._reader.close()
        self._writer.close()


def close_windows() -> None:
    """Close the open dialogs, then every window (each saves and finishes its writes in
    its closeEvent); the application quits when the last one has closed."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    while (modal := QApplication.activeModalWidget()) is not None:
        modal.close()
        if QApplication.activeModalWidget() is modal:
            break
    for widget in QApplication.topLevelWidgets():
        if widget.isWindow() and widget.isVisible():
            widget.close()
    app.quit()
