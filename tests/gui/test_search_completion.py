"""The search field completes the search language at the cursor (field names, flags,
entry types, the library's tags and venues) and explains it in a popover."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt
from papershelf.gui.search_field import SearchHelp, completions, term_at
from tests.gui.conftest import wait_idle


def typed(qtbot: QtBot, window: MainWindow, text: str) -> list[str]:
    """Type `text` into the empty search field; the completions offered (none: [])."""
    window.search.clear()
    window.search.setFocus()
    qtbot.keyClicks(window.search, text, delay=1)  # (events handled between keys)
    popup = window.search.completer_popup
    if not popup.isVisible():
        return []
    model = popup.model()
    return [model.index(row, 0).data() for row in range(model.rowCount())]


def test_field_names_complete_from_their_first_letters(window: MainWindow,
                                                       qtbot: QtBot) -> None:
    assert typed(qtbot, window, "au") == ["au:", "author:"]
    assert typed(qtbot, window, "graph Ye") == ["year:"]
    assert typed(qtbot, window, "(-ti") == ["title:"]
    assert typed(qtbot, window, "graph") == []
    assert typed(qtbot, window, "author:ti") == []  # (a value, not a field)
    # Tab chooses the first: the cursor stays after the colon, the values come next.
    assert typed(qtbot, window, "-t") == ["tag:", "title:", "type:"]
    qtbot.keyClick(window.search.completer_popup, Qt.Key.Key_Tab)
    assert (window.search.text(), window.search.cursorPosition()) == ("-tag:", 5)
    assert window.search.hasFocus()


def test_flags_and_entry_types_complete_after_their_field(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    assert typed(qtbot, window, "is:") == ["is:starred", "is:unread", "is:reading",
                                           "is:read", "is:provisional", "is:retracted",
                                           "is:corrected"]
    assert typed(qtbot, window, "has:p") == ["has:pdf"]
    assert typed(qtbot, window, "is:starred") == []  # (nothing more to offer)
    assert typed(qtbot, window, "TYPE:in") == ["TYPE:inproceedings", "TYPE:incollection",
                                               "TYPE:inbook"]


def test_tags_and_venues_complete_from_the_library(window: MainWindow, qtbot: QtBot) -> None:
    window.ops.add_tags(window.library.view_ids()[:2], ["to read", "theory"])
    wait_idle(qtbot, window)  # the sidebar counts again, then the tags are read again
    wait_idle(qtbot, window)
    assert typed(qtbot, window, 'graph tag:"to r') == ['tag:"to read"']
    assert typed(qtbot, window, "graph tag:to") == ['tag:"to read"']
    # Enter puts it in place of that term only, and a space after it.
    qtbot.keyClick(window.search.completer_popup, Qt.Key.Key_Return)
    assert window.search.text() == 'graph tag:"to read" '
    assert window.search.cursorPosition() == len(window.search.text())
    assert not window.search.completer_popup.isVisible()
    assert window.library.venues() == ["ICML"]  # (the sample's)
    assert typed(qtbot, window, "venue:ic") == ["venue:ICML"]
    assert typed(qtbot, window, "venue:icml") == []


def test_a_term_in_the_middle_is_completed_in_place(window: MainWindow, qtbot: QtBot) -> None:
    typed(qtbot, window, "graph  year:2020")
    window.search.setCursorPosition(len("graph"))
    qtbot.keyClicks(window.search, " is:st", delay=1)
    assert window.search.completer_popup.isVisible()
    qtbot.mouseClick(window.search.completer_popup.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.search.completer_popup.visualRect(
                         window.search.completer_popup.model().index(0, 0)).center())
    # The space already there is kept, and the cursor moved past it.
    assert window.search.text() == "graph is:starred  year:2020"
    assert window.search.cursorPosition() == len("graph is:starred ")


def test_escape_closes_the_completions_and_keeps_the_search(window: MainWindow,
                                                            qtbot: QtBot) -> None:
    assert typed(qtbot, window, "graph is:")
    qtbot.keyClick(window.search.completer_popup, Qt.Key.Key_Escape)
    assert not window.search.completer_popup.isVisible()
    assert window.search.text() == "graph is:"
    qtbot.keyClick(window.search, Qt.Key.Key_Escape)  # none shown: Escape clears
    assert window.search.text() == ""


def test_the_help_opens_from_the_field_and_its_examples_fill_it(window: MainWindow,
                                                                qtbot: QtBot) -> None:
    window.search.help_action.trigger()
    popover = window.search.findChild(SearchHelp)
    assert popover is not None and popover.isVisible()
    example = popover.examples[1]
    qtbot.mouseClick(example, Qt.MouseButton.LeftButton)
    assert not popover.isVisible()
    assert window.search.text() == example.text() == 'tag:"to read"'
    qtbot.waitUntil(lambda: window.model.view.search == 'tag:"to read"')
    window.search.setFocus()
    qtbot.keyClick(window.search, Qt.Key.Key_F1)
    assert popover.isVisible()
    popover.hide()


def test_terms_and_their_completions() -> None:
    assert term_at('a (-au', 6) == (4, "au")
    assert term_at('x tag:"to re', 12) == (2, 'tag:"to re')
    assert term_at("a|ye b", 4) == (2, "ye")
    values = {"tag": ["to read", "Theory", "(x)"]}
    assert completions("tag:t", values) == ['tag:"to read"', "tag:Theory"]
    assert completions("tag:(", values) == ['tag:"(x)"']
    assert completions("tag:theory", values) == []
    assert completions("", values) == []
    assert completions("x1", values) == []


def test_authors_complete_as_their_letters_are_typed(window: MainWindow,
                                                     qtbot: QtBot) -> None:
    """After `au:` the first authors whose family names begin as typed are offered
    (accents and case ignored), read as the letters come."""
    ids = window.library.view_ids()[:2]
    window.library.set_fields(ids[0], {"author": "López, Ivan and Wang, Wei"})
    window.library.set_fields(ids[1], {"author": "Lovelace, Ada"})
    window.search.clear()
    window.search.setFocus()
    qtbot.keyClicks(window.search, "graph au:lo", delay=1)
    popup = window.search.completer_popup

    def offered() -> list[str]:
        model = popup.model()
        return [model.index(row, 0).data() for row in range(model.rowCount())] \
            if popup.isVisible() else []

    qtbot.waitUntil(lambda: offered() == ["au:López", "au:Lovelace"])
    qtbot.keyClicks(window.search, "v", delay=1)
    qtbot.waitUntil(lambda: offered() == ["au:Lovelace"])
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert window.search.text() == "graph au:Lovelace "
    assert window.library.first_authors("LOPE") == ["López"]
    assert window.library.first_authors("wang") == []  # (not a first author)
