"""Formatted bibliographies (formats.csl): the time to format 1,000 synthetic papers in
each style, as Copy as Formatted Bibliography and `papershelf cite` do (goal: 2 s).

    python -m tests.bench.citations [--count N] [--repeats N]

Each style runs once first (reading its .csl file and the locale), then `--repeats`
times; the table gives the median and the fastest.
"""

from __future__ import annotations

import argparse
import statistics
import time

from papershelf.formats import csl
from papershelf.formats.records import PaperRecord
from tests.bench.synthetic import Generator

TARGET_S = 2.0


def papers(count: int, seed: int = 7) -> list[PaperRecord]:
    """`count` synthetic papers (1-20 authors, accents, venues; no abstracts needed)."""
    return list(Generator(seed).records(count))


def measure(records: list[PaperRecord], style: str, repeats: int) -> list[float]:
    csl.bibliography(records[:5], style, "html")  # the style read, the locale too
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        csl.bibliographies(records, style, ("text", "html"))
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    records = papers(args.count)
    print(f"| style | {args.count} papers: median | fastest | target | |")
    print("|---|---|---|---|---|")
    for style in csl.STYLES:
        times = measure(records, style, args.repeats)
        median = statistics.median(times)
        verdict = "PASS" if median <= TARGET_S else "FAIL"
        print(f"| {style} | {median:.2f} s | {min(times):.2f} s | {TARGET_S:.0f} s | {verdict} |")


if __name__ == "__main__":
    main()
