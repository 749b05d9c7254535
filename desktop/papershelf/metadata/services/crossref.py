"""Crossref: a paper by its DOI, from the REST API's `/works/{doi}`.

The answer is `{"status": "ok", "message-type": "work", "message": {...}}`; the work's
fields are documented in Crossref's api_format.md (title and container-title are lists,
`issued` a partial date `{"date-parts": [[2019, 6]]}`, `abstract` a JATS snippet). A DOI
Crossref does not hold (DataCite's arXiv DOIs, for one) is a 404.
"""

from __future__ import annotations

from urllib.parse import quote

from papershelf.formats.records import Author, PaperRecord
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.services._common import (
    as_dict,
    as_list,
    as_str,
    bib_pages,
    jats_to_text,
    markup_to_text,
    with_raw,
)

__all__ = ["fetch", "record_of"]

# Crossref work types (api.crossref.org/types) as BibTeX entry types.
_ENTRY_TYPES = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "book-chapter": "incollection",
    "book-section": "incollection",
    "book-part": "incollection",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "report": "techreport",
    "dissertation": "phdthesis",
    "posted-content": "misc",
    "proceedings": "proceedings",
}


def fetch(doi: str, client: ServiceClient) -> PaperRecord:
    """The paper with DOI `doi` (as `Identifier` normalises it: "10.18653/v1/n19-1423")."""
    reply = client.get(
        "crossref",
        "/works/" + quote(doi, safe="/"),
        accept="application/json",
        what=f"DOI {doi}",
    )
    data = as_dict(reply.json())
    work = as_dict(data.get("message"))
    if data.get("status") != "ok" or not work:
        raise reply.malformed("no work in the message")
    record = record_of(work, doi)
    if record is None:
        raise reply.malformed("a work without a title")
    return record


def record_of(work: dict[str, object], doi: str = "") -> PaperRecord | None:
    """A Crossref work (the `message` of `/works/{doi}`, an item of a works list) as a
    record; None without a title."""
    title = " ".join(markup_to_text(as_str(t)) for t in as_list(work.get("title"))[:1])
    if not title:
        return None
    subtitle = markup_to_text(as_str(next(iter(as_list(work.get("subtitle"))), "")))
    if subtitle and subtitle.lower() not in title.lower():
        title = f"{title}: {subtitle}"
    doi = as_str(work.get("DOI")) or doi
    record = PaperRecord(
        entry_type=_ENTRY_TYPES.get(as_str(work.get("type")), "misc"),
        title=title,
        authors=_authors(as_list(work.get("author"))),
        abstract=jats_to_text(as_str(work.get("abstract"))),
        venue=markup_to_text(as_str(next(iter(as_list(work.get("container-title"))), ""))),
        year=_year(work),
        volume=as_str(work.get("volume")),
        pages=bib_pages(as_str(work.get("page"))),
        publisher=markup_to_text(as_str(work.get("publisher"))),
        doi=doi.lower(),
        url=f"https://doi.org/{doi}" if doi else as_str(work.get("URL")),
    )
    issue = as_str(work.get("issue"))
    return with_raw(record, {"number": issue} if record.entry_type == "article" else None)


def _authors(entries: list[object]) -> list[Author]:
    """Crossref contributors (`given`/`family`, or `name` for an organisation)."""
    authors: list[Author] = []
    for entry in entries:
        fields = as_dict(entry)
        family = markup_to_text(as_str(fields.get("family")))
        given = markup_to_text(as_str(fields.get("given")))
        if not family:
            family, given = markup_to_text(as_str(fields.get("name"))) or given, ""
        if family:
            authors.append(Author(family=family, given=given))
    return authors


def _year(work: dict[str, object]) -> int | None:
    """The year of `issued` (the earliest of print and online), else of either date."""
    for name in ("issued", "published-print", "published-online", "published", "created"):
        parts = as_list(as_dict(work.get(name)).get("date-parts"))
        first = as_list(parts[0]) if parts else []
        if first and isinstance(first[0], int):
            return first[0]
    return None
