"""The inbox in the window, continued: keeping items past the clean-up (Shift+K, the
menus; one undo step on a selection, a mark on each kept row), ranking the inbox by a
tag (remembered, ranked off the GUI thread, the Why column naming the tag's papers),
and a source's name kept in the library (every program shows it; a name the window's
settings held before is moved there once)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.feeds import inbox, sources
from papershelf.gui import settings as S
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QAction, QMenu, QPoint, Qt, QTranslator
from tests.gui import test_inbox_gui as base
from tests.gui.conftest import WindowFactory, wait_idle
from tests.gui.test_i18n import chinese, compiled
from tests.gui.test_inbox_gui import (
    checked_inbox,
    counts,
    key,
    shown_titles,
    source_menu,
    wait_idle_feeds,
)

# The fixtures of the inbox's window tests: a local server playing the services, the
# window on it.
server, httpserver, clean_environment = base.server, base.httpserver, base.clean_environment
http, win, _bot = base.http, base.win, base._bot
chinese, compiled = chinese, compiled  # (the window in Chinese: tests.gui.test_i18n)

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
QUANTIZED = "Two-Bit Quantization of Large Language Models Without Retraining"
SOIL = "Soil Erosion on Alpine Meadows Under Grazing"


def kept_marks(window: MainWindow) -> dict[str, bool]:
    """Each shown item's title: whether its row says it is kept."""
    model = window.model
    title, mark = model.column_index("title"), model.column_index("read")
    return {model.index(row, title).data():
            "Kept" in (model.index(row, mark).data(Qt.ItemDataRole.ToolTipRole) or "")
            for row in range(model.rowCount())}


def test_keep_a_selection_in_one_undo_step_and_the_clean_up_spares_it(
        qtbot: QtBot, win: MainWindow, library: Library) -> None:
    checked_inbox(qtbot, win, library)
    assert kept_marks(win) == {QUANTIZED: False, SOIL: False}
    win.table.select_rows([0, 1], 0)
    assert win.actions["inbox_keep"].isEnabled()
    key(qtbot, win, Qt.Key.Key_K, SHIFT)
    qtbot.waitUntil(lambda: kept_marks(win) == {QUANTIZED: True, SOIL: True})
    assert all(item.kept for item in inbox.items(library))
    assert len(win.table.selected_ids()) == 2  # (the selection stays)
    assert "2" in win.actions["undo"].text()
    key(qtbot, win, Qt.Key.Key_Z, CTRL)  # one step: both
    qtbot.waitUntil(lambda: kept_marks(win) == {QUANTIZED: False, SOIL: False})
    assert not any(item.kept for item in inbox.items(library))
    win.actions["redo"].trigger()
    qtbot.waitUntil(lambda: kept_marks(win) == {QUANTIZED: True, SOIL: True})

    # on kept items alone, the same key unkeeps them
    row = shown_titles(win).index(SOIL)
    win.table.go_to_row(row)
    key(qtbot, win, Qt.Key.Key_K, SHIFT)
    qtbot.waitUntil(lambda: kept_marks(win) == {QUANTIZED: True, SOIL: False})
    view = win.features.feeds._view
    win.table.go_to_row(shown_titles(win).index(QUANTIZED))
    assert view is not None and "Kept" in view.kept_label.text()

    # the table's right-click menu offers it
    win._context_menu(QPoint(5, 5))
    menus = [m for m in win.findChildren(QMenu) if m.isVisible()]
    assert any(win.actions["inbox_keep"] in m.actions() for m in menus)
    for menu in menus:
        menu.close()

    # the clean-up of old items lets the kept one be
    inbox.clean_up(library.context, datetime.now(timezone.utc) + timedelta(days=1))
    assert [item.title for item in inbox.items(library)] == [QUANTIZED]


def seed_for_ranking(library: Library) -> None:
    """Two starred papers on quantization, a paper on grazing tagged "pastures"."""
    _change, quantized = library.new_paper({
        "title": "Quantizing transformer weights to two bits after training",
        "abstract": "Post-training quantization of large language models keeps accuracy "
                    "with two-bit weights."})
    _change, low_bit = library.new_paper({
        "title": "Low-bit weight quantization of language models",
        "abstract": "Two-bit quantization of the weights of large language models without "
                    "retraining."})
    library.set_starred([quantized, low_bit], True)
    _change, grazing = library.new_paper({
        "title": "Sheep grazing and the erosion of mountain pastures",
        "abstract": "Soil erosion on alpine meadows grows with grazing by sheep and "
                    "cattle."})
    library.add_tags([grazing], ["pastures"])


def why_of(window: MainWindow) -> dict[str, str]:
    model = window.model
    title, why = model.column_index("title"), model.column_index("venue")
    return {model.index(row, title).data(): model.index(row, why).data()
            for row in range(model.rowCount())}


def rank_actions(window: MainWindow) -> dict[str, QAction]:
    menu = window.features.feeds.rank_menu
    menu.aboutToShow.emit()
    return {action.text(): action for action in menu.actions()}


def test_the_inbox_is_ranked_by_a_tag_in_the_background_and_it_is_remembered(
        qtbot: QtBot, win: MainWindow, library: Library, windows: WindowFactory) -> None:
    seed_for_ranking(library)
    win.features.listing.show_counts_and_view()
    qtbot.waitUntil(lambda: "pastures" in win.sidebar.tag_names())
    checked_inbox(qtbot, win, library)
    assert shown_titles(win)[0] == QUANTIZED  # (like the starred paper)
    actions = rank_actions(win)
    assert set(actions) >= {"All My Papers", "pastures"}
    assert actions["All My Papers"].isChecked()
    actions["pastures"].trigger()
    assert win.features.feeds.ranking  # (ranked in a worker, not on the GUI thread)
    qtbot.waitUntil(lambda: shown_titles(win)[0] == SOIL)
    wait_idle_feeds(win)
    assert why_of(win)[SOIL].startswith(
        "like 1 paper tagged “pastures”: “Sheep grazing and the erosion")
    assert "Quantizing transformer" not in why_of(win)[QUANTIZED]
    assert "pastures" in win.count_label.text()
    assert rank_actions(win)["pastures"].isChecked()

    # the tag's own menu in the sidebar offers it too; and a new window remembers it
    win.sidebar.select("all")
    qtbot.waitUntil(lambda: win.model.showing_papers)
    win.features.feeds.rank_by("")
    qtbot.waitUntil(lambda: not win.features.feeds.ranking)
    tree = win.sidebar.tree
    item = win.sidebar.tag_item("pastures")
    assert item is not None
    tree.customContextMenuRequested.emit(tree.visualItemRect(item).center())
    [menu] = [m for m in win.findChildren(QMenu, "tagMenu") if m.isVisible()]
    [rank] = [a for a in menu.actions() if a.text() == "Rank Inbox by This Tag"]
    rank.trigger()
    menu.close()
    qtbot.waitUntil(lambda: not win.model.showing_papers and shown_titles(win)[:1] == [SOIL])
    windows.close(win)
    again = windows.open(library)
    wait_idle_feeds(again)
    again.actions["show_inbox"].trigger()
    qtbot.waitUntil(lambda: shown_titles(again)[:1] == [SOIL])

    # a tag deleted since: the whole library's ranking again, without a word of error
    remembered = S.for_library(S.INBOX_RANK_TAG, library.location)
    again.features.feeds.rank_by("gone")
    qtbot.waitUntil(lambda: not again.features.feeds.ranking)
    assert again.settings.get(remembered) == "" and again.features.feeds.ranked_by == ""
    assert shown_titles(again)[0] == QUANTIZED


def test_a_source_renamed_in_the_window_is_renamed_in_the_library(
        qtbot: QtBot, win: MainWindow, library: Library, httpserver: HTTPServer) -> None:
    rss = httpserver.url_for("/jmlt/rss")
    sources.follow(library.context, rss)
    feeds = win.features.feeds
    feeds.reload()
    wait_idle_feeds(win)
    source_menu(qtbot, win, rss)["&Rename…"].trigger()
    dialog = feeds.rename_dialog
    assert dialog is not None
    dialog.setTextValue("JMLT")
    dialog.accept()
    item = win.sidebar.inbox.source_item(rss)
    assert item is not None
    qtbot.waitUntil(lambda: item.text(0) == "JMLT")
    assert [s.name for s in sources.sources(library.context)] == ["JMLT"]
    assert win.actions["undo"].isEnabled()  # (one undo step)
    key(qtbot, win, Qt.Key.Key_Z, CTRL)
    qtbot.waitUntil(lambda: item.text(0) == rss)
    assert [s.name for s in sources.sources(library.context)] == [""]
    # a name another program gives it shows at the next reading
    sources.rename(library.context, rss, "Journal of ML Tests")
    feeds.reload()
    qtbot.waitUntil(lambda: item.text(0) == "Journal of ML Tests")


def test_names_kept_in_the_settings_move_to_the_library_once(
        qtbot: QtBot, windows: WindowFactory, library: Library,
        httpserver: HTTPServer) -> None:
    rss = httpserver.url_for("/jmlt/rss")
    sources.follow(library.context, rss)
    sources.follow(library.context, "arxiv:cs.LG")
    settings = windows.settings
    old = S.for_library(S.FEED_NAMES, library.location)
    settings.set(old, json.dumps({rss: "JMLT", "arxiv:math.AG": "Geometry"}))
    settings.set(S.FEEDS_CHECK_HOURS, 0)  # (no check on opening: nothing is asked here)
    window = windows.open(library)
    wait_idle_feeds(window)
    qtbot.waitUntil(lambda: counts(window) is not None
                    and [s.name for s in sources.sources(library.context)] == ["JMLT", ""])
    item = window.sidebar.inbox.source_item(rss)
    assert item is not None
    qtbot.waitUntil(lambda: item.text(0) == "JMLT")
    qtbot.waitUntil(lambda: settings.get(old) == "")
    assert not window.actions["undo"].isEnabled()  # (moving them is no step of the user's)
    wait_idle(qtbot, window)


def test_a_reason_naming_the_tag_reads_in_chinese(chinese: list[QTranslator]) -> None:
    from papershelf.feeds.ranking import Liked, Model
    from papershelf.feeds.ranking import why as said
    from papershelf.gui.i18n import localized

    model = Model.train([Liked("Sheep grazing and the erosion of mountain pastures",
                               "Soil erosion on alpine meadows.", "tagged", ("smith j",))],
                        tag="pastures")
    _score, why = model.score("Soil erosion on alpine meadows under grazing",
                              "Sheep grazing and erosion.", ["smith j"])
    assert localized(said(why)) == (
        "与“Sheep grazing and the erosion of mountain pastures”有共同作者；与 1 篇带有标签"
        "“pastures”的论文相似：“Sheep grazing and the erosion of mountain pastures”")
