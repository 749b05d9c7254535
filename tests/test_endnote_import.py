"""EndNote XML brought in (issue 28): EndNote's and Bookends' exports (JabRef's test files,
tests/data/endnote/README.md) through the command line and the library, a bad record
reported by its number while the others import, and XML that is not EndNote's, or
declares entities, refused with one clear line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from papershelf.__main__ import main
from papershelf.core.library import Library
from papershelf.formats import format_of, read_file
from papershelf.formats.records import FormatError
from tests.conftest import bibtex_of


@pytest.fixture(autouse=True)
def _past_first_start(request: pytest.FixtureRequest) -> None:
    """The library has had its first start (no sample papers come with a CLI import)."""
    if "library" in request.fixturenames:
        request.getfixturevalue("library").ensure_sample(None)

DATA = Path(__file__).parent / "data" / "endnote"
ENDNOTE = DATA / "jabref-EndnoteXmlImporterTestLabelAndMultiTitle.xml"
BOOKENDS = DATA / "jabref-EndnoteXmlImporterTestArticle.xml"


def details_by_title(library: Library) -> dict[str, object]:
    return {d.record.title: d for d in library.details(library.view_ids())}


def test_the_cli_imports_an_endnote_export(library_target: str, library: Library,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert format_of(ENDNOTE) == "endnote"
    assert main(["--library", library_target, "import", str(ENDNOTE)]) == 0
    out = capsys.readouterr().out
    assert f"{ENDNOTE}: 3 added, 0 already present, 0 failed" in out
    records = {r.title: r for r in library.records(library.view_ids())}
    # A title of three <style> runs (an italic species name) is one title.
    skua = records["A demographic study of the south polar skua Catharacta maccormicki at "
                   "Cape Crozier"]
    assert [(a.family, a.given) for a in skua.authors] == [
        ("Ainley", "D.G."), ("Ribic", "C.A."), ("Wodd", "R.C.")]
    assert (skua.entry_type, skua.venue, skua.year, skua.volume, skua.pages) == (
        "article", "Journal of Animal Ecology", 1990, "59", "1--20")
    book = records["A survey of soil temperatures in the Chicago area"]
    assert book.entry_type == "book" and book.year == 1937
    assert book.notes == "some other notes"
    article = records["An ecological basis for reforestation of submariginal lands in the "
                      "Central Hardwood Region"]
    assert article.url == "<Go to ISI>://000200148800007"
    text = bibtex_of(library)
    assert "language = {English}" in text and "issn = {0012-9658}" in text


def test_a_bookends_export_keeps_doi_keywords_abstract_and_notes(library: Library) -> None:
    report = library.import_file(BOOKENDS)
    assert report.added == 1 and report.failed == 0
    (paper,) = library.records(library.view_ids())
    assert paper.title == ("Trends in the lifetime risk of developing cancer in Great "
                           "Britain: comparison of risk for those born from 1930 to 1960")
    assert [a.family for a in paper.authors] == ["Ahmad", "Ormiston-Smith", "Sasieni"]
    assert paper.doi == "10.1038/bjc.2014.606"
    assert paper.venue == "Br J Cancer" and paper.year == 2015 and paper.pages == "943--7"
    assert paper.url == "http://www.ncbi.nlm.nih.gov/pubmed/25647015"
    assert paper.abstract == "test abstract" and paper.notes == "some notes"
    # Keywords with commas in them ("Aged, 80 and over") are kept apart by `;`.
    assert paper.raw["keywords"].startswith("Age Factors; Aged; Aged, 80 and over; Female")
    assert paper.raw["number"] == "5"


def test_a_bad_record_is_reported_by_its_number_and_the_others_imported(
        library_target: str, library: Library, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = ENDNOTE.read_text(encoding="utf-8")
    # The second record (rec-number 13265) loses what identifies it.
    start = text.index("<rec-number>13265")
    end = text.index("</record>", start)
    second = re.sub(r"<(titles|contributors|urls)>.*?</\1>", "", text[start:end], flags=re.S)
    broken = tmp_path / "broken.xml"
    broken.write_text(text[:start] + second + text[end:], encoding="utf-8")
    line = text[:text.rindex("<record>", 0, start)].count("\n") + 1
    assert main(["--library", library_target, "import", str(broken)]) == 0
    out = capsys.readouterr().out
    assert f"{broken}: 2 added, 0 already present, 1 failed" in out
    assert (f"failed: {broken}:{line}: record 2 (rec-number 13265) has no title, author, "
            "DOI or URL; skipped") in out
    assert len(library.view_ids()) == 2


@pytest.mark.parametrize(("content", "says"), [
    ('<?xml version="1.0"?>\n<!DOCTYPE xml [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
     "<xml><records><record><titles><title>&e;</title></titles></record></records></xml>",
     "the XML file declares a DOCTYPE"),
    ('<?xml version="1.0"?>\n<xml><records><record><titles><title>T</title>\n</record>'
     "</records></xml>", "not well-formed XML: mismatched tag"),
    ('<?xml version="1.0"?>\n<rss><channel/></rss>', "not an EndNote XML file: it starts "
     "with <rss>, not <xml><records>"),
])
def test_unusable_xml_is_one_clear_line_and_nothing_is_written(
        library_target: str, library: Library, tmp_path: Path, content: str, says: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(says)):
        read_file(bad)
    assert main(["--library", library_target, "import", str(bad)]) == 1
    err = capsys.readouterr().err
    assert str(bad) in err and says in err and err.count("\n") == 1
    assert "Traceback" not in err
    assert library.view_ids() == []


def test_an_endnote_file_without_the_xml_suffix_is_recognised(tmp_path: Path) -> None:
    copy = tmp_path / "export.txt"
    copy.write_bytes(ENDNOTE.read_bytes())
    assert format_of(copy) == "endnote"
    assert len(read_file(copy).records) == 3
