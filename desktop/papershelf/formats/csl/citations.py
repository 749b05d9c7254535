"""A citation as citeproc-js writes it, for formats.csl: citeproc-py's
Layout.render_citation keeping the cited order where the style does not sort, and cites
of one author collapsed (collapse="year"); and Layout.render_bibliography marking where
a `second-field-align` entry's first field ends."""

from __future__ import annotations

from typing import Any

from papershelf.formats.csl.elements import _implicit_suffix, _writes_no_year_suffix
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
                with _implicit_suffix(self, item):
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
        out = _grouped_by_author(rendered, names, citation_element)
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
        with _implicit_suffix(self, item):
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
                       citation: Any) -> list[Any]:
    """A citation's cites of the same names, one after the other, with the names written
    once (collapse="year": "(Smith, 2020b, 2020a; Lee, 2021)", as citeproc-js does; a
    style that sorts its cites puts them together); a cite left empty without its names
    (of no year) is dropped. With collapse="year-suffix", cites of the same year show
    their year suffix only ("2024d, f, h"); "year-suffix-ranged" runs three or more
    letters that follow each other into a range ("2000a–e")."""
    from citeproc.string import String, join

    delimiter = citation.get("cite-group-delimiter", ", ")
    suffixes = citation.get("collapse") != "year"
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
        # each year of the group: its text, the year it shows, its year suffixes
        years: list[tuple[Any, str, list[str]]] = []
        for n, (item, text) in enumerate(group):
            rest = str(text)
            if key and rest.startswith(key):
                rest = rest[len(key):].lstrip(", ")
            if n and not rest.strip():
                continue
            split = _year_and_suffix(item, rest) if suffixes else None
            if split and years and years[-1][2] and years[-1][1] == split[0]:
                years[-1][2].append(split[1])
                continue
            years.append((text if n == 0 else String(rest), split[0] if split else "",
                          [split[1]] if split else []))
        parts = [_collapsed_suffixes(text, letters, citation) if len(letters) > 1 else text
                 for text, _year, letters in years]
        out.append(join(parts, delimiter) if len(parts) > 1 else parts[0])
    after = citation.get("after-collapse-delimiter")
    if after is None or len(out) < 2:
        return out
    # (between the groups: after-collapse-delimiter, as citeproc-js's getSpliceDelimiter
    # puts it: after a group of several cites, or, but with collapse="year-suffix",
    # after a cite alone; Annual Reviews' "(Li et al. 2024c; Myers et al. 2024)")
    layout = citation.layout.get("delimiter", "")
    joined = [out[0]]
    for before, text in zip(groups, out[1:]):
        spliced = after if len(before) > 1 or citation.get("collapse") != "year-suffix" \
            else layout
        joined[-1] = join([joined[-1], String(spliced), text], "")
    return joined


def _year_and_suffix(item: Any, text: str) -> tuple[str, str] | None:
    """A cite's text (`text`, without its names) cut before its year suffix, which ends
    it: ("2000", "a"); None if it ends with none."""
    suffix = str(item.reference.get("year_suffix") or "")
    if not suffix or not text.endswith(suffix) or not text[:-len(suffix)][-1:].isdigit():
        return None
    return text[:-len(suffix)], suffix


def _collapsed_suffixes(text: Any, letters: list[str], citation: Any) -> Any:
    """The first cite of a year (`text`, ending with the first of `letters`) followed by
    the year suffixes of the others: "Smith 2000a, c–e"."""
    from citeproc.string import String

    layout = citation.layout
    between = citation.get("year-suffix-delimiter", layout.get("delimiter", ""))
    if _writes_no_year_suffix(layout):  # (as citeproc-js does: Springer's "2024d, f")
        between = citation.get("cite-group-delimiter", between)
    if citation.get("collapse") == "year-suffix-ranged":
        letters = _ranged(letters)
    first = between
    if _writes_no_year_suffix(layout) and citation.get("cite-group-delimiter") is None \
            and len(letters) > 2:  # (citeproc-js's Annual Reviews: "2024h, d,f")
        first = layout.get("delimiter", "")
    head = str(text)[:-len(letters[0].split("\u2013")[0])]
    return String(head + first.join([letters[0], between.join(letters[1:])]
                                    if len(letters) > 1 else letters))


def _ranged(letters: list[str]) -> list[str]:
    """Year suffixes, three or more that follow each other ("c", "d", "e") as a range
    ("c–e")."""
    runs: list[list[str]] = []
    for letter in letters:
        if runs and len(letter) == 1 == len(runs[-1][-1]) \
                and ord(letter) == ord(runs[-1][-1]) + 1:
            runs[-1].append(letter)
        else:
            runs.append([letter])
    return [f"{run[0]}\u2013{run[-1]}" if len(run) > 2 else letter
            for run in runs for letter in ([run[0]] if len(run) > 2 else run)]


def _variable_error() -> type[Exception]:
    from citeproc.source import VariableError

    return VariableError  # type: ignore[no-any-return]
