"""The inbox in the window: following through File › Follow…, checking off the GUI
thread, the items in the paper table best first, A/S/D each one undo step, a broken
source's note in the sidebar. A local server plays an RSS feed and arXiv's Atom API
(the recorded answers of tests/data/feeds)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.core.shapes import View
from papershelf.feeds import inbox, sources
from papershelf.gui.follow_dialog import FollowDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QAction, QDialogButtonBox, QMenu, Qt
from papershelf.metadata.http import SERVICES, HttpSettings
from tests import services_support
from tests.gui.conftest import WindowFactory, wait_idle

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment

DATA = Path(__file__).parent.parent / "data" / "feeds"
ATOM = "application/atom+xml"
RSS = "application/rss+xml"
ARXIV_TITLES = {"Two-Bit Quantization of Large Language Models Without Retraining"}


def all_ids(library: Library) -> list[int]:
    return library.view_ids(View())


def data(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


@pytest.fixture
def http(httpserver: HTTPServer, tmp_path: Path) -> HttpSettings:
    """Every service is the local server, no spacing, online."""
    root = httpserver.url_for("/").rstrip("/")
    return HttpSettings(cache_dir=tmp_path / "cache",
                        base_urls={name: root for name in SERVICES if name != "web"},
                        spacing={name: 0.0 for name in SERVICES}, keys=lambda name: "k",
                        offline=False, trust_env=False)


@pytest.fixture
def win(windows: WindowFactory, library: Library, http: HttpSettings,
        httpserver: HTTPServer) -> Iterator[MainWindow]:
    httpserver.expect_request("/api/query").respond_with_data(data("arxiv-api-cs.LG.xml"),
                                                              content_type=ATOM)
    httpserver.expect_request("/jmlt/rss").respond_with_data(data("journal-rss2.xml"),
                                                             content_type=RSS)
    window = windows.open(library)
    window.features.feeds.http = http
    wait_idle_feeds(window)
    yield window


def wait_idle_feeds(window: MainWindow) -> None:
    QtBotWait.bot.waitUntil(lambda: not window.tasks.busy()
                            and not window.features.feeds.running_job, timeout=15000)


class QtBotWait:
    bot: QtBot


@pytest.fixture(autouse=True)
def _bot(qtbot: QtBot) -> None:
    QtBotWait.bot = qtbot


def follow_in_dialog(qtbot: QtBot, window: MainWindow, typed: str) -> FollowDialog:
    window.actions["follow"].trigger()
    dialog = window.features.feeds.dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    dialog.field.clear()
    qtbot.keyClicks(dialog.field, typed)
    return dialog


def ok(dialog: FollowDialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def counts(window: MainWindow) -> dict[str, str]:
    section = window.sidebar.inbox
    found = {"": section.inbox.text(1)}
    for s in window.features.feeds.sources:
        item = section.source_item(s.spelling)
        assert item is not None
        found[s.spelling] = item.text(1)
    return found


def shown_titles(window: MainWindow) -> list[str]:
    model = window.model
    title = model.column_index("title")
    return [model.index(row, title).data() for row in range(model.rowCount())]


def key(qtbot: QtBot, window: MainWindow, letter: Qt.Key,
        modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.table.setFocus()
    qtbot.keyClick(window.table, letter, modifier)
    wait_idle(qtbot, window)
    wait_idle_feeds(window)


def test_follow_check_and_triage_with_undo(qtbot: QtBot, win: MainWindow,
                                           library: Library, httpserver: HTTPServer) -> None:
    feeds = win.features.feeds
    dialog = follow_in_dialog(qtbot, win, "cs.LG")
    assert dialog.error() and "\n" not in dialog.error()  # one clear line
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    dialog.field.clear()
    qtbot.keyClicks(dialog.field, "arxiv: cs.LG")
    assert dialog.error() == "" and dialog.spelling() == "arxiv:cs.LG"
    ok(dialog)
    wait_idle(qtbot, win)
    wait_idle_feeds(win)
    rss = httpserver.url_for("/jmlt/rss")
    ok(follow_in_dialog(qtbot, win, rss))
    wait_idle(qtbot, win)
    wait_idle_feeds(win)
    dialog = follow_in_dialog(qtbot, win, "arxiv:cs.LG")
    assert "already" in dialog.error()
    dialog.reject()

    win.actions["check_feeds"].trigger()
    assert feeds.running_job and win.progress.isVisible()  # off the GUI thread
    wait_idle_feeds(win)
    assert feeds.last_check is not None and not any(c.failed for c in feeds.last_check)
    qtbot.waitUntil(lambda: counts(win) == {"": "4", "arxiv:cs.LG": "2", rss: "2"})
    assert win.model.showing_papers

    win.sidebar.inbox.choose("")
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 4)
    assert win.model.headerData(win.model.column_index("venue"), Qt.Orientation.Horizontal) \
        == "Why"
    assert not win.table.isSortingEnabled()  # (best first)
    why = win.model.column_index("venue")
    assert all(win.model.index(row, why).data() for row in range(4))  # each says why
    win.table.go_to_row(0)
    first = shown_titles(win)[0]
    view = feeds._view
    assert view is not None and view.title_label.text() == first and view.isVisible()
    assert view.reason_label.text()
    win.sidebar.inbox.choose(rss)  # (a feed's items name it by the title it gives itself)
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 2)
    win.table.go_to_row(0)
    assert view.source_label.text() == \
        "From Journal of Machine Learning Things: Latest articles"
    win.sidebar.inbox.choose("")
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 4)
    win.table.go_to_row(0)

    # A: added to the library, unread; one undo step, and redo
    key(qtbot, win, Qt.Key.Key_A)
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 3)
    [paper] = [library.paper(pid) for pid in all_ids(library)]
    assert paper is not None and paper.record.title == first
    assert paper.read_state == "unread" and not paper.starred
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 4)
    assert all_ids(library) == []
    win.actions["redo"].trigger()
    wait_idle(qtbot, win)
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 3)
    assert len(all_ids(library)) == 1

    # S: added starred
    win.table.go_to_row(0)
    starred_title = shown_titles(win)[0]
    key(qtbot, win, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 2)
    starred = [library.paper(pid) for pid in all_ids(library)]
    assert {p.record.title for p in starred if p is not None and p.starred} == {starred_title}

    # D: dismissed, undone, dismissed again; another check does not bring it back
    win.table.go_to_row(0)
    dismissed = shown_titles(win)[0]
    key(qtbot, win, Qt.Key.Key_D)
    qtbot.waitUntil(lambda: dismissed not in shown_titles(win))
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: dismissed in shown_titles(win))
    win.actions["redo"].trigger()
    qtbot.waitUntil(lambda: dismissed not in shown_titles(win))
    assert len(all_ids(library)) == 2
    win.actions["check_feeds"].trigger()
    wait_idle_feeds(win)
    assert feeds.last_check is not None and sum(c.new for c in feeds.last_check) == 0
    qtbot.waitUntil(lambda: counts(win)[""] == "1")
    assert dismissed not in shown_titles(win) and len(shown_titles(win)) == 1
    assert dismissed not in [item.title for item in inbox.items(library)]

    # back to the papers: the table shows the library again
    win.sidebar.select("all")
    qtbot.waitUntil(lambda: win.model.showing_papers and win.model.rowCount() == 2)
    assert win.table.isSortingEnabled() and win.model.view.sort == "added"


def source_menu(qtbot: QtBot, window: MainWindow, spelling: str) -> dict[str, QAction]:
    """Right-click a source in the sidebar: its menu's actions by text."""
    tree = window.sidebar.tree
    item = window.sidebar.inbox.source_item(spelling)
    assert item is not None
    tree.customContextMenuRequested.emit(tree.visualItemRect(item).center())
    menus = [m for m in window.findChildren(QMenu, "sourceMenu") if m.isVisible()]
    assert len(menus) == 1
    found = {action.text(): action for action in menus[0].actions()}
    menus[0].close()
    return found


def test_a_404_source_shows_its_note_while_the_others_work(
        qtbot: QtBot, win: MainWindow, library: Library, httpserver: HTTPServer) -> None:
    httpserver.expect_request("/gone.rss").respond_with_data("not here", status=404)
    gone, rss = httpserver.url_for("/gone.rss"), httpserver.url_for("/jmlt/rss")
    for spelling in (gone, rss):
        sources.follow(library.context, spelling)
    win.features.feeds.reload()
    wait_idle_feeds(win)
    win.actions["check_feeds"].trigger()
    wait_idle_feeds(win)
    qtbot.waitUntil(lambda: counts(win) == {"": "2", gone: "", rss: "2"})
    item = win.sidebar.inbox.source_item(gone)
    assert item is not None and "failed: not found" in item.toolTip(0)
    good = win.sidebar.inbox.source_item(rss)
    assert good is not None and "failed" not in good.toolTip(0)
    assert "1 failed" in win.statusBar().currentMessage()
    # choosing the working source shows its two items
    win.sidebar.inbox.choose(rss)
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 2)
    # its right-click menu: renamed, it keeps its count; unfollowed, it leaves the
    # sidebar (one undo step)
    source_menu(qtbot, win, rss)["&Rename…"].trigger()
    dialog = win.features.feeds.rename_dialog
    assert dialog is not None
    dialog.setTextValue("JMLT")
    dialog.accept()
    qtbot.waitUntil(lambda: good.text(0) == "JMLT")  # (in the library: one undo step)
    assert good.text(1) == "2"
    source_menu(qtbot, win, gone)["&Unfollow"].trigger()
    wait_idle(qtbot, win)
    qtbot.waitUntil(lambda: win.sidebar.inbox.source_item(gone) is None)
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.sidebar.inbox.source_item(gone) is not None)


def test_offline_checks_nothing(qtbot: QtBot, win: MainWindow, library: Library,
                                http: HttpSettings) -> None:
    sources.follow(library.context, "arxiv:cs.LG")
    win.features.feeds.http = HttpSettings(offline=True, cache_dir=http.cache_dir)
    win.features.feeds.reload()
    wait_idle_feeds(win)
    win.actions["check_feeds"].trigger()
    assert not win.features.feeds.running_job
    assert "Offline" in win.statusBar().currentMessage()


def test_the_schedule_checks_every_few_hours_but_not_offline(
        qtbot: QtBot, win: MainWindow, library: Library, http: HttpSettings) -> None:
    from papershelf.gui import settings as S

    feeds = win.features.feeds
    assert feeds.timer.isActive() and feeds.timer.interval() == 6 * 3_600_000  # (default)
    win.settings.set(S.FEEDS_CHECK_HOURS, 2)
    win.settings_changed()
    assert feeds.timer.interval() == 2 * 3_600_000
    sources.follow(library.context, "arxiv:cs.LG")
    feeds.reload()
    wait_idle_feeds(win)
    feeds.http = HttpSettings(offline=True, cache_dir=http.cache_dir)
    feeds.timer.timeout.emit()
    assert not feeds.running_job and feeds.last_check is None
    feeds.http = http
    feeds.timer.timeout.emit()
    assert feeds.running_job
    wait_idle_feeds(win)
    qtbot.waitUntil(lambda: counts(win) == {"": "2", "arxiv:cs.LG": "2"})
    win.settings.set(S.FEEDS_CHECK_HOURS, 0)
    win.settings_changed()
    assert not feeds.timer.isActive()


def test_the_window_works_while_a_slow_source_is_asked_and_cancel_stops_the_rest(
        qtbot: QtBot, win: MainWindow, library: Library, httpserver: HTTPServer) -> None:
    import gc
    import threading

    from werkzeug import Request, Response

    asked, answer = threading.Event(), threading.Event()

    def slow(_request: Request) -> Response:
        asked.set()
        answer.wait(20)
        return Response(data("journal-rss2.xml"), content_type=RSS)

    httpserver.expect_request("/slow.rss").respond_with_handler(slow)
    slow_url, rss = httpserver.url_for("/slow.rss"), httpserver.url_for("/jmlt/rss")
    for spelling in (slow_url, rss):
        sources.follow(library.context, spelling)
    feeds = win.features.feeds
    feeds.reload()
    wait_idle_feeds(win)
    collector = gc.get_threshold()
    win.actions["check_feeds"].trigger()
    qtbot.waitUntil(asked.is_set)  # the slow source is being asked
    assert feeds.running_job and win.progress.isVisible() and win.cancel_button.isVisible()
    assert gc.get_threshold()[2] > collector[2]  # (no full collection stalls the window)
    win.sidebar.select("starred")  # the window answers meanwhile
    qtbot.waitUntil(lambda: win.model.showing_papers and win.model.view.filter == "starred")
    win.cancel_button.click()
    answer.set()
    wait_idle_feeds(win)
    assert feeds.last_check is not None and [c.source for c in feeds.last_check] == [slow_url]
    assert [entry[0].path for entry in httpserver.log] == ["/slow.rss"]  # not the other
    assert not win.progress.isVisible() and not win.cancel_button.isVisible()
    qtbot.waitUntil(lambda: counts(win) == {"": "2", slow_url: "2", rss: ""})
    assert gc.get_threshold() == collector  # (the collector as it was, once done)


def checked_inbox(qtbot: QtBot, window: MainWindow, library: Library) -> None:
    """Follow arXiv's cs.LG, check it, and show the inbox (two items)."""
    sources.follow(library.context, "arxiv:cs.LG")
    window.features.feeds.reload()
    wait_idle_feeds(window)
    window.actions["check_feeds"].trigger()
    wait_idle_feeds(window)
    window.actions["show_inbox"].trigger()
    qtbot.waitUntil(lambda: len(shown_titles(window)) == 2)


def test_a_selection_is_triaged_in_one_step(qtbot: QtBot, win: MainWindow,
                                            library: Library) -> None:
    checked_inbox(qtbot, win, library)
    assert not win.actions["toggle_star"].isEnabled()  # (S is the inbox's here)
    win.table.select_rows([0, 1], 0)
    view = win.features.feeds._view
    assert view is not None and not view.isVisible()  # ("2 papers selected")
    key(qtbot, win, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: shown_titles(win) == [])
    papers = [library.paper(pid) for pid in all_ids(library)]
    assert len(papers) == 2 and all(p is not None and p.starred for p in papers)
    assert "2" in win.actions["undo"].text()
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one step: both
    qtbot.waitUntil(lambda: len(shown_titles(win)) == 2)
    assert all_ids(library) == []
    win.actions["filter_all"].trigger()
    qtbot.waitUntil(lambda: win.model.showing_papers)
    assert win.actions["toggle_star"].isEnabled() is False  # (no paper selected)
    assert not win.actions["inbox_star"].isEnabled()
