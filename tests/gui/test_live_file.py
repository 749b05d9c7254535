"""A window on a library file shows within a second what another program (the command
line, a second window in another process) committed to the same file, and refreshes
only what changed; its own writes are not shown twice. (The PostgreSQL side is
test_live_window.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.gui.features.live import LiveUpdates
from papershelf.gui.main_window import MainWindow
from tests.conftest import ROOT
from tests.gui.conftest import undo, wait_idle
from tests.gui.test_live_window import SECOND, sidebar_count, starred_at

pytestmark = pytest.mark.sqlite_only  # (a library file; a server's windows listen)


def live_of(window: MainWindow) -> LiveUpdates:
    assert window.features.live.updates is not None, "a window on a library file does not follow it"
    return window.features.live.updates


def papershelf(*argv: str) -> str:
    """Run `python -m papershelf ARGV` as a program of its own; what it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "desktop"), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "papershelf", *argv], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def elsewhere(window: MainWindow) -> Iterator[Library]:
    """A second Library object on the window's file (another window's connections)."""
    other = Library.open(window.library.url)
    yield other
    other.close()


def file_of(window: MainWindow) -> str:
    path = window.library.engine.url.database
    assert path
    return path


def test_a_star_by_another_program_shows_within_a_second(
        qtbot: QtBot, window: MainWindow) -> None:
    row = window.model.row_at(1)
    assert row is not None and not row.starred
    assert sidebar_count(window, "Starred") == "0"
    assert papershelf("star", row.key, "--library", file_of(window)) == "Star 1 paper\n"
    qtbot.waitUntil(lambda: starred_at(window, 1), timeout=SECOND)
    qtbot.waitUntil(lambda: sidebar_count(window, "Starred") == "1", timeout=SECOND)
    assert window.ops.undo_stack.count() == 0  # not the window's step


def test_notes_written_by_another_program_show_in_the_open_pane(
        qtbot: QtBot, window: MainWindow) -> None:
    pid = window.model.ids[0]
    assert window.detail.current_id() == pid
    key = window.library.paper(pid).record.key  # type: ignore[union-attr]
    papershelf("note", key, "Written from the command line", "--library", file_of(window))
    qtbot.waitUntil(lambda: window.detail.notes_edit.toPlainText()
                    == "Written from the command line", timeout=SECOND)
    wait_idle(qtbot, window)
    assert window.ops.undo_stack.count() == 0  # showing them wrote nothing back


def test_a_paper_added_and_a_title_changed_elsewhere_show(
        qtbot: QtBot, window: MainWindow, elsewhere: Library) -> None:
    assert window.model.rowCount() == 38
    elsewhere.import_result(ReadResult(records=[PaperRecord(title="Added Elsewhere Meanwhile",
                                                            year=2025)]), "test", "bibtex")
    qtbot.waitUntil(lambda: window.model.rowCount() == 39, timeout=SECOND)
    qtbot.waitUntil(lambda: sidebar_count(window, "All") == "39", timeout=SECOND)

    pid = window.model.ids[3]
    title = window.model.index(3, window.model.column_index("title"))
    assert window.model.data(title) != "Renamed In Another Window"  # (cached now)
    elsewhere.set_title(pid, "Renamed In Another Window")
    qtbot.waitUntil(lambda: window.model.data(title) == "Renamed In Another Window",
                    timeout=SECOND)


def test_the_windows_own_change_is_not_shown_twice(
        qtbot: QtBot, window: MainWindow, elsewhere: Library) -> None:
    live = live_of(window)
    echoes: list[object] = []
    live.applied.connect(echoes.append)
    window.ops.set_starred([window.model.ids[0]], True)
    wait_idle(qtbot, window)
    # The feed read the window's own change (the file changed) and knew it as its own.
    with elsewhere.engine.connect() as conn:
        newest = conn.exec_driver_sql("SELECT max(seq) FROM changes").scalar()
    qtbot.waitUntil(lambda: live.feed.last_seq == newest, timeout=SECOND)
    wait_idle(qtbot, window)
    assert echoes == []
    assert window.statusBar().currentMessage() == "Star 1 paper"  # not wiped by an echo

    elsewhere.set_starred([window.model.ids[1]], True)  # and another's is shown
    qtbot.waitUntil(lambda: len(echoes) == 1, timeout=SECOND)
    qtbot.waitUntil(lambda: starred_at(window, 1), timeout=SECOND)


def test_a_closed_window_stops_following_its_file(
        qtbot: QtBot, windows: object, window: MainWindow) -> None:
    live = live_of(window)
    window.close()
    assert not live.connected


def test_undo_leaves_what_another_program_changed_since_and_says_so(
        qtbot: QtBot, window: MainWindow, elsewhere: Library) -> None:
    ids = list(window.model.ids[:3])
    window.ops.set_read_state(ids, "read")
    wait_idle(qtbot, window)
    elsewhere.set_read_state(ids[2:], "reading")  # after the window's, on one paper
    qtbot.waitUntil(lambda: window.model.row_at(2).read_state == "reading",  # type: ignore[union-attr]
                    timeout=SECOND)

    undo(qtbot, window)
    assert window.statusBar().currentMessage() == (
        "Undone: Mark read: 3 papers; 1 paper not undone: changed since by another program")
    rows = window.library.rows(ids)
    assert [rows[pid].read_state for pid in ids] == ["unread", "unread", "reading"]
    qtbot.waitUntil(lambda: [window.model.row_at(n).read_state  # type: ignore[union-attr]
                             for n in range(3)] == ["unread", "unread", "reading"],
                    timeout=SECOND)

    window.ops.redo()  # redoes the two it undid, not the other program's
    wait_idle(qtbot, window)
    assert window.statusBar().currentMessage() == "Redone: Mark read: 3 papers"
    rows = window.library.rows(ids)
    assert [rows[pid].read_state for pid in ids] == ["read", "read", "reading"]


def test_undoing_notes_another_program_rewrote_since_keeps_theirs(
        qtbot: QtBot, window: MainWindow, elsewhere: Library) -> None:
    pid = window.model.ids[0]
    assert window.detail.current_id() == pid
    window.ops.set_notes(pid, "Mine, from the window")
    wait_idle(qtbot, window)
    elsewhere.set_notes(pid, "Theirs, written after")
    qtbot.waitUntil(lambda: window.detail.notes_edit.toPlainText() == "Theirs, written after",
                    timeout=SECOND)
    undo(qtbot, window)
    assert window.statusBar().currentMessage() == (
        "Edit notes; 1 paper not undone: changed since by another program")
    assert window.library.paper(pid).record.notes == "Theirs, written after"  # type: ignore[union-attr]
    assert window.detail.notes_edit.toPlainText() == "Theirs, written after"
