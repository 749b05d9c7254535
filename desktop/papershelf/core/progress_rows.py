"""The member's reading progress of papers as whole values (core.progress's columns of
`personal`): read before papers are deleted or merged and put back by the undo
(core.edits), as annotation_rows does for annotations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from papershelf.core.context import Context
from papershelf.core.models import Personal
from papershelf.core.store import chunks

COLUMNS = ("last_page", "last_position", "page_count", "last_read_at")


def snapshot(ctx: Context, session: Session, paper_ids: Sequence[int]
             ) -> dict[int, dict[str, Any]]:
    """The member's own progress in each of these papers that has any, by paper."""
    found: dict[int, dict[str, Any]] = {}
    columns = [getattr(Personal, c) for c in COLUMNS]
    for chunk in chunks(list(paper_ids)):
        for row in session.execute(select(Personal.paper_id, *columns).where(
                Personal.user_name == ctx.user_name, Personal.paper_id.in_(chunk),
                or_(*(c.is_not(None) for c in columns)))):
            found[row[0]] = dict(zip(COLUMNS, row[1:], strict=True))
    return found


def put_back(ctx: Context, session: Session, rows: dict[int, dict[str, Any]]) -> None:
    """The member's progress of papers (now there again) set as `snapshot` read it."""
    for paper_id, values in rows.items():
        ctx.store.set_personal(session, [paper_id], values)


def newer(keep: dict[str, Any] | None, other: dict[str, Any] | None) -> dict[str, Any] | None:
    """Of two papers' progress (a merge), the one read last: the place the reader was
    in most recently; None when that is `keep`'s own (nothing to change)."""
    if other is None or other.get("last_read_at") is None:
        return None
    if keep is not None and keep.get("last_read_at") is not None \
            and keep["last_read_at"] >= other["last_read_at"]:
        return None
    return other
