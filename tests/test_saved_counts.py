"""The sidebar's saved-search counts follow each change by reading only the papers it
names (core.tally), and always agree with counting again; on both databases."""

from __future__ import annotations

from pathlib import Path

from papershelf.core import tally as tally_module
from papershelf.core.library import Library

QUERIES = {
    "Learning": "learning",
    "Graphs or networks": "graph OR network*",
    "Starred unread": "is:starred is:unread",
    "Tagged theory": 'tag:theory -"neural network"',
    "By Doe": "au:doe",
    "Recent": "year:>=2023",
    "Read with notes": "is:read has:notes",
    "Prefix title": "title:optim*",
    "In a PDF": "pdf:lemma",
    "Provisional": "is:provisional",
}


def _counts(library: Library, shown: list[tuple[object, int]]) -> dict[str, int]:
    return {search.name: count for search, count in shown}  # type: ignore[attr-defined]


def _exact(library: Library) -> dict[str, int]:
    counts = library.saved_counts()
    return {s.name: counts[s.id] for s in library.saved_searches()}


def test_counts_follow_every_kind_of_change(seeded: Library, tmp_path: Path) -> None:
    for name, query in QUERIES.items():
        seeded.add_saved_search(name, query)
    tally = seeded.saved_tally()
    assert _counts(seeded, tally.count_all()) == _exact(seeded)
    ids = seeded.view_ids()
    pdf = tmp_path / "proof.pdf"
    pdf.write_bytes(b"%PDF-1.4 proof")
    steps = [
        lambda: seeded.set_starred(ids[:3], True),
        lambda: seeded.set_read_state(ids[1:4], "read"),
        lambda: seeded.add_tags(ids[2:6], ["theory"]),
        lambda: seeded.set_fields(ids[0], {"title": "Optimal learning of graphs",
                                           "author": "Doe, Jane", "year": "2024"}),
        lambda: seeded.set_notes(ids[2], "a neural network, again"),
        lambda: seeded.set_fields(ids[5], {"abstract": "Nothing to see."}),
        lambda: seeded.attach_file(ids[7], pdf),
        lambda: seeded.set_file_texts({seeded.attachments(ids[7])[0].id: "a lemma"}),
        lambda: seeded.remove_tags(ids[3:4], ["theory"]),
        lambda: seeded.set_starred(ids[1:2], False),
        lambda: seeded.delete_papers(ids[2:3]),
    ]
    for step in steps:
        change = step()
        followed = tally.follow(sorted(change.ids))
        assert followed is not None
        assert _counts(seeded, followed) == _exact(seeded)
        if change.undo is not None:  # and back
            undone = change.undo()
            followed = tally.follow(sorted(undone.ids))
            assert followed is not None and _counts(seeded, followed) == _exact(seeded)
            redone = undone.undo() if undone.undo is not None else None
            if redone is not None:
                followed = tally.follow(sorted(redone.ids))
                assert followed is not None and _counts(seeded, followed) == _exact(seeded)


def test_a_new_or_edited_saved_search_is_counted_in_full(seeded: Library) -> None:
    seeded.add_saved_search("Learning", "learning")
    tally = seeded.saved_tally()
    tally.count_all()
    seeded.add_saved_search("Graphs", "graph")
    ids = seeded.view_ids()[:1]
    assert tally.follow(ids) is None  # (it cannot know what "Graphs" finds)
    assert _counts(seeded, tally.count_all()) == _exact(seeded)
    [learning, _graphs] = seeded.saved_searches()
    seeded.edit_saved_search(learning.id, "graph OR learning")
    assert tally.follow(ids) is None
    many = seeded.view_ids() * 20
    assert tally.follow(many) is None  # (too many papers to read one by one)


def test_a_change_made_while_counting_is_not_lost(seeded: Library, monkeypatch) -> None:
    """A star committed (and followed) while the full count reads the papers, after it
    read them: the new counts include it."""
    seeded.add_saved_search("Starred", "is:starred")
    tally = seeded.saved_tally()
    tally.count_all()
    matching = tally_module._matching
    pid = seeded.view_ids()[0]

    def stale(ctx, text):  # type: ignore[no-untyped-def]
        found = matching(ctx, text)  # (read before the star)
        change = seeded.set_starred([pid], True)
        tally.follow(sorted(change.ids))
        return found

    monkeypatch.setattr(tally_module, "_matching", stale)
    assert _counts(seeded, tally.count_all()) == {"Starred": 1}
    monkeypatch.setattr(tally_module, "_matching", matching)
    assert _exact(seeded) == {"Starred": 1}
