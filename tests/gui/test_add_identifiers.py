"""Adding papers by identifier in the window, and opening them to read.

A local server on 127.0.0.1 plays Crossref and arXiv (tests/data/services); no test
reaches the internet. Every window test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot
from werkzeug import Request, Response

from papershelf.core.library import Library
from papershelf.formats.records import Author, PaperRecord, ReadResult
from papershelf.gui.add_dialog import AddDialog
from papershelf.gui.detail import links_html, open_link
from papershelf.gui.main_window import MainWindow
from papershelf.gui.operations import AddOutcome
from papershelf.gui.qt import (
    QApplication,
    QDesktopServices,
    QDropEvent,
    QMimeData,
    QPointF,
    Qt,
    QUrl,
)
from papershelf.metadata.http import SERVICES, HttpSettings
from papershelf.metadata.identifiers import parse_many
from tests import services_support
from tests.gui.conftest import undo, wait_idle
from tests.services_support import DATA

server = services_support.server
httpserver = services_support.httpserver

BERT = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
BERT_DOI_PATH = "/works/10.18653/v1/n19-1423"
MADE_UP = "A Paper Made Up for the Tests of Adding by Identifier"
FRAMEQUANT = "FrameQuant: Flexible Low-Bit Quantization for Transformers"
SAMPLES = 38
WAIT = 10_000


def crossref_bert() -> str:
    return (DATA / "crossref" / "work-10.18653-v1-n19-1423.json").read_text(encoding="utf-8")


def arxiv_feed(arxiv_id: str = "2403.06082", title: str | None = None) -> str:
    """arXiv's answer for FrameQuant; with a `title`, for a made-up paper of that title
    and id instead (its own abstract, so it is no paper of the sample library)."""
    text = (DATA / "arxiv" / "query-2403.06082.xml").read_text(encoding="utf-8")
    if title is None:
        return text
    text = re.sub(r"<title>FrameQuant.*?</title>", f"<title>{title}</title>", text,
                  flags=re.DOTALL)
    text = re.sub(r"<summary>.*?</summary>",
                  "<summary>An abstract written for this test only.</summary>", text,
                  flags=re.DOTALL)
    return text.replace("2403.06082", arxiv_id)


@pytest.fixture
def services(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    """The local server as every service; online, with no API keys."""
    root = httpserver.url_for("/").rstrip("/")
    for name in ("CROSSREF", "ARXIV", "OPENREVIEW", "DBLP", "OPENALEX", "S2", "PMLR",
                 "ACL"):
        monkeypatch.setenv(f"PAPERSHELF_{name}_URL", root)
        monkeypatch.delenv(f"PAPERSHELF_{name}_KEY", raising=False)
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    return httpserver


def expect_bert(services: HTTPServer) -> None:
    services.expect_request(BERT_DOI_PATH).respond_with_data(
        crossref_bert(), content_type="application/json")


def expect_arxiv(services: HTTPServer, arxiv_id: str, title: str | None = None) -> None:
    services.expect_request(
        "/api/query", query_string={"id_list": arxiv_id, "max_results": "1"}
    ).respond_with_data(arxiv_feed(arxiv_id, title), content_type="application/atom+xml")


def titles(window: MainWindow) -> list[str]:
    rows = window.library.rows(list(window.model.ids))
    return [rows[pid].title for pid in window.model.ids]


def added(qtbot: QtBot, window: MainWindow, start: object) -> AddOutcome:
    """Call `start`, then wait for the job it starts and the window's writes."""
    with qtbot.waitSignal(window.adder.finished, timeout=WAIT) as blocker:
        assert callable(start)
        start()
    wait_idle(qtbot, window)
    outcome = blocker.args[0]
    assert isinstance(outcome, AddOutcome)
    return outcome


# -- adding -------------------------------------------------------------------------------


def test_dialog_adds_a_doi_and_an_arxiv_id_in_one_job_and_one_undo_step(
        window: MainWindow, services: HTTPServer, qtbot: QtBot) -> None:
    expect_bert(services)
    expect_arxiv(services, "2401.12345", MADE_UP)
    action = window.actions["add_identifiers"]
    assert action.shortcut().toString() == "Ctrl+Shift+N"
    action.trigger()
    dialog = window.findChild(AddDialog)
    assert dialog is not None and dialog.isVisible()
    assert not dialog.add_button.isEnabled()
    dialog.text_edit.setPlainText("https://doi.org/10.18653/v1/N19-1423\n\narXiv:2401.12345")

    outcome = added(qtbot, window, dialog.add_button.click)

    assert outcome.summary() == "Added 2, completed 0, already had 0, failed 0"
    assert window.add_panel.isVisible()
    assert window.add_panel.text().startswith("Added 2, completed 0")
    assert len(services.log) == 2
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES + 2, timeout=WAIT)
    assert BERT in titles(window) and MADE_UP in titles(window)
    assert outcome.result is not None
    new_ids = outcome.result.paper_ids
    qtbot.waitUntil(lambda: sorted(window.table.selected_ids()) == sorted(new_ids),
                    timeout=WAIT)
    assert window.ops.undo_stack.count() == 1

    undo(qtbot, window)
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES, timeout=WAIT)
    assert BERT not in titles(window) and MADE_UP not in titles(window)
    assert window.library.count() == SAMPLES
    assert window.library.details(new_ids) == []


def test_completing_a_paper_already_there_is_undone_and_redone(
        window: MainWindow, services: HTTPServer, qtbot: QtBot) -> None:
    expect_arxiv(services, "2403.06082")
    (pid,), _ = window.library.ids_for_keys(["icml2024framequant"])
    before = window.library.paper(pid)
    assert before is not None and before.record.title_provisional
    window.table.setFocus()
    window.ops.set_starred([pid], True)  # the user's own data stays through it all

    outcome = added(qtbot, window, lambda: window.adder.add_text("arXiv:2403.06082"))

    assert outcome.summary() == "Added 0, completed 1, already had 0, failed 0"
    after = window.library.paper(pid)
    assert after is not None and after.record.title == FRAMEQUANT
    assert after.record.authors and not after.record.title_provisional
    assert window.library.count() == SAMPLES

    undo(qtbot, window)
    back = window.library.paper(pid)
    assert back is not None and back.record.title_provisional
    assert (back.record.title, back.record.authors) == (before.record.title,
                                                        before.record.authors)
    assert back.starred and back.key == before.key

    window.actions["redo"].trigger()
    wait_idle(qtbot, window)
    again = window.library.paper(pid)
    assert again is not None and again.record.title == FRAMEQUANT and again.starred


def test_an_identifier_that_does_not_exist_is_one_failure_line(
        window: MainWindow, services: HTTPServer, qtbot: QtBot) -> None:
    services.expect_request("/works/10.1234/nowhere").respond_with_data("", status=404)

    outcome = added(qtbot, window, lambda: window.adder.add_text("doi:10.1234/nowhere"))

    assert outcome.summary() == "Added 0, completed 0, already had 0, failed 1"
    assert outcome.failures() == ["10.1234/nowhere: Crossref: not found (DOI 10.1234/nowhere)"]
    lines = window.add_panel.text().splitlines()
    assert lines[:2] == [outcome.summary(), outcome.failures()[0]]
    assert window.library.count() == SAMPLES
    assert window.ops.undo_stack.count() == 0


def test_offline_fails_fast_with_a_line_per_identifier(
        window: MainWindow, services: HTTPServer, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")

    outcome = added(qtbot, window, lambda: window.adder.add_text(
        "10.18653/v1/N19-1423\nhttps://arxiv.org/abs/2401.12345"))

    assert outcome.summary().endswith("failed 2")
    assert [line.split(":")[0] for line in outcome.failures()] == [
        "10.18653/v1/n19-1423", "2401.12345"]
    assert all("offline" in line for line in outcome.failures())
    assert services.log == []
    assert window.library.count() == SAMPLES
    assert window.ops.undo_stack.count() == 0


def test_unreachable_services_say_so_and_retry_adds(
        window: MainWindow, services: HTTPServer, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No network: each line says the service could not be reached (no exception names,
    never "nothing found"), the identifiers stay in the panel, and Retry looks them up
    again once the services answer."""
    import socket

    with socket.socket() as probe:  # a port on 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    for name in ("CROSSREF", "OPENALEX", "S2", "DBLP"):
        monkeypatch.setenv(f"PAPERSHELF_{name}_URL", closed)
    monkeypatch.setenv("PAPERSHELF_OPENALEX_KEY", "k")
    monkeypatch.setenv("PAPERSHELF_S2_KEY", "k")

    outcome = added(qtbot, window, lambda: window.adder.add_text(
        f"10.18653/v1/N19-1423\n{MADE_UP}"))

    failures = outcome.failures()
    assert len(failures) == 2
    assert "Crossref: could not be reached" in failures[0]
    assert "no service could be reached" in failures[1]
    shown = window.add_panel.text()
    assert "Error" not in shown and "nothing found" not in shown
    assert "10.18653/v1/n19-1423" in shown and MADE_UP in shown
    assert window.add_panel.retry_button.isVisible()

    monkeypatch.setenv("PAPERSHELF_CROSSREF_URL", services.url_for("/").rstrip("/"))
    expect_bert(services)
    outcome = added(qtbot, window, window.add_panel.retry_button.click)
    assert [line.split(":")[0] for line in outcome.failures()] == [MADE_UP]
    assert BERT in titles(window)


def test_cancel_mid_job_adds_nothing(window: MainWindow, services: HTTPServer,
                                     qtbot: QtBot) -> None:
    asked, answer = threading.Event(), threading.Event()

    def slow_crossref(_request: Request) -> Response:
        asked.set()
        answer.wait(WAIT / 1000)  # until the test has cancelled
        return Response(crossref_bert(), content_type="application/json")

    services.expect_request(BERT_DOI_PATH).respond_with_handler(slow_crossref)
    try:
        assert window.adder.add_text("10.18653/v1/N19-1423\narXiv:2401.12345")
        qtbot.waitUntil(asked.is_set, timeout=WAIT)
        assert window.add_panel.cancel_button.isVisible()
        with qtbot.waitSignal(window.adder.finished, timeout=WAIT) as blocker:
            qtbot.mouseClick(window.add_panel.cancel_button, Qt.MouseButton.LeftButton)
            answer.set()
    finally:
        answer.set()
    wait_idle(qtbot, window)

    outcome = blocker.args[0]
    assert outcome.cancelled and outcome.result is None
    assert window.add_panel.text() == "Cancelled; nothing was added"
    assert len(services.log) == 1  # arXiv was never asked
    assert window.library.count() == SAMPLES
    assert window.ops.undo_stack.count() == 0


def crossref_work(request: Request) -> Response:
    """Crossref's answer for any DOI under 10.5555/: a paper of its own, titled by it."""
    doi = request.path.removeprefix("/works/")
    work = json.loads(crossref_bert())
    work["message"].update(DOI=doi, title=[f"A Paper Numbered {doi.rsplit('.', 1)[-1]}"],
                           URL=f"https://doi.org/{doi}")
    del work["message"]["abstract"]  # (one abstract for all would make them one paper)
    return Response(json.dumps(work), content_type="application/json")


def test_two_hundred_identifiers_are_one_job_and_one_undo_step(
        window: MainWindow, services: HTTPServer, qtbot: QtBot, tmp_path: Path) -> None:
    services.expect_request(re.compile(r"/works/10\.5555/.*")).respond_with_handler(
        crossref_work)
    window.adder.settings = HttpSettings(
        cache_dir=tmp_path / "http", spacing={name: 0.0 for name in SERVICES})
    wanted = "\n".join(f"10.5555/bench.{n}" for n in range(200))
    progress: list[int] = []
    window.add_panel.progress.valueChanged.connect(progress.append)

    outcome = added(qtbot, window, lambda: window.adder.add(parse_many(wanted)))

    assert outcome.summary() == "Added 200, completed 0, already had 0, failed 0"
    assert progress[-1] == 200
    assert window.ops.undo_stack.count() == 1
    assert window.ops.undo_stack.undoText() == "Add 200 papers"
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES + 200, timeout=WAIT)
    assert "A Paper Numbered 199" in titles(window)

    undo(qtbot, window)
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES, timeout=WAIT)
    assert window.library.count() == SAMPLES


def test_cancel_before_the_job_starts_asks_nobody(
        window: MainWindow, services: HTTPServer, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.adder.finished, timeout=WAIT) as blocker:
        assert window.adder.add_text("10.18653/v1/N19-1423")
        assert window.adder.running
        window.adder.cancel()
    wait_idle(qtbot, window)

    assert blocker.args[0].cancelled
    assert window.add_panel.text() == "Cancelled; nothing was added"
    assert not window.adder.running
    assert services.log == []
    assert window.library.count() == SAMPLES


def test_paste_on_the_table_adds(window: MainWindow, services: HTTPServer,
                                 qtbot: QtBot) -> None:
    expect_bert(services)
    QApplication.clipboard().setText("https://doi.org/10.18653/v1/N19-1423")
    window.table.setFocus()

    outcome = added(qtbot, window, lambda: qtbot.keyClick(
        window.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier))

    assert outcome.summary() == "Added 1, completed 0, already had 0, failed 0"
    qtbot.waitUntil(lambda: BERT in titles(window), timeout=WAIT)
    # The same again: the paper is there already, nothing to undo.
    again = added(qtbot, window, lambda: window.actions["paste"].trigger())
    assert again.summary() == "Added 0, completed 0, already had 1, failed 0"
    assert window.ops.undo_stack.count() == 1


def test_dropped_links_are_added(window: MainWindow, services: HTTPServer,
                                 qtbot: QtBot) -> None:
    expect_arxiv(services, "2401.12345", MADE_UP)
    mime = QMimeData()
    mime.setUrls([QUrl("https://arxiv.org/abs/2401.12345")])
    drop = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)

    outcome = added(qtbot, window, lambda: window.dropEvent(drop))

    assert drop.isAccepted()
    assert outcome.summary() == "Added 1, completed 0, already had 0, failed 0"
    qtbot.waitUntil(lambda: MADE_UP in titles(window), timeout=WAIT)


def test_prose_is_not_looked_up(window: MainWindow, services: HTTPServer) -> None:
    assert not window.adder.add_text("word " * 100)
    assert not window.adder.add_text("https://example.org/not-a-paper")
    assert window.add_panel.text().startswith("Nothing was added: Line 1:")
    assert not window.adder.running and services.log == []


# -- opening to read ----------------------------------------------------------------------


@pytest.fixture
def bert(gui_library: Library) -> int:
    """BERT with its DOI and arXiv id, added to the library before the window opens."""
    record = PaperRecord(key="devlin2019bert", title=BERT, year=2019,
                         authors=[Author("Devlin", "Jacob")], doi="10.18653/v1/N19-1423",
                         raw={"eprint": "1810.04805", "archiveprefix": "arXiv"})
    report = gui_library.import_result(ReadResult(records=[record]), "test", "bibtex")
    return report.added_ids[0]


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The addresses the desktop was asked to open (nothing is opened)."""
    urls: list[str] = []

    def open_url(url: QUrl) -> bool:
        urls.append(url.toString())
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    yield urls


def go_to(window: MainWindow, pid: int) -> None:
    (row,) = window.model.rows_of([pid])
    window.table.go_to_row(row)
    window.table.setFocus()


def test_o_opens_the_page_and_shift_o_the_pdf(bert: int, window: MainWindow, qtbot: QtBot,
                                             opened: list[str]) -> None:
    go_to(window, bert)
    qtbot.keyClick(window.table, Qt.Key.Key_O)
    qtbot.keyClick(window.table, Qt.Key.Key_O, Qt.KeyboardModifier.ShiftModifier)
    assert opened == ["https://doi.org/10.18653/v1/n19-1423",
                      "https://arxiv.org/pdf/1810.04805"]

    # A sample paper names neither: a line in the status bar, nothing opened.
    go_to(window, next(pid for pid in window.model.ids if pid != bert))
    qtbot.keyClick(window.table, Qt.Key.Key_O, Qt.KeyboardModifier.ShiftModifier)
    assert "names no PDF" in window.statusBar().currentMessage()
    assert len(opened) == 2
    assert not open_link("file:///etc/passwd") and not open_link("javascript:alert(1)")
    assert len(opened) == 2


def test_links_row_shows_the_doi_and_arxiv_links(bert: int, window: MainWindow) -> None:
    go_to(window, bert)
    assert window.detail.current_id() == bert
    shown = window.detail.links_label.text()
    assert '<a href="https://doi.org/10.18653/v1/n19-1423">DOI</a>' in shown
    assert '<a href="https://arxiv.org/abs/1810.04805">arXiv</a>' in shown
    assert '<a href="https://arxiv.org/pdf/1810.04805">PDF</a>' in shown
    assert window.detail.links_label.isVisibleTo(window.detail)


def test_links_row_escapes_what_a_record_brings(qapp: QApplication) -> None:
    record = PaperRecord(title="T", url='https://example.org/?q="><script>x</script>')
    shown = links_html(record)
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert links_html(PaperRecord(title="T", url="javascript:alert(1)")) == ""



def test_the_dialog_keeps_what_failed_and_says_offline_before_add(
        window: MainWindow, services: HTTPServer, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline: the dialog says so before Add; after the lookups failed, opening it
    again shows the identifiers typed (nothing to type twice), with the panel's Retry."""
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    dialog = window.adder.ask(window)
    assert dialog.offline_label.isVisibleTo(dialog)
    assert "offline" in dialog.offline_label.text().lower()
    typed = "10.18653/v1/N19-1423\narXiv:2401.12345"
    dialog.text_edit.setPlainText(typed)
    outcome = added(qtbot, window, dialog.accept)
    assert len(outcome.failures()) == 2
    again = window.adder.ask(window)
    assert again.text_edit.toPlainText() == typed
    assert window.add_panel.retry_button.isVisibleTo(window.add_panel)
    again.reject()
    monkeypatch.delenv("PAPERSHELF_OFFLINE")
    online = window.adder.ask(window)
    assert not online.offline_label.isVisibleTo(online)
    online.reject()
