"""What the HTTP client is told: the services it knows and the settings it runs with.

`SERVICES` names each web service Papershelf asks, with its documented root and its
manners (the spacing it asks for, where its API key and contact address go); an
`HttpSettings` says how the client behaves (cache, time-outs, retries, limits, offline
mode), with a user's defaults. Overrides come from the environment (PAPERSHELF_<NAME>_URL,
PAPERSHELF_<NAME>_KEY, PAPERSHELF_CONTACT, PAPERSHELF_OFFLINE) and keys also from the
system keyring; `http.ServiceClient` reads them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from papershelf.core.paths import APP_NAME

__all__ = [
    "CONTACT_ENV",
    "KEYRING_SERVICE",
    "OFFLINE_ENV",
    "SERVICES",
    "HttpSettings",
    "Service",
    "default_cache_dir",
    "keyring_key",
]

log = logging.getLogger(__name__)

CONTACT_ENV = "PAPERSHELF_CONTACT"
OFFLINE_ENV = "PAPERSHELF_OFFLINE"
KEYRING_SERVICE = "papershelf"


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
# Anthology `/N19-1423.bib`. Spacings are the services' stated limits where they state one
# (arXiv: one request every 3 s; Semantic Scholar: 1 request/s with a key; OpenAlex: 10/s)
# and a gentle second elsewhere. "web" is any other host (a PDF link).
SERVICES: dict[str, Service] = {
    s.name: s
    for s in (
        Service("crossref", "Crossref", "https://api.crossref.org", 0.2,
                contact_param="mailto"),
        Service("arxiv", "arXiv", "https://export.arxiv.org", 3.0,
                hosts=("arxiv.org", "www.arxiv.org")),
        Service("openreview", "OpenReview", "https://api2.openreview.net", 1.0,
                hosts=("openreview.net",)),
        Service("dblp", "DBLP", "https://dblp.org", 1.0),
        Service("openalex", "OpenAlex", "https://api.openalex.org", 0.1,
                key_param="api_key", contact_param="mailto"),
        Service("s2", "Semantic Scholar", "https://api.semanticscholar.org", 1.0,
                key_header="x-api-key"),
        Service("pmlr", "PMLR", "https://proceedings.mlr.press", 1.0),
        Service("acl", "ACL Anthology", "https://aclanthology.org", 1.0),
        Service("web", "download", "", 0.0),
    )
}  # fmt: skip


def default_cache_dir() -> Path:
    """`http` in the user's cache folder (e.g. ~/.cache/Papershelf/http)."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "http"


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

    `offline` and `contact` fall back to PAPERSHELF_OFFLINE / PAPERSHELF_CONTACT when None;
    `base_urls` and `spacing` override single services by name; `keys` replaces the
    key lookup (environment, then keyring); `clock` and `sleep` are injectable so a test
    never waits.
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
