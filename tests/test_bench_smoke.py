"""`python -m tests.bench --quick` runs end to end and measures every figure.

A smoke test of the benchmark itself: the quick sizes say nothing about the goals, so
PASS/FAIL of the targets is deliberately not checked, only that each figure got a value.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

# Every figure of the issue, as the table names them (quick sizes: 38 / 2k / 20k; 50
# identifiers added; figure 16's 1,000 papers in each style).
EXPECTED_ROWS = (
    "1. Start-up ratio",
    "1. Start-up of a bare PySide6 window with a table, 38 rows",
    "1. Start-up ratio 38 papers / bare PySide6 window",
    "2. Search typed letter by letter, p95",
    "3. Jump to the end of",
    "3. Re-sort 20k by title",
    "3. Re-sort 20k by year",
    "4. `papershelf import` 2k .bib, index complete / bibtexparser",
    "4. `papershelf import` 2k-entry .bib, process start to exit, index complete",
    "4. `papershelf import` 2k .bib, peak RSS",
    "4. Import 2k .bib (Library.import_file) / bibtexparser",
    "4. Import 2k-paragraph abstract list",
    "4. Cancel halfway (2k .bib)",
    "4. Cancel halfway (2k abstracts)",
    "5. Export 2k / bibtexparser write",
    "6. Star 5k selected papers, wall time",
    "6. Star 5k: longest event-loop stall",
    "6. Mark read 5k selected papers, wall time",
    "6. Mark read 5k: longest event-loop stall",
    "6. One field edit, Enter to the row repainted",
    "7. Window memory, 20k minus 38",
    "8. Kills survived of 6",
    "8. Corrupt libraries after a kill",
    "8. Actions left half done",
    "8. Lost user edits",
    "8. Leftover processes and temporary files",
    "8. Back up 20k papers from the window",
    "8. Back up 20k: longest event-loop stall",
    "11. Add 50 identifiers in the window, rate limits on (",
    "11. Add 50 identifiers in the window, rate limits on: our overhead per paper",
    "11. Add 50 identifiers in the window, rate limits on: longest event-loop stall",
    "11. Add 50 identifiers, no window, rate limits off: per paper",
    "11. Add 50 identifiers, no window, rate limits off, again: already had",
    "11. Add 50 identifiers in the window, rate limits off: longest event-loop stall",
    "12. Best match first page (50 rows), p95",
    "13. Auto-export (2k papers): star committed → starred .bib updated, p95",
    "13. Auto-export (2k papers): title edited → every-paper .bib rewritten",
    "13. A 1,000-paper tag's auto-export (20k papers): a tagged paper edited or one more",
    "13. Auto-export in the window (2k papers, quiet time 50 ms): star → starred .bib updated",
    "13. Auto-export in the window (2k papers, quiet time 50 ms): longest event-loop stall",
    "14. Import 2k RIS / BibTeX",
    "14. Import a 500-item zotero.sqlite (notes, PDFs, index)",
    "15. 20 saved searches' counts after an edit, p95 of 8, 20k papers",
    "15. Counts after the edits agree with counting again",
    "15. Saved searches' counts in the window after a star, p95 of 8 (20k papers",
    "15. Saved searches' counts in the window: longest event-loop stall after an edit",
    "15. Saved searches' counts in the window: longest stall while counted in full at start-up",
    "15. Saved searches in the window: listed after the first rows painted",
    "15. Saved searches in the window: all counted after the first rows painted",
    "16. Formatted bibliography of 1,000 papers, APA 7th edition (text + HTML)",
    "16. Formatted bibliography of 1,000 papers, IEEE (text + HTML)",
    "16. Formatted bibliography of 1,000 papers, Chicago (author-date) (text + HTML)",
    "16. Formatted bibliography of 1,000 papers, Nature (text + HTML)",
    "16. Formatted bibliography of 1,000 papers, ACM SIG Proceedings (text + HTML)",
    "16. Formatted bibliography of 1,000 papers, Harvard (Cite Them Right) (text + HTML)",
    "16. Formatted bibliography of 1,000 papers, MLA 9th edition (text + HTML)",
    "17. Inbox ranking, ICML 2024 and topic-driven stars: recency's NDCG@10 / the model's",
    "17. Inbox ranking: the model's NDCG@10",
    "17. Inbox ranking: recency's NDCG@10",
    "17. Inbox ranking: the model's precision@10",
    "17. Inbox ranking: recency's precision@10",
    "17. Train the ranking model on a 2k-paper library (CPU)",
    "18. Opening a 20-page paper: first page painted, the worker started for it",
    "18. Opening a 20-page paper: first page painted, the worker running",
    "18. PDFium alone opening it and rendering that page at the same size",
    "18. Opening a 20-page paper: first page painted (worker running) / PDFium alone",
    "18. Scrolling a 500-page PDF: max event-loop stall",
    "18. Scrolling a 500-page PDF: memory above the window",
    "18. Scrolling it: the PDFium worker's peak memory",
    "19. `ann:` search, first page, p95 (2,000 annotations, 2k papers",
    "19. Plain words found through annotations, first page, p95 (2,000 annotations, 2k",
    "19. A paper's 1,000 annotations read for its reader tab",
    "20. Check 50 feeds of 200 new items (2k papers): last answer → inbox deduplicated and "
    "ranked",
    "20. The same, CPU time of the process",
    "20. The same: last answer → its items stored",
    "20. The same: the inbox of 10k items listed best first",
    "20. The same: the whole check, 50 answers included",
    "20. Ranking model learnt from the 2k-paper library, reading it included",
    "20. The window open on the 2k papers, the feeds checked with Check Now: longest "
    "event-loop stall",
    "20. The same: Check Now → the inbox listed in the window",
)
MEASURED = re.compile(r"^\| (?P<figure>[^|]+) \| (?P<median>[^|]+) \|.*\| (?P<result>[^|]+) \|$")


def test_quick_bench_measures_every_figure(tmp_path: Path) -> None:
    output = tmp_path / "results.md"
    env = dict(os.environ, PAPERSHELF_BENCH_CACHE=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--output", str(output)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {}
    for line in done.stdout.splitlines():
        match = MEASURED.match(line)
        if match:
            rows[match["figure"].strip()] = (match["median"].strip(), match["result"].strip())
    for name in EXPECTED_ROWS:
        found = [(figure, value) for figure, value in rows.items() if figure.startswith(name)]
        assert found, f"no row {name!r} in:\n{done.stdout}"
        for figure, (median, result) in found:
            assert median != "—" and result in ("PASS", "FAIL", "info"), (figure, median)
    assert "| Figure | Median | Min – max | Target | Result |" in output.read_text("utf-8")
