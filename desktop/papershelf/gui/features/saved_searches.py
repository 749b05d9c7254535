"""Saved searches: View › Save Search…, and the sidebar's menu of a saved search
(rename, edit its query, move, delete). Choosing one is the listing's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.qt import QMenu, Qt, Translator
from papershelf.gui.shell import Feature, Handler

if TYPE_CHECKING:
    from papershelf.core import query
    from papershelf.core.saved import SavedSearch
    from papershelf.gui import dialogs
else:
    query = lazy.module("papershelf.core.query")
    dialogs = lazy.module("papershelf.gui.dialogs")

tr = Translator("MainWindow")


class SavedSearchesFeature(Feature):
    """Saving the search field's query under a name, and the saved searches' menu."""

    def handlers(self) -> dict[str, Handler]:
        return {"save_search": self.save_search}

    def attach(self) -> None:
        shell = self.shell
        shell.sidebar.savedMenuRequested.connect(
            lambda search, pos: self.saved_search_menu(search).popup(pos))
        shell.sidebar.savedMoved.connect(
            lambda search_id, place: shell.ops.move_saved_search(search_id, place))

    def save_search(self) -> None:
        """View › Save Search…: the search field's query under a name the user gives,
        finding what the field shows (the word being typed saved as a prefix: `quant*`)."""
        shell = self.shell
        typed = query.as_typed(shell.search.text()).strip()
        if not typed:
            return
        if shell.library.shared:  # (for the group, or for oneself)
            asked = dialogs.ask_saved_search(shell, typed)
            if asked is not None:
                shell.ops.add_saved_search(*asked)
            return
        name = dialogs.ask_line(shell, tr("Save Search"),
                                tr("Name of the saved search “{query}”:").format(query=typed))
        if name:
            shell.ops.add_saved_search(name, typed)

    def saved_search_menu(self, search: SavedSearch) -> QMenu:
        """The context menu of a saved search in the sidebar (deleted once closed)."""
        ops = self.shell.ops
        menu = QMenu(self.shell)
        menu.addAction(tr("&Rename…")).triggered.connect(
            lambda _=False: self.rename_saved_search(search))
        menu.addAction(tr("&Edit Query…")).triggered.connect(
            lambda _=False: self.edit_saved_search(search))
        saved = [s.id for s in self.shell.sidebar.saved()]
        place = saved.index(search.id) if search.id in saved else -1
        up = menu.addAction(tr("Move &Up"))
        up.setEnabled(place > 0)
        up.triggered.connect(lambda _=False: ops.move_saved_search(search.id, place - 1))
        down = menu.addAction(tr("Move Do&wn"))
        down.setEnabled(0 <= place < len(saved) - 1)
        down.triggered.connect(
            lambda _=False: ops.move_saved_search(search.id, place + 1))
        menu.addSeparator()
        menu.addAction(tr("&Delete")).triggered.connect(
            lambda _=False: ops.remove_saved_search(search.id))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        return menu

    def rename_saved_search(self, search: SavedSearch) -> None:
        """Ask a saved search's new name."""
        name = dialogs.ask_line(self.shell, tr("Rename Saved Search"),
                                tr("New name of the saved search “{name}”:").format(
                                    name=search.name), search.name)
        if name:
            self.shell.ops.rename_saved_search(search.id, name)

    def edit_saved_search(self, search: SavedSearch) -> None:
        """Ask a saved search's new query."""
        query = dialogs.ask_line(self.shell, tr("Edit Saved Search"),
                                 tr("Query of the saved search “{name}”:").format(
                                     name=search.name), search.query)
        if query:
            self.shell.ops.edit_saved_search(search.id, query)
