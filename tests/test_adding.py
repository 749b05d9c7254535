"""Adding what was looked up by identifier (`metadata.adding.add_found`), with no network:
the records are made here, as a service would have answered.

The new papers are written together, a few hundred per import; what the user sees must
be what writing them one by one gave: one paper per paper, the ones already there
completed, one undo step for everything, and nothing left of a write that failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from papershelf.core.library import Library
from papershelf.formats.records import Author, PaperRecord, ReadResult
from papershelf.metadata import adding
from papershelf.metadata.adding import Looked, add_found
from papershelf.metadata.errors import ServiceError
from papershelf.metadata.identifiers import Identifier


def paper(n: int, **fields: object) -> PaperRecord:
    """A paper no sample is: its own DOI, title, abstract and author."""
    values: dict[str, object] = {
        "title": f"Adding Paper Number {n} by Its Identifier", "year": 2024,
        "authors": [Author(f"Writer{n}", "Ada")], "doi": f"10.5555/adding.{n}",
        "abstract": f"Paper {n} is made for these tests: it says nothing of interest "
                    f"about anything, {n} times over.",
    }
    values.update(fields)
    return PaperRecord(**values)  # type: ignore[arg-type]


def looked(records: Sequence[PaperRecord]) -> list[Looked]:
    return [Looked(Identifier("doi", record.doi or f"10.5555/none.{i}"), record)
            for i, record in enumerate(records)]


def test_two_hundred_new_papers_are_one_change_undone_and_redone_whole(
        library: Library) -> None:
    found = looked([paper(n) for n in range(200)])

    done = add_found(library, found)

    assert done.count("added") == 200 and library.count() == 200
    assert len(done.paper_ids) == 200
    rows = library.rows(done.paper_ids)
    assert [rows[item.paper_id].title for item in done.items if item.paper_id] == [
        looked.record.title for looked in found if looked.record]
    assert all(item.key for item in done.items)
    assert done.change.description == "Add 200 papers"
    assert done.change.undo is not None
    redo = done.change.undo()
    assert library.count() == 0
    assert redo.undo is not None
    redo.undo()
    assert library.count() == 200


def test_writing_in_batches_gives_what_writing_one_by_one_gives(
        library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two identifiers of one paper (the same DOI; the same title) one after the other,
    # one of a paper already there, and more new papers than a batch holds.
    records = [paper(0), paper(0, abstract=""), paper(1), paper(2, doi=""),
               paper(2, doi="10.5555/other"), paper(3), paper(4), paper(5), paper(6),
               paper(7)]
    monkeypatch.setattr(adding, "WRITE_BATCH", 3)

    def outcomes(library: Library, one_by_one: bool) -> list[tuple[str, str]]:
        library.import_result(ReadResult(records=[paper(3, abstract="")]), "a.bib",
                              "bibtex")
        items = ([item for one in looked(records) for item in add_found(library, [one]).items]
                 if one_by_one else list(add_found(library, looked(records)).items))
        return [(item.outcome, item.key) for item in items]

    batched = outcomes(library, one_by_one=False)
    assert [outcome for outcome, _ in batched] == [
        "added", "already", "added", "added", "completed", "completed", "added", "added",
        "added", "added"]
    assert library.count() == 8
    other = Library.open(str(tmp_path / "one-by-one.sqlite"))
    try:
        assert outcomes(other, one_by_one=True) == batched
    finally:
        other.close()


def test_the_paper_already_there_is_completed_and_put_back_by_the_undo(
        library: Library) -> None:
    library.import_result(ReadResult(records=[paper(1, abstract="", year=None)]), "a.bib",
                          "bibtex")
    (pid,) = library.view_ids()
    library.set_starred([pid], True)

    done = add_found(library, looked([paper(1), paper(2)]))

    assert [item.outcome for item in done.items] == ["completed", "added"]
    detail = library.paper(pid)
    assert detail is not None and detail.record.year == 2024 and detail.starred
    assert done.change.description == "Add 1 paper, complete 1 paper"
    assert done.change.undo is not None
    done.change.undo()
    detail = library.paper(pid)
    assert detail is not None and detail.record.year is None and detail.starred
    assert library.count() == 1


def test_failed_lookups_are_skipped(library: Library) -> None:
    failed = Looked(Identifier("doi", "10.5555/gone"),
                    error=ServiceError("Crossref", "not found", "not-found"))

    done = add_found(library, [failed, *looked([paper(1)])])

    assert [item.identifier.value for item in done.items] == ["10.5555/adding.1"]
    assert library.count() == 1


def test_a_write_that_fails_part_way_leaves_nothing(
        library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    library.import_result(ReadResult(records=[paper(0, abstract="", year=None)]), "a.bib",
                          "bibtex")
    monkeypatch.setattr(adding, "WRITE_BATCH", 2)
    real = library.import_result
    calls: list[int] = []

    def failing(result: ReadResult, source: str, fmt: str) -> object:
        calls.append(len(result.records))
        if len(calls) == 2:
            raise OSError("disk full")
        return real(result, source, fmt)

    monkeypatch.setattr(library, "import_result", failing)

    with pytest.raises(OSError, match="disk full"):
        add_found(library, looked([paper(0), *(paper(n) for n in range(1, 6))]))

    assert calls == [2, 2]
    assert library.count() == 1
    detail = library.paper(library.view_ids()[0])
    assert detail is not None and detail.record.year is None  # its completion undone


def test_a_paper_someone_else_added_meanwhile_is_had_not_doubled(
        library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    real = library.paper_for
    first_look: set[str] = set()

    def late(record: PaperRecord) -> tuple[int | None, PaperRecord]:
        match, incoming = real(record)
        if record.doi == paper(1).doi and record.doi not in first_look:
            first_look.add(record.doi)  # looked for before the other window added it
            library.import_result(ReadResult(records=[record]), "other", "bibtex")
        return match, incoming

    monkeypatch.setattr(library, "paper_for", late)

    done = add_found(library, looked([paper(1), paper(2)]))

    assert [item.outcome for item in done.items] == ["already", "added"]
    assert library.count() == 2
    assert all(item.paper_id is not None for item in done.items)
