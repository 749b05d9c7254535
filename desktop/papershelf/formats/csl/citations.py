"""A citation as citeproc-js writes it, for formats.csl: citeproc-py's
Layout.render_citation keeping the cited order where the style does not sort, and cites
of one author collapsed (collapse="year"); and Layout.render_bibliography marking where
a `second-field-align` entry's first field ends."""

from __future__ import annotations

from typing import Any

from papershelf.formats.csl.state import _CITE_NAMES, _DISAMBIGUATED
from papershelf.formats.csl.text import _FIELD_END


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
        disambiguated = _DISAMBIGUATED.get()
        for item in good:
            self.repressed = {}
            if disambiguated is not None:
                disambiguated.start(item.key)
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


def _bibliography_rendered(self: Any, citation_items: Any) -> list[Any]:
    """citeproc-py's Layout.render_bibliography, but where the bibliography aligns its
    second field (`second-field-align`: a numbered list) the end of the first field the
    layout renders is marked (`_FIELD_END`): citeproc-js puts a space there, whatever the
    field ends with ("1 Myers V", "1  Myers V" after BMJ's "1 ", "(1) Myers, V.")."""
    aligned = self.getparent().get("second-field-align") is not None
    found = []
    for item in citation_items:
        self.repressed = {}
        output = _fields(self, item) if aligned else self.render_children(item)
        text = self.format(self.wrap(output))
        if text is not None:
            found.append(text)
    return found


def _fields(layout: Any, item: Any) -> Any:
    """A layout's children rendered, the first that renders followed by `_FIELD_END`."""
    from citeproc.string import String, join

    output: list[Any] = []
    for child in layout.iterchildren():
        try:
            text = child.render(item)
        except _variable_error():
            continue
        if text is not None:
            output.append(text)
            if len(output) == 1:
                output.append(String(_FIELD_END))
    return join(output, "") if output else None


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
