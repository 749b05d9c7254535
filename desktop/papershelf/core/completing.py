"""Completing a paper from a record found for it (a catalog's, a service's): the
import's merge (`importing.merge_into`) as one undoable edit of its own.

Undo puts back exactly what the merge may change (the paper's record columns, its
texts, its authors) and nothing else, so every user's star, read state and notes, and
edits made to other fields since, stay as they are (restoring the whole paper, as the
undo of a delete does, would drop other users' rows on a shared library).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from papershelf.core import fields
from papershelf.core.context import Context
from papershelf.core.edits import TITLE, Change
from papershelf.core.errors import UserError
from papershelf.core.importing import merge_into
from papershelf.core.models import Paper, PaperAuthor, utcnow
from papershelf.formats.records import PaperRecord


def complete_paper(ctx: Context, paper_id: int, record: PaperRecord, description: str,
                   version: int | None) -> Change:
    """Merge `record` into the paper (if it is still at `version`, when given), in one
    transaction; the Change's undo puts back what the merge changed and returns the
    redo."""
    with ctx.write() as session:
        paper = session.get(Paper, paper_id, with_for_update=True)
        if paper is None:
            raise UserError("the paper to complete no longer exists")
        if version is not None and paper.version != version:
            raise UserError(f"{paper.key} changed since it was looked up; look it up again")
        before = _stored(paper)
        filled = merge_into(session, paper_id, record)
        if filled:
            ctx.log(session, {TITLE}, [paper_id])
    if not filled:
        return Change(description, frozenset(), touched=frozenset({TITLE}))

    def undo() -> Change:
        _put_back(ctx, paper_id, before)
        return Change(description, frozenset({paper_id}), touched=frozenset({TITLE}),
                      undo=lambda: complete_paper(ctx, paper_id, record, description, None))

    return Change(description, frozenset({paper_id}), undo=undo, touched=frozenset({TITLE}))


# What `merge_into` may change of a paper: columns of `papers` (with the ones derived
# from them), of `paper_texts`, and the authors. Undo puts exactly these back, so the
# paper's other data and every user's star, read state and notes stay as they are.
_MERGED_COLUMNS = ("entry_type", "title", "title_provisional", "title_norm", "authors_text",
                   "authors_sort", "abstract_hash",
                   *(f.column for f in fields.COMPLETED if f.column))
_MERGED_TEXTS = ("abstract", "bib_fields", "bib_extra")


@dataclass(frozen=True)
class _Stored:
    """A paper's values of what a merge may change, as stored."""

    columns: dict[str, Any]
    texts: dict[str, Any] | None
    authors: tuple[tuple[str, str], ...]


def _stored(paper: Paper) -> _Stored:
    texts = None
    if paper.texts is not None:
        texts = {name: copy.deepcopy(getattr(paper.texts, name)) for name in _MERGED_TEXTS}
    return _Stored({name: getattr(paper, name) for name in _MERGED_COLUMNS}, texts,
                   tuple((a.family, a.given) for a in paper.authors))


def _put_back(ctx: Context, paper_id: int, before: _Stored) -> None:
    """Give the paper the values `before` holds again (a new version of it)."""
    with ctx.write() as session:
        paper = session.get(Paper, paper_id, with_for_update=True)
        if paper is None:
            raise UserError("the completed paper no longer exists")
        for name, value in before.columns.items():
            setattr(paper, name, value)
        if before.texts is not None and paper.texts is not None:
            for name, value in before.texts.items():
                setattr(paper.texts, name, copy.deepcopy(value))
        elif paper.texts is not None:  # (the merge gave it its texts row)
            paper.texts.abstract, paper.texts.bib_fields, paper.texts.bib_extra = "", {}, None
        if [(a.family, a.given) for a in paper.authors] != list(before.authors):
            paper.authors = [PaperAuthor(position=n, family=family, given=given)
                             for n, (family, given) in enumerate(before.authors)]
        paper.modified_at = utcnow()
        paper.version += 1
        ctx.log(session, {TITLE}, [paper_id])
