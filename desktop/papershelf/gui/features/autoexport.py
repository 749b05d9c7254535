"""The window's auto-exports: refreshed in the background after changes, their state in
the status bar, and File › Auto-Exports… to list, add and remove them.

`AutoExporter` waits for a quiet moment after each change (`DELAY_MS`: a burst of
stars is one refresh), then runs core.autoexport.refresh in a worker with a cache kept
between runs, so a change of papers no file holds costs a look at the change log. One
refresh runs at a time; a change meanwhile asks for one more after it.
`AutoExportFeature` wires it into the window. An auto-export of a LaTeX document's
citations (`aux:PATH`) also has its .aux files watched: LaTeX rewriting one is a change
too.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papershelf import lazy
from papershelf.errors import LibraryError, UserError
from papershelf.gui.features.retractions import warn_retracted
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFileSystemWatcher,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QObject,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
)
from papershelf.gui.shell import Feature, Handler
from papershelf.gui.workers import TaskManager

if TYPE_CHECKING:
    from papershelf.core import autoexport, autoexport_aux, transfer
    from papershelf.core.library import Library
else:
    autoexport = lazy.module("papershelf.core.autoexport")
    autoexport_aux = lazy.module("papershelf.core.autoexport_aux")
    transfer = lazy.module("papershelf.core.transfer")

tr = Translator("AutoExport")

DELAY_MS = 1500  # quiet time after a change before the files are refreshed


class AutoExporter(QObject):
    """Keeps a library's auto-exports current from the window; `state` is "none" (no
    auto-exports), "ok", "writing" or "failed", and `text` says it for the status bar."""

    stateChanged = Signal(str, str)  # state, text ('' for none)
    # A file was written holding retracted papers: a line for each not named before.
    retractedWritten = Signal(object)  # list[str]

    def __init__(self, library: Library, tasks: TaskManager,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.tasks = tasks
        self._cache = autoexport.Cache()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self._start)
        self._running = False
        self._again = False
        self._stopped = False
        self._warned: set[str] = set()  # (each retracted paper is named once)
        self.state, self.text = "none", ""
        self.outcomes: list[autoexport.Outcome] = []
        # The .aux files (and folders of those not written yet) of aux: auto-exports.
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._source_changed)
        self.watcher.directoryChanged.connect(self.notify_changed)

    @property
    def delay_ms(self) -> int:
        """The quiet time after a change before the refresh, in milliseconds."""
        return self._timer.interval()

    @delay_ms.setter
    def delay_ms(self, delay: int) -> None:
        self._timer.setInterval(delay)

    @property
    def pending(self) -> bool:
        """Whether a change waits for its quiet moment."""
        return self._timer.isActive()

    def notify_changed(self, *_event: object) -> None:
        """The library changed: refresh once it has been quiet for `DELAY_MS`."""
        if not self._stopped:
            self._timer.start()

    def refresh_now(self) -> None:
        """Refresh at once (a new auto-export, a change the user waits on)."""
        self._timer.stop()
        self._start()

    def finish(self) -> None:
        """At closing, once the window's tasks are done (its last writes landed, maybe
        unannounced): one last refresh, here (cheap when nothing changed), and no other."""
        self._timer.stop()
        self._stopped = True
        with contextlib.suppress(LibraryError, UserError):  # (the library went away)
            autoexport.refresh(self.library, self._cache)

    def _start(self) -> None:
        if self._running:
            self._again = True
            return
        self._running = True
        if self.state != "none":
            self._set("writing", tr("Auto-export: writing…"))
        library, cache = self.library, self._cache

        def refresh(_job: object) -> tuple[list[autoexport.Outcome], list[str]]:
            outcomes = autoexport.refresh(library, cache)
            return outcomes, _watched(outcomes)

        self.tasks.run(refresh, self._refreshed, self._failed)

    def _refreshed(self, result: tuple[list[autoexport.Outcome], list[str]]) -> None:
        outcomes, watched = result
        self._watch(watched)
        self._done(outcomes)

    def _done(self, outcomes: list[autoexport.Outcome]) -> None:
        self.outcomes = outcomes
        retracted = [line for o in outcomes for line in o.retracted if line not in self._warned]
        if retracted:
            self._warned.update(retracted)
            self.retractedWritten.emit(list(dict.fromkeys(retracted)))
        failed = [o.export for o in outcomes if o.export.state == "failed"]
        noted = [o.export for o in outcomes if o.export.message]
        if not outcomes:
            self._set("none", "")
        elif failed:
            self._set("failed", tr("Auto-export failed: {reason}").format(
                reason=note_text(failed[0].message)))
        elif noted:  # (a document not compiled yet, cited keys the library lacks)
            self._set("ok", tr("Auto-export: {note}").format(
                note=note_text(noted[0].message)))
        else:
            self._set("ok", tr("Auto-exports up to date"))
        self._ended()

    def _watch(self, paths: list[str]) -> None:
        """Watch exactly `paths` (a path already watched is added again if LaTeX
        replaced its file: the watcher lost it)."""
        wanted = set(paths)
        gone = [p for p in (*self.watcher.files(), *self.watcher.directories())
                if p not in wanted]
        if gone:
            self.watcher.removePaths(gone)
        new = [p for p in paths if p not in self.watcher.files()
               and p not in self.watcher.directories()]
        if new:
            self.watcher.addPaths(new)

    def _source_changed(self, path: str) -> None:
        """A watched .aux changed: LaTeX writes a new file and renames it over the
        old one, so the path is watched again (on the new file: the watcher may still
        hold the old one, kept alive by a reader), and the files are refreshed."""
        if path in self.watcher.files():
            self.watcher.removePath(path)
        if Path(path).exists():
            self.watcher.addPath(path)
        self.notify_changed()

    def _failed(self, exc: BaseException) -> None:
        self._cache = autoexport.Cache()  # (start afresh next time)
        self._set("failed", tr("Auto-export failed: {reason}").format(reason=error_text(exc)))
        self._ended()

    def _ended(self) -> None:
        self._running = False
        if self._again and not self._stopped:
            self._again = False
            self._start()

    def _set(self, state: str, text: str) -> None:
        self.state, self.text = state, text
        self.stateChanged.emit(state, text)


class AutoExportFeature(Feature):
    """The window's auto-exporter (`exporter`, once the library is open): refreshed after
    each change the window announces (its own and others' on a shared library), its
    state in a status-bar label, and File › Auto-Exports…; a first refresh catches up
    on changes made elsewhere."""

    exporter: AutoExporter  # (made by `attach`)

    def handlers(self) -> dict[str, Handler]:
        return {"auto_exports": lambda: AutoExportsDialog(self.exporter, self.shell).open()}

    def attach(self) -> None:
        shell = self.shell
        exporter = self.exporter = AutoExporter(shell.library, shell.tasks, shell)
        shell.ops.changed.connect(exporter.notify_changed)
        label = QLabel(shell)
        label.setObjectName("autoExportState")
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.hide()

        def shown(state: str, text: str) -> None:
            label.setText(text)
            label.setToolTip("\n".join(
                f"{o.export.path}: {o.export.message or tr('up to date')}"
                for o in exporter.outcomes))
            label.setVisible(state != "none")

        exporter.stateChanged.connect(shown)
        exporter.retractedWritten.connect(lambda lines: warn_retracted(shell, lines))
        shell.statusBar().insertPermanentWidget(0, label)
        exporter.notify_changed()

    def finish(self) -> None:
        self.exporter.finish()  # the files then hold the last change


# -- File › Auto-Exports… --------------------------------------------------------------


class AutoExportsDialog(QDialog):
    """The member's auto-exports (file, papers, format, state), with Add… and Remove."""

    def __init__(self, exporter: AutoExporter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(tr("Auto-Exports"))
        self.exporter = exporter
        self.library = exporter.library
        self.exports: list[autoexport.AutoExport] = []
        layout = QVBoxLayout(self)
        intro = QLabel(tr("These files are rewritten whenever the papers they hold change "
                          "(only then: a LaTeX build sees no change otherwise)."), self)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels([tr("File"), tr("Papers"), tr("Format"),
                                              tr("State")])
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        self.add_button = QPushButton(tr("&Add…"), self)
        self.remove_button = QPushButton(tr("&Remove"), self)
        self.add_button.clicked.connect(self.ask_add)
        self.remove_button.clicked.connect(self.remove_selected)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row.addWidget(buttons)
        layout.addLayout(row)
        self.resize(760, 320)
        exporter.stateChanged.connect(self._reload)
        self._reload()

    def _reload(self, *_state: object) -> None:
        self.exporter.tasks.run(lambda _job: autoexport.auto_exports(self.library),
                                 self._show)

    def _show(self, exports: list[autoexport.AutoExport]) -> None:
        self.exports = exports
        self.table.setRowCount(len(exports))
        for n, found in enumerate(exports):
            state = _state(found)
            for column, text in enumerate((found.path, _what(found), found.format, state)):
                item = QTableWidgetItem(text)
                if column in (0, 3):  # (a long path or state: whole in its tooltip)
                    item.setToolTip(text)
                self.table.setItem(n, column, item)
        self.remove_button.setEnabled(bool(exports))

    def ask_add(self) -> None:
        """Ask for a file, then which papers and how."""
        path, _filter = QFileDialog.getSaveFileName(
            self, tr("Auto-Export To"), str(Path.home() / "references.bib"),
            tr("BibTeX (*.bib);;CSL-JSON (*.json);;RIS (*.ris)"))
        if not path:
            return
        chosen = _ChoiceDialog(self.library, path, self)
        if chosen.exec() != QDialog.DialogCode.Accepted:
            return
        what = chosen.what()
        if what == _CITED:
            aux, _filter = QFileDialog.getOpenFileName(
                self, tr("Papers Cited in a LaTeX Document"), str(Path(path).parent),
                tr("LaTeX auxiliary files (*.aux *.bcf)"))
            if not aux:
                return
            what = f"aux:{aux}"
        self.add_export(path, what, chosen.format())

    def add_export(self, path: str, what: str = "all", format: str = "bibtex") -> None:
        """Add an auto-export (written at once, in the background; a document's cited
        keys the library lacks, or a document not compiled yet, are its state)."""
        library = self.library

        def done(_outcome: object) -> None:
            self.exporter.refresh_now()

        def failed(exc: BaseException) -> None:
            QMessageBox.warning(self, tr("Auto-Export"), error_text(exc))

        self.exporter.tasks.run(lambda _job: autoexport.add(
            library, path, what, format, allow_missing=True), done, failed)

    def remove_selected(self) -> None:
        """Stop keeping the selected files current (the files stay)."""
        rows = sorted({index.row() for index in self.table.selectedIndexes()})
        paths = [self.exports[n].path for n in rows if n < len(self.exports)]
        library = self.library

        def remove(_job: Any) -> None:
            for path in paths:
                autoexport.remove(library, path)

        self.exporter.tasks.run(remove, lambda _none: self.exporter.refresh_now())


class _ChoiceDialog(QDialog):
    """Which papers an auto-export holds and its format."""

    def __init__(self, library: Library, path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Auto-Export"))
        form = QFormLayout(self)
        self.papers = QComboBox(self)
        self._whats: list[str] = ["all", "starred"]
        self.papers.addItems([tr("Every paper"), tr("Starred papers")])
        for tag in library.tag_names():
            self._whats.append(f"tag:{tag}")
            self.papers.addItem(tr("Tag: {name}").format(name=tag))
        for search in library.saved_searches():
            self._whats.append(f"saved:{search.name}")
            self.papers.addItem(tr("Saved search: {name}").format(name=search.name))
        self._whats.append(_CITED)  # (the .aux is asked for next)
        self.papers.addItem(tr("Papers cited in a LaTeX document (.aux)…"))
        form.addRow(tr("Papers:"), self.papers)
        self.formats = QComboBox(self)
        self.formats.addItems(["BibTeX", "BibLaTeX", "CSL-JSON", "RIS"])
        self.formats.setCurrentIndex(autoexport.FORMATS.index(transfer.export_format_for_path(path)))
        form.addRow(tr("Format:"), self.formats)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def what(self) -> str:
        return self._whats[self.papers.currentIndex()]

    def format(self) -> str:
        return autoexport.FORMATS[self.formats.currentIndex()]


_CITED = "aux:"  # the choice of a LaTeX document's citations, before its .aux is chosen


def _watched(outcomes: list[autoexport.Outcome]) -> list[str]:
    """The paths to watch for the aux: auto-exports (read in the worker)."""
    paths: list[str] = []
    for outcome in outcomes:
        if autoexport_aux.is_aux(outcome.export.what):
            paths += [p for p in autoexport_aux.watched(outcome.export.what)
                      if p not in paths]
    return paths


def _state(found: autoexport.AutoExport) -> str:
    """An auto-export's state for the dialog's table."""
    note = note_text(found.message)
    if found.state == "new":
        return tr("not written yet")
    if found.state == "ok":
        return tr("up to date; {note}").format(note=note) if note else tr("up to date")
    if found.state == "waiting":
        return tr("waiting: {reason}").format(reason=note)
    return tr("failed: {reason}").format(reason=note)


# The notes the core keeps with an auto-export (core.autoexport_aux), in English as the
# library stores them: read back here to be said in the interface's language.
_MISSING = re.compile(r"(\d+) cited keys? not in the library: (.*?)(?: and (\d+) more)?",
                      re.DOTALL)
_NOT_COMPILED = re.compile(r"(.+): not there yet \(run LaTeX on the document: it writes "
                           r"the \.aux\)", re.DOTALL)


def note_text(message: str) -> str:
    """An auto-export's note or reason in the interface's language (a note the core
    does not make is shown as it is: a system's error message, say)."""
    if match := _MISSING.fullmatch(message):
        n = int(match[1])
        template = "%n cited keys not in the library: {keys}"
        translated = tr("%n cited keys not in the library: {keys}", "", n)
        if translated == template.replace("%n", str(n)):  # (no catalogue: the core's
            return message                                # English, in the singular too)
        keys = match[2]
        if match[3]:
            keys = tr("{keys} and {n} more").format(keys=keys, n=match[3])
        return translated.format(keys=keys)
    if match := _NOT_COMPILED.fullmatch(message):
        return tr("{path}: not there yet (run LaTeX on the document: it writes the "
                  ".aux)").format(path=match[1])
    return message


def _what(found: autoexport.AutoExport) -> str:
    kind, _colon, name = found.what.partition(":")
    if kind == autoexport_aux.KIND:
        return tr("Cited in {document}").format(document=name)
    if kind == "tag":
        return tr("Tag: {name}").format(name=name)
    if kind == "saved":
        return tr("Saved search: {name}").format(name=name)
    return tr("Starred papers") if kind == "starred" else tr("Every paper")

