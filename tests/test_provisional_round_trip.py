"""A provisional title (drawn from the abstract of an abstract list's paper) stays
provisional through an export and an import of it: Papershelf reads its own stand-in
title back as one, in the same library or a new one, in every export format."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.core.library import Library, View
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.formats.titles import provisional_title
from tests.crash.harness import downgrade


def _provisional(library: Library) -> int:
    rows = library.rows(library.view_ids(View())).values()
    return sum(row.title_provisional for row in rows)


def _export(library: Library, fmt: str) -> str:
    return export_papers(library, library.view_ids(View()), ExportOptions(format=fmt)).text


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


def test_a_paper_with_math_is_found_again_whatever_form_its_math_takes(
        library: Library, tmp_path: Path) -> None:
    """RIS and CSL-JSON write text, not TeX (`$\\ell_0$` as ℓ₀): importing such an export
    finds the papers it came from by their title and abstract, instead of adding them
    again."""
    bib = tmp_path / "math.bib"
    bib.write_text(
        "@article{sparse2024,\n  author = {Doe, Jane},\n"
        "  title = {Sparse $\\ell_0$ Regression in {Schr\\\"odinger} Bridges},\n"
        "  year = {2024},\n  abstract = {We bound the $\\ell_0$ norm of the "
        "estimator by $\\mathcal{O}(\\epsilon^{-2})$ and show it is tight for every "
        "Schr\\\"odinger bridge we tried.}\n}\n", encoding="utf-8")
    assert library.import_file(bib).added == 1
    for fmt, suffix in (("ris", ".ris"), ("csljson", ".json")):
        exported = tmp_path / f"math{suffix}"
        exported.write_text(_export(library, fmt), encoding="utf-8")
        if fmt == "ris":  # (CSL-JSON keeps the TeX, as citation processors read it)
            assert "ℓ₀" in exported.read_text(encoding="utf-8")
        report = library.import_file(exported)
        assert report.added == 0, fmt
        assert library.count(View()) == 1


@pytest.mark.sqlite_only
def test_a_library_from_before_finds_its_latex_titles_again(library_path: Path,
                                                            tmp_path: Path) -> None:
    """A library written before titles' LaTeX was read for matching (schema 0013) has
    them normalised the old way: the upgrade normalises them again, so importing the
    same .bib adds nothing."""
    import contextlib
    import sqlite3

    bib = tmp_path / "math.bib"
    bib.write_text("@article{sparse2024, author = {Doe, Jane}, year = {2024},\n"
                   "  title = {Sparse $\\ell_0$ Regression in {Schr\\\"odinger} Bridges}}\n",
                   encoding="utf-8")
    library = Library.open(str(library_path))
    assert library.import_file(bib).added == 1
    library.close()
    downgrade(library_path, "0013")
    with contextlib.closing(sqlite3.connect(library_path)) as conn, conn:
        conn.execute("UPDATE papers SET title_norm = 'sparse ell 0 regression in schr "
                     "odinger bridges', abstract_hash = NULL")
    library = Library.open(str(library_path))
    try:
        assert library.import_file(bib).added == 0
        assert library.count(View()) == 1
    finally:
        library.close()
