"""citeproc-py's (0.11) style elements mended where a style a user adds shows them
departing from citeproc-js, for formats.csl (`_patch_elements`, called once by
`patches._patch_citeproc`): a label beside an empty variable, a localized date's
delimiter, the year suffix of a style that writes none (`_implicit_suffix`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from papershelf.formats.csl.state import _IMPLICIT_SUFFIX


def _writes_no_year_suffix(layout: Any) -> bool:
    """Whether the style of `layout` never writes the year suffix itself (no cs:text of
    `year-suffix`, nor of `citation-label`): citeproc-js then writes it after the first
    year a cite or an entry shows (Elsevier Harvard's, Springer's "2024a")."""
    root = layout.get_root()
    try:
        return root.__dict__["_papershelf_no_year_suffix"]  # type: ignore[no-any-return]
    except KeyError:
        found = root.__dict__["_papershelf_no_year_suffix"] = not root.xpath_search(
            '//cs:text[@variable="year-suffix" or @variable="citation-label"]')
        return found


@contextmanager
def _implicit_suffix(layout: Any, item: Any) -> Iterator[None]:
    """While `item` renders in `layout` (a cite, an entry): its year suffix written after
    the first year it shows, if the style writes none of its own."""
    token = _IMPLICIT_SUFFIX.set([item, False] if _writes_no_year_suffix(layout) else None)
    try:
        yield
    finally:
        _IMPLICIT_SUFFIX.reset(token)


def _year_suffixed(year: Any) -> Any:
    """A year a date shows, followed by the item's year suffix if it is the first of the
    cite or entry and the style writes no suffix of its own (citeproc-js's date-part
    year, after its affixes, as citeproc-js's "literal" blob)."""
    under_way = _IMPLICIT_SUFFIX.get()
    if under_way is None or under_way[1]:
        return year
    from citeproc.string import join

    suffix = under_way[0].reference.get("year_suffix")
    if not suffix:
        return year
    under_way[1] = True
    return join([year, suffix], "")


def _patch_elements(model: Any) -> None:
    """Mend citeproc-py's Label and Date (once, for the whole process)."""
    from citeproc.source import VariableError

    label = model.Label.process

    def labelled(self: Any, item: Any, variable: Any = None, *args: Any,
                 **kwargs: Any) -> Any:
        # a cs:label of its own is written only beside its variable (ACS's "2024, p ."
        # for a paper of no pages); a name's label (cs:names) is given its variable
        if variable is None:
            name = self.get("variable")
            if name and name != "locator":
                try:
                    if not item.reference[name.replace("-", "_")]:
                        return None
                except VariableError:
                    return None
        return label(self, item, variable, *args, **kwargs)

    def single(self: Any, date: Any, show_parts: Any = None, context: Any = None) -> Any:
        # a localized date's parts are delimited as the locale's cs:date says (NLM's own
        # "2024 Mar"), not as the cs:date calling it (citeproc-js ignores its delimiter)
        parts = self.parts(date, show_parts, context) if context != self \
            else self.parts(date, show_parts)
        return self.join(parts) if parts else None

    def parts(self: Any, date: Any, show_parts: Any, context: Any = None) -> list[Any]:
        # (citeproc-py's, the year followed by an implicit year suffix)
        output = []
        for part in self.iterchildren():
            name = part.get("name")
            if name in show_parts:
                try:
                    text = part.render(date, context)
                except VariableError:
                    continue
                if text is not None:
                    output.append(_year_suffixed(text) if name == "year" else text)
        return output

    model.Date.parts = parts
    model.Label.process = labelled
    model.Date.render_single_date = single
