"""Time the import of a generated Zotero library (issue 28; goal: 10,000 items in at most
30 s), on a library file:

    PYTHONPATH=desktop python -m tests.bench.zotero [ITEMS]

Prints the time to generate the zotero.sqlite (not measured), then the import's: read,
converted, written with its notes and linked PDFs, the search index included.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from papershelf.core.library import Library
from tests.zotero_db import generate

GOAL_S = 30.0


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 10_000
    with tempfile.TemporaryDirectory(prefix="papershelf-bench-zotero-") as folder:
        start = time.perf_counter()
        zotero = generate(Path(folder) / "Zotero", count)
        print(f"generated {count} items in {time.perf_counter() - start:.1f} s")
        library = Library.open(str(Path(folder) / "library.sqlite"))
        try:
            start = time.perf_counter()
            report = library.import_file(zotero)
            library.index_pending()
            took = time.perf_counter() - start
        finally:
            library.close()
    print(report.summary())
    verdict = "PASS" if took <= GOAL_S * count / 10_000 else "FAIL"
    print(f"import of {count} Zotero items: {took:.1f} s (goal {GOAL_S:.0f} s for 10,000) "
          f"{verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
