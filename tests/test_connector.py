"""The Zotero Connector's server (core.connector, core.receiving): the requests the
browser extension sends, replayed on 127.0.0.1 against a test library, and the papers,
tags, notes and files they leave in it; what a web page sends is refused and saves
nothing; a port already taken is one clear error.

The request shapes are those of Zotero's server_connector.js and the Connector's
translators (item JSON with `creators`, `tags`, `notes` as HTML).
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from papershelf.core import connector
from papershelf.core.connector import ConnectorServer, Limits, PortInUse
from papershelf.core.library import Library, UserError, View
from papershelf.core.receiving import Receiver, Saved
from papershelf.formats.zotero_items import html_text, read_item
from tests.conftest import run_cli, seeded_file
from tests.test_pdf import make_pdf

API = {"X-Zotero-Connector-API-Version": "3", "X-Zotero-Version": "5.0.97"}
ARTICLE: dict[str, Any] = {
    "id": "item-1",
    "itemType": "journalArticle",
    "title": "Sparse Quaternion Graphs for Zanzibar Routing",
    "creators": [
        {"firstName": "Ada", "lastName": "Lovelace", "creatorType": "author"},
        {"firstName": "Alan", "lastName": "Turing", "creatorType": "author"},
        {"name": "The Zanzibar Consortium", "creatorType": "author"},
        {"firstName": "Grace", "lastName": "Hopper", "creatorType": "editor"},
    ],
    "date": "2024-03-15",
    "publicationTitle": "Journal of Improbable Routing",
    "volume": "12", "issue": "3", "pages": "101-117",
    "DOI": "10.5555/zanzibar.2024.12",
    "url": "https://example.org/zanzibar",
    "abstractNote": "We route packets through quaternion graphs.",
    "tags": [{"tag": "routing", "type": 1}, "graphs"],
    "notes": [{"note": "<p>Read <b>section 3</b> first.</p><script>alert(1)</script>"}],
    "attachments": [{"title": "Full Text PDF", "url": "https://example.org/z.pdf",
                     "mimeType": "application/pdf"}],
}


class Client:
    """Requests as the Connector sends them, to a server on 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.port = port

    def send(self, path: str, body: bytes | None = None, *, method: str = "POST",
             headers: dict[str, str] | None = None, api: bool = True
             ) -> tuple[int, dict[str, str], bytes]:
        wanted = {**(API if api else {}), **(headers or {})}
        if body is not None:
            wanted.setdefault("Content-Type", "application/json")
        con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            con.request(method, path, body=body, headers=wanted)
            answer = con.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            con.close()

    def post(self, endpoint: str, data: object, **kwargs: Any) -> tuple[int, Any]:
        status, _headers, body = self.send(f"/connector/{endpoint}",
                                           json.dumps(data).encode(), **kwargs)
        return status, json.loads(body) if body.startswith((b"{", b"[")) else body

    def attach(self, session: str, parent: str, pdf: bytes, title: str = "Full Text PDF",
               **kwargs: Any) -> int:
        metadata = {"sessionID": session, "parentItemID": parent, "title": title,
                    "url": "https://example.org/z.pdf"}
        status, _h, _b = self.send(
            f"/connector/saveAttachment?sessionID={session}", pdf,
            headers={"Content-Type": "application/pdf",
                     "X-Metadata": json.dumps(metadata)}, **kwargs)
        return status


@pytest.fixture
def heard() -> list[Saved]:
    return []


@pytest.fixture
def server(library: Library, heard: list[Saved]) -> Iterator[ConnectorServer]:
    """The server on an ephemeral port of 127.0.0.1, on the test's library."""
    running = ConnectorServer(Receiver(library, on_saved=heard.append), port=0,
                              limits=Limits(json_bytes=1 << 20, file_bytes=1 << 20))
    running.start()
    yield running
    running.stop()


@pytest.fixture
def client(server: ConnectorServer) -> Client:
    return Client(server.port)


def only_paper(library: Library) -> int:
    ids = library.view_ids(View())
    assert len(ids) == 1, ids
    return ids[0]


def paper_titled(library: Library, title: str) -> int:
    found = [pid for pid, row in library.rows(library.view_ids(View())).items()
             if row.title == title]
    assert len(found) == 1, found
    return found[0]


def test_ping_answers_as_zotero_does(client: Client) -> None:
    status, headers, body = client.send("/connector/ping", method="GET")
    assert status == 200 and b"Papershelf is running" in body
    assert headers["X-Zotero-Connector-API-Version"] == "3"
    status, answer = client.post("ping", {"activeURL": "https://example.org"})
    assert status == 200
    assert answer["prefs"]["supportsAttachmentUpload"] is True
    assert answer["prefs"]["automaticSnapshots"] is False  # (no saveSingleFile here)


def test_a_journal_article_with_its_pdf_and_the_chosen_tags(
        library: Library, client: Client, heard: list[Saved]) -> None:
    status, _ = client.post("saveItems", {"sessionID": "s1", "items": [ARTICLE],
                                          "uri": "https://example.org/zanzibar"})
    assert status == 201
    pid = only_paper(library)
    record = library.paper(pid).record  # type: ignore[union-attr]
    assert record.entry_type == "article"
    assert record.title == ARTICLE["title"]
    assert [a.display() for a in record.authors] == [
        "Ada Lovelace", "Alan Turing", "The Zanzibar Consortium"]
    assert "Hopper" in record.raw["editor"]
    assert (record.year, record.raw["month"]) == (2024, "3")
    assert record.venue == "Journal of Improbable Routing"
    assert (record.volume, record.pages, record.raw["number"]) == ("12", "101--117", "3")
    assert record.doi == "10.5555/zanzibar.2024.12"
    assert record.url == "https://example.org/zanzibar"
    assert record.abstract == "We route packets through quaternion graphs."
    assert record.notes == "Read section 3 first."  # the note's text, no markup
    assert library.tags_of([pid])[pid] == ["graphs", "routing"]
    assert [s.verb for s in heard] == ["saved"] and heard[0].title == ARTICLE["title"]

    # The PDF the Connector downloaded, for the item it saved.
    assert client.attach("s1", "item-1", make_pdf("zanzibar")) == 201
    files = library.attachments(pid)
    assert len(files) == 1 and files[0].present()
    assert files[0].name == "Full Text PDF.pdf"
    assert client.attach("s1", "item-1", make_pdf("zanzibar")) == 201  # (again: kept once)
    assert len(library.attachments(pid)) == 1

    # The popup's tags, then others: the session's earlier ones go, the item's stay.
    status, answer = client.post("updateSession", {"sessionID": "s1", "target": "L1",
                                                   "tags": ["to read", "zanzibar"]})
    assert (status, answer) == (200, {})
    assert library.tags_of([pid])[pid] == ["graphs", "routing", "to read", "zanzibar"]
    client.post("updateSession", {"sessionID": "s1", "target": "L1", "tags": "urgent,graphs"})
    assert library.tags_of([pid])[pid] == ["graphs", "routing", "urgent"]
    # The popup's note goes to the end of the notes, replaced when it is retyped.
    client.post("updateSession", {"sessionID": "s1", "target": "L1", "tags": [],
                                  "note": "Ask Ada"})
    client.post("updateSession", {"sessionID": "s1", "target": "L1", "tags": [],
                                  "note": "Ask Alan"})
    assert library.paper(pid).record.notes == "Read section 3 first.\n\nAsk Alan"  # type: ignore[union-attr]
    assert library.tags_of([pid])[pid] == ["graphs", "routing"]


@pytest.mark.sqlite_only
def test_tags_are_the_targets_and_the_chosen_one_is_applied(
        library: Library, client: Client) -> None:
    status, _ = client.post("saveSnapshot", {"sessionID": "page", "url": "https://example.org/a",
                                             "title": "A page about lemurs"})
    assert status == 201
    library.add_tags([only_paper(library)], ["lemurs", "to read"])
    status, found = client.post("getSelectedCollection", {})
    assert status == 200
    assert found["id"] is None and found["libraryEditable"] is True  # the library itself
    targets = {t["name"]: t for t in found["targets"]}
    assert targets[found["libraryName"]] == {"id": "L1", "name": found["libraryName"],
                                             "filesEditable": True, "level": 0}
    lemurs = targets["lemurs"]["id"]
    assert lemurs.startswith("T") and targets["lemurs"]["level"] == 1
    assert {"tag": "to read", "type": 0} in found["tags"]["L1"]

    client.post("saveItems", {"sessionID": "s2", "items": [ARTICLE]})
    assert client.post("updateSession", {"sessionID": "s2", "target": lemurs,
                                         "tags": []})[0] == 200
    article = paper_titled(library, ARTICLE["title"])
    assert library.tags_of([article])[article] == ["graphs", "lemurs", "routing"]
    # The target chosen last is where the next save goes, as in Zotero.
    assert client.post("getSelectedCollection", {})[1]["id"] == lemurs
    client.post("saveSnapshot", {"sessionID": "s3", "url": "https://example.org/b",
                                 "title": "Another page"})
    other = paper_titled(library, "Another page")
    assert library.tags_of([other])[other] == ["lemurs"]
    assert client.post("updateSession", {"sessionID": "s3", "target": "T999"}) == (
        400, {"error": "COLLECTION_NOT_FOUND"})


@pytest.mark.sqlite_only
def test_a_page_saved_without_a_translator(library: Library, client: Client) -> None:
    status, _ = client.post("saveSnapshot", {
        "sessionID": "p1", "url": "https://blog.example.org/post", "title": "A post",
        "html": "<html><body><h1>A post</h1></body></html>"})
    assert status == 201
    record = library.paper(only_paper(library)).record  # type: ignore[union-attr]
    assert (record.entry_type, record.title, record.url) == (
        "misc", "A post", "https://blog.example.org/post")


@pytest.mark.sqlite_only
def test_a_pdf_open_in_the_browser_becomes_a_paper(library: Library, client: Client) -> None:
    metadata = {"sessionID": "pdf1", "url": "https://example.org/paper.pdf",
                "title": "Quaternion routing.pdf"}
    status, _h, body = client.send("/connector/saveStandaloneAttachment", make_pdf("q"),
                                   headers={"Content-Type": "application/pdf",
                                            "X-Metadata": json.dumps(metadata)})
    assert (status, json.loads(body)) == (201, {"canRecognize": False})
    pid = only_paper(library)
    assert library.paper(pid).record.url == "https://example.org/paper.pdf"  # type: ignore[union-attr]
    assert len(library.attachments(pid)) == 1


@pytest.mark.sqlite_only
def test_status_codes_as_zoteros(library: Library, client: Client) -> None:
    assert client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]})[0] == 201
    assert client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]}) == (
        409, {"error": "SESSION_EXISTS"})
    assert client.post("updateSession", {"sessionID": "nope", "target": "L1"}) == (
        400, {"error": "SESSION_NOT_FOUND"})
    assert client.post("updateSession", {"target": "L1"}) == (
        400, {"error": "SESSION_ID_NOT_PROVIDED"})
    assert client.attach("nope", "item-1", make_pdf("x")) == 400
    assert client.attach("s", "no-such-item", make_pdf("x")) == 400
    assert client.send("/connector/saveAttachment", make_pdf("x"),
                       headers={"Content-Type": "application/pdf"})[0] == 400  # no X-Metadata
    assert client.post("nothingHere", {})[0] == 404
    assert client.send("/connector/saveItems", method="GET")[0] == 400
    assert client.send("/connector/saveItems", b"{not json")[0] == 400
    assert client.send("/connector/saveItems", b"[1, 2]")[0] == 400
    assert client.post("saveItems", {"sessionID": "t", "items": [{"itemType": "book"}]})[0] \
        == 400  # nothing that names a paper
    assert client.post("saveItems", {"sessionID": "u", "items": "many"})[0] == 400
    assert client.post("delaySync", {})[0] == 204
    assert len(library.view_ids(View())) == 1


@pytest.mark.sqlite_only
def test_only_a_pdf_is_attached(library: Library, client: Client) -> None:
    client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]})
    status, _h, body = client.send(
        "/connector/saveAttachment", b"<html>not a pdf</html>",
        headers={"Content-Type": "text/html", "X-Metadata": json.dumps(
            {"sessionID": "s", "parentItemID": "item-1", "title": "Snapshot"})})
    assert (status, json.loads(body)) == (400, {"error": "NOT_A_PDF"})
    assert library.attachments(only_paper(library)) == []


@pytest.mark.sqlite_only
@pytest.mark.parametrize("origin", ["https://evil.example", "http://127.0.0.1:8000", "null"])
def test_a_web_page_cannot_post_papers(library: Library, client: Client, origin: str) -> None:
    status, _ = client.post("saveItems", {"sessionID": "evil", "items": [ARTICLE]},
                            headers={"Origin": origin})
    assert status == 403
    status, _ = client.post("saveSnapshot", {"sessionID": "evil2", "url": "https://x.org"},
                            headers={"Origin": origin})
    assert status == 403
    assert library.view_ids(View()) == []


@pytest.mark.sqlite_only
def test_the_extension_itself_may(library: Library, client: Client) -> None:
    for n, origin in enumerate(("moz-extension://1234-abcd", "chrome-extension://ekhagkl",
                                "safari-web-extension://ABCD")):
        status, _ = client.post("saveSnapshot", {"sessionID": f"x{n}",
                                                 "url": f"https://example.org/{n}",
                                                 "title": f"Page {n}"},
                                headers={"Origin": origin})
        assert status == 201
    assert len(library.view_ids(View())) == 3


@pytest.mark.sqlite_only
def test_without_the_connectors_header_nothing_is_saved(library: Library,
                                                        client: Client) -> None:
    status, _ = client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]}, api=False)
    assert status == 403
    assert client.send("/connector/ping", method="GET", api=False)[0] == 403
    # Zotero's other header, which a page cannot set without a CORS preflight, will do.
    status, _ = client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]}, api=False,
                            headers={"Zotero-Allowed-Request": "1"})
    assert status == 201
    assert len(library.view_ids(View())) == 1


@pytest.mark.sqlite_only
def test_another_host_name_is_refused(library: Library, client: Client) -> None:
    status, _ = client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]},
                            headers={"Host": "attacker.example:23119"})
    assert status == 400
    assert library.view_ids(View()) == []


@pytest.mark.sqlite_only
def test_an_oversized_body_is_refused(library: Library, client: Client) -> None:
    big = {"sessionID": "big", "items": [{**ARTICLE, "abstractNote": "x" * (2 << 20)}]}
    status, _ = client.post("saveItems", big)
    assert status == 413
    status = client.attach("big", "item-1", b"%PDF-1.4\n" + b"0" * (2 << 20))
    assert status == 413
    assert library.view_ids(View()) == []


@pytest.mark.sqlite_only
def test_a_failed_save_writes_nothing(library: Library, client: Client,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise UserError("the disk is full")

    monkeypatch.setattr(library, "set_notes", refuse)  # (after the paper and its tags)
    status, answer = client.post("saveItems", {"sessionID": "s", "items": [ARTICLE]})
    assert status == 500 and answer["error"] == "SAVE_FAILED"
    assert library.view_ids(View()) == []
    assert library.tag_names() == []


@pytest.mark.sqlite_only
def test_writes_go_through_the_callers_runner(library: Library) -> None:
    ran: list[str] = []

    def run(write: Any) -> Any:
        ran.append("write")
        return write(library)

    running = ConnectorServer(Receiver(library, run), port=0)
    running.start()
    try:
        assert Client(running.port).post("saveItems",
                                         {"sessionID": "s", "items": [ARTICLE]})[0] == 201
    finally:
        running.stop()
    assert ran == ["write"]
    assert len(library.view_ids(View())) == 1


def taken_port() -> tuple[socket.socket, int]:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder, holder.getsockname()[1]


@pytest.mark.sqlite_only
def test_a_port_in_use_is_one_clear_error(library: Library) -> None:
    holder, port = taken_port()
    try:
        with pytest.raises(PortInUse, match=rf"port {port} on 127.0.0.1 is in use \(is "
                                            "Zotero running"):
            ConnectorServer(Receiver(library), port=port).start()
    finally:
        holder.close()


@pytest.mark.sqlite_only
def test_serve_connector_on_a_taken_port(library_path: Any) -> None:
    holder, port = taken_port()
    try:
        status, out, err = run_cli("serve-connector", "--library", str(seeded_file(library_path)),
                                   "--port", str(port))
    finally:
        holder.close()
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and f"port {port} on 127.0.0.1 is in use" in err


@pytest.mark.sqlite_only
def test_serve_connector_prints_a_line_per_paper(library_path: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def wait(server: ConnectorServer) -> None:  # (instead of until Ctrl+C: one save)
        Client(server.port).post("saveItems", {"sessionID": "s", "items": [ARTICLE]})

    monkeypatch.setattr(ConnectorServer, "wait", wait)
    status, out, err = run_cli("serve-connector", "--library", str(seeded_file(library_path)),
                               "--port", "0")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("receiving papers from the Zotero Connector on 127.0.0.1:")
    assert lines[1:] == [f"saved lovelace2024sparse: {ARTICLE['title']}"]
    assert connector.DEFAULT_PORT == 23119


def test_note_html_becomes_plain_text() -> None:
    assert html_text("<h1>Title</h1><p>One &amp; two<br>three</p><ul><li>a</li><li>b</li>"
                     "</ul><style>p{}</style>") == "Title\n\nOne & two\nthree\n\n- a\n- b"


def test_zotero_item_types_and_their_venues() -> None:
    paper = read_item({"itemType": "conferencePaper", "title": "T", "proceedingsTitle":
                       "Proc. ICML", "conferenceName": "ICML 2024", "date": "July 2024"})
    assert paper is not None
    assert (paper.record.entry_type, paper.record.venue, paper.record.year,
            paper.record.raw["month"]) == ("inproceedings", "Proc. ICML", 2024, "7")
    chapter = read_item({"itemType": "bookSection", "title": "C", "bookTitle": "The Book",
                         "publisher": "Springer", "place": "Cham"})
    assert chapter is not None
    assert (chapter.record.entry_type, chapter.record.venue, chapter.record.publisher,
            chapter.record.raw["address"]) == ("incollection", "The Book", "Springer", "Cham")
    thesis = read_item({"itemType": "thesis", "title": "M", "university": "ETH Zürich",
                        "thesisType": "Master's thesis"})
    assert thesis is not None
    assert (thesis.record.entry_type, thesis.record.venue) == ("mastersthesis", "ETH Zürich")
    preprint = read_item({"itemType": "preprint", "title": "P", "repository": "arXiv",
                          "archiveID": "arXiv:2401.01234", "url": "https://arxiv.org/abs/2401.01234",
                          "accessDate": "2024-02-01T10:00:00Z"})
    assert preprint is not None
    assert (preprint.record.entry_type, preprint.record.raw["eprint"],
            preprint.record.raw["archiveprefix"], preprint.record.raw["urldate"]) == (
        "misc", "2401.01234", "arXiv", "2024-02-01")
    assert read_item({"itemType": "journalArticle", "tags": ["x"]}) is None
    many = read_item({"title": "Tags", "tags": [f"t{n}" for n in range(1000)]})
    assert many is not None and len(many.tags) == 200
