"""The paper table: a model holding only the ordered ids of the current view, and its view.

Rows are fetched from the library when they are painted, a page at a time, and
kept in a small LRU cache that operations invalidate by id (Anki's browser
table, calibre's `db/view.py`). Sorting and filtering are the database's job:
a new sort or search re-queries the ids. The model follows the operations'
`changed` signal itself: it forgets the rows a Change names and re-queries its
ids only when papers came or went or its own view filters, sorts or searches on
something the Change touched. `flags()` never fetches, so select-all on a huge
library costs nothing. The view keeps its selection, current row and scroll
position across a re-query, by id (calibre's `PreserveViewState`), also for
rows of a big view that arrive after the reset.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from papershelf import lazy
from papershelf.core.shapes import (
    FILES,
    KEY,
    NOTES,
    READ_STATE,
    STARRED,
    TAGS,
    TITLE,
    PaperRow,
    View,
)
from papershelf.gui import drag
from papershelf.gui.qt import (
    QAbstractItemView,
    QAbstractTableModel,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QHeaderView,
    QIcon,
    QItemSelection,
    QItemSelectionModel,
    QLabel,
    QMimeData,
    QModelIndex,
    QMouseEvent,
    QObject,
    QPalette,
    QPersistentModelIndex,
    QResizeEvent,
    Qt,
    QTableView,
    QTimer,
    QWidget,
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

# (imported when a title with math is first shown: not for the first paint)
if TYPE_CHECKING:
    from papershelf.formats import readable
else:
    readable = lazy.module("papershelf.formats.readable")

tr = Translator("PaperTable")

PAGE = 256  # rows fetched around a missing one
FITTED_COLUMNS = ("authors", "venue", "added")  # narrowed for Title in a narrow table
FIRST_PAGE = 100  # ids of a new view shown at once; the rest follow in the background
# A table sizes the first page to what it shows and half as much again, at least this:
# a search's first page costs the server the more, the more ids (reading about that
# many times papers / matches papers' words, for a common word).
MIN_FIRST_PAGE = 50
REST_DELAY_MS = 250  # while the user types, only first pages are queried
CACHE_SIZE = 4096  # rows kept
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


@dataclass(frozen=True)
class Column:
    """One table column: stable name, header, the core's sort key and its formatters."""

    name: str
    header: str
    sort: str
    tip: str
    sample: str  # the widest usual content; the default width fits it (and the header)
    display: Callable[[PaperRow], str] | None = None
    decoration: Callable[[PaperRow], QIcon] | None = None
    tooltip: Callable[[PaperRow], str] | None = None
    italic: Callable[[PaperRow], bool] | None = None
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def _local_date(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone().strftime("%Y-%m-%d")


# A title as the table shows it: converted once, not at every paint (data() is asked for
# each painted cell; titles with math need a regex pass and symbol lookups).
@functools.lru_cache(maxsize=4096)
def shown_title(title: str) -> str:
    return readable.math_to_text(title) if "$" in title else title


def build_columns() -> list[Column]:
    """Every column with its formatters, built once per model (never per cell)."""
    stars = {True: icon("star"), False: icon("star-outline")}
    star_tips = {True: tr("Starred (click or press S to unstar)"),
                 False: tr("Not starred (click or press S to star)")}
    states = {s: icon(s) for s in ("unread", "reading", "read")}
    state_names = {"unread": tr("Unread"), "reading": tr("Reading"), "read": tr("Read")}
    state_tip = tr("{state} (click or press R: unread → reading → read)")
    state_tips = {s: state_tip.format(state=name) for s, name in state_names.items()}
    provisional = tr("Provisional title drawn from the abstract; import the paper's BibTeX "
                     "entry or edit the title to replace it.")
    center = Qt.AlignmentFlag.AlignCenter
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    return [
        Column("star", "", "starred", tr("Starred"), "",
               decoration=lambda r: stars[r.starred], tooltip=lambda r: star_tips[r.starred],
               align=center),
        Column("read", "", "read_state", tr("Read state"), "",
               decoration=lambda r: states.get(r.read_state, QIcon()),
               tooltip=lambda r: state_tips.get(r.read_state, r.read_state), align=center),
        Column("title", tr("Title"), "title", tr("Title"), "M" * 30,
               display=lambda r: shown_title(r.title),
               tooltip=lambda r: f"{shown_title(r.title)}\n\n{provisional}" if r.title_provisional
               else shown_title(r.title),
               italic=lambda r: r.title_provisional),
        Column("authors", tr("Authors"), "authors", tr("Authors"), "Firstname Lastname",
               display=lambda r: r.authors, tooltip=lambda r: r.authors),
        Column("venue", tr("Venue"), "venue", tr("Venue"), "NeurIPS",
               display=lambda r: r.venue, tooltip=lambda r: r.venue),
        Column("year", tr("Year"), "year", tr("Year"), "8888",
               display=lambda r: str(r.year) if r.year else "", align=right),
        Column("added", tr("Added"), "added", tr("Added"), "8888-88-88",
               display=lambda r: _local_date(r.added_at), align=right),
    ]


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
            return column.header
        if role == Qt.ItemDataRole.DecorationRole and column.name == "star":
            return icon("star")
        if role == Qt.ItemDataRole.DecorationRole and column.name == "read":
            return icon("read")
        if role == Qt.ItemDataRole.ToolTipRole:
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
        rows = sorted({index.row() for index in indexes if index.isValid()})
        ids = [pid for pid in map(self.id_at, rows) if pid is not None]
        return drag.paper_mime(self.library, ids, self.citation_form(), self.export_options)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorting is the database's: re-query the ids in the new order."""
        if not 0 <= column < len(self.columns):
            return
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

    def invalidate(self, ids: Iterable[int]) -> None:
        """Forget cached rows of these papers and repaint (the view repaints what shows)."""
        self._forgotten += 1
        for pid in ids:
            self._cache.pop(pid, None)
            self._missing.discard(pid)
        if self._ids:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._ids) - 1, len(self.columns) - 1))

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
        self.invalidate(change.ids)
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
        if view.search.strip():
            needs.update((TITLE, NOTES, TAGS, KEY, FILES))
            asked = view.search.lower()  # (is:starred, is:read, read:<7d: the user's data)
            if "is:" in asked or "read:" in asked:
                needs.update((STARRED, READ_STATE))
        needs.update({"starred": {STARRED}, "read_state": {READ_STATE}, "title": {TITLE},
                      "key": {KEY}, "authors": {TITLE}, "venue": {TITLE},
                      "year": {TITLE}}.get(view.sort, set()))
        return bool(needs & touched)

    # -- re-querying -----------------------------------------------------------------

    def set_view(self, view: View, *, wait: bool = False) -> None:
        """Show another view (filter, search, sort): re-query its ids."""
        self._view = view
        self.refresh(wait=wait)

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
        self._complete = complete
        self._missing.clear()
        self.endResetModel()
        self.refreshed.emit()


class PaperTableView(QTableView):
    """The table of papers; clicks on the star and read-state cells are triage, PDF
    files dropped on a row are for that row's paper (any other drop is the window's)."""

    starClicked = Signal(int)  # row
    readStateClicked = Signal(int)  # row
    pdfsDropped = Signal(int, list)  # row, the local paths of the PDF files

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setShowGrid(False)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().hide()
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.viewport().setAcceptDrops(True)
        self.setDragEnabled(True)  # (selected rows dragged into an editor: a citation)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self._saved: tuple[set[int], int | None, int | None, int] | None = None
        # What the user selected that a view still coming in has not shown yet: ids
        # selected before a re-query, the current paper, or (Ctrl+A) the whole view.
        self._wanted: set[int] = set()
        self._wanted_current: int | None = None
        self._current_row = -1  # where the wanted current paper was
        self._wanted_view: View | None = None
        self._selecting = False  # our own selection changes, not the user's
        # What to do when the table is empty (the window sets the text), over the rows.
        self.placeholder = QLabel(self.viewport())
        self.placeholder.setObjectName("tablePlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setTextFormat(Qt.TextFormat.RichText)
        self.placeholder.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.placeholder.setContentsMargins(24, 24, 24, 24)
        self.placeholder.hide()
        self._default_widths: dict[str, tuple[int, int]] = {}  # name: (default, least)
        # The widths the user gave Authors, Venue and Added (resized, or restored): a
        # narrow table narrows them for Title, a wider one gives them back.
        self._user_widths: dict[str, int] = {}
        self._fit_widths = False  # whether `_fit_columns` may change the widths
        self._fitting = False  # our own resizing of the sections, not the user's
        self.horizontalHeader().sectionResized.connect(self._section_resized)

    def show_placeholder(self, text: str) -> None:
        """Show `text` (rich text, '' hides it) in the middle of the empty table."""
        self.placeholder.setText(text)
        self.placeholder.setVisible(bool(text))
        self._place_placeholder()

    def _place_placeholder(self) -> None:
        self.placeholder.setGeometry(self.viewport().rect())

    def paper_model(self) -> PaperTableModel:
        """The model, typed."""
        model = self.model()
        assert isinstance(model, PaperTableModel)
        return model

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        assert isinstance(model, PaperTableModel)
        # The header asks the selection model whether each column is fully selected,
        # row by row: with 100,000 selected rows one repaint took 2.5 s. Its own empty
        # selection model answers at once (whole-column highlighting is unused here).
        self._header_selection = QItemSelectionModel(model, self)
        self.horizontalHeader().setSelectionModel(self._header_selection)
        model.modelAboutToBeReset.connect(self._remember)
        model.modelReset.connect(self._restore)
        model.rowsInserted.connect(self._rows_arrived)
        model.completed.connect(self._all_arrived)
        self.selectionModel().selectionChanged.connect(self._selection_moved)
        self.apply_default_layout()
        self._size_first_page()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._size_first_page()
        self._place_placeholder()
        self._fit_columns()

    def _size_first_page(self) -> None:
        """A new view's first page: the rows the table shows, and half as many again
        for a first scroll (the rest of the view follows in the background)."""
        model = self.model()
        if isinstance(model, PaperTableModel):
            rows = self.viewport().height() // max(1, self.verticalHeader().defaultSectionSize())
            model.first_page = max(MIN_FIRST_PAGE, (rows + 1) * 3 // 2)

    def apply_default_layout(self) -> None:
        """Default column widths (from the font size) and resize modes; title stretches."""
        model = self.paper_model()
        header = self.horizontalHeader()
        line = self.fontMetrics().height()
        self.verticalHeader().setDefaultSectionSize(line + line // 2)
        header.setSectionsMovable(True)
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        metrics = self.fontMetrics()
        header_metrics = header.fontMetrics()
        icon_width = self.iconSize().width() if self.iconSize().isValid() else 16
        header.setMinimumSectionSize(max(icon_width, line) + 12)
        self._fitting = True
        for n, column in enumerate(model.columns):
            # Text plus the cell margins; headers also need room for the sort arrow.
            least = max(header_metrics.horizontalAdvance(column.header) + 2 * line,
                        header.minimumSectionSize())
            width = max(metrics.horizontalAdvance(column.sample) + line, least)
            self._default_widths[column.name] = (width, least)
            self.setColumnWidth(n, width)
            mode = QHeaderView.ResizeMode.Interactive
            if column.name in ("star", "read"):
                mode = QHeaderView.ResizeMode.Fixed
            elif column.name == "title":
                mode = QHeaderView.ResizeMode.Stretch
            header.setSectionResizeMode(n, mode)
        self._fitting = False
        self._fit_widths = True
        self._fit_columns()

    def keep_column_widths(self) -> None:
        """The columns are the user's (resized, or restored): not fitted again until the
        default layout is asked for (but for Title's third, `_fit_columns`)."""
        self._fit_widths = False
        model = self.model()
        if isinstance(model, PaperTableModel):
            header = self.horizontalHeader()
            self._user_widths = {name: header.sectionSize(model.column_index(name))
                                 for name in FITTED_COLUMNS if name in self._default_widths}

    def _fit_columns(self) -> None:
        """In the default layout, a narrow table shrinks Authors, then Venue, then Added
        (down to their headings) so that Title, which stretches, keeps 45% of the width.
        In the user's own layout (resized, or remembered from a wider window) they give
        way only as far as Title needs to keep a third of it."""
        model = self.model()
        if not isinstance(model, PaperTableModel):
            return
        header = self.horizontalHeader()
        shrinking = [name for name in FITTED_COLUMNS if name in self._default_widths
                     and not header.isSectionHidden(model.column_index(name))]
        others = sum(header.sectionSize(n) for n, column in enumerate(model.columns)
                     if column.name not in (*shrinking, "title")
                     and not header.isSectionHidden(n))
        title_share = 45 if self._fit_widths else 33
        room = self.viewport().width() * (100 - title_share) // 100 - others
        if self._fit_widths:
            widths = {name: self._default_widths[name][0] for name in shrinking}
        else:
            widths = {name: self._user_widths.get(
                name, header.sectionSize(model.column_index(name))) for name in shrinking}
        wanted = dict(widths)
        for name in shrinking:  # Authors gives way first (it is elided anyway), then
            least = self._default_widths[name][1]  # Venue, then Added
            excess = sum(wanted.values()) - room
            if excess <= 0:
                break
            wanted[name] = max(least, min(wanted[name], wanted[name] - excess))
        self._fitting = True
        try:
            for name, width in wanted.items():
                if header.sectionSize(model.column_index(name)) != width:
                    header.resizeSection(model.column_index(name), width)
        finally:
            self._fitting = False

    def _section_resized(self, logical: int, _old: int, new: int) -> None:
        model = self.model()
        if (not self._fitting and isinstance(model, PaperTableModel)
                and model.columns[logical].name != "title"
                and self.horizontalHeader().sectionResizeMode(logical)
                == QHeaderView.ResizeMode.Interactive):
            self._fit_widths = False  # the user resized a column: theirs from now on
            name = model.columns[logical].name
            if name in FITTED_COLUMNS:
                self._user_widths[name] = new

    # -- selection by id -----------------------------------------------------------

    def selected_rows(self) -> list[int]:
        """Selected rows, in order, without looking at any row's data."""
        model = self.selectionModel()
        if model is None:
            return []
        rows: set[int] = set()
        # PySide6's stubs leave out QItemSelection's sequence methods.
        for item in model.selection():  # type: ignore[attr-defined]
            rows.update(range(item.top(), item.bottom() + 1))
        return sorted(rows)

    def selected_ids(self) -> list[int]:
        """Ids of the selected papers, in table order."""
        ids = self.paper_model().ids
        return [ids[r] for r in self.selected_rows() if r < len(ids)]

    def current_id(self) -> int | None:
        """The id of the current (focused) row."""
        index = self.currentIndex()
        return self.paper_model().id_at(index.row()) if index.isValid() else None

    def focused_id(self) -> int | None:
        """The paper the user is on: the current row if selected, else the first selected."""
        pid = self.current_id()
        selected = self.selected_ids()
        return pid if pid in selected else (selected[0] if selected else None)

    def go_to_row(self, row: int, *, extend: bool = False) -> None:
        """Make a row current and selected (alone, unless `extend`), and show it."""
        model = self.paper_model()
        if not 0 <= row < model.rowCount():
            return
        column = max(self.currentIndex().column(), model.column_index("title"))
        index = model.index(row, column)
        flags = QItemSelectionModel.SelectionFlag.Rows | (
            QItemSelectionModel.SelectionFlag.Select if extend
            else QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.selectionModel().setCurrentIndex(index, flags)
        self.scrollTo(index)

    def select_rows(self, rows: Sequence[int], current: int | None, *,
                    extend: bool = False) -> None:
        """Select rows (contiguous runs become one range each) and set the current one;
        with `extend`, add them to the selection instead of replacing it."""
        model = self.paper_model()
        selection = QItemSelection()
        last = model.columnCount() - 1
        start = prev = None
        for row in [*sorted(rows), None]:
            if row is not None and prev is not None and row == prev + 1:
                prev = row
                continue
            if start is not None and prev is not None:
                selection.select(model.index(start, 0), model.index(prev, last))
            start = prev = row
        selection_model = self.selectionModel()
        if current is not None and 0 <= current < model.rowCount():
            column = max(self.currentIndex().column(), model.column_index("title"))
            selection_model.setCurrentIndex(model.index(current, column),
                                             QItemSelectionModel.SelectionFlag.NoUpdate)
        selection_model.select(selection, QItemSelectionModel.SelectionFlag.Select if extend
                               else QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def select_whole_view(self) -> None:
        """Ctrl+A: every paper of the view. Rows of a big view still coming in are
        selected as they arrive (nothing waits for them)."""
        model = self.paper_model()
        with self._own_selection():
            self.selectAll()
        self._wanted_view = None if model.complete else model.view

    @contextmanager
    def _own_selection(self) -> Iterator[None]:
        """Selection changes made inside are ours, not the user's (`_selection_moved`)."""
        self._selecting = True
        try:
            yield
        finally:
            self._selecting = False

    def _selection_moved(self, *_args: object) -> None:
        if not self._selecting:  # the user chose: forget what was still to come
            self._wanted.clear()
            self._wanted_current = None
            self._wanted_view = None

    # -- keeping the state across a re-query ---------------------------------------------

    def _remember(self) -> None:
        model = self.paper_model()
        top_row = self.rowAt(0)
        current = self.currentIndex()
        self._saved = (
            set(self.selected_ids()),
            model.id_at(current.row()) if current.isValid() else None,
            model.id_at(top_row) if top_row >= 0 else None,
            current.row() if current.isValid() else -1,
        )

    def _restore(self) -> None:
        if self._saved is None:
            return
        selected, current_id, top_id, old_row = self._saved
        self._saved = None
        model = self.paper_model()
        wanted = set(selected)
        for pid in (current_id, top_id):
            if pid is not None:
                wanted.add(pid)
        rows: list[int] = []
        position: dict[int, int] = {}
        for row in model.rows_of(wanted):
            pid = model.ids[row]
            position[pid] = row
            if pid in selected:
                rows.append(row)
        # A big view comes in a page first: the rest of the selection when it arrives.
        self._wanted = set() if model.complete else selected - position.keys()
        self._wanted_current = None
        if not model.complete and current_id is not None and current_id not in position:
            self._wanted_current, self._current_row = current_id, old_row
        if top_id in position:
            self.scrollTo(model.index(position[top_id], 0),
                          QAbstractItemView.ScrollHint.PositionAtTop)
        with self._own_selection():
            if self._wanted_view == model.view:
                self.selectAll()  # Ctrl+A on this view, still coming in or re-queried
                if current_id in position:
                    self.select_rows([position[current_id]], position[current_id],
                                     extend=True)
            elif current_id is not None and current_id in position:
                self.select_rows(rows, position[current_id])
            elif rows:
                self.select_rows(rows, rows[0])
            elif old_row >= 0 and model.rowCount() and self._wanted_current is None:
                # The current paper left the view (e.g. marked read under "Unread"): its
                # successor takes its place, as in a mail client.
                self.go_to_row(min(old_row, model.rowCount() - 1))

    def _rows_arrived(self, _parent: QModelIndex, first: int, last: int) -> None:
        """Rows appended to a view coming in: select those the user selected before."""
        model = self.paper_model()
        if self._wanted_view == model.view:
            with self._own_selection():  # one range, however many rows arrived
                self.selectionModel().select(
                    QItemSelection(model.index(first, 0),
                                   model.index(last, model.columnCount() - 1)),
                    QItemSelectionModel.SelectionFlag.Select)
            return
        if not self._wanted and self._wanted_current is None:
            return
        ids = model.ids
        rows = [r for r in range(first, last + 1) if ids[r] in self._wanted]
        current = None
        if self._wanted_current is not None:
            current = next((r for r in range(first, last + 1)
                            if ids[r] == self._wanted_current), None)
            if current is not None:
                self._wanted_current = None
        if rows or current is not None:
            with self._own_selection():
                self.select_rows(rows, current, extend=True)

    def _all_arrived(self) -> None:
        self._wanted.clear()
        self._wanted_view = None
        if self._wanted_current is not None:  # it left the view meanwhile
            self._wanted_current = None
            rows = self.paper_model().rowCount()
            if not self.selectionModel().hasSelection() and rows:
                self.go_to_row(min(max(self._current_row, 0), rows - 1))

    # -- PDFs dropped on a row -----------------------------------------------------------

    def _pdf_drop(self, event: QDropEvent) -> tuple[int, list[str]] | None:
        """The row under a drag and the local PDF files it carries, when it carries
        nothing but those and is over a row."""
        mime = event.mimeData()
        urls = mime.urls() if mime.hasUrls() else []
        paths = [url.toLocalFile() for url in urls if url.isLocalFile()]
        if not paths or len(paths) != len(urls) \
                or not all(path.lower().endswith(".pdf") for path in paths):
            return None
        row = self.indexAt(event.position().toPoint()).row()
        return (row, paths) if row >= 0 else None

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Take a drag of PDF files (a row then takes it); leave any other to the window."""
        mime = event.mimeData()
        urls = mime.urls() if mime.hasUrls() else []
        if urls and all(url.isLocalFile() and url.toLocalFile().lower().endswith(".pdf")
                        for url in urls):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        """PDF files may be dropped on a row only."""
        if self._pdf_drop(event) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        """PDF files dropped on a row: `pdfsDropped`; the window attaches them."""
        found = self._pdf_drop(event)
        if found is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.pdfsDropped.emit(*found)

    # -- triage clicks -------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        plain = event.modifiers() == Qt.KeyboardModifier.NoModifier
        if (index.isValid() and plain and event.button() == Qt.MouseButton.LeftButton
                and self.paper_model().columns[index.column()].name in ("star", "read")):
            name = self.paper_model().columns[index.column()].name
            if not self.selectionModel().isRowSelected(index.row()):
                super().mousePressEvent(event)
            (self.starClicked if name == "star" else self.readStateClicked).emit(index.row())
            event.accept()
            return
        super().mousePressEvent(event)
