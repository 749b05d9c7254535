"""Start-up: the window paints a library's first rows before the core and SQLAlchemy are
imported (core.firstpage; a shared library's: core.firstpage_pg), then opens the library
and works as always."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.firstpage_pg import open_first_page
from papershelf.core.library import Library, View
from papershelf.gui import settings as S
from papershelf.gui.app import discard, first_paint
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QSettings, Qt
from papershelf.gui.settings import Settings
from tests.conftest import ROOT, SEEDS, seeded_file
from tests.gui.conftest import WindowFactory
from tests.postgres_server import PostgresServer, SharedLibrary

pytestmark = pytest.mark.sqlite_only  # (the library a test makes itself: a file, or pg_lab)

START = r"""
import json, sys
from papershelf import launch
from papershelf.gui.app import _open_library, first_paint, make_application
from papershelf.gui.qt import QSettings
from papershelf.gui.settings import Settings

parsed = launch.parse_window_arguments(["--library", sys.argv[1]])
app = make_application()
settings = Settings(QSettings(sys.argv[2], QSettings.Format.IniFormat))
window = first_paint(parsed.library, settings)
def shown():
    model = window.model
    column = model.column_index("title")
    return [model.data(model.index(row, column)) for row in range(model.rowCount())]
before = {"titles": shown(), "visible": window.isVisible(), "title": window.windowTitle(),
          "loaded": sorted(m for m in ("sqlalchemy", "psycopg", "papershelf.core.library",
                                       "papershelf.cli.main", "papershelf.gui.operations")
                           if type(sys.modules.get(m)).__name__ == "module"),  # (not lazy)
          "sidebar": window.sidebar.current()}
library = _open_library(parsed.library, True)
window.attach(library)
after = {"titles": shown(), "sqlalchemy": "sqlalchemy" in sys.modules,
         "sidebar": window.sidebar.current()}
window.features.triage.toggle_star(window.table.selected_ids())
window.close()
library.close()
print(json.dumps({"before": before, "after": after}))
"""


def _start(target: str, location: str, folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A start (START) on `target`, left last on its starred papers by title (`location`:
    its name in the settings): what the window showed before and after the library
    opened."""
    settings_file = folder / "settings.ini"
    store = Settings(QSettings(str(settings_file), QSettings.Format.IniFormat))
    store.set(S.for_library(S.FILTER, location), "starred")
    store.set(S.SORT, "title")
    store.sync()
    del store
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", START, target, str(settings_file)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    return seen["before"], seen["after"]


def test_a_start_paints_its_rows_before_the_core_is_imported(tmp_path: Path) -> None:
    library_file = seeded_file(tmp_path / "lib.sqlite")
    library = Library.open(str(library_file))
    first = library.view_ids(View(sort="title"), limit=2)
    library.set_starred(first, True)
    library.close()
    before, after = _start(str(library_file), str(library_file), tmp_path)
    # Painted: the remembered list (the two starred papers, by title), with nothing of the
    # core, SQLAlchemy or the command line imported yet.
    assert before["visible"]
    assert before["loaded"] == []
    assert before["sidebar"] == ["starred", None]
    assert len(before["titles"]) == 2 and all(before["titles"])
    # Once the library is open: the same rows, and the window works (S unstarred one).
    assert after == {"titles": before["titles"], "sqlalchemy": True,
                     "sidebar": ["starred", None]}
    library = Library.open(str(library_file))
    assert library.counts().starred == 1
    library.close()


def test_a_shared_library_paints_its_rows_before_the_core_is_imported(
        tmp_path: Path, pg_lab: SharedLibrary) -> None:
    """A shared library's first page (core.firstpage_pg): the member's own stars, read
    with psycopg before SQLAlchemy is imported; then the library takes over."""
    library = Library.open(pg_lab.alice)
    library.ensure_sample(SEEDS)
    first = library.view_ids(View(sort="title"), limit=2)
    library.set_starred(first, True)
    location = library.location
    library.close()
    bob = Library.open(pg_lab.bob)  # (another member's stars are not alice's)
    bob.set_starred(bob.view_ids(View(sort="title"))[2:5], True)
    bob.close()
    before, after = _start(pg_lab.alice, location, tmp_path)
    assert before["visible"]
    assert before["loaded"] == []
    assert before["title"].startswith(f"{pg_lab.database} on ") and " as alice" in before["title"]
    assert before["sidebar"] == ["starred", None]
    assert len(before["titles"]) == 2 and all(before["titles"])
    assert after == {"titles": before["titles"], "sqlalchemy": True,
                     "sidebar": ["starred", None]}
    library = Library.open(pg_lab.alice)
    assert library.counts().starred == 1  # (S unstarred one, of alice's)
    library.close()


@pytest.fixture
def library_file(tmp_path: Path) -> Path:
    return seeded_file(tmp_path / "lib.sqlite")


def test_the_window_takes_over_from_its_first_page(
        qtbot: QtBot, windows: WindowFactory, settings: Settings, library_file: Path) -> None:
    window = first_paint(str(library_file), settings)
    assert window is not None
    windows.windows.append(window)
    assert window.model.rowCount() == 38
    # The user moves on and asks to close before the library is open: nothing is lost.
    window.table.go_to_row(3)
    current = window.table.focused_id()
    window.close()
    assert window.isVisible()

    library = Library.open(str(library_file))
    try:
        window.attach(library)
        assert window.model.rowCount() == 38
        assert window.table.focused_id() == current  # (the same paper, still current)
        assert window.detail.current_id() == current  # its abstract shown now
        window.table.setFocus()
        qtbot.keyClick(window.table, Qt.Key.Key_S)
        qtbot.waitUntil(lambda: library.counts().starred == 1, timeout=5000)
        assert library.details([current])[0].starred
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)  # (closed as asked)
    finally:
        windows.close(window)
        library.close()


def test_a_library_that_does_not_open_takes_its_painted_window_away(
        qtbot: QtBot, settings: Settings, library_file: Path) -> None:
    window = first_paint(str(library_file), settings)
    assert window is not None
    assert window.isVisible()
    discard(window)
    assert not [w for w in QApplication.topLevelWidgets()
                if isinstance(w, MainWindow) and w.isVisible()]


def test_without_a_first_page_the_window_starts_the_ordinary_way(
        tmp_path: Path, settings: Settings) -> None:
    # A new library (the sample is still to come), a database URL, another schema.
    assert first_paint(str(tmp_path / "new.sqlite"), settings) is None
    assert first_paint("postgresql://nobody@127.0.0.1:1/none", settings) is None
    assert open_first_page(str(SEEDS)) is None


def test_a_shared_library_that_refuses_the_first_pages_queries_starts_the_ordinary_way(
        settings: Settings, pg_roles: SharedLibrary, pg_server: PostgresServer) -> None:
    """A member the server lets read the schema's version but not the papers' state (a
    library set up by hand): no first paint, no error; opening the library says why."""
    pg_server.admin("REVOKE SELECT ON personal FROM alice", database=pg_roles.database)
    page = open_first_page(pg_roles.alice)
    assert page is not None  # (it connects and knows the schema...)
    page.close()
    assert first_paint(pg_roles.alice, settings) is None  # (...but cannot count the stars)
