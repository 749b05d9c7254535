"""EndNote XML (File › Export › XML, also written by Bookends and others) read into
records. Pure Python: no Qt, no database.

The file is `<xml><records><record>…</record>…</records></xml>`; a value's text is in
one or more `<style>` runs (an italic species name inside a title is a run of its
own), which are joined. The mapping:

    ref-type name=          entry type (below)
    contributors/authors/author          authors "Family, Given", in order
    contributors/secondary-authors/author  raw editor
    titles/title            title          titles/secondary-title (periodical/full-title)
                                           venue (a book's: raw series)
    dates/year              year           dates/pub-dates/date  raw month (when it names one)
    pages, volume           pages, volume  number   raw number
    abstract                abstract       notes    notes
    keywords/keyword        raw keywords "a, b" ("a; b, c" when one has a comma)
    urls/related-urls/url   url (the first)
    electronic-resource-num DOI            publisher, pub-location  publisher, raw address
    isbn                    raw isbn (books) or issn;  language  raw language

Types: Journal/Magazine/Newspaper/Electronic Article -> article, Book (Edited, Electronic)
-> book, Book Section -> incollection, Conference Paper/Proceedings -> inproceedings,
Thesis -> phdthesis (work-type Master's: mastersthesis), Report -> techreport,
Unpublished Work/Manuscript -> unpublished, anything else -> misc.

A record with no title, author, DOI or URL is reported by its number in the file (and
EndNote's `rec-number`) with its line, the others are imported. The file is parsed with
expat, refusing any DOCTYPE (so no entity, internal or external, can be declared, let
alone expanded); the standard XML character references are read as usual.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from xml.parsers import expat

from papershelf.formats.interchange import (
    one_line,
    pages_in,
    paragraphs,
    put_names,
    put_raw,
    year_month,
)
from papershelf.formats.plugin import Format, head_start
from papershelf.formats.records import (
    Author,
    FormatError,
    PaperRecord,
    ReadProblem,
    ReadResult,
    read_whole,
)
from papershelf.messages import text as message

__all__ = ["is_endnote_xml", "parse_endnote", "read_endnote"]

_TYPES = {
    "journal article": "article", "magazine article": "article",
    "newspaper article": "article", "electronic article": "article",
    "book": "book", "edited book": "book", "electronic book": "book",
    "book section": "incollection", "electronic book section": "incollection",
    "conference paper": "inproceedings", "conference proceedings": "inproceedings",
    "thesis": "phdthesis", "report": "techreport", "government document": "techreport",
    "unpublished work": "unpublished", "manuscript": "unpublished",
}  # fmt: skip
_BOOKS = frozenset({"book"})
_START_RE = re.compile(r"^(?:\ufeff)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<xml>\s*<records\b",
                       re.DOTALL)
_DOI_PREFIX_RE = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


class _Refused(Exception):
    """A DOCTYPE declaration: refused (the only way to declare an entity)."""


def is_endnote_xml(head: str) -> bool:
    """Whether a file's first characters open an EndNote XML file (`<xml><records>`)."""
    return _START_RE.match(head) is not None


def read_endnote(path: str | os.PathLike[str]) -> ReadResult:
    """Read an EndNote XML file; FormatError if it cannot be read, is not well-formed
    XML or not EndNote's."""
    return read_whole(path, parse_endnote)


def _parse(data: bytes, path: str) -> tuple[ET.Element, list[int]]:
    """The document's root element and the line of each `<record>`."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    builder = ET.TreeBuilder()
    lines: list[int] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "record":
            lines.append(parser.CurrentLineNumber)
        builder.start(tag, attrs)

    def refuse(*_args: object) -> None:
        raise _Refused()

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(data, True)
    except _Refused:
        raise FormatError(path, message(
            "the XML file declares a DOCTYPE, which EndNote never writes; refused (it "
            "could declare entities)"), parser.CurrentLineNumber) from None
    except expat.ExpatError as exc:
        raise FormatError(path, message("not well-formed XML: {reason}",
                                        reason=expat.ErrorString(exc.code)),
                          exc.lineno) from None
    return builder.close(), lines


def parse_endnote(data: bytes, path: str) -> ReadResult:
    """The records of EndNote XML (`path` only names it in messages): one problem per
    unusable record, the others read; FormatError if the file is not EndNote XML."""
    root, lines = _parse(data, path)
    records = root.find("records")
    if root.tag != "xml" or records is None:
        raise FormatError(path, message(
            "not an EndNote XML file: it starts with <{root}>, not <xml><records>",
            root=root.tag))
    result = ReadResult()
    for number, (element, line) in enumerate(zip(records.iter("record"), lines), start=1):
        record = _record(element, line)
        if record is None:
            rec_number = _text(element.find("rec-number"))
            which = message("record {n} (rec-number {rec})", n=number, rec=rec_number) \
                if rec_number else message("record {n}", n=number)
            result.problems.append(ReadProblem(path, line, message(
                "{which} has no title, author, DOI or URL; skipped", which=which)))
        else:
            result.records.append(record)
    if not result.records and not result.problems:
        result.notices.append(message("{path}: no records found", path=path))
    return result


def _text(element: ET.Element | None) -> str:
    """The text of an element (its `<style>` runs joined), on one line."""
    return "" if element is None else one_line("".join(element.itertext()))


def _texts(element: ET.Element, path: str) -> list[str]:
    return [t for t in (_text(e) for e in element.findall(path)) if t]


def _author(value: str) -> Author | None:
    """`Family, Given`; a name without a comma is all family (a group, an institute)."""
    family, _, given = (one_line(part) for part in value.partition(","))
    return Author(family, given) if family else None


def _record(element: ET.Element, line: int) -> PaperRecord | None:
    """The record of one `<record>`, or None when nothing identifies a paper in it."""
    ref_type = element.find("ref-type")
    type_name = (ref_type.get("name", "") if ref_type is not None else "").strip().lower()
    entry_type = _TYPES.get(type_name, "misc")
    if entry_type == "phdthesis" and "master" in _text(element.find("work-type")).lower():
        entry_type = "mastersthesis"
    raw: dict[str, str] = {}
    authors = [a for a in map(_author, _texts(element, "contributors/authors/author")) if a]
    put_names(raw, "editor", [a for a in map(
        _author, _texts(element, "contributors/secondary-authors/author")) if a])
    title = _text(element.find("titles/title"))
    venue = (_text(element.find("titles/secondary-title"))
             or _text(element.find("periodical/full-title")))
    publisher = _text(element.find("publisher"))
    if entry_type in _BOOKS:
        put_raw(raw, "series", venue)
        venue = publisher
    elif entry_type in ("phdthesis", "mastersthesis", "techreport") and not venue:
        venue, publisher = publisher, ""
    year, _ = year_month(_text(element.find("dates/year")))
    found_year, month = year_month(_text(element.find("dates/pub-dates/date")))
    year = year or found_year
    if month is not None:
        raw["month"] = str(month)
    put_raw(raw, "number", _text(element.find("number")))
    put_raw(raw, "address", _text(element.find("pub-location")))
    put_raw(raw, "language", _text(element.find("language")))
    serial = _text(element.find("isbn"))
    digits = re.sub(r"[^0-9Xx]", "", serial)
    put_raw(raw, "isbn" if entry_type in _BOOKS or len(digits) in (10, 13) else "issn",
            serial)
    keywords = _texts(element, "keywords/keyword")
    put_raw(raw, "keywords", ("; " if any("," in k for k in keywords) else ", ").join(keywords))
    doi = _DOI_PREFIX_RE.sub("", _text(element.find("electronic-resource-num")))
    urls = _texts(element, "urls/related-urls/url")
    url = urls[0] if urls else ""
    if not (title or authors or doi or url):
        return None
    abstract = element.find("abstract")
    notes = element.find("notes")
    return PaperRecord(
        entry_type=entry_type, title=title, authors=authors,
        abstract=paragraphs("".join(abstract.itertext())) if abstract is not None else "",
        venue=venue, year=year, volume=_text(element.find("volume")),
        pages=pages_in(_text(element.find("pages"))), publisher=publisher, doi=doi, url=url,
        raw=raw, notes=paragraphs("".join(notes.itertext())) if notes is not None else "",
        source_line=line)


FORMAT = Format(
    name="endnote", title="EndNote XML", suffixes=(".xml",),
    sniff=lambda head: is_endnote_xml(head_start(head)), read=read_endnote, parse=parse_endnote)
