"""CSL-JSON (as Zotero exports it and citeproc reads it) read into records and written
from them. Pure Python: no Qt, no database.

A file is a JSON array of items (one bare item is taken too). The mapping:

    citation-key, id     key (when it can be one; citation-key first)
    type                 entry type (below)
    title                title              title-short           raw shorttitle
    author               authors ({family, given, particles, suffix} or {literal}; the
                         particles and suffix join the family name: `van der Meer`)
    editor               raw editor
    issued               year, raw month (`jul`, `{July}` and `7` alike), and a day as
                         raw date `2015-02-26` (date-parts, else raw or literal text)
    container-title      venue (journal, booktitle, howpublished by type; a book's: raw
                         series); a bare acronym venue (`ICML`, the sample papers') is
                         written as the full title the BibTeX export writes, and a URL
                         venue (`howpublished = {\\url{...}}`) as the URL
    container-title-short, journalAbbreviation  raw shortjournal (written: it, else the
                         acronym)
    collection-title     raw series         event-title, event    raw eventtitle
    publisher            publisher (a book's venue too; a thesis's school, a report's
                         institution: venue)
    publisher-place      raw address        volume                volume
    issue, number        raw number         page                  pages ("12-19" <-> "12--19")
    genre                raw type (a report's or thesis's kind)
    DOI, URL, abstract   doi, url, abstract ISBN, ISSN            raw isbn, issn
    edition, language    raw edition, language
    note                 raw note (Zotero's Extra: BibTeX's note, not the user's notes)
    keyword              tags ("a, b"), written from the tags, else raw keywords

An arXiv preprint (a paper written as CSL `article` with an arXiv identifier) is written
as Zotero writes one: `publisher: "arXiv"`, `number: "arXiv:ID"` and the DOI arXiv gives
it (10.48550/arXiv.ID) when it has no other; it is read back as raw eprint and
archiveprefix. Another paper's arXiv eprint is a note line `arXiv: ID`, as Zotero keeps it
in Extra.

Other keys are dropped (one notice names them); the user's notes are not written (CSL
has no field for them). A record without a key is written with the id `item<N>`.

Types: article-journal, article-magazine, article-newspaper -> article; paper-conference
-> inproceedings; book -> book; chapter -> incollection; thesis -> phdthesis; report ->
techreport; manuscript -> unpublished; anything else (article: a preprint, webpage,
document, ...) -> misc. Written back as article-journal, paper-conference, book, chapter,
thesis, report, manuscript, and article (misc and the rest).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from papershelf.formats.bibtex.biblatex import arxiv_id
from papershelf.formats.bibtex.decode import control_notice, without_controls
from papershelf.formats.interchange import (
    date_of,
    day_of,
    decoded,
    keywords_of,
    names_of,
    one_line,
    pages_in,
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
from papershelf.formats.plugin import Format, head_start, interchange_writer
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

__all__ = ["csl_items", "parse_csl_json", "read_csl_json", "write_csl_json"]

TYPE_OF_CSL = {
    "article-journal": "article", "article-magazine": "article",
    "article-newspaper": "article", "paper-conference": "inproceedings", "book": "book",
    "chapter": "incollection", "thesis": "phdthesis", "report": "techreport",
    "manuscript": "unpublished",
}
CSL_OF_TYPE = {
    "article": "article-journal", "inproceedings": "paper-conference",
    "conference": "paper-conference", "proceedings": "book", "book": "book",
    "incollection": "chapter", "inbook": "chapter", "phdthesis": "thesis",
    "mastersthesis": "thesis", "techreport": "report", "unpublished": "manuscript",
    "online": "webpage",
}
_BOOKS = frozenset({"book", "proceedings"})
_ARTICLES = frozenset({"article", "inproceedings", "conference"})
# Plain-text keys kept as raw BibTeX fields, and the field each goes to.
_RAW_KEYS = {"title-short": "shorttitle", "container-title-short": "shortjournal",
             # (Zotero's older name of container-title-short; a conference's name)
             "journalAbbreviation": "shortjournal", "event-title": "eventtitle",
             "event": "eventtitle",
             "collection-title": "series", "publisher-place": "address", "ISBN": "isbn",
             "ISSN": "issn", "edition": "edition", "language": "language", "genre": "type"}
_MASTERS = "Master's thesis"
_ARXIV_NUMBER_RE = re.compile(r"^arXiv:\s*(\S+)$", re.IGNORECASE)
_ARXIV_NOTE_RE = re.compile(r"^arXiv:\s*(\S+)$", re.IGNORECASE | re.MULTILINE)
_KNOWN = frozenset({"id", "citation-key", "type", "title", "author", "editor", "issued",
                    "container-title", "publisher", "volume", "issue", "number", "page",
                    "DOI", "URL", "abstract", "keyword", "note", *_RAW_KEYS})
_WHITE_RE = re.compile(r"[ \t\r\n]*")
_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # a string, or a bracket
# Nesting refused when Python's JSON reader cannot hold it (RecursionError, some 900
# levels), said as deeper than this (CSL-JSON itself nests 5 levels at most).
MAX_DEPTH = 500


def read_csl_json(path: str | os.PathLike[str]) -> ReadResult:
    """Read a CSL-JSON file; FormatError if it cannot be read or is not CSL-JSON."""
    return read_whole(path, parse_csl_json)


def parse_csl_json(data: bytes | str, path: str) -> ReadResult:
    """The records of CSL-JSON text (`path` only names it in messages): one problem per
    unusable item, the good ones read; FormatError if it is not JSON or not a list."""
    text = decoded(data, path)
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(path, message("not valid JSON: {reason} (column {column})",
                                        reason=exc.msg, column=exc.colno),
                          line=exc.lineno) from exc
    except RecursionError:  # (some 900 levels: no CSL-JSON comes near)
        raise FormatError(path, message("JSON nested more than {depth} levels deep",
                                        depth=MAX_DEPTH), line=_too_deep(text)) from None
    result = ReadResult()
    if isinstance(whole, dict) and ("title" in whole or "type" in whole):
        items = [(1 + text.count("\n", 0, text.index("{")), whole)]
    elif isinstance(whole, list):
        items = _items(text)
    else:
        raise FormatError(path, message("not CSL-JSON: expected a list of items"))
    dropped: set[str] = set()
    for line, item in items:
        controls = _drop_controls(item)
        if controls:
            result.notices.append(control_notice(f"{path}:{line}", controls))
        record = _record(item, line, dropped) if isinstance(item, dict) else None
        if record is None:
            why = (message("item has no title, author, DOI or URL") if isinstance(item, dict)
                   else message("item is not an object"))
            result.problems.append(ReadProblem(path, line, why))
        else:
            result.records.append(record)
            dropped.update(k for k in item if k not in _KNOWN)
    if dropped:
        result.notices.append(message("{path}: CSL-JSON keys not kept: {keys}", path=path,
                                      keys=", ".join(sorted(dropped))))
    return result


def _drop_controls(item: Any) -> Counter[str]:
    """Drop the control characters of every text in `item`, its keys too (in place,
    however deep: no recursion) and count them, as the BibTeX reader drops those of a
    file."""
    counts: Counter[str] = Counter()
    stack = [item] if isinstance(item, (dict, list)) else []
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for name in [k for k in node if without_controls(k, Counter()) != k]:
                node[without_controls(name, counts)] = node.pop(name)
        pairs = node.items() if isinstance(node, dict) else enumerate(node)
        for name, value in list(pairs):
            if isinstance(value, str):
                node[name] = without_controls(value, counts)
            elif isinstance(value, (dict, list)):
                stack.append(value)
    return counts


def _items(text: str) -> list[tuple[int, Any]]:
    """The top-level elements of a JSON array (already known valid), each with the
    1-based line it starts on."""
    decoder = json.JSONDecoder()
    pos = _skip(text, 0) + 1  # past "["
    line, counted = 1, 0
    items: list[tuple[int, Any]] = []
    while True:
        pos = _skip(text, pos)
        if text[pos] == "]":
            return items
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
        line += text.count("\n", counted, pos)
        counted = pos
        value, pos = decoder.raw_decode(text, pos)
        items.append((line, value))


def _too_deep(text: str) -> int:
    """The 1-based line on which JSON `text` first nests deeper than MAX_DEPTH (1 if it
    does not: the reader failed all the same)."""
    depth = 0
    for token in _TOKEN_RE.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return 1 + text.count("\n", 0, token.start())
        elif mark in "]}":
            depth -= 1
    return 1


def _skip(text: str, pos: int) -> int:
    """The position of the first character at or after `pos` that is not JSON white space."""
    match = _WHITE_RE.match(text, pos)
    return match.end() if match else pos


def _key(item: dict[str, Any]) -> str | None:
    """The item's citation key: its `citation-key`, else an `id` that is not a number
    (citeproc's counters) or a URI (Zotero's item address)."""
    key = usable_key(item.get("citation-key"))
    ident = item.get("id")
    if key is None and isinstance(ident, str) and "://" not in ident:
        key = usable_key(ident)
    return key


def _text(value: Any) -> str:
    """A value as one line of text (numbers too; anything else is "")."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, (int, float)):
        return str(value)
    return one_line(value) if isinstance(value, str) else ""


def _people(value: Any) -> list[Author]:
    """CSL names: {family, given, particles, suffix} or {literal}."""
    people: list[Author] = []
    for name in value if isinstance(value, list) else []:
        if not isinstance(name, dict):
            continue
        # Both particles and a suffix go with the family name, as the BibTeX reader has a
        # name's von and Jr parts (the CSL test suite's `van der Meer`, `d'Jones`,
        # `Doe Jr.`); they were dropped before.
        family = ""
        for part in ("dropping-particle", "non-dropping-particle", "family", "suffix"):
            text = _text(name.get(part))
            if text:
                glue = "" if not family or family.endswith(("'", "\u2019", "-")) else " "
                family = f"{family}{glue}{text}"
        given = _text(name.get("given"))
        if not family:
            family, given = _text(name.get("literal")) or given, ""
        if family:
            people.append(Author(family, given))
    return people


def _issued(value: Any) -> tuple[int | None, int | None, int | None]:
    """Year, month and day of a CSL date: `date-parts`, else its `raw` or `literal` text."""
    if not isinstance(value, dict):
        text = _text(value)
        return (*year_month(text), day_of(text))
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = [_text(p) for p in parts[0][:3]]
        if first[0].isdigit():
            month = int(first[1]) if len(first) > 1 and first[1].isdigit() else None
            if not (month and 1 <= month <= 12):
                return int(first[0]), None, None
            day = int(first[2]) if len(first) > 2 and first[2].isdigit() else None
            return int(first[0]), month, day if day and 1 <= day <= 31 else None
    text = _text(value.get("raw")) or _text(value.get("literal"))
    return (*year_month(text), day_of(text))


def _record(item: dict[str, Any], line: int, dropped: set[str]) -> PaperRecord | None:
    """The record of one item, or None when nothing identifies a paper in it; adds the
    keys whose values it does not keep to `dropped`."""
    csl_type = _text(item.get("type"))
    entry_type = TYPE_OF_CSL.get(csl_type, "misc")
    genre = _text(item.get("genre"))
    if entry_type == "phdthesis" and "master" in genre.lower():
        entry_type = "mastersthesis"
    raw: dict[str, str] = {}
    put_names(raw, "editor", _people(item.get("editor")))
    year, month, day = _issued(item.get("issued"))
    put_date(raw, year, month, day)
    number = _text(item.get("issue")) or _text(item.get("number"))
    publisher = _text(item.get("publisher"))
    preprint = _ARXIV_NUMBER_RE.match(number) if entry_type == "misc" else None
    if preprint is not None:  # (Zotero's preprint: its archive ID, arXiv the publisher)
        number = _text(item.get("issue"))
        raw["eprint"], raw["archiveprefix"] = preprint.group(1), "arXiv"
        if publisher.lower() == "arxiv":
            publisher = ""
    put_raw(raw, "number", number)
    for key, name in _RAW_KEYS.items():
        if name not in raw:  # (the first of two keys of one field)
            put_raw(raw, name, _text(item.get(key)))
    if entry_type == "mastersthesis" and genre.lower() == _MASTERS.lower():
        raw.pop("type", None)
    note = item.get("note")
    if isinstance(note, str) and "eprint" not in raw:
        eprint = _ARXIV_NOTE_RE.search(note)
        if eprint is not None:  # (Zotero's Extra line of a published paper's preprint)
            raw["eprint"], raw["archiveprefix"] = eprint.group(1), "arXiv"
            note = _ARXIV_NOTE_RE.sub("", note, count=1)
    put_raw(raw, "note", _text(note))
    keywords = item.get("keyword")
    words = [_text(k) for k in keywords] if isinstance(keywords, list) else [_text(keywords)]
    venue = _text(item.get("container-title"))
    if entry_type in PUBLISHER_IS_VENUE and not venue:
        venue, publisher = publisher, ""
    elif entry_type in _BOOKS:
        if venue and "series" not in raw:  # (Crossref's book in a series)
            put_raw(raw, "series", venue)
        elif venue:
            dropped.add("container-title")
        venue = publisher  # as the BibTeX reader has it (a book's venue field: publisher)
    venue = short_venue(venue, raw)
    title, authors = _text(item.get("title")), _people(item.get("author"))
    doi, url = _text(item.get("DOI")), _text(item.get("URL"))
    if not (title or authors or doi or url):
        return None
    abstract = item.get("abstract")
    return PaperRecord(
        entry_type=entry_type,
        key=_key(item),
        title=title, authors=authors,
        abstract=paragraphs(abstract) if isinstance(abstract, str) else "",
        venue=venue, year=year, volume=_text(item.get("volume")),
        pages=pages_in(_text(item.get("page"))), publisher=publisher, doi=doi, url=url,
        raw=raw, tags=tags_of(words), source_line=line)


def _names(people: list[Author]) -> list[dict[str, str]]:
    return [{"family": p.family, "given": p.given} if p.given else {"literal": p.family}
            for p in people]


def _item(record: PaperRecord, number: int) -> dict[str, Any]:
    """One record as a CSL item (empty values left out)."""
    entry_type = (record.entry_type or "misc").lower()
    csl_type = CSL_OF_TYPE.get(entry_type, "article")
    item: dict[str, Any] = {"id": record.key or f"item{number}", "type": csl_type}
    item["title"] = one_line(record.title)
    item["author"] = _names(record.authors)
    item["editor"] = _names(names_of(record, "editor"))
    date = date_of(record)
    if date:
        item["issued"] = {"date-parts": [date]}
    venue, short, url = venue_names(record)
    if entry_type in PUBLISHER_IS_VENUE:
        item["publisher"] = venue or record.publisher
    else:
        if entry_type not in _BOOKS:
            item["container-title"] = venue
        item["publisher"] = record.publisher
    item["volume"] = record.volume
    item["issue" if entry_type in _ARTICLES else "number"] = raw_text(record, "number")
    item["page"] = record.pages.replace("--", "-")
    for key, name in _RAW_KEYS.items():
        if key not in ("journalAbbreviation", "event"):  # (written under the other key)
            item[key] = raw_text(record, name)
    item["container-title-short"] = short
    if entry_type == "mastersthesis" and not item["genre"]:
        item["genre"] = _MASTERS
    item["DOI"], item["URL"] = record.doi, record.url or url
    item["note"] = raw_text(record, "note")
    _put_arxiv(item, record, csl_type == "article" and not venue)
    item["abstract"] = record.abstract.strip()
    item["keyword"] = ", ".join(keywords_of(record))
    return {k: v for k, v in item.items() if v not in ("", [], None)}


def _put_arxiv(item: dict[str, Any], record: PaperRecord, preprint: bool) -> None:
    """A preprint's arXiv identifier as Zotero writes it (publisher, number, DOI); another
    paper's eprint as a note line `arXiv: ID` (Zotero's Extra)."""
    found = arxiv_id({**record.raw, "doi": record.doi, "url": record.url})
    if found is None:
        return
    if preprint and not item.get("number"):
        item["number"] = f"arXiv:{found}"
        item["publisher"] = item.get("publisher") or "arXiv"
        item["DOI"] = item.get("DOI") or f"10.48550/arXiv.{re.sub(r'v[0-9]+$', '', found)}"
    elif raw_text(record, "eprint"):
        item["note"] = "\n".join(n for n in (item.get("note"), f"arXiv: {found}") if n)


def csl_items(records: Iterable[PaperRecord]) -> list[dict[str, Any]]:
    """The CSL items of `records`, one each (what `write_csl_json` writes)."""
    return [_item(record, n) for n, record in enumerate(records, start=1)]


def write_csl_json(records: Iterable[PaperRecord]) -> str:
    """CSL-JSON text for `records` (write it as UTF-8): a JSON array, one item each."""
    return json.dumps(csl_items(records), ensure_ascii=False, indent=2) + "\n"


# How a CSL-JSON file starts: an array of items, or one item.
_START_RE = re.compile(r'\[\s*[{\]]|\{\s*"')

FORMAT = Format(
    name="csljson", title="CSL-JSON", aliases=("csl-json",), suffixes=(".json",),
    sniff=lambda head: _START_RE.match(head_start(head)) is not None,
    read=read_csl_json, parse=parse_csl_json, write=interchange_writer(write_csl_json))
