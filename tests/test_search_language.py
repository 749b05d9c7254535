"""The search language (issue 26) on the databases: for random libraries and random
queries of the language, a view's papers are exactly those core.query's plain-Python
`evaluate` finds in the same records, on SQLite's FTS5 index and on PostgreSQL's."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.core import query, querywords
from papershelf.core.annotating import New
from papershelf.core.library import Library, View
from papershelf.core.query import Searchable
from papershelf.formats.records import Author, PaperRecord, ReadResult

WORDS = ("graph", "graphs", "neural", "network", "networks", "diffusion", "model",
         "Émile", "zebra", "learning", "deep", "Erdős")
FAMILIES = ("Hinton", "LeCun", "Zola", "Ünal", "Graph")
VENUES = ("", "ICML", "Neural Networks", "Journal of Deep Learning", "NeurIPS")
TAGS = ("to read", "Thesis", "graphs")
TYPES = ("article", "inproceedings", "misc")

texts = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
records = st.builds(
    lambda n, title, authors, abstract, venue, year, doi, entry_type: PaperRecord(
        entry_type=entry_type, key=f"paper{n}", title=title or "untitled",
        authors=[Author(family, given) for family, given in authors], abstract=abstract,
        venue=venue, year=year, doi=doi),
    st.integers(0, 10_000), texts, st.lists(st.tuples(st.sampled_from(FAMILIES),
                                                      st.sampled_from(("", "Ann", "Bo"))),
                                            max_size=3),
    texts, st.sampled_from(VENUES), st.none() | st.integers(2018, 2025),
    st.sampled_from(("", "10.1000/abc", "10.1000/XYZ.1")), st.sampled_from(TYPES))
# What a user does to the papers after the import (index into the papers, a value).
actions = st.lists(st.tuples(st.sampled_from(("star", "read", "reading", "tag", "notes",
                                              "file", "annotate")),
                             st.integers(0, 20), st.sampled_from((*TAGS, *WORDS))),
                   max_size=6)


def _word(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(WORDS))
    return word[:draw(st.integers(2, len(word)))] + "*" if draw(st.booleans()) else word


@st.composite
def atoms(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(("word", "word", "phrase", "field", "year", "flag", "exact",
                                 "added", "junk")))
    if kind == "word":
        return _word(draw)
    if kind == "phrase":
        return '"' + " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1,
                                            max_size=2))) + '"'
    if kind == "field":
        field = draw(st.sampled_from(("author", "au", "title", "abstract", "venue",
                                      "notes", "pdf")))
        value = _word(draw) if draw(st.booleans()) else draw(st.sampled_from(FAMILIES))
        return f"{field}:{value}"
    if kind == "year":
        return draw(st.sampled_from(("year:2020", "year:2019..2022", "year:>=2023",
                                     "year:<2021", "year:2024..")))
    if kind == "flag":
        return draw(st.sampled_from(("is:starred", "is:unread", "is:reading", "is:read",
                                     "is:provisional", "has:notes", "has:doi",
                                     "has:abstract", "has:pdf")))
    if kind == "added":
        return draw(st.sampled_from(("added:<30d", "added:>1d", "read:<7d",
                                     "added:2020")))
    if kind == "exact":
        return draw(st.sampled_from(('tag:"to read"', "tag:thesis", "key:paper1*",
                                     "doi:10.1000/abc", "doi:10.1000/xyz.1", "type:misc",
                                     "type:article")))
    return draw(st.sampled_from(("foo:bar", "10.1000/x:y", "-", "*", "graph:")))


@st.composite
def queries(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        part = draw(atoms()) if depth >= 2 or draw(st.booleans()) else \
            "(" + draw(queries(depth + 1)) + ")"
        if draw(st.integers(0, 4)) == 0:
            part = draw(st.sampled_from(("-", "NOT "))) + part
        parts.append(part)
    joins = [draw(st.sampled_from((" ", " ", " OR ", " | ", " AND "))) for _ in parts[1:]]
    return parts[0] + "".join(j + p for j, p in zip(joins, parts[1:], strict=True))


FILES = itertools.count()


def fill(library: Library, papers: list[PaperRecord], done: list[tuple[str, int, str]],
         folder: Path | None = None, marks: dict[int, list[str]] | None = None
         ) -> tuple[list[int], dict[int, list[str]]]:
    """The library holding these papers (and nothing else), with the user's actions;
    and the text of the files attached to each (and in `marks`, of its annotations)."""
    texts: dict[int, list[str]] = {}
    old = library.view_ids()
    if old:
        # (their annotations first: on a server a deleted paper's are kept for its undo,
        # and a new paper given its id would get them back)
        library.remove_annotations([mark.id for marks in library.annotations_of(old).values()
                                    for mark in marks])
        library.delete_papers(old)
    library.import_result(ReadResult(records=papers), "drawn", "bibtex")
    library.index_pending()
    ids = library.view_ids()
    for what, n, value in done:
        if not ids:
            break
        pid = ids[n % len(ids)]
        if what == "star":
            library.set_starred([pid], True)
        elif what in ("read", "reading"):
            library.set_read_state([pid], what)
        elif what == "tag" and value in TAGS:
            library.add_tags([pid], [value])
        elif what == "notes":
            library.set_notes(pid, value)
        elif what == "file" and folder is not None:  # a file whose text is the word
            number = next(FILES)
            path = folder / f"file{number}.pdf"
            path.write_bytes(f"%PDF-1.4 {number}".encode())
            library.attach_file(pid, path)
            latest = max(library.attachments(pid), key=lambda a: a.id)
            library.set_file_texts({latest.id: f"see the {value} here"})
            texts.setdefault(pid, []).append(f"see the {value} here")
        elif what == "annotate" and marks is not None:  # (plain words find it too)
            library.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)],
                                            comment=f"noted {value} here"))
            marks.setdefault(pid, []).append(f"noted {value} here")
    return ids, texts


def searchable(library: Library, ids: list[int], texts: dict[int, list[str]],
               marks: dict[int, list[str]] | None = None) -> dict[int, Searchable]:
    marks = marks or {}
    tags = library.tags_of(ids)
    return {d.id: Searchable(
        added=d.added_at if d.added_at.tzinfo else d.added_at.replace(tzinfo=timezone.utc),
        title=d.record.title, authors=[a.display() for a in d.record.authors],
        abstract=d.record.abstract, venue=d.record.venue, notes=d.record.notes,
        tags=tags.get(d.id, []), key=d.key, doi=d.record.doi,
        pdf_text=" ".join(texts.get(d.id, [])), has_pdf=bool(texts.get(d.id)),
        annotations=" | ".join(marks.get(d.id, [])), has_annotations=bool(marks.get(d.id)),
        entry_type=d.record.entry_type, starred=d.starred, read_state=d.read_state,
        provisional=d.record.title_provisional, year=d.record.year,
        read_at=(d.read_at if d.read_at is None or d.read_at.tzinfo
                 else d.read_at.replace(tzinfo=timezone.utc)))
        for d in library.details(ids)}


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(papers=st.lists(records, min_size=1, max_size=8, unique_by=lambda r: r.key),
       done=actions, wanted=st.lists(queries(), min_size=1, max_size=6))
def test_a_views_search_finds_what_the_language_means(
        library: Library, tmp_path: Path, papers: list[PaperRecord],
        done: list[tuple[str, int, str]], wanted: list[str]) -> None:
    marks: dict[int, list[str]] = {}
    ids, texts = fill(library, papers, done, tmp_path, marks)
    shown = searchable(library, ids, texts, marks)
    for text in wanted:
        for typing in (False, True):
            tree = query.parse(text, typing=typing)
            expected = {pid for pid, paper in shown.items() if query.evaluate(tree, paper)}
            for sort in ("added", "title"):
                view = View(search=text, typing=typing, sort=sort)
                found = library.view_ids(view)
                assert set(found) == expected, (text, typing, sort, querywords.describe(tree),
                                                shown, texts)
                assert len(found) == len(set(found))
            assert library.count(View(search=text, typing=typing)) == len(expected)
            first = library.view_ids(View(search=text, typing=typing), limit=2)
            assert first == sorted(expected)[:2]


def test_fields_negation_and_or_on_a_small_library(library: Library) -> None:
    ids, _texts = fill(library, [
        PaperRecord(key="a", title="Graph neural networks", authors=[Author("Hinton", "G")],
                    venue="ICML", year=2020, abstract="We study diffusion."),
        PaperRecord(key="b", title="Diffusion models", authors=[Author("LeCun", "Y")],
                    venue="NeurIPS", year=2024, doi="10.1000/abc"),
        PaperRecord(key="c", title="Zebra learning", authors=[Author("Zola", "É")],
                    entry_type="article", venue="Journal of Deep Learning", year=2022),
    ], [("star", 2, "")])
    a, b, c = ids

    def found(text: str, typing: bool = False) -> list[int]:
        return library.view_ids(View(search=text, typing=typing))

    assert found("au:hinton") == [a]
    assert found("diffusion") == [a, b] and found("title:diffusion") == [b]
    assert found("-diffusion") == [c] and found("NOT title:diffusion") == [a, c]
    assert found("zebra OR hinton") == [a, c] and found("zebra | year:2024") == [b, c]
    assert found("venue:neurips") == [b] and found("venue:learning") == [c]
    assert found("year:2021..2024") == [b, c] and found("year:>=2024") == [b]
    assert found("is:starred") == [c] and found("-is:starred graph") == [a]
    assert found("doi:https://doi.org/10.1000/ABC") == [b] and found("has:doi") == [b]
    assert found("type:article") == [c] and found("key:a") == [a]
    assert found("(zebra OR graph) year:<2021") == [a]
    assert found("netw", typing=True) == [a] and found("netw") == []  # as typed
    assert found("10.1000/x:y") == []  # (plain words: none of the papers has them)
    assert found("added:<1d") == [a, b, c] and found("added:>1d") == []
    week = (datetime.now(timezone.utc) - timedelta(days=7)).strftime("%Y-%m-%d")
    assert found(f"added:>={week}") == [a, b, c]
    # A first page of words and a tag (PostgreSQL estimates it with the tag's ids listed).
    library.add_tags([a], ["to read"])
    assert library.view_ids(View(search='graph tag:"to read"'), limit=10) == [a]


@pytest.mark.parametrize("text", ["foo:bar", "(((", '"unclosed', "OR", "NOT", "-", "*",
                                  "year:abc", "is:whatever", "added:<xyz", ")", "au:"])
def test_odd_queries_never_fail(library: Library, text: str) -> None:
    fill(library, [PaperRecord(key="a", title="Graph networks")], [])  # (no files)
    assert isinstance(library.view_ids(View(search=text)), list)
    assert isinstance(library.count(View(search=text, typing=True)), int)


def test_the_word_being_typed_is_saved_as_the_prefix_it_was_searched_as() -> None:
    """What the search field finds while a word is typed, written as a query that finds
    the same papers read whole (a saved search, the command line)."""
    from papershelf.core.query import as_typed, parse
    for typed, whole in [("quant", "quant*"), ("deep quant", "deep quant*"),
                         ("author:hin", "author:hin*"), ('"deep lea', '"deep lea*"'),
                         ("quant ", "quant "), ("qu", "qu"), ("quant*", "quant*"),
                         ("year:2024", "year:2024"), ("(graph OR quant)", "(graph OR quant)"),
                         ("", "")]:
        assert as_typed(typed) == whole, typed
        assert parse(whole) == parse(typed, typing=True), typed
