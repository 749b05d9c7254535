"""What the HTTP client is told: the services it knows and the settings it runs with.

`SERVICES` names each web service Papershelf asks, with its documented root and its
manners (the spacing it asks for, where its API key and contact address go); an
`HttpSettings` says how the client behaves (cache, time-outs, retries, limits, offline
mode), with a user's defaults. Overrides come from the environment (PAPERSHELF_<NAME>_URL,
PAPERSHELF_<NAME>_KEY, PAPERSHELF_CONTACT, PAPERSHELF_OFFLINE) and keys also from the
system keyring; `http.ServiceClient` reads them.

The user's network preferences (Edit › Preferences › Network: work offline, the contact
address) are `NetworkPreferences`, kept in a plain file in the user's configuration folder
(`network.ini`) that the GUI writes and every `HttpSettings` reads when it is made, so the
command line behaves as the window does without knowing Qt. An environment variable, when
set, wins over the preference. API keys are never in that file: they live in the system
keyring (service "papershelf", one entry per service name), which `store_key` and
`remove_key` write and `keyring_key` reads.
"""

from __future__ import annotations

import configparser
import logging
import os
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import NamedTemporaryFile

import platformdirs

from papershelf.core.paths import APP_NAME

__all__ = [
    "CONTACT_ENV",
    "KEYRING_SERVICE",
    "OFFLINE_ENV",
    "SERVICES",
    "HttpSettings",
    "KeyStoreError",
    "NetworkPreferences",
    "Service",
    "contact_problem",
    "default_cache_dir",
    "environment_overrides",
    "key_is_stored",
    "key_problem",
    "keyring_key",
    "keyring_problem",
    "load_network_preferences",
    "network_preferences_path",
    "offline_from_environment",
    "remove_key",
    "save_network_preferences",
    "store_key",
]

log = logging.getLogger(__name__)

CONTACT_ENV = "PAPERSHELF_CONTACT"
OFFLINE_ENV = "PAPERSHELF_OFFLINE"
KEYRING_SERVICE = "papershelf"
PREFERENCES_FILE = "network.ini"
_SECTION = "network"
_TRUE = frozenset({"1", "true", "yes", "on"})


@dataclass(frozen=True)
class Service:
    """One web service: its name in settings, its label in messages, its documented root
    and its manners (spacing, where its API key and contact address go)."""

    name: str
    label: str
    default_url: str
    spacing: float = 0.0
    key_header: str | None = None
    key_param: str | None = None
    contact_param: str | None = None
    # Other hosts that belong to the service (where its PDFs live), for
    # `ServiceClient.service_for`.
    hosts: tuple[str, ...] = ()

    @property
    def url_env(self) -> str:
        """The environment variable that overrides the root URL (tests, mirrors)."""
        return f"PAPERSHELF_{self.name.upper()}_URL"

    @property
    def key_env(self) -> str:
        """The environment variable that holds the API key, when the service takes one."""
        return f"PAPERSHELF_{self.name.upper()}_KEY"

    @property
    def takes_key(self) -> bool:
        """True for a service that is only asked with an API key."""
        return self.key_header is not None or self.key_param is not None


# Roots are what the documented paths hang from: Crossref `/works/{doi}`, arXiv
# `/api/query`, OpenReview `/notes`, DBLP `/rec/{key}.xml` and `/search/publ/api`, OpenAlex
# `/works`, Semantic Scholar `/graph/v1/paper/...`, PMLR `/v235/adepu24a.html`, the ACL
# Anthology `/N19-1423.bib`, OpenCitations `/index/coci/api/v1/references/{doi}`.
# Spacings are the services' stated limits where they state one
# (arXiv: one request every 3 s; Semantic Scholar: 1 request/s with a key; OpenAlex: 10/s)
# and a gentle second elsewhere. "web" is any other host (a PDF link).
SERVICES: dict[str, Service] = {
    s.name: s
    for s in (
        Service("crossref", "Crossref", "https://api.crossref.org", 0.2,
                contact_param="mailto"),
        Service("arxiv", "arXiv", "https://export.arxiv.org", 3.0,
                hosts=("arxiv.org", "www.arxiv.org", "rss.arxiv.org")),
        Service("openreview", "OpenReview", "https://api2.openreview.net", 1.0,
                hosts=("openreview.net",)),
        Service("dblp", "DBLP", "https://dblp.org", 1.0),
        Service("openalex", "OpenAlex", "https://api.openalex.org", 0.1,
                key_param="api_key", contact_param="mailto"),
        Service("s2", "Semantic Scholar", "https://api.semanticscholar.org", 1.0,
                key_header="x-api-key"),
        Service("pmlr", "PMLR", "https://proceedings.mlr.press", 1.0),
        Service("acl", "ACL Anthology", "https://aclanthology.org", 1.0),
        # Retraction Watch's database as Crossref publishes it (a CSV at
        # /data/retractionwatch, the contact address as the whole query string).
        Service("retractionwatch", "Retraction Watch", "https://api.labs.crossref.org", 1.0),
        Service("opencitations", "OpenCitations", "https://opencitations.net", 1.0),
        Service("web", "download", "", 0.0),
    )
}  # fmt: skip


def default_cache_dir() -> Path:
    """`http` in the user's cache folder (e.g. ~/.cache/Papershelf/http)."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "http"


# ---------------------------------------------------------------------- preferences


@dataclass(frozen=True)
class NetworkPreferences:
    """What the user chose in Edit › Preferences › Network; the defaults are a new user's.

    `offline`: ask no web service (cached answers are still given), as PAPERSHELF_OFFLINE=1;
    `contact`: the e-mail address sent to the polite pools (Crossref's and OpenAlex's
    `mailto`, and the User-Agent), "" for none.
    """

    offline: bool = False
    contact: str = ""


def network_preferences_path() -> Path:
    """`network.ini` in the user's configuration folder (e.g. ~/.config/Papershelf)."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / PREFERENCES_FILE


def contact_problem(contact: str) -> str | None:
    """Why `contact` (stripped) is not an e-mail address to send, or None if it is one
    (the empty string is: it means "send none")."""
    contact = contact.strip()
    if not contact:
        return None
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in contact):
        return "an e-mail address has no spaces or control characters"
    user, at, domain = contact.rpartition("@")
    if not at or not user or "@" in user or "." not in domain.strip(".") \
            or domain.startswith("."):
        return "not an e-mail address (name@example.org)"
    return None


def load_network_preferences(path: Path | None = None) -> NetworkPreferences:
    """The user's network preferences from `path` (default: `network_preferences_path()`);
    the defaults for anything missing, unreadable or invalid (a hand-edited file must not
    stop a lookup)."""
    path = path or network_preferences_path()
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (OSError, UnicodeError, configparser.Error) as error:
        log.warning("network preferences in %s unreadable, using the defaults: %s",
                    path, error)
        return NetworkPreferences()
    if not parser.has_section(_SECTION):
        return NetworkPreferences()
    section = parser[_SECTION]
    try:
        offline = section.getboolean("offline", fallback=False)
    except ValueError:
        log.warning("%s: offline is not true or false; taken as false", path)
        offline = False
    contact = section.get("contact", "").strip()
    if contact_problem(contact) is not None:
        log.warning("%s: contact %r ignored: %s", path, contact, contact_problem(contact))
        contact = ""
    return NetworkPreferences(offline=offline, contact=contact)


def save_network_preferences(preferences: NetworkPreferences, path: Path | None = None) -> None:
    """Write `preferences` to `path` (default: `network_preferences_path()`), replacing the
    file at once so a lookup running meanwhile reads the old or the new one, never half.
    Raises OSError when the folder or file cannot be written."""
    path = path or network_preferences_path()
    contact = preferences.contact.strip()
    problem = contact_problem(contact)
    if problem is not None:
        raise ValueError(f"contact e-mail: {problem}")
    parser = configparser.ConfigParser(interpolation=None)
    parser[_SECTION] = {"offline": "true" if preferences.offline else "false",
                        "contact": contact}
    path.parent.mkdir(parents=True, exist_ok=True)
    with NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=".network-",
                            suffix=".tmp", delete=False) as out:
        out.write("# Papershelf's network preferences (Edit > Preferences > Network).\n"
                  "# API keys are not here: they are kept in the system keyring.\n")
        parser.write(out)
    try:
        os.replace(out.name, path)
    except OSError:
        Path(out.name).unlink(missing_ok=True)
        raise


def offline_from_environment() -> bool | None:
    """What PAPERSHELF_OFFLINE says when it is set (1/true/yes/on: offline; anything else:
    online), else None (the preference decides)."""
    value = os.environ.get(OFFLINE_ENV, "").strip().lower()
    return (value in _TRUE) if value else None


def environment_overrides() -> list[str]:
    """The environment variables set now that win over a network preference or a stored
    key (PAPERSHELF_OFFLINE, PAPERSHELF_CONTACT, PAPERSHELF_<NAME>_KEY), in that order."""
    names = [OFFLINE_ENV, CONTACT_ENV]
    names += [service.key_env for service in SERVICES.values() if service.takes_key]
    return [name for name in names if os.environ.get(name, "").strip()]


# ---------------------------------------------------------------------- keys


class KeyStoreError(Exception):
    """An API key could not be stored in or removed from the keyring; the message is one
    line to show as it is."""


def keyring_problem() -> str | None:
    """Why API keys cannot be stored in the system keyring (one line), or None when a
    recommended keyring is there. Keyring's "not recommended" backends (priority below 1:
    none at all, or plain-text files) count as none, so a key is never kept in plain text."""
    try:
        import keyring

        backend = keyring.get_keyring()
        priority = float(backend.priority)
    except Exception as error:  # an unusable keyring package is "no keyring", not a crash
        log.info("no usable keyring: %s", error)
        return "no system keyring is available"
    if priority < 1:
        return "no system keyring is available"
    return None


def key_is_stored(name: str) -> bool:
    """Whether a key for service `name` is in the keyring (its value never leaves here)."""
    return keyring_problem() is None and keyring_key(name) is not None


def key_problem(key: str) -> str | None:
    """Why `key` (stripped) cannot be an API key, or None."""
    key = key.strip()
    if not key:
        return "the key is empty"
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in key):
        return "an API key has no spaces or control characters"
    return None


def store_key(name: str, key: str) -> None:
    """Keep `key` (stripped) for service `name` in the system keyring, replacing any.
    Raises KeyStoreError (one line) when there is no keyring, the key is not one, or the
    keyring refuses."""
    label = SERVICES[name].label
    problem = keyring_problem() or key_problem(key)
    if problem is not None:
        raise KeyStoreError(f"{label} key not stored: {problem}")
    try:
        import keyring

        keyring.set_password(KEYRING_SERVICE, name, key.strip())
    except Exception as error:  # every backend failure is one line, never a traceback
        raise KeyStoreError(f"{label} key not stored: {_one_line(error)}") from None


def remove_key(name: str) -> None:
    """Delete the key for service `name` from the keyring (nothing to do when there is
    none). Raises KeyStoreError (one line) when the keyring refuses."""
    label = SERVICES[name].label
    problem = keyring_problem()
    if problem is not None:
        raise KeyStoreError(f"{label} key not removed: {problem}")
    try:
        import keyring
        from keyring.errors import PasswordDeleteError

        try:
            keyring.delete_password(KEYRING_SERVICE, name)
        except PasswordDeleteError:
            if keyring.get_password(KEYRING_SERVICE, name) is not None:
                raise
    except Exception as error:  # every backend failure is one line, never a traceback
        raise KeyStoreError(f"{label} key not removed: {_one_line(error)}") from None


def _one_line(error: Exception) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def keyring_key(name: str) -> str | None:
    """The key stored for service `name` in the system keyring, or None (also when there
    is no usable keyring: a desktop without one must still start)."""
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, name)
    except Exception as error:  # any backend failure means "no key", never a crash
        log.info("no key for %s from the keyring: %s", name, error)
        return None


@dataclass
class HttpSettings:
    """How the client behaves; every default is what a user gets, tests override.

    `offline` and `contact`, when None, are settled when the settings are made:
    PAPERSHELF_OFFLINE / PAPERSHELF_CONTACT when set, else the user's network preferences
    (`load_network_preferences`); `base_urls` and `spacing` override single services by
    name; `keys` replaces the key lookup (environment, then keyring); `clock` and `sleep`
    are injectable so a test never waits.
    """

    cache_dir: Path | None = None
    use_cache: bool = True
    cache_ttl: float = 24 * 3600.0  # arXiv: "no need to call the API more than once a day"
    timeout: float = 20.0
    retries: int = 3
    backoff: float = 1.0
    max_wait: float = 60.0  # the longest Retry-After or back-off the client waits out
    max_redirects: int = 5
    max_bytes: int = 8 * 1024 * 1024
    contact: str | None = None
    offline: bool | None = None
    base_urls: Mapping[str, str] = field(default_factory=dict)
    spacing: Mapping[str, float] = field(default_factory=dict)
    keys: Callable[[str], str | None] | None = None
    trust_env: bool = True
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep

    def __post_init__(self) -> None:
        """Settle `offline` and `contact` left None: the environment, else the preference."""
        if self.offline is not None and self.contact is not None:
            return
        preferences = load_network_preferences()
        if self.offline is None:
            from_environment = offline_from_environment()
            self.offline = preferences.offline if from_environment is None else from_environment
        if self.contact is None:
            self.contact = os.environ.get(CONTACT_ENV, "").strip() or preferences.contact or None
