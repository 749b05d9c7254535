"""Every screen (issue 22): each dialog fits a 1024x600 screen (and so 1280x720) with its
buttons on it; the main window at 1024x600 gives the Title column the spare width and
keeps the status bar; an empty library says what to do; light and dark appearances."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library, View
from papershelf.gui import appearance, dialogs, i18n
from papershelf.gui import settings as S
from papershelf.gui.backups import BackupsDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import (
    QAbstractButton,
    QApplication,
    QColor,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPalette,
    QRect,
    Qt,
    QWidget,
)
from papershelf.gui.shared_dialog import SharedLibraryDialog
from tests.gui.conftest import WindowFactory, wait_idle
from tests.gui.test_i18n import compiled  # noqa: F401  (the module's fixture)

SMALL = QRect(0, 0, 1024, 600)
PANEL = 32  # (a desktop's panel takes this much of the height at least)


def fits(dialog: QDialog) -> None:
    """The dialog, as shown, fits 1024x600 minus a panel, and so do its buttons."""
    assert dialog.isVisible()
    size = dialog.frameGeometry().size()
    assert size.width() <= SMALL.width() and size.height() <= SMALL.height() - PANEL, (
        type(dialog).__name__, size)
    least = dialog.minimumSizeHint()
    assert least.width() <= SMALL.width() and least.height() <= SMALL.height() - PANEL, (
        type(dialog).__name__, least)
    for box in dialog.findChildren(QDialogButtonBox):
        for button in box.findChildren(QAbstractButton):
            if button.isVisibleTo(dialog):
                corner = button.mapTo(dialog, button.rect().bottomRight())
                assert dialog.rect().contains(corner), (type(dialog).__name__, button.text())


@pytest.fixture
def small_window(windows: WindowFactory, gui_library: Library) -> Iterator[MainWindow]:
    window = windows.open(gui_library)
    window.resize(SMALL.size())
    yield window


def test_every_dialog_fits_a_small_screen(small_window: MainWindow, qtbot: QtBot,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    window = small_window
    window.table.go_to_row(0)
    monkeypatch.setattr(QDialog, "exec", lambda self: (self.show(), 0)[1])
    cases: list[tuple[Callable[[], object], type[QDialog]]] = [
        (window.features.admin.show_preferences, QDialog),
        (lambda: window.adder.ask(window), QDialog),
        (window.features.admin.show_duplicates, QDialog),
        (window.features.admin.find_metadata, QDialog),
        (window.features.admin.show_shortcuts, dialogs.ShortcutsDialog),
        (lambda: window.actions["open_shared"].trigger(), SharedLibraryDialog),
    ]
    if not window.library.shared:  # (a server's library has no backups dialog)
        cases.append((window.features.admin.show_backups, BackupsDialog))
    for open_it, kind in cases:
        before = QApplication.topLevelWidgets()  # (kept: ids stay unique)
        open_it()
        shown = [d for d in QApplication.topLevelWidgets()
                 if isinstance(d, kind) and d.isVisible()
                 and all(d is not b for b in before)]
        assert shown, (cases.index((open_it, kind)), kind.__name__)
        dialog = shown[-1]
        qtbot.waitExposed(dialog)
        fits(dialog)
        dialog.close()


def test_preferences_are_in_tabs_that_fit(small_window: MainWindow, qtbot: QtBot) -> None:
    """Preferences was 729 px tall: its sections are tabs now, each scrolling if need be."""
    dialog = small_window.features.admin.show_preferences()
    qtbot.waitExposed(dialog)
    assert dialog.tabs.count() == 3
    assert dialog.sizeHint().height() <= 560
    fits(dialog)
    dialog.reject()


def test_the_title_column_takes_the_spare_width(small_window: MainWindow,
                                                qtbot: QtBot) -> None:
    window = small_window
    window.reset_layout()
    window.resize(SMALL.size())
    qtbot.waitUntil(lambda: window.width() <= SMALL.width())
    header = window.table.horizontalHeader()
    widths = {name: header.sectionSize(window.model.column_index(name))
              for name in ("title", "authors", "venue", "added")}
    assert widths["title"] > max(widths["authors"], widths["venue"], widths["added"]) * 1.5
    assert widths["title"] >= 0.35 * window.table.viewport().width()
    assert window.statusBar().isVisible()
    assert window.minimumSizeHint().height() <= SMALL.height() - PANEL
    assert window.minimumSizeHint().width() <= SMALL.width()


def test_the_sidebars_filters_are_read_whole_at_1024(small_window: MainWindow,
                                                       qtbot: QtBot) -> None:
    window = small_window
    window.reset_layout()
    window.resize(SMALL.size())
    qtbot.waitUntil(lambda: window.width() <= SMALL.width())
    tree = window.sidebar.tree
    metrics = tree.fontMetrics()
    for n in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(n)
        if item is None or not item.text(0) or item.childCount():
            continue
        # (its name column, less the icon and the item's margins, holds the name)
        room = tree.columnWidth(0) - tree.iconSize().width() - 16
        assert metrics.horizontalAdvance(item.text(0)) <= room, item.text(0)


def test_the_title_column_keeps_room_in_a_layout_made_wider(small_window: MainWindow,
                                                              qtbot: QtBot) -> None:
    """Columns the user widened in a big window, remembered, then a window of 1024 px:
    Title was squeezed to about 50 px while Authors, Venue and Added kept their widths.
    They give way (down to their headings) so that Title keeps a third of the table."""
    window = small_window
    window.reset_layout()
    window.resize(1600, 800)
    qtbot.waitUntil(lambda: window.width() >= 1500)
    header = window.table.horizontalHeader()
    for name, width in (("authors", 420), ("venue", 330), ("added", 220)):
        header.resizeSection(window.model.column_index(name), width)  # the user's
    state = header.saveState()
    window.resize(SMALL.size())
    qtbot.waitUntil(lambda: window.width() <= SMALL.width())
    assert header.restoreState(state)  # (remembered from the last session)
    window.table.keep_column_widths()
    window.resize(SMALL.width() - 10, SMALL.height())
    qtbot.waitUntil(lambda: window.width() <= SMALL.width() - 10)
    title = header.sectionSize(window.model.column_index("title"))
    assert title >= 0.3 * window.table.viewport().width()


def inside(widget: QWidget, area: QWidget) -> bool:
    """Whether `widget` lies wholly within `area`, left to right."""
    left = widget.mapTo(area, widget.rect().topLeft()).x()
    return left >= 0 and left + widget.width() <= area.width()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_entry_editor_fits_a_1280x720_window(
        windows: WindowFactory, gui_library: Library, qtbot: QtBot, language: str,
        compiled: Path) -> None:  # noqa: F811
    translators = i18n.install(language, compiled) if language != "en" else []
    try:
        window = windows.open(gui_library)
        window.resize(1280, 720)
        window.table.go_to_row(0)
        window.actions["edit_fields"].trigger()
        editor = window.detail.fields_editor
        assert editor is not None
        # (rows made while the pane is shown appear with the next turn of the event loop)
        qtbot.waitUntil(lambda: all(editor.editor(name).isVisibleTo(window)  # type: ignore
                                    for name in ("type", "keywords")))
        viewport = editor.form_widget.parentWidget()
        assert viewport is not None
        names = ("type", "title", "author", "editor", "year", "booktitle", "volume",
                 "number", "pages", "publisher", "doi", "eprint", "url", "abstract",
                 "keywords")
        for name in names:
            field = editor.editor(name)
            assert field is not None and field.isVisibleTo(window), name
            holder = field  # (the field's row: the editor, its × and its problem line)
            while holder.parentWidget() is not editor.form_widget:
                holder = holder.parentWidget()
            label = editor.form.labelForField(holder)
            assert isinstance(label, QLabel) and label.text(), name
            # Neither squeezed below what it needs nor cut off at the pane's right edge.
            assert field.width() >= field.minimumSizeHint().width(), name
            assert label.width() >= label.sizeHint().width(), (name, label.text())
            assert inside(field, viewport) and inside(label, viewport), name
        assert inside(editor.add_field_button, editor)
        window.actions["edit_bibtex"].trigger()
        source = window.detail.source_editor
        assert source is not None
        qtbot.waitUntil(source.isVisible)
        for button in source.findChildren(QAbstractButton):
            if button.isVisibleTo(source):
                assert inside(button, source), button.text()
        assert window.statusBar().isVisible()
    finally:
        i18n.remove(translators)


def test_an_empty_library_says_what_to_do(windows: WindowFactory, tmp_path: Path,
                                          qtbot: QtBot) -> None:
    library = Library.open(str(tmp_path / "empty.sqlite"))
    try:
        window = windows.open(library)
        placeholder = window.table.placeholder
        assert placeholder.isVisible()
        text = placeholder.text()
        assert "Import" in text and "identifier" in text.lower() and "drop" in text.lower()
        window.search.setText("nothing")
        qtbot.waitUntil(lambda: window.model.view.search == "nothing")
        assert placeholder.isVisible() and "Import" in placeholder.text()  # still empty
        windows.close(window)
    finally:
        library.close()


def test_a_search_that_matches_nothing_says_so(small_window: MainWindow,
                                               qtbot: QtBot) -> None:
    window = small_window
    placeholder = window.table.placeholder
    assert not placeholder.isVisible()
    window.search.setText("zzzyzzy")
    qtbot.waitUntil(lambda: window.model.view.search == "zzzyzzy")
    wait_idle(qtbot, window)
    qtbot.waitUntil(placeholder.isVisible)
    assert "No paper matches “zzzyzzy”" in placeholder.text()
    assert "Import" not in placeholder.text()
    window.search.setText("au:zzzyzzy year:2020")  # how a query was read is said too
    qtbot.waitUntil(lambda: "author “zzzyzzy” and year 2020" in placeholder.text())
    assert "author “zzzyzzy” and year 2020" in window.count_label.text()
    window.search.clear()
    qtbot.waitUntil(lambda: window.model.rowCount() == 38)
    qtbot.waitUntil(lambda: not placeholder.isVisible())
    assert window.library.count(View()) == 38


@pytest.fixture
def restored_appearance() -> Iterator[None]:
    yield
    appearance.apply("system")


def lightness(role: QPalette.ColorRole) -> int:
    return QApplication.palette().color(role).lightness()


def test_dark_and_light_appearances(small_window: MainWindow, qtbot: QtBot,
                                    restored_appearance: None) -> None:
    window = small_window
    dialog = window.features.admin.show_preferences()
    combo = dialog.appearance_combo
    combo.setCurrentIndex(combo.findData("dark"))
    dialog.accept()
    assert window.settings.get(S.APPEARANCE) == "dark"
    roles = QPalette.ColorRole
    assert lightness(roles.Window) < 100 and lightness(roles.Base) < 100
    assert lightness(roles.Text) - lightness(roles.Base) > 150  # readable text
    assert lightness(roles.PlaceholderText) - lightness(roles.Base) > 90  # counts, hints
    QApplication.processEvents()  # (the palette reaches the widgets)
    shot = window.grab().toImage()
    assert shot.pixelColor(shot.width() // 2, shot.height() // 2).lightness() < 100

    appearance.apply("light")
    assert lightness(roles.Window) > 150 and lightness(roles.Base) - lightness(roles.Text) > 150


def test_system_follows_the_desktops_scheme(restored_appearance: None,
                                            monkeypatch: pytest.MonkeyPatch,
                                            qapp: QApplication) -> None:
    assert appearance.wants_dark("system", Qt.ColorScheme.Dark)
    assert not appearance.wants_dark("system", Qt.ColorScheme.Light)
    assert not appearance.wants_dark("light", Qt.ColorScheme.Dark)
    assert appearance.wants_dark("dark", Qt.ColorScheme.Light)
    scheme = [Qt.ColorScheme.Light]
    monkeypatch.setattr(appearance, "desktop_scheme", lambda: scheme[0])
    appearance.apply("system")
    light = lightness(QPalette.ColorRole.Window)
    scheme[0] = Qt.ColorScheme.Dark  # the desktop switches to dark while Papershelf runs
    appearance.scheme_changed()
    assert lightness(QPalette.ColorRole.Window) < 100 < light
    scheme[0] = Qt.ColorScheme.Light
    appearance.scheme_changed()
    assert lightness(QPalette.ColorRole.Window) == light


def link_pixels(label: QWidget, colour: QColor) -> int:
    """How many pixels of `label` (as it paints now) are near `colour`."""
    shot = label.grab().toImage()
    near = 0
    for y in range(shot.height()):
        for x in range(shot.width()):
            c = shot.pixelColor(x, y)
            if (abs(c.red() - colour.red()) + abs(c.green() - colour.green())
                    + abs(c.blue() - colour.blue())) < 60:
                near += 1
    return near


def test_the_detail_panes_links_follow_the_appearance_at_once(
        small_window: MainWindow, qtbot: QtBot, restored_appearance: None) -> None:
    """The links (DOI, PDF, page) stayed dark blue on dark grey after switching to dark
    until a restart: they take the palette's link colour at once, both ways."""
    window = small_window
    appearance.apply("light")
    pid = window.library.view_ids(View())[0]
    window.library.set_fields(pid, {"doi": "10.1000/xyz123"})
    window.table.go_to_row(1)
    window.table.go_to_row(window.model.row_of(pid) or 0)
    label = window.detail.links_label
    qtbot.waitUntil(lambda: label.isVisible() and "10.1000/xyz123" in label.text())
    light_link = QApplication.palette().color(QPalette.ColorRole.Link)
    assert link_pixels(label, light_link) > 0
    appearance.apply("dark")
    QApplication.processEvents()
    dark_link = QApplication.palette().color(QPalette.ColorRole.Link)
    assert link_pixels(label, dark_link) > 0 and link_pixels(label, light_link) == 0
    appearance.apply("light")
    QApplication.processEvents()
    assert link_pixels(label, light_link) > 0 and link_pixels(label, dark_link) == 0
