"""The operations on attached files: attaching and detaching PDFs, downloading the PDFs
papers name, and reading the files' text for search in the background.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from papershelf.core.edits import combined
from papershelf.core.library import Change, Library
from papershelf.gui.i18n import error_text
from papershelf.gui.outcomes import Downloads
from papershelf.gui.qt import QObject, SignalInstance, Translator
from papershelf.gui.workers import Job, TaskManager
from papershelf.gui.write_queue import ChangeEvent, OnDone, WriteQueue
from papershelf.metadata import attaching
from papershelf.metadata.http import HttpSettings, make_client

tr = Translator("Operations")


class FileOperations(WriteQueue):
    """Attached files and their text (a part of gui.operations' Operations)."""

    # (declared by gui.operations.Operations, see there)
    textsRead: SignalInstance
    uploadProgress: SignalInstance
    filesUploaded: SignalInstance

    def __init__(self, library: Library, tasks: TaskManager,
                 parent: QObject | None = None) -> None:
        super().__init__(library, tasks, parent)
        # Reading attached files' text for search: the running round, and whether files
        # were attached meanwhile (then another round follows).
        self._texts_job: Job | None = None
        self._texts_again = False
        self._texts_problems: list[str] = []
        self._upload_job: Job | None = None
        self._upload_again = False

    def attach_files(self, paper_id: int, paths: Sequence[str],
                     on_done: OnDone | None = None) -> None:
        """Attach PDF files to a paper, copied into the library's folder, as one undo
        step; a file that is not a PDF (or is attached already) is a message and the
        others are attached. Their text is then read for search."""
        paths = list(paths)
        refused: list[str] = []

        def write() -> Change:
            done, failed = self.library.attach_each([(paper_id, Path(p)) for p in paths])
            if failed and len(paths) == 1:
                raise failed[0][1]
            refused.extend(error_text(exc) for _n, exc in failed)
            return combined(tr("Attach {n} files").format(n=len(done)), done) if done \
                else Change("", frozenset())

        def landed(change: Change) -> None:
            for line in refused:
                self.failed.emit(line)
            self.read_file_texts()
            self.upload_files()
            if on_done is not None:
                on_done(change)

        self.perform(write, 1, landed)

    def detach_files(self, ids: Sequence[int], on_done: OnDone | None = None) -> None:
        """Take the attached files off papers (the files stay on the disk); one undo
        step."""
        ids = list(ids)

        def write() -> Change:
            attached = self.library.attachments_of(ids).values()
            return self.library.detach_files([a.id for files in attached for a in files])

        self.perform(write, len(ids), on_done)

    def download_pdfs(self, ids: Sequence[int], on_progress: Callable[[int, int], None],
                      on_done: Callable[[Downloads], None],
                      settings: HttpSettings | None = None) -> Job:
        """Download the PDF each paper names in a worker (`metadata.attaching`), then
        attach what came as one write and one undo step, and read its text for search;
        `on_done` gets the outcome in the GUI thread. Cancelled through the returned Job
        while it downloads, it attaches nothing (and keeps no file). `settings` as for
        `add_identifiers`."""
        wanted = list(ids)
        http = settings if settings is not None else HttpSettings()
        job: Job | None = None

        def fetch(running: Job) -> list[attaching.Fetched]:
            with make_client(http) as client:
                return attaching.download_all(self.library, wanted, client,
                                              running.progress, running.cancelled)

        def fetched(result: object) -> None:
            assert isinstance(result, list) and job is not None
            got = tuple(result)
            if job.cancelled():
                attaching.discard(got)
                on_done(Downloads(len(wanted), cancelled=True))
                return
            if not any(item.path is not None for item in got):
                on_done(Downloads(len(wanted), got))
                return
            problems: list[str] = []

            def write() -> Change:
                change, refused = attaching.attach_fetched(self.library, got)
                problems.extend(refused)
                return change

            def landed(_change: Change) -> None:
                self.read_file_texts()
                self.upload_files()
                on_done(Downloads(len(wanted), got, tuple(problems)))

            self.perform(write, len(wanted), landed, on_failed=lambda: on_done(
                Downloads(len(wanted), got, unwritten=True)))

        def failed(exc: BaseException) -> None:
            on_done(Downloads(len(wanted), error=error_text(exc)))
            self.report(exc)

        job = self.tasks.run(fetch, fetched, failed, on_progress)
        return job

    def read_file_texts(self) -> None:
        """Read the text of the attached files not read yet, a few at a time in a worker
        (pypdf, outside any transaction), each few stored for search by a short write
        that is no undo step; `textsRead` then gives the problems met (damaged files).
        Asked while a round runs, another round follows it."""
        if self._texts_job is not None:
            self._texts_again = True
            return

        def read(job: Job) -> tuple[dict[int, str], list[str]]:
            return attaching.read_texts(
                self.library.pending_texts(attaching.TEXTS_AT_ONCE), job.cancelled)

        def again() -> None:
            self._texts_job = None
            self._texts_again = False
            self.read_file_texts()

        def got(result: object) -> None:
            assert isinstance(result, tuple)
            texts: dict[int, str] = result[0]
            self._texts_problems += result[1]
            if not texts or job.cancelled():
                if self._texts_again and not job.cancelled():
                    again()
                    return
                self._texts_job = None
                problems, self._texts_problems = self._texts_problems, []
                self.textsRead.emit(problems)
                return

            def stored(change: Change) -> None:
                self.announce(ChangeEvent(change))
                again()  # the next few

            def give_up() -> None:
                self._texts_job = None

            self._submit(lambda: self._run(lambda: self.library.set_file_texts(texts),
                                           len(texts), stored, give_up))

        def failed(exc: BaseException) -> None:
            self._texts_job = None
            self.report(exc)

        job = self._texts_job = self.tasks.run(read, got, failed)

    def stop_reading_texts(self) -> None:
        """Stop reading files' text (what is read stays; the rest at the next start),
        and sending files to a shared library after the one being sent (the rest with
        `papershelf upload-files`, or the next attach)."""
        if self._texts_job is not None:
            self._texts_job.cancel()
        if self._upload_job is not None:
            self._upload_job.cancel()

    def upload_files(self) -> None:
        """On a shared library, send the contents of the attached files on this computer
        that it lacks (once each) in a worker beside the write queue (each is one insert
        of its own, and a big file must not hold up the edits), with `uploadProgress`;
        `filesUploaded` says what came of it. Asked while a round runs, another follows."""
        if not self.library.shared:
            return
        if self._upload_job is not None:
            self._upload_again = True
            return

        def ended(sent: int, problems: list[str]) -> None:
            self._upload_job = None
            if self._upload_again:
                self._upload_again = False
                self.upload_files()
            self.filesUploaded.emit((sent, problems))

        def done(result: object) -> None:
            assert isinstance(result, tuple)
            ended(result[0], result[1])

        def failed(exc: BaseException) -> None:
            ended(0, [error_text(exc)])

        self._upload_job = self.tasks.run(
            lambda job: self.library.upload_files(job.progress, job.cancelled), done,
            failed, self.uploadProgress.emit)
