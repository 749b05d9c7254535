"""The papers around a paper (papershelf.feeds.around): a local server plays OpenAlex,
Semantic Scholar, Crossref and OpenCitations in the shapes their documentation gives
(OpenAlex's Work object and `/works` lists, the Graph API's `/references` and
`/citations`, Crossref's `reference` list, COCI's `/references`, `/citations` and
`/metadata`), and each service in turn fails so that the next one answers."""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Callable

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from papershelf.cli import around as commands
from papershelf.cli import feeds as feed_commands
from papershelf.core.library import Library
from papershelf.errors import UserError
from papershelf.feeds import around, known
from papershelf.feeds.learning import model_of
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.metadata.services._common import people, with_raw
from tests import services_support

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment
fake_time = services_support.fake_time
connect = services_support.connect

PAPER = "10.5555/transformer.2017"  # the paper asked about
LSTM = "10.1162/neco.1997.9.8.1735"
ADAM = "10.5555/adam.2015"


def add(library: Library, title: str, doi: str = "", eprint: str = "",
        tags: tuple[str, ...] = (), abstract: str = "") -> int:
    record = PaperRecord(entry_type="article", title=title, authors=people(["Ann Author"]),
                         year=2020, doi=doi, abstract=abstract)
    if eprint:
        record = with_raw(record, {"eprint": eprint, "archiveprefix": "arXiv"})
    library.import_result(ReadResult(records=[record]), "test", "bibtex")
    paper_id, _ = library.paper_for(record)
    assert paper_id is not None
    if tags:
        library.add_tags([paper_id], tags)
    return paper_id


def inverted(words: str) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for i, word in enumerate(words.split()):
        index.setdefault(word, []).append(i)
    return index


def work(openalex_id: str, title: str, doi: str, year: int, abstract: str = ""
         ) -> dict[str, object]:
    """A Work object as OpenAlex documents it (the fields read)."""
    return {
        "id": f"https://openalex.org/{openalex_id}", "doi": f"https://doi.org/{doi}",
        "title": title, "display_name": title, "publication_year": year, "type": "article",
        "authorships": [{"author": {"id": "https://openalex.org/A1",
                                    "display_name": "Ada Lovelace"}}],
        "abstract_inverted_index": inverted(abstract) if abstract else None,
        "primary_location": {"source": {"display_name": "Neural Computation",
                                        "type": "journal"}},
    }


def openalex_handler(request: Request) -> Response:
    """OpenAlex: the work (by DOI), its referenced works (by id), those citing it."""
    if request.path == f"/works/doi:{PAPER}":
        assert request.args["api_key"] == "test-key"
        body: object = {"id": "https://openalex.org/W100", "referenced_works": [
            "https://openalex.org/W1", "https://openalex.org/W2"]}
    elif request.args.get("filter") == "ids.openalex:W1|W2":
        body = {"meta": {"count": 2}, "results": [
            work("W1", "Long Short-Term Memory", LSTM, 1997,
                 "Learning to store information over extended time intervals"),
            work("W2", "Adam: A Method for Stochastic Optimization", ADAM, 2015)]}
    elif request.args.get("filter") == "cites:W100":
        body = {"meta": {"count": 1}, "results": [
            work("W3", "BERT: Pre-training of Deep Bidirectional Transformers",
                 "10.18653/v1/n19-1423", 2019)]}
    else:
        return Response("unexpected", status=400)
    return Response(json.dumps(body), content_type="application/json")


def s2_paper(title: str, year: int, doi: str = "", arxiv: str = "") -> dict[str, object]:
    ids: dict[str, object] = {"CorpusId": 1}
    if doi:
        ids["DOI"] = doi
    if arxiv:
        ids["ArXiv"] = arxiv
    return {"paperId": "abc", "title": title, "year": year, "externalIds": ids,
            "abstract": f"The abstract of {title}.",
            "authors": [{"authorId": "1", "name": "Grace Hopper"}]}


def failing(status: int) -> Callable[[Request], Response]:
    return lambda _request: Response(json.dumps({"error": "down"}), status=status,
                                     content_type="application/json")


# ---------------------------------------------------------------------- OpenAlex first


def test_openalex_answers_both_ways_with_abstracts_and_the_library_marked(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    add(library, "Adam: a method for stochastic optimization")  # (by its title)
    add(library, "BERT", doi="10.18653/V1/N19-1423")  # (by its DOI, whatever the case)
    httpserver.expect_request(f"/works/doi:{PAPER}").respond_with_handler(openalex_handler)
    httpserver.expect_request("/works").respond_with_handler(openalex_handler)
    found = around.around(connect(), doi=PAPER, library=library)
    assert found.sources == {"references": "OpenAlex", "citing": "OpenAlex"}
    lstm, adam = found.references
    assert (lstm.title, lstm.year, lstm.authors, lstm.doi) == (
        "Long Short-Term Memory", 1997, ("Ada Lovelace",), LSTM)
    assert lstm.abstract == "Learning to store information over extended time intervals"
    assert not lstm.in_library and adam.in_library
    [bert] = found.citing
    assert bert.in_library and bert.identifier is not None
    assert bert.identifier.value == "10.18653/v1/n19-1423"


def test_openalex_failing_semantic_scholar_answers(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    add(library, "Attention is all you need", eprint="1706.03762")
    httpserver.expect_request(f"/works/doi:{PAPER}").respond_with_handler(failing(503))
    httpserver.expect_request(f"/graph/v1/paper/DOI:{PAPER}/references").respond_with_json(
        {"offset": 0, "data": [
            {"citedPaper": s2_paper("Sequence to Sequence Learning", 2014, arxiv="1409.3215")},
            {"citedPaper": {"paperId": None, "title": None}},  # (S2 lists unknown ones)
            {"citedPaper": s2_paper("Attention Is All You Need", 2017, arxiv="1706.03762v5")},
        ]})
    found = around.around(connect(), doi=PAPER, directions=("references",), library=library)
    assert found.sources == {"references": "Semantic Scholar"}
    assert found.notes and "OpenAlex" in found.notes[0] and "503" in found.notes[0]
    seq, attention = found.references
    assert (seq.arxiv_id, seq.abstract, seq.authors) == (
        "1409.3215", "The abstract of Sequence to Sequence Learning.", ("Grace Hopper",))
    assert attention.in_library and not seq.in_library  # (its BibTeX eprint)
    request = httpserver.log[-1][0]
    assert request.headers["x-api-key"] == "test-key"
    assert set(request.args["fields"].split(",")) >= {"title", "authors", "year",
                                                       "abstract", "externalIds"}


def test_without_keys_crossref_gives_the_references_and_opencitations_the_citing(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    httpserver.expect_request(f"/works/{PAPER}").respond_with_json({
        "status": "ok", "message-type": "work", "message": {
            "DOI": PAPER, "title": ["Attention Is All You Need"], "reference-count": 3,
            "reference": [
                {"key": "ref1", "doi-asserted-by": "crossref", "DOI": LSTM.upper(),
                 "article-title": "Long Short-Term Memory", "author": "Hochreiter",
                 "year": "1997", "journal-title": "Neural Computation"},
                {"key": "ref2", "unstructured": "D. Kingma, J. Ba. Adam. ICLR 2015."},
                {"key": "ref3"}]}})
    httpserver.expect_request(f"/index/coci/api/v1/citations/{PAPER}").respond_with_json([
        {"oci": "1-2", "citing": "10.1000/citing.one", "cited": PAPER, "creation": "2019",
         "timespan": "P2Y", "journal_sc": "no", "author_sc": "no"},
        {"oci": "1-3", "citing": "10.1000/citing.two", "cited": PAPER, "creation": "2020",
         "timespan": "P3Y", "journal_sc": "no", "author_sc": "no"}])
    httpserver.expect_request(
        "/index/coci/api/v1/metadata/10.1000/citing.one__10.1000/citing.two"
    ).respond_with_json([
        {"author": "Doe, Jane; Roe, Richard", "year": "2019", "title": "Citing One",
         "source_title": "J", "doi": "10.1000/citing.one", "citation_count": "3"}])
    client = connect(keys=lambda name: None)
    found = around.around(client, doi=PAPER, library=library)
    assert found.sources == {"references": "Crossref", "citing": "OpenCitations"}
    lstm, adam = found.references
    assert (lstm.title, lstm.doi, lstm.year) == ("Long Short-Term Memory", LSTM, 1997)
    assert adam.title.startswith("D. Kingma") and adam.identifier is None
    one, two = found.citing
    assert (one.title, one.authors, one.year) == ("Citing One", ("Doe, Jane", "Roe, Richard"),
                                                 2019)
    assert (two.title, two.doi) == ("10.1000/citing.two", "10.1000/citing.two")
    assert any("API key" in note for note in found.notes)


def test_offline_nothing_is_asked_and_the_command_says_so_in_one_line(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    add(library, "Attention", doi=PAPER)
    key = library.records(library.view_ids())[0].key
    out, err = io.StringIO(), io.StringIO()
    status = commands.run_around(library, argparse.Namespace(
        key=key, references=True, citing=False, json=False, offline=True), out, err,
        connect(offline=True))
    assert status == 1 and out.getvalue() == ""
    assert f"no service gave the references of {key}" in err.getvalue()
    assert not httpserver.log


def test_around_lists_with_the_mark_and_as_json(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    paper_id = add(library, "Attention", doi=PAPER)
    add(library, "Long short-term memory")
    key = library.records([paper_id])[0].key
    httpserver.expect_request(f"/works/doi:{PAPER}").respond_with_handler(openalex_handler)
    httpserver.expect_request("/works").respond_with_handler(openalex_handler)
    client = connect()
    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(key=key, references=False, citing=False, json=False,
                              offline=False)
    assert commands.run_around(library, args, out, err, client) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "references (OpenAlex): 2 papers, 1 in your library"
    assert lines[1].startswith("* 1997  Long Short-Term Memory\tAda Lovelace\tdoi:")
    assert lines[3] == "citing it (OpenAlex): 1 paper, 0 in your library"
    out = io.StringIO()
    args.json, args.citing = True, True
    assert commands.run_around(library, args, out, err, client) == 0
    listed = json.loads(out.getvalue())
    assert listed["sources"] == {"citing": "OpenAlex"}
    assert listed["citing"][0]["doi"] == "10.18653/v1/n19-1423"
    with pytest.raises(UserError, match="no paper nokey"):
        around.identify(library, "nokey")
    assert around.identify(library, "arXiv:1706.03762v2") == ("", "1706.03762", "")


# ---------------------------------------------------------------------- missing


def test_missing_counts_what_my_papers_cite_and_i_lack(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    for n in (1, 2, 3):
        add(library, f"My paper {n}", doi=f"10.1000/mine.{n}", tags=("thesis",) if n < 3
            else ())
    add(library, "Already here", doi="10.1000/have")

    def references(*dois: str) -> dict[str, object]:
        return {"status": "ok", "message": {"reference": [
            {"key": d, "DOI": d, "article-title": f"Paper {d}"} for d in dois]}}

    httpserver.expect_request("/works/10.1000/mine.1").respond_with_json(
        references("10.1000/x", "10.1000/have", "10.1000/y"))
    httpserver.expect_request("/works/10.1000/mine.2").respond_with_json(
        references("10.1000/x", "10.1000/have"))
    httpserver.expect_request("/works/10.1000/mine.3").respond_with_json(
        references("10.1000/y", "10.1000/x"))
    httpserver.expect_request("/works/10.1000/have").respond_with_json(references())
    client = connect(keys=lambda name: None)
    found, notes = around.missing(library, client, min_count=2)
    assert notes == []
    assert [(m.paper.doi, m.count) for m in found] == [("10.1000/x", 3), ("10.1000/y", 2)]
    found, _ = around.missing(library, client, min_count=2, tag="thesis")
    assert [(m.paper.doi, m.count) for m in found] == [("10.1000/x", 2)]
    out, err = io.StringIO(), io.StringIO()
    assert commands.run_missing(library, argparse.Namespace(
        min=3, tag="", papers=100, json=True, offline=False), out, err, client) == 0
    assert json.loads(out.getvalue()) == [{
        "title": "Paper 10.1000/x", "authors": [], "year": None, "abstract": "",
        "doi": "10.1000/x", "arxiv_id": "", "in_library": False, "cited_by": 3}]
    with pytest.raises(UserError, match="no tag nope"):
        around.missing(library, client, tag="nope")


# ---------------------------------------------------------------------- the inbox


def test_the_library_has_an_arxiv_paper_by_its_bibtex_eprint(library: Library) -> None:
    add(library, "Some paper", eprint="arXiv:2403.06082v2")
    with library.context.read() as session:
        assert known.in_library(session, {"arxiv:2403.06082", "arxiv:2403.00001"}) == \
            {"arxiv:2403.06082"}


def test_a_tag_ranks_the_inbox_by_its_own_papers(library: Library) -> None:
    add(library, "Protein folding with graph networks", tags=("bio",),
        abstract="protein structure prediction folding residues")
    add(library, "Quantized transformers for language", tags=("nlp",),
        abstract="language model quantization tokens")
    items = [("Residue contacts for protein folding", "protein structure folding", ()),
             ("Token pruning in language model quantization", "language tokens", ())]
    bio = [score for score, _ in model_of(library, "bio").rank(items)]
    nlp = [score for score, _ in model_of(library, "nlp").rank(items)]
    assert bio[0] > bio[1] and nlp[1] > nlp[0]
    with pytest.raises(UserError, match="no tag"):
        model_of(library, "nothing")
    out = io.StringIO()
    assert feed_commands.run_inbox(library, argparse.Namespace(
        action=None, ids=[], json=False, tag="bio"), out, io.StringIO()) == 0


def test_a_service_that_is_down_is_asked_once_for_the_missing_papers(
        library: Library, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    for n in (1, 2, 3):
        add(library, f"My paper {n}", doi=f"10.1000/mine.{n}")
    httpserver.expect_request(re.compile(r"^/works/doi:.*")).respond_with_handler(
        failing(503))
    httpserver.expect_request(re.compile(r"^/graph/v1/paper/.*")).respond_with_handler(
        failing(404))
    for n in (1, 2, 3):
        httpserver.expect_request(f"/works/10.1000/mine.{n}").respond_with_json(
            {"status": "ok", "message": {"reference": [
                {"key": "a", "DOI": "10.1000/x", "article-title": "Cited By All"}]}})
    found, notes = around.missing(library, connect(), min_count=3)
    assert [(m.paper.title, m.count) for m in found] == [("Cited By All", 3)]
    asked_openalex = [r for r, _ in httpserver.log if r.path.startswith("/works/doi:")]
    assert len(asked_openalex) == 4  # (the first paper: one try and 3 retries; then none)
    assert len([r for r, _ in httpserver.log if r.path.startswith("/graph/")]) == 3
    assert notes == []
