"""The sources a member follows: how each is spelt, and adding, listing and removing them.

Spellings: `arxiv:cs.LG` (a category), `arxiv:"query words"` (a search), an http(s)
address of any RSS or Atom feed, `issn:1234-5678` (a journal, through Crossref),
`openalex:A5023888391` (an author, through OpenAlex), `s2author:1741101` (an author,
through Semantic Scholar), `dblp:h/GeoffreyEHinton` (an author's DBLP page, by its pid),
`openalex:"query words"` or `crossref:"query words"` (a search run at that service).
Each source is one member's
(`user_name`) and may have a name of theirs (`rename`: kept in the library, so every
window and `follow list` show it; an RSS or Atom feed is named by the title it gives
itself at its first good check, until renamed); adding, renaming and removing are
undoable Changes, as core.saved's are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from urllib.parse import urlsplit

from sqlalchemy import delete, insert, select, update

from papershelf.core.context import Context
from papershelf.core.edits import Change
from papershelf.core.models import FeedSource as Row
from papershelf.core.models import InboxItem, utcnow
from papershelf.errors import UserError
from papershelf.messages import text

__all__ = ["INBOX", "Source", "Spec", "follow", "parse_source", "rename", "sources",
           "unfollow"]

INBOX = "inbox"  # what a Change of the sources or the inbox touches (core.context)
Kind = Literal["arxiv", "feed", "issn", "openalex", "s2author", "dblp", "crossref"]

_CATEGORY_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]{2,})?$")
_ISSN_RE = re.compile(r"^(\d{4})-?(\d{3}[\dXx])$")
_OPENALEX_RE = re.compile(r"^(?:https?://openalex\.org/)?([Aa]\d{4,})$")
_S2_AUTHOR_RE = re.compile(r"^(?:https?://(?:www\.)?semanticscholar\.org/author/[^/]*/)?(\d{1,12})$")
_DBLP_PID_RE = re.compile(
    r"^(?:https?://dblp\.org/pid/)?([0-9a-z]+/[A-Za-z0-9_-]+)(?:\.html|\.xml)?$")
_COLUMNS = ("user_name", "spelling", "kind", "etag", "last_modified", "state", "note",
            "checked_at", "created_at", "name")


@dataclass(frozen=True)
class Spec:
    """A source as spelt, understood: its kind and what to ask for (`value`: the arXiv
    category or query, the feed's address, the ISSN, the OpenAlex author id)."""

    kind: Kind
    value: str
    spelling: str
    category: bool = False  # (arxiv: a category, not a query)
    search: bool = False  # (openalex, crossref: words searched for, not an author)


@dataclass(frozen=True)
class Source:
    """A followed source as listed: its spelling, and how its last check went."""

    id: int
    spelling: str
    kind: str
    state: str  # new | ok | failed
    note: str
    checked_at: datetime | None
    etag: str = ""
    last_modified: str = ""
    name: str = ""  # what the member calls it (a feed: its own title; '': its spelling)

    @property
    def spec(self) -> Spec:
        return parse_source(self.spelling)

    @property
    def label(self) -> str:
        """Its name, else its spelling."""
        return self.name or self.spelling


def _quoted(rest: str) -> str:
    """The words of `"query words"` (spaces tidied); '' when `rest` is not that."""
    if len(rest) > 1 and rest[0] == rest[-1] == '"':
        return " ".join(rest[1:-1].split())
    return ""


def parse_source(spelling: str) -> Spec:
    """The source `spelling` names; UserError (one line) when it names none."""
    spelling = " ".join(spelling.split())
    head, colon, rest = spelling.partition(":")
    head, rest = head.lower(), rest.strip()
    if colon and head in ("openalex", "crossref") and rest.startswith('"'):
        words = _quoted(rest)
        if not words:
            raise UserError(text('{service}: takes words in quotes ({service}:"diffusion '
                                 'models"), not {rest}', service=head, rest=rest))
        kind: Kind = "openalex" if head == "openalex" else "crossref"
        return Spec(kind, words, f'{kind}:"{words}"', search=True)
    if colon and head == "crossref":
        raise UserError(text('crossref: takes words in quotes (crossref:"diffusion models"), '
                             'not {rest}', rest=rest))
    if colon and head == "arxiv" and rest:
        if words := _quoted(rest):
            return Spec("arxiv", words, f'arxiv:"{words}"')
        if _CATEGORY_RE.match(rest):
            return Spec("arxiv", rest, f"arxiv:{rest}", category=True)
        raise UserError(text('arxiv: takes a category (arxiv:cs.LG) or words in quotes '
                             '(arxiv:"diffusion models"), not {rest}', rest=rest))
    if colon and head == "issn":
        match = _ISSN_RE.match(rest)
        if match is None:
            raise UserError(text("not an ISSN: {rest} (issn:1234-5678)", rest=rest))
        issn = f"{match.group(1)}-{match.group(2).upper()}"
        return Spec("issn", issn, f"issn:{issn}")
    if colon and head == "openalex":
        match = _OPENALEX_RE.match(rest)
        if match is None:
            raise UserError(text("not an OpenAlex author id: {rest} (openalex:A5023888391)",
                                 rest=rest))
        author = match.group(1).upper()
        return Spec("openalex", author, f"openalex:{author}")
    if colon and head == "s2author":
        match = _S2_AUTHOR_RE.match(rest)
        if match is None:
            raise UserError(text("not a Semantic Scholar author id: {rest} "
                                 "(s2author:1741101)", rest=rest))
        return Spec("s2author", match.group(1), f"s2author:{match.group(1)}")
    if colon and head == "dblp":
        match = _DBLP_PID_RE.match(rest)
        if match is None:
            raise UserError(text("not a DBLP author pid: {rest} (dblp:h/GeoffreyEHinton, "
                                 "dblp:66/5765)", rest=rest))
        return Spec("dblp", match.group(1), f"dblp:{match.group(1)}")
    if head in ("http", "https") and urlsplit(spelling).hostname and " " not in spelling:
        return Spec("feed", spelling, spelling)
    raise UserError(text("not a source to follow: {spelling} (arxiv:cs.LG, "
                         'arxiv:"query words", a feed\'s https:// address, issn:1234-5678, '
                         "openalex:A5023888391, s2author:1741101, dblp:h/GeoffreyEHinton, "
                         'openalex:"query words", crossref:"query words")',
                         spelling=spelling or '""'))


def sources(ctx: Context) -> list[Source]:
    """The member's sources, in the order they were followed."""
    with ctx.read() as session:
        rows = session.execute(select(Row).where(Row.user_name == ctx.user_name)
                               .order_by(Row.id)).scalars().all()
        return [Source(r.id, r.spelling, r.kind, r.state, r.note, r.checked_at, r.etag,
                       r.last_modified, r.name) for r in rows]


def find(ctx: Context, spelling: str) -> Source:
    """The member's source spelt `spelling` (as `parse_source` spells it); UserError
    when they follow no such source."""
    wanted = parse_source(spelling).spelling
    for source in sources(ctx):
        if source.spelling == wanted:
            return source
    raise UserError(text("you follow no source {spelling}", spelling=wanted))


def follow(ctx: Context, spelling: str) -> tuple[Change, Source]:
    """Follow the source `spelling` names (checked at the next check); undo unfollows."""
    spec = parse_source(spelling)
    with ctx.write() as session:
        taken = session.scalar(select(Row.id).where(Row.user_name == ctx.user_name,
                                                    Row.spelling == spec.spelling))
        if taken is not None:
            raise UserError(text("you follow {spelling} already", spelling=spec.spelling))
        new_id = session.execute(insert(Row).values(
            user_name=ctx.user_name, spelling=spec.spelling, kind=spec.kind,
            created_at=utcnow()).returning(Row.id)).scalar_one()
        ctx.log(session, {INBOX}, [])
    description = text("Follow {spelling}", spelling=spec.spelling)
    change = Change(description, frozenset(), touched=frozenset({INBOX}),
                    undo=lambda: _put(ctx, description, {new_id: None}))
    return change, Source(new_id, spec.spelling, spec.kind, "new", "", None)


def unfollow(ctx: Context, spelling: str) -> Change:
    """Stop following a source (its items stay in the inbox, from no source); undo follows
    it again, its items its own again."""
    source = find(ctx, spelling)
    return _put(ctx, text("Unfollow {spelling}", spelling=source.spelling), {source.id: None})


def rename(ctx: Context, spelling: str, name: str) -> Change:
    """Call the member's source `spelling` `name` (spaces tidied; '' or its spelling: no
    name, shown by its spelling); undo gives it back its name."""
    source = find(ctx, spelling)
    name = " ".join(name.split())
    if name == source.spelling:
        name = ""
    description = (text("Rename {spelling} to {name}", spelling=source.spelling, name=name)
                   if name else text("Show {spelling} by its address",
                                     spelling=source.spelling))
    return _named(ctx, description, source.id, name)


def _named(ctx: Context, description: str, source_id: int, name: str) -> Change:
    with ctx.write() as session:
        was = session.scalar(select(Row.name).where(Row.id == source_id,
                                                    Row.user_name == ctx.user_name))
        if was is None:
            raise UserError(text("the source is no longer followed"))
        session.execute(update(Row).where(Row.id == source_id,
                                          Row.user_name == ctx.user_name).values(name=name))
        ctx.log(session, {INBOX}, [])
    return Change(description, frozenset(), touched=frozenset({INBOX}),
                  undo=lambda: _named(ctx, description, source_id, was))


def record_check(ctx: Context, source_id: int, values: Mapping[str, Any]) -> None:
    """Store what a check of a source found (state, note, validators, when); not an
    undo step (the next check would do it again)."""
    with ctx.write() as session:
        session.execute(update(Row).where(Row.id == source_id,
                                          Row.user_name == ctx.user_name).values(**values))


def name_unnamed(ctx: Context, source_id: int, name: str) -> None:
    """Give the member's source `name` if it has none (a feed's own title, at its first
    good check): one statement, so that a name given meanwhile by another program is
    kept; not an undo step."""
    with ctx.write() as session:
        session.execute(update(Row).where(Row.id == source_id, Row.user_name == ctx.user_name,
                                          Row.name == "").values(name=name))


def _put(ctx: Context, description: str, wanted: Mapping[int, Mapping[str, Any] | None],
         items: Mapping[int, Sequence[int]] | None = None) -> Change:
    """Put the member's sources in the `wanted` states (None: deleted; a whole row: put
    back, with its id, and its `items` with it); undo puts them back as they were."""
    with ctx.write() as session:
        found = session.execute(select(Row).where(Row.id.in_(list(wanted)),
                                                  Row.user_name == ctx.user_name))
        before = {r.id: {c: getattr(r, c) for c in _COLUMNS} for r in found.scalars()}
        had: dict[int, list[int]] = {source_id: [] for source_id in before}
        for item_id, source_id in session.execute(select(InboxItem.id, InboxItem.source_id)
                                                  .where(InboxItem.source_id.in_(list(had)))):
            if source_id is not None:
                had[source_id].append(item_id)
        for source_id, state in wanted.items():
            if state is None:
                if source_id not in before:
                    raise UserError(text("the source is no longer followed"))
                session.execute(delete(Row).where(Row.id == source_id))
            elif source_id not in before:
                session.execute(insert(Row).values(id=source_id, **state))
                session.execute(update(InboxItem).where(
                    InboxItem.user_name == ctx.user_name,
                    InboxItem.id.in_(list((items or {}).get(source_id, ()))))
                    .values(source_id=source_id))
        ctx.log(session, {INBOX}, [])
    restore = {source_id: before.get(source_id) for source_id in wanted}
    return Change(description, frozenset(), touched=frozenset({INBOX}),
                  undo=lambda: _put(ctx, description, restore, had))
