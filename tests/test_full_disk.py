"""An import onto a full disk is one line naming the library and exit status 1, as an
export, a backup or a restore there is, and it writes nothing. The disk is made full
for SQLite by `PRAGMA max_page_count` on every connection: SQLite then fails the write
with SQLITE_FULL, "database or disk is full", as on a real full disk."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from papershelf.core import ingest
from papershelf.core.library import Library
from tests.conftest import paper_keys, run_cli, seeded_file

PAGE = 4096


@pytest.fixture
def full_disk(library_path: Path) -> Iterator[Path]:
    """A library of the 38 sample papers whose disk has room for a few pages more."""
    seeded_file(library_path)
    pages = os.path.getsize(library_path) // PAGE + 8

    def limit(dbapi_connection: object, _record: object) -> None:
        cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
        cursor.execute(f"PRAGMA max_page_count = {pages}")
        cursor.close()

    event.listen(Engine, "connect", limit)
    try:
        yield library_path
    finally:
        event.remove(Engine, "connect", limit)


def _big_bib(path: Path, entries: int) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for n in range(entries):
            handle.write(f"@article{{paper{n},\n  title = {{Paper number {n}}},\n"
                         f"  author = {{Writer, Ann{n}}},\n  year = {{2020}},\n"
                         f"  abstract = {{{'Words of an abstract. ' * 60}}}\n}}\n\n")
    return path


def _keys(library_path: Path) -> list[str]:
    library = Library.open(str(library_path))
    try:
        return paper_keys(library)
    finally:
        library.close()


def test_import_onto_a_full_disk_is_one_line(full_disk: Path, tmp_path: Path) -> None:
    before = _keys(full_disk)
    bib = _big_bib(tmp_path / "many.bib", 400)
    status, out, err = run_cli("--library", str(full_disk), "import", str(bib))
    assert status == 1
    assert err == f"papershelf: error: {full_disk}: the disk is full; nothing was changed\n"
    assert "added" not in out
    assert _keys(full_disk) == before


def test_a_big_import_read_in_pieces_onto_a_full_disk(full_disk: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "PIECE_BYTES", 64 << 10)
    monkeypatch.setattr(ingest, "MIN_PIECES_BYTES", 3 * (64 << 10))
    before = _keys(full_disk)
    bib = _big_bib(tmp_path / "many.bib", 1500)
    assert bib.stat().st_size > 3 * (64 << 10)
    status, _out, err = run_cli("--library", str(full_disk), "import", str(bib))
    assert status == 1
    assert err == f"papershelf: error: {full_disk}: the disk is full; nothing was changed\n"
    assert _keys(full_disk) == before
