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

from papershelf.metadata.http import SERVICES, HttpSettings, ServiceClient, make_client

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


def fixture(path: str) -> str:
    """A recorded response of tests/data/services, as text."""
    return (DATA / path).read_text(encoding="utf-8")


class FakeTime:
    """The client's clock: it only moves when the client sleeps, and says how long."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting of the machine running the tests leaks in: keys, URLs, proxies, the
    keyring. (Autouse in every module that imports it.)"""
    import keyring

    for service in SERVICES.values():
        monkeypatch.delenv(service.url_env, raising=False)
        monkeypatch.delenv(service.key_env, raising=False)
    for name in ("PAPERSHELF_OFFLINE", "PAPERSHELF_CONTACT", "HTTP_PROXY", "HTTPS_PROXY",
                 "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(keyring, "get_password", lambda service, name: None)


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def connect(httpserver: HTTPServer, tmp_path: Path, fake_time: FakeTime) -> Iterator[Connect]:
    """`connect(**settings)`: a client whose every service is the local server, with no
    spacing, keys for every service, a cache in tmp_path and the fake clock."""
    root = httpserver.url_for("/").rstrip("/")
    with clients(HttpSettings(
        cache_dir=tmp_path / "cache",
        base_urls={name: root for name in SERVICES if name != "web"},
        spacing={name: 0.0 for name in SERVICES},
        keys=lambda name: "test-key",
        offline=False,
        trust_env=False,
        clock=fake_time.clock,
        sleep=fake_time.sleep,
    )) as make:
        yield make
