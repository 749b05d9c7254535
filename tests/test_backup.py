"""Backups, restore and salvage of a library file (core/backup.py and the CLI commands)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import BinaryIO

import pytest

from papershelf.core import backup, db
from papershelf.core.library import Library, View
from papershelf.errors import DamagedLibraryError, NewerLibraryError
from tests.conftest import SEEDS, run_cli, seeded_file
from tests.crash.harness import downgrade

DAY = datetime(2026, 3, 1, 9, 30)


def _papers(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM papers").fetchone()[0])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_backup_is_one_moment_of_an_open_library(tmp_path: Path) -> None:
    """Taken while another connection is in the middle of a write: the copy holds what
    was committed, is sound, and the write goes on."""
    path = seeded_file(tmp_path / "lib.sqlite")
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM paper_tags")
    writer.execute("INSERT INTO personal (user_name, paper_id, starred) "
                   "SELECT '', id, 1 FROM papers")
    copy = backup.make_backup(path, now=DAY)
    writer.execute("COMMIT")
    writer.close()
    assert copy.parent == tmp_path / "backups"
    assert copy.name == "lib-20260301-093000-manual.sqlite"
    assert backup.integrity_errors(copy) == []
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM personal WHERE starred").fetchone()[0] == 0
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def _starred_in(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM personal WHERE starred").fetchone()[0])


@pytest.mark.parametrize("old_reader", ["none", "ending", "staying"])
def test_a_backup_holds_every_committed_write_while_the_library_is_read_and_written(
        tmp_path: Path, old_reader: str) -> None:
    """Stars just given wait in the write-ahead log, also when a reader of an older
    moment keeps them there (the window reading its table meanwhile), whether it ends a
    moment after the backup starts or stays: the backup holds them and is a library of
    its own; and the library file was read through SQLite alone (tests/sqlite_guard.py
    fails any plain open of it meanwhile)."""
    path = seeded_file(tmp_path / "lib.sqlite")
    library = Library.open(str(path))  # the window, open meanwhile
    reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    ending = threading.Timer(0.1, reader.execute, ("COMMIT",))
    try:
        if old_reader != "none":
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM papers").fetchone()
        library.set_starred(library.view_ids()[:5], True)  # committed, in the log
        if old_reader == "ending":
            ending.start()
        copy = backup.make_backup(path, now=DAY)
    finally:
        if ending.is_alive():
            ending.join()
        reader.close()
        library.close()
    assert _starred_in(copy) == 5 and backup.integrity_errors(copy) == []
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # no -wal, no .tmp


def test_a_backup_is_on_the_disk_before_it_is_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite does not flush the copy when it becomes a file of its own (the check would
    wait for that): the backup's own flush, beside the check, ends before the rename."""
    path = seeded_file(tmp_path / "lib.sqlite")
    events: list[str] = []
    flush, replace = backup._fsync_file, os.replace

    def flushed(file: BinaryIO) -> None:
        flush(file)
        events.append(f"flushed {Path(file.name).name}")

    def placed(source: Path, dest: Path) -> None:
        events.append(f"placed {Path(source).name}")
        replace(source, dest)

    monkeypatch.setattr(backup, "_fsync_file", flushed)
    monkeypatch.setattr(backup.os, "replace", placed)
    copy = backup.make_backup(path, now=DAY, verify=False)
    tmp = events[0].removeprefix("flushed ")  # (numbered: the process's copies, its own)
    assert re.fullmatch(rf"\.{re.escape(copy.name)}\.\d+\.{os.getpid()}\.tmp", tmp), tmp
    assert events == [f"flushed {tmp}", f"placed {tmp}"]
    assert backup.integrity_errors(copy) == []


def test_a_backup_that_fails_the_full_check_is_set_aside(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's backup is placed after the quick check; the full check that follows
    finds an index that disagrees with its table: the backup leaves the list (renamed,
    not deleted) and the message says the library may be damaged."""
    path = seeded_file(tmp_path / "lib.sqlite")
    copy = backup.make_backup(path, now=DAY, verify=False)
    assert [b.path for b in backup.list_backups(path)] == [copy]
    monkeypatch.setattr(backup, "integrity_errors", lambda _path, quick=False: (
        [] if quick else ["row 7 missing from index ix_papers_doi"]))
    with pytest.raises(backup.BackupError, match=r"not sound \(row 7 missing.*may be damaged"):
        backup.verify_backup(copy)
    assert backup.list_backups(path) == []
    assert copy.with_name(copy.name + ".damaged").is_file()


def test_two_backups_at_once_in_one_process_are_both_sound(tmp_path: Path) -> None:
    """The window's daily backup, its Back Up Now clicked twice in a second: backups made
    at once by one process, of the same name. Each is copied into a temporary file of
    its own (they shared one, named by the process: one copy overwrote the other's
    pages, unlinked its journal, and an unreadable backup was put in place; found by
    `make stress`, issue 37)."""
    path = seeded_file(tmp_path / "lib.sqlite")
    errors: list[BaseException] = []

    def back_up(kind: str) -> None:
        try:
            backup.make_backup(path, kind, now=DAY, verify=False)
        except backup.BackupError as exc:
            errors.append(exc)

    for _ in range(10):
        threads = [threading.Thread(target=back_up, args=(kind,))
                   for kind in ("manual", "manual", "daily")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    found = backup.list_backups(path)
    assert {b.kind for b in found} == {"manual", "daily"}
    assert all(b.papers == 38 for b in found), found
    assert all(backup.integrity_errors(b.path) == [] for b in found)
    assert sorted(p.name for p in backup.backup_folder(path).iterdir()
                  if p.name.startswith(".")) == []


def test_daily_backups_once_a_day_and_only_the_newest_kept(tmp_path: Path) -> None:
    path = seeded_file(tmp_path / "lib.sqlite")
    policy = backup.BackupPolicy(keep_daily=3)
    made = [backup.daily_backup(path, policy, DAY + timedelta(days=d, hours=h))
            for d in range(5) for h in (0, 5)]
    assert [m is not None for m in made] == [True, False] * 5
    kept = backup.list_backups(path)
    assert [b.created.date() for b in kept] == [
        (DAY + timedelta(days=d)).date() for d in (4, 3, 2)]
    assert {b.kind for b in kept} == {"daily"} and {b.papers for b in kept} == {38}


def test_daily_backups_of_a_big_library_stay_within_their_budget(tmp_path: Path) -> None:
    """Seven daily copies of a big library would fill a disk: beyond the budget the
    oldest go, but the newest two are always kept."""
    path = seeded_file(tmp_path / "lib.sqlite")
    size = path.stat().st_size
    policy = backup.BackupPolicy(keep_daily=7, daily_budget=3 * size + size // 2)
    for d in range(7):
        backup.daily_backup(path, policy, DAY + timedelta(days=d))
    kept = backup.list_backups(path, with_counts=False)
    assert [b.created.date() for b in kept] == [
        (DAY + timedelta(days=d)).date() for d in (6, 5, 4)]
    assert sum(b.size for b in kept) <= policy.daily_budget
    tiny = backup.BackupPolicy(keep_daily=7, daily_budget=1)
    backup.daily_backup(path, tiny, DAY + timedelta(days=7))
    assert len(backup.list_backups(path, with_counts=False)) == backup.DAILY_KEPT_ANYWAY


def test_an_empty_library_needs_no_daily_backup(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite"
    Library.open(str(path)).close()
    assert backup.daily_backup(path, now=DAY) is None


def test_restore_replaces_the_library_and_keeps_the_old_one(tmp_path: Path) -> None:
    path = seeded_file(tmp_path / "lib.sqlite")
    saved = backup.make_backup(path, now=DAY)
    library = Library.open(str(path))
    library.delete_papers(library.view_ids(View())[:30])
    library.close()
    assert _papers(path) == 8
    kept = backup.restore(path, saved, now=DAY + timedelta(hours=1))
    assert _papers(path) == 38
    assert kept is not None and kept.name == "lib-20260301-103000-restore.sqlite"
    assert _papers(kept) == 8
    library = Library.open(str(path))  # and the restored library opens and works
    assert library.count() == 38
    library.close()


def test_restore_refuses_a_file_that_is_no_library(tmp_path: Path) -> None:
    path = seeded_file(tmp_path / "lib.sqlite")
    before = _digest(path)
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database", encoding="utf-8")
    with pytest.raises(backup.BackupError, match="nothing was changed"):
        backup.restore(path, bogus)
    assert _digest(path) == before


def _damage(path: Path) -> None:
    """Overwrite a stretch of the file's pages after the first (header and schema stay)."""
    data = bytearray(path.read_bytes())
    page = 4096
    start = len(data) // 2 // page * page
    data[start:start + 3 * page] = b"\xa5" * (3 * page)
    path.write_bytes(bytes(data))


def _big(path: Path, tmp_path: Path) -> Path:
    """A library of 2,000 papers, so that damage hits some of its pages, not all."""
    bib = tmp_path / "big.bib"
    bib.write_text("".join(
        f"@article{{p{n}, title = {{Paper number {n} on things}}, author = {{Doe{n}, Jane}},"
        f" journal = {{J}}, year = 2020, abstract = {{{'words ' * 80}{n}}}}}\n"
        for n in range(2000)), encoding="utf-8")
    library = Library.open(str(path))
    library.import_file(bib)
    library.close()
    return path


def test_salvage_copies_what_can_be_read(tmp_path: Path) -> None:
    path = _big(tmp_path / "lib.sqlite", tmp_path)
    library = Library.open(str(path))
    library.set_starred(library.view_ids()[:300], True)
    library.set_private_notes(library.view_ids()[0], "my notes")
    library.close()
    _damage(path)
    assert backup.integrity_errors(path)
    before = _digest(path)
    out = tmp_path / "saved.sqlite"
    report = backup.salvage(path, out, lambda new: Library.open(str(new)).close())
    assert _digest(path) == before  # the damaged file is only read
    assert report.copied["papers"] >= 1800
    assert backup.integrity_errors(out) == []
    library = Library.open(str(out))
    assert library.count() == report.copied["papers"]
    assert library.counts().starred == report.copied["personal"] >= 290  # the stars too
    library.close()


def test_cli_backup_list_restore(tmp_path: Path) -> None:
    path = seeded_file(tmp_path / "lib.sqlite")
    lib = ["--library", str(path)]
    status, out, _ = run_cli("backup", *lib)
    assert status == 0 and out.startswith(f"backed up {path} to {tmp_path / 'backups'}")
    status, out, _ = run_cli("backups", *lib, "--keep-daily", "2")
    assert status == 0 and "manual" in out and "daily" in out and "38 papers" in out
    assert out.splitlines()[-1].endswith("(keeping 2 daily, 3 before upgrades)")
    # The first command of the day made a daily backup too.
    assert sorted(b.kind for b in backup.list_backups(path)) == ["daily", "manual"]
    (saved,) = [b for b in backup.list_backups(path) if b.kind == "manual"]
    assert run_cli("star", *lib, "icml2024framequant")[0] == 0
    status, _, err = run_cli("restore", *lib, str(saved.path))
    assert status == 1 and "--yes" in err
    status, out, _ = run_cli("restore", *lib, str(saved.path), "--yes")
    assert status == 0 and "the library it replaced is kept in" in out
    status, out, _ = run_cli("list", *lib, "--starred")
    assert out.strip().endswith("0 papers")


def test_cli_salvage_and_server_libraries(tmp_path: Path) -> None:
    path = _big(tmp_path / "lib.sqlite", tmp_path)
    _damage(path)
    status, out, _ = run_cli("salvage", "--library", str(path), str(tmp_path / "new.sqlite"))
    assert status == 0 and "the damaged file was not changed" in out



def test_a_shared_librarys_backup_is_a_portable_library_file(
        pg_url: str, tmp_path: Path) -> None:
    """On a server, `backup` writes a library file anyone can open (the `copy` path);
    listing or restoring backups is the server's business (pg_dump)."""
    shared = Library.open(pg_url)
    try:
        shared.ensure_sample(SEEDS)
        shared.set_starred(shared.view_ids()[:2], True)
    finally:
        shared.close()
    status, out, err = run_cli("backup", "--library", pg_url, str(tmp_path / "home.sqlite"))
    assert status == 0, err
    assert "38 papers" in out and "pg_dump" in out
    home = Library.open(str(tmp_path / "home.sqlite"))
    try:
        assert (home.count(), home.counts().starred) == (38, 2)
    finally:
        home.close()
    status, _, err = run_cli("backups", "--library", pg_url)
    assert status == 1 and "pg_dump" in err


def test_an_upgrade_is_preceded_by_a_backup(tmp_path: Path) -> None:
    """Opening a library of an older schema backs it up first (kind "migration")."""
    path = seeded_file(tmp_path / "lib.sqlite")
    downgrade(path, db.KNOWN_REVISIONS[-2])
    Library.open(str(path)).close()
    (made,) = backup.list_backups(path)
    assert made.kind == "migration" and made.papers == 38
    with sqlite3.connect(made.path) as conn:
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    assert revision == db.KNOWN_REVISIONS[-2]


def test_a_damaged_library_is_never_written_to(tmp_path: Path) -> None:
    path = _big(tmp_path / "lib.sqlite", tmp_path)
    _damage(path)
    # As after a crash: the write-ahead log is still there.
    path.with_name("lib.sqlite-wal").write_bytes(b"\0" * 100)
    before = _digest(path)
    with pytest.raises(DamagedLibraryError, match=r"damaged.*salvage"):
        Library.open(str(path))
    assert _digest(path) == before
    status, _, err = run_cli("list", "--library", str(path))
    assert status == 1 and err.count("\n") == 1 and "papershelf restore" in err


def test_a_newer_library_refused_is_not_backed_up(tmp_path: Path) -> None:
    """An older Papershelf refusing a library keeps no "before the upgrade" copies of it
    (they would push the real ones out of the few kept)."""
    path = seeded_file(tmp_path / "lib.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    for _ in range(2):
        with pytest.raises(NewerLibraryError):
            Library.open(str(path))
    assert backup.list_backups(path) == []
