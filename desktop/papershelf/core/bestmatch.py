"""The "Best match" order of a search (issue 26): the papers that match it best first,
as the database's own index scores them (core.search.ranking: FTS5's bm25, PostgreSQL's
ts_rank, the title weighted over the authors over the abstract over notes).

Scoring every match of a common word is slow in a big library (bm25 over a million
matches: 0.8 s, more than a first page may take), so a search ranks its newest matches
only, `Ranking.candidates` of them (the index walks them newest first and stops):

1. the newest candidates that match (every filter of the view applied; a fifth as many
   in a view with filters besides the words), by score;
2. then, when a search has more matches than that, the older ones, newest first;
3. then the papers found only through text the index does not score (the attached
   files' text; on PostgreSQL also notes and tags, which come first, by ts_rank),
   newest first.

A search with no more matches than the candidates (every search in a library of that
size, and rare words in any) is thus ranked whole, exactly as the index scores it.
Without a search, or with one the index cannot score (the generic store's), the order
is the default one: added.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Select, exists, func, literal, select, union_all
from sqlalchemy.sql.util import find_tables

from papershelf.core.context import Context
from papershelf.core.models import Paper
from papershelf.core.search.ranking import ranking
from papershelf.core.shapes import BEST_MATCH

BEST = BEST_MATCH  # the sort key (View.sort) of this order
FILTERED = 5  # a view with filters besides its words ranks a fifth of the candidates


def statement(ctx: Context, conn: Connection, search: str, filters: list[Any],
              limit: int | None) -> Select[Any] | None:
    """The ids of the papers matching `search` (the part of a view's query the store's
    index walks, core.views._searched) and `filters` (the rest of the view), best match
    first (the first `limit`); None if the index cannot rank `search`."""
    index = ctx.store.search
    ranks = ranking(index)
    driving = index.driving_match(search) if search else None
    if ranks is None or driving is None:
        return None
    walked, match = driving
    rowid = walked.c.rowid
    # (The papers joined only where something asks for them: for a million matches of a
    # word, reading their rows took longer than ranking them.)
    joined = bool(filters) or Paper.__table__ in find_tables(match, check_columns=True)

    def matched(*columns: Any) -> Select[Any]:
        found = select(*columns).select_from(
            walked.join(Paper, Paper.id == rowid) if joined else walked)
        return found.where(match, *filters)

    # (A filter makes the walk read more matches for as many candidates: a year of 26
    # read 26 times as many, 140 ms for 5000 candidates in a million papers.)
    wanted = ranks.candidates // FILTERED if filters else ranks.candidates
    candidates = (matched(rowid.label("id"), ranks.score(walked, search).label("score"))
                  .order_by(rowid.desc()).limit(wanted).cte("candidates"))
    parts: list[Select[Any]] = [
        select(candidates.c.id, literal(0).label("tier"), candidates.c.score)]
    if limit is None or limit > wanted:  # (else the candidates fill the page)
        oldest = select(func.min(candidates.c.id)).scalar_subquery()
        parts.append(matched(rowid, literal(1), -rowid).where(rowid < oldest))
    others = index.other_matches(search) if index.others_present(conn, search) else None
    if others is not None:
        found = select(Paper.id, literal(2), ranks.others_score(search)).where(
            others, *filters)
        if not index.disjoint_others:  # (not those the index walks)
            found = found.where(~exists(select(rowid).select_from(walked).where(
                match, rowid == Paper.id)))
        parts.append(found)
    best = union_all(*parts).subquery("best")
    query = select(best.c.id).order_by(best.c.tier, best.c.score, best.c.id.desc())
    return query.limit(limit) if limit is not None else query
