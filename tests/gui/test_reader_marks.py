"""Marks in the reader that are not on text (issue 43): a sticky note put with N and a
click (or "Add Note Here"), opened and edited by a click, each step undone and redone;
a rectangle dragged over a figure with R (or Alt) kept with the image of what it frames,
shown in the list by that image, copied with its citation, written into the notes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.edits import Change
from papershelf.core.library import Library
from papershelf.core.shapes import View
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QImage, QMenu, Qt
from papershelf.gui.reader import tab as reader_tab
from papershelf.gui.reader.geometry import NOTE_SIZE
from papershelf.gui.reader.pages import pdfium_queue
from papershelf.gui.reader.tab import ReaderTab
from tests.conftest import SEEDS
from tests.gui import test_reader
from tests.gui.conftest import undo, wait_idle
from tests.gui.test_reader import _ready

# The reader's tests' fixtures: the pdflatex paper attached to a library's first paper,
# and tabs opened on it, closed at teardown.
paper_pdf, paper, open_tab = test_reader.paper_pdf, test_reader.paper, test_reader.open_tab


def _answers(monkeypatch: pytest.MonkeyPatch, *answers: tuple[str, bool]) -> list[str]:
    """The note dialog answers these in turn; what it was asked (its labels)."""
    asked: list[str] = []
    queue = list(answers)

    def answer(_parent: object, _title: str, label: str, *_rest: object) -> tuple[str, bool]:
        asked.append(label)
        return queue.pop(0)

    monkeypatch.setattr(reader_tab.QInputDialog, "getMultiLineText", answer)
    return asked


def _undo(tab: ReaderTab, change: Change) -> Change:
    """Undo a change as the window does; the change that redoes it."""
    assert change.undo is not None
    redo = change.undo()
    tab.refresh()
    return redo


def test_n_and_a_click_put_a_sticky_note_a_click_opens_and_each_step_undoes(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Callable[..., ReaderTab],
        monkeypatch: pytest.MonkeyPatch) -> None:
    library, pid, _path = paper
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    asked = _answers(monkeypatch, ("Compare with Fig. 2", True), ("Compare with Fig. 3", True))
    qtbot.keyClick(view, Qt.Key.Key_N)
    assert view.tools.note_action.isChecked()
    where = view.to_view(0, (100, 600, 100, 600)).topLeft().toPoint()
    with qtbot.waitSignal(tab.changed) as added:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert asked == ["Your note on page i:"]
    assert not view.tools.note_action.isChecked()  # (one note, then text again)
    (note,) = library.annotations_of([pid])[pid]
    assert (note.kind, note.page_label, note.comment) == ("note", "i", "Compare with Fig. 2")
    (x, y, _x, _y), = note.rects
    assert abs(x - 100) < 2 and abs(y - 600) < 2
    assert "Note" in tab.annotation_list.item(0).text()
    # Its icon is on the page, in its colour.
    icon = view.to_view(0, (x, y - NOTE_SIZE, x + NOTE_SIZE, y)).center().toPoint()
    colour = view.viewport().grab().toImage().pixelColor(icon)
    assert colour.red() > 200 and colour.blue() < 100  # (yellow, not white paper)
    # A click on it opens it to edit.
    with qtbot.waitSignal(tab.changed) as edited:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=icon)
    assert library.annotations_of([pid])[pid][0].comment == "Compare with Fig. 3"
    assert tab.annotation_list.item(0).text().endswith("Compare with Fig. 3")
    # Each step is one undo, and its redo.
    redo_edit = _undo(tab, edited.args[0])
    assert library.annotations_of([pid])[pid][0].comment == "Compare with Fig. 2"
    _undo(tab, redo_edit)
    assert tab.annotation_list.item(0).text().endswith("Compare with Fig. 3")
    redo_add = _undo(tab, added.args[0])
    assert library.annotations_of([pid]).get(pid, []) == [] and tab.annotation_list.count() == 0
    _undo(tab, redo_add)
    assert [a.comment for a in library.annotations_of([pid])[pid]] == ["Compare with Fig. 3"]
    # Delete on the page removes the note chosen.
    view.choose_annotation(note.id)
    with qtbot.waitSignal(tab.changed) as removed:
        qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert library.annotations_of([pid]).get(pid, []) == []
    _undo(tab, removed.args[0])
    assert tab.annotation_list.count() == 1


def test_add_note_here_and_a_cancelled_note_keep_nothing_unasked(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Callable[..., ReaderTab],
        monkeypatch: pytest.MonkeyPatch) -> None:
    library, pid, _path = paper
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    _answers(monkeypatch, ("", False), ("Why this bound?", True), ("In the margin", True))
    menu = QMenu(view)
    view.tools.add_to_menu(menu, view.to_view(0, (300, 400, 300, 400)).topLeft())
    (here,) = [a for a in menu.actions() if a.text() == "Add Note Here"]
    here.trigger()  # (cancelled)
    assert library.annotations_of([pid]) == {}
    with qtbot.waitSignal(tab.changed):
        here.trigger()
    (note,) = library.annotations_of([pid])[pid]
    assert note.kind == "note" and note.comment == "Why this bound?"
    assert abs(note.rects[0][0] - 300) < 2 and abs(note.rects[0][3] - 400) < 2
    menu.deleteLater()
    # Asked for beside the page (the margin of the view): kept on its edge.
    beside = QMenu(view)
    view.tools.add_to_menu(beside, view.to_view(0, (-30, 400, -30, 400)).topLeft())
    with qtbot.waitSignal(tab.changed):
        next(a for a in beside.actions() if a.text() == "Add Note Here").trigger()
    assert [a.left for a in library.annotations_of([pid])[pid]] == [0, 300]
    beside.deleteLater()


def _drag(qtbot: QtBot, tab: ReaderTab, page: int, corners: tuple[float, ...],
          modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    view = tab.view
    start = view.to_view(page, (corners[0], corners[1], corners[0], corners[1])).topLeft()
    end = view.to_view(page, (corners[2], corners[3], corners[2], corners[3])).topLeft()
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, modifier, start.toPoint())
    qtbot.mouseMove(viewport, ((start + end) / 2).toPoint())
    qtbot.mouseMove(viewport, end.toPoint())
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, modifier, end.toPoint())


def test_r_and_a_drag_frame_a_figure_kept_as_its_image(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab]) -> None:
    library, pid, _path = paper
    key = library.rows([pid])[pid].key
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    _width, height = view.page_size(0)
    # The top of the first page (its title) framed: 300 by 120 points.
    top = (72.0, height - 190, 372.0, height - 70)
    qtbot.keyClick(view, Qt.Key.Key_R)
    assert view.tools.rectangle_action.isChecked()
    with qtbot.waitSignal(tab.changed):
        _drag(qtbot, tab, 0, (top[0], top[3], top[2], top[1]))
    assert not view.tools.rectangle_action.isChecked()
    assert view.selected_text() == ""  # (a frame, not a selection)
    (framed,) = library.annotations_of([pid])[pid]
    assert framed.kind == "rectangle" and framed.has_image
    assert all(abs(a - b) < 2 for a, b in zip(framed.rects[0], top, strict=True))
    png = library.annotation_image(framed.id)
    assert png is not None and png.startswith(b"\x89PNG")
    image = QImage.fromData(png)
    assert abs(image.width() - 600) <= 4 and abs(image.height() - 240) <= 4  # (2 px a point)
    ink = [image.pixelColor(x, y).lightness() for y in range(0, image.height(), 3)
           for x in range(0, image.width(), 3)]
    assert min(ink) < 100 and max(ink) > 240  # (black title on white paper)
    # The list shows it by its image.
    item = tab.annotation_list.item(0)
    assert "Figure" in item.text()
    shown = item.icon().pixmap(reader_tab.THUMBNAIL)
    assert shown.width() == reader_tab.THUMBNAIL.width()  # (the image, not a swatch)
    # A slip of the mouse frames nothing; a drag with Alt frames without the tool.
    tab.view.tools.set_tool("rectangle")
    _drag(qtbot, tab, 0, (100, 300, 101, 301))
    assert len(library.annotations_of([pid])[pid]) == 1
    with qtbot.waitSignal(tab.changed):
        _drag(qtbot, tab, 0, (72, 300, 200, 200), Qt.KeyboardModifier.AltModifier)
    assert [a.kind for a in library.annotations_of([pid])[pid]] == ["rectangle"] * 2
    assert tab.annotation_list.count() == 2
    # Its menu in the list: Copy puts its image and its citation on the clipboard.
    row = next(r for r in range(2) if tab.annotation_list.item(r).data(
        Qt.ItemDataRole.UserRole) == framed.id)
    tab.annotation_list.setCurrentRow(row)
    menu = tab.list_menu(framed.id)
    assert [a.text() for a in menu.actions()] == [
        "Copy", "Add Annotations to Notes", "", "Edit Comment…", "Colour", "",
        "Remove Annotation"]
    menu.actions()[0].trigger()
    copied = QApplication.clipboard().mimeData()
    assert f"\\cite[p.~i]{{{key}}}" in copied.text() and "Figure" in copied.text()
    assert copied.hasImage()
    # Into the notes, cited.
    with qtbot.waitSignal(tab.changed):
        menu.actions()[1].trigger()
    menu.close()
    notes = library.paper(pid).record.notes
    assert notes.count(f"\\cite[p.~i]{{{key}}}") == 2 and "Figure" in notes


def test_a_rectangle_framed_on_dark_pages_keeps_the_page_s_own_colours(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab]) -> None:
    library, pid, _path = paper
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    view.set_dark_pages(True)
    qtbot.waitUntil(lambda: view.has_image(0))
    _width, height = view.page_size(0)
    view.tools.set_tool("rectangle")
    with qtbot.waitSignal(tab.changed):
        _drag(qtbot, tab, 0, (72, height - 70, 372, height - 190))
    (framed,) = library.annotations_of([pid])[pid]
    png = library.annotation_image(framed.id)
    assert png is not None
    image = QImage.fromData(png)
    light = [image.pixelColor(x, y).lightness() for y in range(0, image.height(), 3)
             for x in range(0, image.width(), 3)]
    assert sorted(light)[len(light) // 2] > 200  # (light paper, as printed)
    assert min(light) < 100  # (dark ink)


@pytest.mark.sqlite_only
def test_a_note_and_a_rectangle_are_saved_at_once(
        qtbot: QtBot, library_path: Path, paper_pdf: Path,
        open_tab: Callable[..., ReaderTab], monkeypatch: pytest.MonkeyPatch) -> None:
    """A second program sees them with no tab or window closed (as after a kill -9)."""
    library = Library.open(str(library_path))
    library.ensure_sample(SEEDS)
    pid = library.view_ids(View())[0]
    library.attach_file(pid, paper_pdf, link=True)
    tab = open_tab(library, pid, paper_pdf)
    view = _ready(qtbot, tab)
    _answers(monkeypatch, ("kept", True))
    view.noteRequested.emit(0, 100.0, 600.0)
    view.tools.set_tool("rectangle")
    _drag(qtbot, tab, 0, (72, 700, 372, 600))
    other = Library.open(str(library_path))
    try:
        marks = other.annotations_of([pid])[pid]
        assert sorted(a.kind for a in marks) == ["note", "rectangle"]
        framed = next(a for a in marks if a.kind == "rectangle")
        assert other.annotation_image(framed.id) is not None
    finally:
        other.close()
        tab.close_document()
        assert pdfium_queue().wait(10_000)
        library.close()


def test_a_rectangle_in_the_window_is_one_undo_step_and_a_redo(
        qtbot: QtBot, window: MainWindow, paper_pdf: Path) -> None:
    """Through the window's writes (its worker): the image goes along, Ctrl+Z takes the
    rectangle back, Ctrl+Shift+Z brings it back with its image."""
    window.table.go_to_row(0)
    window.table.setFocus()
    pid = window.model.id_at(0)
    assert pid is not None
    window.library.attach_file(pid, paper_pdf, link=True)
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    tab = window.tabs.currentWidget()
    assert isinstance(tab, ReaderTab)
    view = _ready(qtbot, tab)
    qtbot.keyClick(view, Qt.Key.Key_R)
    _drag(qtbot, tab, 0, (72, 700, 372, 600))
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 1)
    wait_idle(qtbot, window)
    (framed,) = window.library.annotations_of([pid])[pid]
    assert framed.kind == "rectangle" and framed.has_image
    assert "annotation" in window.actions["undo"].text().lower()
    undo(qtbot, window)
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 0)
    assert window.library.annotations_of([pid]) == {}
    window.actions["redo"].trigger()
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 1)
    assert window.library.annotation_image(framed.id) is not None
    window.features.reading.close_tab(window.tabs.indexOf(tab))
    assert pdfium_queue().wait(10_000)
