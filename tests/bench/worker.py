"""The core side of `make bench`: one measurement per process (so peak memory is its own),
without Qt, printing one JSON object on stdout.

    python -m tests.bench.worker bibtexparser FILE
    python -m tests.bench.worker import FILE --library PATH_OR_URL
    python -m tests.bench.worker command FILE --library PATH_OR_URL
    python -m tests.bench.worker cancel FILE --library PATH_OR_URL [--after SECONDS]
    python -m tests.bench.worker export --library PATH_OR_URL

The library is a file's path or a database URL (a library on PostgreSQL). `import` and
`cancel` change the library they are given: the parent hands them a copy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
import time
from typing import Any

from tests.bench.probe import vm_kb


def checksum(target: str) -> tuple[int, str]:
    """The number of papers and a digest of every table's rows (order-independent).

    In a library file, virtual tables are skipped; the full-text index's own shadow
    tables are included. On a server, every table of the library's schema.
    """
    if "://" in target and not target.startswith("sqlite"):
        return _server_checksum(target)
    path = target.removeprefix("sqlite:///")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        digest = hashlib.sha256()
        names = [name for name, sql in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if not (sql or "").upper().startswith("CREATE VIRTUAL")]
        for name in names:
            rows = sorted(repr(row) for row in conn.execute(f'SELECT * FROM "{name}"'))
            digest.update(f"{name}:{len(rows)}\n".encode())
            for row in rows:
                digest.update(row.encode())
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        return int(papers), digest.hexdigest()
    finally:
        conn.close()


def _server_checksum(url: str) -> tuple[int, str]:
    """`checksum` of a library on a database server, read in one snapshot."""
    from sqlalchemy import inspect, text

    from papershelf.core import db

    engine = db.create_library_engine(url)
    try:
        with engine.connect() as conn:
            conn.execution_options(isolation_level="REPEATABLE READ")
            quote = conn.dialect.identifier_preparer.quote
            digest = hashlib.sha256()
            for name in sorted(inspect(conn).get_table_names()):
                rows = sorted(repr(tuple(row)) for row in conn.execute(
                    text(f"SELECT * FROM {quote(name)}")))
                digest.update(f"{name}:{len(rows)}\n".encode())
                for row in rows:
                    digest.update(row.encode())
            papers = conn.scalar(text("SELECT count(*) FROM papers"))
            return int(papers or 0), digest.hexdigest()
    finally:
        engine.dispose()


def parse_with_bibtexparser(path: str) -> dict[str, Any]:
    """bibtexparser alone, with its defaults: the yardstick of the import."""
    import bibtexparser

    start, cpu = time.perf_counter(), time.process_time()
    library = bibtexparser.parse_file(path)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "cpu_seconds": time.process_time() - cpu,
            "entries": len(library.entries), "vmhwm_mb": vm_kb("VmHWM") / 1024}


class TreeMemory:
    """The peak of the resident memory of a process and its descendants together (an
    import reads its file in worker processes), sampled every 20 ms: this process's, or
    `root`'s (a child process); and the CPU time of `root` alone when last sampled."""

    def __init__(self, root: int | None = None) -> None:
        import os
        import threading

        self.root = os.getpid() if root is None else root
        self.peak_kb = 0
        self.root_cpu = 0.0  # seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak_kb = max(self.peak_kb, self.sample(self.root))
            self.root_cpu = max(self.root_cpu, self.cpu(self.root))

    @staticmethod
    def cpu(pid: int) -> float:
        """The user and system CPU time of process `pid` so far (0 once it is gone)."""
        import os

        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    @staticmethod
    def sample(root: int) -> int:
        """The resident memory of `root` and all its descendants now, in kB."""
        import os

        total = 0
        todo = [str(root)]
        while todo:
            pid = todo.pop()
            try:
                with open(f"/proc/{pid}/status", encoding="ascii") as status:
                    for line in status:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1])
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                        todo += handle.read().split()
            except OSError:
                continue  # (gone meanwhile)
        return total


def import_file(path: str, library_path: str) -> dict[str, Any]:
    """`Library.import_file` as the window's worker calls it (progress and cancel hooks)."""
    import resource

    from papershelf.core.library import Library

    library = Library.open(library_path)
    before_mb = vm_kb("VmHWM") / 1024
    progress: list[tuple[int, int]] = []
    try:
        with TreeMemory() as tree:
            start = time.perf_counter()
            report = library.import_file(
                path, lambda done, total: progress.append((done, total)), lambda: False)
            seconds = time.perf_counter() - start
        peak_mb = vm_kb("VmHWM") / 1024
        children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        start = time.perf_counter()
        library.index_pending()  # what keeps big imports fast: indexing for search after
        index_seconds = time.perf_counter() - start
        count = library.count()
    finally:
        library.close()
    return {"seconds": seconds, "index_seconds": index_seconds, "added": report.added,
            "failed": report.failed, "papers": count, "progress_calls": len(progress),
            "vmhwm_mb": peak_mb, "vmhwm_before_mb": before_mb,
            "tree_peak_mb": max(tree.peak_kb / 1024, peak_mb),
            "child_peak_mb": children_mb}


def command_import(path: str, library_path: str) -> dict[str, Any]:
    """`papershelf import FILE --library L` as a user runs it: from the process's start to
    its exit (it returns once its papers are searchable), the peak resident memory of it
    and its worker processes together; then whether the index is complete (no paper
    left pending) and how many papers the library holds."""
    import os
    import resource
    import subprocess
    import tempfile

    from papershelf.core.library import Library

    command = [sys.executable, "-m", "papershelf", "import", path, "--library", library_path]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        start = time.perf_counter()
        with subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, text=True,
                              env=os.environ) as process:
            with TreeMemory(process.pid) as tree:
                _, err = process.communicate()
            seconds = time.perf_counter() - start
        out.seek(0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        summary = out.readline().strip()
    if process.returncode != 0:
        raise RuntimeError(f"papershelf import exited with {process.returncode}: {err[-2000:]}")
    library = Library.open(library_path)
    try:
        pending, count = library.pending_index(), library.count()
    finally:
        library.close()
    # CPU time: the command's with its worker processes (all waited for), and of the
    # importing process alone (its last sample, at most 20 ms before its exit).
    cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    return {"seconds": seconds, "tree_peak_mb": tree.peak_kb / 1024, "pending": pending,
            "papers": count, "summary": summary, "cpu_seconds": cpu,
            "importer_cpu_seconds": min(tree.root_cpu, cpu)}


def cancel_import(path: str, library_path: str, after: float | None) -> dict[str, Any]:
    """Cancel an import halfway (by its progress, or after `after` seconds, whichever
    comes first) and compare the paper count and the tables' checksum."""
    from papershelf.core.library import ImportCancelled, Library

    papers_before, digest_before = checksum(library_path)
    library = Library.open(library_path)
    state: dict[str, Any] = {"cancel_at": None, "progress": None}
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        state["progress"] = (done, total)
        if state["cancel_at"] is None and total and done * 2 >= total:
            state["cancel_at"] = time.perf_counter()

    def cancelled() -> bool:
        if (state["cancel_at"] is None and after is not None
                and time.perf_counter() - start >= after):
            state["cancel_at"] = time.perf_counter()
        return state["cancel_at"] is not None

    outcome = "finished"
    try:
        library.import_file(path, progress, cancelled)
    except ImportCancelled:
        outcome = "cancelled"
    end = time.perf_counter()
    library.close()
    papers_after, digest_after = checksum(library_path)
    cancel_at = state["cancel_at"]
    return {"outcome": outcome, "papers_before": papers_before, "papers_after": papers_after,
            "unchanged": outcome == "cancelled" and papers_before == papers_after
            and digest_before == digest_after,
            "cancel_after_seconds": None if cancel_at is None else cancel_at - start,
            "cancel_latency_seconds": None if cancel_at is None else end - cancel_at,
            "progress_at_cancel": state["progress"]}


def export(library_path: str) -> dict[str, Any]:
    """Our export (records + write_bibtex) against bibtexparser writing the same entries."""
    import bibtexparser

    from papershelf.core.library import Library, View
    from papershelf.formats.bibtex import write_bibtex

    library = Library.open(library_path)
    try:
        ids = library.view_ids(View())
        start = time.perf_counter()
        records = library.records(ids)
        read_seconds = time.perf_counter() - start
        text = write_bibtex(records)
        seconds = time.perf_counter() - start
    finally:
        library.close()
    del records
    parsed = bibtexparser.parse_string(text)  # the same entries, as bibtexparser holds them
    start = time.perf_counter()
    written = bibtexparser.write_string(parsed)
    theirs = time.perf_counter() - start
    return {"seconds": seconds, "records_seconds": read_seconds,
            "bibtexparser_seconds": theirs, "entries": len(ids),
            "bibtexparser_entries": len(parsed.entries), "mb": len(text) / 1e6,
            "bibtexparser_mb": len(written) / 1e6}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.worker")
    parser.add_argument("what", choices=("bibtexparser", "import", "command", "cancel",
                                            "export"))
    parser.add_argument("file", nargs="?")
    parser.add_argument("--library")
    parser.add_argument("--after", type=float, help="cancel: at the latest after SECONDS")
    args = parser.parse_args(argv)
    if args.what == "bibtexparser":
        result = parse_with_bibtexparser(args.file)
    elif args.what == "import":
        result = import_file(args.file, args.library)
    elif args.what == "command":
        result = command_import(args.file, args.library)
    elif args.what == "cancel":
        result = cancel_import(args.file, args.library, args.after)
    else:
        result = export(args.library)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

