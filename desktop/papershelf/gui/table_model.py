"""The paper table's model: only the ordered ids of the current view; rows fetched from
the library when they are painted, a page at a time, and kept in a small LRU cache that
operations invalidate by id (Anki's browser table, calibre's `db/view.py`).

Sorting and filtering are the database's job: a new sort or search re-queries the ids.
The model follows the operations' `changed` signal itself: it forgets the rows a Change
names and re-queries its ids only when papers came or went or its own view filters,
sorts or searches on something the Change touched. `flags()` never fetches, so
select-all on a huge library costs nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from papershelf.core import query
from papershelf.core.shapes import (
    BIB_FIELDS,
    KEY,
    PROGRESS,
    READ_STATE,
    STARRED,
    TAGS,
    PaperRow,
    View,
)
from papershelf.gui import drag
from papershelf.gui.paper_columns import build_columns
from papershelf.gui.qt import (
    QAbstractTableModel,
    QFont,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Translator,
    icon,
)
from papershelf.gui.workers import Latest, TaskManager

if TYPE_CHECKING:
    from papershelf.core.firstpage import FirstPage
    from papershelf.core.library import Library
    from papershelf.core.transfer import ExportOptions
    from papershelf.gui.operations import ChangeEvent, Operations

tr = Translator("PaperTable")

PAGE = 256  # rows fetched around a missing one
FIRST_PAGE = 100  # ids of a new view shown at once; the rest follow in the background
REST_DELAY_MS = 250  # while the user types, only first pages are queried
CACHE_SIZE = 4096  # rows kept
FEW_ROWS = 64  # a change of at most this many papers repaints their rows only
ID_ROLE = Qt.ItemDataRole.UserRole + 1
# Roles and flags as plain values (an enum attribute lookup per call adds up in painting).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_ID = int(ID_ROLE)
_ROW_ROLES = frozenset((_DISPLAY, _DECORATION, _TOOLTIP, _FONT))
_CELL_FLAGS = (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
               | Qt.ItemFlag.ItemIsDragEnabled)  # (rows dragged out: gui.drag)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags

Index = QModelIndex | QPersistentModelIndex


class PaperTableModel(QAbstractTableModel):
    """Ids of the current view, in order; rows fetched by page on demand."""

    refreshed = Signal()  # the ids were re-queried (after the reset)
    completed = Signal()  # the whole view's ids are in (after the first page)

    def __init__(self, library: Library | FirstPage, tasks: TaskManager,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.tasks = tasks
        self.columns = build_columns()
        self._column_of = {c.name: n for n, c in enumerate(self.columns)}
        self._ids: list[int] = []
        self._view = View()
        self._cache: OrderedDict[int, PaperRow] = OrderedDict()
        self._missing: set[int] = set()
        # The rows asked for (painted) since the ids were last replaced, by paper; None
        # once more than CACHE_SIZE were (then a change repaints all that shows).
        self._seen: dict[int, int] | None = {}
        # Rows that are no papers of the library (the inbox's items: gui.features.feeds),
        # shown by `show_rows` until the next view; their headers where they differ.
        self._foreign: dict[int, PaperRow] | None = None
        self._foreign_headers: dict[str, str] = {}
        self._forgotten = 0  # how many times cached rows were found stale (`invalidate`)
        self.first_page = FIRST_PAGE  # (PaperTableView.resizeEvent sets it)
        self._queries = Latest(tasks, overlap=True)  # a newer view's ids win
        self._complete = True
        self._rest_timer = QTimer(self)
        self._rest_timer.setSingleShot(True)
        self._rest_timer.setInterval(REST_DELAY_MS)
        self._rest_timer.timeout.connect(self._load_rest)
        self._italic = QFont()
        self._italic.setItalic(True)
        # What a drag of rows writes: the citation form (the window's Preferences), and
        # the BibTeX export options (None: the defaults).
        self.citation_form: Callable[[], str] = lambda: "cite"
        self.export_options: Callable[[], ExportOptions] | None = None

    # -- Qt's model interface ----------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _CELL_FLAGS if index.isValid() else _NO_FLAGS

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        column = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._foreign_headers.get(column.name, column.header)
        if role == Qt.ItemDataRole.DecorationRole and column.name == "star":
            return icon("star")
        if role == Qt.ItemDataRole.DecorationRole and column.name == "read":
            return icon("read")
        if role == Qt.ItemDataRole.ToolTipRole:
            if self._foreign is not None:  # (rows in their own order)
                return self._foreign_headers.get(column.name, column.tip)
            return tr("{column}: click to sort").format(column=column.tip)
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        # Called for every role of every painted cell (a dozen per cell): plain int
        # compares first, and the roles we do not answer leave at once.
        if role in _ROW_ROLES:
            row = self.row_at(index.row())  # None for an invalid index (row -1)
            if row is None:
                return None
            column = self.columns[index.column()]
            if role == _DISPLAY:
                return column.display(row) if column.display else None
            if role == _DECORATION:
                return column.decoration(row) if column.decoration else None
            if role == _TOOLTIP:
                return column.tooltip(row) if column.tooltip else None
            if column.italic is not None and column.italic(row):
                return self._italic
            return None
        if role == _ALIGNMENT:
            return self.columns[index.column()].align if index.column() >= 0 else None
        if role == _ID:
            return self.id_at(index.row())
        return None

    def mimeTypes(self) -> list[str]:
        return [drag.MIME_TEXT, drag.MIME_BIBTEX]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        """Dragged rows: their citation as text (and BibTeX), in the table's order."""
        if self._foreign is not None:
            return QMimeData()  # (no papers to cite)
        rows = sorted({index.row() for index in indexes if index.isValid()})
        ids = [pid for pid in map(self.id_at, rows) if pid is not None]
        return drag.paper_mime(self.library, ids, self.citation_form(), self.export_options)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorting is the database's: re-query the ids in the new order."""
        if not 0 <= column < len(self.columns) or self._foreign is not None:
            return  # (rows shown by `show_rows` keep their order)
        descending = order == Qt.SortOrder.DescendingOrder
        view = replace(self._view, sort=self.columns[column].sort, descending=descending)
        if view != self._view:
            self.set_view(view)

    # -- ids and rows --------------------------------------------------------------

    @property
    def view(self) -> View:
        """What the table shows."""
        return self._view

    @property
    def ids(self) -> Sequence[int]:
        """The ids of the rows, in order (do not modify)."""
        return self._ids

    def column_index(self, name: str) -> int:
        """The position of a column by its stable name."""
        return self._column_of[name]

    def sort_column(self, sort: str) -> int:
        """The column sorting by a core sort key (-1 if none)."""
        return next((n for n, c in enumerate(self.columns) if c.sort == sort), -1)

    def row_of(self, pid: int) -> int | None:
        """The row of a paper in the view (None if the view does not show it)."""
        try:
            return self._ids.index(pid)
        except ValueError:
            return None

    def id_at(self, row: int) -> int | None:
        """The paper id of a row."""
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def row_at(self, row: int) -> PaperRow | None:
        """A row's data: from the cache, else fetched with its page."""
        if not 0 <= row < len(self._ids):
            return None
        pid = self._ids[row]
        seen = self._seen
        if seen is not None:
            seen[pid] = row
            if len(seen) > CACHE_SIZE:
                self._seen = None
        if self._foreign is not None:
            return self._foreign.get(pid)
        found = self._cache.get(pid)
        if found is not None:
            self._cache.move_to_end(pid)
            return found
        if pid in self._missing:
            return None
        start = max(0, row - PAGE // 2)
        wanted = [i for i in self._ids[start:start + PAGE] if i not in self._cache]
        fetched = self.library.rows(wanted)
        for i in wanted:
            if i in fetched:
                self._cache[i] = fetched[i]
            else:
                self._missing.add(i)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return self._cache.get(pid)

    def rows_of(self, ids: Iterable[int]) -> list[int]:
        """The rows showing these ids, in order (one pass over the view)."""
        wanted = set(ids)
        if not wanted:
            return []
        return [r for r, i in enumerate(self._ids) if i in wanted]

    def invalidate(self, ids: Collection[int],
                   fresh: Mapping[int, PaperRow] | None = None) -> None:
        """Forget cached rows of these papers and repaint (the view repaints what shows);
        those `fresh` has (read since they changed) are taken from it instead."""
        self._forgotten += 1
        for pid in ids:
            read = fresh.get(pid) if fresh is not None else None
            if read is None:
                self._cache.pop(pid, None)
            else:
                self._cache[pid] = read
            self._missing.discard(pid)
        if not self._ids:
            return
        last = len(self.columns) - 1
        seen = self._seen
        if seen is None or len(ids) > FEW_ROWS:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, last))
            return
        # Only their rows (a paper never painted since the ids came is not showing):
        # one row's cells asked for again, not every cell in sight (112 calls, not 1456).
        for pid in ids:
            row = seen.get(pid)
            if row is not None and row < len(self._ids) and self._ids[row] == pid:
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))

    def use(self, library: Library) -> None:
        """Read from the library from now on, no longer from the first page the window
        painted before it was open (core.firstpage): the view's ids again, its rows as
        they are painted (the selection and the current row stay, by id)."""
        self.library = library
        self._cache.clear()
        self._missing.clear()
        self.refresh(wait=True)

    # -- following the library's changes -------------------------------------------

    def follow(self, ops: Operations) -> None:
        """Listen to the operations' changes (each decides what of the table is stale)."""
        ops.changed.connect(self._changed)

    def _changed(self, event: ChangeEvent) -> None:
        change = event.change
        if self._foreign is not None:
            return  # (their shower follows the changes; the view is read when shown again)
        self.invalidate(change.ids, event.rows)
        if change.structural or self.depends_on(change.touched):
            self.refresh()

    def depends_on(self, touched: frozenset[str]) -> bool:
        """Whether the view's ids (which papers, in which order) may change when papers'
        `touched` parts change: what it filters, searches and sorts on."""
        view = self._view
        needs: set[str] = set()
        if view.filter == "starred" or view.starred:
            needs.add(STARRED)
        if view.filter not in ("all", "starred"):  # unread, reading, read
            needs.add(READ_STATE)
        if view.tag:
            needs.add(TAGS)
        if view.filter == "recent" or view.sort in ("progress", "last_read"):
            needs.add(PROGRESS)
        needs.update(query.parts_read(view.search))
        needs.update({"starred": {STARRED}, "read_state": {READ_STATE}, "title": {BIB_FIELDS},
                      "key": {KEY}, "authors": {BIB_FIELDS}, "venue": {BIB_FIELDS},
                      "year": {BIB_FIELDS}}.get(view.sort, set()))
        return bool(needs & touched)

    # -- re-querying -----------------------------------------------------------------

    def set_view(self, view: View, *, wait: bool = False) -> None:
        """Show another view (filter, search, sort): re-query its ids."""
        self._view = view
        self.refresh(wait=wait)

    @property
    def showing_papers(self) -> bool:
        """Whether the rows are the view's papers (not rows given to `show_rows`)."""
        return self._foreign is None

    def show_rows(self, rows: Sequence[PaperRow], headers: dict[str, str]) -> None:
        """Show these rows, in this order, instead of the view's papers (the inbox's
        items), with `headers` for the columns they fill otherwise; the library's changes
        leave them be. The next `set_view` or `refresh` shows the view's papers again."""
        self._rest_timer.stop()
        self._queries.drop()
        self.beginResetModel()
        self._foreign = {row.id: row for row in rows}
        self._foreign_headers = dict(headers)
        self._ids = [row.id for row in rows]
        self._seen = {}
        self._complete = True
        self._missing.clear()
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)
        self.refreshed.emit()

    @property
    def complete(self) -> bool:
        """Whether all ids of the view are in (else only its first page so far)."""
        return self._complete

    def refresh(self, *, wait: bool = False) -> None:
        """Re-query the view: its first page at once (in the background unless `wait`),
        the rest shortly after, appended without disturbing selection or scrolling.

        A million-paper view paints its first rows as fast as a small one; while the
        user types a search, only first pages are asked for.
        """
        self._rest_timer.stop()
        if self._foreign is not None:  # (the view's papers again, at once)
            self._foreign, self._foreign_headers = None, {}
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.columns) - 1)
            wait = True
        self._complete = False  # until this view's ids are all in
        view = self._view
        limit = self.first_page
        if wait:
            self._queries.drop()
            self._first_page(view, limit, self.library.view_ids(view, limit=limit))
            return
        known = frozenset(self._cache)
        forgotten = self._forgotten

        def first_page() -> tuple[list[int], dict[int, PaperRow]]:
            # With the rows it paints first: no query in the GUI thread to paint them.
            ids = self.library.view_ids(view, limit=limit)
            return ids, self.library.rows([i for i in ids if i not in known])

        self._queries.request(first_page, lambda page: self._first_page(
            view, limit, page[0], page[1], forgotten))

    def _first_page(self, view: View, limit: int, ids: list[int],
                    rows: dict[int, PaperRow] | None = None, forgotten: int = -1) -> None:
        if rows and forgotten == self._forgotten:  # (else some may be stale by now)
            self._cache.update(rows)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        complete = len(ids) < limit
        self._apply(view, ids, complete)
        if not complete:
            self._rest_timer.start()

    def _load_rest(self) -> None:
        view = self._view
        self._queries.request(lambda: self.library.view_ids(view),
                              lambda ids: self._extend(view, ids))

    def _extend(self, view: View, ids: list[int]) -> None:
        known = len(self._ids)
        if ids[:known] != self._ids:  # the view changed meanwhile: show it whole
            self._apply(view, ids, complete=True)
            self.completed.emit()
            return
        if len(ids) > known:
            self.beginInsertRows(QModelIndex(), known, len(ids) - 1)
            self._ids = ids
            self.endInsertRows()
        self._complete = True
        self.completed.emit()

    def _apply(self, view: View, ids: list[int], complete: bool = True) -> None:
        self.beginResetModel()
        self._view = view
        self._ids = ids
        self._seen = {}
        self._complete = complete
        self._missing.clear()
        self.endResetModel()
        self.refreshed.emit()
