"""The operations that import and export: files or BibTeX source imported in a worker as
one undo step, and BibTeX exported atomically after the writes asked for before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from papershelf.core import transfer
from papershelf.core.transfer import Export, ExportOptions
from papershelf.gui.outcomes import ImportOutcome, import_name
from papershelf.gui.workers import Job
from papershelf.gui.write_queue import ChangeCommand, ChangeEvent, WriteQueue


class TransferOperations(WriteQueue):
    """Imports and exports (a part of gui.operations' Operations)."""

    def import_files(self, paths: Sequence[str], on_progress: Callable[[int, int], None],
                     on_done: Callable[[ImportOutcome], None],
                     on_error: Callable[[BaseException], None]) -> Job:
        """Import files in a worker, one transaction per file; cancellable through the
        returned Job. The import is one undo step (its papers go, the papers it
        completed are put back); an undo asked meanwhile waits for it."""
        paths = list(paths)
        source = import_name(paths)

        def task(job: Job) -> ImportOutcome:
            return ImportOutcome.collect(self.library, paths, source, job.progress,
                                         job.cancelled)

        return self._import(task, on_progress, on_done, on_error)

    def import_bibtex(self, text: str, source: str,
                      on_progress: Callable[[int, int], None],
                      on_done: Callable[[ImportOutcome], None],
                      on_error: Callable[[BaseException], None]) -> Job:
        """Import BibTeX source that is no file (a paste, a drop of text) named `source`,
        as `import_files` imports a file: in a worker, cancellable, one undo step."""
        def task(job: Job) -> ImportOutcome:
            return ImportOutcome.collect_bibtex(self.library, text, source, job.progress,
                                                job.cancelled)

        return self._import(task, on_progress, on_done, on_error)

    def _import(self, task: Callable[[Job], ImportOutcome],
                on_progress: Callable[[int, int], None],
                on_done: Callable[[ImportOutcome], None],
                on_error: Callable[[BaseException], None]) -> Job:
        def done(outcome: object) -> None:
            assert isinstance(outcome, ImportOutcome)
            try:
                if outcome.report.added_ids or outcome.report.merged_ids:
                    change = self.library.import_change(outcome.report)
                    self.undo_stack.push(ChangeCommand(self, change))
                    self.announce(ChangeEvent(change))
                on_done(outcome)
            finally:
                self._landed()

        def failed(exc: BaseException) -> None:
            try:
                on_error(exc)
            finally:
                self._landed()

        self._in_flight += 1  # (started at once: its Job is the caller's to cancel)
        return self.tasks.run(task, done, failed, on_progress, write=True)

    def export_papers(self, ids: Sequence[int], path: str, options: ExportOptions,
                      confirm: Callable[[Export], bool], on_done: Callable[[int], None]
                      ) -> None:
        """Write BibTeX for papers to a file, atomically (all or nothing), in workers.

        One reading of the papers, after the writes asked for before, gives the text and
        its incomplete entries; `confirm` sees them in the GUI thread and may stop the
        export before anything is written.
        """
        ids = list(ids)

        def built(export: object) -> None:
            assert isinstance(export, Export)
            if confirm(export):
                self.tasks.run(lambda _job: transfer.write_atomically(Path(path), export.text),
                               lambda _none: on_done(len(ids)), self.report_export)

        self.when_settled(lambda: self.tasks.run(
            lambda _job: transfer.export_papers(self.library, ids, options), built,
            self.report_export))

    def report_export(self, exc: BaseException) -> None:
        """An export's error: a record BibTeX cannot hold (ValueError) is a message too."""
        if isinstance(exc, ValueError):
            self.failed.emit(str(exc))
        else:
            self.report(exc)
