"""Rendering, for formats.csl: CSL-JSON items through the patched citeproc-py
(`render_items`), and Papershelf's records as a bibliography or a citation."""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from typing import Any

from papershelf.formats.bibtex import arxiv_id
from papershelf.formats.csl.disambiguation import _ambiguous
from papershelf.formats.csl.output import (
    _checked_format,
    _mend,
    _rtf_inline,
    _written,
    to_markdown,
    to_text,
)
from papershelf.formats.csl.state import (
    _DISAMBIGUATED,
    _EXPANDED,
    _FIRST_NAMES,
    _LOCK,
    _Disambiguated,
)
from papershelf.formats.csl.style import _loaded
from papershelf.formats.csljson import csl_items
from papershelf.formats.records import PaperRecord


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
    # (an item of no type is one to citeproc-js, whose conditions on a type then fail;
    # citeproc-py needs a type: "article", the type no style's condition names first)
    found = [_particles_apart({"type": "article", **item, "id": renamed[str(item["id"])]})
             for item in found]
    # A style of citations only (no <bibliography>: a note style's citations, many of the
    # CSL test suite's) has nothing to sort and no entries.
    has_bibliography = loaded.parsed.root.bibliography is not None
    listed: list[str] = []
    cited: list[str] = []
    with _LOCK, warnings.catch_warnings():  # (citeproc-py warns of fields left out)
        warnings.simplefilter("ignore")
        bib = CitationStylesBibliography(loaded.parsed, CiteProcJSON(found), formatter.html)
        whole = Citation([CitationItem(item["id"]) for item in found])
        bib.register(whole)  # in the records' order: a numeric style's numbers
        if has_bibliography:
            bib.sort()
        names = _EXPANDED.set({})
        disambiguated = _Disambiguated()
        token = _DISAMBIGUATED.set(disambiguated)
        try:
            _ambiguous(loaded, bib, found, {new: old for old, new in renamed.items()},
                       disambiguated)
            if has_bibliography and disambiguated.registered:
                disambiguated.resorting = True
                try:
                    bib.sort()
                finally:
                    disambiguated.resorting = False
            if entries and has_bibliography:
                first = _FIRST_NAMES.set({})
                disambiguated.start()
                try:
                    listed = [_mend(str(e), loaded, entry=True) for e in bib.bibliography()]
                finally:
                    _FIRST_NAMES.reset(first)
            for cluster in clusters:  # (numbered in the bibliography's order)
                one = Citation([CitationItem(renamed[str(i)]) for i in cluster])
                bib.register(one)
                cited.append(_mend(str(bib.cite(one, lambda _item: None)), loaded))
        finally:
            _DISAMBIGUATED.reset(token)
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
