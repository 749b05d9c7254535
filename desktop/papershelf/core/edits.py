"""Changing the user's data: each edit is one transaction and returns an undoable `Change`.

As in Anki's collection, every operation knows how to reverse itself: the `Change` it
returns names what it touched (so each view can tell whether its rows, its ids or its
counts are stale) and carries its undo, which returns the Change that redoes it. Stars,
read states, notes, titles and keys are column updates (`apply_groups`: one UPDATE per
group of papers given the same values, so starring 100,000 papers is one statement);
tags, deleting and restoring are here too.

Several programs may change one library at once (two windows on a file, members of a
shared library), so an undo never undoes a later change someone else made: it reverses
only the papers that still hold what its change wrote (`compare_and_set`) and counts the
others in its Change's `skipped`; its redo redoes only what it undid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from typing import Any

import merge3
from sqlalchemy import delete, false, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from papershelf.core import annotation_rows, files, ingest, keys, progress_rows, shapes, views
from papershelf.core.context import Context
from papershelf.core.fields import PERSONAL_DEFAULTS, TEXT_COLUMNS
from papershelf.core.ingest import TAG_MAX, normalize_text
from papershelf.core.models import (
    Paper,
    PaperTag,
    PaperText,
    ReadState,
    Tag,
    utcnow,
)
from papershelf.core.store import chunks
from papershelf.core.views import READ_STATES, PaperDetail
from papershelf.errors import UserError
from papershelf.formats.bibtex.writer import sort_key
from papershelf.formats.records import PaperRecord, bib_extra, with_bib_extra
from papershelf.messages import Text, counted, text

# What a change can touch (`Change.touched`): named in core.shapes (the window's first
# paint imports them without the core), the core's rooms take them from here.
STARRED, READ_STATE, NOTES, PRIVATE_NOTES, BIB_FIELDS, TAGS, PAPERS, KEY, FILES = (
    shapes.STARRED, shapes.READ_STATE, shapes.NOTES, shapes.PRIVATE_NOTES, shapes.BIB_FIELDS,
    shapes.TAGS, shapes.PAPERS, shapes.KEY, shapes.FILES)
SAVED = shapes.SAVED
_TOUCHED_BY_COLUMN = {
    "starred": STARRED, "read_state": READ_STATE, "read_at": READ_STATE, "notes": NOTES,
    "private_notes": PRIVATE_NOTES,
    "title": BIB_FIELDS, "title_provisional": BIB_FIELDS, "title_norm": BIB_FIELDS,
    "bib_fields": BIB_FIELDS, "bib_extra": BIB_FIELDS, "key": KEY,
}

Groups = Sequence[tuple[dict[str, Any], Sequence[int]]]


@dataclass
class Change:
    """What an operation did: a description for the undo menu, the papers it touched and
    what of them (`touched`: STARRED, READ_STATE, NOTES, BIB_FIELDS, TAGS, KEY, FILES; PAPERS
    when papers were added or removed; SAVED: the saved searches, core.saved)."""

    description: str
    ids: frozenset[int]
    # True when papers were added or removed, so views must re-query their ids.
    structural: bool = False
    undo: Callable[[], Change] | None = None
    touched: frozenset[str] = frozenset()
    # Two people edited the same text at once and both versions were kept (set_notes).
    conflict: bool = False
    # The fields someone else had changed meanwhile that this edit replaced, with the
    # value each had (None: they had removed it) (set_fields).
    replaced: Mapping[str, str | None] = field(default_factory=dict)
    # Papers an undo (or redo) left as they were: someone else changed them since, so
    # they no longer hold what it would reverse (`left_as_they_were` says so).
    skipped: int = 0
    # A paper's text replaced whole (notes, private notes): what a burst of typing
    # merges into one undo step (`merged_text_edits`).
    text_edit: TextEdit | None = None

    def __post_init__(self) -> None:
        if self.structural and PAPERS not in self.touched:
            self.touched = self.touched | {PAPERS}


@dataclass(frozen=True)
class TextEdit:
    """One paper's text column (`notes`, `private_notes`) changed from `before` to
    `after`, in the library of `ctx`."""

    ctx: Context
    paper_id: int
    column: str
    before: str
    after: str

    def reverse(self, description: str) -> Change:
        """Put `before` back, unless the text is no longer `after` (see
        `compare_and_set`)."""
        return compare_and_set(ctx=self.ctx, description=description,
                               expected={self.paper_id: {self.column: self.after}},
                               wanted={self.paper_id: {self.column: self.before}})


def merged_text_edits(first: Change, later: Change) -> Change | None:
    """One undo step for two edits of the same text of a paper one after the other (a
    burst of typing): its undo puts back the text from before the first, if the text is
    still what the later wrote. None if they are not edits of the same text."""
    one, two = first.text_edit, later.text_edit
    if one is None or two is None or (one.paper_id, one.column) != (two.paper_id, two.column):
        return None
    edit = TextEdit(one.ctx, one.paper_id, one.column, one.before, two.after)
    return Change(first.description, first.ids | later.ids, touched=first.touched | later.touched,
                  undo=partial(edit.reverse, first.description), text_edit=edit,
                  conflict=first.conflict or later.conflict)


def describe(verb: str, ids: Sequence[int]) -> Text:
    """'Star 3 papers': an operation's description for the undo menu (translatable:
    its template is "Star %n papers")."""
    return counted(f"{verb} %n papers", len(ids))


def combined(description: str, changes: Sequence[Change]) -> Change:
    """One Change, one undo step, for `changes` made one after the other: its undo
    reverses them, the last first, and returns their redo, combined the same way."""
    changes = list(changes)
    if len(changes) == 1:
        return changes[0]
    ids: frozenset[int] = frozenset().union(*(change.ids for change in changes))
    touched: frozenset[str] = frozenset().union(*(change.touched for change in changes))

    def undo() -> Change:
        redos = [change.undo() for change in reversed(changes) if change.undo is not None]
        return combined(description, redos[::-1])

    return Change(description, ids, undo=undo if changes else None, touched=touched,
                  structural=any(change.structural for change in changes),
                  conflict=any(change.conflict for change in changes),
                  replaced={name: value for change in changes
                            for name, value in change.replaced.items()},
                  skipped=sum(change.skipped for change in changes))


def left_as_they_were(n: int, *, undo: bool) -> Text:
    """What an undo (or a redo) says of the `n` papers it left as they were because
    someone else changed them since: "1 paper not undone: changed since by another
    program"."""
    if undo:
        return counted("%n papers not undone: changed since by another program", n)
    return counted("%n papers not redone: changed since by another program", n)


def _touched(columns: Iterable[str]) -> frozenset[str]:
    """What setting these columns touches."""
    return frozenset(_TOUCHED_BY_COLUMN[c] for c in columns if c in _TOUCHED_BY_COLUMN)


# -- column updates --------------------------------------------------------------------


def current(ctx: Context, session: Session, ids: Sequence[int], columns: Sequence[str]
            ) -> dict[int, dict[str, Any]]:
    """Papers' current values of `columns` (read once per transaction, whatever the
    order of the ids: an undo's comparison and its write ask for them in different
    orders; the value dicts may be shared between papers: read them, do not change
    them)."""
    key = (frozenset(ids), tuple(columns))
    cached = session.info.get("current")
    if cached is not None and cached[0] == key:
        return dict(cached[1])
    values = ctx.store.read_current(session, ids, columns)
    session.info["current"] = (key, values)
    return dict(values)


def apply(ctx: Context, description: str, new_values: dict[int, dict[str, Any]]) -> Change:
    """Set columns per paper in one transaction; the Change's undo restores them."""
    return apply_groups(ctx, description, _grouped(new_values))


def _grouped(new_values: Mapping[int, dict[str, Any]]) -> Groups:
    """Papers given the same values, together (one UPDATE each)."""
    groups: dict[Any, tuple[dict[str, Any], list[int]]] = {}
    for pid, values in new_values.items():
        try:
            group_key: Any = tuple(values.items())
            hash(group_key)
        except TypeError:  # e.g. a dict value (bib_fields)
            group_key = repr(sorted(values.items()))
        groups.setdefault(group_key, (values, []))[1].append(pid)
    return list(groups.values())


def apply_groups(ctx: Context, description: str, groups: Groups,
                 decide: Callable[[Session], tuple[str, Groups]] | None = None) -> Change:
    """Give each group of papers its values, all in one transaction; one UPDATE per
    group. Undo restores each paper.

    `decide`, if given, computes the description and the groups inside that
    transaction (e.g. star or unstar from the papers' current state).
    """
    now = utcnow()
    with ctx.write() as session:
        if decide is not None:
            description, groups = decide(session)
        groups = [(values, pids) for values, pids in groups if pids]
        if not groups:
            return Change(description, frozenset())
        columns = sorted({c for values, _ in groups for c in values})
        before = current(ctx, session, [pid for _, pids in groups for pid in pids], columns)
        conn = session.connection()
        for values, pids in groups:
            mine = {c: v for c, v in values.items() if c in PERSONAL_DEFAULTS}
            texts = {c: v for c, v in values.items() if c in TEXT_COLUMNS}
            own = {c: v for c, v in values.items() if c not in mine and c not in texts}
            for id_set in ctx.store.id_sets(session, pids):
                if mine:
                    ctx.store.set_personal(session, id_set, mine)
                if own or texts:  # (the paper itself changed: everyone's paper)
                    conn.execute(update(Paper).where(Paper.id.in_(id_set))
                                 .values(**own, modified_at=now, version=Paper.version + 1))
                if texts:
                    conn.execute(update(PaperText)
                                 .where(PaperText.paper_id.in_(id_set)).values(**texts))
        ctx.log(session, _touched(columns), before)
    changed = frozenset(before)

    def undo() -> Change:
        written: dict[int, dict[str, Any]] = {}
        restore: dict[int, dict[str, Any]] = {}
        for values, pids in groups:
            for pid in pids:
                if pid in before:
                    written[pid] = values
                    restore[pid] = {c: before[pid][c] for c in values}
        return compare_and_set(ctx, description, written, restore)

    return Change(description, changed, undo=undo, touched=_touched(columns))


def compare_and_set(ctx: Context, description: str, expected: Mapping[int, Mapping[str, Any]],
                    wanted: Mapping[int, Mapping[str, Any]]) -> Change:
    """Give papers their `wanted` values (an undo or a redo), in one transaction, but
    only those that still hold the `expected` ones (what the change being reversed
    wrote): a paper someone else changed since keeps their change and is counted in
    the Change's `skipped`. Its undo reverses what it did, the same way. (The papers
    are held from other writers from before they are compared: see `hold_for_undo`.)"""
    ids = sorted(wanted)
    columns = sorted({c for values in wanted.values() for c in values})
    skipped = 0

    def decide(session: Session) -> tuple[str, Groups]:
        nonlocal skipped
        hold_for_undo(ctx, session, ids, personal=bool(PERSONAL_DEFAULTS.keys() & set(columns)))
        now = current(ctx, session, ids, columns)
        kept: dict[int, dict[str, Any]] = {}
        for pid in ids:
            values = now.get(pid)
            if values is None:  # (deleted since: left as it is, gone)
                skipped += 1
            elif all(_same(values[c], v) for c, v in expected[pid].items() if c in values):
                kept[pid] = dict(wanted[pid])
            else:
                skipped += 1
        return description, _grouped(kept)

    change = apply_groups(ctx, description, [], decide)
    change.skipped = skipped
    return change


def hold_for_undo(ctx: Context, session: Session, ids: Sequence[int], *,
                  personal: bool = False) -> None:
    """Before an undo compares papers with what it would reverse: keep other writers
    off them until the transaction ends, so that nothing commits between the comparison
    and the write. SQLite: its one write lock, taken now (a write of no row), not at the
    first write, where a commit in between would fail the undo. A server: the papers'
    rows, and with `personal` the user's own rows of them, locked in id order."""
    if session.get_bind().dialect.name == "sqlite":
        session.connection().execute(update(Paper).where(false()).values(version=Paper.version))
        return
    ctx.store.hold_rows(session, ids, personal)


def _same(stored: Any, written: Any) -> bool:
    """Whether a column still holds what was written to it (a time read back from the
    database may have lost its time zone: both are UTC)."""
    if isinstance(stored, datetime) and isinstance(written, datetime):
        def utc(moment: datetime) -> datetime:
            return moment.astimezone(timezone.utc).replace(tzinfo=None) \
                if moment.tzinfo is not None else moment
        return utc(stored) == utc(written)
    return bool(stored == written)


def set_starred(ctx: Context, ids: Sequence[int], starred: bool) -> Change:
    """Star or unstar papers."""
    what = "Star" if starred else "Unstar"
    return apply_groups(ctx, describe(what, ids), [({"starred": starred}, ids)])


def toggle_starred(ctx: Context, ids: Sequence[int]) -> Change:
    """Star the papers, or unstar them if every one is already starred (the S key);
    decided and written in one transaction."""
    ids = list(ids)

    def decide(session: Session) -> tuple[str, Groups]:
        # (the values read here are the ones undo restores: one read, not two)
        now = current(ctx, session, ids, ["starred"])
        star = sum(1 for v in now.values() if v["starred"]) != len(set(ids))
        return describe("Star" if star else "Unstar", ids), [({"starred": star}, ids)]

    return apply_groups(ctx, "", [], decide)


def set_read_state(ctx: Context, ids: Sequence[int], state: str) -> Change:
    """Mark papers unread, reading or read (read also records when)."""
    if state not in READ_STATES:
        raise UserError(f"unknown read state {state!r}; use one of {', '.join(READ_STATES)}")
    read_at = utcnow() if state == ReadState.READ.value else None
    values = {"read_state": state, "read_at": read_at}
    return apply_groups(ctx, describe(f"Mark {state}:", ids), [(values, ids)])


def cycle_read_state(ctx: Context, ids: Sequence[int]) -> Change:
    """Unread → reading → read → unread, all papers following the first one's state."""
    if not ids:
        return Change(text("Cycle read state"), frozenset(), touched=frozenset({READ_STATE}))
    with ctx.read() as session:
        first = ctx.store.read_current(session, ids[:1], ["read_state"]).get(
            ids[0], {}).get("read_state")
    order = list(READ_STATES)
    following = order[(order.index(first) + 1) % len(order)] if first in order else "unread"
    return set_read_state(ctx, ids, following)


def set_notes(ctx: Context, paper_id: int, notes: str,
              base: tuple[int, str] | None = None) -> Change:
    """Replace a paper's (shared) notes (Markdown text).

    `base` is the paper's version and notes the editor started from. If someone else
    changed the paper since (its version grew), their notes and these are merged against
    the base (`merge_texts`); where both changed the same lines both texts are kept,
    marked, and the Change's `conflict` says so. The version is checked in the UPDATE
    itself, so a write between the read and the write cannot slip through.
    """
    for _attempt in range(5):
        try:
            written = _write_notes(ctx, paper_id, notes, base)
        except _Retry:
            continue
        if written is None:
            return Change(text("Edit notes"), frozenset(), touched=frozenset({NOTES}))
        before, after, conflict = written
        edit = TextEdit(ctx, paper_id, "notes", before, after)
        description = text("Edit notes")
        return Change(description, frozenset({paper_id}), touched=frozenset({NOTES}),
                      undo=partial(edit.reverse, description), conflict=conflict,
                      text_edit=edit)
    raise UserError("the notes kept changing while they were saved; try again")


def _write_notes(ctx: Context, paper_id: int, notes: str, base: tuple[int, str] | None
                 ) -> tuple[str, str, bool] | None:
    """`set_notes`' transaction: the notes before and after, and whether the edit
    conflicted, or None if nothing changed; `_Retry` if the paper changed between read
    and write."""
    with ctx.write() as session:
        row = session.execute(select(Paper.version, Paper.notes)
                              .where(Paper.id == paper_id).with_for_update()).first()
        if row is None:
            return None
        version, before = row
        text, conflict = notes, False
        if base is not None and base[0] != version and before != base[1]:
            text, conflict = merge_texts(base[1], notes, before)
        if text == before:
            return None
        done = session.execute(
            update(Paper).where(Paper.id == paper_id, Paper.version == version)
            .values(notes=text, version=version + 1, modified_at=utcnow()))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise _Retry  # changed under us after all: read and merge again
        ctx.log(session, {NOTES}, [paper_id])
    return before, text, conflict


class EditConflict(UserError):
    """Someone else changed what the user was editing; nothing was written."""


class _Retry(Exception):
    """The row changed between its read and its update: roll back and try again."""


CONFLICT_START, CONFLICT_MIDDLE, CONFLICT_END = (
    "<<<<<<< your notes", "======= notes saved meanwhile by someone else", ">>>>>>>")


def merge_texts(base: str, mine: str, theirs: str) -> tuple[str, bool]:
    """Three-way merge of two edits of `base`, by lines; whether they conflicted. Where
    both changed the same lines both versions are kept, between markers."""
    def lines(text: str) -> list[str]:
        return text.splitlines(keepends=True)

    out: list[str] = []
    conflict = False
    for group in merge3.Merge3(lines(base), lines(mine), lines(theirs)).merge_groups():
        if group[0] != "conflict":
            out.extend(group[1])
            continue
        conflict = True
        _kind, _base, ours, other = group
        for part in ([CONFLICT_START + "\n"], ours, [CONFLICT_MIDDLE + "\n"], other,
                     [CONFLICT_END + "\n"]):
            if out and not out[-1].endswith("\n"):
                out[-1] += "\n"
            out.extend(part)
    return "".join(out), conflict


def set_private_notes(ctx: Context, paper_id: int, notes: str) -> Change:
    """Replace the user's own notes on a paper, which no other user sees."""
    before: list[str] = []

    def decide(session: Session) -> tuple[str, Groups]:
        now = current(ctx, session, [paper_id], ["private_notes"]).get(paper_id)
        before.append(now["private_notes"] if now is not None else "")
        return text("Edit private notes"), [({"private_notes": notes}, [paper_id])]

    change = apply_groups(ctx, text("Edit private notes"), [], decide)
    change.text_edit = TextEdit(ctx, paper_id, "private_notes", before[0], notes)
    return change


def set_title(ctx: Context, paper_id: int, title: str, base: str | None = None) -> Change:
    """Give a paper a real title: no longer provisional; the raw BibTeX title is dropped.
    `base`: the title the user started from (see `_unchanged_since`)."""
    title = " ".join(title.split())
    if not title:
        raise UserError("a title cannot be empty")
    with ctx.read() as session:
        row = session.execute(
            select(PaperText.bib_fields, PaperText.bib_extra)
            .where(PaperText.paper_id == paper_id)).first()
        old = session.scalar(select(Paper.title).where(Paper.id == paper_id))
    raw = dict(row.bib_fields or {}) if row else {}
    raw.pop("title", None)
    if old and raw.get("key") == sort_key(old):  # (made from the old title: it follows)
        raw["key"] = sort_key(title)
    values: dict[str, Any] = {"title": title, "title_provisional": False,
                              "bib_fields": raw, "title_norm": normalize_text(title)}
    extra = row.bib_extra if row else None
    if extra and "title" in extra.get("raw_source", {}):
        record = with_bib_extra(PaperRecord(), extra)
        del record.raw_source["title"]
        values["bib_extra"] = bib_extra(record)
    return _unchanged_since(ctx, text("Edit title"), paper_id, values, "title", base)


def set_key(ctx: Context, paper_id: int, key: str, base: str | None = None) -> Change:
    """Change a paper's citation key (the user's explicit choice); must stay unique.
    `base`: the key the user started from (see `_unchanged_since`)."""
    key = key.strip()
    problem = keys.why_invalid_key(key)
    if problem is not None:
        raise UserError(f"{key!r} cannot be a citation key: {problem} (bibtex ends a key "
                        "at white space or a comma, and a brace would end the entry)")
    with ctx.read() as session:
        other = session.scalar(select(Paper.id).where(Paper.key == key))
    if other is not None and other != paper_id:
        raise UserError(f"the citation key {key!r} is already used by another paper")
    return _unchanged_since(ctx, text("Change citation key"), paper_id, {"key": key}, "key", base)


def _unchanged_since(ctx: Context, description: str, paper_id: int, values: dict[str, Any],
                     column: str, base: str | None) -> Change:
    """Set `values` on a paper, unless someone else changed its `column` since the user
    read it as `base` (two people editing one title or key at once): then nothing is
    written and an `EditConflict` names both values, so the second writer still has
    theirs. Checked in the writing transaction, the row locked (on a server)."""
    if base is None:
        return apply(ctx, description, {paper_id: values})

    def decide(session: Session) -> tuple[str, Groups]:
        now = session.scalar(select(getattr(Paper, column)).where(Paper.id == paper_id)
                             .with_for_update())
        if now is not None and now != base and now != values[column]:
            what = "title" if column == "title" else "citation key"
            raise EditConflict(
                f"someone else changed the {what} to {now!r} while you edited it; yours "
                f"({values[column]!r}) was not saved: edit it again to replace theirs")
        return description, [(values, [paper_id])]

    return apply_groups(ctx, description, [], decide)


def write_keys(ctx: Context, new_keys: dict[int, str]) -> None:
    """Set several keys in one transaction; keys may move between these papers."""
    now = utcnow()
    with ctx.write() as session:
        for pid in new_keys:  # first out of the way, so swaps cannot clash
            session.execute(update(Paper).where(Paper.id == pid).values(key=f"~{pid}~"))
        for pid, key in new_keys.items():
            session.execute(update(Paper).where(Paper.id == pid)
                            .values(key=key, modified_at=now, version=Paper.version + 1))
        ctx.log(session, {KEY}, new_keys)


# -- tags ------------------------------------------------------------------------------


def clean_tags(names: Iterable[str]) -> list[str]:
    """Tag names as the user meant them: spacing collapsed, no stray commas, no repeats."""
    clean = []
    for name in names:
        name = " ".join(name.split()).strip(",")
        if len(name) > TAG_MAX:
            raise UserError(f"a tag is at most {TAG_MAX} characters: {name[:40]}…")
        if name and name not in clean:
            clean.append(name)
    if not clean:
        raise UserError("give at least one non-empty tag")
    return clean


def write_tags(ctx: Context, session: Session, wanted: dict[int, list[str]],
               tags_now: dict[int, list[str]] | None = None
               ) -> tuple[dict[int, list[str]], list[int]]:
    """Give each paper exactly the listed tags, in `session` (`tags_now`: the tags of
    those of them that exist, if the caller has read them in it); returns the tags
    before and which papers changed."""
    if tags_now is None:
        tags_now = views.read_tags(session, list(current(ctx, session, list(wanted), ["id"])))
    before, existing_ids = tags_now, list(tags_now)
    names = {n for pid in existing_ids for n in wanted[pid]}
    tag_ids = dict(session.execute(select(Tag.name, Tag.id).where(Tag.name.in_(names))).all())
    missing = sorted(names - set(tag_ids))
    if missing:  # (another writer may make the same tag meanwhile: theirs is as good)
        session.execute(_insert_new(session, Tag).values([{"name": n} for n in missing]))
        tag_ids.update(session.execute(
            select(Tag.name, Tag.id).where(Tag.name.in_(missing))).all())
    changed = [pid for pid in existing_ids if sorted(before[pid]) != sorted(wanted[pid])]
    for chunk in chunks(changed):
        session.execute(delete(PaperTag).where(PaperTag.paper_id.in_(chunk)))
    links = [{"paper_id": pid, "tag_id": tag_ids[n]} for pid in changed for n in set(wanted[pid])]
    if links:  # (two writers tagging one paper at once: the link is there once)
        session.execute(_insert_new(session, PaperTag), links)
    now = utcnow()
    groups: dict[str, list[int]] = {}
    for pid in changed:
        groups.setdefault(", ".join(sorted(set(wanted[pid]), key=str.lower)), []).append(pid)
    for text_value, pids in groups.items():
        for chunk in chunks(pids):
            session.execute(update(Paper).where(Paper.id.in_(chunk))
                            .values(tags_text=text_value, modified_at=now))
    # Tags no paper carries any more disappear from the sidebar.
    session.execute(delete(Tag).where(~Tag.id.in_(select(PaperTag.tag_id))))
    return before, changed


def _insert_new(session: Session, table: Any) -> Any:
    """INSERT that skips rows whose key is taken (by a concurrent transaction, on a
    shared library) instead of failing the user's whole edit."""
    dialect = session.get_bind().dialect.name
    if dialect in ("postgresql", "sqlite"):
        module = postgresql if dialect == "postgresql" else sqlite
        return module.insert(table).on_conflict_do_nothing()
    return insert(table)


def change_tags(ctx: Context, description: str, add: Mapping[int, AbstractSet[str]],
                remove: Mapping[int, AbstractSet[str]]) -> Change:
    """Put the tags of `add` on papers and take those of `remove` off, leaving their
    other tags as they are when the change is written: the papers' rows are locked
    first (in id order), and their tags read under the lock, so two members tagging
    one paper at once both keep their tag (reading the tags before the write, the second
    writer put back the tags as it had read them, without the first one's). The undo
    takes off what this change put on and puts back what it took off, no more."""
    ids = sorted(set(add) | set(remove))
    with ctx.write() as session:
        existing: list[int] = []  # (the papers still there, locked)
        for id_set in ctx.store.id_sets(session, ids):  # (SQLite: the write lock holds)
            existing += session.scalars(select(Paper.id).where(Paper.id.in_(id_set))
                                        .order_by(Paper.id).with_for_update())
        now = views.read_tags(session, existing)
        wanted = {pid: sorted((set(tags) | add.get(pid, set())) - remove.get(pid, set()))
                  for pid, tags in now.items()}
        before, changed = write_tags(ctx, session, wanted, now)
        ctx.log(session, {TAGS}, changed)
    added = {pid: set(wanted[pid]) - set(before[pid]) for pid in changed}
    taken = {pid: set(before[pid]) - set(wanted[pid]) for pid in changed}

    def undo() -> Change:
        return change_tags(ctx, description, add=taken, remove=added)

    return Change(description, frozenset(changed), undo=undo, touched=frozenset({TAGS}))


def add_tags(ctx: Context, ids: Sequence[int], names: Iterable[str]) -> Change:
    """Put tags on papers (tags are created as needed)."""
    clean = clean_tags(names)
    return change_tags(ctx, text("Tag {tags}", tags=", ".join(clean)),
                       dict.fromkeys(ids, frozenset(clean)), {})


def remove_tags(ctx: Context, ids: Sequence[int], names: Iterable[str]) -> Change:
    """Take tags off papers."""
    clean = set(clean_tags(names))
    return change_tags(ctx, text("Remove tag {tags}", tags=", ".join(sorted(clean))), {},
                       dict.fromkeys(ids, frozenset(clean)))


# -- deleting and restoring ------------------------------------------------------------


def delete_papers(ctx: Context, ids: Sequence[int]) -> Change:
    """Delete papers (with their notes, tags and attached files' rows; the files stay
    on the disk); undo brings them back whole."""
    snapshot = views.details(ctx, ids)
    with ctx.write() as session:
        attached = files.snapshot(session, ids)
        marks = annotation_rows.snapshot(ctx, session, ids)
        places = progress_rows.snapshot(ctx, session, ids)
        ctx.store.keep_others_personal(session, ids)  # (a shared library's other members)
        deletion = ctx.store.deletion(session)
        for chunk in chunks(list(ids)):
            session.execute(delete(Paper).where(Paper.id.in_(chunk)))
        session.execute(delete(Tag).where(~Tag.id.in_(select(PaperTag.tag_id))))
        ctx.log(session, {PAPERS}, ids, structural=True)

    def undo() -> Change:
        restore(ctx, snapshot, attached, marks, deletion, places=places)
        return Change(describe("Restore", ids), frozenset(ids), structural=True,
                      undo=lambda: delete_papers(ctx, ids))

    return Change(describe("Delete", ids), frozenset(d.id for d in snapshot),
                  structural=True, undo=undo)


def restore(ctx: Context, snapshot: Sequence[PaperDetail],
            attached: Sequence[dict[str, Any]] = (),
            marks: Sequence[dict[str, Any]] = (), deletion: str | None = None,
            replacing: bool = False, places: dict[int, dict[str, Any]] | None = None
            ) -> None:
    """Put papers back exactly as in `snapshot` (same ids), replacing what is there now,
    with the rows of their attached files as `files.snapshot` read them, their
    annotations as `annotation_rows.snapshot` did and the member's reading progress as
    `progress_rows.snapshot` did; and the other members' personal rows and annotations
    that their `deletion` kept (`Store.deletion`). Those of a paper now given one of the
    ids stay kept, unless `replacing` says it is the same paper, changed since (a
    merge's undo puts back the paper it kept)."""
    with ctx.write() as session:
        ids = [d.id for d in snapshot]
        ctx.store.keep_others_personal(session, ids)
        for chunk in chunks(ids):
            session.execute(delete(Paper).where(Paper.id.in_(chunk)))
        papers = ingest.prepare([d.record for d in snapshot], "")
        states = [(d.starred, d.read_state, d.read_at, d.private_notes, "", d.added_at,
                   d.modified_at) for d in snapshot]
        deletions = [deletion]
        if replacing:  # (what this transaction keeps of the papers it replaces)
            deletions.append(ctx.store.deletion(session))
        ctx.store.restoring(session, deletions)
        ctx.store.insert_papers(session, papers, ids, [d.record.key or "" for d in snapshot],
                                states, None)
        ctx.store.bring_back_others_personal(session, ids)
        versions: dict[int, list[int]] = {}  # a version only grows, also through undo
        for detail in snapshot:
            versions.setdefault(detail.version + 1, []).append(detail.id)
        for version, pids in versions.items():
            for id_set in ctx.store.id_sets(session, pids):
                session.execute(update(Paper).where(Paper.id.in_(id_set))
                                .values(version=version))
        tagged = {d.id: d.record.tags for d in snapshot if d.record.tags}
        if tagged:
            write_tags(ctx, session, tagged)
            for detail in snapshot:  # writing tags touched these; put them back too
                if detail.id in tagged:
                    session.execute(update(Paper).where(Paper.id == detail.id)
                                    .values(modified_at=detail.modified_at))
        files.put_back(session, attached)
        annotation_rows.put_back(session, marks)
        progress_rows.put_back(ctx, session, places or {})
        ctx.log(session, {PAPERS}, ids, structural=True)
