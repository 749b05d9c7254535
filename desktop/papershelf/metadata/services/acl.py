"""The ACL Anthology: a paper by its Anthology id, from the Anthology's own `/{id}.bib`.

The Anthology publishes one BibTeX entry per paper ("2023.acl-long.1", "P19-1001") with
title, author, editor, booktitle, year, publisher, url, doi, pages and abstract; it is
read with Papershelf's BibTeX reader, so the record keeps the entry's fields verbatim in
`raw`, as an imported entry does.
"""

from __future__ import annotations

from papershelf.formats.bibtex import parse_bibtex
from papershelf.formats.records import FormatError, PaperRecord
from papershelf.metadata.http import ServiceClient

__all__ = ["fetch"]


def fetch(anthology_id: str, client: ServiceClient) -> PaperRecord:
    """The Anthology paper `anthology_id` ("N19-1423", "2023.acl-long.1")."""
    reply = client.get(
        "acl", f"/{anthology_id}.bib", accept="application/x-bibtex, text/plain",
        what=f"ACL Anthology {anthology_id}",
    )  # fmt: skip
    try:
        result = parse_bibtex(reply.text(), f"ACL Anthology {anthology_id}.bib")
    except FormatError:
        raise reply.malformed("not BibTeX") from None
    if not result.records or not result.records[0].title:
        raise reply.malformed("no BibTeX entry with a title")
    return result.records[0]
