"""PubMed's MEDLINE format (`.nbib`, "Save › PubMed format") read into records. Pure
Python: no Qt, no database.

A record starts at its `PMID- ` line (PubMed's first) and ends at a blank line; each
line is a tag of up to four letters padded to four, `- ` and a value, and a line
indented by six spaces continues the value above it. The mapping:

    PMID        raw pmid                 TI (BTI)    title
    FAU (AU)    authors, in order (`Family, Given`; AU `Family AB` when no FAU)
    DP          year (and raw month)     JT (TA)     venue; TA raw shortjournal
    VI          volume                   IP          raw number
    PG          pages                    AB          abstract
    LID, AID    DOI (the value marked `[doi]`, or `doi:…`)  PT  entry type (below)
    IS          raw issn (the first)     PB          publisher
    OT, MH      raw keywords "a, b" ("a; b, c" when one has a comma; MeSH `*` dropped)

Other tags are dropped (one notice names them). Types: a record with a PT of `Book` or a
BTI and no journal is a book, one with `Preprint` unpublished, `Technical Report` a
techreport, the others articles.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from papershelf.formats.interchange import (
    decoded,
    one_line,
    pages_in,
    paragraphs,
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

__all__ = ["is_medline_text", "parse_medline", "read_medline"]

_LINE_RE = re.compile(r"^([A-Z][A-Z0-9]{1,3}) {0,3}- ?(.*)$")
_CONTINUED_RE = re.compile(r"^ {2,}\S")
_START_RE = re.compile(r"^\ufeff?\s*PMID- ?\d")
_DOI_RE = re.compile(r"^(?:(10\.\S+)\s*\[doi\]|doi:\s*(10\.\S+))\s*$", re.IGNORECASE)
_KNOWN = frozenset({"PMID", "TI", "BTI", "FAU", "AU", "DP", "JT", "TA", "VI", "IP", "PG",
                    "AB", "LID", "AID", "PT", "IS", "PB", "OT", "MH"})


@dataclass
class _Entry:
    line: int
    fields: list[tuple[str, str]] = field(default_factory=list)

    def all(self, *tags: str) -> list[str]:
        return [v for t, v in self.fields if t in tags and v.strip()]

    def first(self, *tags: str) -> str:
        for tag in tags:
            values = self.all(tag)
            if values:
                return values[0]
        return ""


def is_medline_text(head: str) -> bool:
    """Whether a file's first characters open a MEDLINE file (a `PMID- ` line)."""
    return _START_RE.match(head) is not None


def read_medline(path: str | os.PathLike[str]) -> ReadResult:
    """Read a MEDLINE file; FormatError if it cannot be read or holds no record."""
    return read_whole(path, parse_medline)


def parse_medline(data: bytes | str, path: str) -> ReadResult:
    """The records of MEDLINE text (`path` only names it in messages): one problem per
    unusable record, the others read; FormatError if there is no PMID line at all."""
    result = ReadResult()
    entries: list[_Entry] = []
    current: _Entry | None = None
    for number, line in enumerate(decoded(data, path).splitlines(), start=1):
        if not line.strip():
            current = None
            continue
        if current is not None and current.fields and _CONTINUED_RE.match(line):
            tag, value = current.fields[-1]
            current.fields[-1] = (tag, f"{value}\n{line.strip()}")
            continue
        match = _LINE_RE.match(line)
        if match is None:
            result.notices.append(message(
                "{where}: not a MEDLINE line (TAG- value), ignored: {line}",
                where=f"{path}:{number}", line=repr(line.strip()[:40])))
            continue
        tag, value = match.group(1), match.group(2).strip()
        if current is None:
            current = _Entry(number)
            entries.append(current)
        current.fields.append((tag, value))
    if not entries:
        raise FormatError(path, message("no MEDLINE records (no PMID line)"))
    dropped: set[str] = set()
    for entry in entries:
        record = _record(entry)
        if record is None:
            result.problems.append(ReadProblem(path, entry.line, message(
                "record has no title, author or DOI")))
            continue
        result.records.append(record)
        dropped.update(t for t, _ in entry.fields if t not in _KNOWN)
    result.problems.sort(key=lambda p: p.line or 0)
    if dropped:
        result.notices.append(message("{path}: MEDLINE tags not kept: {tags}", path=path,
                                      tags=", ".join(sorted(dropped))))
    return result


def _full_author(value: str) -> Author | None:
    """FAU: `Family, Given`."""
    family, _, given = (one_line(p) for p in value.partition(","))
    return Author(family, given) if family else None


def _short_author(value: str) -> Author | None:
    """AU: `Family AB` (the initials last); a collective name as it is."""
    words = one_line(value).split()
    if len(words) >= 2 and words[-1].isupper() and len(words[-1]) <= 4:
        return Author(" ".join(words[:-1]), " ".join(f"{c}." for c in words[-1]))
    return Author(" ".join(words)) if words else None


def _record(entry: _Entry) -> PaperRecord | None:
    raw: dict[str, str] = {}
    put_raw(raw, "pmid", one_line(entry.first("PMID")))
    full = entry.all("FAU")
    authors = [a for a in (map(_full_author, full) if full
                           else map(_short_author, entry.all("AU"))) if a]
    venue = one_line(entry.first("JT", "TA"))
    if entry.first("TA") and entry.first("JT"):
        put_raw(raw, "shortjournal", one_line(entry.first("TA")))
    types = [t.lower() for t in entry.all("PT")]
    title = one_line(entry.first("TI"))
    if ("book" in types or entry.first("BTI")) and not venue:
        entry_type = "book"
        title = title or one_line(entry.first("BTI"))
    elif "preprint" in types:
        entry_type = "unpublished"
    elif "technical report" in types:
        entry_type = "techreport"
    else:
        entry_type = "article"
    year, month = year_month(entry.first("DP"))
    if month is not None:
        raw["month"] = str(month)
    put_raw(raw, "number", one_line(entry.first("IP")))
    put_raw(raw, "issn", re.sub(r"\s*\(.*\)$", "", one_line(entry.first("IS"))))
    keywords = [one_line(k).replace("*", "") for k in entry.all("OT", "MH")]
    put_raw(raw, "keywords", ("; " if any("," in k for k in keywords) else ", ").join(keywords))
    doi = ""
    for value in entry.all("LID", "AID"):
        match = _DOI_RE.match(value.strip())
        if match:
            doi = match.group(1) or match.group(2)
            break
    if not (title or authors or doi):
        return None
    return PaperRecord(
        entry_type=entry_type, title=title, authors=authors,
        abstract=paragraphs(entry.first("AB")), venue=venue, year=year,
        volume=one_line(entry.first("VI")), pages=pages_in(one_line(entry.first("PG"))),
        publisher=one_line(entry.first("PB")), doi=doi, raw=raw, source_line=entry.line)


FORMAT = Format(
    name="medline", title="MEDLINE", suffixes=(".nbib", ".medline"),
    sniff=lambda head: is_medline_text(head_start(head)), read=read_medline, parse=parse_medline)
