"""The Zotero Connector's server under load and under hostile requests: a burst of 200
parallel saves is served, every one, within seconds; JSON nested absurdly deep (in the
body or in a file's X-Metadata header) is a 400, with no traceback; how many requests
are served at once is bounded, the others waiting their turn rather than refused."""

from __future__ import annotations

import hashlib
import http.client
import json
import logging
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from papershelf.core.connector import ConnectorServer, Limits
from papershelf.core.library import Library, View
from papershelf.core.receiving import Receiver
from tests.test_connector import API, ARTICLE, Client
from tests.test_pdf import make_pdf


@pytest.fixture
def server(library: Library) -> Iterator[ConnectorServer]:
    running = ConnectorServer(Receiver(library), port=0,
                              limits=Limits(json_bytes=1 << 20, file_bytes=1 << 20))
    running.start()
    yield running
    running.stop()


def save(port: int, n: int, start: threading.Barrier) -> int:
    """One saveItems of paper `n` (`post`)."""
    letters = "".join(chr(97 + int(c, 16)) for c in hashlib.sha256(str(n).encode()).hexdigest())
    title = f"{letters[:9]} {letters[9:18]} {letters[18:27]}"  # (no two alike)
    item = {**ARTICLE, "id": f"item-{n}", "title": title,
            "DOI": f"10.5555/burst.{n}", "url": f"https://example.org/burst/{n}",
            "abstractNote": f"We study {title}.",
            "attachments": [], "notes": []}
    return post(port, json.dumps({"sessionID": f"burst-{n}", "items": [item]}).encode(),
                start)


def post(port: int, body: bytes, start: threading.Barrier) -> int:
    """saveItems with `body`, sent once every sender is ready: its status (or -1 when
    the connection was refused or reset)."""
    start.wait()
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        con.request("POST", "/connector/saveItems", body=body,
                    headers={**API, "Content-Type": "application/json"})
        answer = con.getresponse()
        answer.read()
        return answer.status
    except OSError:
        return -1
    finally:
        con.close()


@pytest.mark.sqlite_only
def test_a_burst_of_200_parallel_saves_is_served_every_one(
        library: Library, server: ConnectorServer) -> None:
    senders = 200
    start = threading.Barrier(senders)
    began = time.monotonic()
    with ThreadPoolExecutor(senders) as pool:
        statuses = list(pool.map(lambda n: save(server.port, n, start), range(senders)))
    elapsed = time.monotonic() - began

    assert statuses == [201] * senders
    assert elapsed < 30
    assert len(library.view_ids(View())) == senders


@pytest.mark.sqlite_only
def test_json_nested_absurdly_deep_is_a_400_without_a_traceback(
        library: Library, server: ConnectorServer, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(server.port)
    deep = "[" * 100_000 + "]" * 100_000
    assert client.send("/connector/saveItems",
                       ('{"sessionID": "d", "items": ' + deep + "}").encode())[0] == 400
    nested = '{"sessionID": "n", "items": [' + '{"a": ' * 200 + "1" + "}" * 200 + "]}"
    assert client.send("/connector/saveItems", nested.encode())[0] == 400
    metadata = '{"sessionID": "d", "title": ' + "[" * 30_000 + "]" * 30_000 + "}"
    status, _h, _b = client.send("/connector/saveStandaloneAttachment", make_pdf("x"),
                                 headers={"Content-Type": "application/pdf",
                                          "X-Metadata": metadata})
    assert status == 400

    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert library.view_ids(View()) == []


SERVER = """
import sys
from papershelf.core.connector import ConnectorServer, Limits
from papershelf.core.library import Library
from papershelf.core.receiving import Receiver
library = Library.open(sys.argv[1])
server = ConnectorServer(Receiver(library), port=0, limits=Limits(json_bytes=6 << 20))
server.start()
print(server.port, flush=True)
sys.stdin.read()  # (until the test closes it)
server.stop()
"""


def test_many_large_bodies_at_once_stay_within_the_servers_memory(tmp_path: Path) -> None:
    """Six 6 MB bodies of tiny JSON objects at once (each some 165 MB once parsed, 1 GB
    together) are answered, each a 400, by a server of 768 MiB of address space."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (768 << 20, 768 << 20))

    child = subprocess.Popen([sys.executable, "-c", SERVER, str(tmp_path / "lib.sqlite")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             preexec_fn=limit)
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        body = b'{"sessionID": "big", "items": [' + b"{}," * ((6 << 20) // 3 - 20) + b"{}]}"
        start = threading.Barrier(6)
        with ThreadPoolExecutor(6) as pool:
            statuses = list(pool.map(lambda _n: post(port, body, start), range(6)))
        assert statuses == [400] * 6  # (too many items: nothing saved), never a 500
    finally:
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                pipe.close()
        child.wait(timeout=60)
