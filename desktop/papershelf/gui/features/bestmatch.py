"""View › Sort by Best Match (issue 26): the table lists a search's papers best match
first (core.bestmatch). The order belongs to no column, so no header shows an arrow
while it holds; a click on a header sorts by that column again, and unchecking the
action goes back to the default order (added)."""

from __future__ import annotations

from dataclasses import replace

from papershelf.core.shapes import BEST_MATCH
from papershelf.gui.qt import Qt
from papershelf.gui.shell import Feature, Handler


class BestMatchFeature(Feature):
    """The `sort_best` action (checkable): a choice of the table's order."""

    def handlers(self) -> dict[str, Handler]:
        action = self.shell.actions["sort_best"]
        return {"sort_best": lambda: self.choose(action.isChecked())}

    def attach(self) -> None:
        shell = self.shell
        action = shell.actions["sort_best"]
        action.setChecked(shell.model.view.sort == BEST_MATCH)
        shell.model.refreshed.connect(
            lambda: action.setChecked(shell.model.view.sort == BEST_MATCH))
        # (A header's click sorts by its column at once: unchecked at once, too.)
        shell.table.horizontalHeader().sortIndicatorChanged.connect(
            lambda section, _order: action.setChecked(False) if section >= 0 else None)

    def choose(self, best: bool) -> None:
        """Order the table best match first (`best`), or by the default order again."""
        model, header = self.shell.model, self.shell.table.horizontalHeader()
        if not best:  # (the header's indicator sorts the model: QTableView.sortByColumn)
            header.setSortIndicator(model.sort_column("added"), Qt.SortOrder.AscendingOrder)
            return
        # (No column's: the model's sort ignores it.)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        view = replace(model.view, sort=BEST_MATCH, descending=False)
        if view != model.view:
            model.set_view(view)
