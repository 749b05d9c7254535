"""Annotations: the marks a reader makes on a paper's PDF, kept in the library.

A highlight (underline, strike-out, squiggle) holds the quote it covers and its
rectangles on the page; a sticky note holds a point and a comment; a rectangle holds
the image of what it frames. Each is one member's, private unless they share it (on a
shared library the server's row-level security keeps a private one to its member,
core.store.pg_members). Every change is one transaction that puts rows in a state and
returns a `Change` whose undo puts them back as they were (same ids), as core.saved does
for saved searches. Annotations read from a PDF file are imported once: each keeps the
name it has in the file (`source_id`), and reading the file again skips those.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from papershelf.core import shapes
from papershelf.core.annotation_rows import COLUMNS as _COLUMNS
from papershelf.core.annotation_rows import visible as _visible
from papershelf.core.context import Context
from papershelf.core.edits import Change
from papershelf.core.models import Annotation as Row
from papershelf.core.models import Paper, utcnow
from papershelf.core.query import words
from papershelf.core.store import chunks
from papershelf.errors import UserError
from papershelf.messages import plural, text

# What a change of annotations touches (`Change.touched`): everyone's shared ones, or
# only the member's own private ones (core.context.PERSONAL_TOUCHES).
ANNOTATIONS, PRIVATE_ANNOTATIONS = shapes.ANNOTATIONS, shapes.PRIVATE_ANNOTATIONS
KINDS = ("highlight", "underline", "strikeout", "squiggly", "note", "text", "rectangle")
MARKS = ("highlight", "underline", "strikeout", "squiggly")  # (of a quote)
COMMENT_MAX = 100_000
QUOTE_MAX = 20_000
State = Mapping[str, Any] | None  # a row's columns, or None: no such row

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Annotation:
    """An annotation as the reader, the detail pane and the command line show it."""

    id: int
    paper_id: int
    kind: str
    page_index: int
    page_label: str
    rects: tuple[Rect, ...]
    quote: str
    comment: str
    color: str
    shared: bool
    owner: str
    origin: str
    file_sha256: str
    created_at: datetime
    modified_at: datetime
    has_image: bool = False
    source_id: str | None = field(default=None, compare=False)

    @property
    def top(self) -> float:
        """How high on its page it begins (PDF points from the bottom)."""
        return max((r[3] for r in self.rects), default=0.0)

    @property
    def left(self) -> float:
        return min((r[0] for r in self.rects), default=0.0)


@dataclass(frozen=True)
class New:
    """An annotation to add."""

    kind: str
    page_index: int
    page_label: str = ""
    rects: Sequence[Rect] = ()
    quote: str = ""
    comment: str = ""
    color: str = "#ffd400"
    shared: bool = False
    file_sha256: str = ""
    image: bytes | None = None
    origin: str = "app"
    source_id: str | None = None
    created_at: datetime | None = None


def reading_order(found: Iterable[Annotation]) -> list[Annotation]:
    """Annotations as a reader meets them: page by page, top to bottom, then left to
    right (two columns: the left one first, `column_split` points across)."""
    return sorted(found, key=lambda a: (a.page_index, a.left >= _COLUMN_SPLIT, -a.top,
                                        a.left, a.id))


_COLUMN_SPLIT = 306.0  # (half a US letter / A4 page's width, in points)


def annotations_of(ctx: Context, paper_ids: Sequence[int]) -> dict[int, list[Annotation]]:
    """The annotations the member sees (their own and the shared ones) of each paper,
    in reading order."""
    found: dict[int, list[Annotation]] = {}
    columns = [getattr(Row, c) for c in _COLUMNS if c != "image"]
    with ctx.read() as session:
        for chunk in chunks(list(paper_ids)):
            rows = session.execute(_visible(ctx, select(
                Row.id, *columns, Row.image.is_not(None)).where(Row.paper_id.in_(chunk))))
            for row in rows:
                values = dict(zip(("id", *[c for c in _COLUMNS if c != "image"], "has"),
                                  row, strict=True))
                found.setdefault(values["paper_id"], []).append(_shown(values))
    return {pid: reading_order(items) for pid, items in found.items()}


def annotation(ctx: Context, annotation_id: int) -> Annotation | None:
    with ctx.read() as session:
        paper_id = session.scalar(_visible(ctx, select(Row.paper_id)
                                           .where(Row.id == annotation_id)))
    if paper_id is None:
        return None
    return next((a for a in annotations_of(ctx, [paper_id])[paper_id]
                 if a.id == annotation_id), None)


def image_of(ctx: Context, annotation_id: int) -> bytes | None:
    """A rectangle's image (PNG), if the member sees it."""
    with ctx.read() as session:
        image = session.scalar(_visible(ctx, select(Row.image)
                                        .where(Row.id == annotation_id)))
    return bytes(image) if image is not None else None


def count_by_paper(ctx: Context, paper_ids: Sequence[int]) -> dict[int, int]:
    return {pid: len(items) for pid, items in annotations_of(ctx, paper_ids).items()}


def _shown(values: Mapping[str, Any]) -> Annotation:
    rects = tuple(tuple(float(v) for v in r) for r in values["rects"] or ()
                  if isinstance(r, list | tuple) and len(r) == 4)
    return Annotation(
        values["id"], values["paper_id"], values["kind"], values["page_index"],
        values["page_label"] or str(values["page_index"] + 1), rects,  # type: ignore[arg-type]
        values["quote"], values["comment"], values["color"], values["shared"],
        values["user_name"], values["origin"], values["file_sha256"], values["created_at"],
        values["modified_at"], bool(values.get("has")), values["source_id"])


def _checked(new: New) -> dict[str, Any]:
    if new.kind not in KINDS:
        raise UserError(text("'{kind}' is no kind of annotation (one of {kinds})",
                             kind=new.kind, kinds=", ".join(KINDS)))
    if new.page_index < 0:
        raise UserError(text("an annotation needs a page"))
    if new.kind in MARKS and not new.rects:
        raise UserError(text("a highlight needs the text it covers"))
    if len(new.comment) > COMMENT_MAX:
        raise UserError(text("a comment has at most {longest} characters",
                             longest=COMMENT_MAX))
    now = utcnow()
    quote = " ".join(new.quote.split())[:QUOTE_MAX]
    return {"kind": new.kind, "page_index": new.page_index,
            "page_label": (new.page_label or str(new.page_index + 1))[:64],
            "rects": [[round(float(v), 2) for v in r] for r in new.rects],
            "quote": quote, "comment": new.comment,
            "search_text": search_text(quote, new.comment),
            "color": _color(new.color), "shared": new.shared,
            "file_sha256": new.file_sha256, "image": new.image, "origin": new.origin,
            "source_id": new.source_id, "created_at": new.created_at or now,
            "modified_at": now}


COLORS = {"yellow": "#ffd400", "red": "#ff6666", "green": "#5fb236", "blue": "#2ea8e5",
          "purple": "#a28ae5"}


def _color(color: str) -> str:
    value = COLORS.get(color.strip().lower(), color.strip().lower())
    hexdigits = value.removeprefix("#")
    if len(hexdigits) != 6 or any(c not in "0123456789abcdef" for c in hexdigits):
        raise UserError(text("'{color}' is not a colour (one of {names}, or #rrggbb)",
                             color=color, names=", ".join(COLORS)))
    return "#" + hexdigits


def search_text(quote: str, comment: str) -> str:
    """What `ann:` searches of an annotation: the words of its quote, then of its comment,
    as the search language reads them (lower case, accents off), each with a space on
    both sides and a `|` between the two, so that a phrase is ` w1 w2 ` in it and never
    runs from the quote into the comment (core.querysql)."""
    return f" {' '.join(words(quote))} | {' '.join(words(comment))} "


def add(ctx: Context, paper_id: int, new: New) -> tuple[Change, int]:
    """Add one annotation to a paper; undo deletes it."""
    change, ids = add_each(ctx, paper_id, [new], text("Add annotation"))
    return change, ids[0]


def add_each(ctx: Context, paper_id: int, items: Sequence[New], description: str
             ) -> tuple[Change, list[int]]:
    """Add annotations to a paper in one transaction (those whose `source_id` the member
    already has are skipped); the ids of those added. Undo deletes them."""
    values = [_checked(new) for new in items]
    with ctx.write() as session:
        if session.scalar(select(Paper.id).where(Paper.id == paper_id)) is None:
            raise UserError(text("the paper no longer exists"))
        known = set(session.scalars(select(Row.source_id).where(
            Row.paper_id == paper_id, Row.user_name == ctx.user_name,
            Row.source_id.is_not(None))))
        ids = []
        for value in values:
            if value["source_id"] is not None:
                if value["source_id"] in known:
                    continue
                known.add(value["source_id"])
            ids.append(session.execute(insert(Row).values(
                paper_id=paper_id, user_name=ctx.user_name, **value).returning(Row.id)
            ).scalar_one())
        touched = _touches(v["shared"] for v in values)
        if ids:
            ctx.log(session, touched, [paper_id])
    if not ids:
        return Change(description, frozenset(), touched=touched), ids
    return Change(description, frozenset({paper_id}), touched=touched,
                  undo=lambda: _put(ctx, description, dict.fromkeys(ids))), ids


def edit(ctx: Context, annotation_id: int, *, comment: str | None = None,
         color: str | None = None, shared: bool | None = None,
         page_label: str | None = None) -> Change:
    """Change an annotation's comment, colour or sharing; undo puts it back."""
    values: dict[str, Any] = {}
    if comment is not None:
        if len(comment) > COMMENT_MAX:
            raise UserError(text("a comment has at most {longest} characters",
                                 longest=COMMENT_MAX))
        values["comment"] = comment
        current = annotation(ctx, annotation_id)
        if current is not None:
            values["search_text"] = search_text(current.quote, comment)
    if color is not None:
        values["color"] = _color(color)
    if shared is not None:
        values["shared"] = shared
    if page_label is not None:
        values["page_label"] = page_label[:64]
    if not values:
        return Change(text("Edit annotation"), frozenset())
    values["modified_at"] = utcnow()
    return _put(ctx, text("Edit annotation"), {annotation_id: values})


def remove(ctx: Context, annotation_ids: Sequence[int]) -> Change:
    """Delete annotations; undo brings them back."""
    n = len(annotation_ids)
    return _put(ctx, plural("Delete %n annotations", n,
                            "Delete 1 annotation" if n == 1 else f"Delete {n} annotations"),
                dict.fromkeys(annotation_ids))


def _touches(shared: Iterable[bool]) -> frozenset[str]:
    return frozenset(ANNOTATIONS if s else PRIVATE_ANNOTATIONS for s in shared) or \
        frozenset({PRIVATE_ANNOTATIONS})


def _put(ctx: Context, description: str, wanted: Mapping[int, State]) -> Change:
    """Put annotations in the `wanted` states (a dict: these columns changed; None:
    deleted; a whole row: put back), in one transaction; undo puts them back as they
    were. One that is gone or another member's is a UserError."""
    with ctx.write() as session:
        found = session.execute(_visible(ctx, select(Row.id, *[getattr(Row, c)
                                                               for c in _COLUMNS]))
                                .where(Row.id.in_(list(wanted))))
        before: dict[int, State] = {
            row[0]: dict(zip(_COLUMNS, row[1:], strict=True)) for row in found}
        papers: set[int] = set()
        shared: list[bool] = []
        for aid, state in wanted.items():
            row = before.get(aid)
            whole = state is not None and set(_COLUMNS) <= set(state)
            if row is None and not whole:
                raise UserError(text("the annotation no longer exists"))
            if row is not None and row["user_name"] != ctx.user_name:
                raise UserError(text("the annotation is {owner}'s: only they can change it",
                                     owner=row["user_name"]))
            if state is None:
                session.execute(delete(Row).where(Row.id == aid))
            elif row is not None:
                session.execute(update(Row).where(Row.id == aid).values(**state))
            else:
                if session.scalar(select(Paper.id).where(Paper.id == state["paper_id"])) \
                        is None:
                    raise UserError(text("the paper no longer exists"))
                session.execute(insert(Row).values(id=aid, **state))
            for values in (row, state):
                if values is not None and "paper_id" in values:
                    papers.add(values["paper_id"])
                if values is not None and "shared" in values:
                    shared.append(bool(values["shared"]))
        touched = _touches(shared)
        ctx.log(session, touched, papers)
    restore = {aid: before.get(aid) for aid in wanted}
    return Change(description, frozenset(papers), touched=touched,
                  undo=lambda: _put(ctx, description, restore))
