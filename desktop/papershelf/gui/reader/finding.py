"""Find in the document: the places one query was found, and the one shown; a newer
query supersedes an older one still being looked for (its answer is dropped)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from papershelf.gui.reader.layout import GAP
from papershelf.gui.reader.pages import Hit, Pdf
from papershelf.gui.workers import Job

if TYPE_CHECKING:
    from papershelf.gui.qt import QRectF, QWidget
    from papershelf.gui.reader.pages import Rect


class Finder:
    """The places found (`hits`, page by page) and the one shown (`current`, -1: none)."""

    def __init__(self) -> None:
        self.query = ""
        self.hits: list[Hit] = []
        self.current = -1
        self._job: Job | None = None

    def start(self, pdf: Pdf, query: str, on_found: Callable[[str, list[Hit]], None]) -> bool:
        """Look for `query` (the older search stopped); False, and nothing found, when
        there is nothing to look for."""
        self.stop()
        self.query = query
        self.hits, self.current = [], -1
        if not query.strip():
            return False
        self._job = pdf.search(query, lambda hits: on_found(query, hits))
        return True

    def stop(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None

    def found(self, query: str, hits: list[Hit], from_page: int) -> bool:
        """Take the places found for `query` (False: a superseded query's), the first on
        or after `from_page` the one shown."""
        if query != self.query:
            return False
        self._job = None
        self.hits = hits
        self.current = next((n for n, hit in enumerate(hits) if hit.page >= from_page),
                            0 if hits else -1)
        return True

    def step(self, backwards: bool = False) -> Hit | None:
        """Show the next place (or the one before), round the end; None: none found."""
        if not self.hits:
            return None
        self.current = (self.current + (-1 if backwards else 1)) % len(self.hits)
        return self.hits[self.current]


class Finding:
    """The view's side of find in the document (a part of `PdfView`): its `_finder`, its
    `searched(current, count)` signal, and the places shown."""

    _finder: Finder
    _pdf: Pdf
    _sizes: Any
    _current: int
    searched: Any

    if TYPE_CHECKING:
        def viewport(self) -> QWidget: ...
        def to_view(self, page_index: int, rect: Rect) -> QRectF: ...
        def go_to(self, page_index: int, top: float | None = None) -> None: ...

    def find_text(self, query: str) -> None:
        """Look for `query` (ignoring case) in the whole document: `searched` tells
        how many places, the first from the current page on shown."""
        if not self._sizes or not self._finder.start(self._pdf, query, self._found):
            self.viewport().update()
            self.searched.emit(-1, 0)

    def _found(self, query: str, hits: list[Hit]) -> None:
        if self._finder.found(query, hits, max(self._current, 0)):
            if hits:
                self._show_hit(hits[self._finder.current])
            self.viewport().update()
            self.searched.emit(self._finder.current, len(hits))

    def hits(self) -> list[Hit]:
        return list(self._finder.hits)

    def current_hit(self) -> int:
        return self._finder.current

    def find_next(self, backwards: bool = False) -> None:
        """Show the next place found (F3), or the one before (Shift+F3), round the end."""
        hit = self._finder.step(backwards)
        if hit is not None:
            self._show_hit(hit)
            self.viewport().update()
            self.searched.emit(self._finder.current, len(self._finder.hits))

    def _show_hit(self, hit: Hit) -> None:
        shown = self.viewport().rect().adjusted(0, GAP, 0, -GAP)
        if not hit.rects or not shown.contains(self.to_view(hit.page, hit.rects[0]).toRect()):
            self.go_to(hit.page, max((r[3] for r in hit.rects), default=None))
