"""Shared and private notes in the window: which editors a library shows, where typing
goes, undo, and notes two people edit at once (merged, or both kept between markers).

A shared library is a PostgreSQL one; here a library file plays it (`Library.shared`
patched), and a second `Library` on the same file is the other member of the group.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.edits import CONFLICT_END, CONFLICT_MIDDLE, CONFLICT_START
from papershelf.core.library import Library
from papershelf.gui.main_window import MainWindow
from papershelf.gui.notes_box import moved_position
from papershelf.gui.qt import QPlainTextEdit, Qt
from tests.gui.conftest import WindowFactory, wait_idle

pytestmark = [pytest.mark.gui]

NOTES = "Method: branch and bound\nResults: table 2\nQuestions: why l0?\n"
CONFLICT_MESSAGE = ("Someone else changed these notes at the same time; both versions are "
                    "kept, marked <<<<<<< … >>>>>>>")


def notes_of(library: Library, pid: int) -> tuple[str, str]:
    """A paper's (shared, private) notes as stored."""
    detail = library.paper(pid)
    assert detail is not None
    return detail.record.notes, detail.private_notes


def type_at(qtbot: QtBot, editor: QPlainTextEdit, position: int, text: str) -> None:
    """Click into the editor at `position` and type."""
    editor.setFocus()
    cursor = editor.textCursor()
    cursor.setPosition(position)
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, text)


@pytest.fixture
def shared_window(windows: WindowFactory, gui_library: Library,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """A window on a library a group shares, its first paper shown with `NOTES`."""
    monkeypatch.setattr(Library, "shared", property(lambda _self: True))
    gui_library.set_notes(gui_library.view_ids()[0], NOTES)
    win = windows.open(gui_library)
    yield win
    windows.close(win)


@pytest.fixture
def other(gui_library: Library) -> Iterator[Library]:
    """Someone else in the group: another connection to the same library."""
    library = Library.open(gui_library.location)
    yield library
    library.close()


@pytest.mark.sqlite_only  # (a library on a server is a shared one)
def test_a_personal_library_shows_one_notes_editor(window: MainWindow) -> None:
    detail = window.detail
    assert detail.notes_heading.isVisible()
    assert detail.notes_heading.text() == "Notes"
    assert detail.notes_edit.isVisible()
    assert not detail.private_notes_edit.isVisible()
    assert not detail.private_notes_heading.isVisible()


def test_a_shared_library_shows_both_notes_labelled(shared_window: MainWindow) -> None:
    detail = shared_window.detail
    assert detail.notes_heading.text() == "Shared notes (everyone in the group)"
    assert detail.private_notes_heading.text() == "Private notes (only you)"
    for widget in (detail.notes_heading, detail.notes_edit, detail.private_notes_heading,
                   detail.private_notes_edit):
        assert widget.isVisible()
    assert detail.notes_edit.toPlainText() == NOTES
    assert detail.private_notes_edit.toPlainText() == ""


def test_private_notes_are_saved_apart_and_undone(shared_window: MainWindow,
                                                  qtbot: QtBot) -> None:
    window = shared_window
    library, pid = window.library, window.detail.current_id()
    assert pid is not None
    private = window.detail.private_notes_edit
    private.setFocus()
    qtbot.keyClicks(private, "Only for me")
    qtbot.waitUntil(lambda: notes_of(library, pid) == (NOTES, "Only for me"))
    for words in (", really", " and truly"):  # the same typing burst
        qtbot.keyClicks(private, words)
        window.detail.flush()
    wait_idle(qtbot, window)
    assert notes_of(library, pid) == (NOTES, "Only for me, really and truly")
    assert window.detail.notes_edit.toPlainText() == NOTES
    assert window.ops.undo_stack.count() == 1
    assert window.statusBar().currentMessage() == ""  # typing saved is not announced

    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: private.toPlainText() == "")
    assert notes_of(library, pid) == (NOTES, "")
    assert window.detail.notes_edit.toPlainText() == NOTES
    window.redo()
    qtbot.waitUntil(lambda: private.toPlainText() == "Only for me, really and truly")
    assert notes_of(library, pid) == (NOTES, "Only for me, really and truly")


def test_notes_saved_meanwhile_on_other_lines_are_merged(
        shared_window: MainWindow, other: Library, qtbot: QtBot) -> None:
    window = shared_window
    pid = window.detail.current_id()
    assert pid is not None
    other.set_notes(pid, NOTES.replace("bound\n", "bound, see §2\n"))
    editor = window.detail.notes_edit
    type_at(qtbot, editor, NOTES.index("?") + 1, " And l1?")

    merged = ("Method: branch and bound, see §2\nResults: table 2\n"
              "Questions: why l0? And l1?\n")
    qtbot.waitUntil(lambda: editor.toPlainText() == merged)
    assert notes_of(window.library, pid)[0] == merged
    # The cursor stays where the user was typing, after the other person's line grew.
    assert editor.textCursor().position() == merged.index("l1?") + 3
    wait_idle(qtbot, window)
    assert notes_of(window.library, pid)[0] == merged  # showing it saved nothing more
    assert window.statusBar().currentMessage() != CONFLICT_MESSAGE

    qtbot.keyClicks(editor, " Or l2?")  # typing on is based on the merged notes
    qtbot.waitUntil(lambda: notes_of(window.library, pid)[0]
                    == merged.replace("l1?", "l1? Or l2?"))


def test_the_same_lines_edited_at_once_keep_both_and_say_so(
        shared_window: MainWindow, other: Library, qtbot: QtBot) -> None:
    window = shared_window
    pid = window.detail.current_id()
    assert pid is not None
    other.set_notes(pid, NOTES.replace("why l0?", "why l0 and not l2?"))
    editor = window.detail.notes_edit
    type_at(qtbot, editor, NOTES.index("?") + 1, " And l1?")

    both = ("Method: branch and bound\nResults: table 2\n"
            f"{CONFLICT_START}\nQuestions: why l0? And l1?\n"
            f"{CONFLICT_MIDDLE}\nQuestions: why l0 and not l2?\n{CONFLICT_END}\n")
    qtbot.waitUntil(lambda: editor.toPlainText() == both)
    assert window.statusBar().currentMessage() == CONFLICT_MESSAGE
    assert notes_of(window.library, pid)[0] == both
    assert editor.textCursor().position() == both.index("l1?") + 3


def test_a_title_someone_else_changed_meanwhile_is_not_overwritten(
        shared_window: MainWindow, other: Library, qtbot: QtBot) -> None:
    """The second of two people retitling one paper is told, and theirs is not lost."""
    window = shared_window
    pid = window.detail.current_id()
    assert pid is not None
    other.set_title(pid, "Their Title")
    edit = window.detail.title_edit
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, "My Title")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "someone else changed the title to 'Their Title'"
                    in window.statusBar().currentMessage())
    assert "yours ('My Title') was not saved" in window.statusBar().currentMessage()
    detail = window.library.paper(pid)
    assert detail is not None and detail.record.title == "Their Title"


def test_each_save_is_based_on_the_notes_saved_before(shared_window: MainWindow,
                                                      qtbot: QtBot) -> None:
    window = shared_window
    pid = window.detail.current_id()
    assert pid is not None
    editor = window.detail.notes_edit
    shown = window.library.paper(pid)
    assert shown is not None
    version = shown.version
    with qtbot.waitSignal(window.detail.notesEdited, timeout=2000) as first:
        type_at(qtbot, editor, len(NOTES), "One")
    assert first.args == [pid, NOTES + "One", (version, NOTES)]
    wait_idle(qtbot, window)  # saved, and read back: the paper's version grew
    with qtbot.waitSignal(window.detail.notesEdited, timeout=2000) as second:
        qtbot.keyClicks(editor, " two")
    assert second.args == [pid, NOTES + "One two", (version + 1, NOTES + "One")]


@pytest.mark.parametrize(("old", "new", "position", "expected"), [
    ("a\nb\n", "x\na\nb\n", 3, 5),  # a line added above: the cursor moves down with b
    ("a\nb\n", "a\nb\nc\n", 3, 3),  # below: it stays
    ("a\nb", "a\nb\nc\n", 3, 3),  # at the end of the last line, which gained its newline
    ("a\nb\n", "a\n", 3, 2),  # its line went away: where the line was
    ("", "new\n", 0, 0),
])
def test_the_cursor_moves_with_its_line(old: str, new: str, position: int,
                                        expected: int) -> None:
    assert moved_position(old, new, position) == expected
