"""The search field speaks the search language (issue 26): the word being typed matches
as a prefix, fields, negation and OR narrow the table, and the status bar says how the
query was read."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from papershelf.core.library import Library, View
from papershelf.gui import i18n
from papershelf.gui.main_window import MainWindow
from tests.gui.conftest import WindowFactory, wait_idle
from tests.gui.test_i18n import compiled  # noqa: F401  (the module's fixture)


def typed(qtbot: QtBot, window: MainWindow, text: str) -> list[int]:
    """Type `text` into the search field letter by letter; the ids the table shows."""
    window.search.clear()
    qtbot.waitUntil(lambda: window.model.view.search == "")
    window.search.setFocus()
    qtbot.keyClicks(window.search, text)
    typing = not text.endswith(" ")
    qtbot.waitUntil(lambda: (window.model.view.search, window.model.view.typing)
                    == (text.strip(), typing))
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.model.complete)
    return list(window.model.ids)


def test_the_word_being_typed_is_a_prefix(window: MainWindow, gui_library: Library,
                                          qtbot: QtBot) -> None:
    # "variational" is in the sample's abstracts; "variat" is no word of them.
    whole = gui_library.view_ids(View(search="variational"))
    assert whole and not gui_library.view_ids(View(search="variat"))
    shown = typed(qtbot, window, "variat")
    assert set(whole) <= set(shown)
    assert window.model.view.typing
    # A space after it ends the word: now it must be whole.
    assert typed(qtbot, window, "variat ") == []
    assert not window.model.view.typing


def test_fields_and_operators_narrow_the_table(window: MainWindow, gui_library: Library,
                                               qtbot: QtBot) -> None:
    everyone = set(gui_library.view_ids())
    window.ops.toggle_starred([sorted(everyone)[0]])
    wait_idle(qtbot, window)
    starred = typed(qtbot, window, "is:starred")
    assert starred == [sorted(everyone)[0]]
    assert "starred" in window.count_label.text()
    others = typed(qtbot, window, "-is:starred year:2024")
    assert set(others) == everyone - set(starred)
    either = typed(qtbot, window, "variational OR diffusion")
    assert set(either) == set(gui_library.view_ids(View(search="variational"))) | set(
        gui_library.view_ids(View(search="diffusion")))
    assert " or " in window.count_label.text()
    # Starring a paper in an is:starred view shows it there at once.
    window.ops.toggle_starred([sorted(everyone)[1]])
    wait_idle(qtbot, window)
    typed(qtbot, window, "is:starred")
    qtbot.waitUntil(lambda: len(window.model.ids) == 2)


def test_how_a_query_was_read_is_said_in_chinese(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot,
        compiled: Path) -> None:  # noqa: F811
    translators = i18n.install("zh_CN", compiled)
    try:
        window = windows.open(gui_library)
        typed(qtbot, window, "au:hinton OR year:2020..2022 -survey")
        label = window.count_label.text()
        assert "作者：“hinton”" in label and "年份：2020–2022" in label and "不含" in label
    finally:
        i18n.remove(translators)
