"""Paper > Find Metadata…: candidates for papers from the catalogs and the services, and
completing a paper from the one the user picks.

The papers are looked up in a worker through `Operations.find_metadata` (progress and
Cancel in the dialog; nothing is written); the dialog then lists each paper with its
candidates (`metadata.complete`: title, authors, venue and year, score, source) and
what the one picked would change, field by field. Accepting goes through
`Operations.accept_candidates`: one undo step on the main window's stack, announced
like every write, so the table and the detail pane follow. The dialog follows the
changes too: a listed paper that changed (undo included) is read again and its diff
computed afresh, so what it shows is what accepting would do.

Everything a service sent is shown as plain text (items, labels, escaped tooltips).
"""

from __future__ import annotations

import dataclasses
import html
import threading
from collections.abc import Callable, Sequence

from papershelf.core.library import PaperDetail
from papershelf.formats.readable import math_to_text
from papershelf.gui.operations import Acceptance, ChangeEvent, MetadataLookup, Operations
from papershelf.gui.qt import (
    QAbstractItemView,
    QAction,
    QDialog,
    QDialogButtonBox,
    QFont,
    QHBoxLayout,
    QHeaderView,
    QHideEvent,
    QKeySequence,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QSplitter,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
    dpi_size,
)
from papershelf.gui.workers import Job, Latest, TaskManager
from papershelf.metadata import complete
from papershelf.metadata.catalog import PLACED_BY_LIST, CatalogStore, catalog_store
from papershelf.metadata.http import HttpSettings

tr = Translator("MetadataDialog")

COLUMNS = ("title", "authors", "venue", "score", "source", "why")
_PAPER = Qt.ItemDataRole.UserRole  # a paper row's paper id; a candidate row's too
_OPTION = Qt.ItemDataRole.UserRole + 1  # a candidate row's index in its proposal
_AUTHORS_SHOWN = 3  # authors listed in the column before "et al."
_PROBLEM_LINES = 5  # lines of the problems list shown before it scrolls


def update_action(action: QAction, selected: int) -> None:
    """The action acts on the selection; with nothing selected it reads "Find Metadata
    for Provisional Papers…" and looks up every paper whose title is provisional."""
    action.setText(tr("Find Me&tadata…") if selected
                   else tr("Find Me&tadata for Provisional Papers…"))


class CatalogCache:
    """The user's catalogs for the lookups of one window: one store while they stay the
    same (its word index takes a second to build), a new one once a catalog was added
    or removed, also by the command line. Called in workers."""

    def __init__(self, make: Callable[[], CatalogStore] | None = None) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._store: CatalogStore | None = None
        self._seen: tuple[object, ...] = ()

    def __call__(self) -> CatalogStore:
        with self._lock:
            fresh = (self._make or catalog_store)()
            seen = tuple((c.name, c.digest, c.venue, c.year) for c in fresh.catalogs())
            if self._store is None or seen != self._seen:
                self._store, self._seen = fresh, seen
            return self._store


def rebased(proposal: complete.Proposal, detail: PaperDetail) -> complete.Proposal:
    """The proposal for the paper as it is now (`detail`): its key, title and version,
    and what each candidate would change of it."""
    record = detail.record
    options = tuple(dataclasses.replace(option, changes=complete.changes(record, option.record))
                    for option in proposal.options)
    return dataclasses.replace(proposal, key=detail.key, title=record.title,
                               provisional=record.title_provisional, version=detail.version,
                               options=options)


class MetadataDialog(QDialog):
    """The candidates found for papers, a pick per paper, Accept and Accept All
    Confident; not modal, and one per window (`look_up` starts each lookup)."""

    lookupFinished = Signal(object)  # MetadataLookup, once it is shown
    acceptanceFinished = Signal(object)  # Acceptance, once it is shown

    def __init__(self, ops: Operations, tasks: TaskManager,
                 shared_actions: Sequence[QAction] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("metadataDialog")
        self.setWindowTitle(tr("Find Metadata"))
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.ops = ops
        self.library = ops.library
        self.catalogs: Callable[[], CatalogStore | None] = CatalogCache()
        self.http_settings: HttpSettings | None = None  # the client's (None: the user's)
        self.last_lookup: MetadataLookup | None = None
        self.proposals: dict[int, complete.Proposal] = {}  # by paper id, in lookup order
        self._chosen: dict[int, int] = {}  # paper id -> index of the candidate picked
        self._items: dict[int, QTreeWidgetItem] = {}
        self._job: Job | None = None
        self._queued: tuple[list[int] | None] | None = None  # a lookup asked for meanwhile
        self._accepting = False
        self._filling = False  # (the tree's itemChanged is ours while it is filled)
        self._stale: set[int] = set()  # listed papers that changed, to be read again
        self._refresher = Latest(tasks, ops.report, on_idle=lambda: self._update_buttons())
        for action in shared_actions:  # undo and redo work here too
            self.addAction(action)

        intro = QLabel(tr("Candidates for each paper from your conference catalogs and, "
                          "unless Papershelf is offline, OpenAlex, Semantic Scholar and "
                          "DBLP. Tick the one to use and Accept it, or accept every clear "
                          "winner at once. A paper keeps its citation key, notes, star, "
                          "read state and tags; undo takes a completion back."))
        intro.setWordWrap(True)

        self.status_label = QLabel()
        self.status_label.setObjectName("metadataStatus")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(dpi_size(200, 0).width())
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop looking papers up (nothing is changed)"))
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self.cancel)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status_label, 1)
        status_row.addWidget(self.progress)
        status_row.addWidget(self.cancel_button)

        self.tree = QTreeWidget()
        self.tree.setObjectName("metadataCandidates")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels([tr("Title"), tr("Authors"), tr("Venue"), tr("Score"),
                                   tr("Source"), tr("Why")])
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.tree.header()
        header.setStretchLastSection(False)
        for n, name in enumerate(COLUMNS):
            header.setSectionResizeMode(n, QHeaderView.ResizeMode.Stretch if name == "title"
                                        else QHeaderView.ResizeMode.Interactive)
        header.resizeSection(COLUMNS.index("authors"), dpi_size(220, 0).width())
        header.resizeSection(COLUMNS.index("venue"), dpi_size(110, 0).width())
        header.resizeSection(COLUMNS.index("score"), dpi_size(60, 0).width())
        header.resizeSection(COLUMNS.index("source"), dpi_size(130, 0).width())
        header.resizeSection(COLUMNS.index("why"), dpi_size(260, 0).width())
        self.tree.currentItemChanged.connect(lambda *_: self._show_changes())
        self.tree.itemChanged.connect(self._item_changed)
        self.tree.itemDoubleClicked.connect(self._double_clicked)

        self.changes_label = QLabel()
        self.changes_label.setObjectName("metadataChangesLabel")
        self.changes_label.setTextFormat(Qt.TextFormat.PlainText)
        self.changes_view = QTreeWidget()
        self.changes_view.setObjectName("metadataChanges")
        self.changes_view.setHeaderLabels([tr("Field"), tr("Now"), tr("Would be")])
        self.changes_view.setRootIsDecorated(False)
        self.changes_view.setUniformRowHeights(True)
        self.changes_view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.changes_view.header().setSectionResizeMode(
            2, QHeaderView.ResizeMode.Stretch)
        self.changes_view.header().setStretchLastSection(False)
        self.changes_view.header().resizeSection(0, dpi_size(110, 0).width())
        self.changes_view.header().resizeSection(1, dpi_size(260, 0).width())
        changes_box = QWidget()
        changes_layout = QVBoxLayout(changes_box)
        changes_layout.setContentsMargins(0, 0, 0, 0)
        changes_layout.addWidget(self.changes_label)
        changes_layout.addWidget(self.changes_view, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.tree)
        splitter.addWidget(changes_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)

        self.problems = QListWidget()  # a line per note and per bad answer (plain text)
        self.problems.setObjectName("metadataProblems")
        self.problems.hide()

        buttons = QDialogButtonBox()
        self.accept_button = QPushButton(tr("&Accept"))
        self.accept_button.setToolTip(tr("Complete the current paper from the candidate "
                                         "ticked for it (can be undone)"))
        self.accept_all_button = QPushButton(tr("Accept All &Confident"))
        self.accept_all_button.setToolTip(tr("Complete every paper whose best candidate is "
                                             "a clear winner from that candidate, as one "
                                             "step (can be undone)"))
        for button in (self.accept_button, self.accept_all_button):
            button.setAutoDefault(False)
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.accept_button.clicked.connect(self.accept_current)
        self.accept_all_button.clicked.connect(self.accept_confident)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(status_row)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.problems)
        layout.addWidget(buttons)

        self.ops.changed.connect(self._changed)
        self.resize(dpi_size(980, 640))
        self._show_progress(False)
        self._update_buttons()

    # -- looking up ----------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether papers are being looked up."""
        return self._job is not None

    def look_up(self, ids: Sequence[int] | None) -> bool:
        """Show the dialog and look the papers up (None or none: every paper whose title
        is provisional), replacing what it listed. While a lookup runs, the dialog is
        only brought to the front (False); a cancelled one still ending is followed by
        this one."""
        wanted = list(ids) if ids else None
        self._bring_up()
        if self._job is not None:
            if not self._job.cancelled():
                return False
            self._queued = (wanted,)
            return True
        self._start(wanted)
        return True

    def cancel(self) -> None:
        """Stop the lookup under way; the papers looked up so far are listed."""
        self._queued = None
        if self._job is not None and not self._job.cancelled():
            self._job.cancel()
            self.status_label.setText(tr("Cancelling…"))
            self.cancel_button.setEnabled(False)

    def _bring_up(self) -> None:
        if self.isVisible():
            self.raise_()
        else:
            self.show()
        self.activateWindow()

    def _start(self, wanted: list[int] | None) -> None:
        self._refresher.drop()
        self._stale.clear()
        self.proposals.clear()
        self._chosen.clear()
        self._fill()
        self._set_problems([])
        if wanted is None:
            self.status_label.setText(tr("Looking up the papers with a provisional title…"))
        elif len(wanted) == 1:
            self.status_label.setText(tr("Looking up 1 paper…"))
        else:
            self.status_label.setText(tr("Looking up {n} papers…").format(n=len(wanted)))
        self.progress.setRange(0, max(len(wanted or ()), 1))
        self.progress.setValue(0)
        self._show_progress(True)
        self._job = self.ops.find_metadata(wanted, self._progressed, self._looked,
                                           self.catalogs, self.http_settings)
        self._update_buttons()

    def _progressed(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _looked(self, lookup: MetadataLookup) -> None:
        self._job = None
        self._show_progress(False)
        if self._queued is not None:  # (this one was cancelled)
            (wanted,), self._queued = self._queued, None
            self._start(wanted)
            return
        self.last_lookup = lookup
        self.proposals = {p.paper_id: p for p in lookup.proposals}
        self._chosen = {pid: 0 for pid, p in self.proposals.items() if p.options}
        self._fill()
        lines = [tr("Note: {note}").format(note=note) for note in lookup.notes]
        lines += [f"{p.key}: {problem}" for p in lookup.proposals for problem in p.problems]
        if lookup.error:
            lines.append(lookup.error)
        self._set_problems(lines)
        self.status_label.setText(self._summary(lookup))
        if self._stale:  # listed papers that changed while they were looked up
            self._refresh(set())
        self._update_buttons()
        self.lookupFinished.emit(lookup)

    def _summary(self, lookup: MetadataLookup) -> str:
        if lookup.error:
            return tr("The lookup failed: {reason}").format(reason=lookup.error)
        done = len(lookup.proposals)
        if lookup.cancelled:
            return tr("Cancelled after {done} of {n} papers; nothing was changed.").format(
                done=done, n=lookup.asked)
        if not lookup.asked:
            return tr("No paper has a provisional title.")
        sure = sum(1 for p in lookup.proposals if p.confident)
        none = sum(1 for p in lookup.proposals if not p.options)
        return tr("{n} looked up: {sure} confident, {none} without a candidate.").format(
            n=done, sure=sure, none=none)

    def _show_progress(self, shown: bool) -> None:
        self.progress.setVisible(shown)
        self.cancel_button.setVisible(shown)
        self.cancel_button.setEnabled(shown)

    def _set_problems(self, lines: list[str]) -> None:
        """A line each; the list as high as its lines, up to a few (then it scrolls)."""
        self.problems.clear()
        self.problems.addItems(lines)
        self.problems.setVisible(bool(lines))
        if lines:
            rows = min(len(lines), _PROBLEM_LINES) * max(self.problems.sizeHintForRow(0), 1)
            self.problems.setFixedHeight(rows + 2 * self.problems.frameWidth() + 2)

    def problem_lines(self) -> list[str]:
        """The lines the problems list shows."""
        return [self.problems.item(n).text() for n in range(self.problems.count())]

    # -- the list ----------------------------------------------------------------------

    def _fill(self) -> None:
        """The papers and their candidates, each paper's pick ticked, all expanded."""
        self._filling = True
        try:
            self.tree.clear()
            self._items.clear()
            bold = QFont(self.tree.font())
            bold.setBold(True)
            for pid, proposal in self.proposals.items():
                item = QTreeWidgetItem(self.tree)
                item.setData(0, _PAPER, pid)
                item.setFont(0, bold)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                for index, option in enumerate(proposal.options):
                    item.addChild(self._candidate_item(pid, index, option))
                self._items[pid] = item
                item.setFirstColumnSpanned(True)
                self._update_paper(pid)
            self.tree.expandAll()
        finally:
            self._filling = False
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first.child(0) or first)
        self._show_changes()

    def _candidate_item(self, pid: int, index: int, option: complete.Option
                        ) -> QTreeWidgetItem:
        record = option.record
        names = [a.display() for a in record.authors]
        authors = ", ".join(names[:_AUTHORS_SHOWN]) + (
            " " + tr("et al.") if len(names) > _AUTHORS_SHOWN else "")
        where = " ".join(str(v) for v in (record.venue, record.year) if v)
        title = _line(math_to_text(record.title))
        item = QTreeWidgetItem([title, authors, _line(where), f"{option.score:.2f}",
                                option.source, _line(option.why)])
        item.setData(0, _PAPER, pid)
        item.setData(0, _OPTION, index)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                      | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(0, Qt.CheckState.Unchecked)
        item.setTextAlignment(COLUMNS.index("score"),
                              Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        why = tr("Why: {why}").format(why=option.why)
        item.setToolTip(0, _tip(f"{title}\n\n{why}"))
        item.setToolTip(1, _tip(", ".join(names)))
        item.setToolTip(2, _tip(where))
        item.setToolTip(3, _tip(why))
        item.setToolTip(COLUMNS.index("why"), _tip(why))
        return item

    def _update_paper(self, pid: int) -> None:
        """A paper's row: key, title as it is now, and where it stands; its pick ticked."""
        item, proposal = self._items.get(pid), self.proposals.get(pid)
        if item is None or proposal is None:
            return
        title = _line(math_to_text(proposal.title))
        if proposal.provisional:
            title += " " + tr("(provisional title)")
        # (where it stands first: a long title is elided at the end)
        item.setText(0, f"{proposal.key} · {self._standing(proposal)} — {title}")
        item.setToolTip(0, _tip(f"{proposal.key}\n{title}"))
        chosen = self._chosen.get(pid)
        filling, self._filling = self._filling, True
        try:
            for n in range(item.childCount()):
                child = item.child(n)
                if child is not None:
                    child.setCheckState(0, Qt.CheckState.Checked if n == chosen
                                        else Qt.CheckState.Unchecked)
        finally:
            self._filling = filling

    def _standing(self, proposal: complete.Proposal) -> str:
        option = self.chosen_option(proposal.paper_id)
        if option is None:
            return tr("no candidate found")
        if not option.changes:
            return tr("nothing to change")
        if proposal.confident and self._chosen.get(proposal.paper_id) == 0:
            return tr("confident match")
        if self._chosen.get(proposal.paper_id) == 0 and option.score < max(
                o.score for o in proposal.options):
            # (never a low score picked above higher ones without saying why)
            if PLACED_BY_LIST in option.why:
                return tr("picked by its place in the list, not by its score")
            return tr("picked though another scores higher")
        return tr("{n} candidates").format(n=len(proposal.options))

    def chosen_option(self, pid: int) -> complete.Option | None:
        """The candidate picked for a paper (the best until the user picks another)."""
        proposal, index = self.proposals.get(pid), self._chosen.get(pid)
        if proposal is None or index is None or index >= len(proposal.options):
            return None
        return proposal.options[index]

    def choose(self, pid: int, index: int) -> None:
        """Pick a paper's candidate (ticking it unticks the paper's others)."""
        proposal = self.proposals.get(pid)
        if proposal is None or not 0 <= index < len(proposal.options):
            return
        self._chosen[pid] = index
        self._update_paper(pid)
        self._show_changes()
        self._update_buttons()

    def current_paper(self) -> int | None:
        """The paper of the current row (a paper's or one of its candidates')."""
        item = self.tree.currentItem()
        value = item.data(0, _PAPER) if item is not None else None
        return value if isinstance(value, int) else None

    def paper_item(self, pid: int) -> QTreeWidgetItem | None:
        """The row of a paper (its candidates are its children)."""
        return self._items.get(pid)

    def candidate_item(self, pid: int, index: int) -> QTreeWidgetItem | None:
        """The row of a paper's candidate."""
        item = self._items.get(pid)
        return item.child(index) if item is not None and 0 <= index < item.childCount() \
            else None

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0 or item.data(0, _OPTION) is None:
            return
        pid, index = item.data(0, _PAPER), item.data(0, _OPTION)
        if item.checkState(0) == Qt.CheckState.Checked:
            self.choose(pid, index)
        else:  # a pick is changed by ticking another, never untaken
            self._update_paper(pid)

    def _double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        index = item.data(0, _OPTION)
        if index is not None:
            self.choose(item.data(0, _PAPER), index)

    def _show_changes(self) -> None:
        """What the current candidate (on a paper's row: its pick) would change."""
        self.changes_view.clear()
        item = self.tree.currentItem()
        pid = self.current_paper()
        index = item.data(0, _OPTION) if item is not None else None
        proposal = self.proposals.get(pid) if pid is not None else None
        if proposal is None:
            self.changes_label.setText("")
        else:
            option = (proposal.options[index] if isinstance(index, int)
                      else self.chosen_option(proposal.paper_id))
            if option is None:
                self.changes_label.setText(tr("No candidate was found for {key}.").format(
                    key=proposal.key))
            elif not option.changes:
                self.changes_label.setText(tr("Accepting it would change nothing."))
            else:
                self.changes_label.setText(tr("What accepting it would change:"))
                for change in option.changes:
                    self.changes_view.addTopLevelItem(_change_item(change))
        self._update_buttons()

    # -- accepting -----------------------------------------------------------------------

    def confident_choices(self) -> list[tuple[complete.Proposal, complete.Option]]:
        """The papers whose best candidate is a clear winner and would change them."""
        return [(p, p.options[0]) for p in self.proposals.values()
                if p.confident and p.options and p.options[0].changes]

    def accept_current(self) -> None:
        """Complete the current paper from its pick (one undo step)."""
        pid = self.current_paper()
        option = self.chosen_option(pid) if pid is not None else None
        if pid is None or option is None or not option.changes:
            return
        self._accept([(self.proposals[pid], option)])

    def accept_confident(self) -> None:
        """Complete every paper with a clear winner from it (one undo step for all)."""
        self._accept(self.confident_choices())

    def _accept(self, chosen: list[tuple[complete.Proposal, complete.Option]]) -> None:
        if not chosen or self._accepting or self.running:
            return
        self._accepting = True
        self._update_buttons()
        keys = {p.paper_id: p.key for p, _option in chosen}
        self.ops.accept_candidates(chosen, lambda done: self._accepted(done, keys))

    def _accepted(self, done: Acceptance, keys: dict[int, str]) -> None:
        self._accepting = False
        if done.completed:
            what = (keys[done.completed[0]] if len(done.completed) == 1
                    else tr("{n} papers").format(n=len(done.completed)))
            undo = QKeySequence(QKeySequence.StandardKey.Undo).toString(
                QKeySequence.SequenceFormat.NativeText)
            self.status_label.setText(tr("Completed {what}. {undo} undoes it.").format(
                what=what, undo=undo))
        elif done.failures:
            self.status_label.setText(tr("Nothing was completed: the papers changed since "
                                         "they were looked up."))
        elif done.unwritten:
            self.status_label.setText(tr("Nothing was completed: the library could not be "
                                         "written."))
        if done.failures:
            self._set_problems([*self.problem_lines(), *done.failures])
        self._update_buttons()
        self.acceptanceFinished.emit(done)

    def _update_buttons(self) -> None:
        idle = not self.running and not self._accepting and not self._refresher.running
        pid = self.current_paper()
        option = self.chosen_option(pid) if pid is not None else None
        self.accept_button.setEnabled(idle and option is not None and bool(option.changes))
        sure = len(self.confident_choices())
        self.accept_all_button.setEnabled(idle and sure > 0)
        self.accept_all_button.setText(tr("Accept All &Confident ({n})").format(n=sure)
                                       if sure else tr("Accept All &Confident"))

    # -- following the library -----------------------------------------------------------

    def _changed(self, event: ChangeEvent) -> None:
        """A listed paper changed (an acceptance, undo, an edit, someone else): read it
        again once the lookup is over, and show what accepting would change now."""
        if not self.isVisible():  # (the next lookup lists the papers afresh)
            return
        ids = set(event.change.ids)
        if self.running:
            self._stale |= ids  # (what the lookup read may be older)
            return
        ids &= self.proposals.keys()
        if not ids:
            return
        if event.from_undo and self.last_lookup is not None:  # "… undoes it" is over
            self.status_label.setText(self._summary(self.last_lookup))
        self._refresh(ids)

    def _refresh(self, ids: set[int]) -> None:
        self._stale |= ids
        wanted = sorted(self._stale & self.proposals.keys())
        self._stale = set(wanted)
        if not wanted:
            return
        library = self.library
        self._refresher.request(lambda: (wanted, library.details(wanted)), self._refreshed)
        self._update_buttons()  # (no accepting from a diff being read again)

    def _refreshed(self, result: tuple[list[int], list[PaperDetail]]) -> None:
        wanted, details = result
        self._stale -= set(wanted)
        found = {detail.id: detail for detail in details}
        for pid in wanted:
            proposal = self.proposals.get(pid)
            if proposal is None:
                continue
            detail = found.get(pid)
            if detail is None:  # deleted: nothing to complete any more
                self._forget(pid)
                continue
            self.proposals[pid] = rebased(proposal, detail)
            self._update_paper(pid)
        self._show_changes()

    def _forget(self, pid: int) -> None:
        self.proposals.pop(pid, None)
        self._chosen.pop(pid, None)
        item = self._items.pop(pid, None)
        if item is not None:
            self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))

    def hideEvent(self, event: QHideEvent) -> None:
        """Closed (not minimised): the lookup under way stops."""
        if not event.spontaneous():
            self.cancel()
        super().hideEvent(event)


def field_name(name: str) -> str:
    """A field of a diff as the user reads it ('author' is "Authors"; a BibTeX field
    without a name of its own is itself)."""
    names = {"title": tr("Title"), "abstract": tr("Abstract"), "author": tr("Authors"),
             "venue": tr("Venue"), "year": tr("Year"), "volume": tr("Volume"),
             "pages": tr("Pages"), "publisher": tr("Publisher"), "doi": tr("DOI"),
             "url": tr("Web page"), "openreview": tr("OpenReview"), "pdf": tr("PDF"),
             "eprint": tr("arXiv id")}
    return names.get(name, name)


def _change_item(change: complete.FieldChange) -> QTreeWidgetItem:
    old, new = change.old, change.new
    if change.field == "title":
        old, new = math_to_text(old), math_to_text(new)
    item = QTreeWidgetItem([field_name(change.field), _line(old) or "—", _line(new)])
    item.setToolTip(1, _tip(old))
    item.setToolTip(2, _tip(new))
    return item


def _line(text: str) -> str:
    """`text` on one line."""
    return " ".join(text.split())


def _tip(text: str) -> str:
    """A tooltip showing `text` as it is: Qt would read markup in it as rich text."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>" if text else ""
