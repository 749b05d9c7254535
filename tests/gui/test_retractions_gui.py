"""Retractions in the window (issue 44): a retracted paper is marked in the table and
its notice is a line of the detail pane (with the link and the date); a correction is
said quietly; Copy Citation warns once, naming the retracted paper, and still copies;
the background check asks nothing offline."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.gui.features import retractions as feature
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication
from papershelf.metadata import retractions as fetching
from tests.gui.conftest import WindowFactory, wait_idle

pytestmark = pytest.mark.sqlite_only  # (the notices' queries are tested on both stores)

SAMPLE = Path(__file__).parents[1] / "data" / "retraction_watch_sample.csv"
BIB = """\
@article{roe2021, title={Deep Results}, author={Roe, Jane}, journal={J Ex}, year={2021},
  doi={10.1234/jex.2021.42}}
@article{muster2020, title={A Corrected Study}, author={Muster, Max}, journal={PLE},
  year={2020}, doi={10.5555/PLE.2020.7}}
"""


@pytest.fixture
def flagged_window(windows: WindowFactory, gui_library: Library) -> Iterator[MainWindow]:
    gui_library.import_bibtex(BIB, "refs.bib")
    fetching.update(gui_library, None, SAMPLE)
    win = windows.open(gui_library)
    yield win
    windows.close(win)


def _row(window: MainWindow, key: str) -> int:
    [pid] = window.library.ids_for_keys([key])[0]
    row = window.model.row_of(pid)
    assert row is not None
    return row


def _title_cell(window: MainWindow, row: int) -> tuple[str, str]:
    index = window.model.index(row, window.model.column_index("title"))
    window.model.row_at(row)
    return index.data(), index.data(0x03)  # (display, tooltip)


def test_the_table_marks_a_retraction_and_says_a_correction_quietly(
        flagged_window: MainWindow, qtbot: QtBot) -> None:
    window = flagged_window
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.model.row_at(_row(window, "roe2021")) is not None)
    retracted, tip = _title_cell(window, _row(window, "roe2021"))
    assert retracted == "\u2298 Deep Results" and "Retracted" in tip
    corrected, tip = _title_cell(window, _row(window, "muster2020"))
    assert corrected == "A Corrected Study" and "A correction was published" in tip


def test_the_detail_pane_shows_the_notice_with_its_link_and_date(
        flagged_window: MainWindow, qtbot: QtBot) -> None:
    window = flagged_window
    window.table.select_rows([_row(window, "roe2021")], _row(window, "roe2021"))
    label = window.detail.notices_label
    qtbot.waitUntil(label.isVisible, timeout=10000)
    assert "Retracted on 2023-05-03" in label.text()
    assert 'href="https://doi.org/10.1234/notice.2023.001"' in label.text()
    assert "<b>" in label.text()
    window.table.select_rows([_row(window, "muster2020")], _row(window, "muster2020"))
    qtbot.waitUntil(lambda: "Correction on 2022-11-20" in label.text(), timeout=10000)
    assert "<b>" not in label.text()


def test_copy_citation_warns_naming_the_retracted_paper(
        flagged_window: MainWindow, qtbot: QtBot) -> None:
    window = flagged_window
    rows = [_row(window, "roe2021"), _row(window, "muster2020")]
    window.table.select_rows(rows, rows[0])
    window.table.setFocus()
    window.actions["copy_citation"].trigger()
    assert QApplication.clipboard().text() in ("\\cite{roe2021,muster2020}",
                                               "\\cite{muster2020,roe2021}")
    assert window.add_panel.label.text() == \
        "Retracted: Deep Results (2023, notice 10.1234/notice.2023.001)"


def test_the_background_check_asks_nothing_offline(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    asked: list[str] = []
    monkeypatch.setattr(fetching, "download_csv", lambda *a: asked.append("csv"))
    retractions_feature = window.features.retractions
    retractions_feature.check()
    qtbot.waitUntil(lambda: not retractions_feature._running, timeout=10000)
    assert asked == [] and retractions_feature._timer.interval() == feature.CHECK_EVERY_MS


def test_the_background_check_downloads_the_notices_and_the_table_follows(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.services_support import local_server

    gui_library.import_bibtex(BIB, "refs.bib")
    with local_server() as server:
        server.expect_request("/data/retractionwatch", query_string="me@example.org"
                              ).respond_with_data(SAMPLE.read_bytes(), content_type="text/csv")
        monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
        monkeypatch.setenv("PAPERSHELF_CONTACT", "me@example.org")
        monkeypatch.setenv("PAPERSHELF_RETRACTIONWATCH_URL", server.url_for("/").rstrip("/"))
        window = windows.open(gui_library)
        wait_idle(qtbot, window)
        row = _row(window, "roe2021")
        assert _title_cell(window, row)[0] == "Deep Results"
        window.features.retractions.check()
        qtbot.waitUntil(lambda: _title_cell(window, row)[0] == "\u2298 Deep Results",
                        timeout=15000)
        assert [line for line in server.log if line[0].path == "/data/retractionwatch"]
        windows.close(window)


def test_a_nature_this_version_does_not_know_is_a_quiet_line(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot) -> None:
    """Another member (or a newer client) wrote a nature outside core's list: the table
    paints, and the detail pane says it plainly, after the known ones."""
    from papershelf.core import retractions

    gui_library.import_bibtex(BIB, "refs.bib")
    retractions.replace_source(gui_library.context, retractions.RETRACTION_WATCH, [
        retractions.NoticeEntry("Withdrawal", doi_norm="10.1234/jex.2021.42"),
        retractions.NoticeEntry("Correction", doi_norm="10.1234/jex.2021.42",
                                date="2022-01-01")])
    window = windows.open(gui_library)
    wait_idle(qtbot, window)
    row = _row(window, "roe2021")
    qtbot.waitUntil(lambda: window.model.row_at(row) is not None)
    assert _title_cell(window, row)[0] == "Deep Results"
    window.table.select_rows([row], row)
    label = window.detail.notices_label
    qtbot.waitUntil(label.isVisible, timeout=10000)
    assert label.text() == "Correction on 2022-01-01<br>Withdrawal"
    windows.close(window)


def test_a_failed_background_check_is_a_quiet_note_and_the_next_one_is_planned(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever stops the daily check (here an answer no code foresaw) is a line of the
    status bar, not the crash dialog; the check comes again a day later."""
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    monkeypatch.setattr(feature, "_csv_is_old", lambda _library: False)
    window.library.import_bibtex(BIB, "refs.bib")

    def hostile(doi: str, _client: object) -> list[object]:
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(fetching, "crossref_notices", hostile)
    check = window.features.retractions
    check._new_ids = set(window.library.ids_for_keys(["roe2021"])[0])
    check.check()
    qtbot.waitUntil(lambda: not check._running, timeout=10000)
    assert window.statusBar().currentMessage() == \
        "The check for retraction notices failed; it runs again tomorrow"
    assert check._timer.interval() == feature.CHECK_EVERY_MS


def test_a_download_that_fails_midway_leaves_no_temporary_folder(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills while the 400 MB CSV is written: the partial file and its folder
    go; the check says it failed, quietly."""
    import errno

    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    folders: list[Path] = []

    def download(_client: object, folder: Path) -> Path:
        folders.append(folder)
        (folder / "retraction_watch.csv").write_bytes(b"x" * 100_000)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fetching, "download_csv", download)
    check = window.features.retractions
    check.check()
    qtbot.waitUntil(lambda: not check._running, timeout=10000)
    assert len(folders) == 1 and not folders[0].exists()
    assert window.statusBar().currentMessage() == \
        "The check for retraction notices failed; it runs again tomorrow"
