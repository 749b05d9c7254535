"""Adding a paper by its identifier, and behaving on the network (issue 14).

Every service is a local HTTP server on 127.0.0.1 (pytest-httpserver) answering with the
documented response shapes in tests/data/services (sources in its README); no test
reaches the internet or waits: the client's clock and sleep are a fake that only moves
when the client sleeps.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from papershelf.formats.bibtex import write_bibtex
from papershelf.formats.records import Author
from papershelf.metadata.http import SERVICES, Offline, ServiceError
from papershelf.metadata.identifiers import Identifier
from papershelf.metadata.services import lookup, search_title, semanticscholar
from tests import services_support
from tests.conftest import files_holding
from tests.services_support import (
    Connect,
    FakeTime,
    fixture,
    local_server,
)

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment  # (autouse)
fake_time = services_support.fake_time
connect = services_support.connect

FRAMEQUANT = "FrameQuant: Flexible Low-Bit Quantization for Transformers"
FRAMEQUANT_AUTHORS = [
    Author("Adepu", "Harshavardhan"), Author("Zeng", "Zhanpeng"), Author("Zhang", "Li"),
    Author("Singh", "Vikas"),
]  # fmt: skip
BERT = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
BERT_DOI = "10.18653/v1/n19-1423"


def requests(server: HTTPServer) -> list[str]:
    """The paths the server was asked for, in order."""
    return [request.path for request, _response in server.log]


def one_line(error: pytest.ExceptionInfo[ServiceError]) -> str:
    message = str(error.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# ---------------------------------------------------------------------- each service


def test_doi_is_looked_up_at_crossref_in_the_polite_pool(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request(f"/works/{BERT_DOI}").respond_with_data(
        fixture("crossref/work-10.18653-v1-n19-1423.json"), content_type="application/json"
    )
    client = connect(contact="reader@example.org")

    record = lookup(Identifier("doi", BERT_DOI), client)

    assert record.title == BERT
    assert record.authors == [Author("Devlin", "Jacob"), Author("Chang", "Ming-Wei"),
                              Author("Lee", "Kenton"), Author("Toutanova", "Kristina")]
    assert record.venue.startswith("Proceedings of the 2019 Conference of the North American")
    assert (record.year, record.pages, record.doi) == (2019, "4171--4186", BERT_DOI)
    assert record.publisher == "Association for Computational Linguistics"
    assert record.entry_type == "inproceedings"
    # The JATS abstract reads as plain text, without its "Abstract" heading.
    assert record.abstract.startswith("We introduce a new language representation model")
    assert "86.7% (4.6% absolute improvement)" in record.abstract
    assert "<" not in record.abstract
    request = httpserver.log[0][0]
    assert request.args["mailto"] == "reader@example.org"
    assert "mailto:reader@example.org" in request.headers["User-Agent"]
    # Exported, it is a proper @inproceedings: the venue is the booktitle.
    record.key = "devlin2019bert"
    bib = write_bibtex([record])
    assert "booktitle = {Proceedings of the 2019 Conference of the North American" in bib
    assert "pages = {4171--4186}" in bib


def test_arxiv_id_is_looked_up_at_arxiv(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request(
        "/api/query", query_string={"id_list": "2403.06082", "max_results": "1"}
    ).respond_with_data(fixture("arxiv/query-2403.06082.xml"), content_type="application/atom+xml")

    record = lookup(Identifier("arxiv", "2403.06082"), connect())

    assert record.title == FRAMEQUANT  # the feed's hard-wrapped title, on one line
    assert record.authors == FRAMEQUANT_AUTHORS
    assert record.abstract.startswith("Transformers are the backbone of powerful foundation")
    assert record.abstract.endswith("https://github.com/vsingh-group/FrameQuant")
    assert "\n" not in record.abstract
    assert (record.year, record.entry_type) == (2024, "misc")
    assert record.url == "https://arxiv.org/abs/2403.06082"
    assert record.raw["eprint"] == "2403.06082"
    assert record.raw["archiveprefix"] == "arXiv"
    assert record.raw["primaryclass"] == "cs.LG"
    assert record.raw["pdf"] == "http://arxiv.org/pdf/2403.06082v2"


def test_arxiv_doi_goes_to_arxiv_not_crossref(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        fixture("arxiv/query-2403.06082.xml"), content_type="application/atom+xml"
    )

    record = lookup(Identifier("doi", "10.48550/arxiv.2403.06082"), connect())

    assert record.title == FRAMEQUANT
    assert record.doi == "10.48550/arxiv.2403.06082"
    assert requests(httpserver) == ["/api/query"]


def test_openreview_id_gives_the_venue_of_openreviews_own_bibtex(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/notes", query_string={"id": "xPypr0kufs"}).respond_with_data(
        fixture("openreview/notes-xPypr0kufs.json"), content_type="application/json"
    )

    record = lookup(Identifier("openreview", "xPypr0kufs"), connect())

    assert record.title == FRAMEQUANT
    assert record.authors == FRAMEQUANT_AUTHORS
    assert record.venue == "Forty-first International Conference on Machine Learning"
    assert (record.year, record.entry_type) == (2024, "inproceedings")
    assert record.abstract.startswith("Transformers are the backbone")
    assert record.url == "https://openreview.net/forum?id=xPypr0kufs"
    assert record.raw["openreview"] == "xPypr0kufs"
    assert record.raw["pdf"].startswith("https://openreview.net/pdf/")


def test_dblp_key_gives_the_record_without_homonym_numbers(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/rec/conf/icml/AdepuZZS24.xml").respond_with_data(
        fixture("dblp/rec-conf-icml-AdepuZZS24.xml"), content_type="application/xml"
    )

    record = lookup(Identifier("dblp", "conf/icml/AdepuZZS24"), connect())

    assert record.title == FRAMEQUANT  # DBLP's closing full stop dropped
    assert record.authors == FRAMEQUANT_AUTHORS  # "Li Zhang 0054" is Li Zhang
    assert (record.venue, record.year, record.pages) == ("ICML", 2024, "203--227")
    assert record.url == "https://proceedings.mlr.press/v235/adepu24a.html"
    assert record.raw["openreview"] == "xPypr0kufs"


def test_dblp_named_entities_read_as_letters(httpserver: HTTPServer, connect: Connect) -> None:
    # DBLP's data writes non-ASCII letters as entities (its XML is US-ASCII).
    httpserver.expect_request("/rec/conf/icml/TheoHEA24.xml").respond_with_data(
        '<?xml version="1.0" encoding="US-ASCII"?>\n<dblp><inproceedings key="conf/icml/TheoHEA24">'
        "<author>C&eacute;dric Herzet</author><author>Cl&#233;ment Elvira</author>"
        "<title>A New Branch-and-Bound Pruning Framework.</title><year>2024</year>"
        "<booktitle>ICML</booktitle></inproceedings></dblp>",
        content_type="application/xml",
    )

    record = lookup(Identifier("dblp", "conf/icml/TheoHEA24"), connect())

    assert record.authors == [Author("Herzet", "Cédric"), Author("Elvira", "Clément")]


def test_pmlr_page_gives_its_citation_meta_tags(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/v235/adepu24a.html").respond_with_data(
        fixture("pmlr/v235-adepu24a.html"), content_type="text/html; charset=utf-8"
    )

    record = lookup(Identifier("pmlr", "v235/adepu24a"), connect())

    assert record.title == FRAMEQUANT
    assert record.authors == FRAMEQUANT_AUTHORS
    assert record.venue == "International Conference on Machine Learning"
    assert (record.year, record.volume, record.pages) == (2024, "235", "203--227")
    assert record.publisher == "PMLR"
    assert record.abstract.endswith("https://github.com/vsingh-group/FrameQuant")
    assert record.raw["pdf"].endswith("/v235/main/assets/adepu24a/adepu24a.pdf")


def test_acl_anthology_id_gives_the_anthology_bibtex(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/N19-1423.bib").respond_with_data(
        fixture("acl/N19-1423.bib"), content_type="application/x-bibtex; charset=utf-8"
    )

    record = lookup(Identifier("acl", "N19-1423"), connect())

    assert record.title == BERT
    assert record.authors[0] == Author("Devlin", "Jacob")
    assert (record.year, record.pages) == (2019, "4171--4186")
    assert record.doi == "10.18653/v1/N19-1423"
    assert "86.7% (4.6% absolute improvement)" in record.abstract
    assert record.raw["booktitle"].startswith("Proceedings of the 2019 Conference")


def test_title_search_picks_the_matching_openalex_candidate(
    httpserver: HTTPServer, connect: Connect, tmp_path: Path
) -> None:
    httpserver.expect_request("/works").respond_with_data(
        fixture("openalex/works-search-framequant.json"), content_type="application/json"
    )
    notes: list[str] = []

    # Typed differently from the real title: case and punctuation do not matter.
    record = lookup(
        Identifier("title", "Framequant - flexible low-bit quantization for transformers"),
        connect(), notes,
    )  # fmt: skip

    assert record.title == FRAMEQUANT  # not QuIP, OpenAlex's first result
    assert record.authors == FRAMEQUANT_AUTHORS
    assert record.abstract.startswith("Transformers are the backbone of powerful foundation")
    assert record.abstract.endswith("promises sizable efficiency gains.")
    assert record.doi == "10.48550/arxiv.2403.06082"
    assert notes == []
    # The key went to OpenAlex, and nowhere into the cache on disk.
    assert httpserver.log[0][0].args["api_key"] == "test-key"
    assert list((tmp_path / "cache").iterdir())
    assert files_holding("test-key", tmp_path / "cache") == []


def test_title_search_without_openalex_key_asks_semantic_scholar(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/graph/v1/paper/search/match").respond_with_data(
        fixture("s2/match-framequant.json"), content_type="application/json"
    )
    notes: list[str] = []
    client = connect(keys=lambda name: "s2-key" if name == "s2" else None)

    record = lookup(Identifier("title", FRAMEQUANT), client, notes)

    assert record.title == FRAMEQUANT
    assert record.venue == "International Conference on Machine Learning"
    assert (record.entry_type, record.year) == ("inproceedings", 2024)
    assert record.raw["eprint"] == "2403.06082"
    assert len(notes) == 1
    assert notes[0].startswith("OpenAlex: skipped: no API key")
    assert requests(httpserver) == ["/graph/v1/paper/search/match"]
    assert httpserver.log[0][0].headers["x-api-key"] == "s2-key"


def test_title_search_without_any_key_falls_back_to_dblp(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/search/publ/api").respond_with_data(
        fixture("dblp/search-framequant.json"), content_type="application/json"
    )
    notes: list[str] = []

    record = lookup(Identifier("title", FRAMEQUANT), connect(keys=lambda name: None), notes)

    assert [note.split(":")[0] for note in notes] == ["OpenAlex", "Semantic Scholar"]
    assert (record.venue, record.pages) == ("ICML", "203--227")  # the first of two equals
    assert record.authors == FRAMEQUANT_AUTHORS
    candidates = search_title(FRAMEQUANT, connect(keys=lambda name: None))
    assert [c.doi for c in candidates] == ["", "10.48550/arxiv.2403.06082"]


def test_title_search_finding_nothing_close_says_so(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/works").respond_with_data(
        fixture("openalex/works-search-framequant.json"), content_type="application/json"
    )
    httpserver.expect_request("/graph/v1/paper/search/match").respond_with_json(
        {"error": "Title match not found"}, status=404
    )
    httpserver.expect_request("/search/publ/api").respond_with_json(
        {"result": {"hits": {"@total": "0", "@sent": "0"}}}
    )

    with pytest.raises(ServiceError) as error:
        lookup(Identifier("title", "A paper nobody wrote"), connect())

    assert one_line(error) == "Title search: nothing found titled “A paper nobody wrote”"
    assert error.value.kind == "not-found"


def test_doi_crossref_does_not_know_comes_from_openalex(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/works/10.5555/unknown").respond_with_data(
        "Resource not found.", status=404, content_type="text/plain"
    )
    work = json.loads(fixture("openalex/works-search-framequant.json"))["results"][1]
    httpserver.expect_request("/works/doi:10.5555/unknown").respond_with_json(work)
    notes: list[str] = []

    record = lookup(Identifier("doi", "10.5555/unknown"), connect(), notes)

    assert record.title == FRAMEQUANT
    assert notes == ["Crossref does not know DOI 10.5555/unknown; OpenAlex's record is used"]


def test_semantic_scholar_paper_by_id(httpserver: HTTPServer, connect: Connect) -> None:
    paper = json.loads(fixture("s2/match-framequant.json"))["data"][0]
    del paper["matchScore"]
    httpserver.expect_request("/graph/v1/paper/ARXIV:2403.06082").respond_with_json(paper)

    record = semanticscholar.fetch("ARXIV:2403.06082", connect())

    assert record.title == FRAMEQUANT
    assert record.doi == "10.48550/arxiv.2403.06082"


# ---------------------------------------------------------------------- bad answers


def test_a_service_that_does_not_answer_in_time_is_a_clear_error(
    connect: Connect, fake_time: FakeTime
) -> None:
    release = threading.Event()

    def hang(request: Request) -> Response:
        release.wait(timeout=5)
        return Response("late", status=200)

    with local_server(threaded=True) as slow:
        slow.expect_request("/works/10.1/slow").respond_with_handler(hang)
        try:
            slow_root = slow.url_for("/").rstrip("/")
            client = connect(
                timeout=0.05, retries=1,
                base_urls={name: slow_root for name in SERVICES if name != "web"},
            )  # fmt: skip
            with pytest.raises(ServiceError) as error:
                lookup(Identifier("doi", "10.1/slow"), client)
        finally:
            release.set()

    assert one_line(error) == (
        "Crossref: timed out (no answer within 0.05 s); gave up after 2 tries"
    )
    assert error.value.kind == "timeout"
    assert fake_time.sleeps == [1.0]  # one back-off between the two tries


def test_429_waits_as_long_as_retry_after_asks_then_succeeds(
    httpserver: HTTPServer, connect: Connect, fake_time: FakeTime
) -> None:
    path = f"/works/{BERT_DOI}"
    httpserver.expect_ordered_request(path).respond_with_data(
        "slow down", status=429, headers={"Retry-After": "7"}
    )
    httpserver.expect_ordered_request(path).respond_with_data(
        fixture("crossref/work-10.18653-v1-n19-1423.json"), content_type="application/json"
    )

    record = lookup(Identifier("doi", BERT_DOI), connect())

    assert record.title == BERT
    assert fake_time.sleeps == [7.0]
    assert len(httpserver.log) == 2


def test_429_asking_for_a_long_wait_is_not_waited_out(
    httpserver: HTTPServer, connect: Connect, fake_time: FakeTime
) -> None:
    httpserver.expect_request(f"/works/{BERT_DOI}").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "3600"}
    )

    with pytest.raises(ServiceError) as error:
        lookup(Identifier("doi", BERT_DOI), connect())

    assert one_line(error) == (
        "Crossref: rate limited (HTTP 429); asked to wait 3600 s, try again later"
    )
    assert error.value.kind == "rate-limited"
    assert fake_time.sleeps == []
    assert len(httpserver.log) == 1


def test_server_errors_are_retried_with_backoff_then_given_up(
    httpserver: HTTPServer, connect: Connect, fake_time: FakeTime
) -> None:
    httpserver.expect_request("/api/query").respond_with_data("down", status=503)

    with pytest.raises(ServiceError) as error:
        lookup(Identifier("arxiv", "2403.06082"), connect(retries=2))

    assert one_line(error) == "arXiv: server error (HTTP 503); gave up after 3 tries"
    assert error.value.kind == "server-error"
    assert fake_time.sleeps == [1.0, 2.0]
    assert len(httpserver.log) == 3


def test_malformed_json_is_an_error_and_is_not_kept_in_the_cache(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request(f"/works/{BERT_DOI}").respond_with_data(
        "<html><body>Service Unavailable</body></html>", content_type="application/json"
    )
    client = connect()

    for _ in range(2):
        with pytest.raises(ServiceError) as error:
            lookup(Identifier("doi", BERT_DOI), client)
        assert one_line(error) == "Crossref: malformed answer (not JSON)"

    assert len(httpserver.log) == 2  # the second lookup asked again


def test_malformed_xml_is_an_error(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/api/query").respond_with_data("<feed><entry>", status=200)

    with pytest.raises(ServiceError) as error:
        lookup(Identifier("arxiv", "2403.06082"), connect())

    assert one_line(error) == "arXiv: malformed answer (not XML)"
    assert error.value.kind == "malformed"


def test_xml_with_entity_declarations_is_refused(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/rec/conf/x/Y24.xml").respond_with_data(
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">]><dblp>&a;</dblp>'
    )

    with pytest.raises(ServiceError) as error:
        lookup(Identifier("dblp", "conf/x/Y24"), connect())

    assert one_line(error) == "DBLP: malformed answer (XML with entity declarations)"


def test_arxiv_error_entry_says_what_arxiv_said(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        fixture("arxiv/error-incorrect-id-1234.12345.xml"), content_type="application/atom+xml"
    )

    with pytest.raises(ServiceError) as error:
        lookup(Identifier("arxiv", "1234.12345"), connect())

    assert one_line(error) == "arXiv: incorrect id format for 1234.12345"


def test_unknown_ids_are_not_found(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        fixture("arxiv/empty-1201.56789.xml"), content_type="application/atom+xml"
    )
    httpserver.expect_request("/works/10.5555/nope").respond_with_data(
        "Resource not found.", status=404, content_type="text/plain"
    )
    httpserver.expect_request("/notes").respond_with_json({"notes": [], "count": 0})
    client = connect(keys=lambda name: None)
    notes: list[str] = []

    with pytest.raises(ServiceError) as arxiv_error:
        lookup(Identifier("arxiv", "1201.56789"), client)
    with pytest.raises(ServiceError) as doi_error:
        lookup(Identifier("doi", "10.5555/nope"), client, notes)
    with pytest.raises(ServiceError) as openreview_error:
        lookup(Identifier("openreview", "AAAAAAAAAA"), client)

    assert one_line(arxiv_error) == "arXiv: not found (arXiv 1201.56789)"
    assert one_line(doi_error) == "Crossref: not found (DOI 10.5555/nope)"
    assert notes[0].startswith("OpenAlex: skipped: no API key")  # no fallback without a key
    assert one_line(openreview_error) == "OpenReview: not found (OpenReview AAAAAAAAAA)"
    assert {arxiv_error.value.kind, doi_error.value.kind, openreview_error.value.kind} == {
        "not-found"
    }


def test_an_answer_over_the_size_limit_is_refused(
    httpserver: HTTPServer, connect: Connect
) -> None:
    # Announced by Content-Length: refused before the body is read.
    httpserver.expect_request("/works/10.1/big").respond_with_data(b"x" * 4096)
    # Not announced (chunked): refused once the bytes read pass the limit.
    httpserver.expect_request("/works/10.1/stream").respond_with_response(
        Response((b"y" * 512 for _ in range(8)), content_type="application/json")
    )
    client = connect(max_bytes=1024)

    for doi in ("10.1/big", "10.1/stream"):
        with pytest.raises(ServiceError) as error:
            lookup(Identifier("doi", doi), client)
        assert one_line(error) == "Crossref: answer too big (over 1 KB)"
        assert error.value.kind == "too-big"


def test_redirects_are_followed_and_a_loop_is_one_error(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/v235/moved.html").respond_with_data(
        "", status=301, headers={"Location": "/v235/adepu24a.html"}
    )
    httpserver.expect_request("/v235/adepu24a.html").respond_with_data(
        fixture("pmlr/v235-adepu24a.html"), content_type="text/html"
    )
    httpserver.expect_request("/v235/a.html").respond_with_data(
        "", status=302, headers={"Location": "/v235/b.html"}
    )
    httpserver.expect_request("/v235/b.html").respond_with_data(
        "", status=302, headers={"Location": "/v235/a.html"}
    )
    client = connect()

    assert lookup(Identifier("pmlr", "v235/moved"), client).title == FRAMEQUANT
    with pytest.raises(ServiceError) as error:
        lookup(Identifier("pmlr", "v235/a"), client)

    assert one_line(error) == "PMLR: redirect loop"
    assert error.value.kind == "redirect-loop"
    assert requests(httpserver)[-2:] == ["/v235/a.html", "/v235/b.html"]
    with pytest.raises(ServiceError) as chain:
        lookup(Identifier("pmlr", "v235/moved"), connect(max_redirects=0, use_cache=False))
    assert one_line(chain) == "PMLR: too many redirects (more than 0)"


def test_only_http_addresses_are_fetched(httpserver: HTTPServer, connect: Connect,
                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    httpserver.expect_request("/v235/away.html").respond_with_data(
        "", status=302, headers={"Location": "file:///etc/passwd"}
    )
    client = connect()

    for url in ("file:///etc/passwd", "ftp://example.org/paper.pdf"):
        with pytest.raises(ServiceError) as error:
            client.get("web", url)
        assert error.value.kind == "bad-url"
    with pytest.raises(ServiceError) as redirected:
        lookup(Identifier("pmlr", "v235/away"), client)
    assert redirected.value.kind == "bad-url"
    monkeypatch.setenv("PAPERSHELF_ARXIV_URL", "ftp://mirror.example.org")
    with pytest.raises(ServiceError) as configured:
        lookup(Identifier("arxiv", "2403.06082"), connect(base_urls={}))
    assert one_line(configured) == "arXiv: PAPERSHELF_ARXIV_URL is not an http(s) URL"


# ---------------------------------------------------------------------- manners


def test_offline_mode_asks_nothing(
    httpserver: HTTPServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(Offline) as by_setting:
        lookup(Identifier("arxiv", "2403.06082"), connect(offline=True))
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    with pytest.raises(ServiceError) as by_environment:
        lookup(Identifier("doi", BERT_DOI), connect(offline=None))

    assert one_line(by_setting) == "arXiv: offline mode is on; no request was made"
    assert isinstance(by_environment.value, Offline)
    assert by_environment.value.kind == "offline"
    assert httpserver.log == []


def test_offline_mode_still_answers_from_the_cache(
    httpserver: HTTPServer, connect: Connect
) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        fixture("arxiv/query-2403.06082.xml"), content_type="application/atom+xml"
    )
    lookup(Identifier("arxiv", "2403.06082"), connect())

    record = lookup(Identifier("arxiv", "2403.06082"), connect(offline=True))

    assert record.title == FRAMEQUANT
    assert len(httpserver.log) == 1


def test_the_cache_answers_a_repeated_request(httpserver: HTTPServer, connect: Connect) -> None:
    httpserver.expect_request("/notes").respond_with_data(
        fixture("openreview/notes-xPypr0kufs.json"), content_type="application/json"
    )
    client = connect()

    first = lookup(Identifier("openreview", "xPypr0kufs"), client)
    again = lookup(Identifier("openreview", "xPypr0kufs"), client)
    next_session = lookup(Identifier("openreview", "xPypr0kufs"), connect())  # same folder

    assert first == again == next_session
    assert len(httpserver.log) == 1


def test_arxiv_requests_are_three_seconds_apart(
    httpserver: HTTPServer, connect: Connect, fake_time: FakeTime
) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        fixture("arxiv/query-2403.06082.xml"), content_type="application/atom+xml"
    )
    client = connect(spacing={})  # the services' own spacing

    lookup(Identifier("arxiv", "2403.06082"), client)
    lookup(Identifier("arxiv", "2403.06082v2"), client)  # another question: waits
    lookup(Identifier("arxiv", "2403.06082"), client)  # cached: asks nobody, waits not
    fake_time.now += 10  # time passes
    lookup(Identifier("arxiv", "2403.06082v1"), client)  # long enough since: no wait

    assert fake_time.sleeps == [3.0]
    assert len(httpserver.log) == 3


def test_keys_urls_and_contact_come_from_the_environment_or_the_keyring(
    httpserver: HTTPServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    import keyring

    httpserver.expect_request("/graph/v1/paper/search/match").respond_with_data(
        fixture("s2/match-framequant.json"), content_type="application/json"
    )
    httpserver.expect_request("/works").respond_with_data(
        fixture("openalex/works-search-framequant.json"), content_type="application/json"
    )
    root = httpserver.url_for("/").rstrip("/")
    monkeypatch.setenv("PAPERSHELF_S2_URL", root)
    monkeypatch.setenv("PAPERSHELF_OPENALEX_URL", root)
    monkeypatch.setenv("PAPERSHELF_S2_KEY", "key-from-env")
    monkeypatch.setenv("PAPERSHELF_CONTACT", "reader@example.org")
    stored = {("papershelf", "openalex"): "key-from-keyring"}
    monkeypatch.setattr(keyring, "get_password", lambda service, name: stored.get((service, name)))
    client = connect(base_urls={}, keys=None)

    assert semanticscholar.search(FRAMEQUANT, client)[0].title == FRAMEQUANT
    assert lookup(Identifier("title", FRAMEQUANT), client).title == FRAMEQUANT

    s2_request, openalex_request = (request for request, _ in httpserver.log)
    assert s2_request.headers["x-api-key"] == "key-from-env"
    assert openalex_request.args["api_key"] == "key-from-keyring"
    assert openalex_request.args["mailto"] == "reader@example.org"  # OpenAlex's polite pool
