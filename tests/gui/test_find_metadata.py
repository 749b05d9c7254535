"""Paper > Find Metadata…: candidates for provisional papers from the ICML catalog (and the
services), accepted one paper at a time or all the confident ones at once, each an undo
step of the window.

The catalog is the real ICML 2024 paperlists file in a store of a temporary folder; the
services, where a test needs them, are a local server on 127.0.0.1. No test reaches the
internet. Every window test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot
from werkzeug import Request, Response

from papershelf.core.library import Library
from papershelf.formats.readable import math_to_text
from papershelf.gui import metadata_dialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.metadata_dialog import COLUMNS, MetadataDialog
from papershelf.gui.operations import Acceptance, MetadataLookup
from papershelf.gui.qt import QApplication, Qt
from papershelf.metadata import complete
from papershelf.metadata.catalog import CatalogStore
from papershelf.metadata.http import SERVICES
from tests import services_support
from tests.conftest import SHARED_DATA
from tests.gui.conftest import undo, wait_idle

server = services_support.server
httpserver = services_support.httpserver

CATALOG = SHARED_DATA / "icml2024-paperlists.json"
SUCCESSOR = ("Learning Temporal Distances: Contrastive Successor Features Can Provide a "
             "Metric Structure for Decision-Making")
SURVIVAL = "Dynamic Survival Analysis with Controlled Latent States"
SAMPLES = 38
WAIT = 10_000
OFFLINE_NOTE = "Note: offline mode is on: only the catalogs were searched"


@pytest.fixture(scope="module")
def icml_catalog(tmp_path_factory: pytest.TempPathFactory) -> CatalogStore:
    """The ICML 2024 catalog in a store of its own (its word index built once)."""
    store = CatalogStore(tmp_path_factory.mktemp("catalogs"))
    store.add(CATALOG)
    return store


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, address or keyring of the machine running the tests leaks in."""
    import keyring

    for service in SERVICES.values():
        monkeypatch.delenv(service.url_env, raising=False)
        monkeypatch.delenv(service.key_env, raising=False)
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    monkeypatch.setattr(keyring, "get_password", lambda service, name: None)


@pytest.fixture
def catalogs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[CatalogStore]]:
    """The user's catalogs, as the window finds them: `catalogs[0]`, none at first."""
    stores: list[CatalogStore] = []
    monkeypatch.setattr(metadata_dialog, "catalog_store", lambda: stores[0])
    yield stores


@pytest.fixture
def offline(catalogs: list[CatalogStore], icml_catalog: CatalogStore,
            monkeypatch: pytest.MonkeyPatch) -> None:
    """The ICML catalog added, and Papershelf offline: only the catalog is searched."""
    catalogs.append(icml_catalog)
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")


@pytest.fixture
def services(catalogs: list[CatalogStore], tmp_path: Path, httpserver: HTTPServer,
             monkeypatch: pytest.MonkeyPatch) -> HTTPServer:
    """No catalog; online, every service the local server; an OpenAlex key only."""
    catalogs.append(CatalogStore(tmp_path / "no-catalogs"))
    root = httpserver.url_for("/").rstrip("/")
    for service in SERVICES.values():
        if service.name != "web":
            monkeypatch.setenv(service.url_env, root)
    monkeypatch.setenv("PAPERSHELF_OPENALEX_KEY", "openalex-key")
    return httpserver


def pid_of(library: Library, key: str) -> int:
    (pid,), _missing = library.ids_for_keys([key])
    return pid


def select(window: MainWindow, ids: list[int]) -> None:
    rows = window.model.rows_of(ids)
    assert len(rows) == len(ids)
    window.table.select_rows(rows, rows[0])
    window.table.setFocus()


def shown_title(window: MainWindow, pid: int) -> str:
    """The title the table shows for a paper."""
    (row,) = window.model.rows_of([pid])
    index = window.model.index(row, window.model.column_index("title"))
    return str(window.model.data(index, Qt.ItemDataRole.DisplayRole))


def paper_text(dialog: MetadataDialog, pid: int) -> str:
    """What the dialog's row of a paper says."""
    item = dialog.paper_item(pid)
    assert item is not None
    return item.text(0)


def find_metadata(qtbot: QtBot, window: MainWindow) -> tuple[MetadataDialog, MetadataLookup]:
    """Paper > Find Metadata…, then wait for the lookup to be shown."""
    window.actions["find_metadata"].trigger()
    dialog = window.findChild(MetadataDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.running, timeout=WAIT)
    wait_idle(qtbot, window)
    assert dialog.last_lookup is not None
    return dialog, dialog.last_lookup


def accepted(qtbot: QtBot, window: MainWindow, dialog: MetadataDialog,
             button: object) -> Acceptance:
    """Click an accept button, then wait for the write and for the dialog's re-read."""
    assert button in (dialog.accept_button, dialog.accept_all_button)
    with qtbot.waitSignal(dialog.acceptanceFinished, timeout=WAIT) as blocker:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    done = blocker.args[0]
    assert isinstance(done, Acceptance)
    return done


# -- the catalog, offline -----------------------------------------------------------------


def test_accepting_a_candidate_completes_the_paper_and_ctrl_z_takes_it_back(
        offline: None, window: MainWindow, qtbot: QtBot) -> None:
    library = window.library
    successor = pid_of(library, "icml2024successor")
    framequant = pid_of(library, "icml2024framequant")
    window.ops.set_starred([successor], True)  # the user's own data stays through it all
    window.ops.add_tags([successor], ["to-read"])
    window.ops.set_read_state([successor], "reading")
    wait_idle(qtbot, window)
    steps = window.ops.undo_stack.count()
    before = library.paper(successor)
    assert before is not None and before.record.title_provisional
    provisional = shown_title(window, successor)
    select(window, [successor, framequant])
    action = window.actions["find_metadata"]
    assert action.text() == "Find Me&tadata…"
    assert action.shortcut().toString() == "Ctrl+Shift+M"

    dialog, lookup = find_metadata(qtbot, window)

    assert lookup.asked == 2 and not lookup.cancelled
    assert list(dialog.proposals) == [successor, framequant]
    assert dialog.problem_lines() == [OFFLINE_NOTE]
    assert dialog.tree.topLevelItemCount() == 2
    best = dialog.candidate_item(successor, 0)
    assert best is not None and best.text(0) == SUCCESSOR
    assert best.checkState(0) == Qt.CheckState.Checked  # the best is preselected
    assert best.text(2) == "ICML 2024" and best.text(4) == "catalog"
    assert float(best.text(3)) > 0.5 and best.text(1)
    assert "confident match" in paper_text(dialog, successor)
    dialog.tree.setCurrentItem(best)
    diff = {dialog.changes_view.topLevelItem(n).text(0):
            (dialog.changes_view.topLevelItem(n).text(1),
             dialog.changes_view.topLevelItem(n).text(2))
            for n in range(dialog.changes_view.topLevelItemCount())}
    assert diff["Title"][1] == SUCCESSOR and diff["Title"][0].startswith("Successor features")
    assert diff["Authors"][0] == "—"
    assert dialog.accept_button.isEnabled()
    select(window, [successor])  # (the dialog keeps its list; the pane shows the paper)
    assert window.detail.current_id() == successor

    done = accepted(qtbot, window, dialog, dialog.accept_button)

    assert done.completed == (successor,) and done.failures == ()
    assert shown_title(window, successor) == SUCCESSOR
    after = library.paper(successor)
    assert after is not None and not after.record.title_provisional and after.record.authors
    assert (after.key, after.starred, after.read_state, after.record.tags) == (
        before.key, True, "reading", ["to-read"])
    assert window.detail.title_edit.text() == SUCCESSOR
    framequant_now = library.paper(framequant)
    assert framequant_now is not None and framequant_now.record.title_provisional
    assert window.ops.undo_stack.count() == steps + 1
    assert "nothing to change" in paper_text(dialog, successor)
    assert not dialog.accept_button.isEnabled()  # (the paper has what it offers)

    undo(qtbot, window)

    assert shown_title(window, successor) == provisional
    back = library.paper(successor)
    assert back is not None and back.record == before.record
    assert (back.starred, back.read_state) == (True, "reading")
    # The dialog read the paper again: accepting works once more.
    assert "confident match" in paper_text(dialog, successor)
    dialog.tree.setCurrentItem(dialog.candidate_item(successor, 0))
    again = accepted(qtbot, window, dialog, dialog.accept_button)
    assert again.completed == (successor,)
    assert shown_title(window, successor) == SUCCESSOR


def test_nothing_selected_accept_all_confident_completes_them_in_one_step(
        offline: None, window: MainWindow, qtbot: QtBot) -> None:
    library = window.library
    before = {d.id: d.record for d in library.details(library.view_ids())}
    window.table.clearSelection()
    assert window.actions["find_metadata"].text() == "Find Me&tadata for Provisional Papers…"

    dialog, lookup = find_metadata(qtbot, window)

    assert lookup.asked == SAMPLES and len(dialog.proposals) == SAMPLES
    sure = [p.paper_id for p in lookup.proposals if p.confident]
    assert len(sure) == 34  # (as `papershelf complete --provisional`: tests/test_complete.py)
    assert dialog.accept_all_button.text() == f"Accept All &Confident ({len(sure)})"

    done = accepted(qtbot, window, dialog, dialog.accept_all_button)

    assert sorted(done.completed) == sorted(sure) and done.failures == ()
    assert window.ops.undo_stack.count() == 1
    assert sorted(complete.provisional_ids(library)) == sorted(set(before) - set(sure))
    for pid in sure:
        real = dialog.proposals[pid].options[0].record.title
        assert shown_title(window, pid) == math_to_text(real)  # (as the table shows math)
    assert not dialog.accept_all_button.isEnabled()

    undo(qtbot, window)

    assert len(complete.provisional_ids(library)) == SAMPLES
    assert {d.id: d.record for d in library.details(library.view_ids())} == before
    assert dialog.accept_all_button.isEnabled()


def test_a_paper_is_placed_between_its_neighbours_in_its_list_as_on_the_command_line(
        offline: None, icml_catalog: CatalogStore, window: MainWindow, qtbot: QtBot) -> None:
    """A paper whose words say little, selected alone: the papers around it in its
    abstract list (which is the catalog's order) place it; shown first with the reason,
    not accepted with the confident ones."""
    library = window.library
    survival = pid_of(library, "icml2024coxsig")
    select(window, [survival])

    dialog, lookup = find_metadata(qtbot, window)

    best = dialog.candidate_item(survival, 0)
    assert best is not None and best.text(0) == SURVIVAL
    assert "between its neighbours in the list (entries 2502 and 2500)" in best.toolTip(3)
    why = COLUMNS.index("why")  # (in the row itself, not only in a tooltip)
    assert "between its neighbours in the list" in best.text(why)
    assert "confident match" not in paper_text(dialog, survival)
    # Its score (0.02) is below the others' (0.42 the next): the paper's row says why.
    second = dialog.candidate_item(survival, 1)
    assert second is not None and float(second.text(3)) > float(best.text(3))
    assert "picked by its place in the list, not by its score" in paper_text(dialog, survival)
    assert not dialog.accept_all_button.isEnabled()
    assert list(lookup.proposals) == complete.find_candidates(
        library, [survival], catalogs=icml_catalog)


def test_a_paper_changed_since_the_lookup_is_one_line_and_stays(
        offline: None, window: MainWindow, qtbot: QtBot) -> None:
    successor = pid_of(window.library, "icml2024successor")
    select(window, [successor])
    dialog, _lookup = find_metadata(qtbot, window)
    proposal = dialog.proposals[successor]
    window.library.set_notes(successor, "edited elsewhere")  # (not announced to the window)

    dialog.tree.setCurrentItem(dialog.candidate_item(successor, 0))
    done = accepted(qtbot, window, dialog, dialog.accept_button)

    assert done.completed == () and len(done.failures) == 1
    assert "changed since it was looked up" in done.failures[0]
    assert dialog.problem_lines()[-1] == done.failures[0]
    assert proposal.key in done.failures[0]
    detail = window.library.paper(successor)
    assert detail is not None and detail.record.title_provisional
    assert window.ops.undo_stack.count() == 0


# -- the services ------------------------------------------------------------------------


def test_cancel_mid_lookup_leaves_the_library_unchanged(
        services: HTTPServer, window: MainWindow, qtbot: QtBot) -> None:
    asked, answer = threading.Event(), threading.Event()

    def slow_openalex(_request: Request) -> Response:
        asked.set()
        answer.wait(WAIT / 1000)  # until the test has cancelled
        return Response('{"meta": {"count": 0}, "results": []}',
                        content_type="application/json")

    services.expect_request("/works").respond_with_handler(slow_openalex)
    library = window.library
    ids = complete.provisional_ids(library)[:2]
    before = library.details(ids)
    select(window, ids)
    try:
        window.actions["find_metadata"].trigger()
        dialog = window.findChild(MetadataDialog)
        assert dialog is not None
        qtbot.waitUntil(asked.is_set, timeout=WAIT)
        assert dialog.running and dialog.cancel_button.isVisible()
        assert not dialog.accept_all_button.isEnabled()
        with qtbot.waitSignal(dialog.lookupFinished, timeout=WAIT) as blocker:
            qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
            answer.set()
    finally:
        answer.set()
    wait_idle(qtbot, window)

    lookup = blocker.args[0]
    assert isinstance(lookup, MetadataLookup) and lookup.cancelled
    assert len(lookup.proposals) == 1 and lookup.proposals[0].options == ()
    assert dialog.status_label.text() == "Cancelled after 1 of 2 papers; nothing was changed."
    assert not dialog.cancel_button.isVisible()
    assert len(services.log) == 1  # the second paper was never looked up
    assert library.details(ids) == before
    assert window.ops.undo_stack.count() == 0


def test_each_problem_is_one_line_in_the_dialog(
        services: HTTPServer, window: MainWindow, qtbot: QtBot) -> None:
    services.expect_request("/works").respond_with_response(
        Response("<b>slow down</b>", status=429, headers={"Retry-After": "3600"}))
    pid = complete.provisional_ids(window.library)[0]
    key = window.library.rows([pid])[pid].key
    select(window, [pid])

    dialog, lookup = find_metadata(qtbot, window)

    lines = dialog.problem_lines()
    assert lines[0] == "Note: no catalog added: the catalogs give no candidates"
    assert lines[1].startswith("Note: Semantic Scholar: skipped: no API key")
    assert lines[2:] == [f"{key}: OpenAlex: rate limited (HTTP 429); asked to wait 3600 s, "
                         "try again later (not asked again this time)"]
    assert dialog.problems.isVisible()
    assert "no candidate found" in paper_text(dialog, pid)
    assert not dialog.accept_button.isEnabled() and not dialog.accept_all_button.isEnabled()
    assert lookup.asked == 1 and window.ops.undo_stack.count() == 0


def test_what_a_service_sends_is_shown_as_plain_text(qapp: QApplication) -> None:
    assert metadata_dialog._tip("<b>x</b> & y") == (
        "<p style='white-space:pre-wrap'>&lt;b&gt;x&lt;/b&gt; &amp; y</p>")
    assert metadata_dialog.field_name("author") == "Authors"
    assert metadata_dialog.field_name("isbn") == "isbn"
