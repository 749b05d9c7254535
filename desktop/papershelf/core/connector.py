"""A local server the browser's Zotero Connector saves papers into, as into Zotero.

The Connector (the Firefox, Chrome or Safari extension) looks for Zotero at
http://127.0.0.1:23119 and speaks its connector protocol (Zotero's server_connector.js);
this server answers the part that saves: `ping`, `getSelectedCollection` (the library and
its tags as targets), `saveItems`, `saveSnapshot`, `saveAttachment`,
`saveStandaloneAttachment` and `updateSession`, with the status codes Zotero gives. What
the requests do to the library is core.receiving's.

Only the extension may use it, never a web page (which could otherwise post papers
into the library, CSRF): the server listens on 127.0.0.1 only; a request must name
127.0.0.1 or localhost as its Host (DNS rebinding), carry Zotero's
`X-Zotero-Connector-API-Version` or `Zotero-Allowed-Request` header (which a page's
form cannot set, and fetch() cannot without a CORS preflight this server never
allows), and come from no Origin or an extension's (`moz-extension://`,
`chrome-extension://`, `safari-web-extension://`): anything else is 403. Bodies are
size-limited (413) and JSON is validated (400), nested at most `MAX_DEPTH` levels.

Under load it serves every request, a few at a time: the kernel queues up to
`BACKLOG` connections waiting to be accepted (the socketserver default of 5 reset
165 of a burst of 200), and at most `Limits.concurrent` requests are handled at once
(each in its own thread; the others wait in that queue), so the bodies held in
memory at once stay bounded: a JSON body over `Limits.large_json` (1 MB) is read, parsed
and handled one at a time, the others each within `large_json`. No Qt.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.header import decode_header, make_header
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from papershelf.core.files import MAGIC_WINDOW, safe_file_name, starts_like_pdf
from papershelf.core.receiving import Receiver, Refused, Saved
from papershelf.errors import LibraryError, UserError

log = logging.getLogger(__name__)

DEFAULT_PORT = 23119  # Zotero's
API_VERSION = 3  # the connector protocol of Zotero 7 (server_connector.js)
ZOTERO_VERSION = "7.0.0"  # what the Connector is told it talks to
HOST = "127.0.0.1"
EXTENSION_ORIGINS = ("moz-extension://", "chrome-extension://", "safari-web-extension://")
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_CHUNK = 1 << 20
BACKLOG = 1024  # connections the kernel holds until they are accepted
MAX_DEPTH = 32  # JSON nesting (Zotero's item JSON nests 4 levels)


@dataclass(frozen=True)
class Limits:
    """The largest bodies taken: a JSON request (a saveSnapshot carries the page's
    HTML) and a file (a PDF, written to a temporary file as it comes); the requests
    handled at once; the seconds a client may stall."""

    json_bytes: int = 16 << 20
    file_bytes: int = 100 << 20
    concurrent: int = 8
    stall: float = 30.0
    # JSON bodies over this are read, parsed and handled one at a time: parsed, a body
    # of tiny objects takes some 28 times its size (eight 16 MB ones, 3.5 GB at once).
    large_json: int = 1 << 20


class PortInUse(UserError):
    """The port is taken: Zotero itself (or another Papershelf) is running."""


@dataclass(frozen=True)
class _Endpoint:
    methods: tuple[str, ...]
    body: str  # "json": a JSON object; "file": the bytes of a file; "none": ignored


_JSON = _Endpoint(("POST",), "json")
_FILE = _Endpoint(("POST",), "file")
ENDPOINTS = {
    "/connector/ping": _Endpoint(("GET", "POST"), "json"),
    "/connector/getSelectedCollection": _JSON,
    "/connector/saveItems": _JSON,
    "/connector/saveSnapshot": _JSON,
    "/connector/updateSession": _JSON,
    "/connector/saveAttachment": _FILE,
    "/connector/saveStandaloneAttachment": _FILE,
    "/connector/getRecognizedItem": _JSON,
    "/connector/hasAttachmentResolvers": _JSON,
    "/connector/delaySync": _Endpoint(("POST",), "none"),
}
_JSON_TYPES = frozenset({"application/json", "text/plain"})

PING_PAGE = (b"<!DOCTYPE html><html><body>Papershelf is running (it receives papers "
             b"from the Zotero Connector)</body></html>")
PREFS = {
    "automaticSnapshots": False,  # (no saveSingleFile: a page's snapshot is not kept)
    "downloadAssociatedFiles": True,  # the Connector downloads PDFs, then saveAttachment
    "supportsAttachmentUpload": True,
    "supportsTagsAutocomplete": True,
    "canUserAddNote": True,
    "googleDocsAddNoteEnabled": False,
    "googleDocsAddAnnotationEnabled": False,
    "googleDocsCitationExplorerEnabled": False,
}


class _Reply(Exception):
    """Answer the request now with this status and body (refusals on the way)."""

    def __init__(self, status: int, body: bytes = b"", content_type: str = "text/plain"
                 ) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.content_type = content_type


def _json_reply(status: int, value: object) -> _Reply:
    return _Reply(status, json.dumps(value).encode("utf-8"), "application/json")


def _header_text(value: str) -> str:
    """A header's value as text: RFC 2047 words decoded (as Zotero decodes them), and raw
    UTF-8 (which http.server reads as Latin-1) read as UTF-8."""
    with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
        value = value.encode("latin-1").decode("utf-8")
    if "=?" in value:
        with contextlib.suppress(ValueError, LookupError, UnicodeDecodeError):
            value = str(make_header(decode_header(value)))
    return value


def _too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether a JSON value nests deeper than `limit` levels (depth first, holding one
    iterator per level: no recursion, and no copy of a wide value)."""
    stack: list[Iterator[object]] = [iter((value,))]
    while stack:
        for child in stack[-1]:
            if isinstance(child, (dict, list)):
                if len(stack) > limit:
                    return True
                stack.append(iter(child.values() if isinstance(child, dict) else child))
                break
        else:
            stack.pop()
    return False


def _json_value(text: str) -> Any:
    """`text` as JSON; _Reply 400 if it is not JSON or nests deeper than MAX_DEPTH."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise _Reply(400, b"Invalid JSON provided\n") from None
    except MemoryError:
        raise _Reply(413, b"Request body too large\n") from None
    if _too_deep(value):
        raise _Reply(400, b"Invalid JSON provided (nested too deeply)\n")
    return value


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # (SO_REUSEADDR on Windows would let this server take the port from a running Zotero)
    allow_reuse_address = sys.platform != "win32"
    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int], receiver: Receiver, limits: Limits
                 ) -> None:
        self.receiver = receiver
        self.limits = limits
        self.closing = threading.Event()
        self._slots = threading.BoundedSemaphore(max(1, limits.concurrent))
        self.large = threading.Lock()  # (held while a large JSON body is handled)
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Handle the request in a thread once fewer than `limits.concurrent` run; until
        then, the connections that follow wait in the kernel's queue."""
        while not self._slots.acquire(timeout=0.2):
            if self.closing.is_set():
                self.shutdown_request(request)
                return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "Papershelf"

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.limits.stall)  # (a slow client holds
        # one of the `concurrent` slots only this long at a time)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("connector: " + format, *args)

    def do_GET(self) -> None:  # (http.server's names)
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_HEAD(self) -> None:
        self._handle("HEAD")

    def do_OPTIONS(self) -> None:
        self._handle("OPTIONS")

    # -- the request ----------------------------------------------------------------------

    def _handle(self, method: str) -> None:
        declared = (self.headers.get("Content-Length") or "").strip()
        body_read = not declared.isdigit() or int(declared) == 0
        try:
            self._check_sender()
            parts = urlsplit(self.path)
            endpoint = ENDPOINTS.get(parts.path)
            if endpoint is None:
                raise _Reply(404, b"No endpoint found\n")
            if method in ("HEAD", "OPTIONS"):
                raise _Reply(200)  # (no CORS headers: a page's preflight fails)
            if method not in endpoint.methods:
                raise _Reply(400, b"Endpoint does not support method\n")
            if method == "GET":
                raise _Reply(200, PING_PAGE, "text/html")
            length = self._length(endpoint)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            body_read = True
            if endpoint.body == "file":
                self._file_request(parts.path, length, query)
            elif length > self.server.limits.large_json:
                with self.server.large:
                    try:
                        self._json_request(parts.path, self._json_body(endpoint, length))
                    except (_Reply, Refused) as answer:  # (its frames hold the parsed
                        raise answer.with_traceback(None) from None  # body: let it go)
            else:
                self._json_request(parts.path, self._json_body(endpoint, length))
        except _Reply as reply:
            self._reply(reply, drain=not body_read)
        except Refused as refused:
            self._reply(_json_reply(refused.status, {"error": refused.code}),
                        drain=not body_read)
        except (UserError, LibraryError) as exc:
            log.warning("connector: %s", exc)
            self._reply(_json_reply(500, {"error": "SAVE_FAILED", "message": str(exc)}))
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception:  # a bug: logged, and the server keeps serving
            log.exception("connector: %s %s failed", method, self.path)
            self._reply(_Reply(500, b"An error occurred\n"))

    def _check_sender(self) -> None:
        """Refuse what a web page (or another machine's name for this one) could send."""
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name not in _LOCAL_HOSTS:
            raise _Reply(400, b"Invalid Host header\n")
        origin = (self.headers.get("Origin") or "").strip().lower()
        if origin and not origin.startswith(EXTENSION_ORIGINS):
            raise _Reply(403, b"Requests from web pages are not accepted\n")
        if not (self.headers.get("X-Zotero-Connector-API-Version")
                or self.headers.get("Zotero-Allowed-Request")):
            raise _Reply(403, b"Only the Zotero Connector may send requests here\n")

    def _length(self, endpoint: _Endpoint) -> int:
        value = (self.headers.get("Content-Length") or "").strip()
        if not value.isdigit():
            raise _Reply(400, b"Content-length not provided\n")
        length = int(value)
        limits = self.server.limits
        if length > (limits.file_bytes if endpoint.body == "file" else limits.json_bytes):
            raise _Reply(413, b"Request body too large\n")
        return length

    def _content_type(self) -> str:
        return (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()

    def _json_body(self, endpoint: _Endpoint, length: int) -> dict[str, Any]:
        data = self.rfile.read(length) if length else b""
        if len(data) < length:
            raise ConnectionError("body cut short")
        if endpoint.body == "none" or (not data and endpoint.methods == ("GET", "POST")):
            return {}
        if self._content_type() not in _JSON_TYPES:
            raise _Reply(400, b"Endpoint does not support content-type\n")
        try:
            value = _json_value(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise _Reply(400, b"Invalid JSON provided\n") from None
        if not isinstance(value, dict):
            raise _Reply(400, b"Invalid JSON provided\n")
        return value

    def _json_request(self, path: str, data: dict[str, Any]) -> None:
        receiver = self.server.receiver
        if path == "/connector/ping":
            raise _json_reply(200, {"prefs": PREFS})
        if path == "/connector/getSelectedCollection":
            raise _json_reply(200, receiver.selected_collection())
        if path == "/connector/saveItems":
            receiver.save_items(data)
            raise _Reply(201, b"", "application/json")
        if path == "/connector/saveSnapshot":
            receiver.save_snapshot(data)
            raise _Reply(201, b"", "application/json")
        if path == "/connector/updateSession":
            receiver.update_session(data)
            raise _json_reply(200, {})
        if path == "/connector/hasAttachmentResolvers":
            raise _json_reply(200, False)  # (no open-access lookups from here)
        raise _Reply(204)  # getRecognizedItem (nothing recognised), delaySync

    def _file_request(self, path: str, length: int, query: dict[str, str]) -> None:
        raw = self.headers.get("X-Metadata")
        if not raw:
            self._discard(length)
            raise _json_reply(400, {"error": "METADATA_NOT_PROVIDED"})
        try:
            metadata = _json_value(_header_text(raw))
        except _Reply:
            metadata = None
        if not isinstance(metadata, dict):
            self._discard(length)
            raise _Reply(400, b"Invalid JSON provided\n")
        metadata.setdefault("sessionID", query.get("sessionID"))
        folder = Path(tempfile.mkdtemp(prefix="papershelf-connector-"))
        try:
            title = metadata.get("title")
            target = folder / safe_file_name(title if isinstance(title, str) else "paper")
            head = self._receive(length, target)
            if not starts_like_pdf(head):
                raise _json_reply(400, {"error": "NOT_A_PDF"})  # (Papershelf keeps PDFs)
            receiver = self.server.receiver
            if path == "/connector/saveAttachment":
                receiver.save_attachment(metadata, target)
                raise _Reply(201)
            receiver.save_standalone(metadata, target)
            raise _json_reply(201, {"canRecognize": False})
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _receive(self, length: int, target: Path) -> bytes:
        """Write the body to `target`; its first bytes."""
        head = b""
        left = length
        with open(target, "wb") as out:
            while left:
                chunk = self.rfile.read(min(_CHUNK, left))
                if not chunk:
                    raise ConnectionError("body cut short")
                if len(head) < MAGIC_WINDOW:
                    head += chunk[:MAGIC_WINDOW - len(head)]
                out.write(chunk)
                left -= len(chunk)
        return head

    def _discard(self, length: int) -> None:
        left = length
        while left:
            chunk = self.rfile.read(min(_CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)

    # -- the answer -----------------------------------------------------------------------

    def _reply(self, reply: _Reply, drain: bool = False) -> None:
        self.send_response(reply.status)
        self.send_header("X-Zotero-Version", ZOTERO_VERSION)
        self.send_header("X-Zotero-Connector-API-Version", str(API_VERSION))
        if reply.body:
            self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if reply.body and self.command != "HEAD":
            self.wfile.write(reply.body)
        self.close_connection = True
        if drain:
            self._drain()

    def _drain(self) -> None:
        """Read what the client still sends of a refused body (a little, briefly), so
        that closing the socket does not reset the connection before it reads the
        answer."""
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(2)
            for _ in range(64):
                if not self.connection.recv(_CHUNK):
                    break
        except OSError:
            pass


class ConnectorServer:
    """The server on 127.0.0.1:`port` (0: any free port, for tests) in a thread of its
    own; `start` raises PortInUse when the port is taken."""

    def __init__(self, receiver: Receiver, port: int = DEFAULT_PORT,
                 limits: Limits | None = None) -> None:
        self.receiver = receiver
        self.wanted_port = port
        self.limits = limits if limits is not None else Limits()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port it listens on (once started)."""
        if self._server is None:
            return self.wanted_port
        return int(self._server.server_address[1])

    @property
    def running(self) -> bool:
        return self._server is not None

    def start(self) -> None:
        """Listen and serve in a background thread."""
        if self._server is not None:
            return
        try:
            self._server = _Server((HOST, self.wanted_port), self.receiver, self.limits)
        except OSError as exc:
            raise PortInUse(
                f"port {self.wanted_port} on {HOST} is in use (is Zotero running?): the "
                f"Zotero Connector saves there instead ({exc.strerror or exc})") from None
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.2},
                                        name="zotero-connector", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening (a request being answered finishes in its own thread)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.closing.set()
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def wait(self) -> None:
        """Block until the server stops (the command line: until Ctrl+C)."""
        thread = self._thread
        while thread is not None and thread.is_alive():
            thread.join(0.5)


def serve(receiver_for: Callable[[Callable[[Saved], None]], Receiver], port: int,
          say: Callable[[str], None]) -> None:
    """Run the server until Ctrl+C, saying one line when it listens and one per paper
    saved (`receiver_for` makes the Receiver with that callback); PortInUse if the port
    is taken."""
    server = ConnectorServer(receiver_for(lambda saved: say(saved.line())), port)
    server.start()
    say(f"receiving papers from the Zotero Connector on {HOST}:{server.port} "
        "(Ctrl+C stops)")
    try:
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
