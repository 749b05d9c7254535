"""Saved searches ("smart lists"): a query of the search language under a name.

The sidebar lists the member's own saved searches and the shared ones (on a shared
library, `shared` ones are every member's to see, and only their owner's to change: the
database's row-level security says so too), in their `position` order, each with the
number of papers its query finds. Every change is one transaction that puts rows in a
state, and returns a `Change` whose undo puts them back as they were (same ids), as
core.edits does for papers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from papershelf.core import query, views
from papershelf.core.context import Context
from papershelf.core.edits import SAVED, Change
from papershelf.core.models import SavedSearch as Row
from papershelf.core.models import utcnow
from papershelf.core.shapes import View
from papershelf.errors import UserError
from papershelf.messages import text

_COLUMNS = ("user_name", "name", "query", "position", "shared", "created_at")
NAME_LENGTH = 255  # (models.SavedSearch.name)
State = Mapping[str, Any] | None  # a row's columns, or None: no such row


@dataclass(frozen=True)
class SavedSearch:
    """A saved search as the sidebar shows it."""

    id: int
    name: str
    query: str
    position: int
    shared: bool
    created_at: datetime
    owner: str = ""  # (its member's user name)


def saved_searches(ctx: Context) -> list[SavedSearch]:
    """The member's own saved searches and the shared ones, in the sidebar's order."""
    with ctx.read() as session:
        rows = session.execute(_visible(ctx, select(Row))).scalars().all()
        return [SavedSearch(r.id, r.name, r.query, r.position, r.shared, r.created_at,
                            r.user_name) for r in rows]


def saved_counts(ctx: Context) -> dict[int, int]:
    """How many papers each saved search finds, by its id."""
    return {s.id: views.count(ctx, View(search=s.query)) for s in saved_searches(ctx)}


def add(ctx: Context, name: str, query_text: str, shared: bool = False) -> Change:
    """Save `query_text` under `name`, last in the sidebar; undo deletes it."""
    name, query_text = _clean_name(name), _clean_query(query_text)
    with ctx.write() as session:
        _check_free(ctx, session, name)
        last = session.scalar(_visible(ctx, select(func.max(Row.position)), ordered=False))
        new_id = session.execute(insert(Row).values(
            user_name=ctx.user_name, name=name, query=query_text, shared=shared,
            position=0 if last is None else last + 1, created_at=utcnow(),
        ).returning(Row.id)).scalar_one()
        ctx.log(session, {SAVED}, [])
    description = text("Save search {name}", name=name)
    return Change(description, frozenset(), touched=frozenset({SAVED}),
                  undo=lambda: _put(ctx, description, {new_id: None}))


def rename(ctx: Context, search_id: int, name: str) -> Change:
    """Give a saved search another name (unique among the member's, ignoring case)."""
    name = _clean_name(name)
    return _put(ctx, text("Rename saved search {name}", name=name), {search_id: {"name": name}},
                lambda session: _check_free(ctx, session, name, search_id))


def edit(ctx: Context, search_id: int, query_text: str) -> Change:
    """Give a saved search another query."""
    query_text = _clean_query(query_text)
    return _put(ctx, text("Edit saved search"), {search_id: {"query": query_text}})


def move(ctx: Context, search_id: int, position: int) -> Change:
    """Move a saved search to `position` (0: first) of the sidebar's list (the others'
    shared searches keep theirs: only the member's own are renumbered)."""
    listed = saved_searches(ctx)
    order = [s.id for s in listed]
    if search_id not in order:
        raise UserError(text("the saved search no longer exists"))
    order.remove(search_id)
    order.insert(max(0, min(position, len(order))), search_id)
    own = {s.id for s in listed if s.owner == ctx.user_name} | {search_id}
    return _put(ctx, text("Move saved search"),
                {sid: {"position": i} for i, sid in enumerate(order) if sid in own})


def remove(ctx: Context, search_id: int) -> Change:
    """Delete a saved search; undo brings it back."""
    return _put(ctx, text("Delete saved search"), {search_id: None})


def _put(ctx: Context, description: str, wanted: Mapping[int, State],
         check: Callable[[Session], None] | None = None) -> Change:
    """Put saved searches in the `wanted` states (a dict: these columns changed; None:
    deleted; a whole row: put back), in one transaction after `check(session)`; undo puts
    them back as they were. A row to change or delete that is gone, or another member's,
    is a UserError."""
    with ctx.write() as session:
        if check is not None:
            check(session)
        found = session.execute(_visible(ctx, select(Row).where(Row.id.in_(list(wanted)))))
        before: dict[int, State] = {
            r.id: {c: getattr(r, c) for c in _COLUMNS} for r in found.scalars()}
        for sid, state in wanted.items():
            if sid not in before and (state is None or set(state) < set(_COLUMNS)):
                raise UserError(text("the saved search no longer exists"))
            row = before.get(sid)
            if row is not None and row["user_name"] != ctx.user_name:
                raise UserError(text("the saved search '{name}' is {owner}'s: only they can "
                                     "change it", name=row["name"], owner=row["user_name"]))
            if state is None:
                session.execute(delete(Row).where(Row.id == sid))
            elif sid in before:
                session.execute(update(Row).where(Row.id == sid).values(**state))
            else:
                session.execute(insert(Row).values(id=sid, **state))
        ctx.log(session, {SAVED}, [])
    restore = {sid: before.get(sid) for sid in wanted}
    return Change(description, frozenset(), touched=frozenset({SAVED}),
                  undo=lambda: _put(ctx, description, restore))


def _visible(ctx: Context, statement: Any, ordered: bool = True) -> Any:
    """`statement` kept to the member's own saved searches and the shared ones."""
    statement = statement.where(or_(Row.user_name == ctx.user_name, Row.shared))
    return statement.order_by(Row.position, Row.id) if ordered else statement


def _check_free(ctx: Context, session: Session, name: str, search_id: int | None = None
                ) -> None:
    """UserError if the member already sees a saved search of this name (not `search_id`)."""
    taken = session.scalar(_visible(ctx, select(Row.id), ordered=False).where(
        func.lower(Row.name) == name.lower(), Row.id != (search_id or -1)))
    if taken is not None:
        raise UserError(text("there is already a saved search named '{name}'", name=name))


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise UserError(text("a saved search needs a name"))
    if len(name) > NAME_LENGTH:
        raise UserError(text("a saved search's name has at most {longest} characters",
                             longest=NAME_LENGTH))
    return name


def _clean_query(query_text: str) -> str:
    query_text = query_text.strip()
    if isinstance(query.parse(query_text), query.Everything):
        raise UserError(text("a saved search needs a query (words, or fields such as "
                             "tag:reading)"))
    return query_text
