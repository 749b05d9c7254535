"""The main window: sidebar, paper table and detail pane, wired to the operations.

The window assembles widgets and actions and routes user intent to
`Operations`; it never builds SQL and never writes to the library itself.
Each view (the table's model, the sidebar's counts, the detail pane, the
duplicates list) follows the one `Operations.changed` signal and decides itself
what it must fetch again; the window only shows the change in the status bar.
"""

from __future__ import annotations

import gc
import html
import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.shapes import Counts, View
from papershelf.gui import appearance, bestmatch, shared_dialog
from papershelf.gui import settings as S
from papershelf.gui.actions import Actions
from papershelf.gui.add_dialog import AddPanel, identifier_text
from papershelf.gui.detail import DetailPane, open_link
from papershelf.gui.i18n import error_text, localized, number
from papershelf.gui.paper_model import PaperTableModel, PaperTableView
from papershelf.gui.qt import (
    QApplication,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QEvent,
    QFileDialog,
    QKeyEvent,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QObject,
    QPoint,
    QProgressBar,
    QPushButton,
    QSize,
    QSizePolicy,
    QSplitter,
    Qt,
    QTimer,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
    dpi_size,
    icon,
)
from papershelf.gui.search_field import SearchField
from papershelf.gui.settings import Settings
from papershelf.gui.sidebar import Sidebar
from papershelf.gui.workers import TaskManager

if TYPE_CHECKING:
    from papershelf.core.edits import Change
    from papershelf.core.firstpage import FirstPage
    from papershelf.core.library import Library
    from papershelf.core.saved import SavedSearch
    from papershelf.core.transfer import Export, ExportOptions
    from papershelf.gui.backups import BackupsDialog
    from papershelf.gui.duplicates import DuplicatesDialog
    from papershelf.gui.metadata_dialog import MetadataDialog
    from papershelf.gui.operations import ChangeEvent, Downloads, ImportOutcome
    from papershelf.gui.preferences import PreferencesDialog
    from papershelf.gui.workers import Job

# What the window needs once the library is open, not for its first paint: imported by
# `attach`, on the GUI thread.
if TYPE_CHECKING:
    from papershelf import formats, opener
    from papershelf.core import backup, cited, citing, files, query, querywords, transfer
    from papershelf.gui import (
        add_dialog,
        autoexport,
        backups,
        citations,
        dialogs,
        duplicates,
        live,
        metadata_dialog,
        operations,
        preferences,
    )
    from papershelf.gui import connector as gui_connector
    from papershelf.metadata import identifiers
else:
    formats = lazy.module("papershelf.formats")
    opener = lazy.module("papershelf.opener")
    files = lazy.module("papershelf.core.files")
    query = lazy.module("papershelf.core.query")
    querywords = lazy.module("papershelf.core.querywords")
    citing = lazy.module("papershelf.core.citing")
    cited = lazy.module("papershelf.core.cited")
    backup = lazy.module("papershelf.core.backup")
    transfer = lazy.module("papershelf.core.transfer")
    dialogs = lazy.module("papershelf.gui.dialogs")
    add_dialog = lazy.module("papershelf.gui.add_dialog")
    autoexport = lazy.module("papershelf.gui.autoexport")
    backups = lazy.module("papershelf.gui.backups")
    citations = lazy.module("papershelf.gui.citations")
    duplicates = lazy.module("papershelf.gui.duplicates")
    live = lazy.module("papershelf.gui.live")
    metadata_dialog = lazy.module("papershelf.gui.metadata_dialog")
    operations = lazy.module("papershelf.gui.operations")
    preferences = lazy.module("papershelf.gui.preferences")
    gui_connector = lazy.module("papershelf.gui.connector")
    identifiers = lazy.module("papershelf.metadata.identifiers")
_AFTER_FIRST_PAINT = (backup, transfer, dialogs, add_dialog, autoexport, backups,
                      duplicates, live, metadata_dialog, operations, preferences, identifiers,
                      formats, query, querywords, citing, cited, opener, files)

tr = Translator("MainWindow")

INDEX_SLICE = 20_000  # papers indexed per write job: other writes wait at most one slice
SYNC_COUNT_LIMIT = 50_000  # libraries below this many papers are counted before showing
SEARCH_DELAY_MS = 0  # next event-loop turn: a first page of results costs a millisecond
DEFAULT_SIZE = (1280, 800)
DEFAULT_SPLITTER = (180, 720, 380)
FILTER_ACTIONS = {"all": "filter_all", "unread": "filter_unread", "reading": "filter_reading",
                  "read": "filter_read", "starred": "filter_starred"}


def _papers(n: int) -> str:
    return tr("1 paper") if n == 1 else tr("{n} papers").format(n=number(n))


def freeze_startup_objects() -> None:
    """Hide the objects alive now (the window, the modules, Qt's wrappers) from the
    cyclic garbage collector, once per process. They live as long as the window; a
    full collection, which any thread's allocations may set off while it holds the
    interpreter lock, then looks only at what was made since: with a worker running
    (adding papers by identifier) the window's longest pause on a loaded machine with
    100,000 papers went from 150-200 ms to about 25 ms."""
    if gc.get_freeze_count() == 0:
        gc.freeze()


class MainWindow(QMainWindow):
    """Papershelf's main window on one library."""

    importFinished = Signal(object)  # ImportOutcome
    downloadFinished = Signal(object)  # Downloads
    exportFinished = Signal(str, int)  # path, number of papers
    actions: Actions  # by name; calling it still lists the widget's actions, as in Qt

    def __init__(self, library: Library | FirstPage, settings: Settings,
                 parent: QWidget | None = None, *, first_paint: bool = False) -> None:
        """The window on `library`; with `first_paint`, `library` is the FirstPage of a
        library file (core.firstpage): the window shows its rows and counts, and works
        once `attach` hands it the library (opened after the first paint)."""
        super().__init__(parent)
        self.library: Library = library  # type: ignore[assignment]  # (until `attach`)
        self.settings = settings
        self.tasks = TaskManager(self)
        self.model = PaperTableModel(library, self.tasks, self)
        self.attached = False
        self._close_asked = False  # (closed before `attach`: closes after it)
        self._first_page: FirstPage | None = library if first_paint else None  # type: ignore[assignment]
        self.last_import_report: ImportOutcome | None = None
        self.last_export: tuple[str, int] | None = None
        self._import_job: Job | None = None
        self._download_job: Job | None = None
        self._queued_imports: list[str] = []
        self._queued_bibtex: list[str] = []  # BibTeX pasted or dropped meanwhile
        self._indexing: Job | None = None
        self._closing = False
        self._total = 0
        self._duplicates: DuplicatesDialog | None = None
        self._metadata: MetadataDialog | None = None
        # A backup the user chose to restore: the application restores it once this window
        # has closed the library, then opens the restored one.
        self.restore_requested: Path | None = None
        # (id, key, selected yet) of a paper New Paper made, keyed once the user leaves it
        self._new_paper: tuple[int, str, bool] | None = None
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
        self.model.export_options = self._export_options
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
        self.setCentralWidget(central)

        self.actions = Actions(self, self.table)
        self._build_menus()
        self._build_toolbar()
        self._build_status_bar()
        self._restore_settings()
        self._show_counts_and_view()
        # The keys are for the papers: the first S stars the current one (the sidebar,
        # first in the tab order, would take it as a keyboard search for "Starred").
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        if not first_paint:
            self.attach(library)  # type: ignore[arg-type]

    def discard_first_page(self) -> None:
        """Close the first page read for the first paint (its library did not open)."""
        if self._first_page is not None:
            self._first_page.close()
            self._first_page = None

    def attach(self, library: Library) -> None:
        """Work on `library`: the operations, live updates, the actions, the view's rows
        read from it (after a first paint from a FirstPage: the same rows, the
        selection kept), the background work a start resumes."""
        lazy.load(*_AFTER_FIRST_PAINT)
        first_page, self._first_page = self._first_page, None
        self.library = library
        self.ops = operations.Operations(library, self.tasks, self)
        # Changes made elsewhere to a shared library (None for a file), from before the
        # first read on; stops itself when the window closes.
        self.live = live.LiveUpdates.attach(self)
        QTimer.singleShot(0, self, freeze_startup_objects)  # once the window is built
        self.model.follow(self.ops)
        self.sidebar.follow(self.ops)
        self.detail.follow(self.ops)
        self.search.follow(self.ops, self.sidebar)
        self.adder = add_dialog.IdentifierAdder(self.ops, self.add_panel, self.table, self)
        self._connect()
        self.auto_exporter = autoexport.attach(self)  # (refreshed after each change)
        self.attached = True
        if first_page is not None:
            self.model.use(library)
            self._show_counts_and_view(keep_view=True)
            first_page.close()
        else:
            self._update_count_label()
        self._selection_changed()
        self.index_for_search()  # an interrupted big import left papers to index
        # The browser's Zotero Connector saves here while the preference is on.
        self.connector = gui_connector.WindowConnector(self)
        self.connector.enable(self.settings.get(S.ZOTERO_CONNECTOR))
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
        export_menu = file_menu.addMenu(icon("export"), tr("&Export"))
        for name in ("export_selection", "export_view", "export_starred", "export_cited"):
            export_menu.addAction(a[name])
        self.export_menu = export_menu
        file_menu.addSeparator()
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
                   ("open_page", "open_pdf", "attach_pdf", "download_pdf", "detach_files",
                    None, "toggle_star", "cycle_read", "mark_unread",
                    "mark_reading", "mark_read", None, "add_tag", "remove_tag", None,
                    "edit_notes", "edit_fields", "edit_bibtex", "edit_key", "regenerate_keys",
                    None, "find_duplicates",
                    "find_metadata", None, "next_paper", "previous_paper", "next_unread"))

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
        self.search.installEventFilter(self)
        bar.addWidget(self.search)
        self.addToolBar(bar)
        self.toolbar = bar
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)

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

    def _connect(self) -> None:
        a = self.actions
        handlers = {
            "open_file": lambda: shared_dialog.choose_library_file(self),
            "open_shared": lambda: shared_dialog.open_shared_library(self),
            "import": self.import_dialog,
            "add_identifiers": lambda: self.adder.ask(self),
            "paste": self.paste,
            "copy_citation": self.copy_citation,
            "copy_bibliography": lambda: citations.copy_bibliography(self),
            "open_page": lambda: self.open_paper(pdf=False),
            "open_pdf": lambda: self.open_paper(pdf=True),
            "attach_pdf": self.attach_pdf,
            "download_pdf": self.download_pdfs,
            "detach_files": lambda: self._on_selection(self.ops.detach_files),
            "export_selection": lambda: self.export("selection"),
            "export_view": lambda: self.export("view"),
            "export_starred": lambda: self.export("starred"),
            "export_cited": self.export_cited,
            "quit": self.close,
            "backups": self.show_backups,
            "undo": self.undo,
            "redo": self.redo,
            "copy_bibtex": self.copy_bibtex,
            "select_all": self.select_all,
            "find": self.focus_search,
            "delete": self.delete_selected,
            "reset_layout": self.reset_layout,
            "toggle_star": self.toggle_star,
            "cycle_read": lambda: self._on_selection(self.ops.cycle_read_state),
            "mark_unread": lambda: self.set_read_state("unread"),
            "mark_reading": lambda: self.set_read_state("reading"),
            "mark_read": lambda: self.set_read_state("read"),
            "next_paper": lambda: self.move_current(1),
            "previous_paper": lambda: self.move_current(-1),
            "next_unread": self.next_unread,
            "edit_notes": self.detail.focus_notes,
            "edit_fields": lambda: self.detail.edit_fields(1),
            "edit_bibtex": lambda: self.detail.edit_fields(2),
            "new_paper": self.new_paper,
            "add_tag": self.add_tag,
            "save_search": self.save_search,
            "remove_tag": self.remove_tag,
            "edit_key": self.edit_key,
            "regenerate_keys": self.regenerate_keys,
            "find_duplicates": self.show_duplicates,
            "find_metadata": self.find_metadata,
            "preferences": self.show_preferences,
            "shortcuts": self.show_shortcuts,
            "about": lambda: dialogs.show_about(self, self.library.location),
        }
        for name, handler in handlers.items():
            # Not `connect(handler)`: `triggered` would pass its `checked` flag along.
            a[name].triggered.connect(lambda _checked=False, run=handler: run())
        for filter_name, action_name in FILTER_ACTIONS.items():
            a[action_name].triggered.connect(
                lambda _=False, f=filter_name: self.sidebar.select(f, None))

        self.sidebar.filterChanged.connect(self._filter_changed)
        self.search.textChanged.connect(lambda _text: self._search_timer.start())
        self.search.textChanged.connect(lambda _text: self._update_actions())
        self.search.textChanged.connect(self.sidebar.follow_search)
        self.sidebar.searchChosen.connect(self._saved_search_chosen)
        self.sidebar.savedMenuRequested.connect(
            lambda search, pos: self.saved_search_menu(search).popup(pos))
        self.sidebar.savedMoved.connect(
            lambda search_id, place: self.ops.move_saved_search(search_id, place))
        self._search_timer.timeout.connect(self._apply_search)
        # What the window shows follows the selection only (the detail pane shows the
        # current paper only when it is the one selected), so one signal is enough.
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.starClicked.connect(self._star_clicked)
        self.table.readStateClicked.connect(self._read_state_clicked)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.horizontalHeader().sortIndicatorChanged.connect(
            lambda *_: self._update_actions())
        self.model.refreshed.connect(self._model_refreshed)
        self.model.completed.connect(self._update_count_label)
        self.sidebar.counted.connect(self._counted)
        self.detail.notesEdited.connect(self.ops.set_notes)
        self.detail.privateNotesEdited.connect(self.ops.set_private_notes)
        self.detail.notice.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self.adder.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.detail.titleEdited.connect(self.ops.set_title)
        self.detail.fieldsEdited.connect(self._fields_edited)
        self.table.placeholder.linkActivated.connect(
            lambda link: self.actions["import" if link == "import" else
                                      "add_identifiers"].trigger())
        self.detail.escaped.connect(
            lambda: self.table.setFocus(Qt.FocusReason.ShortcutFocusReason))
        self.ops.changed.connect(self._changed)
        self.ops.failed.connect(self.show_error)
        self.ops.bulkStarted.connect(self._bulk_started)
        self.ops.bulkFinished.connect(self._bulk_finished)
        stack = self.ops.undo_stack
        stack.canUndoChanged.connect(lambda _ok: self._update_actions())
        stack.canRedoChanged.connect(lambda _ok: self._update_actions())
        stack.undoTextChanged.connect(lambda _t: self._update_undo_texts())
        stack.redoTextChanged.connect(lambda _t: self._update_undo_texts())
        self.cancel_button.clicked.connect(self.cancel_running)
        self.table.pdfsDropped.connect(self._pdfs_dropped)
        self.ops.textsRead.connect(self._texts_read)
        bestmatch.connect(self)  # View › Sort by Best Match

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
        self._initial_view = View(filter=s.get(S.for_library(S.FILTER, where)),
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
        sidebar = min(DEFAULT_SPLITTER[0], width * 14 // 100)
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

    # -- loading and refreshing ---------------------------------------------------------

    def _show_counts_and_view(self, *, keep_view: bool = False) -> None:
        """Fill the sidebar's counts and the table: the remembered filter and sort, the
        first paper selected; with `keep_view`, the view and selection shown (once the
        library takes over from the first page)."""
        # A big library is counted in the background: start-up must not wait for it.
        small = self.library.size_estimate() < SYNC_COUNT_LIMIT
        counts = self.library.counts() if small else Counts(
            all=0, unread=0, reading=0, read=0, starred=0,
            tags=dict.fromkeys(self.library.tag_names(), 0))
        view = self.model.view if keep_view else self._initial_view
        self.sidebar.blockSignals(True)
        try:
            if keep_view:  # (a filter clicked before the library was open counts)
                filter_name, tag = self.sidebar.current()
                view = replace(view, filter=filter_name, tag=tag)
            self.sidebar.set_counts(counts)
            self.sidebar.select(view.filter, view.tag)
            filter_name, tag = self.sidebar.current()
        finally:
            self.sidebar.blockSignals(False)
        self._total = counts.all
        if not small and self.attached:  # (its saved searches are counted already)
            self.sidebar.recount(saved=False)
        view = replace(view, filter=filter_name, tag=tag)
        if not keep_view or view != self.model.view:
            self.model.set_view(view, wait=True)
            if self.model.rowCount():
                self.table.go_to_row(0)
        self._update_count_label()
        if self.attached:
            self._update_actions()

    def _filter_changed(self, filter_name: str, tag: object) -> None:
        view = replace(self.model.view, filter=filter_name,
                       tag=tag if isinstance(tag, str) else None)
        if view != self.model.view:
            self.model.set_view(view)

    def _apply_search(self, *, wait: bool = False) -> None:
        # The word being typed (no space after it yet) is searched as a prefix.
        typed = self.search.text()
        view = replace(self.model.view, search=typed.strip(),
                       typing=bool(typed.strip()) and not typed[-1:].isspace())
        if view != self.model.view:
            self.model.set_view(view, wait=wait)

    def _model_refreshed(self) -> None:
        self._update_count_label()
        self._update_actions()
        self._selection_changed()

    def _counted(self, counts: Counts) -> None:
        """The sidebar counted again: the total of the status bar follows."""
        self._total = counts.all
        self._update_count_label()

    def _update_count_label(self) -> None:
        shown = self.model.rowCount()
        view = self.model.view
        if not self.model.complete:
            text = tr("{shown}+ papers, counting…").format(shown=number(shown))
        elif view.filter == "all" and not view.tag and not view.search.strip():
            text = _papers(shown)
        else:
            text = tr("{shown} of {total} papers match").format(
                shown=number(shown), total=number(self._total))
        reading = self._search_reading()
        if reading:
            text = tr("{papers} · {query}").format(papers=text, query=reading)
        selected = self.selected_count()
        if selected > 1:
            text = tr("{papers} · {n} selected").format(papers=text, n=number(selected))
        self.count_label.setText(text)
        self._update_placeholder()

    def _search_reading(self) -> str:
        """How the search was read ('author “hinton” and year 2020–2024'), for a query
        that is more than words; '' for plain words."""
        view = self.model.view
        if not self.attached or not view.search.strip():
            return ""
        tree = query.parse(view.search, typing=view.typing)
        return "" if query.is_plain(tree) else localized(querywords.describe(tree))

    def _update_placeholder(self) -> None:
        """An empty table says why and what to do: an empty library how papers come in,
        a view that matches nothing that it does."""
        hint = ""
        if self.model.complete and self.model.rowCount() == 0:
            if self._total == 0:
                keys = {name: self.actions[name].shortcut().toString(
                    self.actions[name].shortcut().SequenceFormat.NativeText)
                    for name in ("import", "add_identifiers")}
                hint = tr(
                    "<p><b>This library has no papers yet.</b></p>"
                    "<p><a href='import'>Import…</a> a list of abstracts or a .bib file "
                    "({import_key}),<br><a href='add'>Add by Identifier…</a> a DOI, an arXiv "
                    "id or a title ({add_key}),<br>or drop files here.</p>").format(
                    import_key=keys["import"], add_key=keys["add_identifiers"])
            elif self.model.view.search.strip():
                hint = tr("<p><b>No paper matches “{query}”.</b></p><p>{reading}</p><p>Clear "
                          "the search (Escape), try fewer words, or choose another list in "
                          "the sidebar.</p>").format(
                    query=html.escape(self.model.view.search.strip()),
                    reading=html.escape(self._search_reading()))
            else:
                hint = tr("<p><b>No papers match.</b></p><p>Clear the search (Escape) or "
                          "choose another list in the sidebar.</p>")
        self.table.show_placeholder(hint)

    def _changed(self, event: ChangeEvent) -> None:
        """The window's own part of a change: its description and the actions' state
        (the views refresh themselves)."""
        if event.step_message:
            self.statusBar().showMessage(event.step_message, 6000)
        elif event.change.description and not event.own_notes_edit:  # (not another's)
            self.statusBar().showMessage(localized(event.change.description), 4000)
        self._update_actions()

    # -- selection -----------------------------------------------------------------------

    def selected_count(self) -> int:
        """How many papers are selected (no row data needed)."""
        model = self.table.selectionModel()
        if model is None:
            return 0
        # PySide6's stubs leave out QItemSelection's sequence methods.
        return sum(r.height() for r in model.selection())  # type: ignore[attr-defined]

    def _selection_changed(self, *_args: object) -> None:
        self._key_new_paper()
        count = self.selected_count()
        if count == 1:
            pid = self.table.focused_id()
            if pid is not None and pid != self.detail.current_id():
                self.detail.show_paper(self.library.paper(pid))
            elif pid is None:
                self.detail.show_selection_count(0)
        else:
            self.detail.show_selection_count(count)
        self._update_count_label()
        self._update_actions()

    def _key_new_paper(self) -> None:
        """A paper made by New Paper is keyed from the fields filled in once the user
        leaves it (the dialog asked only its title)."""
        if self._new_paper is None:
            return
        pid, made, shown = self._new_paper
        if self.table.focused_id() == pid:
            self._new_paper = (pid, made, True)
            return
        if not shown:  # (not selected yet: the table still shows the paper before it)
            return
        self._new_paper = None
        self.ops.perform(lambda: self.library.key_new_paper(pid, made), 1)

    def _update_actions(self) -> None:
        stack = self.ops.undo_stack
        self.actions.update_enabled(selected=self.selected_count(),
                                    rows=self.model.rowCount(), can_undo=stack.canUndo(),
                                    can_redo=stack.canRedo(), busy=self.ops.busy,
                                    searching=bool(self.search.text().strip()))
        self.actions["import"].setEnabled(self._import_job is None)
        metadata_dialog.update_action(self.actions["find_metadata"], self.selected_count())

    def _update_undo_texts(self) -> None:
        stack = self.ops.undo_stack
        undo, redo = stack.undoText(), stack.redoText()
        self.actions["undo"].setText(tr("&Undo {what}").format(what=undo) if undo
                                     else tr("&Undo"))
        self.actions["redo"].setText(tr("&Redo {what}").format(what=redo) if redo
                                     else tr("&Redo"))

    def select_all(self) -> None:
        """Ctrl+A: every paper of the list, also those of a big list still coming in
        (selected as they arrive)."""
        self.table.select_whole_view()

    def move_current(self, delta: int) -> None:
        """Next (1) or previous (-1) paper."""
        current = self.table.currentIndex()
        row = current.row() + delta if current.isValid() else 0
        self.table.go_to_row(max(0, min(row, self.model.rowCount() - 1)))

    def next_unread(self) -> None:
        """Go to the next unread paper of the list (wrapping around)."""
        ids = self.model.ids
        if not ids:
            return
        current = self.table.currentIndex()
        start = current.row() + 1 if current.isValid() else 0
        # The rows after the current one, in growing pages: the next unread paper is
        # usually near, and a million-paper list is not read whole for it.
        start = min(start, len(ids))
        rows = itertools.chain(range(start, len(ids)), range(start))
        size = 256
        while page := list(itertools.islice(rows, size)):
            states = self.library.rows([ids[row] for row in page])
            for row in page:
                paper = states.get(ids[row])
                if paper is not None and paper.read_state == "unread":
                    self.table.go_to_row(row)
                    return
            size *= 4
        self.statusBar().showMessage(tr("No unread papers in this list"), 4000)

    # -- triage ----------------------------------------------------------------------------

    def _on_selection(self, operation: object) -> None:
        ids = self.table.selected_ids()
        if ids and callable(operation):
            operation(ids)

    def toggle_star(self, ids: list[int] | None = None) -> None:
        """Star the papers, or unstar them if every one is starred (S)."""
        ids = self.table.selected_ids() if ids is None else ids
        if not ids:
            return
        self.ops.toggle_starred(ids)  # star or unstar is decided with the write

    def set_read_state(self, state: str) -> None:
        """Mark the selected papers unread, reading or read."""
        ids = self.table.selected_ids()
        if ids:
            self.ops.set_read_state(ids, state)

    def _clicked_ids(self, row: int) -> list[int]:
        pid = self.model.id_at(row)
        if pid is None:
            return []
        selected = self.table.selected_ids()
        return selected if pid in selected else [pid]

    def _star_clicked(self, row: int) -> None:
        ids = self._clicked_ids(row)
        if ids:
            self.toggle_star(ids)

    def _read_state_clicked(self, row: int) -> None:
        ids = self._clicked_ids(row)
        if ids:
            self.ops.cycle_read_state(ids)

    def delete_selected(self) -> None:
        """Delete the selected papers; one undo step brings them back."""
        ids = self.table.selected_ids()
        if not ids:
            return

        def deleted(_change: Change) -> None:
            undo = self.actions["undo"].shortcut().toString(
                self.actions["undo"].shortcut().SequenceFormat.NativeText)
            self.statusBar().showMessage(
                tr("Deleted {papers}; {undo} brings them back").format(
                    papers=_papers(len(ids)), undo=undo), 6000)

        self.ops.delete_papers(ids, deleted)

    def add_tag(self) -> None:
        """Ask for a tag and put it on the selected papers."""
        ids = self.table.selected_ids()
        if not ids:
            return
        names = dialogs.ask_tags_to_add(self, self.library.tag_names())
        if names:
            self.ops.add_tags(ids, names)

    def remove_tag(self) -> None:
        """Ask which of the selection's tags to take off."""
        ids = self.table.selected_ids()
        if not ids:
            return
        if len(ids) <= operations.BULK:
            tags = sorted({t for names in self.library.tags_of(ids).values() for t in names},
                          key=str.casefold)
        else:
            tags = self.library.tag_names()
        name = dialogs.ask_tag_to_remove(self, tags)
        if name:
            self.ops.remove_tags(ids, [name])

    # -- saved searches ---------------------------------------------------------------------

    def save_search(self) -> None:
        """View › Save Search…: the search field's query under a name the user gives,
        finding what the field shows (the word being typed saved as a prefix: `quant*`)."""
        typed = query.as_typed(self.search.text()).strip()
        if not typed:
            return
        if self.library.shared:  # (for the group, or for oneself)
            asked = dialogs.ask_saved_search(self, typed)
            if asked is not None:
                self.ops.add_saved_search(*asked)
            return
        name = dialogs.ask_line(self, tr("Save Search"),
                                tr("Name of the saved search “{query}”:").format(query=typed))
        if name:
            self.ops.add_saved_search(name, typed)

    def saved_search_menu(self, search: SavedSearch) -> QMenu:
        """The context menu of a saved search in the sidebar (deleted once closed)."""
        menu = QMenu(self)
        menu.addAction(tr("&Rename…")).triggered.connect(
            lambda _=False: self.rename_saved_search(search))
        menu.addAction(tr("&Edit Query…")).triggered.connect(
            lambda _=False: self.edit_saved_search(search))
        saved = [s.id for s in self.sidebar.saved()]
        place = saved.index(search.id) if search.id in saved else -1
        up = menu.addAction(tr("Move &Up"))
        up.setEnabled(place > 0)
        up.triggered.connect(lambda _=False: self.ops.move_saved_search(search.id, place - 1))
        down = menu.addAction(tr("Move Do&wn"))
        down.setEnabled(0 <= place < len(saved) - 1)
        down.triggered.connect(
            lambda _=False: self.ops.move_saved_search(search.id, place + 1))
        menu.addSeparator()
        menu.addAction(tr("&Delete")).triggered.connect(
            lambda _=False: self.ops.remove_saved_search(search.id))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        return menu

    def rename_saved_search(self, search: SavedSearch) -> None:
        """Ask a saved search's new name."""
        name = dialogs.ask_line(self, tr("Rename Saved Search"),
                                tr("New name of the saved search “{name}”:").format(
                                    name=search.name), search.name)
        if name:
            self.ops.rename_saved_search(search.id, name)

    def edit_saved_search(self, search: SavedSearch) -> None:
        """Ask a saved search's new query."""
        query = dialogs.ask_line(self, tr("Edit Saved Search"),
                                 tr("Query of the saved search “{name}”:").format(
                                     name=search.name), search.query)
        if query:
            self.ops.edit_saved_search(search.id, query)

    def _saved_search_chosen(self, query: str) -> None:
        """A saved search was chosen: every paper its query finds, the query in the
        search field, read whole (its last word is no prefix: the list is what its
        count counted)."""
        self.search.setText(query)
        self._search_timer.stop()
        view = replace(self.model.view, filter="all", tag=None, search=query, typing=False)
        if view != self.model.view:
            self.model.set_view(view)

    # -- citation keys and duplicates ----------------------------------------------------

    def _fields_edited(self, paper_id: int, values: dict[str, str | None],
                       base: dict[str, str | None]) -> None:
        """A field edited in the detail pane: written (one undo step); a value someone
        else had changed meanwhile is named, with a button that puts theirs back."""
        def done(change: Change) -> None:
            if change.replaced:
                self._offer_theirs(paper_id, dict(change.replaced))

        self.ops.set_fields(paper_id, values, base, done)

    def _offer_theirs(self, paper_id: int, theirs: dict[str, str | None]) -> None:
        """Say which values of someone else's an edit replaced; Put Theirs Back writes
        them again (one more undo step)."""
        def shown(name: str, value: str | None) -> str:
            if value is None:
                return tr("{field} (they had removed it)").format(field=name)
            value = " ".join(value.split())
            value = value if len(value) <= 60 else value[:59] + "…"
            return tr("{field} “{value}”").format(field=name, value=value)

        self.add_panel.show_message(
            tr("Someone else had changed this paper while you edited it; yours replaced "
               "their {values}.").format(
                values=", ".join(shown(name, value) for name, value in sorted(theirs.items()))),
            action=(tr("Put Theirs Back"), lambda: self.ops.set_fields(paper_id, theirs)))

    def new_paper(self) -> None:
        """File › New Paper… (Ctrl+N): its type and title asked, then it is added, shown
        and its fields opened for the rest (undo takes it away)."""
        asked = dialogs.ask_new_paper(self)
        if asked is None:
            return
        entry_type, title = asked

        def added(change: Change) -> None:
            pid = next(iter(change.ids), None)
            if pid is None:
                return
            # (keyed again from its fields once the user leaves it: _key_new_paper)
            self._new_paper = (pid, self.library.rows([pid])[pid].key, False)
            self._select_when_shown(pid, edit=True)

        self.ops.new_paper({"type": entry_type, "title": title}, added)

    def _select_when_shown(self, pid: int, *, edit: bool = False) -> None:
        """Select a paper (a new one: in the list of all papers) once the table shows it,
        and open its fields' editor if `edit`."""
        def select() -> bool:
            row = self.model.row_of(pid)
            if row is None:
                return False
            self.table.go_to_row(row)
            if edit:
                self.detail.edit_fields(1)
            return True

        def refreshed() -> None:
            if select() or self.model.complete:
                self.model.refreshed.disconnect(refreshed)

        if select():
            return
        self.model.refreshed.connect(refreshed)
        view = self.model.view
        if view.filter != "all" or view.tag or view.search.strip():
            self.search.clear()
            self.sidebar.select("all", None)

    def edit_key(self) -> None:
        """Ask for the current paper's new citation key (a taken key is a message)."""
        pid = self.table.focused_id()
        detail = self.library.paper(pid) if pid is not None else None
        if detail is None:
            return
        key = dialogs.ask_citation_key(self, detail.key, detail.record.title)
        if key is not None:
            self.ops.set_key(detail.id, key, base=detail.key)

    def regenerate_keys(self) -> None:
        """New keys from the library's pattern for the selection, after a confirmation."""
        ids = self.table.selected_ids()
        if not ids or not dialogs.confirm_regenerate_keys(self, len(ids),
                                                          self.library.key_pattern):
            return

        def regenerated(change: Change) -> None:
            if not change.ids:
                self.statusBar().showMessage(tr("The keys already follow the pattern"), 4000)

        self.ops.regenerate_keys(ids, regenerated)

    def show_duplicates(self) -> DuplicatesDialog:
        """Paper > Find Duplicates: the (one, non-modal) list of suspected pairs."""
        if self._duplicates is None:
            self._duplicates = duplicates.DuplicatesDialog(
                self.library, self.ops, self.tasks,
                (self.actions["undo"], self.actions["redo"]), self)
        if self._duplicates.isVisible():  # already open: bring it to the front
            self._duplicates.raise_()
        else:
            self._duplicates.show()
        self._duplicates.activateWindow()
        return self._duplicates

    def find_metadata(self) -> MetadataDialog:
        """Paper > Find Metadata: candidates for the selected papers (none selected:
        every provisional paper) in the (one, non-modal) dialog, which looks them up."""
        if self._metadata is None:
            self._metadata = metadata_dialog.MetadataDialog(self.ops, self.tasks,
                                            (self.actions["undo"], self.actions["redo"]), self)
        self._metadata.look_up(self.table.selected_ids())
        return self._metadata

    def start_daily_backup(self) -> None:
        """The first start of a day backs the library up, in the background."""
        url = self.library.url

        def failed(exc: BaseException) -> None:
            self.statusBar().showMessage(
                tr("No daily backup: {reason}").format(reason=error_text(exc)))

        self.tasks.run(lambda _job: backup.daily_backup_for(url), None, failed)

    def show_backups(self) -> BackupsDialog | None:
        """File > Backups: make one now, or restore one (the window then reopens)."""
        library_file = backup.library_file(self.library.url)
        if library_file is None:
            QMessageBox.information(self, tr("Backups"), tr(
                "This library is on a database server: back it up with the server's own "
                "tools (pg_dump)."))
            return None
        dialog = backups.BackupsDialog(library_file, self.tasks, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _code: self._backup_chosen(dialog.restore_requested))
        dialog.open()
        return dialog

    def _backup_chosen(self, path: Path | None) -> None:
        if path is not None:
            self.restore_requested = path
            self.close()

    def open_library(self, target: str) -> None:
        """Close, so that the application opens another library (`open_requested`)."""
        self.open_requested = target
        self.close()

    def show_preferences(self) -> PreferencesDialog:
        """Edit > Preferences (window-modal): key pattern and export defaults."""
        pid = self.table.current_id()
        detail = self.library.paper(pid) if pid is not None else None
        dialog = preferences.PreferencesDialog(self.library.key_pattern,
                                   preferences.load_export_options(self.settings),
                                   detail.record if detail is not None else None, self,
                                   language=self.settings.get(S.LANGUAGE),
                                   appearance=self.settings.get(S.APPEARANCE),
                                   cite_form=self.settings.get(S.CITE_FORM),
                                   connector=self.settings.get(S.ZOTERO_CONNECTOR))
        citations.add_style_choice(dialog, self.settings.get(S.CSL_STYLE))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._apply_preferences(dialog))
        dialog.open()
        return dialog

    def _apply_preferences(self, dialog: PreferencesDialog) -> None:
        preferences.save_export_options(self.settings, dialog.export_options())
        self.settings.set(S.CITE_FORM, dialog.cite_form())
        citations.apply_style_choice(dialog, self.settings)
        self.settings.set(S.LANGUAGE, dialog.language())
        self.settings.set(S.ZOTERO_CONNECTOR, dialog.connector_enabled())
        self.connector.enable(dialog.connector_enabled())
        if dialog.appearance() != self.settings.get(S.APPEARANCE) \
                or dialog.appearance() != appearance.current():
            self.settings.set(S.APPEARANCE, dialog.appearance())
            appearance.apply(dialog.appearance())
        if dialog.pattern_changed():
            pattern = dialog.pattern()
            self.ops.set_key_pattern(pattern, lambda: self.statusBar().showMessage(
                tr("New papers get citation keys from {pattern}").format(pattern=pattern),
                6000))

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
        self._update_actions()

    def _bulk_finished(self) -> None:
        self.table.setUpdatesEnabled(True)
        if self._import_job is None and self._download_job is None:
            self.progress.hide()
        self.statusBar().clearMessage()
        self._update_actions()

    # -- search ----------------------------------------------------------------------------

    def focus_search(self) -> None:
        """Put the focus in the search field, its text selected (Ctrl+F)."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (self.attached and watched is self.search and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent)):
            if event.key() == Qt.Key.Key_Escape:
                if self.search.text():
                    self.search.clear()
                    self._search_timer.stop()
                    self._apply_search()
                else:
                    self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                # The first match, at once (the search typed last applies now).
                if self._search_timer.isActive():
                    self._search_timer.stop()
                    self._apply_search(wait=True)
                self.table.go_to_row(0)
                self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
        return super().eventFilter(watched, event)

    # -- import ----------------------------------------------------------------------------

    def import_dialog(self) -> None:
        """File > Import…: choose files, then import them in the background."""
        folder = self.settings.get(S.LAST_FOLDER) or str(Path.home())
        paths, _filter = QFileDialog.getOpenFileNames(
            self, tr("Import Papers"), folder,
            tr("Abstract lists, BibTeX, RIS, CSL-JSON, EndNote XML and PubMed (*.txt *.md "
               "*.bib *.bibtex *.ris *.json *.xml *.nbib);;Zotero library (zotero.sqlite);;"
               "All files (*)"))
        if paths:
            self.settings.set(S.LAST_FOLDER, str(Path(paths[0]).parent))
            self.start_import(paths)

    def import_files(self, paths: list[str]) -> None:
        """Import files now, or after the running import (files handed over by a file
        manager or a second start arrive at any time)."""
        if self._import_job is not None:
            self._queued_imports.extend(paths)
            self.statusBar().showMessage(tr("Queued after the running import"), 4000)
            return
        self.start_import(paths)

    def start_import(self, paths: list[str]) -> None:
        """Import files in a worker, with progress and a Cancel button."""
        if self._import_job is not None:
            self.statusBar().showMessage(tr("An import is already running"), 4000)
            return
        self._show_cancellable(tr("Stop the import; nothing of the file being read is "
                                  "written"))
        self.statusBar().showMessage(
            tr("Importing {name}…").format(name=operations.import_name(paths)))
        self._import_job = self.ops.import_files(paths, self._import_progress,
                                                 self._import_done, self._import_failed)
        self._update_actions()

    def import_bibtex(self, text: str) -> None:
        """Import pasted or dropped BibTeX entries as a file's are (merging duplicates,
        each bad entry reported with its line), now or after the running import."""
        if self._import_job is not None:
            self._queued_bibtex.append(text)
            self.statusBar().showMessage(tr("Queued after the running import"), 4000)
            return
        self._show_cancellable(tr("Stop the import; nothing of it is written"))
        source = tr("pasted BibTeX")
        self.statusBar().showMessage(tr("Importing {name}…").format(name=source))
        self._import_job = self.ops.import_bibtex(text, source, self._import_progress,
                                                  self._import_done, self._import_failed)
        self._update_actions()

    def _show_cancellable(self, tip: str) -> None:
        """The status bar's progress bar and Cancel button, for a job that can stop."""
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setToolTip(tip)
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()

    def cancel_running(self) -> None:
        """The Cancel button: stop the running import or download."""
        if self._import_job is not None:
            self.cancel_import()
        elif self._download_job is not None:
            self._download_job.cancel()
            self.cancel_button.setEnabled(False)
            self.statusBar().showMessage(tr("Cancelling the download…"))

    def cancel_import(self) -> None:
        """Stop the running import (the file being read is not written)."""
        if self._import_job is not None:
            self._import_job.cancel()
            self.cancel_button.setEnabled(False)
            self.statusBar().showMessage(tr("Cancelling the import…"))

    def _import_progress(self, done: int, total: int) -> None:
        # Records or, for a big file, bytes: in thousandths (a bar's range is 32-bit).
        self.progress.setRange(0, 1000)
        self.progress.setValue(done * 1000 // max(total, 1))

    def _import_ended(self) -> None:
        self._import_job = None
        if self._download_job is None:
            self._hide_cancellable()
        self._update_actions()
        if self._queued_imports:
            queued, self._queued_imports = self._queued_imports, []
            QTimer.singleShot(0, self, lambda: self.start_import(queued))
        elif self._queued_bibtex:
            text = self._queued_bibtex.pop(0)
            QTimer.singleShot(0, self, lambda: self.import_bibtex(text))

    def index_for_search(self) -> None:
        """Make papers of a big import searchable: the index is built in batches in the
        background, with progress in the status bar (and resumes at the next start)."""
        pending = self.library.pending_index()
        if self._indexing is not None or not pending:
            return
        self.index_progress.setRange(0, pending)
        self.index_progress.setValue(0)
        self.index_progress.show()
        indexed = [0]  # ids covered by the slices done so far

        def progress(done: int, _total: int) -> None:
            self.index_progress.setValue(min(indexed[0] + done, pending))

        def done(covered: object) -> None:
            self._indexing = None
            if self._closing:
                return
            indexed[0] += int(covered) if isinstance(covered, int) else 0
            if self.library.pending_index():  # next slice; edits queued meanwhile go first
                self._indexing = self.tasks.run(slice_, done, failed, progress, write=True)
                return
            self.index_progress.hide()
            if self.model.view.search.strip():
                self.model.refresh()

        def failed(exc: BaseException) -> None:
            self._indexing = None
            self.index_progress.hide()
            self.ops.report(exc)

        def slice_(job: Job) -> int:
            return self.library.index_pending(job.progress, job.cancelled, limit=INDEX_SLICE)

        self._indexing = self.tasks.run(slice_, done, failed, progress, write=True)

    def _import_done(self, outcome: ImportOutcome) -> None:
        self._import_ended()
        self.index_for_search()
        self.last_import_report = outcome
        self.statusBar().showMessage(outcome.summary(), 8000)
        dialogs.show_import_summary(self, outcome)
        self.importFinished.emit(outcome)

    def _import_failed(self, exc: BaseException) -> None:
        self._import_ended()
        if not isinstance(exc, Exception):
            raise exc
        self.ops.report(exc)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if not self.attached or event.source() is self.table:  # (rows dragged out)
            event.ignore()
        elif (urls and all(url.isLocalFile() for url in urls)) \
                or identifier_text(event.mimeData()).strip():
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
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
            self.statusBar().showMessage(
                tr("Drop a PDF on a paper's row to attach it to that paper"), 6000)
            paths = [path for path in paths if path not in pdfs]
        if paths:
            self.import_files(paths)
        if formats.is_bibtex_text(text):
            self.import_bibtex(text)
        elif text.strip():
            self.adder.add_text(text)

    def open_paper(self, *, pdf: bool) -> None:
        """O: open the current paper's best web page in the browser; Shift+O: its
        attached PDF on this computer, else its PDF online."""
        pid = self.table.focused_id()
        detail = self.library.paper(pid) if pid is not None else None
        if detail is None:
            return
        local = detail.local_pdf if pdf else None
        if local is not None and files.is_pdf(local):  # (never a program a row names)
            self._open_pdf(local)
            return
        url = (identifiers.best_pdf if pdf else identifiers.best_page)(detail.record)
        if url is None:
            self.statusBar().showMessage((
                tr("{key} names no PDF: add its arXiv id, DOI or a link to it") if pdf
                else tr("{key} names no web page: add its DOI, arXiv id or a link")
            ).format(key=detail.key), 6000)
        elif not open_link(url):
            self.statusBar().showMessage(tr("Could not open {url}").format(url=url), 6000)

    def _open_pdf(self, local: Path) -> None:
        """Open an attached PDF with the desktop's viewer, in a worker (the opener is
        waited for, so that a desktop with none is said in the status bar)."""
        def done(failed: str | None) -> None:
            if failed is not None:
                self.statusBar().showMessage(
                    tr("Could not open the PDF: no program here opens PDFs. The file is "
                       "{path}").format(path=local), 15000)

        self.tasks.run(lambda _job: opener.open_externally(local), done)

    # -- attached PDFs ---------------------------------------------------------------------

    def attach_pdf(self) -> None:
        """Paper > Attach PDF…: choose PDF files for the current paper; they are copied
        into the library's files folder (one undo step) and their text read for search."""
        pid = self.table.focused_id()
        if pid is None:
            return
        folder = self.settings.get(S.LAST_FOLDER) or str(Path.home())
        paths, _filter = QFileDialog.getOpenFileNames(
            self, tr("Attach PDF"), folder, tr("PDF files (*.pdf);;All files (*)"))
        if paths:
            self.settings.set(S.LAST_FOLDER, str(Path(paths[0]).parent))
            self.ops.attach_files(pid, paths)

    def _pdfs_dropped(self, row: int, paths: list[str]) -> None:
        """PDF files dropped on a row: attached to that row's paper (after the drop)."""
        pid = self.model.id_at(row)
        if pid is not None:
            QTimer.singleShot(0, self, lambda: self.ops.attach_files(pid, paths))

    def download_pdfs(self) -> None:
        """Paper > Download PDF: fetch the PDF each selected paper names, in the
        background with progress and Cancel, and attach it (one undo step)."""
        ids = self.table.selected_ids()
        if not ids or self._download_job is not None:
            if self._download_job is not None:
                self.statusBar().showMessage(tr("A download is already running"), 4000)
            return
        self._show_cancellable(tr("Stop downloading; nothing is attached"))
        self.statusBar().showMessage(tr("Downloading PDFs for {papers}…").format(
            papers=_papers(len(ids))))
        self._download_job = self.ops.download_pdfs(ids, self._import_progress,
                                                    self._downloaded)

    def _downloaded(self, outcome: Downloads) -> None:
        self._download_job = None
        if self._import_job is None:
            self._hide_cancellable()
        self.statusBar().showMessage(outcome.summary(), 8000)
        if outcome.failures() and not outcome.error:
            self.show_error(outcome.report())
        self.downloadFinished.emit(outcome)

    def _hide_cancellable(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.statusBar().clearMessage()

    def _texts_read(self, problems: list[str]) -> None:
        """Attached files' text was read: a damaged file is a line in the status bar."""
        if problems:
            self.statusBar().showMessage(problems[-1], 8000)

    # -- export ----------------------------------------------------------------------------

    def _export_options(self) -> ExportOptions:
        """What Edit > Preferences says an export includes, and in which flavour."""
        return preferences.load_export_options(self.settings)

    def export(self, what: str) -> None:
        """Export BibTeX of 'selection', 'view' or 'starred': the list's and the starred
        papers' ids are asked of the core in a worker (after the writes asked for before),
        then a file is picked, incomplete entries checked, and the file written."""
        if what == "selection":
            self._export(what, self.table.selected_ids())
            return
        view = self.model.view
        if what == "starred":
            view = View(filter="starred", sort=view.sort, descending=view.descending)
        self.ops.when_settled(lambda: self.tasks.run(
            lambda _job: self.library.view_ids(view),
            lambda ids: self._export(what, ids), self.ops.report))

    def export_cited(self) -> None:
        """File › Export › Papers Cited in a LaTeX Document…: the papers a document's
        .aux (or .bcf) cites, in citing order; the keys the library lacks are named
        (the others are exported)."""
        folder = self.settings.get(S.LAST_FOLDER) or str(Path.home())
        aux, _filter = QFileDialog.getOpenFileName(
            self, tr("Papers Cited in a LaTeX Document"), folder,
            tr("LaTeX's citations (*.aux *.bcf);;All files (*)"))
        if not aux:
            return
        self.settings.set(S.LAST_FOLDER, str(Path(aux).parent))

        def find(_job: object) -> tuple[list[int], list[str]]:
            return cited.cited_papers(self.library, aux)

        def found(result: tuple[list[int], list[str]]) -> None:
            ids, missing = result
            if missing:
                self.add_panel.show_message(tr(
                    "{document} cites papers the library does not have: {keys}").format(
                    document=Path(aux).name, keys=", ".join(missing[:12])
                    + (" …" if len(missing) > 12 else "")))
            self._export("cited", ids)

        self.tasks.run(find, found, self.ops.report)

    def _export(self, what: str, ids: list[int]) -> None:
        if self._closing:
            return
        if not ids:
            self.statusBar().showMessage(tr("Nothing to export"), 4000)
            return
        folder = self.settings.get(S.LAST_FOLDER) or str(Path.home())
        default = str(Path(folder) / ("starred.bib" if what == "starred" else "papers.bib"))
        kinds = [tr("BibTeX (*.bib)"), tr("RIS: Zotero, Mendeley, EndNote (*.ris)"),
                 tr("CSL-JSON: Zotero, citeproc (*.json)")]
        path, chosen = QFileDialog.getSaveFileName(
            self, tr("Export Papers"), default, ";;".join([*kinds, tr("All files (*)")]))
        if not path:
            return
        formats = list(transfer.EXPORT_FORMATS)
        if not Path(path).suffix:
            path += transfer.EXPORT_FORMATS[formats[kinds.index(chosen)]
                                            if chosen in kinds else "bibtex"]
        self.settings.set(S.LAST_FOLDER, str(Path(path).parent))
        self.statusBar().showMessage(tr("Checking {papers}…").format(papers=_papers(len(ids))))

        def confirm(export: Export) -> bool:
            self.statusBar().clearMessage()
            if export.incomplete_count and not dialogs.confirm_incomplete(
                    self, export.incomplete_count, len(ids), operations.incomplete_lines(export)):
                return False
            self.statusBar().showMessage(tr("Exporting {papers}…").format(
                papers=_papers(len(ids))))
            return True

        options = replace(self._export_options(), format=transfer.format_for(path))
        self.ops.export_bibtex(ids, path, options, confirm, lambda n: self._exported(path, n))

    def _exported(self, path: str, count: int) -> None:
        self.last_export = (path, count)
        self.statusBar().showMessage(tr("Exported {papers} to {path}").format(
            papers=_papers(count), path=path), 8000)
        self.exportFinished.emit(path, count)

    def copy_citation(self) -> None:
        """Ctrl+Shift+K: a citation of the selected papers (\\cite{a,b}, or the form
        chosen in Preferences) on the clipboard, in the table's order."""
        ids = self.table.selected_ids()
        if not ids:
            return
        rows = self.library.rows(ids)
        keys = [rows[pid].key for pid in ids if pid in rows]
        text = citing.citation(keys, self.settings.get(S.CITE_FORM))
        QApplication.clipboard().setText(text)
        self.statusBar().showMessage(tr("Copied {citation}").format(citation=text), 4000)

    def copy_bibtex(self) -> None:
        """Copy the selection's BibTeX to the clipboard (big selections in a worker)."""
        ids = self.table.selected_ids()
        if not ids:
            return
        options = self._export_options()

        def copy(text: object) -> None:
            QApplication.clipboard().setText(str(text))
            self.statusBar().showMessage(tr("Copied the BibTeX of {papers}").format(
                papers=_papers(len(ids))), 4000)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ValueError):
                self.show_error(error_text(exc))
            else:
                raise exc

        def read() -> None:  # once the writes asked for before have landed
            if len(ids) <= operations.BULK:
                try:
                    copy(transfer.export_bibtex(self.library, ids, options).text)
                except ValueError as exc:
                    failed(exc)
            else:
                self.tasks.run(lambda _job: transfer.export_bibtex(self.library, ids, options).text,
                               copy, failed)

        self.ops.when_settled(read)

    # -- menus and dialogs ---------------------------------------------------------------

    def _fill(self, menu: QMenu, names: Sequence[str | None]) -> None:
        """Add the named actions to a menu, a separator for each None."""
        for name in names:
            if name is None:
                menu.addSeparator()
            else:
                menu.addAction(self.actions[name])

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        self._fill(menu, ("open_page", "open_pdf", "attach_pdf", "download_pdf", None,
                          "toggle_star", "cycle_read",
                          "mark_unread", "mark_reading", "mark_read", None, "add_tag",
                          "remove_tag", None, "copy_bibtex", "export_selection", None,
                          "edit_key", "regenerate_keys", "find_metadata", None, "delete"))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def show_shortcuts(self) -> None:
        """Help > Keyboard Shortcuts."""
        dialog = dialogs.ShortcutsDialog(self.actions, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def show_error(self, message: str) -> None:
        """A problem the user can act on (locked library, invalid input)."""
        self.statusBar().showMessage(message, 8000)
        box = QMessageBox(QMessageBox.Icon.Warning, tr("Papershelf"), message,
                          QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- closing -----------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save typed notes and the layout; let running jobs finish (cancel an import)."""
        if not self.attached:  # (painted, its library still opening: closes once open)
            self._close_asked = True
            event.ignore()
            return
        self.detail.flush()
        self.connector.close()  # (no more saves from the browser)
        # The undo stack dies with the window; its last signals must not reach it, nor
        # must the changes of the writes still landing reach the views.
        self.ops.undo_stack.blockSignals(True)
        self.ops.blockSignals(True)
        if self._import_job is not None:
            self._import_job.cancel()
        if self._download_job is not None:
            self._download_job.cancel()
        self.ops.stop_reading_texts()
        self.sidebar.stop()  # (a full count of the saved searches: seconds on 1M papers)
        self.adder.cancel()
        self._closing = True
        if self._indexing is not None:
            self._indexing.cancel()  # what is indexed stays; the rest at the next start
        if self._duplicates is not None:
            self._duplicates.close()
        if self._metadata is not None:
            self._metadata.close()  # (stops its lookup)
        self.save_settings()
        self.ops.finish()  # every change the user made is written before the window goes
        self.tasks.wait()
        self.tasks.close()  # (results still queued may ask for more reads: none now)
        self.auto_exporter.finish()  # the files then hold the last change
        super().closeEvent(event)
