"""Reading progress (issue 43): where each member is in each paper's PDF, kept per paper
and per member (private on a shared library), opening an unread paper making it
"reading", "Recently read", sorting by progress and last read, `lastread:`, and plain
words finding the words of the annotations a member sees (never another's private one)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from papershelf.core.annotating import New
from papershelf.core.library import Library
from papershelf.core.progress import Position
from papershelf.core.shapes import View
from tests.conftest import run_cli
from tests.postgres_server import SharedLibrary, plain_sql


def _ids(library: Library, search: str = "", **view: object) -> list[int]:
    return library.view_ids(View(search=search, **view))  # type: ignore[arg-type]


def test_the_place_is_kept_per_paper_and_comes_back(seeded: Library) -> None:
    first, second = _ids(seeded)[:2]
    assert seeded.position(first) is None
    seeded.save_position(first, Position(4, 0.25, 12))
    seeded.save_position(second, Position(1, 0.5, 3))
    seeded.save_position(first, Position(6, 0.75, 12))  # (later: the last place wins)
    kept = seeded.position(first)
    assert kept is not None and (kept.page, kept.offset, kept.page_count) == (6, 0.75, 12)
    assert seeded.position(second) == Position(1, 0.5, 3, seeded.position(second).read_at)
    row = seeded.rows([first])[first]
    assert (row.last_page, row.page_count) == (6, 12) and row.last_read_at is not None
    # Out of range is brought into it; saving is no step to undo, nor a read state.
    seeded.save_position(second, Position(99, 7.0, 3))
    kept = seeded.position(second)
    assert kept is not None and (kept.page, kept.offset) == (2, 1.0)
    assert seeded.save_position(second, Position(0)).undo is None
    assert seeded.rows([second])[second].read_state == "unread"


def test_opening_an_unread_paper_makes_it_reading_unless_asked_not_to(
        seeded: Library) -> None:
    first, second, third = _ids(seeded)[:3]
    change = seeded.opened(first)
    assert seeded.rows([first])[first].read_state == "reading" and first in change.ids
    seeded.opened(second, mark_reading=False)
    assert seeded.rows([second])[second].read_state == "unread"
    seeded.set_read_state([third], "read")
    seeded.opened(third)
    assert seeded.rows([third])[third].read_state == "read"  # (read stays read)
    # Each was read now: "Recently read", newest first.
    assert _ids(seeded, filter="recent") == [third, second, first]
    assert seeded.counts().recent == 3
    assert seeded.position(second) == Position(0, 0.0, None,
                                               seeded.position(second).read_at)


def test_opening_a_paper_again_makes_it_the_most_recently_read(
        seeded: Library, library_target: str) -> None:
    """Reopening moves a paper to the top of Recently read, and keeps the place another
    program saved in it meanwhile."""
    first, second = _ids(seeded)[:2]
    seeded.opened(first)
    seeded.opened(second)
    seeded.opened(first)
    assert _ids(seeded, filter="recent") == [first, second]
    other = Library.open(library_target)
    try:
        other.save_position(first, Position(8, 0.5, 20))
        other.opened(second)
    finally:
        other.close()
    seeded.opened(first)
    assert _ids(seeded, filter="recent") == [first, second]
    kept = seeded.position(first)
    assert kept is not None and (kept.page, kept.offset, kept.page_count) == (8, 0.5, 20)


def test_deleting_a_paper_and_undoing_it_keeps_its_reading_progress(
        seeded: Library) -> None:
    first = _ids(seeded)[0]
    seeded.save_position(first, Position(7, 0.5, 20))
    deletion = seeded.delete_papers([first])
    assert deletion.undo is not None
    deletion.undo()
    kept = seeded.position(first)
    assert kept is not None and (kept.page, kept.offset, kept.page_count) == (7, 0.5, 20)
    assert _ids(seeded, filter="recent") == [first]


def test_a_merge_keeps_the_place_read_last_and_its_undo_both_places(
        seeded: Library) -> None:
    keep, other = _ids(seeded)[:2]
    seeded.save_position(keep, Position(2, 0.0, 10))
    seeded.save_position(other, Position(5, 0.5, 12))  # (read later)
    merged = seeded.merge_papers(keep, other)
    kept = seeded.position(keep)
    assert kept is not None and (kept.page, kept.page_count) == (5, 12)
    assert merged.undo is not None
    merged.undo()
    assert [(p.page, p.page_count) for p in map(seeded.position, (keep, other)) if p] == [
        (2, 10), (5, 12)]


def test_progress_and_last_read_sort_in_the_database(seeded: Library) -> None:
    a, b, c, d = _ids(seeded)[:4]
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    seeded.save_position(a, Position(9, 0.0, 10, start + timedelta(days=1)))  # 90%
    seeded.save_position(b, Position(0, 0.5, 10, start + timedelta(days=3)))  # 5%
    seeded.save_position(c, Position(4, 0.0, 10, start + timedelta(days=2)))  # 40%
    progress = _ids(seeded, sort="progress")
    assert progress[-3:] == [b, c, a] and d in progress[:-3]  # (never read: first)
    assert _ids(seeded, sort="progress", descending=True)[:3] == [a, c, b]
    assert _ids(seeded, sort="last_read", descending=True)[:3] == [b, c, a]
    assert _ids(seeded, sort="last_read")[-3:] == [a, c, b]
    assert _ids(seeded, filter="recent") == [b, c, a]
    assert _ids(seeded, filter="recent", sort="progress") == [b, c, a]


def test_lastread_takes_the_date_forms_of_added(seeded: Library) -> None:
    a, b = _ids(seeded)[:2]
    now = datetime.now(timezone.utc)
    seeded.save_position(a, Position(0, 0.0, 5, now - timedelta(days=2)))
    seeded.save_position(b, Position(0, 0.0, 5, datetime(2025, 3, 14, 12, tzinfo=timezone.utc)))
    assert _ids(seeded, "lastread:<7d") == [a]
    assert _ids(seeded, "lastread:>7d") == [b]
    assert _ids(seeded, "lastread:2025-03") == [b]
    assert _ids(seeded, "lastread:2025-03-14") == [b]
    assert _ids(seeded, "lastread:>=2025-01-01") == [a, b]
    assert seeded.count(View(search="-lastread:<7d")) == seeded.count(View()) - 1
    # A saved search of it counts the same.
    seeded.add_saved_search("this week", "lastread:<7d")
    (saved,) = seeded.saved_searches()
    assert seeded.saved_counts()[saved.id] == 1


def test_plain_words_find_the_words_of_annotations(seeded: Library) -> None:
    first, second, third = _ids(seeded)[:3]
    seeded.add_annotation(first, New("highlight", 0, "", [(1, 1, 2, 2)],
                                     quote="a zanzibar lemma", comment="check the quokka"))
    seeded.add_annotation(second, New("note", 0, "", [(1, 1, 1, 1)],
                                      comment="Kögler's counterexample"))
    title_word = seeded.paper(third).record.title.split()[0]  # type: ignore[union-attr]
    assert _ids(seeded, "zanzibar") == [first]
    assert _ids(seeded, "quokka zanzibar") == [first]  # (quote and comment each)
    assert _ids(seeded, '"zanzibar lemma"') == [first]
    assert _ids(seeded, '"lemma check"') == []  # (never from the quote into the comment)
    assert _ids(seeded, "kogler") == [second]
    assert _ids(seeded, "counter*") == [second]
    assert _ids(seeded, "zanzibar OR kogler") == [first, second]
    assert first not in _ids(seeded, "-zanzibar") and second in _ids(seeded, "-zanzibar")
    assert third in _ids(seeded, f"{title_word} OR zanzibar")
    assert seeded.view_ids(View(search="zanzibar"), limit=5) == [first]
    assert seeded.view_ids(View(search="zanzibar", sort="best")) == [first]
    assert seeded.view_ids(View(search="zanzi", typing=True)) == [first]
    assert seeded.count(View(search="quokka")) == 1
    # A word of the paper's own text and one of its annotation, together.
    own = seeded.paper(first).record.title.split()[0]  # type: ignore[union-attr]
    assert first in _ids(seeded, f"{own} quokka")
    # Annotations changed are searched as they are now.
    (mark,) = seeded.annotations_of([first])[first]
    seeded.edit_annotation(mark.id, comment="a wombat")
    assert _ids(seeded, "quokka") == [] and _ids(seeded, "wombat") == [first]
    seeded.remove_annotations([mark.id])
    assert _ids(seeded, "zanzibar") == []


def test_the_command_line_searches_annotations_and_lastread(seeded: Library) -> None:
    first = _ids(seeded)[0]
    key = seeded.paper(first).key  # type: ignore[union-attr]
    seeded.add_annotation(first, New("note", 0, "", [(1, 1, 1, 1)], comment="okapi"))
    seeded.save_position(first, Position(2, 0.0, 8))
    for query in ("okapi", "lastread:<1d"):
        status, out, err = run_cli("search", query, "--library", seeded.url)
        assert (status, err) == (0, "") and key in out, query


def _members(pg_lab: SharedLibrary) -> tuple[Library, Library]:
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    alice.ensure_sample(Path("seeds"))
    return alice, bob


def test_a_members_place_is_theirs_alone(pg_lab: SharedLibrary) -> None:
    alice, bob = _members(pg_lab)
    try:
        pid = alice.view_ids(View())[0]
        alice.opened(pid)
        alice.save_position(pid, Position(7, 0.5, 20))
        assert bob.position(pid) is None
        assert bob.rows([pid])[pid].last_page is None
        assert bob.rows([pid])[pid].read_state == "unread"
        assert bob.view_ids(View(filter="recent")) == []
        assert bob.view_ids(View(search="lastread:<7d")) == []
        bob.save_position(pid, Position(1, 0.0, 20))
        assert alice.position(pid).page == 7  # type: ignore[union-attr]
        assert bob.position(pid).page == 1  # type: ignore[union-attr]
        with plain_sql(pg_lab.bob) as conn:  # (row-level security, in plain SQL too)
            assert conn.execute("SELECT user_name, last_page FROM personal").fetchall() == [
                ("bob", 1)]
            conn.execute("UPDATE personal SET last_page = 0")
        assert alice.position(pid).page == 7  # type: ignore[union-attr]
    finally:
        alice.close()
        bob.close()


def test_a_members_place_survives_another_deleting_or_merging_the_paper(
        pg_lab: SharedLibrary) -> None:
    """Bob deletes the paper alice reads, then undoes it: her place is back. Bob merges
    it into another: her place (read last) is on the paper kept."""
    alice, bob = _members(pg_lab)
    try:
        pid, keep = alice.view_ids(View())[:2]
        alice.save_position(keep, Position(1, 0.0, 9))
        alice.save_position(pid, Position(7, 0.5, 20))
        deletion = bob.delete_papers([pid])
        assert alice.position(pid) is None and deletion.undo is not None
        deletion.undo()
        kept = alice.position(pid)
        assert kept is not None and (kept.page, kept.offset, kept.page_count) == (7, 0.5, 20)
        bob.merge_papers(keep, pid)
        kept = alice.position(keep)
        assert kept is not None and (kept.page, kept.page_count) == (7, 20)
    finally:
        alice.close()
        bob.close()


def test_another_members_private_annotation_never_finds_a_paper(
        pg_lab: SharedLibrary) -> None:
    alice, bob = _members(pg_lab)
    try:
        first, second = alice.view_ids(View())[:2]
        alice.add_annotation(first, New("note", 0, "", [(1, 1, 1, 1)], comment="zanzibar"))
        alice.add_annotation(second, New("note", 0, "", [(1, 1, 1, 1)],
                                         comment="zanzibar quokka", shared=True))
        assert alice.view_ids(View(search="zanzibar")) == [first, second]
        for view in (View(search="zanzibar"), View(search="zanzibar", sort="best"),
                     View(search="zanzi", typing=True), View(search="zanzibar OR nothing")):
            assert bob.view_ids(view) == [second], view
            assert bob.view_ids(view, limit=10) == [second], view
        assert bob.count(View(search="zanzibar")) == 1
        assert first in bob.view_ids(View(search="-zanzibar"))
        assert bob.view_ids(View(search="quokka zanzibar")) == [second]
    finally:
        alice.close()
        bob.close()


@pytest.mark.sqlite_only
def test_plain_search_stays_quick_with_many_annotations(library: Library) -> None:
    """Twenty thousand annotations: a plain search's first page still in milliseconds
    (the annotations are a LIKE over that table, not a read of the papers)."""
    import time

    library.ensure_sample(Path("seeds"))
    pid = library.view_ids(View())[0]
    library.add_annotations(pid, [New("note", 0, "", [(1, 1, 1, 1)],
                                      comment=f"remark number {n} about attention")
                                  for n in range(20_000)], "notes")
    library.view_ids(View(search="attention"), limit=100)  # (warm)
    began = time.perf_counter()
    for _ in range(5):
        found = library.view_ids(View(search="attention"), limit=100)
    took = (time.perf_counter() - began) / 5
    assert pid in found
    assert took < 0.25, f"{took * 1000:.0f} ms"


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.pdfs import make_paper

    return make_paper(tmp_path_factory.mktemp("pdf"))


def test_read_opens_the_window_on_the_paper_or_says_why_not(
        seeded: Library, paper_pdf: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from papershelf.__main__ import main
    from papershelf.gui import app

    opened: list[object] = []
    monkeypatch.setattr(app, "run_gui", lambda args: opened.append(args) or 0)
    first = _ids(seeded)[0]
    key = seeded.paper(first).key  # type: ignore[union-attr]
    assert main(["read", "no-such-key", "--library", seeded.url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-key" in err
    assert main(["read", key, "--library", seeded.url]) == 1  # (no PDF attached)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and key in err and "PDF" in err
    assert opened == []
    seeded.attach_file(first, paper_pdf, link=True)
    assert main(["read", key, "--page", "2", "--library", seeded.url]) == 0
    assert main(["--library", seeded.url, "read", key]) == 0
    assert [(a.read, a.page, a.library) for a in opened] == [  # type: ignore[attr-defined]
        (key, 2, seeded.url), (key, None, seeded.url)]
    with pytest.raises(SystemExit) as done:  # (a usage mistake: pages count from 1)
        main(["read", key, "--page", "0", "--library", seeded.url])
    assert done.value.code == 1 and capsys.readouterr().err.count("\n") == 1
