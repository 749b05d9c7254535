"""File › Open Shared Library…: the dialog's URL, the server's refusals in one line with
the dialog kept open, a password asked for and kept for the session only, the window on
the shared library, the recent libraries, and the application's switch to the library
chosen. (The server is tests.postgres_server's.)"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from sqlalchemy.engine import make_url

from papershelf.core.db import describe
from papershelf.core.library import Library
from papershelf.gui import app, shared_dialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QFileDialog, QMenu
from papershelf.gui.settings import Settings
from papershelf.gui.shared_dialog import (
    RECENT_LIMIT,
    SharedLibraryDialog,
    SharedTarget,
    recent_libraries,
    remember_library,
)
from papershelf.gui.single_instance import (
    InstanceServer,
    Result,
    current_user,
    hand_over,
    server_name,
)
from tests.conftest import SEEDS
from tests.gui.conftest import WindowFactory, wait_idle
from tests.postgres_server import ROLES, PostgresServer, SharedLibrary

pytestmark = [pytest.mark.gui]

PASSWORD = ROLES["alice"]


def settings_text(settings: Settings) -> str:
    """Everything the settings file holds, as written on disk."""
    settings.sync()
    path = Path(settings.store.fileName())
    return path.read_text(encoding="utf-8") if path.exists() else ""


def open_dialog(qtbot: QtBot, window: MainWindow) -> SharedLibraryDialog:
    """File › Open Shared Library…, as the user chooses it."""
    window.actions["open_shared"].trigger()
    dialog = window.findChild(SharedLibraryDialog)
    assert isinstance(dialog, SharedLibraryDialog)
    qtbot.waitExposed(dialog)
    return dialog


def fill(dialog: SharedLibraryDialog, server: PostgresServer, database: str,
         user: str = "alice") -> None:
    dialog.host.setText(server.socket_dir)
    dialog.port.setValue(server.port)
    dialog.database.setText(database)
    dialog.user.setText(user)


def click_open(qtbot: QtBot, dialog: SharedLibraryDialog) -> None:
    """Open, then wait for the server's answer (the dialog never blocks on it)."""
    assert dialog.open_button.isEnabled()
    dialog.open_button.click()
    assert dialog.connecting and not dialog.open_button.isEnabled()
    qtbot.waitUntil(lambda: not dialog.connecting, timeout=15000)


def password_shown(dialog: SharedLibraryDialog) -> bool:
    return dialog.form.isRowVisible(dialog.password)


@pytest.fixture
def seeded_shared(pg_roles: SharedLibrary) -> SharedLibrary:
    """The shared library with its 38 sample papers."""
    library = Library.open(pg_roles.alice)
    try:
        library.ensure_sample(SEEDS)
    finally:
        library.close()
    return pg_roles


# -- the URL -------------------------------------------------------------------------------

def test_the_dialog_builds_the_url_from_its_fields(qtbot: QtBot, settings: Settings) -> None:
    dialog = SharedLibraryDialog(settings)
    qtbot.addWidget(dialog)
    # Nothing remembered yet: the usual port and the login name.
    assert dialog.port.value() == 5432
    assert dialog.user.text() == current_user()
    assert not dialog.recent.isVisibleTo(dialog)
    assert not password_shown(dialog)
    assert not dialog.open_button.isEnabled()  # (no database yet)

    dialog.host.setText("/run/team sockets")
    dialog.port.setValue(54329)
    dialog.database.setText("group papers")
    dialog.user.setText("alice")
    assert dialog.open_button.isEnabled()
    url = dialog.target().url()
    assert url == "postgresql://alice@/group%20papers?host=/run/team%20sockets&port=54329"
    parsed = make_url(url)
    assert (parsed.username, parsed.password, parsed.database) == ("alice", None,
                                                                   "group papers")
    assert dict(parsed.query) == {"host": "/run/team sockets", "port": "54329"}

    dialog.host.setText("db.example.org")
    dialog.port.setValue(5433)
    dialog.user.setText("bob")
    assert dialog.target().url() == "postgresql://bob@db.example.org:5433/group%20papers"
    dialog.user.clear()  # libpq's default: the login name
    assert dialog.target().user == current_user()

    # A password typed for the session goes into the URL only, escaped; the name the
    # user reads of it has none.
    secret = "p@ss:w/rd %1"
    with_password = SharedTarget("db.example.org", 5433, "papers", "bob").url(secret)
    assert make_url(with_password).password == secret
    assert secret not in describe(with_password) and "%40ss" not in describe(with_password)
    for target in (SharedTarget("/run/team sockets", 54329, "group papers", "alice"),
                   SharedTarget("db.example.org", 5433, "papers", "bob"),
                   SharedTarget("", 5432, "papers", "carol")):
        assert SharedTarget.from_url(target.url("x")) == target
        assert SharedTarget.from_url(describe(target.url("x"))) == target
    assert SharedTarget("db.example.org", 5433, "papers", "bob").title() == \
        "papers on db.example.org:5433 as bob"
    assert SharedTarget("/run/pg", 5432, "papers", "bob").title() == "papers on /run/pg as bob"


# -- the server's answers --------------------------------------------------------------------

def test_a_wrong_password_is_one_line_and_the_dialog_stays_open(
        qtbot: QtBot, window: MainWindow, settings: Settings, pg_server: PostgresServer,
        pg_roles: SharedLibrary) -> None:
    before = settings_text(settings)
    dialog = open_dialog(qtbot, window)
    fill(dialog, pg_server, pg_roles.database)

    # No password anywhere libpq looks: the server asks, the dialog asks.
    click_open(qtbot, dialog)
    assert "asks for the password of 'alice'" in dialog.status.text()
    assert password_shown(dialog) and dialog.password.hasFocus()
    assert dialog.password.echoMode() == dialog.password.EchoMode.Password

    dialog.password.setText("not-her-password")
    click_open(qtbot, dialog)
    line = dialog.status.text()
    assert "refused the login of 'alice': wrong password" in line
    assert "\n" not in line and "not-her-password" not in line
    assert dialog.isVisible() and dialog.open_button.isEnabled()
    assert window.isVisible() and window.open_requested is None
    assert dialog.chosen is None
    assert recent_libraries(settings) == []
    # Nothing written but the server and database tried (for the next time), never
    # the password.
    written = settings_text(settings)
    assert "not-her-password" not in written
    assert written.replace(before, "").strip().splitlines()[-1].startswith(
        "last_shared_try=\"postgresql://alice@/")
    dialog.reject()


def test_the_right_password_opens_the_shared_library(
        qtbot: QtBot, windows: WindowFactory, window: MainWindow, settings: Settings,
        pg_server: PostgresServer, seeded_shared: SharedLibrary) -> None:
    dialog = open_dialog(qtbot, window)
    fill(dialog, pg_server, seeded_shared.database)
    click_open(qtbot, dialog)  # the server asks for the password
    dialog.password.setText(PASSWORD)
    click_open(qtbot, dialog)
    qtbot.waitUntil(lambda: not window.isVisible())

    # The window hands the URL, with the session's password, to the application...
    chosen = window.open_requested
    assert chosen is not None and make_url(chosen).password == PASSWORD
    following = app.next_target(window.library.url, app.Closed(0, open=chosen))
    assert following == chosen
    # ...which opens it, and the next window shows its papers.
    library = app._open_library(following, True)
    assert library is not None
    try:
        shared = windows.open(library)
        wait_idle(qtbot, shared)
        assert shared.library.shared and shared.library.user_name == "alice"
        assert shared.model.rowCount() == 38
        title = shared.windowTitle()
        assert title.startswith(f"{seeded_shared.database} on {pg_server.socket_dir} as "
                                "alice")
        # The password is nowhere the user or another program could read it.
        assert PASSWORD not in title and PASSWORD not in shared.library.location
        (remembered,) = recent_libraries(settings)
        assert PASSWORD not in remembered
        assert SharedTarget.from_url(remembered) == SharedTarget(
            pg_server.socket_dir, pg_server.port, seeded_shared.database, "alice")
        recent_menu = shared.findChild(QMenu, "recentShared")
        assert isinstance(recent_menu, QMenu) and recent_menu.isEnabled()
        assert [a.text() for a in recent_menu.actions()] == [
            f"{seeded_shared.database} on {pg_server.socket_dir} as alice"]
        assert all(PASSWORD not in a.statusTip() for a in recent_menu.actions())
        again = open_dialog(qtbot, shared)
        assert again.recent.count() == 1 and again.recent.isVisibleTo(again)
        assert PASSWORD not in str(again.recent.itemData(0))
        assert again.password.text() == "" and not password_shown(again)
        again.reject()
        windows.close(shared)
        assert PASSWORD not in settings_text(settings)
        assert "alice" in settings_text(settings)  # (the file is the one written)
    finally:
        library.close()


def test_a_server_that_is_down_is_said_quickly(qtbot: QtBot, window: MainWindow,
                                               settings: Settings, tmp_path: Path) -> None:
    empty = tmp_path / "no-server"
    empty.mkdir()
    dialog = open_dialog(qtbot, window)
    dialog.host.setText(str(empty))
    dialog.database.setText("papers")
    started = time.monotonic()
    click_open(qtbot, dialog)
    assert time.monotonic() - started < 5
    line = dialog.status.text()
    assert f"cannot reach the PostgreSQL server on socket {empty}/.s.PGSQL.5432" in line
    assert "is it running?" in line and "\n" not in line
    assert not password_shown(dialog)
    assert dialog.isVisible() and window.open_requested is None
    assert recent_libraries(settings) == []
    dialog.reject()


def test_a_port_that_is_no_postgresql_server_cannot_be_connected_to(
        qtbot: QtBot, window: MainWindow, settings: Settings) -> None:
    """A server that takes the connection and closes it (not PostgreSQL, or the wrong
    port): 'cannot connect', never 'the connection was lost'; the dialog opened again
    starts from the server and database tried, though they did not open."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    port = listener.getsockname()[1]
    try:
        dialog = open_dialog(qtbot, window)
        dialog.host.setText("127.0.0.1")
        dialog.port.setValue(port)
        dialog.database.setText("lab-papers")
        click_open(qtbot, dialog)
        line = dialog.status.text()
        assert f"cannot connect to the PostgreSQL server at 127.0.0.1:{port}" in line
        assert "lost" not in line and "\n" not in line
        dialog.reject()
    finally:
        listener.close()
    again = open_dialog(qtbot, window)
    assert (again.host.text(), again.port.value(), again.database.text()) == (
        "127.0.0.1", port, "lab-papers")
    assert recent_libraries(settings) == []
    again.reject()


def test_cancel_while_connecting_leaves_the_window_as_it_is(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    empty = tmp_path / "no-server"
    empty.mkdir()
    dialog = open_dialog(qtbot, window)
    dialog.host.setText(str(empty))
    dialog.database.setText("papers")
    dialog.open_button.click()
    dialog.reject()  # the answer that comes later is dropped
    qtbot.waitUntil(lambda: not shared_dialog.connection_tasks().busy(), timeout=15000)
    assert window.isVisible() and window.open_requested is None


# -- the recent libraries and library files ------------------------------------------------

def test_recent_libraries_are_newest_first_without_repeats(settings: Settings) -> None:
    targets = [SharedTarget("db.example.org", 5432, f"papers{n}", "bob")
               for n in range(RECENT_LIMIT + 2)]
    for target in targets:
        remember_library(settings, target)
    remember_library(settings, targets[3])
    recent = recent_libraries(settings)
    assert recent[0] == targets[3].url()
    assert len(recent) == RECENT_LIMIT == len(set(recent))
    assert targets[0].url() not in recent


def test_a_recent_library_is_tried_at_once(qtbot: QtBot, windows: WindowFactory,
                                           gui_library: Library, settings: Settings,
                                           tmp_path: Path) -> None:
    empty = tmp_path / "gone"
    empty.mkdir()
    remember_library(settings, SharedTarget(str(empty), 5432, "papers", "carol"))
    window = windows.open(gui_library)
    menu = window.findChild(QMenu, "recentShared")
    assert isinstance(menu, QMenu)
    (entry,) = menu.actions()
    assert entry.text() == f"papers on {empty} as carol"
    entry.trigger()
    dialog = window.findChild(SharedLibraryDialog)
    assert isinstance(dialog, SharedLibraryDialog)
    assert (dialog.host.text(), dialog.database.text(), dialog.user.text()) == (
        str(empty), "papers", "carol")
    qtbot.waitUntil(lambda: not dialog.connecting, timeout=15000)
    assert "cannot reach the PostgreSQL server" in dialog.status.text()
    assert window.isVisible()
    dialog.reject()


def test_open_library_file(window: MainWindow, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    other = str(tmp_path / "other.sqlite")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (other, ""))
    window.actions["open_file"].trigger()
    assert window.open_requested == other and not window.isVisible()
    assert app.next_target(window.library.url, app.Closed(0, open=other)) == other


# -- the application's part --------------------------------------------------------------------

def test_what_the_application_opens_after_a_window(tmp_path: Path) -> None:
    url = "sqlite:///" + str(tmp_path / "lib.sqlite")
    backup_file = tmp_path / "backup.sqlite"
    assert app.next_target(url, app.Closed(0)) is None
    assert app.next_target(url, app.Closed(0, open="postgresql://a@/b")) == \
        "postgresql://a@/b"
    assert app.next_target(url, app.Closed(0, restore=backup_file),
                           restore=lambda _u, _p: True) == url
    assert app.next_target(url, app.Closed(0, restore=backup_file),
                           restore=lambda _u, _p: False) is None


@pytest.fixture
def claimed(qapp: object, tmp_path: Path) -> Iterator[list[InstanceServer]]:
    """Servers a test claimed; closed and deleted at its end."""
    servers: list[InstanceServer] = []
    yield servers
    for server in servers:
        server.close()
        server.deleteLater()


def test_the_one_window_claim_moves_to_the_library_opened(
        qtbot: QtBot, claimed: list[InstanceServer], tmp_path: Path) -> None:
    local = str(tmp_path / "lib.sqlite")
    target = SharedTarget(str(tmp_path / "sock"), 54329, "papers", "alice")
    first = app.claim_library(local, [])
    assert isinstance(first, InstanceServer)
    second = app.reclaim(first, target.url(PASSWORD))
    assert isinstance(second, InstanceServer)
    claimed.append(second)
    # The file is free again; a start on the shared library, its password found in
    # ~/.pgpass, meets this window: the password is not part of the name.
    assert app.instance_key(target.url(PASSWORD)) == app.instance_key(target.url())
    assert PASSWORD not in app.instance_key(target.url(PASSWORD))
    assert second.name == server_name(app.instance_key(target.url()))
    assert hand_over(server_name(app.instance_key("sqlite:///" + local)), []) \
        is Result.NO_SERVER
    with qtbot.waitSignal(second.filesReceived):
        assert hand_over(second.name, []) is Result.HANDED_OVER
