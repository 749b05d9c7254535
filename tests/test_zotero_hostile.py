"""A hostile zotero.sqlite cannot make the import run code, take gigabytes or grow the
library: the tables read are checked first (a generated column, computed on each read,
is refused), each value read is capped in SQL, and the text of the whole import is
bounded by the file's size (a value shared by thousands of items is not read a
thousand times over). Each import runs as the command line, in a child process whose
memory and time are bounded."""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

from papershelf.core.library import Library, View
from papershelf.formats import zotero
from papershelf.formats.records import PaperRecord
from papershelf.formats.zotero import read_zotero
from tests.zotero_db import CREATOR_TYPES, FIELDS, ITEM_TYPES, new_zotero_db

ROOT = Path(__file__).resolve().parents[1]
MEMORY = 1 << 30  # bytes of address space the importing process may use


def import_bounded(library: Path, source: Path) -> subprocess.CompletedProcess[str]:
    """`papershelf import SOURCE` in a child process of at most MEMORY bytes and 60 s."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "papershelf", "--library", str(library), "import",
         str(source)], capture_output=True, text=True, cwd=ROOT, timeout=60,
        preexec_fn=limit, env=dict(os.environ))


def add_items(db: sqlite3.Connection, count: int, value_id: int, field: str = "title",
              start: int = 1) -> None:
    """`count` journal articles, each with one author and `field` the value `value_id`."""
    db.execute("BEGIN")
    for n in range(start, start + count):
        db.execute("INSERT INTO items (itemID, itemTypeID, libraryID, key, dateAdded) "
                   "VALUES (?, ?, 1, ?, '2024-01-01')",
                   (n, ITEM_TYPES["journalArticle"], f"ITEM{n:04d}"))
        db.execute("INSERT INTO itemData VALUES (?, ?, ?)", (n, FIELDS[field], value_id))
        db.execute("INSERT OR IGNORE INTO creators (creatorID, firstName, lastName, "
                   "fieldMode) VALUES (1, 'Ada', 'Lovelace', 0)")
        db.execute("INSERT INTO itemCreators VALUES (?, 1, ?, 0)",
                   (n, CREATOR_TYPES["author"]))
    db.execute("COMMIT")


def imported(library: Path) -> list[PaperRecord]:
    """The papers of the library but the sample its first start added."""
    opened = Library.open(str(library))
    try:
        return [d.record for d in opened.details(opened.view_ids(View()))
                if not d.record.title_provisional]
    finally:
        opened.close()


def test_a_generated_column_is_refused_before_it_runs(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    db = new_zotero_db(path, wal=False)
    db.executescript("""
        DROP TABLE itemDataValues;
        CREATE TABLE itemDataValues (
            valueID INTEGER PRIMARY KEY,
            value GENERATED ALWAYS AS (printf('%.*c', 250000000, 'x')) VIRTUAL,
            valueNormalized TEXT);
        INSERT INTO itemDataValues (valueID) VALUES (1);
    """)
    add_items(db, 30, 1)
    db.commit()
    db.close()
    assert path.stat().st_size < 600_000

    run = import_bounded(tmp_path / "library.sqlite", path)

    assert run.returncode == 1, run.stderr
    assert run.stderr == (f"papershelf: error: {path}: not a Zotero database as Zotero "
                          "writes it (itemDataValues.value is a generated column); "
                          "nothing imported\n")
    assert imported(tmp_path / "library.sqlite") == []


def test_a_virtual_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    db = new_zotero_db(path, wal=False)
    db.executescript("""
        DROP TABLE tags;
        CREATE VIRTUAL TABLE tags USING fts5(name);
    """)
    db.commit()
    db.close()

    run = import_bounded(tmp_path / "library.sqlite", path)

    assert run.returncode == 1
    assert run.stderr == (f"papershelf: error: {path}: not a Zotero database as Zotero "
                          "writes it (tags is a virtual table); nothing imported\n")


def test_a_very_long_value_is_cut_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    db = new_zotero_db(path, wal=False)
    db.execute("INSERT INTO itemDataValues (valueID, value) VALUES (1, ?)",
               ("Long abstract " * 30_000,))
    db.execute("INSERT INTO itemDataValues (valueID, value) VALUES (2, 'A fine title')")
    add_items(db, 1, 1, field="abstractNote")
    db.execute("INSERT INTO itemData VALUES (1, ?, 2)", (FIELDS["title"],))
    db.commit()
    db.close()

    result = read_zotero(path)

    (record,) = result.records
    assert record.title == "A fine title"
    assert len(record.abstract) <= zotero.MAX_VALUE
    assert record.abstract.startswith("Long abstract Long abstract")
    assert result.notices == [f"{path}: values over {zotero.MAX_VALUE} characters cut "
                              "short: 1 (first: Zotero item ITEM0001's abstractNote)"]


def test_a_value_shared_by_thousands_of_items_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    db = new_zotero_db(path, wal=False)
    db.execute("INSERT INTO itemDataValues (valueID, value) VALUES (1, ?)",
               ("Shared abstract " * 6_000,))  # 96,000 characters
    db.execute("INSERT INTO itemDataValues (valueID, value) VALUES (2, 'A title')")
    add_items(db, 3_000, 1, field="abstractNote")  # 288 million characters to read
    db.commit()
    db.close()
    assert path.stat().st_size < 2_000_000

    run = import_bounded(tmp_path / "library.sqlite", path)

    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith(f"papershelf: error: {path}: holds more text than a "
                                 "database of its size can")
    assert run.stderr.endswith("; nothing imported\n") and run.stderr.count("\n") == 1
    assert imported(tmp_path / "library.sqlite") == []
