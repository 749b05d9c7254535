"""The crash harness: a real `papershelf` process killed with SIGKILL at random moments.

Used by tests/test_crash.py (10 kills) and `make bench` (50 kills, the reliability rows).
Each kill interrupts one of: an import of 20,000 entries (read in pieces by worker
processes), starring 20,000 papers, a notes edit, regenerating 5,000 keys, a merge, and a
schema migration. `kill_once` then checks the library and says what, if anything, went
wrong: not sound (integrity check), the user's data changed, the action half done,
processes or temporary files left behind, or the next start failing.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from papershelf.core import backup, db
from papershelf.core.library import Library, View

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "seeds"

PAPERS = 20_000
ACTIONS = ("import", "star", "note", "regenerate", "merge", "migrate")
NOTE = "Rewritten " * 500


def papershelf(library: Path, *args: str) -> list[str]:
    """The command line of a real papershelf process on `library`."""
    return [sys.executable, "-m", "papershelf", "--library", str(library), *args]


def environment() -> dict[str, str]:
    """The environment of a papershelf process the harness starts (this checkout's code,
    no sample papers)."""
    env = dict(os.environ)
    env["PAPERSHELF_SEEDS"] = ""  # (the libraries here are never new)
    env["PYTHONPATH"] = str(ROOT / "desktop")
    return env


def write_entries(path: Path, count: int, prefix: str) -> None:
    """A BibTeX file of `count` distinct papers with abstracts (big enough, at 20,000, to
    be read in pieces by worker processes)."""
    words = ("graph learning model robust sparse kernel policy token bound data "
             "attention prior noise sample").split()
    with open(path, "w", encoding="utf-8") as out:
        for n in range(count):
            rnd = random.Random(n)
            title = " ".join(rnd.choice(words) for _ in range(8))
            abstract = " ".join(rnd.choice(words) for _ in range(120))
            out.write(f"@inproceedings{{{prefix}{n},\n  author = {{Doe{n % 97}, Ann and "
                      f"Roe{n % 89}, Bo}},\n  title = {{{prefix} {n}: {title}}},\n"
                      f"  booktitle = {{ICML}},\n  year = {{{2000 + n % 25}}},\n"
                      f"  abstract = {{{abstract} {prefix}{n}}}\n}}\n\n")


@dataclass
class World:
    """The prepared libraries and files the kills start from."""

    folder: Path
    base: Path  # 38 sample papers + 20,000 imported, with the user's own data
    old: Path  # the same at the previous schema revision (for the migration)
    incoming: Path  # 20,000 new entries to import
    papers: int  # how many papers the base library has besides the 38 samples
    star_keys: list[str]
    regen_keys: list[str]
    durations: dict[str, float]


def user_data(path: Path) -> dict[str, tuple[object, ...]]:
    """The user's own data of the sample papers: star, read state, notes, tags."""
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
        # (before schema 0007, stars and read states were columns of papers)
        personal = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'personal'"
                                ).fetchone()
        mine = ("coalesce(m.starred, 0), coalesce(m.read_state, 'unread')" if personal
                else "starred, read_state")
        join = "LEFT JOIN personal m ON m.paper_id = p.id " if personal else ""
        return {key: (starred, state, notes, tags) for key, starred, state, notes, tags in
                conn.execute(f"SELECT key, {mine}, notes, tags_text FROM papers p {join}"
                             "WHERE key LIKE 'icml2024%' ORDER BY key")}


def build_world(folder: Path, papers: int = PAPERS) -> World:
    """The libraries and files the kills start from, in `folder`; each action is run once
    whole first (it works, and its duration sets the range of kill moments)."""
    base = folder / "base" / "lib.sqlite"
    base.parent.mkdir()
    existing, incoming = folder / "existing.bib", folder / "incoming.bib"
    write_entries(existing, papers, "old")
    write_entries(incoming, papers, "new")
    library = Library.open(str(base))
    library.ensure_sample(SEEDS)
    library.import_file(existing)
    library.index_pending()
    sample = library.view_ids(View(sort="added"))[:6]  # sample papers come first
    library.set_starred(sample[:3], True)
    library.set_read_state(sample[2:5], "read")
    library.set_notes(sample[0], "My notes: compare with the baseline.")
    library.add_tags(sample[1:4], ["to-cite"])
    library.close()
    old = folder / "old" / "lib.sqlite"
    old.parent.mkdir()
    shutil.copy(base, old)
    downgrade(old, db.KNOWN_REVISIONS[-2])
    keys = [f"old{n}" for n in range(papers)]
    w = World(folder, base, old, incoming, papers, keys, keys[:papers // 4], {})
    for action in ACTIONS:  # each once, whole: it works, and how long it takes
        started = time.perf_counter()
        lib = _fresh(w, action, folder / f"whole-{action}")
        proc = subprocess.run(_command(w, action, lib), env=environment(),
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        w.durations[action] = time.perf_counter() - started
        assert _outcome(w, action, lib) == "done", action
    return w


def downgrade(library: Path | str, revision: str) -> None:
    """Take a library's schema (a file's, or a database's at a URL) back to an older
    `revision` (as an older Papershelf wrote it), with the migrations' own downgrades."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS_DIR))
    engine = db.create_library_engine(
        library if isinstance(library, str) else f"sqlite:///{library}")
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, revision)
    finally:
        engine.dispose()


def _fresh(world: World, action: str, folder: Path) -> Path:
    folder.mkdir(parents=True)
    lib = folder / "lib.sqlite"
    shutil.copy(world.old if action == "migrate" else world.base, lib)
    return lib


def _command(world: World, action: str, lib: Path) -> list[str]:
    if action == "import":
        return papershelf(lib, "import", str(world.incoming))
    if action == "star":
        return papershelf(lib, "star", *world.star_keys)
    if action == "note":
        return papershelf(lib, "note", "icml2024framequant", NOTE)
    if action == "regenerate":
        return papershelf(lib, "regenerate-keys", *world.regen_keys)
    if action == "merge":
        return papershelf(lib, "merge", "old1", "old2")
    return papershelf(lib, "info")  # opening migrates


class Partial(Exception):
    """The library holds part of an action: the all-or-nothing promise broken."""


def _outcome(world: World, action: str, lib: Path) -> str:
    """'done' or 'not done' for the action on `lib`; Partial if it is anything between."""
    with contextlib.closing(sqlite3.connect(f"{lib.resolve().as_uri()}?mode=ro",
                                            uri=True)) as conn:
        def one(sql: str) -> object:
            return conn.execute(sql).fetchone()[0]

        def expect(ok: bool, what: str) -> None:
            if not ok:
                raise Partial(f"{action}: {what}")

        total = one("SELECT count(*) FROM papers")
        n, regen = world.papers, len(world.regen_keys)
        if action == "import":
            new = one("SELECT count(*) FROM papers WHERE key LIKE 'new%'")
            expect((total, new) in ((n + 38, 0), (2 * n + 38, n)),
                   f"{new} of {n} papers imported")
            return "done" if new else "not done"
        if action == "star":
            starred = one("SELECT count(*) FROM papers p JOIN personal m "
                          "ON m.paper_id = p.id WHERE key LIKE 'old%' AND m.starred")
            expect(starred in (0, n), f"{starred} of {n} starred")
            return "done" if starred else "not done"
        if action == "note":
            notes = one("SELECT notes FROM papers WHERE key = 'icml2024framequant'")
            expect(notes in ("", NOTE), "the notes are neither the old nor the new ones")
            return "done" if notes else "not done"
        if action == "regenerate":
            kept = one("SELECT count(*) FROM papers WHERE key GLOB 'old[0-9]*' AND "
                       f"CAST(substr(key, 4) AS INTEGER) < {regen}")
            expect(kept in (0, regen) and total == n + 38,
                   f"{kept} of {regen} keys not regenerated")
            return "not done" if kept else "done"
        if action == "merge":
            both = one("SELECT count(*) FROM papers WHERE key IN ('old1', 'old2')")
            expect(both in (1, 2) and total == n + 38 - (2 - both),
                   f"{both} of the 2 papers, {total} papers in all")
            return "done" if both == 1 else "not done"
        revision = one("SELECT version_num FROM alembic_version")
        expect(revision in db.KNOWN_REVISIONS[-2:] and total == n + 38,
               f"schema {revision} with {total} papers")
        return "done" if revision == db.SCHEMA_HEAD else "not done"


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@dataclass
class KillResult:
    """What one kill found: the action, whether it had happened, and each broken promise
    by kind ("corrupt", "partial", "lost edits", "left running", "left files",
    "next start")."""

    number: int
    action: str
    delay: float
    outcome: str = ""
    problems: dict[str, str] = field(default_factory=dict)


def kill_once(world: World, number: int, action: str, delay: float) -> KillResult:
    """Run the action on a fresh copy, SIGKILL it after `delay` seconds (or let it finish
    first), and check everything the harness promises."""
    result = KillResult(number, action, delay)
    lib = _fresh(world, action, world.folder / f"kill-{number}")
    before = user_data(lib)
    proc = subprocess.Popen(_command(world, action, lib), env=environment(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        proc.wait(timeout=delay)  # it may finish first: a kill after the end
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    # Worker processes notice that their importer is gone and end within a second or so.
    deadline = time.monotonic() + 15
    while group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if group_alive(proc.pid):
        result.problems["left running"] = "processes of the killed papershelf still run"
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    leftovers = [p.name for p in lib.parent.iterdir()
                 if p.name not in ("lib.sqlite", "lib.sqlite-wal", "lib.sqlite-shm", "backups")]
    if leftovers:
        result.problems["left files"] = ", ".join(leftovers)
    errors = backup.integrity_errors(lib)
    if errors:
        result.problems["corrupt"] = errors[0]
        return result
    try:
        result.outcome = _outcome(world, action, lib)
    except Partial as exc:
        result.problems["partial"] = str(exc)
    after = user_data(lib)
    if action == "note":
        after.pop("icml2024framequant", None)
        before.pop("icml2024framequant", None)
    if after != before:
        result.problems["lost edits"] = "the user's stars, read states, notes or tags changed"
    # The next start works, and finishes whatever the kill left unsearchable.
    again = subprocess.run(papershelf(lib, "search", "compare"), env=environment(),
                           capture_output=True, text=True, timeout=300)
    if again.returncode != 0 or backup.integrity_errors(lib):
        result.problems["next start"] = again.stderr.strip()[:200]
    # A backup (or restore) killed mid-copy leaves its temporary file only until that
    # next start: none in the backups folder, nor beside the library.
    temporaries = [p.name for folder in (backup.backup_folder(lib), lib.parent)
                   if folder.is_dir() for p in folder.iterdir() if p.name.endswith(".tmp")]
    if temporaries:
        result.problems["left files"] = ", ".join(temporaries)
    broken = [b.path.name for b in backup.list_backups(lib) if b.papers is None]
    if broken:
        result.problems["corrupt"] = f"backups that cannot be read: {broken}"
    shutil.rmtree(lib.parent)
    return result


def kill_many(world: World, kills: int, seed: int) -> list[KillResult]:
    """`kills` kills over the actions in turn, at moments drawn from a seeded generator."""
    rng = random.Random(seed)
    results = []
    for number in range(kills):
        action = ACTIONS[number % len(ACTIONS)]
        delay = rng.uniform(0.05, world.durations[action])
        results.append(kill_once(world, number, action, delay))
    return results
