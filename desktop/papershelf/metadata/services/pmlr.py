"""PMLR: a paper by volume and name ("v235/adepu24a"), from its page's `citation_*` tags.

Every PMLR paper page (`/v235/adepu24a.html`, built from the mlresearch Jekyll theme,
`_includes/paper_google_scholar.html` and `paper_abstract.html`) carries Google Scholar
meta tags: `citation_title`, one `citation_author` per author ("Given Family"),
`citation_publication_date` ("2024/07/08"), `citation_conference_title`,
`citation_volume`, `citation_firstpage`, `citation_lastpage`, `citation_pdf_url`; the
abstract is the text of `<div id="abstract">`.
"""

from __future__ import annotations

from html.parser import HTMLParser

from papershelf.formats.records import PaperRecord
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.services._common import (
    markup_to_text,
    page_range,
    people,
    with_raw,
    year_of,
)

__all__ = ["fetch"]


class _PageReader(HTMLParser):
    """Collects a page's `citation_*` meta tags and the text of its abstract div."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, list[str]] = {}
        self.abstract: list[str] = []
        self._depth = 0  # > 0 while inside <div id="abstract">

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "meta":
            name = (values.get("name") or "").strip().lower()
            if name.startswith("citation_"):
                self.meta.setdefault(name, []).append((values.get("content") or "").strip())
        elif tag == "div" and (self._depth or values.get("id") == "abstract"):
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.abstract.append(data)

    def first(self, name: str) -> str:
        """The first value of meta tag `name`, or ""."""
        return next(iter(self.meta.get(name, [])), "")


def fetch(paper: str, client: ServiceClient) -> PaperRecord:
    """The PMLR paper `paper` ("v235/adepu24a")."""
    reply = client.get(
        "pmlr", f"/{paper.strip('/')}.html", accept="text/html", what=f"PMLR {paper}"
    )
    page = _PageReader()
    page.feed(reply.text())
    page.close()
    title = markup_to_text(page.first("citation_title"))
    if not title:
        raise reply.malformed("a page without citation_title")
    record = PaperRecord(
        entry_type="inproceedings",
        title=title,
        authors=people(page.meta.get("citation_author", [])),
        abstract=markup_to_text("".join(page.abstract)),
        venue=markup_to_text(page.first("citation_conference_title")),
        year=year_of(page.first("citation_publication_date")),
        volume=page.first("citation_volume"),
        pages=page_range(page.first("citation_firstpage"), page.first("citation_lastpage")),
        publisher="PMLR",
        url=reply.url,
    )
    return with_raw(record, {
        "series": "Proceedings of Machine Learning Research",
        "pdf": page.first("citation_pdf_url"),
    })  # fmt: skip
