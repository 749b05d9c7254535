"""The main window as a user meets it: the table, triage keys, search, notes, undo,
export, import and the screenshot, each on a fresh seeded library."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
import pytest
from pytestqt.qtbot import QtBot
from sqlalchemy.engine import make_url

from papershelf.__main__ import main
from papershelf.core import keys
from papershelf.core.library import Library, View
from papershelf.gui import dialogs
from papershelf.gui.main_window import MainWindow
from papershelf.gui.operations import ImportOutcome
from papershelf.gui.qt import QFileDialog, QImage, QMessageBox, QPoint, Qt
from tests.conftest import SEED_FILES
from tests.gui.conftest import WindowFactory, wait_idle

ToolTip = Qt.ItemDataRole.ToolTipRole


def starred(library: Library) -> int:
    return library.count(View(filter="starred"))


def select(window: MainWindow, rows: list[int]) -> list[int]:
    """Select table rows like a ctrl-click would, the first one current; their ids."""
    window.table.select_rows(rows, rows[0])
    window.table.setFocus()
    return window.table.selected_ids()


def test_first_start_shows_the_sample_papers(window: MainWindow) -> None:
    assert window.model.rowCount() == 38
    assert window.count_label.text() == "38 papers"
    # The library's name: its file's, or the database's on a server.
    assert window.windowTitle().startswith(
        "lib.sqlite" if window.library.dialect == "sqlite"
         else f"{make_url(window.library.url).database} on ")
    # The first paper is selected and shown in the detail pane.
    assert window.detail.current_id() == window.model.ids[0]
    assert window.sidebar.current() == ("all", None)


def test_provisional_titles_are_marked(window: MainWindow) -> None:
    title = window.model.column_index("title")
    index = window.model.index(0, title)
    assert window.model.data(index, Qt.ItemDataRole.FontRole).italic()
    assert "Provisional title drawn from the abstract" in window.model.data(index, ToolTip)


def test_star_by_click_and_by_key(window: MainWindow, qtbot: QtBot) -> None:
    library = window.library
    model, table = window.model, window.table
    star = model.column_index("star")
    index = model.index(3, star)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(index).center())
    wait_idle(qtbot, window)  # writes land from the worker
    pid = model.id_at(3)
    assert pid is not None
    assert library.rows([pid])[pid].starred
    assert "Starred" in model.data(index, ToolTip)
    # S on one paper: unstars it again.
    select(window, [3])
    qtbot.keyClick(table, Qt.Key.Key_S)
    wait_idle(qtbot, window)
    assert not library.rows([pid])[pid].starred
    # S on three papers stars them all; S again (all starred) unstars them.
    ids = select(window, [5, 6, 7])
    qtbot.keyClick(table, Qt.Key.Key_S)
    wait_idle(qtbot, window)
    assert all(r.starred for r in library.rows(ids).values())
    assert starred(library) == 3
    qtbot.keyClick(table, Qt.Key.Key_S)
    wait_idle(qtbot, window)
    assert starred(library) == 0
    # A click on the star of a selected row stars the whole selection.
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(model.index(6, star)).center())
    wait_idle(qtbot, window)
    assert starred(library) == 3
    assert table.selected_ids() == ids
    qtbot.waitUntil(lambda: window.sidebar.tree.topLevelItem(4).text(1) == "3")


def test_read_state_cycles_with_r(window: MainWindow, qtbot: QtBot) -> None:
    pid = select(window, [0])[0]
    read = window.model.column_index("read")
    states = []
    for _ in range(3):
        qtbot.keyClick(window.table, Qt.Key.Key_R)
        wait_idle(qtbot, window)
        states.append(window.library.rows([pid])[pid].read_state)
        tip = window.model.data(window.model.index(0, read), ToolTip)
        assert tip.startswith(states[-1].capitalize())
    assert states == ["reading", "read", "unread"]
    # A click on the read-state cell cycles too.
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.table.visualRect(window.model.index(0, read)).center())
    wait_idle(qtbot, window)
    assert window.library.rows([pid])[pid].read_state == "reading"


def test_single_keys_do_not_fire_while_typing(window: MainWindow, qtbot: QtBot) -> None:
    select(window, [0])
    window.detail.focus_notes()
    qtbot.keyClicks(window.detail.notes_edit, "srsr")
    wait_idle(qtbot, window)  # a write the keys started would have landed
    assert starred(window.library) == 0
    assert window.library.count(View(filter="unread")) == 38
    window.features.listing.focus_search()
    qtbot.keyClicks(window.search, "s")
    wait_idle(qtbot, window)
    assert starred(window.library) == 0


def test_search_narrows_as_you_type(window: MainWindow, qtbot: QtBot) -> None:
    window.features.listing.focus_search()
    qtbot.keyClicks(window.search, "contrastive")
    qtbot.waitUntil(lambda: 0 < window.model.rowCount() < 38)
    shown = window.model.rowCount()
    assert window.count_label.text() == f"{shown} of 38 papers match"
    assert set(window.model.ids) == set(window.library.view_ids(View(search="contrastive")))
    qtbot.keyClick(window.search, Qt.Key.Key_Escape)
    assert window.search.text() == ""
    qtbot.waitUntil(lambda: window.model.rowCount() == 38)
    assert window.count_label.text() == "38 papers"


def test_notes_survive_closing_the_window(windows: WindowFactory, window: MainWindow,
                                          qtbot: QtBot, tmp_path: Path) -> None:
    pid = select(window, [2])[0]
    qtbot.keyClick(window.table, Qt.Key.Key_N)
    assert window.detail.notes_edit.hasFocus()
    qtbot.keyClicks(window.detail.notes_edit, "Read section 3 again")
    windows.close(window)  # at once: no debounce has fired yet
    reopened = Library.open(window.library.url)
    try:
        detail = reopened.paper(pid)
        assert detail is not None
        assert detail.record.notes == "Read section 3 again"
    finally:
        reopened.close()


def test_undo_redo_of_a_bulk_star(window: MainWindow, qtbot: QtBot) -> None:
    ids = select(window, [0, 1, 2, 3, 4])
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    wait_idle(qtbot, window)
    assert starred(window.library) == 5
    assert "Star 5 papers" in window.actions["undo"].text()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    assert starred(window.library) == 0
    qtbot.keyClick(window.table, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_idle(qtbot, window)
    assert starred(window.library) == 5
    assert set(window.library.view_ids(View(filter="starred"))) == set(ids)
    star = window.model.column_index("star")
    assert "Starred" in window.model.data(window.model.index(0, star), ToolTip)


def test_keys_pressed_just_before_closing_are_all_written(
        windows: WindowFactory, window: MainWindow, qtbot: QtBot) -> None:
    """S, then S on another paper, Ctrl+Z and Ctrl+Q in a quick row: the window closes
    only once the undo, which waits for the second star to land, is written too."""
    first = select(window, [0, 1, 2])
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    wait_idle(qtbot, window)
    select(window, [5])
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    window.close()  # at once: the second star runs, the undo waits for it
    window.tasks.wait()  # (then the application quits: no event is handled after this)
    reopened = Library.open(window.library.url)
    try:
        assert set(reopened.view_ids(View(filter="starred"))) == set(first)
    finally:
        reopened.close()


def test_notes_typing_burst_is_one_undo_step(window: MainWindow, qtbot: QtBot) -> None:
    pid = select(window, [1])[0]
    window.detail.focus_notes()
    for word in ("one", " two", " three"):
        qtbot.keyClicks(window.detail.notes_edit, word)
        window.detail.flush()
    wait_idle(qtbot, window)  # every edit has landed on the undo stack
    assert window.ops.undo_stack.count() == 1
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    detail = window.library.paper(pid)
    assert detail is not None and detail.record.notes == ""
    assert window.detail.notes_edit.toPlainText() == ""
    window.redo()
    wait_idle(qtbot, window)
    detail = window.library.paper(pid)
    assert detail is not None and detail.record.notes == "one two three"


def test_export_writes_the_selected_papers(window: MainWindow, qtbot: QtBot,
                                           tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.bib"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    asked: list[int] = []

    def confirm(_parent: object, count: int, total: int, _lines: object) -> bool:
        asked.append(count)
        return True

    monkeypatch.setattr(dialogs, "confirm_incomplete", confirm)
    ids = select(window, [2, 5, 9])
    with qtbot.waitSignal(window.exportFinished, timeout=10000):
        window.actions["export_selection"].trigger()
    assert asked == [3]  # the seeds have no authors: all three are incomplete
    keys = {d.key for d in window.library.details(ids)}
    entries = bibtexparser.parse_file(str(target)).entries
    assert {e.key for e in entries} == keys
    assert str(target) in window.statusBar().currentMessage()
    assert "3 papers" in window.statusBar().currentMessage()


@pytest.mark.parametrize(("name", "kind", "written"), [
    ("out.ris", "", "TY  - "), ("out", "CSL-JSON: Zotero, citeproc (*.json)", '"id": '),
])
def test_export_writes_ris_or_csl_json_by_name_or_file_type(
        window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        name: str, kind: str, written: str) -> None:
    target = tmp_path / name
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), kind)))
    monkeypatch.setattr(dialogs, "confirm_incomplete", lambda *args: True)
    ids = select(window, [2, 5])
    with qtbot.waitSignal(window.exportFinished, timeout=10000):
        window.actions["export_selection"].trigger()
    last = window.features.exporting.last_export
    path = Path(last[0]) if last else target
    assert path.suffix in (".ris", ".json")
    assert written in path.read_text(encoding="utf-8")
    # What was written reads back: the same papers, merged onto themselves.
    report = window.library.import_file(path)
    assert report.added == 0 and report.already_present + report.merged == len(ids)


def test_export_cancelled_at_the_incomplete_check(window: MainWindow, qtbot: QtBot,
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.bib"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    monkeypatch.setattr(dialogs, "confirm_incomplete", lambda *args: False)
    select(window, [0])
    window.actions["export_view"].trigger()
    wait_idle(qtbot, window)
    assert not target.exists()


NEW_BIB = """@inproceedings{doe2024new,
  title = {A Brand New Paper About Shelves},
  author = {Doe, Jane and Roe, Richard},
  booktitle = {Proceedings of Testing},
  year = {2024},
}
"""


def test_import_through_the_action(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bib = tmp_path / "new.bib"
    bib.write_text(NEW_BIB, encoding="utf-8")
    chosen = [str(bib), str(SEED_FILES[0])]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *args, **kwargs: (chosen, "")))
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
        assert window.progress.isVisible() and window.cancel_button.isVisible()
    qtbot.waitUntil(lambda: window.model.rowCount() == 39)
    assert not window.progress.isVisible()
    assert len(shown) == 1 and shown[0] is window.features.importing.last_import_report
    text = shown[0].summary()
    assert "1 added" in text and "already present" in text and "0 failed" in text
    assert window.library.count() == 39
    qtbot.waitUntil(lambda: window.count_label.text() == "39 papers")


def test_an_import_is_one_undo_step(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "show_import_summary", lambda *args: None)
    bib = tmp_path / "new.bib"
    bib.write_text(NEW_BIB, encoding="utf-8")
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.features.importing.start_import([str(bib)])
    qtbot.waitUntil(lambda: window.model.rowCount() == 39)
    assert window.actions["undo"].isEnabled()
    assert "Import 1 paper" in window.actions["undo"].text()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.model.rowCount() == 38)
    assert window.library.count() == 38
    qtbot.keyClick(window.table, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.model.rowCount() == 39)


def test_unreadable_files_are_listed_not_raised(window: MainWindow, qtbot: QtBot,
                                                tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "show_import_summary", lambda *args: None)
    bad = tmp_path / "binary.txt"
    bad.write_bytes(b"\xff\xfe\x00\x00garbage\x00" * 50)
    with qtbot.waitSignal(window.importFinished, timeout=10000):
        window.features.importing.start_import([str(tmp_path / "missing.bib"), str(bad)])
    outcome = window.features.importing.last_import_report
    assert outcome is not None
    assert [Path(p).name for p, _reason in outcome.failed_files] == ["missing.bib",
                                                                      "binary.txt"]
    assert "2 failed" in outcome.summary()
    dialog = dialogs.ImportSummaryDialog(outcome, window)
    assert "missing.bib: not imported: no such file" in dialog.text()
    dialog.deleteLater()
    assert window.model.rowCount() == 38


def test_sort_by_header_requeries_and_keeps_the_selection(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    ids = select(window, [1, 4, 20])
    header = window.table.horizontalHeader()
    title = window.model.column_index("title")
    x = header.sectionViewportPosition(title) + header.sectionSize(title) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(x, header.height() // 2))
    qtbot.waitUntil(lambda: window.model.view.sort == "title"
                    and list(window.model.ids) == window.library.view_ids(View(sort="title")))
    assert window.table.selected_ids() == [i for i in window.model.ids if i in ids]
    assert window.table.current_id() == ids[0]


def test_tags_update_the_sidebar(window: MainWindow, qtbot: QtBot) -> None:
    ids = select(window, [0, 1])

    def tag_count(name: str) -> str | None:
        tree = window.sidebar.tree
        for n in range(tree.topLevelItemCount()):
            item = tree.topLevelItem(n)
            if item.text(0) == name:
                return item.text(1)
        return None

    window.ops.add_tags(ids, ["to-cite"])
    qtbot.waitUntil(lambda: tag_count("to-cite") == "2")
    window.sidebar.select("all", "to-cite")
    qtbot.waitUntil(lambda: window.model.rowCount() == 2)
    window.ops.remove_tags(ids[:1], ["to-cite"])
    qtbot.waitUntil(lambda: tag_count("to-cite") == "1" and window.model.rowCount() == 1)
    window.undo()
    qtbot.waitUntil(lambda: tag_count("to-cite") == "2" and window.model.rowCount() == 2)


def test_delete_and_undo(window: MainWindow, qtbot: QtBot) -> None:
    ids = select(window, [3, 4])
    window.ops.set_notes(ids[0], "keep me")
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: window.model.rowCount() == 36)
    assert window.library.count() == 36
    assert not set(ids) & set(window.model.ids)
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.model.rowCount() == 38)
    detail = window.library.paper(ids[0])
    assert detail is not None and detail.record.notes == "keep me"


def test_regenerate_keys_follow_the_pattern_and_undo(window: MainWindow, qtbot: QtBot,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    library = window.library
    pattern = "[venue]-[year]-[veryshorttitle:lower]"
    library.set_key_pattern(pattern)
    asked: list[tuple[int, str]] = []
    answer = [False]

    def confirm(_parent: object, count: int, shown: str) -> bool:
        asked.append((count, shown))
        return answer[0]

    monkeypatch.setattr(dialogs, "confirm_regenerate_keys", confirm)
    ids = select(window, [0, 1, 2])
    before = {d.id: d.key for d in library.details(ids)}
    window.actions["regenerate_keys"].trigger()  # cancelled: nothing changes
    assert asked == [(3, pattern)]
    assert {d.id: d.key for d in library.details(ids)} == before

    answer[0] = True
    window.actions["regenerate_keys"].trigger()
    wait_idle(qtbot, window)
    after = {d.id: d.key for d in library.details(ids)}
    for detail in library.details(ids):
        assert detail.key.startswith(keys.format_key(pattern, detail.record))
        assert detail.key != before[detail.id]
    assert len(set(after.values())) == 3
    assert "Regenerate keys of 3 papers" in window.actions["undo"].text()
    select(window, [0])
    assert window.detail.key_label.text() == after[window.model.ids[0]]
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    assert {d.id: d.key for d in library.details(ids)} == before
    qtbot.waitUntil(lambda: window.detail.key_label.text() == before[window.model.ids[0]])


def test_edit_citation_key(window: MainWindow, qtbot: QtBot,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    library = window.library
    pid = select(window, [4])[0]
    old = library.paper(pid)
    taken = library.paper(window.model.ids[5])
    assert old is not None and taken is not None
    typed = [taken.key]
    monkeypatch.setattr(dialogs, "ask_citation_key", lambda *_args: typed[0])
    # A key another paper has: a message box, no change, no traceback.
    qtbot.keyClick(window.table, Qt.Key.Key_F2)
    wait_idle(qtbot, window)
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1 and "already used by another paper" in boxes[0].text()
    boxes[0].close()
    assert library.paper(pid).key == old.key  # type: ignore[union-attr]
    # Not a key at all: a message box too.
    typed[0] = "has space"
    window.actions["edit_key"].trigger()
    wait_idle(qtbot, window)
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1 and "cannot be a citation key" in boxes[0].text()
    boxes[0].close()
    # A free key: set, shown, and undoable.
    typed[0] = "shelf2024mine"
    window.activateWindow()  # the message box (shown while waiting) had become active
    qtbot.waitUntil(window.isActiveWindow)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_F2)
    wait_idle(qtbot, window)
    assert library.paper(pid).key == "shelf2024mine"  # type: ignore[union-attr]
    assert window.detail.key_label.text() == "shelf2024mine"
    window.undo()
    wait_idle(qtbot, window)
    assert library.paper(pid).key == old.key  # type: ignore[union-attr]
    assert window.detail.key_label.text() == old.key


def test_navigation_keys(window: MainWindow, qtbot: QtBot) -> None:
    select(window, [0])
    qtbot.keyClick(window.table, Qt.Key.Key_J)
    qtbot.keyClick(window.table, Qt.Key.Key_J)
    assert window.table.currentIndex().row() == 2
    qtbot.keyClick(window.table, Qt.Key.Key_K)
    assert window.table.currentIndex().row() == 1
    assert window.detail.current_id() == window.model.id_at(1)
    window.library.set_read_state(list(window.model.ids[2:10]), "read")
    qtbot.keyClick(window.table, Qt.Key.Key_U)
    assert window.table.currentIndex().row() == 10
    # Past the end it wraps around; with none left it says so.
    window.library.set_read_state(list(window.model.ids[1:]), "read")
    qtbot.keyClick(window.table, Qt.Key.Key_U)
    assert window.table.currentIndex().row() == 0
    window.library.set_read_state(list(window.model.ids[:1]), "read")
    qtbot.keyClick(window.table, Qt.Key.Key_U)
    assert window.table.currentIndex().row() == 0
    assert window.statusBar().currentMessage() == "No unread papers in this list"
    window.library.set_read_state(list(window.model.ids), "unread")
    select(window, [1])
    qtbot.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert window.selected_count() == 38
    assert window.detail.current_id() is None


def test_select_all_fetches_no_rows(window: MainWindow, qtbot: QtBot,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    fetched: list[int] = []
    real_rows = window.library.rows

    def rows(ids: list[int]) -> object:
        fetched.append(len(ids))
        return real_rows(ids)

    monkeypatch.setattr(window.library, "rows", rows)
    window.table.selectAll()
    assert window.table.selected_ids() == list(window.model.ids)
    assert all(n <= 256 for n in fetched)


def test_layout_and_sort_are_remembered(windows: WindowFactory, window: MainWindow,
                                        gui_library: Library, qtbot: QtBot) -> None:
    year = window.model.column_index("year")
    window.table.sortByColumn(year, Qt.SortOrder.DescendingOrder)
    window.table.setColumnWidth(window.model.column_index("venue"), 211)
    window.sidebar.select("unread", None)
    qtbot.waitUntil(lambda: window.model.view.filter == "unread")
    windows.close(window)
    again = windows.open(gui_library)
    assert again.model.view.sort == "year" and again.model.view.descending
    assert again.model.view.filter == "unread"
    again.resize(1600, 900)  # (narrower, Venue would give way to keep Title a third)
    qtbot.waitUntil(lambda: again.table.columnWidth(again.model.column_index("venue"))
                    == 211, timeout=2000)


def test_shortcuts_dialog_lists_the_actions(window: MainWindow) -> None:
    dialog = dialogs.ShortcutsDialog(window.actions, window)
    texts = {dialog.table.item(n, 0).text(): dialog.table.item(n, 1).text()
             for n in range(dialog.table.rowCount())}
    assert texts["Star / Unstar"] == "S"
    assert texts["Undo"] == "Ctrl+Z"
    dialog.deleteLater()


def test_screenshot_writes_a_png(tmp_path: Path, qapp: object) -> None:
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out), "--library", str(tmp_path / "shot.sqlite")]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    assert out.stat().st_size > 10_000



def test_copy_citation_puts_the_selected_keys_in_the_chosen_form(
        window: MainWindow, qtbot: QtBot) -> None:
    from papershelf.gui import settings as S
    from papershelf.gui.qt import QApplication

    ids = select(window, [1, 3])
    rows = window.library.rows(ids)
    keys = [rows[pid].key for pid in window.table.selected_ids()]
    window.actions["copy_citation"].trigger()
    assert QApplication.clipboard().text() == "\\cite{" + ",".join(keys) + "}"
    assert window.actions["copy_citation"].shortcut().toString() == "Ctrl+Shift+K"
    for form, expected in (("citep", "\\citep{" + ",".join(keys) + "}"),
                           ("pandoc", "[" + "; ".join("@" + k for k in keys) + "]"),
                           ("typst", " ".join("@" + k for k in keys))):
        window.settings.set(S.CITE_FORM, form)
        window.actions["copy_citation"].trigger()
        assert QApplication.clipboard().text() == expected


def test_export_the_papers_a_latex_document_cites(window: MainWindow, qtbot: QtBot,
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    keys = [row.key for row in window.library.rows(window.library.view_ids()[:2]).values()]
    aux = tmp_path / "thesis.aux"
    aux.write_text(f"\\relax\n\\citation{{{keys[1]}}}\n\\citation{{{keys[0]},nosuch2020}}\n",
                   encoding="utf-8")
    target = tmp_path / "cited.bib"
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *args, **kwargs: (str(aux), "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(target), "")))
    monkeypatch.setattr(dialogs, "confirm_incomplete", lambda *args: True)
    with qtbot.waitSignal(window.exportFinished, timeout=10000):
        window.actions["export_cited"].trigger()
    assert [e.key for e in bibtexparser.parse_file(str(target)).entries] == [keys[1], keys[0]]
    assert window.add_panel.text() == ("thesis.aux cites papers the library does not have: "
                                       "nosuch2020")


def test_importing_several_files_reports_the_counts_of_each(
        window: MainWindow, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Three files imported at once: the summary names each with its own counts (the
    README promises counts per file), besides the total."""
    monkeypatch.setattr(dialogs, "show_import_summary", lambda *args: None)
    paths = []
    for n, titles in enumerate((["Alpha one", "Alpha two"], ["Beta one"],
                                ["Gamma one", "Gamma two", "Gamma three"])):
        path = tmp_path / f"part{n}.bib"
        path.write_text("".join(
            f"@article{{k{n}{i}, title = {{{title}}}, author = {{Doe, Jane}}, "
            f"year = {{2020}}}}\n" for i, title in enumerate(titles)), encoding="utf-8")
        paths.append(str(path))
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.features.importing.start_import(paths)
    outcome = window.features.importing.last_import_report
    assert outcome is not None and "6 added" in outcome.summary()
    dialog = dialogs.ImportSummaryDialog(outcome, window)
    text = dialog.text()
    dialog.deleteLater()
    assert "part0.bib: 2 added" in text
    assert "part1.bib: 1 added" in text
    assert "part2.bib: 3 added" in text
