"""Plain words find papers through their annotations too: `AnnotatedIndex` wraps a
store's `SearchIndex` and adds, to every term that names no field, the quotes and
comments of the annotations the user sees (their own and the shared ones; on a shared
library row-level security says the same on the server, so another member's private
annotation never makes a paper match).

Annotations are not folded into the papers' index: that row is every member's, and a
member's private annotation must not be in it. They are the few "other" papers of a
search, as attached files are (core.search.terms): the papers with an annotation
holding a word of the query, each term then checked in their fields or their
annotations. The annotations' own index finds them (`Hits`: an FTS5 table on SQLite, a
GIN index on PostgreSQL read by a function that gives the papers' ids at once, with the
papers' words and tokenizer); elsewhere `Annotation.search_text` holds each word between
spaces (core.annotating.search_text), so a phrase is a LIKE of ` w1 w2 ` over the user's
annotations (`like_hits`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeAlias

from sqlalchemy import (
    ColumnElement,
    Connection,
    FromClause,
    Select,
    and_,
    false,
    func,
    not_,
    or_,
    select,
    union,
)

from papershelf.core import query as q
from papershelf.core.models import Annotation, Paper
from papershelf.core.search.terms import (
    Page,
    SearchIndex,
    monotone,
    plain_terms,
    text_leaves,
    tree_clause,
)


def phrase_pattern(found: tuple[str, ...], prefix: bool) -> str | None:
    """The LIKE pattern of a phrase in `search_text` (its words as `q.words` folds
    them), or None if it has no word."""
    phrase = tuple(token for word in found for token in q.words(word))
    if not phrase:
        return None
    joined = " ".join(phrase).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"% {joined}%" if prefix else f"% {joined} %"


def seen_by(user: ColumnElement[str] | str) -> ColumnElement[bool]:
    """The annotations `user` sees: their own and the shared ones."""
    return or_(Annotation.user_name == user, Annotation.shared)


# Phrases: each its words and whether the last is a prefix (core.query's Text).
Phrases: TypeAlias = list[tuple[tuple[str, ...], bool]]
# The ids of the papers with an annotation the user (the first argument) sees holding
# one of the phrases, one column labelled "id", a paper maybe more than once (None: no
# phrase has a word).
Hits: TypeAlias = Callable[[ColumnElement[str] | str, Phrases], "Select[Any] | None"]


def like_hits(user: ColumnElement[str] | str, phrases: Phrases) -> Select[Any] | None:
    """`Hits` for a database without an index of the annotations' words: LIKE over
    `search_text`."""
    patterns = [p for p in (phrase_pattern(w, prefix) for w, prefix in phrases) if p]
    if not patterns:
        return None
    return select(Annotation.paper_id.label("id")).where(seen_by(user), or_(
        *(Annotation.search_text.like(p, escape="\\") for p in patterns)))


def annotated(user: ColumnElement[str] | str, phrases: Phrases,
              hits: Hits = like_hits, ids: ColumnElement[Any] | None = None
              ) -> ColumnElement[bool]:
    """Papers (whose id is `ids`, else `Paper.id`) with an annotation `user` sees
    holding one of the `phrases` (the annotations' index read once)."""
    found = hits(user, phrases)
    if found is None:
        return false()
    return (Paper.id if ids is None else ids).in_(found)


def in_annotations(index: Any, user: ColumnElement[str] | str, words: tuple[str, ...],
                   prefix: bool) -> ColumnElement[bool]:
    """Papers with an annotation `user` sees holding the phrase (`ann:`), through the
    annotations' index of the store's search `index` (an `AnnotatedIndex`)."""
    return annotated(user, [(words, prefix)], getattr(index, "hits", like_hits))


def _any_word(node: q.Node) -> bool:
    """Whether the tree is a word or phrase naming no field, or an OR of them."""
    if isinstance(node, q.Text):
        return node.field is None
    return isinstance(node, q.Or) and all(_any_word(n) for n in node.nodes)


class AnnotatedIndex:
    """A store's `SearchIndex` (`inner`) whose plain words also look in the annotations
    `user` (the store's SQL for the current user) sees."""

    def __init__(self, inner: SearchIndex, user: ColumnElement[str],
                 hits: Hits = like_hits) -> None:
        self.inner = inner
        self.user = user
        self.hits = hits
        self.disjoint_others = inner.disjoint_others

    def __getattr__(self, name: str) -> Any:  # (deferring, pending: the inner index's)
        return getattr(self.inner, name)

    def walks(self, node: q.Node) -> bool:
        return self.inner.walks(node)

    # -- the few papers found through their annotations ------------------------------

    @staticmethod
    def _phrases(node: q.Node) -> Phrases:
        """The tree's words and phrases that name no field."""
        return [(t.words, t.prefix) for t in text_leaves(node)]

    def _leaf(self, term: q.Text) -> ColumnElement[bool]:
        """A term in the paper's indexed text or, naming no field, its annotations."""
        fields = self.inner.field_matches(term.field, term.words, term.prefix)
        if term.field is not None:
            return fields
        return or_(fields, annotated(self.user, [(term.words, term.prefix)], self.hits))

    def _through_annotations(self, query: str, disjoint: bool
                             ) -> tuple[ColumnElement[bool], ColumnElement[bool], bool] | None:
        """The papers found through their annotations, the papers with an annotation
        holding a word of the query (`candidates`), and whether the tree has no NOT;
        None if no word could be in one. `disjoint`: without those the query finds
        without annotations."""
        terms, node = plain_terms(query)
        if terms == []:
            return None
        phrases = self._phrases(node)
        if self.hits(self.user, phrases) is None:
            return None
        candidates = annotated(self.user, phrases, self.hits)
        plain = monotone(node)
        at = getattr(self.inner, "field_matches_at", None)
        if at is not None:  # (each term looked up by key for the few papers annotated)
            return Paper.id.in_(self._annotated_ids(node, phrases, at, (lambda ids: tree_clause(
                node, lambda t: at(ids, t.field, t.words, t.prefix))) if disjoint and plain
                else None)), candidates, plain
        found = [candidates, tree_clause(node, self._leaf)]
        if disjoint and plain:
            found.append(not_(tree_clause(node, lambda t: self.inner.field_matches(
                t.field, t.words, t.prefix))))
        return and_(*found), candidates, plain

    def _annotated_ids(self, node: q.Node, phrases: Phrases,
                       at: Callable[..., ColumnElement[bool]],
                       apart: Callable[[ColumnElement[Any]], ColumnElement[bool]] | None,
                       page: Page | None = None) -> Select[Any]:
        """The ids of the papers with an annotation holding a word of the tree that the
        tree matches (their annotations counted), each term looked up by key (`at`, the
        inner index's `field_matches_at`) for those papers, where a term's IN read every
        paper holding it (a common word: most of them); `apart`: those for which it is
        false only (by their id); `page`: the first of them only, looked up in their
        order until the page is full (a prefix held by 15,000 annotations: all read)."""
        hit = self.hits(self.user, phrases)
        annotated_ids = (select(Annotation.paper_id.label("id")).where(false())
                         if hit is None else hit).distinct().subquery("annotated")
        ids = annotated_ids.c.id

        def leaf(term: q.Text) -> ColumnElement[bool]:
            fields = at(ids, term.field, term.words, term.prefix)
            if term.field is not None:
                return fields
            return or_(fields, annotated(self.user, [(term.words, term.prefix)],
                                         self.hits, ids))

        # (Each of them holds one of an OR's words: the tree holds for all.)
        found = [] if _any_word(node) else [tree_clause(node, leaf)]
        if apart is not None:
            found.append(not_(apart(ids)))
        if page is None:
            return select(ids).where(*found)
        return select(ids).where(*found).order_by(ids.desc() if page[1] else ids.asc()
                                                  ).limit(page[0])

    # -- SearchIndex ------------------------------------------------------------------

    def matches(self, query: str, others: bool = True) -> ColumnElement[bool]:
        found = self.inner.matches(query, others)
        through = self._through_annotations(query, disjoint=False) if others else None
        if through is None:
            return found
        annotations, candidates, plain = through
        return or_(found, annotations) if plain else or_(and_(found, not_(candidates)),
                                                          annotations)

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        driving = self.inner.driving_match(query)
        through = self._through_annotations(query, disjoint=False)
        if driving is None or through is None or through[2]:
            return driving
        index, match = driving  # (a NOT: annotated papers are decided by other_matches)
        hit = self.hits(self.user, self._phrases(plain_terms(query)[1]))
        if hit is None:
            return driving
        return index, and_(match, not_(index.c.rowid.in_(hit)))

    def other_matches(self, query: str, page: Page | None = None
                      ) -> ColumnElement[bool] | None:
        others = self.inner.other_matches(query)
        through = self._through_annotations(query, disjoint=self.disjoint_others)
        if through is None:
            return others
        annotations, candidates, plain = through
        if others is None:
            return annotations
        theirs = getattr(self.inner, "other_ids", lambda _query: None)(query)
        if plain and theirs is not None:
            # One set of ids (an OR of two IN tested every paper of the library), those
            # the inner index finds among them counted once by the UNION: of those it
            # finds through annotations, only those the walk does not find.
            _terms, node = plain_terms(query)
            inner: Any = self.inner  # (a PostgresSearch)
            found = self._annotated_ids(node, self._phrases(node), inner.field_matches_at,
                                        lambda ids: inner.walked_at(ids, query), page)
            return Paper.id.in_(union(theirs, select(found.subquery("annotated_page"))
                                      if page is not None else found))
        return or_(others, annotations) if plain else or_(and_(others, not_(candidates)),
                                                           annotations)

    def others_present(self, conn: Connection, query: str) -> bool:
        if self.inner.others_present(conn, query):
            return True
        terms, node = plain_terms(query)
        found = self.hits(self.user, self._phrases(node)) if terms != [] else None
        return found is not None and bool(conn.scalar(select(func.count()).select_from(
            found.limit(1).subquery())))

    def field_matches(self, field: str | None, words: tuple[str, ...],
                      prefix: bool) -> ColumnElement[bool]:
        return self._leaf(q.Text(field, words, prefix))

    def bound_values(self, query: str) -> tuple[Hashable, dict[str, str]] | None:
        """The inner index's, for this query only: the annotations' clauses hold their
        words as they are (a statement is kept for the same query, not for another of
        the same shape)."""
        bound = self.inner.bound_values(query)
        return None if bound is None else (("annotated", bound[0], query), bound[1])
