"""Reading "abstract list" files (heading + one abstract per paragraph) and titling them."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.formats.abstracts import (
    _not_prose_reason,
    _Paragraph,
    parse_abstract_list,
    read_abstract_list,
)
from papershelf.formats.records import FormatError
from papershelf.formats.titles import _sentences, provisional_title

SEEDS = Path(__file__).parent.parent / "seeds"
SEED_FILES = sorted(SEEDS.glob("*.txt"))


def _paragraphs_of(path: Path) -> list[str]:
    """The abstracts of a seed file, split independently of the reader under test."""
    text = path.read_text(encoding="utf-8")
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    assert paragraphs[0].startswith("ICML 2024")
    return paragraphs[1:]


def _seed_abstracts() -> list[str]:
    return [a for path in SEED_FILES for a in _paragraphs_of(path)]


def _list_bytes(abstracts: list[str], heading: str | None = "ICML 2024 论文列表") -> bytes:
    parts = ([heading] if heading is not None else []) + abstracts
    return "\n\n".join(parts).encode("utf-8") + b"\n"


# ----------------------------------------------------------------------- seed files


def test_seed_files_give_38_records_with_venue_year_and_exact_abstracts() -> None:
    assert len(SEED_FILES) == 2
    total = 0
    for path in SEED_FILES:
        result = read_abstract_list(path)
        expected = _paragraphs_of(path)
        assert len(result.records) == len(expected) == 19
        assert result.problems == []
        assert [r.abstract for r in result.records] == expected
        for record in result.records:
            assert record.venue == "ICML"
            assert record.year == 2024
            assert record.entry_type == "inproceedings"
            assert record.title_provisional is True
            assert record.key is None
            assert record.raw == {}
            assert record.authors == []
        total += len(result.records)
    assert total == 38


def test_source_line_points_at_the_start_of_each_abstract() -> None:
    path = SEED_FILES[0]
    lines = path.read_text(encoding="utf-8").split("\n")
    for record in read_abstract_list(str(path)).records:
        assert record.source_line is not None
        assert lines[record.source_line - 1].strip() == record.abstract


def test_seed_titles_are_distinct_short_and_readable() -> None:
    records = [r for path in SEED_FILES for r in read_abstract_list(path).records]
    titles = [r.title for r in records]
    assert len(set(titles)) == 38
    for title in titles:
        assert 0 < len(title) <= 100
        assert title == title.strip()
        assert title[-1] not in ".,;:!?-"
        assert title.count("$") % 2 == 0
        assert not title.startswith(("In this paper", "In this work", "We ", "This paper"))
        first_word = title.split()[0]
        # Capitalized, unless it starts with a coined name such as 'r2SGLD'.
        assert title[0].isupper() or first_word != first_word.lower()


@pytest.mark.parametrize(
    "name", ["FrameQuant", "HarmonyDream", "EE-LLM", "TROVE", "StyDeSty", "Reprompting", "PACE"]
)
def test_titles_of_named_methods_start_with_the_name(name: str) -> None:
    abstracts = [a for a in _seed_abstracts() if name in a]
    assert abstracts, name
    assert provisional_title(abstracts[0]).startswith(f"{name}:")


def test_titles_drop_lead_ins_and_keep_the_contribution() -> None:
    by_start = {a[:40]: provisional_title(a) for a in _seed_abstracts()}
    temporal = next(t for k, t in by_start.items() if k.startswith("Temporal distances"))
    assert temporal.startswith("Successor features learned by contrastive learning")
    position = next(t for k, t in by_start.items() if k.startswith("In this position paper"))
    assert position.startswith("Application-driven research")


def test_provisional_title_respects_max_len_and_is_deterministic() -> None:
    for abstract in _seed_abstracts():
        for max_len in (20, 50, 100):
            title = provisional_title(abstract, max_len=max_len)
            assert 0 < len(title) <= max_len
            assert title == provisional_title(abstract, max_len=max_len)


def test_provisional_title_is_fast() -> None:
    abstracts = _seed_abstracts() * 10
    start = time.perf_counter()
    for abstract in abstracts:
        provisional_title(abstract)
    per_abstract = (time.perf_counter() - start) / len(abstracts)
    assert per_abstract < 0.005  # budget is ~1 ms; generous for slow CI machines


def test_sentences_do_not_end_at_abbreviations_or_initials() -> None:
    text = (
        "We use e.g. Adam (cf. Fig. 2) as J. Smith et al. did. Results improve! "
        "Is it “Good?” Yes. We propose approx. 3 layers. A.k.a. Foo."
    )
    assert _sentences(text) == [
        "We use e.g. Adam (cf. Fig. 2) as J. Smith et al. did.",
        "Results improve!",
        "Is it “Good?",
        "Yes.",
        "We propose approx. 3 layers.",
        "A.k.a.",
        "Foo.",
    ]


def test_short_paragraph_reports_all_its_words() -> None:
    letters = " ".join("abcdefghijklmnopqrstuvwxyz") + " "
    short = _Paragraph(5, [(letters * 2).strip()])
    assert _not_prose_reason(short) == "too short for an abstract (103 characters, 52 words)"
    digits = _Paragraph(5, ["word " * 40 + "1234567890" * 30])
    assert _not_prose_reason(digits) == "mostly digits and symbols, not prose"


# ------------------------------------------------------------------- robust input


def test_bom_crlf_cr_blank_lines_and_trailing_spaces_are_tolerated(tmp_path: Path) -> None:
    abstracts = _paragraphs_of(SEED_FILES[1])
    plain = "ICML 2024 论文列表\n\n" + "\n\n".join(abstracts) + "\n"
    messy = "ICML 2024 论文列表  \n \n\t\n" + "\n  \n\n \n".join(a + " \t" for a in abstracts)
    variants = {
        "bom.txt": b"\xef\xbb\xbf" + plain.encode("utf-8"),
        "crlf.txt": plain.replace("\n", "\r\n").encode("utf-8"),
        "cr.txt": plain.replace("\n", "\r").encode("utf-8"),
        "messy.txt": b"\xef\xbb\xbf" + messy.replace("\n", "\r\n").encode("utf-8"),
    }
    for name, data in variants.items():
        path = tmp_path / name
        path.write_bytes(data)
        result = read_abstract_list(path)
        assert [r.abstract for r in result.records] == abstracts, name
        assert {(r.venue, r.year) for r in result.records} == {("ICML", 2024)}, name
        assert result.problems == [], name


def test_hard_wrapped_paragraph_is_joined_with_single_spaces() -> None:
    abstract = _seed_abstracts()[0]
    words = abstract.split(" ")
    wrapped = "\n".join(" ".join(words[i : i + 9]) + "  " for i in range(0, len(words), 9))
    result = parse_abstract_list(_list_bytes([wrapped, _seed_abstracts()[1]]), "wrapped.txt")
    assert [r.abstract for r in result.records] == _seed_abstracts()[:2]
    assert [r.source_line for r in result.records] == [3, 3 + wrapped.count("\n") + 2]


def test_missing_heading_leaves_venue_and_year_empty() -> None:
    abstracts = _seed_abstracts()[:5]
    result = parse_abstract_list(_list_bytes(abstracts, heading=None), "noheading.txt")
    assert [r.abstract for r in result.records] == abstracts
    assert all(r.venue == "" and r.year is None for r in result.records)
    assert result.records[0].source_line == 1
    assert any("heading" in notice for notice in result.notices)


@pytest.mark.parametrize(
    ("heading", "venue", "year"),
    [
        ("NeurIPS 2023 accepted papers", "NeurIPS", 2023),
        ("ACL 2022 papers", "ACL", 2022),
        ("ICLR 2019", "ICLR", 2019),
    ],
)
def test_heading_variants(heading: str, venue: str, year: int) -> None:
    result = parse_abstract_list(_list_bytes(_seed_abstracts()[:2], heading), "h.txt")
    assert [(r.venue, r.year) for r in result.records] == [(venue, year)] * 2


def test_heading_without_blank_line_and_wrapped_abstract_starting_with_a_year() -> None:
    abstracts = _seed_abstracts()[:2]
    glued = parse_abstract_list(("ICML 2024 papers\n" + "\n\n".join(abstracts)).encode(), "g")
    assert [(r.venue, r.year, r.source_line) for r in glued.records] == [
        ("ICML", 2024, 2),
        ("ICML", 2024, 4),
    ]
    wrapped = "In 2020 we saw a surge of interest in\n" + abstracts[0]
    plain = parse_abstract_list(_list_bytes([wrapped, abstracts[1]], heading=None), "w")
    assert plain.records[0].abstract == wrapped.replace("\n", " ")
    assert plain.records[0].year is None


# ------------------------------------------------------------------ whole-file errors


def _assert_format_error(data: bytes, tmp_path: Path, *words: str) -> FormatError:
    path = tmp_path / "broken-list.txt"
    path.write_bytes(data)
    with pytest.raises(FormatError) as info:
        read_abstract_list(path)
    assert "broken-list.txt" in str(info.value)
    for word in words:
        assert word.lower() in info.value.message.lower()
    return info.value


def test_latin1_file_is_rejected_as_not_utf8(tmp_path: Path) -> None:
    text = "ICML 2024 papers\n\n" + _seed_abstracts()[0].replace("quasimetrics", "quasimétrics")
    error = _assert_format_error(text.encode("latin-1"), tmp_path, "UTF-8")
    assert error.line == 3


def test_random_binary_is_rejected(tmp_path: Path) -> None:
    data = random.Random(7).randbytes(4096)
    _assert_format_error(data, tmp_path)
    _assert_format_error(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + data, tmp_path, "binary")


@pytest.mark.parametrize("data", [b"", b"  \n\r\n\t\n", b"\xef\xbb\xbf"])
def test_empty_file_is_rejected(data: bytes, tmp_path: Path) -> None:
    _assert_format_error(data, tmp_path, "empty")


def test_heading_without_abstracts_is_rejected(tmp_path: Path) -> None:
    _assert_format_error("ICML 2024 论文列表\n\n\n".encode(), tmp_path, "no abstracts")


def test_bibtex_is_rejected(tmp_path: Path) -> None:
    bib = (
        "@inproceedings{wang24harmony,\n  title = {HarmonyDream: Task Harmonization Inside "
        "World Models},\n  booktitle = {ICML},\n  year = {2024}\n}\n"
    )
    _assert_format_error(bib.encode(), tmp_path, "BibTeX")


def test_json_is_rejected(tmp_path: Path) -> None:
    data = json.dumps([{"abstract": a} for a in _seed_abstracts()[:3]], indent=2).encode()
    _assert_format_error(data, tmp_path, "JSON")


def test_csv_and_short_lines_are_rejected(tmp_path: Path) -> None:
    rows = "\n".join(f"{i},paper {i},ICML,2024" for i in range(40))
    _assert_format_error(f"title,name,venue,year\n{rows}\n".encode(), tmp_path, "abstracts")
    short = "\n\n".join(f"Paper number {i} about learning" for i in range(30))
    _assert_format_error(f"ICML 2024\n\n{short}\n".encode(), tmp_path, "abstracts")


def test_missing_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"nowhere\.txt"):
        read_abstract_list(tmp_path / "nowhere.txt")


# ------------------------------------------------------------------ partial problems


def test_stray_short_paragraph_is_reported_and_the_rest_imported() -> None:
    abstracts = _seed_abstracts()[:4]
    parts = ["ICML 2024 论文列表", abstracts[0], abstracts[1], "— page 2 —", *abstracts[2:]]
    data = "\n\n".join(parts).encode("utf-8")
    result = parse_abstract_list(data, "stray.txt")
    assert [r.abstract for r in result.records] == abstracts
    assert len(result.problems) == 1
    problem = result.problems[0]
    assert problem.path == "stray.txt"
    assert problem.line == 7
    assert "short" in problem.message
    assert str(problem).startswith("stray.txt:7:")


# ------------------------------------------------------------------- property tests

_WORDS = st.sampled_from(
    [
        "we",
        "We",
        "propose",
        "introduce",
        "present",
        "called",
        "dubbed",
        "FooNet",
        "EE-LLM",
        "a",
        "an",
        "the",
        "novel",
        "method",
        "which",
        "that",
        "In",
        "this",
        "paper,",
        "show",
        "learning",
        "(LLMs)",
        "$x^2$",
        "$\\ell_0$-norm",
        "e.g.",
        "results.",
        "model,",
        "**Bold**",
        "https://github.com/a/BarNet.",
        "(",
        ")",
        "$",
        "—",
        "论文",
        "i.e.,",
        "graphs;",
    ]
)
_PROSE = st.one_of(
    st.lists(_WORDS, max_size=120).map(" ".join),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=400),
)


@settings(max_examples=300, deadline=None)
@given(abstract=_PROSE, max_len=st.integers(min_value=1, max_value=160))
def test_provisional_title_never_raises_and_fits(abstract: str, max_len: int) -> None:
    title = provisional_title(abstract, max_len=max_len)
    assert len(title) <= max_len + 1
    assert title.count("$") % 2 == 0
    assert title == title.strip()
