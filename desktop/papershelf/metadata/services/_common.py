"""What the service modules share: markup to plain text, names, and the raw fields.

Each service answers in its own shape; these helpers turn the common pieces (an HTML or
JATS title or abstract, a "Given Family" name, a page range) into what a `PaperRecord`
holds, the same way for every service.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from typing import Any

from papershelf.formats.bibtex.fields import VENUE_FIELD
from papershelf.formats.bibtex.names import parse_name
from papershelf.formats.latex import encode_text, encode_verbatim
from papershelf.formats.records import Author, PaperRecord

__all__ = [
    "as_dict",
    "as_list",
    "as_str",
    "bib_pages",
    "jats_to_text",
    "markup_to_text",
    "page_range",
    "people",
    "with_raw",
    "year_of",
]

_TAG_RE = re.compile(r"<[^>]*>")
_BLOCK_RE = re.compile(r"</?(?:jats:)?(?:p|sec|title|list-item|br)\b[^>]*/?>", re.IGNORECASE)
_LEADING_TITLE_RE = re.compile(
    r"^\s*<(?:jats:)?title\b[^>]*>\s*abstract\s*[.:]?\s*</(?:jats:)?title>", re.IGNORECASE
)
_SPACES_RE = re.compile(r"\s+")
_PARAGRAPHS_RE = re.compile(r"\n\s*\n")
_PAGE_DASH_RE = re.compile(r"\s*[-‐‑–—]+\s*")
_YEAR_RE = re.compile(r"(?<![0-9])([0-9]{4})(?![0-9])")


def as_str(value: object) -> str:
    """`value` when it is a string, else "" (answers hold nulls and numbers in odd places)."""
    return value if isinstance(value, str) else ""


def as_list(value: object) -> list[Any]:
    """`value` when it is a list, else an empty list."""
    return value if isinstance(value, list) else []


def as_dict(value: object) -> dict[str, Any]:
    """`value` when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def markup_to_text(markup: str) -> str:
    """One line of readable text from HTML/XML-ish markup: tags dropped, entities decoded,
    spaces collapsed (Crossref titles carry `<i>`, `<sub>`, `&amp;`)."""
    if "<" in markup:
        markup = _TAG_RE.sub("", markup)
    if "&" in markup:
        markup = html.unescape(markup)
    return _SPACES_RE.sub(" ", markup).strip()


def jats_to_text(markup: str) -> str:
    """An abstract in JATS (as Crossref gives it: `<jats:p>…</jats:p>`) as plain text,
    paragraphs separated by a blank line; a leading "Abstract" heading is dropped."""
    if "<" not in markup:
        return markup_to_text(markup)
    markup = _LEADING_TITLE_RE.sub("", markup)
    markup = _BLOCK_RE.sub("\n\n", markup)
    paragraphs = (markup_to_text(p) for p in _PARAGRAPHS_RE.split(markup))
    return "\n\n".join(p for p in paragraphs if p)


def people(names: Iterable[str]) -> list[Author]:
    """Names as one string each ("Given Family", or "Family, Given") as Authors, empty
    ones left out; "von" particles stay with the family name, as bibtex reads them."""
    authors: list[Author] = []
    for name in names:
        name = _SPACES_RE.sub(" ", name).strip()
        if not name:
            continue
        # Braces and backslashes would be read as BibTeX markup; these names are plain text.
        if "{" in name or "\\" in name:
            authors.append(Author(family=name))
        else:
            author = parse_name(name)
            if author is not None:
                authors.append(author)
    return authors


def year_of(text: str) -> int | None:
    """The first four-digit year in `text` ("2024", "2024/07/08", "2024-03-10T12:00Z")."""
    match = _YEAR_RE.search(text)
    return int(match.group(1)) if match else None


def page_range(first: str, last: str) -> str:
    """A paper's pages from its first and last page: "203--227", or the one page."""
    return f"{first}--{last}" if first and last and first != last else first


def bib_pages(pages: str) -> str:
    """A page range written as BibTeX wants it: "203-227" → "203--227"."""
    return _PAGE_DASH_RE.sub("--", pages.strip())


def with_raw(record: PaperRecord, extra: Mapping[str, str] | None = None) -> PaperRecord:
    """`record` with BibTeX `raw` fields: its venue (under the field its entry type
    uses), volume, pages and publisher, plus `extra` (eprint, openreview, pdf, ...).

    The venue goes into `raw` with the others because the writer, once an entry has raw
    fields, takes the venue field from them. Values are BibTeX-encoded here (URLs
    verbatim), since the writer writes raw values as they are.
    """
    raw: dict[str, str] = {}
    venue_field = VENUE_FIELD.get(record.entry_type)
    if venue_field and record.venue:
        raw[venue_field] = encode_text(record.venue, protect_case=True)
    if record.volume:
        raw["volume"] = encode_text(record.volume)
    if record.pages:
        raw["pages"] = encode_text(record.pages)
    if record.publisher:
        raw["publisher"] = encode_text(record.publisher)
    for name, value in (extra or {}).items():
        if value:
            raw[name] = encode_verbatim(value) if name in ("pdf", "url") else encode_text(value)
    record.raw = raw
    return record
