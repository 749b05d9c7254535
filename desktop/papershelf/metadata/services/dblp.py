"""DBLP: a record by its key (`/rec/{key}.xml`), an author's records (`/pid/{pid}.xml`,
`<dblpperson>` with one `<r>` per record) and title search (`/search/publ/api`).

A record is `<dblp><inproceedings key=… mdate=…>` (or article, incollection, …) with one
`<author>` per author (homonyms numbered: "Li Zhang 0054"), a `<title>` ending in a full
stop, `<year>`, `<booktitle>` or `<journal>`, `<pages>`, `<volume>` and `<ee>` links (the
DOI, the publisher's or OpenReview's page). The search answers JSON:
`{"result": {"hits": {"hit": [{"info": {...}}]}}}`, where one author or one hit may come
as an object instead of a list.
"""

from __future__ import annotations

import html.entities
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from urllib.parse import parse_qs, quote, urlsplit

from papershelf.formats.records import Author, PaperRecord
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.services._common import (
    as_dict,
    as_list,
    as_str,
    bib_pages,
    people,
    with_raw,
    year_of,
)

__all__ = ["fetch", "person", "record_of", "search"]

_HOMONYM_RE = re.compile(r"\s+\d{4}$")
_DOI_URL_RE = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\..+)$", re.IGNORECASE)
_NAMED_ENTITY_RE = re.compile(rb"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({b"amp", b"lt", b"gt", b"quot", b"apos"})
_RECORD_TYPES = frozenset(
    "article inproceedings proceedings book incollection phdthesis mastersthesis".split()
)
# The search API's publication types as BibTeX entry types.
_SEARCH_TYPES = {
    "Journal Articles": "article",
    "Conference and Workshop Papers": "inproceedings",
    "Parts in Books or Collections": "incollection",
    "Books and Theses": "book",
    "Editorship": "proceedings",
    "Informal and Other Publications": "misc",
}


def fetch(key: str, client: ServiceClient) -> PaperRecord:
    """The record with DBLP key `key` ("conf/icml/AdepuZZS24")."""
    reply = client.get(
        "dblp", f"/rec/{quote(key, safe='/')}.xml", accept="application/xml",
        what=f"DBLP {key}",
    )  # fmt: skip
    reply.content = _numeric_entities(reply.content)
    root = reply.xml()
    element = next((child for child in root if child.tag in _RECORD_TYPES), None)
    if root.tag != "dblp" or element is None:
        raise reply.malformed("no record in the answer")
    record = record_of(element, key)
    if record is None:
        raise reply.malformed("a record without a title")
    return record


def person(pid: str, client: ServiceClient, *, cache: bool = True,
           max_bytes: int | None = None) -> list[tuple[str, PaperRecord]]:
    """The records of the author page `/pid/{pid}.xml` ("h/GeoffreyEHinton"), each with
    its `mdate` (when DBLP last changed it, YYYY-MM-DD), in the page's order."""
    reply = client.get("dblp", f"/pid/{quote(pid, safe='/')}.xml", accept="application/xml",
                       what=f"DBLP author {pid}", cache=cache, max_bytes=max_bytes)
    reply.content = _numeric_entities(reply.content)
    root = reply.xml()
    if root.tag != "dblpperson":
        raise reply.malformed("not an author's page")
    found = []
    for holder in root.findall("r"):
        element = next((child for child in holder if child.tag in _RECORD_TYPES), None)
        record = record_of(element, element.get("key", "")) if element is not None else None
        if element is not None and record is not None:
            found.append((element.get("mdate", ""), record))
    return found


def record_of(element: ET.Element, key: str) -> PaperRecord | None:
    """A DBLP record element (`<article key=…>`, …) as a record; None without a title."""
    title_element = element.find("title")
    title = _title("".join(title_element.itertext()) if title_element is not None else "")
    if not title:
        return None
    links = [(ee.text or "").strip() for ee in element.findall("ee")]
    venue = element.findtext("booktitle") or element.findtext("journal") or ""
    record = PaperRecord(
        entry_type=element.tag,
        title=title,
        authors=_authors(a.text or "" for a in element.findall("author")),
        venue=venue.strip(),
        year=year_of(element.findtext("year") or ""),
        volume=(element.findtext("volume") or "").strip(),
        pages=bib_pages(element.findtext("pages") or ""),
        doi=_doi(links),
        url=next((link for link in links if link), f"https://dblp.org/rec/{key}"),
    )
    return with_raw(record, {"openreview": _openreview_id(links)})


def search(title: str, client: ServiceClient, limit: int = 10) -> list[PaperRecord]:
    """Records whose title matches `title`, best first (DBLP's order)."""
    reply = client.get(
        "dblp", "/search/publ/api", {"q": title, "format": "json", "h": str(limit)},
        accept="application/json",
    )  # fmt: skip
    result = as_dict(as_dict(reply.json()).get("result"))
    if "hits" not in result:
        raise reply.malformed("no hits")
    hits = as_dict(result["hits"]).get("hit", [])
    records: list[PaperRecord] = []
    for hit in hits if isinstance(hits, list) else [hits]:
        info = as_dict(as_dict(hit).get("info"))
        found = _title(as_str(info.get("title")))
        if not found:
            continue
        names = as_dict(info.get("authors")).get("author", [])
        names = names if isinstance(names, list) else [names]
        venue = info.get("venue")
        links = [as_str(e) for e in as_list(info.get("ee"))] or [as_str(info.get("ee"))]
        ee = next((link for link in links if link), "")
        record = PaperRecord(
            entry_type=_SEARCH_TYPES.get(as_str(info.get("type")), "misc"),
            title=found,
            authors=_authors(as_str(as_dict(n).get("text")) or as_str(n) for n in names),
            venue=", ".join(as_list(venue)) if isinstance(venue, list) else as_str(venue),
            year=year_of(as_str(info.get("year"))),
            volume=as_str(info.get("volume")),
            pages=bib_pages(as_str(info.get("pages"))),
            doi=as_str(info.get("doi")).lower() or _doi(links),
            url=ee or as_str(info.get("url")),
        )
        records.append(with_raw(record, {"openreview": _openreview_id(links)}))
    return records


def _title(text: str) -> str:
    """A DBLP title without the full stop DBLP ends every title with."""
    text = " ".join(text.split())
    return text[:-1] if text.endswith(".") else text


def _authors(names: Iterable[str]) -> list[Author]:
    """DBLP author names as Authors, homonym numbers ("Li Zhang 0054") dropped."""
    return people(_HOMONYM_RE.sub("", name.strip()) for name in names)


def _doi(links: list[str]) -> str:
    """The DOI among a record's `ee` links, lower case, or ""."""
    for link in links:
        match = _DOI_URL_RE.match(link)
        if match:
            return match.group(1).lower()
    return ""


def _openreview_id(links: list[str]) -> str:
    """The OpenReview forum id among `ee` links, or ""."""
    for link in links:
        parts = urlsplit(link)
        if parts.hostname == "openreview.net":
            ids = parse_qs(parts.query).get("id")
            if ids:
                return ids[0]
    return ""


def _numeric_entities(content: bytes) -> bytes:
    """XML with HTML named entities (`&eacute;`, as DBLP's data uses them) written as
    numeric references, which an XML parser reads without DBLP's DTD."""
    if b"&" not in content:
        return content

    def numeric(match: re.Match[bytes]) -> bytes:
        name = match.group(1)
        if name in _XML_ENTITIES:
            return match.group(0)
        code = html.entities.name2codepoint.get(name.decode("ascii"))
        return f"&#{code};".encode() if code is not None else match.group(0)

    return _NAMED_ENTITY_RE.sub(numeric, content)

