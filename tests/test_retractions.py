"""Retraction and correction notices (issue 44): Retraction Watch's CSV in the columns
Crossref publishes, Crossref's `update-to`/`updated-by`, `is:retracted`, the warnings of
an export, a citation, an auto-export and an import, and `papershelf retractions`."""

from __future__ import annotations

import csv
import json
import tracemalloc
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from papershelf.core import autoexport, retractions
from papershelf.core.library import Library
from papershelf.core.transfer import export_papers
from papershelf.core.views import View
from papershelf.errors import UserError
from papershelf.metadata import retractions as fetching
from tests import services_support
from tests.conftest import run_cli
from tests.postgres_server import SharedLibrary, downgrade_shared, plain_sql
from tests.services_support import Connect

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment
fake_time = services_support.fake_time
connect = services_support.connect

SAMPLE = Path(__file__).parent / "data" / "retraction_watch_sample.csv"
BIB = """\
@article{roe2021, title={Deep Results}, author={Roe, Jane}, journal={J Ex}, year={2021},
  doi={10.1234/jex.2021.42}}
@article{muster2020, title={A Corrected Study}, author={Muster, Max}, journal={PLE},
  year={2020}, doi={10.5555/PLE.2020.7}}
@article{pm2020, title={A Preprint by PubMed}, author={D, Author}, journal={Bio},
  year={2020}, pmid={32000006}}
@article{clean2020, title={Clean Paper}, author={Clean, C}, journal={Bio}, year={2020},
  doi={10.4321/clean.1}}
"""


def keys(library: Library, search: str) -> list[str]:
    rows = library.rows(library.view_ids(View(search=search, sort="key")))
    return sorted(row.key for row in rows.values())


def ids(library: Library, *wanted: str) -> list[int]:
    return library.ids_for_keys(wanted)[0]


@pytest.fixture
def flagged(library: Library) -> Library:
    """The four papers, and the sample CSV's notices read."""
    library.import_bibtex(BIB, "refs.bib")
    fetching.update(library, None, SAMPLE)
    return library


def test_the_published_csv_is_read_row_by_row_and_bad_rows_named() -> None:
    problems: list[str] = []
    found = list(retractions.read_csv(SAMPLE, problems))
    assert [(n.nature, n.doi_norm, n.pmid) for n in found] == [
        ("Retraction", "10.1234/jex.2021.42", "33000001"),
        ("Correction", "10.5555/ple.2020.7", ""),
        ("Expression of concern", "", "31000003"),
        ("Retraction", "", "32000006"),
    ]
    first = found[0]
    assert (first.date, first.notice_doi, first.reason) == (
        "2023-05-03", "10.1234/notice.2023.001", "Duplication of Image; Fake Peer Review")
    assert problems == [
        f"{SAMPLE}, line 5: no OriginalPaperDOI or OriginalPaperPubMedID; row skipped",
        f"{SAMPLE}, line 6: unknown RetractionNature 'Withdrawn somehow'; row skipped"]


def test_a_file_that_is_no_retraction_watch_csv_is_one_line(tmp_path: Path) -> None:
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"other\.csv: not a Retraction Watch CSV"):
        list(retractions.read_csv(other, []))


def test_a_big_csv_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """60,000 rows (about 20 MB, as big as the published file's notices) go through one
    at a time: what reading them holds at its peak is a small part of the file."""
    big = tmp_path / "big.csv"
    with big.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Record ID", "Title", "RetractionDate", "RetractionDOI",
                         "OriginalPaperDOI", "OriginalPaperPubMedID", "RetractionNature",
                         "Reason"])
        for n in range(60_000):
            writer.writerow([n, "A title of some length " * 8, "1/2/2020 0:00",
                             f"10.1000/n{n}", f"10.2000/p{n}", "0", "Retraction",
                             "+Error;" * 20])
    tracemalloc.start()
    try:
        read = sum(1 for _ in retractions.read_csv(big, []))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert read == 60_000
    assert big.stat().st_size > 20_000_000 and peak < 1_000_000, peak


def test_is_retracted_and_is_corrected_match_by_doi_and_pubmed_id(flagged: Library) -> None:
    assert keys(flagged, "is:retracted") == ["pm2020", "roe2021"]  # DOI any case, PMID
    assert keys(flagged, "is:corrected") == ["muster2020"]
    assert keys(flagged, "-is:retracted -is:corrected") == ["clean2020"]
    assert keys(flagged, "deep is:retracted") == ["roe2021"]
    rows = flagged.rows(ids(flagged, "roe2021", "muster2020", "clean2020"))
    assert sorted(r.notice for r in rows.values()) == ["", "Correction", "Retraction"]


def test_an_export_warns_once_naming_each_retracted_paper(flagged: Library) -> None:
    export = export_papers(flagged, ids(flagged, "roe2021", "clean2020", "pm2020"))
    assert export.retracted == (
        "Retracted: Deep Results (2023, notice 10.1234/notice.2023.001)",
        "Retracted: A Preprint by PubMed (2021, notice 10.7777/ret.77)")
    assert "@article{roe2021" in export.text  # (written all the same)
    assert export_papers(flagged, ids(flagged, "muster2020")).retracted == ()


def test_an_import_notes_the_retracted_papers_it_adds(library: Library) -> None:
    fetching.update(library, None, SAMPLE)
    report = library.import_bibtex(BIB, "refs.bib")
    assert [n for n in report.notices if n.startswith("Retracted")] == [
        "Retracted: Deep Results (2023, notice 10.1234/notice.2023.001)",
        "Retracted: A Preprint by PubMed (2021, notice 10.7777/ret.77)"]


def test_an_auto_export_warns_when_it_writes(flagged: Library, tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    autoexport.add(flagged, target)
    outcome = autoexport.refresh(flagged)
    assert outcome and not outcome[0].written  # (add wrote it; nothing changed since)
    flagged.set_notes(ids(flagged, "roe2021")[0], "see the notice")
    target.unlink()
    [outcome] = autoexport.refresh(flagged)
    assert outcome.written and len(outcome.retracted) == 2


def test_updating_again_replaces_and_a_bad_file_keeps_the_notices(
        flagged: Library, tmp_path: Path) -> None:
    fetching.update(flagged, None, SAMPLE)
    assert retractions.count(flagged.context) == {"retractionwatch": 4}
    broken = tmp_path / "broken.csv"
    broken.write_text("nothing,here\n", encoding="utf-8")
    with pytest.raises(UserError):
        fetching.update(flagged, None, broken)
    assert keys(flagged, "is:retracted") == ["pm2020", "roe2021"]


def _work(doi: str, **relations: object) -> dict[str, object]:
    return {"status": "ok", "message-type": "work", "message": {"DOI": doi, **relations}}


def test_crossref_updated_by_and_update_to(library: Library, httpserver: HTTPServer,
                                           connect: Connect) -> None:
    library.import_bibtex(BIB, "refs.bib")
    httpserver.expect_request("/works/10.1234/jex.2021.42").respond_with_json(_work(
        "10.1234/JEX.2021.42", **{"updated-by": [{
            "DOI": "10.1234/xnotice", "type": "retraction", "label": "Retraction",
            "source": "publisher", "updated": {"date-parts": [[2024, 2, 1]]}}]}))
    # The library's "clean" paper is itself a correction notice of another paper.
    httpserver.expect_request("/works/10.4321/clean.1").respond_with_json(_work(
        "10.4321/clean.1", **{"update-to": [{
            "DOI": "10.5555/PLE.2020.7", "type": "correction",
            "updated": {"date-parts": [[2022, 1]]}}]}))
    httpserver.expect_request("/works/10.5555/ple.2020.7").respond_with_data(
        "Resource not found.", status=404)
    done = fetching.check_crossref(library, connect())
    assert done.failed == [] and done.stored == {"crossref": 2}
    assert keys(library, "is:retracted") == ["roe2021"]
    assert keys(library, "is:corrected") == ["muster2020"]
    [notice] = library.notices_of(ids(library, "roe2021"))[ids(library, "roe2021")[0]]
    assert (notice.date, notice.link, notice.source) == (
        "2024-02-01", "https://doi.org/10.1234/xnotice", "crossref")


def test_the_csv_is_downloaded_from_crossref_with_the_contact_address(
        library: Library, httpserver: HTTPServer, connect: Connect) -> None:
    library.import_bibtex(BIB, "refs.bib")
    httpserver.expect_request("/data/retractionwatch", query_string="me@example.org"
                              ).respond_with_data(SAMPLE.read_bytes(),
                                                  content_type="text/csv")
    done = fetching.update(library, connect(contact="me@example.org"))
    assert done.stored == {"retractionwatch": 4} and len(done.problems) == 2
    assert "Retraction Watch CSV, line 5" in done.problems[0]
    assert keys(library, "is:retracted") == ["pm2020", "roe2021"]


def test_offline_nothing_is_asked(library: Library, connect: Connect) -> None:
    library.import_bibtex(BIB, "refs.bib")
    client = connect(offline=True)
    assert fetching.check_crossref(library, client).stored == {}
    status, _out, err = run_cli("--library", library.url, "retractions", "update",
                                "--offline")
    assert status == 1 and err == "papershelf: error: offline: Retraction Watch's notices " \
        "were not downloaded (--from FILE reads a copy)\n"


def test_cli_update_list_and_export_warning(library: Library, tmp_path: Path) -> None:
    library.import_bibtex(BIB, "refs.bib")
    target = library.url
    status, out, err = run_cli("--library", target, "retractions", "update", "--from",
                               str(SAMPLE))
    assert status == 0, err
    assert out == "notices: 4 from Retraction Watch; 3 papers of the library named, 2 " \
                  "retracted\n"
    assert "line 6: unknown RetractionNature" in err
    status, out, _err = run_cli("--library", target, "retractions", "list", "--json")
    listed = json.loads(out)
    assert [(n["key"], n["nature"]) for n in listed] == [
        ("roe2021", "Retraction"), ("muster2020", "Correction"), ("pm2020", "Retraction")]
    status, out, err = run_cli("--library", target, "export", "--keys", "roe2021,clean2020")
    assert status == 0 and "@article{roe2021" in out
    assert err == "warning: Retracted: Deep Results (2023, notice 10.1234/notice.2023.001)\n"
    status, _out, err = run_cli("--library", target, "cite", "pm2020")
    assert "Retracted: A Preprint by PubMed" in err


# ---------------------------------------------------------------------- a shared library


def test_members_share_the_notices_and_an_upgraded_library_grants_them(
        pg_lab: SharedLibrary) -> None:
    """On PostgreSQL the notices are the library's, not a member's: what alice reads in,
    bob's search finds; either may refresh them. A library of schema 0016 upgraded by
    its owner gives the members the same on the new table."""
    downgrade_shared(pg_lab.superuser, "0016")
    Library.open(pg_lab.superuser).close()  # (upgraded as it opens)
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.import_bibtex(BIB, "refs.bib")
        fetching.update(alice, None, SAMPLE)
        assert keys(bob, "is:retracted") == ["pm2020", "roe2021"]
        assert bob.retraction_warnings(ids(bob, "roe2021")) == [
            "Retracted: Deep Results (2023, notice 10.1234/notice.2023.001)"]
        fetching.update(bob, None, SAMPLE)  # (bob refreshes them for everyone)
        assert keys(alice, "is:corrected") == ["muster2020"]
    finally:
        alice.close()
        bob.close()
    with plain_sql(pg_lab.bob) as conn:
        assert conn.execute("SELECT count(*) FROM notices").fetchone() == (4,)
