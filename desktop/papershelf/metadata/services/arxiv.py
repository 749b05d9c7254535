"""arXiv: a preprint by its id, from the API's `/api/query?id_list=`.

The answer is an Atom feed (arXiv API User's Manual, "Outline of an Atom feed"): one
`<entry>` per paper with `<title>`, `<summary>` (the abstract, hard-wrapped TeX-ish text),
`<author><name>`, `<published>` (version 1), links to the abstract page and the PDF, and
arXiv's own `<arxiv:primary_category>`, `<arxiv:doi>`. Errors come as a feed with one
entry titled "Error" whose summary says what is wrong; an unknown id gives no entry.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from papershelf.formats.bibtex.fields import clean
from papershelf.formats.records import Author, PaperRecord
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.services._common import people, with_raw, year_of

__all__ = ["fetch"]

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_ABS_RE = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/abs/", re.IGNORECASE)
_VERSION_RE = re.compile(r"v\d+$")


def fetch(arxiv_id: str, client: ServiceClient) -> PaperRecord:
    """The preprint `arxiv_id` ("2403.06082", "2403.06082v2", "hep-th/9901001"): the
    version asked for, else the latest."""
    reply = client.get(
        "arxiv",
        "/api/query",
        {"id_list": arxiv_id, "max_results": "1"},
        accept="application/atom+xml",
        what=f"arXiv {arxiv_id}",
    )
    if reply.content.lstrip().startswith(b"Rate exceeded"):
        raise reply.fail("rate limited (\"Rate exceeded\")", "rate-limited")
    feed = reply.xml()
    if feed.tag != f"{ATOM}feed":
        raise reply.malformed("not an Atom feed")
    entry = feed.find(f"{ATOM}entry")
    if entry is None:
        raise reply.fail(f"not found (arXiv {arxiv_id})", "not-found")
    entry_id = _text(entry, "id")
    if "/api/errors" in entry_id or _text(entry, "title") == "Error":
        # e.g. "incorrect id format for 1234.12345"
        raise reply.fail(_text(entry, "summary") or "error", "not-found")
    title = clean(_text(entry, "title"))
    if not title:
        raise reply.malformed("an entry without a title")
    eprint = _VERSION_RE.sub("", _ABS_RE.sub("", entry_id)) or _VERSION_RE.sub("", arxiv_id)
    primary = entry.find(f"{ARXIV}primary_category")
    pdf = next(
        (link.get("href", "") for link in entry.findall(f"{ATOM}link")
         if link.get("title") == "pdf"),
        "",
    )  # fmt: skip
    record = PaperRecord(
        entry_type="misc",
        title=title,
        authors=_authors(entry),
        abstract=clean(_text(entry, "summary")),
        venue="arXiv",
        year=year_of(_text(entry, "published")),
        doi=_text(entry, "doi", ARXIV).lower(),
        url=f"https://arxiv.org/abs/{arxiv_id}",
    )
    return with_raw(record, {
        "eprint": eprint,
        "archiveprefix": "arXiv",
        "primaryclass": primary.get("term", "") if primary is not None else "",
        "pdf": pdf,
    })  # fmt: skip


def _text(entry: ET.Element, name: str, namespace: str = ATOM) -> str:
    """The stripped text of `entry`'s child `name` ("" when absent)."""
    return (entry.findtext(f"{namespace}{name}") or "").strip()


def _authors(entry: ET.Element) -> list[Author]:
    """The entry's `<author><name>`s, in order."""
    return people(author.findtext(f"{ATOM}name") or "" for author in entry.findall(f"{ATOM}author"))
