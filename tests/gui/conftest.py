"""GUI test setup: isolated QSettings, a window on a fresh seeded library, clean teardown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QEvent, QSettings, Qt
from papershelf.gui.settings import Settings
from tests.conftest import SEEDS

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every GUI test is marked `gui`."""
    for item in items:
        if HERE in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.gui)


@pytest.fixture
def settings(tmp_path: Path) -> Iterator[Settings]:
    """Window settings in a temporary file, never the user's."""
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    yield Settings(store)
    store.sync()


@pytest.fixture
def gui_library(tmp_path: Path, dialect: str, request: pytest.FixtureRequest
                ) -> Iterator[Library]:
    """A fresh library after its first start (the 38 sample papers), in a file or on the
    test server (each window test runs on both)."""
    target = (str(request.getfixturevalue("pg_url")) if dialect == "postgresql"
              else str(tmp_path / "lib.sqlite"))
    library = Library.open(target)
    library.ensure_sample(SEEDS)
    yield library
    library.close()


class WindowFactory:
    """Opens main windows and closes and deletes every one of them at teardown."""

    def __init__(self, qtbot: QtBot, settings: Settings) -> None:
        self.qtbot = qtbot
        self.settings = settings
        self.windows: list[MainWindow] = []

    def open(self, library: Library, *, focus_table: bool = True) -> MainWindow:
        """A shown, active window; the table focused unless not `focus_table` (then
        the focus is where the window itself puts it)."""
        window = MainWindow(library, self.settings)
        self.windows.append(window)
        window.show()
        self.qtbot.waitExposed(window)
        window.activateWindow()
        self.qtbot.waitActive(window)
        if focus_table:
            window.table.setFocus()
        else:
            self.qtbot.waitUntil(window.isActiveWindow)
        return window

    def close(self, window: MainWindow) -> None:
        """Close like the user does, then delete it now (not at garbage collection)."""
        if window not in self.windows:
            return
        window.close()
        self.delete(window)

    def delete(self, window: MainWindow) -> None:
        """Delete a window closed already, now."""
        if window not in self.windows:
            return
        self.windows.remove(window)
        QApplication.processEvents()  # results of finished jobs land before deletion
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

    def close_all(self) -> None:
        for window in list(self.windows):
            self.close(window)


# The fixtures of libraries a test's windows may be on.
LIBRARY_FIXTURES = ("gui_library", "library", "pg_url", "pg_roles", "seeded_shared")


@pytest.fixture
def windows(qtbot: QtBot, settings: Settings, request: pytest.FixtureRequest
            ) -> Iterator[WindowFactory]:
    """Make windows in a test; all are closed and deleted at its end, before the test's
    libraries close and their databases are dropped (those fixtures are set up first,
    whatever the order of the test's arguments: a window closed after its database was
    dropped met "server closed the connection unexpectedly" in its last reads)."""
    for name in LIBRARY_FIXTURES:
        if name in request.fixturenames:
            request.getfixturevalue(name)
    factory = WindowFactory(qtbot, settings)
    yield factory
    factory.close_all()


@pytest.fixture
def window(windows: WindowFactory, gui_library: Library) -> Iterator[MainWindow]:
    """The main window on a fresh seeded library, shown, the table focused; closed (and
    its notes saved) before the library is."""
    win = windows.open(gui_library)
    yield win
    windows.close(win)


def wait_idle(qtbot: QtBot, window: MainWindow) -> None:
    """Until every background job of the window has delivered its result."""
    qtbot.waitUntil(lambda: not window.tasks.busy(), timeout=10000)


def undo(qtbot: QtBot, window: MainWindow) -> None:
    """Ctrl+Z on the table (the window active again after a dialog)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
