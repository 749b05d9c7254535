"""CSL-JSON no one here wrote (issue 28): the input items of the CSL test suite's
processor fixtures (tests/data/csljson/csl-test-suite/README.md). Each item is read as
CSL means it (title, names with their particles in order, year, DOI, URL, venue, volume,
issue, pages, note) or is reported by its line, never dropped; written out as CSL-JSON
and read back, the papers are the same.

The expected values come from the items themselves, read by the CSL specification;
where Papershelf keeps a value otherwise, the difference is spelled out below."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from papershelf.core.library import Library
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.formats import format_of, read_file
from papershelf.formats.interchange import raw_text
from papershelf.formats.records import PaperRecord
from tests.conftest import run_cli

DATA = Path(__file__).parent / "data" / "csljson" / "csl-test-suite"
FILES = sorted(p.name for p in DATA.glob("*.json"))
ITEMS: dict[str, list[dict[str, Any]]] = {
    name: json.loads((DATA / name).read_text(encoding="utf-8")) for name in FILES}
# How a CSL type's venue is kept: its container-title, or its publisher (a thesis's
# university, a report's institution; a book's publisher, as the BibTeX reader has it).
PUBLISHER_IS_VENUE = frozenset({"thesis", "report", "book"})


def usable(item: dict[str, Any]) -> bool:
    """Whether an item names a paper (Papershelf reports one that does not)."""
    return any(item.get(k) for k in ("title", "author", "DOI", "URL"))


def spoken(name: dict[str, Any]) -> str:
    """A CSL name as citeproc writes it in running text: given, particles, family, suffix
    (`Gerard van der Meer`, `John d'Jones`, `Jeffrey Doe Jr.`), or the literal name."""
    if "literal" in name:
        return str(name["literal"])
    out = ""
    for part in ("given", "dropping-particle", "non-dropping-particle", "family", "suffix"):
        text = str(name.get(part, ""))
        if text:
            out = f"{out}{'' if not out or out.endswith(chr(39)) else ' '}{text}"
    return out


def year_of(issued: Any) -> int | None:
    """The year of a CSL date: its date-parts, else a four-digit year in raw/literal."""
    if not isinstance(issued, dict):
        return None
    parts = issued.get("date-parts")
    if parts and parts[0] and str(parts[0][0]).isdigit():
        return int(parts[0][0])
    found = re.search(r"\d{4}", str(issued.get("raw") or issued.get("literal") or ""))
    return int(found.group()) if found else None


# The items that name a paper (the others are reported: checked by file).
CASES = [(name, n) for name in FILES for n, item in enumerate(ITEMS[name]) if usable(item)]


def text(value: object) -> str:
    """A value as Papershelf keeps it: one line, white space collapsed."""
    return " ".join(str(value).split())


def csl_view(item: dict[str, Any]) -> dict[str, object]:
    """What the item says, in the terms Papershelf shows it (a page range's dash as a
    hyphen: Papershelf keeps ranges as BibTeX's `--`, shown as a dash)."""
    venue_key = "publisher" if item.get("type") in PUBLISHER_IS_VENUE else "container-title"
    return {
        "title": item.get("title", ""),
        "authors": [spoken(n) for n in item.get("author", [])],
        "year": year_of(item.get("issued")),
        "doi": item.get("DOI", ""), "url": item.get("URL", ""),
        "venue": item.get(venue_key, ""), "volume": str(item.get("volume", "")),
        "issue": str(item.get("issue", item.get("number", ""))),
        "pages": re.sub(r"\s*[\u2013\u2014-]+\s*", "-", str(item.get("page", ""))),
        "note": text(item.get("note", "")),
        "editors": [spoken(n) for n in item.get("editor", [])],
    }


def papershelf_view(record: PaperRecord) -> dict[str, object]:
    editors = raw_text(record, "editor")
    return {
        "title": record.title, "authors": [a.display() for a in record.authors],
        "year": record.year, "doi": record.doi, "url": record.url, "venue": record.venue,
        "volume": record.volume, "issue": raw_text(record, "number"),
        "pages": record.pages.replace("--", "-"), "note": raw_text(record, "note"),
        # (BibTeX's name list: "Roe, Jane and ..." read back as the names it lists)
        "editors": [" ".join(reversed([p.strip() for p in e.split(",", 1)]))
                    for e in editors.split(" and ")] if editors else [],
    }


# (file, item, field) -> (Papershelf's value, why it is not what the item says).
# None so far: every field compared reads as the item says (see csl_view's normalising).
DIFFERENCES: dict[tuple[str, int, str], tuple[object, str]] = {}


def item_lines(name: str) -> list[int]:
    """The lines the file's records and problems name, in file order."""
    result = read_file(DATA / name)
    return sorted([*(r.source_line or 0 for r in result.records),
                   *(p.line or 0 for p in result.problems)])


@pytest.mark.parametrize("name", FILES)
def test_every_item_is_a_paper_or_a_failure_named_by_its_line(name: str) -> None:
    path = DATA / name
    assert format_of(path) == "csljson"
    result = read_file(path)
    items = ITEMS[name]
    assert len(result.records) == sum(map(usable, items))
    assert len(result.problems) == len(items) - len(result.records)
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = item_lines(name)
    assert len(set(starts)) == len(items)  # (one line each, in file order)
    assert all("{" in lines[line - 1] for line in starts)
    for problem in result.problems:
        assert str(problem) == f"{path}:{problem.line}: item has no title, author, DOI or URL"


@pytest.mark.parametrize(("name", "number"), CASES)
def test_what_a_user_sees_is_what_the_item_says(name: str, number: int) -> None:
    item = ITEMS[name][number]
    result = read_file(DATA / name)
    usable_before = sum(map(usable, ITEMS[name][:number]))
    record = result.records[usable_before]
    expected = csl_view(item)
    for field in list(expected):
        difference = DIFFERENCES.get((name, number, field))
        if difference is not None:
            assert expected[field] != difference[0], "no difference any more: drop it"
            expected[field] = difference[0]
    assert papershelf_view(record) == expected


def test_names_keep_their_particles_and_suffixes() -> None:
    """What citeproc prints of these names is what the paper list shows."""
    (meer,) = read_file(DATA / "name_FormattingOfParticles.json").records
    assert meer.authors[0].display() == "Gerard van der Meer"
    assert meer.authors[0].family == "van der Meer"  # (sorted and cited under its family)
    (jones,) = read_file(DATA / "bugreports_ApostropheOnParticle.json").records
    assert jones.authors[0].display() == "John d'Jones"
    (doe,) = read_file(DATA / "name_ArticularWithComma.json").records
    assert doe.authors[0].display() == "Jeffrey Doe Jr."
    (census,) = read_file(DATA / "bugreports_SimpleBib.json").records
    assert census.authors[1].family == "U.S. Bureau of the Census" and not census.authors[1].given


def test_types_dates_and_the_keys_not_kept() -> None:
    """Types map to BibTeX's, a season or circa does not stop the year, and the keys that
    are not kept are named (nothing dropped silently)."""
    types = {r.title: r.entry_type for r in read_file(DATA / "condition_RefTypeBranching.json")
             .records}
    assert types == {"Work 1": "book", "Work 2": "misc", "Work 3": "techreport",
                     "Work 4": "inproceedings", "Work 5": "incollection"}
    (season,) = read_file(DATA / "date_OtherWithDate.json").records
    assert season.year == 2000 and "month" not in season.raw
    months = [r.raw.get("month") for r in read_file(DATA / "date_RangeDelimiter.json").records]
    assert months[0] == "1"  # (a range's start)
    (paper, speech) = read_file(DATA / "bugreports_NoEventInNestedMacroWithOldProcessor.json"
                                ).records
    assert (paper.entry_type, speech.entry_type) == ("inproceedings", "misc")
    assert raw_text(paper, "eventtitle") == ITEMS[
        "bugreports_NoEventInNestedMacroWithOldProcessor.json"][0]["event"]
    result = read_file(DATA / "bugreports_AuthorPosition.json")
    assert result.notices == [f"{DATA / 'bugreports_AuthorPosition.json'}: CSL-JSON keys not "
                              "kept: PMCID, PMID, accessed, source"]
    item = ITEMS["disambiguate_ByCiteIncremental1.json"][1]  # (Zotero's older key)
    second = read_file(DATA / "disambiguate_ByCiteIncremental1.json").records[1]
    assert raw_text(second, "shortjournal") == item["journalAbbreviation"]


def compared(record: PaperRecord) -> dict[str, object]:
    """A record's fields a round trip keeps."""
    return {"entry_type": record.entry_type, "title": record.title,
            "authors": record.authors, "year": record.year, "venue": record.venue,
            "volume": record.volume, "pages": record.pages, "publisher": record.publisher,
            "doi": record.doi, "url": record.url, "abstract": record.abstract,
            "raw": dict(record.raw)}


def library_records(library: Library) -> list[PaperRecord]:
    return sorted(library.records(library.view_ids()), key=lambda r: r.key or "")


@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", FILES)
def test_csl_json_out_and_back_in_gives_the_same_papers(name: str, library: Library,
                                                        tmp_path: Path) -> None:
    library.ensure_sample(None)
    report = library.import_file(DATA / name)
    assert report.added + report.merged + report.already_present + report.failed == len(
        ITEMS[name])
    before = library_records(library)
    text = export_papers(library, library.view_ids(), ExportOptions(format="csljson")).text
    out = tmp_path / "out.json"
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


def test_the_command_line_exports_them_as_csl_json_that_reads_back(library_path: Path,
                                                                   tmp_path: Path) -> None:
    seeded = Library.open(str(library_path))
    seeded.ensure_sample(None)
    seeded.close()
    status, out, _err = run_cli("--library", str(library_path), "import",
                                *(str(DATA / name) for name in FILES))
    assert status == 0
    assert f"{DATA / 'date_Uncertain.json'}:2: item has no title" in out
    status, text, _err = run_cli("--library", str(library_path), "export", "--format",
                                 "csljson")
    assert status == 0
    items = json.loads(text)
    (meer,) = [i for i in items if i.get("author") and i["author"][0].get("family")
               == "van der Meer"]
    assert meer["author"] == [{"family": "van der Meer", "given": "Gerard"}]
    back = tmp_path / "back.json"
    back.write_text(text, encoding="utf-8")
    result = read_file(back)
    assert not result.problems and len(result.records) == len(items)
