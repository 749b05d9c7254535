"""Saved searches in the window: saved from the search field, listed in the sidebar with
their counts, shown by a click, renamed, edited and deleted from their context menu,
each an undo step."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library, View
from papershelf.gui import dialogs
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QCheckBox, QDropEvent, QEvent, QMenu, QPointF, Qt, QTreeWidgetItem
from tests.gui.conftest import WindowFactory, undo, wait_idle
from tests.postgres_server import SharedLibrary
from tests.test_saved_counts import Endless

QUERY = "learning OR graph"


def saved_rows(window: MainWindow) -> list[tuple[str, str]]:
    """(name, count) of each saved search the sidebar shows."""
    return [(item.text(0), item.text(1)) for item in window.sidebar._saved_items]


def answer(monkeypatch: pytest.MonkeyPatch, *replies: str | None) -> list[tuple[str, str]]:
    """Make `dialogs.ask_line` (and on a shared library `ask_saved_search`, not for the
    group) answer `replies` in turn; the (title, text) it was asked."""
    asked: list[tuple[str, str]] = []
    pending = list(replies)

    def ask(_parent: object, title: str, _label: str, text: str = "") -> str | None:
        asked.append((title, text))
        return pending.pop(0)

    def ask_saved(parent: object, query: str) -> tuple[str, str, bool] | None:
        name = ask(parent, "Save Search", "")
        return None if name is None else (name, query, False)

    monkeypatch.setattr(dialogs, "ask_line", ask)
    monkeypatch.setattr(dialogs, "ask_saved_search", ask_saved)  # (on a shared library)
    return asked


def menu_action(menu: QMenu, text: str) -> None:
    [action] = [a for a in menu.actions() if a.text() == text]
    action.trigger()
    menu.close()


def test_save_the_search_click_it_and_undo(window: MainWindow, qtbot: QtBot,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    save = window.actions["save_search"]
    assert not save.isEnabled()  # (nothing to save yet)
    window.search.setText(QUERY)
    assert save.isEnabled()
    asked = answer(monkeypatch, "Learning")
    save.trigger()
    saved = QUERY + "*"  # (the word being typed, `graph`, was searched as a prefix)
    found = window.library.count(View(search=saved))
    qtbot.waitUntil(lambda: saved_rows(window) == [("Learning", str(found))])
    assert asked == [("Save Search", "")]
    assert not window.sidebar._saved_header.isHidden()

    window.search.clear()
    window.sidebar.select("unread")
    qtbot.waitUntil(lambda: window.model.view.filter == "unread")
    item = window.sidebar._saved_items[0]
    window.sidebar.tree.setCurrentItem(item)
    assert window.search.text() == saved and window.sidebar.current() == ("all", None)
    qtbot.waitUntil(lambda: set(window.model.ids)
                    == set(window.library.view_ids(View(search=saved))))
    assert window.model.rowCount() == found
    window.sidebar.recount()
    wait_idle(qtbot, window)
    assert window.sidebar.tree.currentItem() is window.sidebar._saved_items[0]  # (kept)
    window.search.setText(saved + " x")  # another query: the saved search gives way
    assert window.sidebar.tree.currentItem() is window.sidebar._filter_items["all"]

    undo(qtbot, window)
    qtbot.waitUntil(lambda: saved_rows(window) == [])
    assert window.library.saved_searches() == []
    assert window.sidebar._saved_header.isHidden()


def test_the_context_menu_renames_edits_and_deletes(window: MainWindow, qtbot: QtBot,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    window.library.add_saved_search("Learning", QUERY)
    window.sidebar.recount()
    qtbot.waitUntil(lambda: len(saved_rows(window)) == 1)
    [search] = window.sidebar.saved()
    asked = answer(monkeypatch, "Graphs", "graph")
    menu_action(window.features.saved_searches.saved_search_menu(search), "&Rename…")
    qtbot.waitUntil(lambda: saved_rows(window)[0][0] == "Graphs")
    [search] = window.sidebar.saved()
    menu_action(window.features.saved_searches.saved_search_menu(search), "&Edit Query…")
    graphs = window.library.count(View(search="graph"))
    qtbot.waitUntil(lambda: saved_rows(window) == [("Graphs", str(graphs))])
    assert asked == [("Rename Saved Search", "Learning"), ("Edit Saved Search", QUERY)]
    menu_action(window.features.saved_searches.saved_search_menu(search), "&Delete")
    qtbot.waitUntil(lambda: saved_rows(window) == [])
    for name in ("Graphs", "Learning"):  # each step undone in turn
        undo(qtbot, window)
        qtbot.waitUntil(lambda: bool(saved_rows(window)))
        if name == "Graphs":
            assert saved_rows(window) == [("Graphs", str(graphs))]
            undo(qtbot, window)  # (the edit of its query)
    qtbot.waitUntil(lambda: [s.name for s in window.library.saved_searches()] == ["Learning"])
    assert window.library.saved_searches()[0].query == QUERY


def test_a_refused_name_is_one_message_and_saves_nothing(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window.library.add_saved_search("Learning", QUERY)
    shown: list[str] = []
    monkeypatch.setattr(window, "show_error", shown.append)
    window.search.setText("graph")
    answer(monkeypatch, "learning")
    window.actions["save_search"].trigger()
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: bool(shown))
    assert shown == ["there is already a saved search named 'learning'"]
    assert [s.query for s in window.library.saved_searches()] == [QUERY]


def test_the_count_follows_the_papers(window: MainWindow, qtbot: QtBot) -> None:
    window.library.add_saved_search("Starred", "is:starred")
    window.sidebar.recount()
    qtbot.waitUntil(lambda: saved_rows(window) == [("Starred", "0")])
    window.table.select_rows([0, 1], 0)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: saved_rows(window) == [("Starred", "2")])


def test_the_keyboard_walks_through_the_saved_searches(window: MainWindow,
                                                       qtbot: QtBot) -> None:
    for name, query in (("Graphs", "graph"), ("Learning", "learning")):
        window.library.add_saved_search(name, query)
    window.sidebar.recount()
    qtbot.waitUntil(lambda: len(saved_rows(window)) == 2)
    tree = window.sidebar.tree
    tree.setFocus()
    tree.setCurrentItem(window.sidebar._saved_items[0])
    assert window.search.text() == "graph"
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert tree.currentItem() is window.sidebar._saved_items[1]
    assert window.search.text() == "learning"
    qtbot.waitUntil(lambda: window.model.rowCount()
                    == window.library.count(View(search="learning")))


def test_saved_searches_move_from_their_menu_and_by_dragging(
        window: MainWindow, qtbot: QtBot) -> None:
    """Move Up and Move Down in a saved search's menu, and a drop of one on another,
    reorder them (each an undo step); a drop on anything else moves nothing."""
    for name in ("One", "Two", "Three"):
        window.library.add_saved_search(name, name.lower())
    window.sidebar.recount()
    qtbot.waitUntil(lambda: len(saved_rows(window)) == 3)

    def names() -> list[str]:
        return [row[0] for row in saved_rows(window)]

    [one, _two, three] = window.sidebar.saved()
    menu = window.features.saved_searches.saved_search_menu(one)
    assert not next(a for a in menu.actions() if a.text() == "Move &Up").isEnabled()
    menu_action(menu, "Move Do&wn")
    qtbot.waitUntil(lambda: names() == ["Two", "One", "Three"])
    menu_action(window.features.saved_searches.saved_search_menu(three), "Move &Up")
    qtbot.waitUntil(lambda: names() == ["Two", "Three", "One"])

    sidebar, tree = window.sidebar, window.sidebar.tree
    dragged, target = sidebar._saved_items[2], sidebar._saved_items[0]  # One onto Two

    def drop(on: QTreeWidgetItem) -> None:
        tree.setCurrentItem(dragged)
        point = QPointF(tree.visualItemRect(on).center())
        data = tree.model().mimeData([tree.indexFromItem(dragged)])
        for kind in (QEvent.Type.DragMove, QEvent.Type.Drop):
            event = QDropEvent(point, Qt.DropAction.MoveAction, data,
                               Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                               kind)
            with patch.object(QDropEvent, "source", lambda _self: tree):
                sidebar.eventFilter(tree.viewport(), event)

    drop(sidebar._filter_items["starred"])  # (not among the saved searches)
    wait_idle(qtbot, window)
    assert names() == ["Two", "Three", "One"]
    drop(target)
    qtbot.waitUntil(lambda: names() == ["One", "Two", "Three"])
    undo(qtbot, window)
    qtbot.waitUntil(lambda: names() == ["Two", "Three", "One"])


def test_on_a_shared_library_a_search_is_saved_for_the_group(
        windows: WindowFactory, qtbot: QtBot, pg_roles: SharedLibrary,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Save Search… on a shared library asks whether the group sees it too: bob sees
    the one alice shared, not the one she kept."""
    alice = Library.open(pg_roles.alice)
    try:
        window = windows.open(alice)
        replies = [True, False]

        def ask(dialog: dialogs.LineDialog) -> int:
            dialog.edit.setText("Shared" if replies[0] else "Mine")
            box = dialog.findChild(QCheckBox, "shareSavedSearch")
            assert box is not None and box.isVisibleTo(dialog)
            box.setChecked(replies.pop(0))
            return int(dialogs.QDialog.DialogCode.Accepted.value)

        monkeypatch.setattr(dialogs.LineDialog, "exec", ask)
        for query in ("graph", "learning"):
            window.search.setText(query)
            window.actions["save_search"].trigger()
            wait_idle(qtbot, window)
        qtbot.waitUntil(lambda: [r[0] for r in saved_rows(window)] == ["Shared", "Mine"])
        windows.close(window)
        bob = Library.open(pg_roles.bob)
        try:
            assert [(s.name, s.shared) for s in bob.saved_searches()] == [("Shared", True)]
        finally:
            bob.close()
    finally:
        alice.close()


def test_saved_searches_show_before_they_are_counted_and_closing_stops_the_count(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a big library the saved searches are counted for seconds as the window opens
    (here: for ever): they are listed at once, their counts blank until known, and
    closing the window then stops the count instead of waiting for it."""
    gui_library.add_saved_search("Learning", "learning")
    gui_library.add_saved_search("Graphs", "graph")
    endless = Endless(monkeypatch)
    win = windows.open(gui_library)
    try:
        qtbot.waitUntil(lambda: saved_rows(win) == [("Learning", ""), ("Graphs", "")])
        qtbot.waitUntil(endless.running, timeout=10000)
        waits: list[bool] = []
        wait = win.tasks.wait
        monkeypatch.setattr(win.tasks, "wait",
                            lambda msecs=-1: waits.append(wait(30000)) or True)
        win.close()
    finally:
        endless.release()  # (before the window's deletion, which waits for its jobs)
    windows.delete(win)
    assert waits and all(waits)  # (False: still counting after 30 s)


def test_a_saved_search_finds_the_papers_the_field_showed_while_typing(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """`quant` typed in the field finds the papers on quantization (the word being typed
    is a prefix); saved, it must find the very same papers, not none: it is saved as
    `quant*`, and the dialog shows that query."""
    window.search.setText("quant")
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.model.view.search == "quant")
    wait_idle(qtbot, window)
    shown = set(window.model.ids)
    assert shown  # (the sample holds papers on quantization)
    asked: list[str] = []

    def ask(_parent: object, _title: str, label: str, text: str = "") -> str | None:
        asked.append(label)
        return "Quantization"

    monkeypatch.setattr(dialogs, "ask_line", ask)
    monkeypatch.setattr(dialogs, "ask_saved_search",
                        lambda _parent, query: ("Quantization", query, False))
    window.actions["save_search"].trigger()
    qtbot.waitUntil(lambda: saved_rows(window) == [("Quantization", str(len(shown)))])
    [saved] = window.library.saved_searches()
    assert saved.query == "quant*"
    assert set(window.library.view_ids(View(search=saved.query))) == shown
    if asked:  # (a library file asks the name with the query shown)
        assert "quant*" in asked[0]
