"""Formatted bibliographies and citations (formats.csl), checked against an independent
CSL processor: citeproc-js's rendering of the same items in the same style and locale
files, recorded in tests/data/csl (its README says how). Where citeproc-py still
renders differently, the difference is listed in KNOWN, exactly; a difference not listed
fails, and so does a listed one that went away."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from papershelf.core.library import Library
from papershelf.formats import csl
from papershelf.formats.bibtex import read_bibtex
from papershelf.formats.records import Author, PaperRecord
from tests.conftest import ROOT, run_cli

DATA = ROOT / "tests" / "data" / "csl"
PAPERS = read_bibtex(DATA / "papers.bib").records


@dataclass(frozen=True)
class Known:
    """One known way Papershelf's rendering (`ours`) differs from citeproc-js's
    (`theirs`), as plain text."""

    style: str
    part: str  # "citation", or "entry" of the bibliography
    ours: str
    theirs: str
    why: str


# (none since issue 40: Harvard's two cites of one author, "Smith, 2020b, 2020a", had
# been sorted by their year suffix, which citeproc-js leaves out of its sort keys)
KNOWN: list[Known] = []


def _reference(style: str) -> dict[str, dict[str, object]]:
    return json.loads((DATA / f"{csl.STYLES[style]}.json").read_text(encoding="utf-8"))


def _js_entry(entry: str) -> str:
    """citeproc-js's HTML of one entry as Papershelf writes it: the label and the text
    of a numeric style in one line, character references as characters."""
    entry = re.sub(r'\s*<div class="csl-left-margin">(.*?)</div>'
                   r'<div class="csl-right-inline">(.*?)</div>\s*', r"\1 \2", entry, flags=re.S)
    return html.unescape(re.sub(r'^<div class="csl-entry">\s*|\s*</div>$', "", entry.strip()))


def _compared(style: str, part: str, ours: list[str], theirs: list[str],
              plain: bool) -> set[Known]:
    """The known differences found between our and their renderings; a difference not
    in KNOWN fails the test."""
    assert len(ours) == len(theirs), (ours, theirs)
    used = set()
    for mine, reference in zip(ours, theirs, strict=True):
        if mine == reference:
            continue
        texts = (mine, reference) if plain else (csl.to_text(mine), csl.to_text(reference))
        known = [k for k in KNOWN if (k.style, k.part, k.ours, k.theirs) == (style, part,
                                                                              *texts)]
        assert known, f"{style} {part} differs from citeproc-js:\n  ours:   {mine}\n" \
                      f"  theirs: {reference}"
        used.add(known[0])
    return used


@pytest.mark.parametrize("style", list(csl.STYLES))
def test_each_style_renders_as_citeproc_js_does(style: str) -> None:
    """The bibliography and the citation, as text and as HTML, of a journal article, a
    conference paper, an arXiv preprint, a book, a corporate author, accented names and
    two papers of one author and year, each as citeproc-js renders them, but for KNOWN."""
    reference = _reference(style)
    used: set[Known] = set()
    for fmt in ("text", "html"):
        theirs = reference[fmt]
        assert isinstance(theirs, dict)
        bibliography = csl.bibliography(PAPERS, style, fmt)
        if fmt == "text":
            ours = bibliography.splitlines()
            expected = list(theirs["bibliography"])
        else:
            assert bibliography.startswith('<div class="csl-bib-body">\n')
            ours = [html.unescape(e) for e in
                    re.findall(r'^  <div class="csl-entry">(.*)</div>$', bibliography, re.M)]
            expected = [_js_entry(e) for e in theirs["bibliography"]]
        used |= _compared(style, "entry", ours, expected, fmt == "text")
        cite = csl.citation(PAPERS, style, fmt)
        their_cite = str(theirs["citation"])
        if fmt == "html":
            cite, their_cite = html.unescape(cite), html.unescape(their_cite)
        used |= _compared(style, "citation", [cite], [their_cite], fmt == "text")
    assert used == {k for k in KNOWN if k.style == style}, "a known difference went away"


def test_the_fixtures_render_the_items_papershelf_builds() -> None:
    """The recorded items are the very ones formats.csl gives citeproc-py (else the
    fixtures are stale: tests/data/csl/make_fixtures.sh makes them again)."""
    recorded = json.loads((DATA / "items.json").read_text(encoding="utf-8"))
    assert csl.items(PAPERS) == recorded


def test_citeproc_py_slips_are_mended() -> None:
    """The slips citeproc-py makes on these papers do not reach the user."""
    apa = csl.bibliography(PAPERS, "apa")
    assert "robustness?." not in apa and "robustness? Journal" in apa  # issue #105
    assert "(arXiv:2201.11903). arXiv." in apa  # not "ArXiv"
    chicago = csl.bibliography(PAPERS, "chicago")
    assert "Jumper, John, Richard Evans" in chicago  # given names kept whole
    assert "Protein Folding”." not in chicago and "with AlphaFold.”" in chicago
    assert csl.bibliography(PAPERS, "ieee").startswith("[1] J. Jumper")  # "[1]J." in py
    assert csl.citation(PAPERS, "nature") == "1–8"
    assert csl.citation(PAPERS, "acm") == "[1–8]"
    assert csl.citation(PAPERS[:3], "acm") == "[1–3]"
    assert csl.citation(PAPERS[:2], "acm") == "[1, 2]"  # (a range from three on)
    assert "pp. 1–30" in csl.bibliography(PAPERS, "mla")  # not "1–0"
    assert "2020a" in apa and "2020b" in apa


def test_formats_say_the_same_thing() -> None:
    """Markdown and RTF carry the same entries, with italics and escapes of their own."""
    paper = PAPERS[0]
    markdown = csl.bibliography([paper], "apa", "markdown")
    assert markdown == ("Jumper, J., Evans, R., Pritzel, A., & Green, T. (2021). Highly "
                        "accurate protein structure prediction with AlphaFold. *Nature*, "
                        "*596*(7873), 583–589. <https://doi.org/10.1038/s41586-021-03819-2>\n")
    ieee = csl.bibliography([PAPERS[2]], "ieee", "markdown")
    assert ieee.startswith("\\[1\\] J. Wei") and ieee.endswith(
        "Available: <https://arxiv.org/abs/2201.11903>\n")
    rtf = csl.bibliography([paper, PAPERS[5]], "apa", "rtf")
    assert rtf.startswith("{\\rtf1\\ansi") and rtf.rstrip().endswith("}")
    assert "\\i Nature\\i0 " in rtf and "M\\u252?ller" in rtf and rtf.isascii()
    assert rtf.count("\\par}") == 2
    nature = csl.bibliography([paper], "nature", "markdown")
    assert nature.startswith("1\\. Jumper")  # not a Markdown list
    assert csl.citation([paper], "nature", "html") == "<sup>1</sup>"
    assert csl.bibliography([], "apa") == ""


def test_unknown_style_or_format_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(csl.StyleError, match="unknown citation style 'vancouverx': use one "
                       "of apa, ieee, chicago, nature, acm, harvard, mla, or the path"):
        csl.bibliography(PAPERS, "vancouverx")
    with pytest.raises(csl.StyleError, match="no such citation style file"):
        csl.bibliography(PAPERS, str(tmp_path / "mine.csl"))
    broken = tmp_path / "broken.csl"
    broken.write_text("<style>not closed", encoding="utf-8")
    with pytest.raises(csl.StyleError, match=r"broken\.csl: not a CSL style"):
        csl.bibliography(PAPERS, str(broken))
    with pytest.raises(ValueError, match="unknown bibliography format 'pdf'"):
        csl.bibliography(PAPERS, "apa", "pdf")


def test_a_style_file_of_ones_own() -> None:
    """Any .csl file: here APA's own file, named by its path."""
    path = csl.style_path("apa")
    assert csl.bibliography(PAPERS, path) == csl.bibliography(PAPERS, "apa")


def test_papers_with_little_known_still_render() -> None:
    """A paper with only a title, one with only an author: no crash, something useful."""
    bare = [PaperRecord(entry_type="misc", title="An untitled draft"),
            PaperRecord(entry_type="article", authors=[Author("Curie", "Marie")], year=1903)]
    for style in csl.STYLES:
        text = csl.bibliography(bare, style)
        assert "untitled draft" in text.lower() and "Curie" in text, style


def _cli_library(tmp_path: Path) -> str:
    """A library file holding the fixtures' papers only (its first start is past, so
    no sample papers come with the import)."""
    target = str(tmp_path / "library.sqlite")
    library = Library.open(target)
    library.ensure_sample(None)
    library.close()
    status, _out, err = run_cli("--library", target, "import", str(DATA / "papers.bib"))
    assert status == 0, err
    return target


def test_cite_command(tmp_path: Path) -> None:
    target = _cli_library(tmp_path)
    status, out, _err = run_cli("--library", target, "cite", "--style", "ieee",
                                "jumper2021", "vaswani2017")
    assert status == 0
    assert out.splitlines()[0].startswith("[1] J. Jumper, R. Evans")
    assert out.splitlines()[1].startswith("[2] A. Vaswani et al.")
    status, out, _err = run_cli("--library", target, "cite", "--in-text", "--style", "apa",
                                "smith2020a", "smith2020b")
    assert (status, out) == (0, "(Smith, 2020b, 2020a)\n")  # (as citeproc-js: collapsed)
    status, out, _err = run_cli("--library", target, "cite", "--tag", "nope")
    assert (status, out) == (0, "")


def test_cite_to_a_file_by_its_suffix(tmp_path: Path) -> None:
    target = _cli_library(tmp_path)
    for name, start in (("refs.html", '<div class="csl-bib-body">'), ("refs.rtf", "{\\rtf1"),
                        ("refs.md", "Goodfellow, I."), ("refs.txt", "Goodfellow, I.")):
        status, out, err = run_cli("--library", target, "cite", "-o", str(tmp_path / name))
        assert (status, out) == (0, "")
        assert err == f"wrote 8 papers to {tmp_path / name}\n"
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(start), name
    assert "*Deep Learning*" in (tmp_path / "refs.md").read_text(encoding="utf-8")


def test_cite_mistakes_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    target = _cli_library(tmp_path)
    output = tmp_path / "refs.txt"
    status, out, err = run_cli("--library", target, "cite", "jumper2021", "nobody1999",
                               "-o", str(output))
    assert (status, out) == (1, "")
    assert err == "papershelf: error: no paper with the key nobody1999 (see `papershelf " \
                  "list`)\n"
    status, out, err = run_cli("--library", target, "cite", "--style", "vancouverx",
                               "jumper2021", "-o", str(output))
    assert status == 1 and err.count("\n") == 1
    assert "unknown citation style 'vancouverx'" in err
    assert not output.exists()


_SMITH = [Author("Smith", "Jane")]
_ALIKE = [
    PaperRecord(entry_type="article", title="Zeta results", authors=_SMITH, year=2019,
                venue="Journal A"),
    PaperRecord(entry_type="article", title="Later work", authors=_SMITH, year=2021,
                venue="Journal A"),
    PaperRecord(entry_type="article", title="Alpha results", authors=_SMITH, year=2019,
                venue="Journal A"),
    PaperRecord(entry_type="article", title="Early work", authors=[Author("Adams", "Ann")],
                year=2022, venue="Journal B"),
    PaperRecord(entry_type="article", title="Zeta results",
                authors=[Author("Smith", "Jane"), Author("Lee", "Li")], year=2019,
                venue="Journal A"),
]


@pytest.mark.parametrize(("style", "order"), [
    ("apa", ["Adams, A. (2022)", "Smith, J. (2019a). Alpha", "Smith, J. (2019b). Zeta",
             "Smith, J. (2021)", "Smith, J., & Lee, L. (2019)"]),
    ("chicago", ["Adams, Ann. 2022", "Smith, Jane. 2019a. “Alpha", "Smith, Jane. 2019b. “Zeta",
                 "Smith, Jane. 2021", "Smith, Jane, and Li Lee. 2019"]),
    ("harvard", ["Adams, A. (2022)", "Smith, J. (2019a) “Alpha", "Smith, J. (2019b) “Zeta",
                 "Smith, J. (2021)", "Smith, J. and Lee, L. (2019)"]),
    ("mla", ["Adams, Ann. “Early", "Smith, Jane. “Alpha", "———. “Later",
             "———. “Zeta", "Smith, Jane, and Li Lee. “Zeta"]),
    ("acm", ["[1] Adams, A. 2022", "[2] Smith, J. 2019. Alpha", "[3] Smith, J. 2021",
             "[4] Smith, J. 2019. Zeta", "[5] Smith, J. and Lee, L. 2019"]),
])
def test_entries_of_one_author_are_ordered_by_the_style_s_next_keys(
        style: str, order: list[str]) -> None:
    """Papers alike in the first sort key (one author) are put in order by the next ones
    (year, then title; title for MLA and ACM), and only they get year suffixes."""
    entries = csl.bibliography(_ALIKE, style).splitlines()
    assert len(entries) == len(order)
    for entry, start in zip(entries, order, strict=True):
        assert entry.startswith(start), (style, entry)


def test_a_bibliography_owes_nothing_to_the_one_before() -> None:
    """Year suffixes and sort keys of one bibliography do not carry over into the next:
    the one 2019 paper of Smith alone has no suffix, and the same papers in the same
    style render the same each time."""
    first = csl.bibliography(_ALIKE, "apa")
    assert "(2019a)" in first
    assert csl.bibliography(_ALIKE[:2], "apa").splitlines()[0] == \
        "Smith, J. (2019). Zeta results. Journal A."
    assert csl.bibliography(_ALIKE, "apa") == first
    assert csl.bibliographies(_ALIKE, "chicago", ("text", "html"))[0] == \
        csl.bibliography(_ALIKE, "chicago")


CITATIONS_ONLY = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><id>citations-only</id><title>Citations only</title>
    <updated>2024-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout prefix="(" suffix=")" delimiter="; ">
      <group delimiter=", ">
        <names variable="author"><name form="short"/></names>
        <text variable="title" font-style="italic"/>
      </group>
    </layout>
  </citation>
</style>
"""


def test_a_style_of_citations_only_cites_and_lists_nothing(tmp_path: Path) -> None:
    """A .csl of the user's with no <bibliography> (as a note style's citations, and most
    of the CSL test suite's) cited nothing: the engine failed sorting the bibliography it
    has not. Its citations come, its bibliography is empty; an item of no type is one."""
    style = tmp_path / "citations-only.csl"
    style.write_text(CITATIONS_ONLY, encoding="utf-8")
    items = [{"id": "a", "type": "book", "title": "Sparse Attention",
              "author": [{"family": "Lovelace", "given": "Ada"}]},
             {"id": "b", "title": "No Type At All", "author": [{"family": "Hopper"}]}]
    listed, cited = csl.render_items(items, str(style), True, [["a"], ["a", "b"]])
    assert listed == []
    assert [html.unescape(re.sub("<[^>]+>", "", c)) for c in cited] == [
        "(Lovelace, Sparse Attention)", "(Lovelace, Sparse Attention; Hopper, No Type At All)"]
