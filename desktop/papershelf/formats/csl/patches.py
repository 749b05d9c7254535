"""citeproc-py (0.11) mended and made faster, for formats.csl: its classes changed once,
for the whole process (`_patch_citeproc`), where it departs from the CSL specification
or from citeproc-js in these styles, and where it looks up again what a style fixes once
read."""

from __future__ import annotations

import functools
from typing import Any

from papershelf.formats.csl.citations import _bibliography_rendered, _citation_rendered
from papershelf.formats.csl.conditions import _condition_of
from papershelf.formats.csl.elements import _patch_elements
from papershelf.formats.csl.names import _patch_names
from papershelf.formats.csl.sorting import _sorted
from papershelf.formats.csl.state import _SORTING
from papershelf.formats.csl.text import (
    _OWN_STOP,
    _PREFIX_STOP,
    _TAG_RE,
    _chicago_15,
    _chicago_16,
    _initials_of,
    _normalized,
    _titled,
)

_DECORATIONS = ("font-style", "font-weight", "font-variant", "text-decoration",
                "vertical-align")


@functools.cache
def _patch_citeproc() -> None:
    """Mend citeproc-py's (0.11) departures from the CSL specification that show in
    these styles, and its slowest lookups; once."""
    from citeproc import model, source, string

    def initialized(self: Any, given: Any, mark: str, context: Any) -> Any:
        # CSL 1.0.1: initialize="false" keeps given names whole (citeproc-py ignores it)
        if (self.get("initialize") or "true").lower() == "false":
            # (citeproc-js still writes its initials with the style's mark: "Artem M.",
            # "C. Y.")
            return type(given)(_normalized(str(given), mark)) if mark else given
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
        page_format = self.get_root().get_option("page-range-format")
        if page_format in ("chicago", "chicago-15", "chicago-16") \
                and first.isdigit() and last.isdigit():
            chicago = _chicago_16 if page_format == "chicago-16" else _chicago_15
            return chicago(int(first), int(last))
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
    from citeproc.string import MixedString, String, join, normalize_seam

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
            if _SORTING.get() is not None and self.get("variable") == "year-suffix":
                # (citeproc-js's sort keys have no year suffix: a citation keeps the
                # cited order of "Smith, 2020b; Lee, 2020; Smith, 2020a")
                return None, language
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
        if string is None:
            return None
        if self.get("prefix", "").startswith("."):
            return _PREFIX_STOP + wrap(self, string)
        suffix = self.get("suffix", "")
        if suffix.startswith(".") and _TAG_RE.sub("", str(string))[-1:] in ("?", "!") and any(
                self.get(decoration) is not None for decoration in _DECORATIONS):
            prefix = self.get("prefix", "")
            return prefix + normalize_seam(prefix, string) + _OWN_STOP + suffix
        return wrap(self, string)

    _patch_names(model)
    _patch_elements(model)
    model.Layout.render_citation = _citation_rendered
    model.Layout.render_bibliography = _bibliography_rendered
    model.Affixed.wrap = wrapped
    model.Parent.render_children = render_children
    model.Group.process = grouped
    model.Choose.render = chosen
    model.Text.process = text
    model.Formatted.format = formatted
    model.Quoted.quote = quoted
    model.CitationStylesElement.get_formatter = formatter


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
