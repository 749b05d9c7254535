"""The reader (issue 43): a real pdflatex paper in a tab, its pages rendered off the GUI
thread, moved about with the keys, zoomed, its text selected and copied, highlighted
into the library, searched; a damaged file is one line, a huge one opens lazily."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pypdf import PdfWriter
from pytestqt.qtbot import QtBot

from papershelf.core.edits import Change
from papershelf.core.library import Library
from papershelf.core.shapes import View
from papershelf.gui.qt import QApplication, QPoint, QPointF, Qt, QWheelEvent
from papershelf.gui.reader import pages as reader_pages
from papershelf.gui.reader import tab as reader_tab
from papershelf.gui.reader import view as reader_view
from papershelf.gui.reader.cache import CACHE_BYTES
from papershelf.gui.reader.geometry import char_at, line_rects
from papershelf.gui.reader.layout import GAP, Column
from papershelf.gui.reader.pages import pdfium_queue
from papershelf.gui.reader.tab import ReaderTab
from papershelf.gui.reader.view import PdfView
from papershelf.gui.workers import TaskManager
from papershelf.metadata.pdftext import PdfError
from papershelf.reading.document import readable
from papershelf.reading.server import Remote
from tests.pdfs import make_paper


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


@pytest.fixture
def paper(seeded: Library, paper_pdf: Path) -> tuple[Library, int, Path]:
    """The library's first paper, with the pdflatex paper attached."""
    pid = seeded.view_ids(View())[0]
    seeded.attach_file(pid, paper_pdf)
    (attachment,) = seeded.attachments(pid)
    assert attachment.location is not None
    return seeded, pid, attachment.location


@pytest.fixture
def open_tab(qtbot: QtBot) -> Iterator[Callable[..., ReaderTab]]:
    """Opens reader tabs, shown and active; closes and deletes them at teardown."""
    tabs: list[ReaderTab] = []

    def opener(library: Library, pid: int, path: Path, width: int = 800,
               height: int = 700) -> ReaderTab:
        tab = ReaderTab(library, pid, path)
        tabs.append(tab)
        tab.resize(width, height)
        tab.show()
        qtbot.waitExposed(tab)
        tab.activateWindow()
        qtbot.waitActive(tab)
        tab.view.setFocus()
        return tab

    yield opener
    for tab in tabs:
        tab.close_document()
        tab.close()
        tab.deleteLater()
    assert pdfium_queue().wait(10_000)  # (every file closed before the next test)
    QApplication.sendPostedEvents()


def _ready(qtbot: QtBot, tab: ReaderTab) -> PdfView:
    view = tab.view
    qtbot.waitUntil(lambda: view.page_count() > 0 and view.has_image(view.current_page()))
    return view


def _chars(view: PdfView, page: int, phrase: str) -> tuple[QPointF, QPointF]:
    """The centres, in the viewport, of the first and last characters of `phrase` on a
    page (the phrase on one line of the page's text)."""
    text = view.page_text(page)
    assert text is not None
    at = text.text.index(phrase)
    first = view.to_view(page, text.boxes[at]).center()
    last = view.to_view(page, text.boxes[at + len(phrase) - 1]).center()
    return first, last


def _drag(qtbot: QtBot, view: PdfView, start: QPointF, end: QPointF) -> None:
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start.toPoint())
    middle = (start + end) / 2
    qtbot.mouseMove(viewport, middle.toPoint())
    qtbot.mouseMove(viewport, end.toPoint())
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end.toPoint())


def _select(qtbot: QtBot, view: PdfView, page: int, phrase: str) -> None:
    view.go_to(page)
    qtbot.waitUntil(lambda: view.page_text(page) is not None)
    start, end = _chars(view, page, phrase)
    _drag(qtbot, view, start, end)


def test_the_first_page_is_rendered_and_the_page_named_by_its_label(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    assert view.page_count() == 2
    assert tab.page_label.text() == "Page i (1 of 2)"
    # Painted: the page's corner is white paper, its title line has black ink.
    image = view.viewport().grab().toImage()
    page = view.page_rect(0).toRect()
    assert image.pixelColor(page.topLeft() + QPoint(5, 5)).lightness() == 255
    title = [image.pixelColor(x, y).lightness()
             for y in range(page.top(), page.top() + page.height() // 3, 2)
             for x in range(page.left(), page.right(), 2)]
    assert min(title) < 80
    assert tab.error() == ""


def test_keys_move_through_the_pages(qtbot: QtBot, paper: tuple[Library, int, Path],
                                     open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper, height=500)
    view = _ready(qtbot, tab)
    bar = view.verticalScrollBar()
    qtbot.keyClick(view, Qt.Key.Key_J)
    assert bar.value() > 0
    down = bar.value()
    qtbot.keyClick(view, Qt.Key.Key_K)
    assert bar.value() < down
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.current_page() == 1
    assert tab.page_label.text() == "Page 1 (2 of 2)"
    qtbot.waitUntil(lambda: view.has_image(1))
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.current_page() == 0 and bar.value() == 0
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert bar.value() > down
    paged = bar.value()
    qtbot.keyClick(view, Qt.Key.Key_Space, Qt.KeyboardModifier.ShiftModifier)
    assert bar.value() < paged
    assert view.go_to_page("1") and view.current_page() == 1  # its label
    assert view.go_to_page("1 ") and view.current_page() == 1
    assert view.go_to_page("i") and view.current_page() == 0
    assert not view.go_to_page("7")


def test_g_asks_for_a_page_by_its_label(qtbot: QtBot, paper: tuple[Library, int, Path],
                                        open_tab: Callable[..., ReaderTab],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    tab = open_tab(*paper, height=500)
    view = _ready(qtbot, tab)
    asked: list[str] = []

    def answer(_parent: object, _title: str, label: str) -> tuple[str, bool]:
        asked.append(label)
        return "1", True

    monkeypatch.setattr(reader_view.QInputDialog, "getText", answer)
    qtbot.keyClick(view, Qt.Key.Key_G)
    assert asked == ["Page (its label, or its number from 1 to 2):"]
    assert view.current_page() == 1


def test_dark_pages_are_light_on_dark(qtbot: QtBot, paper: tuple[Library, int, Path],
                                      open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    view.dark_action.trigger()
    qtbot.waitUntil(lambda: view.has_image(0))
    image = view.viewport().grab().toImage()
    corner = view.page_rect(0).toRect().topLeft() + QPoint(5, 5)
    assert image.pixelColor(corner).name() == reader_pages.DARK_GROUND
    title = [image.pixelColor(x, y).lightness()
             for y in range(corner.y(), corner.y() + view.page_rect(0).toRect().height() // 3, 2)
             for x in range(corner.x(), view.page_rect(0).toRect().right(), 2)]
    assert max(title) > 200  # (the ink, white)
    view.dark_action.trigger()
    qtbot.waitUntil(lambda: view.has_image(0))
    assert view.viewport().grab().toImage().pixelColor(corner).lightness() == 255


def test_zoom_changes_the_size_of_the_pages(qtbot: QtBot, paper: tuple[Library, int, Path],
                                            open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    width = view.page_rect(0).width()
    qtbot.keyClick(view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert view.page_rect(0).width() == pytest.approx(width * 1.2, rel=0.01)
    assert tab.zoom_label.text() == f"{round(view.zoom() * 100)}%"
    qtbot.waitUntil(lambda: view.has_image(view.current_page()))  # rendered again
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.page_rect(0).width() < width
    # Ctrl+wheel zooms too.
    before = view.zoom()
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(centre, view.viewport().mapToGlobal(centre), QPoint(), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.zoom() == pytest.approx(before * 1.2)
    view.fit_page_action.trigger()
    assert view.page_rect(0).height() <= view.viewport().height()
    view.fit_width_action.trigger()
    assert view.page_rect(0).width() == pytest.approx(width, rel=0.01)


def test_text_dragged_over_is_copied(qtbot: QtBot, paper: tuple[Library, int, Path],
                                     open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    _select(qtbot, view, 1, "compute attention over every pair")
    assert view.selected_text() == "compute attention over every pair"
    assert len(view.selection_rects()) == 1
    QApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "compute attention over every pair"
    # A click (no drag) clears it.
    start, _end = _chars(view, 1, "compute")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=start.toPoint())
    assert view.selected_text() == ""


def test_a_selection_runs_over_lines_and_reads_whole_words(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    view.go_to(1)
    qtbot.waitUntil(lambda: view.page_text(1) is not None)
    text = view.page_text(1)
    assert text is not None
    first = text.text.index("every pair")
    last = text.text.index("which costs") + len("which") - 1
    view.select(1, first, last)
    assert view.selected_text() == "every pair of tokens, which"
    assert len(view.selection_rects()) == 2  # one per line


def test_a_selection_runs_over_a_page_break(qtbot: QtBot, paper: tuple[Library, int, Path],
                                            open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper, height=900)
    view = _ready(qtbot, tab)
    view.set_zoom(0.5)  # (both pages in view)
    qtbot.waitUntil(lambda: view.page_text(0) is not None and view.page_text(1) is not None)
    first, last = view.page_text(0), view.page_text(1)
    assert first is not None and last is not None
    start = first.text.index("long sequence")
    end = last.text.index("Introduction") + len("Introduction") - 1
    _drag(qtbot, view, view.to_view(0, first.boxes[start]).center(),
          view.to_view(1, last.boxes[end]).center())
    assert view.selected_text() == (readable(first.text[start:]) + " "
                                    + readable(last.text[:end + 1]))
    assert view.selected_text().startswith("long sequence.")
    assert view.selection_rects(0) and view.selection_rects(1)
    assert view.copy_action.isEnabled() and not view.highlight_action.isEnabled()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.selected_text() == "" and not view.copy_action.isEnabled()
    # (dragged back up: the same characters, from the other end)
    _drag(qtbot, view, view.to_view(1, last.boxes[end]).center(),
          view.to_view(0, first.boxes[start]).center())
    assert view.selected_text().startswith("long sequence.")


def test_h_highlights_the_selection_into_the_library(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab]) -> None:
    library, pid, _path = paper
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    _select(qtbot, view, 1, "sparse pattern whose cost")
    with qtbot.waitSignal(view.highlightRequested) as asked, \
            qtbot.waitSignal(tab.changed) as changed:
        qtbot.keyClick(view, Qt.Key.Key_H)
    page, rects, quote = asked.args
    assert (page, quote) == (1, "sparse pattern whose cost")
    (kept,) = library.annotations_of([pid])[pid]
    assert (kept.kind, kept.page_index, kept.page_label, kept.quote) == (
        "highlight", 1, "1", "sparse pattern whose cost")
    assert kept.rects == tuple(rects) and kept.file_sha256
    assert tab.annotation_list.count() == 1
    assert "sparse pattern whose cost" in tab.annotation_list.item(0).text()
    assert view.selected_text() == ""
    # Clicking it on the page selects it; the list follows.
    view.choose_annotation(None)
    centre = view.to_view(1, kept.rects[0]).center().toPoint()
    with qtbot.waitSignal(view.annotationClicked) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert clicked.args == [kept.id]
    assert view.chosen_annotation() == kept.id
    assert tab.annotation_list.currentItem() is tab.annotation_list.item(0)
    # Its place from the list, after scrolling away.
    view.go_to(0)
    tab.annotation_list.itemClicked.emit(tab.annotation_list.item(0))
    assert view.current_page() == 1
    # Delete in the list removes it, one change; the window undoes it, then the
    # highlight: the tab shows the library as it is after each.
    tab.annotation_list.setFocus()
    tab.annotation_list.setCurrentRow(0)
    with qtbot.waitSignal(tab.changed) as removed:
        qtbot.keyClick(tab.annotation_list, Qt.Key.Key_Delete)
    assert library.annotations_of([pid]).get(pid, []) == []
    assert tab.annotation_list.count() == 0
    for change in (removed.args[0], changed.args[0]):
        assert change.undo is not None
        change.undo()
        tab.refresh()
        assert tab.annotation_list.count() == (1 if change is removed.args[0] else 0)
    assert view.chosen_annotation() is None


def test_an_annotation_s_menu_edits_its_comment_and_colour(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Callable[..., ReaderTab],
        monkeypatch: pytest.MonkeyPatch) -> None:
    library, pid, _path = paper
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    _select(qtbot, view, 1, "sparse pattern whose cost")
    qtbot.keyClick(view, Qt.Key.Key_H)
    (kept,) = library.annotations_of([pid])[pid]
    monkeypatch.setattr(reader_tab.QInputDialog, "getMultiLineText",
                        lambda *_args: ("the main idea", True))
    menu = tab.annotation_menu(kept.id)
    texts = [action.text() for action in menu.actions()]
    assert texts == ["Edit Comment…", "Colour", "", "Remove Annotation"]
    with qtbot.waitSignal(tab.changed):
        menu.actions()[0].trigger()
    colours = menu.actions()[1].menu()
    assert colours is not None
    (green,) = [action for action in colours.actions() if action.text() == "Green"]
    with qtbot.waitSignal(tab.changed):
        green.trigger()
    (edited,) = library.annotations_of([pid])[pid]
    assert (edited.comment, edited.color) == ("the main idea", "#5fb236")
    assert tab.annotation_list.item(0).text().endswith("\nthe main idea")
    with qtbot.waitSignal(tab.changed):
        menu.actions()[3].trigger()
    assert library.annotations_of([pid]).get(pid, []) == []
    menu.close()


def test_links_and_the_contents_go_to_their_place(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Callable[..., ReaderTab],
        monkeypatch: pytest.MonkeyPatch) -> None:
    tab = open_tab(*paper, height=500)
    view = _ready(qtbot, tab)
    assert [h.title for h in view.headings()] == ["Introduction", "Method", "Results"]
    assert tab.contents.topLevelItemCount() == 3
    # "Section 3" links to the Results, lower on page 1.
    view.go_to(1)
    qtbot.waitUntil(lambda: view.page_text(1) is not None)
    text = view.page_text(1)
    assert text is not None
    (inner,) = [link for link in text.links if link.place is not None]
    assert inner.place is not None and inner.place.page == 1
    before = view.verticalScrollBar().value()
    centre = view.to_view(1, inner.rect).center().toPoint()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert view.verticalScrollBar().value() > before
    # The URL opens in the browser; a link to anything else does not open.
    opened: list[str] = []
    monkeypatch.setattr(reader_tab.QDesktopServices, "openUrl",
                        lambda url: opened.append(url.toString()))
    view.go_to(1)
    outer = next(link for link in text.links if link.uri)
    centre = view.to_view(1, outer.rect).center().toPoint()
    with qtbot.waitSignal(view.linkActivated):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    tab.open_link("file:///etc/passwd")
    assert opened == ["https://example.org/sparse"]
    # The contents: Method is on page 1.
    view.go_to(0)
    tab.contents.itemClicked.emit(tab.contents.topLevelItem(1), 0)
    assert view.current_page() == 1


def test_with_perform_the_window_s_layer_runs_the_writes(
        qtbot: QtBot, paper: tuple[Library, int, Path]) -> None:
    """The window's operations run the write in a worker and record it themselves."""
    library, pid, path = paper
    tasks = TaskManager()
    performed: list[Change] = []

    def perform(write: Callable[[], Change], on_done: Callable[[Change], None]) -> None:
        def landed(change: Change) -> None:
            performed.append(change)
            on_done(change)

        tasks.run(lambda _job: write(), landed, write=True)

    tab = ReaderTab(library, pid, path, perform=perform)
    emitted: list[object] = []
    tab.changed.connect(emitted.append)
    tab.show()
    view = _ready(qtbot, tab)
    _select(qtbot, view, 1, "sparse pattern whose cost")
    view.highlight()
    qtbot.waitUntil(lambda: tab.annotation_list.count() == 1)
    (kept,) = library.annotations_of([pid])[pid]
    assert view.chosen_annotation() == kept.id and len(performed) == 1 and emitted == []
    tab.set_color(kept.id, "#2ea8e5")
    qtbot.waitUntil(lambda: len(performed) == 2)
    assert library.annotations_of([pid])[pid][0].color == "#2ea8e5"
    assert tasks.wait(10_000)
    tab.close_document()
    tab.close()
    tab.deleteLater()
    assert pdfium_queue().wait(10_000)
    QApplication.sendPostedEvents()


def test_find_shows_every_place_and_f3_moves(qtbot: QtBot, paper: tuple[Library, int, Path],
                                            open_tab: Callable[..., ReaderTab]) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert tab.find_bar.isVisible() and tab.find_field.hasFocus()
    # Each letter starts a search; only the last one's answer is shown: the title and
    # the abstract say it on page i, the introduction and the results twice each on 1.
    qtbot.keyClicks(tab.find_field, "Attention")
    qtbot.waitUntil(lambda: tab.find_count.text() == "1 of 6")
    hits = view.hits()
    assert [hit.page for hit in hits] == [0, 0, 1, 1, 1, 1]
    assert view.current_hit() == 0
    assert tab.find_count.text() == f"1 of {len(hits)}"
    qtbot.keyClick(tab.find_field, Qt.Key.Key_F3)
    assert view.current_hit() == 1
    qtbot.keyClick(view, Qt.Key.Key_F3)
    assert view.current_hit() == 2 and view.current_page() == hits[2].page
    qtbot.keyClick(view, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert view.current_hit() == 1
    qtbot.keyClick(tab.find_field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert view.current_hit() == 0
    qtbot.keyClick(tab.find_field, Qt.Key.Key_Escape)
    assert not tab.find_bar.isVisible() and view.hits() == []


def test_a_damaged_pdf_is_one_line(qtbot: QtBot, paper: tuple[Library, int, Path],
                                   open_tab: Callable[..., ReaderTab], tmp_path: Path) -> None:
    library, pid, _path = paper
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n this is not a PDF at all \x00\x01")
    tab = open_tab(library, pid, broken)
    qtbot.waitUntil(lambda: tab.error() != "")
    assert tab.error() == "This PDF cannot be shown: PDF: broken.pdf is damaged or not a PDF"
    assert "\n" not in tab.error()
    assert tab.view.page_count() == 0 and not tab.find_action.isEnabled()


def test_a_page_pdfium_cannot_draw_is_blank_with_a_line(
        qtbot: QtBot, paper: tuple[Library, int, Path], open_tab: Callable[..., ReaderTab],
        monkeypatch: pytest.MonkeyPatch) -> None:
    render = Remote.render

    def failing(remote: Remote, page_index: int, scale: float) -> object:
        if page_index == 1:
            raise PdfError("PDF", "page 2 is damaged")
        return render(remote, page_index, scale)

    monkeypatch.setattr(Remote, "render", failing)
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    view.go_to(1)
    qtbot.waitUntil(lambda: 1 in view.broken_pages())
    assert view.rendered_image(1) is None and tab.error() == ""
    view.go_to(0)
    assert view.has_image(0)


def test_pages_are_rendered_at_the_screen_s_pixel_ratio(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab], monkeypatch: pytest.MonkeyPatch) -> None:
    tab = open_tab(*paper)
    view = _ready(qtbot, tab)
    monkeypatch.setattr(view, "devicePixelRatioF", lambda: 2.0)
    view.fit_width()
    qtbot.waitUntil(lambda: view.has_image(0))
    image = view.rendered_image(0)
    assert image is not None and image.devicePixelRatio() == 2.0
    assert image.width() == pytest.approx(2 * view.page_rect(0).width(), abs=2)


def test_ten_thousand_pages_open_without_rendering_them(
        qtbot: QtBot, paper: tuple[Library, int, Path],
        open_tab: Callable[..., ReaderTab], tmp_path: Path) -> None:
    library, pid, _path = paper
    writer = PdfWriter()
    for _ in range(10_000):
        writer.add_blank_page(612, 792)
    big = tmp_path / "big.pdf"
    with big.open("wb") as out:
        writer.write(out)
    tab = open_tab(library, pid, big)
    rendered: list[int] = []
    tab.view.rendered.connect(rendered.append)
    view = _ready(qtbot, tab)
    assert view.page_count() == 10_000
    assert tab.page_label.text() == "Page 1 (1 of 10,000)"
    qtbot.keyClick(view, Qt.Key.Key_End)
    qtbot.waitUntil(lambda: view.has_image(9_999))
    assert len(set(rendered)) < 10
    # Paging through keeps the cache within its bound.
    for _ in range(40):
        qtbot.keyClick(view, Qt.Key.Key_Space, Qt.KeyboardModifier.ShiftModifier)
        qtbot.waitUntil(lambda: view.has_image(view.current_page()))
    assert view.current_page() < 9_990
    assert 0 < view.cache_size() <= CACHE_BYTES


def test_a_tab_closed_while_its_pages_render_gets_nothing_more(
        qtbot: QtBot, paper: tuple[Library, int, Path]) -> None:
    library, pid, path = paper
    tabs = [ReaderTab(library, pid, path) for _ in range(3)]
    for tab in tabs:
        tab.show()
    first = tabs[0].view
    for tab in tabs[1:]:  # (closed at once: their work is queued, not yet run)
        tab.close_document()
        tab.close()
        tab.deleteLater()
    qtbot.waitUntil(lambda: first.has_image(0))
    assert pdfium_queue().wait(10_000)
    QApplication.sendPostedEvents()
    tabs[0].close_document()
    tabs[0].close()
    tabs[0].deleteLater()
    assert pdfium_queue().wait(10_000)
    QApplication.sendPostedEvents()


def test_the_pages_are_placed_in_one_column() -> None:
    column = Column([(612.0, 792.0), (612.0, 792.0), (300.0, 400.0)])
    column.place(2.0)
    assert column.tops == [GAP, GAP + 1584 + GAP, GAP + 2 * (1584 + GAP)]
    assert column.width == 1224 + 2 * GAP
    assert column.page_at(GAP + 1584 + 1) == 0  # (the gap belongs to the page above)
    assert column.visible(1000, 1000) == range(0, 2)
    assert column.where(column.y_of(1, 0.5)) == (1, 0.5)
    assert column.left(2, 1000) == (1224 + 2 * GAP - 600) / 2
    assert column.fitting("width", 632, 300, 0) == 1.0
    assert column.fitting("page", 632, 420, 2) == 1.0
    assert column.fitting("page", 632, 220, 2) == 0.5


def test_a_selection_is_one_rectangle_per_line() -> None:
    line1 = [(10.0 * i, 100.0, 10.0 * i + 9, 110.0) for i in range(5)]
    comma = (50.0, 98.0, 52.0, 102.0)  # (reaching below the line)
    line2 = [(10.0 * i, 80.0, 10.0 * i + 9, 90.0) for i in range(3)]
    boxes = [*line1, comma, (0.0, 0.0, 0.0, 0.0), *line2]
    assert line_rects(boxes, 0, len(boxes) - 1) == (
        (0.0, 98.0, 52.0, 110.0), (0.0, 80.0, 29.0, 90.0))
    assert char_at(boxes, 25.0, 105.0) == 2
    assert char_at(boxes, 25.0, 70.0) == 9  # (below the last line: its nearest letter)
    assert char_at([(0.0, 0.0, 0.0, 0.0)], 1.0, 1.0) is None
