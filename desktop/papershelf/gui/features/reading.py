"""Reading a paper in the window (issue 43): Enter (or O, when the paper's PDF is on
this computer) opens its PDF in a reader tab beside the library's tab; Ctrl+W closes it.
Annotations made there go through the window's writes (one undo step each), and a tab
shows again what an undo, another window or another member changed on its paper."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.features import pdfs
from papershelf.gui.qt import Translator
from papershelf.gui.shell import Feature, Handler

if TYPE_CHECKING:
    from papershelf.core import annotating, files
    from papershelf.gui.reader.tab import ReaderTab
    from papershelf.gui.write_queue import ChangeEvent
else:
    annotating = lazy.module("papershelf.core.annotating")
    files = lazy.module("papershelf.core.files")

tr = Translator("MainWindow")
TITLE_LENGTH = 32  # characters of a paper's title on its tab


class ReadingFeature(Feature):
    """Reader tabs: one a paper, several at once."""

    def handlers(self) -> dict[str, Handler]:
        return {"read_pdf": self.read_current, "close_tab": self.close_current}

    def attach(self) -> None:
        tabs = self.shell.tabs
        tabs.tabCloseRequested.connect(self.close_tab)
        tabs.currentChanged.connect(self._current_changed)
        self.shell.ops.changed.connect(self._changed)

    def readers(self) -> list[ReaderTab]:
        from papershelf.gui.reader.tab import ReaderTab

        tabs = self.shell.tabs
        return [w for w in (tabs.widget(i) for i in range(tabs.count()))
                if isinstance(w, ReaderTab)]

    def read_current(self) -> None:
        """Enter: the current paper's PDF in a reader tab, if it is on this computer."""
        shell = self.shell
        pid = shell.table.focused_id()
        detail = shell.library.paper(pid) if pid is not None else None
        if detail is None:
            return
        local = detail.local_pdf
        if local is None and shell.library.shared and detail.files:  # (the library's copy)
            pdfs.fetch_from_library(shell, detail, lambda path: self.open(
                detail.id, path, detail.record.title or detail.record.key or ""))
            return
        if local is None or not files.is_pdf(local):
            shell.statusBar().showMessage(tr(
                "{key} has no PDF on this computer (attach one, or Shift+O opens it "
                "online)").format(key=detail.record.key), 8000)
            return
        self.open(detail.id, local, detail.record.title or detail.record.key or "")

    def open(self, paper_id: int, path: Path, title: str) -> None:
        """Show the paper's PDF in its tab (made if need be)."""
        from papershelf.gui.reader.tab import ReaderTab

        tabs = self.shell.tabs
        for tab in self.readers():
            if tab.paper_id == paper_id:
                tabs.setCurrentWidget(tab)
                tab.view.setFocus()
                return
        ops = self.shell.ops
        tab = ReaderTab(self.shell.library, paper_id, path, tabs,
                        perform=lambda write, done: ops.perform(write, 1, done))
        tab.failed.connect(lambda line: self.shell.statusBar().showMessage(line, 10000))
        short = title if len(title) <= TITLE_LENGTH else title[:TITLE_LENGTH - 1] + "…"
        index = tabs.addTab(tab, short)
        tabs.setTabToolTip(index, title)
        tabs.setCurrentIndex(index)
        tab.view.setFocus()

    def close_tab(self, index: int) -> None:
        from papershelf.gui.reader.tab import ReaderTab

        tab = self.shell.tabs.widget(index)
        if not isinstance(tab, ReaderTab):
            return  # (the library's own tab stays)
        tab.close_document()
        self.shell.tabs.removeTab(index)
        tab.deleteLater()
        if self.shell.tabs.currentIndex() == 0:
            self.shell.table.setFocus()

    def close_current(self) -> None:
        """Ctrl+W: close the reader tab shown."""
        self.close_tab(self.shell.tabs.currentIndex())

    def _current_changed(self, index: int) -> None:
        # The window's Find (Ctrl+F) is the table's; a reader tab finds in its document.
        self.shell.actions["find"].setEnabled(index == 0)
        self.shell.actions["close_tab"].setEnabled(index > 0)

    def _changed(self, event: ChangeEvent) -> None:
        change = event.change
        marks = {annotating.ANNOTATIONS, annotating.PRIVATE_ANNOTATIONS}
        if not (change.touched & marks or change.structural):
            return
        for tab in self.readers():
            if change.ids and tab.paper_id not in change.ids:
                continue
            if change.structural and self.shell.library.paper(tab.paper_id) is None:
                self.close_tab(self.shell.tabs.indexOf(tab))  # (its paper was deleted)
            else:
                tab.refresh()

    def update_actions(self) -> None:
        self.shell.actions["close_tab"].setEnabled(self.shell.tabs.currentIndex() > 0)

    def close(self) -> None:
        for tab in self.readers():
            tab.close_document()

