"""Papershelf's one way onto the network: a polite, cached and bounded HTTP client.

Every service module asks through a `ServiceClient` from `make_client`, so the manners the
services ask for live in one place: an on-disk cache (hishel, in the user's cache folder)
so the same question is not asked twice, time-outs, bounded retries with exponential
back-off on time-outs, 429 and 5xx (honouring Retry-After), a minimum spacing per service
(arXiv asks for 3 s between requests), a contact address for the polite pools, API keys
from the environment or the system keyring, http(s) only, a redirect limit, a size limit
on every answer (read streamed, refused as soon as it is over) and an offline mode. Every
failure is one `ServiceError` with a one-line message naming the service, which a caller
shows as it is: never a traceback.

Layers, top down: `httpx.Client` (time-outs, User-Agent) → a switch that lets a request
skip the cache (PDF downloads) → hishel's cache → `_Network` (offline gate, spacing, keys
and contact address) → the real network. Keys and the contact address are added below the
cache, so neither is in a cache key or in the cache file.

What the client is told (`SERVICES`, `HttpSettings`) lives in `metadata.settings`, the
error it raises in `metadata.errors`; both are exported from here as well.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import logging
import os
import re
import sqlite3
import ssl
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx
from hishel import SqliteStorage
from hishel.httpx import CacheTransport

from papershelf import __version__
from papershelf.messages import text as message
from papershelf.metadata.errors import ErrorKind, Offline, ServiceError
from papershelf.metadata.settings import (
    CONTACT_ENV,
    KEYRING_SERVICE,
    OFFLINE_ENV,
    SERVICES,
    HttpSettings,
    Service,
    default_cache_dir,
    keyring_key,
)

__all__ = [
    "CONTACT_ENV",
    "KEYRING_SERVICE",
    "OFFLINE_ENV",
    "SERVICES",
    "Download",
    "ErrorKind",
    "HttpSettings",
    "Offline",
    "Reply",
    "Service",
    "ServiceClient",
    "ServiceError",
    "make_client",
]

log = logging.getLogger(__name__)

_TRUE = frozenset({"1", "true", "yes", "on"})
_CONDITIONAL = frozenset({"if-none-match", "if-modified-since"})
_SERVICE_EXT = "papershelf.service"
_CACHE_EXT = "papershelf.cache"
_CHARSET_RE = re.compile(r"charset=[\"']?([\w.:-]+)", re.IGNORECASE)
_ENTITY_RE = re.compile(rb"<!ENTITY", re.IGNORECASE)
T = TypeVar("T")


def _size(n: int) -> str:
    """A byte count as a person reads it: 512 bytes, 64 KB, 8 MB."""
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.0f} KB"
    return f"{n / (1024 * 1024):.0f} MB"


class _Retry(Exception):
    """A failure worth another try (time-out, 429, 5xx), with the error to give up with."""

    def __init__(self, error: ServiceError, after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.after = after


def _broke_off(svc: Service, error: httpx.HTTPError) -> _Retry:
    """The retryable error for a connection that broke off mid-request or mid-answer."""
    log.info("%s: %r", svc.label, error)
    return _Retry(ServiceError(
        svc.label, message("the connection broke off (a network problem?)"), "network"
    ))  # fmt: skip


@dataclass
class Reply:
    """A whole answer: status, headers and body (at most the size limit), and whether the
    cache gave it. `json()`, `xml()` and `malformed()` turn a bad body into a ServiceError
    and drop the cached copy, so the next try asks the service again."""

    service: str
    url: str
    status: int
    headers: httpx.Headers
    content: bytes
    from_cache: bool
    _forget: Callable[[], None] = field(repr=False, default=lambda: None)

    def text(self) -> str:
        """The body as text (the charset the server named, else UTF-8)."""
        match = _CHARSET_RE.search(self.headers.get("content-type", ""))
        encoding = match.group(1) if match else "utf-8"
        try:
            return self.content.decode(encoding, errors="replace")
        except LookupError:  # a charset Python does not know
            return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """The body as JSON, or a "malformed answer" error."""
        try:
            return json.loads(self.content)
        except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
            raise self.malformed("not JSON") from None

    def xml(self) -> ET.Element:
        """The body as an XML element tree, or a "malformed answer" error. Entity
        declarations are refused: no service needs them, and they can expand a small
        answer into a huge one."""
        if _ENTITY_RE.search(self.content):
            raise self.malformed("XML with entity declarations")
        try:
            return ET.fromstring(self.content)
        except (ET.ParseError, ValueError, LookupError):  # also: an unknown encoding
            raise self.malformed("not XML") from None

    def malformed(self, detail: str) -> ServiceError:
        """The error for an answer that is not what the service documents (to raise)."""
        return self.fail(f"malformed answer ({detail})", "malformed")

    def fail(self, problem: str, kind: ErrorKind) -> ServiceError:
        """The error for a 2xx answer that still says no (to raise); the cached copy is
        dropped, so the next try asks the service again."""
        self._forget()
        return ServiceError(self.service, problem, kind)


class Download:
    """An answer being read in chunks (a PDF): headers now, the body as it arrives, cut off
    with a "too big" error once it passes the limit."""

    def __init__(self, service: str, response: httpx.Response, max_bytes: int) -> None:
        self.service = service
        self.url = str(response.url)
        self.headers = response.headers
        self._response = response
        self._max_bytes = max_bytes

    def chunks(self) -> Iterator[bytes]:
        """The body, chunk by chunk; raises ServiceError when it gets too big or breaks."""
        try:
            yield from _bounded(self._response, self.service, self._max_bytes)
        except httpx.TimeoutException:
            raise ServiceError(self.service, message("timed out while downloading"),
                               "timeout") from None
        except httpx.HTTPError:
            raise ServiceError(
                self.service, message("the download broke off (a network problem?)"), "network"
            ) from None


def _too_big(service: str, max_bytes: int) -> ServiceError:
    return ServiceError(service, message("answer too big (over {size})",
                                         size=_size(max_bytes)), "too-big")


def _check_length(response: httpx.Response, service: str, max_bytes: int) -> None:
    """Refuse an answer whose Content-Length says it is over `max_bytes`, before reading."""
    length = response.headers.get("content-length", "")
    if length.isdigit() and int(length) > max_bytes:
        raise _too_big(service, max_bytes)


def _bounded(response: httpx.Response, service: str, max_bytes: int) -> Iterator[bytes]:
    """The body of `response` chunk by chunk, refused as soon as the bytes read pass
    `max_bytes` (an answer need not say its length)."""
    total = 0
    for chunk in response.iter_bytes():
        total += len(chunk)
        if total > max_bytes:
            raise _too_big(service, max_bytes)
        yield chunk


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or None."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


_contexts: dict[tuple[str, str], ssl.SSLContext] = {}
_contexts_lock = threading.Lock()


def _ssl_context(trust_env: bool) -> ssl.SSLContext:
    """What servers' certificates are checked against, as httpx loads it (certifi's
    bundle; with `trust_env`, SSL_CERT_FILE or SSL_CERT_DIR when set), made once per
    process and shared: loading the bundle was most of the cost of each new client."""
    where = (os.environ.get("SSL_CERT_FILE", ""), os.environ.get("SSL_CERT_DIR", "")
             ) if trust_env else ("", "")
    with _contexts_lock:
        context = _contexts.get(where)
        if context is None:
            context = _contexts[where] = httpx.create_ssl_context(trust_env=trust_env)
    return context


class _Network(httpx.BaseTransport):
    """Below the cache: the offline gate, the spacing, keys and contact address, then the
    wire. Only requests that really leave the machine pass through here."""

    def __init__(self, owner: ServiceClient, wire: httpx.BaseTransport) -> None:
        self._owner = owner
        self._wire = wire

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        service = SERVICES[request.extensions.get(_SERVICE_EXT, "web")]
        if self._owner.offline:
            raise Offline(service.label)
        self._owner._pace(service)
        return self._wire.handle_request(self._owner._identified(request, service))

    def close(self) -> None:
        self._wire.close()


class _Wire(httpx.BaseTransport):
    """The network itself, through a plain httpx client so that proxies, NO_PROXY and
    certificate settings from the environment apply as usual."""

    def __init__(self, trust_env: bool) -> None:
        self._client = httpx.Client(trust_env=trust_env, follow_redirects=False,
                                    verify=_ssl_context(trust_env))

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._client.send(request, stream=True)

    def close(self) -> None:
        self._client.close()


class _Switch(httpx.BaseTransport):
    """Sends a request through the cache, or straight on when it asks to skip it."""

    def __init__(self, cached: httpx.BaseTransport | None, network: httpx.BaseTransport) -> None:
        self._cached = cached
        self._network = network

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._cached is not None and request.extensions.get(_CACHE_EXT, True):
            return self._cached.handle_request(request)
        return self._network.handle_request(request)

    def close(self) -> None:
        # The cache transport closes the network below it, and its storage.
        (self._cached or self._network).close()


class ServiceClient:
    """The HTTP client every service module uses (see the module docstring); one per
    process or window, shared across threads, closed when done."""

    def __init__(
        self, settings: HttpSettings | None = None, transport: httpx.BaseTransport | None = None
    ) -> None:
        self.settings = settings = settings or HttpSettings()
        if settings.offline is not None:
            self.offline = settings.offline
        else:
            self.offline = os.environ.get(OFFLINE_ENV, "").strip().lower() in _TRUE
        self.contact = (settings.contact or os.environ.get(CONTACT_ENV, "")).strip() or None
        self._keys: dict[str, str | None] = {}
        self._next_free: dict[str, float] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._storage: SqliteStorage | None = None
        network = _Network(self, transport or _Wire(settings.trust_env))
        cached: httpx.BaseTransport | None = None
        if settings.use_cache:
            self._storage = self._open_storage(settings.cache_dir or default_cache_dir())
            if self._storage is not None:
                cached = CacheTransport(next_transport=network, storage=self._storage)
        agent = f"Papershelf/{__version__}"
        if self.contact:
            agent += f" (mailto:{self.contact})"
        self._http = httpx.Client(
            transport=_Switch(cached, network),
            timeout=settings.timeout,
            follow_redirects=False,
            trust_env=False,  # the wire below applies the environment
            headers={"User-Agent": agent},
        )

    # ------------------------------------------------------------------ set-up

    def _open_storage(self, folder: Path) -> SqliteStorage | None:
        """hishel's SQLite cache in `folder`, or None (no cache, with a log line) when the
        folder or file cannot be used: a broken cache must not stop lookups."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
            storage = SqliteStorage(
                database_path=folder / "hishel-v2.sqlite", default_ttl=self.settings.cache_ttl
            )
            storage.get_entries("")  # opens (and creates) the database now
        except (OSError, RuntimeError, sqlite3.Error) as error:
            log.warning("HTTP cache in %s unusable, going on without it: %s", folder, error)
            return None
        return storage

    def close(self) -> None:
        """Close connections and the cache file."""
        self._http.close()

    def __enter__(self) -> ServiceClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ services

    def base_url(self, name: str) -> str:
        """The root URL of service `name`: settings, else its environment variable, else
        the real service."""
        service = SERVICES[name]
        url = self.settings.base_urls.get(name) or os.environ.get(service.url_env, "")
        url = (url.strip() or service.default_url).rstrip("/")
        if urlsplit(url).scheme not in ("http", "https"):
            raise ServiceError(service.label, f"{service.url_env} is not an http(s) URL", "bad-url")
        return url

    def api_key(self, name: str) -> str | None:
        """The API key for service `name` (settings' lookup, else its environment variable,
        else the system keyring), or None. Looked up once; never written anywhere."""
        if name not in self._keys:
            service = SERVICES[name]
            if self.settings.keys is not None:
                key = self.settings.keys(name)
            else:
                key = os.environ.get(service.key_env, "").strip() or keyring_key(name)
            self._keys[name] = key.strip() if key and key.strip() else None
        return self._keys[name]

    def require_key(self, name: str) -> None:
        """Raise a "no-key" ServiceError when service `name` needs a key and has none."""
        service = SERVICES[name]
        if service.takes_key and self.api_key(name) is None:
            raise ServiceError(
                service.label,
                message("skipped: no API key (set {variable} or store one in the keyring "
                        "as '{keyring}'/'{name}')", variable=service.key_env,
                        keyring=KEYRING_SERVICE, name=name),
                "no-key",
            )

    def service_for(self, url: str) -> str:
        """The name of the service a URL belongs to (by host), else "web"."""
        host = (urlsplit(url).hostname or "").lower()
        for service in SERVICES.values():
            if service.name == "web":
                continue
            try:
                root = urlsplit(self.base_url(service.name)).hostname or ""
            except ServiceError:
                continue
            if host == root.lower() or host in service.hosts:
                return service.name
        return "web"

    # ------------------------------------------------------------------ requests

    def get(
        self,
        service: str,
        url: str,
        params: Mapping[str, str] | None = None,
        *,
        accept: str | None = None,
        what: str = "",
        max_bytes: int | None = None,
        cache: bool = True,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """GET `url` (a path under the service's root, or an absolute http(s) URL) and
        read the whole answer. `what` names the thing asked for in a "not found" message.
        `headers` are sent as well: with If-None-Match or If-Modified-Since (a conditional
        GET, best past the cache), a 304 answer is a Reply with status 304 and no body.
        Raises ServiceError for anything but a 2xx answer within the size limit."""
        svc = SERVICES[service]
        limit = self.settings.max_bytes if max_bytes is None else max_bytes
        request = self._request(svc, url, params, accept, cache)
        if headers:
            request.headers.update(headers)
        key = request.extensions["caching"]["key"]

        def once() -> Reply:
            response = self._open(svc, request, what)
            try:
                content = self._read(svc, response, limit)
                status = response.status_code
                from_cache = bool(response.extensions.get("caching", {}).get("from_cache"))
                return Reply(
                    svc.label, str(response.url), status, response.headers, content,
                    from_cache, lambda: self._forget(key),
                )  # fmt: skip
            finally:
                response.close()

        return self._retrying(svc, once)

    @contextmanager
    def download(
        self, url: str, *, max_bytes: int, accept: str | None = None, service: str | None = None
    ) -> Iterator[Download]:
        """Open `url` for a streamed download, past the cache; the answer's headers are
        there at once, its body comes from `Download.chunks()`. Retries (as `get`) happen
        before the body starts; a body over `max_bytes` is refused (Content-Length first)."""
        svc = SERVICES[service or self.service_for(url)]
        request = self._request(svc, url, None, accept, cache=False)
        response = self._retrying(svc, lambda: self._open(svc, request, ""))
        try:
            _check_length(response, svc.label, max_bytes)
            yield Download(svc.label, response, max_bytes)
        finally:
            response.close()

    def _request(
        self,
        svc: Service,
        url: str,
        params: Mapping[str, str] | None,
        accept: str | None,
        cache: bool,
    ) -> httpx.Request:
        """The request for `url`, tagged with its service and its cache key."""
        if not url.startswith(("http://", "https://")):
            if "://" in url or svc.name == "web":
                raise ServiceError(svc.label, "only http(s) addresses can be fetched", "bad-url")
            url = self.base_url(svc.name) + "/" + url.lstrip("/")
        headers = {"Accept": accept} if accept else None
        try:
            request = self._http.build_request("GET", url, params=params, headers=headers)
        except (httpx.InvalidURL, httpx.UnsupportedProtocol):
            raise ServiceError(svc.label, "not a valid http(s) address", "bad-url") from None
        key = hashlib.sha256(f"GET {request.url}".encode()).hexdigest()
        request.extensions.update(
            {_SERVICE_EXT: svc.name, _CACHE_EXT: cache, "caching": {"key": key}}
        )
        return request

    def _retrying(self, svc: Service, attempt: Callable[[], T]) -> T:
        """`attempt()` until it succeeds, at most `retries` more times after a time-out,
        429 or 5xx, waiting Retry-After or an exponential back-off (both bounded)."""
        settings = self.settings
        tries = 0
        while True:
            tries += 1
            try:
                return attempt()
            except _Retry as retry:
                if tries > settings.retries:
                    error = retry.error
                    raise type(error)(
                        error.service, f"{error.problem}; gave up after {tries} tries", error.kind
                    ) from None
                delay = retry.after
                if delay is None:
                    delay = min(settings.backoff * 2 ** (tries - 1), settings.max_wait)
                elif delay > settings.max_wait:
                    raise ServiceError(
                        svc.label,
                        message("{problem}; asked to wait {seconds} s, try again later",
                                problem=retry.error.problem, seconds=f"{delay:.0f}"),
                        retry.error.kind,
                    ) from None
                log.info("%s: %s; retrying in %.1f s", svc.label, retry.error.problem, delay)
                settings.sleep(delay)

    def _open(self, svc: Service, request: httpx.Request, what: str) -> httpx.Response:
        """Send `request`, follow redirects (loops and long chains refused) and return
        the final 2xx response with its body still unread; the caller closes it."""
        seen = {str(request.url)}
        for _hop in range(self.settings.max_redirects + 1):
            response = self._send(svc, request)
            if not response.has_redirect_location:
                break
            next_request = response.next_request
            response.close()
            if next_request is None:  # pragma: no cover - httpx sets it for every redirect
                raise ServiceError(svc.label, "redirect without a target", "malformed")
            target = str(next_request.url)
            if target in seen:
                raise ServiceError(svc.label, "redirect loop", "redirect-loop")
            seen.add(target)
            request = next_request
        else:
            raise ServiceError(
                svc.label,
                f"too many redirects (more than {self.settings.max_redirects})",
                "redirect-loop",
            )
        try:
            self._check_status(svc, response, what)
        except BaseException:
            response.close()
            raise
        return response

    def _send(self, svc: Service, request: httpx.Request) -> httpx.Response:
        """One request, its transport failures as ServiceErrors (time-outs retryable)."""
        try:
            return self._http.send(request, stream=True)
        except ServiceError:
            raise
        except httpx.TimeoutException:
            raise self._timed_out(svc) from None
        except httpx.UnsupportedProtocol:
            raise ServiceError(
                svc.label, message("redirected to an address that is not http(s)"), "bad-url"
            ) from None
        except (httpx.RemoteProtocolError, httpx.ReadError) as error:
            raise _broke_off(svc, error) from None
        except httpx.HTTPError as error:
            log.info("%s: %r", svc.label, error)
            raise ServiceError(
                svc.label, message("could not be reached (offline, or the server is down?)"),
                "network"
            ) from None

    def _timed_out(self, svc: Service) -> _Retry:
        """The retryable error for a request or an answer that took too long."""
        return _Retry(ServiceError(
            svc.label, message("timed out (no answer within {seconds} s)",
                               seconds=f"{self.settings.timeout:g}"), "timeout"
        ))  # fmt: skip

    def _check_status(self, svc: Service, response: httpx.Response, what: str) -> None:
        """Raise the error a non-2xx status means (retryable for 429 and 5xx)."""
        status = response.status_code
        if 200 <= status < 300:
            return
        if status == 304 and _CONDITIONAL & set(response.request.headers.keys()):
            return  # (what the caller asked for: its copy is still current)
        if status in (404, 410):
            raise ServiceError(svc.label, message("not found ({what})", what=what) if what
                               else message("not found"),
                               "not-found")  # fmt: skip
        if status == 429:
            raise _Retry(
                ServiceError(svc.label, message("rate limited (HTTP 429)"), "rate-limited"),
                _retry_after(response),
            )
        if status >= 500:
            raise _Retry(
                ServiceError(svc.label, message("server error (HTTP {status})", status=status),
                             "server-error"),
                _retry_after(response),
            )
        if status in (401, 403) and svc.takes_key:
            raise ServiceError(
                svc.label, message("refused the API key (HTTP {status}); check {variable}",
                                   status=status, variable=svc.key_env), "refused"
            )
        raise ServiceError(svc.label, message("refused the request (HTTP {status})",
                                              status=status), "refused")

    def _read(self, svc: Service, response: httpx.Response, max_bytes: int) -> bytes:
        """The body of `response`, refused once it passes `max_bytes` (by Content-Length
        before reading, else while reading)."""
        _check_length(response, svc.label, max_bytes)
        try:
            return b"".join(_bounded(response, svc.label, max_bytes))
        except httpx.TimeoutException:
            raise self._timed_out(svc) from None
        except httpx.DecodingError:
            raise ServiceError(
                svc.label, "malformed answer (broken compression)", "malformed"
            ) from None
        except httpx.HTTPError as error:
            raise _broke_off(svc, error) from None

    def _forget(self, key: str) -> None:
        """Drop the cached answers under `key` (one that turned out malformed)."""
        if self._storage is None:
            return
        for entry in self._storage.get_entries(key):
            self._storage.remove_entry(entry.id)

    # ------------------------------------------------------------------ manners

    def spacing(self, name: str) -> float:
        """Seconds between two requests to service `name`."""
        return float(self.settings.spacing.get(name, SERVICES[name].spacing))

    def _pace(self, service: Service) -> None:
        """Wait until `service` may be asked again; requests start at least its spacing
        apart (per client, across threads)."""
        spacing = self.spacing(service.name)
        if spacing <= 0:
            return
        with self._locks_lock:
            lock = self._locks.setdefault(service.name, threading.Lock())
        with lock:
            now = self.settings.clock()
            free = self._next_free.get(service.name, now)
            if free > now:
                self.settings.sleep(free - now)
            self._next_free[service.name] = max(now, free) + spacing

    def _identified(self, request: httpx.Request, service: Service) -> httpx.Request:
        """`request` with the service's API key and the contact address added, when it
        goes to the service's own host; a new request, so the one the cache keeps stays
        without them."""
        try:
            root = urlsplit(self.base_url(service.name)).netloc if service.default_url else ""
        except ServiceError:
            root = ""
        if not root or request.url.netloc.decode("ascii", "replace") != root:
            return request
        params: dict[str, str] = {}
        headers = httpx.Headers(request.headers)
        key = self.api_key(service.name) if service.takes_key else None
        if key and service.key_param:
            params[service.key_param] = key
        if key and service.key_header:
            headers[service.key_header] = key
        if self.contact and service.contact_param:
            params[service.contact_param] = self.contact
        if not params and headers == request.headers:
            return request
        return httpx.Request(
            request.method,
            request.url.copy_merge_params(params),
            headers=headers,
            stream=request.stream,
            extensions=request.extensions,
        )


def make_client(
    settings: HttpSettings | None = None, *, transport: httpx.BaseTransport | None = None
) -> ServiceClient:
    """The client every lookup uses: `settings` (defaults: the user's cache folder, the
    real services, the environment's contact address, keys and offline switch);
    `transport` replaces the network (tests)."""
    return ServiceClient(settings, transport)
