"""The papers around a paper: those it cites (its references) and those citing it, from
whichever service answers, and the papers the library cites most but lacks.

Services are asked in this order, each only if the one before failed (no key, offline
with nothing cached, not found, a bad answer): OpenAlex (the work's `referenced_works`,
then `/works?filter=ids.openalex:…`; `/works?filter=cites:…`), Semantic Scholar
(`/graph/v1/paper/{id}/references` and `/citations`), Crossref (the work's `reference`
list: references only) and OpenCitations (COCI's `/references/{doi}` and
`/citations/{doi}`, then `/metadata/…` for titles). Every request goes through the
project's HTTP client (its cache, spacing, size limit and offline mode), and what is
asked is bounded: at most `LIMIT` papers each way. Each paper found is marked when the
library has it already (same DOI, arXiv id or normalised title: feeds.known).

`missing` asks for the references of each of the library's papers (or a tag's), at most
`MAX_PAPERS` of them, and counts the papers they cite that the library lacks.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal
from urllib.parse import quote

from sqlalchemy import select

from papershelf.core.library import Library
from papershelf.core.models import Paper, PaperTag, Tag
from papershelf.errors import UserError
from papershelf.feeds import known
from papershelf.formats.records import PaperRecord
from papershelf.messages import text
from papershelf.metadata.errors import ServiceError
from papershelf.metadata.http import Reply, ServiceClient
from papershelf.metadata.identifiers import Identifier, parse_identifier
from papershelf.metadata.services import openalex
from papershelf.metadata.services._common import as_dict, as_list, as_str, markup_to_text

__all__ = ["LIMIT", "MAX_PAPERS", "Around", "Missing", "Neighbour", "around", "identify",
           "ids_of", "mark_known", "missing"]

log = logging.getLogger(__name__)

Direction = Literal["references", "citing"]
LIMIT = 200  # papers asked for each way
MAX_PAPERS = 100  # of the library's papers whose references `missing` asks for
_BATCH = 50  # ids in one OpenAlex filter, DOIs in one OpenCitations metadata call
_S2_FIELDS = "title,authors,year,abstract,externalIds"
_COCI = "/index/coci/api/v1"
_JSON = "application/json"
# Failures the next paper would meet too: `missing` asks that service no more.
_LASTING = frozenset({"no-key", "server-error", "rate-limited", "timeout", "network",
                      "bad-url"})


@dataclass(frozen=True)
class Neighbour:
    """A paper around another: what a person reads of it, and whether the library has
    it already."""

    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    abstract: str = ""
    doi: str = ""
    arxiv_id: str = ""
    in_library: bool = False

    @property
    def marks(self) -> list[str]:
        return known.marks(self.title, self.doi, self.arxiv_id)

    @property
    def identifier(self) -> Identifier | None:
        """What adds it by identifier (its DOI, else its arXiv id), or None."""
        if self.doi:
            return parse_identifier(f"doi:{self.doi}")
        if self.arxiv_id:
            return parse_identifier(f"arXiv:{self.arxiv_id}")
        return None


@dataclass
class Around:
    """The papers around one: each way, those found and the service that gave them
    ('' when none answered), and what went wrong on the way (one line each)."""

    references: list[Neighbour] = field(default_factory=list)
    citing: list[Neighbour] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # direction -> service label
    notes: list[str] = field(default_factory=list)

    def failed(self, direction: Direction) -> bool:
        return direction not in self.sources


@dataclass(frozen=True)
class Missing:
    """A paper the library's papers cite that it lacks, and how many of them cite it."""

    paper: Neighbour
    count: int


# ---------------------------------------------------------------------- the paper


def identify(library: Library, key: str) -> tuple[str, str, str]:
    """The DOI, arXiv id and title of the paper with citation key `key` (or of the DOI
    or arXiv id `key` names); UserError when it has neither."""
    ids, _unknown = library.ids_for_keys([key])
    if ids:
        (record,) = library.records(ids[:1])
        doi, arxiv_id = ids_of(record)
        if not doi and not arxiv_id:
            raise UserError(text("{key} has no DOI or arXiv id: nothing to ask the "
                                 "services about", key=key))
        return doi, arxiv_id, record.title
    try:
        identifier = parse_identifier(key)
    except ValueError:
        identifier = None
    if identifier is None or identifier.kind not in ("doi", "arxiv"):
        raise UserError(text("no paper {key} in the library (and not a DOI or arXiv id)",
                             key=key))
    if identifier.kind == "doi":
        return identifier.value, "", ""
    return "", known.plain_arxiv(identifier.value), ""


def ids_of(record: PaperRecord) -> tuple[str, str]:
    """A paper's DOI (lower case) and arXiv id (DOI, page or BibTeX eprint), '' if none."""
    raw = {k.lower(): v for k, v in record.raw.items()}
    arxiv_id = known.arxiv_of(record.doi, record.url, raw.get("eprint", ""),
                              raw.get("archiveprefix", "") or raw.get("eprinttype", ""))
    doi = record.doi.lower()
    return doi, arxiv_id


# ---------------------------------------------------------------------- asking


Asker = Callable[[ServiceClient, str, str, Direction], list[Neighbour]]


def around(client: ServiceClient, doi: str = "", arxiv_id: str = "",
           directions: Sequence[Direction] = ("references", "citing"),
           limit: int = LIMIT, library: Library | None = None,
           skip: set[str] | None = None) -> Around:
    """The papers around the paper with DOI `doi` or arXiv id `arxiv_id`, each way from
    the first service that answers; marked against `library` when given. Never raises
    for a service's failure: it is a note, and the direction stays without a source.
    `skip`: services not to ask, which this call adds those to that failed for a reason
    the next paper would meet too (no key, down, rate-limited, unreachable)."""
    found = Around()
    doi, arxiv_id = doi.strip().lower(), known.plain_arxiv(arxiv_id) if arxiv_id else ""
    if doi.startswith("10.48550/arxiv.") and not arxiv_id:
        arxiv_id = doi.removeprefix("10.48550/arxiv.")
    for direction in directions:
        for label, ask in _ASKERS:
            if skip is not None and label in skip:
                continue
            try:
                papers = ask(client, doi, arxiv_id, direction)
            except ServiceError as error:
                found.notes.append(error.message)
                if skip is not None and error.kind in _LASTING:
                    skip.add(label)
                continue
            except (ValueError, TypeError, KeyError, AttributeError) as error:
                log.exception("reading %s", label)  # (a bug's, not the service's)
                found.notes.append(text("{service}: unreadable answer ({error})",
                                        service=label, error=type(error).__name__))
                continue
            setattr(found, direction, _unique(papers)[:limit])
            found.sources[direction] = label
            break
    if library is not None:
        found.references = mark_known(library, found.references)
        found.citing = mark_known(library, found.citing)
    return found


def _unique(papers: Sequence[Neighbour]) -> list[Neighbour]:
    seen: set[str] = set()
    kept = []
    for paper in papers:
        marks = set(paper.marks)
        if not marks or marks & seen:
            continue
        seen |= marks
        kept.append(paper)
    return kept


def mark_known(library: Library, papers: Sequence[Neighbour]) -> list[Neighbour]:
    """`papers`, each marked when the library has it (same DOI, arXiv id or title)."""
    every = {mark for paper in papers for mark in paper.marks}
    if not every:
        return list(papers)
    with library.context.read() as session:
        have = known.in_library(session, every)
    return [replace(p, in_library=bool(have & set(p.marks))) for p in papers]


def _not_for(service: str, what: str) -> ServiceError:
    return ServiceError(service, what, "not-found")


# OpenAlex


def _openalex(client: ServiceClient, doi: str, arxiv_id: str, direction: Direction
              ) -> list[Neighbour]:
    client.require_key("openalex")
    wanted = doi or f"10.48550/arxiv.{arxiv_id}"
    reply = client.get("openalex", "/works/doi:" + quote(wanted, safe="/"),
                       {"select": "id,referenced_works"}, accept=_JSON, what=f"DOI {wanted}")
    work = as_dict(reply.json())
    work_id = as_str(work.get("id")).rpartition("/")[2]
    if not work_id:
        raise reply.malformed("a work without an id")
    if direction == "citing":
        reply = client.get("openalex", "/works", {
            "filter": f"cites:{work_id}", "sort": "cited_by_count:desc",
            "per-page": str(min(LIMIT, 200))}, accept=_JSON)
        return _openalex_results(reply)
    referenced = [as_str(w).rpartition("/")[2] for w in as_list(work.get("referenced_works"))]
    referenced = [w for w in referenced if w][:LIMIT]
    papers: list[Neighbour] = []
    for start in range(0, len(referenced), _BATCH):
        part = referenced[start:start + _BATCH]
        reply = client.get("openalex", "/works", {
            "filter": "ids.openalex:" + "|".join(part), "per-page": str(len(part))},
            accept=_JSON)
        papers.extend(_openalex_results(reply))
    return papers


def _openalex_results(reply: Reply) -> list[Neighbour]:
    results = as_dict(reply.json()).get("results")
    if not isinstance(results, list):
        raise reply.malformed("no results list")
    papers = []
    for work in map(as_dict, results):
        record = openalex.record_of(work)
        if record is None:
            continue
        arxiv_id = known.arxiv_of(record.doi, "")
        papers.append(_from_record(record, arxiv_id))
    return papers


def _from_record(record: PaperRecord, arxiv_id: str = "") -> Neighbour:
    doi = record.doi.lower()
    if doi.startswith("10.48550/arxiv."):
        arxiv_id, doi = arxiv_id or doi.removeprefix("10.48550/arxiv."), ""
    return Neighbour(record.title, tuple(a.display() for a in record.authors), record.year,
                     record.abstract, doi, arxiv_id)


# Semantic Scholar


def _s2(client: ServiceClient, doi: str, arxiv_id: str, direction: Direction
        ) -> list[Neighbour]:
    client.require_key("s2")
    paper_id = f"DOI:{doi}" if doi else f"ARXIV:{arxiv_id}"
    operation, inner = (("references", "citedPaper") if direction == "references"
                        else ("citations", "citingPaper"))
    reply = client.get("s2", f"/graph/v1/paper/{quote(paper_id, safe=':/')}/{operation}",
                       {"fields": _S2_FIELDS, "limit": str(min(LIMIT, 1000))},
                       accept=_JSON, what=paper_id)
    data = as_dict(reply.json()).get("data")
    if not isinstance(data, list):
        raise reply.malformed("no data list")
    papers = []
    for entry in map(as_dict, data):
        paper = as_dict(entry.get(inner))
        title = " ".join(as_str(paper.get("title")).split())
        if not title:
            continue
        ids = as_dict(paper.get("externalIds"))
        year = paper.get("year")
        papers.append(Neighbour(
            title, tuple(as_str(as_dict(a).get("name")) for a in as_list(paper.get("authors"))
                         if as_str(as_dict(a).get("name"))),
            year if isinstance(year, int) else None,
            " ".join(as_str(paper.get("abstract")).split()),
            as_str(ids.get("DOI")).lower(), known.plain_arxiv(as_str(ids.get("ArXiv")))
            if ids.get("ArXiv") else ""))
    return papers


# Crossref


def _crossref(client: ServiceClient, doi: str, _arxiv_id: str, direction: Direction
              ) -> list[Neighbour]:
    if direction != "references":
        raise _not_for("Crossref", text("lists no papers citing a work"))
    if not doi:
        raise _not_for("Crossref", text("holds no arXiv paper's references"))
    reply = client.get("crossref", "/works/" + quote(doi, safe="/"), accept=_JSON,
                       what=f"DOI {doi}")
    work = as_dict(as_dict(reply.json()).get("message"))
    if not work:
        raise reply.malformed("no work in the message")
    references = work.get("reference")
    if not isinstance(references, list):
        raise _not_for("Crossref", text("has no reference list for {doi}", doi=doi))
    papers = []
    for entry in map(as_dict, references[:LIMIT]):
        ref_doi = as_str(entry.get("DOI")).lower()
        title = markup_to_text(as_str(entry.get("article-title"))
                               or as_str(entry.get("volume-title"))
                               or as_str(entry.get("unstructured")))
        if not title and not ref_doi:
            continue
        year = as_str(entry.get("year"))[:4]
        author = as_str(entry.get("author"))
        papers.append(Neighbour(title or ref_doi, (author,) if author else (),
                                int(year) if year.isdigit() else None, "", ref_doi))
    return papers


# OpenCitations


def _opencitations(client: ServiceClient, doi: str, _arxiv_id: str, direction: Direction
                   ) -> list[Neighbour]:
    if not doi:
        raise _not_for("OpenCitations", text("knows papers by DOI only"))
    operation, other = (("references", "cited") if direction == "references"
                        else ("citations", "citing"))
    reply = client.get("opencitations", f"{_COCI}/{operation}/{quote(doi, safe='/')}",
                       accept=_JSON, what=f"DOI {doi}")
    rows = reply.json()
    if not isinstance(rows, list):
        raise reply.malformed("not a list of citations")
    dois = list(dict.fromkeys(as_str(as_dict(row).get(other)).lower() for row in rows))
    dois = [d for d in dois if d][:LIMIT]
    about: dict[str, Neighbour] = {}
    for start in range(0, len(dois), _BATCH):
        part = dois[start:start + _BATCH]
        try:
            meta = client.get("opencitations", f"{_COCI}/metadata/" + "__".join(
                quote(d, safe="/") for d in part), accept=_JSON)
            entries = meta.json()
        except ServiceError as error:  # (the DOIs are still worth listing)
            log.info("OpenCitations metadata: %s", error.message)
            entries = []
        for entry in map(as_dict, entries if isinstance(entries, list) else []):
            entry_doi = as_str(entry.get("doi")).lower()
            year = as_str(entry.get("year"))[:4]
            authors = tuple(a.strip() for a in as_str(entry.get("author")).split(";")
                            if a.strip())
            about[entry_doi] = Neighbour(markup_to_text(as_str(entry.get("title")))
                                         or entry_doi, authors,
                                         int(year) if year.isdigit() else None, "", entry_doi)
    return [about.get(d) or Neighbour(d, doi=d) for d in dois]


_ASKERS: tuple[tuple[str, Asker], ...] = (
    ("OpenAlex", _openalex), ("Semantic Scholar", _s2), ("Crossref", _crossref),
    ("OpenCitations", _opencitations))


# ---------------------------------------------------------------------- missing


def missing(library: Library, client: ServiceClient, min_count: int = 2, tag: str = "",
            max_papers: int = MAX_PAPERS,
            progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> tuple[list[Missing], list[str]]:
    """The papers cited by at least `min_count` of the library's papers (or of the tag
    `tag`'s) that the library lacks, most cited first, and the notes of the papers whose
    references no service gave. At most `max_papers` papers are asked about."""
    if min_count < 1:
        raise UserError(text("--min is a count of papers: 1 or more"))
    papers = _papers_with_ids(library, tag, max_papers)
    counts: Counter[str] = Counter()
    first: dict[str, Neighbour] = {}
    alias: dict[str, str] = {}
    notes: list[str] = []
    skip: set[str] = set()
    for done, (doi, arxiv_id) in enumerate(papers):
        if cancelled is not None and cancelled():
            break
        found = around(client, doi, arxiv_id, ("references",), skip=skip)
        if found.failed("references"):
            notes.append(text("{paper}: no service gave its references",
                              paper=doi or f"arXiv:{arxiv_id}"))
        cited_here: set[str] = set()
        for paper in found.references:
            marks = paper.marks
            head = next((alias[m] for m in marks if m in alias), marks[0])
            for mark in marks:
                alias.setdefault(mark, head)
            first.setdefault(head, paper)
            cited_here.add(head)
        counts.update(cited_here)
        if progress is not None:
            progress(done + 1, len(papers))
    wanted = [head for head, n in counts.items() if n >= min_count]
    marked = mark_known(library, [first[head] for head in wanted])
    result = [Missing(paper, counts[head]) for head, paper in zip(wanted, marked)
              if not paper.in_library]
    result.sort(key=lambda m: (-m.count, m.paper.title.lower()))
    return result, notes


def _papers_with_ids(library: Library, tag: str, most: int) -> list[tuple[str, str]]:
    """The DOI and arXiv id of the library's papers (or the tag's) that have one, newest
    first, at most `most` of them."""
    with library.context.read() as session:
        statement = select(Paper.id).order_by(Paper.id.desc())
        if tag:
            tag_id = session.scalar(select(Tag.id).where(Tag.name == tag))
            if tag_id is None:
                raise UserError(text("no tag {tag} in the library", tag=tag))
            statement = statement.join(PaperTag, PaperTag.paper_id == Paper.id).where(
                PaperTag.tag_id == tag_id)
        ids = list(session.scalars(statement))
    found = []
    for start in range(0, len(ids), 500):
        for record in library.records(ids[start:start + 500]):
            doi, arxiv_id = ids_of(record)
            if doi or arxiv_id:
                found.append((doi, arxiv_id))
        if len(found) >= most:
            break
    return found[:most]
