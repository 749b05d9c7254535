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
from bibtexparser.middlewares.names import (
    NameParts,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text

from papershelf.formats.bibtex import parse_bibtex, parse_names, read_bibtex
from papershelf.formats.bibtex.fields import _collapse
from papershelf.formats.bibtex.names import split_names as _split_names
from papershelf.formats.records import FormatError, ReadResult
from tests.conftest import SHARED_DATA


def _snapshot(result: ReadResult) -> tuple[object, ...]:
    """Everything a reader returns, with the order of each record's raw fields, but how
    the values were written (`raw_source`, where the two shapes differ by design)."""
    records = [
        ({**dataclasses.asdict(r), "raw_source": None}, list(r.raw.items())) for r in result.records
    ]
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
        == "x.bib:14: field 'month' of entry 'k': macro 'nosuch' is not defined in this file; "
            "shown as its name and exported as the macro it is"
    )
    assert [w.line for w in result.warnings] == [15]


# --------------------------------------------------------------------------- helpers


_WHITESPACE = st.text(
    st.sampled_from(" a\t\n\r\x0b\x0c\x1c\x1f\x85\u00a0\u2003\u3000b"), max_size=12
)


@given(_WHITESPACE)
def test_collapse_is_the_whitespace_regex(text: str) -> None:
    assert _collapse(text) == re.sub(r"\s+", " ", text).strip()


# --------------------------------------------------------------------------- names

# Author fields and their reading, (family, given) per person, written down by hand.
_NAME_TABLE = [
    ("Smith, John", [("Smith", "John")]),
    ("John Smith", [("Smith", "John")]),
    ("John Ronald Reuel Tolkien", [("Tolkien", "John Ronald Reuel")]),
    ("A~B Smith", [("Smith", "A B")]),  # `~` separates words
    # von parts: the family name starts at the first lower-case word but the last.
    ("Ludwig van Beethoven", [("van Beethoven", "Ludwig")]),
    ("Jean de La Fontaine", [("de La Fontaine", "Jean")]),
    ("jean de la fontaine", [("jean de la fontaine", "")]),
    ("van der Berg, Jan", [("van der Berg", "Jan")]),
    ("van Berg", [("van Berg", "")]),  # two words too (bibtexparser: given 'van')
    ("Juan {de} la Cruz", [("la Cruz", "Juan de")]),  # a braced word has no case
    ("\\'etienne Gilson", [("étienne Gilson", "")]),
    ("{\\'E}tienne Gilson", [("Gilson", "Étienne")]),
    # Caseless letters are not lower-case (bibtexparser reads them as lower-case).
    ("李 小 明", [("明", "李 小")]),
    # Jr parts: Author has no jr, so it joins the family name.
    ("Smith, Jr., John", [("Smith Jr.", "John")]),
    ("Pimentel, Jr. ,Joseph J.", [("Pimentel Jr.", "Joseph J.")]),
    # `and` splits outside braces only, in any case, between any spaces.
    ("{Barnes and Noble}", [("Barnes and Noble", "")]),
    ("{Barnes and Noble} and Smith, John", [("Barnes and Noble", ""), ("Smith", "John")]),
    ("A {and} B", [("B", "A and")]),
    ("Anderson, Band and Sand, Andy", [("Anderson", "Band"), ("Sand", "Andy")]),
    ("Smith AND Jones", [("Smith", ""), ("Jones", "")]),
    ("Smith And Jones aNd Brown", [("Smith", ""), ("Jones", ""), ("Brown", "")]),
    ("Smith\tand\nJones", [("Smith", ""), ("Jones", "")]),
    ("  Smith ,\n  John  ", [("Smith", "John")]),
    ("John\n  Smith", [("Smith", "John")]),
    ("A and\tand B", [("A", ""), ("B", "")]),  # the empty name between is dropped
    ("A and", [("and", "A")]),  # no space after: a word
    ("and B", [("and B", "")]),  # no space before: a (lower-case) word
    ("", []),
    (" \n ", []),
    # Any Unicode space is a space here (str.isspace, as in `_collapse`); bibtex and
    # bibtexparser know only ASCII ones and read this as one person.
    ("John Smith\u00a0and Jane\u3000Doe", [("Smith", "John"), ("Doe", "Jane")]),
    # Non-ASCII case: 'İ' lower-cases to two characters, 'ı' is lower-case.
    ("Kara, İsmail and İlkay Öztürk", [("Kara", "İsmail"), ("Öztürk", "İlkay")]),
    ("İ and İ", [("İ", ""), ("İ", "")]),
    ("{İ} AnD x", [("İ", ""), ("x", "")]),
    ("ıpek Yılmaz", [("ıpek Yılmaz", "")]),
    ("Øster, Søren and {\\O}ster, S{\\o}ren", [("Øster", "Søren"), ("Øster", "Søren")]),
    ('M{\\"u}ller, J{\\"u}rgen', [("Müller", "Jürgen")]),
    # `others` is "et al.", in any case; only a whole name is.
    ("Smith and others", [("Smith", "")]),
    ("Smith and Others", [("Smith", "")]),
    ("others", []),
    ("Others, Jane", [("Others", "Jane")]),
    # Names bibtex rejects (an empty part, more than two commas): empty parts are
    # dropped, a family name is never empty, the parts after the second comma are given.
    ("Smith,", [("Smith", "")]),
    ("Smith,, John", [("Smith", "John")]),
    (", John", [("John", "")]),
    ("Smith, Jr, John, X", [("Smith Jr", "John X")]),
]  # fmt: skip


def _people(value: str) -> list[tuple[str, str]]:
    return [(a.family, a.given) for a in parse_names(value)]


@pytest.mark.parametrize(("value", "expected"), _NAME_TABLE)
def test_names_read_as_written_down(value: str, expected: list[tuple[str, str]]) -> None:
    assert _people(value) == expected


_BRACE_FREE_PARTS = ["and", "AnD", " ", "\t", "\n", "\u3000", "x", "X, Y", ",", "İ", "nd"]


@given(st.lists(st.sampled_from(_BRACE_FREE_PARTS), max_size=12).map("".join))
@example("İ and ")  # 'İ' lower-cases to two characters: the loop must not shift
@example("x AnD\u3000İ and x")
def test_names_without_braces_read_as_with_an_empty_group(value: str) -> None:
    """A list without braces is split by a regex, one with braces by counting them; `{}`
    after a character that is not a space, a comma or a letter of `and` changes nothing
    else (next to a comma it would fill an empty part)."""
    at = next((i for i, ch in enumerate(value) if not ch.isspace() and ch not in "andAND,"), -1)
    assume(at >= 0)
    assert _people(value) == _people(value[: at + 1] + "{}" + value[at + 1 :])


# bibtexparser 2's name splitting as the reference, its parts decoded by pylatexenc.

_LATEX = LatexNodes2Text()


def _decoded(words: list[str]) -> str:
    return " ".join(_LATEX.latex_to_text(" ".join(words)).split())


def _bibtexparser_people(value: str, strict: bool = True) -> list[tuple[str, str]]:
    """(family, given) of each person as bibtexparser splits and parts the list.

    The family name is von + last + jr (Author has no jr part) and a person who is just
    `others` is "et al.", as in bibtex's styles. bibtexparser reads every two-word name
    as First Last; bibtex, and the reader, apply the von rule to two words as to more
    ('van Berg' is von 'van', last 'Berg'), so two words are asked about once more
    behind a capitalised one, where bibtexparser applies it.
    """
    people = []
    for name in split_multiple_persons_names(value):
        if name.strip() == "others":
            continue
        parts = parse_single_name_into_parts(name, strict=strict)
        two_words = len(parts.first) == len(parts.last) == 1 and not parts.von and not parts.jr
        if two_words and parse_single_name_into_parts("X " + name, strict=strict).von:
            parts = NameParts(von=parts.first, last=parts.last)
        people.append((_decoded(parts.von + parts.last + parts.jr), _decoded(parts.first)))
    return people


_CORPUS = [*sorted(Path(__file__).parent.rglob("*.bib")), SHARED_DATA / "icml2024-pmlr-seeds.bib"]

# The corpus lists the reader reads differently from bibtexparser, on purpose.
_CORPUS_DIFFERENCES = {
    # The empty name between two `and`s is dropped (see `_NAME_TABLE`); bibtexparser
    # makes the second `and` the first word of the next name.
    "John Smith and and Terry Brown": [("Smith", "John"), ("Brown", "Terry")],
    # bibtex reads the `E` of the accent `{\'{E}}` (upper-case: no von part);
    # bibtexparser skips the inner group and reads the `d` after it.
    "{\\'{E}}douard Masterly": [("Masterly", "Édouard")],
    # biber's etc/papers.bib. A given name that starts with an accent command
    # (`\\'{E}ric`, `{\\L}ukasz`, `{\\"{O}}jvind`): bibtexparser reads the whole name as
    # one family name; bibtex reads given and family.
    "Mohammad Hosseini Dolama and \\'{E}ric Sopena": [("Dolama", "Mohammad Hosseini"),
                                                     ("Sopena", "Éric")],
    "Jon Kleinberg and \\'{E}va Tardos": [("Kleinberg", "Jon"), ("Tardos", "Éva")],
    "Alexandre Pinlou and \\'{E}ric Sopena": [("Pinlou", "Alexandre"), ("Sopena", "Éric")],
    '{\\"{O}}jvind Johansson': [("Johansson", "Öjvind")],
    "Marek Cygan and  {\\L}ukasz Kowalik and Mateusz Wykurz": [
        ("Cygan", "Marek"), ("Kowalik", "Łukasz"), ("Wykurz", "Mateusz")],
    "Richard Cole and {\\L}ukasz Kowalik": [("Cole", "Richard"), ("Kowalik", "Łukasz")],
    # `Ne\\~{s}et\\~{r}il`: a `~` outside braces ties words, so bibtex reads three words
    # (family `{r}il`); bibtexparser reads two families.
    # Better BibTeX #97 (a JabRef library): bibtexparser drops the accent of a capital
    # that starts a word (`\\"Unal`, `\\'O`), splits `\\~n` in two and turns `--` into an
    # en dash; bibtex and the reader decode them as the accents they are.
    'Serin, Necmi and Serin, T\\"ulay and \\"Unal, Basri': [
        ("Serin", "Necmi"), ("Serin", "Tülay"), ("Ünal", "Basri")],
    "O'Hara, K. E. and \\'O S\\'uilleabh\\'ain, L. and Wolfe, J. P.": [
        ("O'Hara", "K. E."), ("Ó Súilleabháin", "L."), ("Wolfe", "J. P.")],
    ("Solache-Carranco, H. and Ju\\'arez-D\\'iaz, G. and Esparza-Garc\\'ia, A. and "
     "Brise\\~no-Garc\\'ia, M. and Galv\\'an-Arellano, M. and Mart\\'inez-Ju\\'arez, J. and "
     "Romero-Paredes, G. and Pe\\~na-Sierra, R."): [
        ("Solache-Carranco", "H."), ("Juárez-Díaz", "G."), ("Esparza-García", "A."),
        ("Briseño-García", "M."), ("Galván-Arellano", "M."), ("Martínez-Juárez", "J."),
        ("Romero-Paredes", "G."), ("Peña-Sierra", "R.")],
    ("Chen, An and Haddad, Sameer and Wu, Yi--Ching (Jean) and Fang, Tzu--Ning and Lan, "
     "Zhida and Avanzino, Steven and Pangrle, Suzette and Buynoski, Matthew and Rathor, "
     "Manuj and Cai, Wei (Daisy) and Tripsas, Nick and Bill, Colin and VanBuskirk, Michael "
     "and Taguchi, Masao"): [
        ("Chen", "An"), ("Haddad", "Sameer"), ("Wu", "Yi--Ching (Jean)"),
        ("Fang", "Tzu--Ning"), ("Lan", "Zhida"), ("Avanzino", "Steven"),
        ("Pangrle", "Suzette"), ("Buynoski", "Matthew"), ("Rathor", "Manuj"),
        ("Cai", "Wei (Daisy)"), ("Tripsas", "Nick"), ("Bill", "Colin"),
        ("VanBuskirk", "Michael"), ("Taguchi", "Masao")],
    # biblatex's extended name format, read by its parts as biber does (bibtexparser
    # reads its commas as a classic name's), and `xdata=` references, which name no one.
    "Vela, Luis and given={Ura Ru}, family={Juan}, suffix={Sr}, prefix={von}": [
        ("Vela", "Luis"), ("von Juan Sr", "Ura Ru")],
    "id=testid, given=Alfred, family=Adler": [("Adler", "Alfred")],
    "Simon Smith and xdata=gxd2-author-1": [("Smith", "Simon")],
    "William Wool and xdata=gxd4-editor-1": [("Wool", "William")],
    "xdata=gxd2-editor-2": [],
    # biber's t/tdata/examples.bib: extended names and name-list options
    # (`useprefix=false`, `sortingnamekeytemplatename=...`), which name no one either.
    "given=Fred, family=Flummox": [("Flummox", "Fred")],
    ("sortingnamekeytemplatename=snks1 and Simon Smith and family=Brown, prefix=de, "
     "given=Brian, sortingnamekeytemplatename=snks2"): [("Smith", "Simon"),
                                                      ("de Brown", "Brian")],
    "useprefix=false and Alan von Animal": [("von Animal", "Alan")],
    "useprefix=false and useprefix=true, given=Richard, prefix=von, family=Rabble": [
        ("von Rabble", "Richard")],
    **{value: people for value, people in (
        ("Jan Kratochv{\\'{\\i}}l and Jaroslav Ne\\~{s}et\\~{r}il",
         [("Kratochvíl", "Jan"), ("ril", "Jaroslav Ne set")]),
        ("Jaroslav Ne\\~{s}et\\~{r}il and E. Sopena",
         [("ril", "Jaroslav Ne set"), ("Sopena", "E.")]),
        ("Jaroslav Ne\\~{s}et\\~{r}il and Xuding Zhu",
         [("ril", "Jaroslav Ne set"), ("Zhu", "Xuding")]),
        ("Jaroslav Ne\\~{s}et\\~{r}il and Patrice Ossona de Mendez",
         [("ril", "Jaroslav Ne set"), ("de Mendez", "Patrice Ossona")]),
    )},
}


def test_corpus_names_read_as_bibtexparser_reads_them() -> None:
    values = {
        value
        for path in _CORPUS
        for record in read_bibtex(path).records
        for name, value in record.raw.items()
        if name in ("author", "editor")
    }
    assert len(values) > 100
    differ = {v: _people(v) for v in values if _people(v) != _bibtexparser_people(v, False)}
    assert differ == _CORPUS_DIFFERENCES


# Words where the reader, bibtex and bibtexparser agree on the case and the decoding (a
# name must not start with a bare `\`: bibtexparser drops it after an `and`).
_NAME_WORDS = st.sampled_from(
    [
        "John", "J.", "Jean-Paul", "O'Neil", "İsmail", "Łukasz", "Émile", "{\\'E}mile",
        'M{\\"u}ller', "{Barnes and Noble}", "{and}", "{de}", "{IBM}", "Anderson", "Jr.",
        "III", "van", "der", "de", "la", "d'Alembert", "ıpek", "élan", "{\\'e}tienne",
        '{\\"u}ber', "band", "others",
    ]
)  # fmt: skip
_WORD_GAPS = st.sampled_from([" ", "  ", "\t", "\n", "~", " ~ "])


@st.composite
def _name_list(draw: st.DrawFn) -> str:
    """An author list of names bibtex accepts: 'First von Last', 'von Last, First' or
    'von Last, Jr, First', between `and`s in any case and spacing, maybe 'and others'."""
    names = []
    for _ in range(draw(st.integers(1, 4))):
        sections = []
        for _ in range(draw(st.integers(1, 3))):
            words = draw(st.lists(_NAME_WORDS, min_size=1, max_size=4))
            sections.append("".join(w + draw(_WORD_GAPS) for w in words[:-1]) + words[-1])
        commas = st.sampled_from([",", ", ", " , ", ",\n"])
        names.append("".join(s + draw(commas) for s in sections[:-1]) + sections[-1])
    if draw(st.booleans()):
        names.append("others")
    ands = st.sampled_from([" and ", " AND ", " And ", "\tand\n", "  and  "])
    spaces = st.sampled_from(["", " ", "\n  "])
    return draw(spaces) + "".join(n + draw(ands) for n in names[:-1]) + names[-1] + draw(spaces)


@settings(max_examples=300, deadline=None)
@given(_name_list())
@example("van Berg and Jean de la fontaine AND Smith, Jr., John and others")
def test_names_read_as_bibtexparser_reads_them(value: str) -> None:
    assert _people(value) == _bibtexparser_people(value)


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
    ("data", "line", "what"),
    [
        (b"@misc{a,\n title = {x}}\n\x00", 3, "a NUL byte"),
        (b"@misc{a,\n title = {x}}\n" + b"\x01" * 17, 3, "17 control characters"),
    ],
)
def test_binary_data_is_found_with_its_line(tmp_path: Path, data: bytes, line: int,
                                            what: str) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(data)
    with pytest.raises(FormatError) as err:
        read_bibtex(path)
    assert err.value.line == line
    assert err.value.message == f"not a text file (binary data: {what})"


@pytest.mark.parametrize(
    ("data", "line", "notice"),
    [
        (b"@misc{a,\n title = {\xe9\x1f}}\n", 2, "U+001F dropped"),  # Latin-1
        (b"\xef\xbb\xbf@misc{a,}\n\n\n\x7f", 4, "U+007F dropped"),
        (b"@misc{a,\n title = {x\x01y\x01z\x02}}\n", 2,
         "U+0001 (2 times), U+0002 dropped"),
    ],
)
def test_a_few_control_characters_are_dropped_with_their_line(
    tmp_path: Path, data: bytes, line: int, notice: str
) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(data)
    result = read_bibtex(path)
    assert any(n.startswith(f"{path}:{line}: control character") and notice in n
               for n in result.notices), result.notices
    assert not any(c in v for r in result.records for v in r.raw.values()
                   for c in "\x01\x02\x1f\x7f")


def test_form_feed_and_latin1_bytes_are_text(tmp_path: Path) -> None:
    path = tmp_path / "x.bib"
    path.write_bytes(b"@misc{a,\x0c title = {\xa0\xe9}}\n")
    assert read_bibtex(path).records[0].raw["title"] == "\xa0\xe9"
