"""The PostgreSQL side of `make bench`: a server of the benchmark's own, its libraries, and
the command-line writers of figure 10.

The server is `tests.postgres_server.PostgresServer`, started as the tests start it (a
throwaway cluster on a Unix socket, run as the `postgres` OS user under root, fsync and
synchronous commit off: commits are not flushed to disk, on a library file they are). Its
libraries are copies of the cached library files (`core.copying.copy_library`, what
`papershelf copy FILE URL` does), made on first use, vacuumed and analysed, kept for the
run; the figures that write get a fresh copy (CREATE DATABASE … TEMPLATE). Everything is
opened as the superuser `postgres`, so no row-level security is in the way.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAME = "PostgreSQL"
SUFFIX = " (PostgreSQL)"  # appended to the names of the figures measured on it


class Unavailable(Exception):
    """PostgreSQL cannot be started here (not installed, no `postgres` OS user…)."""


class PostgresLibraries:
    """The benchmark's libraries on a PostgreSQL server of its own.

    `library(count)` is the URL of a library of `count` synthetic papers (the same
    papers as the cached library file, copied on first use); `fresh(count)` a new copy
    of it to write to. The server starts on first use; `close` stops it and deletes its
    files (also at interpreter exit, whatever happens).
    """

    name = NAME
    suffix = SUFFIX
    startup_ratio = 1.5  # the targets on a server: start-up at 1M / at 38,
    import_ratio = 1.5  # import of 100k / bibtexparser's parse

    def __init__(self, library_file: Callable[[int], Path], label: Callable[[int], str],
                 log: Callable[[str], None], notes: list[str]) -> None:
        self._library_file = library_file  # count -> a prepared (migrated) library file
        self._label = label  # count -> "1M"
        self.log = log
        self.notes = notes
        self._server: Any = None
        self._made: dict[int, str] = {}  # count -> database name
        self._fresh: list[str] = []  # fresh copies, dropped at the next one

    # -- the server -------------------------------------------------------------------

    @property
    def server(self) -> Any:
        """The running server (started on first use); Unavailable if it cannot be."""
        if self._server is None:
            import pytest

            from tests.postgres_server import PostgresServer

            for name in [n for n in os.environ if n.startswith("PG")]:
                del os.environ[name]  # no PGHOST, PGPASSWORD… of the user's reaches it
            start = time.perf_counter()
            try:
                server = PostgresServer()
            except pytest.fail.Exception as exc:  # (how the tests' class says "missing")
                raise Unavailable(str(exc)) from None
            self._server = server
            try:
                server.start()
            except RuntimeError as exc:
                raise Unavailable(f"the server did not start: {exc}") from None
            version = server.admin("SHOW server_version")[0][0]
            self.log(f"  PostgreSQL {version} started in {time.perf_counter() - start:.1f} s")
            self.notes.append(f"{NAME} {version}: a server of the benchmark's own on a Unix "
                              "socket (tests/postgres_server.py: fsync and synchronous "
                              "commit off)")
        return self._server

    def close(self) -> None:
        """Stop the server and delete its files (harmless if it never started)."""
        server, self._server = self._server, None
        if server is not None:
            server.stop()
            self.log(f"  {NAME} stopped")

    # -- libraries ------------------------------------------------------------------------

    def library(self, count: int) -> str:
        """The URL of a library of `count` synthetic papers (copied on first use)."""
        from papershelf.core.copying import copy_library

        server = self.server
        name = self._made.get(count)
        if name is None:
            path = self._library_file(count)
            name = server.create_database()
            self.log(f"  copying {path.name} onto {NAME}…")
            start = time.perf_counter()
            tenth = [0]

            def progress(done: int, total: int) -> None:
                if total and done * 10 >= (tenth[0] + 1) * total and count >= 100_000:
                    tenth[0] = done * 10 // total
                    self.log(f"    {tenth[0] * 10}% after {time.perf_counter() - start:.0f} s")

            try:
                copy_library(str(path), server.url(name), progress)
            except BaseException:
                server.drop_database(name)
                raise
            copied = time.perf_counter() - start
            start = time.perf_counter()
            # Statistics for the planner and the visibility map now, not by autovacuum
            # in the middle of a measurement; then nothing left to write out.
            server.admin("VACUUM (ANALYZE)", database=name)
            server.admin("CHECKPOINT")
            vacuumed = time.perf_counter() - start
            size = server.admin(f"SELECT pg_size_pretty(pg_database_size('{name}'))")[0][0]
            self.log(f"  copied in {copied:.0f} s, vacuumed in {vacuumed:.0f} s ({size})")
            self.notes.append(f"{NAME}: the {self._label(count)}-paper library copied from "
                              f"its file in {copied:.1f} s (copy_library), VACUUM ANALYZE "
                              f"{vacuumed:.1f} s, {size}")
            self._made[count] = name
        return str(server.url(name))

    def fresh(self, count: int) -> str:
        """A new copy of the library of `count` papers, for a measurement that writes."""
        self.library(count)
        server = self.server
        self._drop_fresh()
        template = self._made[count]
        self._cut(template)  # (a copy's template must have no one connected)
        name = server.create_database(template=template)
        self._fresh.append(name)
        return str(server.url(name))

    def discard(self, count: int) -> None:
        """The library of `count` papers is no longer as generated: drop it (the next
        `library(count)` copies it again)."""
        name = self._made.pop(count, None)
        if name is not None:
            self.server.drop_database(name)

    def after_child(self) -> None:
        """After a probe or worker: cut what it may have left running on the server (a
        query of a child killed at its time-out goes on until it is cancelled)."""
        if self._server is None:
            return
        self._server.admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname IS NOT NULL AND datname <> 'postgres' "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")

    def _cut(self, database: str) -> None:
        self.server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          f"WHERE datname = '{database}' AND pid <> pg_backend_pid()")

    def _drop_fresh(self) -> None:
        while self._fresh:
            self.server.drop_database(self._fresh.pop())


# -- figure 10: command-line writers ----------------------------------------------------------

# What each writer does in turn (writer w starting at the w-th); star and unstar alternate
# on its own paper.
WRITES = ("star", "note", "tag", "import", "unstar", "note", "tag")
IMPORT_ENTRIES = 2  # papers per small import


@dataclass
class Write:
    """One `papershelf` command of a writer, and how it went."""

    writer: int
    step: int
    kind: str
    args: list[str]
    start: float  # perf_counter
    seconds: float = 0.0
    ok: bool = False
    error: str = ""
    expect: dict[str, Any] = field(default_factory=dict)  # what the library must hold


def papershelf_command() -> list[str]:
    """How to run the command line: the venv's `papershelf`, else `python -m papershelf`."""
    script = Path(sys.executable).with_name("papershelf")
    return [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]


def small_bib(path: Path, writer: int, step: int) -> list[str]:
    """A .bib file of IMPORT_ENTRIES new papers of this writer's step; their keys."""
    rnd = random.Random(writer * 100_003 + step)
    keys, entries = [], []
    for n in range(IMPORT_ENTRIES):
        key = f"benchw{writer}s{step}n{n}"
        words = " ".join(rnd.choice(("sparse", "robust", "latent", "online", "causal",
                                     "kernel", "graph", "token", "bandit", "markov"))
                         for _ in range(6))
        keys.append(key)
        entries.append(f"@inproceedings{{{key},\n  title = {{Writer {writer} step {step} "
                       f"paper {n}: {words}}},\n  author = {{Writer, Number{writer} and "
                       f"Step, Count{step}}},\n  booktitle = {{Bench}},\n  year = {{2025}},\n"
                       f"  abstract = {{Written by writer {writer} at step {step} ({n}): "
                       f"{words} {rnd.random()}.}}\n}}\n")
    path.write_text("\n".join(entries), encoding="utf-8")
    return keys


def command_alone(url: str, env: dict[str, str], key: str, timeout: float) -> float:
    """Seconds for one `papershelf star` and one `unstar` of `key`, run alone (the
    mean of the two): what a writer's command costs without the others."""
    times = []
    for kind in ("star", "unstar"):
        start = time.perf_counter()
        subprocess.run([*papershelf_command(), kind, key, "--library", url], env=env,
                       capture_output=True, check=True, timeout=timeout)
        times.append(time.perf_counter() - start)
    return sum(times) / len(times)


def run_writers(url: str, env: dict[str, str], scratch: Path, own_keys: list[str],
                shared_key: str, seconds: float, timeout: float) -> list[Write]:
    """`len(own_keys)` writers, each running `papershelf` commands one after another for
    `seconds` on the library at `url` (a command started in time is let finish): star and
    unstar its own paper, replace its notes, tag the shared paper with new tags, import
    small .bib files. Every command and its outcome, in order of starting."""
    command = papershelf_command()
    folder = scratch / "writers"
    folder.mkdir(exist_ok=True)
    writes: list[Write] = []
    lock = threading.Lock()
    begin = time.perf_counter()

    def writer(w: int) -> None:
        step = 0
        while time.perf_counter() - begin < seconds:
            kind = WRITES[(w + step) % len(WRITES)]  # (all kinds at once, even briefly)
            expect: dict[str, Any]
            if kind in ("star", "unstar"):
                args = [kind, own_keys[w]]
                expect = {"starred": (own_keys[w], kind == "star")}
            elif kind == "note":
                text = f"Notes of writer {w}, step {step}"
                args = ["note", own_keys[w], text]
                expect = {"notes": (own_keys[w], text)}
            elif kind == "tag":
                tag = f"w{w}-s{step}"
                args = ["tag", shared_key, tag]
                expect = {"tag": (shared_key, tag)}
            else:
                path = folder / f"w{w}-s{step}.bib"
                keys = small_bib(path, w, step)
                args = ["import", str(path)]
                expect = {"papers": keys}
            write = Write(w, step, kind, args, time.perf_counter(), expect=expect)
            try:
                done = subprocess.run([*command, *args, "--library", url], env=env,
                                      capture_output=True, text=True, timeout=timeout,
                                      check=False)
                write.ok = done.returncode == 0
                if not write.ok:
                    write.error = (done.stderr.strip().splitlines() or [""])[-1] or \
                        f"exit status {done.returncode}"
            except subprocess.TimeoutExpired:
                write.error = f"no answer in {timeout:.0f} s"
            write.seconds = time.perf_counter() - write.start
            with lock:
                writes.append(write)
            step += 1

    threads = [threading.Thread(target=writer, args=(w,), daemon=True)
               for w in range(len(own_keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    writes.sort(key=lambda w: w.start)
    return writes


def lost_writes(url: str, writes: list[Write]) -> list[str]:
    """What the library at `url` should hold after `writes` and does not: every tag
    added and paper imported, each writer's last star state and notes, and each
    writer's last successful write (whatever it was). One line per write lost."""
    from papershelf.core.library import Library

    done = [w for w in writes if w.ok]
    lost: list[str] = []
    library = Library.open(url)
    try:
        def paper_id(key: str) -> int | None:
            ids, _missing = library.ids_for_keys([key])
            return ids[0] if ids else None

        def holds(write: Write) -> bool:
            expect = write.expect
            if "papers" in expect:
                _ids, missing = library.ids_for_keys(expect["papers"])
                return not missing
            key, value = next(iter(expect.values()))
            pid = paper_id(key)
            if pid is None:
                return False
            if "tag" in expect:
                return bool(value in library.tags_of([pid]).get(pid, []))
            if "starred" in expect:
                return bool(library.rows([pid])[pid].starred) is bool(value)
            detail = library.paper(pid)
            return detail is not None and detail.record.notes == value

        last: dict[tuple[int, str], Write] = {}
        for write in done:
            last[(write.writer, "star" if write.kind == "unstar" else write.kind)] = write
        checked = [w for w in done if w.kind in ("tag", "import")]
        checked += [w for (_, kind), w in last.items() if kind in ("star", "note")]
        final = {w.writer: w for w in done}  # each writer's last successful write
        checked += [w for w in final.values() if w not in checked]
        for write in sorted(checked, key=lambda w: w.start):
            if not holds(write):
                lost.append(f"writer {write.writer} step {write.step}: "
                            f"papershelf {' '.join(write.args[:2])}…")
    finally:
        library.close()
    return lost


def writer_summary(writes: list[Write], seconds: float) -> dict[str, Any]:
    """Counts and rates of a writers' run (for the table and the notes)."""
    by_kind: dict[str, int] = {}
    for write in writes:
        if write.ok:
            by_kind[write.kind] = by_kind.get(write.kind, 0) + 1
    ok = sum(by_kind.values())
    span = (max(w.start + w.seconds for w in writes) - min(w.start for w in writes)
            if writes else seconds)
    times = sorted(w.seconds for w in writes if w.ok)
    return {"writes": len(writes), "ok": ok, "failed": len(writes) - ok,
            "per_second": ok / span if span else 0.0, "span": span, "by_kind": by_kind,
            "median_seconds": times[len(times) // 2] if times else 0.0,
            "errors": sorted({w.error for w in writes if not w.ok})}

