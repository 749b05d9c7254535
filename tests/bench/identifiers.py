"""Figure 11 of `make bench`: adding identifiers, against a local server.

    python -m tests.bench.identifiers core|window --library PATH --server URL --ids FILE
                                                  --cache DIR [--rate-limits] [--again]
                                                  [--timeout SECONDS]

The bench process makes `count` distinct papers (`fakes`: synthetic titles, authors and
abstracts; 85% named by a DOI, 10% by an OpenReview link, 5% by an arXiv id, in the forms
people paste) and serves them from a thread on 127.0.0.1 (`LocalServices`), each answer
rendered beforehand in the shape of the recorded answers of tests/data/services
(Crossref's work, arXiv's Atom feed, OpenReview's notes), so the server answers at once.
Each measurement is a child process started with this module, every service's URL set to
that server and no proxy, with the services' configured spacing (`--rate-limits`) or
none: `window` opens the main window offscreen (tests/bench/probe.py's `Probe`) and adds
the papers through its `IdentifierAdder`, the path of File > Add by Identifier, with the
longest gap between event-loop ticks meanwhile; `core` adds them as the window's job does
(`metadata.adding.look_up_all`, then one `add_found`), then (`--again`) once more. Each
prints one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import string
import sys
import tempfile
import textwrap
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import pairwise
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

MODULE = "tests.bench.identifiers"
DATA = Path(__file__).resolve().parents[1] / "data" / "services"
SEED = 14  # (the synthetic library is seed 2024, the .bib 7, the abstract list 11)
COUNTS = {"full": 1000, "quick": 50}  # identifiers added, by benchmark mode
# Our overhead per paper above the rate limits' floor, at most: a tenth of the tightest
# spacing configured (Crossref's 0.2 s), so adding runs at 90% or more of the pace the
# services allow. The same bound for the whole per-paper cost with no rate limit at all
# means our code would keep that pace even against a service allowing 50 requests/s.
PER_PAPER_TARGET_MS = 20.0
SERVICES_USED = ("crossref", "openreview", "arxiv")
PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
           "all_proxy")
ATOM = "http://www.w3.org/2005/Atom"
ARXIV = "http://arxiv.org/schemas/atom"


# -- the papers and their answers ---------------------------------------------------------


@dataclass(frozen=True)
class Fake:
    """One paper of the figure: what the user pastes, the service that answers for it,
    what that service is asked for, and its answer."""

    text: str
    service: str
    key: str  # the DOI, arXiv id (no version) or OpenReview note id asked for
    body: bytes
    content_type: str


def fakes(count: int, seed: int = SEED) -> list[Fake]:
    """`count` distinct papers (titles and abstracts unlike any other's), the same for
    the same seed: every 20th from the 11th by arXiv id, every 10th from the 6th by
    OpenReview link, the others by DOI; the forms of each rotate."""
    from papershelf.core.library import normalize_text
    from tests.bench.synthetic import Generator

    gen, rnd = Generator(seed), random.Random(seed)
    shapes = _Shapes()
    titles: set[str] = set()
    note_ids: set[str] = set()
    made: list[Fake] = []
    while len(made) < count:
        record = gen.record(len(made))
        if normalize_text(record.title) in titles:
            continue
        titles.add(normalize_text(record.title))
        n, form = len(made), len(made) // 20 % 3
        if n % 20 == 10:
            key = f"{24 + n % 2}{1 + n % 12:02d}.{10000 + n:05d}"
            text = (f"arXiv:{key}", f"https://arxiv.org/abs/{key}v2", key)[form]
            made.append(Fake(text, "arxiv", key, shapes.arxiv(key, record),
                             "application/atom+xml; charset=utf-8"))
        elif n % 10 == 5:
            key = ""
            while not key or key in note_ids:
                key = "".join(rnd.choices(string.ascii_letters + string.digits, k=10))
            note_ids.add(key)
            text = f"https://openreview.net/{('forum', 'pdf', 'forum')[form]}?id={key}"
            made.append(Fake(text, "openreview", key, shapes.openreview(key, record),
                             "application/json; charset=utf-8"))
        else:
            key = f"10.5555/3618408.{3618409 + n}"
            text = (key, f"doi:{key}", f"https://doi.org/{key}")[form]
            made.append(Fake(text, "crossref", key, shapes.crossref(key, record),
                             "application/json"))
    return made


class _Shapes:
    """The recorded answers of tests/data/services, refilled with another paper."""

    def __init__(self) -> None:
        self._crossref = _read_json("crossref/work-10.18653-v1-n19-1423.json")
        self._openreview = _read_json("openreview/notes-xPypr0kufs.json")
        for prefix, uri in (("", ATOM), ("arxiv", ARXIV),
                            ("opensearch", "http://a9.com/-/spec/opensearch/1.1/")):
            ET.register_namespace(prefix, uri)
        self._arxiv = (DATA / "arxiv" / "query-2403.06082.xml").read_bytes()

    def crossref(self, doi: str, record: Any) -> bytes:
        work = dict(self._crossref["message"])
        first, last = record.pages.split("--")
        work.update({
            "DOI": doi, "URL": f"https://doi.org/{doi}", "title": [record.title],
            "author": [{"given": a.given, "family": a.family, "affiliation": [],
                        "sequence": "first" if i == 0 else "additional"}
                       for i, a in enumerate(record.authors)],
            "abstract": f"<jats:title>Abstract</jats:title><jats:p>{record.abstract}</jats:p>",
            "container-title": [f"Proceedings of {record.venue} {record.year}"],
            "issued": {"date-parts": [[record.year]]}, "page": f"{first}-{last}",
        })
        return json.dumps({**self._crossref, "message": work}).encode()

    def arxiv(self, arxiv_id: str, record: Any) -> bytes:
        feed = ET.fromstring(self._arxiv)
        entry = feed.find(f"{{{ATOM}}}entry")
        assert entry is not None
        for author in entry.findall(f"{{{ATOM}}}author"):
            entry.remove(author)
        at = list(entry).index(entry.find(f"{{{ATOM}}}summary")) + 1  # type: ignore[arg-type]
        for offset, person in enumerate(record.authors):
            author = ET.Element(f"{{{ATOM}}}author")
            ET.SubElement(author, f"{{{ATOM}}}name").text = f"{person.given} {person.family}"
            entry.insert(at + offset, author)
        texts = {"id": f"http://arxiv.org/abs/{arxiv_id}v2",
                 "published": f"{record.year}-03-10T12:00:00Z",
                 "title": "\n  ".join(textwrap.wrap(record.title, 60)),  # arXiv wraps
                 "summary": "  " + "\n".join(textwrap.wrap(record.abstract, 78)) + "\n"}
        for name, text in texts.items():
            element = entry.find(f"{{{ATOM}}}{name}")
            assert element is not None
            element.text = text
        for link in entry.findall(f"{{{ATOM}}}link"):
            link.set("href", link.get("href", "").replace("2403.06082", arxiv_id))
        data: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
        return data

    def openreview(self, note_id: str, record: Any) -> bytes:
        note = dict(self._openreview["notes"][0])
        names = [f"{a.given} {a.family}" for a in record.authors]
        bibtex = (f"@inproceedings{{\nbench{note_id},\ntitle={{{record.title}}},\n"
                  f"author={{{' and '.join(names)}}},\nbooktitle={{{record.venue}}},\n"
                  f"year={{{record.year}}},\nurl={{https://openreview.net/forum?id={note_id}}}"
                  "\n}")
        content = dict(note["content"])
        content.update({
            "title": {"value": record.title}, "authors": {"value": names},
            "authorids": {"value": ["~" + n.replace(" ", "_") + "1" for n in names]},
            "abstract": {"value": record.abstract}, "pdf": {"value": f"/pdf/{note_id}.pdf"},
            "venue": {"value": f"{record.venue} {record.year} Poster"},
            "_bibtex": {"value": bibtex},
        })
        note.update({"id": note_id, "forum": note_id, "content": content})
        return json.dumps({"notes": [note], "count": 1}).encode()


def _read_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


# -- the local server -------------------------------------------------------------------------


class LocalServices:
    """Crossref, arXiv and OpenReview for the `papers`, on 127.0.0.1 and a free port, in
    a thread of this process (keep-alive, as the real services): a `with` block runs it.
    `log` has each request's arrival (time.time()) and service; `handling` the seconds
    each answer took to write."""

    def __init__(self, papers: Sequence[Fake]) -> None:
        self.answers = {(paper.service, paper.key): paper for paper in papers}
        self.log: list[tuple[float, str]] = []
        self.handling: list[float] = []
        services = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # (headers and body go out at once)

            def do_GET(self) -> None:  # (the stdlib's name)
                services.answer(self)

            def log_message(self, *_args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def find(self, target: str) -> tuple[str, Fake | None]:
        """The service a request's path and query go to, and the paper asked for."""
        parts = urlsplit(target)
        query = {name: values[0] for name, values in parse_qs(parts.query).items()}
        if parts.path.startswith("/works/"):
            return "crossref", self.answers.get(
                ("crossref", unquote(parts.path[len("/works/"):]).lower()))
        if parts.path == "/api/query":
            key = query.get("id_list", "").rsplit("v", 1)[0]
            return "arxiv", self.answers.get(("arxiv", key))
        if parts.path == "/notes":
            return "openreview", self.answers.get(("openreview", query.get("id", "")))
        return "other", None

    def answer(self, request: BaseHTTPRequestHandler) -> None:
        start = time.perf_counter()
        service, paper = self.find(request.path)
        self.log.append((time.time(), service))
        body = paper.body if paper is not None else b"Resource not found."
        request.send_response(200 if paper is not None else 404)
        request.send_header("Content-Type", paper.content_type if paper else "text/plain")
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)
        self.handling.append(time.perf_counter() - start)

    def asked(self, start: float, end: float) -> list[str]:
        """The services asked from `start` to `end` (time.time()), in order."""
        return [service for moment, service in self.log if start <= moment <= end]

    def __enter__(self) -> LocalServices:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def rate_limit_floor(asked: Sequence[str], spacing: Mapping[str, float]) -> float:
    """Seconds the spacing alone makes the requests `asked` (their services, in order,
    one after the other as the job sends them) take from the first to the last, were
    each answered at once: a request starts when the one before it did, or once its
    service's spacing since that service's last request has passed, whichever is later
    (as `ServiceClient` paces them)."""
    now = 0.0
    free: dict[str, float] = {}
    for service in asked:
        now = max(now, free.get(service, now))
        free[service] = now + spacing.get(service, 0.0)
    return now


# -- the figure (in the bench process) -----------------------------------------------------


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception], stall_target: float) -> None:
    """Figure 11's rows on `libs` (library files): `bench` is the run's `Bench`,
    `repeat` and `failed` its `repeat` and `ChildFailed`."""
    plan, run, report = bench.plan, bench.run, bench.report
    count = COUNTS[plan.name]
    papers = fakes(count)
    mix = Counter(paper.service for paper in papers)
    n = f"{count:,}"
    limited = f"11. Add {n} identifiers in the window, rate limits on"
    core = f"11. Add {n} identifiers, no window, rate limits off"
    free = f"11. Add {n} identifiers in the window, rate limits off"
    r = report.row
    wall = r(f"{limited} ({mix['crossref']} DOIs, {mix['openreview']} OpenReview, "
             f"{mix['arxiv']} arXiv; {bench.mid_n} papers): wall time", "s")
    floor = r(f"{limited}: the floor the rate limits impose", "s")
    overhead = r(f"{limited}: our overhead per paper above the floor", "ms",
                 PER_PAPER_TARGET_MS)
    stall = r(f"{limited}: longest event-loop stall", "ms", stall_target)
    shown = r(f"{limited}: to all rows shown", "s")
    each = r(f"{core}: per paper (look-up, parse, match, write)", "ms", PER_PAPER_TARGET_MS)
    added = r(f"{core}: papers added", "", count, exact=True)
    again = r(f"{core}, again: already had", "", count, exact=True)
    doubled = r(f"{core}, again: papers duplicated", "", 0, exact=True)
    free_stall = r(f"{free}: longest event-loop stall", "ms")
    free_shown = r(f"{free}: to all rows shown", "s")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    bench.log(f"11. adding {count} identifiers (load average {load})…")
    notes = report.notes

    with LocalServices(papers) as server, tempfile.TemporaryDirectory(
            prefix="identifiers-", dir=run.scratch) as folder:
        ids = Path(folder) / "identifiers.txt"
        ids.write_text("\n".join(paper.text for paper in papers) + "\n", encoding="utf-8")

        def child(command: str, *extra: str) -> dict[str, Any]:
            cache = tempfile.mkdtemp(prefix="http-cache-", dir=folder)  # a cold cache
            result: dict[str, Any] = run.run(
                MODULE, command, "--library", libs.fresh(plan.mid), "--server", server.url,
                "--ids", str(ids), "--cache", cache, "--timeout", f"{plan.timeout / 2:.0f}",
                *extra)[0]
            if result["added"] != count:
                raise failed(f"{command}: {result['added']} of {count} papers added; "
                             f"failures: {result['failures']}")
            return result

        def stalled(result: dict[str, Any]) -> None:
            limits = "on" if any(result["spacing"].values()) else "off"
            notes.append(
                f"adding identifiers in the window, rate limits {limits}: the longest stall "
                f"began {result['stall_at_seconds']:.1f} s after Add; the job's report came "
                f"at {result['seconds']:.1f} s")

        def with_limits(_n: int) -> None:
            result = child("window", "--rate-limits")
            asked = server.asked(result["start_wall"], result["end_wall"])
            least = rate_limit_floor(asked, result["spacing"])
            wall.values.append(result["seconds"])
            floor.values.append(least)
            overhead.values.append((result["seconds"] - least) / count * 1000)
            stall.values.append(result["max_stall_ms"])
            shown.values.append(result["shown_seconds"])
            spacing = ", ".join(f"{name} {result['spacing'][name]:g} s"
                                for name in SERVICES_USED)
            notes.append(
                f"adding identifiers: the rate limits are the spacing configured between two "
                f"requests to a service (metadata/settings.py: {spacing}); the floor is what "
                f"it alone imposes on the job's {len(asked)} requests, sent one after "
                f"another in its order, were each answered at once; the job's wall time is "
                f"from Add to its report (papers written)")
            stalled(result)

        def without_limits(_n: int) -> None:
            result = child("core", "--again")
            each.values.append(result["seconds"] / count * 1000)
            added.values.append(float(result["added"]))
            again.values.append(float(result["again"]["already"]))
            doubled.values.append(float(result["again"]["papers"] - result["papers"]))
            notes.append(
                f"adding identifiers, rate limits off, no window: "
                f"{result['lookup_seconds']:.2f} s looking up, {result['write_seconds']:.2f} s "
                f"writing; again: {result['again']['seconds']:.2f} s, added "
                f"{result['again']['added']}, completed {result['again']['completed']}")

        def window_without_limits(_n: int) -> None:
            result = child("window")
            free_stall.values.append(result["max_stall_ms"])
            free_shown.values.append(result["shown_seconds"])
            stalled(result)

        repeat(plan, with_limits, (wall, floor, overhead, stall, shown), repeats=1)
        repeat(plan, without_limits, (each, added, again, doubled))
        repeat(plan, window_without_limits, (free_stall, free_shown))
        if server.handling:
            notes.append(
                f"adding identifiers: a local server on 127.0.0.1 in the bench process "
                f"answered {len(server.handling)} requests (Crossref, arXiv and OpenReview "
                f"shapes of tests/data/services), median "
                f"{statistics.median(server.handling) * 1000:.2f} ms each (counted in our "
                f"time); load average at the start {load}")


# -- the measurements (child processes) --------------------------------------------------


def local_only(server: str) -> None:
    """Every service's root is `server`, no proxy, no key, online (for this process)."""
    from papershelf.metadata.settings import OFFLINE_ENV, SERVICES

    for service in SERVICES.values():
        if service.default_url:
            os.environ[service.url_env] = server
        os.environ.pop(service.key_env, None)
    for name in (*PROXIES, OFFLINE_ENV):
        os.environ.pop(name, None)


def http_settings(cache: Path, rate_limits: bool) -> Any:
    """The client's settings: a cache of its own, online, no contact address and no key
    (the keyring is not asked), no proxy; the services' spacing, or none."""
    from papershelf.metadata.http import SERVICES, HttpSettings

    return HttpSettings(cache_dir=cache, offline=False, contact="", keys=lambda _name: None,
                        trust_env=False,
                        spacing={} if rate_limits else {name: 0.0 for name in SERVICES})


def spacing_of(settings: Any) -> dict[str, float]:
    """The seconds between two requests to each service used, as the client paces them."""
    from papershelf.metadata.http import make_client

    with make_client(replace(settings, use_cache=False)) as client:
        return {name: client.spacing(name) for name in SERVICES_USED}


def add_all(library_path: str, text: str, settings: Any) -> dict[str, Any]:
    """Read `text` into identifiers, look them all up and add them in one write, as the
    window's job does (`Operations.add_identifiers`); its times and outcome."""
    from papershelf.core.library import Library
    from papershelf.metadata import adding
    from papershelf.metadata.http import make_client
    from papershelf.metadata.identifiers import parse_many

    library = Library.open(library_path)
    try:
        start_wall, start = time.time(), time.perf_counter()
        wanted = parse_many(text)
        with make_client(settings) as client:
            looked = adding.look_up_all(wanted, client)
        looked_wall, looked_at = time.time(), time.perf_counter()
        done = adding.add_found(library, looked)
        end = time.perf_counter()
        return {"seconds": end - start, "lookup_seconds": looked_at - start,
                "write_seconds": end - looked_at, "start_wall": start_wall,
                "end_wall": looked_wall, "added": done.count("added"),
                "completed": done.count("completed"), "already": done.count("already"),
                "failures": [item.failure for item in looked if item.error][:5],
                "papers": library.counts().all}
    finally:
        library.close()


def add_in_window(library_path: str, text: str, settings: Any, timeout: float
                  ) -> dict[str, Any]:
    """Open the window on the library and add `text`'s identifiers as File > Add by
    Identifier does: the job's seconds from Add to its report, to the first paint
    showing every paper added, and the longest gap between event-loop ticks from Add
    until the window has settled (the papers added selected), and when it began."""
    from papershelf.metadata.identifiers import parse_many
    from tests.bench.probe import Heartbeat, Probe

    with tempfile.TemporaryDirectory(prefix="papershelf-probe-") as folder:
        probe = Probe(library_path, folder)
        try:
            probe.show()
            probe.settle()
            adder = probe.window.adder
            adder.settings = settings
            outcomes: list[Any] = []
            adder.finished.connect(outcomes.append)
            before = probe.model.rowCount()
            wanted = parse_many(text)
            with Heartbeat() as heartbeat:
                start_wall, start = time.time(), time.perf_counter()
                adder.add(wanted)
                probe.wait(lambda: bool(outcomes), timeout, "the add job")
                end_wall, finished = time.time(), time.perf_counter()
                result = outcomes[0].result
                new = result.count("added") if result is not None else 0
                shown = probe.paint_after(
                    start, lambda: probe.model.rowCount() >= before + new, timeout,
                    "the rows added")
                probe.settle(timeout)
                end = time.perf_counter()
            points = [start, *heartbeat.beats(start, end), end]
            gap, at = max((b - a, a - start) for a, b in pairwise(points))
            return {"seconds": finished - start, "shown_seconds": shown,
                    "max_stall_ms": gap * 1000, "stall_at_seconds": at,
                    "start_wall": start_wall, "end_wall": end_wall, "added": new,
                    "failures": outcomes[0].failures()[:5]}
        finally:
            probe.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}")
    parser.add_argument("what", choices=("core", "window"))
    parser.add_argument("--library", required=True, help="a library file")
    parser.add_argument("--server", required=True, help="the local server's root URL")
    parser.add_argument("--ids", required=True, help="a file of identifiers, one a line")
    parser.add_argument("--cache", required=True, help="the HTTP cache's folder")
    parser.add_argument("--rate-limits", action="store_true",
                        help="keep the services' spacing between requests (default: none)")
    parser.add_argument("--again", action="store_true",
                        help="core: then add the same identifiers once more")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="window: seconds for any single wait (default: 120)")
    args = parser.parse_args(argv)
    if urlsplit(args.server).hostname != "127.0.0.1":
        raise SystemExit("the server must be on 127.0.0.1")
    text = Path(args.ids).read_text(encoding="utf-8")
    local_only(args.server)
    settings = http_settings(Path(args.cache), args.rate_limits)
    if args.what == "core":
        result = add_all(args.library, text, settings)
        if args.again:
            result["again"] = add_all(args.library, text,
                                      http_settings(Path(args.cache), False))
    else:
        from tests.bench.probe import _crash

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        sys.excepthook = _crash
        result = add_in_window(args.library, text, settings, args.timeout)
    result["spacing"] = spacing_of(settings)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
