"""A paper's web page and PDF: opening them, attaching PDF files (also dropped on a
row), downloading the PDFs papers name, detaching files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui import settings as S
from papershelf.gui.detail import open_link
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import QFileDialog, QTimer, Translator
from papershelf.gui.shell import Feature, Handler, Shell, papers

if TYPE_CHECKING:
    from papershelf import opener
    from papershelf.core import files
    from papershelf.core.views import PaperDetail
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
        self.shell.ops.uploadProgress.connect(self._upload_progress)
        self.shell.ops.filesUploaded.connect(self._uploaded)

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
            self._open_local(detail.id, local, detail.record.title or detail.record.key or "",
                             pdf=pdf)
            return
        if local is None and shell.library.shared and detail.files:
            self._fetch_then(detail, pdf=pdf)
            return
        self._open_online(detail, pdf=pdf)

    def _open_local(self, paper_id: int, local: Path, title: str, *, pdf: bool) -> None:
        """Shift+O: the PDF in the desktop's viewer; O: in a tab of the window."""
        if pdf:
            self._open_pdf(local)
        else:
            self.shell.open_reader(paper_id, local, title)

    def _fetch_then(self, detail: PaperDetail, *, pdf: bool) -> None:
        """A shared library's paper whose file is not on this computer: opened from the
        library's copy (`fetch_from_library`)."""
        title = detail.record.title or detail.record.key or ""
        fetch_from_library(self.shell, detail, lambda path: self._open_local(
            detail.id, path, title, pdf=pdf), lambda: self._open_online(detail, pdf=pdf))

    def _open_online(self, detail: PaperDetail, *, pdf: bool) -> None:
        """The paper's page or PDF on the web, or a line saying it names none."""
        shell = self.shell
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

    def _upload_progress(self, done: int, total: int) -> None:
        self.shell.statusBar().showMessage(tr(
            "Sending PDFs to the shared library… {percent}%").format(
            percent=done * 100 // max(total, 1)))

    def _uploaded(self, outcome: tuple[int, list[str]]) -> None:
        """The shared library has the attached files' contents: said in the status bar,
        a refused one (too big) as its line."""
        sent, problems = outcome
        if problems:
            self.shell.statusBar().showMessage(problems[-1], 15000)
        elif sent:
            self.shell.statusBar().showMessage(tr(
                "Sent %n PDFs to the shared library: every member can open them", "",
                sent), 6000)

    def _texts_read(self, problems: list[str]) -> None:
        """Attached files' text was read: a damaged file is a line in the status bar."""
        if problems:
            self.shell.statusBar().showMessage(problems[-1], 8000)


def fetch_from_library(shell: Shell, detail: PaperDetail, then: Callable[[Path], None],
                       otherwise: Callable[[], None] | None = None) -> None:
    """A shared library's paper whose file is not on this computer: the library's copy
    fetched into this member's cache in a worker (`Library.local_path_for`, with its
    progress in the status bar), then `then(path)`; when the library has none,
    `otherwise()`, else a line saying so."""
    def progress(got: int, total: int) -> None:
        shell.statusBar().showMessage(tr(
            "Fetching the PDF of {key} from the shared library… {percent}%").format(
            key=detail.key, percent=got * 100 // max(total, 1)))

    def done(path: object) -> None:
        shell.statusBar().clearMessage()
        if isinstance(path, Path):
            then(path)
        elif otherwise is not None:
            otherwise()
        else:
            shell.statusBar().showMessage(tr(
                "The shared library does not have the PDF of {key} yet: the member who "
                "attached it can send it (papershelf upload-files)").format(
                key=detail.key), 10000)

    progress(0, 1)
    shell.tasks.run(lambda job: shell.library.local_path_for(detail.id, job.progress),
                    done, lambda exc: shell.statusBar().showMessage(error_text(exc), 10000),
                    progress)
