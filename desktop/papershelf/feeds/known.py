"""Which papers the library has already, told by what identifies a paper anywhere: its
DOI, its arXiv id (the paper's DOI 10.48550/arXiv.…, its arxiv.org/abs page, or the
BibTeX `eprint` of an arXiv paper) and its normalised title.

Marks are strings "doi:…" (lower case), "arxiv:…" (no version) and "title:…"
(`normalize_text`), as `marks` makes them; the inbox (feeds.inbox) and the papers around
a paper (feeds.around) both ask `in_library` which of theirs the library holds.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from papershelf.core.ingest import normalize_text
from papershelf.core.models import Paper, PaperText

__all__ = ["arxiv_of", "eprints_of", "in_library", "marks", "split"]

_CHUNK = 400  # values in one IN (...)
_VERSION_RE = re.compile(r"v\d+$")
_ABS_RE = re.compile(r"(?i)arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:v\d+)?(?:\.pdf)?$")
_ARXIV_DOI = "10.48550/arxiv."


def marks(title: str = "", doi: str = "", arxiv_id: str = "") -> list[str]:
    """What tells a paper apart, best first: "doi:…", "arxiv:…" (no version),
    "title:…" (normalised as the library's duplicate check does)."""
    found = []
    doi = doi.strip().lower()
    if doi.startswith(_ARXIV_DOI) and not arxiv_id:
        arxiv_id = doi[len(_ARXIV_DOI):]
    if doi:
        found.append("doi:" + doi)
    if arxiv_id:
        found.append("arxiv:" + plain_arxiv(arxiv_id))
    if normalized := normalize_text(title):
        found.append("title:" + normalized)
    return found


def plain_arxiv(arxiv_id: str) -> str:
    """An arXiv id as compared: no "arXiv:" in front, no version behind, lower case."""
    arxiv_id = arxiv_id.strip()
    if arxiv_id.lower().startswith("arxiv:"):
        arxiv_id = arxiv_id[6:]
    return _VERSION_RE.sub("", arxiv_id).lower()


def arxiv_of(doi: str, url: str, eprint: str = "", archive: str = "") -> str:
    """The arXiv id a paper's fields name ('' if none): its arXiv DOI, its arxiv.org
    page, or its `eprint` (unless another archive's)."""
    if doi.lower().startswith(_ARXIV_DOI):
        return plain_arxiv(doi[len(_ARXIV_DOI):])
    if match := _ABS_RE.search(url or ""):
        return plain_arxiv(match.group(1))
    if eprint and archive.lower() in ("", "arxiv"):
        return plain_arxiv(eprint)
    return ""


def split(found: Iterable[str]) -> dict[str, set[str]]:
    """Marks by kind: {"doi": {...}, "arxiv": {...}, "title": {...}}."""
    kinds: dict[str, set[str]] = {"doi": set(), "arxiv": set(), "title": set()}
    for mark in found:
        kind, _, value = mark.partition(":")
        if kind in kinds and value:
            kinds[kind].add(value)
    return kinds


def _chunks(values: Iterable[str]) -> Iterable[list[str]]:
    ordered = sorted(values)
    for start in range(0, len(ordered), _CHUNK):
        yield ordered[start:start + _CHUNK]


def in_library(session: Session, wanted: Iterable[str],
               eprints: Collection[str] | None = None) -> set[str]:
    """Those of the marks `wanted` a paper of the library has: its DOI (arXiv's own DOI
    for an arXiv id), its arXiv page or BibTeX eprint, its normalised title. `eprints`:
    the library's (`eprints_of`), when read once for many calls (they are read from
    every paper's BibTeX fields)."""
    kinds = split(wanted)
    as_arxiv = {plain_arxiv(d[len(_ARXIV_DOI):]): d for d in kinds["doi"]
                if d.startswith(_ARXIV_DOI)}  # (arXiv's DOI: the paper's arXiv id)
    kinds["arxiv"] |= set(as_arxiv)
    by_doi = {d: f"doi:{d}" for d in kinds["doi"]}
    by_doi |= {f"{_ARXIV_DOI}{a}": f"arxiv:{a}" for a in kinds["arxiv"]}
    by_url = {f"{scheme}://arxiv.org/abs/{a}": f"arxiv:{a}" for a in kinds["arxiv"]
              for scheme in ("http", "https")}
    found = _found(session, kinds, by_doi, by_url, eprints)
    found |= {f"doi:{as_arxiv[m[6:]]}" for m in found
              if m.startswith("arxiv:") and m[6:] in as_arxiv}
    return found


def eprints_of(session: Session) -> set[str]:
    """The arXiv ids (as compared) the library's papers have as their BibTeX eprint."""
    eprint = PaperText.bib_fields["eprint"].as_string()
    return {plain_arxiv(e) for e in session.scalars(
        select(eprint).where(eprint.is_not(None), eprint != "")) if e}


def _found(session: Session, kinds: dict[str, set[str]], by_doi: dict[str, str],
           by_url: dict[str, str], eprints: Collection[str] | None) -> set[str]:
    """The marks found: by DOI, by arxiv.org page, by BibTeX eprint, by title."""
    found: set[str] = set()
    lowered = func.lower(Paper.doi)
    for part in _chunks(by_doi):
        found |= {by_doi[d] for d in session.scalars(select(lowered).where(lowered.in_(part)))}
    for part in _chunks(by_url):
        found |= {by_url[u] for u in session.scalars(select(Paper.url).where(Paper.url.in_(part)))}
    if kinds["arxiv"] - {m.partition(":")[2] for m in found}:
        held = eprints_of(session) if eprints is None else eprints
        found |= {f"arxiv:{a}" for a in kinds["arxiv"] if a in held}
    for part in _chunks(kinds["title"]):
        found |= {f"title:{t}" for t in session.scalars(
            select(Paper.title_norm).where(Paper.title_norm.in_(part)))}
    return found
