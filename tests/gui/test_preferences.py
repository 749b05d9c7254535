"""Edit > Preferences: the key pattern (a library setting) and the export defaults (the
user's preferences), and that imports, exports and Copy BibTeX follow them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.transfer import ExportOptions
from papershelf.gui import dialogs
from papershelf.gui.main_window import MainWindow
from papershelf.gui.preferences import PreferencesDialog, load_export_options
from papershelf.gui.qt import QApplication, QDialogButtonBox, QFileDialog, Qt
from papershelf.gui.settings import Settings
from tests.gui.conftest import wait_idle

ABSTRACTS = """NeurIPS 2025 论文列表

We study how bookshelves organise themselves when many readers add and remove volumes at \
random, and show that a simple greedy rule keeps related books together with high \
probability even under adversarial insertion orders.
"""


def open_preferences(window: MainWindow) -> PreferencesDialog:
    """Edit > Preferences… (window-modal, so the test can click in it)."""
    window.actions["preferences"].trigger()
    dialog = window.findChild(PreferencesDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_export_defaults_are_declared(settings: Settings) -> None:
    assert load_export_options(settings) == ExportOptions(
        include_abstract=True, include_notes=False, ascii_only=False, flavour="bibtex")


def test_an_invalid_pattern_cannot_be_saved(window: MainWindow, qtbot: QtBot) -> None:
    dialog = open_preferences(window)
    assert dialog.pattern_edit.text() == window.library.key_pattern
    assert dialog.status.text().startswith("Example:")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.pattern_edit.clear()
    qtbot.keyClicks(dialog.pattern_edit, "[auth][nope]")
    assert not ok.isEnabled()
    assert "Unknown field [nope]" in dialog.status.text()
    qtbot.keyClick(dialog.pattern_edit, Qt.Key.Key_Return)  # Enter does not save it either
    assert dialog.isVisible()
    dialog.pattern_edit.setText("[auth")
    assert not ok.isEnabled() and "Unbalanced" in dialog.status.text()
    qtbot.mouseClick(dialog.default_button, Qt.MouseButton.LeftButton)
    assert ok.isEnabled()
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel),
                     Qt.MouseButton.LeftButton)
    assert window.library.key_pattern == "[auth:lower][year][veryshorttitle:lower]"


def test_a_valid_pattern_is_used_by_the_next_import(window: MainWindow, qtbot: QtBot,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_preferences(window)
    dialog.pattern_edit.clear()
    qtbot.keyClicks(dialog.pattern_edit, "[venue]-[year]")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    # The example is the current paper's key under the new pattern.
    assert "ICML-2024" in dialog.status.text()
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)  # the pattern is saved in the worker
    assert window.library.key_pattern == "[venue]-[year]"

    monkeypatch.setattr(dialogs, "show_import_summary", lambda *args: None)
    source = tmp_path / "neurips.txt"
    source.write_text(ABSTRACTS, encoding="utf-8")
    with qtbot.waitSignal(window.importFinished, timeout=10000):
        window.start_import([str(source)])
    outcome = window.last_import_report
    assert outcome is not None and len(outcome.report.added_ids) == 1
    added = window.library.paper(outcome.report.added_ids[0])
    assert added is not None and added.key == "NeurIPS-2025"


def test_export_and_copy_follow_the_export_preferences(window: MainWindow, qtbot: QtBot,
                                                       settings: Settings, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    dialog = open_preferences(window)
    dialog.flavour_combo.setCurrentIndex(dialog.flavour_combo.findData("biblatex"))
    dialog.abstract_check.setChecked(False)
    dialog.notes_check.setChecked(True)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert load_export_options(settings) == ExportOptions(
        include_abstract=False, include_notes=True, ascii_only=False, flavour="biblatex")

    pid = window.table.selected_ids()[0]
    window.ops.set_notes(pid, "Compare with the 2023 version")
    target = tmp_path / "out.bib"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    monkeypatch.setattr(dialogs, "confirm_incomplete", lambda *args: True)
    with qtbot.waitSignal(window.exportFinished, timeout=10000):
        window.actions["export_selection"].trigger()
    text = target.read_text(encoding="utf-8")
    assert "date = {2024}" in text and "year =" not in text
    assert "abstract =" not in text
    assert "annote = {Compare with the 2023 version}" in text

    window.actions["copy_bibtex"].trigger()
    copied = QApplication.clipboard().text()
    assert "date = {2024}" in copied and "abstract =" not in copied

    # The dialog opens again on what was saved.
    again = open_preferences(window)
    assert again.flavour_combo.currentData() == "biblatex"
    assert not again.abstract_check.isChecked() and again.notes_check.isChecked()
    again.reject()


def test_the_interface_language_is_a_preference(window: MainWindow) -> None:
    from papershelf.gui import settings as S

    dialog = window.show_preferences()
    assert dialog.language() == "system"
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("zh_CN"))
    dialog.accept()
    assert window.settings.get(S.LANGUAGE) == "zh_CN"
