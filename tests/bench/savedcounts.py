"""Figure 15 of `make bench`: 20 saved searches' sidebar counts after an edit (issue 26;
core.tally), target <= 100 ms (p95) on the big library.

    python -m tests.bench.savedcounts --library PATH_OR_URL [--edits N]

The child opens a fresh copy of the library as the CLI does, saves 20 searches of the
language (words, OR, NOT, fields, flags, ranges, tags, prefixes), counts them in full once
(what the sidebar does at start-up, in a worker), then makes `--edits` edits a user makes
(a year typed, a star, a tag, a title) and times, for each, what the sidebar then asks
in its worker: the counts of all 20 after that change (`Tally.follow`). Each new count is
checked against counting again in full after the last edit. It prints {"full_seconds",
"follow_ms": [...], "agree": bool} on stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

TARGET_MS = 100.0
EDITS = 30
SEARCHES = (
    "graph", "is:starred", "is:unread learning", "au:wang", "year:2023",
    "diffusion model", "tag:bench-read", "transformer OR attention", "-learning",
    "has:doi", "type:article", "reinforcement", "venue:icml", "is:read", "title:neural",
    "added:<30d", "optim*", '"language model"', "year:>=2022 graph", "has:notes",
)


def save_searches(lib: Any) -> None:
    """Replace the library's saved searches by the figure's 20 (`SEARCHES`)."""
    for old in lib.saved_searches():
        lib.remove_saved_search(old.id)
    for n, query in enumerate(SEARCHES):
        lib.add_saved_search(f"Search {n + 1}", query)


def measure(library: str, edits: int) -> dict[str, Any]:
    from papershelf.core.library import Library

    lib = Library.open(library)
    try:
        save_searches(lib)
        tally = lib.saved_tally()
        start = time.perf_counter()
        tally.count_all()
        full = time.perf_counter() - start
        ids = lib.view_ids(limit=edits * 7)[::7]
        follow_ms: list[float] = []
        shown: list[tuple[Any, int]] = []
        for n, pid in enumerate(ids[:edits]):
            kind = n % 4
            if kind == 0:
                change = lib.set_fields(pid, {"year": str(2000 + n)})
            elif kind == 1:
                change = lib.toggle_starred([pid])
            elif kind == 2:
                change = lib.add_tags([pid], ["bench-read"])
            else:
                change = lib.set_fields(pid, {"title": f"A neural graph model {n}"})
            start = time.perf_counter()
            shown = tally.follow(sorted(change.ids)) or []
            follow_ms.append((time.perf_counter() - start) * 1000)
        exact = lib.saved_counts()
        agree = bool(shown) and all(exact[s.id] == count for s, count in shown)
        return {"full_seconds": full, "follow_ms": follow_ms, "agree": agree}
    finally:
        lib.close()


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           percentile: Callable[[Sequence[float], float], float]) -> None:
    """The figure's rows: the p95 and median of the counts after an edit, the full count
    (in the background at start-up) and whether the followed counts agree."""
    plan = bench.plan
    r, sfx = bench.report, libs.suffix
    edits = EDITS if plan.name == "full" else 8
    p95 = r.row(f"15. {len(SEARCHES)} saved searches' counts after an edit, p95 of {edits}, "
                f"{bench.big_n} papers{sfx}", "ms", TARGET_MS)
    median = r.row(f"15. Saved searches' counts after an edit, median{sfx}", "ms")
    full = r.row(f"15. {len(SEARCHES)} saved searches counted in full (start-up, in the "
                 f"background){sfx}", "s")
    agree = r.row(f"15. Counts after the edits agree with counting again{sfx}", "yes", 1)
    bench.log(f"15. saved searches' counts{sfx}…")

    def once(_n: int) -> None:
        result, _ = bench.run.run("tests.bench.savedcounts", "--library",
                                  libs.fresh(plan.big), "--edits", str(edits))
        times = sorted(result["follow_ms"])
        p95.values.append(percentile(times, 95))
        median.values.append(statistics.median(times))
        full.values.append(result["full_seconds"])
        agree.values.append(1.0 if result["agree"] else 0.0)

    repeat(plan, once, (p95, median, full, agree), repeats=1)
    window(bench, libs, repeat, percentile)


def window(bench: Any, libs: Any, repeat: Callable[..., None],
           percentile: Callable[[Sequence[float], float], float]) -> None:
    """The figure's window rows: the real window on the big library with the 20 saved
    searches, papers starred in it one by one as the user does, each timed to the
    sidebar showing the saved searches' new counts; the longest event-loop stall from
    a star to then, and while the window counts them in full as it opens."""
    plan, report = bench.plan, bench.report
    r, sfx = report.row, libs.suffix
    stars = EDITS if plan.name == "full" else 8
    shown = r(f"15. Saved searches' counts in the window after a star, p95 of {stars} "
              f"({bench.big_n} papers{sfx})", "ms", TARGET_MS)
    stall = r(f"15. Saved searches' counts in the window: longest event-loop stall after an "
              f"edit{sfx}", "ms", TARGET_MS)
    startup = r(f"15. Saved searches' counts in the window: longest stall while counted in "
                f"full at start-up{sfx}", "ms", TARGET_MS)
    listed = r(f"15. Saved searches in the window: listed after the first rows painted "
               f"(0: before; their counts filled in as known){sfx}", "ms")
    counted = r(f"15. Saved searches in the window: all counted after the first rows painted"
                f"{sfx}", "s")
    bench.log(f"15. saved searches' counts in the window on {bench.big_n} papers{sfx}…")

    def once(_n: int) -> None:
        result, _ = bench.run.probe("savedcounts", libs.fresh(plan.big), "--count", str(stars))
        samples = result["stars"]
        shown.values.append(percentile(sorted(s["ms"] for s in samples), 95))
        stall.values.append(max(s["max_stall_ms"] for s in samples))
        first = result["startup"]
        startup.values.append(first["max_stall_ms"])
        listed.values.append(first["listed_ms"])
        counted.values.append(first["counted_ms"] / 1000)
        report.notes.append(
            f"saved searches' counts in the window{sfx}: the {result['searches']} counted "
            f"in full {first['counted_ms']:,.0f} ms after the first rows were painted "
            f"({first['full_counts']} full counts; longest stall from the window's opening "
            f"{first['opening_max_stall_ms']:,.0f} ms); shown after the last star "
            f"{'agree' if result['agree'] else 'DISAGREE'} with counting again; per star "
            "(ms, stall ms): " + ", ".join(f"{s['ms']:.0f}/{s['max_stall_ms']:.0f}"
                                           for s in samples))

    repeat(plan, once, (shown, stall, startup, listed, counted), repeats=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.savedcounts")
    parser.add_argument("--library", required=True, help="a library file or a URL")
    parser.add_argument("--edits", type=int, default=EDITS)
    args = parser.parse_args(argv)
    json.dump(measure(args.library, args.edits), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
