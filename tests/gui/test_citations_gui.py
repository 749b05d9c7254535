"""Edit › Copy as Formatted Bibliography (gui/citations.py): the selected papers'
bibliography on the clipboard as plain text and as HTML, in the style of Preferences."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.formats import csl
from papershelf.gui import settings as S
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QComboBox, QFileDialog, QMenu, QPushButton

pytestmark = pytest.mark.sqlite_only  # (the window reads the records as the CLI does)


def _copied(qtbot: QtBot, window: MainWindow, rows: list[int]) -> tuple[str, str]:
    """Select `rows`, copy their bibliography; the clipboard's plain text and HTML."""
    QApplication.clipboard().clear()
    window.table.select_rows(rows, rows[0])
    window.table.setFocus()
    window.actions["copy_bibliography"].trigger()
    qtbot.waitUntil(lambda: QApplication.clipboard().mimeData().hasHtml(), timeout=10000)
    data = QApplication.clipboard().mimeData()
    return data.text(), data.html()


def test_copy_puts_plain_text_and_html_on_the_clipboard(window: MainWindow,
                                                        qtbot: QtBot) -> None:
    text, markup = _copied(qtbot, window, [0, 2])
    records = window.library.records(window.table.selected_ids())
    assert text == csl.bibliography(records, "apa", "text") and text.count("\n") == 2
    assert markup == csl.bibliography(records, "apa", "html")
    assert markup.count('<div class="csl-entry">') == 2 and "<i>" in markup
    assert window.statusBar().currentMessage() == \
        "Copied the bibliography of 2 papers (APA 7th edition)"


def test_the_style_is_the_one_chosen_in_preferences(window: MainWindow, qtbot: QtBot) -> None:
    dialog = window.features.admin.show_preferences()
    combo = dialog.findChild(QComboBox, "bibliographyStyleCombo")
    assert combo is not None and combo.currentData() == "apa"
    assert [combo.itemData(n) for n in range(combo.count())] == list(csl.STYLES)
    combo.setCurrentIndex(combo.findData("ieee"))
    dialog.accept()
    assert window.settings.get(S.CSL_STYLE) == "ieee"
    text, markup = _copied(qtbot, window, [0, 1, 2])
    assert text.startswith("[1] ") and "\n[3] " in text
    assert markup.startswith('<div class="csl-bib-body">')
    again = window.features.admin.show_preferences()  # opens on what was saved
    assert again.findChild(QComboBox, "bibliographyStyleCombo").currentData() == "ieee"
    again.reject()


def test_a_style_file_of_ones_own(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "my-journal.csl"
    mine.write_bytes(Path(csl.style_path("nature")).read_bytes())
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *args, **kwargs: (str(mine), "")))
    dialog = window.features.admin.show_preferences()
    combo = dialog.findChild(QComboBox, "bibliographyStyleCombo")
    button = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Browse…")
    button.click()
    assert combo.currentData() == str(mine) and combo.currentText() == "my-journal.csl"
    dialog.accept()
    text, _markup = _copied(qtbot, window, [0])
    assert text.startswith("1. ")


def test_an_unusable_style_is_one_message(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(window, "show_error", shown.append)
    window.settings.set(S.CSL_STYLE, str(tmp_path / "gone.csl"))
    QApplication.clipboard().setText("before")
    window.table.select_rows([0], 0)
    window.actions["copy_bibliography"].trigger()
    qtbot.waitUntil(lambda: bool(shown), timeout=10000)
    assert shown == [f"{tmp_path / 'gone.csl'}: no such citation style file"]
    assert QApplication.clipboard().text() == "before"


def test_the_action_sits_by_copy_citation_with_its_own_shortcut(window: MainWindow) -> None:
    action = window.actions["copy_bibliography"]
    assert action.shortcut().toString() == "Ctrl+Shift+B"
    taken = [s.toString() for a in window.actions if a is not action for s in a.shortcuts()]
    assert "Ctrl+Shift+B" not in taken
    edit = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Edit")
    names = [a.text() for a in edit.actions()]
    assert names.index("Copy as Formatted &Bibliography") == names.index("Copy Ci&tation") + 1
