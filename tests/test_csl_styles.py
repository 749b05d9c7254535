"""Issue 40, styles beyond the seven: a .csl the user adds renders as citeproc-js
renders it. Each test is a small style showing one rule the official styles measured in
tests/data/csl/README.md ("Styles a user adds") rely on, with citeproc-js's text of it
(npm citeproc 2.4.63, citeproc-py's locale files); each failed before its mend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from papershelf.formats import csl

HEAD = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"{root}>
  <info><title>Test</title><id>test</id><updated>2026-12-07T00:00:00+00:00</updated></info>
  {locale}{macros}
  <citation{citation}><layout delimiter="; ">{cite}</layout></citation>
  <bibliography{bibliography}><layout{layout}>{entry}</layout></bibliography>
</style>
"""


def _style(tmp_path: Path, entry: str, cite: str = '<text variable="citation-number"/>',
           *, root: str = "", locale: str = "", macros: str = "", citation: str = "",
           bibliography: str = "", layout: str = "") -> str:
    path = tmp_path / "style.csl"
    path.write_text(HEAD.format(root=root, locale=locale, macros=macros, citation=citation,
                                cite=cite, bibliography=bibliography, layout=layout,
                                entry=entry), encoding="utf-8")
    return str(path)


def _item(ident: str, *names: tuple[str, str], year: int | None = 2024,
          **more: Any) -> dict[str, Any]:
    item = {"id": ident, "type": "book", "title": f"Title {ident}",
            "author": [{"family": family, "given": given} for family, given in names],
            **more}
    if year:
        item["issued"] = {"date-parts": [[year]]}
    return item


def _texts(style: str, items: list[dict[str, Any]],
           clusters: list[list[str]] | None = None) -> tuple[list[str], list[str]]:
    entries, cites = csl.render_items(items, style, True,
                                      clusters or [[item["id"]] for item in items])
    return [csl.to_text(entry) for entry in entries], [csl.to_text(cite) for cite in cites]


AUTHOR = ('<names variable="author"><name initialize-with="" name-as-sort-order="all" '
          'sort-separator=" " delimiter=", "/></names>')


def test_a_numbered_entry_s_label_is_followed_by_one_space_whatever_it_ends_with(
        tmp_path: Path) -> None:
    """The Lancet's label "1" was glued to its entry ("1Myers V"), BMJ's "1 " had one
    space where citeproc-js writes two, ACS's "(1)" none: citeproc-js puts the first
    field of a `second-field-align` entry in its own column, a space after it in text."""
    items = [_item("a", ("Myers", "Vivek"))]
    expected = {"": "1 Myers V. Title a.", ' suffix=" "': "1  Myers V. Title a.",
                ' prefix="(" suffix=")"': "(1) Myers V. Title a."}
    for label, text in expected.items():
        style = _style(tmp_path, f'<text variable="citation-number"{label}/>'
                       f'<group delimiter=". " suffix=".">{AUTHOR}<text variable="title"/>'
                       '</group>', bibliography=' second-field-align="flush"')
        assert _texts(style, items)[0] == [text]


def test_a_label_of_an_empty_variable_is_not_written(tmp_path: Path) -> None:
    """ACS wrote "2024, p ." for a preprint of no pages: the page's label rendered
    without its page; citeproc-js writes a label only beside its variable."""
    pages = ('<macro name="pages"><label variable="page" form="short" suffix=" "/>'
             '<text variable="page"/></macro>')
    style = _style(tmp_path, '<group delimiter=", " suffix=".">'
                   '<text variable="title"/><date variable="issued"><date-part name="year"/>'
                   '</date><text macro="pages"/></group>', macros=pages)
    items = [_item("a", ("Myers", "Vivek")), _item("b", ("Adepu", "H"), page="203-227")]
    assert _texts(style, items)[0] == ["Title a, 2024.", "Title b, 2024, pp. 203–227."]


def test_a_localized_date_is_delimited_as_the_style_s_locale_says(tmp_path: Path) -> None:
    """NLM's own date format (its cs:locale: year, month, day, delimiter " ") wrote
    "2024Mar": the delimiter was read from the cs:date calling it, which has none."""
    locale = ('<locale xml:lang="en"><date delimiter=" " form="text">'
              '<date-part name="year"/><date-part form="short" name="month" '
              'strip-periods="true"/><date-part name="day"/></date></locale>')
    style = _style(tmp_path, '<text variable="title" suffix=". "/>'
                   '<date form="text" variable="issued" date-parts="year-month"/>',
                   locale=locale)
    item = _item("a", ("Myers", "Vivek"), year=None,
                 issued={"date-parts": [[2024, 3, 5]]})
    assert _texts(style, [item])[0] == ["Title a. 2024 Mar"]
