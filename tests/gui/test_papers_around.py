"""Paper › Papers Around in the window: the selected paper's references and citing
papers, asked off the GUI thread from a local server playing Crossref and OpenCitations
(OpenAlex and Semantic Scholar are skipped without keys), the paper the library has
marked, the abstract shown, and A adding the selected one through Add by Identifier."""

from __future__ import annotations

import json

import pytest
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.gui.features.around import AroundDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt
from papershelf.metadata.services._common import people
from tests import services_support
from tests.gui.conftest import WindowFactory, wait_idle

server = services_support.server
httpserver = services_support.httpserver

PAPER = "10.5555/around.paper"
LSTM = "10.1162/neco.1997.9.8.1735"
WAIT = 10_000


@pytest.fixture
def services(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    """The local server as every service; online, with no API keys."""
    root = httpserver.url_for("/").rstrip("/")
    for name in ("CROSSREF", "ARXIV", "OPENREVIEW", "DBLP", "OPENALEX", "S2", "PMLR",
                 "ACL", "OPENCITATIONS"):
        monkeypatch.setenv(f"PAPERSHELF_{name}_URL", root)
        monkeypatch.delenv(f"PAPERSHELF_{name}_KEY", raising=False)
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    return httpserver


def crossref_work(doi: str, title: str, references: list[dict[str, str]]) -> str:
    return json.dumps({"status": "ok", "message-type": "work", "message": {
        "DOI": doi, "type": "journal-article", "title": [title],
        "author": [{"given": "Sepp", "family": "Hochreiter"}],
        "issued": {"date-parts": [[1997]]}, "container-title": ["Neural Computation"],
        "reference": references}})


def papers_around(qtbot: QtBot, window: MainWindow, paper_id: int | None) -> None:
    """Select the paper and choose Paper › Papers Around."""
    qtbot.waitUntil(lambda: window.model.row_of(paper_id) is not None, timeout=WAIT)
    row = window.model.row_of(paper_id)
    assert row is not None
    window.table.select_rows([row], row)
    window.actions["papers_around"].trigger()


def test_the_papers_around_are_listed_marked_and_added_with_a(
        windows: WindowFactory, gui_library: Library, services: HTTPServer,
        qtbot: QtBot) -> None:
    record = PaperRecord(entry_type="article", title="A Paper With References",
                         authors=people(["Ann Author"]), year=2020, doi=PAPER)
    gui_library.import_result(ReadResult(records=[record]), "test", "bibtex")
    paper_id, _ = gui_library.paper_for(record)
    mine = PaperRecord(entry_type="article", title="A Paper The Library Has", year=2024)
    gui_library.import_result(ReadResult(records=[mine]), "test", "bibtex")
    services.expect_request(f"/works/{PAPER}").respond_with_data(crossref_work(
        PAPER, record.title, [
            {"key": "r1", "DOI": LSTM, "article-title": "Long Short-Term Memory",
             "author": "Hochreiter", "year": "1997"},
            {"key": "r2", "article-title": mine.title, "year": "2024"}]),
        content_type="application/json")
    services.expect_request(f"/index/coci/api/v1/citations/{PAPER}").respond_with_json([])
    window = windows.open(gui_library)
    papers_around(qtbot, window, paper_id)
    dialog = window.findChild(AroundDialog)
    assert dialog is not None and dialog.isVisible()
    tree = dialog.lists["references"]
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=WAIT)
    lstm, known = tree.topLevelItem(0), tree.topLevelItem(1)
    assert (lstm.text(0), lstm.text(1), lstm.text(2), lstm.text(3)) == (
        "", "Long Short-Term Memory", "Hochreiter", "1997")
    assert known.text(0) == "✓"  # (by its title)
    assert "Crossref" in dialog.status.text()
    assert dialog.lists["citing"].topLevelItemCount() == 0
    tree.setCurrentItem(lstm)
    assert dialog.abstract.toPlainText() == ""

    dialog.tabs.setCurrentIndex(2)  # (missing from the library: cited by 1 or more)
    dialog.min_count.setValue(1)
    dialog.find_button.click()
    missing = dialog.lists["missing"]
    qtbot.waitUntil(lambda: missing.topLevelItemCount() == 1, timeout=WAIT)
    cited = missing.topLevelItem(0)
    assert (cited.text(0), cited.text(1)) == ("1", "Long Short-Term Memory")
    assert dialog.status.text().startswith("1 paper cited by at least 1 of yours")
    dialog.tabs.setCurrentIndex(0)

    services.expect_request(f"/works/{LSTM}").respond_with_data(crossref_work(
        LSTM, "Long Short-Term Memory", []), content_type="application/json")
    with qtbot.waitSignal(window.adder.finished, timeout=WAIT):
        qtbot.keyClick(tree, Qt.Key.Key_A)
    wait_idle(qtbot, window)
    titles = {r.title for r in gui_library.records(gui_library.view_ids())}
    assert "Long Short-Term Memory" in titles
    dialog.close()


def test_a_paper_without_doi_or_arxiv_id_says_so(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot) -> None:
    record = PaperRecord(entry_type="misc", title="A Paper Known By Nothing")
    gui_library.import_result(ReadResult(records=[record]), "test", "bibtex")
    paper_id, _ = gui_library.paper_for(record)
    window = windows.open(gui_library)
    papers_around(qtbot, window, paper_id)
    assert window.findChild(AroundDialog) is None
    assert "no DOI or arXiv id" in window.statusBar().currentMessage()
