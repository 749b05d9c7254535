"""The detail pane: the current paper's record, full abstract, and the notes.

The pane shows `PaperDetail`s handed to it and reports edits through `titleEdited`,
`notesEdited` (the notes everyone sharing the library reads, with the base they were
typed from) and `privateNotesEdited` (the user's own notes, shown on a shared library
only); the main window connects those to the operations layer. Following the
operations (`follow`), it reads its paper again after a change to it, never replacing
notes being typed. Notes save as you type (debounced) and are flushed whenever they
could otherwise be lost: on focus-out, before another paper is shown, and when the pane
is hidden or closed. Once saves have landed the pane reads the notes back: the paper's
new version is the next save's base, and a merge with someone else's edit is shown.
The notes editors are gui.notes_box's; the record's text and its widgets gui.record_view's.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.shapes import NOTES, PAPERS, PRIVATE_NOTES
from papershelf.gui.annotation_box import AnnotationBox
from papershelf.gui.notes_box import NotesBox
from papershelf.gui.qt import (
    QCloseEvent,
    QFont,
    QFontDatabase,
    QFrame,
    QHideEvent,
    QLabel,
    QPalette,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    Qt,
    QTabBar,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)
from papershelf.gui.record_view import (
    TitleEdit,
    WrapLabel,
    bold,
    display_text,
    files_text,
    heading,
    is_web_link,
    links_html,
)
from papershelf.gui.record_view import open_link as open_link  # (the window's)
from papershelf.gui.workers import Latest

if TYPE_CHECKING:
    from papershelf.core.library import PaperDetail
    from papershelf.gui import entry_editor
    from papershelf.gui.operations import ChangeEvent, Operations
else:  # (made when first used: the window's first paint needs no editor)
    entry_editor = lazy.module("papershelf.gui.entry_editor")

NOTES_DEBOUNCE_MS = 400


def _normalized_title(text: str) -> str:
    return " ".join(text.split())


class DetailPane(QWidget):
    """Shows one paper and lets the user edit its title and notes."""

    titleEdited = Signal(int, str, str)  # paper id, new title, the title it replaces
    # paper id, full text of the shared notes, base: (version, notes) it was typed from
    notesEdited = Signal(int, str, object)
    privateNotesEdited = Signal(int, str)  # paper id, full text of the user's own notes
    notice = Signal(str)  # a one-line message for the window's status bar
    escaped = Signal()  # Escape in an editor: the keys go back to the list
    # paper id, {BibTeX field: value or None}, {field: the value it replaces}
    fieldsEdited = Signal(int, object, object)
    annotationChosen = Signal(int, int)  # paper id, annotation id: read it there

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id: int | None = None
        self._detail: PaperDetail | None = None  # the paper shown, as last read
        self.fields_editor: entry_editor.FieldsEditor | None = None  # (made when first used)
        self.source_editor: entry_editor.SourceEditor | None = None
        self._ops: Operations | None = None
        self._reading_back: int | None = None  # the paper a read-back is queued for
        # The paper shown, read again after a change, in a worker: (its id, whether its
        # notes are shown anew, whether the change touched notes).
        self._rereader: Latest | None = None
        self._rereading: tuple[int, bool, bool] | None = None
        self._shown_title = ""

        self._notes_timer = QTimer(self)
        self._notes_timer.setSingleShot(True)
        self._notes_timer.setInterval(NOTES_DEBOUNCE_MS)
        self._notes_timer.timeout.connect(self.flush)

        self._stack = QStackedWidget(self)
        self._placeholder = QLabel(self)
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setWordWrap(True)
        self._placeholder.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._stack.addWidget(self._placeholder)
        self._stack.addWidget(self._build_content())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._stack)
        self.show_selection_count(0)

    # -- construction ---------------------------------------------------------------

    def _build_content(self) -> QWidget:
        self.title_edit = TitleEdit()
        self.title_edit.setObjectName("detailTitle")
        self.title_edit.setPlaceholderText(self.tr("Title"))
        self.title_edit.setFont(bold(self.title_edit.font(), 1.3))
        self.title_edit.editingFinished.connect(self._commit_title)
        self.title_edit.escaped.connect(self.escaped)
        self.title_edit.focusEntered.connect(lambda: self._set_title_text(editing=True))
        self.title_edit.focusLeft.connect(lambda: self._set_title_text(editing=False))

        self.provisional_label = WrapLabel()
        self.provisional_label.setText(
            self.tr("Provisional title, drawn from the abstract — edit it to set the real one")
        )
        small_italic = QFont(self.provisional_label.font())
        small_italic.setItalic(True)
        self.provisional_label.setFont(small_italic)
        self.provisional_label.set_dimmed(True)

        # Its retraction (loud) and corrections or expressions of concern (quiet).
        self.notices_label = WrapLabel(rich=True)
        self.notices_label.setObjectName("detailNotices")
        self.notices_label.hide()

        self.authors_label = WrapLabel()
        self.venue_label = WrapLabel()
        self.status_label = WrapLabel()
        self.status_label.set_dimmed(True)
        self.key_label = WrapLabel()
        self.key_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.key_label.setToolTip(self.tr("Citation key"))
        self.links_label = WrapLabel(rich=True)
        self.files_label = WrapLabel()  # plain text: file names are never markup
        self.files_label.setObjectName("detailFiles")
        self.tags_label = WrapLabel()

        abstract_heading = heading(self.tr("Abstract"))
        heading_font = abstract_heading.font()
        self.abstract_label = WrapLabel()
        self.abstract_label.setObjectName("detailAbstract")

        header = QWidget()
        header.setBackgroundRole(QPalette.ColorRole.Base)
        header_layout = QVBoxLayout(header)
        header_layout.setContentsMargins(10, 8, 10, 10)
        header_layout.setSpacing(4)
        header_layout.addWidget(self.title_edit)
        header_layout.addWidget(self.provisional_label)
        header_layout.addWidget(self.notices_label)
        header_layout.addSpacing(2)
        for label in (self.authors_label, self.venue_label, self.status_label,
                      self.key_label, self.links_label, self.files_label, self.tags_label):
            header_layout.addWidget(label)
        header_layout.addSpacing(8)
        header_layout.addWidget(abstract_heading)
        header_layout.addWidget(self.abstract_label)
        # Its annotations (read in a worker), a click reads the paper there.
        self.annotations = AnnotationBox(heading_font)
        self.annotations.annotationChosen.connect(self.annotationChosen)
        header_layout.addWidget(self.annotations)
        header_layout.addStretch(1)

        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._scroll.setWidget(header)

        # The shared notes (a personal library's only ones) and the user's private notes.
        self._shared = NotesBox(lambda d: d.record.notes, self._notes_typed, heading_font)
        self._private = NotesBox(lambda d: d.private_notes, self._notes_typed, heading_font)
        self._boxes = (self._shared, self._private)
        self.notes_edit = self._shared.editor
        self.notes_edit.setObjectName("detailNotes")
        self.notes_heading = self._shared.heading
        self.private_notes_edit = self._private.editor
        self.private_notes_edit.setObjectName("detailPrivateNotes")
        self.private_notes_heading = self._private.heading
        notes_box = QWidget()
        notes_layout = QVBoxLayout(notes_box)
        notes_layout.setContentsMargins(10, 6, 10, 8)
        notes_layout.setSpacing(10)
        for box in self._boxes:
            box.editor.focusLost.connect(self.flush)
            box.editor.escaped.connect(self.escaped)
            notes_layout.addWidget(box, 1)
        self.set_shared(False)

        # Reading it, editing its fields, its BibTeX: the reading view first, always the
        # notes below.
        self.tabs = QTabBar()
        self.tabs.setObjectName("detailTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setDrawBase(False)
        for name in (self.tr("Details"), self.tr("Edit"), self.tr("BibTeX")):
            self.tabs.addTab(name)
        self.tabs.setTabToolTip(1, self.tr("Edit every field of the paper (E)"))
        self.tabs.setTabToolTip(2, self.tr("The paper's BibTeX entry, to edit as text"))
        self.tabs.currentChanged.connect(self._tab_changed)
        self._pages = QStackedWidget()
        self._pages.addWidget(self._scroll)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.setSpacing(0)
        upper_layout.addWidget(self.tabs)
        upper_layout.addWidget(self._pages, 1)

        self._splitter = QSplitter(Qt.Orientation.Vertical)
        self._splitter.setChildrenCollapsible(False)
        self._splitter.addWidget(upper)
        self._splitter.addWidget(notes_box)
        self._splitter.setStretchFactor(0, 3)
        self._splitter.setStretchFactor(1, 2)
        return self._splitter

    # -- public API -------------------------------------------------------------------

    def current_id(self) -> int | None:
        """The id of the paper shown, or None when the placeholder is shown."""
        return self._paper_id

    def set_shared(self, shared: bool) -> None:
        """Notes for a library a group shares: the group's notes and the user's private
        ones, both labelled; else the one "Notes" editor (private notes stay hidden)."""
        if shared:
            self._shared.set_titles(self.tr("Shared notes (everyone in the group)"),
                                    self.tr("Notes everyone in the group reads (Markdown)…"))
            self._private.set_titles(self.tr("Private notes (only you)"),
                                     self.tr("Notes only you see (Markdown)…"))
        else:
            self._shared.set_titles(self.tr("Notes"), self.tr("Your notes (Markdown)…"))
        self._private.setVisible(shared)

    def show_selection_count(self, n: int) -> None:
        """Show the placeholder: "No paper selected" or "N papers selected"."""
        self.flush()
        self._paper_id = None
        self.annotations.show_paper(None)
        for box in self._boxes:
            box.show_text(None)
        if n <= 0:
            self._placeholder.setText(self.tr("No paper selected"))
        else:
            self._placeholder.setText(self.tr("%n papers selected", "", n))
        self._stack.setCurrentWidget(self._placeholder)

    def show_other(self, widget: QWidget) -> None:
        """Show `widget` in the pane instead of a paper (an inbox item: gui.inbox_view);
        a paper's pending edits are saved first."""
        self.show_selection_count(0)
        if self._stack.indexOf(widget) < 0:
            self._stack.addWidget(widget)
        self._stack.setCurrentWidget(widget)

    def follow(self, ops: Operations) -> None:
        """Read the paper shown again (through these operations' library) whenever a
        change names it; label the notes for its library."""
        self._ops = ops
        self.set_shared(ops.library.shared)
        self.annotations.follow(ops)
        ops.changed.connect(self._changed)

    def _changed(self, event: ChangeEvent) -> None:
        change = event.change
        if change.conflict:
            self.notice.emit(self.tr(
                "Someone else changed these notes at the same time; both versions are kept, "
                "marked <<<<<<< … >>>>>>>"))
        pid = self._paper_id
        if self._ops is None or pid is None or pid not in change.ids:
            return
        if event.own_notes_edit:  # typing saved (perhaps merged), or notes from elsewhere
            self._read_back(pid)
            return
        # Read in a worker (a server's round trips cost a field edit's repaint 13 ms
        # on the GUI thread); a burst of changes costs two reads, their wishes joined.
        notes = event.from_undo or PAPERS in change.touched
        wanted = self._rereading if self._rereading is not None and \
            self._rereading[0] == pid else (pid, False, False)
        self._rereading = (pid, wanted[1] or notes,
                           wanted[2] or bool(change.touched & {NOTES, PRIVATE_NOTES}))
        if self._rereader is None:
            self._rereader = Latest(self._ops.tasks, self._ops.report)
        library = self._ops.library
        self._rereader.request(lambda: library.paper(pid), self._reread)

    def _reread(self, detail: PaperDetail | None) -> None:
        """The paper shown, read again after a change: shown unless another was chosen."""
        wanted, self._rereading = self._rereading, None
        if wanted is None or wanted[0] != self._paper_id:
            return
        pid, notes, notes_changed = wanted
        self.show_paper(detail, notes=notes)
        if not notes and notes_changed:
            self._read_back(pid)

    def _read_back(self, pid: int) -> None:
        """Read the paper's notes once every write asked for so far has landed, and show
        them in each box that has no save queued after this read nor typing not yet
        saved: the stored version becomes the next save's base, and what a merge (or
        someone else) made of the notes is shown."""
        ops = self._ops
        if ops is None or self._reading_back == pid:
            return
        self._reading_back = pid
        sent = [box.sent for box in self._boxes]

        def read() -> None:
            if self._reading_back == pid:
                self._reading_back = None
            if self._paper_id != pid or not self.isVisible():
                return
            detail = ops.library.paper(pid)
            if detail is None:
                return
            for box, sent_before in zip(self._boxes, sent, strict=True):
                if box.sent == sent_before:
                    box.show_text(detail, keep=box.unsaved(), same=True)

        ops.when_settled(read)

    def show_paper(self, detail: PaperDetail | None, *, notes: bool = True) -> None:
        """Show a paper (None: the placeholder); re-showing the same paper refreshes it,
        its notes too unless `notes` is False (the editor's text is newer then)."""
        if detail is None:
            self.show_selection_count(0)
            return
        same = detail.id == self._paper_id
        # Pending edits belong to the paper shown now, saved under its id before switching.
        self._notes_timer.stop()
        self._commit_title()
        saved_now = [self._save(box) for box in self._boxes]
        if not same:
            for editor in (self.fields_editor, self.source_editor):
                if editor is not None:
                    editor.flush()
        self._paper_id = detail.id
        self._show_fields(detail, refresh=same)
        self.annotations.show_paper(detail.id)
        for box, saved in zip(self._boxes, saved_now, strict=True):
            # `detail` was read before the typing just saved, or the change was not to the
            # notes (an edit on its way may be newer than `detail`): keep the typing.
            box.show_text(detail, keep=same and (saved or not notes), same=same)
        self._stack.setCurrentIndex(1)
        if not same:
            self._scroll.verticalScrollBar().setValue(0)
        self._detail = detail
        self._fill_editor()

    # -- the editors ------------------------------------------------------------------

    def edit_fields(self, page: int = 1) -> None:
        """Show the fields' editor (1) or the BibTeX source (2) of the paper shown, the
        first field focused (the E shortcut)."""
        if self._paper_id is None:
            return
        self.tabs.setCurrentIndex(page)  # (makes the editor)
        target: QWidget | None = None
        if page == 1 and self.fields_editor is not None:
            target = self.fields_editor.editor("title")
        elif page == 2 and self.source_editor is not None:
            target = self.source_editor.text_edit
        if target is not None:
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _tab_changed(self, index: int) -> None:
        if index == 1 and self.fields_editor is None:
            self.fields_editor = entry_editor.FieldsEditor()
            self.fields_editor.fieldsEdited.connect(self.fieldsEdited)
            self.fields_editor.escaped.connect(self.escaped)
            self._pages.addWidget(self.fields_editor)
        if index == 2 and self.source_editor is None:
            self.source_editor = entry_editor.SourceEditor()
            self.source_editor.fieldsEdited.connect(self.fieldsEdited)
            self.source_editor.escaped.connect(self.escaped)
            self.source_editor.notice.connect(self.notice)
            self._pages.addWidget(self.source_editor)
        page = {1: self.fields_editor, 2: self.source_editor}.get(index) or self._scroll
        self._pages.setCurrentWidget(page)
        self._fill_editor()

    def _fill_editor(self) -> None:
        """The editor shown follows the paper shown (only the editor shown is filled)."""
        detail = self._detail
        if detail is None or detail.id != self._paper_id:
            return
        index = self.tabs.currentIndex()
        if index == 1 and self.fields_editor is not None:
            self.fields_editor.show_fields(detail.id, entry_editor.fields_of(detail.record))
        elif index == 2 and self.source_editor is not None:
            self.source_editor.show_entry(detail.id, detail.key,
                                          entry_editor.entry_of(detail.record))

    def focus_notes(self) -> None:
        """Put the keyboard focus in the notes editor (the N shortcut)."""
        if self._paper_id is None:
            return
        self.notes_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def flush(self) -> bool:
        """Save pending edits now (notes, and a changed title); True if anything was emitted."""
        self._notes_timer.stop()
        emitted = self._commit_title()
        saved = [self._save(box) for box in self._boxes]
        for editor in (self.fields_editor, self.source_editor):
            if editor is not None:
                editor.flush()
        return emitted or any(saved)

    # -- Qt overrides -------------------------------------------------------------------

    def hideEvent(self, event: QHideEvent) -> None:
        """Nothing typed is lost when the pane (or its window) goes away."""
        self.flush()
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save pending edits before closing."""
        self.flush()
        super().closeEvent(event)

    # -- internals ------------------------------------------------------------------------

    def _show_fields(self, detail: PaperDetail, *, refresh: bool) -> None:
        record = detail.record
        if not (refresh and self._shown_title == record.title):
            self._shown_title = record.title
            self._set_title_text(editing=self.title_edit.hasFocus())
        self.title_edit.setToolTip(self.tr("Click to edit the title"))
        font = self.title_edit.font()
        font.setItalic(record.title_provisional)
        self.title_edit.setFont(font)
        self.provisional_label.setVisible(record.title_provisional)
        notices = self._notices_html(detail)
        self.notices_label.setText(notices)
        self.notices_label.setVisible(bool(notices))

        if record.authors:
            self.authors_label.setText(", ".join(a.display() for a in record.authors))
            self.authors_label.set_dimmed(False)
        else:
            self.authors_label.setText(self.tr("No authors yet"))
            self.authors_label.set_dimmed(True)

        venue = display_text(record.venue)
        venue_year = ", ".join(p for p in (venue, str(record.year or "")) if p)
        self.venue_label.setText(venue_year)
        self.venue_label.setVisible(bool(venue_year))

        status = [self._state_text(detail.read_state)]
        if detail.starred:
            status.insert(0, "★ " + self.tr("Starred"))
        self.status_label.setText(" · ".join(status))

        self.key_label.setText(detail.key)
        self.key_label.setVisible(bool(detail.key))

        links = links_html(record)
        self.links_label.setText(links)
        self.links_label.setVisible(bool(links))
        self.files_label.setText(files_text(detail.files) if detail.files else "")
        self.files_label.setVisible(bool(detail.files))

        if record.tags:
            self.tags_label.setText(self.tr("Tags: %s") % ", ".join(record.tags))
            self.tags_label.set_dimmed(False)
        else:
            self.tags_label.setText(self.tr("No tags"))
            self.tags_label.set_dimmed(True)

        if record.abstract.strip():
            self.abstract_label.setText(display_text(record.abstract))
            self.abstract_label.set_dimmed(False)
        else:
            self.abstract_label.setText(self.tr("No abstract"))
            self.abstract_label.set_dimmed(True)

    def _notices_html(self, detail: PaperDetail) -> str:
        """A line for each notice of the paper (core.retractions), its link and date: a
        retraction in bold, a correction or an expression of concern plain; '' if none."""
        said = {"Retraction": self.tr("Retracted"),
                "Expression of concern": self.tr("Expression of concern"),
                "Correction": self.tr("Correction"),
                "Reinstatement": self.tr("Reinstated")}
        link_text = html.escape(self.tr("the notice"))
        lines = []
        for notice in detail.notices:
            # (a nature this version does not know: said as it is, quietly)
            words = html.escape(said.get(notice.nature) or notice.nature[:40])
            if notice.date:
                words += " " + html.escape(self.tr("on {date}").format(date=notice.date))
            if notice.link and is_web_link(notice.link):
                words += (f' — <a href="{html.escape(notice.link, quote=True)}">'
                          f"{link_text}</a>")
            if notice.reason:
                words += " (" + html.escape(notice.reason) + ")"
            lines.append(f"<b>⊘ {words}</b>" if notice.nature == "Retraction" else words)
        return "<br>".join(lines)

    def _set_title_text(self, *, editing: bool) -> None:
        """The stored title (with `$math$` source) while editing, else its readable form."""
        if self.title_edit.isModified():
            return  # the user's typing, not ours to replace
        text = self._shown_title if editing else display_text(self._shown_title)
        if self.title_edit.text() != text:
            self.title_edit.setText(text)
            self.title_edit.setCursorPosition(len(text) if editing else 0)

    def _state_text(self, state: str) -> str:
        names = {"unread": self.tr("Unread"), "reading": self.tr("Reading"),
                 "read": self.tr("Read")}
        return names.get(state, state)

    def _save(self, box: NotesBox) -> bool:
        """Emit the typing of a notes box not saved yet, under the paper shown."""
        pid = self._paper_id
        if pid is None:
            return False
        typed = box.take()
        if typed is None:
            return False
        text, base = typed
        if box is self._shared:
            self.notesEdited.emit(pid, text, base)
        else:
            self.privateNotesEdited.emit(pid, text)
        return True

    def _notes_typed(self) -> None:
        if self._paper_id is not None:
            self._notes_timer.start()

    def _commit_title(self) -> bool:
        """Emit `titleEdited` if the user changed the title; an empty title is reverted."""
        pid = self._paper_id
        if pid is None or not self.title_edit.isModified():
            return False
        self.title_edit.setModified(False)
        title = _normalized_title(self.title_edit.text())
        if not title:
            self._set_title_text(editing=self.title_edit.hasFocus())
            return False
        if title == _normalized_title(self._shown_title):
            return False
        base, self._shown_title = self._shown_title, title
        self.titleEdited.emit(pid, title, base)
        return True
