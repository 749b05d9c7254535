"""A long feed is read in parts, most of them in a helper process (feeds.parsing): the
papers are those read whole, in the same order, whatever the feed's kind, and without a
helper process they are read here."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import httpx
import pytest
from pytest_httpserver import HTTPServer
from sqlalchemy import select

from papershelf.core.library import Library
from papershelf.core.models import InboxItem
from papershelf.feeds import fetching, inbox, parsing, sources
from papershelf.metadata.http import Reply
from tests import services_support

server = services_support.server
httpserver = services_support.httpserver
clean_environment = services_support.clean_environment
fake_time = services_support.fake_time
connect = services_support.connect


def atom(count: int) -> bytes:
    entries = "".join(
        f"<entry><id>urn:x:{n}</id><title>Paper {n} on &amp; <b>graphs</b></title>"
        f'<link href="papers/{n}"/><prism:doi>10.1234/p{n}</prism:doi>'
        f"<published>2024-03-{n % 28 + 1:02d}T00:00:00Z</published>"
        f"<author><name>Ada Lovelace{n}</name></author><author><name>Alan Turing</name>"
        f"</author><summary>Abstract {n}: graphs, naïve words.</summary></entry>\n"
        for n in range(count))
    return ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'
            ' xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">'
            f"<title>J</title><id>urn:j</id>\n{entries}<!-- end --></feed>\n").encode()


def rss(count: int) -> bytes:
    items = "".join(
        f"<item><title>Item {n}</title><link>https://example.org/{n}</link>"
        f"<dc:creator>Grace Hopper, Edsger Dijkstra {n}</dc:creator>"
        f"<description>&lt;p&gt;Text {n}&lt;/p&gt;</description>"
        f"<pubDate>Mon, 0{n % 9 + 1} Jan 2024 00:00:00 GMT</pubDate></item>"
        for n in range(count))
    return ('<?xml version="1.0"?><rss version="2.0" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>R</title>'
            f"<link>https://example.org/</link>{items}</channel></rss>").encode()


def reply(content: bytes) -> Reply:
    return Reply("web", "https://example.org/journal/feed", 200,
                 httpx.Headers({"content-type": "application/xml"}), content, False)


@pytest.mark.parametrize("made", [atom, rss])
def test_a_long_feed_read_in_parts_gives_the_papers_read_whole(
        made: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetching, "SPLIT_BYTES", 0)
    monkeypatch.setattr(fetching, "MAX_ITEMS", 1000)
    content = made(40)
    whole = fetching._from_feed(reply(content))
    told: list[list[str]] = []
    with parsing.Helper(lambda found: told.append([f.title for f in found])) as helper:
        first = fetching._from_feed(reply(content), helper)  # (read whole: starting up)
        assert told == [[item.title for item in whole.items]]
        assert helper.ready(fetching._awake, wait=True)
        told.clear()
        split = fetching._from_feed(reply(content), helper)
    assert first == whole
    assert len(whole.items) == 40
    assert split == whole
    assert len(told) == 1 + parsing.HELPER_PARTS  # (each part told as read, in order)
    assert [title for part in told for title in part] == [item.title for item in whole.items]


def test_without_a_helper_process_a_long_feed_is_read_here(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object, **_kwargs: object) -> ProcessPoolExecutor:
        raise OSError("no processes here")

    monkeypatch.setattr(parsing, "ProcessPoolExecutor", refused)
    monkeypatch.setattr(fetching, "SPLIT_BYTES", 0)
    with parsing.Helper() as helper:
        split = fetching._from_feed(reply(atom(30)), helper)
        assert not helper.ready(fetching._awake, wait=True)
    assert split == fetching._from_feed(reply(atom(30)))


def test_a_feed_that_cannot_be_cut_is_read_whole() -> None:
    assert parsing.parts(atom(3), parsing.shares()) is None  # (too few entries)
    assert parsing.parts(atom(30).decode().encode("utf-16"), parsing.shares()) is None
    assert parsing.parts(b"<feed><entry><title>a</title></entry>", (0.5, 0.5)) is None


def test_a_long_feed_checked_is_deduplicated_and_ranked_as_read_whole(
        library: Library, httpserver: HTTPServer, connect: services_support.Connect,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetching, "MAX_ITEMS", 1000)
    httpserver.expect_request("/journal/feed.atom").respond_with_data(
        atom(60), content_type="application/atom+xml")
    sources.follow(library.context, httpserver.url_for("/journal/feed.atom"))
    monkeypatch.setattr(fetching, "SPLIT_BYTES", 0)
    done = inbox.check(library, connect())
    assert [(c.new, c.failed) for c in done] == [(60, False)]
    with library.context.read() as session:  # (ranked by the check, as it read them)
        ranked = dict(session.execute(select(InboxItem.title, InboxItem.ranked_by)).all())
    assert sorted(ranked) == sorted(f"Paper {n} on & graphs" for n in range(60))
    assert all(ranked.values())
    listed = inbox.items(library)
    assert {item.title: item.url for item in listed}["Paper 7 on & graphs"] == \
        httpserver.url_for("/journal/papers/7")
    assert [item.score for item in listed] == sorted((item.score for item in listed),
                                                     reverse=True)
