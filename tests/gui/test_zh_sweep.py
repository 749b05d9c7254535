"""The window's main paths in Simplified Chinese show no English (issue 22): every menu,
the toolbar, the sidebar, the table's headings, the detail pane, the status bar after a
change and its undo, an import's report, Preferences, Add by Identifier offline and a
shared library that cannot be reached. The papers' own text (titles, abstracts) is data,
not interface, and is left out; so are names that are the same in every language."""

from __future__ import annotations

import getpass
import re
import socket
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.gui import dialogs, i18n
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTranslator,
    QWidget,
)
from tests.gui.conftest import WindowFactory, wait_idle
from tests.gui.test_i18n import compiled  # noqa: F401  (the module's fixture)

# Names and terms written the same in a Chinese interface (and the shortcut keys).
SAME_IN_EVERY_LANGUAGE = {
    "papershelf", "bibtex", "biblatex", "biber", "pdf", "pdfs", "doi", "dois", "arxiv",
    "url", "urls", "openreview", "pmlr", "dblp", "crossref", "openalex", "opencitations",
    "semantic",
    "scholar", "icml", "postgresql", "postgres", "sqlite", "ctrl", "shift", "alt", "esc",
    "enter",
    "del", "delete", "api", "isbn", "utf", "ris", "csl", "json", "zotero", "jabref",
    "latex", "tex", "bib", "aux", "txt", "home", "end", "pgup", "pgdown", "space", "tab",
    "backspace", "return", "up", "down", "left", "right", "ascii", "unicode", "keyring",
    "auth", "year", "title", "shorttitle", "veryshorttitle", "authors", "firstpage",
    "lower", "upper", "mailto", "www", "http", "https", "localhost", "sqlite3", "gib",
    "mib", "kib", "png", "svg", "html", "ins", "backtab", "meta", "num", "orcid",
    "acl", "anthology", "better", "files",  # (a folder's name)
    "markdown",  # (a format's name, as "json")
    # BibTeX's field names, written as they are in a .bib file
    "file", "annote", "date", "journaltitle", "eprint", "journal", "note", "abstract",
    "month", "booktitle", "pages", "volume", "number", "publisher", "keywords",
    # citation styles' titles, as their CSL files name them (Zotero shows them so too)
    "apa", "acm", "sig", "proceedings", "chicago", "author", "harvard", "cite", "them",
    "mla", "edition", "nature", "ieee",
    # each language is named in its own
    "english",
}
WORD = re.compile(r"[A-Za-z]{3,}")


def english_words(text: str) -> list[str]:
    """The English words of an interface text: ASCII words of three letters or more
    that are not names, shortcut keys, placeholders ({n}), paths or quoted data (keys,
    field names and macros in '…', titles in “…”)."""
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]|<[^>]*>|&\w+;|\S*[/\\]\S*|\S+\.\w{1,8}\b|"
                  r"\S+@\S+|“[^”]*”|'[^'\n]*'|@\w+|\b[A-Z0-9_]{4,}\b|\w*_\w*", " ", text)
    return [w for w in WORD.findall(text) if w.lower() not in SAME_IN_EVERY_LANGUAGE]


def widget_texts(root: QWidget, skip: Iterable[QWidget] = ()) -> Iterator[tuple[str, str]]:
    """(where, text) of every visible interface text under `root`."""
    skipped = list(skip)
    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if any(widget is s or s.isAncestorOf(widget) for s in skipped):
            continue
        if not widget.isVisibleTo(root) and widget is not root:
            continue
        name = f"{type(widget).__name__}({widget.objectName()})"
        texts = [widget.toolTip(), widget.windowTitle() if widget.isWindow() else ""]
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(widget.text())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        if isinstance(widget, QPlainTextEdit):
            texts += [widget.placeholderText(), widget.toPlainText()]
        if isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
        for action in widget.actions():
            texts += [action.text(), action.toolTip()]
        yield from ((name, t) for t in texts if t)


def menu_texts(window: MainWindow) -> Iterator[tuple[str, str]]:
    menus: list[QMenu] = [a.menu() for a in window.menuBar().actions()]
    while menus:
        menu = menus.pop()
        yield "menu", menu.title()
        for action in menu.actions():
            if action.menu() is not None:
                menus.append(action.menu())
            yield f"menu {menu.title()}", action.text()
            yield f"menu {menu.title()}", action.toolTip()


def data_widgets(window: MainWindow) -> list[QWidget]:
    """The papers' own text: the table's cells and the detail pane's fields."""
    d = window.detail
    return [window.table.viewport(), d.title_edit, d.authors_label, d.venue_label,
            d.abstract_label, d.key_label, d.links_label, d.files_label,
            d.notes_edit, d.private_notes_edit]


@pytest.fixture
def chinese(compiled: Path, qapp: object) -> Iterator[list[QTranslator]]:  # noqa: F811
    translators = i18n.install("zh_CN", compiled)
    yield translators
    i18n.remove(translators)


def english_of(found: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted({(where, text) for where, text in found if english_words(text)})


def test_the_main_paths_speak_chinese(chinese: list[QTranslator], windows: WindowFactory,
                                      gui_library: Library, qtbot: QtBot, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    window = windows.open(gui_library)
    seen: list[tuple[str, str]] = []
    seen += menu_texts(window)
    seen += widget_texts(window, skip=data_widgets(window))
    header = window.table.horizontalHeader()
    seen += [("header", str(window.model.headerData(c, header.orientation())))
             for c in range(window.model.columnCount())]

    # Star, undo and redo: what the status bar and the Edit menu say.
    window.table.select_rows([0], 0)
    window.actions["toggle_star"].trigger()
    wait_idle(qtbot, window)
    seen += [("status", window.statusBar().currentMessage()),
             ("undo", window.actions["undo"].text())]
    window.undo()
    wait_idle(qtbot, window)
    seen += [("status", window.statusBar().currentMessage()),
             ("redo", window.actions["redo"].text())]

    # An import with a paragraph that is no abstract: the report.
    source = tmp_path / "list.txt"
    abstract = ("We study the sample complexity of learning with noisy labels. We show "
                "a matching lower bound for every algorithm, and an estimator that "
                "attains it without knowing the noise rate. Experiments on image and "
                "text benchmarks confirm that the bound predicts the error we observe.")
    source.write_text(f"ICML 2024 论文列表\n\n{abstract}\n\n{abstract} Again.\n\nok\n",
                      encoding="utf-8")
    shown: list[dialogs.ImportSummaryDialog] = []
    real = dialogs.show_import_summary
    monkeypatch.setattr(dialogs, "show_import_summary",
                        lambda parent, outcome: shown.append(real(parent, outcome)) or shown[-1])
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.features.importing.start_import([str(source)])
    wait_idle(qtbot, window)
    seen += [("status", window.statusBar().currentMessage())]
    seen += widget_texts(shown[0])
    shown[0].close()

    # A BibTeX file with a broken entry, a duplicate key, an undefined macro and a
    # control character: the report's every line.
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{good, title = {Good}, author = {Doe, Jane}, journal = jmlr,\n"
                   "  year = 2024, abstract = {One\x01 two}}\n"
                   "@article{good, title = {Again}}\n"
                   "@article{broken, title = {Never closed\n"
                   "@book{nokey, title = {No comma} year = 2020}\n", encoding="utf-8")
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.features.importing.start_import([str(bib)])
    wait_idle(qtbot, window)
    seen += [("status", window.statusBar().currentMessage())]
    seen += widget_texts(shown[-1])
    assert len(shown[-1].details.toPlainText().splitlines()) >= 4  # (the problems shown)
    shown[-1].close()

    # Preferences, every section.
    preferences = window.features.admin.show_preferences()
    seen += widget_texts(preferences)
    preferences.reject()

    found = english_of(seen)
    assert found == [], "\n".join(f"{where}: {text}" for where, text in found)


def test_network_and_shared_library_errors_speak_chinese(
        chinese: list[QTranslator], windows: WindowFactory, gui_library: Library,
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Add by Identifier offline and with the services unreachable, and a shared
    library whose server cannot be reached: every line the user reads is Chinese."""
    from tests.gui.test_add_identifiers import MADE_UP, added
    from tests.gui.test_shared_library import click_open, open_dialog

    window = windows.open(gui_library)
    seen: list[tuple[str, str]] = []
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    outcome = added(qtbot, window, lambda: window.adder.add_text("10.18653/v1/N19-1423"))
    seen += [("offline", window.add_panel.text()), ("offline", outcome.summary())]
    seen += widget_texts(window.add_panel)
    monkeypatch.delenv("PAPERSHELF_OFFLINE")

    with socket.socket() as probe:  # a port on 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    for name in ("CROSSREF", "ARXIV", "OPENREVIEW", "DBLP", "OPENALEX", "S2", "PMLR", "ACL"):
        monkeypatch.setenv(f"PAPERSHELF_{name}_URL", closed)
    outcome = added(qtbot, window, lambda: window.adder.add_text(
        f"10.18653/v1/N19-1423\nhttps://arxiv.org/abs/2401.12345\n{MADE_UP}"))
    seen += [("unreachable", window.add_panel.text()), ("unreachable", outcome.summary())]
    seen += widget_texts(window.add_panel)

    dialog = open_dialog(qtbot, window)
    dialog.host.setText("127.0.0.1")
    dialog.port.setValue(int(closed.rsplit(":", 1)[1]))
    dialog.database.setText("lab-papers")
    click_open(qtbot, dialog)
    seen += widget_texts(dialog)
    dialog.reject()

    user = getpass.getuser()  # (the user name the dialog suggests)
    seen = [(where, text.replace(MADE_UP, "").replace(user, "")) for where, text in seen]
    found = english_of(seen)
    assert found == [], "\n".join(f"{where}: {text}" for where, text in found)


def test_auto_export_statuses_speak_chinese(chinese: list[QTranslator],
                                            windows: WindowFactory, gui_library: Library,
                                            qtbot: QtBot, tmp_path: Path) -> None:
    """An auto-export of a LaTeX document citing a key the library lacks, and one of a
    document not compiled yet: the status bar at start and the Auto-Exports dialog's
    table (its State column whole, in a tooltip too) say it in Chinese."""
    from papershelf.core import autoexport
    from papershelf.gui.features.autoexport import AutoExportsDialog
    from tests.conftest import paper_keys
    from tests.gui.test_autoexport_gui import label
    from tests.test_autoexport_aux import write_aux

    aux = tmp_path / "paper.aux"
    write_aux(aux, paper_keys(gui_library)[0], "ghost_2020")  # (a key: data, not words)
    autoexport.add(gui_library, tmp_path / "refs.bib", f"aux:{aux}", allow_missing=True)
    autoexport.add(gui_library, tmp_path / "later.bib", f"aux:{tmp_path / 'later.aux'}",
                   allow_missing=True)
    window = windows.open(gui_library)
    window.features.autoexport.exporter.delay_ms = 50
    qtbot.waitUntil(lambda: len(window.features.autoexport.exporter.outcomes) == 2, timeout=10000)
    seen = [("status", label(window).text())]
    dialog = AutoExportsDialog(window.features.autoexport.exporter, window)
    qtbot.addWidget(dialog)
    table = dialog.table
    qtbot.waitUntil(lambda: table.rowCount() == 2, timeout=10000)
    for row in range(table.rowCount()):
        state = table.item(row, table.columnCount() - 1)
        seen += [("state", state.text()), ("state tooltip", state.toolTip())]
        assert state.toolTip() == state.text()  # (the whole state, whatever the width)
    seen += [("header", table.horizontalHeaderItem(c).text())
             for c in range(table.columnCount())]
    dialog.close()
    found = english_of(seen)
    assert found == [], "\n".join(f"{where}: {text}" for where, text in found)
