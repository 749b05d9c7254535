"""View › Sort by Best Match (issue 26) in the window: the table lists a search's papers
best match first, no header shows a sort arrow meanwhile, and a header click or
unchecking the action sorts as before."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from papershelf.core.library import View
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import Qt


def test_choosing_best_match_orders_the_table(window: MainWindow, qtbot: QtBot) -> None:
    window.features.listing.focus_search()
    qtbot.keyClicks(window.search, "language ")
    added = window.library.view_ids(View(search="language"))
    qtbot.waitUntil(lambda: list(window.model.ids) == added)
    action = window.actions["sort_best"]
    assert action.isCheckable() and not action.isChecked()

    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert action in view_menu.actions()
    action.trigger()
    best = window.library.view_ids(View(search="language", sort="best"))
    assert best != added and sorted(best) == sorted(added)
    qtbot.waitUntil(lambda: list(window.model.ids) == best)
    assert action.isChecked()
    assert window.table.horizontalHeader().sortIndicatorSection() == -1
    # The best match has the word in its title; the default order's first has not.
    rows = window.library.rows(best[:1] + added[:1])
    assert "language" in rows[best[0]].title.lower()
    assert "language" not in rows[added[0]].title.lower()

    # A click on a header sorts by its column again.
    window.table.sortByColumn(window.model.column_index("title"), Qt.SortOrder.AscendingOrder)
    qtbot.waitUntil(lambda: window.model.view.sort == "title")
    assert not action.isChecked()
    action.trigger()
    qtbot.waitUntil(lambda: list(window.model.ids) == best)
    action.trigger()  # unchecked: the default order
    qtbot.waitUntil(lambda: list(window.model.ids) == added)
    assert window.model.view.sort == "added" and not action.isChecked()
