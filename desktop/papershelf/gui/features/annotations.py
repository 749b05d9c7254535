"""Annotations going out (issue 43): File › Export › Annotations… writes the annotations
of the selected papers (none selected: of the list shown) as one Markdown document, the
command line's `annotations export --format markdown`, with page-exact citations in the
form the preferences choose for citations (Pandoc's, else LaTeX's); File › Export › PDF
with Annotations… writes a copy of the current paper's PDF with its annotations in (the
library's own file is never changed).

Both are read and written in a worker, the file whole or not at all, the status bar's
progress bar running meanwhile; a failure is one line naming the file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papershelf import lazy
from papershelf.gui import settings as S
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import QFileDialog, Translator
from papershelf.gui.shell import Feature, Handler, Shell, papers
from papershelf.metadata.errors import ServiceError

if TYPE_CHECKING:
    from papershelf.core import transfer
    from papershelf.reading import marking
else:
    transfer = lazy.module("papershelf.core.transfer")
    marking = lazy.module("papershelf.reading.marking")

tr = Translator("MainWindow")


def markdown_form(cite_form: str) -> str:
    """The Markdown export's citation form for the preference's (core.citing.FORMS):
    Pandoc's `[@key, p. 3]` for Pandoc, LaTeX's `\\cite[p.~3]{key}` for the others."""
    return "pandoc" if cite_form == "pandoc" else "latex"


class AnnotationsFeature(Feature):
    """Exports of annotations: a Markdown document, a PDF with them."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self._busy = False
        self.last_export: tuple[str, int] | None = None  # the file, and papers or marks

    def handlers(self) -> dict[str, Handler]:
        return {"export_annotations": self.export_markdown,
                "export_annotated_pdf": self.export_pdf}

    @property
    def running_job(self) -> bool:
        return self._busy

    def export_markdown(self) -> None:
        """The selected papers' annotations (none selected: the list's) as Markdown."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if ids:
            self._ask_markdown(ids)
            return
        view = shell.model.view
        shell.ops.when_settled(lambda: shell.tasks.run(
            lambda _job: shell.library.view_ids(view), self._ask_markdown, shell.ops.report))

    def _ask_markdown(self, ids: list[int]) -> None:
        shell = self.shell
        if shell.closing:
            return
        if not ids:
            shell.statusBar().showMessage(tr("Nothing to export"), 4000)
            return
        path = self._target("annotations.md", tr("Export Annotations"),
                            tr("Markdown (*.md)"), ".md")
        if not path:
            return
        form = markdown_form(str(shell.settings.get(S.CITE_FORM)))
        library = shell.library

        def write(_job: object) -> bool:
            text = marking.markdown(library, ids, form)
            if text:
                transfer.write_atomically(Path(path), text)
            return bool(text)

        def done(written: bool) -> None:
            if not written:
                shell.statusBar().showMessage(tr(
                    "None of {papers} has annotations: nothing was written").format(
                    papers=papers(len(ids))), 8000)
                return
            self.last_export = (path, len(ids))
            shell.statusBar().showMessage(tr(
                "Exported the annotations of {papers} to {path}").format(
                papers=papers(len(ids)), path=path), 8000)

        self._run(tr("Exporting the annotations of {papers}…").format(
            papers=papers(len(ids))), write, done)

    def export_pdf(self) -> None:
        """A copy of the current paper's PDF (the reader tab's, when one is shown) with
        its annotations written in."""
        shell = self.shell
        reading = shell.tabs.currentIndex() > 0
        pid = getattr(shell.tabs.currentWidget(), "paper_id", None) if reading \
            else shell.table.focused_id()
        detail = shell.library.paper(pid) if pid is not None else None
        if detail is None:
            return
        key = detail.record.key or ""
        path = self._target(f"{key or 'paper'}-annotated.pdf",
                            tr("Export PDF with Annotations"), tr("PDF (*.pdf)"), ".pdf")
        if not path:
            return
        library = shell.library

        def done(count: int) -> None:
            self.last_export = (path, count)
            shell.statusBar().showMessage(tr(
                "Wrote {path}: {key}'s PDF with %n annotations", "", count).format(
                path=path, key=key), 8000)

        self._run(tr("Writing {key}'s PDF with its annotations…").format(key=key),
                  lambda _job: marking.export_pdf(library, detail.id, key, Path(path)), done)

    # -- the shared steps -----------------------------------------------------------------

    def _target(self, name: str, title: str, kind: str, suffix: str) -> str:
        """The file the user picks to write ('' if none), with `suffix` if it has none."""
        shell = self.shell
        folder = shell.settings.get(S.LAST_FOLDER) or str(Path.home())
        path, _chosen = QFileDialog.getSaveFileName(
            shell, title, str(Path(folder) / name), ";;".join([kind, tr("All files (*)")]))
        if not path:
            return ""
        if not Path(path).suffix:
            path += suffix
        shell.settings.set(S.LAST_FOLDER, str(Path(path).parent))
        return path

    def _run(self, saying: str, work: Callable[[object], Any],
             done: Callable[[Any], None]) -> None:
        """Run `work` in a worker after the writes asked for before, the progress bar
        running; `done` with its result, or its failure said in one line."""
        shell = self.shell
        self._busy = True
        shell.progress.setRange(0, 0)
        shell.progress.show()
        shell.statusBar().showMessage(saying)

        def ended() -> None:
            self._busy = False
            shell.job_ended()

        def finished(result: Any) -> None:
            ended()
            done(result)

        def failed(exc: BaseException) -> None:
            ended()
            if isinstance(exc, (OSError, ValueError, ServiceError)):  # (PdfError is one)
                shell.show_error(error_text(exc))
            else:
                shell.ops.report(exc)  # (the user's, the library's: a line; a bug raised)

        shell.ops.when_settled(lambda: shell.tasks.run(work, finished, failed))
