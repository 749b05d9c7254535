"""Crash tests: a real `papershelf` process killed with SIGKILL at random moments.

The harness (tests/crash/harness.py) interrupts an import of 20,000 entries, starring
20,000 papers, a notes edit, a key regeneration, a merge and a schema migration at moments
drawn from a seeded generator (PAPERSHELF_CRASH_SEED), PAPERSHELF_CRASH_KILLS times (10
here; `make bench` makes 50). After every kill the library must pass SQLite's integrity
check, the user's data from before must be intact, the interrupted action must have
happened whole or not at all, no worker process and no temporary file may be left, and
the next start must work.

Also: notes typed into a real window (offscreen) survive a kill one second later; a full
disk (a small tmpfs) and a read-only folder lose nothing and say so in one line.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from papershelf.core import backup
from papershelf.core.library import Library
from tests.conftest import ROOT, seeded_file
from tests.crash.harness import (
    World,
    build_world,
    environment,
    kill_many,
    papershelf,
    user_data,
    write_entries,
)

KILLS = int(os.environ.get("PAPERSHELF_CRASH_KILLS", "10"))
SEED = int(os.environ.get("PAPERSHELF_CRASH_SEED", "2026"))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return build_world(tmp_path_factory.mktemp("crash"))


def test_killed_at_random_moments_nothing_is_lost(world: World) -> None:
    results = kill_many(world, KILLS, SEED)
    problems = [f"kill {r.number} ({r.action} after {r.delay:.2f} s): {kind}: {what}"
                for r in results for kind, what in r.problems.items()]
    assert problems == []
    print(json.dumps([(r.action, r.outcome) for r in results]))  # (seen with -s)
    assert len(results) == KILLS


@pytest.mark.parametrize("what", ["notes", "year"])
def test_typing_in_the_window_survives_a_kill_one_second_later(tmp_path: Path,
                                                               what: str) -> None:
    from tests.crash.window import TYPED, YEAR

    lib = tmp_path / "lib.sqlite"
    seeded_file(lib)
    env = environment() | {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH":
                            f"{ROOT / 'desktop'}{os.pathsep}{ROOT}"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.crash.window", str(lib),
                             str(tmp_path / "settings.ini"), what], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    stuck = threading.Timer(120, proc.kill)  # (a window that never types ends the test)
    stuck.start()
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("typed "), proc.stderr.read() if proc.stderr else ""
        key = line.split()[1]
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1.0)  # the window runs on for a second after the typing
    finally:
        stuck.cancel()
        proc.kill()
        proc.communicate()
    assert backup.integrity_errors(lib) == []
    library = Library.open(str(lib))
    try:
        (pid,) = library.ids_for_keys([key])[0]
        paper = library.paper(pid)
        assert paper is not None
        if what == "notes":
            assert paper.record.notes == TYPED
        else:  # (a field edit, sent as the field is left)
            assert paper.record.year == int(YEAR)
            assert paper.key == key
    finally:
        library.close()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 12 MB tmpfs, mounted for the test (needs root, as CI has)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs the tests as root)")
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(mount)],
                   check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def _fill(disk: Path, leave: int) -> Path:
    """Fill the disk but for about `leave` bytes."""
    filler = disk / "filler"
    free = shutil.disk_usage(disk).free
    with open(filler, "wb") as out:
        out.write(b"\0" * max(0, free - leave))
    return filler


def test_a_full_disk_loses_nothing(small_disk: Path, tmp_path: Path) -> None:
    lib = small_disk / "lib.sqlite"
    seeded_file(lib)
    before = user_data(lib)
    bib = tmp_path / "big.bib"
    write_entries(bib, 3000, "big")
    export = small_disk / "refs.bib"
    export.write_text("% the user's earlier export\n", encoding="utf-8")
    backup.daily_backup(lib)  # (today's is made: the commands below only do their work)
    filler = _fill(small_disk, 200_000)

    proc = subprocess.run(papershelf(lib, "import", str(bib)), env=environment(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "disk is full" in proc.stderr, proc.stderr
    proc = subprocess.run(papershelf(lib, "export", "--all", "-o", str(export)),
                          env=environment(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    # The export cannot be written; or, when the import closed the library's last
    # connection (its log files gone), the library cannot even be opened: either way
    # one line says what is wrong.
    assert ("refs.bib" in proc.stderr or "the disk is full" in proc.stderr), proc.stderr
    assert "Traceback" not in proc.stderr
    assert export.read_text(encoding="utf-8") == "% the user's earlier export\n"
    assert {p.name for p in small_disk.iterdir()} - {"lib.sqlite-shm", "lib.sqlite-wal"} == {
        "backups", "filler", "lib.sqlite", "refs.bib"}

    filler.unlink()  # room again: everything is as it was, and works
    assert backup.integrity_errors(lib) == []
    assert user_data(lib) == before
    proc = subprocess.run(papershelf(lib, "import", str(bib)), env=environment(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "3000 added" in proc.stdout


def test_a_read_only_folder_says_so(small_disk: Path) -> None:
    lib = small_disk / "lib.sqlite"
    seeded_file(lib)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    proc = subprocess.run(papershelf(lib, "star", "icml2024framequant"), env=environment(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "read-only" in proc.stderr or "cannot be written" in proc.stderr, proc.stderr


STRESS_RUNS = int(os.environ.get("PAPERSHELF_STRESS_RUNS", "6"))
STRESS_PAPERS = 2_400  # (more than the window's bulk size: bulk writes are driven too)


def go_on(proc: subprocess.Popen[str]) -> None:
    """Let the stress window go on to its next burst of keys (it waits after each)."""
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()


def _library_state(lib: Path) -> dict[str, object]:
    """A fresh reader's view of what the stress window shows (`tests.crash.stress`)."""
    library = Library.open(str(lib))
    try:
        details = library.details(library.view_ids())
        return {str(d.id): [d.starred, d.read_state, d.record.notes] for d in details}
    finally:
        library.close()


@pytest.fixture(scope="module")
def stress_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stress")
    lib = seeded_file(folder / "lib.sqlite")
    write_entries(folder / "more.bib", STRESS_PAPERS, "stress")
    library = Library.open(str(lib))
    try:
        library.import_file(folder / "more.bib")
        library.index_pending()
    finally:
        library.close()
    return lib


@pytest.mark.parametrize("run", range(STRESS_RUNS))
def test_what_the_window_shows_as_done_is_what_every_reader_sees(
        run: int, stress_library: Path, tmp_path: Path) -> None:
    """A window driven at random (bulk stars, read states, notes, undo and redo, the
    interface language changed) shows each step only once another reader sees it too,
    and a kill (SIGKILL) or a logout (SIGTERM) loses nothing it showed; SIGTERM ends it
    cleanly, with every step asked for written."""
    rnd = random.Random(SEED * 100 + run)
    lib = tmp_path / "lib.sqlite"
    shutil.copy(stress_library, lib)
    env = environment() | {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH":
                            f"{ROOT / 'desktop'}{os.pathsep}{ROOT}"}
    proc = subprocess.Popen([sys.executable, "-m", "tests.crash.stress", str(lib),
                             str(tmp_path / "settings.ini"), str(rnd.randrange(10**6))],
                            env=env, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    terminate = run % 2 == 0
    bursts = rnd.randint(3, 8)
    shown: dict[str, object] | None = None
    watchdog = threading.Timer(180, proc.kill)  # (a window that hangs fails, not waits)
    watchdog.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.startswith("shown "):
                continue
            shown = json.loads(line.split(" ", 2)[2])
            assert shown["papers"] == _library_state(lib), "shown, but not written"
            bursts -= 1
            if bursts == 0:
                break
            go_on(proc)
        assert shown is not None, proc.stderr.read() if proc.stderr else ""
        if not terminate:
            proc.kill()  # (between two bursts: what it showed last is all it did)
            proc.communicate()
            assert _library_state(lib) == shown["papers"]
        else:
            # A logout comes at any moment: here in the next burst of keys, often with
            # steps not yet written, and those are written before it ends.
            go_on(proc)
            proc.stdout.readline()
            proc.send_signal(15)
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            final = [line for line in out.splitlines() if line.startswith("final ")]
            assert final, err
            last = json.loads(final[-1].split(" ", 2)[2])
            assert _library_state(lib) == last["papers"]
            assert backup.closed_cleanly(lib)
            assert "Traceback" not in err, err
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert backup.integrity_errors(lib) == []
