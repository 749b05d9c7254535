"""Backups of a library file: taken while it is open, verified, rotated; restore; salvage.

A backup is one moment of the library, even while the window writes: it is copied page
by page with SQLite's online backup API in one read transaction (in WAL mode a reader
never blocks a writer). Nothing here opens a library file with anything but SQLite: on
POSIX, closing any descriptor of a file drops every lock the process holds on it, and
another program would then delete the write-ahead log under the process's connections
(sqlite.org, "How To Corrupt An SQLite Database File", 2.2). The copy is written to a
temporary file beside its destination, checked with `PRAGMA integrity_check`, flushed to
the disk and renamed into place; only then is an older backup dropped. (The window's
Back Up Now places it after the quick check, in seconds, and runs the full check right
after: `verify_backup`.) Automatic backups
go to `backups/` beside the library: one on the first start of a day ("daily") and one
before every schema migration ("migration"), keeping the newest of each as the
`BackupPolicy` says. Restoring keeps the library it replaces as a backup too.

A library that was not closed cleanly gets a quick check when it is opened
(`check_on_open`); a damaged one is never written to: `DamagedLibraryError` says what
happened and what to do, and `salvage` copies whatever can still be read into a new file,
leaving the damaged one as it is.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

from sqlalchemy.engine import make_url

from papershelf.errors import DamagedLibraryError

BACKUP_FOLDER = "backups"
KINDS = ("daily", "migration", "manual", "restore")
_NAME_RE = re.compile(r"^(?P<stem>.+)-(?P<when>\d{8}-\d{6})-(?P<kind>[a-z]+)(?:-\d+)?\.sqlite$")


class BackupError(Exception):
    """A backup could not be made, read or restored; the message is safe to show."""


@dataclass(frozen=True)
class BackupPolicy:
    """How many automatic backups of each kind are kept, and how much room the daily
    ones may take together: beyond `daily_budget` bytes the oldest go, the newest
    `DAILY_KEPT_ANYWAY` staying whatever their size (seven copies of a big library
    would fill a laptop's disk: 7 x 361 MB at 100,000 papers)."""

    keep_daily: int = 7
    keep_migration: int = 3
    daily_budget: int = 1 << 30


DAILY_KEPT_ANYWAY = 2


@dataclass(frozen=True)
class BackupInfo:
    """One backup file: where, what kind, when, how big, and how many papers it holds
    (None if it cannot be read)."""

    path: Path
    kind: str
    created: datetime
    size: int
    papers: int | None


def library_file(url: str) -> Path | None:
    """The file of a library given by its SQLAlchemy URL; None for a database server's."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


_POLICY_KEYS = ("backup_keep_daily", "backup_keep_migration")


def read_policy(library: Path) -> BackupPolicy:
    """How many automatic backups the library keeps (its own setting, else the defaults)."""
    values: dict[str, int] = {}
    with contextlib.suppress(sqlite3.Error, BackupError), \
            contextlib.closing(_connect_read_only(library)) as conn:
        for key, value in conn.execute(
                f"SELECT name, value FROM meta WHERE name IN {_POLICY_KEYS!r}"):
            with contextlib.suppress(TypeError, ValueError):
                values[key] = max(0, int(value))
    default = BackupPolicy()
    return BackupPolicy(values.get(_POLICY_KEYS[0], default.keep_daily),
                        values.get(_POLICY_KEYS[1], default.keep_migration))


def write_policy(library: Path, policy: BackupPolicy) -> None:
    """Keep this many automatic backups of the library from now on (stored in it)."""
    try:
        with contextlib.closing(sqlite3.connect(library, timeout=5)) as conn, conn:
            for key, value in zip(_POLICY_KEYS, (policy.keep_daily, policy.keep_migration)):
                conn.execute("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                             (key, str(value)))
    except sqlite3.Error as exc:
        raise BackupError(f"{library}: cannot store the backup setting ({exc})") from None


def backup_folder(library: Path) -> Path:
    """Where the automatic backups of `library` go."""
    return library.parent / BACKUP_FOLDER


def _connect_read_only(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise BackupError(f"{path}: no such library file")
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"{path}: cannot be read ({exc})") from None


def integrity_errors(path: Path, quick: bool = False) -> list[str]:
    """What SQLite's integrity check finds wrong with a file ([] when it is sound)."""
    pragma = "quick_check" if quick else "integrity_check"
    try:
        with contextlib.closing(_connect_read_only(path)) as conn:
            rows = [r[0] for r in conn.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    return [] if rows == ["ok"] else rows


def paper_count(path: Path) -> int | None:
    """How many papers a library file holds, or None if it cannot be read."""
    try:
        with contextlib.closing(_connect_read_only(path)) as conn:
            return int(conn.execute("SELECT count(*) FROM papers").fetchone()[0])
    except (sqlite3.Error, BackupError):
        return None


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every system can open a folder (Windows)
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def copy_library(source: Path, dest: Path,
                 progress: Callable[[int, int], None] | None = None,
                 verify: bool = True) -> None:
    """Copy a library file to `dest` consistently (while it may be open and written),
    check the copy, and put it in place atomically. BackupError if anything fails; then
    `dest` is as it was and no temporary file is left.

    The copy is checked with `PRAGMA quick_check` (every page and tree readable) while it
    is flushed to the disk; `verify` adds the full `integrity_check` (every index agrees
    with its table), several times slower on a big library: see `verify_backup`."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(dest.parent)
    # A temporary file of this copy's own: the window may make two at once (its daily
    # backup and Back Up Now, or two of the same name in one second).
    tmp = dest.with_name(f".{dest.name}.{next(_COPIES)}.{os.getpid()}.tmp")
    try:
        _copy_page_by_page(source, tmp, progress)
        with contextlib.closing(sqlite3.connect(tmp)) as out:
            # A file of its own, no log. Not flushed here: SQLite would flush the whole
            # copy (a second on a million papers) before the check could start.
            out.execute("PRAGMA synchronous = OFF")
            out.execute("PRAGMA journal_mode = DELETE")
        # (checking and flushing overlap; the copy is opened for flushing before SQLite
        # opens it to check it, and closed after, so no lock of the check is dropped)
        with open(tmp, "rb+") as handle, ThreadPoolExecutor(1) as pool:
            flushed = pool.submit(_fsync_file, handle)
            errors = integrity_errors(tmp, quick=not verify)
            flushed.result()
        if errors:
            raise BackupError(f"{source}: the copy is not sound ({errors[0]}); "
                              "the library may be damaged")
        os.replace(tmp, dest)
        _fsync_folder(dest.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"{source}: cannot be backed up ({exc})") from None
    except OSError as exc:
        raise BackupError(f"{dest}: cannot be written ({exc.strerror})") from None
    finally:
        for leftover in (tmp, *(tmp.with_name(tmp.name + s) for s in _LOG_SUFFIXES)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def verify_backup(path: Path) -> None:
    """The full integrity check of a backup `copy_library` made without it. A backup that
    fails it is renamed `….damaged` (out of the list, never restored nor rotated) and
    BackupError says so: the library it was copied from may be damaged too."""
    errors = integrity_errors(path)
    if errors:
        with contextlib.suppress(OSError):
            path.rename(path.with_name(path.name + ".damaged"))
        raise BackupError(f"{path}: the backup is not sound ({errors[0]}); the library "
                          "may be damaged: keep the older backups")


_LOG_SUFFIXES = ("-journal", "-wal", "-shm")


def _fsync_file(handle: BinaryIO) -> None:
    os.fsync(handle.fileno())


def _copy_page_by_page(source: Path, tmp: Path,
                       progress: Callable[[int, int], None] | None) -> None:
    """Copy with SQLite's online backup API: consistent whatever other connections do."""
    with contextlib.closing(_connect_read_only(source)) as src, \
            contextlib.closing(sqlite3.connect(tmp)) as out:
        def step(_status: int, remaining: int, total: int) -> None:
            if progress is not None:
                progress(total - remaining, total)

        # All pages in one step: one read transaction, so the copy is one moment of
        # the library even while another connection writes to it.
        src.backup(out, pages=-1, progress=step)


_TEMPORARY_RE = re.compile(r"^\..+\.(\d+)\.tmp(?:-journal|-wal|-shm)?$")
_COPIES = itertools.count(1)  # (numbers the temporary files of one process's copies)
# A restore's copy of the backup beside the library, until it is renamed over it: its
# name says what it is (the library's folder is the user's: nothing else there is touched).
_RESTORE_TEMPORARY_RE = re.compile(r"^\..+\.papershelf-restore\.(\d+)\.tmp$")


def remove_stale_temporaries(folder: Path,
                             pattern: re.Pattern[str] = _TEMPORARY_RE) -> list[Path]:
    """Delete the temporary files of backups (or those `pattern` names) whose process is
    gone (killed mid-copy); the ones removed. A temporary file's name carries its
    process id."""
    removed = []
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            match = pattern.match(path.name)
            if match is None or _alive(int(match.group(1))):
                continue
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's, or cannot tell: leave it
    return True


def _unique(folder: Path, stem: str, when: datetime, kind: str) -> Path:
    base = f"{stem}-{when:%Y%m%d-%H%M%S}-{kind}"
    path = folder / f"{base}.sqlite"
    n = 1
    while path.exists():
        path = folder / f"{base}-{n}.sqlite"
        n += 1
    return path


def make_backup(library: Path, kind: str = "manual", dest: Path | None = None,
                now: datetime | None = None,
                progress: Callable[[int, int], None] | None = None,
                verify: bool = True) -> Path:
    """Back `library` up: to `dest` if given (a file, or a folder to put it in), else
    into its backups folder; returns the backup's path. Without `verify` only the quick
    check is made: the caller runs `verify_backup` afterwards (the window, so that the
    backup is there in seconds and the long check runs after it)."""
    if kind not in KINDS:
        raise ValueError(f"unknown backup kind {kind!r}")
    when = now or datetime.now()
    if dest is None:
        dest = _unique(backup_folder(library), library.stem, when, kind)
    elif dest.is_dir():
        dest = _unique(dest, library.stem, when, kind)
    copy_library(library, dest, progress, verify)
    return dest


def list_backups(library: Path, with_counts: bool = True) -> list[BackupInfo]:
    """The backups in the library's backups folder, newest first."""
    folder = backup_folder(library)
    found: list[BackupInfo] = []
    if not folder.is_dir():
        return found
    for path in folder.iterdir():
        match = _NAME_RE.match(path.name)
        if match is None or match["stem"] != library.stem or match["kind"] not in KINDS:
            continue
        created = datetime.strptime(match["when"], "%Y%m%d-%H%M%S")
        found.append(BackupInfo(path, match["kind"], created, path.stat().st_size,
                                paper_count(path) if with_counts else None))
    found.sort(key=lambda b: (b.created, b.path.name), reverse=True)
    return found


def rotate(library: Path, kind: str, keep: int, budget: int | None = None) -> list[Path]:
    """Drop the oldest backups of `kind` beyond the newest `keep`, and (with a `budget`
    of bytes) the oldest beyond it but for the newest `DAILY_KEPT_ANYWAY`; the paths
    dropped. Called only after a new backup of that kind was verified."""
    mine = [b for b in list_backups(library, with_counts=False) if b.kind == kind]
    kept = mine[:keep]
    if budget is not None:
        total = 0
        for n, info in enumerate(kept):
            total += info.size
            if total > budget and n >= DAILY_KEPT_ANYWAY:
                kept = kept[:n]
                break
    dropped = []
    for info in mine[len(kept):]:
        with contextlib.suppress(OSError):
            info.path.unlink()
            dropped.append(info.path)
    return dropped


def daily_backup(library: Path, policy: BackupPolicy = BackupPolicy(),
                 now: datetime | None = None) -> Path | None:
    """The day's automatic backup, if the library has none from today yet (and papers to
    keep); returns its path, or None when none was needed. Either way what a backup
    killed mid-copy left behind is cleared (by `copy_library` when it makes one)."""
    when = now or datetime.now()
    if not library.is_file():
        return None
    due = policy.keep_daily > 0 and not any(
        b.kind == "daily" and b.created.date() == when.date()
        for b in list_backups(library, with_counts=False)) and bool(paper_count(library))
    if not due:
        remove_stale_temporaries(backup_folder(library))
        return None
    path = make_backup(library, "daily", now=when)
    rotate(library, "daily", policy.keep_daily, policy.daily_budget)
    return path


def daily_backup_for(url: str) -> Path | None:
    """`daily_backup` of the library at a SQLAlchemy URL, keeping as many as the library's
    own setting says; None for a library on a database server, or when none was needed.
    What the command line and the window run at their start."""
    library = library_file(url)
    if library is None:
        return None
    remove_stale_temporaries(library.parent, _RESTORE_TEMPORARY_RE)  # (a killed restore's)
    return daily_backup(library, read_policy(library))


def migration_backup(library: Path, policy: BackupPolicy = BackupPolicy(),
                     now: datetime | None = None) -> Path | None:
    """A backup before a schema migration (None for a library without a file)."""
    if not library.is_file() or policy.keep_migration <= 0:
        return None
    path = make_backup(library, "migration", now=now)
    rotate(library, "migration", policy.keep_migration)
    return path


def closed_cleanly(library: Path) -> bool:
    """False if the library's write-ahead log is still there with content: the last
    program to use it did not close it (a crash, a power cut) or is still running."""
    wal = library.with_name(library.name + "-wal")
    try:
        return wal.stat().st_size == 0
    except FileNotFoundError:
        return True


def check_on_open(library: Path) -> None:
    """Before a library is opened for writing: a quick check if it was not closed cleanly.
    DamagedLibraryError, and nothing written, if it is damaged."""
    if not library.is_file():
        return
    if closed_cleanly(library) and _header_ok(library):
        return
    errors = integrity_errors(library, quick=True)
    if errors:
        raise DamagedLibraryError(
            f"{library}: the library is damaged ({errors[0]}); it was not changed. "
            f"Restore a backup (papershelf backups, then papershelf restore FILE --yes) "
            f"or copy what can be read into a new library (papershelf salvage NEW_FILE)")


def _header_ok(library: Path) -> bool:
    """Whether SQLite reads the file as a database (an empty file is a new one). Asked
    through SQLite: this process may hold the library open already (the window's first
    page), and a plain open and close of the file would drop its locks."""
    try:
        with contextlib.closing(_connect_read_only(library)) as conn:
            conn.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        # Not a database, or damaged: False. A file SQLite cannot open here (a read-only
        # disk keeps it from making the shared-memory file a library in WAL mode needs)
        # is no sign of damage: the library's opening says what is wrong.
        return isinstance(exc, sqlite3.OperationalError) and "unable to open" in str(exc)
    except BackupError:
        return False
    return True


def in_use_elsewhere(library: Path) -> bool:
    """Whether another connection has the library open now (the window, a command):
    SQLite's exclusive locking mode cannot be had while any other holds it (a connection
    in WAL mode keeps its shared lock while idle). Asked through SQLite only."""
    try:
        with contextlib.closing(sqlite3.connect(library, timeout=0.5,
                                                isolation_level=None)) as conn:
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        return "locked" in str(exc).lower() or "busy" in str(exc).lower()
    except sqlite3.DatabaseError:  # (a damaged file: restoring it is what the user wants)
        return False
    return False


def restore(library: Path, backup: Path, now: datetime | None = None) -> Path | None:
    """Replace `library` by `backup` (verified first); the library it replaces is kept as
    a "restore" backup, whose path is returned (None if there was no library). Every
    connection to the library must be closed."""
    if library.is_file() and in_use_elsewhere(library):
        raise BackupError(f"{library}: the library is open in another program (the window "
                          "or a command); close it and restore again; nothing was changed")
    errors = integrity_errors(backup)
    if errors:
        raise BackupError(f"{backup}: not a sound library ({errors[0]}); nothing was changed")
    if paper_count(backup) is None:
        raise BackupError(f"{backup}: not a Papershelf library; nothing was changed")
    remove_stale_temporaries(library.parent, _RESTORE_TEMPORARY_RE)
    kept = None
    if library.is_file():
        if integrity_errors(library, quick=True):
            # A damaged library cannot be copied page by page: keep the file as it is.
            kept = _unique(backup_folder(library), library.stem, now or datetime.now(),
                           "restore")
            kept.parent.mkdir(parents=True, exist_ok=True)
            _copy_file(library, kept)
        else:
            kept = make_backup(library, "restore", now=now)
    tmp = library.with_name(f".{library.name}.papershelf-restore.{os.getpid()}.tmp")
    try:
        _copy_file(backup, tmp)
        for suffix in ("-wal", "-shm"):  # the old log must never be replayed on the new file
            with contextlib.suppress(FileNotFoundError):
                library.with_name(library.name + suffix).unlink()
        os.replace(tmp, library)
        _fsync_folder(library.parent)
    except OSError as exc:
        raise BackupError(f"{library}: cannot be replaced ({exc.strerror}); the library "
                          f"before the restore is kept in {kept}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return kept


def _copy_file(source: Path, dest: Path) -> None:
    with open(source, "rb") as src, open(dest, "wb") as out:
        while chunk := src.read(1 << 20):
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())


# -- salvage ---------------------------------------------------------------------------

# Tables in the order their rows can be inserted (foreign keys).
_SALVAGED = ("meta", "imports", "papers", "personal", "paper_texts", "paper_authors",
             "tags", "paper_tags", "paper_files", "annotations")


@dataclass(frozen=True)
class SalvageReport:
    """What a salvage copied: rows per table, and the rows that could not be read."""

    copied: dict[str, int]
    lost: dict[str, int]


def salvage(damaged: Path, out: Path, create: Callable[[Path], None]) -> SalvageReport:
    """Copy every row that can still be read from a damaged library into a new one at
    `out` (made by `create`, which gives an empty library of the current schema). The
    damaged file is only read. Rows are read in ranges of rowids, a range that fails is
    read row by row, and an unreadable row is counted as lost."""
    if out.exists():
        raise BackupError(f"{out}: exists already; name a new file")
    create(out)
    copied: dict[str, int] = {}
    lost: dict[str, int] = {}
    try:
        with contextlib.closing(sqlite3.connect(out)) as new, \
                contextlib.closing(_connect_read_only(damaged)) as old:
            new.execute("PRAGMA foreign_keys = OFF")
            new.execute("DELETE FROM meta")
            for table in _SALVAGED:
                columns = _common_columns(old, new, table)
                if not columns:
                    continue
                copied[table], lost[table] = _copy_rows(old, new, table, columns)
            for table, orphans in _drop_orphans(new, list(copied)).items():
                copied[table] -= orphans
                lost[table] += orphans
            new.commit()
    except sqlite3.Error as exc:
        with contextlib.suppress(OSError):
            out.unlink()
        raise BackupError(f"{damaged}: nothing could be salvaged ({exc})") from None
    return SalvageReport(copied, lost)


def _drop_orphans(new: sqlite3.Connection, tables: Sequence[str]) -> dict[str, int]:
    """The rows copied to these tables whose paper (or tag) was not: they go, as they
    would have gone with it, so that no paper added later and given its id gets its
    star, notes, tags, files or annotations (and a paper whose import was not copied
    forgets it, as no later import is it). How many went, by table."""
    dropped: dict[str, int] = {}
    for table in tables:
        for key in new.execute(f"PRAGMA foreign_key_list({table})").fetchall():
            parent, column, to, on_delete = key[2], key[3], key[4], key[6]
            gone = f"{column} NOT IN (SELECT {to} FROM {parent})"
            if on_delete == "CASCADE":
                dropped[table] = dropped.get(table, 0) + new.execute(
                    f"DELETE FROM {table} WHERE {gone}").rowcount
            elif on_delete == "SET NULL":
                new.execute(f"UPDATE {table} SET {column} = NULL WHERE {gone}")
    return dropped


def _common_columns(old: sqlite3.Connection, new: sqlite3.Connection, table: str) -> list[str]:
    try:
        had = [r[1] for r in old.execute(f"PRAGMA table_info({table})")]
    except sqlite3.DatabaseError:
        return []
    has = {r[1] for r in new.execute(f"PRAGMA table_info({table})")}
    return [c for c in had if c in has]


def _copy_rows(old: sqlite3.Connection, new: sqlite3.Connection, table: str,
               columns: list[str]) -> tuple[int, int]:
    names = ", ".join(columns)
    insert = (f"INSERT OR IGNORE INTO {table} ({names}) "
              f"VALUES ({', '.join('?' * len(columns))})")
    copied = lost = 0

    def one(rowid: int) -> None:
        nonlocal copied, lost
        try:
            rows = old.execute(f"SELECT {names} FROM {table} WHERE rowid = ?",
                               (rowid,)).fetchall()
        except sqlite3.DatabaseError:
            lost += 1
            return
        for row in rows:
            new.execute(insert, row)
            copied += 1

    if _without_rowid(old, table):  # (the user's stars: read in key order, up to damage)
        cursor = old.execute(f"SELECT {names} FROM {table}")
        while True:
            try:
                rows = cursor.fetchmany(1000)
            except sqlite3.DatabaseError:
                lost += 1  # (at least one: the rest of the tree cannot be reached)
                break
            if not rows:
                break
            new.executemany(insert, rows)
            copied += len(rows)
        return copied, lost
    try:
        low, high = old.execute(f"SELECT min(rowid), max(rowid) FROM {table}").fetchone()
    except sqlite3.DatabaseError:
        # The table's own tree is damaged: its indexes still know which rows it had.
        for rowid in sorted(_rowids_from_indexes(old, table)):
            one(rowid)
        return copied, lost
    if low is None:
        return copied, lost
    for start, end in _ranges(low, high, 1000):
        try:
            rows = old.execute(f"SELECT {names} FROM {table} WHERE rowid BETWEEN ? AND ?",
                               (start, end)).fetchall()
        except sqlite3.DatabaseError:
            for rowid in range(start, end + 1):
                one(rowid)
            continue
        for row in rows:
            new.execute(insert, row)
        copied += len(rows)
    return copied, lost


def _without_rowid(conn: sqlite3.Connection, table: str) -> bool:
    try:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                           (table,)).fetchone()
    except sqlite3.DatabaseError:
        return False
    return bool(sql and "WITHOUT ROWID" in str(sql[0]).upper())


def _rowids_from_indexes(old: sqlite3.Connection, table: str) -> set[int]:
    """The rowids a table's indexes hold (as many as can be read)."""
    found: set[int] = set()
    try:
        indexes = [r[0] for r in old.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", (table,))]
    except sqlite3.DatabaseError:
        return found
    for index in indexes:
        try:
            cursor = old.execute(f'SELECT rowid FROM {table} INDEXED BY "{index}"')
            while batch := cursor.fetchmany(1000):
                found.update(r[0] for r in batch)
        except sqlite3.DatabaseError:
            continue
    return found


def _ranges(low: int, high: int, size: int) -> Iterator[tuple[int, int]]:
    start = low
    while start <= high:
        yield start, min(start + size - 1, high)
        start += size
