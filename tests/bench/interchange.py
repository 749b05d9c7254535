"""Figure 14 of `make bench`: other managers' libraries brought in (issue 28).

- The RIS file of the same papers as figure 4's .bib (written from that .bib's records by
  Papershelf's RIS writer), each imported into a new library by `Library.import_file` in
  a child (tests/bench/worker.py, as figure 4 does): the RIS import's time over the
  BibTeX import's, target 1.5x.
- A generated Zotero library (`tests.zotero_db.generate`: notes on every third item, a
  stored PDF on every tenth, one in fifty trashed) of 10,000 items (500 with --quick)
  imported from its zotero.sqlite, search index included: target 30 s for 10,000.

Measured on library files only. Run alone as `python -m tests.bench.interchange ris BIB
RIS` (writes the RIS file) or `… zotero COUNT FOLDER` (one import, a JSON line).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RIS_RATIO = 1.5  # a RIS import at most this times the BibTeX import of the same papers
ZOTERO_S = 30.0  # 10,000 Zotero items imported in at most this
ZOTERO_ITEMS = {"full": 10_000, "quick": 500}
MODULE = "tests.bench.interchange"


def write_ris(bib: Path, ris: Path) -> dict[str, Any]:
    """The RIS file of the papers of `bib` (not timed)."""
    from papershelf.formats import read_file
    from papershelf.formats.ris import write_ris as ris_text

    records = read_file(bib).records
    ris.write_text(ris_text(records), encoding="utf-8")
    return {"records": len(records)}


def import_zotero(count: int, folder: Path) -> dict[str, Any]:
    """Generate a Zotero library of `count` items in `folder`, then import it into a new
    library file there: the import's seconds, the search index included."""
    from papershelf.core.library import Library
    from tests.zotero_db import generate

    zotero = generate(folder / "Zotero", count)
    library = Library.open(str(folder / "library.sqlite"))
    try:
        start = time.perf_counter()
        report = library.import_file(zotero)
        library.index_pending()
        seconds = time.perf_counter() - start
    finally:
        library.close()
    return {"seconds": seconds, "added": report.added, "failed": report.failed}


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception]) -> None:
    """Figure 14's rows on library files: `bench` is the run's `Bench`, `repeat` and
    `failed` its `repeat` and `ChildFailed`."""
    plan, run, report = bench.plan, bench.run, bench.report
    small = plan.small
    libs.library(small)
    bib = bench.cache.bib(plan.mid)
    ris = Path(run.scratch) / f"{bib.stem}.ris"
    n = bench.mid_n
    r = report.row
    bib_row = r(f"14. Import {n}-entry .bib (Library.import_file)", "s")
    ris_row = r(f"14. Import the same {n} papers as RIS", "s")
    ratio = r(f"14. Import {n} RIS / BibTeX", "x", RIS_RATIO)
    items = ZOTERO_ITEMS.get(plan.name, ZOTERO_ITEMS["full"])
    zotero = r(f"14. Import a {items:,}-item zotero.sqlite (notes, PDFs, index)", "s",
               ZOTERO_S * items / 10_000)
    bench.log(f"14. RIS and Zotero imports ({n} entries, {items} Zotero items)…")
    written = run.run(MODULE, "ris", str(bib), str(ris))[0]
    if written["records"] != plan.mid:
        bench.note(libs, f"RIS: {written['records']} of {plan.mid} records written")

    def ris_once(_n: int) -> None:
        theirs = run.worker("import", str(bib), "--library", libs.fresh(small))
        ours = run.worker("import", str(ris), "--library", libs.fresh(small))
        if ours["added"] != theirs["added"]:
            bench.note(libs, f"RIS import: {ours['added']} added, BibTeX {theirs['added']}")
        bib_row.values.append(theirs["seconds"])
        ris_row.values.append(ours["seconds"])
        ratio.values.append(ours["seconds"] / theirs["seconds"])

    def zotero_once(_n: int) -> None:
        folder = Path(run.scratch) / f"zotero-{time.time_ns()}"
        folder.mkdir()
        result = run.run(MODULE, "zotero", str(items), str(folder))[0]
        if result["failed"]:
            bench.note(libs, f"zotero.sqlite: {result['failed']} items failed")
        zotero.values.append(result["seconds"])

    repeat(plan, ris_once, (bib_row, ris_row, ratio), repeats=min(3, plan.repeats))
    repeat(plan, zotero_once, (zotero,), repeats=1)
    if not ratio.values and not ratio.error:
        raise failed("figure 14 measured nothing")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["ris"]:
        result = write_ris(Path(args[1]), Path(args[2]))
    else:
        result = import_zotero(int(args[1]), Path(args[2]))
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
