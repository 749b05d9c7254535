"""Formatted bibliographies (formats.csl): the time to format 1,000 synthetic papers in
each style, as Copy as Formatted Bibliography and `papershelf cite` do (issue 27: at most
2 s in every built-in style). Figure 16 of `make bench`, and alone:

    python -m tests.bench.citations [--count N] [--repeats N] [--json]

Each style runs once first (reading its .csl file and the locale), then `--repeats`
times; the table gives the median and the fastest (`--json`: the times of each style, one
JSON line, as `make bench` reads them from its child process).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from papershelf.formats import csl
from papershelf.formats.records import PaperRecord
from tests.bench.synthetic import Generator

TARGET_S = 2.0
COUNT = 1000
MODULE = "tests.bench.citations"


def papers(count: int, seed: int = 7) -> list[PaperRecord]:
    """`count` synthetic papers (1-20 authors, accents, venues; no abstracts needed)."""
    return list(Generator(seed).records(count))


def measure(records: list[PaperRecord], style: str, repeats: int) -> list[float]:
    """The seconds of each of `repeats` renderings of `records` in `style`, as plain text
    and HTML together (what the clipboard gets), after one small rendering first."""
    csl.bibliography(records[:5], style, "html")  # the style read, the locale too
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        csl.bibliographies(records, style, ("text", "html"))
        times.append(time.perf_counter() - start)
    return times


def times_by_style(count: int, repeats: int) -> dict[str, list[float]]:
    """`measure` of `count` synthetic papers in every built-in style."""
    records = papers(count)
    return {style: measure(records, style, repeats) for style in csl.STYLES}


def row_name(style: str, count: int = COUNT) -> str:
    """A style's row in `make bench`'s table."""
    return (f"16. Formatted bibliography of {count:,} papers, {csl.STYLE_TITLES[style]} "
            "(text + HTML)")


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception]) -> None:
    """Figure 16's rows, one a style (no library: `libs` is not used): `bench` is the
    run's `Bench`, `repeat` and `failed` its `repeat` and `ChildFailed`. One child process
    renders every style `plan.repeats` times; each rendering is one value of its row."""
    plan = bench.plan
    rows = {style: bench.report.row(row_name(style), "s", TARGET_S) for style in csl.STYLES}
    bench.log(f"16. formatted bibliographies of {COUNT:,} papers ({len(rows)} styles)…")

    def once(_n: int) -> None:
        result, _ = bench.run.run(MODULE, "--json", "--count", str(COUNT),
                                  "--repeats", str(plan.repeats))
        for style, row in rows.items():
            row.values.extend(result[style])

    repeat(plan, once, tuple(rows.values()), repeats=1)
    if not any(row.values or row.error for row in rows.values()):
        raise failed("figure 16 measured nothing")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true",
                        help="the times of each style as one JSON line")
    args = parser.parse_args(argv)
    found = times_by_style(args.count, args.repeats)
    if args.json:
        sys.stdout.write(json.dumps(found) + "\n")
        return 0
    print(f"| style | {args.count} papers: median | fastest | target | |")
    print("|---|---|---|---|---|")
    for style, times in found.items():
        median = statistics.median(times)
        verdict = "PASS" if median <= TARGET_S else "FAIL"
        print(f"| {style} | {median:.2f} s | {min(times):.2f} s | {TARGET_S:.0f} s | {verdict} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
