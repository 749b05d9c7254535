"""The reader against hostile files (issue 43): PDFium runs in a worker process, so a
worker killed mid-render, a decompression bomb, a page that takes minutes, a file cut
short or with its cross-reference lost each end in one line in their tab (or open
fine), the window working on and other tabs too; an encrypted PDF asks for its
password."""

from __future__ import annotations

import os
import resource
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QInputDialog
from papershelf.gui.reader.pages import pdfium_queue, render_server
from papershelf.gui.reader.tab import ReaderTab
from tests import hostile_pdfs
from tests.gui import test_reader
from tests.gui.test_reader import _ready

Opener = Callable[..., ReaderTab]
paper_pdf, paper, open_tab = test_reader.paper_pdf, test_reader.paper, test_reader.open_tab


def _in_window(window: MainWindow, path: Path, row: int = 0) -> ReaderTab:
    pid = window.model.id_at(row)
    assert pid is not None
    window.features.reading.open(pid, path, path.name)
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab)
    return tab


def _kill_worker() -> None:
    pid = render_server().pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)


def test_a_worker_killed_mid_render_is_one_line_and_the_window_goes_on(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.pdf"
    other.write_bytes(paper_pdf.read_bytes())
    idle = _in_window(window, other, row=1)  # (open, not rendering, when the worker dies)
    _ready(qtbot, idle)
    tab = _in_window(window, paper_pdf)
    view = _ready(qtbot, tab)
    assert pdfium_queue().wait(10_000)
    view.zoom_in()  # (its pages at the new zoom being rendered)
    _kill_worker()
    view.zoom_in()
    qtbot.waitUntil(lambda: tab.error() != "")
    assert tab.error() == "paper.pdf: this PDF could not be read (its reader was killed)"
    assert "paper.pdf: this PDF could not be read" in window.statusBar().currentMessage()
    # The other tab opens its file again in a new worker and goes on.
    window.tabs.setCurrentWidget(idle)
    idle.view.zoom_in()
    qtbot.waitUntil(lambda: idle.view.has_image(idle.view.current_page()))
    assert idle.error() == ""
    # And a new tab opens fine; the window still answers.
    window.features.reading.close_tab(window.tabs.indexOf(tab))
    again = _in_window(window, paper_pdf, row=2)
    _ready(qtbot, again)
    assert again.error() == "" and window.tabs.count() == 3
    window.tabs.setCurrentIndex(0)
    window.table.go_to_row(3)
    assert window.table.currentIndex().row() == 3
    for reader in (idle, again):
        window.features.reading.close_tab(window.tabs.indexOf(reader))
    assert pdfium_queue().wait(10_000)


def test_an_encrypted_pdf_asks_for_its_password_again_when_wrong(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Opener,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library, pid, path = paper
    locked = hostile_pdfs.locked(path, tmp_path / "locked.pdf")
    asked: list[str] = []
    answers = [("wrong", True), ("secret", True)]

    def get_text(_parent: object, _title: str, label: str, _echo: object) -> tuple[str, bool]:
        asked.append(label)
        return answers.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    tab = open_tab(library, pid, locked)
    view = _ready(qtbot, tab)
    assert view.page_count() == 2 and tab.error() == ""
    assert asked == ["locked.pdf is encrypted. Its password:",
                     "That password is wrong.\nlocked.pdf is encrypted. Its password:"]


def test_an_encrypted_pdf_whose_password_is_not_given_closes_its_tab(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    locked = hostile_pdfs.locked(paper_pdf, tmp_path / "locked.pdf")
    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *_args: ("", False))
    _in_window(window, locked)
    qtbot.waitUntil(lambda: window.tabs.count() == 1)
    assert window.statusBar().currentMessage() == "locked.pdf is encrypted and was not opened"
    assert pdfium_queue().wait(10_000)


def test_a_decompression_bomb_is_one_line_and_the_memory_stays_bounded(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Opener,
        tmp_path: Path) -> None:
    library, pid, path = paper
    bomb = hostile_pdfs.bomb(tmp_path / "bomb.pdf")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # (KiB, the peak)
    tab = open_tab(library, pid, bomb)
    qtbot.waitUntil(lambda: tab.error() != "", timeout=60_000)
    assert tab.error().startswith("bomb.pdf: this PDF could not be read (")
    assert "\n" not in tab.error()
    # Inflated in the worker (capped at 2 GB), never here.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 300 << 10
    _ready(qtbot, open_tab(library, pid, path))


def test_a_page_that_takes_minutes_is_given_up_at_the_deadline(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Opener,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library, pid, path = paper
    slow = hostile_pdfs.slow(tmp_path / "slow.pdf")
    monkeypatch.setattr(render_server(), "seconds", 5.0)
    tab = open_tab(library, pid, slow)
    qtbot.waitUntil(lambda: tab.error() != "", timeout=30_000)
    assert tab.error() == "slow.pdf: this PDF could not be read (it took longer than 5 s)"
    _ready(qtbot, open_tab(library, pid, path))


def test_a_file_cut_short_is_one_line(qtbot: QtBot, paper: tuple[Library, int, Path],
                                      open_tab: Opener, tmp_path: Path) -> None:
    library, pid, path = paper
    tab = open_tab(library, pid, hostile_pdfs.truncated(path, tmp_path / "cut.pdf"))
    qtbot.waitUntil(lambda: tab.error() != "")
    assert tab.error() == "This PDF cannot be shown: PDF: cut.pdf is damaged or not a PDF"


def test_a_file_whose_cross_reference_is_lost_opens(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Opener,
        tmp_path: Path) -> None:
    library, pid, path = paper
    tab = open_tab(library, pid, hostile_pdfs.bad_xref(path, tmp_path / "xref.pdf"))
    view = _ready(qtbot, tab)
    assert view.page_count() == 2 and tab.error() == ""
    qtbot.waitUntil(lambda: view.page_text(0) is not None)
    text = view.page_text(0)
    assert text is not None and "Sparse Attention" in text.text


def test_closing_the_last_tab_stops_a_page_that_takes_minutes_at_once(
        qtbot: QtBot, paper: tuple[Library, int, Path], tmp_path: Path) -> None:
    library, pid, _path = paper
    tab = ReaderTab(library, pid, hostile_pdfs.slow(tmp_path / "slow.pdf"))
    tab.show()
    qtbot.waitUntil(lambda: tab.view.page_count() == 1)
    assert not pdfium_queue().wait(200)  # (its page being drawn)
    tab.close_document()
    tab.close()
    assert pdfium_queue().wait(5_000)  # (not the request's 30 s: the window may close)
    QApplication.processEvents()
    assert tab.error() == ""  # (nothing said of a file closed)
    tab.deleteLater()
