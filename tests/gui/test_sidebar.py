"""The sidebar: counts, tags coming and going, and what it reports."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Counts
from papershelf.core.paths import package_data
from papershelf.gui.qt import QIcon, Qt, icon
from papershelf.gui.sidebar import Sidebar

# The offscreen platform warns about every shown top-level window; not our problem.
pytestmark = [pytest.mark.gui]

ICONS = ("papershelf", "star", "star-outline", "unread", "reading", "read", "all", "tag",
         "import", "export", "search", "notes")


def counts(**tags: int) -> Counts:
    return Counts(all=38, unread=33, reading=3, read=2, starred=4, tags=dict(tags))


@pytest.fixture
def sidebar(qtbot: QtBot) -> Sidebar:
    widget = Sidebar()
    qtbot.addWidget(widget)
    widget.resize(200, 400)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def rows(sidebar: Sidebar) -> list[tuple[str, str]]:
    tree = sidebar.tree
    return [(tree.topLevelItem(i).text(0), tree.topLevelItem(i).text(1))
            for i in range(tree.topLevelItemCount()) if not tree.topLevelItem(i).isHidden()]


def test_shows_counts(sidebar: Sidebar) -> None:
    sidebar.set_counts(counts(sparsity=5, RL=2))
    assert rows(sidebar) == [("All", "38"), ("Unread", "33"), ("Reading", "3"), ("Read", "2"),
                             ("Starred", "4"), ("Recently read", "0"), ("Tags", ""),
                             ("RL", "2"), ("sparsity", "5")]
    assert sidebar.current() == ("all", None)


def test_no_tags_hides_the_tags_heading(sidebar: Sidebar) -> None:
    sidebar.set_counts(counts())
    assert "Tags" not in [name for name, _ in rows(sidebar)]


def test_clicking_a_tag_emits(qtbot: QtBot, sidebar: Sidebar) -> None:
    sidebar.set_counts(counts(sparsity=5))
    item = sidebar._tag_items["sparsity"]
    rect = sidebar.tree.visualItemRect(item)
    with qtbot.waitSignal(sidebar.filterChanged, timeout=0) as blocker:
        qtbot.mouseClick(sidebar.tree.viewport(), Qt.MouseButton.LeftButton,
                         pos=rect.center())
    assert blocker.args == ["all", "sparsity"]
    assert sidebar.current() == ("all", "sparsity")


def test_keyboard_moves_through_filters_skipping_the_heading(
    qtbot: QtBot, sidebar: Sidebar
) -> None:
    sidebar.set_counts(counts(sparsity=5))
    sidebar.select("recent", None)
    sidebar.tree.setFocus()
    with qtbot.waitSignal(sidebar.filterChanged, timeout=0) as blocker:
        qtbot.keyClick(sidebar.tree, Qt.Key.Key_Down)
    assert blocker.args == ["all", "sparsity"]
    with qtbot.waitSignal(sidebar.filterChanged, timeout=0) as blocker:
        qtbot.keyClick(sidebar.tree, Qt.Key.Key_Up)
    assert blocker.args == ["recent", None]


def test_select_emits_once_only_on_change(qtbot: QtBot, sidebar: Sidebar) -> None:
    sidebar.set_counts(counts(sparsity=5))
    seen: list[tuple[str, str | None]] = []
    sidebar.filterChanged.connect(lambda f, t: seen.append((f, t)))
    sidebar.select("unread", None)
    assert seen == [("unread", None)]
    with qtbot.assertNotEmitted(sidebar.filterChanged):
        sidebar.select("unread", None)
    assert sidebar.current() == ("unread", None)


def test_set_counts_keeps_selection_by_identity(qtbot: QtBot, sidebar: Sidebar) -> None:
    sidebar.set_counts(counts(sparsity=5))
    sidebar.select("all", "sparsity")
    with qtbot.assertNotEmitted(sidebar.filterChanged):
        sidebar.set_counts(counts(alpha=1, sparsity=6, zeta=2))
    assert sidebar.current() == ("all", "sparsity")
    assert ("sparsity", "6") in rows(sidebar)
    assert [n for n, _ in rows(sidebar)][-3:] == ["alpha", "sparsity", "zeta"]


def test_vanished_tag_falls_back_to_all(qtbot: QtBot, sidebar: Sidebar) -> None:
    sidebar.set_counts(counts(sparsity=5, RL=2))
    sidebar.select("all", "sparsity")
    with qtbot.waitSignal(sidebar.filterChanged, timeout=0) as blocker:
        sidebar.set_counts(counts(RL=2))
    assert blocker.args == ["all", None]
    assert sidebar.current() == ("all", None)
    assert "sparsity" not in [n for n, _ in rows(sidebar)]


def test_unknown_entry_selects_all(sidebar: Sidebar) -> None:
    sidebar.select("reading", None)
    sidebar.select("all", "no-such-tag")
    assert sidebar.current() == ("all", None)


@pytest.mark.parametrize("name", ICONS)
def test_icons_load(qtbot: QtBot, name: str) -> None:
    folder = package_data("icons")
    assert folder is not None
    path = folder / f"{name}.svg"
    assert path.is_file()
    assert not QIcon(str(path)).pixmap(24, 24).isNull()
    loaded = icon(name)
    assert not loaded.isNull()
    assert not loaded.pixmap(24, 24).isNull()


def test_filter_entries_have_icons(sidebar: Sidebar) -> None:
    assert all(not item.icon(0).isNull() for item in sidebar._filter_items.values())


def test_screenshot(qtbot: QtBot, sidebar: Sidebar) -> None:
    sidebar.resize(200, 360)
    sidebar.set_counts(counts(sparsity=5, RL=2, **{"to-read-later": 12}))
    sidebar.select("unread", None)
    qtbot.wait(50)
    assert sidebar.grab().save("/tmp/sidebar.png")
