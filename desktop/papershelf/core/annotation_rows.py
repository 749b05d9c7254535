"""The rows of annotations as whole values: read before papers are deleted and put
back by the undo (core.edits), and kept to what the member may see (their own and the
shared ones; on a shared library the server's row-level security says so too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.orm import Session

from papershelf.core.context import Context
from papershelf.core.models import Annotation as Row
from papershelf.core.store import chunks

COLUMNS = ("paper_id", "user_name", "shared", "file_sha256", "page_index", "page_label",
           "kind", "color", "rects", "quote", "comment", "search_text", "image", "origin",
           "source_id", "created_at", "modified_at")


def visible(ctx: Context, statement: Any) -> Any:
    """`statement` kept to the member's own annotations and the shared ones."""
    return statement.where(or_(Row.user_name == ctx.user_name, Row.shared))


def snapshot(ctx: Context, session: Session, paper_ids: Sequence[int]
             ) -> list[dict[str, Any]]:
    """Every column of the annotations the member sees on these papers, to `put_back`
    (deleting a paper and undoing it)."""
    rows: list[dict[str, Any]] = []
    for chunk in chunks(list(paper_ids)):
        rows.extend(dict(row._mapping) for row in session.execute(visible(ctx, select(
            Row.id, *[getattr(Row, c) for c in COLUMNS])).where(Row.paper_id.in_(chunk))))
    return rows


def put_back(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    """Put annotation rows back as `snapshot` read them: inserted, or where one is there
    again (a shared library's trigger brought it back with its paper, maybe onto the
    paper a merge kept) set to what it was."""
    if not rows:
        return
    there = {aid for chunk in chunks([r["id"] for r in rows])
             for aid in session.scalars(select(Row.id).where(Row.id.in_(chunk)))}
    for row in rows:
        if row["id"] in there:
            values = {k: v for k, v in row.items() if k != "id"}
            session.execute(update(Row).where(Row.id == row["id"]).values(**values))
        else:
            session.execute(insert(Row).values(**row))
