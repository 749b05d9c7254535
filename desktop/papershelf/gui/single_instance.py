"""One window per library: a second start hands its files to the running window.

The first Papershelf on a library listens on a local socket (a Unix socket in the
temporary folder, a named pipe on Windows) whose name is a hash of the user and the
library URL, so two users, or two libraries, never meet. A later start on the same
library connects, sends the files it was asked to open as one JSON line, waits for
"ok" and exits 0: the running window raises itself and imports them, and there is
never a second writer. A socket file left behind by a crashed Papershelf nobody
answers on is removed before listening.
"""

from __future__ import annotations

import enum
import getpass
import hashlib
import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from papershelf.gui.qt import (
    QAbstractSocket,
    QByteArray,
    QEvent,
    QEventLoop,
    QFileOpenEvent,
    QLocalServer,
    QLocalSocket,
    QObject,
    Qt,
    QTimer,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    Take = Callable[[list[str]], object]  # imports files into the window

PREFIX = "papershelf-"
ANSWER_MS = 5000  # how long a second start waits for the running window's answer
MAX_MESSAGE = 1 << 20


def current_user() -> str:
    """The login name ('' if the system cannot tell)."""
    try:
        return getpass.getuser()
    except Exception:  # getpass raises OSError or KeyError, depending on the platform
        return os.environ.get("USERNAME", "")


def server_name(library_url: str, user: str | None = None) -> str:
    """The socket name of the window on `library_url` for `user` (default: this one)."""
    user = current_user() if user is None else user
    digest = hashlib.sha256(f"{user}\0{library_url}".encode()).hexdigest()
    return PREFIX + digest[:24]


class InstanceServer(QObject):
    """The running window's side: accepts hand-overs and emits the files received."""

    filesReceived = Signal(list)  # list[str]; empty when a plain second start came
    readRequested = Signal(str, int)  # `papershelf read KEY [--page N]`: key, N (0: none)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._new_connection)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        """Start listening; a stale socket of a crashed instance is removed first.

        Call it only after `hand_over` found nobody answering on the name.
        """
        if self.server.listen(self.name):
            return True
        if self.server.serverError() == QAbstractSocket.SocketError.AddressInUseError:
            QLocalServer.removeServer(self.name)
            return self.server.listen(self.name)
        return False

    def close(self) -> None:
        """Stop listening (the socket file is removed)."""
        self.server.close()

    def _new_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))
            if socket.bytesAvailable():
                self._read(socket)

    def _forget(self, socket: QLocalSocket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()

    def _read(self, socket: QLocalSocket) -> None:
        if socket not in self._buffers:
            return
        data = self._buffers[socket] + bytes(socket.readAll().data())
        self._buffers[socket] = data
        if b"\n" not in data and len(data) < MAX_MESSAGE:
            return
        del self._buffers[socket]
        parsed = _parse(data.split(b"\n", 1)[0])
        socket.write(QByteArray(b"ok\n" if parsed is not None else b"error\n"))
        socket.flush()
        socket.disconnectFromServer()
        if parsed is not None:
            files, read = parsed
            self.filesReceived.emit(files)
            if read is not None:
                self.readRequested.emit(*read)


# The highest page a hand-over may name (as `papershelf read --page` allows).
MOST_PAGES = 100_000


def _parse(line: bytes) -> tuple[list[str], tuple[str, int] | None] | None:
    """The files of a hand-over message and the paper it asks to read (its key and
    page, 0 for none), or None if it is not one."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    files = message.get("files") if isinstance(message, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    read = message.get("read")
    if read is None:
        return files, None
    if not (isinstance(read, list) and len(read) == 2 and isinstance(read[0], str)
            and isinstance(read[1], int) and not isinstance(read[1], bool)
            and 0 <= read[1] <= MOST_PAGES):
        return None
    return files, (read[0], read[1])


class Result(enum.Enum):
    """How a hand-over went."""

    HANDED_OVER = "handed over"  # the running window has the files: exit 0
    NO_SERVER = "no server"  # nobody runs on this library: become the window
    NO_ANSWER = "no answer"  # someone listens but does not answer: do not start a writer


class HandOver(QObject):
    """The second start's side: connect, send the files, wait for "ok" (asynchronously)."""

    finished = Signal(object)  # Result

    def __init__(self, name: str, files: Sequence[str], parent: QObject | None = None,
                 read: tuple[str, int] | None = None) -> None:
        super().__init__(parent)
        self.name = name
        message: dict[str, object] = {"files": list(files)}
        if read is not None:  # (a paper to read: its key and page, 0 for none)
            message["read"] = list(read)
        self.message = (json.dumps(message) + "\n").encode("utf-8")
        self.result: Result | None = None
        self._connected = False
        self._answer = b""
        self.socket = QLocalSocket(self)
        self.socket.connected.connect(self._send)
        self.socket.readyRead.connect(self._read)
        self.socket.errorOccurred.connect(self._error)
        self.socket.disconnected.connect(self._disconnected)

    def start(self) -> None:
        """Connect; `finished` follows (perhaps before this returns)."""
        self.socket.connectToServer(self.name)

    def give_up(self) -> None:
        """The answer took too long."""
        self._finish(Result.NO_ANSWER if self._connected else Result.NO_SERVER)

    def _send(self) -> None:
        self._connected = True
        self.socket.write(QByteArray(self.message))
        self.socket.flush()

    def _read(self) -> None:
        self._answer += bytes(self.socket.readAll().data())
        if b"\n" in self._answer:
            ok = self._answer.split(b"\n", 1)[0] == b"ok"
            self._finish(Result.HANDED_OVER if ok else Result.NO_ANSWER)

    def _error(self, error: QLocalSocket.LocalSocketError) -> None:
        if error == QLocalSocket.LocalSocketError.PeerClosedError:
            return  # the server hangs up after answering: `_disconnected` decides
        self._finish(Result.NO_ANSWER if self._connected else Result.NO_SERVER)

    def _disconnected(self) -> None:
        if self.socket.bytesAvailable():
            self._read()
        self._finish(Result.NO_ANSWER if self._connected else Result.NO_SERVER)

    def _finish(self, result: Result) -> None:
        if self.result is None:
            self.result = result
            self.socket.abort()
            self.finished.emit(result)


def hand_over(name: str, files: Sequence[str], timeout_ms: int = ANSWER_MS,
              read: tuple[str, int] | None = None) -> Result:
    """Hand `files` (and a paper to `read`: key, page) to the window running on `name`,
    waiting for its answer in a local event loop (so a server in this very process, as
    in the tests, answers too)."""
    client = HandOver(name, files, read=read)
    loop = QEventLoop()
    client.finished.connect(lambda _result: loop.quit())
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(client.give_up)
    timer.start(timeout_ms)
    client.start()
    if client.result is None:
        loop.exec()
    timer.stop()
    result = client.result
    client.deleteLater()
    assert result is not None
    return result


# -- the window's side ------------------------------------------------------------------

def bring_to_front(window: QWidget) -> None:
    """Unminimise, raise and activate a window (the desktop may still refuse focus)."""
    if window.isMinimized():
        window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
    window.show()
    window.raise_()
    window.activateWindow()


def import_files(take: Take, files: Sequence[str]) -> None:
    """Import files through the window's normal import path (`take`: progress, summary),
    queued behind an import that is running."""
    if files:
        take(list(files))


def serve_window(server: InstanceServer, window: QWidget, take: Take,
                 read: Callable[[str, int], object] | None = None) -> None:
    """Route hand-overs to `window`: raise it, then import the files it was given, and
    show the paper it was asked to `read` (key, page; 0: where the user left it)."""

    def received(files: list[str]) -> None:
        bring_to_front(window)
        # Not inside the socket's slot: the import opens a progress bar and a dialog.
        QTimer.singleShot(0, window, lambda: import_files(take, files))

    server.filesReceived.connect(received)
    if read is not None:
        server.readRequested.connect(lambda key, page: QTimer.singleShot(
            0, window, lambda: read(key, page)))


class FileOpenFilter(QObject):
    """macOS hands files opened in the Finder to the running app as QFileOpenEvents,
    not as arguments; this imports them into the window like a hand-over."""

    def __init__(self, window: QWidget, take: Take) -> None:
        super().__init__(window)
        self.window = window
        self.take = take

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            path = event.file()
            if path:
                window, take = self.window, self.take
                bring_to_front(window)
                QTimer.singleShot(0, window, lambda: import_files(take, [path]))
                return True
        return super().eventFilter(watched, event)
