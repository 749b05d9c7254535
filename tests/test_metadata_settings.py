"""The network preferences below the GUI (issue "… Behaving on the network"): work offline
and the contact e-mail from the preference file, API keys in the keyring, and the
environment winning over both; the command line follows them as the window does.

No test touches the real user's keyring (an in-memory backend stands in) or the
network (a mock transport, or an address nobody listens on).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import keyring
import keyring.core
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import PasswordDeleteError

from papershelf.metadata.http import SERVICES, HttpSettings, Offline, ServiceClient, make_client
from papershelf.metadata.identifiers import Identifier
from papershelf.metadata.services import lookup
from papershelf.metadata.settings import (
    KeyStoreError,
    NetworkPreferences,
    environment_overrides,
    key_is_stored,
    keyring_problem,
    load_network_preferences,
    network_preferences_path,
    remove_key,
    save_network_preferences,
    store_key,
)
from tests.conftest import run_cli

CONTACT = "reader@example.org"

Connect = Callable[..., ServiceClient]


class MemoryKeyring(KeyringBackend):
    """A keyring that lives in a dict, so a test never reaches the user's."""

    priority = 1  # a recommended backend, as a desktop's

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("no such password")


def use_keyring(monkeypatch: pytest.MonkeyPatch, backend: KeyringBackend) -> None:
    """`backend` as the keyring for this test; the previous one (usually none chosen yet)
    comes back afterwards."""
    monkeypatch.setattr(keyring.core, "_keyring_backend", None)
    keyring.set_keyring(backend)


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network setting of the machine running the tests leaks in."""
    for service in SERVICES.values():
        monkeypatch.delenv(service.url_env, raising=False)
        monkeypatch.delenv(service.key_env, raising=False)
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    monkeypatch.delenv("PAPERSHELF_CONTACT", raising=False)


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch, clean_environment: None) -> MemoryKeyring:
    backend = MemoryKeyring()
    use_keyring(monkeypatch, backend)
    return backend


class Recorder:
    """A transport standing for the network: it answers 200 and keeps every request."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, json={"message": {}})


@pytest.fixture
def network() -> Recorder:
    return Recorder()


@pytest.fixture
def client_for(network: Recorder) -> Iterator[Connect]:
    """`client_for(settings)`: a client over the recording transport, closed at the end."""
    made: list[ServiceClient] = []

    def connect(settings: HttpSettings | None = None) -> ServiceClient:
        client = make_client(settings or HttpSettings(use_cache=False),
                             transport=httpx.MockTransport(network))
        made.append(client)
        return client

    yield connect
    for client in made:
        client.close()


def test_preferences_are_a_plain_file_with_defaults(clean_environment: None,
                                                    tmp_path: Path) -> None:
    path = network_preferences_path()
    assert str(path).startswith(str(Path.home()))  # the isolated home of the tests
    assert load_network_preferences() == NetworkPreferences(offline=False, contact="")

    save_network_preferences(NetworkPreferences(offline=True, contact=f" {CONTACT} "))
    assert load_network_preferences() == NetworkPreferences(offline=True, contact=CONTACT)
    assert [p.name for p in path.parent.iterdir()] == ["network.ini"]  # no temporary left

    # A hand-edited file: what is wrong falls back to the default, nothing fails.
    odd = tmp_path / "odd.ini"
    odd.write_text("[network]\noffline = perhaps\ncontact = not an address\n",
                   encoding="utf-8")
    assert load_network_preferences(odd) == NetworkPreferences()
    odd.write_text("no section header at all", encoding="utf-8")
    assert load_network_preferences(odd) == NetworkPreferences()
    with pytest.raises(ValueError, match="contact e-mail"):
        save_network_preferences(NetworkPreferences(contact="a@b\nX-Evil: 1"), odd)


def test_the_environment_wins_over_the_preferences(clean_environment: None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert HttpSettings().offline is False and HttpSettings().contact is None
    save_network_preferences(NetworkPreferences(offline=True, contact=CONTACT))
    assert HttpSettings().offline is True and HttpSettings().contact == CONTACT
    # What a caller says wins over both (the command line's --offline, tests).
    assert HttpSettings(offline=False, contact="other@example.org").offline is False
    assert HttpSettings(contact="other@example.org").contact == "other@example.org"

    monkeypatch.setenv("PAPERSHELF_OFFLINE", "0")
    monkeypatch.setenv("PAPERSHELF_CONTACT", "env@example.org")
    assert HttpSettings().offline is False and HttpSettings().contact == "env@example.org"
    assert environment_overrides() == ["PAPERSHELF_OFFLINE", "PAPERSHELF_CONTACT"]

    save_network_preferences(NetworkPreferences(offline=False))
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    assert HttpSettings().offline is True


def test_working_offline_asks_no_service(clean_environment: None, network: Recorder,
                                         client_for: Connect) -> None:
    save_network_preferences(NetworkPreferences(offline=True))
    client = client_for()
    for identifier in (Identifier("doi", "10.18653/v1/n19-1423"),
                       Identifier("arxiv", "2403.06082")):
        with pytest.raises(Offline) as refused:
            lookup(identifier, client)
        message = str(refused.value)
        assert "\n" not in message and message.endswith("offline mode is on; no request was made")
    with pytest.raises(Offline):
        client.get("s2", "/graph/v1/paper/search/match", {"query": "x"})
    assert network.requests == []


def test_the_contact_preference_reaches_the_polite_pools(
    clean_environment: None, network: Recorder, client_for: Connect,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    save_network_preferences(NetworkPreferences(contact=CONTACT))
    client_for().get("crossref", "/works/10.1/x")
    (request,) = network.requests
    assert request.headers["User-Agent"].endswith(f"(mailto:{CONTACT})")
    assert request.url.params["mailto"] == CONTACT

    monkeypatch.setenv("PAPERSHELF_CONTACT", "env@example.org")  # the environment wins
    client_for().get("openalex", "/works", {"search": "x"})
    assert network.requests[-1].url.params["mailto"] == "env@example.org"


def test_keys_go_to_the_keyring_and_the_environment_wins(
    memory_keyring: MemoryKeyring, network: Recorder, client_for: Connect,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert keyring_problem() is None and not key_is_stored("openalex")
    store_key("openalex", "  oa-secret  ")
    assert memory_keyring.entries == {("papershelf", "openalex"): "oa-secret"}
    assert key_is_stored("openalex") and not key_is_stored("s2")
    save_network_preferences(NetworkPreferences(contact=CONTACT))
    assert not [path for path in Path.home().rglob("*")
                if path.is_file() and b"oa-secret" in path.read_bytes()]

    client_for().get("openalex", "/works", {"search": "x"})
    assert network.requests[-1].url.params["api_key"] == "oa-secret"
    monkeypatch.setenv("PAPERSHELF_OPENALEX_KEY", "from-env")
    client_for().get("openalex", "/works", {"search": "x"})
    assert network.requests[-1].url.params["api_key"] == "from-env"

    with pytest.raises(KeyStoreError) as refused:
        store_key("s2", "my key")
    assert str(refused.value).startswith("Semantic Scholar key not stored: an API key has "
                                         "no spaces")
    assert memory_keyring.entries == {("papershelf", "openalex"): "oa-secret"}
    remove_key("openalex")
    remove_key("openalex")  # none left: nothing to do
    assert memory_keyring.entries == {}


def test_without_a_keyring_no_key_is_stored(clean_environment: None,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    use_keyring(monkeypatch, fail.Keyring())  # type: ignore[no-untyped-call]
    assert keyring_problem() == "no system keyring is available"
    assert not key_is_stored("openalex")
    with pytest.raises(KeyStoreError) as refused:
        store_key("openalex", "oa-secret")
    assert str(refused.value) == "OpenAlex key not stored: no system keyring is available"
    with pytest.raises(KeyStoreError):
        remove_key("openalex")


def test_the_command_line_follows_the_preferences(clean_environment: None,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    # Were the preference ignored, the request would go to a port nobody listens on.
    monkeypatch.setenv("PAPERSHELF_ARXIV_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("PAPERSHELF_SEEDS", "")
    save_network_preferences(NetworkPreferences(offline=True))
    status, _, err = run_cli("add", "--library", str(tmp_path / "lib.sqlite"),
                             "arXiv:2403.06082")
    assert status == 1
    assert err.count("\n") == 1 and "offline mode is on" in err
