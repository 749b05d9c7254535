"""Saved searches: named queries of the search language, each member's own or shared,
with their counts; every change undoable; the command line's `saved` and `--saved`."""

from __future__ import annotations

import pytest

from papershelf.core.library import SAVED, Library, View
from papershelf.errors import UserError
from tests.conftest import SEEDS, bibtex_of, run_cli
from tests.postgres_server import SharedLibrary

QUERY = "learning OR graph"


def names(library: Library) -> list[str]:
    return [s.name for s in library.saved_searches()]


def test_a_saved_search_counts_the_papers_its_query_finds(seeded: Library) -> None:
    change = seeded.add_saved_search("  Learning   graphs ", QUERY)
    assert (change.description, change.touched) == ("Save search Learning graphs",
                                                    frozenset({SAVED}))
    seeded.add_saved_search("Starred", "is:starred")
    [learning, starred] = seeded.saved_searches()
    assert (learning.name, learning.query, learning.shared) == ("Learning graphs", QUERY,
                                                                False)
    found = seeded.count(View(search=QUERY))
    assert 0 < found < 38
    assert seeded.saved_counts() == {learning.id: found, starred.id: 0}
    seeded.set_starred(seeded.view_ids()[:2], True)
    assert seeded.saved_counts()[starred.id] == 2


@pytest.mark.parametrize(("name", "query", "message"), [
    ("", QUERY, "a saved search needs a name"),
    ("  ", QUERY, "a saved search needs a name"),
    ("Other", "   ", "a saved search needs a query"),
    ("Other", '* ""', "a saved search needs a query"),
    ("LEARNING", QUERY, "there is already a saved search named 'LEARNING'"),
    ("x" * 256, QUERY, "a saved search's name has at most 255 characters"),
])
def test_bad_input_is_one_clear_line_and_writes_nothing(
        library: Library, name: str, query: str, message: str) -> None:
    library.add_saved_search("Learning", QUERY)
    before = library.saved_searches()
    with pytest.raises(UserError) as raised:
        library.add_saved_search(name, query)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)
    assert library.saved_searches() == before


def test_each_change_is_undone_and_redone(library: Library) -> None:
    for name in ("A", "B", "C"):
        library.add_saved_search(name, name.lower())
    a, b, c = library.saved_searches()
    steps = [library.rename_saved_search(a.id, "First"),
             library.edit_saved_search(b.id, "tag:reading"),
             library.move_saved_search(c.id, 0),
             library.remove_saved_search(a.id)]
    after = library.saved_searches()
    assert [(s.name, s.query) for s in after] == [("C", "c"), ("B", "tag:reading")]
    with pytest.raises(UserError, match="already a saved search named 'c'"):
        library.rename_saved_search(b.id, "c")
    with pytest.raises(UserError, match="no longer exists"):
        library.edit_saved_search(a.id, "x")
    redos = []
    for step in reversed(steps):
        assert step.undo is not None
        redos.append(step.undo())
    assert library.saved_searches() == [a, b, c]  # the same ids, names and order
    for redo in reversed(redos):
        assert redo.undo is not None
        redo.undo()
    assert library.saved_searches() == after
    added = library.add_saved_search("D", "d")
    assert added.undo is not None
    added.undo()
    assert names(library) == ["C", "B"]


def test_renaming_to_another_case_of_its_own_name_is_fine(library: Library) -> None:
    library.add_saved_search("graphs", "graph")
    [found] = library.saved_searches()
    library.rename_saved_search(found.id, "Graphs")
    assert names(library) == ["Graphs"]


def test_two_members_see_their_own_and_the_shared_ones(pg_roles: SharedLibrary) -> None:
    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        alice.ensure_sample(SEEDS)
        alice.add_saved_search("Mine", "is:starred")
        alice.add_saved_search("Group reading", QUERY, shared=True)
        bob.add_saved_search("mine", "is:unread")  # (names are unique per member)
        alice.set_starred(alice.view_ids()[:3], True)
        assert names(alice) == ["Mine", "Group reading"]
        assert names(bob) == ["Group reading", "mine"]
        [group, bobs] = bob.saved_searches()
        assert (group.shared, bobs.shared) == (True, False)
        assert set(bob.saved_counts().values()) == {bob.count(View(search=QUERY)), 38}
        assert sorted(alice.saved_counts().values()) == sorted(
            [3, alice.count(View(search=QUERY))])
        with pytest.raises(UserError, match="already a saved search named 'group READING'"):
            bob.add_saved_search("group READING", "x")
        # A shared one is every member's to read, its owner's only to change.
        for change in (lambda: bob.rename_saved_search(group.id, "Group list"),
                       lambda: bob.remove_saved_search(group.id)):
            with pytest.raises(UserError, match=r"^the saved search 'Group reading' is "
                                                r"alice's: only they can change it$"):
                change()
        assert names(alice) == ["Mine", "Group reading"]
        bob.move_saved_search(bobs.id, 0)  # (his own move; alice's keeps its place)
        assert names(bob) == ["mine", "Group reading"]
        assert names(alice) == ["Mine", "Group reading"]
        alice.rename_saved_search(group.id, "Group list")
        removed = bob.remove_saved_search(bobs.id)
        assert names(bob) == ["Group list"] and names(alice) == ["Mine", "Group list"]
        assert removed.undo is not None
        removed.undo()
        assert names(bob) == ["mine", "Group list"]
    finally:
        alice.close()
        bob.close()


def test_the_command_line_saves_lists_uses_and_removes(seeded: Library,
                                                       library_target: str) -> None:
    library = ["--library", library_target]
    assert run_cli(*library, "saved", "add", "Learning", QUERY) == (
        0, "saved search Learning added\n", "")
    assert run_cli(*library, "saved", "add", "Group", "is:starred", "--shared")[0] == 0
    found = seeded.count(View(search=QUERY))
    status, out, _ = run_cli(*library, "saved", "list")
    assert (status, out) == (0, f"Learning  {found:>6}  {QUERY}\n"
                                f"Group     {0:>6}  is:starred  (shared)\n"
                                "2 saved searches\n")
    status, out, _ = run_cli(*library, "list", "--saved", "learning")
    assert status == 0 and out.endswith(f"\n{found} papers\n")
    status, out, _ = run_cli(*library, "export", "--saved", "Learning")
    wanted = seeded.view_ids(View(search=QUERY))
    keys = [row.key for row in (seeded.rows(wanted)[pid] for pid in wanted)]
    assert status == 0 and out == bibtex_of(seeded, keys)
    assert run_cli(*library, "saved", "add", "learning", "x") == (
        1, "", "papershelf: error: there is already a saved search named 'learning'\n")
    assert run_cli(*library, "list", "--saved", "nothing") == (
        1, "", "papershelf: error: no saved search named 'nothing' (see `papershelf saved "
        "list`)\n")
    assert run_cli(*library, "saved", "remove", "LEARNING") == (
        0, "saved search Learning removed\n", "")
    assert run_cli(*library, "saved", "remove", "Learning")[0] == 1
    assert names(seeded) == ["Group"]
