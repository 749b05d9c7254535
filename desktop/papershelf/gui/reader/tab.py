"""A paper read in a tab: its pages (`view.PdfView`), the list of its annotations in
reading order beside them (a rectangle by its image), the page shown and the zoom above,
a find bar below.

The tab adds, edits and removes annotations through the library, one `Change` each. By
default it runs the write itself and hands the Change to the window (`changed`), which
puts it on its undo stack; a window may instead give `perform`, its operations layer,
which runs the write in its worker and records it (then `changed` is not emitted).
After an undo of one of them the window calls `refresh`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from papershelf.core.annotating import COLORS, Annotation, New
from papershelf.core.edits import Change
from papershelf.core.library import Library
from papershelf.errors import UserError
from papershelf.gui.annotation_box import describe, swatch
from papershelf.gui.i18n import error_text, number
from papershelf.gui.qt import (
    QAction,
    QApplication,
    QDesktopServices,
    QHBoxLayout,
    QIcon,
    QImage,
    QInputDialog,
    QKeyEvent,
    QKeySequence,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMimeData,
    QPixmap,
    QPoint,
    QSize,
    QSplitter,
    QStackedWidget,
    Qt,
    QTabWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QUrl,
    QVBoxLayout,
    QWidget,
    Signal,
)
from papershelf.gui.reader.keys import make_action
from papershelf.gui.reader.pages import Lost, Place, Rect
from papershelf.gui.reader.view import PdfView
from papershelf.reading import marking, notes

# How the window runs a write (its operations layer: in the write worker, then onto its
# undo stack and announced): `perform(write, on_done)`, `on_done(Change)` in the GUI thread.
Perform = Callable[[Callable[[], Change], Callable[[Change], None]], None]
HIGHLIGHT_COLOR = "#ffd400"
RECTANGLE_COLOR = COLORS["red"]
THUMBNAIL = QSize(96, 72)  # a rectangle's image in the list
LINK_SCHEMES = ("http", "https", "mailto")
LIST_BATCH = 50  # annotations the list lays out at a time


class FindField(QLineEdit):
    """The find bar's field: Enter finds the next place, Shift+Enter the one before,
    Escape closes the bar."""

    next_asked = Signal(bool)  # backwards
    closed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.next_asked.emit(bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
        elif event.key() == Qt.Key.Key_Escape:
            self.closed.emit()
        else:
            super().keyPressEvent(event)


class ReaderTab(QWidget):
    """A paper's PDF to read and annotate; see the module's docstring."""

    changed = Signal(object)  # a core.edits.Change made here (without `perform`)
    failed = Signal(str)  # the file cannot be shown (one line, the tab says it too)
    closeRequested = Signal()  # the file was not opened (its password not given)

    def __init__(self, library: Library, paper_id: int, path: str | os.PathLike[str],
                 parent: QWidget | None = None, *, perform: Perform | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self._perform = perform
        self.paper_id = paper_id
        self.path = Path(path)
        self._annotations: list[Annotation] = []
        self.view = PdfView(path, self)
        self.view.setObjectName("readerPages")

        self.page_label = QLabel()
        self.zoom_label = QLabel()
        self.message = QLabel()  # (a write the library refused)
        self.error_label = QLabel()
        self.error_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.error_label.setWordWrap(True)
        self.annotation_list = QListWidget()
        self.annotation_list.setWordWrap(True)
        # (a paper with a thousand: laid out a batch at a time, the first painted at once)
        self.annotation_list.setLayoutMode(QListView.LayoutMode.Batched)
        self.annotation_list.setBatchSize(LIST_BATCH)
        self.annotation_list.setIconSize(THUMBNAIL)
        self.annotation_list.setAccessibleName(self.tr("Annotations"))
        self.annotation_list.itemClicked.connect(self._item_clicked)
        self.annotation_list.itemActivated.connect(self._item_clicked)

        self.find_field = FindField()
        self.find_field.setPlaceholderText(self.tr("Find in the document"))
        self.find_field.setClearButtonEnabled(True)
        self.find_count = QLabel()
        self._make_actions()
        self.find_bar = self._find_bar()
        self.find_bar.hide()

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        self.contents = QTreeWidget()
        self.contents.setHeaderHidden(True)
        self.contents.itemActivated.connect(self._heading_clicked)
        self.contents.itemClicked.connect(self._heading_clicked)
        self.side = QTabWidget()
        self.side.setDocumentMode(True)
        self.side.addTab(self.annotation_list, self.tr("Annotations"))
        self.side.addTab(self.contents, self.tr("Contents"))
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(splitter)
        self.stack.addWidget(self.error_label)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self._controls())
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.find_bar)

        view = self.view
        view.failed.connect(self._failed)
        view.locked.connect(self._ask_password)
        self._asked = 0  # (times the password was asked for)
        view.opened.connect(self._opened)
        view.linkActivated.connect(self.open_link)
        view.currentPageChanged.connect(lambda _page: self._show_page())
        view.zoomChanged.connect(self._show_zoom)
        view.highlightRequested.connect(self.add_highlight)
        view.noteRequested.connect(self.add_note)
        view.rectangleRequested.connect(self.add_rectangle)
        view.annotationMenuRequested.connect(
            lambda annotation_id, where: self.annotation_menu(annotation_id).popup(where))
        view.annotationClicked.connect(self._annotation_clicked)
        view.searched.connect(self._searched)
        self.find_field.textChanged.connect(view.find_text)
        self.find_field.next_asked.connect(view.find_next)
        self.find_field.closed.connect(self.close_find)
        self.setFocusProxy(view)
        self.refresh()

    # -- building

    def _make_actions(self) -> None:
        keys = QKeySequence.StandardKey
        self.find_action = make_action(self, self.tr("Find…"), self.open_find, keys.Find)
        self.find_next_action = make_action(self, self.tr("Find Next"), self.view.find_next,
                                            keys.FindNext, "F3")
        self.find_previous_action = make_action(
            self, self.tr("Find Previous"), lambda: self.view.find_next(backwards=True),
            keys.FindPrevious, "Shift+F3")
        self.remove_action = make_action(self, self.tr("Remove Annotation"),
                                         self._remove_chosen)
        self.remove_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.removeAction(self.remove_action)
        self.annotation_list.addAction(self.remove_action)
        self.remove_on_page_action = make_action(
            self.view, self.tr("Remove Annotation"),
            lambda: self.remove([a for a in [self.view.chosen_annotation()] if a is not None]),
            QKeySequence.StandardKey.Delete)
        self.remove_on_page_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action = make_action(self.annotation_list, self.tr("Copy"),
                                       self._copy_chosen, keys.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.to_notes_action = make_action(self, self.tr("Add Annotations to Notes"),
                                           self.add_to_notes)
        self.annotation_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.annotation_list.customContextMenuRequested.connect(self._list_menu)

    def _button(self, action: QAction) -> QToolButton:
        button = QToolButton()
        button.setDefaultAction(action)
        button.setAutoRaise(True)
        return button

    def _controls(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setContentsMargins(6, 2, 6, 0)
        row.addWidget(self.page_label)
        row.addSpacing(12)
        row.addWidget(self.message, 1)
        view = self.view
        for action in (view.zoom_out_action, view.zoom_in_action):
            row.addWidget(self._button(action))
        row.addWidget(self.zoom_label)
        for action in (view.fit_width_action, view.fit_page_action, view.dark_action,
                       view.tools.note_action, view.tools.rectangle_action, self.find_action):
            row.addWidget(self._button(action))
        return row

    def _find_bar(self) -> QWidget:
        bar = QWidget()
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 0, 6, 2)
        row.addWidget(QLabel(self.tr("Find:")))
        row.addWidget(self.find_field, 1)
        row.addWidget(self._button(self.find_previous_action))
        row.addWidget(self._button(self.find_next_action))
        row.addWidget(self.find_count)
        close = QToolButton()
        close.setText(self.tr("Close"))
        close.setAutoRaise(True)
        close.clicked.connect(self.close_find)
        row.addWidget(close)
        return bar

    # -- what it shows

    def _ask_password(self, _line: str) -> None:
        """Ask for the file's password (again, with a note, after a wrong one); without
        it the tab is not opened: one line, and the tab asks to be closed."""
        name = self.path.name
        question = self.tr("{file} is encrypted. Its password:").format(file=name)
        if self._asked:
            question = self.tr("That password is wrong.") + "\n" + question
        self._asked += 1
        password, given = QInputDialog.getText(
            self, self.tr("Encrypted PDF"), question, QLineEdit.EchoMode.Password)
        if given:
            self.view.unlock(password)
            return
        self._failed(self.tr("{file} is encrypted and was not opened").format(file=name),
                     plain=True)
        self.closeRequested.emit()

    def _failed(self, line: str, plain: bool = False) -> None:
        if plain or isinstance(self.view.failure, Lost):  # (the line names the file)
            self.error_label.setText(line)
        else:
            self.error_label.setText(self.tr("This PDF cannot be shown: {problem}").format(
                problem=line))
        self.stack.setCurrentWidget(self.error_label)
        self.page_label.clear()
        for action in self.view.actions() + self.actions():
            action.setEnabled(False)
        self.failed.emit(line)

    def error(self) -> str:
        """The line the tab shows instead of the pages, or ''."""
        return self.error_label.text() if self.stack.currentWidget() is self.error_label else ""

    def _opened(self) -> None:
        self._show_page()
        parents: list[QTreeWidgetItem] = []
        for heading in self.view.headings():
            del parents[heading.level:]
            parent = parents[-1] if parents else None
            item = QTreeWidgetItem([heading.title])
            item.setData(0, Qt.ItemDataRole.UserRole, heading.place)
            if parent is None:
                self.contents.addTopLevelItem(item)
            else:
                parent.addChild(item)
            parents.append(item)
        self.contents.expandToDepth(0)
        self.side.setTabEnabled(1, bool(self.view.headings()))

    def _heading_clicked(self, item: QTreeWidgetItem) -> None:
        place = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(place, Place):
            self.view.go_to(place.page, place.top)

    def open_link(self, uri: str) -> None:
        """Open a link of the page to the web or to a mail (no other kind: a PDF may
        link to a program or a script)."""
        url = QUrl(uri)
        if url.isValid() and url.scheme().lower() in LINK_SCHEMES:
            QDesktopServices.openUrl(url)

    def _show_page(self) -> None:
        page = self.view.current_page()
        if page < 0:
            return
        self.page_label.setText(self.tr("Page {label} ({n} of {count})").format(
            label=self.view.page_label(page), n=number(page + 1),
            count=number(self.view.page_count())))

    def _show_zoom(self, zoom: float) -> None:
        self.zoom_label.setText(self.tr("{percent}%").format(percent=number(round(zoom * 100))))

    def refresh(self) -> None:
        """Read the paper's annotations again (after a change made elsewhere, an undo)."""
        found = self.library.annotations_of([self.paper_id]).get(self.paper_id, [])
        self._annotations = found
        self.view.set_annotations(found)
        chosen = self.view.chosen_annotation()
        self.annotation_list.clear()
        for annotation in found:
            item = QListWidgetItem(describe(annotation))
            item.setData(Qt.ItemDataRole.UserRole, annotation.id)
            item.setIcon(self._icon(annotation))
            if annotation.comment:
                item.setToolTip(annotation.comment)
            self.annotation_list.addItem(item)
            if annotation.id == chosen:
                item.setSelected(True)
                self.annotation_list.setCurrentItem(item)

    def annotations(self) -> list[Annotation]:
        """The paper's annotations as the list shows them (reading order)."""
        return list(self._annotations)

    # -- moving about

    def _item_clicked(self, item: QListWidgetItem) -> None:
        annotation_id = item.data(Qt.ItemDataRole.UserRole)
        self.show_annotation(int(annotation_id))

    def show_annotation(self, annotation_id: int) -> None:
        """Scroll to an annotation and select it."""
        annotation = next((a for a in self._annotations if a.id == annotation_id), None)
        if annotation is None:
            return
        self.view.go_to(annotation.page_index, annotation.top if annotation.rects else None)
        self.view.choose_annotation(annotation_id)

    def _icon(self, annotation: Annotation) -> QIcon:
        """A rectangle's image (small), else its colour."""
        image = self.library.annotation_image(annotation.id) if annotation.has_image else None
        if image is not None:
            pixmap = QPixmap()
            if pixmap.loadFromData(image, "PNG"):
                return QIcon(pixmap.scaled(THUMBNAIL, Qt.AspectRatioMode.KeepAspectRatio,
                                           Qt.TransformationMode.SmoothTransformation))
        return swatch(annotation.color)

    def _annotation_clicked(self, annotation_id: int) -> None:
        annotation = next((a for a in self._annotations if a.id == annotation_id), None)
        if annotation is not None and annotation.kind == "note":
            self.ask_comment(annotation_id)  # (a note is its text: clicking opens it)
        for row in range(self.annotation_list.count()):
            item = self.annotation_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == annotation_id:
                self.annotation_list.setCurrentItem(item)
                self.annotation_list.scrollToItem(item)
                return

    # -- find

    def open_find(self) -> None:
        """Show the find bar (Ctrl+F), its text selected to type over."""
        self.find_bar.show()
        self.find_field.setFocus()
        self.find_field.selectAll()

    def close_find(self) -> None:
        self.find_bar.hide()
        self.find_field.clear()
        self.view.setFocus()

    def _searched(self, current: int, total: int) -> None:
        if not self.find_field.text().strip():
            self.find_count.clear()
        elif total == 0:
            self.find_count.setText(self.tr("Not found"))
        else:
            self.find_count.setText(self.tr("{n} of {count}").format(
                n=number(current + 1), count=number(total)))

    # -- annotating

    def _file_sha256(self) -> str:
        for attachment in self.library.attachments(self.paper_id):
            location = attachment.location
            if location is not None and location.resolve() == self.path.resolve():
                return attachment.sha256
        return ""

    def _write(self, write: Callable[[], Change],
               then: Callable[[], None] | None = None) -> None:
        """Run one write of the library: through `perform` when the window gave one,
        else here, handing its Change on (`changed`); then show the annotations again."""
        def done(_change: Change) -> None:
            if then is not None:
                then()
            self.refresh()

        self.message.clear()
        if self._perform is not None:
            self._perform(write, done)
            return
        try:
            change = write()
        except UserError as error:
            self.message.setText(error_text(error))
            return
        done(change)
        self.changed.emit(change)

    def add_highlight(self, page_index: int, rects: tuple[Rect, ...], quote: str) -> None:
        """Keep a highlight of `quote` (the view's `highlightRequested`)."""
        self._add("highlight", page_index, rects, quote=quote)

    def add_note(self, page_index: int, x: float, y: float) -> None:
        """Ask for a sticky note's text and keep it at (x, y) on the page, in points
        (the view's `noteRequested`)."""
        comment, ok = QInputDialog.getMultiLineText(
            self, self.tr("Note"), self.tr("Your note on page {label}:").format(
                label=self.view.page_label(page_index)))
        if ok and comment.strip():
            self._add("note", page_index, ((x, y, x, y),), comment=comment)

    def add_rectangle(self, page_index: int, rect: Rect, image: bytes | None) -> None:
        """Keep a rectangle over a figure, with its image (PNG; the view's
        `rectangleRequested`)."""
        self._add("rectangle", page_index, (rect,), image=image, color=RECTANGLE_COLOR)

    def _add(self, kind: str, page_index: int, rects: tuple[Rect, ...], *, quote: str = "",
             comment: str = "", image: bytes | None = None,
             color: str = HIGHLIGHT_COLOR) -> None:
        """Keep a new annotation (one change), then show it selected."""
        label = self.view.page_label(page_index)
        made: list[int] = []

        def write() -> Change:
            new = New(kind, page_index, label, tuple(rects), quote, comment, color, False,
                      self._file_sha256(), image)
            change, annotation_id = self.library.add_annotation(self.paper_id, new)
            made.append(annotation_id)
            return change

        def chosen() -> None:
            if made:
                self.view.choose_annotation(made[0])

        self._write(write, chosen)

    def remove(self, annotation_ids: list[int]) -> None:
        """Remove annotations (one change)."""
        if annotation_ids:
            ids = list(annotation_ids)
            self._write(lambda: self.library.remove_annotations(ids))

    def _list_menu(self, where: QPoint) -> None:
        item = self.annotation_list.itemAt(where)
        if item is not None:
            self.annotation_list.setCurrentItem(item)  # (what Copy copies)
            menu = self.list_menu(int(item.data(Qt.ItemDataRole.UserRole)))
            menu.popup(self.annotation_list.viewport().mapToGlobal(where))

    def list_menu(self, annotation_id: int) -> QMenu:
        """The list's menu of an annotation (its current item): Copy and Add
        Annotations to Notes, then what `annotation_menu` has."""
        menu = self.annotation_menu(annotation_id)
        first = menu.actions()[0]
        menu.insertActions(first, [self.copy_action, self.to_notes_action])
        menu.insertSeparator(first)
        return menu

    def _key(self) -> str:
        detail = self.library.paper(self.paper_id)
        return (detail.record.key or "") if detail is not None else ""

    def copy_annotation(self, annotation_id: int) -> None:
        """Put an annotation on the clipboard: as Markdown with its citation (as the
        notes have it), and a rectangle's image too."""
        annotation = next((a for a in self._annotations if a.id == annotation_id), None)
        if annotation is None:
            return
        data = QMimeData()
        data.setText(notes.quoted(annotation, self._key()))
        image = self.library.annotation_image(annotation_id) if annotation.has_image else None
        if image is not None:
            data.setImageData(QImage.fromData(image))
        QApplication.clipboard().setMimeData(data)

    def _copy_chosen(self) -> None:
        item = self.annotation_list.currentItem()
        if item is not None:
            self.copy_annotation(int(item.data(Qt.ItemDataRole.UserRole)))

    def add_to_notes(self) -> None:
        """Add the paper's annotations to its notes, with their citations (one change;
        those there already are not added again)."""
        key = self._key()
        self._write(lambda: marking.add_to_notes(self.library, self.paper_id, key)[0])

    def annotation_menu(self, annotation_id: int) -> QMenu:
        """What can be done to an annotation: its comment, its colour, remove it (the
        menu deletes itself once closed)."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addAction(self.tr("Edit Comment…")).triggered.connect(
            lambda: self.ask_comment(annotation_id))
        colours = menu.addMenu(self.tr("Colour"))
        names = {"yellow": self.tr("Yellow"), "red": self.tr("Red"),
                 "green": self.tr("Green"), "blue": self.tr("Blue"),
                 "purple": self.tr("Purple")}
        for name, value in COLORS.items():
            action = colours.addAction(swatch(value), names.get(name, name))
            action.triggered.connect(partial(self.set_color, annotation_id, value))
        menu.addSeparator()
        menu.addAction(self.tr("Remove Annotation")).triggered.connect(
            lambda: self.remove([annotation_id]))
        return menu

    def ask_comment(self, annotation_id: int) -> None:
        """Ask for an annotation's comment and keep it."""
        annotation = next((a for a in self._annotations if a.id == annotation_id), None)
        if annotation is None:
            return
        comment, ok = QInputDialog.getMultiLineText(
            self, self.tr("Comment"), self.tr("Your comment on the annotation:"),
            annotation.comment)
        if ok and comment != annotation.comment:
            self._edit(annotation_id, comment=comment)

    def set_color(self, annotation_id: int, color: str) -> None:
        self._edit(annotation_id, color=color)

    def _edit(self, annotation_id: int, **values: str) -> None:
        self._write(lambda: self.library.edit_annotation(annotation_id, **values))

    def _remove_chosen(self) -> None:
        ids = [int(item.data(Qt.ItemDataRole.UserRole))
               for item in self.annotation_list.selectedItems()]
        self.remove(ids)

    def close_document(self) -> None:
        """Stop rendering and close the file: the window calls it as the tab closes."""
        self.view.close_document()

