"""An import is one undo step: its undo deletes the papers it added and puts the papers
it completed back as they were (the user's own data on them stays); redo brings both
back. On both databases."""

from __future__ import annotations

from pathlib import Path

from papershelf.core.library import Library
from tests.conftest import SEED_FILES


def _first_abstract() -> str:
    """The first paragraph of the first sample list (a paper of `seeded`)."""
    text = SEED_FILES[0].read_text(encoding="utf-8")
    return next(p for p in text.split("\n\n")[1:] if p.strip()).strip()


def _state(library: Library) -> dict[str, tuple[object, ...]]:
    return {d.key: (d.record.title, d.record.title_provisional, d.record.doi,
                    tuple(a.family for a in d.record.authors), d.starred, d.record.notes)
            for d in library.details(library.view_ids())}


def test_undo_of_an_import_takes_it_back_whole(seeded: Library, tmp_path: Path) -> None:
    abstract = _first_abstract()
    (pid,) = [d.id for d in seeded.details(seeded.view_ids())
              if d.record.abstract.strip() == abstract]
    seeded.set_starred([pid], True)
    seeded.set_notes(pid, "mine")
    before = _state(seeded)
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{real2024,\n  title = {The Real Title},\n"
        "  author = {Doe, Jane and Roe, Richard},\n  doi = {10.1000/xyz},\n"
        f"  abstract = {{{abstract}}},\n  year = {{2024}}\n}}\n\n"
        "@article{other2023,\n  title = {Another Paper},\n  author = {Poe, Ann},\n"
        "  journal = {J}, year = {2023}\n}\n", encoding="utf-8")
    report = seeded.import_file(bib)
    assert (report.added, report.merged) == (1, 1)
    after = _state(seeded)
    completed = seeded.paper(pid)
    assert completed is not None and completed.record.title == "The Real Title"

    change = seeded.import_change(report)
    assert change.description == "Import 1 paper, complete 1 paper"
    assert change.undo is not None
    redo = change.undo()
    assert _state(seeded) == before
    assert seeded.count() == 38
    assert redo.undo is not None
    again = redo.undo()
    assert _state(seeded) == after
    assert again.undo is not None
    again.undo()
    assert _state(seeded) == before


def test_an_import_and_a_tagging_as_one_step_still_say_papers_came(
        seeded: Library, tmp_path: Path) -> None:
    """An import combined with more writes (a paper saved from the browser, then
    tagged) is one undo step that still tells the window papers came and went: the
    table drops the rows its undo deletes."""
    from papershelf.core.edits import combined
    from papershelf.core.shapes import PAPERS

    bib = tmp_path / "one.bib"
    bib.write_text("@article{new2024,\n  title = {A New Paper},\n  author = {Doe, Jane},\n"
                   "  journal = {J}, year = {2024}\n}\n", encoding="utf-8")
    report = seeded.import_file(bib)
    imported = seeded.import_change(report)
    (pid,) = report.added_ids
    step = combined("Save from the browser", [imported, seeded.add_tags([pid], ["web"])])
    assert step.structural and PAPERS in step.touched and pid in step.ids
    assert step.undo is not None
    redo = step.undo()
    assert seeded.paper(pid) is None
    assert redo.structural
