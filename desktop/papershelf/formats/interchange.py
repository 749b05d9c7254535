"""What the RIS and CSL-JSON modules share: plain-text values into and out of a record.

Both formats hold plain text (no LaTeX). `PaperRecord`'s readable attributes take it as
it is; fields without an attribute of their own go to `raw` under their BibTeX name
(`number`, `issn`, `editor`, `keywords`, `month` as a number, ...), as BibTeX source, since
`raw` is what the BibTeX writer writes. Keywords (RIS `KW`, CSL-JSON `keyword`) become
the record's tags (`tags_of`), as Zotero's tags are; a writer writes the tags as keywords,
else a `keywords` field, as the BibTeX writer does. A day of a date is kept as biblatex's
`date` (`2015-02-26`) beside the year and month (`put_date`, `date_of`).
"""

from __future__ import annotations

import re

from papershelf.formats.bibtex.fields import MONTHS, clean, clean_url, key_problem
from papershelf.formats.bibtex.names import encode_authors, parse_names
from papershelf.formats.bibtex.writer import long_venue
from papershelf.formats.latex import encode_text, encode_verbatim
from papershelf.formats.records import Author, FormatError, PaperRecord
from papershelf.messages import text as message

__all__ = [
    "date_of",
    "decoded",
    "keywords_of",
    "names_of",
    "one_line",
    "pages_in",
    "pages_out",
    "paragraphs",
    "put_date",
    "put_names",
    "put_raw",
    "raw_text",
    "tags_of",
    "usable_key",
    "venue_names",
    "year_month",
]

_VERBATIM = frozenset({"url", "doi"})
_SPACE_RE = re.compile(r"\s+")
_BLANK_LINE_RE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_RANGE_RE = re.compile(r"^\s*([^\s\-–—]+)\s*(?:-+|–|—)\s*([^\s\-–—]+)\s*$")
_YEAR_RE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_MONTH_RE = re.compile(r"(?<!\d)\d{4}[/-](\d{1,2})(?!\d)")
_ISO_DATE_RE = re.compile(r"^\s*(\d{4})-(\d{1,2})(?:-(\d{1,2}))?")
_DAY_RE = re.compile(r"(?<!\d)\d{4}[/-]\d{1,2}[/-](\d{1,2})(?!\d)")
_URL_RE = re.compile(r"^(?:https?|ftp)://\S+$|^www\.\S+$", re.IGNORECASE)
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                "dec")


def decoded(data: bytes | str, path: str) -> str:
    """The text of a file's bytes: UTF-8 with or without a BOM; FormatError otherwise."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(path, message("not UTF-8 text (byte {offset})",
                                        offset=exc.start)) from exc


def one_line(value: str) -> str:
    """A value as one line: white space collapsed, ends stripped."""
    return _SPACE_RE.sub(" ", value).strip()


def paragraphs(value: str) -> str:
    """Text that keeps its blank-line paragraph breaks (abstracts, notes), else one line."""
    return "\n\n".join(p for p in map(one_line, _BLANK_LINE_RE.split(value)) if p)


def put_raw(raw: dict[str, str], name: str, value: str) -> None:
    """Keep a plain-text value as the BibTeX field `name` (nothing if it is empty)."""
    value = one_line(value)
    if value:
        raw[name] = encode_verbatim(value) if name in _VERBATIM else encode_text(value)


def raw_text(record: PaperRecord, name: str) -> str:
    """The plain text of the raw field `name` ("" when the record has none)."""
    value = record.raw.get(name)
    if not value:
        return ""
    return clean_url(value) if name in _VERBATIM else clean(value)


def put_names(raw: dict[str, str], name: str, names: list[Author]) -> None:
    """Keep a list of people (editors) as the BibTeX name list `name`."""
    if names:
        raw[name] = encode_authors(names, ascii_only=False)


def names_of(record: PaperRecord, name: str) -> list[Author]:
    """The people of the raw name list `name` (editors)."""
    return parse_names(record.raw[name]) if record.raw.get(name) else []


def keywords_of(record: PaperRecord) -> list[str]:
    """What a writer writes as keywords: the tags, else the `keywords` field's words."""
    if record.tags:
        return list(record.tags)
    return [k for k in (w.strip() for w in raw_text(record, "keywords").split(",")) if k]


def pages_in(value: str) -> str:
    """A page range as BibTeX writes it (`12--19`); anything else as it is."""
    value = one_line(value)
    match = _RANGE_RE.match(value)
    return f"{match.group(1)}--{match.group(2)}" if match else value


def pages_out(pages: str) -> tuple[str, str]:
    """First and last page of a range (last "" when it is not one)."""
    match = _RANGE_RE.match(pages)
    return (match.group(1), match.group(2)) if match else (pages.strip(), "")


def year_month(value: str) -> tuple[int | None, int | None]:
    """Year and month of a date as written (`2017/12/04/`, `2024-07`, `July 2024`)."""
    year = _YEAR_RE.search(value)
    if year is None or year.group(1) == "0000":  # (Scopus's RIS says `PY  - 0000`: none)
        return None, None
    month_match = _MONTH_RE.search(value)
    month = int(month_match.group(1)) if month_match else None
    if month is None:
        lower = value.lower()
        month = next((i + 1 for i, m in enumerate(_MONTH_NAMES)
                      if re.search(rf"\b{m}", lower)), None)
    return int(year.group(1)), month if month is not None and 1 <= month <= 12 else None


def usable_key(value: object) -> str | None:
    """A citation key from an id, or None when it cannot be one (the library makes one)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    key = str(value).strip()
    return key if key_problem(key) is None else None


def tags_of(keywords: list[str]) -> list[str]:
    """Keywords as tags: each a line of its own (`a, b` in one value is two), no repeats."""
    tags: list[str] = []
    for value in keywords:
        for word in (one_line(w) for w in value.split(";" if ";" in value else ",")):
            if word and word not in tags:
                tags.append(word)
    return tags


def _month(value: str) -> int | None:
    """A BibTeX month (`7`, `07`, `jul`, `July`, `Jul.`) as a number."""
    text = clean(value).strip("{} .").lower()
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    return next((n for n, m in enumerate(MONTHS, start=1) if text[:3] == m), None) \
        if len(text) >= 3 else None


def date_of(record: PaperRecord) -> list[int]:
    """The record's date as CSL date parts: year, then month and day when known (the
    month from `month` or biblatex's `date`, the day from `date`)."""
    if record.year is None:
        return []
    parts = [record.year]
    month = _month(record.raw.get("month", ""))
    date = _ISO_DATE_RE.match(record.raw.get("date", ""))
    same = date is not None and int(date.group(1)) == record.year
    if month is None and date is not None and same and 1 <= int(date.group(2)) <= 12:
        month = int(date.group(2))
    if month is not None:
        parts.append(month)
        if date is not None and same and int(date.group(2)) == month and date.group(3):
            day = int(date.group(3))
            if 1 <= day <= 31:
                parts.append(day)
    return parts


def day_of(value: str) -> int | None:
    """The day of a date written `2015/02/26` or `2015-02-26` (None if it has none)."""
    match = _DAY_RE.search(value)
    return int(match.group(1)) if match and 1 <= int(match.group(1)) <= 31 else None


def put_date(raw: dict[str, str], year: int | None, month: int | None,
             day: int | None) -> None:
    """Keep a date's month (`month`) and, with a day, the whole date (biblatex's `date`)."""
    if year is None or month is None:
        return
    raw["month"] = str(month)
    if day is not None:
        raw["date"] = f"{year:04d}-{month:02d}-{day:02d}"


def venue_names(record: PaperRecord) -> tuple[str, str, str]:
    """The venue as the exports write it: its full title (what the BibTeX export writes:
    `ICML` is "International Conference on Machine Learning (ICML)"), its short name
    (the record's own, else the acronym), and the URL a `howpublished = {\\url{...}}`
    holds (then no venue)."""
    venue, short = record.venue, raw_text(record, "shortjournal")
    if _URL_RE.match(venue):
        return "", short, venue
    long_name = long_venue(venue)
    if long_name is not None:
        return clean(long_name), short or venue.strip(), ""
    return venue, short, ""


def short_venue(venue: str, raw: dict[str, str]) -> str:
    """A venue read back from an export: the full title an export writes for a short
    name (`ICML` as "International Conference on Machine Learning (ICML)", the short
    name beside it as J2 or container-title-short) is the short name again, and the
    short name is not kept twice; any other venue is as it is."""
    short = raw.get("shortjournal", "")
    if short and venue:
        long_name = long_venue(short)
        if long_name is not None and clean(long_name) == venue:
            del raw["shortjournal"]
            return short
    return venue
