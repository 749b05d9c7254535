"""The paper table's view: selection, current row and scroll position kept across a
re-query, by id (calibre's `PreserveViewState`), also for rows of a big view that arrive
after the reset; the columns' default widths, fitted to a narrow table; triage clicks on
the star and read-state cells, and PDF files dropped on a row.

Its model, which holds only the ordered ids of the view, is gui.table_model's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from papershelf.core.shapes import View
from papershelf.gui.qt import (
    QAbstractItemView,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QHeaderView,
    QItemSelection,
    QItemSelectionModel,
    QLabel,
    QMenu,
    QModelIndex,
    QMouseEvent,
    QPalette,
    QPoint,
    QResizeEvent,
    Qt,
    QTableView,
    QWidget,
    Signal,
)
from papershelf.gui.table_model import PaperTableModel as PaperTableModel  # (also the window's)

FITTED_COLUMNS = ("authors", "venue", "added")  # narrowed for Title in a narrow table
# A table sizes the first page to what it shows and half as much again, at least this:
# a search's first page costs the server the more, the more ids (reading about that
# many times papers / matches papers' words, for a common word).
MIN_FIRST_PAGE = 50


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
        header = self.horizontalHeader()  # (its menu shows and hides the optional columns)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)

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
            header.setSectionHidden(n, column.optional)
        self._fitting = False
        self._fit_widths = True
        self._fit_columns()

    def _header_menu(self, where: QPoint) -> None:
        """The optional columns (Progress, Last read), each to show or hide."""
        menu = QMenu(self)
        header = self.horizontalHeader()
        for n, column in enumerate(self.paper_model().columns):
            if column.optional:
                action = menu.addAction(column.header)
                action.setCheckable(True)
                action.setChecked(not header.isSectionHidden(n))
                action.toggled.connect(lambda on, n=n: self.show_column(n, on))
        menu.popup(header.mapToGlobal(where))

    def show_column(self, n: int, shown: bool) -> None:
        """Show or hide column `n` (kept with the header's state)."""
        self.horizontalHeader().setSectionHidden(n, not shown)
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
        if not self.paper_model().showing_papers:
            return None  # (the inbox's items: no paper to attach to)
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

