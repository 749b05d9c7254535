"""Duplicates already in the library: finding the pairs, and merging two papers into one.

An import merges an entry into the paper it is as it goes (`core.importing`); pairs
that only look alike (the same title under two citation keys, papers from before a
rule existed) stay apart until the user merges them here, undoably.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update

from papershelf.core import annotation_rows, edits, files, progress_rows, views
from papershelf.core.context import Context
from papershelf.core.edits import Change
from papershelf.core.importing import merge_into
from papershelf.core.models import Annotation, Paper, PaperFile, utcnow
from papershelf.core.views import READ_STATES
from papershelf.errors import UserError
from papershelf.messages import text


@dataclass(frozen=True)
class DuplicatePair:
    """Two papers that look like one: the older (kept by default), the newer, and why."""

    keep_id: int
    other_id: int
    reason: str


def find_duplicates(ctx: Context, limit: int = 1000) -> list[DuplicatePair]:
    """Pairs of papers that look like the same paper: same DOI, same real title
    (ignoring case, accents and punctuation) or the same abstract."""
    pairs: dict[tuple[int, int], str] = {}
    checks = (
        (func.lower(Paper.doi), "same DOI"),
        (Paper.title_norm, "same title"),
        (Paper.abstract_hash, "same abstract"),
    )
    with ctx.read() as session:
        for column, reason in checks:
            repeated = (
                select(column).where(column.is_not(None), column != "")
                .group_by(column).having(func.count(Paper.id) > 1).limit(limit)
            )
            first: dict[Any, int] = {}
            for value, pid in session.execute(
                select(column, Paper.id).where(column.in_(repeated))
                .order_by(column, Paper.id)
            ):
                if value not in first:
                    first[value] = pid
                else:
                    pairs.setdefault((first[value], pid), reason)
    return [DuplicatePair(a, b, reason) for (a, b), reason in sorted(pairs.items())][:limit]


def merge_papers(ctx: Context, keep_id: int, other_id: int) -> Change:
    """Fold `other` into `keep` and delete it; undo puts both back as they were.

    `keep` keeps its key; empty fields are filled from `other`, a provisional title is
    replaced by a real one, notes are joined, stars, tags and attached files combined,
    and the read state is the further along of the two: on a shared library for every
    member, each their own (the others' through `Store.fold_others_personal`).
    """
    if keep_id == other_id:
        raise UserError("a paper cannot be merged with itself")
    snapshot = views.details(ctx, [keep_id, other_id])
    if len(snapshot) != 2:
        raise UserError("one of the papers to merge no longer exists")
    keep, other = snapshot
    with ctx.write() as session:
        attached = files.snapshot(session, [keep_id, other_id])
        marks = annotation_rows.snapshot(ctx, session, [keep_id, other_id])
        places = progress_rows.snapshot(ctx, session, [keep_id, other_id])
        merge_into(session, keep_id, other.record, leaving=other_id)
        paper = session.get(Paper, keep_id)
        assert paper is not None
        if other.record.notes.strip() and other.record.notes != paper.notes:
            paper.notes = (paper.notes.rstrip() + "\n\n" + other.record.notes).strip()
        paper.modified_at = utcnow()
        paper.version += 1
        mine: dict[str, Any] = {"starred": keep.starred or other.starred}
        order = list(READ_STATES)
        if order.index(other.read_state) > order.index(keep.read_state):
            mine.update(read_state=other.read_state, read_at=other.read_at)
        if other.private_notes.strip() and other.private_notes != keep.private_notes:
            mine["private_notes"] = (keep.private_notes.rstrip() + "\n\n"
                                     + other.private_notes).strip()
        mine |= progress_rows.newer(places.get(keep_id), places.get(other_id)) or {}
        session.flush()
        ctx.store.set_personal(session, [keep_id], mine)
        session.execute(update(PaperFile).where(PaperFile.paper_id == other_id)
                        .values(paper_id=keep_id))
        session.execute(update(Annotation).where(Annotation.paper_id == other_id)
                        .values(paper_id=keep_id))
        ctx.store.fold_others_personal(session, other_id, keep_id)
        ctx.store.keep_others_personal(session, [other_id])
        deletion = ctx.store.deletion(session)
        session.execute(delete(Paper).where(Paper.id == other_id))
        session.flush()
        tags = sorted(set(keep.record.tags) | set(other.record.tags))
        edits.write_tags(ctx, session, {keep_id: tags})
        ctx.log(session, {edits.PAPERS}, [keep_id, other_id], structural=True)

    def undo() -> Change:
        edits.restore(ctx, snapshot, attached, marks, deletion, replacing=True,
                      places=places)
        return Change(text("Restore merged papers"), frozenset((keep_id, other_id)),
                      structural=True, undo=lambda: merge_papers(ctx, keep_id, other_id))

    return Change(text("Merge {other} into {keep}", other=other.key, keep=keep.key),
                  frozenset((keep_id, other_id)), structural=True, undo=undo)
