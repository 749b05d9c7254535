"""The main window: sidebar, paper table and detail pane, wired to the features.

The window assembles the widgets, the menus and the toolbar (of the actions declared in
gui.actions) and remembers its layout; what each action does is a feature's
(gui.features, over gui.shell). It never builds SQL and never writes to the library
itself. Each view (the table's model, the sidebar's counts, the detail pane, the
duplicates list) follows the one `Operations.changed` signal and decides itself what it
must fetch again; the window only shows the change in the status bar.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.shapes import View
from papershelf.gui import settings as S
from papershelf.gui import shared_dialog
from papershelf.gui.actions import Actions
from papershelf.gui.add_dialog import AddPanel, IdentifierAdder
from papershelf.gui.detail import DetailPane
from papershelf.gui.features import Features
from papershelf.gui.features.listing import FILTER_ACTIONS
from papershelf.gui.i18n import localized
from papershelf.gui.paper_model import PaperTableModel, PaperTableView
from papershelf.gui.qt import (
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QLabel,
    QLineEdit,
    QMenu,
    QPoint,
    QProgressBar,
    QPushButton,
    QSize,
    QSizePolicy,
    QSplitter,
    Qt,
    QTabBar,
    QTabWidget,
    QTimer,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Translator,
    dpi_size,
    icon,
)
from papershelf.gui.search_field import SearchField
from papershelf.gui.settings import Settings
from papershelf.gui.shell import Handler, Shell
from papershelf.gui.sidebar import Sidebar
from papershelf.gui.workers import TaskManager

if TYPE_CHECKING:
    from pathlib import Path

    from papershelf.core.firstpage import FirstPage
    from papershelf.core.library import Library
    from papershelf.gui import operations
    from papershelf.gui.operations import ChangeEvent
else:
    operations = lazy.module("papershelf.gui.operations")

# What the window and its features need once the library is open, not for its first
# paint: imported by `attach`, on the GUI thread.
_AFTER_FIRST_PAINT = tuple(lazy.module(name) for name in (
    "papershelf.core.backup", "papershelf.core.transfer", "papershelf.gui.dialogs",
    "papershelf.core.autoexport", "papershelf.gui.backups",
    "papershelf.gui.duplicates", "papershelf.core.live", "papershelf.gui.metadata_dialog",
    "papershelf.gui.operations", "papershelf.gui.preferences",
    "papershelf.metadata.identifiers", "papershelf.formats", "papershelf.core.query",
    "papershelf.core.querywords", "papershelf.core.citing", "papershelf.core.cited",
    "papershelf.opener", "papershelf.core.files", "papershelf.core.autoexport_aux",
    "papershelf.core.edits", "papershelf.core.connector", "papershelf.core.receiving",
    "papershelf.gui.citations"))

tr = Translator("MainWindow")

DEFAULT_SIZE = (1280, 800)
DEFAULT_SPLITTER = (180, 720, 380)


def freeze_startup_objects() -> None:
    """Hide the objects alive now (the window, the modules, Qt's wrappers) from the
    cyclic garbage collector, once per process. They live as long as the window; a
    full collection, which any thread's allocations may set off while it holds the
    interpreter lock, then looks only at what was made since: with a worker running
    (adding papers by identifier) the window's longest pause on a loaded machine with
    100,000 papers went from 150-200 ms to about 25 ms."""
    if gc.get_freeze_count() == 0:
        gc.freeze()


class MainWindow(Shell):
    """Papershelf's main window on one library."""

    def __init__(self, library: Library | FirstPage, settings: Settings,
                 parent: QWidget | None = None, *, first_paint: bool = False) -> None:
        """The window on `library`; with `first_paint`, `library` is the FirstPage of a
        library (core.firstpage; a shared one's: core.firstpage_pg): the window shows its
        rows and counts, and works once `attach` hands it the library (opened after the
        first paint)."""
        super().__init__(parent)
        self.library: Library = library  # type: ignore[assignment]  # (until `attach`)
        self.settings = settings
        self.tasks = TaskManager(self)
        self.model = PaperTableModel(library, self.tasks, self)
        self.attached = False
        self.closing = False
        self._close_asked = False  # (closed before `attach`: closes after it)
        self._first_page: FirstPage | None = library if first_paint else None  # type: ignore[assignment]
        # Another library the user chose (a path, or a URL with a password typed for this
        # session only): the application opens it once this window has closed.
        self.open_requested: str | None = None

        self.setObjectName("MainWindow")
        self.setWindowTitle(tr("{name} — Papershelf").format(name=self._library_name()))
        self.setWindowIcon(icon("papershelf"))
        self.setAcceptDrops(True)

        self.table = PaperTableView()
        self.table.setModel(self.model)
        # Rows dragged into an editor: the citation Copy Citation writes (gui.drag).
        self.model.citation_form = lambda: str(self.settings.get(S.CITE_FORM))
        self.sidebar = Sidebar()
        self.detail = DetailPane()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.setChildrenCollapsible(False)
        for n, widget in enumerate((self.sidebar, self.table, self.detail)):
            self.splitter.addWidget(widget)
            self.splitter.setStretchFactor(n, 1 if widget is self.table else 0)
        self.add_panel = AddPanel()  # the message area of adding by identifier
        central = QWidget()
        central_layout = QVBoxLayout(central)
        central_layout.setContentsMargins(0, 0, 0, 0)
        central_layout.addWidget(self.add_panel)
        central_layout.addWidget(self.splitter, 1)
        # The library's tab, then a tab a paper read in the window (features.reading);
        # the tab bar shows once a paper is open.
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(False)
        self.tabs.setTabBarAutoHide(True)
        self.tabs.addTab(central, tr("Library"))
        self.tabs.tabBar().setTabButton(0, QTabBar.ButtonPosition.RightSide, None)
        self.tabs.tabBar().setTabButton(0, QTabBar.ButtonPosition.LeftSide, None)
        self.setCentralWidget(self.tabs)

        self.actions = Actions(self, self.table)
        self._build_menus()
        self._build_toolbar()
        self._build_status_bar()
        self._restore_settings()
        self.features = Features(self)
        self.model.export_options = self.features.exporting.export_options
        self.features.listing.show_counts_and_view()
        # The keys are for the papers: the first S stars the current one (the sidebar,
        # first in the tab order, would take it as a keyboard search for "Starred").
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        if not first_paint:
            self.attach(library)  # type: ignore[arg-type]

    def open_reader(self, paper_id: int, path: Path, title: str) -> None:
        self.features.reading.open(paper_id, path, title)

    def discard_first_page(self) -> None:
        """Close the first page read for the first paint (its library did not open)."""
        if self._first_page is not None:
            self._first_page.close()
            self._first_page = None

    def attach(self, library: Library) -> None:
        """Work on `library`: the operations, the features (live updates first), the
        actions, the view's rows read from it (after a first paint from a FirstPage: the
        same rows, the selection kept), the background work a start resumes."""
        lazy.load(*_AFTER_FIRST_PAINT)
        first_page, self._first_page = self._first_page, None
        self.library = library
        self.ops = operations.Operations(library, self.tasks, self)
        for feature in self.features:  # (live updates from before the first read on)
            feature.attach()
        QTimer.singleShot(0, self, freeze_startup_objects)  # once the window is built
        self.model.follow(self.ops)
        self.sidebar.follow(self.ops)
        self.detail.follow(self.ops)
        self.search.follow(self.ops, self.sidebar)
        self.adder = IdentifierAdder(self.ops, self.add_panel, self.table, self)
        self._connect()
        self.attached = True
        if first_page is not None:
            self.model.use(library)
            self.features.listing.show_counts_and_view(keep_view=True)
            first_page.close()
        else:
            self.features.listing.update_count_label()
        self._selection_changed()
        self.features.importing.index_for_search()  # an interrupted big import left some
        self.ops.read_file_texts()  # files attached before whose text was not read
        if self._close_asked:
            QTimer.singleShot(0, self, self.close)

    # -- construction ----------------------------------------------------------------

    def _library_name(self) -> str:
        return shared_dialog.library_title(self.library)

    def _build_menus(self) -> None:
        a = self.actions
        bar = self.menuBar()
        file_menu = bar.addMenu(tr("&File"))
        file_menu.addAction(a["open_file"])
        file_menu.addAction(a["open_shared"])
        shared_dialog.add_recent_menu(self, file_menu)
        file_menu.addSeparator()
        file_menu.addAction(a["import"])
        file_menu.addAction(a["add_identifiers"])
        file_menu.addAction(a["new_paper"])
        file_menu.addAction(a["follow"])
        file_menu.addAction(a["check_feeds"])
        export_menu = file_menu.addMenu(icon("export"), tr("&Export"))
        self._fill(export_menu, ("export_selection", "export_view", "export_starred",
                                 "export_cited", None, "export_annotations",
                                 "export_annotated_pdf"))
        self.export_menu = export_menu
        file_menu.addSeparator()
        file_menu.addAction(a["auto_exports"])
        file_menu.addAction(a["backups"])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])

        self._fill(bar.addMenu(tr("&Edit")),
                   ("undo", "redo", None, "copy_bibtex", "copy_citation", "copy_bibliography",
                    "paste", None,
                    "select_all", "find", None, "delete", None, "preferences"))
        self._fill(bar.addMenu(tr("&View")), (*FILTER_ACTIONS.values(), None, "save_search",
                                              "sort_best", None, "reset_layout"))
        self._fill(bar.addMenu(tr("&Paper")),
                   ("read_pdf", "open_page", "open_pdf", "close_tab", None, "attach_pdf",
                    "download_pdf", "detach_files", None, "toggle_star", "cycle_read",
                    "mark_unread", "mark_reading", "mark_read", None, "add_tag", "remove_tag", None,
                    "edit_notes", "edit_fields", "edit_bibtex", "edit_key", "regenerate_keys",
                    None, "find_duplicates", "find_metadata", "papers_around", None,
                    "next_paper", "previous_paper", "next_unread"))

        self.inbox_menu = bar.addMenu(tr("&Inbox"))
        self._fill(self.inbox_menu, ("show_inbox", None, "inbox_add", "inbox_star",
                                     "inbox_dismiss", "inbox_keep", None, "follow",
                                     "check_feeds", None))
        help_menu = bar.addMenu(tr("&Help"))
        help_menu.addAction(a["shortcuts"])
        help_menu.addAction(a["about"])

    def _build_toolbar(self) -> None:
        a = self.actions
        bar = QToolBar(tr("Main Toolbar"), self)
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setFloatable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.setIconSize(QSize(18, 18))
        bar.addAction(a["import"])
        bar.addAction(a["add_identifiers"])
        export_button = QToolButton(bar)
        export_button.setMenu(self.export_menu)
        export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        export_button.setIcon(icon("export"))
        export_button.setText(tr("Export"))
        export_button.setToolTip(tr("Export BibTeX, RIS or CSL-JSON: the selection, the "
                                    "list, the starred papers or those a document cites"))
        export_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.addWidget(export_button)
        bar.addSeparator()
        for name in ("toggle_star", "cycle_read", "add_tag"):
            bar.addAction(a[name])
        spacer = QWidget(bar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        self.search = SearchField(bar)
        self.search.setObjectName("search")
        self.search.setPlaceholderText(tr("Search titles, abstracts, notes…"))
        self.search.setToolTip(tr("Full-text search as you type ({keys}); Escape clears")
                               .format(keys=a["find"].shortcut().toString(
                                   a["find"].shortcut().SequenceFormat.NativeText)))
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        # (room for a query of the search language: au:hinton year:2020.. -survey)
        self.search.setMinimumWidth(dpi_size(380, 0).width())
        self.search.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        bar.addWidget(self.search)
        self.addToolBar(bar)
        self.toolbar = bar

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self.count_label = QLabel()
        self.count_label.setObjectName("paperCount")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(dpi_size(200, 0).width())
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.index_progress = QProgressBar()
        self.index_progress.setObjectName("indexProgress")
        self.index_progress.setMaximumWidth(dpi_size(220, 0).width())
        self.index_progress.setFormat(tr("Indexing for search %p%"))
        self.index_progress.setToolTip(tr("Papers of a big import become searchable as "
                                          "the index is built"))
        for widget in (self.progress, self.cancel_button, self.index_progress):
            widget.hide()
            status.addPermanentWidget(widget)
        status.addPermanentWidget(self.count_label)

    def handlers(self) -> dict[str, Handler]:
        """Every action's handler by the action's name: the window's own, and those
        each feature declares (an action has one)."""
        found: dict[str, Handler] = {
            "quit": self.close,
            "undo": self.undo,
            "redo": self.redo,
            "reset_layout": self.reset_layout,
        }
        for feature in self.features:
            for name, handler in feature.handlers().items():
                if name in found:
                    raise ValueError(f"{name} is handled twice (by {type(feature).__name__})")
                found[name] = handler
        return found

    def _connect(self) -> None:
        """Each action to its handler; the window's part of the widgets' and the
        operations' signals."""
        for name, handler in self.handlers().items():
            # Not `connect(handler)`: `triggered` would pass its `checked` flag along.
            self.actions[name].triggered.connect(lambda _checked=False, run=handler: run())

        # What the window shows follows the selection only (the detail pane shows the
        # current paper only when it is the one selected), so one signal is enough.
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.horizontalHeader().sortIndicatorChanged.connect(
            lambda *_: self.update_actions())
        self.model.refreshed.connect(self._model_refreshed)
        self.detail.notice.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self.adder.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.detail.escaped.connect(
            lambda: self.table.setFocus(Qt.FocusReason.ShortcutFocusReason))
        self.ops.changed.connect(self._changed)
        self.ops.failed.connect(self.show_error)
        self.ops.bulkStarted.connect(self._bulk_started)
        self.ops.bulkFinished.connect(self._bulk_finished)
        stack = self.ops.undo_stack
        stack.canUndoChanged.connect(lambda _ok: self.update_actions())
        stack.canRedoChanged.connect(lambda _ok: self.update_actions())
        stack.undoTextChanged.connect(lambda _t: self._update_undo_texts())
        stack.redoTextChanged.connect(lambda _t: self._update_undo_texts())
        self.cancel_button.clicked.connect(self.cancel_running)

    # -- settings ------------------------------------------------------------------------

    def _restore_settings(self) -> None:
        s = self.settings
        if not self.restoreGeometry(s.get(S.GEOMETRY)):
            self.resize(*self._default_size())
        self.restoreState(s.get(S.WINDOW_STATE))
        if not self.splitter.restoreState(s.get(S.SPLITTER)):
            self.splitter.setSizes(self._default_splitter())
        if self.table.horizontalHeader().restoreState(s.get(S.HEADER)):
            self.table.keep_column_widths()  # (the user's, from the last session)
        sort = s.get(S.SORT)
        column = self.model.sort_column(sort)
        if column < 0:
            sort, column = "added", self.model.sort_column("added")
        descending = s.get(S.SORT_DESCENDING)
        where = self.library.location
        self.initial_view = View(filter=s.get(S.for_library(S.FILTER, where)),
                                  tag=s.get(S.for_library(S.TAG, where)) or None,
                                  sort=sort, descending=descending)
        self.table.horizontalHeader().setSortIndicator(
            column, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)

    def _default_size(self) -> tuple[int, int]:
        width, height = DEFAULT_SIZE
        screen = self.screen()
        if screen is not None:
            free = screen.availableGeometry()
            width, height = min(width, free.width()), min(height, free.height())
        return width, height

    def _default_splitter(self) -> list[int]:
        """Sidebar, table and detail pane for the window's width: on a small screen the
        panes give way so that the table (and its Title column) keeps room."""
        width = max(self.width(), 640)
        sidebar = min(max(DEFAULT_SPLITTER[0], self.sidebar.filters_width()),
                      max(width * 14 // 100, self.sidebar.filters_width()))
        detail = min(DEFAULT_SPLITTER[2], width * 30 // 100)
        return [sidebar, max(width - sidebar - detail, 200), detail]

    def save_settings(self) -> None:
        """Remember the window's layout, sort and filter."""
        s = self.settings
        s.set(S.GEOMETRY, self.saveGeometry())
        s.set(S.WINDOW_STATE, self.saveState())
        s.set(S.SPLITTER, self.splitter.saveState())
        s.set(S.HEADER, self.table.horizontalHeader().saveState())
        view = self.model.view
        s.set(S.SORT, view.sort)
        s.set(S.SORT_DESCENDING, view.descending)
        filter_name, tag = self.sidebar.current()
        s.set(S.for_library(S.FILTER, self.library.location), filter_name)
        s.set(S.for_library(S.TAG, self.library.location), tag or "")
        s.sync()

    def reset_layout(self) -> None:
        """Default column widths and order, pane sizes and window size."""
        header = self.table.horizontalHeader()
        for logical in range(header.count()):
            header.moveSection(header.visualIndex(logical), logical)
        self.table.apply_default_layout()
        self.resize(*self._default_size())
        self.splitter.setSizes(self._default_splitter())

    # -- what the window shows ---------------------------------------------------------

    def _model_refreshed(self) -> None:
        self.features.listing.update_count_label()
        self.update_actions()
        self._selection_changed()

    def _changed(self, event: ChangeEvent) -> None:
        """The window's own part of a change: its description and the actions' state
        (the views refresh themselves)."""
        if event.step_message:
            self.statusBar().showMessage(event.step_message, 6000)
        elif event.change.description and not (event.own_notes_edit or event.quiet):
            self.statusBar().showMessage(localized(event.change.description), 4000)
        self.update_actions()

    def _selection_changed(self, *_args: object) -> None:
        for feature in self.features:
            feature.selection_changed()
        count = self.selected_count()
        if not self.model.showing_papers:
            pass  # (the inbox's items: gui.features.feeds fills the pane)
        elif count == 1:
            pid = self.table.focused_id()
            if pid is not None and pid != self.detail.current_id():
                self.detail.show_paper(self.library.paper(pid))
            elif pid is None:
                self.detail.show_selection_count(0)
        else:
            self.detail.show_selection_count(count)
        self.features.listing.update_count_label()
        self.update_actions()

    def update_actions(self) -> None:
        stack = self.ops.undo_stack
        self.actions.update_enabled(selected=self.selected_count(),
                                    rows=self.model.rowCount(), can_undo=stack.canUndo(),
                                    can_redo=stack.canRedo(), busy=self.ops.busy,
                                    searching=bool(self.search.text().strip()))
        for feature in self.features:
            feature.update_actions()

    def _update_undo_texts(self) -> None:
        stack = self.ops.undo_stack
        undo, redo = stack.undoText(), stack.redoText()
        self.actions["undo"].setText(tr("&Undo {what}").format(what=undo) if undo
                                     else tr("&Undo"))
        self.actions["redo"].setText(tr("&Redo {what}").format(what=redo) if redo
                                     else tr("&Redo"))

    def undo(self) -> None:
        """Undo the last change (not while a bulk change runs)."""
        if not self.ops.busy:
            self.detail.flush()  # typed notes are the step to undo
            self.ops.undo()

    def redo(self) -> None:
        """Redo the change just undone."""
        if not self.ops.busy:
            self.ops.redo()

    def _bulk_started(self, description: str) -> None:
        self.table.setUpdatesEnabled(False)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.statusBar().showMessage(description)
        self.update_actions()

    def _bulk_finished(self) -> None:
        self.table.setUpdatesEnabled(True)
        if not self.job_running():
            self.progress.hide()
        self.statusBar().clearMessage()
        self.update_actions()

    def _fill(self, menu: QMenu, names: Sequence[str | None]) -> None:
        """Add the named actions to a menu, a separator for each None."""
        for name in names:
            if name is None:
                menu.addSeparator()
            else:
                menu.addAction(self.actions[name])

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        if not self.model.showing_papers:  # (the inbox's items)
            self._fill(menu, ("inbox_add", "inbox_star", "inbox_dismiss", "inbox_keep"))
        else:
            self._fill(menu, ("read_pdf", "open_page", "open_pdf", "attach_pdf",
                              "download_pdf", None, "toggle_star", "cycle_read",
                              "mark_unread", "mark_reading", "mark_read", None, "add_tag",
                              "remove_tag", None, "copy_bibtex", "export_selection", None,
                              "edit_key", "regenerate_keys", "find_metadata", None,
                              "delete"))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def open_library(self, target: str) -> None:
        """Close, so that the application opens another library (`open_requested`)."""
        self.open_requested = target
        self.close()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.features.importing.drag_enter(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.features.importing.drop(event)

    # -- closing -----------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save typed notes and the layout; let running jobs finish (cancel an import)."""
        if not self.attached:  # (painted, its library still opening: closes once open)
            self._close_asked = True
            event.ignore()
            return
        self.detail.flush()
        # The undo stack dies with the window; its last signals must not reach it, nor
        # must the changes of the writes still landing reach the views.
        self.ops.undo_stack.blockSignals(True)
        self.ops.blockSignals(True)
        self.closing = True
        for feature in self.features:  # (imports and downloads cancelled, the dialogs
            feature.close()            # closed, no more saves from the browser)
        self.ops.stop_reading_texts()
        self.sidebar.stop()  # (a full count of the saved searches: seconds on 1M papers)
        self.adder.cancel()
        self.save_settings()
        self.ops.finish()  # every change the user made is written before the window goes
        self.tasks.wait()
        self.tasks.close()  # (results still queued may ask for more reads: none now)
        for feature in self.features:  # (the auto-exports then hold the last change)
            feature.finish()
        super().closeEvent(event)
