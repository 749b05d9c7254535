"""Followed sources and their inbox in the window (papershelf.feeds).

File › Follow… asks for a source (gui.follow_dialog); the sidebar lists the Inbox and
each source with its count (gui.sidebar_inbox), a source's right-click menu checks,
renames (the name kept in the library: feeds.sources.rename) or unfollows it. Choosing
the Inbox (or a source) shows its items in the paper table, best first, the reason of
each in the Why column and the item in the detail pane (gui.inbox_view); A adds the
selection to the library, S adds it starred, D dismisses it, Shift+K keeps it past the
clean-up of old items (or no longer), each one undo step. Inbox › Rank By (or a tag's
right-click menu) ranks the inbox by a tag's papers alone, remembered for the library,
ranked in a worker. Sources are checked on Check Now and every few hours (a preference;
never offline), in a worker, the status bar's progress and Cancel showing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from itertools import count
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from papershelf import lazy
from papershelf.core.gcpause import young_collections_only
from papershelf.core.shapes import PaperRow
from papershelf.errors import UserError
from papershelf.gui import settings as S
from papershelf.gui.i18n import localized, number
from papershelf.gui.qt import (
    QActionGroup,
    QInputDialog,
    QMenu,
    QPoint,
    Qt,
    QTimer,
    Translator,
)
from papershelf.gui.shell import Feature, Handler, Shell
from papershelf.gui.sidebar_inbox import SourceEntry
from papershelf.gui.workers import Job, Latest

if TYPE_CHECKING:
    from papershelf.core.edits import Change
    from papershelf.core.library import Library
    from papershelf.feeds import inbox, sources
    from papershelf.feeds.inbox import Checked, Item
    from papershelf.feeds.sources import Source
    from papershelf.gui.follow_dialog import FollowDialog
    from papershelf.gui.inbox_view import InboxItemView
    from papershelf.gui.operations import ChangeEvent
    from papershelf.metadata.http import HttpSettings
else:
    inbox = lazy.module("papershelf.feeds.inbox")
    sources = lazy.module("papershelf.feeds.sources")

tr = Translator("Feeds")

_ID = attrgetter("id")  # (an item's, a row's)


class _Read(NamedTuple):
    """The sources and the inbox as a worker read them (`reload`): each item, its row
    and the items of each source too; the tag it was ranked by, whether the sources'
    old names were moved to the library."""

    sources: list[Source]
    items: list[Item]
    by_id: dict[int, Item]
    rows: dict[int, PaperRow]
    counts: Counter[str]
    tag: str
    moved: bool


# The actions that stay on while the inbox's items are shown (the others are for papers).
_INBOX_ACTIONS = ("inbox_add", "inbox_star", "inbox_dismiss", "inbox_keep")
_ON_ITEMS = frozenset({*_INBOX_ACTIONS, "select_all", "next_paper", "previous_paper"})
HOUR_MS = 3_600_000


class FeedsFeature(Feature):
    """Following sources, checking them, and triaging the inbox they fill."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.http: HttpSettings | None = None  # the HTTP client's (None: the user's)
        self.items: list[Item] = []  # the inbox, best first
        # Each item, its row in the table, and the items of each source (by spelling):
        # made in the worker that read them, not while the window waits.
        self._by_id: dict[int, Item] = {}
        self._rows: dict[int, PaperRow] = {}
        self._counts: Counter[str] = Counter()
        self.sources: list[Source] = []
        self.dialog: FollowDialog | None = None  # File › Follow…, while open
        self.rename_dialog: QInputDialog | None = None
        self.last_check: list[Checked] | None = None  # what the last check found
        self._loading: Latest | None = None
        self._loaded_once = False
        self._job: Job | None = None
        self._view: InboxItemView | None = None
        self.ranked_by = ""  # the tag the inbox shown was ranked by ('': the whole library)
        # Inbox › Rank By: the whole library, or one tag (filled as it opens).
        self.rank_menu = QMenu(tr("&Rank By"), shell)
        self.rank_menu.setObjectName("rankMenu")
        self.rank_menu.aboutToShow.connect(self._fill_rank_menu)
        shell.inbox_menu.addMenu(self.rank_menu)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.scheduled_check)

    def handlers(self) -> dict[str, Handler]:
        return {
            "follow": self.ask_follow,
            "check_feeds": self.check_now,
            "show_inbox": lambda: self.shell.sidebar.inbox.choose(""),
            "inbox_add": lambda: self._triage(inbox.add),
            "inbox_star": lambda: self._triage(inbox.star),
            "inbox_dismiss": lambda: self._triage(inbox.dismiss),
            "inbox_keep": self._keep,
        }

    def attach(self) -> None:
        shell = self.shell
        self._loading = Latest(shell.ops.tasks, shell.ops.report)
        section = shell.sidebar.inbox
        section.chosen.connect(self._chosen)
        section.left.connect(self._left)
        section.menuRequested.connect(self._source_menu)
        shell.sidebar.tagMenuRequested.connect(self._tag_menu)
        shell.ops.changed.connect(self._changed)
        shell.table.starClicked.connect(self._star_clicked)
        self.settings_changed()
        self.reload()

    # -- what the inbox holds ------------------------------------------------------------

    def reload(self) -> None:
        """Read the sources and the inbox (ranked, by the tag chosen) again, in a worker;
        names of sources the window's settings kept (before they were the library's)
        are moved to the library first, once."""
        if self._loading is None:
            return
        library = self.shell.library
        tag, names = self._rank_tag(), self._old_names()

        def read() -> _Read:
            with young_collections_only():  # (see `check_now`)
                if names:
                    _move_names(library, names)
                used = tag
                try:
                    found = inbox.items(library, tag=tag)
                except UserError:  # (the tag is gone: the whole library's ranking)
                    used, found = "", inbox.items(library)
                return _Read(sources.sources(library.context), found,
                             {item.id: item for item in found},
                             {item.id: _row(item) for item in found},
                             Counter(item.source for item in found), used, bool(names))

        self._loading.request(read, self._read)

    @property
    def ranking(self) -> bool:
        """Whether the inbox is being read and ranked (in a worker)."""
        return self._loading is not None and self._loading.running

    def _read(self, found: _Read) -> None:
        if found.moved:  # (the names are the library's now)
            self.shell.settings.set(self._names_setting(), "")
        if found.tag != self._rank_tag():  # (its tag was deleted)
            self.shell.settings.set(self._rank_setting(), found.tag)
        self.ranked_by = found.tag
        self._by_id, self._rows, self._counts = found.by_id, found.rows, found.counts
        self._loaded((found.sources, found.items))

    def _loaded(self, found: tuple[list[Source], list[Item]], *, read: bool = True) -> None:
        """Show the sources and the inbox (`read`: as read from the library; else as the
        window changed them meanwhile, `_by_id`, `_rows` and `_counts` with them)."""
        self.sources, self.items = found
        counts = self._counts
        self.shell.sidebar.inbox.set_sources(
            [SourceEntry(s.spelling, s.label, counts[s.spelling], s.state == "failed",
                         s.note) for s in self.sources],
            len(self.items))
        if not self.shell.model.showing_papers:
            self._show()
        if read and not self._loaded_once:
            self._loaded_once = True
            if self._due():
                QTimer.singleShot(0, self, self.scheduled_check)
        self.shell.update_actions()

    def _show(self) -> None:
        """The chosen source's items (or the whole inbox's) in the table."""
        spelling = self.shell.sidebar.inbox.current() or ""
        shown = [item for item in self.items if item.source == spelling] if spelling \
            else self.items
        table = self.shell.table
        was = set() if self.shell.model.showing_papers else set(table.selected_ids())
        # (in C: 85,000 items after a big check, while the window waits)
        self.shell.model.show_rows(list(map(self._rows.__getitem__, map(_ID, shown))),
                                   {"venue": tr("Why"), "added": tr("Found")})
        if was:  # (kept selected)
            rows = dict(zip(map(_ID, shown), count()))
            again = sorted(rows[i] for i in was if i in rows)
        else:
            again = []
        if again:
            table.select_rows(again, again[0])
        elif shown and not table.selected_ids():
            table.go_to_row(0)
        self._update_label()
        self.selection_changed()

    def _update_label(self) -> None:
        shell = self.shell
        rows = shell.model.rowCount()
        text = tr("%n papers in the inbox", "", rows)
        if self.ranked_by:
            text = tr("{items}, ranked by the tag {tag}").format(items=text,
                                                                  tag=self.ranked_by)
        selected = shell.selected_count()
        if selected > 1:
            text = tr("{items} · {n} selected").format(items=text, n=number(selected))
        shell.count_label.setText(text)
        hint = ""
        if not rows:
            hint = tr("<p><b>Nothing new.</b></p><p>Follow sources with File › Follow…; "
                      "their new papers come here, best first.</p>") if not self.sources \
                else tr("<p><b>Nothing new.</b></p><p>New papers of the sources you follow "
                        "come here when they are checked (Check Now).</p>")
        shell.table.show_placeholder(hint)

    def _chosen(self, _spelling: str) -> None:
        """The Inbox or a source was chosen in the sidebar: its items."""
        table = self.shell.table
        if self.shell.model.showing_papers:
            table.clearSelection()  # (paper ids mean nothing here)
            table.setSortingEnabled(False)  # (best first; the papers' sort stays as it was)
        self._show()
        self.shell.update_actions()

    def _left(self) -> None:
        """Another entry was chosen: the papers again (if its own choice did not)."""
        model = self.shell.model
        if not model.showing_papers:
            self.shell.table.clearSelection()  # (item ids mean nothing among papers)
            model.set_view(model.view)
            self.shell.table.setSortingEnabled(True)

    def _changed(self, event: ChangeEvent) -> None:
        if sources.INBOX in event.change.touched:
            self.reload()

    def selection_changed(self) -> None:
        shell = self.shell
        if shell.model.showing_papers:
            return
        chosen = self.selected_items()
        if len(chosen) == 1:
            if self._view is None:
                from papershelf.gui.inbox_view import InboxItemView

                self._view = InboxItemView()
            item = chosen[0]
            self._view.show_item(item, tr("A adds it to the library, S adds it starred, "
                                          "D dismisses it, Shift+K keeps it"),
                                 next((s.label for s in self.sources
                                       if s.spelling == item.source), ""))
            shell.detail.show_other(self._view)
        else:
            shell.detail.show_selection_count(len(chosen))
        self._update_label()

    def selected_items(self) -> list[Item]:
        """The inbox items selected in the table, in its order."""
        by_id = self._by_id
        return [by_id[i] for i in self.shell.table.selected_ids() if i in by_id]

    def update_actions(self) -> None:
        shell = self.shell
        on_items = not shell.model.showing_papers
        actions = shell.actions
        selected = bool(shell.table.selected_ids()) and not shell.ops.busy
        for name in _INBOX_ACTIONS:
            actions[name].setEnabled(on_items and selected)
        if on_items:
            for name, spec in actions.specs.items():
                if spec.needs.value in ("selection", "rows") and name not in _ON_ITEMS:
                    actions[name].setEnabled(False)
        actions["check_feeds"].setEnabled(self._job is None and bool(self.sources))

    # -- triage --------------------------------------------------------------------------

    def _triage(self, write: Callable[[Library, Sequence[int]], Change]) -> None:
        ids = [item.id for item in self.selected_items()]
        if ids and not self.shell.model.showing_papers:
            library = self.shell.library
            self.shell.ops.perform(lambda: write(library, ids), len(ids),
                                   lambda _change: self._gone(set(ids)))

    def _keep(self) -> None:
        """Keep the selected items past the clean-up of old items (unkeep them when all
        are kept already): one undo step."""
        chosen = self.selected_items()
        if not chosen or self.shell.model.showing_papers:
            return
        ids = [item.id for item in chosen]
        kept = not all(item.kept for item in chosen)
        library = self.shell.library
        self.shell.ops.perform(lambda: inbox.keep(library, ids, kept), len(ids),
                               lambda _change: self._marked(set(ids), kept))

    def _marked(self, ids: set[int], kept: bool) -> None:
        """Items kept (or no longer): their rows say so now."""
        marked = [item._replace(kept=kept) if item.id in ids else item
                  for item in self.items]
        for item in marked:
            if item.id in ids:
                self._by_id[item.id], self._rows[item.id] = item, _row(item)
        self._loaded((self.sources, marked), read=False)

    def _gone(self, ids: set[int]) -> None:
        """Items triaged: out of the table now (the inbox is read and ranked again in
        the background, seconds on a big library)."""
        for gone in ids:
            item = self._by_id.pop(gone, None)
            self._rows.pop(gone, None)
            if item is not None:
                self._counts[item.source] -= 1
        self._loaded((self.sources, [item for item in self.items if item.id not in ids]),
                     read=False)

    def _star_clicked(self, row: int) -> None:
        """A click on an item's star: add it (and the selection it is in) starred."""
        model, table = self.shell.model, self.shell.table
        item_id = model.id_at(row)
        if model.showing_papers or item_id is None:
            return
        if item_id not in table.selected_ids():
            table.go_to_row(row)
        self._triage(inbox.star)

    # -- following ----------------------------------------------------------------------

    def ask_follow(self) -> None:
        """File › Follow…: the dialog (window-modal); OK follows the source and checks it."""
        from papershelf.gui.follow_dialog import FollowDialog

        dialog = FollowDialog(self.shell, followed=[s.spelling for s in self.sources])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.follow(dialog.spelling()))
        dialog.finished.connect(lambda _result: setattr(self, "dialog", None))
        self.dialog = dialog
        dialog.open()

    def follow(self, spelling: str) -> None:
        """Follow a source (one undo step), then check it unless offline."""
        ctx = self.shell.library.context
        self.shell.ops.perform(lambda: sources.follow(ctx, spelling)[0], 0,
                               lambda _change: self.check_now([spelling], quiet_offline=True))

    def unfollow(self, spelling: str) -> None:
        """Stop following a source (one undo step; its items stay in the inbox)."""
        ctx = self.shell.library.context
        self.shell.ops.perform(lambda: sources.unfollow(ctx, spelling), 0)

    def _source_menu(self, spelling: str, where: QPoint) -> None:
        menu = QMenu(self.shell)
        menu.setObjectName("sourceMenu")
        menu.addAction(tr("Check &Now"), lambda: self.check_now([spelling])).setEnabled(
            self._job is None)
        menu.addAction(tr("&Rename…"), lambda: self.ask_rename(spelling))
        menu.addSeparator()
        menu.addAction(tr("&Unfollow"), lambda: self.unfollow(spelling))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(where)

    def ask_rename(self, spelling: str) -> None:
        """The name the sidebar shows for a source (kept in the library)."""
        dialog = QInputDialog(self.shell)
        dialog.setObjectName("renameSource")
        dialog.setWindowTitle(tr("Rename Source"))
        dialog.setLabelText(tr("Name of {source} in the sidebar (empty: its address):")
                            .format(source=spelling))
        dialog.setTextValue(next((s.label for s in self.sources if s.spelling == spelling),
                                 spelling))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.textValueSelected.connect(lambda name: self.rename(spelling, name))
        dialog.finished.connect(lambda _result: setattr(self, "rename_dialog", None))
        self.rename_dialog = dialog
        dialog.open()

    def rename(self, spelling: str, name: str) -> None:
        """Call a source `name` ('' or its spelling: shown by its spelling), in the
        library: every window and `follow list` show it. One undo step."""
        ctx = self.shell.library.context
        self.shell.ops.perform(lambda: sources.rename(ctx, spelling, name), 0)

    def _names_setting(self) -> S.Setting[str]:
        return S.for_library(S.FEED_NAMES, self.shell.library.location)

    def _old_names(self) -> dict[str, str]:
        """The names the window's settings kept before they were the library's (moved
        there at the next reading, then forgotten)."""
        try:
            found = json.loads(self.shell.settings.get(self._names_setting()) or "{}")
        except ValueError:
            return {}
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}

    # -- ranking by a tag ---------------------------------------------------------------

    def _rank_setting(self) -> S.Setting[str]:
        return S.for_library(S.INBOX_RANK_TAG, self.shell.library.location)

    def _rank_tag(self) -> str:
        return self.shell.settings.get(self._rank_setting())

    def rank_by(self, tag: str) -> None:
        """Rank the inbox by the papers of `tag` alone ('': by the whole library, what the
        member starred, read or tagged), remembered for the library; ranked in a worker."""
        self.shell.settings.set(self._rank_setting(), tag)
        self.reload()

    def _fill_rank_menu(self) -> None:
        menu = self.rank_menu
        menu.clear()
        group = QActionGroup(menu)
        chosen = self._rank_tag()
        for n, tag in enumerate(["", *self.shell.sidebar.tag_names()]):
            action = menu.addAction(tag or tr("All My Papers"), self._ranker(tag))
            action.setCheckable(True)
            action.setChecked(tag == chosen)
            group.addAction(action)
            if not n:
                action.setToolTip(tr("Rank the inbox by what you starred, read or tagged"))
                menu.addSeparator()

    def _ranker(self, tag: str) -> Callable[[], None]:
        return lambda: self.rank_by(tag)

    def _tag_menu(self, tag: str, where: QPoint) -> None:
        menu = QMenu(self.shell)
        menu.setObjectName("tagMenu")
        menu.addAction(tr("Rank Inbox by This Tag"), lambda: self._rank_and_show(tag))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(where)

    def _rank_and_show(self, tag: str) -> None:
        self.rank_by(tag)
        self.shell.sidebar.inbox.choose("")

    # -- checking -----------------------------------------------------------------------

    def _http(self) -> HttpSettings:
        from papershelf.metadata.http import HttpSettings

        return self.http if self.http is not None else HttpSettings()

    def check_now(self, only: Sequence[str] | None = None, *,
                  quiet_offline: bool = False) -> None:
        """Ask the sources (or those spelt in `only`) for new papers, in a worker, with
        the status bar's progress and Cancel; the inbox is read again once done."""
        shell = self.shell
        if self._job is not None or shell.closing:
            return
        http = self._http()
        if http.offline:
            if not quiet_offline:
                shell.statusBar().showMessage(tr("Offline mode is on (Edit › Preferences): "
                                                 "no source was checked"), 8000)
            return
        library = self.shell.library
        wanted = None if only is None else list(only)

        def check(job: Job) -> list[Checked]:
            from papershelf.metadata.http import make_client

            # (no full collection meanwhile: with 50 feeds of 2,000 items, those the
            # check's objects set off stalled the window up to 291 ms each)
            with young_collections_only(), make_client(http) as client:
                return inbox.check(library, client, only=wanted, progress=job.progress,
                                   stop=job.cancelled)

        shell.show_cancellable(tr("Stop checking the sources you follow"))
        shell.statusBar().showMessage(tr("Checking the sources you follow…"))
        self._job = shell.tasks.run(check, self._checked, self._check_failed,
                                    shell.show_progress)
        self.update_actions()

    def _checked(self, found: list[Checked]) -> None:
        self._job = None
        self.last_check = found
        self.shell.job_ended()
        new = sum(checked.new for checked in found)
        failed = sum(checked.failed for checked in found)
        text = tr("Checked %n sources", "", len(found))
        text = tr("{checked}: {new}").format(checked=text,
                                             new=tr("%n new papers", "", new))
        if failed:
            text = tr("{said}; {failed} failed (its note is on it in the sidebar)").format(
                said=text, failed=number(failed))
        self.shell.statusBar().showMessage(text, 8000)
        self.reload()
        self.update_actions()

    def _check_failed(self, error: BaseException) -> None:
        self._job = None
        self.shell.job_ended()
        self.reload()
        self.shell.ops.report(error)

    def scheduled_check(self) -> None:
        """The schedule's check: every source, unless offline or one runs."""
        if self.sources and self._job is None and not self._http().offline:
            self.check_now(quiet_offline=True)

    def _due(self) -> bool:
        """Whether a source waits for a check longer than the schedule's interval."""
        hours = self.shell.settings.get(S.FEEDS_CHECK_HOURS)
        if hours <= 0:
            return False
        since = datetime.now(timezone.utc) - timedelta(hours=hours)
        return any(s.checked_at is None or _utc(s.checked_at) < since for s in self.sources)

    def settings_changed(self) -> None:
        interval = max(0, self.shell.settings.get(S.FEEDS_CHECK_HOURS)) * HOUR_MS
        if not interval:
            self.timer.stop()
        elif not self.timer.isActive() or self.timer.interval() != interval:
            self.timer.start(interval)  # (the next check one interval from now)

    @property
    def running_job(self) -> bool:
        return self._job is not None

    def cancel(self) -> bool:
        if self._job is None:
            return False
        self._job.cancel()  # (the source being asked finishes; no other is asked)
        self.shell.cancel_button.setEnabled(False)
        self.shell.statusBar().showMessage(tr("Stopping after the source being asked…"))
        return True

    def close(self) -> None:
        self.timer.stop()
        if self._job is not None:
            self._job.cancel()


def _move_names(library: Library, names: dict[str, str]) -> None:
    """Give the member's sources without a name of theirs the `names` the window's
    settings kept (spelling to name): no undo step, the user changed nothing."""
    ctx = library.context
    for source in sources.sources(ctx):
        name = names.get(source.spelling, "")
        if name and not source.name:
            sources.rename(ctx, source.spelling, name)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _row(item: Item) -> PaperRow:
    """An inbox item as a row of the paper table: the reason of its rank as its venue."""
    return PaperRow(id=item.id, key="", title=item.title, title_provisional=False,
                    authors=", ".join(item.authors), venue=localized(item.why),
                    year=item.published.year if item.published else None, starred=False,
                    read_state="kept" if item.kept else "", added_at=item.found_at)
