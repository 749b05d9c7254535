"""Following sources into an inbox (papershelf.feeds): a local server plays arXiv's API and
RSS, journals' RSS 2.0 and Atom feeds, Crossref and OpenAlex, in the shapes their
documentation gives, and feeds broken every way a feed breaks."""

from __future__ import annotations

import argparse
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from papershelf.cli import feeds as commands
from papershelf.core.library import Library
from papershelf.errors import UserError
from papershelf.feeds import fetching, inbox, sources
from papershelf.feeds.sources import parse_source
from papershelf.metadata.http import ServiceClient
from tests import services_support
from tests.postgres_server import SharedLibrary, plain_sql

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment
fake_time = services_support.fake_time
connect = services_support.connect

DATA = Path(__file__).parent / "data" / "feeds"
ATOM = "application/atom+xml"
RSS = "application/rss+xml"


def data(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def follow(library: Library, *spellings: str) -> None:
    for spelling in spellings:
        sources.follow(library.context, spelling)


def titles(library: Library) -> list[str]:
    return sorted(item.title for item in inbox.items(library))


def noted(library: Library) -> dict[str, tuple[str, str]]:
    return {s.spelling: (s.state, s.note) for s in sources.sources(library.context)}


# ---------------------------------------------------------------------- spellings


def test_each_kind_of_source_is_spelt_one_way() -> None:
    assert parse_source("arXiv: cs.LG").spelling == "arxiv:cs.LG"
    assert parse_source("arxiv:cs.LG").category
    assert parse_source('arxiv:"diffusion   models"').spelling == 'arxiv:"diffusion models"'
    assert not parse_source('arxiv:"diffusion models"').category
    assert parse_source("issn:12345678").spelling == "issn:1234-5678"
    assert parse_source("ISSN:0000-000x").value == "0000-000X"
    assert parse_source("openalex:https://openalex.org/a5023888391").spelling == \
        "openalex:A5023888391"
    assert parse_source("https://example.org/rss").kind == "feed"
    for wrong in ("", "arxiv:", "arxiv:cs LG", "issn:12-34", "openalex:W123456",
                  "ftp://example.org/feed", "cs.LG", 'arxiv:""'):
        with pytest.raises(UserError) as error:
            parse_source(wrong)
        assert "\n" not in str(error.value)


def test_following_twice_is_refused_and_each_change_undoes(library: Library) -> None:
    ctx = library.context
    change, source = sources.follow(ctx, "arxiv:cs.LG")
    assert source.spelling == "arxiv:cs.LG"
    with pytest.raises(UserError, match="already"):
        sources.follow(ctx, "ARXIV:cs.LG")
    assert change.undo is not None
    redo = change.undo()
    assert sources.sources(ctx) == []
    assert redo.undo is not None
    redo.undo()
    removed = sources.unfollow(ctx, "arxiv: cs.LG")
    assert sources.sources(ctx) == []
    assert removed.undo is not None
    removed.undo()
    assert [s.spelling for s in sources.sources(ctx)] == ["arxiv:cs.LG"]
    with pytest.raises(UserError, match="no source"):
        sources.unfollow(ctx, "issn:1234-5678")


# ---------------------------------------------------------------------- every kind


def test_arxiv_is_asked_politely_and_a_feed_that_did_not_change_costs_a_304(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    follow(library, "arxiv:cs.LG")
    httpserver.expect_ordered_request("/api/query", query_string={
        "search_query": "cat:cs.LG", "sortBy": "submittedDate", "sortOrder": "descending",
        "start": "0", "max_results": "100"}).respond_with_data(
        data("arxiv-api-cs.LG.xml"), content_type=ATOM, headers={
            "ETag": '"v1"', "Last-Modified": "Tue, 12 Mar 2024 04:00:00 GMT"})

    def not_modified(request: Request) -> Response:
        assert request.headers["If-None-Match"] == '"v1"'
        assert request.headers["If-Modified-Since"] == "Tue, 12 Mar 2024 04:00:00 GMT"
        return Response(status=304, headers={"ETag": '"v1"'})

    httpserver.expect_ordered_request("/api/query").respond_with_handler(not_modified)
    client = connect()
    [first] = inbox.check(library, client)
    assert (first.new, first.failed, first.note) == (2, False, "")
    [again] = inbox.check(library, client)
    assert again.not_modified and again.new == 0
    listed = {item.arxiv_id: item for item in inbox.items(library)}
    assert set(listed) == {"2403.07001", "2403.07002"}
    quantized = listed["2403.07001"]
    assert quantized.title == "Two-Bit Quantization of Large Language Models Without Retraining"
    assert quantized.authors == ("Ada Lovelace", "Charles Babbage")
    assert quantized.doi == "10.1234/qllm.2024.7"
    assert quantized.abstract.startswith("We quantize the weights")
    assert quantized.published == datetime(2024, 3, 10, 9, tzinfo=timezone.utc)
    assert quantized.source == "arxiv:cs.LG" and quantized.reason
    assert noted(library) == {"arxiv:cs.LG": ("ok", "")}


def test_feeds_journals_and_authors_each_bring_their_papers(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    rss, atom, arxiv_rss = (httpserver.url_for(p) for p in ("/jmlt/rss", "/annals.atom",
                                                             "/rss/cs.LG"))
    follow(library, rss, atom, arxiv_rss, "issn:1234-5678", "openalex:A5023888391",
           'arxiv:"policy gradient"')
    httpserver.expect_request("/jmlt/rss").respond_with_data(data("journal-rss2.xml"),
                                                             content_type=RSS)
    httpserver.expect_request("/annals.atom").respond_with_data(data("journal-atom.xml"),
                                                                content_type=ATOM)
    httpserver.expect_request("/rss/cs.LG").respond_with_data(data("arxiv-rss-cs.LG.xml"),
                                                              content_type="text/xml")
    httpserver.expect_request("/journals/1234-5678/works").respond_with_data(
        data("crossref-journal-works.json"), content_type="application/json")
    httpserver.expect_request("/works", query_string={
        "filter": "author.id:A5023888391,from_publication_date:2024-02-27",
        "sort": "publication_date:desc", "per-page": "100", "api_key": "test-key"},
    ).respond_with_data(data("openalex-author-works.json"), content_type="application/json")
    httpserver.expect_request("/api/query", query_string={
        "search_query": "all:policy AND all:gradient", "sortBy": "submittedDate",
        "sortOrder": "descending", "start": "0", "max_results": "100"},
    ).respond_with_data(data("arxiv-api-cs.LG.xml").replace("2403.0700", "2403.0800")
                        .replace("10.1234/qllm", "10.1234/other").replace(
                            "Two-Bit", "Three-Bit").replace("Soil", "Rock"), content_type=ATOM)
    now = datetime(2024, 3, 12, tzinfo=timezone.utc)
    done = {c.source: (c.new, c.failed) for c in inbox.check(library, connect(), now=now)}
    assert done == {rss: (2, False), atom: (1, False), arxiv_rss: (2, False),
                    "issn:1234-5678": (2, False), "openalex:A5023888391": (1, False),
                    'arxiv:"policy gradient"': (2, False)}
    listed = {item.title: item for item in inbox.items(library)}
    graph = listed["Calibrated Uncertainty for Graph Neural Networks"]
    assert (graph.doi, graph.venue, graph.authors) == (
        "10.5555/jmlt.2024.001", "Journal of Machine Learning Things",
        ("Emmy Noether", "Sofia Kovalevskaya"))
    assert graph.abstract == "We calibrate the predictive uncertainty of graph neural networks."
    euler = listed["Stochastic Methods for Composite & Distributed Optimization, Revisited"]
    assert euler.doi == "10.7777/annals.2024.42" and euler.authors[0] == "Leonhard Euler"
    moe = listed["Sparse Mixtures of Experts for Efficient Transformers"]
    assert (moe.arxiv_id, moe.authors) == ("2403.07003", ("Grace Hopper", "Alan Turing"))
    assert moe.abstract == "Mixtures of experts make transformers cheaper to run."
    bandit = listed["Bandit Feedback in Online Convex Optimization"]
    assert (bandit.doi, bandit.venue) == ("10.8888/jopt.2024.0301", "Journal of Optimization")
    assert listed["Policy Gradients for Non-Smooth Control"].doi == "10.9999/neurips.2024.55"
    assert "Three-Bit Quantization of Large Language Models Without Retraining" in listed
    # (the arXiv RSS's second item is the same paper as a journal's? no: it is its own)
    assert "Two-Bit Quantization of Large Language Models Without Retraining" in listed


# ---------------------------------------------------------------------- broken feeds


BROKEN = {
    "/html": ("<!DOCTYPE html><html><head><title>Moved</title></head><body>We moved our "
              "feeds.</body></html>", "text/html", "a web page, not a feed"),
    "/invalid": ("<rss version='2.0'><channel><item><title>Half", RSS, "not well-formed XML"),
    "/entities": ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 '
                  '"&lol;&lol;&lol;&lol;">]><rss version="2.0"><channel><item><title>&lol2;'
                  "</title></item></channel></rss>", RSS, "declares entities"),
    "/untitled": ("<rss version='2.0'><channel><title>x</title><item><link>https://e.org/1"
                  "</link></item><item><description>no title</description></item></channel>"
                  "</rss>", RSS, "no entry has a title"),
    "/huge": ("<rss version='2.0'><channel>" + "<item><title>Big</title></item>" * 2000
              + "</channel></rss>", RSS, "too big"),
}


def test_a_broken_feed_is_one_note_on_its_source_and_the_others_go_on(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetching, "MAX_BYTES", 20_000)
    for path, (body, kind, _note) in BROKEN.items():
        httpserver.expect_request(path).respond_with_data(body, content_type=kind)
    httpserver.expect_request("/gone").respond_with_data("no", status=404)
    many = "".join(f"<item><title>Paper {i}</title><guid>id-{i % 300}</guid></item>"
                   for i in range(300))
    repeated = ("<item><title>Paper 1</title></item><item><title>No id</title></item>"
                "<item><title></title><link>https://e.org/x</link></item>")
    httpserver.expect_request("/many").respond_with_data(
        f"<rss version='2.0'><channel><title>m</title>{many}{repeated}</channel></rss>",
        content_type=RSS)
    httpserver.expect_request("/good").respond_with_data(data("journal-atom.xml"),
                                                         content_type=ATOM)
    urls = {path: httpserver.url_for(path) for path in [*BROKEN, "/gone", "/many", "/good"]}
    follow(library, *urls.values())
    done = {c.source: c for c in inbox.check(library, connect())}
    for path, (_body, _kind, note) in BROKEN.items():
        assert done[urls[path]].failed and note in done[urls[path]].note, path
        state, kept = noted(library)[urls[path]]
        assert state == "failed" and note in kept and "\n" not in kept
    assert done[urls["/gone"]].failed and "not found" in done[urls["/gone"]].note
    many_checked = done[urls["/many"]]
    assert not many_checked.failed and many_checked.new == fetching.MAX_ITEMS
    assert "1 entry without a title skipped" in many_checked.note
    assert "1 repeated entry dropped" in many_checked.note
    assert "the newest 200 kept" in many_checked.note
    assert done[urls["/good"]].new == 1
    assert len(inbox.items(library)) == fetching.MAX_ITEMS + 1


def test_offline_nothing_is_asked(library: Library, httpserver: HTTPServer,
                                  connect: services_support.Connect) -> None:
    follow(library, "arxiv:cs.LG", httpserver.url_for("/feed"))
    assert inbox.check(library, connect(offline=True)) == []
    assert noted(library) == {"arxiv:cs.LG": ("new", ""),
                              httpserver.url_for("/feed"): ("new", "")}
    assert not httpserver.log


# ---------------------------------------------------------------------- the inbox


def test_papers_already_in_the_library_never_reach_the_inbox(
        seeded: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    seeded.import_bibtex("@article{q, title={Something Else Entirely}, "
                         "doi={10.1234/QLLM.2024.7}}\n@misc{s, title={Unrelated}, "
                         "url={https://arxiv.org/abs/2403.07003}}\n@inproceedings{f, "
                         "title={{FrameQuant}: a simple scheme to quantize {Transformer}-based "
                         "models to just two bits}}", "test")
    httpserver.expect_request("/rss").respond_with_data(
        data("arxiv-rss-cs.LG.xml").replace(
            "Two-Bit Quantization of Large Language Models Without Retraining",
            "FrameQuant: A Simple Scheme to Quantize Transformer-Based Models to just Two "
            "Bits"), content_type=RSS)
    httpserver.expect_request("/api/query").respond_with_data(data("arxiv-api-cs.LG.xml"),
                                                              content_type=ATOM)
    follow(seeded, httpserver.url_for("/rss"), "arxiv:cs.LG")
    done = inbox.check(seeded, connect())
    # the RSS: one by its arXiv page, one by its title; the API: one by its DOI
    assert [c.new for c in done] == [0, 1], titles(seeded)
    assert titles(seeded) == ["Soil Erosion on Alpine Meadows Under Grazing"]


def _two_items(library: Library, httpserver: HTTPServer, client: ServiceClient) -> None:
    httpserver.expect_request("/api/query").respond_with_data(data("arxiv-api-cs.LG.xml"),
                                                              content_type=ATOM)
    follow(library, "arxiv:cs.LG")
    inbox.check(library, client)


def test_triage_adds_stars_and_dismisses_each_one_undo_step(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    client = connect()
    _two_items(library, httpserver, client)
    by_arxiv = {item.arxiv_id: item.id for item in inbox.items(library)}
    quantized, soil = by_arxiv["2403.07001"], by_arxiv["2403.07002"]
    starred = inbox.star(library, [quantized])
    assert starred.description == "Star 1 paper from the inbox"
    [paper] = library.view_ids()
    detail = library.paper(paper)
    assert detail is not None and detail.starred and detail.read_state == "unread"
    assert detail.record.doi == "10.1234/qllm.2024.7"
    assert detail.record.raw.get("eprint") == "2403.07001"
    assert [item.id for item in inbox.items(library)] == [soil]
    assert starred.undo is not None
    redo = starred.undo()
    assert library.view_ids() == [] and len(inbox.items(library)) == 2
    assert redo.undo is not None
    redo.undo()
    assert len(library.view_ids()) == 1 and [i.id for i in inbox.items(library)] == [soil]
    with pytest.raises(UserError, match=f"no item {quantized} in your inbox"):
        inbox.add(library, [quantized])
    dismissed = inbox.dismiss(library, [soil])
    assert inbox.items(library) == []
    assert dismissed.undo is not None
    dismissed.undo()
    assert [i.id for i in inbox.items(library)] == [soil]
    added = inbox.add(library, [soil])
    soil_paper = next(p for p in library.view_ids() if p != paper)
    soil_detail = library.paper(soil_paper)
    assert soil_detail is not None and not soil_detail.starred
    assert added.undo is not None
    added.undo()
    assert library.view_ids() == [paper]


def test_unfollowing_leaves_the_items_and_its_undo_gives_them_back_their_source(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    _two_items(library, httpserver, connect())
    removed = sources.unfollow(library.context, "arxiv:cs.LG")
    assert {item.source for item in inbox.items(library)} == {""}
    assert removed.undo is not None
    removed.undo()
    assert {item.source for item in inbox.items(library)} == {"arxiv:cs.LG"}


def test_a_dismissed_item_never_comes_back(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    client = connect()
    _two_items(library, httpserver, client)
    soil = next(i.id for i in inbox.items(library) if i.arxiv_id == "2403.07002")
    inbox.dismiss(library, [soil])
    inbox.clean_up(library.context, datetime.now(timezone.utc) + timedelta(days=1))
    httpserver.expect_request("/rss").respond_with_data(
        data("arxiv-rss-cs.LG.xml").replace("2403.07003", "2403.07002"), content_type=RSS)
    follow(library, httpserver.url_for("/rss"))
    inbox.check(library, client)
    assert "2403.07002" not in {i.arxiv_id for i in inbox.items(library)}
    assert "Soil Erosion on Alpine Meadows Under Grazing" not in titles(library)


def test_old_items_are_let_go_unless_kept(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    client = connect()
    _two_items(library, httpserver, client)
    first, _second = (i.id for i in inbox.items(library))
    kept = inbox.keep(library, [first])
    httpserver.clear()
    httpserver.expect_request("/api/query").respond_with_data(status=304)
    inbox.check(library, client, now=datetime.now(timezone.utc) + timedelta(days=31))
    assert [i.id for i in inbox.items(library)] == [first]
    assert kept.undo is not None
    kept.undo()
    assert not inbox.items(library)[0].kept


# ---------------------------------------------------------------------- the commands


def run(library: Library, *argv: str, client: ServiceClient | None = None
        ) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="papershelf")
    sub = parser.add_subparsers(dest="command")
    commands.follow_arguments(sub.add_parser("follow"))
    commands.inbox_arguments(sub.add_parser("inbox"))
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    if args.command == "follow":
        code = commands.run_follow(library, args, out, err, client=client)
    else:
        code = commands.run_inbox(library, args, out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_commands(library: Library, httpserver: HTTPServer,
                      connect: services_support.Connect) -> None:
    client = connect()
    with pytest.raises(UserError, match="you follow no source"):
        run(library, "follow", "check", client=client)
    assert run(library, "follow", "add", "arxiv:cs.LG")[:2] == (
        0, "Follow arxiv:cs.LG (checked at the next `follow check`)\n")
    assert run(library, "follow", "add", httpserver.url_for("/gone"))[0] == 0
    assert run(library, "follow", "list")[1] == (
        f"arxiv:cs.LG\tnew, not checked yet\n{httpserver.url_for('/gone')}\tnew, not "
        "checked yet\n")
    httpserver.expect_request("/api/query").respond_with_data(data("arxiv-api-cs.LG.xml"),
                                                              content_type=ATOM)
    httpserver.expect_request("/gone").respond_with_data("", status=404)
    assert run(library, "follow", "check", client=client) == (
        1, "arxiv:cs.LG: 2 new\n", f"{httpserver.url_for('/gone')}: not found (the feed)\n")
    assert "failed, checked" in run(library, "follow", "list")[1]
    code, listed, _ = run(library, "inbox", "--json")
    items = json.loads(listed)
    assert code == 0 and {i["arxiv_id"] for i in items} == {"2403.07001", "2403.07002"}
    assert set(items[0]) >= {"id", "title", "authors", "abstract", "url", "doi", "source",
                             "published", "score", "reason"}
    first = items[0]["id"]
    code, text_list, _ = run(library, "inbox")
    assert text_list.startswith(f"{first}\t{items[0]['title']}\n\tarxiv:cs.LG: ")
    assert run(library, "inbox", "dismiss", str(first))[:2] == (0, "Dismiss 1 paper\n")
    assert run(library, "inbox", "star", str(items[1]["id"]))[1] == \
        "Star 1 paper from the inbox\n"
    assert run(library, "inbox")[1] == "the inbox is empty (`follow check` asks your sources)\n"
    with pytest.raises(UserError, match="no item 999 in your inbox"):
        run(library, "inbox", "add", "999")
    with pytest.raises(UserError, match="name the inbox items"):
        run(library, "inbox", "add")
    assert run(library, "follow", "remove", "arxiv:cs.LG")[1] == "Unfollow arxiv:cs.LG\n"
    assert run(library, "follow", "check", "--offline")[:3:2] == (
        1, "offline: no source was checked\n")


def test_keep_and_unkeep_from_the_command_line_and_the_clean_up_spares_kept_items(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    client = connect()
    _two_items(library, httpserver, client)
    items = json.loads(run(library, "inbox", "--json")[1])
    first, second = items[0]["id"], items[1]["id"]
    assert not items[0]["kept"] and not items[1]["kept"]
    assert run(library, "inbox", "keep", str(first), str(second))[:2] == (
        0, "Keep 2 papers\n")
    assert run(library, "inbox", "unkeep", str(second))[:2] == (0, "Unkeep 1 paper\n")
    assert {i["id"]: i["kept"] for i in json.loads(run(library, "inbox", "--json")[1])} \
        == {first: True, second: False}
    with pytest.raises(UserError, match="name the inbox items to unkeep"):
        run(library, "inbox", "unkeep")
    gone = inbox.clean_up(library.context, datetime.now(timezone.utc) + timedelta(days=1))
    assert gone == 1 and [i.id for i in inbox.items(library)] == [first]


def test_a_source_is_renamed_in_the_library_for_every_program(
        library: Library, library_target: str) -> None:
    follow(library, "arxiv:cs.LG", "issn:1234-5678")
    assert run(library, "follow", "rename", "arXiv: cs.LG", "  Machine   learning ")[:2] == (
        0, "Rename arxiv:cs.LG to Machine learning\n")
    assert run(library, "follow", "list")[1] == (
        "arxiv:cs.LG\tMachine learning: new, not checked yet\n"
        "issn:1234-5678\tnew, not checked yet\n")
    other = Library.open(library_target)  # (another program on the same library)
    try:
        assert [(s.spelling, s.label) for s in sources.sources(other.context)] == [
            ("arxiv:cs.LG", "Machine learning"), ("issn:1234-5678", "issn:1234-5678")]
    finally:
        other.close()
    change = sources.rename(library.context, "arxiv:cs.LG", "arxiv:cs.LG")  # (no name)
    assert change.description == "Show arxiv:cs.LG by its address"
    assert sources.sources(library.context)[0].name == ""
    assert change.undo is not None
    change.undo()
    assert sources.sources(library.context)[0].name == "Machine learning"
    # unfollowed and followed back by undo: the name comes back with it
    removed = sources.unfollow(library.context, "arxiv:cs.LG")
    assert removed.undo is not None
    removed.undo()
    assert sources.sources(library.context)[0].label == "Machine learning"
    with pytest.raises(UserError, match=r"you follow no source arxiv:math\.AG"):
        run(library, "follow", "rename", "arxiv:math.AG", "Geometry")


def test_a_feed_is_named_by_its_own_title_until_the_member_names_it(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    """A followed feed shows in the sidebar and `follow list` by the title it gives
    itself (its address says little), from its first good check; a name of the member's,
    or showing it by its address, is never overwritten by a later check."""
    rss, atom = httpserver.url_for("/jmlt/rss"), httpserver.url_for("/annals.atom")
    follow(library, rss, atom, "arxiv:cs.LG")
    httpserver.expect_request("/jmlt/rss").respond_with_data(data("journal-rss2.xml"),
                                                             content_type=RSS)
    httpserver.expect_request("/annals.atom").respond_with_data(
        data("journal-atom.xml").replace("<title>Annals of", "<title>\n  Annals\tof", 1),
        content_type=ATOM)
    httpserver.expect_request("/api/query").respond_with_data(data("arxiv-api-cs.LG.xml"),
                                                              content_type=ATOM)
    with connect() as client:
        inbox.check(library, client)
    labels = {s.spelling: s.label for s in sources.sources(library.context)}
    assert labels[rss] == "Journal of Machine Learning Things: Latest articles"
    assert labels[atom] == "Annals of Optimisation: Latest"  # (its spaces tidied)
    assert labels["arxiv:cs.LG"] == "arxiv:cs.LG"  # (its spelling says it)
    sources.rename(library.context, rss, rss)  # (shown by its address)
    sources.rename(library.context, atom, "Annals")
    with connect() as client:
        inbox.check(library, client)
    labels = {s.spelling: s.label for s in sources.sources(library.context)}
    assert labels[rss] == rss and labels[atom] == "Annals"


def test_a_name_given_by_another_program_during_the_first_check_stays(
        library: Library, library_target: str, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    """The member names a feed in another window while its first check is under way:
    the check does not put the feed's own title over that name."""
    rss = httpserver.url_for("/jmlt/rss")
    follow(library, rss)
    other = Library.open(library_target)

    def answer(_request: Request) -> Response:
        sources.rename(other.context, rss, "My journal")  # (meanwhile, elsewhere)
        return Response(data("journal-rss2.xml"), content_type=RSS)

    httpserver.expect_request("/jmlt/rss").respond_with_handler(answer)
    try:
        with connect() as client:
            inbox.check(library, client)
    finally:
        other.close()
    assert [s.label for s in sources.sources(library.context)] == ["My journal"]


# ---------------------------------------------------------------------- members


def test_a_member_sees_none_of_anothers_sources_or_inbox(
        pg_lab: SharedLibrary, httpserver: HTTPServer,
        connect: services_support.Connect) -> None:
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        _two_items(alice, httpserver, connect())
        soil = next(i.id for i in inbox.items(alice) if i.arxiv_id == "2403.07002")
        inbox.dismiss(alice, [soil])
        assert sources.sources(bob.context) == [] and inbox.items(bob) == []
        with pytest.raises(UserError):
            inbox.star(bob, [i.id for i in inbox.items(alice)])
        follow(bob, "arxiv:cs.LG")  # (his own, under the same spelling)
        sources.rename(alice.context, "arxiv:cs.LG", "Alice's ML")
        sources.rename(bob.context, "arxiv:cs.LG", "Bob's ML")  # (each names their own)
        assert [s.label for s in sources.sources(alice.context)] == ["Alice's ML"]
        assert [s.label for s in sources.sources(bob.context)] == ["Bob's ML"]
    finally:
        alice.close()
        bob.close()
    with plain_sql(pg_lab.bob) as conn:
        for table in ("feed_sources", "inbox_items", "inbox_dismissed"):
            rows = conn.execute(f"SELECT user_name FROM {table}").fetchall()
            assert set(rows) <= {("bob",)}, table
        assert conn.execute("UPDATE inbox_items SET title = 'bob' ").rowcount == 0
        assert conn.execute("DELETE FROM inbox_dismissed").rowcount == 0
        assert conn.execute("UPDATE feed_sources SET note = 'x' WHERE user_name = 'alice'"
                            ).rowcount == 0
        assert conn.execute("UPDATE feed_sources SET name = 'x' WHERE user_name = 'alice'"
                            ).rowcount == 0
        with pytest.raises(Exception, match="row-level security"):
            conn.execute("INSERT INTO inbox_dismissed (user_name, identity, title, "
                         "dismissed_at) VALUES ('alice', 'title:x', 'x', now())")
    with plain_sql(pg_lab.alice) as conn:
        assert conn.execute("SELECT count(*) FROM inbox_items").fetchone() == (2,)
        assert conn.execute("SELECT count(*) FROM inbox_dismissed").fetchone() == (2,)


# ---------------------------------------------------------------------- searches at a service


def test_a_search_run_at_openalex_or_crossref_can_be_followed(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    assert parse_source('OpenAlex: "graph   neural"').spelling == 'openalex:"graph neural"'
    assert parse_source('crossref:"graph neural"').kind == "crossref"
    for wrong in ('crossref:graph', 'crossref:""', 'openalex:""'):
        with pytest.raises(UserError):
            parse_source(wrong)
    follow(library, 'openalex:"uncertainty graphs"', 'crossref:"convex optimization"')
    httpserver.expect_request("/works", query_string={
        "search": "uncertainty graphs", "filter": "from_publication_date:2024-02-27",
        "sort": "publication_date:desc", "per-page": "100", "api_key": "test-key"},
    ).respond_with_data(data("openalex-author-works.json"), content_type="application/json")
    httpserver.expect_request("/works", query_string={
        "query.bibliographic": "convex optimization", "filter": "from-index-date:2024-02-27",
        "sort": "indexed", "order": "desc", "rows": "100"},
    ).respond_with_data(data("crossref-journal-works.json"), content_type="application/json")
    now = datetime(2024, 3, 12, tzinfo=timezone.utc)
    done = {c.source: (c.new, c.failed) for c in inbox.check(library, connect(), now=now)}
    assert done == {'openalex:"uncertainty graphs"': (1, False),
                    'crossref:"convex optimization"': (2, False)}
    assert "Bandit Feedback in Online Convex Optimization" in titles(library)


def test_a_feeds_relative_links_are_read_against_its_address(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    httpserver.expect_request("/journal/feed.atom").respond_with_data(
        '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>J</title>'
        "<id>urn:j</id><entry><id>urn:j:1</id><title>Relative paper</title>"
        '<link href="papers/1"/></entry><entry><id>urn:j:2</id>'
        '<title>Absolute paper</title><link href="https://example.org/p/2"/></entry></feed>',
        content_type=ATOM)
    follow(library, httpserver.url_for("/journal/feed.atom"))
    inbox.check(library, connect())
    assert {item.title: item.url for item in inbox.items(library)} == {
        "Relative paper": httpserver.url_for("/journal/papers/1"),
        "Absolute paper": "https://example.org/p/2"}


def test_the_reason_of_an_inbox_ranked_by_a_tag_names_the_tag(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect) -> None:
    _change, grazing = library.new_paper({
        "title": "Sheep grazing and the erosion of mountain pastures",
        "abstract": "Soil erosion on alpine meadows grows with grazing by sheep and "
                    "cattle."})
    library.add_tags([grazing], ["pastures"])
    _two_items(library, httpserver, connect())
    items = json.loads(run(library, "inbox", "--json", "--tag", "pastures")[1])
    soil = next(item for item in items if item["arxiv_id"] == "2403.07002")
    assert soil["reason"].startswith(
        "like 1 paper tagged “pastures”: “Sheep grazing and the erosion")
    code, listed, _ = run(library, "inbox", "--tag", "pastures")
    assert code == 0 and "like 1 paper tagged “pastures”: " in listed
    # the whole library's ranking says how it likes the paper: tagged (by any tag)
    mine = json.loads(run(library, "inbox", "--json")[1])
    assert next(i for i in mine if i["arxiv_id"] == "2403.07002")["reason"].startswith(
        "like a tagged paper: ")
