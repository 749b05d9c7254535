"""Reading a library: which papers a view shows, their rows, details and records, counts.

Queries hand out plain dataclasses, never ORM objects, so callers on any thread can
hold them without a session. Sorting, filtering and search happen in the database;
the store does the database's own part (search, and reading many papers at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Text,
    cast,
    func,
    literal_column,
    select,
    union,
    union_all,
)
from sqlalchemy.orm import Session

from papershelf.core import bestmatch, db, fields, files, querysql, retractions
from papershelf.core.context import Context
from papershelf.core.files import Attachment
from papershelf.core.models import (
    ImportBatch,
    Paper,
    PaperFile,
    PaperTag,
    PaperText,
    Personal,
    ReadState,
    Tag,
)
from papershelf.core.query import Node, parse
from papershelf.core.search import SearchIndex
from papershelf.core.shapes import FILTERS, READ_STATES, SORT_COLUMNS, Counts, PaperRow, View
from papershelf.core.store import chunks
from papershelf.core.store.generic import column_of, mine
from papershelf.errors import UserError
from papershelf.formats.records import Author, PaperRecord

__all__ = ["FILTERS", "READ_STATES", "SORT_COLUMNS", "Counts", "PaperDetail", "PaperRow", "View"]

# What details() reads besides the record: the user's state of a paper.
_DETAIL_STATE = ("starred", "read_state", "read_at", "private_notes", "added_at",
                 "modified_at", "version")
# Sorting by these joins the user's own rows.
_PERSONAL_SORTS = frozenset({"starred", "read_state", "progress", "last_read"})
RECENT = "recent"  # the filter of the papers the user has read in, newest first


@dataclass
class PaperDetail:
    """Everything about one paper: its bibliographic record and the user's data."""

    id: int
    record: PaperRecord
    starred: bool
    read_state: str
    read_at: datetime | None
    added_at: datetime
    modified_at: datetime
    private_notes: str = ""  # the user's own notes (record.notes: the shared ones)
    # Grows with every edit of the paper, never back (see edits.set_notes).
    version: int = field(default=1, compare=False)
    # The files attached to it, in the order they were attached (core.files).
    files: tuple[Attachment, ...] = field(default=(), compare=False)
    # Its retraction, correction and other notices, the most serious first
    # (core.retractions).
    notices: tuple[retractions.PaperNotice, ...] = field(default=(), compare=False)

    @property
    def local_pdf(self) -> Path | None:
        """The first of its attached PDFs that is on this computer, or None."""
        return files.first_present(self.files)

    @property
    def key(self) -> str:
        """The citation key (always set for a stored paper)."""
        return self.record.key or ""


# -- which papers --------------------------------------------------------------------


def _mine(ctx: Context, *where: Any) -> Any:
    """The ids of the papers whose personal row of the user matches `where`."""
    return select(Personal.paper_id).where(Personal.user_name == ctx.user_name, *where)


def _starred(ctx: Context) -> Any:
    return Paper.id.in_(_mine(ctx, Personal.starred.is_(True)))


def _searched(ctx: Context, view: View) -> tuple[str, Node | None]:
    """A view's search: the part the store's index walks, as a query string for it, and
    the rest of its query (fields, flags, ranges...) as a tree, or None."""
    if not view.search.strip():
        return "", None
    # (Read once for the several statements of a view; relative dates a minute stale.)
    return _split(view.search, view.typing, ctx.store.search, int(time.time()) // 60)


@lru_cache(maxsize=64)
def _split(search: str, typing: bool, index: SearchIndex, _minute: int
           ) -> tuple[str, Node | None]:
    return querysql.split(parse(search, typing=typing), index)


def _where(ctx: Context, view: View, *, with_search: bool = True,
           others: bool = True) -> list[Any]:
    """The view's conditions on papers; without the search's plain words if not
    `with_search` (for a walk of the index, which matches those); `others` False: no
    paper's notes, tags or files hold them (`_others`)."""
    clauses: list[Any] = []
    if view.filter not in FILTERS:
        raise UserError(f"unknown filter {view.filter!r}; use one of {', '.join(FILTERS)}")
    if view.starred_only:
        clauses.append(_starred(ctx))
    if view.filter == ReadState.UNREAD.value:  # (no row of the user: unread)
        clauses.append(querysql.not_mine(ctx.user_name, Personal.read_state != view.filter))
    elif view.filter in READ_STATES:
        clauses.append(Paper.id.in_(_mine(ctx, Personal.read_state == view.filter)))
    elif view.filter == RECENT:
        clauses.append(Paper.id.in_(_mine(ctx, Personal.last_read_at.is_not(None))))
    if view.tag:
        clauses.append(querysql.tagged(ctx, view.tag))
    plain, rest = _searched(ctx, view)
    if with_search and plain:
        clauses.append(ctx.store.search.matches(plain, others))
    if rest is not None:
        clauses.append(querysql.where(ctx, rest))
    return clauses


def where_of(ctx: Context, view: View, conn: Connection) -> list[Any]:
    """The conditions on papers of a view (its filter, tag and search), for a statement
    of one's own on `conn` (core.tally)."""
    return _where(ctx, view, others=_others(ctx, conn, view))


def _others(ctx: Context, conn: Connection, view: View) -> bool:
    """Whether some paper's notes, tags or files' text may hold the words of a view's
    search (asked of their indexes: a statement without them plans better)."""
    plain, _rest = _searched(ctx, view)
    return bool(plain) and ctx.store.search.others_present(conn, plain)


def _sort(view: View) -> str:
    """The column a view is sorted by: "Recently read" in its default order (by the
    date added) is the newest read first."""
    return "last_read" if view.filter == RECENT and view.sort == "added" else view.sort


def _order(view: View) -> list[Any]:
    # Ids grow in the order papers are added (a restored paper keeps its id and its
    # date), so "added" is the primary key's order: no sort step at all.
    if view.filter == RECENT and view.sort == "added":
        view = replace(view, sort="last_read", descending=not view.descending)
    if view.sort == "last_read":  # (never read: last in either order, on any database)
        read_at = Personal.last_read_at
        return ([read_at.desc().nulls_last(), Paper.id.desc()] if view.descending
                else [read_at.asc().nulls_first(), Paper.id.asc()])
    column: Any = {
        "title": func.lower(Paper.title),
        "authors": Paper.authors_sort,
        "venue": Paper.venue,
        "year": Paper.year,
        "added": None,
        "starred": column_of("starred"),
        "read_state": column_of("read_state"),
        "key": Paper.key,
        # how far through the PDF (never opened: -1, before every paper opened)
        "progress": func.coalesce(
            (Personal.last_page + func.coalesce(Personal.last_position, 0.0))
            / func.nullif(Personal.page_count, 0), -1.0),
    }.get(view.sort, False)
    if column is False:
        raise UserError(f"cannot sort by {view.sort!r}; use one of {', '.join(SORT_COLUMNS)}")
    if column is None:
        return [Paper.id.desc() if view.descending else Paper.id.asc()]
    if view.descending:
        return [column.desc(), Paper.id.desc()]
    return [column.asc(), Paper.id.asc()]


def _walks(ctx: Context, view: View) -> bool:
    """Whether the view's query walks the search index (`driving_match`)."""
    return _sort(view) == "added" and bool(_searched(ctx, view)[0])


def _walked(ctx: Context, view: View) -> tuple[Any, Any, list[Any]] | None:
    """The search index's rows a view walks (`driving_match`) joined to their papers,
    filtered and matched, the index's id column, and the view's filters; None if the
    view walks none."""
    walked = _searched(ctx, view)[0] if _walks(ctx, view) else ""
    driving = ctx.store.search.driving_match(walked) if walked else None
    if driving is None:
        return None
    index, match = driving
    filters = _where(ctx, view, with_search=False)
    return (select(Paper.id).select_from(index.join(Paper, Paper.id == index.c.rowid))
            .where(match, *filters)), index.c.rowid, filters


def _walk_pays(ctx: Context, conn: Connection, limit: int, estimate: Any,
               values: dict[str, Any] | None) -> bool:
    """Whether the first `limit` matches of a search come sooner by walking the index in
    id order than by looking every match up (through the words' own index) and sorting.

    The walk reads about `limit` x papers / matches rows, the look-up reads every match:
    the walk pays when matches² ≥ limit x papers. A database's planner, where it
    estimates both (PostgreSQL's), costs a walked row at a fraction of its real price
    (reading its words from TOAST): it walked for words in one paper of 400 to 1 of
    100, a first page of 100 then took 40-360 ms instead of 4-30."""
    if estimate is None:  # (nothing walked)
        return True
    estimates = ctx.store.estimated_rows(conn, estimate, values)
    if estimates is None:
        return True
    matches, papers = estimates
    return matches * matches >= limit * papers


def _estimate(ctx: Context, view: View) -> Any:
    """What `_walk_pays` asks the database to estimate: the view's walked and matched
    rows, and every row of the index it walks (a UNION ALL of the two)."""
    walked = _walked(ctx, view)
    if walked is None:
        return None
    query, rowid, _filters = walked
    return union_all(query, select(rowid))


def _view_query(ctx: Context, view: View, limit: int | None, others: bool = True,
                walk: bool = True) -> Any:
    """The statement of a view's ids; `others`: False if no paper can be among the
    search's `other_matches` (then it looks for none); `walk`: False to have a search's
    first page looked up, not walked (`_walk_pays`)."""
    walking = _walked(ctx, view)
    if walking is not None:  # walk the search index in id order
        walked, rowid, filters = walking
        key = rowid if walk else rowid + 0  # (an order no index of the ids gives)
        order = key.desc() if view.descending else key.asc()
        page = ((limit, view.descending) if limit is not None and not filters
                and ctx.store.search.disjoint_others else None)  # (merged as a page below)
        other = ctx.store.search.other_matches(_searched(ctx, view)[0], page) \
            if others else None
        if other is None:
            query: Any = walked.order_by(order)
        else:  # merged in id order with the few papers found through other text
            parts = (walked.with_only_columns(rowid.label("id")),
                     select(Paper.id.label("id")).where(other, *filters))
            if ctx.store.search.disjoint_others:
                # The walk's first page, then the first page of it and the others: the
                # walk's plan then knows how few rows are wanted (PostgreSQL plans a
                # UNION's parts for all their rows, and the walk for a common word
                # became a read of every match). The others, a few, are found whole:
                # with a limit of their own the planner walked every paper for them.
                if limit is not None:
                    parts = (parts[0].order_by(order).limit(limit), parts[1])
                    # Planned on its own (a fence): inside the merge, the planner took
                    # the others' guessed hundreds of rows for a share of the page and
                    # walked all the papers for a word none of them holds (4-5 s).
                    page = parts[0].cte("first_page").prefix_with("MATERIALIZED")
                    parts = (select(page.c.id), parts[1])
                found = union_all(*parts).subquery("found")
                query = select(found.c.id).order_by(
                    found.c.id.desc() if view.descending else found.c.id.asc())
            else:
                ordered: Any = literal_column("id")
                query = union(*parts).order_by(
                    ordered.desc() if view.descending else ordered.asc())
    else:
        query = select(Paper.id)
        if _sort(view) in _PERSONAL_SORTS:
            query = query.outerjoin(Personal, mine(ctx.user_name))
        query = query.where(*_where(ctx, view)).order_by(*_order(view))
    return query.limit(limit) if limit is not None else query


# Statements of searches kept for the next query of the same shape: building one took
# longer than the server's answer to a search's first page (5 ms for two words).
_KEPT_STATEMENTS = 64


def _kept(ctx: Context, view: View, shape: Hashable | None,
          build: Callable[..., Any], *args: Any) -> Any:
    """`build(ctx, view, *args)`, kept for the next query of the same `shape`
    (`SearchIndex.bound_values`; None: built anew)."""
    if shape is None:
        return build(ctx, view, *args)
    key = (replace(view, search=""), _searched(ctx, view)[1], shape, build, *args)
    kept = ctx.statements.get(key)
    if kept is None:
        if len(ctx.statements) >= _KEPT_STATEMENTS:
            ctx.statements.clear()
        kept = ctx.statements[key] = build(ctx, view, *args)
    return kept


def view_ids(ctx: Context, view: View, limit: int | None = None) -> list[int]:
    """The ids of the papers a view shows, in its order (the first `limit` only)."""
    index = ctx.store.search
    plain, _rest = _searched(ctx, view)
    with ctx.engine.connect() as conn:
        if plain:
            ctx.store.prepare_search(conn)
        if view.sort == bestmatch.BEST:  # (else, no search to rank: the default order)
            ranked = bestmatch.statement(ctx, conn, plain,
                                         _where(ctx, view, with_search=False), limit)
            if ranked is not None:
                return ctx.store.view_ids(conn, ranked, plain)
            view = replace(view, sort="added")
        others = not _walks(ctx, view) or _others(ctx, conn, view)
        shape, values = (index.bound_values(plain) if plain else None) or (None, None)
        walk = limit is None or not _walks(ctx, view) or _walk_pays(
            ctx, conn, limit, _kept(ctx, view, shape, _estimate), values)
        statement = _kept(ctx, view, shape, _view_query, limit, others, walk)
        return ctx.store.view_ids(conn, statement, plain, values)


def size_estimate(ctx: Context) -> int:
    """An instant upper bound of the number of papers (the largest id)."""
    with ctx.read() as session:
        return session.scalar(select(func.max(Paper.id))) or 0


def count(ctx: Context, view: View) -> int:
    """How many papers a view shows."""
    with ctx.read() as session:
        others = _others(ctx, session.connection(), view)
        return session.scalar(select(func.count(Paper.id)).where(
            *_where(ctx, view, others=others))) or 0


def ids_for_keys(ctx: Context, wanted: Iterable[str]) -> tuple[list[int], list[str]]:
    """Ids of the papers with these citation keys, in the given order, and unknown keys.

    A key that no paper has may be the key of an entry merged into a paper on import
    (an alias of that paper): it names that paper.
    """
    wanted = [k for k in wanted if k]
    found: dict[str, int] = {}
    with ctx.read() as session:
        for chunk in chunks(wanted):
            found.update((key, pid) for pid, key in session.execute(
                select(Paper.id, Paper.key).where(Paper.key.in_(chunk))))
        unknown = {k for k in wanted if k not in found}
        if unknown:
            for pid, extra in session.execute(
                    select(PaperText.paper_id, PaperText.bib_extra)
                    .where(cast(PaperText.bib_extra, Text).like('%"aliases"%'))):
                for key in unknown.intersection((extra or {}).get("aliases", ())):
                    found.setdefault(key, pid)
    return [found[k] for k in wanted if k in found], [k for k in wanted if k not in found]


# -- what of them ----------------------------------------------------------------------


def rows(ctx: Context, ids: Sequence[int]) -> dict[int, PaperRow]:
    """Table rows for the given ids (missing ids are simply absent)."""
    columns = (
        Paper.id, Paper.key, Paper.title, Paper.title_provisional,
        Paper.authors_text.label("authors"), Paper.venue, Paper.year,
        column_of("starred").label("starred"), column_of("read_state").label("read_state"),
        Paper.added_at, Personal.last_page, Personal.page_count, Personal.last_read_at,
    )
    query = select(*columns).outerjoin(Personal, mine(ctx.user_name))
    found: dict[int, PaperRow] = {}
    with ctx.read() as session:  # (a server's ids go as one array: 256 rows in 2 ms, not 9)
        for id_set in ctx.store.id_sets(session, ids):
            for row in session.execute(query.where(Paper.id.in_(id_set))):
                found[row.id] = PaperRow(**row._asdict())
        for pid, nature in retractions.natures(ctx, session, list(found)).items():
            found[pid] = replace(found[pid], notice=nature)
    return found


def details(ctx: Context, ids: Sequence[int]) -> list[PaperDetail]:
    """Full details of papers, in the order of `ids` (missing ids skipped)."""
    n = len(fields.RECORD_COLUMNS)

    def make(pid: int, values: Sequence[Any], authors: list[Author], tags: list[str]
             ) -> PaperDetail:
        starred, read_state, read_at, private_notes, added_at, modified_at, version = (
            values[n:])
        return PaperDetail(pid, fields.record_from(pid, values, authors, tags), starred,
                           read_state, read_at, added_at, modified_at, private_notes,
                           version)

    with ctx.read() as session:
        found = ctx.store.read_papers(session, ids, (*fields.RECORD_COLUMNS, *_DETAIL_STATE),
                                      make)
        for pid, attached in _attached(ctx, session, found).items():
            found[pid].files = tuple(attached)
    for pid, notices in retractions.notices_of(ctx, list(found)).items():
        found[pid].notices = tuple(notices)
    return [found[pid] for pid in ids if pid in found]


def records(ctx: Context, ids: Sequence[int], with_files: bool = False) -> list[PaperRecord]:
    """The bibliographic records of papers, in the order of `ids` (for export): the
    details without the user's state, read the same way (`Store.read_papers`);
    `with_files`: with the paths of their attached files that are on this computer."""
    with ctx.read() as session:
        found = ctx.store.read_papers(session, ids, fields.RECORD_COLUMNS, fields.record_from)
        if with_files:
            for pid, attached in _attached(ctx, session, found).items():
                found[pid].files = [str(a.location) for a in attached if a.present()]
    return [found[pid] for pid in ids if pid in found]


def _attached(ctx: Context, session: Session, ids: Iterable[int]
              ) -> dict[int, list[Attachment]]:
    """The attached files of these papers (core.files.read)."""
    return files.read(session, list(ids), files.folder_for(ctx.url))


def read_tags(session: Session, ids: Sequence[int]) -> dict[int, list[str]]:
    """The tags of each paper, in `session` (unordered; every id has a list)."""
    tags: dict[int, list[str]] = {i: [] for i in ids}
    for chunk in chunks(list(ids)):
        for pid, name in session.execute(
                select(PaperTag.paper_id, Tag.name).join(Tag)
                .where(PaperTag.paper_id.in_(chunk))):
            tags[pid].append(name)
    return tags


def tags_of(ctx: Context, ids: Sequence[int]) -> dict[int, list[str]]:
    """The tags of each paper (for "Remove tag…" on a selection)."""
    with ctx.read() as session:
        return {pid: sorted(tags) for pid, tags in read_tags(session, ids).items()}


# -- the whole library -----------------------------------------------------------------


def counts(ctx: Context) -> Counts:
    """Paper counts for the sidebar: each filter and each tag."""
    with ctx.read() as session:
        starred = session.scalar(select(func.count()).select_from(
            _mine(ctx, Personal.starred.is_(True)).subquery())) or 0
        by_state = dict(session.execute(
            select(Personal.read_state, func.count(Personal.paper_id))
            .where(Personal.user_name == ctx.user_name, Personal.read_state != "unread")
            .group_by(Personal.read_state)).all())
        total = session.scalar(select(func.count(Paper.id))) or 0
        recent = session.scalar(select(func.count()).select_from(
            _mine(ctx, Personal.last_read_at.is_not(None)).subquery())) or 0
        by_state["unread"] = total - sum(by_state.values())  # (no row of the user: unread)
        tags = dict(session.execute(
            select(Tag.name, func.count(PaperTag.paper_id)).outerjoin(PaperTag)
            .group_by(Tag.id).order_by(func.lower(Tag.name))).all())
    return Counts(
        all=total, unread=by_state.get("unread", 0), reading=by_state.get("reading", 0),
        read=by_state.get("read", 0), starred=int(starred), tags=tags, recent=int(recent),
    )


def tag_names(ctx: Context) -> list[str]:
    """Every tag, alphabetically."""
    with ctx.read() as session:
        return list(session.scalars(select(Tag.name).order_by(func.lower(Tag.name))))


def info(ctx: Context) -> dict[str, Any]:
    """Location, schema version and counts, for `papershelf info`."""
    totals = counts(ctx)
    with ctx.read() as session:
        imports = session.scalar(select(func.count(ImportBatch.id))) or 0
        attached = session.scalar(select(func.count(PaperFile.id))) or 0
    return {
        "location": db.describe(ctx.url),
        "dialect": ctx.engine.dialect.name,
        "user": ctx.user_name,  # whose stars and read states are counted ('' on SQLite)
        "schema": db.current_revision(ctx.engine),
        "papers": totals.all,
        "unread": totals.unread,
        "reading": totals.reading,
        "read": totals.read,
        "starred": totals.starred,
        "tags": len(totals.tags),
        "imports": imports,
        "files": attached,
    }
