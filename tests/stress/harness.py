"""Many programs on one library file, killed at random (issue 37).

Each round starts from the same library file (the 38 sample papers and a few papers of
each program's own) and runs these programs at once (the window first in half the
rounds), for a few seconds once the window shows its papers:

- the window (tests/stress/window.py, offscreen): stars, read states, notes typed and
  titles edited on its own papers, now and then a backup; a write is acknowledged once
  the window's operations finished it and the window shows it;
- two to four command-line programs, one after another in each of two to four slots
  (`papershelf star/unstar/mark-*/note/tag/set/import` on the slot's own papers or
  with its own tokens, and `export`, `auto-export run`, `backup`, which only read); a
  write is acknowledged when the command exited 0;
- the Zotero Connector's receiver (`papershelf serve-connector`), sent `saveItems` of
  papers of unique titles on 127.0.0.1; acknowledged when it answered 201;

and SIGKILLs one of them (its whole process group) at one to three random moments; a
killed window or receiver is started again. At the end of the round no live program may
hold a deleted library file (its /proc/PID/fd links to LIB, LIB-wal or LIB-shm ending in
" (deleted)": SQLite's log removed under a live connection, whose later writes are lost),
then every program is killed. Afterwards the library passes `PRAGMA integrity_check`,
its backups can be read, no process of the round is left, and every acknowledged write
is in the library: a token (a note's words, a tag, an imported key, a received title)
is there; a value (a star, a read state, a title, a command-line note) is the one last
acknowledged or one the same program asked for after it (a later write it had not
acknowledged yet). No program writes another's papers, so nothing else may change them.

Used by `make stress` (tests/stress/__main__.py, 200 rounds and more) and
tests/test_stress.py (a few rounds).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from papershelf.core import autoexport, backup
from papershelf.core.library import Library
from tests.crash.harness import (
    ROOT,
    SEEDS,
    environment,
    group_alive,
    papershelf,
    write_entries,
)

KINDS = ("window", "cli", "connector")
WINDOW_PAPERS = 4  # papers of the window's own
SLOT_PAPERS = 4  # papers of each command-line slot's own
MAX_SLOTS = 4
ROUND_SECONDS = (4.0, 8.0)  # how long a round runs once the window is ready (at random)
KILLS = (1, 3)  # random kills in a round
READY_SECONDS = 60.0  # a receiver not listening by then is killed; the window waited for
JOIN_SECONDS = 30.0  # the round's threads end within this once everything is killed
API = {"X-Zotero-Connector-API-Version": "3", "X-Zotero-Version": "5.0.97",
       "Content-Type": "application/json"}
STATES = ("unread", "reading", "read")
# The value kinds (a later write replaces the earlier one) and token kinds (each stays).
VALUES = ("star", "read", "note", "title")
TOKENS = ("note-token", "tag", "import", "saved")


def window_keys() -> list[str]:
    return [f"win{n}" for n in range(WINDOW_PAPERS)]


def slot_keys(slot: int) -> list[str]:
    return [f"cli{slot}p{n}" for n in range(SLOT_PAPERS)]


def build_template(folder: Path) -> Path:
    """The library each round starts from, closed: the sample papers, the programs' own
    papers, and an auto-export of the starred papers into the round's folder (so that
    a command-line write refreshes it, as a LaTeX user's would)."""
    folder.mkdir(parents=True, exist_ok=True)
    lib = folder / "lib.sqlite"
    own = folder / "own.bib"
    keys = window_keys() + [k for slot in range(MAX_SLOTS) for k in slot_keys(slot)]
    own.write_text("".join(
        f"@article{{{key},\n  author = {{Doe, Ann}},\n  title = {{Paper {key} of its "
        f"own}},\n  journal = {{J}},\n  year = {{2020}}\n}}\n\n" for key in keys),
        encoding="utf-8")
    library = Library.open(str(lib))
    try:
        library.ensure_sample(SEEDS)
        library.import_file(own)
        library.index_pending()
        round_folder(folder.parent).mkdir(exist_ok=True)
        autoexport.add(library, round_folder(folder.parent) / "starred.bib", "starred")
    finally:
        library.close()
    return lib


def round_folder(base: Path) -> Path:
    return base / "round"


# -- the ledger of writes ---------------------------------------------------------------


@dataclass
class Write:
    """One write a program asked for: what, of which target, which value or token."""

    actor: str  # "window", "cli0".., "connector"
    kind: str  # VALUES or TOKENS
    target: str  # a paper's key ("" for imports and received papers)
    value: str
    acked: bool = False


@dataclass
class Ledger:
    """Every write asked for in a round, in order, and what the programs reported."""

    writes: list[Write] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # writes a program said it failed
    reads: Counter[str] = field(default_factory=Counter)  # export, backup, ... that ran
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ask(self, write: Write) -> Write:
        with self.lock:
            self.writes.append(write)
        return write

    def refuse(self, what: str) -> None:
        with self.lock:
            self.refused.append(what)


# -- the programs ------------------------------------------------------------------------


class Programs:
    """The processes of a round: started in sessions of their own, so that a kill takes
    a whole program (the import's worker processes too); each is killed and reaped at
    the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lock = threading.Lock()
        self.live: dict[int, tuple[str, subprocess.Popen[str]]] = {}
        self.started: list[subprocess.Popen[str]] = []
        self.stopping = threading.Event()
        self.logs: dict[int, Path] = {}  # each program's standard error

    def start(self, kind: str, argv: list[str], env: dict[str, str], *,
              stdout: bool = False) -> subprocess.Popen[str] | None:
        """Start a program (None once the round is ending); its standard error goes to a
        file of the round's folder, kept when the round fails."""
        with self.lock:
            if self.stopping.is_set():
                return None
            log = self.folder / f"{kind}-{len(self.started) + 1}.err"
            with open(log, "w") as err:
                proc = subprocess.Popen(
                    argv, env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE if stdout else subprocess.DEVNULL, stderr=err,
                    text=True, start_new_session=True)
            self.live[proc.pid] = (kind, proc)
            self.started.append(proc)
            self.logs[proc.pid] = log
            return proc

    def ended(self, proc: subprocess.Popen[str]) -> None:
        with self.lock:
            self.live.pop(proc.pid, None)

    def alive(self) -> list[tuple[str, subprocess.Popen[str]]]:
        with self.lock:
            return [(k, p) for k, p in self.live.values() if p.poll() is None]

    @staticmethod
    def kill(proc: subprocess.Popen[str]) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def kill_all(self) -> list[tuple[str, subprocess.Popen[str]]]:
        """Start no more programs, kill every live one; those killed."""
        with self.lock:
            self.stopping.set()
            live = [(k, p) for k, p in self.live.values() if p.poll() is None]
        for _kind, proc in live:
            self.kill(proc)
        return live

    def left_running(self) -> list[int]:
        """Process groups of the round still there after everything was killed and
        reaped (a worker process that outlived its program)."""
        left = []
        for proc in self.started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.poll() is None or group_alive(proc.pid):
                left.append(proc.pid)
        return left


def deleted_library_files(pid: int, lib: Path) -> list[str]:
    """The library's files (LIB, LIB-wal, LIB-shm) a process holds open although they
    were deleted: its descriptors' links in /proc ending in " (deleted)"."""
    names = {str(lib), f"{lib}-wal", f"{lib}-shm"}
    found = []
    folder = f"/proc/{pid}/fd"
    with contextlib.suppress(OSError):
        for fd in os.listdir(folder):
            with contextlib.suppress(OSError):
                target = os.readlink(f"{folder}/{fd}")
                if target.endswith(" (deleted)") and target[:-10] in names:
                    found.append(Path(target[:-10]).name)
    return sorted(set(found))


# -- one round ---------------------------------------------------------------------------


@dataclass
class RoundResult:
    """What a round did and found: kills at random moments by kind, writes asked and
    acknowledged by program kind, and each broken promise (empty: none)."""

    number: int
    seed: int
    seconds: float = 0.0
    slots: int = 0
    kills: Counter[str] = field(default_factory=Counter)  # at random moments
    end_kills: int = 0  # programs killed at the round's end
    window_first: bool = False  # the others started once the window was ready
    window_ready: bool = False  # the window was ready (within READY_SECONDS)
    asked: Counter[str] = field(default_factory=Counter)
    acked: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # by kind and reason
    reads: int = 0
    backups: int = 0  # the window's Back Up Now
    failures: list[str] = field(default_factory=list)


class Round:
    """One round's programs, in threads of the harness (one per program slot), and the
    killer in the calling thread."""

    def __init__(self, base: Path, template: Path, number: int, seed: int,
                 seconds: tuple[float, float] = ROUND_SECONDS) -> None:
        self.rnd = random.Random(seed)
        self.seconds = seconds
        self.result = RoundResult(number, seed)
        self.folder = round_folder(base)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.lib = self.folder / "lib.sqlite"
        shutil.copy(template, self.lib)
        self.programs = Programs(self.folder)
        self.ledger = Ledger()
        self.env = environment()
        self.window_env = self.env | {
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": f"{ROOT / 'desktop'}{os.pathsep}{ROOT}"}
        self.errors: list[str] = []  # the harness's own (a thread that failed)
        self.window_backups = 0
        self.window_ready = threading.Event()  # (a window of the round showed its papers)

    # The programs -----------------------------------------------------------------------

    def _thread(self, name: str, body: Callable[[random.Random], None]) -> threading.Thread:
        rnd = random.Random(self.rnd.randrange(1 << 30))

        def run() -> None:
            try:
                body(rnd)
            except Exception as exc:  # (reported as the round's failure, not lost)
                if not self.programs.stopping.is_set():
                    self.errors.append(f"{name}: {type(exc).__name__}: {exc}")

        thread = threading.Thread(target=run, name=name, daemon=True)
        thread.start()
        return thread

    def window(self, rnd: random.Random) -> None:
        """The window, started again after each kill until the round ends."""
        settings = self.folder / "settings.ini"
        while not self.programs.stopping.is_set():
            proc = self.programs.start("window", [
                sys.executable, "-m", "tests.stress.window", str(self.lib), str(settings),
                str(rnd.randrange(1 << 30)), ",".join(window_keys())],
                self.window_env, stdout=True)
            if proc is None:
                return
            asked: dict[int, Write] = {}
            assert proc.stdout is not None
            for line in proc.stdout:
                word, _, rest = line.rstrip("\n").partition(" ")
                if word == "asked":
                    number, kind, key, value = rest.split(" ", 3)
                    asked[int(number)] = self.ledger.ask(Write(
                        "window", "note-token" if kind == "note" else kind, key, value))
                elif word in ("ack", "nack"):
                    upto = int(rest.split(" ", 1)[0])
                    for done in [n for n in asked if n <= upto]:
                        write = asked.pop(done)
                        write.acked = word == "ack"
                        if word == "nack":
                            self.ledger.refuse(f"window {write.kind}: {rest}")
                elif word == "backup":
                    self.window_backups += 1
                elif word == "ready":
                    self.window_ready.set()
            proc.stdout.close()
            proc.wait()
            self.programs.ended(proc)

    def slot(self, number: int) -> Callable[[random.Random], None]:
        """A command-line slot: one command after another on its own papers."""
        keys = slot_keys(number)
        actor = f"cli{number}"

        def run(rnd: random.Random) -> None:
            made = 0
            while not self.programs.stopping.is_set():
                made += 1
                token = f"{actor}r{self.result.number}n{made}x{rnd.randrange(10**6)}"
                argv, writes, read = self._command(rnd, actor, keys, token)
                proc = self.programs.start("cli", papershelf(self.lib, *argv), self.env)
                if proc is None:
                    return
                asked = [self.ledger.ask(w) for w in writes]
                status = proc.wait()
                self.programs.ended(proc)
                if status == 0:
                    for write in asked:
                        write.acked = True
                    if read:
                        with self.ledger.lock:
                            self.ledger.reads[argv[0]] += 1
                elif status != -signal.SIGKILL:
                    said = self.programs.logs[proc.pid].read_text(errors="replace")
                    self.ledger.refuse(f"cli {argv[0]}: {said.strip()[-200:]}")

        return run

    def _command(self, rnd: random.Random, actor: str, keys: list[str], token: str
                 ) -> tuple[list[str], list[Write], bool]:
        """A command of a slot: its arguments, the writes it asks, whether it only reads."""
        key = rnd.choice(keys)
        what = rnd.choice(("star", "star", "read", "read", "note", "tag", "title",
                           "import", "export", "auto-export", "backup"))
        if what == "star":
            on = rnd.random() < 0.5
            return [("star" if on else "unstar"), key], [
                Write(actor, "star", key, str(int(on)))], False
        if what == "read":
            state = rnd.choice(STATES)
            return [f"mark-{state}", key], [Write(actor, "read", key, state)], False
        if what == "note":
            text = f"Notes {token}"
            return ["note", key, text], [Write(actor, "note", key, text)], False
        if what == "tag":
            return ["tag", key, token], [Write(actor, "tag", key, token)], False
        if what == "title":
            title = f"Title {token}"
            return ["set", key, f"title={title}"], [Write(actor, "title", key, title)], False
        if what == "import":
            bib = self.folder / f"{token}.bib"
            write_entries(bib, 2, token)
            return ["import", str(bib)], [Write(actor, "import", "", f"{token}{n}")
                                          for n in range(2)], False
        if what == "export":
            return ["export", "--all", "-o", str(self.folder / f"{actor}.bib")], [], True
        if what == "auto-export":
            return ["auto-export", "run"], [], True
        return ["backup"], [], True

    def connector(self, rnd: random.Random) -> None:
        """The Connector's receiver, sent saveItems until it is killed (then started
        again) or the round ends."""
        while not self.programs.stopping.is_set():
            proc = self.programs.start("connector", papershelf(
                self.lib, "serve-connector", "--port", "0"), self.env, stdout=True)
            if proc is None:
                return
            assert proc.stdout is not None
            timer = threading.Timer(READY_SECONDS, Programs.kill, (proc,))
            timer.start()
            line = proc.stdout.readline()  # "receiving papers ... on 127.0.0.1:PORT (...)"
            timer.cancel()
            drain = threading.Thread(target=proc.stdout.read, daemon=True)
            drain.start()  # (a line per paper saved, until it ends)
            if "127.0.0.1:" in line:
                port = int(line.split("127.0.0.1:", 1)[1].split()[0])
                made = 0
                while proc.poll() is None and not self.programs.stopping.is_set():
                    made += 1
                    self._save_item(port, f"Received r{self.result.number} n{made} "
                                    f"x{rnd.randrange(10**6)}")
                    self.programs.stopping.wait(rnd.uniform(0, 0.2))
            drain.join()
            proc.stdout.close()
            proc.wait()
            self.programs.ended(proc)

    def _save_item(self, port: int, title: str) -> None:
        write = self.ledger.ask(Write("connector", "saved", "", title))
        body = json.dumps({"sessionID": title, "items": [{
            "id": "item-1", "itemType": "journalArticle", "title": title,
            "creators": [{"firstName": "Ada", "lastName": "Lovelace",
                          "creatorType": "author"}],
            "date": "2024", "publicationTitle": "Journal of Received Papers"}]})
        con = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            con.request("POST", "/connector/saveItems", body=body, headers=API)
            answer = con.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException):
            return  # (killed while it saved: not acknowledged)
        finally:
            con.close()
        if answer.status == 201:
            write.acked = True
        else:
            self.ledger.refuse(f"connector saveItems: {answer.status}")

    # The round --------------------------------------------------------------------------

    def run(self) -> RoundResult:
        started = time.perf_counter()
        result = self.result
        rnd = self.rnd
        result.slots = rnd.randint(2, MAX_SLOTS)
        length = rnd.uniform(*self.seconds)
        moments = sorted(rnd.uniform(0.3, length) for _ in range(rnd.randint(*KILLS)))
        # The window first, the others once it shows its papers (it makes the day's
        # backup), or all at once (a command or the receiver makes it); either way the
        # round's time and kills count from the moment the window is ready (a window
        # starts in seconds, longer on a busy machine).
        result.window_first = rnd.random() < 0.5
        threads = [self._thread("window", self.window)]
        if result.window_first:
            self.window_ready.wait(READY_SECONDS)
        threads.append(self._thread("connector", self.connector))
        threads += [self._thread(f"cli{n}", self.slot(n)) for n in range(result.slots)]
        self.window_ready.wait(READY_SECONDS)
        result.window_ready = self.window_ready.is_set()
        begun = time.monotonic()
        for moment in moments:
            self.programs.stopping.wait(max(0.0, begun + moment - time.monotonic()))
            self._kill_one()
        self.programs.stopping.wait(max(0.0, begun + length - time.monotonic()))
        # The end: nobody may hold a deleted library file; then everything is killed.
        for kind, proc in self.programs.alive():
            self._check_deleted(kind, proc)
        result.end_kills = len(self.programs.kill_all())
        for thread in threads:
            thread.join(JOIN_SECONDS)
            if thread.is_alive():
                result.failures.append(f"stuck: the {thread.name} thread did not end")
        left = self.programs.left_running()
        if left:
            result.failures.append(f"left running: process groups {left}")
            for pgid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pgid, signal.SIGKILL)
        result.failures += [f"harness: {e}" for e in self.errors]
        self._check_library()
        result.seconds = time.perf_counter() - started
        return result

    def _kill_one(self) -> None:
        """SIGKILL one live program, of a kind drawn first (the command-line programs
        come and go; the window and the receiver are there all along)."""
        alive = self.programs.alive()
        kinds = sorted({kind for kind, _ in alive})
        if not kinds:
            return
        kind = self.rnd.choice(kinds)
        proc = self.rnd.choice([p for k, p in alive if k == kind])
        self._check_deleted(kind, proc)
        Programs.kill(proc)
        self.result.kills[kind] += 1

    def _check_deleted(self, kind: str, proc: subprocess.Popen[str]) -> None:
        held = deleted_library_files(proc.pid, self.lib)
        if held and proc.poll() is None:
            self.result.failures.append(
                f"deleted file held: the {kind} (pid {proc.pid}) holds {held} (deleted)")

    def _check_library(self) -> None:
        result = self.result
        for write in self.ledger.writes:
            kind = "cli" if write.actor.startswith("cli") else write.actor
            result.asked[kind] += 1
            result.acked[kind] += write.acked
        result.refused = Counter(reason(what) for what in self.ledger.refused)
        result.reads = sum(self.ledger.reads.values())
        result.backups = self.window_backups
        errors = backup.integrity_errors(self.lib)
        if errors:
            result.failures.append(f"corrupt: {errors[0]}")
            return
        broken = [b.path.name for b in backup.list_backups(self.lib) if b.papers is None]
        if broken:
            result.failures.append(f"corrupt: backups that cannot be read: {broken}")
        result.failures += lost_writes(self.lib, self.ledger.writes)


def reason(refusal: str) -> str:
    """A refusal's program and its reason in a few words (the library busy, or the
    start of what the program said)."""
    who, _, said = refusal.partition(" ")
    if "busy" in said or "locked" in said:
        return f"{who}: the library busy"
    return f"{who}: {said[:60]}"


def library_contents(lib: Path) -> dict[str, object]:
    """What a fresh reader finds: each paper's star, read state, notes, title and tags by
    key, and every title."""
    with contextlib.closing(sqlite3.connect(f"{lib.resolve().as_uri()}?mode=ro",
                                            uri=True)) as conn:
        papers = {key: (str(int(starred)), state, notes, title) for
                  key, starred, state, notes, title in conn.execute(
                      "SELECT key, coalesce(m.starred, 0), coalesce(m.read_state, 'unread'), "
                      "notes, title FROM papers p LEFT JOIN personal m ON m.paper_id = p.id")}
        tags: dict[str, set[str]] = {}
        for key, name in conn.execute(
                "SELECT p.key, t.name FROM paper_tags pt JOIN papers p ON p.id = pt.paper_id "
                "JOIN tags t ON t.id = pt.tag_id"):
            tags.setdefault(key, set()).add(name)
    return {"papers": papers, "tags": tags,
            "titles": {paper[3] for paper in papers.values()}}


def lost_writes(lib: Path, writes: list[Write]) -> list[str]:
    """Each acknowledged write the library does not hold (a later write by the same
    program to the same target, acknowledged or not, may have replaced a value)."""
    found = library_contents(lib)
    papers: dict[str, tuple[str, str, str, str]] = found["papers"]  # type: ignore[assignment]
    tags: dict[str, set[str]] = found["tags"]  # type: ignore[assignment]
    titles: set[str] = found["titles"]  # type: ignore[assignment]
    lost = []
    column = {"star": 0, "read": 1, "note": 2, "title": 3}
    for values in _by_target(writes):
        last = max((n for n, w in enumerate(values) if w.acked), default=None)
        if last is None:
            continue
        write = values[last]
        paper = papers.get(write.target)
        now = None if paper is None else paper[column[write.kind]]
        if now not in {w.value for w in values[last:]}:
            lost.append(f"lost write: {write.actor} {write.kind} {write.target}: "
                        f"{write.value!r} acknowledged, the library has {now!r}")
    for write in writes:
        if not write.acked or write.kind in VALUES:
            continue
        paper = papers.get(write.target)
        there = {
            "note-token": paper is not None and write.value in paper[2],
            "tag": write.value in tags.get(write.target, set()),
            "import": write.value in papers,
            "saved": write.value in titles,
        }[write.kind]
        if not there:
            lost.append(f"lost write: {write.actor} {write.kind} {write.target} "
                        f"{write.value!r} acknowledged, not in the library")
    return lost


def _by_target(writes: list[Write]) -> Iterator[list[Write]]:
    """The value writes grouped by program, kind and paper, in the order asked."""
    groups: dict[tuple[str, str, str], list[Write]] = {}
    for write in writes:
        if write.kind in VALUES:
            groups.setdefault((write.actor, write.kind, write.target), []).append(write)
    yield from groups.values()


def run_rounds(base: Path, rounds: int, seed: int,
               report: Callable[[RoundResult], None] | None = None,
               keep_failed: int = 5,
               seconds: tuple[float, float] = ROUND_SECONDS) -> list[RoundResult]:
    """`rounds` rounds in `base` (a folder of its own), from a seeded generator, each
    running its programs for `seconds` (at random in that range); the folders of the
    first `keep_failed` failing rounds are kept as failed-N."""
    template = build_template(base / "template")
    rnd = random.Random(seed)
    results = []
    kept = 0
    for number in range(rounds):
        result = Round(base, template, number, rnd.randrange(1 << 30), seconds).run()
        results.append(result)
        if result.failures and kept < keep_failed:
            kept += 1
            shutil.copytree(round_folder(base), base / f"failed-{number}")
        if report is not None:
            report(result)
    shutil.rmtree(round_folder(base), ignore_errors=True)
    return results
