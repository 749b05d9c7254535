"""Paper › Papers Around (issue 44): the selected paper's references and the papers
citing it (feeds.around: OpenAlex, Semantic Scholar, Crossref or OpenCitations), asked
off the GUI thread, listed with title, authors, year and a mark for those in the
library; the abstract of the one selected below. A (or Add) adds the selected papers by
their DOI or arXiv id through File › Add by Identifier's machinery (`shell.adder`). A
third tab finds, on demand, the papers cited by at least k of the library's papers (of
the tag listed, when one is) that it lacks, most cited first (`around.missing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.i18n import error_text, localized
from papershelf.gui.qt import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QProgressBar,
    QPushButton,
    QShortcut,
    QSpinBox,
    QSplitter,
    Qt,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Translator,
)
from papershelf.gui.shell import Feature, Handler, Shell, papers

if TYPE_CHECKING:
    from papershelf.feeds import around
    from papershelf.feeds.around import Around, Missing, Neighbour
    from papershelf.gui.workers import Job
    from papershelf.metadata import http
else:
    around = lazy.module("papershelf.feeds.around")
    http = lazy.module("papershelf.metadata.http")

tr = Translator("PapersAround")

_DIRECTIONS = ("references", "citing")


class AroundFeature(Feature):
    """The `papers_around` action: the dialog of the current paper's neighbours."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.dialog: AroundDialog | None = None

    def handlers(self) -> dict[str, Handler]:
        return {"papers_around": self.show_around}

    def close(self) -> None:
        if self.dialog is not None:
            self.dialog.stop()

    def show_around(self) -> AroundDialog | None:
        """The dialog for the current paper (one with neither DOI nor arXiv id: a
        message saying so); the lookup starts at once, in a worker."""
        shell = self.shell
        paper_id = shell.table.focused_id()
        detail = shell.library.paper(paper_id) if paper_id is not None else None
        if detail is None:
            return None
        doi, arxiv_id = around.ids_of(detail.record)
        if not doi and not arxiv_id:
            shell.show_error(tr("“{title}” has no DOI or arXiv id: no service can be asked "
                                "which papers it cites and which cite it.").format(
                                    title=detail.record.title))
            return None
        if self.dialog is not None:
            self.dialog.stop()
            self.dialog.close()
        dialog = self.dialog = AroundDialog(shell, detail.record.title)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda _=None: self._forget(dialog))
        dialog.start(doi, arxiv_id)
        dialog.show()
        return dialog

    def _forget(self, dialog: AroundDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None


class AroundDialog(QDialog):
    """The references and citing papers of one paper, and adding them."""

    def __init__(self, shell: Shell, title: str) -> None:
        super().__init__(shell)
        self.shell = shell
        self.found: Around | None = None
        self.jobs: list[Job] = []
        self.setWindowTitle(tr("Papers Around “{title}”").format(title=title))
        self.resize(900, 600)
        self.status = QLabel(tr("Asking OpenAlex, Semantic Scholar, Crossref and "
                                "OpenCitations…"))
        self.status.setWordWrap(True)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.tabs = QTabWidget()
        self.lists: dict[str, QTreeWidget] = {}
        for direction, label in zip(_DIRECTIONS, (tr("References"), tr("Citing It"))):
            tree = QTreeWidget()
            tree.setHeaderLabels([tr("In Library"), tr("Title"), tr("Authors"), tr("Year")])
            tree.setRootIsDecorated(False)
            tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
            tree.setColumnWidth(0, 80)
            tree.setColumnWidth(1, 420)
            tree.currentItemChanged.connect(lambda current, _old: self._show(current))
            self.lists[direction] = tree
            self.tabs.addTab(tree, label)
        self.tabs.addTab(self._missing_tab(), tr("Missing From Your Library"))
        self.abstract = QTextBrowser()
        self.abstract.setPlaceholderText(tr("The abstract of the paper selected"))
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.tabs)
        splitter.addWidget(self.abstract)
        splitter.setSizes([420, 160])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.add_button = buttons.addButton(tr("&Add Selected"),
                                            QDialogButtonBox.ButtonRole.ActionRole)
        self.add_button.setToolTip(tr("Add the selected papers by their DOI or arXiv id, "
                                      "looked up and completed as Add by Identifier does (A)"))
        self.add_button.clicked.connect(self.add_selected)
        buttons.rejected.connect(self.close)
        QShortcut(QKeySequence("A"), self, self.add_selected)
        layout = QVBoxLayout(self)
        for widget in (self.status, self.busy, splitter, buttons):
            layout.addWidget(widget)
        self.tabs.currentChanged.connect(lambda _i: self._show(self._current()))

    def _missing_tab(self) -> QWidget:
        """The third tab: k, Find, and the papers found."""
        self.tag = self.shell.model.view.tag or ""
        self.min_count = QSpinBox()
        self.min_count.setRange(1, 100)
        self.min_count.setValue(2)
        self.find_button = QPushButton(tr("&Find"))
        self.find_button.setToolTip(tr("Ask for the references of your newest papers (at "
                                       "most {n}) and count what they cite").format(
                                           n=around.MAX_PAPERS))
        self.find_button.clicked.connect(self.find_missing)
        row = QHBoxLayout()
        row.addWidget(QLabel(tr("Cited by at least") if not self.tag else
                             tr("Cited by at least (of the papers tagged {tag})").format(
                                 tag=self.tag)))
        row.addWidget(self.min_count)
        row.addWidget(self.find_button)
        row.addStretch(1)
        tree = self.lists["missing"] = QTreeWidget()
        tree.setHeaderLabels([tr("Cited By"), tr("Title"), tr("Authors"), tr("Year")])
        tree.setRootIsDecorated(False)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        tree.setColumnWidth(1, 420)
        tree.currentItemChanged.connect(lambda current, _old: self._show(current))
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addLayout(row)
        layout.addWidget(tree)
        return tab

    def find_missing(self) -> None:
        """Count, in a worker, what the library's papers cite that it lacks."""
        library, tag, k = self.shell.library, self.tag, self.min_count.value()
        settings = self.shell.adder.settings or http.HttpSettings()

        def count(job: Job) -> tuple[list[Missing], list[str]]:
            with http.make_client(settings) as client:
                return around.missing(library, client, k, tag, progress=job.progress,
                                      cancelled=job.cancelled)

        self.find_button.setEnabled(False)
        self.busy.setRange(0, 0)
        self.busy.show()
        self.status.setText(tr("Asking for the references of your papers…"))
        self.jobs.append(self.shell.tasks.run(count, self._counted, self._failed,
                                              self._progress))

    def _progress(self, done: int, total: int) -> None:
        self.busy.setRange(0, max(total, 1))
        self.busy.setValue(done)

    def _counted(self, result: object) -> None:
        self.busy.hide()
        self.find_button.setEnabled(True)
        found, notes = result if isinstance(result, tuple) else ([], [])
        self._fill(self.lists["missing"], [m.paper for m in found], [m.count for m in found])
        self.status.setText(tr("{papers} cited by at least {k} of yours missing from your "
                               "library").format(papers=papers(len(found)),
                                                      k=self.min_count.value())
                            + (f" ({'; '.join(map(localized, notes[:3]))})" if notes else ""))

    # -- asking ----------------------------------------------------------------------

    def start(self, doi: str, arxiv_id: str) -> None:
        """Ask the services in a worker; the lists fill in when they answered."""
        library = self.shell.library
        settings = self.shell.adder.settings or http.HttpSettings()

        def ask(_job: Job) -> Around:
            with http.make_client(settings) as client:
                return around.around(client, doi, arxiv_id, library=library)

        self.jobs.append(self.shell.tasks.run(ask, self._answered, self._failed))

    def stop(self) -> None:
        for job in self.jobs:
            job.cancel()

    def _answered(self, found: object) -> None:
        if not isinstance(found, around.Around):  # (a closed dialog's: never called)
            return
        self.found = found
        self.busy.hide()
        parts = []
        for direction, label in zip(_DIRECTIONS, (tr("References"), tr("Citing It"))):
            papers = getattr(found, direction)
            self._fill(self.lists[direction], papers)
            self.tabs.setTabText(_DIRECTIONS.index(direction),
                                 f"{label} ({len(papers)})")
            if direction in found.sources:
                parts.append(tr("{what}: {n} from {service}, {have} in your library").format(
                    what=label, n=len(papers), service=found.sources[direction],
                    have=sum(p.in_library for p in papers)))
            else:
                parts.append(tr("{what}: no service answered").format(what=label))
        failed = len(found.sources) < len(_DIRECTIONS)
        notes = "; ".join(map(localized, found.notes)) if failed else ""
        self.status.setText(". ".join(parts) + (f" ({notes})" if notes else ""))

    def _failed(self, error: BaseException) -> None:
        self.busy.hide()
        self.find_button.setEnabled(True)
        self.status.setText(tr("The papers around could not be asked: {error}").format(
            error=error_text(error)))

    def _fill(self, tree: QTreeWidget, papers: list[Neighbour],
              counts: list[int] | None = None) -> None:
        tree.clear()
        for n, paper in enumerate(papers):
            authors = ", ".join(paper.authors[:3]) + (" …" if len(paper.authors) > 3 else "")
            first = str(counts[n]) if counts is not None else "✓" if paper.in_library else ""
            item = QTreeWidgetItem([first, paper.title, authors, str(paper.year or "")])
            item.setData(0, Qt.ItemDataRole.UserRole, paper)
            item.setToolTip(1, paper.title)
            tree.addTopLevelItem(item)

    # -- the selection ---------------------------------------------------------------

    def _current(self) -> QTreeWidgetItem | None:
        tree = self.tabs.currentWidget()
        return tree.currentItem() if isinstance(tree, QTreeWidget) else None

    def _show(self, item: QTreeWidgetItem | None) -> None:
        paper = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        self.abstract.setPlainText(paper.abstract if paper is not None else "")
        if paper is not None and not paper.abstract:
            self.abstract.setPlaceholderText(tr("The service gave no abstract"))

    def selected(self) -> list[Neighbour]:
        """The papers selected in the list shown."""
        tree = self.tabs.currentWidget()
        if not isinstance(tree, QTreeWidget):
            return []
        return [item.data(0, Qt.ItemDataRole.UserRole) for item in tree.selectedItems()]

    def add_selected(self) -> None:
        """A: add the selected papers by DOI or arXiv id (Add by Identifier)."""
        chosen = self.selected()
        wanted = [p.identifier for p in chosen if p.identifier is not None and not p.in_library]
        if not wanted:
            self.status.setText(tr("Select papers not in your library that have a DOI or "
                                   "an arXiv id to add them."))
            return
        self.shell.adder.add(wanted)
        self.status.setText(tr("Adding {papers} by Add by Identifier…").format(
            papers=papers(len(wanted))))
