"""Reading a paper in the window (issue 43): Enter (or O, when the paper's PDF is on
this computer) opens its PDF in a reader tab beside the library's tab; Ctrl+W closes it.
Annotations made there go through the window's writes (one undo step each), and a tab
shows again what an undo, another window or another member changed on its paper.

Each tab remembers where the user is (core.progress): a moment after they stop
scrolling, and as it closes, its place is written in the background (no undo step);
a paper opened again comes back to it. Opening an unread paper marks it "reading",
unless the preference says not to."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui import settings as S
from papershelf.gui.features import pdfs
from papershelf.gui.qt import QTimer, Translator
from papershelf.gui.shell import Feature, Handler, Shell

if TYPE_CHECKING:
    from papershelf.core import annotating, files, progress
    from papershelf.gui.reader.tab import ReaderTab
    from papershelf.gui.write_queue import ChangeEvent
else:
    annotating = lazy.module("papershelf.core.annotating")
    files = lazy.module("papershelf.core.files")
    progress = lazy.module("papershelf.core.progress")

tr = Translator("MainWindow")
TITLE_LENGTH = 32  # characters of a paper's title on its tab
SAVE_PLACE_MS = 1500  # the place is saved this long after the scrolling stopped


class ReadingFeature(Feature):
    """Reader tabs: one a paper, several at once."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self._saved: dict[ReaderTab, tuple[int, float] | None] = {}  # each tab's, written

    def handlers(self) -> dict[str, Handler]:
        return {"read_pdf": self.read_current, "close_tab": self.close_current}

    def attach(self) -> None:
        tabs = self.shell.tabs
        tabs.tabCloseRequested.connect(self.close_tab)
        tabs.currentChanged.connect(self._current_changed)
        self.shell.ops.changed.connect(self._changed)
        self.shell.detail.annotationChosen.connect(self.read_annotation)

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

    def read_key(self, key: str, page: int = 0) -> None:
        """`papershelf read KEY [--page N]`: the paper's PDF in its tab, at page N
        (from 1; 0: where the user left it); a key or PDF not found is said in the
        status bar."""
        shell = self.shell
        ids, _missing = shell.library.ids_for_keys([key])
        detail = shell.library.paper(ids[0]) if ids else None
        if detail is None:
            shell.statusBar().showMessage(tr("No paper has the key {key}").format(key=key),
                                          8000)
            return
        local = detail.local_pdf
        if local is None or not files.is_pdf(local):
            shell.statusBar().showMessage(tr("{key} has no PDF on this computer").format(
                key=key), 8000)
            return
        self.open(detail.id, local, detail.record.title or key, page - 1 if page > 0 else None)

    def read_annotation(self, paper_id: int, annotation_id: int) -> None:
        """A click on an annotation in the detail pane: the paper's PDF in its tab,
        scrolled to the annotation and the annotation chosen."""
        detail = self.shell.library.paper(paper_id)
        if detail is None:
            return
        local = detail.local_pdf
        if local is None or not files.is_pdf(local):
            self.shell.statusBar().showMessage(tr(
                "{key} has no PDF on this computer").format(key=detail.record.key), 8000)
            return
        self.open(paper_id, local, detail.record.title or detail.record.key or "",
                  annotation=annotation_id)

    def open(self, paper_id: int, path: Path, title: str, page: int | None = None, *,
             annotation: int | None = None) -> None:
        """Show the paper's PDF in its tab (made if need be), at `page` (from 0), at
        an annotation, or where the user left it."""
        from papershelf.gui.reader.tab import ReaderTab

        tabs = self.shell.tabs
        for tab in self.readers():
            if tab.paper_id == paper_id:
                tabs.setCurrentWidget(tab)
                if annotation is not None:
                    self._show_annotation(tab, annotation)
                elif page is not None:
                    tab.view.set_place(page, 0.0)
                tab.view.setFocus()
                return
        ops, library = self.shell.ops, self.shell.library
        tab = ReaderTab(library, paper_id, path, tabs,
                        perform=lambda write, done: ops.perform(write, 1, done))
        left = None if annotation is not None else library.position(paper_id)
        place = (page, 0.0) if page is not None else (left.page, left.offset) if left else None
        self._follow_place(tab, place)
        if annotation is not None:
            self._show_annotation(tab, annotation)
        mark = bool(self.shell.settings.get(S.MARK_READING))
        ops.record(lambda: library.opened(paper_id, mark))
        tab.failed.connect(lambda line: self.shell.statusBar().showMessage(line, 10000))
        tab.closeRequested.connect(lambda: self.close_tab(tabs.indexOf(tab)))
        short = title if len(title) <= TITLE_LENGTH else title[:TITLE_LENGTH - 1] + "…"
        index = tabs.addTab(tab, short)
        tabs.setTabToolTip(index, title)
        tabs.setCurrentIndex(index)
        tab.view.setFocus()

    @staticmethod
    def _show_annotation(tab: ReaderTab, annotation_id: int) -> None:
        """Go to an annotation of the tab's paper, now or once its file is open."""
        if tab.view.page_count() > 0:
            tab.show_annotation(annotation_id)
            return

        def opened() -> None:
            tab.view.opened.disconnect(opened)
            tab.show_annotation(annotation_id)

        tab.view.opened.connect(opened)

    def close_tab(self, index: int) -> None:
        from papershelf.gui.reader.tab import ReaderTab

        tab = self.shell.tabs.widget(index)
        if not isinstance(tab, ReaderTab):
            return  # (the library's own tab stays)
        self._save_place(tab)
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
        self._current_changed(self.shell.tabs.currentIndex())

    def close(self) -> None:
        for tab in self.readers():
            self._save_place(tab)
            tab.close_document()

    # -- where the user is -------------------------------------------------------------

    def _follow_place(self, tab: ReaderTab, place: tuple[int, float] | None) -> None:
        """Go to `place` (page, fraction down it) once the file is open, and save the
        tab's place a moment after each scroll."""
        timer = QTimer(tab)
        timer.setSingleShot(True)
        timer.setInterval(SAVE_PLACE_MS)
        timer.timeout.connect(lambda: self._save_place(tab))
        self._saved[tab] = place
        if place is not None:
            tab.view.opened.connect(lambda: tab.view.set_place(
                min(place[0], tab.view.page_count() - 1), place[1]))
        tab.view.verticalScrollBar().valueChanged.connect(lambda _value: timer.start())
        tab.destroyed.connect(lambda _tab=None: self._saved.pop(tab, None))

    def _save_place(self, tab: ReaderTab) -> None:
        """Write where the user is in the tab's PDF, if it moved since last written."""
        page, fraction = tab.view.place()
        if page < 0 or self._saved.get(tab) == (page, fraction):
            return
        self._saved[tab] = (page, fraction)
        where = progress.Position(page, fraction, tab.view.page_count())
        library, paper_id = self.shell.library, tab.paper_id
        self.shell.ops.record(lambda: library.save_position(paper_id, where))

