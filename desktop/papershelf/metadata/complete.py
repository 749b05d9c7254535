"""Completing papers from the catalogs and the scholarly services, with no Qt.

`find_candidates` looks each paper up by its abstract and its (provisional) title: in the
catalogs the user added first (offline), then, unless those give a confident match, by
OpenAlex's search and Semantic Scholar's title match, and by DBLP for the venue and year
of a preprint (a service without its API key is skipped with one note; offline mode asks
no service). Papers of one list (one import of an abstract list or a .bib file) are
searched in the catalogs together, in the list's order, with the papers around them in
it (`core.completing.list_runs`, `CatalogStore.search_many`): a list copied from a
conference's site is in its catalog's order, which places a paper whose words say
little between its neighbours. The candidates are ranked together (`matching`), the
same paper found by two sources is one candidate, and each comes with what it would
change in the paper (a field diff). `accept` merges a candidate into the paper the way
an import completes a duplicate (`core.importing.merge_into`: it fills what the paper
lacks and replaces a provisional title; the citation key, notes, star, read state and
tags stay), as one transaction whose `Change` undoes it.

Both are plain functions of an open `Library`, safe to call off the GUI thread; every
bad answer of a service is one line in the proposal's `problems` and changes nothing.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from papershelf.core import fields
from papershelf.core.completing import list_runs
from papershelf.core.ingest import normalize_text
from papershelf.core.library import (
    Cancelled,
    Change,
    Library,
    PaperDetail,
    Progress,
    UserError,
)
from papershelf.formats.records import PaperRecord
from papershelf.metadata.catalog import NEIGHBOURS, CatalogStore
from papershelf.metadata.http import ServiceClient, ServiceError
from papershelf.metadata.matching import (
    confident,
    is_workshop,
    placed_first,
    rank,
    venue_acronym,
)
from papershelf.metadata.services import dblp, openalex, semanticscholar

__all__ = [
    "CATALOG",
    "FieldChange",
    "Option",
    "Proposal",
    "accept",
    "changes",
    "find_candidates",
    "provisional_ids",
]

log = logging.getLogger(__name__)

CATALOG = "catalog"  # the source of a candidate from the user's catalogs
# Failures after which a service is not asked again in the same run (the next paper
# would wait for the same time-out or limit); a malformed or missing answer is the
# answer's own, so the service is still asked about the next paper.
_GIVE_UP = frozenset({"timeout", "rate-limited", "server-error", "network", "refused",
                      "bad-url", "redirect-loop"})
# How many words of an abstract make the query of a paper without any title.
_QUERY_WORDS = 12
# How many candidates of each source are ranked, however few are kept: whether the best
# is a clear winner depends on the runner-up.
_DEPTH = 5
# The sources whose records are a venue's own (proceedings links, pages): of the same
# paper found by several sources, theirs is taken.
_PROCEEDINGS = (CATALOG, "DBLP")
_ARXIV_DOI_PREFIX = "10.48550/"
_ROWS_AT_ONCE = 2000
# Papers of a list searched in the catalogs at once (with their neighbours in it).
_PAPERS_AT_ONCE = 100
_Searcher = Callable[[str, ServiceClient], list[PaperRecord]]


@dataclass(frozen=True)
class FieldChange:
    """One field accepting a candidate would set: its name, the paper's value ("" when
    it has none) and the candidate's, as text."""

    field: str
    old: str
    new: str


@dataclass(frozen=True)
class Option:
    """A candidate for a paper: its record, score (0 to 1) and the reasons, the sources
    that gave it ("catalog", "OpenAlex", "Semantic Scholar", "DBLP"; when several found
    the same paper, joined by " + ", the one whose record it is first) and what
    accepting it would change."""

    record: PaperRecord
    score: float
    why: str
    source: str
    changes: tuple[FieldChange, ...]


@dataclass(frozen=True)
class Proposal:
    """What was found for one paper: the candidates, best first; whether the best is a
    clear winner (`matching.confident`); and the bad answers met on the way, one line
    each. `version` is the paper's when it was looked up: `accept` refuses a paper that
    changed since."""

    paper_id: int
    key: str
    title: str
    provisional: bool
    version: int
    options: tuple[Option, ...]
    confident: bool
    problems: tuple[str, ...] = ()

    @property
    def best(self) -> Option | None:
        """The best candidate, or None when nothing was found."""
        return self.options[0] if self.options else None


def provisional_ids(library: Library) -> list[int]:
    """The papers whose title is provisional (from an abstract list), in the order they
    were added."""
    ids = library.view_ids()
    found: list[int] = []
    for start in range(0, len(ids), _ROWS_AT_ONCE):
        chunk = ids[start:start + _ROWS_AT_ONCE]
        rows = library.rows(chunk)
        found.extend(pid for pid in chunk if pid in rows and rows[pid].title_provisional)
    return found


def find_candidates(
    library: Library,
    ids: Sequence[int],
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    *,
    catalogs: CatalogStore | None = None,
    client: ServiceClient | None = None,
    notes: list[str] | None = None,
    limit: int = 5,
) -> list[Proposal]:
    """A proposal for each paper of `ids`, in their order (papers that no longer exist
    are left out): its best `limit` candidates from `catalogs` and, through `client`,
    the services. Papers of one list are searched in the catalogs as a list, in its
    order, with their neighbours in it (see the module's docstring), whatever the order
    of `ids`: a paper gets the same candidates from the catalogs looked up alone or with
    others.

    `notes` collects one-line remarks about the whole run (a service skipped for want
    of a key, offline mode); `progress(done, total)` is called after each paper; when
    `cancelled()` turns true the proposals made so far are returned."""
    search = _Search(catalogs, client, notes if notes is not None else [], limit)
    wanted = list(dict.fromkeys(ids))
    runs = (list_runs(library, wanted, NEIGHBOURS) if search.catalogs is not None
            else [[pid] for pid in wanted])
    made: dict[int, Proposal] = {}
    done = 0
    for papers, asked in _batches(runs, set(wanted)):
        if cancelled is not None and cancelled():
            break
        details = {d.id: d for d in library.details(papers)}
        found = dict(zip(details, search.in_catalogs(list(details.values())), strict=True))
        for pid in papers:
            if pid not in asked:
                continue
            if cancelled is not None and cancelled():
                break
            if pid in details:
                made[pid] = search.propose(details[pid], found[pid])
            done += 1
            if progress is not None:
                progress(done, len(wanted))
    return [made[pid] for pid in wanted if pid in made]


def _batches(runs: Sequence[list[int]], wanted: set[int]
             ) -> list[tuple[list[int], set[int]]]:
    """The papers of `runs` to read and search at once, each batch a piece of a run
    with its neighbours in the run, and the papers of `wanted` it is for."""
    batches: list[tuple[list[int], set[int]]] = []
    for run in runs:
        for start in range(0, len(run), _PAPERS_AT_ONCE):
            asked = set(run[start:start + _PAPERS_AT_ONCE]) & wanted
            if asked:
                batches.append((run[max(0, start - NEIGHBOURS):
                                    start + _PAPERS_AT_ONCE + NEIGHBOURS], asked))
    return batches


def accept(library: Library, proposal: Proposal, option: Option | None = None) -> Change:
    """Complete the paper of `proposal` from `option` (default: the best candidate), as an
    import completes a duplicate: what the paper lacks is filled in, a provisional title
    replaced; its key, notes, star, read state and tags stay. One transaction; the
    Change's undo puts back what it changed (and nothing else). UserError when there is
    no candidate, the paper is gone, or it changed since it was looked up (look it up
    again)."""
    chosen = option or proposal.best
    if chosen is None:
        raise UserError(f"{proposal.key}: no candidate to accept")
    return library.complete_paper(proposal.paper_id, _incoming(chosen.record),
                                  f"Complete {proposal.key} from {chosen.source}",
                                  proposal.version)


def changes(paper: PaperRecord, candidate: PaperRecord) -> tuple[FieldChange, ...]:
    """What merging `candidate` into `paper` would set, field by field, by the rules of
    `core.importing.merge_into`: a real title for a provisional one, and every field
    the paper lacks (the fields of `core.fields`, the authors, and BibTeX fields such as
    the arXiv id or the OpenReview link)."""
    out: list[FieldChange] = []
    if candidate.title and paper.title_provisional and not candidate.title_provisional:
        out.append(FieldChange("title", paper.title, candidate.title))
    if candidate.abstract and not paper.abstract:
        out.append(FieldChange("abstract", "", candidate.abstract))
    for f in fields.COMPLETED:  # venue, volume, pages, publisher, doi, url, year
        value, have = getattr(candidate, f.name), getattr(paper, f.name)
        if value and not have:
            out.append(FieldChange(f.name, "", str(value)))
    if candidate.authors and not paper.authors:
        out.append(FieldChange("author", "", ", ".join(a.display() for a in candidate.authors)))
    named = {change.field for change in out}
    for name, value in candidate.raw.items():
        if (name in fields.OWNED_BIBTEX or name in paper.raw or not value
                or (name in fields.VENUE_FIELDS and "venue" in named)):
            continue
        out.append(FieldChange(name, "", value))
    return tuple(out)


# -- searching ---------------------------------------------------------------------------


@dataclass
class _Found:
    """A candidate while sources are put together: its record, score, reasons, sources."""

    record: PaperRecord
    score: float
    why: str
    sources: list[str] = field(default_factory=list)
    place: str = ""  # where the list order puts the paper, when it puts it at this one


class _Search:
    """One run of lookups: the catalogs, the client, the services given up on (and why,
    once) and the run's notes."""

    def __init__(self, catalogs: CatalogStore | None, client: ServiceClient | None,
                 notes: list[str], limit: int) -> None:
        self.catalogs = catalogs if catalogs is not None and catalogs.catalogs() else None
        self.client = client
        self.notes = notes
        self.limit = max(1, limit)
        self.depth = max(self.limit, _DEPTH)
        self.skipped: set[str] = set()
        if self.catalogs is None:
            self._note("no catalog added: the catalogs give no candidates")
        if client is None:
            self._note("no service asked: only the catalogs were searched")
        elif client.offline:
            self._note("offline mode is on: only the catalogs were searched")

    def in_catalogs(self, details: Sequence[PaperDetail]) -> list[list[_Found]]:
        """The catalogs' candidates for the papers of a list, in its order."""
        if self.catalogs is None:
            return [[] for _ in details]
        found = self.catalogs.search_many([d.record for d in details], self.depth)
        return [[_Found(c.record, c.score, c.why, [CATALOG], c.place) for c in candidates]
                for candidates in found]

    def propose(self, detail: PaperDetail, in_catalogs: list[_Found]) -> Proposal:
        """The proposal for a paper, from its candidates `in_catalogs` and, unless one
        of those is a clear winner, the services'."""
        paper = detail.record
        problems: list[str] = []
        found = list(in_catalogs)
        if not confident(found) and self.client is not None and not self.client.offline:
            found += self._online(paper, self.client, problems)
        ranked = _together(found)
        options = tuple(
            Option(f.record, f.score, f.why, " + ".join(f.sources), changes(paper, f.record))
            for f in ranked[:self.limit])
        return Proposal(detail.id, detail.key, paper.title, paper.title_provisional,
                        detail.version, options, confident(ranked), tuple(problems))

    def _online(self, paper: PaperRecord, client: ServiceClient, problems: list[str]
                ) -> list[_Found]:
        """Candidates from the services: OpenAlex's search and Semantic Scholar's title
        match for the paper's title (a provisional title is words of its abstract, which
        OpenAlex searches too), then DBLP for the venue and year of the best when it is
        a preprint (or for the paper's own real title when nothing was found)."""
        query = _query(paper)
        records: list[tuple[PaperRecord, str]] = []
        searches: tuple[tuple[str, str, _Searcher], ...] = (
            ("openalex", "OpenAlex", openalex.search),
            ("s2", "Semantic Scholar", semanticscholar.search),
        )
        for name, label, search in searches:
            found = self._ask(name, functools.partial(search, query, client), problems)
            records += [(record, label) for record in found]
        ranked = _ranked(paper, records)
        wanted = ""
        if ranked:
            best = _together(ranked)[0].record
            if not venue_acronym(best.venue) or best.year is None:
                wanted = best.title
        elif paper.title and not paper.title_provisional:
            wanted = paper.title
        if wanted:
            found = self._ask("dblp", functools.partial(dblp.search, wanted, client), problems)
            records += [(record, "DBLP") for record in found]
            ranked = _ranked(paper, records)
        return ranked

    def _ask(self, name: str, call: Callable[[], list[PaperRecord]], problems: list[str]
             ) -> list[PaperRecord]:
        """What one service answers; [] (and a note or a problem) when it cannot."""
        if name in self.skipped:
            return []
        try:
            return call()
        except ServiceError as error:
            if error.kind in ("no-key", "offline"):
                self.skipped.add(name)
                self._note(str(error))
            elif error.kind in _GIVE_UP:
                self.skipped.add(name)
                problems.append(f"{error} (not asked again this time)")
            elif error.kind != "not-found":
                problems.append(str(error))
            log.info("%s", error)
            return []

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)
            log.info("%s", note)


def _query(paper: PaperRecord) -> str:
    """What to search for: the title (provisional or real), else the abstract's start."""
    if paper.title.strip():
        return paper.title.rstrip("…").strip()
    return " ".join(paper.abstract.split()[:_QUERY_WORDS])


def _ranked(paper: PaperRecord, records: Sequence[tuple[PaperRecord, str]]) -> list[_Found]:
    """The services' records scored against `paper`, best first."""
    source = {id(record): label for record, label in records}
    return [_Found(c.record, c.score, c.why, [source[id(c.record)]])
            for c in rank(paper, [record for record, _ in records])]


def _together(found: Sequence[_Found]) -> list[_Found]:
    """One candidate per paper, best first: records of the same paper from several
    sources (a catalog's, DBLP's and arXiv's versions of one ICML paper) are one, its
    record the one naming a venue (a catalog's or DBLP's first), completed from the
    others; near misses (another year, a workshop version, another title) stay apart.
    The one the list order places the paper at goes first unless the best is a clear
    winner (`matching.placed_first`)."""
    groups: list[list[_Found]] = []
    for item in sorted(found, key=lambda f: -f.score):
        for group in groups:
            if _same_paper(group[0].record, item.record):
                group.append(item)
                break
        else:
            groups.append([item])
    together: list[_Found] = []
    for group in groups:
        best = group[0]
        base = min(group, key=lambda f: (not venue_acronym(f.record.venue),
                                         not set(f.sources) & set(_PROCEEDINGS)))
        record = _copy(base.record)
        for other in group:
            if other is not base:
                _fill(record, other.record)
        sources = list(dict.fromkeys(s for f in (base, *group) for s in f.sources))
        why = base.why if base.score >= best.score else best.why  # (the record's own)
        place = next((f.place for f in group if f.place), "")
        if place and not why.startswith(place):
            why = f"{place}; {why}"
        together.append(_Found(record, best.score, why, sources, place))
    together.sort(key=lambda f: -f.score)
    return placed_first(together)


def _same_paper(a: PaperRecord, b: PaperRecord) -> bool:
    """Whether two records are one paper: the same title, no other year, no other venue
    (a preprint server is none) and both or neither a workshop version."""
    title = normalize_text(a.title)
    if not title or title != normalize_text(b.title) or is_workshop(a) != is_workshop(b):
        return False
    if a.year is not None and b.year is not None and a.year != b.year:
        return False
    venue_a, venue_b = venue_acronym(a.venue), venue_acronym(b.venue)
    return not venue_a or not venue_b or venue_a == venue_b


def _copy(record: PaperRecord) -> PaperRecord:
    return dataclasses.replace(record, authors=list(record.authors), raw=dict(record.raw))


def _fill(record: PaperRecord, other: PaperRecord) -> None:
    """Complete `record` from `other`, a record of the same paper, field by field. A
    preprint's DOI does not go to a record with a venue: it names the preprint."""
    for name in ("abstract", "volume", "pages", "publisher", "url"):
        if not getattr(record, name) and getattr(other, name):
            setattr(record, name, getattr(other, name))
    if record.year is None:
        record.year = other.year
    if not venue_acronym(record.venue) and venue_acronym(other.venue):
        record.venue = other.venue
    if not record.doi and other.doi and not (
            venue_acronym(record.venue) and other.doi.startswith(_ARXIV_DOI_PREFIX)):
        record.doi = other.doi
    if not record.authors:
        record.authors = list(other.authors)
    for name, value in other.raw.items():
        if name not in record.raw and name not in fields.OWNED_BIBTEX \
                and name not in fields.VENUE_FIELDS:
            record.raw[name] = value


# -- accepting ---------------------------------------------------------------------------


def _incoming(record: PaperRecord) -> PaperRecord:
    """The candidate as an import would bring it: no key (it would become an alias of
    the paper), and none of the user's own data."""
    return dataclasses.replace(record, key=None, notes="", tags=[], aliases=[],
                               authors=list(record.authors), raw=dict(record.raw))
