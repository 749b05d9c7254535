"""Find in the document: the places one query was found, and the one shown; a newer
query supersedes an older one still being looked for (its answer is dropped)."""

from __future__ import annotations

from collections.abc import Callable

from papershelf.gui.reader.pages import Hit, Pdf
from papershelf.gui.workers import Job


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
