"""RIS (Zotero, Mendeley, EndNote, publishers' "export citation") read into records and
written from them. Pure Python: no Qt, no database.

A record runs from its `TY  - CODE` line to its `ER  -` line, or to the next `TY` line
when it has no ER (as JabRef and rispy read one paper per TY); each line is a two-letter
tag, `  - ` and a value, and an untagged line continues the value above it (untagged
lines between records, like the `1.` that rispy numbers them with, are skipped). The mapping:

    TY            entry type (below)          AU, A1      authors "Family, Given"
    TI, T1 (CT)   title                       A2, A3, ED  raw editor
    T2, JF, JO, BT  venue (journal, booktitle, howpublished by type); a book's: raw series;
                  JA too when there is none (the abbreviation is then the venue)
    JA, J2        raw shortjournal            T3          raw series
    PY, DA, Y1    year, raw month, a day as raw date (`2015/02/26` is 2015-02-26)
    AB, N2        abstract
    DO            doi                         UR          url (the first)
    VL            volume                      IS          raw number
    SP, EP        pages "SP--EP"
    PB            publisher (a book's venue too; a thesis's school and a report's
                  institution: venue, their T2 then raw series)
    SN            raw isbn (books) or issn
    C3            a conference paper's venue (its proceedings; T2 then: raw eventtitle)
    M1            a JOUR's raw number when it has no IS (EndNote writes the issue there)
    CY            raw address                 ET, LA, ST  raw edition, language, shorttitle
    KW            tags (Zotero's tags; written from the tags, else raw keywords)
    N1            notes (their lines kept; written whenever a paper has notes)
    ID            key (when it can be one)
    M3            raw type (a report's or thesis's kind); `Master's thesis` makes a THES
                  a mastersthesis

Other tags, and tags whose value no field keeps (a book's third title), are dropped (one
notice names them). Written values are text, not TeX (`$\\ell_0$` is ℓ₀); a bare acronym
venue (`ICML`) is the full title the BibTeX export writes, with the acronym as J2, and a
URL venue (`howpublished = {\\url{...}}`) is written as UR.

Types: JOUR EJOUR JFULL MGZN NEWS INPR -> article, CONF CPAPER -> inproceedings, BOOK
EBOOK EDBOOK -> book, CHAP ECHAP -> incollection, THES -> phdthesis, RPRT -> techreport,
UNPB -> unpublished, anything else (GEN, ELEC, ...) -> misc; written back as JOUR, CONF,
BOOK, CHAP, THES, RPRT, UNPB, GEN.

rispy was tried for the tags and dropped: it gives no line numbers, silently drops an
unterminated last record and joins an abstract's paragraphs; the tag syntax itself is one
regular expression.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from papershelf.formats.bibtex.decode import drop_controls
from papershelf.formats.interchange import (
    date_of,
    day_of,
    decoded,
    keywords_of,
    names_of,
    one_line,
    pages_in,
    pages_out,
    paragraphs,
    put_date,
    put_names,
    put_raw,
    raw_text,
    short_venue,
    tags_of,
    usable_key,
    venue_names,
    year_month,
)
from papershelf.formats.plugin import (
    Format,
    PieceContext,
    PieceRead,
    Pieces,
    ReadWhole,
    head_start,
    interchange_writer,
)
from papershelf.formats.readable import math_to_text
from papershelf.formats.records import (
    PUBLISHER_IS_VENUE,
    Author,
    FormatError,
    PaperRecord,
    ReadProblem,
    ReadResult,
    read_whole,
)
from papershelf.messages import text as message

__all__ = ["parse_ris", "read_ris", "write_ris"]

# Zotero's reader too takes one or two spaces before the dash.
_TAG_RE = re.compile(r"^([A-Z][A-Z0-9]) {1,2}-(?: (.*))?$")
_LINE_RE = re.compile(r"\r\n|\r|\n")

TYPE_OF_RIS = {
    **dict.fromkeys(("JOUR", "EJOUR", "JFULL", "MGZN", "NEWS", "INPR"), "article"),
    **dict.fromkeys(("CONF", "CPAPER"), "inproceedings"),
    **dict.fromkeys(("BOOK", "EBOOK", "EDBOOK"), "book"),
    **dict.fromkeys(("CHAP", "ECHAP"), "incollection"),
    "THES": "phdthesis", "RPRT": "techreport", "UNPB": "unpublished",
}
RIS_OF_TYPE = {
    "article": "JOUR", "inproceedings": "CONF", "conference": "CONF", "proceedings": "CONF",
    "book": "BOOK", "incollection": "CHAP", "inbook": "CHAP", "phdthesis": "THES",
    "mastersthesis": "THES", "techreport": "RPRT", "unpublished": "UNPB", "online": "ELEC",
}
_MASTERS = "Master's thesis"
_BOOKS = frozenset({"book", "proceedings"})
_RAW_TAGS = {"IS": "number", "CY": "address", "ET": "edition", "LA": "language",
             "ST": "shorttitle", "T3": "series"}
_VERBATIM = frozenset({"ID", "DO", "UR"})
_NOTE_LINES_RE = re.compile(r"[ \t]*\n[ \t]*")
_BLANKS_RE = re.compile(r"\n{3,}")


@dataclass
class _Entry:
    """One record's lines: its TY line's number and (tag, value) pairs in file order."""

    line: int
    type_code: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    used: set[str] = field(default_factory=set)  # tags a value was taken from

    def all(self, *tags: str) -> list[str]:
        """The non-empty values of `tags`, in file order."""
        values = [(t, v) for t, v in self.fields if t in tags and v.strip()]
        self.used.update(t for t, _ in values)
        return [v for _, v in values]

    def first(self, *tags: str) -> str:
        """The value of the first of `tags` (in that order of preference) present."""
        for tag in tags:
            values = self.all(tag)
            if values:
                return values[0]
        return ""

    def unread(self) -> set[str]:
        """The tags with a value that no field took."""
        return {t for t, v in self.fields if v.strip() and t not in self.used}


def read_ris(path: str | os.PathLike[str]) -> ReadResult:
    """Read an RIS file; FormatError if it cannot be read or holds no RIS record."""
    return read_whole(path, parse_ris)


def parse_ris(data: bytes | str, path: str) -> ReadResult:
    """The records of RIS text (`path` only names it in messages): one problem per bad
    record, the good ones read; FormatError if there is no TY line at all. Control
    characters are dropped, with a notice for each line that had some (as the BibTeX
    reader does): a record that held nothing else is reported."""
    text, dropped_controls = drop_controls(decoded(data, path), path)
    result, dropped = parse_ris_part(text, path)
    result.notices[:0] = dropped_controls
    if dropped:
        result.notices.append(tags_not_kept(path, dropped))
    return result


def tags_not_kept(path: str, tags: Iterable[str]) -> str:
    """The notice naming the RIS tags of a file that no field keeps."""
    return message("{path}: RIS tags not kept: {tags}", path=path,
                   tags=", ".join(sorted(tags)))


def parse_ris_part(text: str, path: str, first_line: int = 1) -> tuple[ReadResult, set[str]]:
    """The records of RIS text that starts at line `first_line` of the file `path` (a
    piece of a big file, read in a worker: core.ingest), and the tags no field keeps;
    FormatError if there is no TY line at all."""
    entries, result = _split(text, path, first_line)
    if not entries and not result.problems:
        raise FormatError(path, message("no RIS records (no TY line)"))
    dropped: set[str] = set()
    for entry in entries:
        record = _record(entry)
        if record is None:
            result.problems.append(ReadProblem(path, entry.line, message(
                "record has no title, author, DOI or URL")))
        else:
            result.records.append(record)
            dropped.update(entry.unread())
    result.problems.sort(key=lambda p: p.line or 0)
    return result, dropped


def _split(text: str, path: str, first_line: int = 1) -> tuple[list[_Entry], ReadResult]:
    """The file's well-formed records, and a problem for each broken one."""
    result = ReadResult()
    entries: list[_Entry] = []
    current: _Entry | None = None
    stray: int | None = None  # first line of tagged lines outside any record
    for number, line in enumerate(_LINE_RE.split(text), start=first_line):
        match = _TAG_RE.match(line.rstrip())
        if match is None:
            if current is not None and current.fields:
                tag, value = current.fields[-1]
                current.fields[-1] = (tag, f"{value}\n{line.strip()}")
            continue
        tag, value = match.group(1), (match.group(2) or "").strip()
        if tag == "TY":
            if current is not None:  # (a record without ER ends at the next TY)
                _close(current, entries, result, path)
            if stray is not None:
                result.problems.append(ReadProblem(path, stray, message(
                    "lines outside a record (no TY line before them)")))
                stray = None
            current = _Entry(number, value)
        elif tag == "ER":
            if current is not None:
                _close(current, entries, result, path)
            elif stray is not None:
                result.problems.append(ReadProblem(path, stray, message(
                    "record without a TY line")))
            current, stray = None, None
        elif current is not None:
            current.fields.append((tag, value))
        elif stray is None:
            stray = number
    if current is not None:
        _close(current, entries, result, path)
    if stray is not None:
        result.problems.append(ReadProblem(path, stray, message(
            "lines outside a record (no TY line before them)")))
    return entries, result


def _close(entry: _Entry, entries: list[_Entry], result: ReadResult, path: str) -> None:
    """The end of a record (its ER, the next TY or the end of the file)."""
    if entry.type_code:
        entries.append(entry)
    else:
        result.problems.append(ReadProblem(path, entry.line, message(
            "TY line without a type")))


def _first_value(entry: _Entry, tag: str) -> str:
    """The first value of `tag`, not taken as read (a look at it)."""
    return next((v for t, v in entry.fields if t == tag and v.strip()), "")


def _note(value: str) -> str:
    """Notes as written, line by line (white space around lines and runs of blank lines
    tidied): a list in a note stays a list."""
    return _BLANKS_RE.sub("\n\n", _NOTE_LINES_RE.sub("\n", value.strip()))


def _author(value: str) -> Author | None:
    """`Family, Given` (`Family, Given, Suffix`); a name without a comma is all family."""
    family, _, given = (one_line(part) for part in value.partition(","))
    return Author(family, given) if family else None


def _record(entry: _Entry) -> PaperRecord | None:
    """The record of one entry, or None when nothing identifies a paper in it."""
    code = entry.type_code.upper()
    entry_type = TYPE_OF_RIS.get(code, "misc")
    if entry_type == "phdthesis" and "master" in _first_value(entry, "M3").lower():
        entry_type = "mastersthesis"
    raw: dict[str, str] = {}
    if entry_type != "article":  # (a journal article's M3 is often its DOI or "Article")
        kind = entry.first("M3")
        put_raw(raw, "type", "" if kind.lower() == _MASTERS.lower() else kind)
    authors = [a for a in map(_author, entry.all("AU", "A1")) if a is not None]
    put_names(raw, "editor", [a for a in map(_author, entry.all("A2", "A3", "ED")) if a])
    title = one_line(entry.first("TI", "T1", "CT"))
    venue = one_line(entry.first("T2", "JF", "JO", "BT"))
    if not venue and entry_type not in _BOOKS:  # (the abbreviation is all there is)
        venue = one_line(entry.first("JA"))
    if entry_type == "inproceedings" and entry.first("C3"):
        # EndNote and Zotero write a paper's proceedings title as C3 and the conference's
        # name as T2 (zotero/translators' RIS.js test cases): the proceedings are the
        # booktitle; the name is kept as biblatex's eventtitle.
        put_raw(raw, "eventtitle", venue)
        venue = one_line(entry.first("C3"))
    if entry_type in _BOOKS:
        if not title:
            title, venue = one_line(entry.first("BT")), ""
        elif venue:
            put_raw(raw, "series", venue)
            venue = ""
    publisher = one_line(entry.first("PB"))
    if entry_type in PUBLISHER_IS_VENUE and publisher:
        # A thesis's university and a report's institution are PB (RIS.js's test cases);
        # T2 there is a department or a report series, kept as the series.
        put_raw(raw, "series", venue)
        venue, publisher = publisher, ""
    elif entry_type in _BOOKS:
        venue = publisher  # as the BibTeX reader has it (a book's venue field: publisher)
    put_raw(raw, "shortjournal", entry.first("J2", "JA"))
    venue = short_venue(venue, raw)
    year, month, day = None, None, None
    # Y1 is deprecated: DA's date comes before it even when Y1 comes first (RIS.js).
    for tag in ("PY", "DA", "Y1"):
        found_year, found_month = year_month(entry.first(tag))
        if found_month is not None and month is None and found_year == (year or found_year):
            day = day_of(entry.first(tag))
        year = year or found_year
        month = month or found_month
    put_date(raw, year, month, day)
    first, last = entry.first("SP"), entry.first("EP")
    pages = pages_in(f"{first}--{last}" if first and last else first or last)
    for tag, name in _RAW_TAGS.items():
        if name not in raw:
            put_raw(raw, name, entry.first(tag))
    if code in ("JOUR", "EJOUR") and "number" not in raw:
        put_raw(raw, "number", entry.first("M1"))  # EndNote's issue (Zotero reads it too)
    serial = one_line(entry.first("SN"))
    digits = re.sub(r"[^0-9Xx]", "", serial)
    put_raw(raw, "isbn" if entry_type in _BOOKS or len(digits) in (10, 13) else "issn", serial)
    doi = one_line(entry.first("DO"))
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi, flags=re.IGNORECASE)
    url = one_line(entry.first("UR"))
    if not (title or authors or doi or url):
        return None
    return PaperRecord(
        entry_type=entry_type, key=usable_key(entry.first("ID")), title=title,
        authors=authors, abstract=paragraphs(entry.first("AB", "N2")), venue=venue,
        year=year, volume=one_line(entry.first("VL")), pages=pages, publisher=publisher,
        doi=doi, url=url, raw=raw, notes="\n\n".join(_note(n) for n in entry.all("N1")),
        tags=tags_of(entry.all("KW")),
        source_line=entry.line)


def _value_lines(value: str) -> str:
    """A multi-line value as RIS continuation lines; one that would read as a tag is
    indented (readers strip continuation lines)."""
    lines = value.split("\n")
    return "\n".join([lines[0], *(f" {x}" if _TAG_RE.match(x) else x for x in lines[1:])])


def _tags(record: PaperRecord, include_notes: bool) -> list[tuple[str, str]]:
    """The (tag, value) lines of one record, TY first and ER last."""
    entry_type = (record.entry_type or "misc").lower()
    out: list[tuple[str, str]] = [("TY", RIS_OF_TYPE.get(entry_type, "GEN"))]

    def put(tag: str, value: str) -> None:
        if value:  # (text, not TeX: `$\\ell_0$` is ℓ₀)
            out.append((tag, value if tag in _VERBATIM else math_to_text(value)))

    put("ID", record.key or "")
    put("TI", one_line(record.title))
    for author in record.authors:
        put("AU", f"{author.family}, {author.given}" if author.given else author.family)
    for editor in names_of(record, "editor"):
        put("A2", f"{editor.family}, {editor.given}" if editor.given else editor.family)
    venue, short, url = venue_names(record)
    if entry_type in PUBLISHER_IS_VENUE:
        put("PB", venue or record.publisher)
    else:
        eventtitle = raw_text(record, "eventtitle") if entry_type == "inproceedings" else ""
        if eventtitle:  # (the conference's name T2, its proceedings C3, as they are read)
            put("T2", eventtitle)
            put("C3", venue)
        elif entry_type not in _BOOKS:
            put("T2", venue)
        put("PB", record.publisher)
    put("J2", short)
    put("T2" if entry_type in _BOOKS else "T3", raw_text(record, "series"))
    put("M3", raw_text(record, "type") or (_MASTERS if entry_type == "mastersthesis" else ""))
    date = date_of(record)
    if date:
        put("PY", str(record.year))
        if len(date) > 1:
            day = f"{date[2]:02d}" if len(date) > 2 else ""
            put("DA", f"{date[0]}/{date[1]:02d}/{day}/")
    put("VL", record.volume)
    first, last = pages_out(record.pages)
    put("SP", first)
    put("EP", last)
    for tag, name in _RAW_TAGS.items():
        if name != "series":
            put(tag, raw_text(record, name))
    put("SN", raw_text(record, "isbn") or raw_text(record, "issn"))
    put("DO", record.doi)
    put("UR", record.url or url)
    for keyword in keywords_of(record):
        put("KW", keyword)
    put("AB", record.abstract.strip())
    if include_notes:
        put("N1", record.notes.strip())
    out.append(("ER", ""))
    return out


def write_ris(records: Iterable[PaperRecord], *, include_notes: bool = True) -> str:
    """RIS text for `records` (write it as UTF-8). `include_notes` writes the user's notes
    as N1 (where Zotero and EndNote keep them: an export writes them)."""
    blocks = []
    for record in records:
        lines = [f"{tag}  - {_value_lines(value)}".rstrip(" ") + (" " if tag == "ER" else "")
                 for tag, value in _tags(record, include_notes)]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


# How an RIS file starts: a record's TY line.
_START_RE = re.compile(r"TY {1,2}- ")
# Where a piece of a big RIS file may start: a record's TY line.
_PIECE_RE = re.compile(rb"\n(?=TY {1,2}-)")


def _read_piece(text: str, first_line: int, first: bool, context: PieceContext) -> PieceRead:
    try:
        result, unkept = parse_ris_part(text, context.path, first_line)
    except FormatError:  # (no record in the first piece: the whole file's reader says so)
        raise ReadWhole() from None
    return PieceRead(result.records, result.problems, result.notices, unkept=unkept)


def _finish(context: PieceContext, read: int, skipped: list[tuple[int, str]],
            unkept: set[str]) -> tuple[list[ReadProblem], list[str]]:
    """One notice for the file's tags no field keeps, as its whole reader words it."""
    return [], [tags_not_kept(context.path, unkept)] if unkept else []


FORMAT = Format(
    name="ris", title="RIS", suffixes=(".ris",),
    sniff=lambda head: _START_RE.match(head_start(head)) is not None,
    read=read_ris, parse=parse_ris, pieces=Pieces(_PIECE_RE, _read_piece, finish=_finish),
    write=interchange_writer(write_ris))
