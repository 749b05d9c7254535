"""Retraction notices from hostile places: a nature written into the shared `notices`
by another member or a newer client, Crossref dates no calendar has, and Retraction
Watch files (`--from FILE`) with cells made to drive a terminal, lines without an end,
more rows or bytes than any published copy."""

from __future__ import annotations

import csv
import json
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from papershelf.core import retractions
from papershelf.core.library import Library
from papershelf.core.retractions import NoticeEntry
from papershelf.metadata import retractions as fetching
from tests import services_support
from tests.conftest import run_cli
from tests.services_support import Connect

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment
fake_time = services_support.fake_time
connect = services_support.connect

BIB = """\
@article{roe2021, title={Deep Results}, author={Roe, Jane}, journal={J Ex}, year={2021},
  doi={10.1234/jex.2021.42}}
@article{odd2020, title={An Odd Notice}, author={Odd, O}, journal={Bio}, year={2020},
  doi={10.4321/odd.1}}
"""


def _id(library: Library, key: str) -> int:
    return library.ids_for_keys([key])[0][0]


def test_a_notice_of_a_nature_this_version_does_not_know_is_ranked_last(
        library: Library) -> None:
    """Any member may write `notices` (and a newer client may know more natures): a
    nature outside NATURES breaks neither the table's rows nor the detail pane."""
    library.import_bibtex(BIB, "refs.bib")
    retractions.replace_source(library.context, retractions.RETRACTION_WATCH, [
        NoticeEntry("Withdrawal", doi_norm="10.1234/jex.2021.42", date="2024-01-01"),
        NoticeEntry("Correction", doi_norm="10.1234/jex.2021.42", date="2022-01-01"),
        NoticeEntry("Withdrawal", doi_norm="10.4321/odd.1")])
    roe, odd = _id(library, "roe2021"), _id(library, "odd2020")
    found = library.notices_of([roe, odd])
    assert [n.nature for n in found[roe]] == ["Correction", "Withdrawal"]
    assert [n.nature for n in found[odd]] == ["Withdrawal"]
    rows = library.rows([roe, odd])
    assert (rows[roe].notice, rows[odd].notice) == ("Correction", "Withdrawal")
    assert retractions.warnings(library.context, [roe, odd]) == []


def test_crossref_dates_no_calendar_has_are_left_out(
        library: Library, httpserver: HTTPServer, connect: Connect) -> None:
    """A year of 10**20 or 1e400 (JSON reads it as infinity), a month past any int: the
    notice is kept without its date, and every DOI is still asked."""
    library.import_bibtex(BIB, "refs.bib")

    def work(doi: str, parts: str) -> str:
        return ('{"status": "ok", "message": {"DOI": "' + doi + '", "updated-by": [{"DOI": '
                '"10.9/notice", "type": "retraction", "updated": {"date-parts": [' + parts
                + ']}}]}}')

    httpserver.expect_request("/works/10.1234/jex.2021.42").respond_with_data(
        work("10.1234/jex.2021.42", "[1e400]"), content_type="application/json")
    httpserver.expect_request("/works/10.4321/odd.1").respond_with_data(
        work("10.4321/odd.1", json.dumps([10**20, 2, 3])),
        content_type="application/json")
    done = fetching.check_crossref(library, connect())
    assert done.failed == [] and done.stored == {"crossref": 2}
    found = library.notices_of([_id(library, "roe2021"), _id(library, "odd2020")])
    assert [(n.nature, n.date) for ns in found.values() for n in ns] == [
        ("Retraction", ""), ("Retraction", "")]
    for parts in ([[2023, 10**20, 1]], [[2023, 1, -10**30]], [[0]], [[-5]], [[float("nan")]]):
        assert retractions._parts_date({"date-parts": parts}) == ""


HEADER = ["Record ID", "RetractionDate", "RetractionDOI", "OriginalPaperDOI",
          "OriginalPaperPubMedID", "RetractionNature", "Reason"]
GOOD = ["1", "5/3/2023 0:00", "10.1234/notice.1", "10.1234/jex.2021.42", "", "Retraction",
        "+Error;"]


def _csv(path: Path, *rows: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([HEADER, *rows])
    return path


def test_a_cell_made_to_drive_the_terminal_is_shown_escaped(
        library: Library, tmp_path: Path) -> None:
    """A cell that would clear the screen, retitle the terminal and add a line of its
    own reaches neither stderr nor the window's problem lines as control characters."""
    library.import_bibtex(BIB, "refs.bib")
    hostile = "\x1b[2J\x1b]0;pwned\x07\nRetraction Watch: all clear"
    # (the file's name too: a download folder holds what a web page named)
    source = _csv(tmp_path / "rw\x1b]0;x\x07.csv", GOOD,
                  ["2", "", "", "10.4321/odd.1", "", hostile, ""])
    problems: list[str] = []
    assert len(list(retractions.read_csv(source, problems))) == 1
    assert len(problems) == 1 and problems[0].startswith(str(source))
    assert problems[0].removeprefix(str(source)).isprintable()
    assert "'\\x1b[2J\\x1b]0;pwned\\x07\\nRetraction Watch" in problems[0]
    status, out, err = run_cli("--library", library.url, "retractions", "update", "--from",
                               str(source))
    assert status == 0 and out.startswith("notices: 1 from Retraction Watch")
    assert err.isprintable() or (err.endswith("\n") and err[:-1].isprintable()), repr(err)
    assert "line 4: unknown RetractionNature" in err and "pwned" in err


def test_a_line_without_an_end_is_one_line_of_problem_in_bounded_memory(
        tmp_path: Path) -> None:
    """30 MB without a newline (csv's own field limit applies only once the whole
    physical line is read): read in bounded chunks, named by its line, the rows around
    it kept."""
    source = _csv(tmp_path / "rw.csv", GOOD)
    with source.open("a", encoding="utf-8", newline="") as handle:
        handle.write("2," + "x" * 30_000_000 + "\n")
        handle.write("3,5/3/2023 0:00,10.1/n3,10.4321/odd.1,,Correction,\n")
        handle.write("4,," + "y" * 30_000_000)  # (and at the end, no newline at all)
    problems: list[str] = []
    tracemalloc.start()
    started = time.process_time()
    try:
        found = list(retractions.read_csv(source, problems))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [n.doi_norm for n in found] == ["10.1234/jex.2021.42", "10.4321/odd.1"]
    limit = f"longer than {retractions.MAX_LINE:,} characters; row skipped"
    assert problems == [f"{source}, line 3: {limit}", f"{source}, line 5: {limit}"]
    assert peak < 8_000_000, peak
    assert time.process_time() - started < 10


@pytest.mark.parametrize("bound", ["MAX_FILE_BYTES", "MAX_LINES"])
def test_a_file_bigger_than_any_published_copy_is_one_line_and_keeps_the_notices(
        library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        bound: str) -> None:
    library.import_bibtex(BIB, "refs.bib")
    fetching.update(library, None, _csv(tmp_path / "first.csv", GOOD))
    monkeypatch.setattr(retractions, bound, 500 if bound == "MAX_FILE_BYTES" else 20)
    big = _csv(tmp_path / "big.csv", *[[str(n), "", "", f"10.5555/{n}", "", "Retraction", ""]
                                       for n in range(30)])
    status, out, err = run_cli("--library", library.url, "retractions", "update", "--from",
                               str(big))
    assert status == 1 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"papershelf: error: {big}: ") and "not read" in err
    assert retractions.count(library.context) == {"retractionwatch": 1}


def test_the_file_is_read_before_the_library_is_locked_for_writing(
        library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a big copy takes seconds: other writers (the window's queue, another
    program) wait only for the notices' insert, not for the parse."""
    writing: list[bool] = []
    real_write = type(library.context).write

    @contextmanager
    def write(self: object) -> Iterator[object]:
        writing.append(True)
        try:
            with real_write(self) as session:  # type: ignore[arg-type]
                yield session
        finally:
            writing.pop()

    parsed: list[bool] = []
    real_entry = retractions._entry

    def entry(row: dict[str, str]) -> object:
        parsed.append(bool(writing))
        return real_entry(row)

    monkeypatch.setattr(type(library.context), "write", write)
    monkeypatch.setattr(retractions, "_entry", entry)
    done = fetching.update(library, None, _csv(tmp_path / "rw.csv", GOOD, GOOD))
    assert done.stored == {"retractionwatch": 2}
    assert parsed == [False, False]
