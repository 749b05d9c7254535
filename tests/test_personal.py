"""Each user's own data (star, read state, private notes) apart from the shared paper,
and two people editing the same notes at once: nothing is lost."""

from __future__ import annotations

from pathlib import Path

from papershelf.core.edits import CONFLICT_END, CONFLICT_MIDDLE, CONFLICT_START, merge_texts
from papershelf.core.library import Library, View
from tests.conftest import seeded_file


def test_private_notes_are_apart_from_the_shared_notes_and_undo(seeded: Library) -> None:
    pid = seeded.view_ids()[0]
    seeded.set_notes(pid, "For the reading group: read section 3.")
    change = seeded.set_private_notes(pid, "I doubt Table 2.")
    detail = seeded.paper(pid)
    assert detail is not None
    assert detail.record.notes == "For the reading group: read section 3."
    assert detail.private_notes == "I doubt Table 2."
    assert change.undo is not None
    change.undo()
    detail = seeded.paper(pid)
    assert detail is not None and detail.private_notes == ""
    assert detail.record.notes == "For the reading group: read section 3."


def test_filters_counts_and_sorting_follow_the_users_own_rows(seeded: Library) -> None:
    ids = seeded.view_ids()
    seeded.set_starred(ids[:4], True)
    seeded.set_read_state(ids[2:6], "read")
    seeded.set_read_state(ids[6:7], "reading")
    seeded.set_starred(ids[:1], False)  # a row that is back to the defaults
    counts = seeded.counts()
    assert (counts.all, counts.starred, counts.read, counts.reading, counts.unread) == (
        38, 3, 4, 1, 33)
    assert seeded.view_ids(View(filter="starred")) == ids[1:4]
    assert seeded.view_ids(View(filter="unread")) == ids[:2] + ids[7:]
    assert seeded.view_ids(View(filter="read")) == ids[2:6]
    by_star = seeded.view_ids(View(sort="starred", descending=True))
    assert by_star[:3] == sorted(ids[1:4], reverse=True)
    assert seeded.count_starred(ids) == 3


def test_undoing_a_delete_brings_back_the_users_own_data(seeded: Library) -> None:
    pid = seeded.view_ids()[5]
    seeded.set_starred([pid], True)
    seeded.set_read_state([pid], "read")
    seeded.set_private_notes(pid, "mine")
    change = seeded.delete_papers([pid])
    assert seeded.counts().starred == 0
    assert change.undo is not None
    change.undo()
    detail = seeded.paper(pid)
    assert detail is not None and detail.starred and detail.read_state == "read"
    assert detail.private_notes == "mine" and detail.read_at is not None


def test_merge_texts_joins_edits_of_different_lines_and_keeps_both_of_the_same() -> None:
    base = "Intro is weak.\n\nMethod: fine.\n\nResults: check Table 2.\n"
    mine = base.replace("Intro is weak.", "Intro is weak; see Sec. 1.")
    theirs = base.replace("Results: check Table 2.", "Results: Table 2 is wrong.")
    merged, conflict = merge_texts(base, mine, theirs)
    assert not conflict
    assert merged == ("Intro is weak; see Sec. 1.\n\nMethod: fine.\n\n"
                      "Results: Table 2 is wrong.\n")
    other = base.replace("Intro is weak.", "Intro is fine.")
    merged, conflict = merge_texts(base, mine, other)
    assert conflict
    assert merged.splitlines()[:5] == [
        CONFLICT_START, "Intro is weak; see Sec. 1.", CONFLICT_MIDDLE, "Intro is fine.",
        CONFLICT_END]
    assert merged.endswith("Results: check Table 2.\n")


def test_two_people_saving_the_same_notes_lose_nothing(tmp_path: Path) -> None:
    path = seeded_file(tmp_path / "lib.sqlite")
    alice, bob = Library.open(str(path)), Library.open(str(path))
    try:
        pid = alice.view_ids()[0]
        alice.set_notes(pid, "Line one.\n\nLine two.\n")
        start = alice.paper(pid)
        assert start is not None
        base = (start.version, start.record.notes)
        # Both opened the paper at `base`; Bob saves first, Alice's editor still shows base.
        bob_change = bob.set_notes(pid, "Line one, says Bob.\n\nLine two.\n", base)
        assert not bob_change.conflict
        change = alice.set_notes(pid, "Line one.\n\nLine two, says Alice.\n", base)
        assert not change.conflict
        merged = bob.paper(pid)
        assert merged is not None
        assert merged.record.notes == "Line one, says Bob.\n\nLine two, says Alice.\n"
        # The same line edited by both: both texts are kept, and the second writer is told.
        again = (merged.version, merged.record.notes)
        bob.set_notes(pid, merged.record.notes.replace("Line two, says Alice.", "Bob: no."),
                      again)
        change = alice.set_notes(
            pid, merged.record.notes.replace("Line two, says Alice.", "Alice: yes."), again)
        assert change.conflict
        final = alice.paper(pid)
        assert final is not None
        assert "Bob: no." in final.record.notes and "Alice: yes." in final.record.notes
        assert final.version > again[0]
    finally:
        alice.close()
        bob.close()


def test_every_write_is_in_the_change_log_for_other_windows(seeded: Library) -> None:
    from sqlalchemy import select

    from papershelf.core.models import ChangeLog

    ids = seeded.view_ids()
    seeded.set_starred(ids[:2], True)
    seeded.add_tags(ids[2:3], ["group"])
    with seeded.engine.connect() as conn:
        rows = conn.execute(select(ChangeLog.touched, ChangeLog.paper_ids, ChangeLog.user_name)
                            .order_by(ChangeLog.seq)).all()
    assert [tuple(r) for r in rows[-2:]] == [
        ("starred", sorted(ids[:2]), ""), ("tags", [ids[2]], None)]
