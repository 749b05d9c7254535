"""Figure 19 of `make bench`: searching a library's annotations (issue 43), targets
`ann:` and plain words p95 <= 50 ms with 100,000 annotations, and a paper's 1,000
annotations read for its reader tab in <= 100 ms.

    python -m tests.bench.annotations --library PATH_OR_URL [--annotations N]

The child opens a fresh copy of the mid-size library, writes N annotations (quotes of
twelve words and comments of six, from a vocabulary of made-up words no paper holds)
onto its papers, 1,000 of them on one paper, in bulk as the user's; then times the first
page (100 rows) of searches as the window asks for them: `ann:` words, phrases and
prefixes, and plain words (found through the annotations, alone and with a word of the
papers). Then the 1,000 annotations of the one paper read as the reader's tab reads
them (`Library.annotations_of`: the core's part; the painting of the list and of the
page marks is not measured here). It prints {"ann_ms", "plain_ms", "marks_ms",
"found"} on stdout.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

TARGET_SEARCH_MS = 50.0
TARGET_MARKS_MS = 100.0
ON_ONE_PAPER = 1_000
CHUNK = 5_000
SYLLABLES = ("zor", "quel", "vix", "bram", "tuk", "oph", "lyn", "gar", "fesh", "drim")


def vocabulary() -> list[str]:
    """Made-up words (three syllables: 1,000 of them), none a word of the papers."""
    return [a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES]


def write_annotations(lib: Any, count: int, rng: random.Random) -> tuple[int, list[str]]:
    """`count` annotations of the user on the library's papers, ON_ONE_PAPER of them on
    one; that paper's id and some of the quotes written."""
    from sqlalchemy import insert, text

    from papershelf.core.annotating import search_text
    from papershelf.core.models import Annotation

    words = vocabulary()
    ids = lib.view_ids()
    one = ids[len(ids) // 2]
    now = datetime.now(timezone.utc)
    with lib.engine.connect() as conn:
        user = ("" if conn.dialect.name == "sqlite"
                else str(conn.scalar(text("SELECT current_user"))))
    quotes: list[str] = []
    for start in range(0, count, CHUNK):
        rows = []
        for n in range(start, min(count, start + CHUNK)):
            quote = " ".join(rng.choices(words, k=12))
            comment = " ".join(rng.choices(words, k=6))
            if n % 997 == 0:
                quotes.append(quote)
            rows.append({"paper_id": one if n < ON_ONE_PAPER else rng.choice(ids),
                         "user_name": user, "shared": n % 3 == 0, "file_sha256": "",
                         "page_index": n % 20, "page_label": str(n % 20 + 1),
                         "kind": "highlight", "color": "#ffd400",
                         "rects": [[72.0, 700.0 - n % 40 * 12, 540.0, 712.0 - n % 40 * 12]],
                         "quote": quote, "comment": comment,
                         "search_text": search_text(quote, comment), "origin": "app",
                         "created_at": now, "modified_at": now})
        with lib.engine.begin() as conn:
            conn.execute(insert(Annotation), rows)
    with lib.engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("ANALYZE annotations")  # (as autovacuum soon would)
    return one, quotes


def measure(library: str, count: int) -> dict[str, Any]:
    from papershelf.core.library import Library
    from papershelf.core.shapes import View

    rng = random.Random(43)
    lib = Library.open(library)
    try:
        one, quotes = write_annotations(lib, count, rng)
        words = vocabulary()
        asked = rng.sample(words, 12)
        ann = ([f"ann:{w}" for w in asked[:6]]
               + [f'ann:"{" ".join(q.split()[3:5])}"' for q in quotes[:6]]
               + [f"ann:{w[:5]}*" for w in asked[6:12]])
        plain = ([w for w in asked[:6]] + [f"graph {w}" for w in asked[6:12]]
                 + [f'"{" ".join(q.split()[5:7])}"' for q in quotes[:6]])

        def timed(queries: list[str]) -> tuple[list[float], int]:
            times, found = [], 0
            for query in queries:
                start = time.perf_counter()
                found += len(lib.view_ids(View(search=query), limit=100))
                times.append((time.perf_counter() - start) * 1000)
            return times, found

        lib.view_ids(View(search="graph"), limit=100)  # (a first search: opened)
        ann_ms, ann_found = timed(ann)
        plain_ms, plain_found = timed(plain)
        marks_ms = []
        for _ in range(5):
            start = time.perf_counter()
            marks = lib.annotations_of([one]).get(one, [])
            marks_ms.append((time.perf_counter() - start) * 1000)
        return {"ann_ms": ann_ms, "plain_ms": plain_ms, "marks_ms": marks_ms,
                "found": {"ann": ann_found, "plain": plain_found, "marks": len(marks)}}
    finally:
        lib.close()


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           percentile: Callable[[Sequence[float], float], float]) -> None:
    """The figure's rows: `ann:` and plain words p95 over the library's annotations, and
    a paper's 1,000 annotations read."""
    plan, r, sfx = bench.plan, bench.report, libs.suffix
    count = 100_000 if plan.name == "full" else 2_000
    label = f"{count:,} annotations, {bench.mid_n} papers{sfx}"
    ann = r.row(f"19. `ann:` search, first page, p95 ({label})", "ms", TARGET_SEARCH_MS)
    plain = r.row(f"19. Plain words found through annotations, first page, p95 ({label})",
                  "ms", TARGET_SEARCH_MS)
    marks = r.row(f"19. A paper's {ON_ONE_PAPER:,} annotations read for its reader tab "
                  f"(core only; painting not measured){sfx}", "ms", TARGET_MARKS_MS)
    bench.log(f"19. annotations searched ({label})…")

    def once(_n: int) -> None:
        result, _ = bench.run.run("tests.bench.annotations", "--library",
                                  libs.fresh(plan.mid), "--annotations", str(count))
        ann.values.append(percentile(sorted(result["ann_ms"]), 95))
        plain.values.append(percentile(sorted(result["plain_ms"]), 95))
        marks.values.append(statistics.median(result["marks_ms"]))
        if result["found"]["marks"] != ON_ONE_PAPER or not result["found"]["ann"]:
            bench.report.notes.append(f"19. annotations{sfx}: found {result['found']}")

    repeat(plan, once, (ann, plain, marks), repeats=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.annotations")
    parser.add_argument("--library", required=True, help="a library file or a URL")
    parser.add_argument("--annotations", type=int, default=100_000)
    args = parser.parse_args(argv)
    json.dump(measure(args.library, args.annotations), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
