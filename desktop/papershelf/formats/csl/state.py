"""What a rendering of formats.csl knows while it runs, shared by the patched citeproc-py
elements (`patches`, `names`, `conditions`, `sorting`) and the code that renders
(`render`, `disambiguation`): context variables, set for one rendering at a time."""

from __future__ import annotations

import threading
from contextvars import ContextVar
from typing import Any

# How the names of a cite are expanded to tell it from others (CSL's
# disambiguate-add-names and -add-givenname), by item id: the number of names shown (0: as
# the style says) and, by the place of a name, 1 for its initials, 2 for its whole given
# name (missing or 0: as the style says). In the bibliography too.
_EXPANDED: ContextVar[dict[str, tuple[int, tuple[int, ...]]] | None] = ContextVar(
    "expanded", default=None)

# The first names each entry of a bibliography shows, by item id, while it renders
# (subsequent-author-substitute: MLA's "———.").
_FIRST_NAMES: ContextVar[dict[str, str] | None] = ContextVar("first_names", default=None)

# The names each cite of a citation shows, by item id, while it renders (collapse="year").
_CITE_NAMES: ContextVar[dict[str, str] | None] = ContextVar("cite_names", default=None)

# The name options of the sort key that renders (`sorting._sorted`), None when none does.
_SORTING: ContextVar[dict[str, Any] | None] = ContextVar("sorting", default=None)

# The cite or entry that renders, where its style writes no year suffix of its own and
# citeproc-js writes it after the first year of a date (`elements._year_suffixed`): the
# item, and whether its suffix is written. None elsewhere (sort keys, the renderings that
# look for ambiguous cites: citeproc-js's "just looking").
_IMPLICIT_SUFFIX: ContextVar[list[Any] | None] = ContextVar("implicit_suffix", default=None)

# Whether the cites that render are those citeproc-js compares to find the ambiguous ones,
# which it renders as subsequent cites (et-al-subsequent-min and -use-first: ASA's).
_SUBSEQUENT: ContextVar[bool] = ContextVar("subsequent", default=False)

# One rendering at a time: a parsed style is shared and citeproc-py sets its formatter.
_LOCK = threading.Lock()


class _Disambiguated:
    """CSL's `disambiguate` condition as citeproc-js tests it: by item id, the level of
    the cite's disambiguation (0: none; n: the first n `disambiguate="true"` conditions
    a rendering of the cite meets hold), and, in the rendering under way (of the item
    `key`), how many such conditions it met (`met`) and how many held (`held`): what
    citeproc-js's disambiguate_maxMax and disambiguate_count count."""

    def __init__(self) -> None:
        self.levels: dict[str, int] = {}
        # the given names citeproc-js's name registry writes (the rules but "by-cite"),
        # by item id, as _EXPANDED holds them: in a citation's sort keys too
        self.registered: dict[str, tuple[int, tuple[int, ...]]] = {}
        self.key: str | None = None
        # the bibliography sorted again after disambiguation: its sort keys have the
        # registered given names too (citeproc-js: APA 6th's "Chen, Yanxi" before
        # "Chen, Yizhuo")
        self.resorting = False
        self.met = 0
        self.held = 0

    def start(self, key: str | None = None) -> None:
        """A rendering of `key` begins."""
        self.key, self.met, self.held = key, 0, 0

    def holds(self, key: str) -> bool:
        """Whether a `disambiguate="true"` condition of a rendering of `key` holds."""
        if key != self.key:
            self.start(key)
        self.met += 1
        if self.held >= self.levels.get(key, 0):
            return False
        self.held += 1
        return True


# The `disambiguate` levels of the rendering under way.
_DISAMBIGUATED: ContextVar[_Disambiguated | None] = ContextVar("disambiguated", default=None)
