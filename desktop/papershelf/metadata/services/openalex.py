"""OpenAlex: title search (`/works?search=`) and a work by DOI (`/works/doi:{doi}`).

Needs an API key since February 2026 (`api_key=` on every call; the client adds it, or
the lookup is skipped with a note). A work (OpenAlex docs, "Work object") has `title`,
`authorships[].author.display_name`, `publication_year`, `doi` as a URL, `biblio`
(volume, first_page, last_page), `primary_location.source` (the venue and whether it is
a journal, conference or repository) and the abstract only as `abstract_inverted_index`
({word: [positions]}). A search answers `{"meta": {...}, "results": [work, ...]}`.
"""

from __future__ import annotations

from urllib.parse import quote

from papershelf.formats.records import PaperRecord
from papershelf.metadata.http import Reply, ServiceClient
from papershelf.metadata.services._common import (
    as_dict,
    as_list,
    as_str,
    bib_pages,
    markup_to_text,
    page_range,
    people,
    with_raw,
)

__all__ = ["fetch_doi", "record_of", "search"]

_DOI_PREFIX = "https://doi.org/"
_ENTRY_TYPES = {
    "book-chapter": "incollection",
    "book": "book",
    "dissertation": "phdthesis",
    "preprint": "misc",
    "report": "techreport",
}
_SOURCE_TYPES = {"conference": "inproceedings", "journal": "article", "repository": "misc"}


def fetch_doi(doi: str, client: ServiceClient) -> PaperRecord:
    """The work with DOI `doi` (skipped with a "no-key" error without an API key)."""
    client.require_key("openalex")
    reply = client.get(
        "openalex", "/works/doi:" + quote(doi, safe="/"), accept="application/json",
        what=f"DOI {doi}",
    )  # fmt: skip
    record = record_of(as_dict(reply.json()))
    if record is None:
        raise reply.malformed("a work without a title")
    return record


def search(title: str, client: ServiceClient, limit: int = 10) -> list[PaperRecord]:
    """Works matching `title`, OpenAlex's best first."""
    client.require_key("openalex")
    reply = client.get(
        "openalex", "/works", {"search": title, "per-page": str(limit)},
        accept="application/json",
    )  # fmt: skip
    return _results(reply)


def _results(reply: Reply) -> list[PaperRecord]:
    data = as_dict(reply.json())
    if not isinstance(data.get("results"), list):
        raise reply.malformed("no results list")
    records = (record_of(as_dict(work)) for work in data["results"])
    return [r for r in records if r is not None]


def record_of(work: dict[str, object]) -> PaperRecord | None:
    """A work as a record (None without a title)."""
    title = markup_to_text(as_str(work.get("title")) or as_str(work.get("display_name")))
    if not title:
        return None
    location = as_dict(work.get("primary_location"))
    source = as_dict(location.get("source"))
    biblio = as_dict(work.get("biblio"))
    first, last = as_str(biblio.get("first_page")), as_str(biblio.get("last_page"))
    doi = as_str(work.get("doi"))
    doi = doi[len(_DOI_PREFIX):] if doi.lower().startswith(_DOI_PREFIX) else doi
    year = work.get("publication_year")
    names = (
        as_str(as_dict(a.get("author")).get("display_name")) or as_str(a.get("raw_author_name"))
        for a in map(as_dict, as_list(work.get("authorships")))
    )
    work_type = as_str(work.get("type"))
    source_type = as_str(source.get("type"))
    entry_type = _ENTRY_TYPES.get(work_type) or _SOURCE_TYPES.get(source_type, "misc")
    record = PaperRecord(
        entry_type=entry_type,
        title=title,
        authors=people(names),
        abstract=_abstract(as_dict(work.get("abstract_inverted_index"))),
        venue=as_str(source.get("display_name")),
        year=year if isinstance(year, int) else None,
        volume=as_str(biblio.get("volume")),
        pages=bib_pages(page_range(first, last)),
        doi=doi.lower(),
        url=as_str(location.get("landing_page_url")) or (f"{_DOI_PREFIX}{doi}" if doi else ""),
    )
    best = as_dict(work.get("best_oa_location"))
    pdf = as_str(location.get("pdf_url")) or as_str(best.get("pdf_url"))
    return with_raw(record, {"pdf": pdf})


def _abstract(inverted: dict[str, object]) -> str:
    """The abstract from OpenAlex's inverted index: each word put back at its positions."""
    words: dict[int, str] = {}
    for word, positions in inverted.items():
        for position in as_list(positions):
            if isinstance(position, int):
                words[position] = word
    return " ".join(words[i] for i in sorted(words))
