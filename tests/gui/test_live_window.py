"""Two windows on one shared PostgreSQL library: what one does shows in the other within
a second, without a refresh; the command line's changes too; a lost connection is said,
retried, and caught up on. (The server is tests.postgres_server's.)"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core import live
from papershelf.core.library import Library
from papershelf.gui.features.live import LiveUpdates
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt
from tests.conftest import SEEDS, run_cli
from tests.gui.conftest import WindowFactory, wait_idle
from tests.postgres_server import PostgresServer, SharedLibrary

SECOND = 1000  # ms: how soon a change made elsewhere must show


@dataclass
class Pair:
    """Window `a` and window `b` on two Library objects of one shared library."""

    a: MainWindow
    b: MainWindow
    url: str


def live_of(window: MainWindow) -> LiveUpdates:
    assert window.features.live.updates is not None
    return window.features.live.updates


def starred_at(window: MainWindow, row: int) -> bool:
    """Whether the table shows the paper of `row` starred (from its row cache)."""
    paper = window.model.row_at(row)
    assert paper is not None
    return paper.starred


def sidebar_count(window: MainWindow, label: str) -> str:
    tree = window.sidebar.tree
    for n in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(n)
        if item.text(0) == label:
            return item.text(1)
    raise AssertionError(f"no {label!r} in the sidebar")


@pytest.fixture
def pair(qtbot: QtBot, windows: WindowFactory, pg_roles: SharedLibrary) -> Iterator[Pair]:
    """Two windows of alice's on the shared library (38 sample papers), both listening;
    the windows are closed before their libraries."""
    first = Library.open(pg_roles.alice)
    first.ensure_sample(SEEDS)
    second = Library.open(pg_roles.alice)
    try:
        a, b = windows.open(first), windows.open(second)
        qtbot.waitUntil(lambda: live_of(a).connected and live_of(b).connected)
        yield Pair(a, b, pg_roles.alice)
        windows.close_all()
    finally:
        first.close()
        second.close()


def test_a_star_in_one_window_shows_in_the_other_within_a_second(
        qtbot: QtBot, pair: Pair) -> None:
    a, b = pair.a, pair.b
    pid = b.model.ids[0]
    star = b.model.index(0, b.model.column_index("star"))
    assert "Not starred" in b.model.data(star, Qt.ItemDataRole.ToolTipRole)  # (cached now)
    assert b.detail.current_id() == pid and "Starred" not in b.detail.status_label.text()
    assert sidebar_count(b, "Starred") == "0"

    a.ops.set_starred([pid], True)
    qtbot.waitUntil(lambda: starred_at(b, 0), timeout=SECOND)
    assert b.model.data(star, Qt.ItemDataRole.ToolTipRole).startswith("Starred")
    qtbot.waitUntil(lambda: sidebar_count(b, "Starred") == "1", timeout=SECOND)
    # (the open pane reads the paper again in the background)
    qtbot.waitUntil(lambda: "Starred" in b.detail.status_label.text(), timeout=SECOND)
    assert a.ops.undo_stack.count() == 1 and b.ops.undo_stack.count() == 0  # not b's step


def test_a_windows_own_change_is_not_announced_again(qtbot: QtBot, pair: Pair) -> None:
    a, b = pair.a, pair.b
    echoes: list[object] = []
    live_of(a).applied.connect(echoes.append)
    with qtbot.waitSignal(live_of(b).applied, timeout=SECOND):
        a.ops.set_starred([a.model.ids[0]], True)
    # a heard of it too (it read the log as far as b did), and knew it as its own.
    qtbot.waitUntil(lambda: live_of(a).feed.last_seq == live_of(b).feed.last_seq)
    wait_idle(qtbot, a)
    assert echoes == []
    assert a.statusBar().currentMessage() == "Star 1 paper"  # not wiped by an echo


def test_tags_titles_and_notes_edited_in_one_window_show_in_the_other(
        qtbot: QtBot, pair: Pair) -> None:
    a, b = pair.a, pair.b
    pid = b.model.ids[0]
    a.ops.add_tags([pid], ["shared-reading"])
    qtbot.waitUntil(lambda: sidebar_count(b, "shared-reading") == "1", timeout=SECOND)
    qtbot.waitUntil(lambda: "shared-reading" in b.detail.tags_label.text(), timeout=SECOND)

    a.ops.set_title(pid, "A Title Given Elsewhere")
    qtbot.waitUntil(lambda: b.detail.title_edit.text() == "A Title Given Elsewhere",
                    timeout=SECOND)
    title = b.model.index(0, b.model.column_index("title"))
    assert b.model.data(title) == "A Title Given Elsewhere"

    a.ops.set_notes(pid, "Notes written in the other window")
    qtbot.waitUntil(lambda: b.detail.notes_edit.toPlainText()
                    == "Notes written in the other window", timeout=SECOND)
    wait_idle(qtbot, b)
    assert b.ops.undo_stack.count() == 0  # showing them wrote nothing back


def test_a_change_of_too_many_papers_to_name_refreshes_every_row(
        qtbot: QtBot, pair: Pair, pg_server: PostgresServer, pg_roles: SharedLibrary) -> None:
    b = pair.b
    title = b.model.index(4, b.model.column_index("title"))
    assert b.model.data(title) != "Renamed by a script"  # (cached now)
    pid = b.model.ids[4]
    pg_server.admin(f"UPDATE papers SET title = 'Renamed by a script' WHERE id = {pid}; "
                    "INSERT INTO changes (at, touched, paper_ids, structural) "
                    "VALUES (now(), 'title', NULL, false)", database=pg_roles.database)
    qtbot.waitUntil(lambda: b.model.data(title) == "Renamed by a script", timeout=SECOND)
    qtbot.waitUntil(lambda: b.detail.current_id() != pid
                    or b.detail.title_edit.text() == "Renamed by a script", timeout=SECOND)


def test_papers_deleted_in_one_window_leave_the_other(qtbot: QtBot, pair: Pair) -> None:
    a, b = pair.a, pair.b
    gone = list(b.model.ids[:2])
    a.ops.delete_papers(gone)
    qtbot.waitUntil(lambda: b.model.rowCount() == 36, timeout=SECOND)
    assert not set(gone) & set(b.model.ids)
    qtbot.waitUntil(lambda: sidebar_count(b, "All") == "36", timeout=SECOND)


def test_the_command_line_shows_up_in_open_windows(qtbot: QtBot, pair: Pair) -> None:
    b = pair.b
    pid = b.model.ids[1]
    row = b.model.row_at(1)
    assert row is not None and not row.starred
    assert run_cli("star", row.key, "--library", pair.url) == (0, "Star 1 paper\n", "")
    qtbot.waitUntil(lambda: starred_at(b, 1), timeout=SECOND)
    assert b.model.id_at(1) == pid
    qtbot.waitUntil(lambda: sidebar_count(b, "Starred") == "1", timeout=SECOND)


def test_a_lost_connection_is_said_retried_and_caught_up(
        qtbot: QtBot, pair: Pair, pg_server: PostgresServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "FIRST_DELAY", 0.05)  # the test need not wait a second
    a, b = pair.a, pair.b
    said: list[bool] = []
    live_of(b).connectionChanged.connect(said.append)
    messages: list[str] = []
    b.statusBar().messageChanged.connect(messages.append)

    pg_server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = 'papershelf-live'")
    # Written before the window can notice: no notification reaches it for this one.
    pid = b.model.ids[2]
    assert not starred_at(b, 2)
    a.library.set_starred([pid], True)

    qtbot.waitUntil(lambda: said == [False, True], timeout=5 * SECOND)
    assert "Lost the connection to the shared library; reconnecting…" in messages
    assert b.statusBar().currentMessage() == "Connected to the shared library again"
    assert starred_at(b, 2)
    qtbot.waitUntil(lambda: sidebar_count(b, "Starred") == "1", timeout=SECOND)

    a.ops.set_starred([b.model.ids[3]], True)  # listening again
    qtbot.waitUntil(lambda: starred_at(b, 3), timeout=SECOND)


def test_undo_leaves_a_star_the_other_window_took_off_since(qtbot: QtBot, pair: Pair) -> None:
    a, b = pair.a, pair.b
    ids = list(a.model.ids[:3])
    a.ops.set_starred(ids, True)
    qtbot.waitUntil(lambda: starred_at(b, 2), timeout=SECOND)
    b.ops.set_starred(ids[2:], False)  # the other window, after
    qtbot.waitUntil(lambda: not starred_at(a, 2), timeout=SECOND)
    a.ops.undo()
    wait_idle(qtbot, a)
    assert a.statusBar().currentMessage() == (
        "Undone: Star 3 papers; 1 paper not undone: changed since by another program")
    b.ops.undo()  # b's own step is b's to undo: the star comes back
    qtbot.waitUntil(lambda: starred_at(a, 2), timeout=SECOND)
    assert [starred_at(a, n) for n in range(3)] == [False, False, True]
    a.ops.redo()  # redoes the two a undid
    wait_idle(qtbot, a)
    assert a.statusBar().currentMessage() == "Redone: Star 3 papers"
    qtbot.waitUntil(lambda: all(starred_at(b, n) for n in range(3)), timeout=SECOND)
