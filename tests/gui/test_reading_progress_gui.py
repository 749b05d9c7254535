"""Reading progress in the window (issue 43): a paper's PDF opens where the user left
it (the place saved a moment after scrolling, and as the tab closes), opening an unread
paper marks it "reading" unless the preference says not to, the optional Progress and
Last read columns sort, "Recently read" lists the papers read, newest first, and
`papershelf read KEY --page N` (also handed to a running window) shows that page."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.core.progress import Position
from papershelf.gui import settings as S
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt
from papershelf.gui.reader.pages import pdfium_queue
from papershelf.gui.reader.tab import ReaderTab
from papershelf.gui.single_instance import InstanceServer, Result, hand_over, serve_window
from tests.gui.conftest import WindowFactory, wait_idle
from tests.gui.test_reader import _ready
from tests.pdfs import make_paper


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


def _with_pdf(window: MainWindow, paper_pdf: Path, row: int = 0) -> int:
    pid = window.model.id_at(row)
    assert pid is not None
    window.library.attach_file(pid, paper_pdf, link=True)
    return pid


def _read(qtbot: QtBot, window: MainWindow, row: int = 0) -> ReaderTab:
    """Enter on the row: its PDF in a reader tab, rendered."""
    window.tabs.setCurrentIndex(0)
    window.table.go_to_row(row)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab)
    _ready(qtbot, tab)
    return tab


def _close(qtbot: QtBot, window: MainWindow, tab: ReaderTab) -> None:
    qtbot.keyClick(tab.view, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.count() == 1
    wait_idle(qtbot, window)


def _state(window: MainWindow, pid: int) -> str:
    return window.library.rows([pid])[pid].read_state


def test_the_pdf_opens_where_it_was_left_and_the_paper_becomes_reading(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    pid = _with_pdf(window, paper_pdf)
    assert _state(window, pid) == "unread"
    tab = _read(qtbot, window)
    qtbot.waitUntil(lambda: _state(window, pid) == "reading")
    row = window.model.row_of(pid)
    assert row is not None
    qtbot.waitUntil(lambda: window.model.row_at(row).read_state == "reading")  # type: ignore[union-attr]
    assert not window.ops.undo_stack.canUndo()  # (reading a paper is no step to undo)
    # Scrolled, then still: the place is saved by itself.
    tab.view.set_place(1, 0.4)
    qtbot.waitUntil(lambda: (window.library.position(pid) or Position(-1)).page == 1,
                    timeout=5000)
    # Scrolled and closed at once: the tab's closing saves it.
    tab.view.set_place(0, 0.5)
    _close(qtbot, window, tab)
    kept = window.library.position(pid)
    assert kept is not None and kept.page == 0 and abs(kept.offset - 0.5) < 0.02
    assert kept.page_count == 2
    # Opened again: there.
    tab = _read(qtbot, window)
    qtbot.waitUntil(lambda: tab.view.place()[0] == 0 and abs(tab.view.place()[1] - 0.5) < 0.02)
    tab.view.set_place(1, 0.25)  # (as far down the last page as the view goes)
    left = tab.view.place()
    assert left[0] == 1
    _close(qtbot, window, tab)
    tab = _read(qtbot, window)
    qtbot.waitUntil(lambda: tab.view.place()[0] == 1)
    assert abs(tab.view.place()[1] - left[1]) < 0.02
    _close(qtbot, window, tab)
    assert pdfium_queue().wait(10_000)


def test_marking_a_paper_reading_on_opening_says_nothing_over_other_lines(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    # (a line the window shows, say a PDF that could not be read, stays: the paper's
    # state changing by itself is seen in the table, not said over it)
    pid = _with_pdf(window, paper_pdf)
    window.statusBar().showMessage("other.pdf: this PDF could not be read (…)")
    tab = _read(qtbot, window)
    qtbot.waitUntil(lambda: _state(window, pid) == "reading")
    wait_idle(qtbot, window)
    assert window.statusBar().currentMessage() == "other.pdf: this PDF could not be read (…)"
    _close(qtbot, window, tab)
    assert pdfium_queue().wait(10_000)


def test_with_the_preference_off_an_unread_paper_stays_unread(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    window.settings.set(S.MARK_READING, False)
    pid = _with_pdf(window, paper_pdf)
    tab = _read(qtbot, window)
    qtbot.waitUntil(lambda: window.library.position(pid) is not None)  # (read now)
    wait_idle(qtbot, window)
    assert _state(window, pid) == "unread"
    _close(qtbot, window, tab)
    assert pdfium_queue().wait(10_000)


def test_the_preference_is_in_the_dialog(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.features.admin.show_preferences()
    try:
        assert dialog.mark_reading_check.isChecked()
        dialog.mark_reading_check.setChecked(False)
        dialog.accept()
        assert window.settings.get(S.MARK_READING) is False
    finally:
        dialog.close()


def test_progress_and_last_read_columns_sort_and_recently_read_lists(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    library = window.library
    first, second, third = (window.model.id_at(n) for n in range(3))
    assert first is not None and second is not None and third is not None
    # (as the reader saves them: through the window's writes, which the table hears of)
    window.ops.record(lambda: library.save_position(first, Position(1, 0.0, 2)))
    window.ops.record(lambda: library.save_position(second, Position(0, 0.0, 2)))
    wait_idle(qtbot, window)
    header = window.table.horizontalHeader()
    progress = window.model.sort_column("progress")
    last_read = window.model.sort_column("last_read")
    assert header.isSectionHidden(progress) and header.isSectionHidden(last_read)
    window.table.show_column(progress, True)
    window.table.show_column(last_read, True)
    assert not header.isSectionHidden(progress)
    header.setSortIndicator(progress, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: window.model.view.sort == "progress"
                    and list(window.model.ids[:2]) == [first, second])
    shown = window.model.index(0, progress).data()
    assert shown == "page 2 of 2"
    header.setSortIndicator(last_read, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: window.model.view.sort == "last_read"
                    and list(window.model.ids[:2]) == [second, first])
    # Recently read: the papers read, newest first, counted; reading one adds it.
    header.setSortIndicator(window.model.sort_column("added"), Qt.SortOrder.AscendingOrder)
    window.sidebar.select("recent")
    qtbot.waitUntil(lambda: list(window.model.ids) == [second, first])
    assert window.sidebar._filter_items["recent"].text(1) == "2"
    window.ops.record(lambda: library.save_position(third, Position(0, 0.0, 1)))
    qtbot.waitUntil(lambda: list(window.model.ids) == [third, second, first])
    qtbot.waitUntil(lambda: window.sidebar._filter_items["recent"].text(1) == "3")


def test_read_key_shows_the_page_asked_for(qtbot: QtBot, window: MainWindow,
                                           paper_pdf: Path) -> None:
    pid = _with_pdf(window, paper_pdf, row=1)
    key = window.library.paper(pid).key  # type: ignore[union-attr]
    window.features.reading.read_key(key, 2)
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab) and tab.paper_id == pid
    _ready(qtbot, tab)
    qtbot.waitUntil(lambda: tab.view.place()[0] == 1)
    window.features.reading.read_key("no-such-key", 1)
    assert "no-such-key" in window.statusBar().currentMessage()
    _close(qtbot, window, tab)
    assert pdfium_queue().wait(10_000)


def test_a_running_window_is_handed_the_paper_to_read(
        qtbot: QtBot, windows: WindowFactory, gui_library: Library, paper_pdf: Path,
        tmp_path: Path) -> None:
    win = windows.open(gui_library)
    pid = _with_pdf(win, paper_pdf)
    key = win.library.paper(pid).key  # type: ignore[union-attr]
    name = f"papershelf-test-{uuid.uuid4().hex[:12]}"
    server = InstanceServer(name)
    assert server.listen()
    try:
        serve_window(server, win, win.features.importing.import_files,
                     win.features.reading.read_key)
        assert hand_over(name, [], read=(key, 2)) is Result.HANDED_OVER
        qtbot.waitUntil(lambda: isinstance(win.tabs.currentWidget(), ReaderTab))
        tab = win.tabs.currentWidget()
        assert isinstance(tab, ReaderTab) and tab.paper_id == pid
        _ready(qtbot, tab)
        qtbot.waitUntil(lambda: tab.view.place()[0] == 1)
        _close(qtbot, win, tab)
    finally:
        server.close()
        server.deleteLater()
    assert pdfium_queue().wait(10_000)
