"""The reader's geometry in PDF points, without Qt: which character a point is on, the
rectangles a run of characters covers (one per line), whether a point is in one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from papershelf.reading.document import Rect, readable


def has_box(box: Rect) -> bool:
    """Whether a character has a box to select (a line break has none)."""
    return box[2] > box[0] or box[3] > box[1]


def char_at(boxes: Sequence[Rect], x: float, y: float) -> int | None:
    """The character nearest to (x, y) on its page: the one whose box holds the point,
    else the closest one (a vertical distance counts thrice: a point beside a line is
    on that line, not the next one); None on a page without text."""
    best: int | None = None
    best_distance = float("inf")
    for index, (left, bottom, right, top) in enumerate(boxes):
        if not (right > left or top > bottom):
            continue
        dx = max(left - x, 0.0, x - right)
        dy = max(bottom - y, 0.0, y - top)
        distance = dx + 3 * dy
        if distance < best_distance:
            best, best_distance = index, distance
            if distance == 0:
                break
    return best


def line_rects(boxes: Sequence[Rect], first: int, last: int) -> tuple[Rect, ...]:
    """The rectangles characters `first`..`last` (both in) cover: one per line, the
    union of its characters' boxes, rounded to a hundredth of a point."""
    rects: list[list[float]] = []
    for left, bottom, right, top in boxes[first:last + 1]:
        if not (right > left or top > bottom):
            continue
        if rects:
            current = rects[-1]
            # (a comma or a descender reaches below the line's letters, still on it)
            overlap = min(top, current[3]) - max(bottom, current[1])
            same_line = overlap > 0 and left >= current[0] - 1
            if same_line:
                current[0] = min(current[0], left)
                current[1] = min(current[1], bottom)
                current[2] = max(current[2], right)
                current[3] = max(current[3], top)
                continue
        rects.append([left, bottom, right, top])
    return tuple((round(r[0], 2), round(r[1], 2), round(r[2], 2), round(r[3], 2))
                 for r in rects)


def selected_text(text: str, first: int, last: int) -> str:
    """What characters `first`..`last` read as (lines joined, hyphenation undone)."""
    return readable(text[first:last + 1])


def holds(rects: Iterable[Rect], x: float, y: float, slack: float = 1.0) -> bool:
    """Whether (x, y) is in one of `rects` (within `slack` points)."""
    return any(left - slack <= x <= right + slack and bottom - slack <= y <= top + slack
               for left, bottom, right, top in rects)


NOTE_SIZE = 16.0  # a sticky note's icon on the page, in points


def shape(kind: str, rects: Sequence[Rect]) -> tuple[Rect, ...]:
    """Where an annotation is on its page (points): its rectangles, but a sticky note
    (kept as a point, or as the icon box another reader wrote) is its icon, its top
    left corner at the point."""
    if kind != "note":
        return tuple(rects)
    return tuple((r[0], r[3] - NOTE_SIZE, r[0] + NOTE_SIZE, r[3]) for r in rects[:1])


def spanned(one: tuple[float, float], other: tuple[float, float],
            size: tuple[float, float]) -> Rect:
    """The rectangle (points) two corners span on a page of `size`, kept on the page."""
    width, height = size
    xs = sorted(max(0.0, min(width, v)) for v in (one[0], other[0]))
    ys = sorted(max(0.0, min(height, v)) for v in (one[1], other[1]))
    return (round(xs[0], 2), round(ys[0], 2), round(xs[1], 2), round(ys[1], 2))
