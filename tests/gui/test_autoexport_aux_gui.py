"""The window follows a LaTeX document (issue 27): an auto-export of the papers an .aux
cites is rewritten when LaTeX rewrites the .aux (a new file renamed over the old one),
again and again; a document not compiled yet is written once LaTeX has run; File ›
Auto-Exports… offers "Papers cited in a LaTeX document (.aux)…"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core import autoexport
from papershelf.core.library import Library
from papershelf.gui.features import autoexport as gui_autoexport
from papershelf.gui.features.autoexport import AutoExportsDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QDialog, QFileDialog
from tests.conftest import paper_keys
from tests.gui.conftest import WindowFactory
from tests.gui.test_autoexport_gui import label
from tests.test_autoexport import aged, keys_in
from tests.test_autoexport_aux import rewrite, write_aux


def test_rewriting_the_aux_by_rename_makes_the_file_follow(
        qtbot: QtBot, windows: WindowFactory, gui_library: Library, tmp_path: Path) -> None:
    a, b, c = paper_keys(gui_library)[:3]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, a)
    autoexport.add(gui_library, target, f"aux:{aux}")
    window = windows.open(gui_library)
    exporter = window.features.autoexport.exporter
    exporter.delay_ms = 50
    qtbot.waitUntil(lambda: str(aux) in exporter.watcher.files(), timeout=10000)
    rewrite(aux, a, b)
    qtbot.waitUntil(lambda: keys_in(target) == [a, b], timeout=10000)
    qtbot.waitUntil(lambda: str(aux) in exporter.watcher.files(), timeout=10000)
    rewrite(aux, a, b, c, "ghost")  # (watched again after the rename)
    qtbot.waitUntil(lambda: keys_in(target) == [a, b, c], timeout=10000)
    qtbot.waitUntil(lambda: label(window).text() == (
        "Auto-export: 1 cited key not in the library: ghost"), timeout=10000)


def test_a_document_compiled_after_the_window_opened_is_written(
        qtbot: QtBot, windows: WindowFactory, gui_library: Library, tmp_path: Path) -> None:
    a = paper_keys(gui_library)[0]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    autoexport.add(gui_library, target, f"aux:{aux}", allow_missing=True)
    window = windows.open(gui_library)
    window.features.autoexport.exporter.delay_ms = 50
    qtbot.waitUntil(lambda: label(window).text() == (
        f"Auto-export: {aux}: not there yet (run LaTeX on the document: it writes the "
        ".aux)"), timeout=10000)
    assert not target.exists()
    rewrite(aux, a)  # (LaTeX's first run)
    qtbot.waitUntil(lambda: target.exists() and keys_in(target) == [a], timeout=10000)
    qtbot.waitUntil(lambda: label(window).text() == "Auto-exports up to date", timeout=10000)


def test_the_dialog_adds_the_papers_a_document_cites(
        qtbot: QtBot, window: MainWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = paper_keys(window.library)[:2]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, b, a)
    offered: list[str] = []

    def choose_cited(dialog: Any) -> QDialog.DialogCode:
        offered.extend(dialog.papers.itemText(n) for n in range(dialog.papers.count()))
        dialog.papers.setCurrentIndex(dialog.papers.count() - 1)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (str(target), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *_a, **_k: (str(aux), "")))
    monkeypatch.setattr(gui_autoexport._ChoiceDialog, "exec", choose_cited)
    dialog = AutoExportsDialog(window.features.autoexport.exporter, window)
    qtbot.addWidget(dialog)
    dialog.ask_add()
    assert offered[-1] == "Papers cited in a LaTeX document (.aux)…"
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10000)
    assert keys_in(target) == [b, a]
    assert dialog.table.item(0, 1).text() == f"Cited in {aux}"
    [found] = autoexport.auto_exports(window.library)
    assert found.what == f"aux:{aux}"
    dialog.close()


def test_an_unrelated_change_in_the_window_leaves_the_file_alone(
        qtbot: QtBot, windows: WindowFactory, gui_library: Library, tmp_path: Path) -> None:
    a, b, c = paper_keys(gui_library)[:3]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, a, b)
    autoexport.add(gui_library, target, f"aux:{aux}")
    window = windows.open(gui_library)
    window.features.autoexport.exporter.delay_ms = 50
    qtbot.waitUntil(lambda: label(window).text() == "Auto-exports up to date", timeout=10000)
    before, mtime = target.read_bytes(), aged(target)
    states: list[str] = []
    window.features.autoexport.exporter.stateChanged.connect(
        lambda state, _text: states.append(state))
    [uncited] = gui_library.ids_for_keys([c])[0]
    window.ops.set_starred([uncited], True)
    qtbot.waitUntil(lambda: states[-2:] == ["writing", "ok"], timeout=10000)
    assert (target.read_bytes(), target.stat().st_mtime_ns) == (before, mtime)
