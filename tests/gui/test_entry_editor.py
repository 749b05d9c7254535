"""Editing a paper's fields in the window (issue 25): the detail pane's Edit and BibTeX
tabs, File › New Paper…, each edit saved on leaving the field as one undo step."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.formats.records import Author
from papershelf.gui import dialogs
from papershelf.gui.entry_editor import FieldsEditor, NamesEditor, SourceEditor
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QLineEdit, QModelIndex, QPlainTextEdit, Qt
from tests.gui.conftest import undo, wait_idle


def open_editor(window: MainWindow, qtbot: QtBot, row: int = 0) -> tuple[int, FieldsEditor]:
    window.table.go_to_row(row)
    pid = window.table.focused_id()
    assert pid is not None
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_E)
    editor = window.detail.fields_editor
    assert editor is not None and editor.isVisible()
    return pid, editor


def type_into(qtbot: QtBot, editor: FieldsEditor, name: str, text: str) -> None:
    """Select the field's text, type `text`, press Enter (which sends it)."""
    widget = editor.editor(name)
    assert isinstance(widget, QLineEdit), name
    widget.setFocus()
    widget.selectAll()
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key.Key_Return)


def year_cell(window: MainWindow, row: int) -> object:
    model = window.model
    return model.data(model.index(row, model.column_index("year")))


def test_every_field_is_shown_and_an_edit_is_one_undo_step(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    for name in ("type", "title", "author", "editor", "year", "booktitle", "volume",
                 "number", "pages", "publisher", "doi", "eprint", "url", "abstract",
                 "keywords"):
        assert editor.editor(name) is not None, name
    year = editor.editor("year")
    assert isinstance(year, QLineEdit) and year.text() == "2024"
    key = gui_library.paper(pid).key  # type: ignore[union-attr]

    type_into(qtbot, editor, "year", "2023")
    wait_idle(qtbot, window)
    detail = gui_library.paper(pid)
    assert detail is not None and detail.record.year == 2023
    qtbot.waitUntil(lambda: year_cell(window, 0) == "2023")  # the table follows
    assert detail.key == key  # (the key never changes by itself)

    type_into(qtbot, editor, "doi", "https://doi.org/10.1000/xyz123")
    wait_idle(qtbot, window)
    assert gui_library.paper(pid).record.doi == "10.1000/xyz123"  # type: ignore[union-attr]
    undo(qtbot, window)
    assert gui_library.paper(pid).record.doi == ""  # type: ignore[union-attr]
    undo(qtbot, window)
    assert gui_library.paper(pid).record.year == 2024  # type: ignore[union-attr]
    assert year.text() == "2024"  # (the editor shows what undo put back)


def test_the_edited_row_is_repainted_with_no_read_on_the_gui_thread(
        window: MainWindow, gui_library: Library, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The year typed shows in the table from the row the write worker read after the
    write (and after its undo): a shared library's round trips stay off the GUI thread,
    where they delayed the repaint (issue 45)."""
    pid, editor = open_editor(window, qtbot)
    gui_thread = threading.current_thread()
    read_here: list[list[int]] = []
    rows = Library.rows

    def watched(self: Library, ids: list[int]) -> object:
        if threading.current_thread() is gui_thread:
            read_here.append(list(ids))
        return rows(self, ids)

    monkeypatch.setattr(Library, "rows", watched)
    type_into(qtbot, editor, "year", "2023")
    qtbot.waitUntil(lambda: year_cell(window, 0) == "2023")
    undo(qtbot, window)
    qtbot.waitUntil(lambda: year_cell(window, 0) == "2024")
    assert gui_library.paper(pid).record.year == 2024  # type: ignore[union-attr]
    assert read_here == []


def test_a_broken_value_is_refused_next_to_its_field_and_nothing_written(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    before = gui_library.paper_fields(pid)
    for name, text in (("doi", "not a doi"), ("year", "twenty"), ("url", "ftp://x.org/a"),
                       ("pages", "12--oops"), ("title", "a {brace")):
        type_into(qtbot, editor, name, text)
        assert editor.problem_text(name).startswith("✖"), name
    wait_idle(qtbot, window)
    assert gui_library.paper_fields(pid) == before
    # An unusual value is kept, with a warning.
    coming = date.today().year + 3
    type_into(qtbot, editor, "year", str(coming))
    wait_idle(qtbot, window)
    assert editor.problem_text("year") == "⚠ A year still to come"
    assert gui_library.paper(pid).record.year == coming  # type: ignore[union-attr]


def test_authors_as_a_list_make_the_title_real(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    assert gui_library.paper(pid).record.title_provisional  # type: ignore[union-attr]
    names = editor.editor("author")
    assert isinstance(names, NamesEditor)
    for name in ("Doe, Jane", "{World Health Organization}"):
        names.add_name()
        item = names.list.currentItem()
        assert item is not None
        item.setText(name)
        wait_idle(qtbot, window)
    record = gui_library.paper(pid).record  # type: ignore[union-attr]
    assert record.authors == [Author("Doe", "Jane"), Author("World Health Organization")]
    assert not record.title_provisional
    names.list.setCurrentRow(1)
    assert names.parts.text() == "family name: World Health Organization"
    # Dragging the organisation to the top.
    names.list.model().moveRow(QModelIndex(), 1, QModelIndex(), 0)
    wait_idle(qtbot, window)
    record = gui_library.paper(pid).record  # type: ignore[union-attr]
    assert [a.family for a in record.authors] == ["World Health Organization", "Doe"]


def test_another_field_by_name_and_removing_it(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    editor.add_field("note")
    type_into(qtbot, editor, "note", "Oral presentation")
    wait_idle(qtbot, window)
    assert gui_library.paper_fields(pid)["note"] == "Oral presentation"
    remove = editor.findChild(object, "remove-note")
    assert remove is not None
    remove.click()  # type: ignore[attr-defined]
    wait_idle(qtbot, window)
    assert "note" not in gui_library.paper_fields(pid)


def test_the_bibtex_source_is_parsed_before_anything_is_saved(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    window.table.go_to_row(0)
    pid = window.table.focused_id()
    assert pid is not None
    window.actions["edit_bibtex"].trigger()
    source = window.detail.source_editor
    assert isinstance(source, SourceEditor) and source.isVisible()
    text = source.text_edit.toPlainText()
    assert text.startswith("@inproceedings{") and "year = {2024}" in text
    # Broken: one line naming the line; nothing written.
    source.text_edit.setPlainText(text.replace("year = {2024},", "year = {2024,"))
    source.apply()
    assert source.problem.isVisible() and "line" in source.problem.text()
    wait_idle(qtbot, window)
    assert gui_library.paper(pid).record.year == 2024  # type: ignore[union-attr]
    source.text_edit.setPlainText(text.replace("year = {2024}", "year = {2021}")
                                  .replace("@inproceedings{", "@article{"))
    source.apply()
    assert not source.problem.isVisible()
    wait_idle(qtbot, window)
    detail = gui_library.paper(pid)
    assert detail is not None and detail.record.year == 2021
    assert detail.record.entry_type == "article"
    undo(qtbot, window)  # one step for the whole entry
    assert gui_library.paper(pid).record.year == 2024  # type: ignore[union-attr]


def test_a_new_paper_by_hand(window: MainWindow, gui_library: Library, qtbot: QtBot,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "ask_new_paper",
                        lambda _parent: ("article", "A paper typed in by hand"))
    window.actions["new_paper"].trigger()
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: gui_library.counts().all == 39)
    qtbot.waitUntil(lambda: window.detail.fields_editor is not None
                    and window.detail.fields_editor.isVisible())
    pid = window.table.focused_id()
    detail = gui_library.paper(pid) if pid is not None else None
    assert detail is not None and detail.record.title == "A paper typed in by hand"
    assert detail.record.entry_type == "article"
    undo(qtbot, window)
    assert gui_library.counts().all == 38


def test_a_refresh_never_moves_what_is_being_typed(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    title = editor.editor("title")
    assert isinstance(title, QLineEdit)
    title.setFocus()
    title.end(False)
    qtbot.keyClicks(title, " (extended)")
    cursor = title.cursorPosition()
    window.ops.toggle_starred([pid])  # a change to the paper: the pane reads it again
    wait_idle(qtbot, window)
    assert title.text().endswith(" (extended)") and title.cursorPosition() == cursor
    abstract = editor.editor("abstract")
    assert isinstance(abstract, QPlainTextEdit) and abstract.toPlainText()


def test_a_value_someone_else_set_meanwhile_is_named_and_put_back_in_one_click(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    year = editor.editor("year")
    assert isinstance(year, QLineEdit) and year.text() == "2024"
    year.setFocus()
    year.selectAll()
    qtbot.keyClicks(year, "2023")  # typing, not yet sent...
    other = Library.open(gui_library.url)  # ...when another member sets the year
    try:
        other.set_fields(pid, {"year": "2020"})
    finally:
        other.close()
    qtbot.keyClick(year, Qt.Key.Key_Return)
    wait_idle(qtbot, window)

    assert gui_library.paper(pid).record.year == 2023  # type: ignore[union-attr]
    panel = window.add_panel
    qtbot.waitUntil(panel.isVisible)
    assert panel.text() == ("Someone else had changed this paper while you edited it; yours "
                            "replaced their year “2020”.")
    assert panel.action_button.isVisible()
    assert panel.action_button.text() == "Put Theirs Back"
    panel.action_button.click()
    wait_idle(qtbot, window)
    assert not panel.isVisible()
    assert gui_library.paper(pid).record.year == 2020  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: year_cell(window, 0) == "2020")
    undo(qtbot, window)  # (putting theirs back is an undo step of its own)
    assert gui_library.paper(pid).record.year == 2023  # type: ignore[union-attr]


def test_a_new_papers_key_is_made_from_the_fields_filled_in_before_it_is_left(
        window: MainWindow, gui_library: Library, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """New Paper asks only the type and title: the key made then has no author nor year
    (`anonndattention`). Once the author and year are filled in and the user goes to
    another paper, the key follows the key pattern like any other paper's; the undo
    step and the status bar say "New paper", not "Import 1 paper"."""
    monkeypatch.setattr(dialogs, "ask_new_paper",
                        lambda _parent: ("article", "Attention is all you need"))
    window.actions["new_paper"].trigger()
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.detail.fields_editor is not None
                    and window.detail.fields_editor.isVisible())
    assert window.ops.undo_stack.undoText() == "New paper"
    assert "New paper" in window.statusBar().currentMessage()
    pid = window.table.focused_id()
    assert pid is not None
    window.ops.set_fields(pid, {"author": "Vaswani, Ashish and Shazeer, Noam",
                                "year": "2017"})
    wait_idle(qtbot, window)
    made = gui_library.paper(pid)
    assert made is not None and "2017" not in made.key  # (not yet: still being filled in)
    window.table.go_to_row(0 if window.table.currentIndex().row() != 0 else 1)  # leaves it
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: gui_library.paper(pid).key.startswith(  # type: ignore[union-attr]
        "vaswani2017"))
    window.table.go_to_row(window.model.row_of(pid) or 0)  # back and away again:
    window.table.go_to_row(0 if window.table.currentIndex().row() != 0 else 1)  # kept as it is
    wait_idle(qtbot, window)
    assert gui_library.paper(pid).key.startswith("vaswani2017")  # type: ignore[union-attr]


def test_escape_puts_back_a_refused_value_and_its_message_goes(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    _pid, editor = open_editor(window, qtbot)
    year = editor.editor("year")
    assert isinstance(year, QLineEdit)
    year.setFocus()
    year.selectAll()
    qtbot.keyClicks(year, "twenty")
    assert editor.problem_text("year").startswith("✖")
    qtbot.keyClick(year, Qt.Key.Key_Escape)
    assert year.text() == "2024"
    assert editor.problem_text("year") == ""


def test_names_move_with_the_keyboard_and_from_their_menu(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    pid, editor = open_editor(window, qtbot)
    gui_library.set_fields(pid, {"author": "Doe, Jane and Roe, Richard and Poe, Edgar"})
    window.detail.show_paper(gui_library.paper(pid))
    names = editor.editor("author")
    assert isinstance(names, NamesEditor) and names.names() == [
        "Doe, Jane", "Roe, Richard", "Poe, Edgar"]
    names.list.setFocus()
    names.list.setCurrentRow(2)
    qtbot.keyClick(names.list, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert names.names() == ["Doe, Jane", "Poe, Edgar", "Roe, Richard"]
    assert names.list.currentRow() == 1
    wait_idle(qtbot, window)
    assert [a.family for a in gui_library.paper(pid).record.authors] == [  # type: ignore[union-attr]
        "Doe", "Poe", "Roe"]
    menu = names.context_menu()
    [down] = [a for a in menu.actions()
              if a.text().split("\t")[0].replace("&", "") == "Move Down"]
    down.trigger()
    menu.deleteLater()
    assert names.names() == ["Doe, Jane", "Roe, Richard", "Poe, Edgar"]
    qtbot.keyClick(names.list, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # (last)
    assert names.names() == ["Doe, Jane", "Roe, Richard", "Poe, Edgar"]


def test_plus_opens_a_name_to_type_with_its_cursor(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    _pid, editor = open_editor(window, qtbot)
    names = editor.editor("author")
    assert isinstance(names, NamesEditor)
    names.add_button.click()
    typing = QApplication.focusWidget()
    assert isinstance(typing, QLineEdit) and names.list.isAncestorOf(typing)
    qtbot.waitUntil(typing.isVisible, timeout=1000)  # (at the next turn of the loop)
    assert typing.width() > 40 and typing.height() > 10
    assert typing.hasFrame() and typing.placeholderText()  # (seen before a letter is typed)


def test_unapplied_bibtex_is_not_dropped_without_a_word(
        window: MainWindow, gui_library: Library, qtbot: QtBot) -> None:
    """An entry edited in the BibTeX tab that does not parse, when another paper is
    selected: the status bar says it was not applied and why, and the text typed is on
    the clipboard (nothing typed is lost without a word)."""
    window.table.go_to_row(0)
    window.actions["edit_bibtex"].trigger()
    source = window.detail.source_editor
    assert isinstance(source, SourceEditor)
    typed = source.text_edit.toPlainText().replace("year = {2024},", "year = {2024,")
    source.text_edit.setPlainText(typed)
    window.table.go_to_row(1)
    wait_idle(qtbot, window)
    said = window.statusBar().currentMessage()
    assert "not applied" in said and "line" in said
    assert QApplication.clipboard().text() == typed
