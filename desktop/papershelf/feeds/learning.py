"""What the inbox's ranking learns from: the member's own library, read in four queries.

Liked: the papers they starred, read or tagged (tags are the library's, so every member
of a shared library learns from them); disliked: the titles they dismissed from their
inbox; the background: the library's other papers, which say which words are common (a
word that runs through the liked papers alone is what they are about). A tag can have a
ranking of its own: its papers are what is liked (`model_of` with the tag), so the inbox
reads best first for that topic.

A model is learnt once and kept (`model_of`): it is learnt again only when what it
learns from changed, as a cheap version says (`version`: the newest change of the
library's likes in its change log, that is of its stars, reading states and tags, or
papers added or removed; and the member's dismissals), so listing the inbox after a
check ranks it without reading the library. Editing, reading a PDF, notes or an inbox
check teach the model nothing and keep it. `stamp` spells the version as the inbox keeps
it with each item's rank (feeds.inbox), so a rank survives a restart while the likes
are the same.
"""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from papershelf.core.context import Context
from papershelf.core.library import Library
from papershelf.core.models import (
    ChangeLog,
    InboxDismissed,
    Paper,
    PaperAuthor,
    PaperTag,
    PaperText,
    Personal,
    ReadState,
    Tag,
)
from papershelf.errors import UserError
from papershelf.feeds.ranking import ABSTRACT_CHARS, Liked, Model, author_key
from papershelf.messages import text

__all__ = ["check_tag", "current", "kept", "model_of", "stamp", "version"]

# What a change the model learns from touches (core.shapes: stars, reading states, tags;
# papers added or removed are structural changes).
_LIKES = ("starred", "read_state", "tags")
_KEPT = 8  # models kept (a library, a member, a tag each)
_models: dict[tuple[int, str, str],
              tuple[weakref.ref[Context], tuple[int, int, str], Model]] = {}
_lock = threading.Lock()


def check_tag(library: Library, tag: str) -> None:
    """UserError when the library has no tag `tag`."""
    with library.context.read() as session:
        _tag_id(session, tag)


def _tag_id(session: Session, tag: str) -> int:
    tag_id = session.scalar(select(Tag.id).where(Tag.name == tag))
    if tag_id is None:
        raise UserError(text("no tag {tag} in the library", tag=tag))
    return int(tag_id)


def version(library: Library) -> tuple[int, int, str]:
    """What the member's model learns from, as of now, in two cheap queries: the newest
    change-log entry of the library's likes (stars, reading states, tags: everyone's or
    this member's own; papers added or removed), and their dismissals (how many, the
    newest). Equal versions: the same model."""
    ctx = library.context
    with ctx.read() as session:
        seq = session.scalar(select(ChangeLog.seq).where(
            or_(ChangeLog.user_name.is_(None), ChangeLog.user_name == ctx.user_name),
            or_(ChangeLog.structural.is_(True),
                *(ChangeLog.touched.contains(name) for name in _LIKES)))
            .order_by(ChangeLog.seq.desc()).limit(1))
        count, newest = session.execute(
            select(func.count(), func.max(InboxDismissed.dismissed_at)).where(
                InboxDismissed.user_name == ctx.user_name)).one()
    return int(seq or 0), int(count or 0), str(newest or "")


def stamp(now: tuple[int, int, str]) -> str:
    """A `version` as kept with the ranks it gave (at most 64 characters). Its first
    part is the reasons' form (2: in parts, `ranking.why`): ranks kept in an older form
    are ranked again once."""
    seq, count, newest = now
    return f"2:{seq}.{count}.{newest}"[:64]


def kept(library: Library, tag: str = "") -> tuple[Model, str] | None:
    """The member's model (of `tag`) and its `stamp` when one is kept and still current,
    else None (nothing is learnt)."""
    ctx = library.context
    with _lock:
        found = _models.get((id(ctx), ctx.user_name, tag))
    if found is None or found[0]() is not ctx:
        return None
    now = version(library)
    return (found[2], stamp(now)) if found[1] == now else None


def model_of(library: Library, tag: str = "") -> Model:
    """The ranking model of the library's member (with `tag`: learnt from the papers
    with that tag; UserError when the library has no such tag): the one kept when what
    it learns from has not changed since (`version`), else learnt now and kept."""
    return current(library, tag)[0]


def current(library: Library, tag: str = "") -> tuple[Model, str]:
    """`model_of`, and the `stamp` of the version it learnt from."""
    ctx = library.context
    key = (id(ctx), ctx.user_name, tag)
    now = version(library)
    with _lock:
        kept = _models.get(key)
    if kept is not None and kept[0]() is ctx and kept[1] == now:
        if tag:
            check_tag(library, tag)
        return kept[2], stamp(now)
    model = _learn(library, tag)
    with _lock:
        _models.pop(key, None)
        _models[key] = (weakref.ref(ctx), now, model)
        while len(_models) > _KEPT:
            del _models[next(iter(_models))]
    return model, stamp(now)


def _learn(library: Library, tag: str) -> Model:
    """The member's model (of `tag`'s papers), learnt now from the library."""
    ctx = library.context
    with ctx.read() as session:
        why: dict[int, str] = {}
        if tag:
            tag_id = _tag_id(session, tag)
            why = dict.fromkeys(session.scalars(
                select(PaperTag.paper_id).where(PaperTag.tag_id == tag_id)), "tagged")
        else:
            for paper_id, starred, state in session.execute(
                    select(Personal.paper_id, Personal.starred, Personal.read_state).where(
                        Personal.user_name == ctx.user_name)):
                if starred:
                    why[paper_id] = "starred"
                elif state == ReadState.READ.value:
                    why[paper_id] = "read"
            for (paper_id,) in session.execute(select(PaperTag.paper_id).distinct()):
                why.setdefault(paper_id, "tagged")
        texts: dict[int, tuple[str, str]] = {}
        authors: dict[int, list[str]] = defaultdict(list)
        ids = sorted(why)
        for start in range(0, len(ids), 5000):
            part = ids[start:start + 5000]
            for paper_id, title, abstract in session.execute(
                    select(Paper.id, Paper.title, PaperText.abstract)
                    .outerjoin(PaperText, PaperText.paper_id == Paper.id)
                    .where(Paper.id.in_(part))):
                texts[paper_id] = (title, abstract or "")
            for paper_id, family, given in session.execute(
                    select(PaperAuthor.paper_id, PaperAuthor.family, PaperAuthor.given)
                    .where(PaperAuthor.paper_id.in_(part))):
                authors[paper_id].append(author_key(family, given))
        disliked = list(session.scalars(select(InboxDismissed.title).where(
            InboxDismissed.user_name == ctx.user_name).distinct()))
        background = [(title, abstract or "") for paper_id, title, abstract in session.execute(
            select(Paper.id, Paper.title, func.substr(PaperText.abstract, 1, ABSTRACT_CHARS))
            .outerjoin(PaperText, PaperText.paper_id == Paper.id)) if paper_id not in why]
    liked = [Liked(texts[i][0], texts[i][1], why[i], tuple(authors[i]))
             for i in ids if i in texts]
    return Model.train(liked, disliked, background, tag)
