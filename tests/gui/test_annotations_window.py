"""Annotations in the window beyond the reader (issue 43): the detail pane lists the
current paper's annotations (a click reads the paper there; a thousand of them do not
stall it); File › Export › Annotations… writes the command line's Markdown, and PDF with
Annotations… a copy of the PDF (the library's file untouched); on a shared library
another member's shared annotation shows in an open reader tab and the pane, their
private one never does."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.annotating import New
from papershelf.core.library import Library
from papershelf.gui import annotation_box
from papershelf.gui import settings as S
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QBuffer, QFileDialog, QImage, QIODevice, Qt
from papershelf.gui.reader.pages import pdfium_queue
from papershelf.gui.reader.tab import ReaderTab
from papershelf.reading.pdfwork import in_file
from tests.conftest import SEEDS, run_cli
from tests.gui.conftest import WindowFactory, wait_idle
from tests.gui.test_reader import _ready
from tests.gui.test_reading_in_window import _paper_with_pdf
from tests.pdfs import make_paper
from tests.postgres_server import SharedLibrary

RECT = (72.0, 600.0, 300.0, 640.0)


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


def _png() -> bytes:
    image = QImage(40, 20, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.darkCyan)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    return bytes(buffer.data().data())


def _marks(library: Library, pid: int) -> list[int]:
    """Three annotations on pages 2 and 1 of the paper (two highlights, a figure)."""
    made = [library.add_annotation(pid, new)[1] for new in (
        New("highlight", 1, "1", (RECT,), "We propose a sparse pattern", "the main idea",
            "#5fb236"),
        New("highlight", 0, "i", (RECT,), "We study attention", "", "#ff6666"),
        New("rectangle", 1, "1", ((100.0, 200.0, 300.0, 300.0),), comment="Figure 1",
            image=_png()))]
    return made


def _box(window: MainWindow) -> annotation_box.AnnotationBox:
    return window.detail.annotations


def _shown(window: MainWindow) -> list[str]:
    listed = _box(window).list
    return [listed.item(row).text() for row in range(listed.count())]


def _show(qtbot: QtBot, window: MainWindow, row: int) -> None:
    """Show another paper, then the one of `row`, so the pane reads it anew."""
    window.table.go_to_row(row + 1)
    window.table.go_to_row(row)
    qtbot.waitUntil(lambda: window.detail.current_id() == window.model.id_at(row))


def test_the_detail_pane_lists_the_annotations_and_a_click_reads_there(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    pid = _paper_with_pdf(window, paper_pdf)
    figure = _marks(window.library, pid)[2]
    _show(qtbot, window, 0)
    qtbot.waitUntil(lambda: len(_shown(window)) == 3)
    shown = _shown(window)
    # In reading order: page i first, then page 1's highlight, then its figure.
    assert shown[0].startswith("p. i — “We study attention”")
    assert shown[1] == "p. 1 — “We propose a sparse pattern”\nthe main idea"
    assert shown[2] == "p. 1 — Figure\nFigure 1"
    listed = _box(window).list
    assert _box(window).isVisible() and not _box(window).more_label.isVisible()
    assert _box(window).heading.text() == "Annotations (3)"
    # The figure by its image (wider than tall, as the PNG), the highlights by a chip.
    figure_icon = listed.item(2).icon().availableSizes()[0]
    assert figure_icon.width() > figure_icon.height()
    assert listed.item(0).icon().availableSizes()[0].width() == 12
    # A click opens the reader on that page, the figure chosen.
    item = listed.item(2)
    qtbot.mouseClick(listed.viewport(), Qt.MouseButton.LeftButton,
                     pos=listed.visualItemRect(item).center())
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab) and tab.paper_id == pid
    view = _ready(qtbot, tab)
    qtbot.waitUntil(lambda: view.chosen_annotation() == figure)
    assert view.current_page() == 1
    # Clicking another one of the same paper moves the open tab there.
    window.tabs.setCurrentIndex(0)
    listed.itemClicked.emit(listed.item(0))
    assert window.tabs.currentWidget() is tab and window.tabs.count() == 2
    qtbot.waitUntil(lambda: view.current_page() == 0)
    window.features.reading.close_current()
    assert pdfium_queue().wait(10_000)


def test_a_click_on_an_annotation_of_a_paper_without_its_pdf_says_so(
        qtbot: QtBot, window: MainWindow) -> None:
    pid = window.model.id_at(0)
    assert pid is not None
    _marks(window.library, pid)
    _show(qtbot, window, 0)
    qtbot.waitUntil(lambda: len(_shown(window)) == 3)
    listed = _box(window).list
    listed.itemClicked.emit(listed.item(0))
    assert window.tabs.count() == 1
    assert "has no PDF on this computer" in window.statusBar().currentMessage()


def test_a_paper_with_a_thousand_annotations_lists_the_first_200_quickly(
        qtbot: QtBot, window: MainWindow) -> None:
    pid = window.model.id_at(0)
    assert pid is not None
    window.library.add_annotations(pid, [
        New("highlight", n // 10, str(n // 10 + 1), ((72.0, 700.0 - n % 10 * 50, 300, 710.0
                                                      - n % 10 * 50),), f"quote {n}")
        for n in range(1000)], "many")
    _show(qtbot, window, 0)
    qtbot.waitUntil(lambda: len(_shown(window)) == annotation_box.SHOWN)
    # Read in a worker: asking for them again returns at once, the list still the old one.
    box = _box(window)
    box.show_paper(window.model.id_at(1))
    box.show_paper(pid)
    assert box.list.count() == 0 and box.loading
    qtbot.waitUntil(lambda: len(_shown(window)) == annotation_box.SHOWN)
    more = _box(window).more_label
    assert more.isVisible() and more.text() == "and 800 more (the reader lists them all)"


def test_a_paper_without_annotations_shows_no_list(qtbot: QtBot, window: MainWindow) -> None:
    _show(qtbot, window, 0)
    wait_idle(qtbot, window)
    assert not _box(window).isVisible()


def test_export_of_the_selection_is_the_command_lines_markdown(
        qtbot: QtBot, window: MainWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    library = window.library
    ids = [window.model.id_at(row) for row in (1, 3, 4)]
    first, second, bare = (pid for pid in ids if pid is not None)
    _marks(library, first)
    library.add_annotation(second, New("note", 0, "1", ((50.0, 50.0, 62.0, 62.0),),
                                       comment="Compare with Fig. 3"))
    window.settings.set(S.CITE_FORM, "pandoc")
    target = tmp_path / "notes"  # (".md" is added)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    window.table.select_rows([1, 3, 4], 1)
    window.actions["export_annotations"].trigger()
    wait_idle(qtbot, window)
    written = tmp_path / "notes.md"
    keys = [library.rows([pid])[pid].key for pid in (first, second, bare)]
    status, out, err = run_cli("annotations", "export", "--library",
                               library.engine.url.render_as_string(hide_password=False),
                               *keys, "--cite", "pandoc")
    assert status == 0, err
    assert written.read_text(encoding="utf-8") == out
    assert f"[@{keys[0]}, p. i]" in out and keys[2] not in out
    assert "Exported the annotations of 3 papers" in window.statusBar().currentMessage()
    assert window.features.annotations.last_export == (str(written), 3)


def test_export_with_nothing_selected_takes_the_list_and_says_when_none_has_any(
        qtbot: QtBot, window: MainWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "none.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    window.table.clearSelection()
    window.actions["export_annotations"].trigger()
    wait_idle(qtbot, window)
    assert "None of 38 papers has annotations" in window.statusBar().currentMessage()
    assert not target.exists()
    pid = window.model.id_at(7)
    assert pid is not None
    _marks(window.library, pid)
    window.actions["export_annotations"].trigger()
    wait_idle(qtbot, window)
    assert "We propose a sparse pattern" in target.read_text(encoding="utf-8")
    assert "\\cite[p.~1]" in target.read_text(encoding="utf-8")  # (the preference: \cite)


def test_pdf_with_annotations_is_a_copy_and_the_librarys_file_is_unchanged(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = hashlib.sha256(paper_pdf.read_bytes()).hexdigest()
    pid = _paper_with_pdf(window, paper_pdf)
    _marks(window.library, pid)
    target = tmp_path / "annotated.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    window.actions["export_annotated_pdf"].trigger()
    wait_idle(qtbot, window)
    assert "PDF with 3 annotations" in window.statusBar().currentMessage()
    found = in_file(str(target)).found
    assert sorted(f.page_index for f in found) == [0, 1, 1]
    assert hashlib.sha256(paper_pdf.read_bytes()).hexdigest() == before


def test_a_pdf_that_cannot_be_written_is_one_line(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _paper_with_pdf(window, paper_pdf)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(paper_pdf), "")))
    window.actions["export_annotated_pdf"].trigger()
    wait_idle(qtbot, window)
    message = window.statusBar().currentMessage()
    assert "is the paper's own file" in message and "\n" not in message


# -- a shared library ----------------------------------------------------------------------


@pytest.fixture
def alice_and_bob(qtbot: QtBot, windows: WindowFactory, pg_roles: SharedLibrary
                  ) -> Iterator[tuple[MainWindow, Library]]:
    """Alice's window (listening) and bob's library, on one shared library."""
    alice = Library.open(pg_roles.alice)
    alice.ensure_sample(SEEDS)
    bob = Library.open(pg_roles.bob)
    try:
        window = windows.open(alice)
        updates = window.features.live.updates
        qtbot.waitUntil(lambda: updates is not None and updates.connected)
        yield window, bob
        windows.close_all()
    finally:
        alice.close()
        bob.close()


def test_another_members_shared_annotation_shows_in_an_open_tab_not_a_private_one(
        qtbot: QtBot, alice_and_bob: tuple[MainWindow, Library], paper_pdf: Path) -> None:
    window, bob = alice_and_bob
    pid = _paper_with_pdf(window, paper_pdf)
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab)
    _ready(qtbot, tab)
    assert tab.annotation_list.count() == 0
    _change, shared = bob.add_annotation(pid, New(
        "highlight", 1, "1", (RECT,), "We propose a sparse pattern", "bob's", shared=True))
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 1, timeout=5000)
    assert [a.id for a in tab.annotations()] == [shared]
    assert "bob's" in tab.annotation_list.item(0).text()
    qtbot.waitUntil(lambda: any("bob's" in line for line in _shown(window)), timeout=5000)
    # Bob's private one never shows; the shared one after it does (so it had its chance).
    bob.add_annotation(pid, New("highlight", 0, "i", (RECT,), "We study attention",
                                "private to bob"))
    bob.add_annotation(pid, New("note", 0, "i", ((50.0, 50.0, 62.0, 62.0),),
                                comment="shared again", shared=True))
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 2, timeout=5000)
    texts = [tab.annotation_list.item(r).text() for r in range(2)]
    assert not any("private to bob" in t for t in texts)
    qtbot.waitUntil(lambda: len(_shown(window)) == 2, timeout=5000)
    assert not any("private to bob" in line for line in _shown(window))
    # Bob edits his shared one, then deletes it: the tab and the pane follow.
    bob.edit_annotation(shared, comment="bob changed it")
    qtbot.waitUntil(lambda: any("bob changed it" in tab.annotation_list.item(r).text()
                                for r in range(tab.annotation_list.count())), timeout=5000)
    bob.remove_annotations([shared])
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 1, timeout=5000)
    qtbot.waitUntil(lambda: len(_shown(window)) == 1, timeout=5000)
    window.features.reading.close_current()
    assert pdfium_queue().wait(10_000)
