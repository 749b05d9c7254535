"""The plain shapes the window's first paint needs: which papers a view shows, a table
row, the sidebar's counts, and the names of what a change can touch.

Standard library only: `core.firstpage` and the window's first paint use them before
SQLAlchemy and the rest of the core are imported (`core.views` and `core.edits`, which
re-export them, are the rooms that fill them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

READ_STATES = ("unread", "reading", "read")  # (models.ReadState's values, in its order)
FILTERS = ("all", "unread", "reading", "read", "starred", "recent")  # (recent: read lately)
SORT_COLUMNS = ("title", "authors", "venue", "year", "added", "starred", "read_state", "key",
                "progress", "last_read")
BEST_MATCH = "best"  # the sort of a search's best matches first (core.bestmatch), no column's

# What a change can touch (`Change.touched`), so each view can tell whether its rows,
# its ids or its counts are stale.
# BIB_FIELDS is any bibliographic field (title, authors, venue, year, the BibTeX fields);
# the change log stores it as "title", its old name, which is kept.
STARRED, READ_STATE, NOTES, PRIVATE_NOTES, BIB_FIELDS, TAGS, PAPERS, KEY, FILES = (
    "starred", "read_state", "notes", "private_notes", "title", "tags", "papers", "key",
    "files")
# Where the user is in a paper's PDF and when they last read it (core.progress).
PROGRESS = "progress"
SAVED = "saved"  # the saved searches (no paper is touched: the sidebar's list changes)
# A paper's annotations: shared ones (every member's to see) and the member's private ones.
ANNOTATIONS, PRIVATE_ANNOTATIONS = "annotations", "private_annotations"


@dataclass(frozen=True)
class View:
    """Which papers a list shows, and in what order."""

    filter: str = "all"
    tag: str | None = None
    search: str = ""
    sort: str = "added"
    descending: bool = False
    starred: bool = False  # starred papers only, with any filter (the CLI's --starred)
    # The search is being typed: its last word, not yet followed by a space, is a prefix.
    typing: bool = False

    @property
    def starred_only(self) -> bool:
        """Whether only starred papers are shown: the sidebar's "starred" filter, or
        `starred` with any filter (one condition, however the view was asked for)."""
        return self.filter == "starred" or self.starred


@dataclass(frozen=True)
class PaperRow:
    """What one row of the paper table shows."""

    id: int
    key: str
    title: str
    title_provisional: bool
    authors: str
    venue: str
    year: int | None
    starred: bool
    read_state: str
    added_at: datetime
    # The most serious retraction or correction notice's nature, '' if none
    # (core.retractions).
    notice: str = ""
    # The user's reading progress (core.progress): page from 0, of how many, when.
    last_page: int | None = None
    page_count: int | None = None
    last_read_at: datetime | None = None


@dataclass(frozen=True)
class Counts:
    """How many papers each sidebar filter holds."""

    all: int
    unread: int
    reading: int
    read: int
    starred: int
    tags: dict[str, int]
    recent: int = 0  # papers the user has read in (core.progress), "Recently read"
