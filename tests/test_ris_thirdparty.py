"""RIS files no one here wrote (issue 28): the import test cases of Zotero's own RIS
translator (tests/data/ris/zotero-translators/README.md). Each record is read as Zotero
reads it (title, authors in order, year, DOI, venue, volume, issue, pages) or is reported
by its line, never dropped; written out as RIS and read back, the papers are the same.

Where Papershelf keeps a value otherwise than Zotero does, the difference is listed below
(`DIFFERENCES`, `FAILURES`) with the reason, and the test checks Papershelf's value."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from papershelf.core.library import Library
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.formats import format_of, read_file
from papershelf.formats.interchange import raw_text
from papershelf.formats.records import PaperRecord
from papershelf.formats.ris import parse_ris
from tests.conftest import run_cli

DATA = Path(__file__).parent / "data" / "ris" / "zotero-translators"
EXPECTED: dict[str, list[dict[str, object]]] = json.loads(
    (DATA / "expected.json").read_text(encoding="utf-8"))
FILES = sorted(EXPECTED)
CASES = [(name, n) for name in FILES for n in range(len(EXPECTED[name]))]
# Zotero's creator types of an AU/A1 line (the primary creator of each item type).
PRIMARY = frozenset({"author", "inventor", "sponsor", "director", "composer", "artist",
                     "programmer", "cartographer", "podcaster", "presenter", "interviewee"})
# Papershelf types whose venue, volume, issue and pages are compared (a `misc` record's
# venue is whatever T2 held: Zotero has a field of its own for it in each item type).
COMPARED = frozenset({"article", "inproceedings", "incollection", "phdthesis",
                      "mastersthesis", "techreport", "book"})

# Records Papershelf reports instead of importing: (file, record) -> the message's start.
FAILURES = {
    # Zotero imports an item with no title and no creator, only a journal (T2) and the year
    # 0000; Papershelf has nothing to show or find it by.
    ("case-10-jour.ris", 1): "record has no title, author, DOI or URL",
}

# (file, record, field) -> (Papershelf's value, why it is not Zotero's).
DIFFERENCES: dict[tuple[str, int, str], tuple[object, str]] = {
    ("case-03-aggr.ris", 4, "authors"): (
        [], "a bill's A2 is its sponsor for Zotero; Papershelf reads A2 as an editor"),
    ("case-03-aggr.ris", 17, "authors"): (
        [("Editor", "")], "an edited book's AU are its editors for Zotero; Papershelf keeps "
        "them as the authors it lists (its A2 stays the editor)"),
    ("case-03-aggr.ris", 7, "venue"): (
        "Book Title", "Zotero takes the chapter's J2 (abbreviation) for the book title; "
        "Papershelf the T2 (its J2 is the raw shortjournal)"),
    ("case-03-aggr.ris", 8, "title"): (
        "Case Name", "Zotero takes ST (the short title) for a case's name; Papershelf TI"),
    ("case-03-aggr.ris", 44, "title"): (
        "Name of Act", "Zotero takes ST for a statute's name; Papershelf TI"),
    ("case-03-aggr.ris", 41, "volume"): (
        "Volume", "Zotero's report has no volume field; Papershelf keeps VL"),
    ("case-05-bill.ris", 31, "volume"): (
        "Report ID", "Zotero's report has no volume field; Papershelf keeps VL"),
    ("case-03-aggr.ris", 45, "volume"): (
        "Degree", "Zotero's thesis has no volume field; Papershelf keeps VL"),
    ("case-05-bill.ris", 3, "volume"): (
        "Edition", "Zotero reads the volume from the labelled note `N1  - Volume ID: ...` "
        "(Reference Manager's); Papershelf keeps N1 as notes, VL as the volume"),
    ("case-05-bill.ris", 4, "volume"): ("Edition", "as record 3"),
    ("case-05-bill.ris", 7, "volume"): ("Edition", "as record 3"),
    ("case-05-bill.ris", 7, "issue"): (
        "Volume ID", "Zotero's book has no issue; Papershelf keeps IS as the number"),
    ("case-05-bill.ris", 10, "venue"): (
        "", "the proceedings' title is only in a labelled N1 note (kept as notes)"),
    ("case-05-bill.ris", 18, "venue"): (
        "Journal Title", "INPR (in press) is a journal article for Papershelf, a manuscript "
        "(no journal) for Zotero"),
}
# A book's or a thesis's lone SP: its number of pages for Zotero (numPages), its pages for
# Papershelf (one field; a page range and a page count look alike in RIS).
NUMBER_OF_PAGES = ("book", "phdthesis", "mastersthesis")


def ty_lines(path: Path) -> list[int]:
    """The 1-based numbers of the file's TY lines: where each record starts."""
    lines = re.split(r"\r\n|\r|\n", path.read_bytes().decode("utf-8-sig"))
    return [n for n, line in enumerate(lines, start=1) if re.match(r"TY {1,2}-", line)]


def zotero_view(item: dict[str, object], record: PaperRecord) -> dict[str, object]:
    """What Zotero shows of an expected item, in the terms Papershelf shows them."""
    creators = item["creators"]
    assert isinstance(creators, list)
    date = str(item.get("date") or item.get("issueDate") or "")
    year = re.search(r"\d{4}", date)
    doi = str(item.get("DOI", ""))
    view: dict[str, object] = {
        "title": (item.get("title") or item.get("caseName") or item.get("nameOfAct")
                  or item.get("subject") or ""),
        "authors": [(c["lastName"], c.get("firstName", "")) for c in creators
                    if c["creatorType"] in PRIMARY],
        "year": int(year.group()) if year and int(year.group()) else None,  # (0000: none)
        # Zotero moves a DO that is no DOI (the templates' `DOI`) to Extra; Papershelf
        # keeps what DO says.
        "doi": doi or (record.doi if not record.doi.startswith("10.") else ""),
    }
    if record.entry_type in COMPARED:
        venue = {"article": item.get("publicationTitle"),
                 "inproceedings": item.get("proceedingsTitle") or item.get("conferenceName"),
                 "incollection": item.get("bookTitle"), "phdthesis": item.get("university"),
                 "mastersthesis": item.get("university"),
                 "techreport": item.get("institution"),
                 # A book's venue is its publisher for Papershelf (as its BibTeX reader
                 # has it); Zotero has no venue for a book.
                 "book": item.get("publisher")}[record.entry_type]
        pages = item.get("pages", "")
        if record.entry_type in NUMBER_OF_PAGES:
            pages = pages or item.get("numPages", "")
        view.update(venue=venue or "", volume=item.get("volume", ""),
                    issue=item.get("issue", ""), pages=pages)
    return view


def papershelf_view(record: PaperRecord) -> dict[str, object]:
    """What Papershelf shows of a record."""
    view: dict[str, object] = {
        "title": record.title, "authors": [(a.family, a.given) for a in record.authors],
        "year": record.year, "doi": record.doi}
    if record.entry_type in COMPARED:
        view.update(venue=record.venue, volume=record.volume,
                    issue=raw_text(record, "number"), pages=record.pages.replace("--", "-"))
    return view


def read_case(name: str, number: int) -> PaperRecord | None:
    """Record `number` of a file as Papershelf reads it (None: reported, checked apart)."""
    path = DATA / name
    line = ty_lines(path)[number]
    result = read_file(path)
    found = [r for r in result.records if r.source_line == line]
    return found[0] if found else None


@pytest.mark.parametrize("name", FILES)
def test_every_record_is_a_paper_or_a_failure_named_by_its_line(name: str) -> None:
    path = DATA / name
    assert format_of(path) == "ris"
    result = read_file(path)
    starts = ty_lines(path)
    assert len(starts) == len(EXPECTED[name])  # (Zotero's items: one per record)
    failed = {n: why for (file, n), why in FAILURES.items() if file == name}
    assert [r.source_line for r in result.records] == [
        line for n, line in enumerate(starts) if n not in failed]
    assert [(p.line, p.message) for p in result.problems] == [
        (starts[n], why) for n, why in sorted(failed.items())]
    assert all(str(p).startswith(f"{path}:{p.line}: ") for p in result.problems)


@pytest.mark.parametrize(("name", "number"), CASES)
def test_what_a_user_sees_agrees_with_zotero(name: str, number: int) -> None:
    record = read_case(name, number)
    if (name, number) in FAILURES:
        assert record is None
        return
    assert record is not None
    expected = zotero_view(EXPECTED[name][number], record)
    seen = papershelf_view(record)
    for field in list(expected):
        difference = DIFFERENCES.get((name, number, field))
        if difference is not None:
            assert expected[field] != difference[0], "no difference any more: drop it"
            expected[field] = difference[0]
    assert seen == expected


def test_the_listed_differences_are_of_existing_records() -> None:
    for name, number, field in DIFFERENCES:
        assert number < len(EXPECTED[name]) and (name, number) not in FAILURES
        assert field in {"title", "authors", "year", "doi", "venue", "volume", "issue",
                         "pages"}


def test_notes_keywords_and_abstracts_come_along() -> None:
    """The user's notes (N1), the keywords (KW, over two lines too) and the abstract
    (N2/AB) of the real exports are all there."""
    (baldwin,) = read_file(DATA / "case-01-jour.ris").records
    assert baldwin.title == ("Blood-brain barrier breach following cortical contusion "
                             "in the rat")  # (a title over two lines)
    keywords = baldwin.tags  # (Zotero's tags are tags)
    assert sorted(keywords) == EXPECTED["case-01-jour.ris"][0]["tags"]  # (Zotero's: sorted)
    assert keywords[:2] == ["cortical contusion", "blood-brain barrier"]  # (file order)
    assert baldwin.abstract == EXPECTED["case-01-jour.ris"][0]["abstractNote"]
    (scopus, ) = read_file(DATA / "case-10-jour.ris").records
    assert scopus.notes == "Cited By :10\n\nExport Date: 13 July 2022"
    (data_set,) = read_file(DATA / "case-11-data.ris").records
    assert data_set.abstract == EXPECTED["case-11-data.ris"][0]["abstractNote"]
    (book,) = read_file(DATA / "case-07-book.ris").records
    assert raw_text(book, "isbn") == "9783642002304"
    assert raw_text(book, "series") == EXPECTED["case-07-book.ris"][0]["series"]
    (castoe,) = read_file(DATA / "case-04-jour.ris").records
    assert raw_text(castoe, "issn") == "1755-0998"
    assert raw_text(castoe, "number") == "9999"  # (EndNote's M1, as Zotero reads it)


def test_a_year_0000_is_no_year() -> None:
    """Scopus writes `PY  - 0000` for a record without a year (case 10): Zotero leaves the
    date empty, and so does Papershelf, whichever date tag says it."""
    for tag in ("PY", "DA", "Y1"):
        text = (DATA / "case-10-jour.ris").read_text(encoding="utf-8").replace(
            "PY  - 0000", f"TI  - Untitled\n{tag}  - 0000")
        (_first, second) = parse_ris(text, "no-year.ris").records
        assert second.year is None and "month" not in second.raw


def test_the_tags_not_kept_are_named() -> None:
    """Nothing is dropped silently: the tags Papershelf does not keep are listed."""
    result = read_file(DATA / "case-07-book.ris")
    assert result.notices == [f"{DATA / 'case-07-book.ris'}: RIS tags not kept: H1, H2, L1, TS"]
    result = read_file(DATA / "case-04-jour.ris")
    assert result.notices == [f"{DATA / 'case-04-jour.ris'}: RIS tags not kept: AD, L1"]


def compared(record: PaperRecord) -> dict[str, object]:
    """A record's fields a round trip keeps (the key aside: a new library may make its
    own)."""
    return {"entry_type": record.entry_type, "title": record.title,
            "authors": record.authors, "year": record.year, "venue": record.venue,
            "volume": record.volume, "pages": record.pages, "publisher": record.publisher,
            "doi": record.doi, "url": record.url, "abstract": record.abstract,
            "notes": record.notes, "raw": dict(record.raw)}


def library_records(library: Library) -> list[PaperRecord]:
    return sorted(library.records(library.view_ids()), key=lambda r: r.key or "")


@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", FILES)
def test_ris_out_and_back_in_gives_the_same_papers(name: str, library: Library,
                                                   tmp_path: Path) -> None:
    library.ensure_sample(None)
    report = library.import_file(DATA / name)
    assert report.added + report.merged + report.already_present + report.failed == len(
        EXPECTED[name])
    assert report.failed == sum(1 for file, _ in FAILURES if file == name)
    before = library_records(library)
    text = export_papers(library, library.view_ids(),
                         ExportOptions(format="ris", include_notes=True)).text
    out = tmp_path / "out.ris"
    out.write_text(text, encoding="utf-8")
    other = Library.open(str(tmp_path / "other.sqlite"))
    try:
        other.ensure_sample(None)
        again = other.import_file(out)
        assert again.added == len(before) and not again.problems
        after = library_records(other)
    finally:
        other.close()
    assert [r.key for r in after] == [r.key for r in before]
    assert [compared(r) for r in after] == [compared(r) for r in before]


def test_the_command_line_exports_them_as_ris_that_reads_back(library_path: Path,
                                                               tmp_path: Path) -> None:
    seeded = Library.open(str(library_path))
    seeded.ensure_sample(None)
    seeded.close()
    status, out, _err = run_cli("--library", str(library_path), "import",
                                *(str(DATA / name) for name in FILES))
    assert status == 0
    assert f"{DATA / 'case-10-jour.ris'}:20: record has no title" in out
    status, text, _err = run_cli("--library", str(library_path), "export", "--format", "ris")
    assert status == 0 and text.startswith("TY  - ")
    back = tmp_path / "back.ris"
    back.write_text(text, encoding="utf-8")
    result = read_file(back)
    assert not result.problems
    titles = {r.title for r in result.records}
    assert "Mixed author tags" in titles and "Citavi Item" in titles
    (mixed,) = [r for r in result.records if r.title == "Mixed author tags"]
    assert [a.family for a in mixed.authors] == ["Georgiev", "Bello", "Carmi", "Cohen"]
