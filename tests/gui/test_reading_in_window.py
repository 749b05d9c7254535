"""Reading a paper in the window (issue 43): Enter, or O when its PDF is here, opens it in
a reader tab beside the library's; a highlight made there is one undo step of the
window (Ctrl+Z in the library takes it back, and the tab shows it gone); Ctrl+W closes
the tab; the window's Find stays the table's."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt
from papershelf.gui.reader.pages import pdfium_queue
from papershelf.gui.reader.tab import ReaderTab
from tests.gui.conftest import undo, wait_idle
from tests.gui.test_reader import _ready, _select
from tests.pdfs import make_paper


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


def _paper_with_pdf(window: MainWindow, paper_pdf: Path, row: int = 0) -> int:
    window.table.go_to_row(row)
    window.table.setFocus()
    pid = window.model.id_at(row)
    assert pid is not None
    window.library.attach_file(pid, paper_pdf, link=True)
    return pid


def _reader(window: MainWindow) -> ReaderTab:
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab)
    return tab


def test_enter_reads_the_pdf_in_a_tab_and_ctrl_w_closes_it(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    assert window.tabs.tabBar().isHidden()  # (one tab: the library's, no bar)
    pid = _paper_with_pdf(window, paper_pdf)
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    tab = _reader(window)
    assert tab.paper_id == pid and window.tabs.count() == 2
    assert window.tabs.tabBar().isVisible()
    _ready(qtbot, tab)
    assert not window.actions["find"].isEnabled()  # (Ctrl+F finds in the document)
    # Enter again on the same paper shows the same tab, not a second one.
    window.tabs.setCurrentIndex(0)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_O)
    assert window.tabs.count() == 2 and window.tabs.currentWidget() is tab
    qtbot.keyClick(tab.view, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.count() == 1 and window.tabs.currentIndex() == 0
    assert window.actions["find"].isEnabled()
    assert pdfium_queue().wait(10_000)


def test_enter_on_a_paper_without_its_pdf_says_so(qtbot: QtBot, window: MainWindow) -> None:
    window.table.go_to_row(0)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    assert window.tabs.count() == 1
    assert "has no PDF on this computer" in window.statusBar().currentMessage()


def test_a_highlight_is_one_undo_step_of_the_window(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    pid = _paper_with_pdf(window, paper_pdf)
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    tab = _reader(window)
    view = _ready(qtbot, tab)
    _select(qtbot, view, 1, "sparse pattern whose cost")
    qtbot.keyClick(view, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 1)
    wait_idle(qtbot, window)
    (kept,) = window.library.annotations_of([pid])[pid]
    assert kept.quote == "sparse pattern whose cost"
    assert "annotation" in window.actions["undo"].text().lower()
    window.tabs.setCurrentIndex(0)
    undo(qtbot, window)
    qtbot.waitUntil(lambda: window.library.annotations_of([pid]) == {})
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 0)  # (the tab follows)
    window.features.reading.close_tab(window.tabs.indexOf(tab))
    assert pdfium_queue().wait(10_000)
