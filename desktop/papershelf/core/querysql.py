"""A search query (core.query's tree) as SQL: what a view's search keeps, in any store.

A query's plain words (the terms of its top-level AND that name no field) are what a
store's `SearchIndex` walks fast, in id order, as it always did (`split` gives them
back as a query string for it). The rest of the tree becomes one WHERE clause on
`papers` (`where`): a term in one text field through the store's own index
(`SearchIndex.field_matches`), a plain term under OR or NOT through that index too,
and fields, flags and ranges as the columns they are. The meaning of each node is
core.query's `evaluate`, which the tests compare these clauses with.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    false,
    func,
    not_,
    or_,
    select,
    true,
)

from papershelf.core import query as q
from papershelf.core import retractions
from papershelf.core.context import Context
from papershelf.core.models import (
    Annotation,
    Paper,
    PaperFile,
    PaperTag,
    PaperText,
    Personal,
    Tag,
)
from papershelf.core.search import SearchIndex
from papershelf.core.search.annotated import in_annotations, seen_by
from papershelf.core.search.terms import render, words_only


def not_mine(user_name: str, *where: Any) -> ColumnElement[bool]:
    """The papers without a personal row of `user_name` matching `where`, as NOT
    EXISTS: PostgreSQL runs `NOT IN (a subquery)` too large for its memory by comparing
    every paper with the whole list (minutes for the unread of a million papers). Only
    the papers table is correlated: the statement may read personal rows too."""
    return ~select(Personal.paper_id).where(
        Personal.paper_id == Paper.id, Personal.user_name == user_name, *where
    ).correlate(Paper).exists()


def split(tree: q.Node, index: SearchIndex) -> tuple[str, q.Node | None]:
    """The part of the tree's top-level AND that the store's index answers (its words,
    under AND, OR and NOT, as far as the index `walks` them), as the index's query
    ('' if none); and the rest of the tree (None if nothing else)."""
    if isinstance(tree, q.Everything):
        return "", None
    nodes = tree.nodes if isinstance(tree, q.And) else (tree,)
    for keep in (_words, _words_not_negated, _plain):  # (the widest first)
        words = [n for n in nodes if keep(n)]
        walked = _joined(words)
        if walked is None or index.walks(walked):
            break
    rest = _joined([n for n in nodes if n not in words])
    return (" ".join(render(n) for n in words) if walked is not None else ""), rest


_TEXT_FIELDS = frozenset(("title", "author", "abstract", "notes"))


def _words(node: q.Node) -> bool:
    return words_only(node, _TEXT_FIELDS)


def _words_not_negated(node: q.Node) -> bool:
    return _words(node) and not isinstance(node, q.Not)


def _plain(node: q.Node) -> bool:
    return isinstance(node, q.Text) and node.field is None


def _joined(nodes: list[q.Node]) -> q.Node | None:
    return None if not nodes else nodes[0] if len(nodes) == 1 else q.And(tuple(nodes))


def where(ctx: Context, node: q.Node) -> ColumnElement[bool]:
    """A WHERE clause on `papers` keeping the papers `node` matches."""
    return _Compiler(ctx).clause(node)


class _Compiler:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._venues: list[str] | None = None

    def clause(self, node: q.Node) -> ColumnElement[bool]:
        match node:
            case q.Everything():
                return true()
            case q.Not(inner):
                return not_(self.clause(inner))
            case q.And(nodes):
                return and_(*(self.clause(n) for n in nodes))
            case q.Or(nodes):
                return or_(*(self.clause(n) for n in nodes))
            case q.Text("venue", _words, _prefix):
                return self._venue(node)
            case q.Text("ann", found, prefix):
                return self._annotated(found, prefix)
            case q.Text(field, found, prefix):
                return self.ctx.store.search.field_matches(field, found, prefix)
            case q.Exact(field, value, prefix):
                return self._exact(field, value, prefix)
            case q.Flag(field, value):
                return self._flag(field, value)
            case q.Range(field, low, high):
                return self._range(field, low, high)
        raise AssertionError(node)  # (every node is matched above)

    def _mine(self, *conditions: Any) -> ColumnElement[bool]:
        """Papers whose personal row of this user meets `conditions`."""
        return Paper.id.in_(select(Personal.paper_id).where(
            Personal.user_name == self.ctx.user_name, *conditions))

    def _venue(self, node: q.Text) -> ColumnElement[bool]:
        """Venues are few and not in the word index: the library's venues holding the
        words are found here, and the papers by the venue's own index."""
        if self._venues is None:
            self._venues = venues(self.ctx)
        found = [v for v in self._venues
                 if q.evaluate(node, q.Searchable(added=_EPOCH, venue=v))]
        return Paper.venue.in_(found) if found else false()

    def _annotations(self, statement: Any) -> Any:
        """`statement` kept to the annotations the user sees: theirs and shared ones."""
        return statement.where(seen_by(self.ctx.user_name))

    def _annotated(self, found: tuple[str, ...], prefix: bool) -> ColumnElement[bool]:
        """Papers with an annotation whose quote or comment holds the phrase
        (core.search.annotated)."""
        return in_annotations(self.ctx.store.search, self.ctx.user_name, found, prefix)

    def _exact(self, field: str, value: str, prefix: bool) -> ColumnElement[bool]:
        if field == "tag":
            return tagged(self.ctx, value, prefix)
        column = {"key": Paper.key, "doi": Paper.doi, "type": Paper.entry_type}[field]
        lowered = func.lower(column)
        if not prefix:
            return lowered == value
        escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return lowered.like(escaped + "%", escape="\\")

    def _flag(self, field: str, value: str) -> ColumnElement[bool]:
        if field == "is":
            if value == "starred":
                return self._mine(Personal.starred.is_(True))
            if value == "provisional":
                return Paper.title_provisional.is_(True)
            if value == "retracted":
                return retractions.flag_clause(self.ctx, (retractions.RETRACTION,))
            if value == "corrected":
                return retractions.flag_clause(self.ctx, (retractions.CORRECTION,
                                                               retractions.CONCERN))
            if value == "unread":  # (no personal row: unread)
                return not_mine(self.ctx.user_name, Personal.read_state != value)
            return self._mine(Personal.read_state == value)
        if value == "pdf":
            return Paper.id.in_(select(PaperFile.paper_id))
        if value == "annotations":
            return Paper.id.in_(self._annotations(select(Annotation.paper_id)))
        if value == "abstract":
            return Paper.id.in_(select(PaperText.paper_id).where(
                func.trim(PaperText.abstract) != ""))
        column = Paper.notes if value == "notes" else Paper.doi
        return func.trim(column) != ""

    def _range(self, field: str, low: int | datetime | None,
               high: int | datetime | None) -> ColumnElement[bool]:
        column: Any = {"year": Paper.year, "added": Paper.added_at,
                       "lastread": Personal.last_read_at}.get(field, Personal.read_at)
        bounds = [column.is_not(None)]
        if low is not None:
            bounds.append(column >= _utc(low))
        if high is not None:
            bounds.append(column < _utc(high))
        if field in ("read", "lastread"):
            return self._mine(*bounds)
        return and_(*bounds)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def first_authors(ctx: Context, typed: str, limit: int = 12) -> list[str]:
    """Family names of first authors that begin as `typed` (accents and case ignored),
    alphabetically, at most `limit`: one seek of the author-sort index each, then the
    name as written (the search field completes `au:`)."""
    from papershelf.core.ingest import normalize_text
    from papershelf.core.models import PaperAuthor

    start = normalize_text(typed).strip()
    if not start:
        return []
    found: list[str] = []
    with ctx.read() as session:
        last = None
        while len(found) < limit:
            condition = Paper.authors_sort > last if last is not None else \
                Paper.authors_sort >= start
            sort = session.scalar(select(func.min(Paper.authors_sort)).where(condition))
            if sort is None or not sort.startswith(start):
                break
            last = sort
            family = session.scalar(
                select(PaperAuthor.family).join(Paper, Paper.id == PaperAuthor.paper_id)
                .where(Paper.authors_sort == sort, PaperAuthor.position == 0).limit(1))
            if family and family not in found:
                found.append(family)
    return found


def venues(ctx: Context) -> list[str]:
    """The library's venues, in order: one seek of the venue index each (a DISTINCT
    reads the whole index: half a second for a million papers, for five venues)."""
    found: list[str] = []
    with ctx.read() as session:
        last = ""
        while True:
            venue = session.scalar(select(func.min(Paper.venue)).where(Paper.venue > last))
            if venue is None:
                return found
            found.append(venue)
            last = venue


def _utc(point: int | datetime) -> int | datetime:
    """A bound as the database compares it: instants in UTC (SQLite keeps them so)."""
    return point.astimezone(timezone.utc) if isinstance(point, datetime) else point


def tagged(ctx: Context, value: str, prefix: bool = False) -> ColumnElement[bool]:
    """Papers with a tag named `value` (or starting with it), ignoring case: the search's
    `tag:` and a view's tag (the sidebar's, `list --tag`) match tags the same way."""
    names = _matching(value.lower(), prefix)
    with ctx.read() as session:
        ids = [tid for tid, name in session.execute(select(Tag.id, Tag.name)) if names(name)]
    return Paper.id.in_(select(PaperTag.paper_id).where(PaperTag.tag_id.in_(ids))) \
        if ids else false()


def _matching(value: str, prefix: bool) -> Callable[[str], bool]:
    """Whether a name equals `value` (lower-cased), or starts with it, ignoring case."""
    return lambda name: name.lower().startswith(value) if prefix else name.lower() == value
