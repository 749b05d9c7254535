"""A paper's web page and PDF: opening them, attaching PDF files (also dropped on a
row), downloading the PDFs papers name, detaching files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui import settings as S
from papershelf.gui.detail import open_link
from papershelf.gui.qt import QFileDialog, QTimer, Translator
from papershelf.gui.shell import Feature, Handler, Shell, papers

if TYPE_CHECKING:
    from papershelf import opener
    from papershelf.core import files
    from papershelf.gui.operations import Downloads
    from papershelf.gui.workers import Job
    from papershelf.metadata import identifiers
else:
    opener = lazy.module("papershelf.opener")
    files = lazy.module("papershelf.core.files")
    identifiers = lazy.module("papershelf.metadata.identifiers")

tr = Translator("MainWindow")


class PdfsFeature(Feature):
    """Open, attach, download and detach a paper's files."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self._download_job: Job | None = None

    def handlers(self) -> dict[str, Handler]:
        return {
            "open_page": lambda: self.open_paper(pdf=False),
            "open_pdf": lambda: self.open_paper(pdf=True),
            "attach_pdf": self.attach_pdf,
            "download_pdf": self.download_pdfs,
            "detach_files": self.detach_files,
        }

    def attach(self) -> None:
        self.shell.table.pdfsDropped.connect(self._pdfs_dropped)
        self.shell.ops.textsRead.connect(self._texts_read)

    @property
    def running_job(self) -> bool:
        return self._download_job is not None

    def cancel(self) -> bool:
        if self._download_job is None:
            return False
        self._download_job.cancel()
        self.shell.cancel_button.setEnabled(False)
        self.shell.statusBar().showMessage(tr("Cancelling the download…"))
        return True

    def close(self) -> None:
        if self._download_job is not None:
            self._download_job.cancel()

    def open_paper(self, *, pdf: bool) -> None:
        """O: read the current paper's PDF in a tab when it is on this computer, else
        open its best web page in the browser; Shift+O: its attached PDF on this computer
        in the PDF viewer, else its PDF online."""
        shell = self.shell
        pid = shell.table.focused_id()
        detail = shell.library.paper(pid) if pid is not None else None
        if detail is None:
            return
        local = detail.local_pdf
        if local is not None and files.is_pdf(local):  # (never a program a row names)
            if pdf:
                self._open_pdf(local)
            else:  # O on a paper whose PDF is here: read it in the window
                shell.open_reader(detail.id, local, detail.record.title or detail.record.key or "")
            return
        url = (identifiers.best_pdf if pdf else identifiers.best_page)(detail.record)
        if url is None:
            shell.statusBar().showMessage((
                tr("{key} names no PDF: add its arXiv id, DOI or a link to it") if pdf
                else tr("{key} names no web page: add its DOI, arXiv id or a link")
            ).format(key=detail.key), 6000)
        elif not open_link(url):
            shell.statusBar().showMessage(tr("Could not open {url}").format(url=url), 6000)

    def _open_pdf(self, local: Path) -> None:
        """Open an attached PDF with the desktop's viewer, in a worker (the opener is
        waited for, so that a desktop with none is said in the status bar)."""
        def done(failed: str | None) -> None:
            if failed is not None:
                self.shell.statusBar().showMessage(
                    tr("Could not open the PDF: no program here opens PDFs. The file is "
                       "{path}").format(path=local), 15000)

        self.shell.tasks.run(lambda _job: opener.open_externally(local), done)

    def attach_pdf(self) -> None:
        """Paper > Attach PDF…: choose PDF files for the current paper; they are copied
        into the library's files folder (one undo step) and their text read for search."""
        shell = self.shell
        pid = shell.table.focused_id()
        if pid is None:
            return
        folder = shell.settings.get(S.LAST_FOLDER) or str(Path.home())
        paths, _filter = QFileDialog.getOpenFileNames(
            shell, tr("Attach PDF"), folder, tr("PDF files (*.pdf);;All files (*)"))
        if paths:
            shell.settings.set(S.LAST_FOLDER, str(Path(paths[0]).parent))
            shell.ops.attach_files(pid, paths)

    def _pdfs_dropped(self, row: int, paths: list[str]) -> None:
        """PDF files dropped on a row: attached to that row's paper (after the drop)."""
        pid = self.shell.model.id_at(row)
        if pid is not None:
            QTimer.singleShot(0, self, lambda: self.shell.ops.attach_files(pid, paths))

    def detach_files(self) -> None:
        """Take the attached files off the selected papers (one undo step)."""
        ids = self.shell.table.selected_ids()
        if ids:
            self.shell.ops.detach_files(ids)

    def download_pdfs(self) -> None:
        """Paper > Download PDF: fetch the PDF each selected paper names, in the
        background with progress and Cancel, and attach it (one undo step)."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids or self._download_job is not None:
            if self._download_job is not None:
                shell.statusBar().showMessage(tr("A download is already running"), 4000)
            return
        shell.show_cancellable(tr("Stop downloading; nothing is attached"))
        shell.statusBar().showMessage(tr("Downloading PDFs for {papers}…").format(
            papers=papers(len(ids))))
        self._download_job = shell.ops.download_pdfs(ids, shell.show_progress,
                                                     self._downloaded)

    def _downloaded(self, outcome: Downloads) -> None:
        self._download_job = None
        self.shell.job_ended()
        self.shell.statusBar().showMessage(outcome.summary(), 8000)
        if outcome.failures() and not outcome.error:
            self.shell.show_error(outcome.report())
        self.shell.downloadFinished.emit(outcome)

    def _texts_read(self, problems: list[str]) -> None:
        """Attached files' text was read: a damaged file is a line in the status bar."""
        if problems:
            self.shell.statusBar().showMessage(problems[-1], 8000)
