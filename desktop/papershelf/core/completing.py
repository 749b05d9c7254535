"""Completing a paper from a record found for it (a catalog's, a service's): the
import's merge (`importing.merge_into`) as one undoable edit of its own.

Undo puts back exactly what the merge may change (the paper's record columns, its
texts, its authors) and nothing else, so every user's star, read state and notes, and
edits made to other fields since, stay as they are (restoring the whole paper, as the
undo of a delete does, would drop other users' rows on a shared library).

`list_runs` tells which papers to be completed came from one list, in its order, and
which papers stand around them there: where a paper sits in its list helps find it in a
catalog listed in the same order (`metadata.catalog.CatalogStore.search_many`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Protocol

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from papershelf.core.context import Context
from papershelf.core.edits import BIB_FIELDS, Change, hold_for_undo
from papershelf.core.importing import Stored, merge_into, put_back, stored
from papershelf.core.models import Paper
from papershelf.core.store import chunks
from papershelf.errors import UserError
from papershelf.formats.records import PaperRecord


class _Opened(Protocol):
    """What `list_runs` reads through: a library (core.library.Library), which this
    module does not import (the library imports it)."""

    engine: Engine


def list_runs(library: _Opened, ids: Sequence[int], around: int) -> list[list[int]]:
    """The papers of `ids` in runs of the lists they came from, each run a stretch of
    one import's papers in the order of its file (an import adds a file's papers in
    its order, so in increasing ids): the papers of `ids` in it and the papers of the
    import between them and up to `around` on each side of each (not asked for: they
    tell where the others sit). A stretch ends where the import's next paper is more
    than `around` from every paper of `ids`. A paper of `ids` that no import added (or
    whose import was forgotten, or that no longer exists) is a run of its own. Every
    paper of `ids` is in one run; the runs come in the order of their first paper in
    `ids`."""
    wanted = list(dict.fromkeys(ids))
    with Session(library.engine) as session:
        imported: dict[int, int] = {}
        for chunk in chunks(wanted):
            for pid, batch in session.execute(select(Paper.id, Paper.import_id)
                                              .where(Paper.id.in_(chunk))):
                if batch is not None:
                    imported[pid] = batch
        by_import: dict[int, list[int]] = defaultdict(list)
        for pid in wanted:
            if pid in imported:
                by_import[imported[pid]].append(pid)
        listed = {batch: _listed(session, batch, min(asked), max(asked), around)
                  for batch, asked in by_import.items()}
    runs = [[pid] for pid in wanted if pid not in imported]
    for batch, asked in by_import.items():
        runs += _stretches(listed[batch], set(asked), around)
    first = {pid: n for n, pid in enumerate(wanted)}
    return sorted(runs, key=lambda run: min(first.get(pid, len(first)) for pid in run))


def _listed(session: Session, batch: int, low: int, high: int, around: int) -> list[int]:
    """The ids of the import `batch`'s papers from `around` before the id `low` to
    `around` after the id `high`, in order."""
    of_batch = select(Paper.id).where(Paper.import_id == batch)
    before = session.scalars(of_batch.where(Paper.id < low)
                             .order_by(Paper.id.desc()).limit(around)).all()
    between = session.scalars(of_batch.where(Paper.id.between(low, high))
                              .order_by(Paper.id)).all()
    after = session.scalars(of_batch.where(Paper.id > high)
                            .order_by(Paper.id).limit(around)).all()
    return [*reversed(before), *between, *after]


def _stretches(listed: list[int], asked: set[int], around: int) -> list[list[int]]:
    """The stretches of `listed` within `around` of a paper of `asked`."""
    near = [False] * len(listed)
    for n, pid in enumerate(listed):
        if pid in asked:
            for m in range(max(0, n - around), min(len(listed), n + around + 1)):
                near[m] = True
    runs: list[list[int]] = []
    for n, pid in enumerate(listed):
        if near[n]:
            if n and near[n - 1]:
                runs[-1].append(pid)
            else:
                runs.append([pid])
    return runs


def complete_paper(ctx: Context, paper_id: int, record: PaperRecord, description: str,
                   version: int | None, *, expected: Stored | None = None) -> Change:
    """Merge `record` into the paper (if it is still at `version`, when given), in one
    transaction; the Change's undo puts back what the merge changed and returns the
    redo. Neither undoes a later change someone else made to what the merge changed:
    the undo (and a redo, given the values its undo left as `expected`) then leaves the
    paper as it is (`Change.skipped`)."""
    with ctx.write() as session:
        if expected is not None:
            hold_for_undo(ctx, session, [paper_id])
        paper = session.get(Paper, paper_id, with_for_update=True)
        if paper is None:
            raise UserError("the paper to complete no longer exists")
        if expected is not None and stored(paper) != expected:
            return Change(description, frozenset(), touched=frozenset({BIB_FIELDS}), skipped=1)
        if version is not None and paper.version != version:
            raise UserError(f"{paper.key} changed since it was looked up; look it up again")
        before = stored(paper)
        filled = merge_into(session, paper_id, record)
        if filled:
            ctx.log(session, {BIB_FIELDS}, [paper_id])
            after = _as_written(session, paper_id)
    if not filled:
        return Change(description, frozenset(), touched=frozenset({BIB_FIELDS}))

    def undo() -> Change:
        with ctx.write() as session:
            hold_for_undo(ctx, session, [paper_id])
            paper = session.get(Paper, paper_id)
            if paper is not None and stored(paper) != after:  # (changed since, elsewhere)
                return Change(description, frozenset(), touched=frozenset({BIB_FIELDS}),
                              skipped=1)
            if not put_back(session, paper_id, before):
                raise UserError("the completed paper no longer exists")
            ctx.log(session, {BIB_FIELDS}, [paper_id])
            undone = _as_written(session, paper_id)
        return Change(description, frozenset({paper_id}), touched=frozenset({BIB_FIELDS}),
                      undo=lambda: complete_paper(ctx, paper_id, record, description, None,
                                                  expected=undone))

    return Change(description, frozenset({paper_id}), undo=undo, touched=frozenset({BIB_FIELDS}))


def _as_written(session: Session, paper_id: int) -> Stored:
    """What the transaction leaves of the paper, read back as it is stored (as the
    undo will read it)."""
    session.flush()
    session.expire_all()
    paper = session.get(Paper, paper_id)
    assert paper is not None
    return stored(paper)


