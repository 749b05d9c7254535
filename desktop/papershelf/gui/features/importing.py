"""Papers coming in: File › Import…, files and BibTeX dropped or pasted (queued behind
a running import), adding by identifier, and the search index a big import leaves to
build."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui import settings as S
from papershelf.gui.add_dialog import identifier_text
from papershelf.gui.qt import (
    QApplication,
    QDragEnterEvent,
    QDropEvent,
    QFileDialog,
    QTimer,
    Translator,
)
from papershelf.gui.shell import Feature, Handler, Shell

if TYPE_CHECKING:
    from papershelf import formats
    from papershelf.gui import dialogs, operations
    from papershelf.gui.operations import ImportOutcome
    from papershelf.gui.workers import Job
else:
    formats = lazy.module("papershelf.formats")
    dialogs = lazy.module("papershelf.gui.dialogs")
    operations = lazy.module("papershelf.gui.operations")

tr = Translator("MainWindow")

INDEX_SLICE = 20_000  # papers indexed per write job: other writes wait at most one slice


class ImportingFeature(Feature):
    """Imports in the background with progress and Cancel, one at a time."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.last_import_report: ImportOutcome | None = None
        self._import_job: Job | None = None
        self._queued_imports: list[str] = []
        self._queued_bibtex: list[str] = []  # BibTeX pasted or dropped meanwhile
        self._indexing: Job | None = None

    def handlers(self) -> dict[str, Handler]:
        return {
            "import": self.import_dialog,
            "add_identifiers": lambda: self.shell.adder.ask(self.shell),
            "paste": self.paste,
        }

    def update_actions(self) -> None:
        self.shell.actions["import"].setEnabled(self._import_job is None)

    @property
    def running_job(self) -> bool:
        return self._import_job is not None

    def cancel(self) -> bool:
        if self._import_job is None:
            return False
        self.cancel_import()
        return True

    def close(self) -> None:
        if self._import_job is not None:
            self._import_job.cancel()
        if self._indexing is not None:
            self._indexing.cancel()  # what is indexed stays; the rest at the next start

    # -- importing files -----------------------------------------------------------------

    def import_dialog(self) -> None:
        """File > Import…: choose files, then import them in the background."""
        settings = self.shell.settings
        folder = settings.get(S.LAST_FOLDER) or str(Path.home())
        paths, _filter = QFileDialog.getOpenFileNames(
            self.shell, tr("Import Papers"), folder,
            tr("Abstract lists, BibTeX, RIS, CSL-JSON, EndNote XML and PubMed (*.txt *.md "
               "*.bib *.bibtex *.ris *.json *.xml *.nbib);;Zotero library (zotero.sqlite);;"
               "All files (*)"))
        if paths:
            settings.set(S.LAST_FOLDER, str(Path(paths[0]).parent))
            self.start_import(paths)

    def import_files(self, paths: list[str]) -> None:
        """Import files now, or after the running import (files handed over by a file
        manager or a second start arrive at any time)."""
        if self._import_job is not None:
            self._queued_imports.extend(paths)
            self.shell.statusBar().showMessage(tr("Queued after the running import"), 4000)
            return
        self.start_import(paths)

    def start_import(self, paths: list[str]) -> None:
        """Import files in a worker, with progress and a Cancel button."""
        shell = self.shell
        if self._import_job is not None:
            shell.statusBar().showMessage(tr("An import is already running"), 4000)
            return
        shell.show_cancellable(tr("Stop the import; nothing of the file being read is "
                                  "written"))
        shell.statusBar().showMessage(
            tr("Importing {name}…").format(name=operations.import_name(paths)))
        self._import_job = shell.ops.import_files(paths, shell.show_progress,
                                                  self._import_done, self._import_failed)
        shell.update_actions()

    def import_bibtex(self, text: str) -> None:
        """Import pasted or dropped BibTeX entries as a file's are (merging duplicates,
        each bad entry reported with its line), now or after the running import."""
        shell = self.shell
        if self._import_job is not None:
            self._queued_bibtex.append(text)
            shell.statusBar().showMessage(tr("Queued after the running import"), 4000)
            return
        shell.show_cancellable(tr("Stop the import; nothing of it is written"))
        source = tr("pasted BibTeX")
        shell.statusBar().showMessage(tr("Importing {name}…").format(name=source))
        self._import_job = shell.ops.import_bibtex(text, source, shell.show_progress,
                                                   self._import_done, self._import_failed)
        shell.update_actions()

    def cancel_import(self) -> None:
        """Stop the running import (the file being read is not written)."""
        if self._import_job is not None:
            self._import_job.cancel()
            self.shell.cancel_button.setEnabled(False)
            self.shell.statusBar().showMessage(tr("Cancelling the import…"))

    def _import_ended(self) -> None:
        self._import_job = None
        self.shell.job_ended()
        self.shell.update_actions()
        if self._queued_imports:
            queued, self._queued_imports = self._queued_imports, []
            QTimer.singleShot(0, self, lambda: self.start_import(queued))
        elif self._queued_bibtex:
            text = self._queued_bibtex.pop(0)
            QTimer.singleShot(0, self, lambda: self.import_bibtex(text))

    def _import_done(self, outcome: ImportOutcome) -> None:
        self._import_ended()
        self.index_for_search()
        self.last_import_report = outcome
        self.shell.statusBar().showMessage(outcome.summary(), 8000)
        dialogs.show_import_summary(self.shell, outcome)
        self.shell.importFinished.emit(outcome)

    def _import_failed(self, exc: BaseException) -> None:
        self._import_ended()
        if not isinstance(exc, Exception):
            raise exc
        self.shell.ops.report(exc)

    # -- the search index ----------------------------------------------------------------

    def index_for_search(self) -> None:
        """Make papers of a big import searchable: the index is built in batches in the
        background, with progress in the status bar (and resumes at the next start)."""
        shell = self.shell
        library, bar = shell.library, shell.index_progress
        pending = library.pending_index()
        if self._indexing is not None or not pending:
            return
        bar.setRange(0, pending)
        bar.setValue(0)
        bar.show()
        indexed = [0]  # ids covered by the slices done so far

        def progress(done: int, _total: int) -> None:
            bar.setValue(min(indexed[0] + done, pending))

        def done(covered: object) -> None:
            self._indexing = None
            if shell.closing:
                return
            indexed[0] += int(covered) if isinstance(covered, int) else 0
            if library.pending_index():  # next slice; edits queued meanwhile go first
                self._indexing = shell.tasks.run(slice_, done, failed, progress, write=True)
                return
            bar.hide()
            if shell.model.view.search.strip():
                shell.model.refresh()

        def failed(exc: BaseException) -> None:
            self._indexing = None
            bar.hide()
            shell.ops.report(exc)

        def slice_(job: Job) -> int:
            return library.index_pending(job.progress, job.cancelled, limit=INDEX_SLICE)

        self._indexing = shell.tasks.run(slice_, done, failed, progress, write=True)

    # -- dropped and pasted --------------------------------------------------------------

    def drag_enter(self, event: QDragEnterEvent) -> None:
        """Files and identifiers are welcome; rows dragged out of the table are not."""
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if not self.shell.attached or event.source() is self.shell.table:
            event.ignore()
        elif (urls and all(url.isLocalFile() for url in urls)) \
                or identifier_text(event.mimeData()).strip():
            event.acceptProposedAction()
        else:
            event.ignore()

    def drop(self, event: QDropEvent) -> None:
        """Files are imported (a PDF is attached when dropped on a paper's row: the
        table takes those); web links and text are added as identifiers."""
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        text = identifier_text(event.mimeData())
        if paths or text.strip():
            event.acceptProposedAction()
            # Never work inside the drop handler: the drag source is waiting on us.
            QTimer.singleShot(0, lambda: self._take(paths, text))  # queued if one runs

    def paste(self) -> None:
        """Ctrl+V on the table: add the papers on the clipboard: BibTeX entries and files
        are imported, identifiers and titles looked up."""
        mime = QApplication.clipboard().mimeData()
        self._take([url.toLocalFile() for url in mime.urls() if url.isLocalFile()],
                   identifier_text(mime))

    def _take(self, paths: list[str], text: str) -> None:
        pdfs = [path for path in paths if path.lower().endswith(".pdf")]
        if pdfs:
            self.shell.statusBar().showMessage(
                tr("Drop a PDF on a paper's row to attach it to that paper"), 6000)
            paths = [path for path in paths if path not in pdfs]
        if paths:
            self.import_files(paths)
        if formats.is_bibtex_text(text):
            self.import_bibtex(text)
        elif text.strip():
            self.shell.adder.add_text(text)
