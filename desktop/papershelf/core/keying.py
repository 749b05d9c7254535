"""Citation keys in a library: its key pattern, and regenerating keys (an undoable edit).

How a key is made from a record and kept unique is `core.keys`, which stays free of
the database because the import's worker processes use it; this is the library's side:
the pattern stored with the library (a library-wide setting, in `meta`) and new keys
for existing papers, chosen against the keys other papers hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from papershelf.core import edits, keys, views
from papershelf.core.context import Context
from papershelf.core.edits import KEY, Change
from papershelf.core.models import Meta, Paper
from papershelf.errors import UserError

KEY_PATTERN = "key_pattern"  # its name in `meta`
_KEY = frozenset({KEY})


def pattern_in(session: Session) -> str:
    """The library's key pattern, read in `session`."""
    stored = session.get(Meta, KEY_PATTERN)
    return stored.value if stored is not None and stored.value else keys.DEFAULT_PATTERN


def key_pattern(ctx: Context) -> str:
    """The pattern new papers get their citation key from."""
    with ctx.read() as session:
        return pattern_in(session)


def set_key_pattern(ctx: Context, pattern: str) -> None:
    """Change the key pattern for papers added from now on; existing keys stay."""
    pattern = pattern.strip() or keys.DEFAULT_PATTERN
    try:
        keys.validate_pattern(pattern)
    except ValueError as exc:
        raise UserError(f"invalid key pattern {pattern!r}: {exc}") from None
    with ctx.write() as session:
        session.merge(Meta(name=KEY_PATTERN, value=pattern))


def regenerate_keys(ctx: Context, ids: Sequence[int]) -> Change:
    """Give papers new keys from the current pattern (the user's explicit request)."""
    details = views.details(ctx, ids)
    with ctx.read() as session:
        pattern = pattern_in(session)
        bases = {d.id: keys.format_key(pattern, d.record) for d in details}
        # The papers' own keys are free for them; the keys others hold that could
        # collide come in one range scan, as for an import.
        allocator = keys.KeyAllocator(
            ctx.store.keys_starting_with(session, set(bases.values()))
            - {d.key for d in details})
    new_keys: dict[int, str] = {}
    for detail in details:
        key = allocator.key(bases[detail.id])
        if key != detail.key:
            new_keys[detail.id] = key
    if not new_keys:
        return Change(edits.describe("Regenerate keys of", ids), frozenset(), touched=_KEY)
    originals = {d.id: d.key for d in details if d.id in new_keys}
    edits.write_keys(ctx, new_keys)
    description = edits.describe("Regenerate keys of", list(new_keys))

    def undo() -> Change:
        edits.write_keys(ctx, originals)
        return Change(description, frozenset(originals),
                      undo=lambda: regenerate_keys(ctx, list(originals)), touched=_KEY)

    return Change(description, frozenset(originals), undo=undo, touched=_KEY)


def key_new_paper(ctx: Context, paper_id: int, made: str) -> Change:
    """A paper added by hand is keyed when the user leaves it, from the fields filled in
    meanwhile (New Paper asks only a title: the key it was made with has no author nor
    year): its key from the pattern, unless it is no longer `made` (the user chose one)."""
    with ctx.read() as session:
        key = session.scalar(select(Paper.key).where(Paper.id == paper_id))
    if key != made:
        return Change(edits.describe("Regenerate keys of", [paper_id]), frozenset(),
                      touched=_KEY)
    return regenerate_keys(ctx, [paper_id])
