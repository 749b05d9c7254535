"""`make bench`: measure Papershelf's speed and memory goals and print a results table.

    python -m tests.bench [--quick] [--only 1,4] [--repeats N] [--cache-dir DIR]

Full mode works on synthetic libraries of 38, 100,000 and 1,000,000 papers, a
100,000-entry .bib file and a 100,000-paragraph abstract list; `--quick` uses 38 / 2,000 /
20,000 (a smoke test of the benchmark, not of the goals). Inputs are generated once and
cached (tests/bench/data.py says where; the first full run spends about 10 minutes
generating them). The window is measured in separate processes (tests/bench/probe.py,
offscreen), the core in worker processes (tests/bench/worker.py); every ratio is taken
between measurements of the same run, interleaved. Each figure runs a few times (fewer when
a figure is slow: each has a time budget); the table gives the median, min-max, the target
and PASS/FAIL on the median (on the p95 for search). The table and the machine are also
written to tests/bench/last-results.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.data import Cache, cache_root

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS_FILE = HERE / "last-results.md"
FIGURES = (1, 2, 3, 4, 5, 6, 7, 8)
STALL_TARGET_MS = 100.0  # "keeps painting": no event-loop gap a user would notice


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


FULL = Plan("full", 38, 100_000, 1_000_000, 100_000, 50, repeats=3, startup_repeats=5,
            budget=240, timeout=1200, queries=30)
QUICK = Plan("quick", 38, 2_000, 20_000, 5_000, 6, repeats=1, startup_repeats=2, budget=4,
             timeout=180, queries=10)


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
    unit: str  # "s", "ms", "MB", "x" (a ratio), "" (a count), "yes" (a check)
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
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
        self.env = env

    def run(self, module: str, *args: str) -> tuple[dict[str, Any], float]:
        """Run `python -m module args`; its JSON result and the wall time.time() at start."""
        command = [sys.executable, "-m", module, *args]
        started = time.time()
        try:
            done = subprocess.run(command, env=self.env, cwd=ROOT, capture_output=True,
                                  text=True, timeout=self.plan.timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise ChildFailed(f"{' '.join(command[2:])}: no result in "
                              f"{self.plan.timeout:.0f} s") from exc
        if done.returncode != 0 or not done.stdout.strip():
            tail = "\n".join(done.stderr.strip().splitlines()[-12:])
            raise ChildFailed(f"{' '.join(command[2:])} exited with {done.returncode}:\n{tail}")
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        if self.verbose:
            sys.stderr.write(f"  {' '.join(command[2:])}: {json.dumps(result)[:400]}\n")
        return result, started

    def probe(self, what: str, library: Path, *extra: str) -> tuple[dict[str, Any], float]:
        return self.run("tests.bench.probe", what, "--library", str(library), *extra)

    def worker(self, what: str, *args: str) -> dict[str, Any]:
        return self.run("tests.bench.worker", what, *args)[0]

    def copy(self, library: Path) -> Path:
        """A fresh copy of a library for a measurement that writes to it."""
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


# -- the figures ----------------------------------------------------------------------------


class Bench:
    """Every figure, in the issue's order."""

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

    def prepare(self, path: Path) -> Path:
        """Open a cached library once (migrating it if the schema moved on), untimed."""
        from papershelf.core.library import Library

        start = time.perf_counter()
        Library.open(str(path)).close()
        seconds = time.perf_counter() - start
        if seconds > 1:
            self.log(f"  {path.name}: opened (migrated) in {seconds:.1f} s")
        return path

    # 1 -----------------------------------------------------------------------------------
    def startup(self) -> None:
        small = self.prepare(self.cache.library(self.plan.small))
        big = self.prepare(self.cache.library(self.plan.big))
        r = self.report
        small_row = r.row(f"1. Start-up to first painted rows, {self.small_n} papers", "s")
        big_row = r.row(f"1. Start-up to first painted rows, {self.big_n} papers", "s")
        ratio = r.row(f"1. Start-up ratio {self.big_n} / {self.small_n}", "x", 1.25)
        self.log("1. start-up…")
        if self.plan.name == "full":  # warm the page cache: both are measured warm
            for library in (small, big):
                self.run.probe("startup", library)

        def once(_n: int) -> None:
            times = []
            for library in (small, big):
                result, started = self.run.probe("startup", library)
                times.append(result["first_paint_wall"] - started)
            small_row.values.append(times[0])
            big_row.values.append(times[1])
            ratio.values.append(times[1] / times[0])

        repeat(self.plan, once, (small_row, big_row, ratio), repeats=self.plan.startup_repeats,
               budget=self.plan.budget * 2)

    # 2 -----------------------------------------------------------------------------------
    def search(self) -> None:
        from tests.bench.probe import search_queries

        big = self.prepare(self.cache.library(self.plan.big))
        queries = search_queries()[:: max(1, 30 // self.plan.queries)][: self.plan.queries]
        r = self.report
        p95 = r.row(f"2. Search as you type, p95 of {len(queries)} queries, "
                    f"{self.big_n} papers", "ms", 50)
        median = r.row("2. Search as you type, median query", "ms")
        worst = r.row("2. Search as you type, slowest query", "ms")
        self.log(f"2. search ({len(queries)} queries per run)…")
        slow: dict[str, list[float]] = {}

        def once(_n: int) -> None:
            result, _ = self.run.probe("search", big, "--queries", json.dumps(queries))
            times = sorted(q["ms"] for q in result["queries"])
            p95.values.append(percentile(times, 95))
            median.values.append(statistics.median(times))
            worst.values.append(times[-1])
            for q in result["queries"]:
                slow.setdefault(q["query"], []).append(q["ms"])
                if not q["first_matches"]:
                    self.report.notes.append(
                        f"search {q['query']!r}: the first row does not contain the query")
            empty = [q["query"] for q in result["queries"] if q["empty"]]
            if empty and _n == 0:
                self.report.notes.append(f"search: no results for {', '.join(empty)}")

        repeat(self.plan, once, (p95, median, worst), repeats=min(2, self.plan.repeats),
               budget=self.plan.budget * 2)
        if slow:
            top = sorted(slow.items(), key=lambda kv: -statistics.median(kv[1]))[:5]
            self.report.notes.append("search, slowest queries: " + ", ".join(
                f"{q!r} {statistics.median(v):.0f} ms" for q, v in top))

    # 3 -----------------------------------------------------------------------------------
    def scroll(self) -> None:
        big = self.prepare(self.cache.library(self.plan.big))
        r = self.report
        rows = {
            "scroll_end": r.row(f"3. Jump to the end of {self.big_n} rows, to paint", "ms", 200),
            "sort_title": r.row(f"3. Re-sort {self.big_n} by title, to paint", "ms", 200),
            "sort_year": r.row(f"3. Re-sort {self.big_n} by year, to paint", "ms", 200),
        }
        self.log("3. scrolling and sorting…")

        def once(_n: int) -> None:
            result, _ = self.run.probe("scroll", big)
            for sample in result["samples"]:
                rows[sample["step"]].values.append(sample["ms"])

        repeat(self.plan, once, tuple(rows.values()))

    # 4 -----------------------------------------------------------------------------------
    def imports(self) -> None:
        small = self.prepare(self.cache.library(self.plan.small))
        bib, abstracts = self.cache.bib(self.plan.mid), self.cache.abstracts(self.plan.mid)
        n = self.mid_n
        r = self.report
        theirs = r.row(f"4. bibtexparser.parse_file, {n} entries", "s")
        ours = r.row(f"4. Import {n}-entry .bib (Library.import_file)", "s")
        ratio = r.row(f"4. Import {n} .bib / bibtexparser", "x", 1.0)
        memory = r.row(f"4. Import {n} .bib, peak RSS of the process and its workers", "MB",
                       400)
        indexing = r.row(f"4. Search indexing after the {n} .bib import", "s")
        abstract_row = r.row(f"4. Import {n}-paragraph abstract list", "s", 20)
        cancel_bib = r.row(f"4. Cancel halfway ({n} .bib): library unchanged", "yes", 1)
        cancel_abs = r.row(f"4. Cancel halfway ({n} abstracts): library unchanged", "yes", 1)
        self.log("4. import…")

        def bib_once(_n: int) -> None:
            base = self.run.worker("bibtexparser", str(bib))
            result = self.run.worker("import", str(bib), "--library",
                                     str(self.run.copy(small)))
            if result["added"] != self.plan.mid:
                self.report.notes.append(f"import of {bib.name}: {result['added']} added, "
                                         f"{result['failed']} failed")
            theirs.values.append(base["seconds"])
            ours.values.append(result["seconds"])
            ratio.values.append(result["seconds"] / base["seconds"])
            memory.values.append(result["tree_peak_mb"])
            self.report.notes.append(
                f"import of {bib.name}: peak RSS {result['vmhwm_mb']:.0f} MB in the importing "
                f"process, {result['child_peak_mb']:.0f} MB in the biggest worker; "
                f"{result['tree_peak_mb']:.0f} MB together at most (sampled every 20 ms)")
            indexing.values.append(result["index_seconds"])

        def abstracts_once(_n: int) -> None:
            result = self.run.worker("import", str(abstracts), "--library",
                                     str(self.run.copy(small)))
            abstract_row.values.append(result["seconds"])

        repeat(self.plan, bib_once, (theirs, ours, ratio, memory, indexing))
        repeat(self.plan, abstracts_once, (abstract_row,))
        for row, path, imported in ((cancel_bib, bib, ours), (cancel_abs, abstracts,
                                                              abstract_row)):
            # Halfway by the import's progress; by the clock (at 3/4 of the usual import
            # time) only if progress never gets there.
            after = statistics.median(imported.values) * 0.75 if imported.values else None

            def cancel_once(_n: int, row: Row = row, path: Path = path,
                            after: float | None = after) -> None:
                args = [str(path), "--library", str(self.run.copy(small))]
                if after is not None:
                    args += ["--after", f"{after:.3f}"]
                result = self.run.worker("cancel", *args)
                row.values.append(1.0 if result["unchanged"] else 0.0)
                self.report.notes.append(
                    f"cancel of {path.name}: {result['outcome']} after "
                    f"{result['cancel_after_seconds'] or 0:.1f} s at progress "
                    f"{result['progress_at_cancel']}, returned "
                    f"{result['cancel_latency_seconds'] or 0:.2f} s later; papers "
                    f"{result['papers_before']} -> {result['papers_after']}")

            repeat(self.plan, cancel_once, (row,), repeats=1)

    # 5 -----------------------------------------------------------------------------------
    def export(self) -> None:
        mid = self.prepare(self.cache.library(self.plan.mid))
        n = self.mid_n
        r = self.report
        ours = r.row(f"5. Export {n} papers (records + write_bibtex)", "s")
        theirs = r.row(f"5. bibtexparser.write_string, the same {n} entries", "s")
        ratio = r.row(f"5. Export {n} / bibtexparser write", "x", 1.0)
        self.log("5. export…")

        def once(_n: int) -> None:
            result = self.run.worker("export", "--library", str(mid))
            ours.values.append(result["seconds"])
            theirs.values.append(result["bibtexparser_seconds"])
            ratio.values.append(result["seconds"] / result["bibtexparser_seconds"])

        repeat(self.plan, once, (ours, theirs, ratio))

    # 6 -----------------------------------------------------------------------------------
    def bulk(self) -> None:
        path = self.cache.library(self.plan.big)
        big = self.prepare(path)
        n, r = count_label(self.plan.bulk), self.report
        rows: dict[str, dict[str, Row]] = {}
        for action, label in (("toggle_star", "Star"), ("mark_read", "Mark read")):
            rows[action] = {
                "seconds": r.row(f"6. {label} {n} selected papers, wall time", "s", 1.0),
                "max_stall_ms": r.row(f"6. {label} {n}: longest event-loop stall", "ms",
                                      STALL_TARGET_MS),
                "transactions": r.row(f"6. {label} {n}: transactions", "", 1, exact=True),
            }
        self.log("6. bulk edits…")

        def once(_n: int) -> None:
            result, _ = self.run.probe("bulk", big, "--count", str(self.plan.bulk))
            if not result["restored"]:
                # Undo did not give the library back: never measure on it again.
                for leftover in path.parent.glob(path.name + "*"):
                    leftover.unlink()
                raise ChildFailed(f"undo did not restore {path.name}; removed from the cache")
            for action, by_key in rows.items():
                for key, row in by_key.items():
                    row.values.append(float(result[action][key]))
                changed = result[action]["papers_changed"]
                if changed != result["selected"] and _n == 0:
                    self.report.notes.append(f"bulk {action}: {changed} papers changed of "
                                             f"{result['selected']} selected")

        repeat(self.plan, once, [row for d in rows.values() for row in d.values()])

    # 7 -----------------------------------------------------------------------------------
    def memory(self) -> None:
        small = self.prepare(self.cache.library(self.plan.small))
        big = self.prepare(self.cache.library(self.plan.big))
        r = self.report
        small_row = r.row(f"7. Window peak RSS, {self.small_n} papers", "MB")
        big_row = r.row(f"7. Window peak RSS, {self.big_n} papers", "MB")
        extra = r.row(f"7. Window memory, {self.big_n} minus {self.small_n}", "MB", 250)
        self.log("7. memory…")

        def once(_n: int) -> None:
            peaks = [self.run.probe("memory", lib)[0]["vmhwm_mb"] for lib in (small, big)]
            small_row.values.append(peaks[0])
            big_row.values.append(peaks[1])
            extra.values.append(peaks[1] - peaks[0])

        repeat(self.plan, once, (small_row, big_row, extra))


    # 8 -----------------------------------------------------------------------------------
    def reliability(self) -> None:
        """Kills survived (tests/crash/harness.py), and backing up the big library while
        the window goes on."""
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
        seconds = r.row(f"8. Back up {self.big_n} papers from the window", "s", 10.0)
        stall = r.row(f"8. Back up {self.big_n}: longest event-loop stall", "ms",
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
        big = self.prepare(self.cache.library(self.plan.big))

        def once(_n: int) -> None:
            result, _ = self.run.probe("backup", big)
            if not result["ok"]:
                raise ChildFailed("the backup from the window did not finish")
            seconds.values.append(result["seconds"])
            stall.values.append(result["max_stall_ms"])

        repeat(self.plan, once, (seconds, stall))


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes (38 / 2,000 / 20,000): a smoke test, not the goals")
    parser.add_argument("--only", help="comma-separated figure numbers (default: all)")
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
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-") as scratch:
        cache = Cache(cache_root(args.cache_dir), log=lambda text: sys.stderr.write(text + "\n"))
        bench = Bench(plan, cache, Runner(plan, Path(scratch), args.verbose), report)
        steps = {1: bench.startup, 2: bench.search, 3: bench.scroll, 4: bench.imports,
                 5: bench.export, 6: bench.bulk, 7: bench.memory, 8: bench.reliability}
        for figure in figures:
            steps[figure]()
    elapsed = time.perf_counter() - started
    lines = [f"Papershelf benchmark ({plan.name} mode: {plan.small:,} / {plan.mid:,} / "
             f"{plan.big:,} papers), {time.strftime('%Y-%m-%d %H:%M')}, "
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
