"""Rows dragged from the table into a text editor drop their citation (issue 27): the
drag carries as text what Copy Citation puts on the clipboard, in the form chosen in
Preferences and the table's order, and the papers' BibTeX as application/x-bibtex."""

from __future__ import annotations

import bibtexparser
import pytest
from pytestqt.qtbot import QtBot

from papershelf.gui import drag
from papershelf.gui import settings as S
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, Qt

pytestmark = pytest.mark.sqlite_only  # (the drag reads the rows as Copy Citation does)


def selected_keys(window: MainWindow, rows: list[int]) -> list[str]:
    window.table.select_rows(rows, rows[0])
    ids = window.table.selected_ids()
    found = window.library.rows(ids)
    return [found[pid].key for pid in ids]


def dragged(window: MainWindow) -> tuple[str, str]:
    """What a drag of the selected rows carries (what the view hands its QDrag): the
    text and the BibTeX."""
    mime = window.model.mimeData(window.table.selectionModel().selectedIndexes())
    return mime.text(), bytes(mime.data(drag.MIME_BIBTEX).data()).decode("utf-8")


def test_two_dragged_rows_carry_their_citation_and_bibtex(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    first, second = selected_keys(window, [3, 1])
    assert window.table.dragEnabled()
    index = window.model.index(1, 0)
    assert window.model.flags(index) & Qt.ItemFlag.ItemIsDragEnabled
    assert set(window.model.mimeTypes()) >= {"text/plain", "application/x-bibtex"}
    text, bibtex = dragged(window)
    assert text == f"\\cite{{{first},{second}}}"
    assert [e.key for e in bibtexparser.parse_string(bibtex).entries] == [first, second]
    window.actions["copy_citation"].trigger()  # (the same as Copy Citation's)
    assert QApplication.clipboard().text() == text


def test_the_dragged_citation_follows_the_preferences_form(window: MainWindow,
                                                           qtbot: QtBot) -> None:
    first, second = selected_keys(window, [0, 2])
    for form, expected in (("citep", f"\\citep{{{first},{second}}}"),
                           ("autocite", f"\\autocite{{{first},{second}}}"),
                           ("pandoc", f"[@{first}; @{second}]"),
                           ("typst", f"@{first} @{second}")):
        window.settings.set(S.CITE_FORM, form)
        assert dragged(window)[0] == expected


def test_a_big_selection_carries_the_citation_only(window: MainWindow,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drag, "BIBTEX_LIMIT", 2)
    keys = selected_keys(window, [0, 1, 2])
    mime = window.model.mimeData(window.table.selectionModel().selectedIndexes())
    assert mime.text() == "\\cite{" + ",".join(keys) + "}"
    assert not mime.hasFormat(drag.MIME_BIBTEX)
