"""One window per library: a second start hands its files to the running window."""

from __future__ import annotations

import argparse
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.db import resolve_target
from papershelf.core.library import View
from papershelf.gui import app
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import (
    QApplication,
    QByteArray,
    QDir,
    QFileOpenEvent,
    QLocalServer,
    QLocalSocket,
    Qt,
)
from papershelf.gui.single_instance import (
    FileOpenFilter,
    InstanceServer,
    Result,
    hand_over,
    serve_window,
    server_name,
)
from tests.gui.conftest import WindowFactory

# Qt's offscreen platform cannot raise windows and says so; that is not our warning.
pytestmark = pytest.mark.qt_log_ignore(r"^This plugin does not support raise\(\)")

BIB = """@article{knuth1984literate,
  author = {Donald E. Knuth},
  title = {Literate Programming},
  journal = {The Computer Journal},
  year = {1984},
}
"""


@pytest.fixture
def name() -> str:
    """A socket name no real Papershelf uses."""
    return f"papershelf-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def server(name: str) -> Iterator[InstanceServer]:
    instance = InstanceServer(name)
    assert instance.listen()
    yield instance
    instance.close()
    instance.deleteLater()


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "knuth.bib"
    path.write_text(BIB, encoding="utf-8")
    return path


def test_name_is_per_user_and_library() -> None:
    url = "sqlite:////home/a/library.sqlite"
    assert server_name(url, "ana") == server_name(url, "ana")
    assert server_name(url, "ana") != server_name(url, "bo")
    assert server_name(url, "ana") != server_name("sqlite:////home/a/other.sqlite", "ana")
    assert len(server_name(url)) < 64  # fits a Unix socket path in the temp folder


def test_hand_over_imports_into_the_running_window(window: MainWindow, server: InstanceServer,
                                                   name: str, bib: Path,
                                                   qtbot: QtBot) -> None:
    serve_window(server, window, window.features.importing.import_files)
    window.showMinimized()
    with qtbot.waitSignal(window.importFinished, timeout=10000) as finished:
        assert hand_over(name, [str(bib)]) is Result.HANDED_OVER
    assert finished.args[0].report.added == 1
    assert window.library.count(View(search="literate")) == 1
    assert not window.isMinimized() and window.isVisible()


def test_plain_second_start_only_raises(window: MainWindow, server: InstanceServer, name: str,
                                        qtbot: QtBot) -> None:
    received: list[list[str]] = []
    server.filesReceived.connect(received.append)
    serve_window(server, window, window.features.importing.import_files)
    window.showMinimized()
    assert hand_over(name, []) is Result.HANDED_OVER
    qtbot.waitUntil(lambda: received == [[]])
    assert not window.isMinimized()


def test_second_start_of_run_gui_hands_over_and_exits_0(
        windows: WindowFactory, gui_library: object, tmp_path: Path, bib: Path,
        qtbot: QtBot) -> None:
    win = windows.open(gui_library)  # type: ignore[arg-type]
    library_file = str(tmp_path / "lib.sqlite")  # the gui_library fixture's file
    instance = InstanceServer(server_name(resolve_target(library_file)))
    assert instance.listen()
    serve_window(instance, win, win.features.importing.import_files)
    try:
        args = argparse.Namespace(library=library_file, screenshot=None,
                                  open_files=[str(bib)])
        with qtbot.waitSignal(win.importFinished, timeout=10000):
            assert app.run_gui(args) == 0
        assert win.library.count(View(search="knuth")) == 1
    finally:
        instance.close()
        instance.deleteLater()


def test_nobody_there(name: str) -> None:
    assert hand_over(name, ["x.bib"]) is Result.NO_SERVER


def test_stale_socket_is_removed(name: str) -> None:
    path = str(Path(QDir.tempPath()) / name)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)  # the file stays after close: a crashed Papershelf's socket
    stale.close()
    try:
        assert Path(path).exists()
        assert hand_over(name, []) is Result.NO_SERVER
        instance = InstanceServer(name)
        assert instance.listen()
        assert hand_over(name, []) is Result.HANDED_OVER
        instance.close()
        instance.deleteLater()
    finally:
        Path(path).unlink(missing_ok=True)


def test_a_server_that_does_not_answer_is_not_replaced(name: str) -> None:
    silent = QLocalServer()
    assert silent.listen(name)
    try:
        assert hand_over(name, ["x.bib"], timeout_ms=300) is Result.NO_ANSWER
    finally:
        silent.close()


def test_garbage_gets_an_error_and_no_files(server: InstanceServer, name: str,
                                            qtbot: QtBot) -> None:
    received: list[list[str]] = []
    server.filesReceived.connect(received.append)
    client = QLocalSocket()
    client.connectToServer(name)
    client.write(QByteArray(b'{"files": "not a list"}\n'))
    qtbot.waitUntil(lambda: client.bytesAvailable() > 0
                    or client.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert bytes(client.readAll().data()) == b"error\n"
    assert received == []
    client.abort()


@pytest.mark.parametrize("page", [10**12, -5])
def test_a_page_no_paper_has_gets_an_error(server: InstanceServer, name: str, page: int,
                                           qtbot: QtBot) -> None:
    """A hand-over naming a page out of every range (only the same user can connect,
    but a typo or another program can) is refused; the window goes on."""
    asked: list[tuple[str, int]] = []
    server.readRequested.connect(lambda key, n: asked.append((key, n)))
    client = QLocalSocket()
    client.connectToServer(name)
    client.write(QByteArray(b'{"files": [], "read": ["key", %d]}\n' % page))
    qtbot.waitUntil(lambda: client.bytesAvailable() > 0
                    or client.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert bytes(client.readAll().data()) == b"error\n"
    assert asked == []
    client.abort()


def test_finder_open_events_import(window: MainWindow, bib: Path, qtbot: QtBot) -> None:
    qapp = QApplication.instance()
    assert qapp is not None
    opener = FileOpenFilter(window, window.features.importing.import_files)
    qapp.installEventFilter(opener)
    try:
        with qtbot.waitSignal(window.importFinished, timeout=10000):
            QApplication.sendEvent(qapp, QFileOpenEvent(str(bib)))
        assert window.library.count(View(search="knuth")) == 1
    finally:
        qapp.removeEventFilter(opener)
    assert window.windowState() & Qt.WindowState.WindowMinimized == Qt.WindowState(0)
