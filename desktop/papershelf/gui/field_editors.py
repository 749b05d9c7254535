"""The editors of one bibliographic field in the detail pane's form (issue 25): a line,
a text of several lines (the abstract), and a list of names (authors, editors) edited in
place, each telling the form when the user leaves it or presses Escape.

They only edit: `entry_editor.FieldsEditor` reads what they hold and sends it.
"""

from __future__ import annotations

from papershelf.formats.bibtex.names import parse_name, split_names
from papershelf.gui.qt import (
    QAbstractItemView,
    QFocusEvent,
    QHBoxLayout,
    QKeyEvent,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QModelIndex,
    QPalette,
    QPersistentModelIndex,
    QPlainTextEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
)

tr = Translator("EntryEditor")  # (the form's strings: their translations are filed so)


def joined_names(names: list[str]) -> str:
    """A name list as BibTeX writes it."""
    return " and ".join(n.strip() for n in names if n.strip())


def name_parts(name: str) -> str:
    """How BibTeX reads one name: its family and given names (an organisation in braces
    is one family name)."""
    person = parse_name(name)
    if person is None:
        return ""
    if not person.given:
        return tr("family name: {family}").format(family=person.family)
    return tr("family: {family} · given: {given}").format(family=person.family,
                                                         given=person.given)


class FieldLine(QLineEdit):
    """A field's one-line editor: sends on leaving it; Escape puts back the value."""

    left = Signal()
    escaped = Signal()
    restored = Signal()  # Escape put back the value shown

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.shown = ""
        self.editingFinished.connect(self.left)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            if self.text() != self.shown:
                self.setText(self.shown)
                self.restored.emit()
            else:
                self.escaped.emit()
            return
        super().keyPressEvent(event)


class FieldText(QPlainTextEdit):
    """A multi-line field (the abstract): sends when it loses the focus."""

    left = Signal()
    escaped = Signal()

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.shown = ""
        self.setTabChangesFocus(True)

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:
        self.setPlainText(text)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.left.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        super().keyPressEvent(event)


class _NamesList(QListWidget):
    escaped = Signal()
    moved = Signal(int)  # Alt+Up (-1) or Alt+Down (+1): the current name moves

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.state() != \
                QAbstractItemView.State.EditingState:
            self.escaped.emit()
            return
        if event.modifiers() == Qt.KeyboardModifier.AltModifier and event.key() in (
                Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.moved.emit(-1 if event.key() == Qt.Key.Key_Up else 1)
            return
        super().keyPressEvent(event)


class _NameDelegate(QStyledItemDelegate):
    """A name is typed in a framed line with a hint (Qt's own editor has no frame: an
    empty new name showed nothing at all until a letter was typed)."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        editor = QLineEdit(parent)
        editor.setFrame(True)
        editor.setPlaceholderText(tr("Family, Given"))
        return editor


class NamesEditor(QWidget):
    """Authors or editors as a list: add, remove, edit in place, drag to reorder; each
    name's family/given split shown under the list for the current one."""

    changed = Signal()

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.shown = ""
        self.list = _NamesList()
        self.list.setObjectName(f"names-{name}")
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.model().rowsMoved.connect(lambda *_: self.changed.emit())
        self.list.moved.connect(self.move_current)
        self.list.setItemDelegate(_NameDelegate(self.list))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(
            lambda pos: self.context_menu().popup(self.list.viewport().mapToGlobal(pos)))
        self.list.itemChanged.connect(lambda _item: self._edited())
        self.list.currentItemChanged.connect(lambda *_: self._show_parts())
        self.parts = QLabel()
        self.parts.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.add_button = QToolButton()
        self.add_button.setText("+")
        self.add_button.setToolTip(tr("Add a name (Doe, Jane; {World Health Organization} "
                                      "for an organisation)"))
        self.add_button.clicked.connect(self.add_name)
        self.remove_button = QToolButton()
        self.remove_button.setText("−")
        self.remove_button.setToolTip(tr("Remove the name selected"))
        self.remove_button.clicked.connect(self.remove_current)
        buttons = QVBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.list, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.parts)
        self._filling = False
        self._fit()

    def _fit(self) -> None:
        """As tall as its names (one row when empty, at most six, then it scrolls)."""
        row = self.list.fontMetrics().height() + 6
        rows = min(max(self.list.count(), 1), 6)
        height = rows * row + 2 * self.list.frameWidth() + 2
        self.list.setFixedHeight(max(height, 2 * row if self.list.count() > 1 else height))

    def names(self) -> list[str]:
        return [self.list.item(n).text().strip() for n in range(self.list.count())
                if self.list.item(n).text().strip()]

    def text(self) -> str:
        return joined_names(self.names())

    def setText(self, value: str) -> None:
        self._filling = True
        try:
            self.list.clear()
            for name in (n.strip() for n in split_names(value)):
                if name:
                    self._append(name)
        finally:
            self._filling = False
        self._fit()
        self._show_parts()

    def _append(self, name: str) -> QListWidgetItem:
        item = QListWidgetItem(name)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)
        self._fit()
        return item

    def add_name(self) -> None:
        """A new row, to type the name in."""
        self._filling = True
        item = self._append("")
        self._filling = False
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)
        self.list.setCurrentItem(item)
        self.list.doItemsLayout()  # (its row laid out now: the editor shows at once)
        self.list.scrollToItem(item)
        self.list.editItem(item)

    def move_current(self, step: int) -> None:
        """Move the current name up (-1) or down (+1): Alt+Up, Alt+Down, its menu."""
        row = self.list.currentRow()
        to = row + step
        if row < 0 or not 0 <= to < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(to, item)
        self.list.setCurrentRow(to)
        self.changed.emit()

    def context_menu(self) -> QMenu:
        """The names' menu: move the current one up or down, add one, remove it (the
        menu deletes itself once closed)."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        row, count = self.list.currentRow(), self.list.count()
        up = menu.addAction(tr("Move &Up") + "\tAlt+Up")
        up.setEnabled(row > 0)
        up.triggered.connect(lambda _=False: self.move_current(-1))
        down = menu.addAction(tr("Move &Down") + "\tAlt+Down")
        down.setEnabled(0 <= row < count - 1)
        down.triggered.connect(lambda _=False: self.move_current(1))
        menu.addSeparator()
        menu.addAction(tr("&Add a Name")).triggered.connect(lambda _=False: self.add_name())
        remove = menu.addAction(tr("&Remove"))
        remove.setEnabled(row >= 0)
        remove.triggered.connect(lambda _=False: self.remove_current())
        return menu

    def remove_current(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)
            self._fit()
            self.changed.emit()

    def _edited(self) -> None:
        if not self._filling:
            self._show_parts()
            self.changed.emit()

    def _show_parts(self) -> None:
        item = self.list.currentItem()
        self.parts.setText(name_parts(item.text()) if item is not None and item.text() else "")

    def hasFocus(self) -> bool:  # (the list's, or a name being edited in it)
        return self.list.hasFocus() or self.list.state() == \
            QAbstractItemView.State.EditingState
