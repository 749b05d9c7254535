"""What a search means to an index, and what an index does (`SearchIndex`): the part
of search every database shares (core.search).

An index is asked about the part of a query (core.query) that its words answer: words
and phrases, in any field it indexes, under AND, OR and NOT. It gets that part as text
of the language (`render`), reads it back with `core.query.parse`, and answers a query
of plain words (`plain_terms`) as it always did, anything else through its own query
syntax (FTS5's MATCH, a tsquery) plus the few papers whose other text (files; on
PostgreSQL also notes and tags) holds a word of it (`text_leaves`, `tree_clause`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

from sqlalchemy import ColumnElement, Connection, FromClause, and_, not_, or_, true

from papershelf.core import query as q

# -- what a query means -------------------------------------------------------

# A page of a view's papers in id order: how many, and whether descending
# (`SearchIndex.other_matches`).
Page: TypeAlias = tuple[int, bool]
# What a search looks in: columns of papers, and the abstract (of paper_texts).
INDEXED_COLUMNS = ("title", "authors_text", "abstract", "notes", "tags_text")


@dataclass(frozen=True)
class Term:
    """One part of a parsed query: a word or phrase, optionally a prefix."""

    words: tuple[str, ...]
    prefix: bool = False


_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')
_WORD = re.compile(r"\w+", re.UNICODE)


def parse_query(query: str) -> list[Term]:
    """Split a user's query into terms; punctuation and operators become plain words or vanish."""
    terms: list[Term] = []
    for match in _TOKEN.finditer(query):
        phrase, bare = match.group(1), match.group(2)
        if phrase is not None:
            words = tuple(_WORD.findall(phrase))
            if words:
                terms.append(Term(words, prefix=phrase.rstrip().endswith("*")))
            continue
        words = tuple(_WORD.findall(bare or ""))
        if words:
            terms.append(Term(words, prefix=bool(bare) and bare.endswith("*")))
    return terms


class SearchIndex(Protocol):
    """Full-text search as one database does it (a store's `search`): the papers
    matching a user's query, and an index a bulk import may fill afterwards."""

    # Whether `other_matches` never holds a paper the `driving_match` walk finds (the
    # two can then be merged without looking for duplicates).
    disjoint_others: bool

    def matches(self, query: str, others: bool = True) -> ColumnElement[bool]:
        """A WHERE clause on `papers` keeping the papers that match `query`; without
        those found only through what `other_matches` reads if not `others` (where
        `others_present` said there are none: a simpler statement to plan)."""
        ...

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        """The index as a table to walk in id order (its `rowid` is the paper id) and
        its MATCH clause, or None where the index cannot lead a query."""
        ...

    def __hash__(self) -> int:  # (one object per kind of store: a key of caches)
        ...

    def walks(self, node: q.Node) -> bool:
        """Whether the index answers this tree of words (`words_only`) by itself: then
        it gets it, `render`ed, as the query of the methods here."""
        ...

    def field_matches(self, field: str | None, words: tuple[str, ...],
                      prefix: bool) -> ColumnElement[bool]:
        """A WHERE clause on `papers` keeping the papers whose `field` (title, author,
        abstract, notes or pdf: the files' text; None: any of them or the tags) holds
        the phrase `words`, the last one a prefix if `prefix` (a Text term of
        core.query). Its parameters are its own: a statement may hold many."""
        ...

    def other_matches(self, query: str, page: Page | None = None
                      ) -> ColumnElement[bool] | None:
        """With a `driving_match`: a WHERE clause on `papers` keeping the papers that
        match `query` but that walk does not find (their files' text), or None.
        `page`: only the first ones of them in id order (that many, descending if
        true) are needed (no other condition on the papers: a page of the view)."""
        ...

    def others_present(self, conn: Connection, query: str) -> bool:
        """Whether `other_matches` may keep any paper (False: certainly none; a query
        can then leave it out)."""
        ...

    def defer(self, conn: Connection, first_id: int) -> bool:
        """Leave papers from `first_id` on out of the index (a bulk import); False if
        the index cannot defer (then nothing is deferred)."""
        ...

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        """The deferred import ended at `last_id`; `index_now`: index it right away."""
        ...

    def index_deferred(self, conn: Connection, lo: int, hi: int,
                       texts: Sequence[tuple[Any, ...]] = ()) -> None:
        """Index the deferred papers `lo`..`hi` now, in the caller's (the import's)
        transaction: `lo` starts the range deferred, which then starts after `hi`.
        `texts`: the indexed columns of some of them (id, then INDEXED_COLUMNS) as the
        caller just wrote them, so they need not be read back (an index may ignore it)."""
        ...

    def pending(self, conn: Connection) -> int:
        """How many papers wait to be indexed."""
        ...

    def index_some(self, conn: Connection, limit: int) -> int:
        """Index up to `limit` pending ids; how many ids were covered (0: none pending)."""
        ...

    def bound_values(self, query: str) -> tuple[Hashable, dict[str, str]] | None:
        """What the statements built for `query` have in common with those of other
        queries (the same for the same SQL) and the values of its named parameters,
        for running a statement built for another query; None: build them anew."""
        ...


class ImmediateIndex:
    """The part of a `SearchIndex` for an index that is always up to date (the writes
    keep it so): it never leads a query, defers nothing, has nothing pending."""

    disjoint_others = False

    def walks(self, node: q.Node) -> bool:
        return q.is_plain(node)

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        return None

    def other_matches(self, query: str, page: Page | None = None
                      ) -> ColumnElement[bool] | None:
        return None

    def others_present(self, conn: Connection, query: str) -> bool:
        return False

    def defer(self, conn: Connection, first_id: int) -> bool:
        return False

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        return None

    def index_deferred(self, conn: Connection, lo: int, hi: int,
                       texts: Sequence[tuple[Any, ...]] = ()) -> None:
        return None

    def pending(self, conn: Connection) -> int:
        return 0

    def index_some(self, conn: Connection, limit: int) -> int:
        return 0

    def bound_values(self, query: str) -> tuple[Hashable, dict[str, str]] | None:
        return None


# -- the part of a query an index answers -------------------------------------------------


def render(node: q.Node) -> str:
    """`node` as text of the language that `core.query.parse` reads back as `node`."""
    match node:
        case q.Text(field, words, prefix):
            phrase = '"' + " ".join(words) + ("*" if prefix else "") + '"'
            return phrase if field is None else f"{field}:{phrase}"
        case q.Not(inner):
            return f"-({render(inner)})"
        case q.And(nodes):
            return "(" + " ".join(render(n) for n in nodes) + ")"
        case q.Or(nodes):
            return "(" + " OR ".join(render(n) for n in nodes) + ")"
    return ""  # (Everything)


def words_only(node: q.Node, fields: frozenset[str]) -> bool:
    """Whether `node` is words and phrases (in no field, or one of `fields`) under AND,
    OR and NOT only: what an index of those fields answers."""
    match node:
        case q.Text(field, _words, _prefix):
            return field is None or field in fields
        case q.Not(inner):
            return words_only(inner, fields)
        case q.And(nodes) | q.Or(nodes):
            return all(words_only(n, fields) for n in nodes)
    return False


def plain_terms(query: str) -> tuple[list[Term] | None, q.Node]:
    """A query's terms when it is plain words (an AND of words and phrases in no field;
    [] for an empty query), else None; and the query as a tree."""
    node = q.parse(query)
    if isinstance(node, q.Everything):
        return [], node
    if q.is_plain(node):
        return [Term(n.words, n.prefix) for n in leaves(node)], node
    return None, node


def leaves(node: q.Node) -> Iterator[q.Text]:
    """The words and phrases of a tree, in order."""
    match node:
        case q.Text():
            yield node
        case q.Not(inner):
            yield from leaves(inner)
        case q.And(nodes) | q.Or(nodes):
            for n in nodes:
                yield from leaves(n)


def text_leaves(node: q.Node) -> list[q.Text]:
    """The words and phrases of a tree that name no field: those other text may hold."""
    return [leaf for leaf in leaves(node) if leaf.field is None]


def monotone(node: q.Node) -> bool:
    """Whether the tree has no NOT (more text found never loses it a paper)."""
    return not isinstance(node, q.Not) and all(
        monotone(n) for n in getattr(node, "nodes", ()))


def tree_clause(node: q.Node, leaf: Callable[[q.Text], ColumnElement[bool]]
                ) -> ColumnElement[bool]:
    """The tree as a WHERE clause, each word or phrase as `leaf` makes it."""
    match node:
        case q.Text():
            return leaf(node)
        case q.Not(inner):
            return not_(tree_clause(inner, leaf))
        case q.And(nodes):
            return and_(*(tree_clause(n, leaf) for n in nodes))
        case q.Or(nodes):
            return or_(*(tree_clause(n, leaf) for n in nodes))
    return true()


# Papers whose ids fall in a pending range are not in the index yet: a bulk import adds
# them without the per-row triggers and `index_pending` indexes them in batches later.
PENDING_TABLE = "fts_pending"
