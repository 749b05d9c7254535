"""Reading progress: where the user is in each paper's PDF, and when they last read it.

The page (from 0), how far down it (0 to 1), the page count and the time are the user's
own, in their row of `personal` (schema 0017): on a shared library no other member sees
them (row-level security, as for stars and private notes). Saving a position is not an
edit to undo: it touches PROGRESS, which only the user's own views hear of. Opening a
paper to read it marks an unread paper "reading" (an undoable edit, `opened`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from papershelf.core.context import Context
from papershelf.core.edits import Change, set_read_state
from papershelf.core.models import Personal, ReadState, utcnow
from papershelf.core.shapes import PROGRESS


@dataclass(frozen=True)
class Position:
    """Where the user is in a paper's PDF: `page` from 0, `offset` how far down it
    (0: its top, 1: its bottom), of `page_count` pages, last read at `read_at`."""

    page: int
    offset: float = 0.0
    page_count: int | None = None
    read_at: datetime | None = None


def position(ctx: Context, paper_id: int) -> Position | None:
    """Where the user left the paper, or None if they never read in it here."""
    with ctx.read() as session:
        row = session.execute(
            select(Personal.last_page, Personal.last_position, Personal.page_count,
                   Personal.last_read_at)
            .where(Personal.paper_id == paper_id, Personal.user_name == ctx.user_name)
        ).first()
    if row is None or row.last_page is None:
        return None
    return Position(int(row.last_page), float(row.last_position or 0.0), row.page_count,
                    row.last_read_at)


def save_position(ctx: Context, paper_id: int, where: Position) -> Change:
    """Remember where the user is in a paper (now, unless `where` says when); nothing
    to undo. A page or offset out of range is brought into it."""
    page = max(0, where.page)
    count = where.page_count if where.page_count and where.page_count > 0 else None
    if count is not None:
        page = min(page, count - 1)
    values = {"last_page": page, "last_position": min(1.0, max(0.0, float(where.offset))),
              "page_count": count, "last_read_at": where.read_at or utcnow()}
    with ctx.write() as session:
        for id_set in ctx.store.id_sets(session, [paper_id]):
            ctx.store.set_personal(session, id_set, values)
        ctx.log(session, {PROGRESS}, [paper_id])
    return Change("", frozenset({paper_id}), touched=frozenset({PROGRESS}))


def opened(ctx: Context, paper_id: int, mark_reading: bool = True) -> Change:
    """The user opened a paper's PDF to read it: it is read now (its place kept, the
    first page if it had none), in one write that reads nothing first, so a place
    another program saves meanwhile stays; an unread paper becomes "reading" if
    `mark_reading` (undoable, as marking it so)."""
    with ctx.write() as session:
        placed = session.scalar(select(Personal.last_page).where(
            Personal.paper_id == paper_id, Personal.user_name == ctx.user_name))
        values: dict[str, object] = {"last_read_at": utcnow()}
        if placed is None:
            values |= {"last_page": 0, "last_position": 0.0}
        for id_set in ctx.store.id_sets(session, [paper_id]):
            ctx.store.set_personal(session, id_set, values)
        ctx.log(session, {PROGRESS}, [paper_id])
    if not mark_reading:
        return Change("", frozenset({paper_id}), touched=frozenset({PROGRESS}))
    with ctx.read() as session:
        state = session.scalar(select(Personal.read_state).where(
            Personal.paper_id == paper_id, Personal.user_name == ctx.user_name))
    if state not in (None, ReadState.UNREAD.value):
        return Change("", frozenset({paper_id}), touched=frozenset({PROGRESS}))
    change = set_read_state(ctx, [paper_id], ReadState.READING.value)
    change.touched = change.touched | {PROGRESS}
    return change
