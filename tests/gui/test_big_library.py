"""A library too big to load at once: the first page shows at once, the rest follows."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core import ingest
from papershelf.core.library import Library
from papershelf.formats.records import Author, PaperRecord, ReadResult
from papershelf.gui.features import importing
from papershelf.gui.main_window import MainWindow
from papershelf.gui.table_model import FIRST_PAGE
from tests.gui.conftest import WindowFactory, wait_idle


def _fill(library: Library, n: int) -> None:
    library.import_result(ReadResult(records=[
        PaperRecord(title=f"Paper {i:05d} on okapis", year=2000 + i % 25,
                    authors=[Author("Lovelace", "Ada")], abstract=f"Okapi study {i}. " * 8)
        for i in range(n)]), "big.bib", "bibtex")
    library.index_pending()


def test_a_big_list_shows_its_first_page_then_all_of_it(
    qtbot: QtBot, windows: WindowFactory, gui_library: Library
) -> None:
    _fill(gui_library, 2 * FIRST_PAGE)
    window = windows.open(gui_library)
    model = window.model
    total = 2 * FIRST_PAGE + 38
    qtbot.waitUntil(lambda: model.complete and model.rowCount() == total, timeout=10000)
    assert window.count_label.text() == f"{total:,} papers"
    # Scrolled and selected in the first page, the user keeps both when the rest arrives.
    window.table.go_to_row(10)
    window.search.setText("okapis")
    qtbot.waitUntil(lambda: model.view.search == "okapis" and model.complete, timeout=10000)
    assert model.rowCount() == 2 * FIRST_PAGE
    window.table.setFocus()
    window.actions["select_all"].trigger()
    assert window.selected_count() == 2 * FIRST_PAGE
    wait_idle(qtbot, window)


def test_typing_a_search_shows_first_results_before_the_whole_list(
    qtbot: QtBot, windows: WindowFactory, gui_library: Library
) -> None:
    _fill(gui_library, 2 * FIRST_PAGE)
    window = windows.open(gui_library)
    model = window.model
    wait_idle(qtbot, window)
    with qtbot.waitSignal(model.refreshed, timeout=5000):
        window.search.setText("okapi*")
    assert model.view.search == "okapi*"
    assert model.rowCount() == model.first_page and not model.complete
    assert "counting" in window.count_label.text()
    qtbot.waitUntil(lambda: model.complete, timeout=10000)
    assert model.rowCount() == 2 * FIRST_PAGE
    wait_idle(qtbot, window)


def test_a_searchs_first_page_fills_the_table_however_tall(
    qtbot: QtBot, windows: WindowFactory, gui_library: Library
) -> None:
    _fill(gui_library, 4 * FIRST_PAGE)
    window = windows.open(gui_library)
    model, table = window.model, window.table
    wait_idle(qtbot, window)
    pages = []
    for height, query in ((500, "okapi*"), (2400, "okapis ada")):
        window.resize(900, height)
        qtbot.waitUntil(lambda h=height: table.viewport().height() > h // 2, timeout=5000)
        with qtbot.waitSignal(model.refreshed, timeout=5000):
            window.search.setText(query)  # (a new search: its first page, then the rest)
        shown = table.viewport().height() // table.verticalHeader().defaultSectionSize()
        assert model.rowCount() > shown and not model.complete
        pages.append(model.rowCount())
        qtbot.waitUntil(lambda: model.complete, timeout=10000)
    assert pages[1] > pages[0]
    wait_idle(qtbot, window)


def test_papers_of_a_big_import_become_searchable_in_the_window(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importing, "INDEX_SLICE", 500)  # several slices, edits between
    # Read in pieces by worker processes, as a big file is.
    monkeypatch.setattr(ingest, "PIECE_BYTES", 8192)
    monkeypatch.setattr(ingest, "MIN_PIECES_BYTES", 16384)
    bib = tmp_path / "big.bib"
    bib.write_text("".join(
        f"@article{{narwhal{i},\n  title = {{Narwhal tusks, part {i}}},\n"
        f"  author = {{Lovelace, Ada}},\n  year = {{2020}}\n}}\n\n" for i in range(1200)),
        encoding="utf-8")
    window.features.importing.start_import([str(bib)])
    qtbot.waitUntil(lambda: window.features.importing.last_import_report is not None, timeout=20000)
    assert window.features.importing.last_import_report.report.added == 1200
    assert window.progress.isHidden()
    qtbot.waitUntil(lambda: window.library.pending_index() == 0, timeout=20000)
    wait_idle(qtbot, window)
    window.search.setText("narwhal")
    qtbot.waitUntil(lambda: window.model.view.search == "narwhal" and window.model.complete,
                    timeout=10000)
    assert window.model.rowCount() == 1200
    wait_idle(qtbot, window)
