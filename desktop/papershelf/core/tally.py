"""Saved searches' counts kept current by the papers a change names, not counted again.

Counting 20 saved searches of a million papers takes seconds (a common word's matches
are most of the papers); after an edit the sidebar must show the new counts at once. So
a `Tally` keeps, for each saved search, which papers it finds (one bit per paper id) and
how many. After a change it reads only the papers the change names, decides for each
search whether it finds them now (`core.query.evaluate`, the plain-Python reading of the
query that the property test holds every store's answer to), and moves the counts by
the difference. The caller counts again in full now and then (relative dates such as
`added:<30d` move with the clock, and a change naming no papers says nothing of which
papers moved). Never imports Qt.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import Connection, select

from papershelf.core import query, views
from papershelf.core.context import Context
from papershelf.core.models import Annotation, Paper, PaperFile, Personal
from papershelf.core.saved import SavedSearch, saved_searches
from papershelf.core.search.annotated import seen_by
from papershelf.core.shapes import View
from papershelf.core.store import chunks

# A change naming more papers than this is counted again in full (reading thousands of
# papers to evaluate the queries costs more than a count).
MOST_FOLLOWED = 500


@dataclass
class _Found:
    """What one saved search finds: its query, the bits of the ids, their number."""

    query: str
    bits: bytearray
    count: int

    def has(self, paper_id: int) -> bool:
        byte = paper_id >> 3
        return byte < len(self.bits) and bool(self.bits[byte] & (1 << (paper_id & 7)))

    def put(self, paper_id: int, found: bool) -> None:
        byte = paper_id >> 3
        if byte >= len(self.bits):
            if not found:
                return
            self.bits.extend(bytes(byte + 1 - len(self.bits)))
        mask = 1 << (paper_id & 7)
        if found:
            self.bits[byte] |= mask
        else:
            self.bits[byte] &= ~mask & 0xFF


def _bits(ids: Sequence[int]) -> bytearray:
    bits = bytearray((max(ids, default=0) >> 3) + 1)
    for paper_id in ids:
        bits[paper_id >> 3] |= 1 << (paper_id & 7)
    return bits


def _aware(moment: datetime | None) -> datetime | None:
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def searchables(ctx: Context, ids: Sequence[int]) -> dict[int, query.Searchable]:
    """What the queries look at in these papers (those that exist), as the search index
    holds it: title, authors, abstract, shared notes, tags and attached files' text, the
    annotations the user sees, when they last read each."""
    texts: dict[int, list[str]] = {}
    marks: dict[int, list[str]] = {}
    last_read: dict[int, datetime | None] = {}
    with ctx.read() as session:
        for chunk in chunks(list(ids)):
            for paper_id, body in session.execute(
                    select(PaperFile.paper_id, PaperFile.body)
                    .where(PaperFile.paper_id.in_(chunk)).order_by(PaperFile.id)):
                texts.setdefault(paper_id, []).append(body or "")
            for paper_id, quote, comment in session.execute(
                    select(Annotation.paper_id, Annotation.quote, Annotation.comment)
                    .where(Annotation.paper_id.in_(chunk), seen_by(ctx.user_name))
                    .order_by(Annotation.id)):
                marks.setdefault(paper_id, []).extend((quote, comment))
            last_read.update(session.execute(
                select(Personal.paper_id, Personal.last_read_at).where(
                    Personal.paper_id.in_(chunk), Personal.user_name == ctx.user_name)).all())
    tags = views.tags_of(ctx, ids)
    found: dict[int, query.Searchable] = {}
    for d in views.details(ctx, ids):
        record = d.record
        found[d.id] = query.Searchable(
            added=_aware(d.added_at) or d.added_at, title=record.title,
            authors=[a.display() for a in record.authors], abstract=record.abstract,
            venue=record.venue, notes=record.notes, tags=tags.get(d.id, []), key=d.key,
            doi=record.doi, pdf_text=" ".join(texts.get(d.id, [])),
            has_pdf=d.id in texts, entry_type=record.entry_type, starred=d.starred,
            read_state=d.read_state, provisional=record.title_provisional,
            year=record.year, read_at=_aware(d.read_at),
            annotations=" | ".join(marks.get(d.id, [])), has_annotations=d.id in marks,
            last_read_at=_aware(last_read.get(d.id)))
    return found


Counted = Callable[[list[tuple[SavedSearch, "int | None"]]], None]


class Tally:
    """The saved searches' counts of one library, kept current change by change. Safe
    to call from two threads at once: papers followed while `count_all` counts are
    followed again on its new counts, which may have been read before their change.
    `stop` (from any thread) ends a count under way, its statement interrupted."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._found: dict[int, _Found] = {}
        self._lock = threading.Lock()
        self._meanwhile: set[int] | None = None  # papers followed during a count_all
        self._stopped = False
        self._counting: list[Connection] = []  # the connections of statements under way

    def count_all(self, counted: Counted | None = None) -> list[tuple[SavedSearch, int]] | None:
        """Count every saved search in full (and learn which papers each finds); None
        once stopped. `counted` (called in this thread) hears the searches and the
        counts known so far (None: not yet), before each search is counted: a million
        papers take seconds a search, and the searches are shown meanwhile."""
        with self._lock:
            if self._stopped:
                return None
            self._meanwhile = set()
        try:
            searches = saved_searches(self._ctx)
            found: dict[int, _Found] = {}
            for search in searches:
                if counted is not None:
                    counted([(s, found[s.id].count if s.id in found else None)
                             for s in searches])
                ids = self._matching(search.query)
                if ids is None:
                    return None
                found[search.id] = _Found(search.query, _bits(ids), len(ids))
        except BaseException:
            with self._lock:
                self._meanwhile = None
            raise
        with self._lock:
            self._found, meanwhile, self._meanwhile = found, self._meanwhile, None
        if meanwhile:
            self._follow(searches, sorted(meanwhile))
        return [(s, found[s.id].count) for s in searches]

    def stop(self) -> None:
        """Count no more: a count under way ends (`count_all` returns None) as soon as
        its statement is interrupted; later ones do not start. From any thread."""
        with self._lock:
            self._stopped = True
            running = list(self._counting)
        for conn in running:
            self._ctx.store.interrupt(conn)

    def _matching(self, text: str) -> list[int] | None:
        """The ids of every paper a query finds, in no particular order; None if
        stopped meanwhile."""
        with self._ctx.engine.connect() as conn:
            with self._lock:
                if self._stopped:
                    return None
                self._counting.append(conn)
            try:
                ids = self._ctx.store.ids(conn, select(Paper.id).where(
                    *views.where_of(self._ctx, View(search=text), conn)))
                return None if self._stopped else ids  # (stopped as it began: too late)
            except Exception:  # (the driver's own error, on its own cursor)
                if self._stopped:  # (the interrupted statement's error)
                    return None
                raise
            finally:
                with self._lock:
                    self._counting.remove(conn)

    def follow(self, ids: Sequence[int]) -> list[tuple[SavedSearch, int]] | None:
        """The counts after a change to these papers, by reading them alone; None if
        that cannot tell (a saved search added or edited since, too many papers): then
        `count_all`."""
        searches = saved_searches(self._ctx)
        with self._lock:
            if len(ids) > MOST_FOLLOWED or any(
                    s.id not in self._found or self._found[s.id].query != s.query
                    for s in searches):
                return None
            if self._meanwhile is not None:
                self._meanwhile.update(ids)
        self._follow(searches, ids)
        with self._lock:
            return [(s, self._found[s.id].count) for s in searches if s.id in self._found]

    def _follow(self, searches: Sequence[SavedSearch], ids: Sequence[int]) -> None:
        now = datetime.now(timezone.utc)
        papers = searchables(self._ctx, ids)
        trees = {s.id: query.parse(s.query, now=now) for s in searches}
        with self._lock:
            for search in searches:
                found = self._found.get(search.id)
                if found is None or found.query != search.query:
                    continue
                for paper_id in ids:
                    paper = papers.get(paper_id)
                    finds = paper is not None and query.evaluate(trees[search.id], paper)
                    if finds != found.has(paper_id):
                        found.count += 1 if finds else -1
                        found.put(paper_id, finds)

