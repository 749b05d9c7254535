"""The detail pane: what it shows, and when it reports title and notes edits."""

from __future__ import annotations

from datetime import datetime

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import PaperDetail
from papershelf.formats.records import Author, PaperRecord
from papershelf.gui.detail import DetailPane, display_text
from papershelf.gui.qt import Qt

# The offscreen platform warns about every shown top-level window; not our problem.
pytestmark = [pytest.mark.gui]

ABSTRACT = (
    "We consider the resolution of learning problems involving $\\ell_0$-regularization "
    "via Branch-and-Bound (BnB) algorithms, as studied by M{\\\"u}ller. " * 8
    + "The last sentence is still shown."
)


def make_detail(pid: int = 1, *, title: str = "Pruning tests for $\\ell_0$ problems",
                provisional: bool = False, notes: str = "", abstract: str = ABSTRACT,
                starred: bool = False) -> PaperDetail:
    """A stored paper as the library would hand it out."""
    when = datetime(2024, 5, 1, 12, 0)
    record = PaperRecord(
        key=f"guyard2024pruning{pid}", title=title, title_provisional=provisional,
        authors=[Author("Guyard", "Théo"), Author("Herzet", "Cédric")],
        abstract=abstract, venue="ICML", year=2024, doi="10.5555/1234.5678",
        url="https://example.org/paper.pdf", notes=notes, tags=["sparsity", "to-cite"],
    )
    return PaperDetail(id=pid, record=record, starred=starred, read_state="unread",
                       read_at=None, added_at=when, modified_at=when)


@pytest.fixture
def pane(qtbot: QtBot) -> DetailPane:
    widget = DetailPane()
    qtbot.addWidget(widget)
    widget.resize(420, 760)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_placeholder_when_nothing_selected(pane: DetailPane) -> None:
    pane.show_paper(None)
    assert pane.current_id() is None
    assert pane._placeholder.isVisible()
    assert pane._placeholder.text() == "No paper selected"
    pane.show_selection_count(3)
    assert pane._placeholder.text() == "3 papers selected"


def test_shows_full_abstract_with_readable_math(pane: DetailPane) -> None:
    pane.show_paper(make_detail())
    shown = pane.abstract_label.text()
    assert shown == display_text(ABSTRACT)
    assert "ℓ₀-regularization" in shown
    assert "Müller" in shown
    assert "$" not in shown and "\\" not in shown
    assert shown.endswith("The last sentence is still shown.")
    assert pane.abstract_label.isVisible()
    assert pane.current_id() == 1


def test_shows_record_fields(pane: DetailPane) -> None:
    pane.show_paper(make_detail(starred=True))
    assert pane.title_edit.text() == "Pruning tests for ℓ₀ problems"
    assert pane.title_edit.font().bold()
    assert pane.authors_label.text() == "Théo Guyard, Cédric Herzet"
    assert pane.venue_label.text() == "ICML, 2024"
    assert pane.key_label.text() == "guyard2024pruning1"
    assert 'href="https://doi.org/10.5555/1234.5678"' in pane.links_label.text()
    assert 'href="https://example.org/paper.pdf"' in pane.links_label.text()
    assert pane.links_label.openExternalLinks()
    assert "sparsity, to-cite" in pane.tags_label.text()
    assert "Starred" in pane.status_label.text()
    assert "Unread" in pane.status_label.text()


def test_no_authors_is_said(pane: DetailPane) -> None:
    detail = make_detail()
    detail.record.authors = []
    pane.show_paper(detail)
    assert pane.authors_label.text() == "No authors yet"


def test_provisional_marker_only_for_provisional_titles(pane: DetailPane) -> None:
    pane.show_paper(make_detail(provisional=True))
    assert pane.provisional_label.isVisible()
    assert "Provisional title" in pane.provisional_label.text()
    assert pane.title_edit.font().italic()
    pane.show_paper(make_detail(2, provisional=False))
    assert not pane.provisional_label.isVisible()
    assert not pane.title_edit.font().italic()


def test_programmatic_show_does_not_emit(qtbot: QtBot, pane: DetailPane) -> None:
    with qtbot.assertNotEmitted(pane.notesEdited, wait=600), \
            qtbot.assertNotEmitted(pane.titleEdited):
        pane.show_paper(make_detail(1, notes="old notes"))
        pane.show_paper(make_detail(2, notes="other notes"))
        pane.show_paper(make_detail(2, notes="changed by undo"))
        pane.flush()
    assert pane.notes_edit.toPlainText() == "changed by undo"


def test_typing_notes_emits_after_debounce(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(7, notes="Start. "))
    pane.notes_edit.setFocus()
    pane.notes_edit.moveCursor(pane.notes_edit.textCursor().MoveOperation.End)
    with qtbot.waitSignal(pane.notesEdited, timeout=2000) as blocker:
        qtbot.keyClicks(pane.notes_edit, "Read §3")
    assert blocker.args == [7, "Start. Read §3", (1, "Start. ")]
    # Saved: nothing more to emit.
    with qtbot.assertNotEmitted(pane.notesEdited):
        pane.flush()


def test_flush_emits_immediately(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(3))
    qtbot.keyClicks(pane.notes_edit, "x")
    with qtbot.waitSignal(pane.notesEdited, timeout=0) as blocker:
        pane.flush()
    assert blocker.args == [3, "x", (1, "")]


def test_switching_papers_saves_notes_under_old_id(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(1))
    qtbot.keyClicks(pane.notes_edit, "for paper one")
    with qtbot.waitSignal(pane.notesEdited, timeout=0) as blocker:
        pane.show_paper(make_detail(2, notes="paper two"))
    assert blocker.args == [1, "for paper one", (1, "")]
    assert pane.notes_edit.toPlainText() == "paper two"
    assert pane.current_id() == 2


def test_hiding_saves_notes(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(4))
    qtbot.keyClicks(pane.notes_edit, "typed just before closing")
    with qtbot.waitSignal(pane.notesEdited, timeout=0) as blocker:
        pane.close()
    assert blocker.args == [4, "typed just before closing", (1, "")]


def test_reshow_keeps_unsaved_typing_and_cursor(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(5, notes="abc"))
    pane.notes_edit.setFocus()
    cursor = pane.notes_edit.textCursor()
    cursor.setPosition(1)
    pane.notes_edit.setTextCursor(cursor)
    qtbot.keyClicks(pane.notes_edit, "X")
    # A refresh with the detail read before the typing was saved: typing wins.
    with qtbot.waitSignal(pane.notesEdited, timeout=0) as blocker:
        pane.show_paper(make_detail(5, notes="abc", starred=True))
    assert blocker.args == [5, "aXbc", (1, "abc")]
    assert pane.notes_edit.toPlainText() == "aXbc"
    assert pane.notes_edit.textCursor().position() == 2
    assert "Starred" in pane.status_label.text()
    # The refresh after the save: unchanged text, cursor stays.
    pane.show_paper(make_detail(5, notes="aXbc", starred=True))
    assert pane.notes_edit.textCursor().position() == 2


def test_editing_title_emits(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(9, title="Old  title", provisional=True))
    pane.title_edit.setFocus()
    pane.title_edit.selectAll()
    with qtbot.waitSignal(pane.titleEdited, timeout=1000) as blocker:
        qtbot.keyClicks(pane.title_edit, "A  real title ")
        qtbot.keyClick(pane.title_edit, Qt.Key.Key_Return)
    assert blocker.args == [9, "A real title", "Old  title"]  # (and the title it replaces)


def test_title_math_is_readable_until_edited(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(9))
    assert pane.title_edit.text() == "Pruning tests for ℓ₀ problems"
    pane.activateWindow()
    pane.title_edit.setFocus()
    qtbot.waitUntil(pane.title_edit.hasFocus, timeout=1000)
    assert pane.title_edit.text() == "Pruning tests for $\\ell_0$ problems"
    with qtbot.waitSignal(pane.titleEdited, timeout=1000) as blocker:
        qtbot.keyClicks(pane.title_edit, " again")
        pane.notes_edit.setFocus()
    assert blocker.args == [9, "Pruning tests for $\\ell_0$ problems again",
                            "Pruning tests for $\\ell_0$ problems"]
    qtbot.waitUntil(lambda: not pane.title_edit.hasFocus(), timeout=1000)
    assert pane.title_edit.text() == "Pruning tests for ℓ₀ problems again"


def test_unchanged_or_empty_title_does_not_emit(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(9, title="Same"))
    pane.title_edit.setFocus()
    with qtbot.assertNotEmitted(pane.titleEdited):
        pane.title_edit.selectAll()
        qtbot.keyClicks(pane.title_edit, "Same")
        qtbot.keyClick(pane.title_edit, Qt.Key.Key_Return)
        pane.title_edit.selectAll()
        qtbot.keyClick(pane.title_edit, Qt.Key.Key_Delete)
        qtbot.keyClick(pane.title_edit, Qt.Key.Key_Return)
    assert pane.title_edit.text() == "Same"


def test_focus_notes(qtbot: QtBot, pane: DetailPane) -> None:
    pane.activateWindow()
    pane.show_paper(make_detail())
    pane.focus_notes()
    qtbot.waitUntil(pane.notes_edit.hasFocus, timeout=1000)


def test_screenshot(qtbot: QtBot, pane: DetailPane) -> None:
    pane.resize(420, 760)
    title = ("Safe screening rules for $\\ell_0$-regularized problems: a long title that "
             "does not fit on one line")
    pane.show_paper(make_detail(title=title, provisional=True,
                                notes="Compare with **L0Learn**."))
    qtbot.wait(50)
    assert pane.grab().save("/tmp/detail.png")


def test_escape_reverts_title(qtbot: QtBot, pane: DetailPane) -> None:
    pane.show_paper(make_detail(9, title="Kept"))
    pane.activateWindow()
    pane.title_edit.setFocus()
    qtbot.waitUntil(pane.title_edit.hasFocus, timeout=1000)
    with qtbot.assertNotEmitted(pane.titleEdited):
        qtbot.keyClicks(pane.title_edit, " typo")
        qtbot.keyClick(pane.title_edit, Qt.Key.Key_Escape)
        pane.flush()
    assert pane.title_edit.text() == "Kept"
