"""The sidebar: the reading-state filters, the user's tags and saved searches, each with
its count.

Entries are identified by (filter, tag) — never by row — so the selection survives
`set_counts` adding or removing tags. A saved search is the entry All with its query:
choosing one asks for that query in the search field (`searchChosen`), and it stays
selected while the field holds it (`follow_search`). Following the
operations (`follow`), the sidebar counts again, in a worker, after every change to
what it counts (for saved searches: any change, as a query may read any field).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from papershelf.core.shapes import (
    FILTERS,
    PAPERS,
    PROGRESS,
    READ_STATE,
    SAVED,
    STARRED,
    TAGS,
    Counts,
)
from papershelf.gui.i18n import number
from papershelf.gui.qt import (
    QAbstractItemView,
    QDropEvent,
    QEvent,
    QFont,
    QFrame,
    QHeaderView,
    QModelIndex,
    QObject,
    QPalette,
    QPersistentModelIndex,
    QPoint,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTimer,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
    icon,
)
from papershelf.gui.sidebar_inbox import InboxSection
from papershelf.gui.workers import Latest

if TYPE_CHECKING:
    from papershelf.core.saved import SavedSearch
    from papershelf.core.tally import Tally
    from papershelf.gui.operations import ChangeEvent, Operations

Entry = tuple[str, str | None]  # (filter, tag)
_ENTRY_ROLE = Qt.ItemDataRole.UserRole
# The saved searches are counted in full again this long after the last change whose
# papers were followed one by one (core.tally).
EXACT_AFTER_MS = 60_000
_SAVED_ROLE = Qt.ItemDataRole.UserRole + 1  # a saved search's item: its SavedSearch
_FILTER_ICONS = {"all": "all", "unread": "unread", "reading": "reading", "read": "read",
                 "starred": "star", "recent": "recent"}


class _CountDelegate(QStyledItemDelegate):
    """Draws the count column in the palette's placeholder (grey) colour, unless selected."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """Dim the text colour of an unselected count."""
        super().initStyleOption(option, index)
        if not option.state & QStyle.StateFlag.State_Selected:
            grey = option.palette.color(QPalette.ColorRole.PlaceholderText)
            option.palette.setColor(QPalette.ColorRole.Text, grey)


class Sidebar(QWidget):
    """Filters (All, Unread, Reading, Read, Starred), tags and saved searches, with paper
    counts."""

    filterChanged = Signal(str, object)  # filter, tag name or None
    counted = Signal(object)  # Counts, after a recount is shown
    searchChosen = Signal(str)  # a saved search was clicked: its query
    # A saved search's context menu was asked for: the SavedSearch, the global position.
    savedMenuRequested = Signal(object, object)
    # A tag's context menu was asked for: its name, the global position.
    tagMenuRequested = Signal(str, object)
    # A saved search dragged to another place among them: its id, its new position.
    savedMoved = Signal(int, int)

    COUNTED = frozenset({STARRED, READ_STATE, TAGS, PAPERS, PROGRESS})  # what changes counts

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._updating = False
        self._ops: Operations | None = None
        self._counting: Latest | None = None
        self._counting_saved: Latest | None = None
        self._following_saved: Latest | None = None
        self._tally: Tally | None = None

        self.tree = QTreeWidget(self)
        self.tree.setObjectName("sidebar")
        self.tree.setColumnCount(2)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(0)
        self.tree.setUniformRowHeights(True)
        self.tree.setFrameShape(QFrame.Shape.NoFrame)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setIconSize(QSize(16, 16))
        self.tree.setItemDelegateForColumn(1, _CountDelegate(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)

        labels = {"all": self.tr("All"), "unread": self.tr("Unread"),
                  "reading": self.tr("Reading"), "read": self.tr("Read"),
                  "starred": self.tr("Starred"), "recent": self.tr("Recently read")}
        self._filter_items: dict[str, QTreeWidgetItem] = {}
        for name in FILTERS:
            item = self._new_item(labels[name], ("all", None) if name == "all" else (name, None))
            item.setIcon(0, icon(_FILTER_ICONS[name]))
            self._filter_items[name] = item
        # The inbox and the followed sources (gui.sidebar_inbox), before the tags.
        self.inbox = InboxSection(self.tree)

        self._tags_header = self._new_header(self.tr("Tags"))
        self._tag_items: dict[str, QTreeWidgetItem] = {}
        self._saved_header = self._new_header(self.tr("Saved Searches"))
        self._saved_items: list[QTreeWidgetItem] = []

        self.tree.setCurrentItem(self._filter_items["all"])
        self.tree.currentItemChanged.connect(self._current_changed)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        # Saved searches are dragged among themselves to reorder them; the drop is
        # handled here (the move is an undo step), never by the tree's own moving.
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.tree.setDragEnabled(True)
        self.tree.viewport().installEventFilter(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        self.setFocusProxy(self.tree)

    def sizeHint(self) -> QSize:
        """Narrow by default: the sidebar is a list of short names."""
        return QSize(190, super().sizeHint().height())

    def filters_width(self) -> int:
        """The width that shows each filter's name whole ("Recently read" and its count,
        in the interface's language): what a small window still gives the sidebar."""
        tree = self.tree
        widest = max((tree.fontMetrics().horizontalAdvance(item.text(0))
                      for item in self._filter_items.values()), default=0)
        count = tree.fontMetrics().horizontalAdvance("00000") + 8
        scrollbar = tree.verticalScrollBar().sizeHint().width()
        return widest + tree.iconSize().width() + 16 + count + scrollbar

    # -- public API -------------------------------------------------------------------

    def current(self) -> Entry:
        """(filter, tag) of the selected entry; with a tag selected the filter is "all"."""
        item = self.tree.currentItem()
        entry = item.data(0, _ENTRY_ROLE) if item is not None else None
        if not entry:
            return ("all", None)
        filter_name, tag = entry
        return (str(filter_name), None if tag is None else str(tag))

    def select(self, filter: str, tag: str | None = None) -> None:
        """Select an entry (an unknown one selects All); emits `filterChanged` if it changed."""
        item = self._item_for((filter, tag)) or self._filter_items["all"]
        if item is not self.tree.currentItem():
            self.tree.setCurrentItem(item)  # emits through _current_changed

    def set_counts(self, counts: Counts) -> None:
        """Update every count and the tag list, keeping the selected entry if it still exists."""
        before = self.current()
        self._updating = True
        try:
            for name, filter_item in self._filter_items.items():
                filter_item.setText(1, number(getattr(counts, name)))
            for name in list(self._tag_items):
                if name not in counts.tags:
                    gone = self._tag_items.pop(name)
                    self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(gone))
            for name in sorted(counts.tags, key=str.casefold):
                tag_item = self._tag_items.get(name)
                if tag_item is None:
                    tag_item = self._new_item(name, ("all", name))
                    tag_item.setIcon(0, icon("tag"))
                    tag_item.setToolTip(0, name)
                    self._tag_items[name] = tag_item
                tag_item.setText(1, number(counts.tags[name]))
            self._sort_tags()
            self._tags_header.setHidden(not self._tag_items)
            if self._chosen_saved() is None and self.inbox.current() is None:
                restored = self._item_for(before)
                self.tree.setCurrentItem(restored or self._filter_items["all"])
        finally:
            self._updating = False
        if self.current() != before:
            self._emit()

    def set_saved(self, found: Sequence[tuple[SavedSearch, int | None]]) -> None:
        """Show these saved searches, in this order, each with its count (None: not
        counted yet, the count shown for the same search and query kept, if any); the
        one selected stays so if it is still there with the same query, else All is."""
        if [search for search, _count in found] == self.saved():  # (the counts alone)
            for item, (_search, count) in zip(self._saved_items, found):
                if count is not None:
                    item.setText(1, number(count))
            return
        chosen = self._chosen_saved()
        shown = {(item.data(0, _SAVED_ROLE).id, item.data(0, _SAVED_ROLE).query): item.text(1)
                 for item in self._saved_items}
        self._updating = True
        try:
            if chosen is not None:
                self.tree.setCurrentItem(self._filter_items["all"])
            for gone in self._saved_items:
                self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(gone))
            self._saved_items = []
            for search, count in found:
                item = self._new_item(search.name, ("all", None))  # (as current: All)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsDragEnabled)
                item.setText(1, shown.get((search.id, search.query), "") if count is None
                             else number(count))
                item.setData(0, _SAVED_ROLE, search)
                item.setIcon(0, icon("search"))
                item.setToolTip(0, search.query)
                self._saved_items.append(item)
                if chosen is not None and (search.id, search.query) == (chosen.id,
                                                                         chosen.query):
                    self.tree.setCurrentItem(item)
            self._saved_header.setHidden(not found)
        finally:
            self._updating = False

    def tag_names(self) -> list[str]:
        """The tags listed (as last counted), in the sidebar's order."""
        return sorted(self._tag_items, key=str.casefold)

    def tag_item(self, name: str) -> QTreeWidgetItem | None:
        """The row of a tag (tests, menus)."""
        return self._tag_items.get(name)

    def saved(self) -> list[SavedSearch]:
        """The saved searches shown, in their order."""
        return [item.data(0, _SAVED_ROLE) for item in self._saved_items]

    def follow_search(self, text: str) -> None:
        """The search field now holds `text`: a saved search selected with another query
        gives way to All (nothing is emitted: the view is All already)."""
        if self.inbox.current() is not None and text.strip():  # (a search is of papers)
            self.select("all")
            return
        chosen = self._chosen_saved()
        if chosen is not None and chosen.query != text.strip():
            self._updating = True
            try:
                self.tree.setCurrentItem(self._filter_items["all"])
            finally:
                self._updating = False

    def follow(self, ops: Operations) -> None:
        """Count the library's papers through these operations, and again (in a worker)
        whenever a change touches starring, read states, tags or which papers exist;
        the saved searches now and after every change."""
        self._ops = ops
        self._counting = Latest(ops.tasks, ops.report)
        self._counting_saved = Latest(ops.tasks, ops.report)
        self._following_saved = Latest(ops.tasks, ops.report)
        self._tally = ops.library.saved_tally()
        # Counted in full again a while after the last change followed paper by paper
        # (relative dates move with the clock; core.tally).
        self._exact = QTimer(self)
        self._exact.setSingleShot(True)
        self._exact.setInterval(EXACT_AFTER_MS)
        self._exact.timeout.connect(self._recount_saved)
        ops.changed.connect(self._changed)
        self._recount_saved()

    def stop(self) -> None:
        """Count no more (the window is closing): a full count of the saved searches
        under way ends now, not after its seconds on a big library."""
        if self._tally is not None:
            self._tally.stop()

    def recount(self, saved: bool = True) -> None:
        """Count again in the background, the saved searches in full too unless not
        `saved`; a burst of changes costs two counts."""
        if self._ops is not None and self._counting is not None:
            self._counting.request(self._ops.library.counts, self._counted)
        if saved:
            self._recount_saved()

    # -- internals ------------------------------------------------------------------------

    def _changed(self, event: ChangeEvent) -> None:
        ids = event.change.ids
        if event.change.touched & self.COUNTED:
            self.recount(saved=False)
        if ids and SAVED not in event.change.touched:
            self._follow_saved(sorted(ids))
        else:
            self._recount_saved()

    def _recount_saved(self) -> None:
        """Count the saved searches in full, in the background, showing them at once
        and each count as it is known."""
        if self._tally is not None and self._counting_saved is not None:
            self._exact.stop()
            self._counting_saved.request(self._tally.count_all, self._saved_counted,
                                         on_partial=self.set_saved)

    def _saved_counted(self, found: list[tuple[SavedSearch, int]] | None) -> None:
        if found is not None:  # (None: stopped, the window closing)
            self.set_saved(found)

    def _follow_saved(self, ids: list[int]) -> None:
        """The saved searches' counts after a change to these papers: read them alone
        (in full only if that cannot tell), then count in full a while later."""
        tally, following = self._tally, self._following_saved
        if tally is None or following is None:
            return

        def count() -> list[tuple[SavedSearch, int]] | None:
            return tally.follow(ids) or tally.count_all()

        following.request(count, self._saved_counted)
        self._exact.start()

    def _counted(self, counts: Counts) -> None:
        self.set_counts(counts)
        self.counted.emit(counts)

    def _new_header(self, text: str) -> QTreeWidgetItem:
        """A bold heading row that cannot be selected, hidden until it heads something."""
        header = QTreeWidgetItem(self.tree, [text, ""])
        header.setFlags(Qt.ItemFlag.NoItemFlags)
        font = QFont(self.tree.font())
        font.setBold(True)
        header.setFont(0, font)
        header.setFirstColumnSpanned(True)  # (over the counts: "Saved Searches" whole)
        header.setHidden(True)
        return header

    def _new_item(self, text: str, entry: Entry) -> QTreeWidgetItem:
        item = QTreeWidgetItem(self.tree, [text, ""])
        item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsDragEnabled)  # (saved ones only)
        item.setData(0, _ENTRY_ROLE, entry)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def _sort_tags(self) -> None:
        """Keep the tag rows after the header, alphabetically (case-insensitive)."""
        ordered = sorted(self._tag_items, key=str.casefold)
        start = self.tree.indexOfTopLevelItem(self._tags_header) + 1
        for offset, name in enumerate(ordered):
            item = self._tag_items[name]
            index = self.tree.indexOfTopLevelItem(item)
            if index != start + offset:
                self.tree.takeTopLevelItem(index)
                self.tree.insertTopLevelItem(start + offset, item)

    def _item_for(self, entry: Entry) -> QTreeWidgetItem | None:
        filter_name, tag = entry
        if tag is not None:
            return self._tag_items.get(tag)
        return self._filter_items.get(filter_name)

    def _current_changed(self, current: QTreeWidgetItem | None,
                         _previous: QTreeWidgetItem | None) -> None:
        if self._updating or current is None or self.inbox.owns(current):
            return  # (the inbox's entries are its own: gui.sidebar_inbox)
        search = current.data(0, _SAVED_ROLE)
        if search is not None:  # (its query with every paper: the view takes both at once)
            self.searchChosen.emit(search.query)
            return
        self._emit()

    def _chosen_saved(self) -> SavedSearch | None:
        """The saved search selected, if one is."""
        item = self.tree.currentItem()
        return item.data(0, _SAVED_ROLE) if item is not None else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A saved search dropped on another: `savedMoved` to that one's place (the
        tree is left as it is: the new order comes back with the counts)."""
        if watched is self.tree.viewport() and event.type() in (
                QEvent.Type.DragMove, QEvent.Type.Drop) and isinstance(event, QDropEvent):
            target = self.tree.itemAt(event.position().toPoint())
            dragged = self.tree.currentItem()
            ok = (event.source() is self.tree and dragged in self._saved_items
                  and target in self._saved_items)
            if event.type() == QEvent.Type.DragMove:
                if ok:
                    event.acceptProposedAction()
                else:
                    event.ignore()
                return True
            event.setDropAction(Qt.DropAction.IgnoreAction)
            event.accept()
            if ok and dragged is not None and target is not None and target is not dragged:
                self.savedMoved.emit(dragged.data(0, _SAVED_ROLE).id,
                                     self._saved_items.index(target))
            return True
        return super().eventFilter(watched, event)

    def _context_menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if self.inbox.context_menu(item, pos):
            return
        search = item.data(0, _SAVED_ROLE) if item is not None else None
        if search is not None:
            self.savedMenuRequested.emit(search, self.tree.viewport().mapToGlobal(pos))
            return
        entry = item.data(0, _ENTRY_ROLE) if item is not None else None
        if entry and entry[1] is not None:
            self.tagMenuRequested.emit(str(entry[1]), self.tree.viewport().mapToGlobal(pos))

    def _emit(self) -> None:
        filter_name, tag = self.current()
        self.filterChanged.emit(filter_name, tag)
