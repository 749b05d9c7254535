"""The window as its features see it (calibre's `InterfaceAction` over the `gui`).

`Shell` is the small interface a feature (gui.features) may use of the main window:
the library, its operations and tasks, the settings, the actions, the table and its
model, the detail pane, the sidebar, the search field, the status bar with its progress
bar and Cancel button, and `show_error`. `MainWindow` is a Shell; no feature imports it.

A `Feature` declares the actions it handles by name (`handlers`), connects itself to
the library once it is open (`attach`), and says what it does when the window closes
(`close`, then `finish` once the window's writes have landed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from papershelf.gui.i18n import number
from papershelf.gui.qt import (
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QObject,
    QProgressBar,
    QPushButton,
    Qt,
    QTabWidget,
    Signal,
    Translator,
)

if TYPE_CHECKING:
    from pathlib import Path

    from papershelf.core.library import Library
    from papershelf.core.shapes import View
    from papershelf.gui.actions import Actions
    from papershelf.gui.add_dialog import AddPanel, IdentifierAdder
    from papershelf.gui.detail import DetailPane
    from papershelf.gui.operations import Operations
    from papershelf.gui.paper_model import PaperTableModel, PaperTableView
    from papershelf.gui.search_field import SearchField
    from papershelf.gui.settings import Settings
    from papershelf.gui.sidebar import Sidebar
    from papershelf.gui.workers import TaskManager

tr = Translator("MainWindow")  # (the strings were the window's: their translations stay)

Handler = Callable[[], object]


def papers(n: int) -> str:
    """'1 paper', '2 papers' (in the interface's language)."""
    return tr("1 paper") if n == 1 else tr("{n} papers").format(n=number(n))


class Shell(QMainWindow):
    """What a feature may use of the main window (which sets these up)."""

    importFinished = Signal(object)  # ImportOutcome
    downloadFinished = Signal(object)  # Downloads
    exportFinished = Signal(str, int)  # path, number of papers

    library: Library
    ops: Operations  # (once the library is open: `attached`)
    tasks: TaskManager
    settings: Settings
    actions: Actions  # by name; calling it still lists the widget's actions, as in Qt
    table: PaperTableView
    model: PaperTableModel
    detail: DetailPane
    sidebar: Sidebar
    search: SearchField
    add_panel: AddPanel  # the message area above the table
    tabs: QTabWidget  # the library's tab first, then the reader tabs (features.reading)
    adder: IdentifierAdder  # adding by identifier, its messages in `add_panel`
    count_label: QLabel
    inbox_menu: QMenu  # the menu bar's Inbox (features.feeds adds its Rank By)
    progress: QProgressBar
    cancel_button: QPushButton
    index_progress: QProgressBar
    initial_view: View  # the remembered list, shown first
    attached = False  # the library is open (not only its first page)
    closing = False  # the window is closing: no more dialogs

    def feature_list(self) -> list[Feature]:
        """The window's features, in the order they were made."""
        return [child for child in self.children() if isinstance(child, Feature)]

    def selected_count(self) -> int:
        """How many papers are selected (no row data needed)."""
        model = self.table.selectionModel()
        if model is None:
            return 0
        # PySide6's stubs leave out QItemSelection's sequence methods.
        return sum(r.height() for r in model.selection())  # type: ignore[attr-defined]

    def update_actions(self) -> None:
        """Enable each action by the selection, the rows and what runs."""
        raise NotImplementedError

    def open_reader(self, paper_id: int, path: Path, title: str) -> None:
        """Show a paper's PDF (on this computer) in a reader tab (features.reading)."""
        raise NotImplementedError

    def open_library(self, target: str) -> None:
        """Close, so that the application opens another library (a path or a URL)."""
        raise NotImplementedError

    def settings_changed(self) -> None:
        """The preferences were applied: each feature follows them."""
        for feature in self.feature_list():
            feature.settings_changed()

    def show_error(self, message: str) -> None:
        """A problem the user can act on (locked library, invalid input)."""
        self.statusBar().showMessage(message, 8000)
        box = QMessageBox(QMessageBox.Icon.Warning, tr("Papershelf"), message,
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- the status bar's progress and Cancel ------------------------------------------

    def show_cancellable(self, tip: str) -> None:
        """The status bar's progress bar and Cancel button, for a job that can stop."""
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setToolTip(tip)
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()

    def show_progress(self, done: int, total: int) -> None:
        """A cancellable job's progress."""
        # Records or, for a big file, bytes: in thousandths (a bar's range is 32-bit).
        self.progress.setRange(0, 1000)
        self.progress.setValue(done * 1000 // max(total, 1))

    def job_running(self) -> bool:
        """Whether a cancellable job (an import, a download) runs."""
        return any(feature.running_job for feature in self.feature_list())

    def job_ended(self) -> None:
        """A cancellable job ended: the progress and Cancel go once none runs."""
        if not self.job_running():
            self.progress.hide()
            self.cancel_button.hide()
            self.statusBar().clearMessage()

    def cancel_running(self) -> None:
        """The Cancel button: stop the first feature's running job."""
        for feature in self.feature_list():
            if feature.cancel():
                return


class Feature(QObject):
    """One idea of the window (triage, importing, …) over the `Shell`."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.shell = shell

    def handlers(self) -> dict[str, Handler]:
        """The actions this feature handles, by name (actions.py), and their handlers."""
        return {}

    def attach(self) -> None:
        """The library is open (`shell.ops` there): connect to the widgets and writes."""

    def update_actions(self) -> None:
        """Enable this feature's actions beyond what `Needs` says (after the window's)."""

    def selection_changed(self) -> None:
        """The selection changed (or the rows did)."""

    def settings_changed(self) -> None:
        """The preferences were applied."""

    @property
    def running_job(self) -> bool:
        """Whether a job of this feature shows the status bar's progress and Cancel."""
        return False

    def cancel(self) -> bool:
        """The Cancel button: stop this feature's job; whether one ran."""
        return False

    def close(self) -> None:
        """The window is closing: stop what runs (the writes asked for still land)."""

    def finish(self) -> None:
        """The window's writes have landed, its tasks are done: the last words."""
