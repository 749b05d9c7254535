"""Each user's own data (star, read state, private notes) apart from the shared paper,
and two people editing the same notes at once: nothing is lost."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from papershelf.core import copying
from papershelf.core.annotating import New
from papershelf.core.edits import (
    CONFLICT_END,
    CONFLICT_MIDDLE,
    CONFLICT_START,
    Change,
    merge_texts,
)
from papershelf.core.library import Library, View
from papershelf.core.models import Paper
from tests.conftest import SEEDS, seeded_file
from tests.crash.harness import downgrade
from tests.postgres_server import SharedLibrary, plain_sql


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
    assert sum(row.starred for row in seeded.rows(ids).values()) == 3


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
        ("starred", sorted(ids[:2]), seeded.user_name), ("tags", [ids[2]], None)]


# -- a shared library: two real roles on a real PostgreSQL server ----------------------


def test_each_member_of_a_group_keeps_their_own_stars_read_states_and_notes(
        pg_roles: SharedLibrary) -> None:
    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        assert (alice.user_name, bob.user_name, alice.shared) == ("alice", "bob", True)
        alice.ensure_sample(SEEDS)
        ids = bob.view_ids()
        assert len(ids) == 38  # the papers are shared
        alice.set_starred(ids[:3], True)
        alice.set_read_state(ids[:2], "read")
        alice.set_private_notes(ids[0], "Alice only: the proof of Lemma 2 looks off.")
        alice.set_notes(ids[0], "Group: present this on Friday.")
        bob.set_starred(ids[5:6], True)
        # Alice starring a paper does not star it for Bob; the sidebar counts are his own.
        assert (alice.counts().starred, alice.counts().read) == (3, 2)
        assert (bob.counts().starred, bob.counts().read, bob.counts().unread) == (1, 0, 38)
        assert bob.view_ids(View(filter="starred")) == ids[5:6]
        seen_by_bob = bob.paper(ids[0])
        assert seen_by_bob is not None
        assert not seen_by_bob.starred and seen_by_bob.read_state == "unread"
        assert seen_by_bob.private_notes == ""
        assert seen_by_bob.record.notes == "Group: present this on Friday."
        assert bob.view_ids(View(search="Friday")) == [ids[0]]  # shared notes are searched
    finally:
        alice.close()
        bob.close()


def tag_in_open_transaction(conn: psycopg.Connection[Any], pid: int, name: str) -> None:
    """Begin a transaction on `conn` that makes the tag `name` and puts it on paper
    `pid`, and leave it open (its COMMIT is the caller's)."""
    conn.execute("BEGIN")
    tag = conn.execute("INSERT INTO tags (name) VALUES (%s) RETURNING id", (name,)).fetchone()
    assert tag is not None
    conn.execute("INSERT INTO paper_tags (paper_id, tag_id) VALUES (%s, %s)", (pid, tag[0]))


def after_a_wait(superuser: str, act: Callable[[], Any], release: Callable[[], Any]) -> Any:
    """Run `act` in a thread until it waits for a lock another transaction holds, then
    `release` (that transaction's COMMIT); `act`'s result once it went on (an error it
    raised is raised here)."""
    import threading

    outcome: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(act())
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    with plain_sql(superuser) as watcher:
        while not watcher.execute(
                "SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0]:
            worker.join(0.01)
            assert worker.is_alive(), errors
    release()
    worker.join()
    if errors:
        raise errors[0]
    return outcome[0]


def test_row_level_security_hides_and_guards_private_rows_even_in_plain_sql(
        pg_roles: SharedLibrary) -> None:
    alice = Library.open(pg_roles.alice)
    try:
        alice.ensure_sample(SEEDS)
        pid = alice.view_ids()[0]
        alice.set_private_notes(pid, "secret")
        alice.set_starred([pid], True)
    finally:
        alice.close()
    with plain_sql(pg_roles.bob) as conn:
        assert conn.execute("SELECT count(*) FROM personal").fetchone() == (0,)
        changed = conn.execute(
            "UPDATE personal SET private_notes = 'hacked' WHERE user_name = 'alice'")
        assert changed.rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO personal (paper_id, user_name, private_notes) "
                         "VALUES (%s, 'alice', 'forged')", (pid,))
        # Bob's own change-log rows only; Alice's star is not his to see.
        assert conn.execute("SELECT count(*) FROM changes WHERE user_name = 'alice'"
                            ).fetchone() == (0,)
    alice = Library.open(pg_roles.alice)
    try:
        detail = alice.paper(pid)
        assert detail is not None and detail.private_notes == "secret" and detail.starred
    finally:
        alice.close()


def test_two_members_editing_one_shared_note_lose_nothing(pg_roles: SharedLibrary) -> None:
    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        alice.ensure_sample(SEEDS)
        pid = alice.view_ids()[0]
        alice.set_notes(pid, "Summary: TBD.\n\nQuestions: none yet.\n")
        start = bob.paper(pid)
        assert start is not None
        base = (start.version, start.record.notes)
        alice.set_notes(pid, "Summary: a new quantizer.\n\nQuestions: none yet.\n", base)
        change = bob.set_notes(pid, "Summary: TBD.\n\nQuestions: why 2 bits?\n", base)
        assert not change.conflict
        final = alice.paper(pid)
        assert final is not None
        assert final.record.notes == "Summary: a new quantizer.\n\nQuestions: why 2 bits?\n"
    finally:
        alice.close()
        bob.close()


def test_two_members_importing_at_once_both_get_every_paper(
        pg_roles: SharedLibrary, tmp_path: Path) -> None:
    import threading

    files = []
    for who in ("alice", "bob"):
        path = tmp_path / f"{who}.bib"
        path.write_text("".join(
            f"@article{{{who}{n}, title = {{Paper {n} of {who}}}, year = {{2024}}}}\n"
            for n in range(300)), encoding="utf-8")
        files.append(path)
    libraries = [Library.open(pg_roles.alice), Library.open(pg_roles.bob)]
    errors: list[BaseException] = []

    def run(library: Library, path: Path) -> None:
        try:
            library.import_file(path)
        except BaseException as exc:  # (reported by the assertion below)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=pair) for pair in zip(libraries, files)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == []
        assert libraries[0].count() == libraries[1].count() == 600
    finally:
        for library in libraries:
            library.close()


def test_a_title_or_key_edited_by_two_at_once_keeps_the_first_and_tells_the_second(
        library_target: str, seeded: Library) -> None:
    import pytest

    from papershelf.core.edits import EditConflict

    other = Library.open(library_target)
    try:
        pid = seeded.view_ids()[0]
        started = seeded.paper(pid)
        assert started is not None
        title, key = started.record.title, started.key
        other.set_title(pid, "FrameQuant: Flexible Low-Bit Quantization", base=title)
        with pytest.raises(EditConflict, match="someone else changed the title to "
                           "'FrameQuant: Flexible Low-Bit Quantization'"):
            seeded.set_title(pid, "FrameQuant (ICML 2024)", base=title)
        other.set_key(pid, "adepu2024framequant", base=key)
        with pytest.raises(EditConflict, match="yours \\('fq2024'\\) was not saved"):
            seeded.set_key(pid, "fq2024", base=key)
        now = seeded.paper(pid)
        assert now is not None
        assert (now.record.title, now.key) == (
            "FrameQuant: Flexible Low-Bit Quantization", "adepu2024framequant")
        # Knowing theirs, the second writer may replace it.
        seeded.set_key(pid, "fq2024", base="adepu2024framequant")
        assert seeded.rows([pid])[pid].key == "fq2024"
    finally:
        other.close()


# -- a paper deleted or merged away by one member: the others' data stays -------------


@pytest.fixture
def members(pg_lab: SharedLibrary) -> Iterator[tuple[Library, Library]]:
    """Alice's and Bob's libraries open on `lab`, holding the sample papers."""
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(SEEDS)
        yield alice, bob
    finally:
        alice.close()
        bob.close()


def _mine(library: Library, pid: int) -> tuple[bool, str, str]:
    detail = library.paper(pid)
    assert detail is not None
    return detail.starred, detail.read_state, detail.private_notes


def test_a_paper_another_member_deletes_comes_back_with_my_data_on_undo(
        members: tuple[Library, Library]) -> None:
    alice, bob = members
    pid = bob.view_ids()[3]
    bob.set_starred([pid], True)
    bob.set_read_state([pid], "read")
    bob.set_private_notes(pid, "Bob: check the appendix")
    alice.set_private_notes(pid, "Alice's own")
    change = alice.delete_papers([pid])
    assert bob.paper(pid) is None and bob.counts().starred == 0
    assert change.undo is not None
    change.undo()
    assert _mine(bob, pid) == (True, "read", "Bob: check the appendix")
    assert _mine(alice, pid) == (False, "unread", "Alice's own")
    assert bob.counts().starred == 1
    # Deleted again and undone again: still there (kept rows are replaced, not doubled).
    change = alice.delete_papers([pid])
    assert change.undo is not None
    change.undo()
    assert _mine(bob, pid) == (True, "read", "Bob: check the appendix")


def test_merging_duplicates_keeps_every_members_stars_read_states_and_notes(
        members: tuple[Library, Library]) -> None:
    alice, bob = members
    keep, other, third = bob.view_ids()[:3]
    bob.set_private_notes(keep, "Bob on the first copy")
    bob.set_read_state([keep], "reading")
    bob.set_starred([other], True)
    bob.set_read_state([other], "read")
    bob.set_private_notes(other, "Bob on the second copy")
    bob.set_private_notes(third, "untouched")
    alice.set_private_notes(other, "Alice on the second copy")
    change = alice.merge_papers(keep, other)
    assert bob.paper(other) is None
    assert _mine(bob, keep) == (
        True, "read", "Bob on the first copy\n\nBob on the second copy")
    assert _mine(alice, keep) == (False, "unread", "Alice on the second copy")
    assert _mine(bob, third) == (False, "unread", "untouched")
    assert change.undo is not None
    change.undo()  # both papers back; Bob's data on each is there again
    assert _mine(bob, other) == (True, "read", "Bob on the second copy")
    _starred, _state, notes = _mine(bob, keep)
    assert "Bob on the first copy" in notes


def test_a_member_cannot_read_the_others_kept_rows_in_plain_sql(
        pg_lab: SharedLibrary, members: tuple[Library, Library]) -> None:
    alice, bob = members
    pid = bob.view_ids()[0]
    bob.set_private_notes(pid, "Bob's secret")
    alice.delete_papers([pid])
    with plain_sql(pg_lab.alice) as conn:
        assert conn.execute("SELECT count(*) FROM personal_kept").fetchone() == (0,)
    with plain_sql(pg_lab.bob) as conn:  # Bob's own kept row is his to see
        assert conn.execute("SELECT paper_id, private_notes FROM personal_kept").fetchall(
            ) == [(pid, "Bob's secret")]


# -- a new paper given a deleted paper's id: nobody's data of the old paper (issue 43) ---

BIB_FRESH = "@article{fresh2026, title = {A fresh paper}, year = {2026}}\n"


def _alice_keeps_things_on(alice: Library, pid: int) -> None:
    alice.set_starred([pid], True)
    alice.set_read_state([pid], "read")
    alice.set_private_notes(pid, "Alice's secret")
    alice.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)], comment="alice's own"))


def _insert_like(conn: psycopg.Connection[Any], new_id: int, like: int) -> None:
    """A paper with id `new_id` inserted by plain SQL (what a member could do with
    psql), a copy of paper `like` under the key `fresh-ID`."""
    columns = [c.name for c in Paper.__table__.columns]
    values = [{"id": "%s", "key": "%s", "title": "'Fresh by SQL'"}.get(c, c)
              for c in columns]
    conn.execute(f"INSERT INTO papers ({', '.join(columns)}) "
                 f"SELECT {', '.join(values)} FROM papers WHERE id = %s",
                 (new_id, f"fresh-{new_id}", like))
    conn.execute("INSERT INTO paper_texts (paper_id, abstract, bib_fields) "
                 "VALUES (%s, '', '{}')", (new_id,))


def test_a_paper_bob_inserts_by_sql_with_a_deleted_papers_id_has_none_of_alices_data(
        pg_lab: SharedLibrary, members: tuple[Library, Library]) -> None:
    alice, _bob = members
    newest, like = max(alice.view_ids()), min(alice.view_ids())
    _alice_keeps_things_on(alice, newest)
    with plain_sql(pg_lab.bob) as conn:
        conn.execute("DELETE FROM papers WHERE id = %s", (newest,))
        _insert_like(conn, newest, like)
    assert alice.rows([newest])[newest].key == f"fresh-{newest}"
    assert _mine(alice, newest) == (False, "unread", "")
    assert alice.counts().starred == 0
    assert alice.annotations_of([newest]).get(newest, []) == []
    assert alice.view_ids(View(search="secret")) == []
    with plain_sql(pg_lab.alice) as conn:
        assert conn.execute("SELECT count(*) FROM personal WHERE paper_id = %s",
                            (newest,)).fetchone() == (0,)


def test_a_paper_bob_imports_into_a_deleted_papers_id_has_none_of_its_data_and_undo_does(
        members: tuple[Library, Library]) -> None:
    alice, bob = members
    newest = max(alice.view_ids())
    _alice_keeps_things_on(alice, newest)
    bob.set_private_notes(newest, "Bob's own")
    deleted = bob.delete_papers([newest])
    bob.import_bibtex(BIB_FRESH, "new.bib")  # (the app gives the new paper the same id)
    (fresh,) = alice.view_ids(View(search="title:fresh"))
    assert fresh == newest
    assert _mine(alice, fresh) == (False, "unread", "")
    assert alice.counts().starred == 0
    assert alice.annotations_of([fresh]).get(fresh, []) == []
    # The undo of Bob's deletion (the new paper in its place) brings back both members'.
    assert deleted.undo is not None
    redo = deleted.undo().undo
    assert alice.rows([newest])[newest].key != "fresh2026"
    assert _mine(alice, newest) == (True, "read", "Alice's secret")
    assert _mine(bob, newest) == (False, "unread", "Bob's own")
    assert [a.comment for a in alice.annotations_of([newest])[newest]] == ["alice's own"]
    # And the redo and its undo again.
    assert redo is not None
    again = redo()
    assert alice.paper(newest) is None
    assert again.undo is not None
    again.undo()
    assert _mine(alice, newest) == (True, "read", "Alice's secret")
    assert _mine(bob, newest) == (False, "unread", "Bob's own")


def test_a_merges_undo_still_gives_every_member_back_their_data_on_both_papers(
        members: tuple[Library, Library]) -> None:
    alice, bob = members
    keep, other = bob.view_ids()[:2]
    bob.set_private_notes(keep, "Bob on the first copy")
    bob.add_annotation(keep, New("note", 0, "", [(1, 1, 1, 1)], comment="bob on keep"))
    bob.set_starred([other], True)
    bob.set_private_notes(other, "Bob on the second copy")
    bob.add_annotation(other, New("note", 0, "", [(1, 1, 1, 1)], comment="bob on other"))
    change = alice.merge_papers(keep, other)
    assert change.undo is not None
    change.undo()
    assert "Bob on the first copy" in _mine(bob, keep)[2]
    assert _mine(bob, other) == (True, "unread", "Bob on the second copy")
    marks = bob.annotations_of([keep, other])  # (the merge moved his onto `keep`)
    assert sorted(a.comment for pid in (keep, other) for a in marks.get(pid, [])) == [
        "bob on keep", "bob on other"]


def test_the_migration_puts_the_old_trigger_back_and_takes_it_away_again(
        pg_lab: SharedLibrary, members: tuple[Library, Library]) -> None:
    alice, _bob = members
    ids = sorted(alice.view_ids())
    first, second, like = ids[-2], ids[-1], ids[0]
    for pid in (first, second):
        alice.set_private_notes(pid, "Alice's secret")
    downgrade(pg_lab.superuser, "0021")
    with plain_sql(pg_lab.bob) as conn:  # (schema 0021: the new paper got her notes)
        conn.execute("DELETE FROM papers WHERE id = %s", (first,))
        _insert_like(conn, first, like)
    assert _mine(alice, first) == (False, "unread", "Alice's secret")
    Library.open(pg_lab.superuser).close()  # (upgraded as it opens)
    with plain_sql(pg_lab.bob) as conn:
        conn.execute("DELETE FROM papers WHERE id = %s", (second,))
        _insert_like(conn, second, like)
    assert _mine(alice, second) == (False, "unread", "")


def test_a_member_fills_the_new_group_library_from_their_own_file(
        pg_lab: SharedLibrary, tmp_path: Path) -> None:
    """The README's set-up: the administrator owns the library, Alice copies her file in
    (her stars stay hers), Bob sees the papers and none of her stars."""
    path = seeded_file(tmp_path / "alice.sqlite")
    own = Library.open(str(path))
    try:
        own.set_starred(own.view_ids()[:2], True)
    finally:
        own.close()
    copying.copy_library(str(path), pg_lab.alice)
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        assert (alice.count(), alice.counts().starred) == (38, 2)
        assert (bob.count(), bob.counts().starred) == (38, 0)
    finally:
        alice.close()
        bob.close()


def test_two_members_tagging_one_paper_at_once_both_keep_their_tag(
        pg_roles: SharedLibrary) -> None:
    """Bob tags a paper while Alice's transaction giving it another tag is still open:
    his edit waits for hers, and the paper ends with both tags, listed and searchable
    (found by the bench's eight concurrent writers: the second writer put back the tags
    as it had read them before writing, and the first one's was lost)."""
    bob = Library.open(pg_roles.bob)
    try:
        bob.ensure_sample(SEEDS)
        pid = bob.view_ids()[0]
        with plain_sql(pg_roles.alice) as alice:
            tag_in_open_transaction(alice, pid, "alice-pick")
            alice.execute("UPDATE papers SET tags_text = 'alice-pick' WHERE id = %s", (pid,))
            change: Change = after_a_wait(pg_roles.superuser,  # Bob waits on Alice
                                          lambda: bob.add_tags([pid], ["bob-pick"]),
                                          lambda: alice.execute("COMMIT"))
        detail = bob.paper(pid)
        assert detail is not None and detail.record.tags == ["alice-pick", "bob-pick"]
        assert bob.view_ids(View(search='"alice pick" "bob pick"')) == [pid]
        undo = change.undo  # Bob's undo takes his tag off, not Alice's
        assert undo is not None
        redo = undo().undo
        detail = bob.paper(pid)
        assert detail is not None and detail.record.tags == ["alice-pick"]
        assert redo is not None
        redo()
        detail = bob.paper(pid)
        assert detail is not None and detail.record.tags == ["alice-pick", "bob-pick"]
    finally:
        bob.close()


def test_two_members_tagging_one_paper_at_once_both_succeed(pg_roles: SharedLibrary) -> None:
    """Bob tags a paper "hot" while Alice's transaction making the same tag and link is
    still open: his edit waits for hers and then succeeds (found by the bench's eight
    concurrent writers: one failed on the duplicate link)."""
    bob = Library.open(pg_roles.bob)
    try:
        bob.ensure_sample(SEEDS)
        pid = bob.view_ids()[0]
        with plain_sql(pg_roles.alice) as alice:
            tag_in_open_transaction(alice, pid, "hot")
            after_a_wait(pg_roles.superuser, lambda: bob.add_tags([pid], ["hot"]),
                         lambda: alice.execute("COMMIT"))
        detail = bob.paper(pid)
        assert detail is not None and detail.record.tags == ["hot"]
    finally:
        bob.close()


def test_starring_and_marking_papers_with_and_without_rows_of_mine_and_a_deleted_one(
        seeded: Library) -> None:
    """A selection of papers some of which have stars or read states of mine and some
    none, and one deleted meanwhile: every paper still there is starred and marked read,
    the deleted one is not counted, and undo gives back each paper's own values."""
    ids = seeded.view_ids(View())[:12]
    seeded.set_read_state(ids[:3], "reading")
    seeded.set_starred(ids[2:5], True)
    before = seeded.counts()
    seeded.delete_papers(ids[-1:])
    kept = ids[:-1]
    rows_before = seeded.rows(kept)
    star = seeded.toggle_starred(ids)
    assert set(star.ids) == set(kept)
    read = seeded.set_read_state(ids, "read")
    assert set(read.ids) == set(kept)
    assert all(r.starred and r.read_state == "read" for r in seeded.rows(kept).values())
    read.undo()
    star.undo()
    assert seeded.rows(kept) == rows_before
    assert seeded.counts().starred == before.starred
