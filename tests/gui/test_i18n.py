"""The interface speaks English and Simplified Chinese: catalogues complete and current,
chosen from the system locale or the `language` preference, installed before the window."""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from papershelf.core.library import Library
from papershelf.gui import app, i18n
from papershelf.gui import settings as S
from papershelf.gui.qt import QCoreApplication, QLocale, QTranslator
from papershelf.gui.settings import Settings
from tests.conftest import ROOT
from tests.gui.conftest import WindowFactory

TRANSLATIONS = ROOT / "resources" / "translations"
ZH_TS = TRANSLATIONS / "papershelf_zh_CN.ts"
CORE_ZH_TS = TRANSLATIONS / "core_zh_CN.ts"  # the core's messages (papershelf.messages)
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalogues compiled afresh with pyside6-lrelease (as `make translations` does)."""
    folder = tmp_path_factory.mktemp("qm")
    for ts in sorted(TRANSLATIONS.glob("*.ts")):
        subprocess.run([str(BIN / "pyside6-lrelease"), "-silent", str(ts),
                        "-qm", str(folder / ts.with_suffix(".qm").name)], check=True)
    return folder


@pytest.fixture
def chinese(compiled: Path, qapp: object) -> Iterator[list[QTranslator]]:
    translators = i18n.install("zh_CN", compiled)
    yield translators
    i18n.remove(translators)


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) -> <message> of a .ts file."""
    found = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found[(name, message.findtext("source") or "")] = message
    return found


def test_a_chinese_window_has_chinese_menus(chinese: list[QTranslator], windows: WindowFactory,
                                            gui_library: Library, tmp_path: Path) -> None:
    window = windows.open(gui_library)
    titles = [action.text() for action in window.menuBar().actions()]
    assert titles == ["文件(&F)", "编辑(&E)", "视图(&V)", "论文(&P)", "收件箱(&I)",
                      "帮助(&H)"][:len(titles)]
    assert window.actions["import"].text() == "导入(&I)…"
    assert window.count_label.text().endswith("篇论文")
    shot = tmp_path / "zh.png"
    assert window.grab().toImage().save(str(shot), "PNG")
    assert shot.stat().st_size > 10_000


def test_module_contexts_find_their_messages(chinese: list[QTranslator]) -> None:
    """lupdate files module-level `tr()` calls without a context; Qt asks with one."""
    translate = QCoreApplication.translate
    assert translate("MainWindow", "&File") == "文件(&F)"
    assert translate("Sidebar", "All") == "全部"
    assert translate("DetailPane", "%n papers selected", "", 3) == "已选择 3 篇论文"
    assert translate("QDialogButtonBox", "Cancel") == "取消"  # Qt's own catalogue
    assert translate("MainWindow", "not a message") == "not a message"


@pytest.mark.parametrize(("language", "system", "expected"), [
    ("system", "zh_CN", "文件(&F)"),
    ("system", "de_DE", "&File"),  # no German catalogue: English, Qt's buttons too
    ("system", "en_GB", "&File"),
    ("en", "zh_CN", "&File"),
    ("zh_CN", "en_US", "文件(&F)"),
    ("nonsense", "zh_CN", "文件(&F)"),  # an unknown preference means "system"
])
def test_language_choice(compiled: Path, qapp: object, language: str, system: str,
                         expected: str) -> None:
    translators = i18n.install(language, compiled, QLocale(system))
    try:
        assert QCoreApplication.translate("MainWindow", "&File") == expected
        assert QCoreApplication.translate("QDialogButtonBox", "Cancel") == (
            "取消" if expected != "&File" else "Cancel")
    finally:
        i18n.remove(translators)


def test_english_plurals(compiled: Path, qapp: object) -> None:
    translators = i18n.install("en", compiled)
    try:
        translate = QCoreApplication.translate
        assert translate("DetailPane", "%n papers selected", "", 1) == "1 paper selected"
        assert translate("DetailPane", "%n papers selected", "", 2) == "2 papers selected"
    finally:
        i18n.remove(translators)


def test_run_gui_installs_the_preferred_language_before_the_window(
        compiled: Path, qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def render(library: Library, path: Path) -> int:
        seen.append(QCoreApplication.translate("MainWindow", "&File"))
        return 0

    monkeypatch.setattr(i18n, "translations_dir", lambda: compiled)
    monkeypatch.setattr(app, "render_screenshot", render)
    settings = Settings()
    settings.set(S.LANGUAGE, "zh_CN")
    try:
        args = argparse.Namespace(library=str(tmp_path / "lib.sqlite"),
                                  screenshot=str(tmp_path / "x.png"))
        assert app.run_gui(args) == 0
    finally:
        settings.store.remove(S.LANGUAGE.key)
    assert seen == ["文件(&F)"]
    assert QCoreApplication.translate("MainWindow", "&File") == "&File"  # removed again


def test_every_message_is_translated_keeping_placeholders_and_mnemonics() -> None:
    found = messages(ZH_TS)
    assert len(found) > 150
    for (context, source), message in found.items():
        translation = message.find("translation")
        assert translation is not None and translation.get("type") is None, (context, source)
        forms = [f.text or "" for f in translation.iter("numerusform")] or [
            translation.text or ""]
        for text in forms:
            assert text.strip(), (context, source)
            assert sorted(re.findall(r"\{\w*\}|%n|%s", text)) == \
                sorted(re.findall(r"\{\w*\}|%n|%s", source)), (source, text)
            assert ("&" in re.sub(r"&(amp;)?&", "", source)) == \
                ("&" in re.sub(r"&&", "", text)), (source, text)


def test_the_catalogue_has_every_string_of_the_sources(tmp_path: Path) -> None:
    """lupdate extracts the GUI's strings; none is missing from the committed catalogue
    (after changing strings: `make translations-update`, then translate the new ones)."""
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in (ROOT / "desktop" / "papershelf" / "gui").rglob("*.py"))
    subprocess.run([str(BIN / "pyside6-lupdate"), "-silent", *sources, "-ts", str(fresh)],
                   check=True, cwd=ROOT)
    extracted = set(messages(fresh))
    assert len(extracted) > 150
    missing = sorted(extracted - set(messages(ZH_TS)))
    assert not missing, f"untranslated strings; run `make translations-update`: {missing}"


def core_templates() -> set[str]:
    """The templates of the messages the core makes, read from its sources: each
    `describe("Verb", ...)` ("Verb %n papers", the read states spelled out), `text(...)`
    and `counted(...)` with a literal template."""
    found: set[str] = set()
    for path in (ROOT / "desktop" / "papershelf").rglob("*.py"):
        if "gui" in path.parts:
            continue
        source = path.read_text(encoding="utf-8")
        if "papershelf.messages import" not in source and path.name != "edits.py":
            continue
        found |= {f"{verb} %n papers" for verb in re.findall(r'describe\("([^"]+)"', source)}
        tree = ast.parse(source)
        makers = {  # (the names the module calls them by: `text` may be SQLAlchemy's)
            alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "papershelf.messages"
            for alias in node.names if alias.name in ("text", "counted", "plural")}
        if path.name == "messages.py":
            makers |= {"text", "counted"}
        found |= {node.args[0].value for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in makers and node.args
                  and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)}
        if 'describe(f"Mark {state}:"' in source:
            found |= {f"Mark {state}: %n papers" for state in ("unread", "reading", "read")}
    return found


def test_the_core_catalogue_has_every_message_the_core_makes() -> None:
    templates = core_templates()
    assert {"Star %n papers", "Tag {tags}", "Mark read: %n papers"} <= templates
    missing = sorted(templates - {source for _context, source in messages(CORE_ZH_TS)})
    assert not missing, f"add these to {CORE_ZH_TS.name}: {missing}"
    for (context, source), message in messages(CORE_ZH_TS).items():
        assert context == i18n.CORE_CONTEXT
        translation = message.find("translation")
        assert translation is not None
        forms = [f.text or "" for f in translation.iter("numerusform")] or [
            translation.text or ""]
        for text in forms:
            assert sorted(re.findall(r"\{\w*\}|%n", text)) == \
                sorted(re.findall(r"\{\w*\}|%n", source)), (source, text)


def test_undo_steps_speak_chinese(chinese: list[QTranslator], windows: WindowFactory,
                                  gui_library: Library, qtbot: object) -> None:
    """What the core names a change ("Star 1 paper") is shown in Chinese: the Edit menu's
    undo step and the status bar."""
    from tests.gui.conftest import wait_idle

    window = windows.open(gui_library)
    qtbot.waitUntil(lambda: window.model.rowCount() == 38)  # type: ignore[attr-defined]
    window.table.select_rows([0], 0)
    window.actions["toggle_star"].trigger()
    wait_idle(qtbot, window)  # type: ignore[arg-type]
    undo_text = window.actions["undo"].text()
    assert "星标 1 篇论文" in undo_text and "Star" not in undo_text
    assert window.statusBar().currentMessage() == "星标 1 篇论文"
    window.table.selectAll()
    window.actions["cycle_read"].trigger()
    wait_idle(qtbot, window)  # type: ignore[arg-type]
    assert "标为在读：38 篇论文" in window.actions["undo"].text()


def _mnemonic_clashes(window: object) -> list[tuple[str, str, list[str]]]:
    """(menu, letter, items) for every letter two items of one menu underline."""
    clashes = []
    menus = [a.menu() for a in window.menuBar().actions()]  # type: ignore[attr-defined]
    while menus:
        menu = menus.pop()
        seen: dict[str, list[str]] = {}
        for action in menu.actions():
            if action.menu() is not None:
                menus.append(action.menu())
            found = re.search(r"&(\w)", action.text().replace("&&", ""))
            if not action.isSeparator() and found:
                seen.setdefault(found.group(1).lower(), []).append(action.text())
        clashes += [(menu.title(), k, v) for k, v in seen.items() if len(v) > 1]
    return clashes


def test_every_menu_underlines_each_letter_once(windows: WindowFactory,
                                               gui_library: Library) -> None:
    """Alt+letter picks one item: in English..."""
    assert _mnemonic_clashes(windows.open(gui_library)) == []


def test_every_chinese_menu_underlines_each_letter_once(
        chinese: list[QTranslator], windows: WindowFactory, gui_library: Library) -> None:
    """... and in Chinese (论文 had three (N))."""
    assert _mnemonic_clashes(windows.open(gui_library)) == []


def test_chinese_counts_read_as_chinese(chinese: list[QTranslator], windows: WindowFactory,
                                        gui_library: Library, qtbot: object) -> None:
    """A search matching nothing: "38 篇中有 0 篇匹配", not "38 篇论文 篇中有 0 篇匹配"."""
    window = windows.open(gui_library)
    window.search.setText("zzzyzzy")
    qtbot.waitUntil(lambda: window.model.view.search == "zzzyzzy")  # type: ignore
    qtbot.waitUntil(lambda: window.model.complete)  # type: ignore[attr-defined]
    assert window.count_label.text() == "38 篇中有 0 篇匹配"


def test_numbers_are_grouped_alike_everywhere(qapp: object) -> None:
    """The sidebar and the status bar write 100,000 the same way (the locale's)."""
    from papershelf.core.views import Counts
    from papershelf.gui.sidebar import Sidebar

    sidebar = Sidebar()
    try:
        sidebar.set_counts(Counts(all=100000, unread=99999, reading=1, read=0,
                                  starred=1234, tags={"ml": 25000}))
        tree = sidebar.tree
        shown = [tree.topLevelItem(i).text(1) for i in range(tree.topLevelItemCount())]
        assert "100,000" in shown and "25,000" in shown and "100000" not in shown
    finally:
        sidebar.deleteLater()


def test_the_inbox_says_why_in_chinese_after_a_restart(
        chinese: list[QTranslator], windows: WindowFactory, gui_library: Library,
        qtbot: object) -> None:
    """The reasons a check ranked the inbox by are kept in the library (English when the
    command line checked); a Chinese window started afterwards shows them in Chinese."""
    from datetime import datetime, timezone

    from papershelf.feeds import inbox, learning, sources
    from papershelf.feeds.fetching import Found

    rows = gui_library.rows(gui_library.view_ids())
    liked = [pid for pid, row in rows.items() if "quantiz" in row.title.lower()]
    gui_library.set_starred(liked, True)
    _change, source = sources.follow(gui_library.context, "arxiv:cs.LG")
    quantized = Found("Quantizing transformer language models to two bits after training",
                      abstract="Post-training quantization of the weights of large "
                               "transformer models to two bits keeps their accuracy.")
    soil = Found("Soil erosion on alpine meadows under grazing",
                 abstract="Sheep and cattle erode the soil of alpine meadows.")
    inbox._store(gui_library.context, source.id, [quantized, soil],
                 datetime.now(timezone.utc), ranked=learning.current(gui_library),
                 spelling=source.spelling)
    assert "starred paper" in inbox.items(gui_library)[0].why  # (the command line's words)
    again = Library.open(gui_library.url)  # (the window started afterwards)
    window = windows.open(again)
    try:
        qtbot.waitUntil(lambda: window.sidebar.inbox.inbox.text(1) == "2")  # type: ignore
        window.sidebar.tree.setCurrentItem(window.sidebar.inbox.inbox)
        model = window.model
        qtbot.waitUntil(lambda: model.rowCount() == 2)  # type: ignore[attr-defined]
        why = {model.index(row, model.column_index("title")).data():
               model.index(row, model.column_index("venue")).data() for row in range(2)}
        assert "星标" in why[quantized.title] and "like" not in why[quantized.title]
        assert why[soil.title] == "你的文献库中还没有与之相似的论文"
        window.table.go_to_row(0)
        view = window.features.feeds._view
        assert view is not None and "星标" in view.reason_label.text()
    finally:
        windows.close(window)
        again.close()
