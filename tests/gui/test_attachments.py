"""PDFs in the window: Paper > Attach PDF…, a PDF dropped on a paper's row, Paper >
Download PDF in the background, the attached files in the detail pane, Shift+O on the
attached file, search in the PDF's text, and undo.

A local server on 127.0.0.1 serves the PDFs; every window test runs on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.formats.records import Author, PaperRecord, ReadResult
from papershelf.gui.i18n import data_size
from papershelf.gui.main_window import MainWindow
from papershelf.gui.operations import Downloads
from papershelf.gui.qt import (
    QDesktopServices,
    QDropEvent,
    QFileDialog,
    QMimeData,
    QPointF,
    Qt,
    QUrl,
)
from tests import services_support
from tests.conftest import fake_opener
from tests.gui.conftest import undo, wait_idle
from tests.test_pdf import make_pdf

server = services_support.server
httpserver = services_support.httpserver

BODY = "Zanzibar frobnication of quaternion widgets"
WAIT = 10_000


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    """A PDF file of the user's, outside the library."""
    path = tmp_path / "downloads" / "FrameQuant preprint.pdf"
    path.parent.mkdir()
    path.write_bytes(make_pdf(BODY))
    return path


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[QUrl]]:
    """What the desktop was asked to open (nothing is opened)."""
    urls: list[QUrl] = []

    def open_url(url: QUrl) -> bool:
        urls.append(url)
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    yield urls


def go_to(window: MainWindow, row: int) -> int:
    """Make `row` the current and only selected paper; its id."""
    window.table.go_to_row(row)
    window.table.setFocus()
    pid = window.model.id_at(row)
    assert pid is not None and window.detail.current_id() == pid
    return pid


def texts_read(qtbot: QtBot, window: MainWindow) -> None:
    """Until the attached files' text is read for search (and every job landed)."""
    qtbot.waitUntil(lambda: window.ops._texts_job is None and not window.tasks.busy(),
                    timeout=WAIT)


def search(qtbot: QtBot, window: MainWindow, text: str) -> list[int]:
    window.search.setText(text)
    qtbot.waitUntil(lambda: window.model.view.search == text and not window.tasks.busy(),
                    timeout=WAIT)
    return list(window.model.ids)


def test_attach_pdf_copies_it_lists_it_searches_it_and_undo_takes_it_off(
        window: MainWindow, qtbot: QtBot, pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *args, **kwargs: ([str(pdf)], "")))
    pid = go_to(window, 2)

    window.actions["attach_pdf"].trigger()
    texts_read(qtbot, window)

    (attached,) = window.library.attachments(pid)
    assert attached.location == window.library.files_folder / "FrameQuant preprint.pdf"
    assert window.detail.files_label.isVisibleTo(window.detail)
    assert attached.size < 1000  # (a small file in bytes, a bigger one in kB: no "0.0 MB")
    assert window.detail.files_label.text() == (
        f"Attached files:\n• FrameQuant preprint.pdf ({attached.size} bytes)")
    assert (data_size(27_600), data_size(3_400_000)) == ("27.6 kB", "3.4 MB")
    assert window.detail.files_label.textFormat() == Qt.TextFormat.PlainText
    assert window.actions["undo"].text() == "&Undo Attach FrameQuant preprint.pdf"
    assert search(qtbot, window, '"quaternion widgets"') == [pid]

    undo(qtbot, window)
    assert window.library.attachments(pid) == []
    qtbot.waitUntil(lambda: list(window.model.ids) == [], timeout=WAIT)
    assert attached.location.exists()  # the file is never deleted


def test_detach_takes_the_files_off_and_undo_puts_them_back(
        window: MainWindow, qtbot: QtBot, pdf: Path) -> None:
    pid = go_to(window, 1)
    window.library.attach_file(pid, pdf)
    window.detail.show_paper(window.library.paper(pid))
    assert window.detail.files_label.isVisibleTo(window.detail)

    window.actions["detach_files"].trigger()
    wait_idle(qtbot, window)
    assert window.library.attachments(pid) == []
    assert not window.detail.files_label.isVisibleTo(window.detail)
    assert (window.library.files_folder / pdf.name).exists()

    undo(qtbot, window)
    assert [a.name for a in window.library.attachments(pid)] == [pdf.name]
    assert window.detail.files_label.isVisibleTo(window.detail)


def test_a_file_that_is_not_a_pdf_is_refused_with_one_line(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "login.pdf"
    page.write_text("<html>Please sign in</html>")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *args, **kwargs: ([str(page)], "")))
    pid = go_to(window, 0)
    messages: list[str] = []
    window.ops.failed.connect(messages.append)

    window.actions["attach_pdf"].trigger()
    wait_idle(qtbot, window)

    assert messages == [f"{page}: not a PDF (it does not start like one); nothing attached"]
    assert window.library.attachments(pid) == []
    assert not window.ops.undo_stack.canUndo()


def drop_on_row(window: MainWindow, row: int, paths: list[Path]) -> bool:
    """Drop local files on a row of the table, as a file manager does; whether the
    table took them."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    where = window.table.visualRect(window.model.index(row, 2)).center()
    drop = QDropEvent(QPointF(where), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    drop.ignore()
    window.table.dropEvent(drop)
    return drop.isAccepted()


def test_a_pdf_dropped_on_a_row_is_attached_to_that_rows_paper(
        window: MainWindow, qtbot: QtBot, pdf: Path) -> None:
    current = go_to(window, 0)
    target = window.model.id_at(3)

    assert drop_on_row(window, 3, [pdf])
    qtbot.waitUntil(lambda: bool(window.library.attachments(target or 0)), timeout=WAIT)
    texts_read(qtbot, window)

    assert window.library.attachments(current) == []
    assert search(qtbot, window, "frobnication") == [target]


def test_other_files_dropped_on_a_row_are_left_to_the_window(
        window: MainWindow, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, title = {A}}\n")
    assert not drop_on_row(window, 1, [bib])  # (the window imports it)


def test_shift_o_opens_the_attached_pdf_and_else_the_pdf_online(
        window: MainWindow, qtbot: QtBot, pdf: Path, opened: list[QUrl], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = fake_opener(tmp_path, monkeypatch)
    pid = go_to(window, 1)
    window.library.attach_file(pid, pdf, link=True)

    qtbot.keyClick(window.table, Qt.Key.Key_O, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: asked.is_file() and asked.read_text() == f"{pdf}\n")
    wait_idle(qtbot, window)
    assert "Could not open" not in window.statusBar().currentMessage()

    pdf.write_text("no longer a PDF")  # (only a PDF is ever opened)
    qtbot.keyClick(window.table, Qt.Key.Key_O, Qt.KeyboardModifier.ShiftModifier)
    wait_idle(qtbot, window)
    assert asked.read_text() == f"{pdf}\n" and opened == []
    assert "names no PDF" in window.statusBar().currentMessage()


def test_shift_o_says_where_the_pdf_is_when_no_program_opens_it(
        window: MainWindow, qtbot: QtBot, pdf: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A desktop with no PDF viewer: Shift+O did nothing visible. The status bar says the
    PDF could not be opened, and where the file is."""
    fake_opener(tmp_path, monkeypatch, status=3)
    pid = go_to(window, 1)
    window.library.attach_file(pid, pdf, link=True)
    qtbot.keyClick(window.table, Qt.Key.Key_O, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: "Could not open the PDF" in window.statusBar().currentMessage())
    assert str(pdf) in window.statusBar().currentMessage()


# -- Download PDF --------------------------------------------------------------------------


@pytest.fixture
def online(monkeypatch: pytest.MonkeyPatch) -> None:
    """Online (the tests' environment may say otherwise)."""
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)


def paper_naming(library: Library, url: str, title: str) -> int:
    record = PaperRecord(title=title, year=2024, authors=[Author("Adepu", "Harshavardhan")],
                         url=url)
    return library.import_result(ReadResult(records=[record]), "t", "bibtex").added_ids[0]


def download(qtbot: QtBot, window: MainWindow, pids: list[int]) -> Downloads:
    """Paper > Download PDF on these papers; what it did, once everything landed."""
    window.table.select_rows(window.model.rows_of(pids), None)
    with qtbot.waitSignal(window.downloadFinished, timeout=WAIT) as finished:
        window.actions["download_pdf"].trigger()
        assert window.progress.isVisible() and window.cancel_button.isVisible()
    texts_read(qtbot, window)
    outcome = finished.args[0]
    assert isinstance(outcome, Downloads)
    return outcome


def test_download_pdf_fetches_attaches_and_reports_each_failure(
        gui_library: Library, windows: object, qtbot: QtBot, httpserver: HTTPServer,
        online: None, monkeypatch: pytest.MonkeyPatch) -> None:
    httpserver.expect_request("/good.pdf").respond_with_data(
        make_pdf(BODY), content_type="application/pdf")
    httpserver.expect_request("/login.pdf").respond_with_data(
        "<html>sign in</html>", content_type="text/html")
    good = paper_naming(gui_library, httpserver.url_for("/good.pdf"), "Good Paper")
    bad = paper_naming(gui_library, httpserver.url_for("/login.pdf"), "Bad Paper")
    shown: list[str] = []
    monkeypatch.setattr(MainWindow, "show_error", lambda self, message: shown.append(message))
    window = windows.open(gui_library)  # type: ignore[attr-defined]

    outcome = download(qtbot, window, [good, bad])

    assert outcome.summary() == "1 PDF attached, 1 failed"
    (line,) = outcome.failures()
    assert line.endswith(": download: not a PDF (the server sent an HTML page)")
    assert shown == [outcome.report()]
    assert [a.name for a in gui_library.attachments(good)] == ["Adepu 2024 - Good Paper.pdf"]
    assert gui_library.attachments(bad) == []
    assert not window.progress.isVisible()
    assert search(qtbot, window, "frobnication") == [good]

    undo(qtbot, window)
    assert gui_library.attachments(good) == []


def test_download_pdf_offline_asks_nothing(
        gui_library: Library, windows: object, qtbot: QtBot, httpserver: HTTPServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    monkeypatch.setattr(MainWindow, "show_error", lambda self, message: None)
    pid = paper_naming(gui_library, httpserver.url_for("/good.pdf"), "Good Paper")
    window = windows.open(gui_library)  # type: ignore[attr-defined]

    outcome = download(qtbot, window, [pid])

    (line,) = outcome.failures()
    assert "offline mode is on" in line and outcome.summary() == "0 PDFs attached, 1 failed"
    assert httpserver.log == [] and gui_library.attachments(pid) == []


def test_a_damaged_pdf_attached_says_so_in_the_status_bar(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    """The text read in the background reports a damaged file: its line reaches the
    status bar (the signal once went nowhere: see gui.operations.Operations)."""
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nthis is not a PDF body at all")
    pid = go_to(window, 0)
    window.ops.attach_files(pid, [str(broken)])
    qtbot.waitUntil(lambda: "damaged" in window.statusBar().currentMessage(),
                    timeout=WAIT)
