"""What the tests of the network code share: a local server playing the services, and
clients that are closed after the test.

A test module takes the fixtures by naming them at its top level
(`server = services_support.server`), so pytest finds them there; the helpers are for
a fixture of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from papershelf.metadata.http import HttpSettings, ServiceClient, make_client

DATA = Path(__file__).parent / "data" / "services"

Connect = Callable[..., ServiceClient]


@contextmanager
def local_server(**options: Any) -> Iterator[HTTPServer]:
    """A pytest-httpserver on 127.0.0.1 and a free port, stopped at the end."""
    httpd = HTTPServer(host="127.0.0.1", port=0, **options)
    httpd.start()
    try:
        yield httpd
    finally:
        httpd.clear()
        httpd.stop()


@contextmanager
def clients(settings: HttpSettings) -> Iterator[Connect]:
    """`connect(**overrides)`: a client with `settings` changed by `overrides`; every
    client made is closed at the end."""
    made: list[ServiceClient] = []

    def connect(**overrides: Any) -> ServiceClient:
        client = make_client(dataclasses.replace(settings, **overrides))
        made.append(client)
        return client

    try:
        yield connect
    finally:
        for client in made:
            client.close()


@pytest.fixture(scope="module")
def server() -> Iterator[HTTPServer]:
    """One local server for the module, on 127.0.0.1 and a free port."""
    with local_server() as httpd:
        yield httpd


@pytest.fixture
def httpserver(server: HTTPServer) -> Iterator[HTTPServer]:
    """The server with no handlers and an empty log; a request nobody expected fails."""
    server.clear()
    yield server
    server.check_assertions()
