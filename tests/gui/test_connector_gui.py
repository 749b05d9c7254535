"""The window and the browser's Zotero Connector (gui/features/connector.py): the
preference (off by default) starts the server with the window; what the Connector
saves appears in the table as one undo step; turning it off stops it; a port in use is
one status-bar line.
The requests go to 127.0.0.1 from a thread, as the browser's would, while the window's
event loop runs (its writes land on the GUI thread)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import View
from papershelf.gui import settings as S
from papershelf.gui.features import connector as gui_connector
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QDialogButtonBox
from tests.gui.conftest import WindowFactory, undo, wait_idle
from tests.gui.test_preferences import open_preferences
from tests.test_connector import ARTICLE


class Request(threading.Thread):
    """One POST to the window's server, in a thread of its own (it waits for the window
    to write)."""

    def __init__(self, port: int, endpoint: str, data: object) -> None:
        super().__init__(daemon=True)
        self.port, self.endpoint, self.data = port, endpoint, data
        self.status: int | None = None

    def run(self) -> None:
        con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            con.request("POST", f"/connector/{self.endpoint}", json.dumps(self.data),
                        {"Content-Type": "application/json",
                         "X-Zotero-Connector-API-Version": "3"})
            answer = con.getresponse()
            answer.read()
            self.status = answer.status
        finally:
            con.close()


def send(qtbot: QtBot, port: int, endpoint: str, data: object) -> int:
    request = Request(port, endpoint, data)
    request.start()
    qtbot.waitUntil(lambda: request.status is not None, timeout=20000)
    request.join()
    assert request.status is not None
    return request.status


@pytest.fixture(autouse=True)
def any_free_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gui_connector, "PORT", 0)


def set_preference(window: MainWindow, on: bool) -> None:
    dialog = open_preferences(window)
    assert dialog.connector_check.isChecked() is not on
    dialog.connector_check.setChecked(on)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def titles(window: MainWindow) -> list[str]:
    rows = window.library.rows(window.library.view_ids(View()))
    return [row.title for row in rows.values()]


def test_the_preference_starts_the_server_and_a_save_adds_a_row(
        qtbot: QtBot, window: MainWindow) -> None:
    assert not window.features.connector.running  # (off by default)
    set_preference(window, True)
    assert window.settings.get(S.ZOTERO_CONNECTOR) is True
    assert window.features.connector.running
    server = window.features.connector.server
    assert server is not None
    rows = window.model.rowCount()

    status = send(qtbot, server.port, "saveItems", {"sessionID": "s", "items": [ARTICLE]})
    assert status == 201
    qtbot.waitUntil(lambda: window.model.rowCount() == rows + 1, timeout=10000)
    assert ARTICLE["title"] in titles(window)
    assert "Save 1 paper from the browser" in window.ops.undo_stack.undoText()
    assert send(qtbot, server.port, "updateSession",
                {"sessionID": "s", "target": "L1", "tags": ["from the browser"]}) == 200
    wait_idle(qtbot, window)
    assert "from the browser" in window.library.tag_names()

    undo(qtbot, window)  # the tags, then the paper
    undo(qtbot, window)
    qtbot.waitUntil(lambda: window.model.rowCount() == rows, timeout=10000)
    assert ARTICLE["title"] not in titles(window)

    port = server.port
    set_preference(window, False)
    assert not window.features.connector.running
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_the_server_comes_back_with_the_window(qtbot: QtBot, windows: WindowFactory,
                                               gui_library: Any) -> None:
    windows.settings.set(S.ZOTERO_CONNECTOR, True)
    window = windows.open(gui_library)
    assert window.features.connector.running
    server = window.features.connector.server
    assert server is not None
    port = server.port
    windows.close(window)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_a_port_in_use_is_one_line_and_the_window_works(
        qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        monkeypatch.setattr(gui_connector, "PORT", holder.getsockname()[1])
        set_preference(window, True)
    finally:
        holder.close()
    assert not window.features.connector.running
    message = window.statusBar().currentMessage()
    assert "is in use (is Zotero running?)" in message and "\n" not in message
    window.actions["toggle_star"].trigger()  # (the window works on)
    wait_idle(qtbot, window)
    assert window.ops.undo_stack.canUndo()
