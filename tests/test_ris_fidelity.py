"""RIS without loss (issue 40): records not closed by ER, notes and event titles through
an export and a re-import, the venue of a `JA`, a book's other titles, a full date, text
rather than TeX, keywords as tags, and every field a generated paper has."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from papershelf.core.library import Library
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.formats.bibtex.reader import parse_bibtex
from papershelf.formats.bibtex.writer import write_bibtex
from papershelf.formats.records import Author, PaperRecord
from papershelf.formats.ris import parse_ris, write_ris
from tests.interchange_records import fields, records

# Each record begins at its TY line; none is closed by ER (as some exporters write, and
# JabRef and rispy read one paper per TY).
NO_ER = """\
TY  - JOUR
TI  - Deep learning
AU  - LeCun, Yann
PY  - 2015
T2  - Nature

TY  - CONF
TI  - Attention is all you need
AU  - Vaswani, Ashish
PY  - 2017

TY  - BOOK
TI  - The Art of Computer Programming
AU  - Knuth, Donald E.
PB  - Addison-Wesley
PY  - 1997
"""


def test_records_without_er_are_one_paper_per_ty() -> None:
    result = parse_ris(NO_ER, "no-er.ris")
    assert result.problems == []
    assert [(r.title, r.authors[0].family, r.year, r.source_line) for r in result.records] == [
        ("Deep learning", "LeCun", 2015, 1),
        ("Attention is all you need", "Vaswani", 2017, 7),
        ("The Art of Computer Programming", "Knuth", 1997, 12)]


def test_a_file_mixing_closed_and_open_records() -> None:
    text = NO_ER.replace("T2  - Nature\n", "T2  - Nature\nER  - \n") + "ER  - \n"
    result = parse_ris(text, "mixed.ris")
    assert result.problems == []
    assert [r.title for r in result.records] == [
        "Deep learning", "Attention is all you need", "The Art of Computer Programming"]


def test_a_record_without_er_in_a_library_import(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "no-er.ris"
    path.write_text(NO_ER, encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.failed) == (3, 0)
    assert sorted(r.title for r in library.records(library.view_ids())) == [
        "Attention is all you need", "Deep learning", "The Art of Computer Programming"]


ZOTERO_CONF = """\
TY  - CONF
TI  - Attention is all you need
AU  - Vaswani, Ashish
T2  - NeurIPS 2017
C3  - Advances in Neural Information Processing Systems
PY  - 2017
KW  - attention
KW  - transformers
N1  - <p>Read for the reading group.</p>
ER  -
"""


def test_notes_event_title_and_tags_survive_export_and_import(
        library: Library, tmp_path: Path) -> None:
    """A paper's notes (N1) are written by a plain RIS export: the notes option is the
    BibTeX annote's."""
    source = tmp_path / "zotero.ris"
    source.write_text(ZOTERO_CONF, encoding="utf-8")
    library.import_file(source)
    (pid,) = library.view_ids()
    library.set_notes(pid, "First line\nsecond line\n\n- a point\n- another")
    exported = tmp_path / "out.ris"
    exported.write_text(export_papers(library, [pid], ExportOptions(format="ris")).text,
                        encoding="utf-8")
    (back,) = parse_ris(exported.read_text(encoding="utf-8"), "out.ris").records
    assert back.notes == "First line\nsecond line\n\n- a point\n- another"
    assert back.raw["eventtitle"] == "NeurIPS 2017"
    assert back.venue == "Advances in Neural Information Processing Systems"
    assert back.tags == ["attention", "transformers"]


def test_a_journal_given_only_by_its_abbreviation() -> None:
    (record,) = parse_ris("TY  - JOUR\nTI  - T\nJA  - Phys. Rev. Lett.\nER  - \n",
                          "ja.ris").records
    assert record.venue == "Phys. Rev. Lett."
    (longer,) = parse_ris("TY  - JOUR\nTI  - T\nJA  - PRL\nJO  - Physical Review Letters\n"
                          "ER  - \n", "ja.ris").records
    assert (longer.venue, longer.raw["shortjournal"]) == ("Physical Review Letters", "PRL")


def test_a_books_other_title_is_not_dropped_silently() -> None:
    result = parse_ris("TY  - BOOK\nTI  - Algorithms\nT2  - Lecture Notes in CS\n"
                       "T3  - Another series\nPB  - Springer\nER  - \n", "b.ris")
    (book,) = result.records
    assert book.raw["series"] in ("Lecture Notes in CS", "Another series")
    assert result.notices == ["b.ris: RIS tags not kept: T3"]


def test_a_book_to_bibtex_has_no_howpublished_repeating_its_publisher() -> None:
    (book,) = parse_ris("TY  - BOOK\nTI  - TAOCP\nPB  - Addison-Wesley\nPY  - 1997\n"
                        "ID  - knuth\nER  - \n", "b.ris").records
    bib = write_bibtex([book])
    assert "publisher = {Addison-Wesley}" in bib
    assert "howpublished" not in bib


def test_a_full_date_keeps_its_day() -> None:
    (record,) = parse_ris("TY  - JOUR\nTI  - T\nDA  - 2015/02/26\nER  - \n", "d.ris").records
    assert (record.year, record.raw["month"], record.raw["date"]) == (2015, "2", "2015-02-26")
    assert "DA  - 2015/02/26/" in write_ris([record])
    (bib,) = parse_bibtex("@article{a, title={T}, journal={J}, year=2015, month=feb, "
                          "date={2015-02-26}}", "a.bib").records
    assert "DA  - 2015/02/26/" in write_ris([bib])


def test_bibtex_months_by_name_are_written() -> None:
    (bib,) = parse_bibtex("@article{a, title={T}, journal={J}, year=2024, month=jul}",
                          "a.bib").records
    assert "DA  - 2024/07//" in write_ris([bib])


def test_export_writes_text_not_tex() -> None:
    (bib,) = parse_bibtex(r"""@article{a, title={Sparse $\ell_0$ recovery in {F}rance},
    author={M{\"u}ller, J.}, journal={J. of $\mathcal{O}(n)$}, year=2020,
    abstract={We bound $\ell_0$ by $x^2$.}}""", "a.bib").records
    text = write_ris([bib])
    assert "TI  - Sparse ℓ₀ recovery in France" in text
    assert "AU  - Müller, J." in text
    assert "AB  - We bound ℓ₀ by x²." in text
    assert "$" not in text and "\\" not in text


def test_the_sample_papers_venue_is_the_proceedings_full_title() -> None:
    paper = PaperRecord(entry_type="inproceedings", key="k", title="T", venue="ICML",
                        year=2024, authors=[Author("Doe", "J")])
    text = write_ris([paper])
    assert "T2  - International Conference on Machine Learning (ICML)" in text
    assert "J2  - ICML" in text


def test_a_url_venue_is_the_url() -> None:
    (bib,) = parse_bibtex(r"@misc{a, title={T}, howpublished={\url{https://example.org/x}}}",
                          "a.bib").records
    text = write_ris([bib])
    assert "UR  - https://example.org/x" in text and "T2  -" not in text


def test_a_reports_type() -> None:
    (bib,) = parse_bibtex("@techreport{a, title={T}, institution={MSR}, type={Technical "
                          "Report}, number={TR-1}, year=2001}", "a.bib").records
    text = write_ris([bib])
    assert "M3  - Technical Report" in text
    (back,) = parse_ris(text, "r.ris").records
    assert back.raw["type"] == "Technical Report" and back.raw["number"] == "TR-1"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(note_field=False, every=True, math=False, arxiv=False))
def test_hypothesis_every_field_round_trip(record: PaperRecord) -> None:
    (back,) = parse_ris(write_ris([record], include_notes=True), "h.ris").records
    assert fields(back) == fields(record)
