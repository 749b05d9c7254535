"""The window keeps the auto-exports current: a quiet moment after a change the files
are rewritten in the background, the status bar says whether they are up to date, and
File › Auto-Exports… lists, adds and removes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core import autoexport
from papershelf.core.library import Library, View
from papershelf.gui.features import autoexport as gui_autoexport
from papershelf.gui.features.autoexport import AutoExportsDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QDialog, QFileDialog, QLabel
from tests.gui.conftest import WindowFactory, wait_idle
from tests.test_autoexport import keys_in


def label(window: MainWindow) -> QLabel:
    found = window.findChild(QLabel, "autoExportState")
    assert found is not None
    return found


def test_a_star_in_the_window_rewrites_the_file_after_a_quiet_moment(
        qtbot: QtBot, windows: WindowFactory, gui_library: Library, tmp_path: Path) -> None:
    target = tmp_path / "starred.bib"
    autoexport.add(gui_library, target, "starred")
    window = windows.open(gui_library)
    qtbot.waitUntil(lambda: label(window).text() == "Auto-exports up to date", timeout=10000)
    assert label(window).isVisible()
    first, second = gui_library.view_ids(View(sort="key"))[:2]
    keys = {pid: row.key for pid, row in gui_library.rows([first, second]).items()}
    window.ops.set_starred([first], True)
    window.ops.set_starred([second], True)
    qtbot.waitUntil(lambda: keys_in(target) == [keys[first], keys[second]], timeout=10000)
    qtbot.waitUntil(lambda: window.features.autoexport.exporter.state == "ok", timeout=10000)
    assert label(window).text() == "Auto-exports up to date"


def test_a_file_that_cannot_be_written_is_shown_in_the_status_bar(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    target = tmp_path / "starred.bib"
    autoexport.add(window.library, target, "starred")
    target.chmod(0o444)
    window.ops.set_starred(window.library.view_ids()[:1], True)
    qtbot.waitUntil(lambda: window.features.autoexport.exporter.state == "failed", timeout=10000)
    assert label(window).text() == f"Auto-export failed: {target}: is read-only"
    assert target.read_bytes() == b""


def test_no_auto_exports_no_label(qtbot: QtBot, window: MainWindow) -> None:
    window.features.autoexport.exporter.refresh_now()
    wait_idle(qtbot, window)
    assert window.features.autoexport.exporter.state == "none" and not label(window).isVisible()


def test_the_dialog_lists_adds_and_removes(qtbot: QtBot, window: MainWindow,
                                          tmp_path: Path) -> None:
    action = window.actions["auto_exports"]
    assert action is not None and action in window.actions["backups"].associatedObjects()[
        0].actions()
    autoexport.add(window.library, tmp_path / "all.bib")
    dialog = AutoExportsDialog(window.features.autoexport.exporter, window)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10000)
    assert dialog.table.item(0, 0).text() == str(tmp_path / "all.bib")
    assert dialog.table.item(0, 3).text() == "up to date"
    dialog.add_export(str(tmp_path / "refs.json"), "starred", "csljson")
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 2, timeout=10000)
    assert (tmp_path / "refs.json").read_text() == "[]\n"  # (written at once: none starred)
    assert [dialog.table.item(n, 1).text() for n in range(2)] == [
        "Every paper", "Starred papers"]
    dialog.table.selectRow(0)
    dialog.remove_selected()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10000)
    assert [e.path for e in autoexport.auto_exports(window.library)] == [
        str(tmp_path / "refs.json")]
    assert (tmp_path / "all.bib").exists()  # (the file stays)
    dialog.close()


def test_closing_the_window_writes_the_change_still_waiting(
        qtbot: QtBot, windows: WindowFactory, gui_library: Library, tmp_path: Path) -> None:
    target = tmp_path / "starred.bib"
    autoexport.add(gui_library, target, "starred")
    window = windows.open(gui_library)
    window.features.autoexport.exporter.delay_ms = 600_000  # (a quiet moment that never comes)
    [first] = gui_library.view_ids(View(sort="key"))[:1]
    window.ops.set_starred([first], True)
    wait_idle(qtbot, window)
    assert window.features.autoexport.exporter.pending and target.read_bytes() == b""
    windows.close(window)
    assert keys_in(target) == [gui_library.rows([first])[first].key]


def test_a_ris_file_is_offered_as_ris(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Add… with a file named refs.ris proposes RIS (as .json proposes CSL-JSON), and the
    file written is RIS."""
    target = tmp_path / "refs.ris"
    offered: list[str] = []

    def accept(dialog: Any) -> QDialog.DialogCode:
        offered.append(dialog.formats.currentText())
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (str(target), "")))
    monkeypatch.setattr(gui_autoexport._ChoiceDialog, "exec", accept)
    dialog = AutoExportsDialog(window.features.autoexport.exporter, window)
    qtbot.addWidget(dialog)
    dialog.ask_add()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10000)
    assert offered == ["RIS"] and dialog.table.item(0, 2).text() == "ris"
    assert target.read_text(encoding="utf-8").count("ER  -") == 38
    dialog.close()
