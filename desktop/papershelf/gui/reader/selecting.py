"""A selection of the document's text, from one character to another, on one page or
over several: each page's share of it, its rectangles there, the text it reads."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from papershelf.gui.reader.geometry import line_rects, selected_text
from papershelf.gui.reader.pages import PageText, Rect

Spot = tuple[int, int]  # a page (from 0), a character of it (from 0)


@dataclass(frozen=True)
class Selection:
    """The characters from `start` to `end` (both in, `start` first), in reading order."""

    start: Spot
    end: Spot

    @classmethod
    def between(cls, one: Spot, other: Spot) -> Selection:
        """The selection from one spot to another, whichever comes first."""
        return cls(min(one, other), max(one, other))

    @property
    def pages(self) -> range:
        return range(self.start[0], self.end[0] + 1)

    @property
    def one_page(self) -> bool:
        return self.start[0] == self.end[0]

    def span(self, text: PageText) -> tuple[int, int] | None:
        """The characters of a page selected (first, last), or None."""
        count = len(text.boxes)
        if text.page not in self.pages or not count:
            return None
        first = self.start[1] if text.page == self.start[0] else 0
        last = min(self.end[1] if text.page == self.end[0] else count - 1, count - 1)
        return (first, last) if first <= last else None

    def rects(self, text: PageText | None) -> tuple[Rect, ...]:
        """Its rectangles on a page (points, one per line)."""
        span = None if text is None else self.span(text)
        return () if text is None or span is None else line_rects(text.boxes, *span)

    def text(self, texts: Mapping[int, PageText]) -> str:
        """What it reads, page after page (a page whose text is not fetched: left out)."""
        parts = []
        for page in self.pages:
            text = texts.get(page)
            span = None if text is None else self.span(text)
            if text is not None and span is not None:
                parts.append(selected_text(text.text, *span))
        return " ".join(part for part in parts if part)
