"""PubMed's MEDLINE format (`.nbib`, "Save › PubMed format") brought in (issue 28):
JabRef's test files (tests/data/medline/README.md) through the command line and the
library; records that identify no paper reported by line while the others import."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.__main__ import main
from papershelf.core.library import Library
from papershelf.formats import format_of, read_file
from tests.conftest import bibtex_of


@pytest.fixture(autouse=True)
def _past_first_start(request: pytest.FixtureRequest) -> None:
    """The library has had its first start (no sample papers come with a CLI import)."""
    if "library" in request.fixturenames:
        request.getfixturevalue("library").ensure_sample(None)

DATA = Path(__file__).parent / "data" / "medline"
NBIB = DATA / "jabref-NbibImporterTest.nbib"
COMPLETE = DATA / "jabref-MedlinePlainImporterTestCompleteEntry.txt"
MULTIPLE = DATA / "jabref-MedlinePlainImporterTestMultipleEntries.txt"


def test_the_cli_imports_an_nbib_file(library_target: str, library: Library,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert format_of(NBIB) == "medline"
    assert main(["--library", library_target, "import", str(NBIB)]) == 0
    out = capsys.readouterr().out
    assert f"{NBIB}: 1 added, 0 already present, 0 failed" in out
    assert "MEDLINE tags not kept: AD, " in out
    (paper,) = library.records(library.view_ids())
    assert paper.title == "Proteomics: A new perspective for cancer."
    # FAU (full names) in order; a single-name author is all family.
    assert [(a.family, a.given) for a in paper.authors] == [
        ("Shruthi", "Basavaradhya Sahukar"), ("Vinodhkumar", "Palani"), ("Selvamani", "")]
    assert (paper.venue, paper.year, paper.volume, paper.pages, paper.doi) == (
        "Advanced biomedical research", 2016, "5", "67", "10.4103/2277-9175.180636")
    assert paper.abstract.startswith("some things will be described")
    text = bibtex_of(library)
    assert "pmid = {27169098}" in text and "shortjournal = {Adv Biomed Res}" in text
    assert "keywords = {Biomarkers, electrophoresis, neoplasia, spectrometry, translation}" \
        in text


def test_a_pubmed_text_file_is_recognised_and_read(library: Library) -> None:
    """PubMed's "PubMed format" saved as `.txt`: continued lines, IP, MeSH headings."""
    assert format_of(COMPLETE) == "medline"
    report = library.import_file(COMPLETE)
    assert report.added == 1 and report.failed == 0
    (paper,) = library.records(library.view_ids())
    assert paper.title == ("From danger and motherhood to health and beauty: health advice "
                           "for the factory girl in early twentieth-century Britain.")
    assert [(a.family, a.given) for a in paper.authors] == [("Long", "Vicky"),
                                                            ("Marland", "Hilary")]
    assert paper.pages == "454--81" and paper.raw["number"] == "4"
    assert "Occupational Health/history" in paper.raw["keywords"]


def test_records_without_a_title_are_reported_by_line_and_the_rest_imported(
        library: Library) -> None:
    report = library.import_file(MULTIPLE)
    assert report.added == 3
    assert [(p.line, p.message) for p in report.problems] == [
        (55, "record has no title, author or DOI"),
        (91, "record has no title, author or DOI"),
        (95, "record has no title, author or DOI"),
        (99, "record has no title, author or DOI")]
    assert f"{MULTIPLE}:53: not a MEDLINE line (TAG- value), ignored: 'This line should be " \
        "omitted by the impor'" in report.notices
    titles = {r.title: r for r in library.records(library.view_ids())}
    assert titles["This is a Testtitle"].entry_type == "book"
    assert titles[""].doi == "10.1016/j.cpr.2005.02.002"
    assert titles[""].entry_type == "techreport"


def test_read_whole_without_a_library() -> None:
    result = read_file(MULTIPLE)
    assert len(result.records) == 3 and len(result.problems) == 4
