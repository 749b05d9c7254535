"""Random records of the shape the RIS and CSL-JSON readers give, for round-trip tests:
text with Unicode, braces, LaTeX specials and inline math; authors with and without
given names; the raw fields both formats map; keywords as tags. `every=True` adds the
fields of issue 40: a day of the date, an event title, a report's or thesis's kind (genre),
an arXiv eprint (CSL-JSON only: `arxiv`)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from hypothesis import strategies as st

from papershelf.formats.interchange import one_line, paragraphs, put_names, put_raw
from papershelf.formats.records import Author, PaperRecord

ENTRY_TYPES = ("article", "inproceedings", "book", "incollection", "phdthesis",
               "mastersthesis", "techreport", "misc", "unpublished")
_BOOKS = ("book",)
_PUBLISHER_IS_VENUE = ("phdthesis", "mastersthesis", "techreport")

_ALPHABET = st.characters(
    codec="utf-8", categories=("L", "N", "P", "S", "Zs"),
    exclude_characters="\u2028\u2029\x85")
_MATH = st.sampled_from(["$x$", "$x^2$", "$\\alpha_i$", "$O(n \\log n)$", "$\\{a\\}$"])
_WORD = st.text(_ALPHABET, min_size=1, max_size=12)
_PIECE = st.one_of(_WORD, _WORD, _MATH, st.sampled_from(["{B}", "50%", "R&D", "#1", "a_b",
                                                         "~", "\\emph", "AB  - x"]))
_TEXT = st.lists(_PIECE, max_size=6).map(lambda words: one_line(" ".join(words)))
_WORD_NO_MATH = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs"),
                                      exclude_characters="\u2028\u2029\x85$"),
                        min_size=1, max_size=12)
_TEXT_NO_MATH = st.lists(
    st.one_of(_WORD_NO_MATH, st.sampled_from(["{B}", "50%", "R&D", "#1", "a_b"])),
    max_size=6).map(lambda words: one_line(" ".join(words)))
_ARXIV = st.sampled_from(["1706.03762", "2401.00001v2", "hep-th/9901001"])
_PLAIN = st.text(st.characters(categories=("L",)), min_size=1, max_size=10).map(one_line)
_NAME_PART = st.text(st.characters(categories=("L",), exclude_characters=","), min_size=1,
                     max_size=10)


@st.composite
def _author(draw: st.DrawFn) -> Author:
    family = " ".join(draw(st.lists(_NAME_PART, min_size=1, max_size=2)))
    given = draw(st.one_of(st.just(""), _NAME_PART))
    return Author(one_line(family), one_line(given))


@st.composite
def records(draw: st.DrawFn, notes: bool = True, note_field: bool = True,
            every: bool = False, math: bool = True, arxiv: bool = True) -> PaperRecord:
    """One record as the readers make it; `notes`: with the user's notes (RIS has N1),
    `note_field`: with a BibTeX note (CSL-JSON's note); `every`: with the fields of issue
    40 too; `math`: text with inline math (RIS writes it as readable text)."""
    text = _TEXT if math else _TEXT_NO_MATH
    entry_type = draw(st.sampled_from(ENTRY_TYPES))
    raw: dict[str, str] = {}
    put_names(raw, "editor", [Author(draw(_PLAIN), draw(st.one_of(st.just(""), _PLAIN)))
                              for _ in range(draw(st.integers(0, 2)))])
    year = draw(st.one_of(st.none(), st.integers(1000, 2999)))
    if year is not None and draw(st.booleans()):
        month = draw(st.integers(1, 12))
        raw["month"] = str(month)
        if every and draw(st.booleans()):
            raw["date"] = f"{year:04d}-{month:02d}-{draw(st.integers(1, 28)):02d}"
    names = ["number", "address", "edition", "language", "shorttitle", "series",
             "shortjournal"]
    if note_field:
        names.append("note")
    if every and entry_type not in ("mastersthesis", "article"):
        # (CSL's genre tells a master's thesis; RIS's M3 of an article is no kind)
        names.append("type")
        if entry_type == "inproceedings" or note_field:
            names.append("eventtitle")
    for name in names:
        put_raw(raw, name, draw(st.one_of(st.just(""), text)))
    if entry_type in _BOOKS:
        put_raw(raw, "isbn", draw(st.sampled_from(["", "978-3-16-148410-0"])))
    else:
        put_raw(raw, "issn", draw(st.sampled_from(["", "1234-5678"])))
    tags = draw(st.lists(_PLAIN, max_size=3, unique=True))
    venue = draw(text)
    publisher = "" if entry_type in _PUBLISHER_IS_VENUE else draw(text)
    if entry_type in _BOOKS:
        venue = publisher  # as the BibTeX reader has it
    if "eventtitle" in raw and entry_type == "inproceedings":
        venue = venue or "Proceedings"  # (RIS: the name T2, the proceedings C3)
    doi = draw(st.sampled_from(["", "10.1145/3292500.3330701", "10.1000/a(b)_c<d>"]))
    if every and arxiv and draw(st.booleans()):
        raw["eprint"], raw["archiveprefix"] = draw(_ARXIV), "arXiv"
        if entry_type == "misc" and not venue and "number" not in raw:
            # A preprint: written as Zotero writes one, with the DOI arXiv gives it.
            publisher = ""
            doi = doi or "10.48550/arXiv." + raw["eprint"].split("v")[0]
    abstract = paragraphs("\n\n".join(draw(st.lists(text, max_size=3))))
    return PaperRecord(
        entry_type=entry_type,
        key=draw(st.one_of(st.none(), st.from_regex(r"[A-Za-z][A-Za-z0-9:_/-]{0,15}",
                                                    fullmatch=True))),
        title=draw(text.filter(bool)),
        authors=draw(st.lists(_author(), max_size=4)),
        abstract=abstract, venue=venue, year=year,
        volume=draw(st.one_of(st.just(""), _PLAIN, st.integers(1, 99).map(str))),
        pages=draw(st.sampled_from(["", "7", "12--19", "e1002", "S1--S9"])),
        publisher=publisher,
        doi=doi,
        url=draw(st.sampled_from(["", "https://example.org/a?b=1&c=%20"])),
        raw=raw, tags=tags,
        notes=paragraphs("\n\n".join(draw(st.lists(text, max_size=2)))) if notes else "")


def fields(record: PaperRecord) -> dict[str, Any]:
    """A record's fields, less where it was read from (for comparing round trips)."""
    values = asdict(record)
    values.pop("source_line")
    return values
