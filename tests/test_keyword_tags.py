"""Keywords become tags everywhere (issue 40): RIS `KW` (Zotero's tags), CSL-JSON
`keyword` and a plain .bib's `keywords` are the paper's tags in the sidebar, as JabRef's
keywords already were, and go back out as keywords on export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papershelf.core.library import Library
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.formats.bibtex.reader import parse_bibtex
from papershelf.formats.bibtex.writer import write_bibtex

FILES = {
    "zotero.ris": "TY  - JOUR\nTI  - Deep learning\nAU  - LeCun, Yann\nPY  - 2015\n"
                  "KW  - neural networks\nKW  - review\nER  - \n",
    "zotero.json": json.dumps([{"id": "lecun2015", "type": "article-journal",
                                "title": "Deep learning", "author": [{"family": "LeCun",
                                                                      "given": "Yann"}],
                                "issued": {"date-parts": [[2015]]},
                                "keyword": "neural networks, review"}]),
    "plain.bib": "@article{lecun2015, title={Deep learning}, author={LeCun, Yann}, "
                 "journal={Nature}, year=2015, keywords={neural networks, review}}\n",
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_keywords_are_tags_in_the_library(library: Library, tmp_path: Path,
                                          name: str) -> None:
    path = tmp_path / name
    path.write_text(FILES[name], encoding="utf-8")
    assert library.import_file(path).added == 1
    (pid,) = library.view_ids()
    assert sorted(library.records([pid])[0].tags) == ["neural networks", "review"]
    for fmt, written in (("bibtex", "keywords = {neural networks, review}"),
                         ("ris", "KW  - neural networks\nKW  - review"),
                         ("csljson", '"keyword": "neural networks, review"')):
        text = export_papers(library, [pid], ExportOptions(format=fmt)).text
        assert written in text, fmt


def test_a_plain_bib_entry_is_written_back_as_it_was() -> None:
    """Its keywords are its tags; unedited, the field is written as it was read."""
    (record,) = parse_bibtex("@article{a, title={T}, journal={J}, year=2020,\n"
                             "  keywords = {graphs;  {\\\"u}ber}}", "a.bib").records
    assert record.tags == ["graphs", "über"]
    assert "keywords = {graphs;  {\\\"u}ber}" in write_bibtex([record])
    record.tags = ["graphs"]  # (a tag removed in the window)
    assert "keywords = {graphs}" in write_bibtex([record])


def test_keywords_edited_as_a_field_are_the_tags_and_the_export(library: Library,
                                                                tmp_path: Path) -> None:
    """A .bib entry's keywords are its tags: editing the keywords field (the entry
    editor, `papershelf set`) changes the tags, and the export writes the edit; undo
    puts both back."""
    bib = tmp_path / "kw.bib"
    bib.write_text("@article{kw2024, title = {Keyworded}, author = {Doe, Jane},\n"
                   "  year = {2024}, keywords = {graphs, learning}}\n", encoding="utf-8")
    (pid,) = library.import_file(bib).added_ids
    assert library.tags_of([pid])[pid] == ["graphs", "learning"]
    change = library.set_fields(pid, {"keywords": "graphs, optimisation"})
    assert sorted(library.tags_of([pid])[pid]) == ["graphs", "optimisation"]
    exported = export_papers(library, [pid]).text
    assert "optimisation" in exported and "learning" not in exported
    assert change.undo is not None
    change.undo()
    assert sorted(library.tags_of([pid])[pid]) == ["graphs", "learning"]
    assert "learning" in export_papers(library, [pid]).text
