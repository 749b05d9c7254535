"""Figure 13 of `make bench`: auto-exports kept current, from a star committed to the file
on disk updated.

    python -m tests.bench.autoexport --library PATH --folder DIR [--changes N]

The child opens the library, adds two auto-exports (every paper, and the starred papers,
as BibTeX), then refreshes them as the window's `AutoExporter` does (core.autoexport with
one cache kept between refreshes, the window's 1.5 s quiet time left out): `changes`
times a star committed, then the refresh that writes the starred file (the every-paper
file is left alone: a star is not in its bytes; the first star renders the starred file
whole, the next ones only the paper starred); then a title edited, and the refresh that
writes the every-paper file again. It prints one JSON object on stdout.

    python -m tests.bench.autoexport --library PATH --folder DIR --tag [--changes N]

With --tag (on the 1M library): 1,000 papers get a tag and an auto-export of that tag;
then, in turn, a tagged paper's title edited or one more paper tagged, each followed by
the refresh that writes the tag's file.

The window's side (`window`: tests/bench/probe.py's `autoexport` mode) stars papers in
the real window and times its AutoExporter writing the starred file, with the longest
event-loop stall meanwhile.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MODULE = "tests.bench.autoexport"
SEED = 12
STAR_TARGET_MS = 500.0  # a star committed to the starred .bib updated, p95
COUNTS = {"full": 30, "quick": 5}  # changes timed, by benchmark mode
TAGGED = 1000  # the papers of the tag auto-export on the 1M library
TAG_TARGET_MS = 200.0  # an edit or a paper tagged → the tag's .bib updated, p95
TAG = "bench-cited"
WINDOW_STARS = {"full": 20, "quick": 5}  # stars timed in the window, after the first
WINDOW_DELAY_MS = 50  # the window's quiet time before a refresh, set down from 1.5 s
WINDOW_TARGET_MS = 1000.0  # a star in the window → the starred .bib updated, p95
STALL_TARGET_MS = 100.0  # the longest event-loop stall meanwhile


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(library_target: str, folder: Path, changes: int) -> dict[str, Any]:
    """The child's measurements (milliseconds, seconds where named)."""
    from papershelf.core import autoexport
    from papershelf.core.library import Library, View

    library = Library.open(library_target)
    try:
        every, starred = folder / "all.bib", folder / "starred.bib"
        start = time.perf_counter()
        autoexport.add(library, every)
        first_seconds = time.perf_counter() - start
        autoexport.add(library, starred, "starred")
        cache = autoexport.Cache()
        start = time.perf_counter()
        autoexport.refresh(library, cache)  # (the window's first refresh, at its start)
        cold_seconds = time.perf_counter() - start
        ids = library.view_ids(View())
        unstarred = sorted(set(ids) - set(library.view_ids(View(starred=True))))
        chosen = random.Random(SEED).sample(unstarred, 2 * changes)
        star_ms: list[float] = []
        title_ms: list[float] = []
        for n in range(changes):
            library.set_starred([chosen[n]], True)
            start = time.perf_counter()
            outcomes = autoexport.refresh(library, cache)
            star_ms.append((time.perf_counter() - start) * 1000)
            written = {o.export.path for o in outcomes if o.written}
            if written != {str(starred)}:
                raise SystemExit(f"a star wrote {sorted(written)}")
        for n in range(min(changes, 5)):
            pid = chosen[changes + n]
            library.set_title(pid, f"An Edited Title {n}")
            start = time.perf_counter()
            outcomes = autoexport.refresh(library, cache)
            title_ms.append((time.perf_counter() - start) * 1000)
            if {o.export.path for o in outcomes if o.written} != {str(every)}:
                raise SystemExit("a title edit did not write the every-paper file alone")
        return {"papers": len(ids), "first_seconds": first_seconds,
                "cold_seconds": cold_seconds, "star_ms": star_ms, "title_ms": title_ms,
                "every_mb": every.stat().st_size / 1e6}
    finally:
        library.close()


def measure_tag(library_target: str, folder: Path, changes: int) -> dict[str, Any]:
    """A tag's auto-export of `TAGGED` papers followed through edits (milliseconds)."""
    from papershelf.core import autoexport
    from papershelf.core.library import Library, View

    library = Library.open(library_target)
    try:
        ids = library.view_ids(View())
        rng = random.Random(SEED)
        tagged = rng.sample(ids, TAGGED + changes)
        more, tagged = tagged[TAGGED:], tagged[:TAGGED]
        library.add_tags(tagged, [TAG])
        target = folder / "cited.bib"
        start = time.perf_counter()
        autoexport.add(library, target, f"tag:{TAG}")
        first_ms = (time.perf_counter() - start) * 1000
        cache = autoexport.Cache()
        autoexport.refresh(library, cache)  # (the window's first refresh)
        change_ms: list[float] = []
        for n in range(changes):
            if n % 2:
                library.add_tags([more[n]], [TAG])
            else:
                library.set_title(tagged[n], f"An Edited Title {n}")
            start = time.perf_counter()
            outcomes = autoexport.refresh(library, cache)
            change_ms.append((time.perf_counter() - start) * 1000)
            if {o.export.path for o in outcomes if o.written} != {str(target)}:
                raise SystemExit("a change of a tagged paper did not write the tag's file")
        return {"papers": len(ids), "first_ms": first_ms, "change_ms": change_ms}
    finally:
        library.close()


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception]) -> None:
    """Figure 13's rows on `libs`: `bench` is the run's `Bench`, `repeat` and `failed`
    its `repeat` and `ChildFailed`."""
    plan, run, report = bench.plan, bench.run, bench.report
    changes = COUNTS[plan.name]
    label = f"13. Auto-export ({bench.mid_n} papers{libs.suffix})"
    r = report.row
    star = r(f"{label}: star committed → starred .bib updated, p95", "ms", STAR_TARGET_MS)
    star_median = r(f"{label}: star committed → starred .bib updated, median", "ms")
    star_first = r(f"{label}: the first star after opening (the starred .bib read whole)",
                   "ms")
    title = r(f"{label}: title edited → every-paper .bib rewritten, median", "ms")
    first = r(f"{label}: every-paper .bib first written", "s")
    cold = r(f"{label}: first refresh of a window (nothing changed)", "s")
    bench.log(f"13. auto-export on {bench.mid_n} papers…")

    def child(library: str, *args: str) -> dict[str, Any]:
        """The child's result, its files written in a folder of its own, then deleted."""
        folder = Path(run.scratch) / f"autoexport-{time.time_ns()}"
        folder.mkdir()
        try:
            result: dict[str, Any] = run.run(MODULE, "--library", library, "--folder",
                                             str(folder), *args)[0]
            return result
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def once(_n: int) -> None:
        result = child(libs.fresh(plan.mid), "--changes", str(changes))
        star_first.values.append(result["star_ms"][0])
        star.values.append(p95(result["star_ms"][1:]))
        star_median.values.append(statistics.median(result["star_ms"][1:]))
        title.values.append(statistics.median(result["title_ms"]))
        first.values.append(result["first_seconds"])
        cold.values.append(result["cold_seconds"])
        report.notes.append(f"auto-export: the every-paper .bib of {result['papers']:,} "
                            f"papers is {result['every_mb']:.0f} MB")

    repeat(plan, once, [star, star_median, star_first, title, first, cold], repeats=1)
    if not star.values and not star.error:
        raise failed("figure 13 measured nothing")

    big = f"13. A {TAGGED:,}-paper tag's auto-export ({bench.big_n} papers{libs.suffix})"
    tag_p95 = r(f"{big}: a tagged paper edited or one more tagged → its .bib updated, p95",
                "ms", TAG_TARGET_MS)
    tag_median = r(f"{big}: the same, median", "ms")
    tag_first = r(f"{big}: the .bib first written", "ms")
    bench.log(f"13. a tag's auto-export on {bench.big_n} papers…")

    def tag_once(_n: int) -> None:
        result = child(libs.fresh(plan.big), "--changes",
                       str(changes if plan.name == "full" else 6), "--tag")
        tag_p95.values.append(p95(result["change_ms"]))
        tag_median.values.append(statistics.median(result["change_ms"]))
        tag_first.values.append(result["first_ms"])

    repeat(plan, tag_once, [tag_p95, tag_median, tag_first], repeats=1)
    window(bench, libs, repeat, failed)


def window(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception]) -> None:
    """Figure 13's window rows: the real window on the mid library with both auto-exports
    (every paper, starred), papers starred in it one by one as the user does, each timed
    to the window's AutoExporter having written the starred .bib (its quiet time set to
    `WINDOW_DELAY_MS` instead of 1.5 s, so the figure is the work, not the wait)."""
    plan, run, report = bench.plan, bench.run, bench.report
    stars = WINDOW_STARS[plan.name]
    label = (f"13. Auto-export in the window ({bench.mid_n} papers{libs.suffix}, "
             f"quiet time {WINDOW_DELAY_MS} ms)")
    r = report.row
    written = r(f"{label}: star → starred .bib updated, p95 of {stars} after the first",
                "ms", WINDOW_TARGET_MS)
    median = r(f"{label}: the same, median", "ms")
    first = r(f"{label}: the first star after opening (the starred .bib rendered whole)",
              "ms")
    stall = r(f"{label}: longest event-loop stall, star → file written (every star)", "ms",
              STALL_TARGET_MS)
    bench.log(f"13. auto-export in the window on {bench.mid_n} papers…")

    def once(_n: int) -> None:
        result, _ = run.probe("autoexport", libs.fresh(plan.mid), "--count", str(stars + 1),
                              "--delay", str(WINDOW_DELAY_MS))
        samples = result["stars"]
        if not result["all_starred"] or result["every_rewritten"]:
            raise failed(f"the stars in the window: all starred "
                               f"{result['all_starred']}, every-paper file rewritten "
                               f"{result['every_rewritten']}")
        later = [s["written_ms"] for s in samples[1:]]
        written.values.append(p95(later))
        median.values.append(statistics.median(later))
        first.values.append(samples[0]["written_ms"])
        stall.values.append(max(s["max_stall_ms"] for s in samples))
        worst = max(range(len(samples)), key=lambda n: samples[n]["max_stall_ms"])
        report.notes.append(
            f"auto-export in the window: the starred .bib is {result['starred_kb']:,.0f} kB; "
            f"the longest stall at star {worst + 1} of {len(samples)}; stalls (ms) "
            + ", ".join(f"{s['max_stall_ms']:.0f}" for s in samples))

    repeat(plan, once, [written, median, first, stall], repeats=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}")
    parser.add_argument("--library", required=True)
    parser.add_argument("--folder", required=True, type=Path)
    parser.add_argument("--changes", type=int, default=COUNTS["full"])
    parser.add_argument("--tag", action="store_true",
                        help=f"a {TAGGED:,}-paper tag's auto-export instead")
    args = parser.parse_args(argv)
    result = (measure_tag if args.tag else measure)(args.library, args.folder, args.changes)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
