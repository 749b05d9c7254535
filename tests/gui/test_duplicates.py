"""Paper > Find Duplicates as a user meets it: the list, Merge, Swap, and undo of a merge."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.formats.records import Author, PaperRecord, ReadResult
from papershelf.gui.duplicates import DuplicatesDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt
from tests.gui.conftest import WindowFactory

Ctrl = Qt.KeyboardModifier.ControlModifier


def add_pair(library: Library) -> tuple[int, int]:
    """Two papers with the same title but for its case (an import would have merged
    them, so the second one gets the title afterwards); their ids, older first."""
    report = library.import_result(ReadResult([
        PaperRecord(entry_type="article", title="Shelves All the Way Down",
                    authors=[Author("Doe", "Jane")], year=2021),
        PaperRecord(entry_type="article", title="Ladders for Librarians",
                    authors=[Author("Roe", "Rick")], year=2022, doi="10.1234/ladders"),
    ]), "test", "bibtex")
    first, second = report.added_ids
    library.set_title(second, "SHELVES all the way down")
    return first, second


def key_of(library: Library, pid: int) -> str:
    detail = library.paper(pid)
    assert detail is not None
    return detail.key


def open_dialog(window: MainWindow, qtbot: QtBot, rows: int) -> DuplicatesDialog:
    """Paper > Find Duplicates…, then until the list shows `rows` pairs."""
    window.actions["find_duplicates"].trigger()
    dialog = window.findChild(DuplicatesDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.busy and dialog.table.rowCount() == rows)
    return dialog


def row_texts(dialog: DuplicatesDialog, row: int) -> list[str]:
    return [dialog.table.item(row, c).text() for c in range(dialog.table.columnCount())]


def shows_none(dialog: DuplicatesDialog) -> bool:
    return (not dialog.busy and dialog.stack.currentWidget() is dialog.placeholder
            and dialog.placeholder.text() == "No duplicates found")


def test_a_library_without_duplicates_says_so(window: MainWindow, qtbot: QtBot) -> None:
    dialog = open_dialog(window, qtbot, 0)
    qtbot.waitUntil(lambda: shows_none(dialog))
    assert not dialog.merge_button.isEnabled() and not dialog.swap_button.isEnabled()


def test_merge_a_pair_then_undo_in_the_main_window(windows: WindowFactory,
                                                   gui_library: Library,
                                                   qtbot: QtBot) -> None:
    first, second = add_pair(gui_library)
    keys = key_of(gui_library, first), key_of(gui_library, second)
    window = windows.open(gui_library)
    assert window.model.rowCount() == 40
    dialog = open_dialog(window, qtbot, 1)
    assert row_texts(dialog, 0) == ["Shelves All the Way Down", keys[0], "2021",
                                    "SHELVES all the way down", keys[1], "2022",
                                    "same title"]

    qtbot.mouseClick(dialog.merge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: shows_none(dialog))
    qtbot.waitUntil(lambda: window.model.rowCount() == 39
                    and window.count_label.text() == "39 papers"
                    and window.sidebar.tree.topLevelItem(0).text(1) == "39")
    assert second not in window.model.ids
    kept = gui_library.paper(first)
    assert gui_library.paper(second) is None
    assert kept is not None and kept.key == keys[0] and kept.record.doi == "10.1234/ladders"
    assert keys[1] in dialog.message.text() and keys[0] in dialog.message.text()
    assert window.ops.undo_stack.count() == 1

    # Ctrl+Z in the main window: one step brings both papers back, and the pair is listed.
    window.activateWindow()
    qtbot.waitActive(window)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Ctrl)
    qtbot.waitUntil(lambda: window.model.rowCount() == 40
                    and window.count_label.text() == "40 papers")
    restored = gui_library.paper(first)
    assert restored is not None and restored.record.doi == ""
    assert key_of(gui_library, second) == keys[1]
    qtbot.waitUntil(lambda: not dialog.busy and dialog.table.rowCount() == 1)
    assert not dialog.message.isVisible()


def test_swap_keeps_the_other_paper(windows: WindowFactory, gui_library: Library,
                                    qtbot: QtBot) -> None:
    first, second = add_pair(gui_library)
    second_key = key_of(gui_library, second)
    window = windows.open(gui_library)
    dialog = open_dialog(window, qtbot, 1)
    qtbot.mouseClick(dialog.swap_button, Qt.MouseButton.LeftButton)
    assert row_texts(dialog, 0)[:3] == ["SHELVES all the way down", second_key, "2022"]
    qtbot.mouseClick(dialog.merge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: shows_none(dialog) and window.model.rowCount() == 39)
    assert gui_library.paper(first) is None
    assert key_of(gui_library, second) == second_key
    # Undo works from the duplicates window too (the main window's undo stack).
    qtbot.keyClick(dialog.table, Qt.Key.Key_Z, Ctrl)
    qtbot.waitUntil(lambda: window.model.rowCount() == 40
                    and not dialog.busy and dialog.table.rowCount() == 1)
    assert gui_library.paper(first) is not None
