"""Figure 20 of `make bench`: checking 50 followed feeds of 2,000 new items each against
a 100k-paper library, and the inbox deduplicated and ranked.

    python -m tests.bench.feeds --library PATH [--sources N] [--items N] [--json]

The child opens a copy of the library, stars a tenth of its papers (what the ranking
learns from), follows `sources` Atom feeds served by a local HTTP server on 127.0.0.1 (a
thread of the child) and checks them all as `follow check` does (feeds.inbox.check).
Each feed has `items` entries: titles and abstracts drawn from the words of the ICML 2024
catalog (../shared/data/icml2024-paperlists.json, read where it is) and the synthetic
vocabulary; a twentieth of the entries are library papers again (by DOI, arXiv page or
title, in turn) and a tenth are in another feed too, so the inbox has duplicates to drop.
One check keeps at most `fetching.MAX_ITEMS` of a feed's answer (200: its newest); the
child raises that bound to `items`, so every entry is deduplicated and ranked.

The figure: the time from the last feed's answer (its body read) to the inbox listed
best first (feeds.inbox.items, the ranking model learnt beforehand as the window keeps
it: a check does not change what the model learns from). Training the model on the
100k library is figure 17's last row; the time the child takes to learn it from the
library (reading it included) is reported here as information.

    python -m tests.bench.feeds --window --library PATH [--sources N] [--items N]
                                [--inbox-shown]

The window's row: the real window open on the library (its papers shown, no check on a
schedule; with `--inbox-shown`, its empty inbox, which the check's items then fill), the
same feeds served by a process of their own (`--serve`), Check Now triggered as the
user does; the longest gap between event-loop ticks (every 10 ms) from then until the
sidebar lists the whole inbox, with the five longest gaps and garbage collections (when,
how long), the process's CPU time and its peak memory as notes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

MODULE = "tests.bench.feeds"
CATALOG = (Path(__file__).resolve().parents[2].parent / "shared" / "data"
           / "icml2024-paperlists.json")
SOURCES = 50
ITEMS = {"full": 2000, "quick": 200}  # entries of each feed, by benchmark mode
RANKED_TARGET_S = 2.0  # the last answer → the inbox deduplicated and ranked
STALL_TARGET_MS = 100.0  # the window's longest event-loop stall during a check
SEED = 20
AGAIN_EVERY = 20  # one entry in this many is a library paper
SHARED_EVERY = 10  # one entry in this many is in another feed too


def vocabulary() -> list[str]:
    """The words of the ICML 2024 catalog's titles (and keywords), in catalog order."""
    with CATALOG.open(encoding="utf-8") as handle:
        entries = json.load(handle)
    words: list[str] = []
    for entry in entries:
        for field in ("title", "keywords", "primary_area"):
            words.extend(w for w in str(entry.get(field, "")).replace(";", " ").split()
                         if w.isalpha())
    return words


class Feeds:
    """The `sources` Atom feeds, made once (deterministic for the seed)."""

    def __init__(self, sources: int, items: int, library: list[tuple[str, str, str]]
                 ) -> None:
        rnd = random.Random(SEED)
        words = vocabulary()
        now = datetime.now(timezone.utc)
        made: list[list[str]] = [[] for _ in range(sources)]
        shared: list[str] = []
        for feed in range(sources):
            for n in range(items):
                number = feed * items + n
                if n % SHARED_EVERY == 5 and shared:
                    made[feed].append(rnd.choice(shared))  # (a paper of another feed)
                    continue
                if n % AGAIN_EVERY == 3 and library:
                    title, doi, arxiv = library[number % len(library)]
                    entry = self._entry(number, title, rnd, words, now, doi=doi,
                                        arxiv=arxiv, again=number // AGAIN_EVERY % 3)
                else:
                    title = " ".join(rnd.choices(words, k=rnd.randint(6, 12))).capitalize()
                    entry = self._entry(number, title, rnd, words, now)
                made[feed].append(entry)
                if n % SHARED_EVERY == 1:
                    shared.append(entry)
        self.bodies = [self._feed(feed, entries).encode("utf-8")
                       for feed, entries in enumerate(made)]
        self.last_sent = 0.0  # (perf_counter when the last answer was sent in full)
        self.last_cpu = 0.0  # (and the process's CPU time then)
        self.sent = 0

    @staticmethod
    def _entry(number: int, title: str, rnd: random.Random, words: list[str],
               now: datetime, doi: str = "", arxiv: str = "", again: int = -1) -> str:
        abstract = " ".join(rnd.choices(words, k=rnd.randint(90, 180)))
        authors = "".join(f"<author><name>{escape(rnd.choice(words).title())} "
                          f"{escape(rnd.choice(words).title())}</name></author>"
                          for _ in range(rnd.randint(1, 8)))
        link = f"https://example.org/paper/{number}"
        extra = ""
        if again == 0 and doi:
            extra = f"<prism:doi>{escape(doi)}</prism:doi>"
        elif again == 1 and arxiv:
            link = f"https://arxiv.org/abs/{arxiv}"
        published = (now - timedelta(minutes=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        return (f"<entry><id>urn:bench:{number}</id><title>{escape(title)}</title>"
                f"<link href=\"{escape(link)}\"/>{extra}<published>{published}</published>"
                f"<updated>{published}</updated>{authors}"
                f"<summary>{escape(abstract)}</summary></entry>")

    @staticmethod
    def _feed(feed: int, entries: list[str]) -> str:
        return ("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                "<feed xmlns=\"http://www.w3.org/2005/Atom\" "
                "xmlns:prism=\"http://prismstandard.org/namespaces/basic/2.0/\">"
                f"<title>Bench feed {feed}</title><id>urn:bench:feed:{feed}</id>"
                f"<updated>{datetime.now(timezone.utc):%Y-%m-%dT%H:%M:%SZ}</updated>"
                + "".join(entries) + "</feed>")

    def serve(self) -> tuple[ThreadingHTTPServer, str]:
        """A server of the feeds on 127.0.0.1 (in a thread), and its root URL."""
        feeds = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                try:
                    body = feeds.bodies[int(self.path.strip("/").split(".")[0])]
                except (ValueError, IndexError):
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/atom+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                feeds.last_sent = time.perf_counter()
                feeds.last_cpu = time.process_time()
                feeds.sent += 1

            def log_message(self, *_args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server, f"http://127.0.0.1:{server.server_address[1]}"


def library_papers(library: Any, count: int) -> list[tuple[str, str, str]]:
    """(title, DOI, arXiv id) of `count` of the library's papers, spread through it."""
    from sqlalchemy import select

    from papershelf.core.models import Paper

    with library.context.read() as session:
        rows = session.execute(select(Paper.title, Paper.doi).order_by(Paper.id)).all()
    step = max(1, len(rows) // max(count, 1))
    return [(title, doi or "", f"2401.{n:05d}") for n, (title, doi) in
            enumerate(rows[::step][:count])]


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def measure(library_path: str, sources: int, items: int) -> dict[str, Any]:
    """The child's measurements (seconds)."""
    from sqlalchemy import select

    from papershelf.core.gcpause import young_collections_only
    from papershelf.core.library import Library
    from papershelf.core.models import Paper
    from papershelf.feeds import fetching, inbox
    from papershelf.feeds import sources as followed
    from papershelf.feeds.learning import model_of
    from papershelf.metadata.http import make_client
    from papershelf.metadata.settings import HttpSettings

    fetching.MAX_ITEMS = items  # (every entry of a feed kept: see the docstring)
    library = Library.open(library_path)
    try:
        with library.context.read() as session:
            ids = list(session.scalars(select(Paper.id).order_by(Paper.id)))
        library.set_starred(ids[::10], True)
        feeds = Feeds(sources, items, library_papers(library, items * sources
                                                     // AGAIN_EVERY))
        server, root = feeds.serve()
        for n in range(sources):
            followed.follow(library.context, f"{root}/{n}.xml")
        model, learn_s = timed(lambda: model_of(library))
        settings = HttpSettings(offline=False, use_cache=False, spacing={"web": 0.0},
                                max_bytes=64 * 1024 * 1024)
        try:
            with make_client(settings) as client:
                checked, check_s = timed(lambda: inbox.check(library, client))
            checked_at = time.perf_counter()
            with young_collections_only():  # (as the window lists it: gui.features.feeds)
                listed, rank_s = timed(lambda: inbox.items(library))
            done_at, done_cpu = time.perf_counter(), time.process_time()
        finally:
            server.shutdown()
            server.server_close()
        failed = [c.note for c in checked if c.failed]
        if failed or feeds.sent != sources:
            raise SystemExit(f"{len(failed)} sources failed ({failed[:2]}), "
                             f"{feeds.sent} of {sources} answered")
        served = sources * items
        return {"papers": len(ids), "served": served, "new": sum(c.new for c in checked),
                "listed": len(listed), "check_s": check_s,
                "after_last_s": done_at - feeds.last_sent,
                "after_last_cpu_s": done_cpu - feeds.last_cpu,
                "store_after_last_s": checked_at - feeds.last_sent, "rank_s": rank_s,
                "learn_s": learn_s, "model_used": model is not None}
    finally:
        library.close()


def serve_main(library_path: str, sources: int, items: int) -> None:
    """`--serve`: the feeds of the window's measurement, served by a process of their own
    (the window's process does the check alone); prints the root URL, then serves until
    its standard input closes."""
    from papershelf.core.library import Library

    library = Library.open(library_path)
    try:
        papers = library_papers(library, items * sources // AGAIN_EVERY)
    finally:
        library.close()
    feeds = Feeds(sources, items, papers)
    server, root = feeds.serve()
    sys.stdout.write(root + "\n")
    sys.stdout.flush()
    sys.stdin.read()
    server.shutdown()
    server.server_close()


def measure_window(library_path: str, sources: int, items: int, *,
                   inbox_shown: bool = False) -> dict[str, Any]:
    """`--window`: the real window open on the library (its papers shown; with
    `inbox_shown`, its inbox, empty, so that the check's items fill the table), the
    feeds checked through Check Now as the user does, until the inbox is listed in the
    sidebar; the longest gap between event-loop ticks meanwhile (milliseconds)."""
    import gc
    import os
    import subprocess
    import tempfile

    from sqlalchemy import select

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from papershelf.core.library import Library
    from papershelf.core.models import Paper
    from papershelf.feeds import fetching
    from papershelf.feeds import sources as followed
    from papershelf.metadata.settings import HttpSettings
    from tests.bench.probe import Heartbeat, Probe, vm_kb

    server = subprocess.Popen(
        [sys.executable, "-m", MODULE, "--serve", "--library", library_path, "--sources",
         str(sources), "--items", str(items)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    try:
        assert server.stdout is not None
        root = server.stdout.readline().strip()
        if not root:
            raise SystemExit("the feeds' server did not start")
        library = Library.open(library_path)
        try:
            with library.context.read() as session:
                ids = list(session.scalars(select(Paper.id).order_by(Paper.id)))
            library.set_starred(ids[::10], True)
            for n in range(sources):
                followed.follow(library.context, f"{root}/{n}.xml")
        finally:
            library.close()
        fetching.MAX_ITEMS = items  # (every entry of a feed kept, as in `measure`)
        with tempfile.TemporaryDirectory(prefix="papershelf-feeds-") as folder:
            # (no check on a schedule: the one measured is Check Now's)
            Path(folder, "settings.ini").write_text("[preferences]\nfeeds_check_hours=0\n",
                                                    encoding="utf-8")
            probe = Probe(library_path, folder)
            try:
                probe.show()
                feature = probe.window.features.feeds
                feature.http = HttpSettings(offline=False, use_cache=False,
                                            spacing={"web": 0.0}, max_bytes=64 * 1024 * 1024)
                probe.wait(lambda: len(feature.sources) == sources, what="the sources")
                if inbox_shown:
                    probe.window.actions["show_inbox"].trigger()
                    probe.wait(lambda: not probe.window.model.showing_papers,
                               what="the inbox shown")
                probe.settle()
                collections: list[tuple[float, float, int]] = []  # (start, end, generation)
                began: list[float] = []

                def collected(phase: str, info: dict[str, int]) -> None:
                    if phase == "start":
                        began.append(time.perf_counter())
                    elif began:
                        collections.append((began.pop(), time.perf_counter(),
                                            info["generation"]))

                gc.callbacks.append(collected)
                with Heartbeat() as heartbeat:
                    start, cpu_start = time.perf_counter(), time.process_time()
                    probe.window.actions["check_feeds"].trigger()
                    probe.wait(lambda: feature.last_check is not None and len(feature.items)
                               == sum(c.new for c in feature.last_check) and (
                                   not inbox_shown or probe.window.model.rowCount()
                                   == len(feature.items)),
                               timeout=1200, what="the check and the inbox listed")
                    end, cpu_end = time.perf_counter(), time.process_time()
                gc.callbacks.remove(collected)
                beats = heartbeat.beats(start, end)
                gaps = sorted(((b - a) * 1000, a - start) for a, b in
                              zip([start, *beats], [*beats, end]))
                failed = [c.note for c in feature.last_check or () if c.failed]
                if failed:
                    raise SystemExit(f"{len(failed)} sources failed ({failed[:2]})")
                return {"window_stall_ms": gaps[-1][0], "window_check_s": end - start,
                        "window_listed": len(feature.items),
                        "window_cpu_s": cpu_end - cpu_start, "window_peak_mb":
                        vm_kb("VmHWM") // 1024, "window_rss_mb": vm_kb("VmRSS") // 1024,
                        "window_stalls": [[round(ms), round(at, 2)] for ms, at in gaps[-5:]],
                        "window_gc": [[round((b - a) * 1000), round(a - start, 2), g]
                                      for a, b, g in sorted(collections, key=lambda c: c[0] - c[1])
                                      [:5]]}
            finally:
                probe.close()
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.wait(30)


ROWS = {
    "after_last_s": ("20. Check {sources} feeds of {items} new items ({papers} papers): "
                     "last answer → inbox deduplicated and ranked", "s", RANKED_TARGET_S),
    "after_last_cpu_s": ("20. The same, CPU time of the process (the wall time less what "
                         "other work on the machine took)", "s", None),
    "store_after_last_s": ("20. The same: last answer → its items stored (read, "
                           "deduplicated)", "s", None),
    "rank_s": ("20. The same: the inbox of {listed} items listed best first", "s", None),
    "check_s": ("20. The same: the whole check, {sources} answers included", "s", None),
    "learn_s": ("20. Ranking model learnt from the {papers}-paper library, reading it "
                "included (training alone: figure 17)", "s", None),
}
WINDOW_ROWS = {
    "window_stall_ms": ("20. The window open on the {papers} papers, the feeds checked "
                        "with Check Now: longest event-loop stall until the inbox is "
                        "listed", "ms", STALL_TARGET_MS),
    "window_check_s": ("20. The same: Check Now → the inbox listed in the window", "s", None),
}


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception]) -> None:
    """Figure 20's rows on `libs`' mid library (100k papers in full mode)."""
    plan, run, report = bench.plan, bench.run, bench.report
    items = ITEMS[plan.name]
    names = {"sources": SOURCES, "items": f"{items:,}", "papers": bench.mid_n,
             "listed": f"{SOURCES * items // 1000}k"}
    rows = {name: report.row(title.format(**names), unit, target)
            for name, (title, unit, target) in ROWS.items()}
    window_rows = {name: report.row(title.format(**names), unit, target)
                   for name, (title, unit, target) in WINDOW_ROWS.items()}
    bench.log(f"20. {SOURCES} feeds of {items:,} items checked on {bench.mid_n} papers…")

    def once(_n: int) -> None:
        result, _ = run.run(MODULE, "--library", libs.fresh(plan.mid), "--json",
                            "--sources", str(SOURCES), "--items", str(items))
        for name, row in rows.items():
            row.values.append(result[name])
        report.notes.append(f"feeds: {result['served']:,} entries served, {result['new']:,} "
                            f"new in the inbox, {result['listed']:,} listed")

    def in_window(_n: int) -> None:
        result, _ = run.run(MODULE, "--window", "--library", libs.fresh(plan.mid), "--json",
                            "--sources", str(SOURCES), "--items", str(items))
        for name, row in window_rows.items():
            row.values.append(result[name])
        report.notes.append("feeds in the window: the longest stalls (ms, at s after Check "
                            "Now): " + ", ".join(f"{ms} at {at}" for ms, at in
                                                 reversed(result["window_stalls"])))

    repeat(plan, once, tuple(rows.values()), repeats=1)
    bench.log(f"20. the same in the window on {bench.mid_n} papers…")
    repeat(plan, in_window, tuple(window_rows.values()), repeats=1)
    if not any(row.values or row.error for row in (*rows.values(), *window_rows.values())):
        raise failed("figure 20 measured nothing")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--library", required=True)
    parser.add_argument("--sources", type=int, default=SOURCES)
    parser.add_argument("--items", type=int, default=ITEMS["full"])
    parser.add_argument("--json", action="store_true", help="the values as one JSON line")
    parser.add_argument("--window", action="store_true",
                        help="measure the window's stall during a check (Check Now)")
    parser.add_argument("--inbox-shown", action="store_true",
                        help="with --window: the inbox shown in the table, not the papers")
    parser.add_argument("--serve", action="store_true",
                        help="serve the feeds (for --window), until stdin closes")
    args = parser.parse_args(argv)
    if args.serve:
        serve_main(args.library, args.sources, args.items)
        return 0
    found = (measure_window(args.library, args.sources, args.items,
                            inbox_shown=args.inbox_shown) if args.window
             else measure(args.library, args.sources, args.items))
    sys.stdout.write((json.dumps(found) if args.json else json.dumps(found, indent=1)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
