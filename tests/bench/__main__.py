"""`make bench`: measure Papershelf's speed and memory goals and print a results table.

    python -m tests.bench [--quick] [--only 1,4] [--backend both|sqlite|postgresql]
                          [--repeats N] [--cache-dir DIR]

Full mode works on synthetic libraries of 38, 100,000 and 1,000,000 papers, a
100,000-entry .bib file and a 100,000-paragraph abstract list; `--quick` uses 38 / 2,000 /
20,000 (a smoke test of the benchmark, not of the goals). Inputs are generated once and
cached (tests/bench/data.py says where; the first full run spends about 10 minutes
generating them). The window is measured in separate processes (tests/bench/probe.py,
offscreen), the core in worker processes (tests/bench/worker.py); every ratio is taken
between measurements of the same run, interleaved. Each figure runs a few times (fewer when
a figure is slow: each has a time budget); the table gives the median, min-max, the target
and PASS/FAIL on the median (on the p95 for search and live updates). The table and the
machine are also written to tests/bench/last-results.md.

Figures 1-8 are measured on library files (SQLite); then figures 1-7 again on the same
libraries copied onto a PostgreSQL server the benchmark starts and stops itself
(tests/bench/postgres.py), in rows ending "(PostgreSQL)", and the shared library's own
figures: 9, live updates between two windows, and 10, eight command-line writers at
once; and 11, adding 1,000 identifiers against a local server (tests/bench/identifiers.py),
on library files; 12, a search's first page best match first (tests/bench/bestmatch.py);
13, auto-exports kept current (tests/bench/autoexport.py), and 14, RIS and zotero.sqlite
imports (tests/bench/interchange.py), on library files; 15, saved searches' counts after an
edit (tests/bench/savedcounts.py); 16, formatted bibliographies of 1,000 papers in each
citation style (tests/bench/citations.py, no library); 17, the inbox's ranking: its
quality on the ICML 2024 catalog against recency, and training on a 100,000-paper library
(tests/bench/ranking.py, no library); 18, the reader: a paper opened and a
500-page PDF scrolled (tests/bench/reader.py, no library); 19, searching 100,000
annotations (`ann:` and plain words) and a paper's 1,000 annotations read
(tests/bench/annotations.py); 20, 50 followed feeds of 2,000
new items each checked against the 100,000-paper library, to the inbox deduplicated and
ranked (tests/bench/feeds.py, a local server, on library files). The rows are shown by
figure, library files first.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tests.bench import (
    annotations,
    autoexport,
    bestmatch,
    citations,
    feeds,
    identifiers,
    interchange,
    postgres,
    ranking,
    reader,
    savedcounts,
)
from tests.bench.data import Cache, cache_root

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS_FILE = HERE / "last-results.md"
FIGURES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
FILE_ONLY = (8, 11, 13, 14, 16, 17, 18, 20)  # measured on library files only (16-18: none)
SERVER_ONLY = (9, 10)  # figures of a shared library (PostgreSQL) only
BARE_RATIO = 2.0  # start-up to painted rows at most this times a bare PySide6 window's
STALL_TARGET_MS = 100.0  # "keeps painting": no event-loop gap a user would notice
LIVE_TARGET_MS = 300.0  # a change made elsewhere shows within this (p95)
LIVE_ROWS = 10  # rows of the watching window whose stars change
WRITERS = 8  # command-line processes writing at once (figure 10)


@dataclass(frozen=True)
class Plan:
    """Sizes, repetitions and time budgets of one benchmark mode."""

    name: str
    small: int  # the sample library's size
    mid: int  # import, export
    big: int  # start-up, search, scrolling, bulk edits, memory
    bulk: int  # rows selected for the bulk edits
    kills: int  # crash harness kills (figure 8)
    repeats: int  # runs per figure, at most
    startup_repeats: int  # start-up pairs (38, big), at most
    budget: float  # seconds per figure after which no further run starts (min. 1 run)
    timeout: float  # seconds for one child process
    queries: int  # search queries per run (of the probe's 30)
    live_changes: int  # stars committed in one window, watched in the other (figure 9)
    live_gap: float  # seconds between them
    writing: float  # seconds the command-line writers write (figure 10)
    edits: int  # one-field edits timed (figure 6)


FULL = Plan("full", 38, 100_000, 1_000_000, 100_000, 50, repeats=3, startup_repeats=5,
            budget=240, timeout=1200, queries=30, live_changes=60, live_gap=0.5, writing=60,
            edits=30)
QUICK = Plan("quick", 38, 2_000, 20_000, 5_000, 6, repeats=1, startup_repeats=2, budget=4,
             timeout=180, queries=10, live_changes=10, live_gap=0.3, writing=6,
             edits=10)


def count_label(n: int) -> str:
    """1000000 -> '1M', 100000 -> '100k', 38 -> '38'."""
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


# -- results ------------------------------------------------------------------------------


@dataclass
class Row:
    """One figure of the table: its samples and its target."""

    figure: str
    unit: str  # "s", "ms", "MB", "x" (a ratio), "" (a count), "yes" (a check), "/s"
    target: float | None = None  # None: information only
    exact: bool = False  # the target is "= target" instead of "<= target"
    values: list[float] = field(default_factory=list)
    error: str | None = None

    @property
    def measured(self) -> bool:
        return bool(self.values)

    def value(self) -> float:
        return statistics.median(self.values)

    def status(self) -> str:
        if self.error and not self.values:
            return "ERROR"
        if not self.values:
            return "not measured"
        if self.target is None:
            return "info"
        if self.exact:
            return "PASS" if all(v == self.target for v in self.values) else "FAIL"
        return "PASS" if self.value() <= self.target else "FAIL"

    def show(self, value: float) -> str:
        if self.unit == "yes":
            return "yes" if value else "no"
        if self.unit == "x":
            return f"{value:.2f}x"
        if self.unit == "":
            return f"{value:g}"
        if self.unit == "MB":
            return f"{value:.0f} MB"
        if self.unit == "/s":
            return f"{value:.1f}/s"
        if self.unit == "ms":
            return f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"
        return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"

    def cells(self) -> list[str]:
        if not self.values:
            median = spread = "—"
        elif self.unit == "yes":
            median = self.show(min(self.values))
            spread = f"{sum(1 for v in self.values if v)}/{len(self.values)} yes"
        else:
            median = self.show(self.value())
            spread = (f"{self.show(min(self.values))} – {self.show(max(self.values))}"
                      if len(self.values) > 1 else "(1 run)")
        if self.target is None:
            target = "—"
        elif self.unit == "yes":
            target = "yes"
        else:
            target = ("= " if self.exact else "≤ ") + self.show(self.target)
        return [self.figure, median, spread, target, self.status()]


class Report:
    """The rows in table order, and notes."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.notes: list[str] = []

    def row(self, figure: str, unit: str, target: float | None = None,
            exact: bool = False) -> Row:
        row = Row(figure, unit, target, exact)
        self.rows.append(row)
        return row

    def by_figure(self) -> None:
        """Order the rows by figure number (stable: within a figure, as measured)."""
        def number(row: Row) -> int:
            head = row.figure.split(".", 1)[0]
            return int(head) if head.isdigit() else 0

        self.rows.sort(key=number)

    def markdown(self) -> str:
        head = ["Figure", "Median", "Min – max", "Target", "Result"]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for row in self.rows:
            lines.append("| " + " | ".join(row.cells()) + " |")
        return "\n".join(lines)


# -- running children ------------------------------------------------------------------


class ChildFailed(Exception):
    """A probe or worker process failed or hung."""


class Runner:
    """Starts probe and worker processes with a clean, offscreen environment."""

    def __init__(self, plan: Plan, scratch: Path, verbose: bool) -> None:
        self.plan = plan
        self.scratch = scratch
        self.verbose = verbose
        env = dict(os.environ)
        env["QT_QPA_PLATFORM"] = "offscreen"
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
            env[var] = str(scratch / "home" / var.lower())  # no user settings or logs
        env.pop("PAPERSHELF_LIBRARY", None)
        for var in [v for v in env if v.startswith("PG")]:
            del env[var]  # no PGHOST, PGPASSWORD… of the user's reaches a library URL
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
        self.env = env
        self.after_failure: Callable[[], None] = lambda: None  # what a failed child left

    def run(self, module: str, *args: str) -> tuple[dict[str, Any], float]:
        """Run `python -m module args`; its JSON result and the wall time.time() at start."""
        command = [sys.executable, "-m", module, *args]
        started = time.time()
        try:
            done = subprocess.run(command, env=self.env, cwd=ROOT, capture_output=True,
                                  text=True, timeout=self.plan.timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            self.after_failure()
            raise ChildFailed(f"{' '.join(command[2:])}: no result in "
                              f"{self.plan.timeout:.0f} s") from exc
        return self.result(command, done.returncode, done.stdout, done.stderr), started

    def result(self, command: list[str], status: int, stdout: str, stderr: str
               ) -> dict[str, Any]:
        """A child's JSON result (its last line), or ChildFailed."""
        if status != 0 or not stdout.strip():
            self.after_failure()
            tail = "\n".join(stderr.strip().splitlines()[-12:])
            raise ChildFailed(f"{' '.join(command[2:])} exited with {status}:\n{tail}")
        result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
        if self.verbose:
            sys.stderr.write(f"  {' '.join(command[2:])}: {json.dumps(result)[:400]}\n")
        return result

    def probe(self, what: str, library: str, *extra: str) -> tuple[dict[str, Any], float]:
        """A probe (a window) on `library`, a file's path or a URL."""
        return self.run("tests.bench.probe", what, "--library", library, *extra)

    def live(self, library: str, changes: int, gap: float, timeout: float
             ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Two windows on the shared `library`: one watching (`live-watch`), started first
        and left to settle, then one starring its papers (`live-write`); both results."""
        ready, stop = self.scratch / "live-ready.json", self.scratch / "live-stop"
        for leftover in (ready, stop):
            leftover.unlink(missing_ok=True)
        command = [sys.executable, "-m", "tests.bench.probe", "live-watch", "--library",
                   library, "--ready", str(ready), "--stop", str(stop), "--rows",
                   str(LIVE_ROWS), "--changes", str(changes), "--timeout", f"{timeout:.0f}"]
        with subprocess.Popen(command, env=self.env, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) as watcher:
            try:
                deadline = time.perf_counter() + self.plan.timeout
                while not ready.exists() and watcher.poll() is None:
                    if time.perf_counter() > deadline:
                        raise ChildFailed(f"live-watch: not ready in {self.plan.timeout:.0f} s")
                    time.sleep(0.05)
                if not ready.exists():
                    _, err = watcher.communicate()
                    self.result(command, watcher.returncode or 1, "", err)
                shown = json.loads(ready.read_text())
                try:
                    written = self.run("tests.bench.probe", "live-write", "--library",
                                       library, "--ids", json.dumps(shown["ids"]),
                                       "--changes", str(changes), "--gap", str(gap),
                                       "--timeout", f"{timeout:.0f}")[0]
                finally:
                    stop.touch()
                try:
                    out, err = watcher.communicate(timeout=self.plan.timeout)
                except subprocess.TimeoutExpired as exc:
                    raise ChildFailed(f"live-watch: no result in {self.plan.timeout:.0f} s "
                                      "after the writing window was done") from exc
                watched = self.result(command, watcher.returncode, out, err)
            finally:
                if watcher.poll() is None:
                    watcher.kill()
                    self.after_failure()
        return watched, written

    def worker(self, what: str, *args: str) -> dict[str, Any]:
        return self.run("tests.bench.worker", what, *args)[0]

    def copy(self, library: Path) -> Path:
        """A fresh copy of a library file for a measurement that writes to it."""
        target = self.scratch / f"copy-{library.name}"
        for leftover in self.scratch.glob(target.name + "*"):
            leftover.unlink()
        shutil.copyfile(library, target)
        return target


def repeat(plan: Plan, body: Callable[[int], None], rows: Sequence[Row],
           repeats: int | None = None, budget: float | None = None) -> None:
    """Run `body(n)` up to `repeats` times, stopping early once the time budget is spent;
    a failing run is recorded on `rows` (the figure shows ERROR if none succeeded)."""
    repeats = plan.repeats if repeats is None else repeats
    budget = plan.budget if budget is None else budget
    start = time.perf_counter()
    for n in range(repeats):
        try:
            body(n)
        except ChildFailed as exc:
            for row in rows:
                row.error = str(exc)
            sys.stderr.write(f"  failed: {exc}\n")
            return
        if time.perf_counter() - start > budget:
            break


# -- where the libraries are ------------------------------------------------------------------


class Libraries(Protocol):
    """The synthetic libraries of a figure: library files, or databases on a server.

    A library is named by what `papershelf --library` takes: a file's path or a URL.
    """

    name: str  # "SQLite", "PostgreSQL"
    suffix: str  # appended to the names of the figures measured on these libraries
    startup_ratio: float  # the target of start-up at the big size / the small size
    import_ratio: float  # the target of the import / bibtexparser's parse

    def library(self, count: int) -> str:
        """A library of `count` synthetic papers, as generated (do not write to it)."""

    def fresh(self, count: int) -> str:
        """A new copy of it, for a measurement that writes."""

    def discard(self, count: int) -> None:
        """It is no longer as generated (a write was not undone): never use it again."""


class FileLibraries:
    """The cached library files (SQLite), and copies in the scratch folder."""

    name = "SQLite"
    suffix = ""
    startup_ratio = 1.25
    import_ratio = 1.0

    def __init__(self, cache: Cache, runner: Runner, log: Callable[[str], None]) -> None:
        self.cache = cache
        self.runner = runner
        self.log = log

    def path(self, count: int) -> Path:
        """The cached library file, opened once (migrated if the schema moved on)."""
        from papershelf.core.library import Library

        path = self.cache.library(count)
        start = time.perf_counter()
        Library.open(str(path)).close()
        seconds = time.perf_counter() - start
        if seconds > 1:
            self.log(f"  {path.name}: opened (migrated) in {seconds:.1f} s")
        return path

    def library(self, count: int) -> str:
        return str(self.path(count))

    def fresh(self, count: int) -> str:
        return str(self.runner.copy(self.path(count)))

    def discard(self, count: int) -> None:
        path = self.cache.library(count)
        for leftover in path.parent.glob(path.name + "*"):
            leftover.unlink()


# -- the figures ----------------------------------------------------------------------------


class Bench:
    """Every figure, in the issue's order. Figures 1-7 take the libraries to measure on
    (files or a server); the names of their rows end with the libraries' suffix."""

    def __init__(self, plan: Plan, cache: Cache, runner: Runner, report: Report) -> None:
        self.plan = plan
        self.cache = cache
        self.run = runner
        self.report = report
        self.small_n, self.mid_n, self.big_n = count_label(plan.small), \
            count_label(plan.mid), count_label(plan.big)

    def log(self, text: str) -> None:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def note(self, libs: Libraries, text: str) -> None:
        """A note under the table (saying which libraries unless they are files)."""
        self.report.notes.append(f"{libs.name}: {text}" if libs.suffix else text)

    def timeout_args(self, libs: Libraries) -> list[str]:
        """A probe's waits on a server may be long (a query of a big library)."""
        return ["--timeout", f"{self.plan.timeout / 2:.0f}"] if libs.suffix else []

    # 1 -----------------------------------------------------------------------------------
    def startup(self, libs: Libraries) -> None:
        small = libs.library(self.plan.small)
        big = libs.library(self.plan.big)
        r, sfx = self.report, libs.suffix
        small_row = r.row(f"1. Start-up to first painted rows, {self.small_n} papers{sfx}",
                          "s")
        big_row = r.row(f"1. Start-up to first painted rows, {self.big_n} papers{sfx}", "s")
        ratio = r.row(f"1. Start-up ratio {self.big_n} / {self.small_n}{sfx}", "x",
                      libs.startup_ratio)
        # Qt's floor, in the same run: a bare PySide6 window with a table of as many rows
        # (tests/bench/bare.py, beside the probe), started before each pair.
        bare_row = r.row(f"1. Start-up of a bare PySide6 window with a table, "
                         f"{self.small_n} rows{sfx}", "s")
        floor = r.row(f"1. Start-up ratio {self.small_n} papers / bare PySide6 window{sfx}",
                      "x", BARE_RATIO)
        working = r.row(f"1. Start-up to a working window (library open), "
                        f"{self.small_n} papers{sfx}", "s")
        self.log(f"1. start-up{sfx}…")
        # Papershelf's modules compiled, as an installed package has them (pip compiles a
        # wheel's at install; PySide6's are): a start does not compile its sources anew
        # (with PYTHONDONTWRITEBYTECODE set, every start would, 40 ms and more).
        compileall.compile_dir(str(ROOT / "desktop" / "papershelf"), quiet=1)
        # Warm the page cache: both are measured warm.
        for library in (small, big):
            self.run.probe("startup", library)
        self.run.run("tests.bench.bare", "--rows", str(self.plan.small))

        def once(_n: int) -> None:
            result, started = self.run.run("tests.bench.bare", "--rows", str(self.plan.small))
            times = [result["first_paint_wall"] - started]
            for library in (small, big):
                result, started = self.run.probe("startup", library)
                times.append(result["first_paint_wall"] - started)
                if library == small:
                    working.values.append(result["marks"]["window_built"] - started)
            bare_row.values.append(times[0])
            small_row.values.append(times[1])
            big_row.values.append(times[2])
            ratio.values.append(times[2] / times[1])
            floor.values.append(times[1] / times[0])

        repeat(self.plan, once, (small_row, big_row, ratio, bare_row, floor, working),
               repeats=self.plan.startup_repeats, budget=self.plan.budget * 2)

    # 2 -----------------------------------------------------------------------------------
    def search(self, libs: Libraries) -> None:
        from tests.bench.probe import search_queries

        big = libs.library(self.plan.big)
        queries = search_queries()[:: max(1, 30 // self.plan.queries)][: self.plan.queries]
        r, sfx = self.report, libs.suffix
        p95 = r.row(f"2. Search typed letter by letter, p95 of every keystroke of "
                    f"{len(queries)} queries, {self.big_n} papers{sfx}", "ms", 50)
        median = r.row(f"2. Search typed letter by letter, median keystroke{sfx}", "ms")
        worst = r.row(f"2. Search typed letter by letter, slowest keystroke{sfx}", "ms")
        self.log(f"2. search{sfx} ({len(queries)} queries per run)…")
        slow: dict[str, list[float]] = {}
        # On a server a query may take minutes: no query starts once the budget is spent.
        extra = ["--budget", f"{self.plan.budget:.0f}", *self.timeout_args(libs)] \
            if libs.suffix else []
        answered = []

        def once(_n: int) -> None:
            result, _ = self.run.probe("search", big, "--queries", json.dumps(queries),
                                       *extra)
            answered.append(len(result["queries"]))
            times = sorted(ms for q in result["queries"] for ms in q["keystrokes"])
            p95.values.append(percentile(times, 95))
            median.values.append(statistics.median(times))
            worst.values.append(times[-1])
            for q in result["queries"]:
                slow.setdefault(q["query"], []).append(max(q["keystrokes"]))
                if not q["first_matches"]:
                    self.note(libs, f"search {q['query']!r}: the first row does not contain "
                                    "the query")
            empty = [q["query"] for q in result["queries"] if q["empty"]]
            if empty and _n == 0:
                self.note(libs, f"search: no results for {', '.join(empty)}")

        repeat(self.plan, once, (p95, median, worst), repeats=min(2, self.plan.repeats),
               budget=self.plan.budget * 2)
        if answered and min(answered) < len(queries):
            p95.figure = p95.figure.replace(
                f"of {len(queries)} queries",
                f"of {'/'.join(map(str, answered))} queries (of {len(queries)})")
            self.note(libs, f"search: the runs stopped after {', '.join(map(str, answered))} "
                            f"of the {len(queries)} queries (no query starts once "
                            f"{self.plan.budget:.0f} s have passed)")
        if slow:
            top = sorted(slow.items(), key=lambda kv: -statistics.median(kv[1]))[:5]
            self.note(libs, "search, queries with the slowest keystroke: " + ", ".join(
                f"{q!r} {statistics.median(v):.0f} ms" for q, v in top))

    # 3 -----------------------------------------------------------------------------------
    def scroll(self, libs: Libraries) -> None:
        big = libs.library(self.plan.big)
        r, sfx = self.report, libs.suffix
        rows = {
            "scroll_end": r.row(f"3. Jump to the end of {self.big_n} rows, to paint{sfx}",
                                "ms", 200),
            "sort_title": r.row(f"3. Re-sort {self.big_n} by title, to paint{sfx}", "ms",
                                200),
            "sort_year": r.row(f"3. Re-sort {self.big_n} by year, to paint{sfx}", "ms", 200),
        }
        self.log(f"3. scrolling and sorting{sfx}…")

        def once(_n: int) -> None:
            result, _ = self.run.probe("scroll", big, *self.timeout_args(libs))
            for sample in result["samples"]:
                rows[sample["step"]].values.append(sample["ms"])

        repeat(self.plan, once, tuple(rows.values()))

    # 4 -----------------------------------------------------------------------------------
    def imports(self, libs: Libraries) -> None:
        small = self.plan.small
        libs.library(small)
        bib, abstracts = self.cache.bib(self.plan.mid), self.cache.abstracts(self.plan.mid)
        n = self.mid_n
        r, sfx = self.report, libs.suffix
        # The headline: the command as a user runs it, from its start to its exit, with
        # its papers searchable (it waits for the index), against bibtexparser's parse.
        command_ratio = r.row(f"4. `papershelf import` {n} .bib, index complete / "
                              f"bibtexparser{sfx}", "x", libs.import_ratio)
        command = r.row(f"4. `papershelf import` {n}-entry .bib, process start to exit, "
                        f"index complete{sfx}", "s")
        memory = r.row(f"4. `papershelf import` {n} .bib, peak RSS of the process and its "
                       f"workers{sfx}", "MB", 400)
        theirs = r.row(f"4. bibtexparser.parse_file, {n} entries{sfx}", "s")
        ours = r.row(f"4. Import {n}-entry .bib (Library.import_file){sfx}", "s")
        ratio = r.row(f"4. Import {n} .bib (Library.import_file) / bibtexparser{sfx}", "x")
        indexing = r.row(f"4. Search indexing left after Library.import_file of {n}{sfx}",
                         "s")
        abstract_row = r.row(f"4. Import {n}-paragraph abstract list{sfx}", "s", 20)
        cancel_bib = r.row(f"4. Cancel halfway ({n} .bib): library unchanged{sfx}", "yes", 1)
        cancel_abs = r.row(f"4. Cancel halfway ({n} abstracts): library unchanged{sfx}",
                           "yes", 1)
        self.log(f"4. import{sfx}…")
        # The command as installed: its modules compiled (figure 1 says why), also when
        # this figure runs alone; without them each start compiles some 140 sources again.
        compileall.compile_dir(str(ROOT / "desktop" / "papershelf"), quiet=1)
        if libs.suffix:
            self.note(libs, "import: the peak RSS is Papershelf's processes only (not the "
                            "server's)")

        def bib_once(_n: int) -> None:
            base = self.run.worker("bibtexparser", str(bib))
            run = self.run.worker("command", str(bib), "--library", libs.fresh(small))
            result = self.run.worker("import", str(bib), "--library", libs.fresh(small))
            if result["added"] != self.plan.mid:
                self.note(libs, f"import of {bib.name}: {result['added']} added, "
                                f"{result['failed']} failed")
            if run["pending"] or run["papers"] != small + self.plan.mid:
                raise ChildFailed(f"papershelf import of {bib.name}: {run['summary']}; "
                                  f"{run['papers']} papers, {run['pending']} not searchable")
            command.values.append(run["seconds"])
            command_ratio.values.append(run["seconds"] / base["seconds"])
            memory.values.append(run["tree_peak_mb"])
            theirs.values.append(base["seconds"])
            ours.values.append(result["seconds"])
            ratio.values.append(result["seconds"] / base["seconds"])
            mine, theirs_cpu = run["importer_cpu_seconds"], base["cpu_seconds"]
            # On a quiet machine of 2 cores the command takes about the longer of its
            # importing process's CPU time and half its processes' (the workers read
            # while it writes): its ratio by CPU time, whatever else the machine runs.
            quiet = max(mine, run["cpu_seconds"] / 2) / theirs_cpu
            self.note(
                libs,
                f"papershelf import of {bib.name}, CPU time: {mine:.1f} s in the importing "
                f"process, {run['cpu_seconds'] - mine:.1f} s in its workers; bibtexparser's "
                f"parse {theirs_cpu:.1f} s; on a quiet 2-core machine about {quiet:.2f}x")
            self.note(
                libs,
                f"papershelf import of {bib.name}: {run['seconds']:.1f} s, peak RSS "
                f"{run['tree_peak_mb']:.0f} MB (the process and its workers, sampled every "
                f"20 ms); Library.import_file: peak RSS {result['vmhwm_mb']:.0f} MB in the "
                f"importing process, {result['child_peak_mb']:.0f} MB in the biggest worker")
            indexing.values.append(result["index_seconds"])

        def abstracts_once(_n: int) -> None:
            result = self.run.worker("import", str(abstracts), "--library",
                                     libs.fresh(small))
            abstract_row.values.append(result["seconds"])

        repeat(self.plan, bib_once, (command_ratio, command, memory, theirs, ours, ratio,
                                     indexing))
        repeat(self.plan, abstracts_once, (abstract_row,))
        for row, path, imported in ((cancel_bib, bib, ours), (cancel_abs, abstracts,
                                                              abstract_row)):
            # Halfway by the import's progress; by the clock (at 3/4 of the usual import
            # time) only if progress never gets there.
            after = statistics.median(imported.values) * 0.75 if imported.values else None

            def cancel_once(_n: int, row: Row = row, path: Path = path,
                            after: float | None = after) -> None:
                args = [str(path), "--library", libs.fresh(small)]
                if after is not None:
                    args += ["--after", f"{after:.3f}"]
                result = self.run.worker("cancel", *args)
                row.values.append(1.0 if result["unchanged"] else 0.0)
                self.note(
                    libs,
                    f"cancel of {path.name}: {result['outcome']} after "
                    f"{result['cancel_after_seconds'] or 0:.1f} s at progress "
                    f"{result['progress_at_cancel']}, returned "
                    f"{result['cancel_latency_seconds'] or 0:.2f} s later; papers "
                    f"{result['papers_before']} -> {result['papers_after']}")

            repeat(self.plan, cancel_once, (row,), repeats=1)

    # 5 -----------------------------------------------------------------------------------
    def export(self, libs: Libraries) -> None:
        mid = libs.library(self.plan.mid)
        n = self.mid_n
        r, sfx = self.report, libs.suffix
        ours = r.row(f"5. Export {n} papers (records + write_bibtex){sfx}", "s")
        theirs = r.row(f"5. bibtexparser.write_string, the same {n} entries{sfx}", "s")
        ratio = r.row(f"5. Export {n} / bibtexparser write{sfx}", "x", 1.0)
        self.log(f"5. export{sfx}…")

        def once(_n: int) -> None:
            result = self.run.worker("export", "--library", mid)
            ours.values.append(result["seconds"])
            theirs.values.append(result["bibtexparser_seconds"])
            ratio.values.append(result["seconds"] / result["bibtexparser_seconds"])

        repeat(self.plan, once, (ours, theirs, ratio))

    # 6 -----------------------------------------------------------------------------------
    def bulk(self, libs: Libraries) -> None:
        big = libs.library(self.plan.big)
        n, r, sfx = count_label(self.plan.bulk), self.report, libs.suffix
        rows: dict[str, dict[str, Row]] = {}
        for action, label in (("toggle_star", "Star"), ("mark_read", "Mark read")):
            rows[action] = {
                "seconds": r.row(f"6. {label} {n} selected papers, wall time{sfx}", "s",
                                 1.0),
                "max_stall_ms": r.row(f"6. {label} {n}: longest event-loop stall{sfx}", "ms",
                                      STALL_TARGET_MS),
                "transactions": r.row(f"6. {label} {n}: transactions{sfx}", "", 1,
                                      exact=True),
            }
        self.log(f"6. bulk edits{sfx}…")

        def once(_n: int) -> None:
            result, _ = self.run.probe("bulk", libs.library(self.plan.big), "--count",
                                       str(self.plan.bulk), *self.timeout_args(libs))
            if not result["restored"]:
                # Undo did not give the library back: never measure on it again.
                libs.discard(self.plan.big)
                raise ChildFailed(f"undo did not restore {big}; removed from the "
                                  f"{libs.name} libraries")
            for action, by_key in rows.items():
                for key, row in by_key.items():
                    row.values.append(float(result[action][key]))
                changed = result[action]["papers_changed"]
                if changed != result["selected"] and _n == 0:
                    self.note(libs, f"bulk {action}: {changed} papers changed of "
                                    f"{result['selected']} selected")

        repeat(self.plan, once, [row for d in rows.values() for row in d.values()])
        self.field_edits(libs)

    def field_edits(self, libs: Libraries) -> None:
        """One field (the year) edited in the detail pane, again and again, on the big
        library: Enter to the write landing, and to the table's cell repainted."""
        big = libs.library(self.plan.big)
        r, sfx, edits = self.report, libs.suffix, self.plan.edits
        painted = r.row(f"6. One field edit, Enter to the row repainted, p95 of {edits}, "
                        f"{self.big_n} papers{sfx}", "ms", 50)
        saved = r.row(f"6. One field edit, Enter to saved, p95 of {edits}{sfx}", "ms")

        def once(_n: int) -> None:
            result, _ = self.run.probe("edit", big, "--count", str(edits),
                                       *self.timeout_args(libs))
            if not result["restored"]:
                libs.discard(self.plan.big)
                raise ChildFailed(f"undo did not restore the edited year in {big}; removed "
                                  f"from the {libs.name} libraries")
            for row, key in ((painted, "painted_seconds"), (saved, "saved_seconds")):
                row.values.append(percentile(sorted(result[key]), 95) * 1000)

        repeat(self.plan, once, (painted, saved), repeats=1)

    # 7 -----------------------------------------------------------------------------------
    def memory(self, libs: Libraries) -> None:
        small = libs.library(self.plan.small)
        big = libs.library(self.plan.big)
        r, sfx = self.report, libs.suffix
        small_row = r.row(f"7. Window peak RSS, {self.small_n} papers{sfx}", "MB")
        big_row = r.row(f"7. Window peak RSS, {self.big_n} papers{sfx}", "MB")
        extra = r.row(f"7. Window memory, {self.big_n} minus {self.small_n}{sfx}", "MB", 250)
        self.log(f"7. memory{sfx}…")

        def once(_n: int) -> None:
            peaks = [self.run.probe("memory", lib, *self.timeout_args(libs))[0]["vmhwm_mb"]
                     for lib in (small, big)]
            small_row.values.append(peaks[0])
            big_row.values.append(peaks[1])
            extra.values.append(peaks[1] - peaks[0])

        repeat(self.plan, once, (small_row, big_row, extra))


    # 8 -----------------------------------------------------------------------------------
    def reliability(self, libs: FileLibraries) -> None:
        """Kills survived (tests/crash/harness.py), and backing up the big library while
        the window goes on (library files only)."""
        from tests.crash.harness import build_world, kill_many

        r = self.report
        kills = self.plan.kills
        survived = r.row(f"8. Kills survived of {kills} (random SIGKILLs)", "", kills,
                         exact=True)
        kinds = {"corrupt": r.row("8. Corrupt libraries after a kill", "", 0, exact=True),
                 "partial": r.row("8. Actions left half done", "", 0, exact=True),
                 "lost edits": r.row("8. Lost user edits", "", 0, exact=True),
                 "left": r.row("8. Leftover processes and temporary files", "", 0,
                               exact=True)}
        seconds = r.row(f"8. Back up {self.big_n} papers from the window (in place, "
                        "quick-checked)", "s", 10.0)
        checked = r.row(f"8. Back up {self.big_n}: then the full integrity check", "s")
        stall = r.row(f"8. Back up {self.big_n}: longest event-loop stall (both)", "ms",
                      STALL_TARGET_MS)
        self.log(f"8. reliability: {kills} kills…")
        with tempfile.TemporaryDirectory(prefix="papershelf-crash-") as folder:
            world = build_world(Path(folder), 20_000 if self.plan.name == "full" else 2_000)
            results = kill_many(world, kills, seed=2026)
        survived.values.append(float(sum(1 for k in results if not k.problems)))
        for kind, row in kinds.items():
            row.values.append(float(sum(1 for k in results for p in k.problems
                                        if p.startswith(kind))))
        for k in results:
            for kind, what in k.problems.items():
                self.report.notes.append(f"kill {k.number} ({k.action}): {kind}: {what}")
        big = libs.library(self.plan.big)

        def once(_n: int) -> None:
            result, _ = self.run.probe("backup", big)
            if not result["ok"]:
                raise ChildFailed("the backup from the window did not finish")
            seconds.values.append(result["seconds"])
            checked.values.append(result["check_seconds"])
            stall.values.append(result["max_stall_ms"])

        repeat(self.plan, once, (seconds, checked, stall))

    # 9 -----------------------------------------------------------------------------------
    def live(self, libs: Libraries) -> None:
        """A star committed in one window, to the other window's table showing it: two
        windows (two processes) on the big shared library."""
        big = libs.library(self.plan.big)
        changes, sfx = self.plan.live_changes, libs.suffix
        r = self.report
        p95 = r.row(f"9. Live update, a star committed in one window to the row repainted "
                    f"in the other, p95 of {changes} changes, {self.big_n} papers{sfx}",
                    "ms", LIVE_TARGET_MS)
        median = r.row(f"9. Live update, median change{sfx}", "ms")
        worst = r.row(f"9. Live update, slowest change{sfx}", "ms")
        missed = r.row(f"9. Live update, changes never shown in the other window{sfx}", "",
                       0, exact=True)
        self.log(f"9. live updates{sfx} ({changes} stars, two windows)…")

        def once(_n: int) -> None:
            watched, written = self.run.live(big, changes, self.plan.live_gap,
                                             self.plan.timeout / 2)
            latencies, lost = live_latencies(written["commits"], watched["transitions"])
            if watched["moved"]:
                self.note(libs, f"live updates: rows {watched['moved']} of the watching "
                                "window moved")
            several = [c for c in written["commits"] if c["transactions"] != 1]
            if several:
                self.note(libs, f"live updates: {len(several)} stars were not one "
                                "transaction each")
            missed.values.append(float(lost))
            if latencies:
                times = sorted(latencies)
                p95.values.append(percentile(times, 95))
                median.values.append(statistics.median(times))
                worst.values.append(times[-1])

        repeat(self.plan, once, (p95, median, worst, missed), repeats=1)

    # 10 ----------------------------------------------------------------------------------
    def writers(self, libs: Libraries) -> None:
        """WRITERS `papershelf` command lines writing to one shared library at once for
        `plan.writing` seconds: failures, lost writes, throughput."""
        from papershelf.core.library import Library

        seconds, sfx = self.plan.writing, libs.suffix
        label = f"10. {WRITERS} CLI writers for {seconds:.0f} s, {self.mid_n} papers"
        r = self.report
        failed = r.row(f"{label}: commands failed{sfx}", "", 0, exact=True)
        lost = r.row(f"{label}: writes lost{sfx}", "", 0, exact=True)
        rate = r.row(f"{label}: throughput (writes/s){sfx}", "/s")
        each = r.row(f"{label}: one command, median wall time{sfx}", "s")
        alone = r.row(f"10. One CLI write alone, wall time, {self.mid_n} papers{sfx}", "s")
        self.log(f"10. {WRITERS} command-line writers for {seconds:.0f} s{sfx}…")
        url = libs.fresh(self.plan.mid)
        library = Library.open(url)
        try:  # each writer's own paper, and one they all tag
            ids = library.view_ids(limit=WRITERS + 1)
            keys = [library.rows(ids)[pid].key for pid in ids]
        finally:
            library.close()
        alone.values.append(postgres.command_alone(url, self.run.env, keys[0],
                                                    self.plan.timeout))
        writes = postgres.run_writers(url, self.run.env, self.run.scratch, keys[:WRITERS],
                                      keys[WRITERS], seconds, self.plan.timeout)
        summary = postgres.writer_summary(writes, seconds)
        missing = postgres.lost_writes(url, writes)
        failed.values.append(float(summary["failed"]))
        lost.values.append(float(len(missing)))
        rate.values.append(summary["per_second"])
        each.values.append(summary["median_seconds"])
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(summary["by_kind"].items()))
        self.note(libs, f"writers: {summary['ok']} of {summary['writes']} commands "
                        f"succeeded in {summary['span']:.1f} s ({kinds}); each writer's "
                        "tags and imports, last star state, last notes and last write "
                        "checked afterwards")
        for error in summary["errors"][:5]:
            self.note(libs, f"writers: a command failed: {error}")
        for line in missing[:5]:
            self.note(libs, f"writers: lost: {line}")


def live_latencies(commits: list[dict[str, Any]], shown: dict[str, list[list[Any]]]
                   ) -> tuple[list[float], int]:
    """Seconds from each commit to the watching window's paint showing it, matched paper
    by paper in order (each paper's stars alternate); and how many were never shown."""
    latencies, lost = [], 0
    nxt: dict[str, int] = {}
    for commit in commits:
        pid = str(commit["id"])
        seen = shown.get(pid, [])
        at = nxt.get(pid, 0)
        while at < len(seen) and seen[at][0] != commit["starred"]:
            at += 1  # (a star shown and taken back between two paints: not this one)
        if at >= len(seen) or commit["commit_wall"] is None:
            lost += 1
            continue
        latencies.append((seen[at][1] - commit["commit_wall"]) * 1000)
        nxt[pid] = at + 1
    return latencies, lost


def percentile(sorted_values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (p95 of 30 values is the 29th)."""
    rank = max(1, -(-len(sorted_values) * pct // 100))
    return sorted_values[int(rank) - 1]


# -- the machine ----------------------------------------------------------------------------


def machine() -> list[str]:
    """CPU, cores, RAM, Python, SQLite and Qt versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    ram = "?"
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            kb = int(info.readline().split()[1])
            ram = f"{kb / 1024**2:.0f} GB"
    except (OSError, ValueError, IndexError):
        pass
    try:
        from PySide6 import QtCore
        from PySide6 import __version__ as pyside

        qt = f"Qt {QtCore.qVersion()} (PySide6 {pyside})"
    except ImportError:
        qt = "Qt not installed"
    return [f"CPU: {cpu}, {os.cpu_count()} cores, {ram} RAM",
            f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {qt}",
            f"OS: {platform.platform()}"]


def measure_on(report: Report, libs: postgres.PostgresLibraries, figure: int,
               step: Callable[[Any], None]) -> bool:
    """Measure one figure on the server; its error is the figure's (marked on its rows),
    not the run's. False if the server cannot be had at all (the rest is not tried)."""
    first = len(report.rows)
    try:
        step(libs)
    except postgres.Unavailable as exc:
        del report.rows[first:]
        row = report.row(f"{libs.name} server for figures 1-7, 9, 10", "yes", 1)
        row.error = f"{exc} (measure library files only with --backend sqlite)"
        sys.stderr.write(f"  {row.error}\n")
        return False
    except Exception as exc:  # (a bug here or in the code measured: the next figure runs)
        traceback.print_exc()
        rows = report.rows[first:] or [report.row(f"{figure}. Not measured{libs.suffix}", "")]
        for row in rows:
            row.error = row.error or f"{type(exc).__name__}: {exc}"
    return True


@contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM ends the run as Ctrl+C does, through every `finally` (the server is
    stopped, the scratch folder deleted)."""
    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes (38 / 2,000 / 20,000): a smoke test, not the goals")
    parser.add_argument("--only", help="comma-separated figure numbers (default: all)")
    parser.add_argument("--backend", choices=("both", "sqlite", "postgresql"), default="both",
                        help="library files (sqlite), a PostgreSQL server the benchmark "
                        "starts itself (postgresql), or both (default)")
    parser.add_argument("--repeats", type=int, help="runs per figure (default: 3; quick: 2)")
    parser.add_argument("--cache-dir", help="where generated inputs are kept "
                        "(default: $PAPERSHELF_BENCH_CACHE or ~/.cache/papershelf-bench)")
    parser.add_argument("--output", default=str(RESULTS_FILE),
                        help="markdown results file (default: tests/bench/last-results.md)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every result")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.repeats:
        plan = Plan(**{**plan.__dict__, "repeats": args.repeats})
    figures = [int(f) for f in args.only.split(",")] if args.only else list(FIGURES)
    started = time.perf_counter()
    report = Report()
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-") as scratch, \
            stopped_by_sigterm():
        cache = Cache(cache_root(args.cache_dir), log=lambda text: sys.stderr.write(text + "\n"))
        runner = Runner(plan, Path(scratch), args.verbose)
        bench = Bench(plan, cache, runner, report)
        files = FileLibraries(cache, runner, bench.log)
        steps: dict[int, Callable[[Any], None]] = {
            1: bench.startup, 2: bench.search, 3: bench.scroll, 4: bench.imports,
            5: bench.export, 6: bench.bulk, 7: bench.memory, 8: bench.reliability,
            9: bench.live, 10: bench.writers,
            11: lambda libs: identifiers.figure(bench, libs, repeat, ChildFailed,
                                                STALL_TARGET_MS),
            12: lambda libs: bestmatch.figure(bench, libs, repeat, percentile),

            13: lambda libs: autoexport.figure(bench, libs, repeat, ChildFailed),
            14: lambda libs: interchange.figure(bench, libs, repeat, ChildFailed),
            15: lambda libs: savedcounts.figure(bench, libs, repeat, percentile),
            16: lambda libs: citations.figure(bench, libs, repeat, ChildFailed),
            17: lambda libs: ranking.figure(bench, libs, repeat, ChildFailed),
            18: lambda libs: reader.figure(bench, libs, repeat, ChildFailed),
            19: lambda libs: annotations.figure(bench, libs, repeat, percentile),
            20: lambda libs: feeds.figure(bench, libs, repeat, ChildFailed)}
        if args.backend in ("both", "sqlite"):
            for figure in figures:
                if figure not in SERVER_ONLY:
                    steps[figure](files)
        on_server = [f for f in figures if f not in FILE_ONLY]
        if args.backend in ("both", "postgresql") and on_server:
            server = postgres.PostgresLibraries(files.path, count_label, bench.log,
                                                report.notes)
            runner.after_failure = server.after_child
            try:
                for figure in on_server:
                    if not measure_on(report, server, figure, steps[figure]):
                        break
            finally:
                server.close()
        report.by_figure()
    elapsed = time.perf_counter() - started
    where = {"both": "library files and PostgreSQL", "sqlite": "library files",
             "postgresql": "PostgreSQL"}[args.backend]
    lines = [f"Papershelf benchmark ({plan.name} mode: {plan.small:,} / {plan.mid:,} / "
             f"{plan.big:,} papers; {where}), {time.strftime('%Y-%m-%d %H:%M')}, "
             f"{elapsed / 60:.1f} min", "", report.markdown(), ""]
    lines += [f"- {line}" for line in machine()]
    lines += [f"- {note}" for note in report.notes]
    lines += [f"- ERROR in {row.figure}: {row.error}" for row in report.rows if row.error]
    text = "\n".join(lines) + "\n"
    sys.stdout.write("\n" + text)
    Path(args.output).write_text(text, encoding="utf-8")
    return 1 if any(row.error for row in report.rows) else 0


if __name__ == "__main__":
    sys.exit(main())
