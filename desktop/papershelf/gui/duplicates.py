"""Paper > Find Duplicates: pairs of papers that look like one, merged a pair at a time.

The pairs come from `Library.find_duplicates`, computed in a worker (it scans the whole
library). Each merge goes through `Operations`, so it is one step on the main window's
undo stack; the list is computed again after every change to the papers, undo included.
The window is not modal: the user can look a paper up in the main window meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from papershelf.core.library import (
    BIB_FIELDS,
    KEY,
    PAPERS,
    Change,
    DuplicatePair,
    Library,
    PaperRow,
)
from papershelf.formats.readable import math_to_text
from papershelf.gui.operations import ChangeEvent, Operations
from papershelf.gui.qt import (
    QAbstractItemView,
    QAction,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHeaderView,
    QKeySequence,
    QLabel,
    QPalette,
    QPushButton,
    QShowEvent,
    QStackedWidget,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
    dpi_size,
)
from papershelf.gui.workers import Latest, TaskManager

tr = Translator("Duplicates")

COLUMNS = ("keep_title", "keep_key", "keep_year", "other_title", "other_key", "other_year",
           "reason")


@dataclass(frozen=True)
class DuplicateRow:
    """One suspected pair as listed: the paper kept first, the one merged into it second."""

    pair: DuplicatePair
    keep: PaperRow
    other: PaperRow

    def swapped(self) -> DuplicateRow:
        """The same pair, keeping the other paper."""
        return DuplicateRow(self.pair, self.other, self.keep)


def find_duplicate_rows(library: Library) -> list[DuplicateRow]:
    """Every suspected pair with both papers' rows (runs in a worker)."""
    pairs = library.find_duplicates()
    rows = library.rows(sorted({i for p in pairs for i in (p.keep_id, p.other_id)}))
    return [DuplicateRow(p, rows[p.keep_id], rows[p.other_id]) for p in pairs
            if p.keep_id in rows and p.other_id in rows]


def reason_text(reason: str) -> str:
    """The core's reason ('same title') as the user reads it."""
    return {"same title": tr("same title"), "same DOI": tr("same DOI"),
            "same abstract": tr("same abstract")}.get(reason, reason)


class DuplicatesDialog(QDialog):
    """The list of suspected duplicates with Merge and Swap; lives as long as the window."""

    refreshed = Signal()  # the list was computed again and is shown

    def __init__(self, library: Library, ops: Operations, tasks: TaskManager,
                 shared_actions: Sequence[QAction] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("duplicatesDialog")
        self.setWindowTitle(tr("Find Duplicates"))
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.library = library
        self.ops = ops
        self.tasks = tasks
        self.rows: list[DuplicateRow] = []
        self._swapped: set[DuplicatePair] = set()
        self._merging = False
        self._refresher = Latest(tasks, ops.report,
                                 on_idle=lambda: self.refresh_button.setEnabled(True))
        # Undo and redo work here too: they act on the main window's undo stack.
        for action in shared_actions:
            self.addAction(action)

        layout = QVBoxLayout(self)
        intro = QLabel(tr("Papers that look like the same paper. <b>Merge</b> keeps the "
                          "paper on the left with its citation key, fills its empty fields "
                          "from the one on the right, joins notes and combines tags; "
                          "<b>Swap</b> keeps the right one instead. Undo in the main "
                          "window separates a merged pair again."))
        intro.setWordWrap(True)
        layout.addWidget(intro)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("duplicatesTable")
        self.table.setHorizontalHeaderLabels([tr("Keep"), tr("Key"), tr("Year"),
                                              tr("Merge into it"), tr("Key"), tr("Year"),
                                              tr("Why")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        for n, name in enumerate(COLUMNS):
            mode = (QHeaderView.ResizeMode.Stretch if name.endswith("title")
                    else QHeaderView.ResizeMode.ResizeToContents)
            header.setSectionResizeMode(n, mode)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda _index: self.swap_selected())

        self.placeholder = QLabel()
        self.placeholder.setObjectName("duplicatesPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.placeholder.setFrameShape(QFrame.Shape.StyledPanel)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.placeholder)
        layout.addWidget(self.stack, 1)

        self.message = QLabel()
        self.message.setObjectName("duplicatesMessage")
        self.message.setWordWrap(True)
        self.message.hide()
        layout.addWidget(self.message)

        buttons = QDialogButtonBox()
        self.refresh_button = QPushButton(tr("&Refresh"))
        self.refresh_button.setToolTip(tr("Look for duplicates again"))
        self.swap_button = QPushButton(tr("&Swap"))
        self.swap_button.setToolTip(tr("Keep the paper on the right instead (double-click "
                                       "a row does the same)"))
        self.merge_button = QPushButton(tr("&Merge"))
        self.merge_button.setToolTip(tr("Merge the paper on the right into the one on the "
                                        "left (can be undone)"))
        for button in (self.refresh_button, self.swap_button, self.merge_button):
            button.setAutoDefault(False)
        buttons.addButton(self.refresh_button, QDialogButtonBox.ButtonRole.ResetRole)
        buttons.addButton(self.swap_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.merge_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.refresh_button.clicked.connect(self.refresh)
        self.swap_button.clicked.connect(self.swap_selected)
        self.merge_button.clicked.connect(self.merge_selected)
        layout.addWidget(buttons)

        self.ops.changed.connect(self._changed)
        self.resize(dpi_size(980, 440))
        self._show_list()

    # -- computing the list --------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether the list is being computed."""
        return self._refresher.running

    def refresh(self) -> None:
        """Compute the pairs again in a worker; a change meanwhile gets one more pass."""
        if not self._refresher.running:
            self.refresh_button.setEnabled(False)
            if not self.rows:
                self.placeholder.setText(tr("Looking for duplicates…"))
                self.stack.setCurrentWidget(self.placeholder)
        self._refresher.request(lambda: find_duplicate_rows(self.library), self._set_rows)

    def _set_rows(self, found: list[DuplicateRow]) -> None:
        selected = self.selected()
        old_row = self.table.currentRow()
        pairs = {row.pair for row in found}
        self._swapped &= pairs
        self.rows = [row.swapped() if row.pair in self._swapped else row for row in found]
        self._show_list()
        if self.rows:
            at = next((n for n, row in enumerate(self.rows)
                       if selected is not None and row.pair == selected.pair),
                      min(max(old_row, 0), len(self.rows) - 1))
            self.table.selectRow(at)
        self.refreshed.emit()

    def _show_list(self) -> None:
        self.table.setRowCount(len(self.rows))
        for n, row in enumerate(self.rows):
            self._fill(n, row)
        if self.rows:
            self.stack.setCurrentWidget(self.table)
        else:
            self.placeholder.setText(tr("No duplicates found") if not self._refresher.running
                                     else tr("Looking for duplicates…"))
            self.stack.setCurrentWidget(self.placeholder)
        self._update_buttons()

    def _fill(self, n: int, row: DuplicateRow) -> None:
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        texts = (math_to_text(row.keep.title), row.keep.key, _year(row.keep),
                 math_to_text(row.other.title), row.other.key, _year(row.other),
                 reason_text(row.pair.reason))
        for column, text in enumerate(texts):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            if COLUMNS[column].endswith("year"):
                item.setTextAlignment(right)
            self.table.setItem(n, column, item)

    def _changed(self, event: ChangeEvent) -> None:
        if event.from_undo:  # "Merged … Ctrl+Z undoes it" may no longer be true
            self.message.hide()
        if self.isVisible() and event.change.touched & {PAPERS, BIB_FIELDS, KEY}:
            self.refresh()

    # -- the user's actions --------------------------------------------------------------

    def selected(self) -> DuplicateRow | None:
        """The pair selected in the list, oriented as shown."""
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.rows):
            return None
        return self.rows[rows[0].row()]

    def swap_selected(self) -> None:
        """Keep the other paper of the selected pair."""
        row = self.selected()
        if row is None:
            return
        n = self.rows.index(row)
        self._swapped ^= {row.pair}
        self.rows[n] = row.swapped()
        self._fill(n, self.rows[n])

    def merge_selected(self) -> None:
        """Merge the selected pair: the paper on the right into the one on the left."""
        row = self.selected()
        if row is None or self._merging:
            return
        self._merging = True
        self._update_buttons()

        def merged(_change: Change) -> None:
            self._merging = False
            # The merged paper is gone: drop every pair naming it now, before the recount.
            n = self.rows.index(row) if row in self.rows else self.table.currentRow()
            self.rows = [r for r in self.rows if row.other.id not in (r.keep.id, r.other.id)]
            self._show_list()
            if self.rows:
                self.table.selectRow(min(max(n, 0), len(self.rows) - 1))
            undo = QKeySequence(QKeySequence.StandardKey.Undo).toString(
                QKeySequence.SequenceFormat.NativeText)
            self.message.setText(tr("Merged {other} into {keep}. {undo} undoes it.").format(
                other=row.other.key, keep=row.keep.key, undo=undo))
            self.message.show()

        def failed() -> None:
            self._merging = False
            self._update_buttons()

        self.ops.merge_papers(row.keep.id, row.other.id, merged, failed)

    def _update_buttons(self) -> None:
        has = self.selected() is not None and not self._merging
        self.swap_button.setEnabled(has)
        self.merge_button.setEnabled(has)

    def showEvent(self, event: QShowEvent) -> None:
        """Every time the window is shown the list is computed afresh."""
        super().showEvent(event)
        self.message.clear()
        self.message.hide()
        self.refresh()


def _year(row: PaperRow) -> str:
    return str(row.year) if row.year else ""
