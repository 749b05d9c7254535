"""Following an author through Semantic Scholar (`s2author:ID`) and DBLP (`dblp:PID`):
a local server plays the Graph API's `/author/{id}/papers` and DBLP's `/pid/{pid}.xml`
in their documented shapes; only what is new since the last check comes in."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from pytest_httpserver import HTTPServer

from papershelf.core.library import Library
from papershelf.errors import UserError
from papershelf.feeds import inbox, sources
from papershelf.feeds.sources import parse_source
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.metadata.services._common import with_raw
from tests import services_support

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment
fake_time = services_support.fake_time
connect = services_support.connect

NOW = datetime(2024, 3, 10, tzinfo=timezone.utc)

DBLP_PAGE = """<?xml version="1.0" encoding="US-ASCII"?>
<dblpperson name="Ada Lovelace" pid="66/5765" n="2">
<person key="homepages/66/5765" mdate="2024-01-01">
<author pid="66/5765">Ada Lovelace</author></person>
<r><article key="journals/corr/abs-2403-01234" mdate="2024-03-05" publtype="informal">
<author pid="66/5765">Ada Lovelace</author><author pid="1/2">Charles Babb&eacute;</author>
<title>Analytical Engines for Language Models.</title><journal>CoRR</journal>
<volume>abs/2403.01234</volume><year>2024</year>
<ee type="oa">https://doi.org/10.48550/arXiv.2403.01234</ee></article></r>
<r><inproceedings key="conf/nips/Lovelace19" mdate="2019-11-01">
<author pid="66/5765">Ada Lovelace</author><title>An Old Paper.</title>
<booktitle>NeurIPS</booktitle><year>2019</year></inproceedings></r>
</dblpperson>
"""


def test_authors_are_spelt_one_way() -> None:
    assert parse_source("s2author: 1741101").spelling == "s2author:1741101"
    assert parse_source(
        "s2author:https://www.semanticscholar.org/author/Geoffrey-E.-Hinton/1695689").value \
        == "1695689"
    assert parse_source("dblp:https://dblp.org/pid/66/5765.html").spelling == "dblp:66/5765"
    assert parse_source("DBLP:h/GeoffreyEHinton").value == "h/GeoffreyEHinton"
    for wrong in ("s2author:abc", "dblp:Hinton", "dblp:", "s2author:"):
        with pytest.raises(UserError):
            parse_source(wrong)


def test_a_semantic_scholar_author_brings_their_new_papers(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    sources.follow(library.context, "s2author:1741101")
    httpserver.expect_request("/graph/v1/author/1741101/papers").respond_with_json({
        "offset": 0, "data": [
            {"paperId": "p1", "title": "An Old Paper", "year": 2019, "publicationDate":
             "2019-06-01", "authors": [{"authorId": "1741101", "name": "Ada Lovelace"}],
             "abstract": None, "externalIds": {"DOI": "10.1000/OLD"}, "venue": "ICML"},
            {"paperId": "p2", "title": "Analytical Engines for Language Models",
             "year": 2024, "publicationDate": "2024-03-04",
             "authors": [{"authorId": "1741101", "name": "Ada Lovelace"}],
             "abstract": "We compute.", "externalIds": {"ArXiv": "2403.01234"},
             "venue": "arXiv.org", "url": "https://www.semanticscholar.org/paper/p2"}]})
    [checked] = inbox.check(library, connect(), now=NOW)
    assert (checked.new, checked.failed) == (1, False)
    [item] = inbox.items(library)
    assert (item.title, item.arxiv_id, item.abstract, item.authors) == (
        "Analytical Engines for Language Models", "2403.01234", "We compute.",
        ("Ada Lovelace",))
    assert httpserver.log[0][0].headers["x-api-key"] == "test-key"


def test_a_year_no_calendar_has_leaves_that_paper_out_and_the_check_goes_on(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    """An answer's year of 10**20 (or 0) is no date: that paper is left out, the
    others come in, and no error stops the check of the other sources."""
    sources.follow(library.context, "s2author:1741101")
    httpserver.expect_request("/graph/v1/author/1741101/papers").respond_with_json({
        "offset": 0, "data": [
            {"paperId": "p0", "title": "From the Far Future", "year": 10**20},
            {"paperId": "p9", "title": "From Year Zero", "year": 0},
            {"paperId": "p2", "title": "Analytical Engines for Language Models",
             "year": 2024, "publicationDate": "2024-03-04", "authors": []}]})
    [checked] = inbox.check(library, connect(), now=NOW)
    assert (checked.new, checked.failed) == (1, False)
    assert [item.title for item in inbox.items(library)] == [
        "Analytical Engines for Language Models"]


def test_a_dblp_author_page_brings_the_records_changed_since(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    sources.follow(library.context, "dblp:66/5765")
    httpserver.expect_request("/pid/66/5765.xml").respond_with_data(
        DBLP_PAGE, content_type="application/xml")
    [checked] = inbox.check(library, connect(), now=NOW)
    assert (checked.new, checked.failed, checked.note) == (1, False, "")
    [item] = inbox.items(library)
    assert item.title == "Analytical Engines for Language Models"
    assert item.authors == ("Ada Lovelace", "Charles Babbé")
    assert item.venue == "CoRR"


def test_without_a_key_the_semantic_scholar_author_is_one_note(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    sources.follow(library.context, "s2author:1741101")
    [checked] = inbox.check(library, connect(keys=lambda name: None), now=NOW)
    assert checked.failed and "API key" in checked.note
    assert not httpserver.log


def test_a_paper_the_library_has_by_its_bibtex_eprint_stays_out_of_the_inbox(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    record = with_raw(PaperRecord(entry_type="misc", title="Engines, Analytical (preprint)"),
                      {"eprint": "2403.01234v2", "archiveprefix": "arXiv"})
    library.import_result(ReadResult(records=[record]), "test", "bibtex")
    sources.follow(library.context, "dblp:66/5765")
    httpserver.expect_request("/pid/66/5765.xml").respond_with_data(
        DBLP_PAGE, content_type="application/xml")
    [checked] = inbox.check(library, connect(), now=NOW)
    assert (checked.new, checked.failed) == (0, False)
