"""File › Import of Zotero's zotero.sqlite in the window (issue 28): its papers appear,
the summary counts them, and the notes and PDF of the article come along."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.gui import dialogs
from papershelf.gui.main_window import MainWindow
from papershelf.gui.operations import ImportOutcome
from papershelf.gui.qt import QFileDialog
from tests.test_zotero_import import build_zotero


def test_file_import_takes_a_zotero_library(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    zotero = build_zotero(tmp_path)
    filters: list[str] = []

    def choose(*args: object, **kwargs: object) -> tuple[list[str], str]:
        filters.append(str(args[3]))
        return [str(zotero)], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(choose))
    shown: list[ImportOutcome] = []
    real_summary = dialogs.show_import_summary

    def summary(parent: MainWindow, outcome: ImportOutcome) -> dialogs.ImportSummaryDialog:
        shown.append(outcome)
        dialog = real_summary(parent, outcome)
        dialog.close()
        return dialog

    monkeypatch.setattr(dialogs, "show_import_summary", summary)
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.actions["import"].trigger()
    assert "zotero.sqlite" in filters[0]
    qtbot.waitUntil(lambda: window.model.rowCount() == 41)  # (38 sample papers + 3)
    text = shown[0].summary()
    assert "3 added" in text and "1 failed" in text
    (pid,) = window.library.ids_for_keys(["lecun2015deep"])[0]
    detail = window.library.paper(pid)
    assert detail is not None and detail.record.notes.startswith("# Reading notes")
    assert window.library.local_pdf(pid) is not None
