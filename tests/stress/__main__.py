"""`make stress`: many programs on one library file, killed at random (issue 37).

    python -m tests.stress [--rounds 200] [--seed N] [--folder DIR] [--output FILE]

Runs the rounds of tests/stress/harness.py (the window, two to four command-line
programs and the Zotero Connector's receiver on one library file, SIGKILLed at random
moments), prints a line per round and then a table: rounds, kills by kind of program,
acknowledged writes checked, what was found. The table is also written to
tests/stress/last-results.md. Exit status 1 if any round failed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from tests.stress.harness import KINDS, ROUND_SECONDS, RoundResult, run_rounds

HERE = Path(__file__).resolve().parent
RESULTS_FILE = HERE / "last-results.md"
NAMES = {"window": "window", "cli": "command line", "connector": "receiver"}
# A failure's kind: the words its line starts with.
FAILURE_KINDS = ("deleted file held", "lost write", "corrupt", "left running", "stuck",
                 "harness")


def by_kind(counts: Counter[str]) -> str:
    return " / ".join(f"{counts[kind]:,}" for kind in KINDS)


def table(results: list[RoundResult], seconds: float, seed: int) -> str:
    """The results as a Markdown table, and the first failures found."""
    kills: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    acked: Counter[str] = Counter()
    failing: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for result in results:
        refused.update(result.refused)
        kills.update(result.kills)
        asked.update(result.asked)
        acked.update(result.acked)
        failing.update({kind for failure in result.failures for kind in FAILURE_KINDS
                        if failure.startswith(kind)})
    failed = [r for r in results if r.failures]
    kinds = " / ".join(NAMES[kind] for kind in KINDS)
    rows = [
        ("Rounds", f"{len(results):,} (seed {seed})"),
        (f"Programs killed at random moments ({kinds})", by_kind(kills)),
        ("Rounds the window started first / was ready (the others' clock starts then)",
         f"{sum(r.window_first for r in results):,} / "
         f"{sum(r.window_ready for r in results):,}"),
        ("Programs killed at the rounds' ends", f"{sum(r.end_kills for r in results):,}"),
        (f"Writes acknowledged and checked ({kinds})", by_kind(acked)),
        (f"Writes asked, never acknowledged (killed first, or refused) ({kinds})",
         by_kind(asked - acked)),
        ("Writes refused (the program said so), by program and reason",
         ", ".join(f"{what} {n:,}" for what, n in refused.most_common(6)) or "none"),
        ("Reads that ran (export, auto-export run, backup) and the window's backups",
         f"{sum(r.reads for r in results):,} and {sum(r.backups for r in results):,}"),
        ("Rounds failing, by what they found", ", ".join(
            f"{kind}: {failing[kind]}" for kind in FAILURE_KINDS if failing[kind]) or "—"),
        ("Failures (rounds failing)", f"{len(failed)} — {'PASS' if not failed else 'FAIL'}"),
        ("Time", f"{seconds / 60:.1f} min ({seconds / max(1, len(results)):.1f} s a round)"),
    ]
    lines = ["| | |", "|---|---|"] + [f"| {what} | {value} |" for what, value in rows]
    if failed:
        lines += ["", "First failures:", ""]
        for result in failed[:10]:
            lines += [f"- round {result.number} (seed {result.seed}): {f}"
                      for f in result.failures[:4]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.stress", description=__doc__
                                     .split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--folder", type=Path, default=None,
                        help="where the rounds run (default: a temporary folder, removed "
                        "unless a round failed)")
    parser.add_argument("--output", type=Path, default=RESULTS_FILE,
                        help="markdown results file (default: tests/stress/last-results.md)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="papershelf-stress-"))
    folder.mkdir(parents=True, exist_ok=True)
    home = folder / "home"  # (the programs' settings and logs, not the user's)
    for var, sub in (("HOME", ""), ("XDG_DATA_HOME", ".local/share"),
                     ("XDG_CONFIG_HOME", ".config"), ("XDG_STATE_HOME", ".local/state"),
                     ("XDG_CACHE_HOME", ".cache")):
        os.environ[var] = str(home / sub)
    os.environ.pop("PAPERSHELF_LIBRARY", None)
    low, high = ROUND_SECONDS
    print(f"{args.rounds} rounds of {low:.0f}-{high:.0f} s once the window is ready, in "
          f"{folder}", flush=True)

    def report(result: RoundResult) -> None:
        kills = ", ".join(f"{NAMES[k]} {n}" for k, n in sorted(result.kills.items()))
        print(f"round {result.number:4d}: {result.seconds:5.1f} s, {result.slots} "
              f"command-line slots, killed {kills or 'none'}, acknowledged "
              f"{by_kind(result.acked)}: {'; '.join(result.failures[:3]) or 'ok'}",
              flush=True)

    started = time.perf_counter()
    results = run_rounds(folder, args.rounds, args.seed, report)
    seconds = time.perf_counter() - started
    text = table(results, seconds, args.seed)
    heading = (f"## Many programs on one library file, killed at random (`make stress`), "
               f"{datetime.now():%Y-%m-%d %H:%M}\n\n{platform.node()}: {os.cpu_count()} "
               f"cores, Python {platform.python_version()}, SQLite "
               f"{__import__('sqlite3').sqlite_version}\n\n")
    print("\n" + text)
    args.output.write_text(heading + text + "\n", encoding="utf-8")
    failed = any(r.failures for r in results)
    if args.folder is None and not failed:
        shutil.rmtree(folder, ignore_errors=True)
    elif failed:
        print(f"\nthe failing rounds' folders are kept in {folder}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
