"""The "Best match" order of a search (issue 26) on SQLite's FTS5 index and PostgreSQL's:
a word in the title first, then in the authors, the abstract, the notes, the attached
files' text; more often above less often; the query language's filters kept."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from papershelf.core import db
from papershelf.core.library import Library, View
from papershelf.core.search import ranking
from papershelf.core.store import GenericStore
from papershelf.formats.records import Author, PaperRecord, ReadResult
from tests.conftest import run_cli

# (The same number of words in each title and abstract: the papers differ in where
# the word is and how often, not in length.)
PLAIN_TITLE = "Stripes of wild horses"
PLAIN_ABSTRACT = "alpha beta gamma delta epsilon"
PAPERS = (  # key, title, authors' family names, abstract, year; added in this order
    ("in_notes", PLAIN_TITLE, ("Smith",), PLAIN_ABSTRACT, 2020),
    ("in_file", PLAIN_TITLE, ("Smith",), PLAIN_ABSTRACT, 2021),
    ("once", PLAIN_TITLE, ("Smith",), "zebra beta gamma delta epsilon", 2021),
    ("twice", PLAIN_TITLE, ("Jones",), "zebra zebra gamma delta epsilon", 2020),
    ("in_title", "Zebra stripes of horses", ("Smith",), PLAIN_ABSTRACT, 2020),
    ("nowhere", PLAIN_TITLE, ("Smith",), PLAIN_ABSTRACT, 2020),
    ("by_author", PLAIN_TITLE, ("Zebra",), PLAIN_ABSTRACT, 2021),
)
# Best match first for "zebra": where the word is (title, authors, abstract, notes,
# files), and twice above once.
BEST_FOR_ZEBRA = ["in_title", "by_author", "twice", "once", "in_notes", "in_file"]
FILES = itertools.count()


@pytest.fixture
def zebras(library: Library, tmp_path: Path, request: pytest.FixtureRequest) -> Library:
    """A library of the PAPERS, with "zebra" in one's notes and one's attached file."""
    if request.config.getoption("--store") == "generic":
        pytest.skip("the generic store ranks nothing (test_the_generic_store_...)")
    library.import_result(ReadResult(records=[
        PaperRecord(entry_type="article", key=key, title=title,
                    authors=[Author(family, "Ann") for family in families],
                    abstract=abstract, year=year)
        for key, title, families, abstract, year in PAPERS]), "zebras", "bibtex")
    library.index_pending()
    ids = ids_by_key(library)
    library.set_notes(ids["in_notes"], "a zebra")
    path = tmp_path / f"file{next(FILES)}.pdf"
    path.write_bytes(b"%PDF-1.4 zebra")
    library.attach_file(ids["in_file"], path)
    attached = library.attachments(ids["in_file"])[0]
    library.set_file_texts({attached.id: "see the zebra here"})
    return library


def ids_by_key(library: Library) -> dict[str, int]:
    return {row.key: row.id for row in library.rows(library.view_ids()).values()}


def keys(library: Library, view: View, limit: int | None = None) -> list[str]:
    """The citation keys of a view's papers, in its order."""
    names = {pid: key for key, pid in ids_by_key(library).items()}
    return [names[pid] for pid in library.view_ids(view, limit)]


def best(search: str, **fields: object) -> View:
    return View(search=search, sort="best", **fields)  # type: ignore[arg-type]


def test_title_over_authors_over_abstract_over_notes_over_files(zebras: Library) -> None:
    assert keys(zebras, best("zebra")) == BEST_FOR_ZEBRA
    # (the default order, for comparison: as they were added)
    assert keys(zebras, View(search="zebra")) == [
        "in_notes", "in_file", "once", "twice", "in_title", "by_author"]


def test_a_word_twice_ranks_above_once(zebras: Library) -> None:
    found = keys(zebras, best("zebra"))
    assert found.index("twice") < found.index("once")
    # (and the same in the words' own column: the abstract)
    assert keys(zebras, best("abstract:zebra")) == ["twice", "once"]


def test_the_first_page_is_the_start_of_the_whole_list(zebras: Library) -> None:
    for limit in (1, 2, 3, 10):
        assert keys(zebras, best("zebra"), limit) == BEST_FOR_ZEBRA[:limit]


def test_the_query_language_still_filters(zebras: Library) -> None:
    """Fields, ranges and NOT keep the papers they keep in the default order, now in the
    order of their match."""
    for search, expected in (
            ("au:smith zebra", ["in_title", "once", "in_notes", "in_file"]),
            ("zebra year:2021", ["by_author", "once", "in_file"]),
            ("zebra -title:zebra", ["by_author", "twice", "once", "in_notes", "in_file"]),
            ("zebra -au:jones -year:2021", ["in_title", "in_notes"]),
            ("zebra OR nothing", BEST_FOR_ZEBRA),
            ("title:zebra OR abstract:zebra", ["in_title", "twice", "once"])):
        found = keys(zebras, best(search))
        assert sorted(found) == sorted(keys(zebras, View(search=search))), search
        assert found == expected, search


def test_the_views_filters_still_filter(zebras: Library) -> None:
    ids = ids_by_key(zebras)
    zebras.set_starred([ids["once"], ids["in_title"]], True)
    zebras.add_tags([ids["twice"], ids["in_notes"], ids["nowhere"]], ["mammals"])
    assert keys(zebras, best("zebra", starred=True)) == ["in_title", "once"]
    assert keys(zebras, best("zebra", tag="mammals")) == ["twice", "in_notes"]
    assert keys(zebras, best("zebra", filter="unread"), limit=3) == BEST_FOR_ZEBRA[:3]


def test_a_prefix_being_typed_ranks_too(zebras: Library) -> None:
    assert keys(zebras, best("zeb", typing=True)) == BEST_FOR_ZEBRA


def test_without_a_search_the_order_is_the_default(zebras: Library) -> None:
    assert keys(zebras, best("")) == keys(zebras, View())
    assert keys(zebras, best("year:2021")) == keys(zebras, View(search="year:2021"))
    assert keys(zebras, best("nothing")) == []


def test_a_search_with_more_matches_than_it_ranks(zebras: Library,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the candidates a search ranks (thousands, in a big library), its newest
    matches are the ranked ones, the older follow newest first, then the files'."""
    for index, ranks in list(ranking._RANKINGS.items()):
        monkeypatch.setitem(ranking._RANKINGS, index, replace(ranks, candidates=2))
    # The two newest of "zebra" in the index: by_author, in_title (by_author is newer,
    # in_title matches better); then twice, once, (in_notes on SQLite), newest first.
    found = keys(zebras, best("zebra"))
    assert found[:4] == ["in_title", "by_author", "twice", "once"]
    assert found[-1] == "in_file" and sorted(found) == sorted(BEST_FOR_ZEBRA)
    assert keys(zebras, best("zebra"), limit=2) == ["in_title", "by_author"]


def test_cli_search_and_list_sort_by_best_match(zebras: Library, library_target: str) -> None:
    status, out, err = run_cli("search", "zebra", "--sort", "best", "--library", library_target)
    assert (status, err) == (0, "")
    shown = [line.split()[0] for line in out.splitlines()[:-1]]
    assert shown == BEST_FOR_ZEBRA and out.endswith("6 papers\n")
    status, out, err = run_cli("list", "--search", "au:smith zebra", "--sort", "best",
                               "--library", library_target)
    assert (status, err) == (0, "")
    assert [line.split()[0] for line in out.splitlines()[:-1]] == [
        "in_title", "once", "in_notes", "in_file"]
    status, out, _ = run_cli("search", "zebra", "--library", library_target)
    assert out.split()[0] == "in_notes"


@pytest.mark.sqlite_only  # (a database without a store of its own: plain SQLAlchemy)
def test_the_generic_store_lists_best_match_in_the_default_order(library_path: Path) -> None:
    engine, url = db.open_engine(str(library_path))
    library = Library(engine, url, GenericStore(engine))
    try:
        library.import_result(ReadResult(records=[
            PaperRecord(entry_type="article", key=key, title=title, abstract=abstract)
            for key, title, _families, abstract, _year in PAPERS]), "zebras", "bibtex")
        assert keys(library, best("zebra")) == keys(library, View(search="zebra")) == [
            "once", "twice", "in_title"]
    finally:
        library.close()
