"""Reading and writing CSL-JSON: a Zotero export, every key mapped, types both ways,
JSON errors by line and column, unusable items by line while the good ones import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from papershelf.formats import csljson
from papershelf.formats.bibtex.writer import write_bibtex
from papershelf.formats.csljson import parse_csl_json, read_csl_json, write_csl_json
from papershelf.formats.records import Author, FormatError, PaperRecord
from tests.conftest import run_cli
from tests.interchange_records import fields, records

# As Zotero 6/7 exports CSL JSON (tab-indented; date parts as strings or numbers; an id
# that is the item's address, not a citation key).
ZOTERO = """\
[
\t{
\t\t"id": "http://zotero.org/users/local/kQ3b9mWd/items/7ZJ4XQ2C",
\t\t"type": "paper-conference",
\t\t"abstract": "The dominant sequence transduction models.\\n\\nWe propose the Transformer.",
\t\t"collection-title": "NIPS'17",
\t\t"container-title": "Advances in Neural Information Processing Systems",
\t\t"event-place": "Long Beach, CA",
\t\t"ISBN": "978-1-5108-6096-4",
\t\t"language": "en",
\t\t"page": "5998–6008",
\t\t"publisher": "Curran Associates, Inc.",
\t\t"publisher-place": "Long Beach, CA",
\t\t"source": "Neural Information Processing Systems",
\t\t"title": "Attention is All you Need",
\t\t"title-short": "Attention is all you need",
\t\t"URL": "https://proceedings.neurips.cc/paper/2017/hash/3f5ee243-Abstract.html",
\t\t"volume": "30",
\t\t"author": [
\t\t\t{"family": "Vaswani", "given": "Ashish"},
\t\t\t{"family": "Shazeer", "given": "Noam"}
\t\t],
\t\t"editor": [
\t\t\t{"family": "Guyon", "given": "I."},
\t\t\t{"family": "Luxburg", "given": "U.", "non-dropping-particle": "von"}
\t\t],
\t\t"accessed": {"date-parts": [["2024", 1, 5]]},
\t\t"issued": {"date-parts": [["2017", 12]]}
\t},
\t{
\t\t"id": "lecun2015",
\t\t"type": "article-journal",
\t\t"container-title": "Nature",
\t\t"container-title-short": "Nature",
\t\t"DOI": "10.1038/nature14539",
\t\t"ISSN": "0028-0836",
\t\t"issue": "7553",
\t\t"note": "PMID: 26017442",
\t\t"page": "436-444",
\t\t"title": "Deep learning",
\t\t"volume": "521",
\t\t"keyword": "deep learning, neural networks",
\t\t"author": [
\t\t\t{"family": "LeCun", "given": "Yann"},
\t\t\t{"literal": "The Deep Learning Consortium"}
\t\t],
\t\t"issued": {"date-parts": [[2015, 5, 27]]}
\t},
\t{
\t\t"id": "shannon1940",
\t\t"citation-key": "Shannon1940",
\t\t"type": "thesis",
\t\t"genre": "Master's thesis",
\t\t"publisher": "Massachusetts Institute of Technology",
\t\t"title": "A symbolic analysis of relay and switching circuits",
\t\t"author": [{"family": "Shannon", "given": "Claude Elwood"}],
\t\t"issued": {"raw": "1940"}
\t},
\t{
\t\t"id": "paxos",
\t\t"type": "report",
\t\t"number": "MSR-TR-2001-01",
\t\t"publisher": "Microsoft Research",
\t\t"title": "Paxos Made Simple",
\t\t"author": [{"family": "Lamport", "given": "Leslie"}],
\t\t"issued": {"literal": "November 2001"}
\t}
]
"""


def test_zotero_export_every_key() -> None:
    result = parse_csl_json(ZOTERO.encode(), "zotero.json")
    assert result.problems == []
    conf, article, thesis, report = result.records
    assert (conf.entry_type, conf.key, conf.source_line) == ("inproceedings", None, 2)
    assert conf.title == "Attention is All you Need"
    assert conf.authors == [Author("Vaswani", "Ashish"), Author("Shazeer", "Noam")]
    assert conf.venue == "Advances in Neural Information Processing Systems"
    assert (conf.year, conf.volume, conf.pages) == (2017, "30", "5998--6008")
    assert conf.publisher == "Curran Associates, Inc."
    assert conf.abstract == "The dominant sequence transduction models.\n\nWe propose the " \
        "Transformer."
    assert conf.url.endswith("3f5ee243-Abstract.html")
    assert conf.raw == {
        "editor": "Guyon, I. and von Luxburg, U.", "month": "12",
        "shorttitle": "Attention is all you need", "series": "NIPS'17",
        "address": "Long Beach, CA", "isbn": "978-1-5108-6096-4", "language": "en"}
    assert (article.entry_type, article.key, article.venue) == ("article", "lecun2015", "Nature")
    assert article.authors[1] == Author("The Deep Learning Consortium")
    assert (article.year, article.doi, article.pages) == (2015, "10.1038/nature14539",
                                                          "436--444")
    assert article.raw == {
        "month": "5", "date": "2015-05-27", "number": "7553", "shortjournal": "Nature",
        "issn": "0028-0836", "note": "PMID: 26017442"}
    assert article.tags == ["deep learning", "neural networks"]
    assert article.source_line == 30
    assert (thesis.entry_type, thesis.key, thesis.venue, thesis.publisher, thesis.year) == (
        "mastersthesis", "Shannon1940", "Massachusetts Institute of Technology", "", 1940)
    assert (report.entry_type, report.venue, report.year) == (
        "techreport", "Microsoft Research", 2001)
    assert report.raw == {"month": "11", "number": "MSR-TR-2001-01"}
    assert result.notices == ["zotero.json: CSL-JSON keys not kept: accessed, event-place, "
                              "source"]


def test_venue_goes_to_the_bibtex_field_of_its_type() -> None:
    read = parse_csl_json(ZOTERO, "z.json").records
    for n, record in enumerate(read):
        record.key = f"k{n}"
    bib = write_bibtex(read)
    assert "booktitle = {Advances in Neural Information Processing Systems}" in bib
    assert "journal = {Nature}" in bib
    assert "school = {Massachusetts Institute of Technology}" in bib
    assert "institution = {Microsoft Research}" in bib
    assert "note = {PMID: 26017442}" in bib


@pytest.mark.parametrize(("csl", "entry_type", "written"), [
    ("article-journal", "article", "article-journal"),
    ("article-magazine", "article", "article-journal"),
    ("article-newspaper", "article", "article-journal"),
    ("paper-conference", "inproceedings", "paper-conference"), ("book", "book", "book"),
    ("chapter", "incollection", "chapter"), ("thesis", "phdthesis", "thesis"),
    ("report", "techreport", "report"), ("manuscript", "unpublished", "manuscript"),
    ("article", "misc", "article"), ("webpage", "misc", "article"),
    ("document", "misc", "article"), ("dataset", "misc", "article"), ("", "misc", "article"),
])
def test_types_both_ways(csl: str, entry_type: str, written: str) -> None:
    (record,) = parse_csl_json(json.dumps([{"type": csl, "title": "T"}]), "t.json").records
    assert record.entry_type == entry_type
    assert json.loads(write_csl_json([record]))[0]["type"] == written


@pytest.mark.parametrize(("entry_type", "csl"), [
    ("inbook", "chapter"), ("conference", "paper-conference"), ("mastersthesis", "thesis"),
    ("online", "webpage"), ("proceedings", "book"), ("manual", "article"),
])
def test_other_bibtex_types_written(entry_type: str, csl: str) -> None:
    (item,) = json.loads(write_csl_json([PaperRecord(entry_type=entry_type, title="T")]))
    assert item["type"] == csl


BROKEN = """\
[
  {"id": "good1", "type": "book", "title": "Good one"},
  "not an item",
  {"id": "empty", "type": "article-journal", "issued": {"date-parts": [[2020]]}},
  {
    "id": "good2",
    "title": "Good two",
    "author": [{"given": "Only a given name"}, {}, "junk"]
  },
  42, [1, 2],
  {"id": "doi-only", "DOI": "10.1000/xyz"}
]
"""


def test_unusable_items_reported_with_their_line_good_ones_read() -> None:
    result = parse_csl_json(BROKEN, "broken.json")
    assert [r.key for r in result.records] == ["good1", "good2", "doi-only"]
    assert [r.source_line for r in result.records] == [2, 5, 11]
    assert result.records[1].authors == [Author("Only a given name")]
    assert [(p.line, p.message) for p in result.problems] == [
        (3, "item is not an object"),
        (4, "item has no title, author, DOI or URL"),
        (10, "item is not an object"),
        (10, "item is not an object"),
    ]
    assert str(result.problems[0]) == "broken.json:3: item is not an object"


def test_json_syntax_error_names_line_and_column() -> None:
    with pytest.raises(FormatError) as caught:
        parse_csl_json('[\n  {"title": "A"},\n  {"title": "B",}\n]\n', "bad.json")
    assert caught.value.line == 3
    assert str(caught.value) == ("bad.json:3: not valid JSON: Expecting property name "
                                 "enclosed in double quotes (column 17)")


def test_whole_file_problems_raise() -> None:
    with pytest.raises(FormatError, match="expected a list of items"):
        parse_csl_json('{"items": []}', "x.json")
    with pytest.raises(FormatError, match="expected a list of items"):
        parse_csl_json('"text"', "x.json")
    with pytest.raises(FormatError, match="not UTF-8"):
        parse_csl_json(b'[{"title": "Caf\xe9"}]', "latin1.json")
    with pytest.raises(FormatError, match="not valid JSON"):
        parse_csl_json(b"", "empty.json")
    assert parse_csl_json("[]", "none.json").records == []


def test_one_bare_item_and_bom_and_windows_line_ends() -> None:
    (one,) = parse_csl_json('\n{"type": "book", "title": "Alone"}', "one.json").records
    assert (one.title, one.source_line) == ("Alone", 2)
    plain = parse_csl_json(ZOTERO.encode(), "a.json")
    crlf = parse_csl_json(b"\xef\xbb\xbf" + ZOTERO.replace("\n", "\r\n").encode(), "b.json")
    assert [fields(r) for r in crlf.records] == [fields(r) for r in plain.records]
    assert [r.source_line for r in crlf.records] == [2, 30, 49, 59]


@pytest.mark.parametrize(("issued", "year", "month"), [
    ({"date-parts": [[2024, 7]]}, 2024, "7"), ({"date-parts": [["2024", "07", "01"]]}, 2024, "7"),
    ({"date-parts": [[2024]]}, 2024, None), ({"raw": "2024-03-05"}, 2024, "3"),
    ({"literal": "Spring 2019"}, 2019, None), ({"literal": "March 2019"}, 2019, "3"),
    ({"date-parts": [[2020, 13]]}, 2020, None), ({"season": 2}, None, None), ("1999", 1999, None),
])
def test_issued_dates(issued: object, year: int | None, month: str | None) -> None:
    (record,) = parse_csl_json(json.dumps([{"title": "T", "issued": issued}]), "d").records
    assert record.year == year and record.raw.get("month") == month


def test_ids_that_are_not_keys() -> None:
    items = [{"id": 3, "title": "A"}, {"id": "has space", "title": "B"},
             {"id": "https://doi.org/10.1/x", "title": "C"}, {"id": "ok:key/1", "title": "D"}]
    assert [r.key for r in parse_csl_json(json.dumps(items), "k").records] == [
        None, None, None, "ok:key/1"]


def test_read_csl_json_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_bytes(ZOTERO.encode())
    assert len(read_csl_json(path).records) == 4
    with pytest.raises(FormatError, match="cannot read the file"):
        read_csl_json(tmp_path / "missing.json")


def test_write_csl_json_shape() -> None:
    record = PaperRecord(
        entry_type="article", key="lecun2015", title="Deep learning",
        authors=[Author("LeCun", "Yann"), Author("OpenAI")], venue="Nature", year=2015,
        volume="521", pages="436--444", doi="10.1038/nature14539", abstract="Ü $x$.",
        tags=["to read", "dl"], raw={"keywords": "ignored", "month": "5", "number": "7553"},
        notes="Not written: the user's own.")
    assert json.loads(write_csl_json([record, PaperRecord(title="No key")])) == [
        {"id": "lecun2015", "type": "article-journal", "title": "Deep learning",
         "author": [{"family": "LeCun", "given": "Yann"}, {"literal": "OpenAI"}],
         "issued": {"date-parts": [[2015, 5]]}, "container-title": "Nature", "volume": "521",
         "issue": "7553", "page": "436-444", "DOI": "10.1038/nature14539",
         "abstract": "Ü $x$.", "keyword": "to read, dl"},
        {"id": "item2", "type": "paper-conference", "title": "No key"},
    ]
    assert "Ü" in write_csl_json([record])  # UTF-8, not \\u escapes


def test_round_trip_keeps_every_field() -> None:
    read = parse_csl_json(ZOTERO, "z.json").records
    again = parse_csl_json(write_csl_json(read), "again.json").records
    assert again[0].key == "item1"  # a record without a key gets an id, read back as key
    read[0].key = "item1"
    assert [fields(r) for r in again] == [fields(r) for r in read]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(notes=False))
def test_hypothesis_write_read_round_trip(record: PaperRecord) -> None:
    (back,) = parse_csl_json(write_csl_json([record]), "h.json").records
    expected = fields(record)
    expected["key"] = record.key or "item1"  # (the id a record without a key is given)
    assert fields(back) == expected


def test_a_books_venue_is_its_publisher() -> None:
    """As the BibTeX reader has it; not written as a container title."""
    (book,) = parse_csl_json('[{"type": "book", "title": "TAOCP", "publisher": "A-W"}]',
                             "b.json").records
    assert book.venue == book.publisher == "A-W"
    (item,) = json.loads(write_csl_json([book]))
    assert "container-title" not in item and item["publisher"] == "A-W"


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_json_nested_absurdly_deep_is_one_line_naming_the_file(tmp_path: Path,
                                                               depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text('[\n  {"title": "Fine"},\n  {"title": "Deep", "note":\n'
                    + "[" * depth + "]" * depth + "}\n]\n")

    status, out, err = run_cli("import", str(path), "--library", str(tmp_path / "l.sqlite"))

    assert (status, out) == (1, "")
    assert err == (f"papershelf: error: {path}:4: JSON nested more than "
                   f"{csljson.MAX_DEPTH} levels deep\n")
