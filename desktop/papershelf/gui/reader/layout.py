"""Where the reader's pages are: stacked top to bottom at one zoom, `GAP` pixels around
and between them, centred across. Plain arithmetic over the pages' sizes in points (a
10,000-page file is placed in a few milliseconds); the view turns it into scrolling."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

GAP = 10  # pixels around and between pages


class Column:
    """The pages placed at `zoom` pixels per point; y counts pixels down the column."""

    def __init__(self, sizes: Sequence[tuple[float, float]]) -> None:
        self.sizes = list(sizes)
        self.zoom = 1.0
        self.tops: list[float] = []
        self.height = 0.0  # the whole column's
        self.width = 0.0  # the widest page's, with the gaps either side
        self.place(1.0)

    def __len__(self) -> int:
        return len(self.sizes)

    def place(self, zoom: float) -> None:
        """Place the pages at `zoom`."""
        self.zoom = zoom
        tops = []
        y = float(GAP)
        for _width, height in self.sizes:
            tops.append(y)
            y += height * zoom + GAP
        self.tops = tops
        self.height = y
        self.width = max((w for w, _h in self.sizes), default=0.0) * zoom + 2 * GAP

    def fitting(self, fit: str, width: float, height: float, page: int) -> float:
        """The zoom at which the widest page fills `width` pixels ("width"), or at which
        page `page` fits in `width` × `height` too ("page")."""
        widest = max((w for w, _h in self.sizes), default=1.0)
        zoom = max(width - 2 * GAP, 50) / widest
        if fit == "page" and 0 <= page < len(self.sizes):
            zoom = min(zoom, max(height - 2 * GAP, 50) / self.sizes[page][1])
        return zoom

    def page_at(self, y: float) -> int:
        """The page at height `y` (the one above, in the gap between two)."""
        return max(0, bisect.bisect_right(self.tops, y) - 1)

    def visible(self, top: float, height: float) -> range:
        """The pages some of which shows between `top` and `top + height`."""
        if not self.tops:
            return range(0)
        first = self.page_at(top)
        last = bisect.bisect_left(self.tops, top + height)
        return range(first, max(first + 1, min(last, len(self.tops))))

    def where(self, y: float) -> tuple[int, float]:
        """The page at `y` and how far down it `y` is (0 to 1)."""
        page = self.page_at(y)
        extent = self.sizes[page][1] * self.zoom
        return page, max(0.0, min(1.0, (y - self.tops[page]) / extent))

    def y_of(self, page: int, fraction: float = 0.0) -> float:
        """The height of a place `fraction` of the way down a page."""
        return self.tops[page] + fraction * self.sizes[page][1] * self.zoom

    def left(self, page: int, shown_width: float) -> float:
        """Where a page begins across, in a view `shown_width` pixels wide."""
        return (max(shown_width, self.width) - self.sizes[page][0] * self.zoom) / 2
