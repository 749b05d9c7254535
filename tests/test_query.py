"""The search query language (core.query): what each form parses to, how it reads back,
what it matches on hand-made papers, and that no input makes it raise."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from papershelf.core.query import (
    FIELDS,
    FLAGS,
    HELP,
    TYPED_PREFIX,
    And,
    Everything,
    Exact,
    Flag,
    Node,
    Not,
    Or,
    Range,
    Searchable,
    Text,
    evaluate,
    parse,
    parts_read,
    typed_words,
    words,
)
from papershelf.core.querywords import describe
from papershelf.core.shapes import (
    ANNOTATIONS,
    BIB_FIELDS,
    FILES,
    KEY,
    NOTES,
    PRIVATE_ANNOTATIONS,
    PROGRESS,
    READ_STATE,
    STARRED,
    TAGS,
)

UTC = timezone.utc
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def p(query: str, typing: bool = False) -> Node:
    return parse(query, typing=typing, now=NOW)


def t(*found: str, field: str | None = None, prefix: bool = False) -> Text:
    return Text(field, found, prefix)


def day(year: int, month: int = 1, on: int = 1) -> datetime:
    return datetime(year, month, on, tzinfo=UTC)


# -- words ------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Transformer-XL", ("transformer", "xl")),
    ("Café Ünïcode naïve", ("cafe", "unicode", "naive")),
    ("snake_case ﬁne", ("snake", "case", "fine")),
    ("Straße", ("straße",)),  # lower-cased as the databases do, not case-folded
    ("10.1000/x:y", ("10", "1000", "x", "y")),
    ("  ,;!  ", ()),
    ("日本語 テキスト", ("日本語", "テキスト")),
])
def test_words_are_split_and_folded_like_the_indexes(text: str, expected: tuple[str, ...]) -> None:
    assert words(text) == expected


# -- parsing: every form ------------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("deep", t("deep")),
    ("deep learning", And((t("deep"), t("learning")))),
    ('"deep learning"', t("deep", "learning")),
    ('"deep lea*"', t("deep", "lea", prefix=True)),
    ("vari*", t("vari", prefix=True)),
    ("transformer-xl", t("transformer", "xl")),
    ("author:Hinton", t("hinton", field="author")),
    ("au:hinton", t("hinton", field="author")),
    ("AUTHOR:hinton", t("hinton", field="author")),
    ('author:"van der Berg"', t("van", "der", "berg", field="author")),
    ("author:hin*", t("hin", field="author", prefix=True)),
    ("title:bert", t("bert", field="title")),
    ("abstract:attention", t("attention", field="abstract")),
    ("venue:NeurIPS", t("neurips", field="venue")),
    ("notes:reread", t("reread", field="notes")),
    ('pdf:"lemma 3"', t("lemma", "3", field="pdf")),
    ('tag:"To Read"', Exact("tag", "to read")),
    ("tag:ml*", Exact("tag", "ml", prefix=True)),
    ("key:Smith2020", Exact("key", "smith2020")),
    ("key:smith*", Exact("key", "smith", prefix=True)),
    ("doi:10.1000/ABC:x-1", Exact("doi", "10.1000/abc:x-1")),
    ("doi:https://doi.org/10.1000/x", Exact("doi", "10.1000/x")),
    ("(doi:10.1002/(SICI)1097)", Exact("doi", "10.1002/(sici)1097")),
    ("type:Article", Exact("type", "article")),
    ("is:starred", Flag("is", "starred")),
    ("is:unread", Flag("is", "unread")),
    ("is:reading", Flag("is", "reading")),
    ("is:read", Flag("is", "read")),
    ("is:provisional", Flag("is", "provisional")),
    ("has:pdf", Flag("has", "pdf")),
    ("has:notes", Flag("has", "notes")),
    ("has:doi", Flag("has", "doi")),
    ("has:abstract", Flag("has", "abstract")),
    ("year:2024", Range("year", 2024, 2025)),
    ("year:2020..2024", Range("year", 2020, 2025)),
    ("year:2024..2020", Range("year", 2020, 2025)),
    ("year:2020..", Range("year", 2020, None)),
    ("year:..2024", Range("year", None, 2025)),
    ("year:>=2022", Range("year", 2022, None)),
    ("year:>2022", Range("year", 2023, None)),
    ("year:<2022", Range("year", None, 2022)),
    ("year:<=2022", Range("year", None, 2023)),
    ("year:=2022", Range("year", 2022, 2023)),
    ("added:2026", Range("added", day(2026), day(2027))),
    ("added:2026-11", Range("added", day(2026, 11), day(2026, 12))),
    ("added:2026-12", Range("added", day(2026, 12), day(2027))),
    ("added:2026-11-05", Range("added", day(2026, 11, 5), day(2026, 11, 6))),
    ("added:>=2026-01-01", Range("added", day(2026), None)),
    ("added:>2026-01-01", Range("added", day(2026, 1, 2), None)),
    ("added:<2026-11", Range("added", None, day(2026, 11))),
    ("added:<=2026-11", Range("added", None, day(2026, 12))),
    ("added:2026-01..2026-03", Range("added", day(2026), day(2026, 4))),
    ("read:2025..", Range("read", day(2025), None)),
    ("read:2026-02-28", Range("read", day(2026, 2, 28), day(2026, 3, 1))),
])
def test_every_form_parses_to_its_tree(query: str, expected: Node) -> None:
    assert p(query) == expected


@pytest.mark.parametrize(("query", "since", "before"), [
    ("added:<30d", NOW - timedelta(days=30), None),
    ("added:<=30d", NOW - timedelta(days=30), None),
    ("added:30d", NOW - timedelta(days=30), None),
    ("added:>30d", None, NOW - timedelta(days=30)),
    ("added:<2w", NOW - timedelta(days=14), None),
    ("added:<1m", datetime(2026, 11, 3, 12, tzinfo=UTC), None),
    ("added:<10m", datetime(2026, 2, 3, 12, tzinfo=UTC), None),
    ("added:>2y", None, datetime(2024, 12, 3, 12, tzinfo=UTC)),
])
def test_relative_dates_count_back_from_now(query: str, since: datetime | None,
                                            before: datetime | None) -> None:
    assert p(query) == Range("added", since, before)
    assert p(query.replace("added", "read")) == Range("read", since, before)


def test_a_month_back_keeps_to_the_shorter_month() -> None:
    march_31 = datetime(2026, 3, 31, 9, tzinfo=UTC)
    assert parse("added:<1m", now=march_31) == Range("added", datetime(2026, 2, 28, 9,
                                                                      tzinfo=UTC), None)


def test_calendar_dates_are_in_nows_time_zone() -> None:
    tokyo = timezone(timedelta(hours=9))
    assert parse("added:2026-11-05", now=datetime(2026, 12, 3, tzinfo=tokyo)) == Range(
        "added", datetime(2026, 11, 5, tzinfo=tokyo), datetime(2026, 11, 6, tzinfo=tokyo))
    naive = parse("added:<1d", now=datetime(2026, 12, 3))
    assert naive == Range("added", datetime(2026, 12, 2, tzinfo=UTC), None)


@pytest.mark.parametrize(("query", "expected"), [
    ("a b OR c", Or((And((t("a"), t("b"))), t("c")))),
    ("a OR b c", Or((t("a"), And((t("b"), t("c")))))),
    ("a | b", Or((t("a"), t("b")))),
    ("a|b", Or((t("a"), t("b")))),
    ("a AND b", And((t("a"), t("b")))),
    ("a (b OR c)", And((t("a"), Or((t("b"), t("c")))))),
    ("-survey", Not(t("survey"))),
    ("NOT survey", Not(t("survey"))),
    ("-author:hinton", Not(t("hinton", field="author"))),
    ('-"deep learning"', Not(t("deep", "learning"))),
    ("-(a OR b) c", And((Not(Or((t("a"), t("b")))), t("c")))),
    ("NOT a OR b", Or((Not(t("a")), t("b")))),
    ("NOT NOT a", Not(Not(t("a")))),
    ("a OR b OR c", Or((t("a"), t("b"), t("c")))),
    ("(a b) (c d)", And((t("a"), t("b"), t("c"), t("d")))),
    ("and or not", And((t("and"), t("or"), t("not")))),
    ("a or b", And((t("a"), t("or"), t("b")))),
    ("author:NOT", t("not", field="author")),
    ('"a OR b"', t("a", "or", "b")),
])
def test_operators_group_and_bind(query: str, expected: Node) -> None:
    assert p(query) == expected


# -- forgiving -------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("foo:bar", t("foo", "bar")),
    ("bert:", t("bert")),
    ("10.1000/x:y", t("10", "1000", "x", "y")),
    ("Attention: all you need", And((t("attention"), t("all"), t("you"), t("need")))),
    ("year:abc", t("year", "abc")),
    ("year:20..x", t("year", "20", "x")),
    ("year:12345", t("year", "12345")),
    ('year:"abc"', t("year", "abc")),
    ("is:whatever", t("is", "whatever")),
    ("has:wings", t("has", "wings")),
    ("added:<xyz", t("added", "xyz")),
    ("added:2026-13", t("added", "2026", "13")),
    ("added:2026-00", t("added", "2026", "00")),
    ("added:2026-11-00", t("added", "2026", "11", "00")),
    ("added:2026-02-30", t("added", "2026", "02", "30")),
    ("added:7d..30d", t("added", "7d", "30d")),
    ("added:<999999y", t("added", "999999y")),
    ("added:9999-12", t("added", "9999", "12")),
    ("title:--", t("title")),
    ("title:***", Everything()),
    ("author:", Everything()),
    ('title:"', Everything()),
    ("key:*", Everything()),
    ("(a OR b", Or((t("a"), t("b")))),
    ("a)) b", And((t("a"), t("b")))),
    (")(", Everything()),
    ("()", Everything()),
    ('"unclosed phrase', t("unclosed", "phrase")),
    ('"', Everything()),
    ('""', Everything()),
    ("a OR", t("a")),
    ("OR a", t("a")),
    ("a OR OR b", Or((t("a"), t("b")))),
    ("a NOT", t("a")),
    ("NOT", Everything()),
    ("NOT * b", t("b")),
    ("- a", t("a")),
    ("-", Everything()),
    ("--a", Not(Not(t("a")))),
    ("-) a", t("a")),
    ("", Everything()),
    ("   ", Everything()),
    ("* ; !", Everything()),
])
def test_anything_parses(query: str, expected: Node) -> None:
    assert p(query) == expected


# -- typing ----------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("vari", t("vari", prefix=True)),
    ("deep vari", And((t("deep"), t("vari", prefix=True)))),
    ("vari ", t("vari")),
    ("(deep vari)", And((t("deep"), t("vari")))),
    ("(deep vari", And((t("deep"), t("vari", prefix=True)))),
    ('"deep lea', t("deep", "lea", prefix=True)),
    ('"deep lea ', t("deep", "lea")),
    ('"deep lea"', t("deep", "lea")),
    ("author:hin", t("hin", field="author", prefix=True)),
    ('author:"van der', t("van", "der", field="author", prefix=True)),
    ('author:"van de', t("van", "de", field="author")),  # (two letters: a whole word)
    ("gr", t("gr")), ("gra", t("gra", prefix=True)), ("c", t("c")), ("c*", t("c", prefix=True)),
    ('author:"van de"', t("van", "de", field="author")),
    ("key:smi", Exact("key", "smi", prefix=True)),
    ("year:2024", Range("year", 2024, 2025)),
    ("is:starred", Flag("is", "starred")),
    ("-vari", Not(t("vari", prefix=True))),
    ("a OR", t("a")),
])
def test_typing_makes_the_last_word_a_prefix(query: str, expected: Node) -> None:
    assert p(query, typing=True) == expected


def test_without_typing_no_word_is_a_prefix() -> None:
    assert p("deep vari") == And((t("deep"), t("vari")))
    assert p('"deep lea') == t("deep", "lea")


# -- describe --------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "reading"), [
    ("author:hinton year:2020..2024 -survey", "author “hinton” and year 2020–2024, not “survey”"),
    ("a b OR c*", "(“a” and “b”) or “c…”"),
    ("-(a | b) -c", "not (“a” or “b”), not “c”"),
    ('tag:"to read" has:pdf is:starred', "tag “to read” and with a PDF and starred"),
    ("doi:10.1000/X key:smi*", "DOI “10.1000/x” and key “smi…”"),
    ("year:2024", "year 2024"),
    ("year:>=2022", "year 2022 or later"),
    ("year:<2022", "year 2021 or earlier"),
    ("added:2026-11", "added in 2026-11"),
    ("added:2026", "added in 2026"),
    ("read:2026-11-05", "read on 2026-11-05"),
    ("added:2026-01..2026-03", "added from 2026-01-01 to 2026-03-31"),
    ("added:>=2026-01-01", "added since 2026-01-01"),
    ("added:<30d", "added since 2026-11-03 12:00"),
    ("added:>30d", "added before 2026-11-03 12:00"),
    ("pdf:lemma", "PDF text “lemma”"),
    ("is:reading -is:provisional has:notes", "being read and with notes, not provisional"),
    ("added:0005-03", "added in 0005-03"),
    ("", "everything"),
])
def test_describe_reads_the_tree_back(query: str, reading: str) -> None:
    assert describe(p(query)) == reading


# -- evaluate --------------------------------------------------------------------------

PAPER = Searchable(
    added=datetime(2026, 11, 20, tzinfo=UTC), title="Variational Inference: A Review",
    authors=("Geoffrey Hinton", "Yann LeCun"), abstract="We survey méthodes variationnelles.",
    venue="Journal of Machine Learning Research", notes="  ", tags=("To Read", "ml"),
    pdf_text="Lemma 3 holds.", key="Hinton2020", doi="10.1000/ABC:x", entry_type="article",
    starred=True, read_state="reading", has_pdf=True, year=2020)
OTHER = Searchable(added=datetime(2025, 1, 5, tzinfo=UTC), title="Transformer-XL",
                   venue="ACL", notes="reread section 2", read_state="read",
                   read_at=datetime(2026, 11, 5, 10, tzinfo=UTC), provisional=True)


@pytest.mark.parametrize(("query", "paper", "other"), [
    ("variational", True, False),
    ("vari*", True, False),
    ("vari", False, False),
    ('"variational inference"', True, False),
    ('"inference variational"', False, False),
    ('"review variational"', False, False),
    ("methodes", True, False),  # diacritics dropped on both sides
    ("hinton yann", True, False),
    ('"hinton yann"', True, False),  # the authors are one text, as authors_text is
    ('"to read"', True, False),
    ("lemma", True, False),
    ("reread", False, True),
    ("journal", False, False),  # the venue is not among the texts searched by default
    ("hinton2020", False, False),  # nor the key
    ("venue:journal", True, False),
    ("venue:acl", False, True),
    ("author:hinton", True, False),
    ("author:variational", False, False),
    ("title:transformer-xl", False, True),
    ('title:"xl transformer"', False, False),
    ("abstract:survey", True, False),
    ("notes:section", False, True),
    ("pdf:lemma", True, False),
    ("transformer-xl", False, True),
    ("tag:ml", True, False),
    ('tag:"to read"', True, False),
    ("tag:to", False, False),
    ("tag:to*", True, False),
    ("key:hinton2020", True, False),
    ("key:hin*", True, False),
    ("key:hin", False, False),
    ("doi:10.1000/abc:X", True, False),
    ("doi:10.1000/abc", False, False),
    ("type:article", True, False),
    ("is:starred", True, False),
    ("is:unread", False, False),
    ("is:reading", True, False),
    ("is:read", False, True),
    ("is:provisional", False, True),
    ("has:pdf", True, False),
    ("has:notes", False, True),
    ("has:doi", True, False),
    ("has:abstract", True, False),
    ("year:2020", True, False),
    ("year:2021..", False, False),
    ("-year:2021..", True, True),  # no year: outside every range, so inside its negation
    ("year:..2020", True, False),
    ("added:<30d", True, False),
    ("added:>30d", False, True),
    ("added:2026-11", True, False),
    ("added:2025", False, True),
    ("read:2026-11-05", False, True),
    ("read:<1y", False, True),
    ("hinton -survey", False, False),
    ("hinton OR reread", True, True),
    ("-(hinton OR reread)", False, False),
    ("", True, True),
    ("NOT", True, True),
])
def test_evaluate_on_papers(query: str, paper: bool, other: bool) -> None:
    assert (evaluate(p(query), PAPER), evaluate(p(query), OTHER)) == (paper, other)


# -- what a query reads -------------------------------------------------------------------


@pytest.mark.parametrize(("query", "parts"), [
    ("", set()),
    ("  ", set()),
    ("*", set()),
    # plain words: every text indexed, and the annotations the user sees
    ("transformer", {BIB_FIELDS, NOTES, TAGS, FILES, ANNOTATIONS, PRIVATE_ANNOTATIONS}),
    ("author:hinton", {BIB_FIELDS}),
    ("venue:neurips title:attention", {BIB_FIELDS}),
    ("notes:todo", {NOTES}),
    ("pdf:lemma", {FILES}),
    ("key:smith*", {KEY}),
    ('tag:"to read"', {TAGS}),
    ("doi:10.1000/x type:article year:2020..2024", {BIB_FIELDS}),
    ("is:starred", {STARRED}),
    ("-is:unread", {READ_STATE}),
    ("is:provisional", {BIB_FIELDS}),
    ("has:pdf", {FILES}),
    ("has:notes OR has:abstract", {NOTES, BIB_FIELDS}),
    ("read:<7d", {READ_STATE}),
    ("added:<30d", set()),  # (a paper's added date never changes)
    ("is:starred (tag:a OR key:b)", {STARRED, TAGS, KEY}),
    ("lastread:<7d", {PROGRESS}),
    ("this:is not a field",  # (read as words)
     {BIB_FIELDS, NOTES, TAGS, FILES, ANNOTATIONS, PRIVATE_ANNOTATIONS}),
])
def test_parts_read_are_what_the_terms_look_at(query: str, parts: set[str]) -> None:
    assert parts_read(query) == parts


TERMS = ("attention", "hinton", "todo", "lemma", "smith2020", "is:starred", "is:read",
         "-is:unread", "is:provisional", "has:pdf", "has:notes", "has:doi", "has:abstract",
         'tag:"to read"', "key:smith*", "author:hinton", "title:attention", "venue:neurips",
         "notes:todo", "pdf:lemma", "doi:10.1/x", "type:article", "year:2020",
         "read:<7d", "added:<30d", "OR", "NOT", "(", ")", "-")


@given(st.lists(st.sampled_from(TERMS), max_size=6).map(" ".join))
def test_a_query_reads_every_part_its_answer_can_change_with(query: str) -> None:
    """A change of the parts a query does not read never changes whom it finds."""
    paper = Searchable(added=NOW, title="Attention", authors=("Hinton, Geoffrey",),
                       abstract="about", venue="NeurIPS", notes="todo", tags=("to read",),
                       pdf_text="lemma", key="smith2020", doi="10.1/x", entry_type="article",
                       starred=True, read_state="read", read_at=NOW, has_pdf=True,
                       year=2020)
    edits = {STARRED: {"starred": False},
             READ_STATE: {"read_state": "unread", "read_at": None},
             NOTES: {"notes": ""}, TAGS: {"tags": ()}, KEY: {"key": "other"},
             FILES: {"pdf_text": "", "has_pdf": False},
             BIB_FIELDS: {"title": "", "authors": (), "abstract": "", "venue": "", "doi": "",
                     "entry_type": "misc", "provisional": True, "year": None}}
    node, read = parse(query), parts_read(query)
    for part, edit in edits.items():
        if part not in read:
            assert evaluate(node, paper) == evaluate(node, replace(paper, **edit)), part


# -- the language's names ----------------------------------------------------------------


def test_fields_and_help_name_every_field() -> None:
    assert FIELDS["au"] == "author" and set(FIELDS.values()) <= set(FIELDS)
    for name in FIELDS:
        assert f"{name}:" in HELP
    for field, values in FLAGS.items():
        for value in values:
            assert f"{field}:{value}" in HELP


# -- never raises --------------------------------------------------------------------------

PIECES = st.sampled_from([
    *(f"{name}:" for name in FIELDS), *(f"{f}:{v}" for f, vs in FLAGS.items() for v in vs),
    "OR", "AND", "NOT", "or", "|", "-", "(", ")", '"', "*", "..", ">=", "<=", ">", "<", "=",
    "2024", "2026-11", "2026-11-05", "30d", "2m", "1y", "9999", "0000", "10.1000/x:y",
    "hinton", "é", "_", "日本", " ", "  ", "\t", "\n",
])
QUERIES = st.text() | st.lists(PIECES | st.text(max_size=3), max_size=12).map("".join)
NOWS = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31),
                    timezones=st.just(UTC))
RECORDS = st.builds(
    Searchable, added=NOWS, title=st.text(), authors=st.lists(st.text(), max_size=3),
    abstract=st.text(), notes=st.text(), tags=st.lists(st.text(), max_size=3),
    key=st.text(), doi=st.text(), year=st.none() | st.integers(0, 9999),
    read_at=st.none() | NOWS, read_state=st.sampled_from(["unread", "reading", "read"]))


@settings(max_examples=300, deadline=None)
@given(query=QUERIES, typing=st.booleans(), now=NOWS, record=RECORDS)
def test_no_query_raises(query: str, typing: bool, now: datetime, record: Searchable) -> None:
    node = parse(query, typing=typing, now=now)
    assert isinstance(describe(node), str)
    assert isinstance(evaluate(node, record), bool)
    _check_shape(node, top=True)


def _check_shape(node: Node, top: bool = False) -> None:
    """The tree's promises: no empty phrase, And/Or of two or more and not nested in their
    own kind, Everything only as the whole tree."""
    if isinstance(node, Everything):
        assert top
    elif isinstance(node, Text):
        assert node.words
    elif isinstance(node, Not):
        _check_shape(node.node)
    elif isinstance(node, (And, Or)):
        assert len(node.nodes) >= 2
        for child in node.nodes:
            assert not isinstance(child, type(node))
            _check_shape(child)


@pytest.mark.parametrize("query", [
    "(" * 10_000 + "a", "-" * 10_000 + "a", "NOT " * 5_000 + "a", "(-" * 5_000 + "a",
    "(a " * 3_000 + ")" * 3_000,
])
def test_deep_nesting_reads_flat_rather_than_overflow(query: str) -> None:
    node = p(query)
    assert isinstance(describe(node), str)
    evaluate(node, PAPER)


@settings(max_examples=200, deadline=None)
@given(title=st.text())
def test_a_quoted_title_finds_its_paper(title: str) -> None:
    node = p('"' + title.replace('"', " ") + '"')
    record = Searchable(added=NOW, title=title)
    assert evaluate(node, record)  # (a title without words: the query is Everything)
    assert isinstance(node, Text) is bool(words(title))


@settings(max_examples=200, deadline=None)
@given(word=st.text(st.characters(categories=["L", "Nd"]), min_size=3, max_size=8),
       rest=st.text(st.characters(categories=["Ll"]), max_size=5))
def test_a_word_being_typed_finds_the_words_it_starts(word: str, rest: str) -> None:
    assume(all(len(w) >= TYPED_PREFIX for w in typed_words(word)[-1:]))
    record = Searchable(added=NOW, abstract=f"see {word}{rest} here")
    assert evaluate(p(word, typing=True), record)
    assert evaluate(p(f"-{word}", typing=True), record) is (not words(word))
