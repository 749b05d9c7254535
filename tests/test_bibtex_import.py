"""Importing real-world .bib files: bibtexparser 2.1's misreadings, encodings, macros,
crossref and @proceedings inheritance, warnings, and lossless import -> export -> import.

Each misreading test first shows what bibtexparser 2.1 itself makes of the text (so the
test fails, and can be dropped, the day bibtexparser fixes it), then what we read.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.core import keys
from papershelf.formats.bibtex import PRINTED_FIELDS, parse_bibtex, read_bibtex, write_bibtex
from papershelf.formats.latex import encode_text, fix_bare_specials
from papershelf.formats.records import Author, FormatError, PaperRecord, ReadResult

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PMLR = DATA / "icml2024-pmlr-seeds.bib"
PAPERLISTS = DATA / "icml2024-paperlists.json"


@pytest.fixture(autouse=True)
def _quiet_bibtexparser() -> Iterator[None]:
    """bibtexparser logs a warning per block it cannot parse; these tests expect them."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def _bp(text: str, decode: bool = False) -> bibtexparser.Library:
    """What bibtexparser 2.1 reads (optionally with its LaTeX decoder)."""
    if decode:
        return bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    return bibtexparser.parse_string(text)


def _ours(text: str) -> ReadResult:
    return parse_bibtex(text, "x.bib")


def _by_key(result: ReadResult) -> dict[str, PaperRecord]:
    return {r.key or "": r for r in result.records}


# --------------------------------------------------------------------------- misreadings


def test_missing_comma_is_not_merged_into_the_previous_value() -> None:
    text = "@article{a,\n  title = {A}\n  author = {Doe, Jane},\n  year = 2020\n}\n"
    entry = _bp(text).entries[0]
    assert entry["title"] == "{A}\n  author = {Doe, Jane}"  # bibtexparser: merged
    assert "author" not in entry

    result = _ours(text)
    record = result.records[0]
    assert record.raw == {"title": "A", "author": "Doe, Jane", "year": "2020"}
    assert record.authors == [Author("Doe", "Jane")]
    assert [(w.line, "missing ','" in w.message) for w in result.warnings] == [(2, True)]


def test_no_entries_conjured_from_a_comment() -> None:
    text = (
        "@comment{ old entry, kept for reference:\n"
        "@article{fake, title = {Fake}}\n"
        "}\n"
        "@article{real, title = {Real}}\n"
    )
    assert [e.key for e in _bp(text).entries] == ["fake", "real"]  # bibtexparser
    result = _ours(text)
    assert [r.key for r in result.records] == ["real"]
    assert result.problems == []


def test_no_entries_conjured_from_a_field_value() -> None:
    text = (
        "@article{a,\n"
        "  abstract = {We cite\n"
        "@article{fake, title = {Fake}}\n"
        "in this abstract.},\n"
        "  title = {Real}\n"
        "}\n"
    )
    library = _bp(text)
    assert [e.key for e in library.entries] == ["fake"]  # bibtexparser: `a` lost
    assert library.failed_blocks

    result = _ours(text)
    assert [r.key for r in result.records] == ["a"]
    record = result.records[0]
    assert record.title == "Real"
    assert "@article{fake" in record.raw["abstract"]
    assert result.problems == []
    assert any("looks like an entry" in w.message for w in result.warnings)


def test_percent_line_inside_an_entry_is_a_comment_not_a_field() -> None:
    text = "@article{a,\n  title = {T},\n  % note = {old},\n  year = 2020\n}\n"
    assert "% note" in _bp(text).entries[0].fields_dict  # bibtexparser: a field "% note"

    result = _ours(text)
    assert result.records[0].raw == {"title": "T", "year": "2020"}
    assert [w.line for w in result.warnings] == [3]
    assert "comment" in result.warnings[0].message
    assert "note" not in write_bibtex(result.records)


def test_entry_with_an_empty_key_is_rejected() -> None:
    text = "@misc{, title = {No key}}\n@misc{k, title = {Key}}\n"
    assert [e.key for e in _bp(text).entries] == ["", "k"]  # bibtexparser accepts it

    result = _ours(text)
    assert [r.key for r in result.records] == ["k"]
    assert [(p.line, "without a key" in p.message) for p in result.problems] == [(1, True)]


def test_url_is_not_cut_at_percent() -> None:
    text = "@misc{u, url = {https://x.org/a%20b?q=1%2C2}, title = {T}}\n"
    assert _bp(text, decode=True).entries[0]["url"] == "https://x.org/a"  # bibtexparser
    record = _ours(text).records[0]
    assert record.url == "https://x.org/a%20b?q=1%2C2"
    assert "url = {https://x.org/a%20b?q=1%2C2}" in write_bibtex([record])


def test_input_title_is_not_decoded_to_nothing() -> None:
    text = "@misc{t, title = {\\input{chapter-one}}}\n"
    assert _bp(text, decode=True).entries[0]["title"] == ""  # bibtexparser
    record = _ours(text).records[0]
    assert record.title == "chapter-one"
    assert record.raw["title"] == "\\input{chapter-one}"


def test_deep_brace_nesting_keeps_the_entry() -> None:
    deep = "{" * 300 + "Deep" + "}" * 300
    text = f"@misc{{d, title = {{{deep}}}, year = 2020}}\n@misc{{e, title = {{ok}}}}\n"
    library = _bp(text, decode=True)
    assert [e.key for e in library.entries] == ["e"]  # bibtexparser: `d` failed whole
    assert library.failed_blocks

    started = time.perf_counter()
    result = _ours(text)
    assert time.perf_counter() - started < 2
    assert [r.key for r in result.records] == ["d", "e"]
    assert result.records[0].title == "Deep"
    assert result.records[0].raw["title"] == deep
    assert result.records[0].year == 2020


# --------------------------------------------------------------------------- structure


def test_unreadable_blocks_are_reported_and_the_rest_imported() -> None:
    text = (
        "@article{one, title = {One}}\n"  # 1
        "@article{two, title = {unclosed\n"  # 2
        "@article{three, title = {Three}}\n"  # 3
        "@article{four title = {no comma after key}}\n"  # 4
        "@article{five, title = {Five}, year = }\n"  # 5
        "@article{six, title = {Six}}\n"  # 6
    )
    result = _ours(text)
    assert [r.key for r in result.records] == ["one", "three", "six"]
    assert [p.line for p in result.problems] == [2, 4, 5]
    assert all(p.path == "x.bib" for p in result.problems)
    assert "is never closed (the next entry starts on line 3)" in result.problems[0].message
    assert "expected ','" in result.problems[1].message
    assert "expected a value" in result.problems[2].message


def test_strings_concatenation_months_preamble_and_comments() -> None:
    text = (
        '@preamble{"\\providecommand{\\noop}[1]{}"}\n'
        "@String{conf = {Proc. of }}\n"
        '@string(icml = conf # "ICML")\n'
        "@comment{jabref-meta: databaseType:bibtex;}\n"
        "@inproceedings{k,\n"
        "  booktitle = icml # { 2024},\n"
        "  month = jul,\n"
        "  title = {T},\n"
        "  note = undefinedmacro\n"
        "}\n"
    )
    result = _ours(text)
    record = result.records[0]
    assert record.venue == "Proc. of ICML 2024"
    assert record.raw["month"] == "July"
    assert record.raw["note"] == "undefinedmacro"
    assert any("macro 'undefinedmacro' is not defined in this file" in n
               for n in result.notices)
    assert result.preambles == ['"\\providecommand{\\noop}[1]{}"'[1:-1]]
    assert result.problems == []


def test_strings_are_written_in_the_order_of_their_file() -> None:
    """Not in the order of first use; a piece of a big file, read with the macros of the
    pieces before it, places its own @strings after theirs."""
    text = ("@string{zz = {Zed}}\n@string{aa = {Ay}}\n"
            "@misc{one, journal = aa}\n@misc{two, journal = zz # { and } # mm}\n")
    records = parse_bibtex(text, "x.bib", macros={"mm": "Em"}).records
    assert [r.string_places for r in records] == [{"aa": 2}, {"zz": 1, "mm": 0}]
    head = write_bibtex(records).split("\n\n")[0]
    assert head == "@string{mm = {Em}}\n@string{zz = {Zed}}\n@string{aa = {Ay}}"


def test_crossref_inheritance() -> None:
    text = (
        "@inproceedings{child,\n  title = {Child}, crossref = {Parent}, pages = {1--2}\n}\n"
        "@inproceedings{own, title = {Own}, booktitle = {Mine}, crossref = {parent}}\n"
        "@inproceedings{orphan, title = {Orphan}, crossref = {nowhere}}\n"
        "@proceedings{parent,\n  title = {Proceedings of Things}, year = 2021,\n"
        "  editor = {Ed, Itor}, publisher = {Pub}, address = {Town}\n}\n"
    )
    result = _ours(text)
    by_key = _by_key(result)
    assert list(by_key) == ["child", "own", "orphan"]
    child = by_key["child"]
    assert child.venue == "Proceedings of Things"
    assert child.year == 2021
    assert child.publisher == "Pub"
    # The entry's own fields stay as written; what it inherits is kept apart, to be
    # written only when the parent is not.
    assert "editor" not in child.raw and child.inherited["editor"] == "Ed, Itor"
    assert child.raw["crossref"] == "Parent"
    assert by_key["own"].venue == "Mine"
    assert by_key["own"].year == 2021
    assert any("crossref 'nowhere'" in w.message for w in result.warnings)
    # The parent is not exported, so neither is the crossref (bibtex would fail on it)
    # where the entry carries what it inherits; a crossref to another file's entry (it
    # inherited nothing here) is kept as written.
    bib = write_bibtex(result.records)
    assert "crossref = {Parent}" not in bib and "crossref = {parent}" not in bib
    assert "crossref = {nowhere}" in bib
    assert "year = {2021}" in bib
    assert "editor = {Ed, Itor}" in bib


def test_crossref_written_with_its_target_after_the_children() -> None:
    parent = PaperRecord(entry_type="book", key="book", title="Book", year=2020)
    child = PaperRecord(
        entry_type="incollection", key="chap", title="Chap", raw={"crossref": "book"}
    )
    bib = write_bibtex([parent, child])
    assert bib.index("@incollection{chap") < bib.index("@book{book")
    assert "crossref = {book}" in bib


def test_pmlr_volume_fills_booktitle_and_year() -> None:
    result = read_bibtex(PMLR)
    assert len(result.records) == 38
    assert result.problems == []
    notice = next(n for n in result.notices if "from @Proceedings" in n)
    assert "filled booktitle, year" in notice
    assert "of 38 entries from @Proceedings ICML-2024" in notice
    for record in result.records:
        assert record.raw["booktitle"].startswith("Proceedings of the 41st")
        assert record.raw["year"] == "2024"
        assert record.raw["volume"] == "235"
        assert record.raw["editor"].startswith("Salakhutdinov, Ruslan")


def test_bad_author_names_are_flagged_with_key_and_line() -> None:
    result = read_bibtex(PMLR)
    flagged = [w for w in result.warnings if "bleistein24a" in w.message]
    assert len(flagged) == 1
    assert flagged[0].line == 83
    assert "'Van Tuan Nguyen,'" in flagged[0].message
    assert "'Nguyen, Van Tuan'" in flagged[0].message
    assert str(flagged[0]) in result.notices
    record = _by_key(result)["bleistein24a"]
    assert record.raw["author"].count("Van Tuan Nguyen,") == 1  # raw kept as read
    assert "Nguyen, Van Tuan and" in write_bibtex([record])


def test_bare_specials_flagged_at_import_and_escaped_on_export() -> None:
    text = "@article{a, title = {Q&A for 100% of x_1 users},\n url = {https://x.org/a_b%20c}}\n"
    result = _ours(text)
    record = result.records[0]
    assert record.title == "Q&A for 100% of x_1 users"
    assert record.raw["title"] == "Q&A for 100% of x_1 users"
    assert len(result.warnings) == 1 and "title" in result.warnings[0].message
    bib = write_bibtex(result.records)
    assert r"title = {Q\&A for 100\% of x\_1 users}" in bib
    assert "url = {https://x.org/a_b%20c}" in bib
    again = _ours(bib)
    assert again.warnings == []
    assert again.records[0].title == record.title


@pytest.mark.parametrize(
    ("data", "encoding_notice"),
    [
        ("@misc{k, title = {Müller — “naïve”}}\n".encode(), None),
        (b"\xef\xbb\xbf" + "@misc{k, title = {Müller — “naïve”}}\n".encode(), None),
        ("@misc{k, title = {Müller — “naïve”}}\n".encode("utf-16"), None),
        ("@misc{k, title = {Müller — “naïve”}}\n".encode("cp1252"), "Windows-1252"),
    ],
)
def test_encodings(tmp_path: Path, data: bytes, encoding_notice: str | None) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(data)
    result = read_bibtex(path)
    assert result.records[0].title == "Müller — “naïve”"
    if encoding_notice is None:
        assert result.notices == []
    else:
        assert encoding_notice in result.notices[0]


def test_latin1_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes("@misc{k,\n  title = {Müller, Ångström}}\n".encode("latin-1"))
    result = read_bibtex(path)
    assert result.records[0].title == "Müller, Ångström"
    assert "read as Latin-1" in result.notices[0] and "line 2" in result.notices[0]


@pytest.mark.parametrize(
    "data",
    [
        b"TY  - JOUR\nTI  - A RIS file\nER  -\n",
        b'{"title": "json"}',
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR@misc{",
        b"\xff\xfe@\x00m\x00i\x00\x00\xd8",  # UTF-16 with a broken surrogate
    ],
)
def test_not_bibtex_is_one_format_error(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(data)
    with pytest.raises(FormatError) as err:
        read_bibtex(path)
    assert err.value.path == str(path)


# --------------------------------------------------------------------------- round trips


def _assert_round_trip(first: ReadResult, path: str = "out.bib") -> None:
    """import -> export -> import keeps every record; a second trip changes nothing."""
    bib = write_bibtex(first.records)
    second = parse_bibtex(bib, path)
    assert second.problems == []
    assert len(second.records) == len(first.records)
    repaired = {w.message.split("'")[1] for w in first.warnings}
    for before, after in zip(first.records, second.records):
        assert after.key == before.key
        assert after.entry_type == before.entry_type
        expected = {n: v for n, v in before.raw.items() if n != "crossref"}
        if before.key not in repaired:  # what broken LaTeX shows may change once repaired
            for attr in ("title", "abstract", "venue", "year", "volume", "pages", "doi", "url"):
                assert getattr(after, attr) == getattr(before, attr), (before.key, attr)
            assert after.authors == before.authors, before.key
        else:  # the reader said which entries the writer repairs
            for name in PRINTED_FIELDS & expected.keys() - {"author", "editor"}:
                expected[name] = fix_bare_specials(expected[name])[0]
            for name in ("author", "editor"):
                if name in expected and name in after.raw:
                    expected[name] = after.raw[name]
        assert after.raw == expected, before.key
    assert write_bibtex(second.records) == bib  # a fixpoint
    third = parse_bibtex(bib, path)
    assert [r.raw for r in third.records] == [r.raw for r in second.records]


def test_round_trip_pmlr() -> None:
    _assert_round_trip(read_bibtex(PMLR))


def paperlists_bib(limit: int | None = None) -> str:
    """A .bib built from the ICML 2024 paper list (real titles and accented names)."""
    entries = json.loads(PAPERLISTS.read_text(encoding="utf-8"))[:limit]
    allocator = keys.KeyAllocator(set())
    blocks = []
    for item in entries:
        names = [n.strip() for n in item["author"].split(";") if n.strip()]
        authors = [
            Author(family=n.rsplit(" ", 1)[-1], given=n.rsplit(" ", 1)[0] if " " in n else "")
            for n in names
        ]
        record = PaperRecord(title=item["title"], authors=authors, year=2024)
        key = allocator.key(keys.format_key(keys.DEFAULT_PATTERN, record))
        author = " and ".join(encode_text(n) for n in names)
        blocks.append(
            f"@inproceedings{{{key},\n"
            f"  title = {{{encode_text(item['title'], protect_case=True)}}},\n"
            f"  author = {{{author}}},\n"
            "  year = {2024},\n"
            "  booktitle = {International Conference on Machine Learning ({ICML})},\n"
            f"  url = {{{item['proceeding']}}},\n"
            f"  note = {{OpenReview id {encode_text(item['id'])}}}\n"
            "}\n"
        )
    return "\n".join(blocks)


def test_round_trip_paperlists() -> None:
    bib = paperlists_bib()
    started = time.perf_counter()
    first = parse_bibtex(bib, "paperlists.bib")
    elapsed = time.perf_counter() - started
    assert len(first.records) == 2610
    assert first.problems == [] and first.warnings == []
    by_title = {r.title: r for r in first.records}
    assert "Improved Modelling of Federated Datasets using Mixtures-of-Dirichlet-Multinomials" in (
        by_title
    )
    scott = by_title[
        "Improved Modelling of Federated Datasets using Mixtures-of-Dirichlet-Multinomials"
    ]
    assert scott.authors == [Author("Scott", "Jonathan"), Author("Cahill", "Áine")]
    source = json.loads(PAPERLISTS.read_text(encoding="utf-8"))
    assert [r.title for r in first.records] == [" ".join(e["title"].split()) for e in source]
    _assert_round_trip(first)
    assert elapsed < 5  # ~0.1 ms per entry on CI's machine


_TEXT = st.lists(
    st.sampled_from([*"aZ09 -.:,;&%#_^~$\\\"'@()[]=éüß论—“\n", "\\&", "\\%", "$x_1$", "\n@misc{"]),
    max_size=12,
).map("".join)


def _braced(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return inner.map(lambda s: "{" + s + "}")


# Balanced BibTeX value bodies: text, nested groups, math and accents.
_VALUE = st.recursive(
    _TEXT.map(lambda s: s.replace("{", "").replace("}", "")),
    lambda inner: st.lists(
        st.one_of(inner, _braced(inner), st.sampled_from([r"{\"u}", r"$\ell_{0}$", "{ICML}"])),
        max_size=4,
    ).map("".join),
    max_leaves=12,
)
_FIELD_NAME = st.from_regex(r"[a-z][a-z0-9_:.-]{0,9}", fullmatch=True)
_KEY = st.from_regex(r"[A-Za-z][A-Za-z0-9_:.-]{0,12}", fullmatch=True)
_TYPE = st.sampled_from(["article", "inproceedings", "misc", "software", "online", "book"])


@st.composite
def _entries(draw: st.DrawFn) -> str:
    blocks = []
    for key in draw(st.lists(_KEY, min_size=1, max_size=4, unique_by=str.lower)):
        names = draw(
            st.lists(
                st.one_of(_FIELD_NAME, st.sampled_from(sorted(PRINTED_FIELDS))),
                max_size=6,
                unique_by=str.lower,
            )
        )
        names = [n for n in names if n not in ("author", "editor", "crossref", "keywords")]
        fields = "".join(f"  {n} = {{{draw(_VALUE)}}},\n" for n in names)
        blocks.append(f"@{draw(_TYPE)}{{{key},\n{fields}}}\n")
    return "\n".join(blocks)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_entries())
def test_hypothesis_import_export_import(text: str) -> None:
    first = parse_bibtex(text, "gen.bib")
    assert first.problems == [], text
    _assert_round_trip(first)
    for record in first.records:
        for name, value in record.raw.items():
            assert f"{name} = {{{value}}}" in text  # raw is verbatim
