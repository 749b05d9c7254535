"""Paste (Ctrl+V on the table) and drop of BibTeX text (issue 25): the entries go through
the importer as a file's do: new ones added, known ones merged, each bad one reported
with its line, the whole paste one undo step; no service is asked."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import View
from papershelf.gui import dialogs
from papershelf.gui.main_window import MainWindow
from papershelf.gui.operations import ImportOutcome
from papershelf.gui.qt import QApplication, QDropEvent, QMimeData, QPointF, Qt
from tests.gui.conftest import undo, wait_idle

SAMPLES = 38

PASTED = """@inproceedings{doe2024shelves,
  title = {Shelves for Papers},
  author = {Doe, Jane and Roe, Richard},
  booktitle = {Proceedings of Testing},
  year = {2024},
}
@article{roe2023, title = {Racks and Their Readers}, author = {Roe, Richard},
  journal = {Journal of Furniture}, year = 2023}
@article{broken,
  title = {Never Closed,
"""


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[ImportOutcome]:
    """The import summaries the window would show (not opened: no dialog in tests)."""
    outcomes: list[ImportOutcome] = []
    monkeypatch.setattr(dialogs, "show_import_summary",
                        lambda _parent, outcome: outcomes.append(outcome))
    return outcomes


def paste(qtbot: QtBot, window: MainWindow, text: str) -> ImportOutcome:
    QApplication.clipboard().setText(text)
    window.table.setFocus()
    with qtbot.waitSignal(window.importFinished, timeout=20000) as blocker:
        qtbot.keyClick(window.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    outcome = blocker.args[0]
    assert isinstance(outcome, ImportOutcome)
    return outcome


def test_pasted_bibtex_is_imported_and_its_bad_entry_named(
        window: MainWindow, qtbot: QtBot, shown: list[ImportOutcome]) -> None:
    outcome = paste(qtbot, window, PASTED)

    assert "2 added" in outcome.summary() and "1 failed" in outcome.summary()
    (problem,) = outcome.report.problems
    assert str(problem).startswith("pasted BibTeX:9: unreadable @article")
    assert shown == [outcome]  # the summary lists it
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES + 2)
    qtbot.waitUntil(lambda: window.count_label.text() == f"{SAMPLES + 2} papers")
    (pid,) = window.library.view_ids(View(search="racks readers"))
    assert window.library.paper_fields(pid)["journal"] == "Journal of Furniture"

    # The same paste again adds nothing: both are there already.
    again = paste(qtbot, window, PASTED)
    assert "0 added" in again.summary() and "2 already present" in again.summary()
    assert window.library.count() == SAMPLES + 2

    # One undo step took both papers in: one undo takes them out.
    undo(qtbot, window)
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES)
    assert window.library.count() == SAMPLES


def test_pasted_bibtex_completes_the_paper_it_matches(
        window: MainWindow, qtbot: QtBot, shown: list[ImportOutcome]) -> None:
    paste(qtbot, window, PASTED.split("@article{broken")[0])
    (pid,) = window.library.view_ids(View(search="shelves"))
    # A richer copy of the same paper (same key and title): merged, not added.
    richer = PASTED.split("@article{roe2023")[0].replace(
        "year = {2024},", "year = {2024},\n  doi = {10.1000/shelves.1},")
    outcome = paste(qtbot, window, richer)

    assert "0 added" in outcome.summary()
    assert window.library.paper_fields(pid)["doi"] == "10.1000/shelves.1"
    assert window.library.count() == SAMPLES + 2


def test_dropped_bibtex_text_is_imported(window: MainWindow, qtbot: QtBot,
                                         shown: list[ImportOutcome]) -> None:
    mime = QMimeData()
    mime.setText(PASTED.split("@article{roe2023")[0])
    drop = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.dropEvent(drop)
    qtbot.waitUntil(lambda: window.model.rowCount() == SAMPLES + 1)
    assert window.library.view_ids(View(search="shelves"))


def test_text_that_is_no_bibtex_is_not_imported(window: MainWindow, qtbot: QtBot,
                                                shown: list[ImportOutcome]) -> None:
    # Prose is not looked up either: the add panel says what to do instead.
    QApplication.clipboard().setText("Some words.\n" * 150)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    assert shown == []
    assert "not a list of identifiers" in window.add_panel.text()
    assert window.library.count() == SAMPLES
