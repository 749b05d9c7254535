"""The list the table shows: the sidebar's filter, the search as typed, the counts in the
status bar, what an empty table says, and moving through the rows."""

from __future__ import annotations

import html
import itertools
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.firstpage import COUNTED_BEFORE_SHOWN
from papershelf.core.shapes import Counts
from papershelf.gui.i18n import localized, number
from papershelf.gui.qt import QEvent, QKeyEvent, QObject, Qt, QTimer, Translator
from papershelf.gui.shell import Feature, Handler, Shell, papers

if TYPE_CHECKING:
    from papershelf.core import query, querywords
else:
    query = lazy.module("papershelf.core.query")
    querywords = lazy.module("papershelf.core.querywords")

tr = Translator("MainWindow")

# Libraries below this many papers are counted before showing (core.firstpage's).
SYNC_COUNT_LIMIT = COUNTED_BEFORE_SHOWN
SEARCH_DELAY_MS = 0  # next event-loop turn: a first page of results costs a millisecond
FILTER_ACTIONS = {"all": "filter_all", "unread": "filter_unread", "reading": "filter_reading",
                  "read": "filter_read", "starred": "filter_starred"}


class ListingFeature(Feature):
    """The view (filter, tag, search), its counts and the moves through it."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.total = 0  # papers in the library, as the sidebar counted them
        self.search_timer = QTimer(self)
        self.search_timer.setSingleShot(True)
        self.search_timer.setInterval(SEARCH_DELAY_MS)
        shell.search.installEventFilter(self)

    def handlers(self) -> dict[str, Handler]:
        shell = self.shell
        found: dict[str, Handler] = {
            "find": self.focus_search,
            "select_all": self.select_all,
            "next_paper": lambda: self.move_current(1),
            "previous_paper": lambda: self.move_current(-1),
            "next_unread": self.next_unread,
        }
        for filter_name, action_name in FILTER_ACTIONS.items():
            found[action_name] = partial(shell.sidebar.select, filter_name, None)
        return found

    def attach(self) -> None:
        shell = self.shell
        shell.sidebar.filterChanged.connect(self._filter_changed)
        shell.search.textChanged.connect(lambda _text: self.search_timer.start())
        shell.search.textChanged.connect(lambda _text: shell.update_actions())
        shell.search.textChanged.connect(shell.sidebar.follow_search)
        shell.sidebar.searchChosen.connect(self.saved_search_chosen)
        self.search_timer.timeout.connect(self.apply_search)
        shell.model.completed.connect(self.update_count_label)
        shell.sidebar.counted.connect(self._counted)
        shell.table.placeholder.linkActivated.connect(
            lambda link: shell.actions["import" if link == "import" else
                                       "add_identifiers"].trigger())

    # -- the view ------------------------------------------------------------------------

    def show_counts_and_view(self, *, keep_view: bool = False) -> None:
        """Fill the sidebar's counts and the table: the remembered filter and sort, the
        first paper selected; with `keep_view`, the view and selection shown (once the
        library takes over from the first page)."""
        shell = self.shell
        sidebar, model = shell.sidebar, shell.model
        # A big library is counted in the background: start-up must not wait for it.
        small = shell.library.size_estimate() < SYNC_COUNT_LIMIT
        counts = shell.library.counts() if small else Counts(
            all=0, unread=0, reading=0, read=0, starred=0,
            tags=dict.fromkeys(shell.library.tag_names(), 0))
        view = model.view if keep_view else shell.initial_view
        sidebar.blockSignals(True)
        try:
            if keep_view:  # (a filter clicked before the library was open counts)
                filter_name, tag = sidebar.current()
                view = replace(view, filter=filter_name, tag=tag)
            sidebar.set_counts(counts)
            sidebar.select(view.filter, view.tag)
            filter_name, tag = sidebar.current()
        finally:
            sidebar.blockSignals(False)
        self.total = counts.all
        if not small and shell.attached:  # (its saved searches are counted already)
            sidebar.recount(saved=False)
        view = replace(view, filter=filter_name, tag=tag)
        if not keep_view or view != model.view:
            model.set_view(view, wait=True)
            if model.rowCount():
                shell.table.go_to_row(0)
        self.update_count_label()
        if shell.attached:
            shell.update_actions()

    def _filter_changed(self, filter_name: str, tag: object) -> None:
        model = self.shell.model
        view = replace(model.view, filter=filter_name,
                       tag=tag if isinstance(tag, str) else None)
        if view != model.view:
            model.set_view(view)

    def apply_search(self, *, wait: bool = False) -> None:
        """The search field's text as the view's search."""
        model = self.shell.model
        # The word being typed (no space after it yet) is searched as a prefix.
        typed = self.shell.search.text()
        view = replace(model.view, search=typed.strip(),
                       typing=bool(typed.strip()) and not typed[-1:].isspace())
        if view != model.view:
            model.set_view(view, wait=wait)

    def saved_search_chosen(self, query: str) -> None:
        """A saved search was chosen: every paper its query finds, the query in the
        search field, read whole (its last word is no prefix: the list is what its
        count counted)."""
        model = self.shell.model
        self.shell.search.setText(query)
        self.search_timer.stop()
        view = replace(model.view, filter="all", tag=None, search=query, typing=False)
        if view != model.view:
            model.set_view(view)

    # -- counts and the empty table ------------------------------------------------------

    def _counted(self, counts: Counts) -> None:
        """The sidebar counted again: the total of the status bar follows."""
        self.total = counts.all
        self.update_count_label()

    def update_count_label(self) -> None:
        """The status bar's count of the list (and of the selection)."""
        model = self.shell.model
        if not model.showing_papers:
            return  # (rows that are no papers: their feature counts them, features.feeds)
        shown = model.rowCount()
        view = model.view
        if not model.complete:
            text = tr("{shown}+ papers, counting…").format(shown=number(shown))
        elif view.filter == "all" and not view.tag and not view.search.strip():
            text = papers(shown)
        else:
            text = tr("{shown} of {total} papers match").format(
                shown=number(shown), total=number(self.total))
        reading = self._search_reading()
        if reading:
            text = tr("{papers} · {query}").format(papers=text, query=reading)
        selected = self.shell.selected_count()
        if selected > 1:
            text = tr("{papers} · {n} selected").format(papers=text, n=number(selected))
        self.shell.count_label.setText(text)
        self._update_placeholder()

    def _search_reading(self) -> str:
        """How the search was read ('author “hinton” and year 2020–2024'), for a query
        that is more than words; '' for plain words."""
        view = self.shell.model.view
        if not self.shell.attached or not view.search.strip():
            return ""
        tree = query.parse(view.search, typing=view.typing)
        return "" if query.is_plain(tree) else localized(querywords.describe(tree))

    def _update_placeholder(self) -> None:
        """An empty table says why and what to do: an empty library how papers come in,
        a view that matches nothing that it does."""
        model, actions = self.shell.model, self.shell.actions
        hint = ""
        if model.complete and model.rowCount() == 0:
            if self.total == 0:
                keys = {name: actions[name].shortcut().toString(
                    actions[name].shortcut().SequenceFormat.NativeText)
                    for name in ("import", "add_identifiers")}
                hint = tr(
                    "<p><b>This library has no papers yet.</b></p>"
                    "<p><a href='import'>Import…</a> a list of abstracts or a .bib file "
                    "({import_key}),<br><a href='add'>Add by Identifier…</a> a DOI, an arXiv "
                    "id or a title ({add_key}),<br>or drop files here.</p>").format(
                    import_key=keys["import"], add_key=keys["add_identifiers"])
            elif model.view.search.strip():
                hint = tr("<p><b>No paper matches “{query}”.</b></p><p>{reading}</p><p>Clear "
                          "the search (Escape), try fewer words, or choose another list in "
                          "the sidebar.</p>").format(
                    query=html.escape(model.view.search.strip()),
                    reading=html.escape(self._search_reading()))
            else:
                hint = tr("<p><b>No papers match.</b></p><p>Clear the search (Escape) or "
                          "choose another list in the sidebar.</p>")
        self.shell.table.show_placeholder(hint)

    # -- moving through the list ---------------------------------------------------------

    def select_all(self) -> None:
        """Ctrl+A: every paper of the list, also those of a big list still coming in
        (selected as they arrive)."""
        self.shell.table.select_whole_view()

    def move_current(self, delta: int) -> None:
        """Next (1) or previous (-1) paper."""
        table = self.shell.table
        current = table.currentIndex()
        row = current.row() + delta if current.isValid() else 0
        table.go_to_row(max(0, min(row, self.shell.model.rowCount() - 1)))

    def next_unread(self) -> None:
        """Go to the next unread paper of the list (wrapping around)."""
        table = self.shell.table
        ids = self.shell.model.ids
        if not ids:
            return
        current = table.currentIndex()
        start = current.row() + 1 if current.isValid() else 0
        # The rows after the current one, in growing pages: the next unread paper is
        # usually near, and a million-paper list is not read whole for it.
        start = min(start, len(ids))
        rows = itertools.chain(range(start, len(ids)), range(start))
        size = 256
        while page := list(itertools.islice(rows, size)):
            states = self.shell.library.rows([ids[row] for row in page])
            for row in page:
                paper = states.get(ids[row])
                if paper is not None and paper.read_state == "unread":
                    table.go_to_row(row)
                    return
            size *= 4
        self.shell.statusBar().showMessage(tr("No unread papers in this list"), 4000)

    # -- the search field ----------------------------------------------------------------

    def focus_search(self) -> None:
        """Put the focus in the search field, its text selected (Ctrl+F)."""
        self.shell.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.shell.search.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        shell = self.shell
        if (shell.attached and watched is shell.search
                and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)):
            if event.key() == Qt.Key.Key_Escape:
                if shell.search.text():
                    shell.search.clear()
                    self.search_timer.stop()
                    self.apply_search()
                else:
                    shell.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                # The first match, at once (the search typed last applies now).
                if self.search_timer.isActive():
                    self.search_timer.stop()
                    self.apply_search(wait=True)
                shell.table.go_to_row(0)
                shell.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
        return super().eventFilter(watched, event)
