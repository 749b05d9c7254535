"""CSL-JSON export without loss (issue 40): every field a paper has that CSL-JSON can
hold is written as Zotero writes it, and BibTeX -> CSL-JSON -> BibTeX keeps it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from papershelf.formats.bibtex.reader import parse_bibtex
from papershelf.formats.bibtex.writer import write_bibtex
from papershelf.formats.csl import bibliography
from papershelf.formats.csljson import parse_csl_json, write_csl_json
from papershelf.formats.records import PaperRecord
from tests.interchange_records import fields, records


def _items(bib: str) -> list[dict[str, object]]:
    return json.loads(write_csl_json(parse_bibtex(bib, "x.bib").records))


def _again(bib: str) -> list[PaperRecord]:
    """BibTeX read, written as CSL-JSON, read back."""
    return parse_csl_json(write_csl_json(parse_bibtex(bib, "x.bib").records), "x.json").records


@pytest.mark.parametrize("month", ["jul", "{July}", "{Jul.}", "7", "{07}", '"july"'])
def test_bibtex_months_are_written(month: str) -> None:
    (item,) = _items(f"@article{{a, title={{T}}, journal={{J}}, year=2024, month={month}}}")
    assert item["issued"] == {"date-parts": [[2024, 7]]}


def test_a_day_is_written_and_read_back() -> None:
    bib = "@article{a, title={T}, journal={J}, year=2015, month=feb, date={2015-02-26}}"
    (item,) = _items(bib)
    assert item["issued"] == {"date-parts": [[2015, 2, 26]]}
    (back,) = parse_csl_json(json.dumps([item]), "d.json").records
    assert (back.year, back.raw["month"], back.raw["date"]) == (2015, "2", "2015-02-26")
    assert "date = {2015-02-26}" in write_bibtex([back])


ARXIV = """@misc{vaswani2017, title={Attention Is All You Need}, author={Vaswani, Ashish},
year=2017, eprint={1706.03762}, archivePrefix={arXiv}, primaryClass={cs.CL}}"""


def test_an_arxiv_preprint_as_zotero_writes_it() -> None:
    (item,) = _items(ARXIV)
    assert item["type"] == "article"
    assert item["publisher"] == "arXiv"
    assert item["number"] == "arXiv:1706.03762"
    assert item["DOI"] == "10.48550/arXiv.1706.03762"
    assert "container-title" not in item


def test_an_arxiv_preprint_comes_back_with_its_eprint() -> None:
    (back,) = _again(ARXIV)
    assert back.entry_type == "misc"
    assert (back.raw["eprint"], back.raw["archiveprefix"]) == ("1706.03762", "arXiv")
    assert back.publisher == ""
    bib = write_bibtex([back])
    assert "eprint = {1706.03762}" in bib and "archiveprefix = {arXiv}" in bib


def test_a_published_papers_eprint_is_kept_in_the_note() -> None:
    bib = """@inproceedings{a, title={T}, booktitle={Proceedings of X}, year=2020,
    eprint={2001.00001}, archivePrefix={arXiv}, note={Oral}}"""
    (item,) = _items(bib)
    assert item["type"] == "paper-conference"
    assert item["note"] == "Oral\narXiv: 2001.00001"
    (back,) = _again(bib)
    assert back.raw["eprint"] == "2001.00001" and back.raw["note"] == "Oral"


def test_a_reports_type_is_its_genre() -> None:
    bib = """@techreport{paxos, title={Paxos Made Simple}, institution={Microsoft Research},
    type={Technical Report}, number={MSR-TR-2001-01}, year=2001}"""
    (item,) = _items(bib)
    assert (item["type"], item["genre"], item["number"]) == (
        "report", "Technical Report", "MSR-TR-2001-01")
    (back,) = _again(bib)
    assert back.raw["type"] == "Technical Report"
    assert "type = {Technical Report}" in write_bibtex([back])


def test_a_thesis_genre() -> None:
    (item,) = _items("@phdthesis{t, title={T}, school={MIT}, type={Doctoral dissertation}, "
                     "year=1990}")
    assert (item["type"], item["genre"], item["publisher"]) == (
        "thesis", "Doctoral dissertation", "MIT")
    (masters,) = _items("@mastersthesis{t, title={T}, school={MIT}, year=1990}")
    assert masters["genre"] == "Master's thesis"
    (back,) = parse_csl_json(json.dumps([masters]), "m.json").records
    assert back.entry_type == "mastersthesis" and "type" not in back.raw


def test_a_url_in_howpublished_is_the_url() -> None:
    (item,) = _items(r"@misc{a, title={T}, howpublished={\url{https://example.org/x}}, "
                     "year=2020}")
    assert item["URL"] == "https://example.org/x"
    assert "container-title" not in item
    text = bibliography([parse_bibtex(r"@misc{a, title={T}, author={A, B}, howpublished="
                                      r"{\url{https://example.org/x}}, year=2020}",
                                      "x.bib").records[0]], "apa")
    assert "Https://" not in text


def test_the_sample_papers_venue_is_the_proceedings_full_title() -> None:
    """A seed paper (the heading `ICML 2024 论文列表`) has the venue `ICML`; the BibTeX
    export writes the proceedings' full title, and so do CSL-JSON and the citations."""
    paper = PaperRecord(entry_type="inproceedings", key="k", title="T", venue="ICML",
                        year=2024)
    assert "International Conference on Machine Learning ({ICML})" in write_bibtex([paper])
    (item,) = json.loads(write_csl_json([paper]))
    assert item["container-title"] == "International Conference on Machine Learning (ICML)"
    assert item["container-title-short"] == "ICML"
    assert "International Conference on Machine Learning" in bibliography([paper], "apa")


def test_a_short_name_of_its_own_is_kept() -> None:
    bib = """@inproceedings{a, title={T}, booktitle={Proceedings of the 41st International
    Conference on Machine Learning}, shortjournal={ICML}, year=2024, month=jul}"""
    (item,) = _items(bib)
    assert item["container-title"].startswith("Proceedings of the 41st")
    assert item["container-title-short"] == "ICML"


def test_a_books_container_title_is_its_series() -> None:
    result = parse_csl_json(json.dumps([{
        "type": "book", "title": "Algorithms", "publisher": "Springer",
        "container-title": "Lecture Notes in Computer Science"}]), "b.json")
    (book,) = result.records
    assert book.raw["series"] == "Lecture Notes in Computer Science"
    both = parse_csl_json(json.dumps([{
        "type": "book", "title": "A", "publisher": "S", "collection-title": "LNCS",
        "container-title": "Other"}]), "b.json")
    assert both.records[0].raw["series"] == "LNCS"
    assert both.notices == ["b.json: CSL-JSON keys not kept: container-title"]


def test_keywords_are_tags() -> None:
    (record,) = parse_csl_json(json.dumps([{"title": "T", "keyword": "graphs, deep learning"}]),
                               "k.json").records
    assert record.tags == ["graphs", "deep learning"]
    (item,) = json.loads(write_csl_json([record]))
    assert item["keyword"] == "graphs, deep learning"


def test_bibtex_round_trip_keeps_every_field() -> None:
    bib = r"""@inproceedings{full, title={Full paper}, author={Doe, Jane and Roe, R.},
    booktitle={Proceedings of X}, shortjournal={X}, eventtitle={X 2024}, year=2024,
    month=jul, date={2024-07-21}, volume={3}, number={2}, pages={1--9}, publisher={P},
    address={Vienna}, editor={Ed, Ann}, series={PMLR}, doi={10.1/x}, url={https://x.org},
    isbn={978-3-16-148410-0}, edition={2}, language={en}, note={Oral},
    eprint={2401.00001}, archivePrefix={arXiv}, abstract={An abstract.}}"""
    (read,) = parse_bibtex(bib, "f.bib").records
    (back,) = _again(bib)
    assert back.key == "full" and back.title == read.title and back.authors == read.authors
    assert (back.venue, back.year, back.volume, back.pages, back.publisher, back.doi,
            back.url, back.abstract) == (read.venue, read.year, read.volume, read.pages,
                                          read.publisher, read.doi, read.url, read.abstract)
    for name in ("shortjournal", "eventtitle", "date", "number", "address", "series",
                 "isbn", "edition", "language", "note", "eprint", "archiveprefix"):
        assert back.raw[name] == read.raw[name], name
    assert back.raw["month"] == "7" and back.raw["editor"] == read.raw["editor"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(notes=False, every=True))
def test_hypothesis_every_field_round_trip(record: PaperRecord) -> None:
    (back,) = parse_csl_json(write_csl_json([record]), "h.json").records
    expected = fields(record)
    expected["key"] = record.key or "item1"
    assert fields(back) == expected
