"""Papers going out: File › Export (the selection, the list, the starred papers, those
a LaTeX document cites) and the clipboard's BibTeX, citation and bibliography."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.shapes import View
from papershelf.gui import settings as S
from papershelf.gui.features.retractions import warn_retracted
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import QApplication, QFileDialog, Translator
from papershelf.gui.shell import Feature, Handler, Shell, papers

if TYPE_CHECKING:
    from papershelf.core import cited, citing, transfer
    from papershelf.core.transfer import Export, ExportOptions
    from papershelf.gui import citations, dialogs, operations, preferences
else:
    cited = lazy.module("papershelf.core.cited")
    citing = lazy.module("papershelf.core.citing")
    transfer = lazy.module("papershelf.core.transfer")
    citations = lazy.module("papershelf.gui.citations")
    dialogs = lazy.module("papershelf.gui.dialogs")
    operations = lazy.module("papershelf.gui.operations")
    preferences = lazy.module("papershelf.gui.preferences")

tr = Translator("MainWindow")


class ExportingFeature(Feature):
    """Exports to a file, and copies to the clipboard."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.last_export: tuple[str, int] | None = None

    def handlers(self) -> dict[str, Handler]:
        return {
            "export_selection": lambda: self.export("selection"),
            "export_view": lambda: self.export("view"),
            "export_starred": lambda: self.export("starred"),
            "export_cited": self.export_cited,
            "copy_bibtex": self.copy_bibtex,
            "copy_citation": self.copy_citation,
            "copy_bibliography": lambda: citations.copy_bibliography(self.shell),
        }

    def export_options(self) -> ExportOptions:
        """What Edit > Preferences says an export includes, and in which flavour."""
        return preferences.load_export_options(self.shell.settings)

    def export(self, what: str) -> None:
        """Export BibTeX of 'selection', 'view' or 'starred': the list's and the starred
        papers' ids are asked of the core in a worker (after the writes asked for before),
        then a file is picked, incomplete entries checked, and the file written."""
        shell = self.shell
        if what == "selection":
            self._export(what, shell.table.selected_ids())
            return
        view = shell.model.view
        if what == "starred":
            view = View(filter="starred", sort=view.sort, descending=view.descending)
        shell.ops.when_settled(lambda: shell.tasks.run(
            lambda _job: shell.library.view_ids(view),
            lambda ids: self._export(what, ids), shell.ops.report))

    def export_cited(self) -> None:
        """File › Export › Papers Cited in a LaTeX Document…: the papers a document's
        .aux (or .bcf) cites, in citing order; the keys the library lacks are named
        (the others are exported)."""
        shell = self.shell
        folder = shell.settings.get(S.LAST_FOLDER) or str(Path.home())
        aux, _filter = QFileDialog.getOpenFileName(
            shell, tr("Papers Cited in a LaTeX Document"), folder,
            tr("LaTeX's citations (*.aux *.bcf);;All files (*)"))
        if not aux:
            return
        shell.settings.set(S.LAST_FOLDER, str(Path(aux).parent))

        def find(_job: object) -> tuple[list[int], list[str]]:
            return cited.cited_papers(shell.library, aux)

        def found(result: tuple[list[int], list[str]]) -> None:
            ids, missing = result
            if missing:
                shell.add_panel.show_message(tr(
                    "{document} cites papers the library does not have: {keys}").format(
                    document=Path(aux).name, keys=", ".join(missing[:12])
                    + (" …" if len(missing) > 12 else "")))
            self._export("cited", ids)

        shell.tasks.run(find, found, shell.ops.report)

    def _export(self, what: str, ids: list[int]) -> None:
        shell = self.shell
        status = shell.statusBar()
        if shell.closing:
            return
        if not ids:
            status.showMessage(tr("Nothing to export"), 4000)
            return
        folder = shell.settings.get(S.LAST_FOLDER) or str(Path.home())
        default = str(Path(folder) / ("starred.bib" if what == "starred" else "papers.bib"))
        kinds = [tr("BibTeX (*.bib)"), tr("RIS: Zotero, Mendeley, EndNote (*.ris)"),
                 tr("CSL-JSON: Zotero, citeproc (*.json)")]
        path, chosen = QFileDialog.getSaveFileName(
            shell, tr("Export Papers"), default, ";;".join([*kinds, tr("All files (*)")]))
        if not path:
            return
        formats = list(transfer.EXPORT_FORMATS)
        if not Path(path).suffix:
            path += transfer.EXPORT_FORMATS[formats[kinds.index(chosen)]
                                            if chosen in kinds else "bibtex"]
        shell.settings.set(S.LAST_FOLDER, str(Path(path).parent))
        status.showMessage(tr("Checking {papers}…").format(papers=papers(len(ids))))

        def confirm(export: Export) -> bool:
            status.clearMessage()
            warn_retracted(shell, export.retracted)
            if export.incomplete_count and not dialogs.confirm_incomplete(
                    shell, export.incomplete_count, len(ids),
                    operations.incomplete_lines(export)):
                return False
            status.showMessage(tr("Exporting {papers}…").format(papers=papers(len(ids))))
            return True

        options = replace(self.export_options(), format=transfer.export_format_for_path(path))
        shell.ops.export_papers(ids, path, options, confirm, lambda n: self._exported(path, n))

    def _exported(self, path: str, count: int) -> None:
        self.last_export = (path, count)
        self.shell.statusBar().showMessage(tr("Exported {papers} to {path}").format(
            papers=papers(count), path=path), 8000)
        self.shell.exportFinished.emit(path, count)

    # -- the clipboard ---------------------------------------------------------------------

    def copy_citation(self) -> None:
        """Ctrl+Shift+K: a citation of the selected papers (\\cite{a,b}, or the form
        chosen in Preferences) on the clipboard, in the table's order."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids:
            return
        rows = shell.library.rows(ids)
        keys = [rows[pid].key for pid in ids if pid in rows]
        text = citing.citation(keys, shell.settings.get(S.CITE_FORM))
        QApplication.clipboard().setText(text)
        shell.statusBar().showMessage(tr("Copied {citation}").format(citation=text), 4000)
        flagged = [pid for pid in ids if pid in rows and rows[pid].notice == "Retraction"]
        if flagged:
            warn_retracted(shell, shell.library.retraction_warnings(flagged))

    def copy_bibtex(self) -> None:
        """Copy the selection's BibTeX to the clipboard (big selections in a worker)."""
        shell = self.shell
        ids = shell.table.selected_ids()
        if not ids:
            return
        options = self.export_options()
        library = shell.library

        def copy(export: Export) -> None:
            QApplication.clipboard().setText(export.text)
            shell.statusBar().showMessage(tr("Copied the BibTeX of {papers}").format(
                papers=papers(len(ids))), 4000)
            warn_retracted(shell, export.retracted)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ValueError):
                shell.show_error(error_text(exc))
            else:
                raise exc

        def read() -> None:  # once the writes asked for before have landed
            if len(ids) <= operations.BULK:
                try:
                    copy(transfer.export_papers(library, ids, options))
                except ValueError as exc:
                    failed(exc)
            else:
                shell.tasks.run(lambda _job: transfer.export_papers(library, ids, options),
                                copy, failed)

        shell.ops.when_settled(read)
