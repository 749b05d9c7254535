"""Undo never undoes a later change someone else made (issue 37): two Library objects
on one library (two windows, a window and the command line, two members of a shared
library); an undo restores only the papers that still hold what its change wrote, says
how many it left, and its redo redoes only what it undid. On SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from papershelf.core import edits
from papershelf.core.edits import Change, left_as_they_were
from papershelf.core.library import Library
from papershelf.formats.records import PaperRecord, ReadResult


@pytest.fixture
def there(library_target: str, library: Library) -> Iterator[Library]:
    """A second Library object on the test's library: another program's."""
    other = Library.open(library_target)
    yield other
    other.close()


def add_papers(library: Library, n: int = 3) -> list[int]:
    report = library.import_result(
        ReadResult(records=[PaperRecord(title=f"Paper {k}", year=2020 + k,
                                        raw={"title": f"Paper {k}", "year": str(2020 + k)})
                            for k in range(n)]), "test", "bibtex")
    return sorted(report.added_ids)


def undone(change: Change) -> Change:
    assert change.undo is not None
    return change.undo()


def starred(library: Library, ids: list[int]) -> list[bool]:
    rows = library.rows(ids)
    return [rows[pid].starred for pid in ids]


def read_states(library: Library, ids: list[int]) -> list[str]:
    rows = library.rows(ids)
    return [rows[pid].read_state for pid in ids]


def test_undoing_a_star_leaves_a_paper_unstarred_since_and_redo_too(
        library: Library, there: Library) -> None:
    ids = add_papers(library)
    star = library.set_starred(ids, True)
    there.set_starred(ids[1:2], False)  # someone else, after
    there.set_starred(ids[1:2], True)  # and again: a star of theirs now
    # (their star is what this one wrote: undoing it unstars it; nothing to tell)
    unstar = undone(star)
    assert (unstar.skipped, sorted(unstar.ids)) == (0, ids)
    assert starred(library, ids) == [False, False, False]

    star = undone(unstar)  # redo
    there.set_starred(ids[:1], False)
    unstar = undone(star)
    assert unstar.skipped == 1 and sorted(unstar.ids) == ids[1:]
    assert starred(library, ids) == [False, False, False]
    there.set_starred(ids[:1], True)  # theirs again
    redo = undone(unstar)  # redoes the two it undid, not theirs
    assert redo.skipped == 0 and sorted(redo.ids) == ids[1:]
    assert starred(library, ids) == [True, True, True]


def test_undoing_mark_read_keeps_a_read_state_set_since_elsewhere(
        library: Library, there: Library) -> None:
    ids = add_papers(library)
    mark = library.set_read_state(ids, "read")
    there.set_read_state(ids[2:], "reading")
    unmark = undone(mark)
    assert unmark.skipped == 1
    assert read_states(library, ids) == ["unread", "unread", "reading"]
    assert left_as_they_were(unmark.skipped, undo=True) == (
        "1 paper not undone: changed since by another program")

    there.set_read_state(ids[:1], "reading")  # one of those it undid, changed since
    redo = undone(unmark)
    assert (redo.skipped, sorted(redo.ids)) == (1, ids[1:2])
    assert read_states(library, ids) == ["reading", "read", "reading"]
    assert left_as_they_were(redo.skipped, undo=False) == (
        "1 paper not redone: changed since by another program")
    again = undone(redo)  # undo once more: the one it redid
    assert (again.skipped, sorted(again.ids)) == (0, ids[1:2])
    assert read_states(library, ids) == ["reading", "unread", "reading"]


def test_undoing_notes_edited_since_elsewhere_keeps_their_notes(
        library: Library, there: Library) -> None:
    ids = add_papers(library, 2)
    mine = library.set_notes(ids[0], "my notes")
    there.set_notes(ids[0], "their notes, written after mine")
    back = undone(mine)
    assert (back.skipped, back.ids, back.undo) == (1, frozenset(), None)
    assert library.paper(ids[0]).record.notes == "their notes, written after mine"  # type: ignore[union-attr]

    mine = library.set_notes(ids[1], "first")  # nobody else: undone and redone
    back = undone(mine)
    assert back.skipped == 0 and library.paper(ids[1]).record.notes == ""  # type: ignore[union-attr]
    undone(back)
    assert library.paper(ids[1]).record.notes == "first"  # type: ignore[union-attr]

    private = library.set_private_notes(ids[1], "mine alone")
    there.set_private_notes(ids[1], "mine alone, from the other window")
    assert undone(private).skipped == 1
    assert library.paper(ids[1]).private_notes == "mine alone, from the other window"  # type: ignore[union-attr]


def test_undoing_a_field_edit_keeps_a_later_edit_of_that_field(
        library: Library, there: Library) -> None:
    ids = add_papers(library, 2)
    year = library.set_fields(ids[0], {"year": "1999"})
    there.set_fields(ids[0], {"year": "2001"})
    back = undone(year)
    assert back.skipped == 1
    assert library.paper(ids[0]).record.year == 2001  # type: ignore[union-attr]

    # Another field edited since is no reason to leave this one.
    year = library.set_fields(ids[1], {"year": "1999"})
    there.set_fields(ids[1], {"publisher": "Elsewhere Press"})
    back = undone(year)
    assert back.skipped == 0
    record = library.paper(ids[1]).record  # type: ignore[union-attr]
    assert (record.year, record.publisher) == (2021, "Elsewhere Press")

    title = library.set_title(ids[1], "A Title Of Mine")
    there.set_title(ids[1], "Their Title")
    assert undone(title).skipped == 1
    assert library.paper(ids[1]).record.title == "Their Title"  # type: ignore[union-attr]


def test_a_paper_deleted_since_is_counted_as_left(library: Library, there: Library) -> None:
    ids = add_papers(library)
    star = library.set_starred(ids, True)
    there.delete_papers(ids[:1])
    unstar = undone(star)
    assert unstar.skipped == 1 and sorted(unstar.ids) == ids[1:]


@pytest.mark.sqlite_only
def test_nothing_commits_between_an_undos_comparison_and_its_write(
        library: Library, library_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program writing just after the undo compared waits for the undo (SQLite's
    write lock is the undo's from before it compares): the undo is not refused for it,
    and what it compared is what it writes over."""
    ids = add_papers(library)
    star = library.set_starred(ids, True)
    tried: list[str] = []
    compare = edits.current

    def compared_then_another_program_writes(*args: Any) -> Any:
        values = compare(*args)
        other = sqlite3.connect(library_path, timeout=0)
        try:
            other.execute("UPDATE personal SET starred = 0")
            other.commit()
            tried.append("written")
        except sqlite3.OperationalError as exc:
            tried.append(str(exc))
        finally:
            other.close()
        return values

    monkeypatch.setattr(edits, "current", compared_then_another_program_writes)
    unstar = undone(star)
    assert tried[0] == "database is locked"
    assert (unstar.skipped, sorted(unstar.ids)) == (0, ids)
    assert starred(library, ids) == [False, False, False]


def test_undoing_a_completion_keeps_a_field_edited_since_elsewhere(
        library: Library, there: Library) -> None:
    ids = add_papers(library, 2)
    found = PaperRecord(title="Paper 0", year=2020, doi="10.1000/found.0",
                        publisher="Found Press")
    completed = library.complete_paper(ids[0], found, "Complete 1 paper", None)
    there.set_starred(ids[:1], True)  # (not what the completion changed)
    back = undone(completed)
    assert back.skipped == 0
    assert library.paper(ids[0]).record.doi == ""  # type: ignore[union-attr]
    again = undone(back)  # redo
    assert again.skipped == 0
    assert library.paper(ids[0]).record.doi == "10.1000/found.0"  # type: ignore[union-attr]

    there.set_fields(ids[0], {"publisher": "Corrected Press"})
    back = undone(again)
    assert back.skipped == 1
    record = library.paper(ids[0]).record  # type: ignore[union-attr]
    assert (record.doi, record.publisher) == ("10.1000/found.0", "Corrected Press")
