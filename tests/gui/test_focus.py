"""Focus and selection as a keyboard user meets them (issue 22): where the keys go on
start, after Escape, after a search; what is selected after a search or a sort; what
undo and redo say; the filter remembered for each library, not across libraries."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from papershelf.core.library import Library, View
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, Qt
from papershelf.gui.settings import Settings
from tests.conftest import SEEDS
from tests.gui.conftest import WindowFactory, wait_idle

Ctrl = Qt.KeyboardModifier.ControlModifier


def open_plain(windows: WindowFactory, library: Library) -> MainWindow:
    """A window opened as the application opens it: nobody puts the focus anywhere."""
    return windows.open(library, focus_table=False)


def test_on_start_the_list_has_the_focus_and_the_first_s_stars(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot) -> None:
    window = open_plain(windows, gui_library)
    assert window.focusWidget() is window.table  # (what has the focus when active)
    assert window.selected_count() == 1
    first = window.table.focused_id()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_S)
    wait_idle(qtbot, window)
    assert window.sidebar.current()[0] == "all"
    assert gui_library.view_ids(View(filter="starred")) == [first]


def test_the_last_filter_belongs_to_its_library(
        windows: WindowFactory, gui_library: Library, settings: Settings,
        qtbot: QtBot, tmp_path: Path) -> None:
    window = open_plain(windows, gui_library)
    window.sidebar.select("unread", None)
    windows.close(window)

    other = Library.open(str(tmp_path / "other.sqlite"))
    try:
        other.ensure_sample(SEEDS)
        second = open_plain(windows, other)
        assert second.sidebar.current()[0] == "all"  # not the other library's "Unread"
        second.sidebar.select("read", None)
        windows.close(second)
    finally:
        other.close()

    again = open_plain(windows, gui_library)
    assert again.sidebar.current()[0] == "unread"
    assert again.model.view.filter == "unread"


def test_escape_leaves_the_notes_for_the_list(window: MainWindow, qtbot: QtBot) -> None:
    window.table.go_to_row(0)
    first = window.table.focused_id()
    window.detail.focus_notes()
    qtbot.keyClicks(window.detail.notes_edit, "good baseline")
    qtbot.keyClick(window.detail.notes_edit, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is window.table
    qtbot.keyClick(window.table, Qt.Key.Key_J)
    wait_idle(qtbot, window)
    assert window.table.focused_id() != first
    detail = window.library.paper(first)
    assert detail is not None and detail.record.notes == "good baseline"


def test_escape_leaves_the_title_editor_for_the_list(window: MainWindow,
                                                     qtbot: QtBot) -> None:
    window.table.go_to_row(0)
    window.detail.title_edit.setFocus()
    qtbot.waitUntil(window.detail.title_edit.hasFocus)
    qtbot.keyClick(window.detail.title_edit, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is window.table


def test_clearing_a_search_keeps_the_paper_selected_and_in_view(
        window: MainWindow, qtbot: QtBot) -> None:
    window.resize(1024, 600)
    window.features.listing.focus_search()
    qtbot.keyClicks(window.search, "diffusion")
    qtbot.waitUntil(lambda: window.model.view.search == "diffusion")
    wait_idle(qtbot, window)
    rows = [r for r in range(window.model.rowCount())]
    assert rows, "the sample has papers on diffusion"
    row = rows[-1]
    wanted = window.model.id_at(row)
    window.table.go_to_row(row)
    window.features.listing.focus_search()
    qtbot.keyClick(window.search, Qt.Key.Key_Escape)  # clears the search
    qtbot.waitUntil(lambda: window.model.view.search == "")
    wait_idle(qtbot, window)
    assert window.table.selected_ids() == [wanted]
    index = window.model.index(window.model.rows_of([wanted])[0], 0)
    assert window.table.viewport().rect().intersects(window.table.visualRect(index))


def test_enter_in_the_search_selects_the_first_match(window: MainWindow,
                                                     qtbot: QtBot) -> None:
    window.table.go_to_row(5)
    window.features.listing.focus_search()
    # (the event loop runs between the keys, as when a user types: "r" offers "read:")
    qtbot.keyClicks(window.search, "reinforcement", delay=1)
    qtbot.waitUntil(lambda: window.model.view.search == "reinforcement")
    wait_idle(qtbot, window)
    qtbot.keyClick(window.search, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is window.table
    assert window.table.selected_ids() == [window.model.id_at(0)]
    assert window.detail.current_id() == window.model.id_at(0)


def test_undo_and_redo_say_what_they_did(window: MainWindow, qtbot: QtBot) -> None:
    window.table.go_to_row(0)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    wait_idle(qtbot, window)
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Ctrl)
    wait_idle(qtbot, window)
    assert window.statusBar().currentMessage() == "Undone: Star 1 paper"
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Ctrl | Qt.KeyboardModifier.ShiftModifier)
    wait_idle(qtbot, window)
    assert window.statusBar().currentMessage() == "Redone: Star 1 paper"


def test_ctrl_z_in_the_notes_undoes_the_last_word(window: MainWindow,
                                                  qtbot: QtBot) -> None:
    window.table.go_to_row(0)
    window.detail.focus_notes()
    edit = window.detail.notes_edit
    qtbot.keyClicks(edit, "strong results on ImageNet")
    qtbot.keyClick(edit, Qt.Key.Key_Z, Ctrl)
    assert edit.toPlainText() == "strong results on "
    qtbot.keyClick(edit, Qt.Key.Key_Z, Ctrl)
    assert edit.toPlainText() == "strong results "
