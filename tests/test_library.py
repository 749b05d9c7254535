"""The library: the sample papers, the user's data, undo, search and schema safety."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.core import db, search
from papershelf.core.library import ImportCancelled, Library, UserError, View
from papershelf.formats.records import Author, PaperRecord, ReadResult
from tests.conftest import SEED_FILES, SEEDS


def details_by_key(lib: Library) -> dict[str, object]:
    return {d.key: d for d in lib.details(lib.view_ids())}


def test_first_start_shows_the_38_sample_papers(seeded: Library) -> None:
    details = seeded.details(seeded.view_ids())
    assert len(details) == 38
    assert {d.record.venue for d in details} == {"ICML"}
    assert {d.record.year for d in details} == {2024}
    titles = [d.record.title for d in details]
    assert len(set(titles)) == 38
    assert all(d.record.title_provisional for d in details)
    assert all(0 < len(t) <= 101 for t in titles)
    assert len({d.key for d in details}) == 38
    assert all(d.read_state == "unread" and not d.starred for d in details)


def test_sample_abstracts_are_stored_exactly_as_written(seeded: Library) -> None:
    stored = {d.record.abstract for d in seeded.details(seeded.view_ids())}
    paragraphs = set()
    for path in SEED_FILES:
        text = path.read_text(encoding="utf-8")
        paragraphs |= {p.strip() for p in text.split("\n\n")[1:] if p.strip()}
    assert stored == paragraphs


def test_sample_is_imported_once_even_after_the_user_deletes_it(
    seeded: Library, library_target: str
) -> None:
    seeded.delete_papers(seeded.view_ids())
    assert seeded.count() == 0
    again = Library.open(library_target)
    try:
        assert again.ensure_sample(SEEDS) is None
        assert again.count() == 0
    finally:
        again.close()


def test_reimport_adds_nothing_and_keeps_the_users_data(seeded: Library) -> None:
    ids = seeded.view_ids()
    before = details_by_key(seeded)
    seeded.set_starred(ids[:3], True)
    seeded.set_read_state(ids[3:5], "read")
    seeded.set_notes(ids[0], "Compare with *FrameQuant*.")
    seeded.add_tags(ids[:2], ["to-cite"])
    for path in SEED_FILES:
        report = seeded.import_file(path)
        assert report.added == 0
        assert report.already_present == 19
    after = seeded.details(seeded.view_ids())
    assert len(after) == 38
    assert {d.key for d in after} == set(before)
    first = seeded.paper(ids[0])
    assert first is not None
    assert first.starred and first.record.notes == "Compare with *FrameQuant*."
    assert first.record.tags == ["to-cite"]
    assert seeded.count(View(filter="read")) == 2
    assert seeded.count(View(filter="starred")) == 3


def test_a_list_sharing_some_abstracts_adds_only_the_new_ones(
    seeded: Library, tmp_path: Path
) -> None:
    text = SEED_FILES[0].read_text(encoding="utf-8").split("\n\n")
    new = ("We introduce ShelfNet, a brand new method for ranking reading lists of papers "
           "that researchers collect, and show on many benchmarks that it triages faster "
           "than every baseline while using less memory.")
    path = tmp_path / "mixed.txt"
    path.write_text("\n\n".join([text[0], text[1], new, text[2]]) + "\n", encoding="utf-8")
    report = seeded.import_file(path)
    assert (report.added, report.already_present) == (1, 2)
    assert seeded.count() == 39


def test_a_failed_import_writes_nothing(seeded: Library) -> None:
    with pytest.raises(ImportCancelled):
        seeded.import_result(
            ReadResult(records=[PaperRecord(title=f"Paper {n}") for n in range(500)]),
            "x.bib", "bibtex", cancelled=lambda: True,
        )
    assert seeded.count() == 38
    assert seeded.info()["imports"] == 2


def test_user_data_survives_reopening(seeded: Library, library_target: str) -> None:
    ids = seeded.view_ids()
    seeded.set_starred([ids[1]], True)
    seeded.set_read_state([ids[2]], "reading")
    seeded.set_notes(ids[3], "## Why\nIt matters.")
    seeded.close()
    lib = Library.open(library_target)
    try:
        rows = lib.rows(ids)
        assert rows[ids[1]].starred
        assert rows[ids[2]].read_state == "reading"
        detail = lib.paper(ids[3])
        assert detail is not None and detail.record.notes == "## Why\nIt matters."
    finally:
        lib.close()


def test_marking_read_records_when(seeded: Library) -> None:
    pid = seeded.view_ids()[0]
    seeded.set_read_state([pid], "read")
    detail = seeded.paper(pid)
    assert detail is not None and detail.read_at is not None
    seeded.set_read_state([pid], "unread")
    detail = seeded.paper(pid)
    assert detail is not None and detail.read_at is None
    with pytest.raises(UserError):
        seeded.set_read_state([pid], "skimmed")


def test_marking_papers_of_mixed_states_read_is_undone_paper_by_paper(seeded: Library) -> None:
    """Star and Mark Read on a selection whose papers differ (starred or not, unread,
    being read, read on some day): each undo gives every paper back its own state."""
    ids = seeded.view_ids()[:8]
    seeded.set_starred(ids[:3], True)
    seeded.set_read_state(ids[2:5], "reading")
    seeded.set_read_state(ids[5:7], "read")

    def states() -> dict[int, tuple[bool, str, object]]:
        details = {pid: seeded.paper(pid) for pid in ids}
        return {pid: (d.starred, d.read_state, d.read_at)
                for pid, d in details.items() if d is not None}

    before = states()
    assert len({state for state in before.values()}) >= 4
    undo_read = seeded.set_read_state(ids, "read").undo
    undo_star = seeded.toggle_starred(ids).undo
    after = states()
    assert all(starred and state == "read" and when is not None
               for starred, state, when in after.values())
    assert undo_star is not None and undo_read is not None
    undo_star()
    undo_read()
    assert states() == before


def test_read_state_cycles_unread_reading_read(seeded: Library) -> None:
    ids = seeded.view_ids()[:2]
    states = []
    for _ in range(3):
        seeded.cycle_read_state(ids)
        states.append({r.read_state for r in seeded.rows(ids).values()})
    assert states == [{"reading"}, {"read"}, {"unread"}]


def test_undo_and_redo_of_a_bulk_star(seeded: Library) -> None:
    ids = seeded.view_ids()
    seeded.set_starred([ids[0]], True)
    change = seeded.set_starred(ids[:10], True)
    assert seeded.count(View(filter="starred")) == 10
    assert change.undo is not None
    redo = change.undo()
    assert seeded.count(View(filter="starred")) == 1  # the one starred before stays
    assert redo.undo is not None
    redo.undo()
    assert seeded.count(View(filter="starred")) == 10


def test_undo_of_notes_and_tags(seeded: Library) -> None:
    pid = seeded.view_ids()[0]
    seeded.set_notes(pid, "first")
    change = seeded.set_notes(pid, "second")
    assert change.undo is not None
    change.undo()
    detail = seeded.paper(pid)
    assert detail is not None and detail.record.notes == "first"
    tag_change = seeded.add_tags([pid], ["rl", "theory"])
    assert seeded.counts().tags == {"rl": 1, "theory": 1}
    assert tag_change.undo is not None
    tag_change.undo()
    assert seeded.counts().tags == {}


def test_deleting_papers_can_be_undone_whole(seeded: Library) -> None:
    pid = seeded.view_ids()[0]
    seeded.set_notes(pid, "precious")
    seeded.add_tags([pid], ["keep"])
    before = seeded.paper(pid)
    change = seeded.delete_papers([pid])
    assert seeded.count() == 37
    assert change.undo is not None
    change.undo()
    after = seeded.paper(pid)
    assert after is not None and before is not None
    assert after.record == before.record
    assert seeded.view_ids(View(search="precious")) == [pid]


def test_counts_for_the_sidebar(seeded: Library) -> None:
    ids = seeded.view_ids()
    seeded.set_starred(ids[:4], True)
    seeded.set_read_state(ids[:3], "read")
    seeded.set_read_state(ids[3:5], "reading")
    seeded.add_tags(ids[:2], ["rl"])
    counts = seeded.counts()
    assert (counts.all, counts.unread, counts.reading, counts.read, counts.starred) == (
        38, 33, 2, 3, 4)
    assert counts.tags == {"rl": 2}
    assert seeded.count(View(tag="rl")) == 2


# -- search ---------------------------------------------------------------------


def test_search_words_phrases_and_prefixes(seeded: Library) -> None:
    def keys(query: str) -> set[str]:
        return {seeded.rows([i])[i].key for i in seeded.view_ids(View(search=query))}

    harmony = keys("HarmonyDream")
    assert len(harmony) == 1
    assert keys("harmony*") == harmony
    assert len(keys("quantization")) == 2
    assert keys("quantiz*") == keys("quantization")
    assert keys("quantiz") == set()
    assert keys('"triangle inequality"') == keys("triangle inequality stitching")
    assert keys("quantization zzzznotaword") == set()
    assert len(keys("")) == 38


@pytest.mark.parametrize("query", ['"', "AND(", "*", "NOT", "(", ")", "a:b", "^", "-", "''",
                                  '"unclosed phrase', "OR OR", "NEAR(a b)", "\\", "🙂"])
def test_odd_queries_never_raise(seeded: Library, query: str) -> None:
    ids = seeded.view_ids(View(search=query))
    assert isinstance(ids, list)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40))
def test_any_query_is_answered(seeded: Library, query: str) -> None:
    assert len(seeded.view_ids(View(search=query))) <= 38


def test_search_covers_notes_tags_and_authors_and_follows_edits(seeded: Library) -> None:
    pid = seeded.view_ids()[5]
    assert seeded.view_ids(View(search="zebrafinch")) == []
    seeded.set_notes(pid, "reminds me of zebrafinch song learning")
    assert seeded.view_ids(View(search="zebrafinch")) == [pid]
    seeded.set_notes(pid, "")
    assert seeded.view_ids(View(search="zebrafinch")) == []
    seeded.add_tags([pid], ["must-read"])
    assert seeded.view_ids(View(search="must-read")) == [pid]
    seeded.import_result(ReadResult(records=[PaperRecord(
        title="On Scheduling", authors=[Author("Müller", "Jürgen")], year=2023)]),
        "x.bib", "bibtex")
    assert len(seeded.view_ids(View(search="muller"))) == 1
    assert len(seeded.view_ids(View(search="Jürgen"))) == 1


def test_search_combines_with_filters(seeded: Library) -> None:
    hits = seeded.view_ids(View(search="quantization"))
    seeded.set_starred(hits[:1], True)
    assert seeded.view_ids(View(search="quantization", filter="starred")) == hits[:1]


def test_views_sort_in_the_database(seeded: Library) -> None:
    rows = seeded.rows(seeded.view_ids(View(sort="title")))
    ordered = [rows[i].title.lower() for i in seeded.view_ids(View(sort="title"))]
    assert ordered == sorted(ordered)
    backwards = seeded.view_ids(View(sort="title", descending=True))
    assert backwards == list(reversed(seeded.view_ids(View(sort="title"))))
    with pytest.raises(UserError):
        seeded.view_ids(View(sort="colour"))


# -- citation keys --------------------------------------------------------------


def test_keys_are_generated_once_and_stay(seeded: Library) -> None:
    before = {d.record.abstract: d.key for d in seeded.details(seeded.view_ids())}
    pid = seeded.view_ids()[0]
    seeded.set_title(pid, "A Completely Different Real Title")
    for path in SEED_FILES:
        seeded.import_file(path)
    after = {d.record.abstract: d.key for d in seeded.details(seeded.view_ids())}
    assert after == before


def test_keys_from_author_year_and_title_made_unique(library: Library) -> None:
    def rec(title: str) -> PaperRecord:
        return PaperRecord(title=title, authors=[Author("Müller", "Anna")], year=2024)

    report = library.import_result(ReadResult(records=[
        rec("The Art of Graphs"), rec("The Art of Trees"), rec("Art in Science"),
    ]), "x.bib", "bibtex")
    assert report.added == 3
    keys = [library.rows([i])[i].key for i in library.view_ids()]
    assert keys == ["muller2024art", "muller2024arta", "muller2024artb"]


def test_user_may_change_a_key_but_not_to_a_taken_one(seeded: Library) -> None:
    first, second = seeded.view_ids()[:2]
    seeded.set_key(first, "myers2024learning")
    assert seeded.rows([first])[first].key == "myers2024learning"
    with pytest.raises(UserError):
        seeded.set_key(second, "myers2024learning")
    with pytest.raises(UserError):
        seeded.set_key(second, "has space")


def test_a_real_title_replaces_the_provisional_one(seeded: Library) -> None:
    pid = seeded.view_ids()[0]
    seeded.set_title(pid, "Learning Temporal Distances")
    row = seeded.rows([pid])[pid]
    assert row.title == "Learning Temporal Distances" and not row.title_provisional


# -- the database file -------------------------------------------------------------


@pytest.mark.sqlite_only  # (SQLite's settings)
def test_sqlite_runs_with_wal_foreign_keys_and_a_busy_timeout(library: Library) -> None:
    with library.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == db.BUSY_TIMEOUT_MS


def test_a_library_from_a_newer_papershelf_is_refused_untouched(library_path: Path) -> None:
    Library.open(str(library_path)).close()
    with contextlib.closing(sqlite3.connect(library_path)) as conn, conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    before = library_path.read_bytes()
    with pytest.raises(db.NewerLibraryError, match="newer version of Papershelf"):
        Library.open(str(library_path))
    assert library_path.read_bytes() == before


def test_a_library_of_the_first_schema_is_upgraded_with_its_data(library_path: Path) -> None:
    engine = db.create_library_engine(f"sqlite:///{library_path}")
    db.run_migrations(engine, "0001")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO papers (key, entry_type, title, title_provisional, authors_text, "
            "authors_sort, abstract, venue, volume, pages, publisher, doi, url, bib_fields, "
            "starred, read_state, notes, tags_text, added_at, modified_at) VALUES "
            "('knuth1984literate', 'article', 'Literate Programming', 0, 'Donald Knuth', "
            "'knuth', '', 'The Computer Journal', '', '', '', '', '', '{}', 1, 'read', "
            "'classic', '', '2024-01-01 00:00:00', '2024-01-01 00:00:00')")
    engine.dispose()
    lib = Library.open(str(library_path))
    try:
        assert lib.info()["schema"] == db.SCHEMA_HEAD
        (pid,) = lib.view_ids(View(search="literate"))
        detail = lib.paper(pid)
        assert detail is not None and detail.starred and detail.record.notes == "classic"
        assert detail.read_state == "read" and detail.read_at is None
        counts = lib.counts()
        assert (counts.starred, counts.read, counts.unread) == (1, 1, 0)
        # The upgraded library finds duplicates by title, and its search still follows edits.
        report = lib.import_result(ReadResult(records=[PaperRecord(
            title="Literate programming.", authors=[Author("Knuth", "Donald E.")])]),
            "k.bib", "bibtex")
        assert (report.added, report.merged + report.already_present) == (0, 1)
        lib.set_notes(pid, "still searchable")
        assert lib.view_ids(View(search="searchable")) == [pid]
    finally:
        lib.close()


def test_an_older_library_is_upgraded(library_path: Path) -> None:
    # An empty file is the oldest library there is: it gets the whole schema.
    library_path.write_bytes(b"")
    lib = Library.open(str(library_path))
    try:
        assert lib.info()["schema"] == db.SCHEMA_HEAD
    finally:
        lib.close()


@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_schema_head_matches_the_migrations_and_the_models(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.config import Config
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from papershelf.core.models import Base

    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS_DIR))
    assert ScriptDirectory.from_config(config).get_current_head() == db.SCHEMA_HEAD
    lib = Library.open(str(tmp_path / "l.sqlite"))
    try:
        with lib.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        # The search index's own tables and index (the annotations' papers and owners,
        # core.search.fts5), and expression indexes SQLite cannot reflect, are not in
        # the models; everything else must match.
        assert [d for d in diff if "title_lower" not in str(d) and "fts" not in str(d)
                and "ix_annotations_hits" not in str(d)] == []
    finally:
        lib.close()


def test_files_that_are_not_libraries_are_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(db.LibraryError, match=r"junk\.sqlite"):
        Library.open(str(junk))
    assert junk.read_bytes() == b"this is not a database at all" * 100
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER)")
    with pytest.raises(db.LibraryError, match="not a Papershelf library"):
        Library.open(str(other))


def test_library_location_from_argument_environment_or_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    assert db.resolve_target(str(tmp_path / "a.sqlite")) == f"sqlite:///{tmp_path}/a.sqlite"
    monkeypatch.setenv("PAPERSHELF_LIBRARY", str(tmp_path / "env.sqlite"))
    assert db.resolve_target(None).endswith("env.sqlite")
    monkeypatch.delenv("PAPERSHELF_LIBRARY")
    default = db.resolve_target(None)
    assert default.startswith(f"sqlite:///{isolated_home}") and default.endswith(
        "library.sqlite")
    assert db.resolve_target("sqlite:///x.db") == "sqlite:///x.db"


# -- duplicates ------------------------------------------------------------------


def _two_copies(lib: Library) -> tuple[int, int]:
    lib.import_result(ReadResult(records=[
        PaperRecord(title="Attention Is All You Need", year=2017, venue="NeurIPS",
                    authors=[Author("Vaswani", "Ashish")]),
    ]), "a.bib", "bibtex")
    # The same paper arriving from a second source with a slightly different title is
    # merged on import already; force a second copy as an older library might hold it.
    report = lib.import_result(ReadResult(records=[
        PaperRecord(title="Attention is all you need!", doi="10.5555/3295222",
                    pages="5998--6008")]), "b.bib", "bibtex")
    assert report.merged == 1 and report.added == 0
    first = lib.view_ids(View(search="attention"))[0]
    change = lib.import_result(ReadResult(records=[PaperRecord(
        title="Transformers", abstract="x" * 50)]), "c.bib", "bibtex")
    second = change.added_ids[0]
    lib.set_title(second, "ATTENTION is all you need")
    return first, second


def test_find_duplicates_lists_papers_with_the_same_title(library: Library) -> None:
    first, second = _two_copies(library)
    pairs = library.find_duplicates()
    assert [(p.keep_id, p.other_id, p.reason) for p in pairs] == [(first, second, "same title")]


def test_merging_a_pair_keeps_the_users_data_and_can_be_undone(library: Library) -> None:
    first, second = _two_copies(library)
    library.set_notes(first, "first notes")
    library.set_notes(second, "second notes")
    library.set_starred([second], True)
    library.set_read_state([second], "read")
    library.add_tags([first], ["a"])
    library.add_tags([second], ["b"])
    key = library.rows([first])[first].key
    before = library.details([first, second])
    change = library.merge_papers(first, second)
    assert library.count() == 1
    merged = library.paper(first)
    assert merged is not None
    assert merged.key == key and merged.starred and merged.read_state == "read"
    assert merged.record.notes == "first notes\n\nsecond notes"
    assert merged.record.tags == ["a", "b"]
    assert merged.record.pages == "5998--6008" and merged.record.doi == "10.5555/3295222"
    assert library.find_duplicates() == []
    assert change.undo is not None
    redo = change.undo()
    assert library.details([first, second]) == before
    assert redo.undo is not None
    redo.undo()
    assert library.count() == 1


# -- key patterns -------------------------------------------------------------------


def test_key_pattern_applies_to_new_papers_only(library: Library) -> None:
    def add(title: str) -> str:
        report = library.import_result(ReadResult(records=[PaperRecord(
            title=title, authors=[Author("Dubois", "Chloé"), Author("Kim", "Wei")],
            year=2023)]), "x.bib", "bibtex")
        return library.rows(report.added_ids)[report.added_ids[0]].key

    assert library.key_pattern == "[auth:lower][year][veryshorttitle:lower]"
    first = add("Graphs of Papers")
    assert first == "dubois2023graphs"
    library.set_key_pattern("[Auth][shortyear][title]")
    assert add("Trees of Papers") == "Dubois23TreesPapers"
    assert library.rows(library.view_ids())[library.view_ids()[0]].key == first
    with pytest.raises(UserError, match="invalid key pattern"):
        library.set_key_pattern("[nosuchfield]")


def test_regenerating_keys_is_explicit_unique_and_undoable(library: Library) -> None:
    library.import_result(ReadResult(records=[
        PaperRecord(key="a1", title="Alpha Paper", authors=[Author("Ng", "Andrew")], year=2020),
        PaperRecord(key="b1", title="Alpha Paper Two", authors=[Author("Ng", "Andrew")],
                    year=2020),
    ]), "x.bib", "bibtex")
    ids = library.view_ids()
    change = library.regenerate_keys(ids)
    assert sorted(r.key for r in library.rows(ids).values()) == ["ng2020alpha", "ng2020alphaa"]
    assert change.undo is not None
    change.undo()
    assert sorted(r.key for r in library.rows(ids).values()) == ["a1", "b1"]


def _starred(library: Library, ids: list[int]) -> int:
    """How many of these papers are starred."""
    return sum(row.starred for row in library.rows(ids).values())


def test_selection_helpers_for_the_window(seeded: Library) -> None:
    ids = seeded.view_ids()[:4]
    seeded.set_starred(ids[:3], True)
    seeded.add_tags(ids[:2], ["x", "y"])
    assert _starred(seeded, ids) == 3
    assert seeded.tags_of(ids[1:3]) == {ids[1]: ["x", "y"], ids[2]: []}


# -- deferred indexing of bulk imports -------------------------------------------------


def _bulk(n: int, word: str) -> ReadResult:
    return ReadResult(records=[
        PaperRecord(title=f"{word.capitalize()} study number {i}", year=2000 + i % 20,
                    authors=[Author("Lovelace", "Ada")], abstract=f"About {word} {i}. " * 5)
        for i in range(n)])


def test_a_bulk_import_becomes_searchable_after_indexing(seeded: Library) -> None:
    report = seeded.import_result(_bulk(1500, "zymurgy"), "big.bib", "bibtex")
    assert report.added == 1500
    assert seeded.pending_index() == 1500
    assert seeded.view_ids(View(search="zymurgy")) == []
    seen: list[tuple[int, int]] = []
    assert seeded.index_pending(progress=lambda d, t: seen.append((d, t)), batch=400) == 1500
    assert seen[-1] == (1500, 1500)
    assert seeded.pending_index() == 0
    assert len(seeded.view_ids(View(search="zymurgy"))) == 1500
    assert len(seeded.view_ids(View(search="HarmonyDream"))) == 1


def test_edits_and_deletes_while_indexing_is_pending_keep_the_index_right(
    seeded: Library,
) -> None:
    report = seeded.import_result(_bulk(1200, "quokka"), "big.bib", "bibtex")
    first, second = report.added_ids[:2]
    seeded.set_notes(first, "platypus remark")
    seeded.delete_papers([second])
    seeded.index_pending(batch=500, cancelled=iter([False, True]).__next__)
    assert 0 < seeded.pending_index() < 1199
    seeded.index_pending()
    assert seeded.view_ids(View(search="platypus")) == [first]
    assert len(seeded.view_ids(View(search="quokka"))) == 1199
    seeded.set_notes(first, "")
    assert seeded.view_ids(View(search="platypus")) == []
    seeded.set_title(first, "Echidna study")
    assert seeded.view_ids(View(search="echidna")) == [first]
    assert index_disagrees_with_papers(seeded) == 0


def index_disagrees_with_papers(library: Library) -> int:
    """How many papers the search index holds other than the papers table says (FTS5's
    integrity check; the papers whose row of PostgreSQL's search table is missing or
    not their words)."""
    with library.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("INSERT INTO paper_fts(paper_fts) VALUES ('integrity-check')")
            return 0
        return int(conn.exec_driver_sql(
            f"SELECT count(*) FROM papers p JOIN paper_texts t ON t.paper_id = p.id "
            f"LEFT JOIN {search.PG_SEARCH_TABLE} s ON s.paper_id = p.id WHERE s.doc IS NULL "
            f"OR s.doc <> {search.pg_search_document('p.', 't.')}").scalar() or 0)


def test_first_pages_are_prefixes_of_the_whole_view(seeded: Library) -> None:
    ids = seeded.view_ids()
    seeded.set_starred(ids[::3], True)
    # Papers found through their notes, tags or both beside those found by their words.
    seeded.set_notes(ids[1], "learning to read, with a wombat")
    seeded.set_notes(ids[-1], "wombat")
    seeded.add_tags([ids[5], ids[-2]], ["wombat learning"])
    for view in (View(), View(sort="title"), View(sort="year", descending=True),
                 View(search="learning"), View(search="learn*", descending=True),
                 View(search="learning", filter="starred"), View(search="model", sort="title"),
                 View(search='"', sort="added"), View(search="wombat"),
                 View(search="wombat", descending=True), View(search="wombat learning"),
                 View(search="learning wombat", descending=True),
                 View(search='"wombat learning"'), View(search="wombat zzz")):
        whole = seeded.view_ids(view)
        assert seeded.view_ids(view, limit=5) == whole[:5], view
        assert seeded.view_ids(view, limit=2) == whole[:2], view
    assert len(seeded.view_ids(View(search="wombat"))) == 4
    assert set(seeded.view_ids(View(search="wombat learning"))) == {ids[1], ids[5], ids[-2]}
    by_added = seeded.view_ids(View(search="learning"))
    assert sorted(by_added) == by_added
    assert set(by_added) == set(seeded.view_ids(View(search="learning", sort="title")))


def test_bulk_edits_of_thousands_are_one_undoable_step(library: Library) -> None:
    library.import_result(_bulk(6000, "wombat"), "big.bib", "bibtex")
    ids = library.view_ids()
    library.set_starred(ids[:10], True)
    change = library.set_read_state(ids, "read")
    starred = library.set_starred(ids, True)
    assert library.count(View(filter="starred")) == 6000
    assert starred.undo is not None and change.undo is not None
    starred.undo()
    assert library.count(View(filter="starred")) == 10
    change.undo()
    assert library.count(View(filter="unread")) == 6000
    assert len({r.key for r in library.rows(ids).values()}) == 6000


def test_the_starred_filter_and_starred_are_one_condition(seeded: Library) -> None:
    ids = seeded.view_ids()[:5]
    seeded.set_starred(ids[:3], True)
    seeded.set_read_state(ids[:1], "read")
    assert View(filter="starred").starred_only and View(starred=True).starred_only
    assert not View(filter="read").starred_only
    assert set(seeded.view_ids(View(filter="starred"))) == set(ids[:3])
    assert seeded.view_ids(View(filter="starred", starred=True)) == seeded.view_ids(
        View(starred=True))
    assert seeded.view_ids(View(filter="read", starred=True)) == ids[:1]


def test_toggle_starred_stars_unless_all_are_starred(seeded: Library) -> None:
    ids = seeded.view_ids()[:6]
    seeded.set_starred(ids[:2], True)
    seeded.toggle_starred(ids)
    assert _starred(seeded, ids) == 6
    change = seeded.toggle_starred(ids)
    assert _starred(seeded, ids) == 0
    assert change.undo is not None
    change.undo()
    assert _starred(seeded, ids) == 6


def test_indexing_can_go_in_slices(seeded: Library) -> None:
    seeded.import_result(_bulk(1500, "kakapo"), "big.bib", "bibtex")
    assert seeded.index_pending(batch=400, limit=500) == 800
    assert seeded.pending_index() == 700
    seeded.index_pending(batch=400)
    assert len(seeded.view_ids(View(search="kakapo"))) == 1500


def test_records_for_export_are_the_papers_as_read_with_the_users_data(seeded: Library) -> None:
    """Export reads records through the driver: each is its paper as the file gave it
    (merged BibTeX fields, authors in order) with the user's tags and notes, in the order
    asked."""
    from papershelf.formats.bibtex import read_bibtex
    from tests.test_bibtex_import import PMLR

    seeded.import_file(PMLR)
    ids = seeded.view_ids(View())
    seeded.add_tags(ids[:5], ["to read", "icml"])
    seeded.set_notes(ids[3], "Compare with the 2023 paper.")
    order = [*ids[::-1], 10**9]  # a missing id is skipped
    records = seeded.records(order)
    assert len(records) == len(ids) == 38
    assert [r.key for r in records[-4:]] == [
        "icml2024capturing", "icml2024alternative", "icml2024framequant", "icml2024successor"]
    fischer = records[-4]
    assert fischer.title == "Critical feature learning in deep neural networks"
    assert fischer.authors == [
        Author("Fischer", "Kirsten"), Author("Lindner", "Javed"), Author("Dahmen", "David"),
        Author("Ringel", "Zohar"), Author("Krämer", "Michael"), Author("Helias", "Moritz")]
    assert (fischer.entry_type, fischer.venue, fischer.year, fischer.volume, fischer.pages) == (
        "inproceedings", "ICML", 2024, "235", "13660--13690")
    assert fischer.raw["author"] == (
        "Fischer, Kirsten and Lindner, Javed and Dahmen, David and Ringel, Zohar and "
        "Kr\\\"{a}mer, Michael and Helias, Moritz")
    assert fischer.raw["openreview"] == "xMJT4XW468"
    assert fischer.raw["address"] == "Vienna, Austria"  # from the file's @proceedings
    assert fischer.tags == ["icml", "to read"]
    assert fischer.notes == "Compare with the 2023 paper."
    assert (records[-3].tags, records[-3].notes) == (["icml", "to read"], "")
    assert records[-3].authors[1:3] == [Author("Herzet", "Cédric"), Author("Elvira", "Clément")]
    assert (records[0].tags, records[0].notes) == ([], "")
    # Every record's bibliographic fields are the file's (its abstract is the sample's).
    from_file = {r.title: r for r in read_bibtex(PMLR).records}
    assert sorted(from_file) == sorted(r.title for r in records)
    for record in records:
        read = from_file[record.title]
        assert (record.entry_type, record.authors, record.year, record.volume, record.pages,
                record.raw) == (read.entry_type, read.authors, read.year, read.volume,
                                read.pages, {k: v for k, v in read.raw.items() if k != "abstract"})


def _index_words(text: str) -> set[str]:
    """The words the search index keeps of `text`, as FTS5's unicode61 tokenizer (with
    remove_diacritics) makes them: runs of letters and digits, lower-cased, unaccented."""
    plain = "".join(c for c in unicodedata.normalize("NFD", text.lower())
                    if not unicodedata.combining(c))
    return set(re.findall(r"[^\W_]+", plain))


@pytest.mark.parametrize("expansion", [32, 1])
def test_a_prefix_search_finds_the_papers_with_a_word_so_beginning(
        seeded: Library, monkeypatch: pytest.MonkeyPatch, expansion: int) -> None:
    """The table's search spells a prefix out as the index's terms (much faster on a big
    library), or leaves it a prefix when it stands for too many; either way it finds the
    papers with a word that starts with it, in the view's order, and `count` agrees."""
    from papershelf.core.search import fts5

    monkeypatch.setattr(fts5, "MAX_EXPANSION", expansion)
    ids = seeded.view_ids(View())
    seeded.set_notes(ids[0], "Gradient descent, graphs and GRAPES.")
    words = {d.id: _index_words(" ".join([
        d.record.title, d.record.abstract, d.record.notes, *d.record.tags,
        *(f"{a.given} {a.family}" for a in d.record.authors)])) for d in seeded.details(ids)}

    def expected(query: str) -> list[int]:
        return [i for i in ids if all(
            any(w.startswith(term[:-1]) for w in words[i]) if term.endswith("*")
            else term in words[i] for term in query.lower().split())]

    prefixes = sorted({w[:n] for found in words.values() for w in found if w.isalpha()
                       for n in (1, 2, 3, 5)})
    assert len(prefixes) > 500
    assert seeded.view_ids(View(search="grape*")) == [ids[0]]  # the notes' "GRAPES"
    for prefix in [*prefixes, "zzzq", "gra", "Gra", "graph neural"]:
        query = f"{prefix}*"
        hits = expected(query)
        assert seeded.view_ids(View(search=query)) == hits, query
        assert seeded.count(View(search=query)) == len(hits), query
        assert seeded.view_ids(View(search=f"model {query}")) == expected(f"model {query}")


def test_each_search_answers_its_own_words(seeded: Library) -> None:
    # (Queries of the same shape reuse one statement with their own words in it.)
    queries = ["learning", "quantization", "zzzznotaword", "model learning",
               "neural networks", "learn* model*", "language model", "model zzzznotaword"]
    answers = {q: set(seeded.view_ids(View(search=q))) for q in queries}
    assert len({frozenset(a) for a in answers.values()}) == len(queries) - 1  # (two empty)
    for query in reversed(queries):
        assert set(seeded.view_ids(View(search=query))) == answers[query]
        assert seeded.count(View(search=query)) == len(answers[query])
        assert seeded.view_ids(View(search=query), limit=3) == sorted(answers[query])[:3]


def test_a_keywords_list_run_together_imports_as_its_tags(library: Library) -> None:
    """A record whose tag is a database's keyword list run together (JabRef's groups
    of a ScienceDirect export: over a tag's 255 characters, more than PostgreSQL's column
    holds): the paper comes in, the list's parts are its tags, and the export's keywords
    say what the file said."""
    words = [f"Keyword number {n} about thin films" for n in range(12)]
    assert len(", ".join(words)) > 255
    record = PaperRecord(title="Long Keywords", key="long2020", entry_type="article",
                         year=2020, tags=[", ".join(words), "short"])
    report = library.import_result(ReadResult(records=[record]), "refs.bib", "bibtex")
    assert report.added == 1 and not report.problems
    [pid] = library.view_ids(View())
    assert sorted(library.tags_of([pid])[pid]) == sorted([*words, "short"])
    from papershelf.core.transfer import export_papers

    exported = export_papers(library, [pid]).text
    assert all(word in exported for word in words)


def test_a_tag_too_long_is_refused_in_one_line(library: Library) -> None:
    library.ensure_sample(SEEDS)
    [pid] = library.view_ids(View(), limit=1)
    with pytest.raises(UserError, match="a tag is at most 255 characters"):
        library.add_tags([pid], ["x" * 256])
    assert library.tags_of([pid]).get(pid, []) == []
