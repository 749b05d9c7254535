"""The BibTeX reader's shortcuts read exactly what its general code reads.

The scanner reads the common field shapes (`name = {value}`, `"value"`, a number, a
macro, followed by `,` or the end of the entry) without its general code, the file check
looks for control characters in the bytes, and the record builder skips work for plain
text. Each test here holds one shortcut to the general reading.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from papershelf.core.records import FormatError, ReadResult
from papershelf.formats.bibtex import _collapse, _split_names, parse_bibtex, read_bibtex


def _snapshot(result: ReadResult) -> tuple[object, ...]:
    """Everything a reader returns, with the order of each record's raw fields."""
    records = [(dataclasses.asdict(r), list(r.raw.items())) for r in result.records]
    return records, result.problems, result.notices, result.warnings, result.preambles


# --------------------------------------------------------------------------- fast vs general

_WORDS = st.sampled_from(
    [
        "Deep", "learning", "and", "AND", "von", "Jr.", ",", " ", "  ", "\n", "\t", "~",
        "\u00a0", "\\'e", '\\"o', "\\%", "%", "&", "_", "#", "$x^2$", "$", "@", "\n@misc(",
        "é", "İ", "Ø", "\\url{http://a.b/c\\_d}", "--", "\\\\", '"', "(", ")", "=",
    ]
)  # fmt: skip
_NAMES = st.sampled_from(
    [
        "Smith, John", "John Smith", "van der Berg, Jan", "Smith, Jr., John", "Smith,",
        "Smith, Jr, John, X", "{Barnes and Noble}", "others", "M{\\\"u}ller, J{\\\"u}rgen",
        "Kara, İsmail", "{\\'E}tienne Gilson", "Dan ANDERSON", "  Ali  ", "a b c",
    ]
)  # fmt: skip


def _balanced(depth: int) -> st.SearchStrategy[str]:
    """Text with balanced braces, nested up to `depth` levels."""
    if depth == 0:
        return st.lists(_WORDS, max_size=6).map("".join)
    part = st.one_of(_WORDS, _balanced(depth - 1).map(lambda s: "{" + s + "}"))
    return st.lists(part, max_size=6).map("".join)


@st.composite
def _value(draw: st.DrawFn, name: str) -> str:
    """A field value as written: braced, quoted, a number or a macro."""
    if name == "author":
        names = draw(st.lists(_NAMES, max_size=4))
        body = "".join(n + draw(st.sampled_from([" and ", " AND ", "\tand\n"])) for n in names)
        return "{" + body.removesuffix(" and ") + "}"
    kind = draw(st.sampled_from(["braced", "braced", "quoted", "number", "macro"]))
    if kind == "number":
        return draw(st.sampled_from(["2020", "7", "0012", "12345"]))
    if kind == "macro":
        return draw(st.sampled_from(["jan", "Dec", "empty", "jnl", "undefined"]))
    body = draw(_balanced(3))
    if kind == "quoted":
        # A `"` at brace depth 0 would end the value; bibtex users write {"}.
        pieces = re.split(r"([{}])", body)
        depth = 0
        out = []
        for piece in pieces:
            if piece == "{":
                depth += 1
            elif piece == "}":
                depth -= 1
            elif depth == 0:
                piece = piece.replace('"', '{"}')
            out.append(piece)
        return '"' + "".join(out) + '"'
    return "{" + body + "}"


@st.composite
def _file(draw: st.DrawFn) -> tuple[str, str]:
    """The same BibTeX twice: as drawn, and with `# {}` after each value (general code)."""
    names = st.sampled_from(["author", "title", "year", "month", "booktitle", "note", "Title"])
    plain: list[str] = ['@string{empty = {}}\n@string{jnl = "J. {ML}"}\n']
    general: list[str] = list(plain)
    for number in range(draw(st.integers(1, 4))):
        close = draw(st.sampled_from(["}", ")"]))
        head = f"@{draw(st.sampled_from(['article', 'inproceedings', 'misc']))}"
        head += ("{" if close == "}" else "(") + f"key{draw(st.integers(0, 3))}{number},"
        plain.append(head)
        general.append(head)
        fields = draw(st.lists(st.tuples(names, st.data()), max_size=5))
        for i, (name, data) in enumerate(fields):
            value = data.draw(_value(name.lower()))
            space = draw(st.sampled_from(["", " ", "\n  ", "\n  % a comment\n  "]))
            end = "" if i == len(fields) - 1 else draw(st.sampled_from([",", ",", " ,", " "]))
            plain.append(f"{space}{name} = {value}{end}")
            general.append(f"{space}{name} = {value} # {{}}{end}")
        tail = draw(st.sampled_from(["", ",", "\n", ",\n"])) + close + "\n"
        plain.append(tail)
        general.append(tail)
    return "".join(plain), "".join(general)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_file(), st.sampled_from([1, 7]))
def test_fast_paths_read_what_the_general_code_reads(texts: tuple[str, str], first: int) -> None:
    plain, general = texts
    assert _snapshot(parse_bibtex(plain, "x.bib", first)) == _snapshot(
        parse_bibtex(general, "x.bib", first)
    )


def test_month_macro_redefined_as_empty_text() -> None:
    text = "@string{jan = {}}\n@misc{a, month = jan, note = feb}\n"
    record = parse_bibtex(text, "x.bib").records[0]
    assert record.raw == {"month": "", "note": "February"}


def test_fast_fields_in_a_paren_entry_keep_lines_and_messages() -> None:
    text = (
        "@article(k,\n  title = {A {B} C},\n  year = 2020,\n  title = {again},\n"
        '  month = nosuch,\n  note = {x\n@misc{y,}},\n  journal = "J" # {ML}\n)\n'
    )
    result = parse_bibtex(text, "x.bib", first_line=10)
    record = result.records[0]
    assert record.raw == {
        "title": "A {B} C", "year": "2020", "month": "nosuch", "note": "x\n@misc{y,}",
        "journal": "JML",
    }  # fmt: skip
    assert record.year == 2020
    assert result.notices[0] == (
        "x.bib:13: entry 'k': field 'title' given twice; the first value is kept"
    )
    assert (
        result.notices[1]
        == "x.bib:14: field 'month' of entry 'k': undefined macro nosuch kept as text"
    )
    assert [w.line for w in result.warnings] == [15]


# --------------------------------------------------------------------------- helpers


_WHITESPACE = st.text(
    st.sampled_from(" a\t\n\r\x0b\x0c\x1c\x1f\x85\u00a0\u2003\u3000b"), max_size=12
)


@given(_WHITESPACE)
def test_collapse_is_the_whitespace_regex(text: str) -> None:
    assert _collapse(text) == re.sub(r"\s+", " ", text).strip()


def _split_names_reference(value: str) -> list[str]:
    """The brace-counting loop `_split_names` falls back to (and was before its shortcut)."""
    names: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif (
            depth == 0
            and ch.isspace()
            and value[i + 1 : i + 4].lower() == "and"
            and i + 4 < len(value)
            and value[i + 4].isspace()
        ):
            names.append(value[start:i])
            i += 4
            start = i
            continue
        i += 1
    names.append(value[start:])
    return [name.strip() for name in names if name.strip()]


_NAME_LIST_PARTS = ["and", "AnD", " ", "\t", "\n", "\u3000", "x", "X, Y", ",", "İ", "{", "}", "nd"]


@given(st.lists(st.sampled_from(_NAME_LIST_PARTS), max_size=12).map("".join))
@example("İ and ")  # 'İ' lower-cases to two characters: the loop must not shift
@example("{İ} AnD x")
def test_split_names_shortcut_is_the_loop(value: str) -> None:
    assert _split_names(value) == _split_names_reference(value)


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("A and and B", ["A", "B"]),
        ("A and\tand B", ["A", "B"]),
        ("A AND B and\nC", ["A", "B", "C"]),
        ("Anderson and Band", ["Anderson", "Band"]),
        ("A and", ["A and"]),
        ("{A and B} and C", ["{A and B}", "C"]),
    ],
)
def test_split_names(value: str, names: list[str]) -> None:
    assert _split_names(value) == names


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        ("2020", 2020), ("0012", 12), ("12345", None), (" 2020 ", 2020), ("{2020}", 2020),
        ("", None), ("\u00b2", None), ("\u0661\u0662", 12), ("2020a", None),
    ],
)  # fmt: skip
def test_year(year: str, expected: int | None) -> None:
    text = "@misc{a, year = {" + year + "}}"
    assert parse_bibtex(text, "x.bib").records[0].year == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        ("One  line\n  two", "One line two"),
        ("One\n \t\nTwo \n\n\n three", "One\n\nTwo\n\nthree"),
        (" \x0cA\x1cB\u00a0C ", "A B C"),
        ("Plain text.", "Plain text."),
    ],
)
def test_abstract_paragraphs(abstract: str, expected: str) -> None:
    text = "@misc{a, abstract = {" + abstract + "}}"
    assert parse_bibtex(text, "x.bib").records[0].abstract == expected


# --------------------------------------------------------------------------- file check


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"@misc{a,\n title = {x}}\n\x00", 3),
        (b"@misc{a,\n title = {\xe9\x1f}}\n", 2),  # Latin-1
        (b"\xef\xbb\xbf@misc{a,}\n\n\n\x7f", 4),
    ],
)
def test_control_characters_are_found_with_their_line(
    tmp_path: Path, data: bytes, line: int
) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(data)
    with pytest.raises(FormatError) as err:
        read_bibtex(path)
    assert err.value.line == line
    assert err.value.message == "not a text file (binary data)"


def test_form_feed_and_latin1_bytes_are_text(tmp_path: Path) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(b"@misc{a,\x0c title = {\xa0\xe9}}\n")
    assert read_bibtex(path).records[0].raw["title"] == "\xa0\xe9"
