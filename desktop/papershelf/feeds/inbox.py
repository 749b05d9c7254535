"""The inbox: what the followed sources brought that is not in the library, and triage.

`check` asks each of the member's sources (feeds.fetching) and keeps the papers that are
new to them: not in the library (same DOI, arXiv id, BibTeX `eprint` or normalised
title: feeds.known), not in their inbox already, never dismissed. A source that fails
gets one note and the others go on.
`items` lists the inbox best first (feeds.ranking); `add`, `star` and `dismiss` triage a
selection, each one undoable Change (adding imports the papers as an import does;
starring also stars them; dismissing remembers each identity of the item, so it never
comes back). Items older than `KEEP_DAYS` go at the next check unless kept.

Thousands of items at a time: a check reads the marks of the inbox and of what was
dismissed once (a set), reads each answer as it comes (sources slow to answer are
waited for in threads meanwhile), asks the library about each source's papers in a few
IN (...) queries and stores them in one statement; each item is ranked once by a model
(kept by feeds.learning while the library's likes are the same), by the check itself
(which learns the model while the first answers are waited for), and its rank is kept
with it with the model's stamp, so listing the inbox after a check, or after a restart,
reads little and ranks nothing (`make bench`, figure 20). A long feed's answer is read in
parts, most in a helper process (feeds.parsing), each part ranked here as it comes; no
full collection runs during the check (core.gcpause: the young ones go on), rather than
walking the window's inbox and the model a few times an answer.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from operator import itemgetter
from typing import Any, NamedTuple

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from papershelf.core import edits
from papershelf.core.context import Context
from papershelf.core.edits import Change
from papershelf.core.gcpause import young_collections_only
from papershelf.core.library import Library
from papershelf.core.models import FeedSource, InboxDismissed, InboxItem, utcnow
from papershelf.errors import UserError
from papershelf.feeds import fetching, parsing, ranking, sources
from papershelf.feeds.fetching import Found
from papershelf.feeds.known import eprints_of, in_library
from papershelf.feeds.learning import check_tag, current, kept, model_of, stamp, version
from papershelf.feeds.sources import INBOX, Source
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.messages import counted, text
from papershelf.metadata.errors import ServiceError
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.services._common import people, with_raw

__all__ = ["KEEP_DAYS", "Checked", "Item", "add", "check", "dismiss", "items", "keep",
           "rank_new", "star"]

log = logging.getLogger(__name__)

KEEP_DAYS = 30  # an item untouched this long leaves the inbox (unless kept)
FORMAT = "feed"  # the import batch's format for papers added from the inbox
_CHUNK = 400  # values in one IN (...)
ASKING = 4  # sources asked at a time, at most (when they are slow to answer)
SLOW = 0.5  # seconds without an answer after which another source is asked meanwhile
_ITEM_COLUMNS = ("user_name", "source_id", "identity", "title", "title_norm", "authors",
                 "abstract", "url", "doi", "arxiv_id", "venue", "published", "state", "kept",
                 "paper_id", "found_at")


@dataclass(frozen=True)
class Checked:
    """How checking one source went: the new items it gave, and its note."""

    source: str
    new: int
    failed: bool
    note: str
    not_modified: bool = False


class Item(NamedTuple):
    """An inbox item as listed, with its rank; read-only. A tuple of strings, numbers,
    times and a tuple of strings, none of which the garbage collector tracks: a window
    keeps 100,000 items, and a full collection that walked each field of each (an
    object of its own each) paused the window 150 ms at 85,000."""

    id: int
    title: str
    authors: tuple[str, ...]
    abstract: str
    url: str
    doi: str
    arxiv_id: str
    venue: str
    source: str
    published: datetime | None
    found_at: datetime
    kept: bool
    score: float = 0.0
    reason: str = ""  # (as the library keeps it: `why` says it)

    @property
    def why(self) -> str:
        """Why it ranks where it does, in words (a message the window translates)."""
        return ranking.why(self.reason)


# ---------------------------------------------------------------------- checking


def check(library: Library, client: ServiceClient, *, now: datetime | None = None,
          days: int = KEEP_DAYS, only: Collection[str] | None = None,
          progress: Callable[[int, int], None] | None = None,
          stop: Callable[[], bool] | None = None) -> list[Checked]:
    """Ask each of the member's sources (those spelt as in `only`, if given) for what is
    new and put the papers new to them in the inbox, letting go of items older than
    `days` (unless kept: first, so that none is left to do once the last answer is in;
    their papers are still not new to this check). Offline, nothing is asked (an empty
    list). `progress` hears (sources done, sources) after each; once `stop` says so, no
    further source is asked.

    Each answer is read (parsed, deduplicated, ranked when the model is at hand, stored)
    in this thread as soon as it comes, while the sources that are slow to answer are
    waited for in threads of their own (`_answers`), so that once the last answer is in
    only its own reading is left; a long feed's is shared with a helper process
    (feeds.parsing), the parts read first ranked here while it reads the others."""
    ctx = library.context
    now = now or datetime.now(timezone.utc)
    if client.offline:
        return []
    asked = [source for source in sources.sources(ctx)
             if only is None or source.spelling in only]
    done: dict[int, Checked] = {}
    seen = _seen(ctx)
    with ctx.read() as session:  # (read once: from every paper's BibTeX fields)
        eprints = eprints_of(session)
    clean_up(ctx, now - timedelta(days=days))
    # (no full collection meanwhile: reading thousands of papers an answer makes
    # objects by the million, and each full collection, which would come once or twice
    # an answer, walks every object the process keeps: core.gcpause)
    with young_collections_only(), \
            ThreadPoolExecutor(ASKING, thread_name_prefix="feeds") as pool, \
            parsing.Helper() as helper:
        # (the model learnt while the first answers are waited for, if it is not at
        # hand: each source's items are then ranked as they come, not all at the end)
        learning = pool.submit(current, library) if asked and kept(library) is None \
            else None
        for source, answer in _answers(pool, client, asked, now, stop):
            if learning is not None:
                learning.result()
                learning = None
            done[source.id] = _check_one(library, source, answer, now, seen, helper,
                                         eprints)
            if progress is not None:
                progress(len(done), len(asked))
    return [done[source.id] for source in asked if source.id in done]


def _answers(pool: ThreadPoolExecutor, client: ServiceClient, asked: Sequence[Source],
             now: datetime, stop: Callable[[], bool] | None
             ) -> Iterator[tuple[Source, Future[fetching.Reader]]]:
    """Each source with its answer (what reads it, or the error), as they come. The
    next source is asked once every answer in is read, or once those asked are slow to
    answer (none in `SLOW` seconds: up to `ASKING` at a time): answers are not left
    waiting while others are read (the last one's reading is all that is left after
    it), nor is the check as slow as the slowest source in turn."""
    waiting = list(reversed(asked))
    flying: dict[Future[fetching.Reader], Source] = {}

    def ask_next() -> None:
        if waiting and not (stop is not None and stop()):
            source = waiting.pop()
            flying[pool.submit(_ask, client, source, now)] = source

    while waiting or flying:
        if not flying:
            ask_next()
            if not flying:
                return
        came, _ = wait(flying, timeout=SLOW, return_when=FIRST_COMPLETED)
        if not came:
            if len(flying) < ASKING:
                ask_next()
            continue
        for future in [f for f in flying if f in came]:  # (in the order asked)
            yield flying.pop(future), future


def _ask(client: ServiceClient, source: Source, now: datetime) -> fetching.Reader:
    """Ask `source` for what is new since its last check (in a thread of the pool)."""
    spec = source.spec
    since = (source.checked_at - timedelta(days=1) if source.checked_at
             else now - timedelta(days=fetching.FIRST_DAYS))
    return fetching.ask(client, spec.kind, spec.value, category=spec.category,
                        search=spec.search, etag=source.etag,
                        last_modified=source.last_modified, since=since)


def _check_one(library: Library, source: Source, answer: Future[fetching.Reader],
               now: datetime, seen: set[str], helper: parsing.Helper | None = None,
               eprints: Collection[str] | None = None) -> Checked:
    """Read a source's answer and keep what it brought (or its error as its note); with
    the model at hand, the papers of each part of a long answer are ranked as soon as
    that part is read (`helper.early`), while the helper process reads the others."""
    ctx = library.context
    at_hand = kept(library)
    early: dict[int, tuple[float, str]] = {}
    if helper is not None:
        helper.early = None
        if at_hand is not None:
            model = at_hand[0]
            helper.early = lambda found: early.update(_ranked_early(ctx, model, found, seen,
                                                                    eprints))
    try:
        fetched = answer.result()(helper)
    except ServiceError as error:
        # (a feed's note is on the feed: "download: ..." would say nothing more)
        note = error.problem if source.spec.kind == "feed" else error.message
        sources.record_check(ctx, source.id, {"state": "failed", "note": note,
                                              "checked_at": now})
        return Checked(source.spelling, 0, True, note)
    except (ValueError, TypeError, KeyError, AttributeError,
            OverflowError) as error:  # (a bug's, not theirs)
        log.exception("reading %s", source.spelling)
        note = text("unreadable answer ({error})", error=type(error).__name__)
        sources.record_check(ctx, source.id, {"state": "failed", "note": note,
                                              "checked_at": now})
        return Checked(source.spelling, 0, True, note)
    new = 0 if fetched.not_modified else _store(
        ctx, source.id, fetched.items, now, seen, ranked=at_hand, spelling=source.spelling,
        early=early, eprints=eprints)
    values: dict[str, Any] = {
        "state": "ok", "note": fetched.note, "checked_at": now,
        "etag": fetched.etag or (source.etag if fetched.not_modified else ""),
        "last_modified": fetched.last_modified
        or (source.last_modified if fetched.not_modified else "")}
    sources.record_check(ctx, source.id, values)
    if fetched.title and source.spec.kind == "feed" and source.state != "ok":
        sources.name_unnamed(ctx, source.id, fetched.title)  # (its own, until renamed)
    return Checked(source.spelling, new, False, fetched.note, fetched.not_modified)


def _store(ctx: Context, source_id: int, found: Sequence[Found], now: datetime,
           seen: set[str] | None = None, *, ranked: tuple[ranking.Model, str] | None = None,
           spelling: str = "", early: Mapping[int, tuple[float, str]] | None = None,
           eprints: Collection[str] | None = None) -> int:
    """Put the papers new to the member in their inbox; how many. `seen`: every mark
    of their inbox and of what they dismissed, read once for a whole check (`_seen`)
    and kept up to date here (else asked of the database for these papers). `ranked`:
    the member's model and its stamp (feeds.learning.kept), when at hand: the new items
    are ranked before they are stored, their ranks with them, and kept as listed (the
    source spelt `spelling`), so listing the inbox after the check ranks nothing; those
    of `early` (by the `id` of the found paper) already were, by that model. `eprints`:
    the library's (feeds.known.eprints_of), read once for the check."""
    marked = [(item, fetching.identities(item)) for item in found]
    marked = [(item, marks) for item, marks in marked if marks]
    if seen is not None:
        marked = [(item, marks) for item, marks in marked if seen.isdisjoint(marks)]
    every = {mark for _item, marks in marked for mark in marks}
    ranks: dict[int, tuple[float, str]] = {}
    if ranked is not None and marked:  # (before the write: the library is not held;
        with ctx.read() as session:  # those it has are not ranked, nor stored)
            held = in_library(session, every, eprints)
        if held:
            marked = [(item, marks) for item, marks in marked if held.isdisjoint(marks)]
        early = early or {}
        ranks = {id(item): early[id(item)] for item, _marks in marked if id(item) in early}
        rest = [item for item, _marks in marked if id(item) not in ranks]
        ranks.update(zip(map(id, rest), _rank(ranked[0], [
            (item.title, item.abstract, item.authors) for item in rest])))
    by = ranked[1] if ranked is not None and ranks else ""
    with ctx.write() as session:
        known = in_library(session, every, eprints)
        if seen is None:
            known |= _in_inbox(ctx, session, every) | _dismissed(ctx, session, every)
        rows: list[dict[str, Any]] = []
        for item, marks in marked:
            if not known.isdisjoint(marks):
                continue
            known.update(marks)
            title_norm = marks[-1][6:] if marks[-1].startswith("title:") else ""
            score, reason = ranks.get(id(item), (None, ""))
            rows.append({
                "user_name": ctx.user_name, "source_id": source_id, "identity": marks[0],
                "title": item.title, "title_norm": title_norm,
                "authors": "; ".join(item.authors), "abstract": item.abstract,
                "url": item.url, "doi": item.doi, "arxiv_id": item.arxiv_id,
                "venue": item.venue, "published": item.published, "state": "new",
                "kept": False, "found_at": now, "score": score, "reason": reason,
                "ranked_by": by})
        ids: list[int] = []
        if rows:  # (one statement for them all: thousands of items at a time)
            ids = list(session.scalars(insert(InboxItem).returning(
                InboxItem.id, sort_by_parameter_order=True), rows))
            ctx.log(session, {INBOX}, [])
    if seen is not None:
        seen |= known
    if by:
        _keep_listed(ctx, by, [_item_of(id_, row, spelling)
                                      for id_, row in zip(ids, rows)])
    return len(rows)


def _ranked_early(ctx: Context, model: ranking.Model, found: Sequence[Found],
                  seen: set[str], eprints: Collection[str] | None
                  ) -> dict[int, tuple[float, str]]:
    """The ranks of those of `found` new to the member (not `seen`, not in the library),
    by the `id` of each."""
    fresh = [(item, marks) for item in found
             if (marks := fetching.identities(item)) and seen.isdisjoint(marks)]
    with ctx.read() as session:
        held = in_library(session, {mark for _item, marks in fresh for mark in marks},
                          eprints)
    fresh = [(item, marks) for item, marks in fresh if held.isdisjoint(marks)]
    return dict(zip((id(item) for item, _marks in fresh), _rank(model, [
        (item.title, item.abstract, item.authors) for item, _marks in fresh])))


def _seen(ctx: Context) -> set[str]:
    """Every mark of the member's inbox (whatever its items' states) and of what they
    dismissed: two queries, read once for a check of all their sources."""
    with ctx.read() as session:
        seen = {f"{kind}:{value}" for row in session.execute(
            select(InboxItem.doi, InboxItem.arxiv_id, InboxItem.title_norm).where(
                InboxItem.user_name == ctx.user_name))
            for kind, value in zip(("doi", "arxiv", "title"), row) if value}
        seen.update(session.scalars(select(InboxDismissed.identity).where(
            InboxDismissed.user_name == ctx.user_name)))
    return seen


def _chunks(values: Iterable[str]) -> Iterable[list[str]]:
    values = sorted(values)
    for start in range(0, len(values), _CHUNK):
        yield values[start:start + _CHUNK]


def _split(marks: Iterable[str]) -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {"doi": set(), "arxiv": set(), "title": set()}
    for mark in marks:
        kind, _, value = mark.partition(":")
        kinds[kind].add(value)
    return kinds


def _in_inbox(ctx: Context, session: Session, marks: set[str]) -> set[str]:
    """Those of `marks` an item of the member's inbox has (whatever its state)."""
    kinds = _split(marks)
    found: set[str] = set()
    for kind, column in (("doi", InboxItem.doi), ("arxiv", InboxItem.arxiv_id),
                         ("title", InboxItem.title_norm)):
        for part in _chunks(kinds[kind]):
            found |= {f"{kind}:{value}" for value in session.scalars(select(column).where(
                InboxItem.user_name == ctx.user_name, column.in_(part)))}
    return found


def _dismissed(ctx: Context, session: Session, marks: set[str]) -> set[str]:
    found: set[str] = set()
    for part in _chunks(marks):
        found |= set(session.scalars(select(InboxDismissed.identity).where(
            InboxDismissed.user_name == ctx.user_name, InboxDismissed.identity.in_(part))))
    return found


def clean_up(ctx: Context, before: datetime) -> int:
    """Let go of the member's items found before `before`, but those kept; how many."""
    with ctx.write() as session:
        gone = int(session.connection().execute(delete(InboxItem).where(
            InboxItem.user_name == ctx.user_name, InboxItem.found_at < before,
            InboxItem.kept.is_(False))).rowcount)
        if gone:
            ctx.log(session, {INBOX}, [])
    return gone


# ---------------------------------------------------------------------- listing


def items(library: Library, model: ranking.Model | None = None, tag: str = "") -> list[Item]:
    """The member's inbox (items not triaged yet), best first by `model` (default: the
    one learnt from their library, kept while it is the same: feeds.learning; with
    `tag`, from that tag's papers alone). An item is read and ranked once by a model
    (its text never changes): a listing after a check reads the inbox's ids, whether
    each is kept and its source, and ranks only the items the check brought (none if
    `check` ranked them, as it does when the model is at hand). The default model's
    ranks are kept with the items, with its version (feeds.learning.stamp): a listing
    after a restart reads them back and ranks only the items it did not rank, learning
    the model only then."""
    ctx = library.context
    if tag:
        check_tag(library, tag)  # (also when the inbox is empty: a wrong tag is said)
    with ctx.read() as session:  # (Core rows, not the ORM's: 100,000 of them at times)
        own = select(FeedSource.id, FeedSource.spelling).where(
            FeedSource.user_name == ctx.user_name)
        spellings: dict[int | None, str] = {
            source_id: spelling for source_id, spelling in session.connection().execute(own)}
        # (from the index ix_inbox_items_listing alone, not the items' pages)
        now = [(i, kept_, spellings.get(source_id, "")) for i, kept_, source_id in
               session.connection().execute(
                   select(InboxItem.id, InboxItem.kept, InboxItem.source_id)
                   .where(InboxItem.user_name == ctx.user_name, InboxItem.state == "new")
                   .order_by(InboxItem.id))]
    if not now:
        return []
    key: ranking.Model | str
    if model is None and not tag:
        key = stamp(version(library))
        listed = _listed(ctx, key)
    else:
        key = model = model or model_of(library, tag)
        with _RANKS_LOCK:
            listed = _LISTED.setdefault(model, {})
    with _RANKS_LOCK:
        missing = [i for i, kept_, spelling in now
                   if (known := listed.get(i)) is None or known.kept != kept_
                   or known.source != spelling]
    if missing:
        _list(library, key, missing)
    with _RANKS_LOCK:
        found = [listed[i] for i, _kept, _spelling in now if i in listed]  # (gone since)
        if len(listed) > 2 * len(found) + 1000:  # (items gone from the inbox: let go)
            kept_now = {item.id: item for item in found}
            listed.clear()
            listed.update(kept_now)
    found.sort(key=_SCORE, reverse=True)  # (best first; of equals, the first found: a
    return found  # stable sort of the list in id order)


_SCORE = itemgetter(Item._fields.index("score"))


def _list(library: Library, key: ranking.Model | str, ids: Sequence[int]) -> None:
    """Read the items `ids` and keep them as listed (ranked) by `key`: a model, or the
    stamp of the member's own (their ranks read back when of that stamp, else ranked
    now and kept with them)."""
    ctx = library.context
    with ctx.read() as session:
        rows: list[Any] = []
        for part in range(0, len(ids), _CHUNK):
            rows += session.connection().execute(
                select(*_LISTED_COLUMNS, FeedSource.spelling)
                .outerjoin(FeedSource, FeedSource.id == InboxItem.source_id)
                .where(InboxItem.id.in_(ids[part:part + _CHUNK]))).all()
    if isinstance(key, ranking.Model):
        ranks = _ranked(key, rows)
    else:
        ranks = {row.id: (row.score, row.reason) for row in rows
                 if row.ranked_by == key and row.score is not None}
        unranked = [row for row in rows if row.id not in ranks]
        if unranked:
            model, by = current(library)
            ranks.update(zip((row.id for row in unranked), _rank(model, [
                (row.title, row.abstract, row.authors.split("; ")) for row in unranked])))
            with ctx.write() as session:  # (no change anyone sees: not logged)
                session.execute(update(InboxItem), [
                    {"id": row.id, "score": ranks[row.id][0], "reason": ranks[row.id][1],
                     "ranked_by": by} for row in unranked])
    made = [Item(row.id, row.title, tuple(a for a in row.authors.split("; ") if a),
                 row.abstract, row.url, row.doi, row.arxiv_id, row.venue, row.spelling or "",
                 _utc(row.published), _utc(row.found_at) or row.found_at, row.kept,
                 *ranks[row.id]) for row in rows]
    if isinstance(key, ranking.Model):
        with _RANKS_LOCK:
            _LISTED.setdefault(key, {}).update((item.id, item) for item in made)
    else:
        _keep_listed(ctx, key, made)


_LISTED_COLUMNS = (InboxItem.id, InboxItem.title, InboxItem.authors, InboxItem.abstract,
                   InboxItem.url, InboxItem.doi, InboxItem.arxiv_id, InboxItem.venue,
                   InboxItem.published, InboxItem.found_at, InboxItem.kept, InboxItem.score,
                   InboxItem.reason, InboxItem.ranked_by)
# Each model's ranks of the items it ranked (an item's text never changes), and the items
# as it listed them: a model learnt again (the library changed) ranks them all again.
# The member's own model's are kept in the library too (by its stamp): `_STAMPED` holds
# the items as listed by the current stamp, for each library.
_RANKS: weakref.WeakKeyDictionary[ranking.Model, dict[int, tuple[float, str]]] = \
    weakref.WeakKeyDictionary()
_LISTED: weakref.WeakKeyDictionary[ranking.Model, dict[int, Item]] = \
    weakref.WeakKeyDictionary()
_STAMPED: weakref.WeakKeyDictionary[Context, tuple[str, dict[int, Item]]] = \
    weakref.WeakKeyDictionary()
_RANKS_LOCK = threading.Lock()


def _listed(ctx: Context, mark: str) -> dict[int, Item]:
    """The member's items as listed by their model of stamp `mark` (those of another
    stamp let go)."""
    with _RANKS_LOCK:
        found = _STAMPED.get(ctx)
        if found is None or found[0] != mark:
            found = _STAMPED[ctx] = (mark, {})
        return found[1]


def _keep_listed(ctx: Context, mark: str, made: Iterable[Item]) -> None:
    listed = _listed(ctx, mark)
    with _RANKS_LOCK:
        listed.update((item.id, item) for item in made)


def _item_of(id_: int, row: Mapping[str, Any], spelling: str) -> Item:
    """An item as listed, from the row stored for it (by `_store`)."""
    return Item(id_, row["title"], tuple(a for a in row["authors"].split("; ") if a),
                row["abstract"], row["url"], row["doi"], row["arxiv_id"], row["venue"],
                spelling, row["published"], row["found_at"], row["kept"], row["score"],
                row["reason"])


def _rank(model: ranking.Model, found: Sequence[tuple[str, str, Sequence[str]]]
          ) -> list[tuple[float, str]]:
    """The (score, reason) of each (title, abstract, author names) by `model`."""
    ranks = model.rank([(title, abstract, tuple(
        ranking.author_key(a.family, a.given) for a in people(a for a in names if a)))
        for title, abstract, names in found])
    return [(round(score, 4), reason) for score, reason in ranks]


def _ranked(model: ranking.Model, rows: Sequence[Any]) -> dict[int, tuple[float, str]]:
    """The (score, reason) of each of `rows` (id, title, authors, abstract) by `model`:
    those it ranked before as they were, the others ranked now."""
    with _RANKS_LOCK:
        known = _RANKS.setdefault(model, {})
        missing = [row for row in rows if row.id not in known]
    if missing:
        ranks = _rank(model, [(row.title, row.abstract, row.authors.split("; "))
                              for row in missing])
        with _RANKS_LOCK:
            known.update(zip((row.id for row in missing), ranks))
    with _RANKS_LOCK:
        return {row.id: known[row.id] for row in rows}


def rank_new(library: Library) -> int:
    """Rank the inbox's items the member's model has not ranked yet, when that model is
    at hand (kept and still current: feeds.learning.kept), keeping their ranks with
    them, so that listing the inbox later has little left to do; how many were ranked
    (0 without a model)."""
    at_hand = kept(library)
    if at_hand is None:
        return 0
    ctx = library.context
    listed = _listed(ctx, at_hand[1])
    with ctx.read() as session:
        ids = [i for i, by in session.execute(select(InboxItem.id, InboxItem.ranked_by).where(
            InboxItem.user_name == ctx.user_name, InboxItem.state == "new"))
            if by != at_hand[1] or i not in listed]
    if ids:
        _list(library, at_hand[1], ids)
    return len(ids)


def _utc(moment: datetime | None) -> datetime | None:
    """A time read back, in UTC (SQLite gives it back without its zone)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)


# ---------------------------------------------------------------------- triage


def add(library: Library, ids: Sequence[int]) -> Change:
    """Add the items as unread papers (an import: one already there is completed)."""
    return _take(library, ids, starred=False)


def star(library: Library, ids: Sequence[int]) -> Change:
    """Add the items as papers, starred."""
    return _take(library, ids, starred=True)


def dismiss(library: Library, ids: Sequence[int]) -> Change:
    """Take the items out of the inbox for good: each identity they have is remembered,
    so they never come back. Undo brings them back (and forgets them)."""
    ctx = library.context
    rows = _rows(ctx, ids)
    forgotten: dict[str, str | None] = {}
    for row in rows:
        for mark in fetching.identities(_found(row)):
            forgotten[mark] = row.title
    return _apply(ctx, counted("Dismiss %n papers", len(rows)),
                  {row.id: {"state": "dismissed"} for row in rows}, forgotten)


def keep(library: Library, ids: Sequence[int], kept: bool = True) -> Change:
    """Keep the items past the inbox's clean-up (or no longer)."""
    rows = _rows(library.context, ids, state=None)
    return _apply(library.context, counted("Keep %n papers" if kept else "Unkeep %n papers",
                                           len(rows)),
                  {row.id: {"kept": kept} for row in rows}, {})


def _take(library: Library, ids: Sequence[int], starred: bool) -> Change:
    ctx = library.context
    rows = _rows(ctx, ids)
    records = [_record(row) for row in rows]
    report = library.import_result(ReadResult(records=records), "inbox", FORMAT)
    changes = [library.import_change(report)]
    papers = {row.id: library.paper_for(record)[0] for row, record in zip(rows, records)}
    found = [pid for pid in papers.values() if pid is not None]
    if starred and found:
        changes.append(library.set_starred(found, True))
    state = "starred" if starred else "added"
    changes.append(_apply(ctx, "", {row.id: {"state": state, "paper_id": papers[row.id]}
                                    for row in rows}, {}))
    verb = "Star" if starred else "Add"
    return edits.combined(counted(f"{verb} %n papers from the inbox", len(rows)), changes)


def _rows(ctx: Context, ids: Sequence[int], state: str | None = "new") -> list[InboxItem]:
    """The member's items `ids` (in that order), those still in the inbox; UserError
    naming any that is not."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        raise UserError(text("name the inbox items (their ids)"))
    with ctx.read() as session:
        statement = select(InboxItem).where(InboxItem.user_name == ctx.user_name,
                                            InboxItem.id.in_(wanted))
        if state is not None:
            statement = statement.where(InboxItem.state == state)
        found = {row.id: row for row in session.scalars(statement)}
        session.expunge_all()
    missing = [str(i) for i in wanted if i not in found]
    if missing:
        raise UserError(text("no item {ids} in your inbox", ids=", ".join(missing)))
    return [found[i] for i in wanted]


def _found(row: InboxItem) -> Found:
    return Found(row.title, [a for a in row.authors.split("; ") if a], row.abstract,
                 row.url, row.doi, row.arxiv_id, row.venue, row.published)


def _record(row: InboxItem) -> PaperRecord:
    """An item as the paper it becomes."""
    arxiv = row.arxiv_id
    record = PaperRecord(
        entry_type="article" if row.venue and not arxiv else "misc",
        title=row.title,
        authors=people(a for a in row.authors.split("; ") if a),
        abstract=row.abstract,
        venue=row.venue or ("arXiv" if arxiv else ""),
        year=row.published.year if row.published else None,
        doi=row.doi,
        url=row.url or (f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
    )
    return with_raw(record, {"eprint": arxiv, "archiveprefix": "arXiv"} if arxiv else None)


def _apply(ctx: Context, description: str, states: Mapping[int, Mapping[str, Any]],
           dismissed: Mapping[str, str | None]) -> Change:
    """Set the member's items' columns to `states`, and remember (a title) or forget
    (None) the `dismissed` identities, in one transaction; undo puts back both."""
    with ctx.write() as session:
        before: dict[int, dict[str, Any]] = {}
        for row in session.scalars(select(InboxItem).where(
                InboxItem.user_name == ctx.user_name, InboxItem.id.in_(list(states)))):
            before[row.id] = {c: getattr(row, c) for c in states[row.id]}
        for item_id, values in states.items():
            session.execute(update(InboxItem).where(
                InboxItem.id == item_id, InboxItem.user_name == ctx.user_name).values(**values))
        was = {identity: title for identity, title in session.execute(
            select(InboxDismissed.identity, InboxDismissed.title).where(
                InboxDismissed.user_name == ctx.user_name,
                InboxDismissed.identity.in_(list(dismissed))))} if dismissed else {}
        for identity, title in dismissed.items():
            session.execute(delete(InboxDismissed).where(
                InboxDismissed.user_name == ctx.user_name, InboxDismissed.identity == identity))
            if title is not None:
                session.execute(insert(InboxDismissed).values(
                    user_name=ctx.user_name, identity=identity, title=title,
                    dismissed_at=utcnow()))
        ctx.log(session, {INBOX}, [])
    back = {identity: was.get(identity) for identity in dismissed}
    return Change(description, frozenset(), touched=frozenset({INBOX}),
                  undo=lambda: _apply(ctx, description, before, back))
