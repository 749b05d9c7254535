"""Any paper by its identifier, from the service that owns its metadata.

`lookup` sends each kind of `Identifier` to its service: a DOI to Crossref (an arXiv
DataCite DOI to arXiv; a DOI Crossref does not know to OpenAlex), an arXiv id to arXiv,
an OpenReview id to OpenReview, a DBLP key to DBLP, a PMLR paper to its page, an ACL
Anthology id to the Anthology's BibTeX, and a title to a search: OpenAlex, then Semantic
Scholar, then DBLP (the one that needs no key), keeping the candidate whose normalised
title is closest. A service that needs a key it does not have is skipped with a one-line
note in `notes`. Every failure is a `ServiceError`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence

from rapidfuzz import fuzz

from papershelf.core.ingest import normalize_text
from papershelf.formats.records import PaperRecord
from papershelf.messages import listed, text
from papershelf.metadata.http import ServiceClient, ServiceError
from papershelf.metadata.identifiers import Identifier
from papershelf.metadata.services import (
    acl,
    arxiv,
    crossref,
    dblp,
    openalex,
    openreview,
    pmlr,
    semanticscholar,
)

__all__ = ["best_match", "lookup", "search_title"]

log = logging.getLogger(__name__)

_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
# How close (0-1) a candidate's normalised title must be to the one asked for.
TITLE_THRESHOLD = 0.9
Searcher = Callable[[str, ServiceClient], list[PaperRecord]]
# Title search, in order: (service name, search); later ones only when earlier ones
# found nothing close enough.
_TITLE_SEARCHES: tuple[tuple[str, Searcher], ...] = (
    ("openalex", openalex.search),
    ("s2", semanticscholar.search),
    ("dblp", dblp.search),
)


def lookup(
    identifier: Identifier, client: ServiceClient, notes: list[str] | None = None
) -> PaperRecord:
    """The paper `identifier` names, as its service describes it. `notes` collects
    one-line remarks for the user (a service skipped for want of a key, a fallback)."""
    notes = notes if notes is not None else []
    kind, value = identifier.kind, identifier.value
    if kind == "doi":
        return _by_doi(value, client, notes)
    if kind == "arxiv":
        return arxiv.fetch(value, client)
    if kind == "openreview":
        return openreview.fetch(value, client)
    if kind == "dblp":
        return dblp.fetch(value, client)
    if kind == "pmlr":
        return pmlr.fetch(value, client)
    if kind == "acl":
        return acl.fetch(value, client)
    if kind == "title":
        found = best_match(value, search_title(value, client, notes))
        if found is None:
            raise ServiceError(text("Title search"),
                               text("nothing found titled “{title}”", title=value), "not-found")
        return found
    raise ValueError(f"unknown identifier kind {kind!r}")  # pragma: no cover


def _by_doi(doi: str, client: ServiceClient, notes: list[str]) -> PaperRecord:
    """Crossref for a DOI; arXiv for arXiv's DataCite DOIs (Crossref has none of them);
    OpenAlex when Crossref does not know the DOI."""
    match = _ARXIV_DOI_RE.match(doi)
    if match:
        record = arxiv.fetch(match.group(1), client)
        record.doi = record.doi or doi
        return record
    try:
        return crossref.fetch(doi, client)
    except ServiceError as error:
        if error.kind != "not-found":
            raise
        try:
            record = openalex.fetch_doi(doi, client)
        except ServiceError as fallback:
            if fallback.kind in ("no-key", "not-found"):
                if fallback.kind == "no-key":
                    _note(notes, fallback)
                raise error from None
            raise
        _note(notes, text("Crossref does not know DOI {doi}; OpenAlex's record is used",
                          doi=doi))
        return record


def search_title(title: str, client: ServiceClient, notes: list[str] | None = None
                 ) -> list[PaperRecord]:  # fmt: skip
    """Candidates for `title`: from the first service (OpenAlex, Semantic Scholar, DBLP)
    that has one close to it, else everything found. A service that fails or is skipped
    gets a note and the next one is asked; offline stops the search."""
    notes = notes if notes is not None else []
    candidates: list[PaperRecord] = []
    unreachable: list[ServiceError] = []
    answered = False
    for name, search in _TITLE_SEARCHES:
        try:
            found = search(title, client)
        except ServiceError as error:
            if error.kind == "offline":
                raise
            if error.kind in _UNREACHABLE:
                unreachable.append(error)
            _note(notes, error)
            continue
        answered = True
        if best_match(title, found) is not None:
            return found
        candidates.extend(found)
        log.info("%s: nothing close to %r among %d results", name, title, len(found))
    if not answered and unreachable:  # (not "nothing found": nobody could be asked)
        raise ServiceError(text("Title search"), text(
            "no service could be reached ({errors})",
            errors=listed([e.message for e in unreachable])), "network")
    return candidates


# A service that fails like this was not asked at all (no network, a server down).
_UNREACHABLE = frozenset({"network", "timeout"})


def best_match(title: str, candidates: Sequence[PaperRecord]) -> PaperRecord | None:
    """The candidate whose normalised title is closest to `title` (case, accents,
    punctuation and spacing ignored), if it is close enough; the first on a tie."""
    wanted = normalize_text(title)
    best: PaperRecord | None = None
    best_score = TITLE_THRESHOLD * 100
    for candidate in candidates:
        score = fuzz.ratio(wanted, normalize_text(candidate.title))
        if score >= best_score and (best is None or score > best_score):
            best, best_score = candidate, score
    return best


def _note(notes: list[str], note: ServiceError | str) -> None:
    """Record a one-line note for the user (and in the log)."""
    notes.append(note.message if isinstance(note, ServiceError) else note)
    log.info("%s", note)
