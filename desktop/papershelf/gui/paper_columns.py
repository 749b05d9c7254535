"""The paper table's columns: each one's stable name, header, sort key and formatters,
built once per model (`build_columns`), so painting a cell only calls a formatter.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.core.shapes import PaperRow
from papershelf.gui.i18n import number
from papershelf.gui.qt import QIcon, Qt, Translator, icon

# (imported when a title with math is first shown: not for the first paint)
if TYPE_CHECKING:
    from papershelf.formats import readable
else:
    readable = lazy.module("papershelf.formats.readable")

tr = Translator("PaperTable")


@dataclass(frozen=True)
class Column:
    """One table column: stable name, header, the core's sort key and its formatters."""

    name: str
    header: str
    sort: str
    tip: str
    sample: str  # the widest usual content; the default width fits it (and the header)
    display: Callable[[PaperRow], str] | None = None
    decoration: Callable[[PaperRow], QIcon] | None = None
    tooltip: Callable[[PaperRow], str] | None = None
    italic: Callable[[PaperRow], bool] | None = None
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    optional: bool = False  # hidden until shown from the header's context menu


def _progress(row: PaperRow, template: str) -> str:
    """'page 3 of 12' (`template`'s words), or '' for a paper never read here."""
    if row.last_page is None:
        return ""
    return template.format(page=number(row.last_page + 1),
                           count=number(row.page_count) if row.page_count else "?")


def _local_date(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone().strftime("%Y-%m-%d")


# A title as the table shows it: converted once, not at every paint (data() is asked for
# each painted cell; titles with math need a regex pass and symbol lookups).
@functools.lru_cache(maxsize=4096)
def shown_title(title: str) -> str:
    return readable.math_to_text(title) if "$" in title else title


def build_columns() -> list[Column]:
    """Every column with its formatters, built once per model (never per cell)."""
    stars = {True: icon("star"), False: icon("star-outline")}
    star_tips = {True: tr("Starred (click or press S to unstar)"),
                 False: tr("Not starred (click or press S to star)")}
    states = {s: icon(s) for s in ("unread", "reading", "read")}
    state_names = {"unread": tr("Unread"), "reading": tr("Reading"), "read": tr("Read")}
    state_tip = tr("{state} (click or press R: unread → reading → read)")
    state_tips = {s: state_tip.format(state=name) for s, name in state_names.items()}
    # An inbox item kept past the clean-up of old items shows it where a paper's reading
    # state is (gui.features.feeds).
    states["kept"] = icon("keep")
    state_tips["kept"] = tr("Kept: stays in the inbox past the clean-up of old items "
                            "(Shift+K unkeeps it)")
    provisional = tr("Provisional title drawn from the abstract; import the paper's BibTeX "
                     "entry or edit the title to replace it.")
    # A retracted paper's title carries a mark; a correction or an expression of concern
    # is said only in the tooltip (core.retractions).
    marks = {"Retraction": "\u2298 "}
    notice_tips = {"Retraction": tr("Retracted: a retraction notice names this paper "
                                    "(see the details)"),
                   "Expression of concern": tr("An expression of concern was published "
                                               "about this paper (see the details)"),
                   "Correction": tr("A correction was published for this paper (see the "
                                    "details)")}

    def title_tip(r: PaperRow) -> str:
        tip = f"{shown_title(r.title)}\n\n{provisional}" if r.title_provisional \
            else shown_title(r.title)
        return f"{tip}\n\n{notice_tips[r.notice]}" if r.notice in notice_tips else tip

    page_of = tr("page {page} of {count}")
    center = Qt.AlignmentFlag.AlignCenter
    right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    return [
        Column("star", "", "starred", tr("Starred"), "",
               decoration=lambda r: stars[r.starred], tooltip=lambda r: star_tips[r.starred],
               align=center),
        Column("read", "", "read_state", tr("Read state"), "",
               decoration=lambda r: states.get(r.read_state, QIcon()),
               tooltip=lambda r: state_tips.get(r.read_state, r.read_state), align=center),
        Column("title", tr("Title"), "title", tr("Title"), "M" * 30,
               display=lambda r: marks.get(r.notice, "") + shown_title(r.title),
               tooltip=title_tip,
               italic=lambda r: r.title_provisional),
        Column("authors", tr("Authors"), "authors", tr("Authors"), "Firstname Lastname",
               display=lambda r: r.authors, tooltip=lambda r: r.authors),
        Column("venue", tr("Venue"), "venue", tr("Venue"), "NeurIPS",
               display=lambda r: r.venue, tooltip=lambda r: r.venue),
        Column("year", tr("Year"), "year", tr("Year"), "8888",
               display=lambda r: str(r.year) if r.year else "", align=right),
        Column("added", tr("Added"), "added", tr("Added"), "8888-88-88",
               display=lambda r: _local_date(r.added_at), align=right),
        Column("progress", tr("Progress"), "progress",
               tr("How far you have read the PDF"), "page 888 of 888",
               display=lambda r: _progress(r, page_of), optional=True),
        Column("last_read", tr("Last read"), "last_read",
               tr("When you last read the PDF"), "8888-88-88",
               display=lambda r: _local_date(r.last_read_at) if r.last_read_at else "",
               align=right, optional=True),
    ]
