"""How well a paper matches a search, as each database's index scores it (the "Best
match" order, core.bestmatch): SQLite's FTS5 `bm25` and PostgreSQL's `ts_rank`, each
with the title weighted over the authors over the abstract over notes and tags.

A score is asked of the rows the index walks (`SearchIndex.driving_match`), lower is
better; an index without one (the generic store's LIKE search) has no best match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, FromClause, bindparam, func, literal, literal_column

from papershelf.core.search.fts5 import FTS_TABLE, FTS5Index
from papershelf.core.search.pg_schema import _PG_CONFIG, pg_notes_document
from papershelf.core.search.postgres import (
    PostgresSearch,
    _all,
    _pg_expr,
    _PgQuery,
    _ts,
    pg_tsquery,
)
from papershelf.core.search.terms import INDEXED_COLUMNS, SearchIndex, Term, leaves, plain_terms

# bm25's weight of each column of the FTS5 index (INDEXED_COLUMNS' order): a word in a
# title counts ten times one in notes or tags.
FTS5_WEIGHTS = {"title": 10.0, "authors_text": 5.0, "abstract": 2.0, "notes": 1.0,
                "tags_text": 1.0}
# ts_rank's weights of the document's labels, in its order {D, C, B, A}: paper_search.doc
# has the title as A, the authors as B, the abstract as C (notes and tags are not in it:
# a paper found through them only comes after the ranked ones).
PG_WEIGHTS = "'{0.05, 0.2, 0.5, 1.0}'::float4[]"
# ts_rank's normalization 1: a score divided by 1 + the logarithm of the document's
# length, so a long abstract does not win by length alone (as bm25 does it).
_PG_NORMALIZATION = 1


@dataclass(frozen=True)
class Ranking:
    """How one index ranks: the score of a walked row (lower is better), how many of a
    search's matches it ranks for a first page (`candidates`, newest first), and the
    score of a papers row among those found through text the walk does not hold (0:
    all alike)."""

    score: Callable[[FromClause, str], ColumnElement[Any]]
    candidates: int
    others_score: Callable[[str], ColumnElement[Any]] = lambda _query: literal(0)


def _bm25(walked: FromClause, query: str) -> ColumnElement[Any]:
    """FTS5's bm25 of the matched row (negative: the lower, the better), weighted."""
    return func.bm25(literal_column(FTS_TABLE),
                     *(FTS5_WEIGHTS[name] for name in INDEXED_COLUMNS))


def _ts_rank(walked: FromClause, query: str) -> ColumnElement[Any]:
    """Minus PostgreSQL's ts_rank of the walked document (so lower is better) for the
    same tsquery the walk matches: its parameter `search_all` for plain words (whose
    value a kept statement gets again: `PostgresSearch.bound_values`), its own for a
    tree of words."""
    terms, node = plain_terms(query)
    tsquery: ColumnElement[Any]
    if terms is not None:
        parsed = _PgQuery.of(query)
        tsquery = _ts("search_all", _all(parsed.doc) if parsed else "")
    else:
        tsquery = func.to_tsquery(literal_column(_PG_CONFIG),
                                  bindparam("rank_tsquery", _pg_expr(node), unique=True))
    return -func.ts_rank(literal_column(PG_WEIGHTS), walked.c.doc, tsquery,
                         _PG_NORMALIZATION)


def _notes_rank(query: str) -> ColumnElement[Any]:
    """Minus the ts_rank of a papers row's shared notes and tags (PostgreSQL's notes
    index) for the query's words that notes may hold: a paper found through its notes
    comes before one found through its files' text only."""
    _terms, node = plain_terms(query)
    found = [f"({pg_tsquery(Term(t.words, t.prefix), 2)})" for t in leaves(node)
             if t.field in (None, "notes") and pg_tsquery(Term(t.words, t.prefix), 2)]
    if not found:
        return literal(0)
    tsquery = func.to_tsquery(literal_column(_PG_CONFIG),
                              bindparam("rank_notes", " | ".join(found), unique=True))
    return -func.ts_rank(literal_column(pg_notes_document("papers.")), tsquery)


# Every candidate costs bm25 a few microseconds (its row's length and the positions of
# its words); each word of the query costs it once a count of every paper holding it
# (its IDF: 30 ms for a word in a million papers). ts_rank reads each candidate's words
# (TOAST): fewer candidates on PostgreSQL.
_RANKINGS: dict[type, Ranking] = {
    FTS5Index: Ranking(_bm25, 5000),
    PostgresSearch: Ranking(_ts_rank, 2000, _notes_rank),
}


def ranking(index: SearchIndex) -> Ranking | None:
    """How `index` ranks its matches, or None if it cannot."""
    return _RANKINGS.get(type(getattr(index, "inner", index)))  # (AnnotatedIndex's)
