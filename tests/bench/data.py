"""The benchmark's inputs, generated once and cached: libraries, a .bib file, an abstract list.

Generating a 1,000,000-paper library takes minutes, so every input is kept in a cache
directory keyed by the generator's version and the count:
`$PAPERSHELF_BENCH_CACHE`, else `$XDG_CACHE_HOME/papershelf-bench`, else
`~/.cache/papershelf-bench`. Files are built under a temporary name and renamed when
complete, so an interrupted build never leaves a broken cache entry. Delete the directory
to start afresh; bumping `synthetic.GENERATOR_VERSION` makes new entries beside the old.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from tests.bench import synthetic


def cache_root(override: str | None = None) -> Path:
    """Where generated inputs live (see the module docstring)."""
    if override:
        return Path(override)
    if os.environ.get("PAPERSHELF_BENCH_CACHE"):
        return Path(os.environ["PAPERSHELF_BENCH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "papershelf-bench"


class Cache:
    """Generated inputs of one generator version, built on first use."""

    def __init__(self, root: Path, log: Callable[[str], None] = print) -> None:
        self.dir = root / f"gen{synthetic.GENERATOR_VERSION}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.log = log

    def _get(self, name: str, build: Callable[[Path], None]) -> Path:
        path = self.dir / name
        if path.exists():
            return path
        partial = path.with_name(path.name + ".partial")
        for leftover in self.dir.glob(partial.name + "*"):
            leftover.unlink()
        self.log(f"generating {path} (cached for later runs)…")
        start = time.perf_counter()
        build(partial)
        os.replace(partial, path)
        self.log(f"  done in {time.perf_counter() - start:.0f} s")
        return path

    def library(self, count: int) -> Path:
        """A library file of `count` synthetic papers (search index complete)."""

        def build(path: Path) -> None:
            synthetic.build_library(path, count)
            # One file, no -wal/-shm beside it, so the rename moves all of it.
            conn = sqlite3.connect(path)
            conn.execute("PRAGMA journal_mode=DELETE")
            conn.close()

        return self._get(f"library-{count}.sqlite", build)

    def bib(self, count: int) -> Path:
        """A BibTeX file of `count` synthetic entries."""
        return self._get(f"entries-{count}.bib", lambda p: synthetic.write_bib(p, count))

    def abstracts(self, count: int) -> Path:
        """An abstract list of `count` paragraphs."""
        return self._get(f"abstracts-{count}.txt",
                         lambda p: synthetic.write_abstract_list(p, count))
