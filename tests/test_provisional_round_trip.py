"""A provisional title (drawn from the abstract of an abstract list's paper) stays
provisional through an export and an import of it: Papershelf reads its own stand-in
title back as one, in the same library or a new one, in every export format."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.core.library import Library, View
from papershelf.core.transfer import ExportOptions, export_bibtex
from papershelf.formats.titles import provisional_title


def _provisional(library: Library) -> int:
    rows = library.rows(library.view_ids(View())).values()
    return sum(row.title_provisional for row in rows)


def _export(library: Library, fmt: str) -> str:
    return export_bibtex(library, library.view_ids(View()), ExportOptions(format=fmt)).text


@pytest.mark.parametrize("fmt, suffix", [("bibtex", ".bib"), ("ris", ".ris"),
                                         ("csljson", ".json")])
def test_importing_an_export_again_keeps_provisional_titles(seeded: Library, tmp_path: Path,
                                                            fmt: str, suffix: str) -> None:
    assert _provisional(seeded) == 38
    exported = tmp_path / f"sample{suffix}"
    exported.write_text(_export(seeded, fmt), encoding="utf-8")
    before = _export(seeded, "bibtex")
    report = seeded.import_file(exported)
    assert report.added == 0 and not report.problems
    assert _provisional(seeded) == 38
    assert _export(seeded, "bibtex") == before  # the titles too: nothing was replaced


def test_an_export_imported_into_a_new_library_keeps_them(seeded: Library,
                                                          tmp_path: Path) -> None:
    exported = tmp_path / "sample.bib"
    exported.write_text(_export(seeded, "bibtex"), encoding="utf-8")
    other = Library.open(str(tmp_path / "other.sqlite"))
    try:
        assert other.import_file(exported).added == 38
        assert _provisional(other) == 38
    finally:
        other.close()


def test_a_real_title_is_not_taken_for_a_provisional_one(library: Library,
                                                         tmp_path: Path) -> None:
    abstract = ("We propose FastNet, a network that learns quickly. It is fast. "
                "Experiments show it works.")
    drawn = provisional_title(abstract)
    bib = tmp_path / "real.bib"
    bib.write_text(
        "@misc{untitled1,\n  title = {A title of its own},\n"
        f"  abstract = {{{abstract}}}\n}}\n\n"
        "@article{authored1,\n  author = {Doe, Jane},\n"
        f"  title = {{{drawn}}},\n  abstract = {{{abstract} More.}}\n}}\n",
        encoding="utf-8")
    assert library.import_file(bib).added == 2
    assert _provisional(library) == 0
