"""View › Sort by Best Match (issue 26): the table lists a search's papers best match
first (core.bestmatch). The order belongs to no column, so no header shows an arrow
while it holds; a click on a header sorts by that column again, and unchecking the
action goes back to the default order (added)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from papershelf.core.shapes import BEST_MATCH
from papershelf.gui.qt import Qt

if TYPE_CHECKING:
    from papershelf.gui.main_window import MainWindow


def connect(window: MainWindow) -> None:
    """Make the window's `sort_best` action a checkable choice of the table's order."""
    action = window.actions["sort_best"]
    action.setCheckable(True)
    action.setChecked(window.model.view.sort == BEST_MATCH)
    action.triggered.connect(lambda checked: choose(window, bool(checked)))
    window.model.refreshed.connect(
        lambda: action.setChecked(window.model.view.sort == BEST_MATCH))
    # (A header's click sorts by its column at once: unchecked at once, too.)
    window.table.horizontalHeader().sortIndicatorChanged.connect(
        lambda section, _order: action.setChecked(False) if section >= 0 else None)


def choose(window: MainWindow, best: bool) -> None:
    """Order the table best match first (`best`), or by the default order again."""
    model, header = window.model, window.table.horizontalHeader()
    if not best:  # (the header's indicator sorts the model: QTableView.sortByColumn)
        header.setSortIndicator(model.sort_column("added"), Qt.SortOrder.AscendingOrder)
        return
    # (No column's: the model's sort ignores it.)
    header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    view = replace(model.view, sort=BEST_MATCH, descending=False)
    if view != model.view:
        model.set_view(view)
