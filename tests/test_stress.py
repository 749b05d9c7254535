"""Many programs on one library file, killed at random (issue 37): a few rounds of the
harness `make stress` runs 200 of (tests/stress/harness.py).

In each round the window (offscreen), two to four command-line programs and the Zotero
Connector's receiver write to one library file at once, each to papers or with tokens of
its own, and one to three of them are SIGKILLed at random moments. Then no live program
may hold a deleted library file, the library must pass the integrity check, no process
may be left, and every write a program acknowledged (the window once it showed it done,
a command once it exited 0, the receiver once it answered 201) must be in the library.
PAPERSHELF_MANY_ROUNDS (3 here) and PAPERSHELF_MANY_SEED choose the rounds.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from tests.stress.harness import KINDS, run_rounds

ROUNDS = int(os.environ.get("PAPERSHELF_MANY_ROUNDS", "3"))
SEED = int(os.environ.get("PAPERSHELF_MANY_SEED", "37"))


def test_many_programs_killed_at_random_lose_no_acknowledged_write(tmp_path: Path) -> None:
    results = run_rounds(tmp_path, ROUNDS, SEED, seconds=(4.0, 6.0))
    failures = [f"round {r.number} (seed {r.seed}): {failure}"
                for r in results for failure in r.failures]
    assert failures == []
    asked: Counter[str] = Counter()
    acked: Counter[str] = Counter()
    for result in results:
        asked.update(result.asked)
        acked.update(result.acked)
    # Each kind of program took part, and writes were acknowledged (which kinds' depends
    # on the kills and on how quickly the programs start on a busy machine).
    assert all(asked[kind] for kind in KINDS), asked
    assert sum(acked.values()) > 0, acked
    print(f"asked {dict(asked)}, acknowledged {dict(acked)}")  # (seen with -s)
    assert len(results) == ROUNDS
