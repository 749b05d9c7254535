"""What a user's plain search words mean to an index (`Term`, `parse_query`), and what an
index does (`SearchIndex`): the part of search every database shares (core.search)."""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import ColumnElement, Connection, FromClause

# -- what a query means -------------------------------------------------------

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

    def matches(self, query: str) -> ColumnElement[bool]:
        """A WHERE clause on `papers` keeping the papers that match `query`."""
        ...

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        """The index as a table to walk in id order (its `rowid` is the paper id) and
        its MATCH clause, or None where the index cannot lead a query."""
        ...

    def field_matches(self, field: str | None, words: tuple[str, ...],
                      prefix: bool) -> ColumnElement[bool]:
        """A WHERE clause on `papers` keeping the papers whose `field` (title, author,
        abstract, notes or pdf: the files' text; None: any of them or the tags) holds
        the phrase `words`, the last one a prefix if `prefix` (a Text term of
        core.query). Its parameters are its own: a statement may hold many."""
        ...

    def other_matches(self, query: str) -> ColumnElement[bool] | None:
        """With a `driving_match`: a WHERE clause on `papers` keeping the papers that
        match `query` but that walk does not find (their files' text), or None."""
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

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        return None

    def other_matches(self, query: str) -> ColumnElement[bool] | None:
        return None

    def others_present(self, conn: Connection, query: str) -> bool:
        return False

    def defer(self, conn: Connection, first_id: int) -> bool:
        return False

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        return None

    def pending(self, conn: Connection) -> int:
        return 0

    def index_some(self, conn: Connection, limit: int) -> int:
        return 0

    def bound_values(self, query: str) -> tuple[Hashable, dict[str, str]] | None:
        return None


# Papers whose ids fall in a pending range are not in the index yet: a bulk import adds
# them without the per-row triggers and `index_pending` indexes them in batches later.
PENDING_TABLE = "fts_pending"
