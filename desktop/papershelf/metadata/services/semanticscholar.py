"""Semantic Scholar: title match (`/graph/v1/paper/search/match`) and a paper by id
(`/graph/v1/paper/{id}`, ids like "ARXIV:2403.06082" or "DOI:10.18653/v1/N19-1423").

Asked only with an API key (`x-api-key`; the shared keyless pool is rate-limited too
hard to be useful). A paper has the fields asked for in `fields=`: `title`, `authors`
(`[{"authorId", "name"}]`), `year`, `venue`, `abstract` (may be null), `externalIds`
(`DOI`, `ArXiv`, `DBLP`, ...), `journal` (`name`, `volume`, `pages`), `openAccessPdf`
(`url`) and `publicationTypes`. The match answers `{"data": [paper + "matchScore"]}`, or a
404 `{"error": "Title match not found"}`.
"""

from __future__ import annotations

from urllib.parse import quote

from papershelf.formats.records import PaperRecord
from papershelf.metadata.http import ServiceClient, ServiceError
from papershelf.metadata.services._common import (
    as_dict,
    as_list,
    as_str,
    bib_pages,
    people,
    with_raw,
)

__all__ = ["FIELDS", "fetch", "search"]

API = "/graph/v1"
FIELDS = (
    "title,authors,year,venue,abstract,externalIds,journal,openAccessPdf,publicationTypes,url"
)


def search(title: str, client: ServiceClient) -> list[PaperRecord]:
    """The paper whose title best matches `title` (a list of one), or [] when none does."""
    client.require_key("s2")
    try:
        reply = client.get(
            "s2", f"{API}/paper/search/match", {"query": title, "fields": FIELDS},
            accept="application/json",
        )  # fmt: skip
    except ServiceError as error:
        if error.kind == "not-found":  # "Title match not found"
            return []
        raise
    data = as_dict(reply.json())
    if not isinstance(data.get("data"), list):
        raise reply.malformed("no data list")
    records = (_record(as_dict(paper)) for paper in data["data"])
    return [r for r in records if r is not None]


def fetch(paper_id: str, client: ServiceClient) -> PaperRecord:
    """The paper `paper_id` names (a Semantic Scholar id, or "ARXIV:…", "DOI:…", …)."""
    client.require_key("s2")
    reply = client.get(
        "s2", f"{API}/paper/{quote(paper_id, safe=':/')}", {"fields": FIELDS},
        accept="application/json", what=paper_id,
    )  # fmt: skip
    record = _record(as_dict(reply.json()))
    if record is None:
        raise reply.malformed("a paper without a title")
    return record


def _record(paper: dict[str, object]) -> PaperRecord | None:
    """A Graph API paper as a record (None without a title)."""
    title = " ".join(as_str(paper.get("title")).split())
    if not title:
        return None
    ids = as_dict(paper.get("externalIds"))
    journal = as_dict(paper.get("journal"))
    types = as_list(paper.get("publicationTypes"))
    arxiv = as_str(ids.get("ArXiv"))
    venue = as_str(paper.get("venue")) or as_str(journal.get("name"))
    if "Conference" in types:
        entry_type = "inproceedings"
    elif "JournalArticle" in types and venue and venue.lower() != "arxiv":
        entry_type = "article"
    else:
        entry_type = "misc"
    year = paper.get("year")
    record = PaperRecord(
        entry_type=entry_type,
        title=title,
        authors=people(as_str(as_dict(a).get("name")) for a in as_list(paper.get("authors"))),
        abstract=" ".join(as_str(paper.get("abstract")).split()),
        venue=venue,
        year=year if isinstance(year, int) else None,
        volume=as_str(journal.get("volume")) if entry_type == "article" else "",
        pages=bib_pages(as_str(journal.get("pages"))),
        doi=as_str(ids.get("DOI")).lower(),
        url=as_str(paper.get("url")),
    )
    extra = {"pdf": as_str(as_dict(paper.get("openAccessPdf")).get("url"))}
    if arxiv:
        extra |= {"eprint": arxiv, "archiveprefix": "arXiv"}
    return with_raw(record, extra)
