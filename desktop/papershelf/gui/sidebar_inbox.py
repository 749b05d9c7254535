"""The sidebar's Inbox: its entry with the count of items waiting, and under it each
followed source with its own count (a source whose last check failed shows a warning
and its note).

The section lives in the sidebar's tree, between the filters and the tags, and shows
once the member follows a source. The sidebar asks it whether an item is its own
(`owns`) and leaves choosing one to it: `chosen` says which source was chosen ('' the
whole inbox), `left` that the choice went elsewhere; a right-click on a source asks for
its menu (`menuRequested`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from papershelf.gui.i18n import number
from papershelf.gui.qt import (
    QFont,
    QObject,
    QPoint,
    QStyle,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    Signal,
    icon,
)

_SOURCE_ROLE = Qt.ItemDataRole.UserRole + 2  # an item of the section: its source ('': all)


@dataclass(frozen=True)
class SourceEntry:
    """A source as the sidebar lists it."""

    spelling: str
    label: str  # its name (the spelling, unless the user renamed it)
    count: int  # its items waiting in the inbox
    failed: bool
    note: str


class InboxSection(QObject):
    """The Inbox entry and its sources, in a sidebar's tree."""

    chosen = Signal(str)  # a source's spelling ('': the whole inbox)
    left = Signal()  # the current entry is no longer the inbox's
    menuRequested = Signal(str, object)  # a source's spelling, the global position

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree
        self.inbox = QTreeWidgetItem(tree, [self.tr("Inbox"), ""])
        self.inbox.setIcon(0, icon("import"))
        self.inbox.setData(0, _SOURCE_ROLE, "")
        self.inbox.setToolTip(0, self.tr("New papers from the sources you follow "
                                         "(File › Follow…), best first"))
        self.inbox.setFlags(self.inbox.flags() & ~Qt.ItemFlag.ItemIsDragEnabled)
        self.inbox.setTextAlignment(1, Qt.AlignmentFlag.AlignRight
                                    | Qt.AlignmentFlag.AlignVCenter)
        self.inbox.setHidden(True)  # (until the member follows a source, or asks for it)
        self._sources: dict[str, QTreeWidgetItem] = {}
        self._shown: str | None = None  # the source shown ('' all), None: not the inbox
        tree.currentItemChanged.connect(self._current_changed)

    def owns(self, item: QTreeWidgetItem | None) -> bool:
        """Whether `item` is the Inbox or one of its sources."""
        return item is not None and item.data(0, _SOURCE_ROLE) is not None

    def current(self) -> str | None:
        """The source chosen ('': the whole inbox), None when the inbox is not."""
        item = self.tree.currentItem()
        if item is None or not self.owns(item):
            return None
        return str(item.data(0, _SOURCE_ROLE))

    def choose(self, spelling: str = "") -> None:
        """Make the inbox (or one of its sources) the current entry."""
        item = self._sources.get(spelling, self.inbox) if spelling else self.inbox
        self.inbox.setHidden(False)
        self.tree.setCurrentItem(item)

    def source_item(self, spelling: str) -> QTreeWidgetItem | None:
        """The row of a source (tests, menus)."""
        return self._sources.get(spelling)

    def set_sources(self, entries: Sequence[SourceEntry], total: int) -> None:
        """List these sources under the Inbox, each with its count, the inbox with
        `total`; the current entry stays if it is still there (else the whole inbox)."""
        chosen = self.current()
        self.inbox.setText(1, number(total) if total else "")
        font = QFont(self.tree.font())
        font.setBold(bool(total))
        self.inbox.setFont(0, font)
        wanted = {entry.spelling for entry in entries}
        for spelling in [s for s in self._sources if s not in wanted]:
            gone = self._sources.pop(spelling)
            if gone is self.tree.currentItem():
                self.tree.setCurrentItem(self.inbox)
            self.inbox.removeChild(gone)
        warning = self.tree.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        for n, entry in enumerate(entries):
            item = self._sources.get(entry.spelling)
            if item is None:
                item = QTreeWidgetItem([entry.label, ""])
                item.setData(0, _SOURCE_ROLE, entry.spelling)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsDragEnabled)
                item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
                self.inbox.insertChild(n, item)
                self._sources[entry.spelling] = item
            elif self.inbox.indexOfChild(item) != n:
                was_current = item is self.tree.currentItem()
                self.inbox.takeChild(self.inbox.indexOfChild(item))
                self.inbox.insertChild(n, item)
                if was_current:
                    self.tree.setCurrentItem(item)
            item.setText(0, entry.label)
            item.setText(1, number(entry.count) if entry.count else "")
            item.setIcon(0, warning if entry.failed else icon("search"))
            tip = entry.spelling if entry.label == entry.spelling else \
                f"{entry.label}\n{entry.spelling}"
            if entry.failed:
                tip = self.tr("{source}\nThe last check failed: {note}").format(
                    source=tip, note=entry.note)
            elif entry.note:
                tip = f"{tip}\n{entry.note}"
            item.setToolTip(0, tip)
        self.inbox.setExpanded(True)
        if entries or total:
            self.inbox.setHidden(False)
        if chosen and chosen not in self._sources:
            self.tree.setCurrentItem(self.inbox)

    def context_menu(self, item: QTreeWidgetItem | None, pos: QPoint) -> bool:
        """A right-click on `item`: a source's menu is asked for; whether it was one."""
        spelling = item.data(0, _SOURCE_ROLE) if item is not None else None
        if not spelling:
            return False
        self.menuRequested.emit(str(spelling), self.tree.viewport().mapToGlobal(pos))
        return True

    def _current_changed(self, current: QTreeWidgetItem | None,
                         _previous: QTreeWidgetItem | None) -> None:
        spelling = current.data(0, _SOURCE_ROLE) if current is not None else None
        shown, self._shown = self._shown, None if spelling is None else str(spelling)
        if self._shown is not None:
            self.chosen.emit(self._shown)
        elif shown is not None:
            self.left.emit()
