"""The library as a whole: `info`, backups (`backup`, `backups`, `restore`, `salvage`),
and libraries on a server (`copy`, `init-shared`)."""

from __future__ import annotations

import argparse
import dataclasses
from datetime import datetime
from pathlib import Path
from typing import TextIO

from sqlalchemy.engine import make_url

from papershelf.cli.arguments import new_file_argument, text_argument
from papershelf.cli.common import CliError
from papershelf.core import backup, copying
from papershelf.core.db import (
    SCHEMA_HEAD,
    LibraryError,
    create_library_engine,
    current_revision,
    resolve_target,
)
from papershelf.core.library import Library


def run_info(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Where the library is, its schema version and what it holds."""
    info = library.info()
    labels = [("Library", "location"), ("Database", "dialect"), ("Schema version", "schema"),
              ("Papers", "papers"), ("Unread", "unread"), ("Reading", "reading"),
              ("Read", "read"), ("Starred", "starred"), ("Tags", "tags"), ("Imports", "imports"),
              ("Attached files", "files")]
    if library.shared:  # (the counts of stars and read states are this user's)
        labels.insert(2, ("User", "user"))
    for label, name in labels:
        out.write(f"{label + ':':<16}{info[name]}\n")
    return 0


def backup_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dest", nargs="?", metavar="DEST", type=new_file_argument,
                   help="a new file or a folder")


def run_backup(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Back the library up now: a file's into its backups folder (or DEST); a server's as
    a portable library file (the `copy` path; the server's own backups are pg_dump's)."""
    path = backup.library_file(library.url)
    if path is None:
        dest = Path(args.dest or f"{make_url(library.url).database or 'shared'}-"
                    f"{datetime.now():%Y%m%d-%H%M%S}.sqlite")
        if dest.is_dir():
            raise CliError(f"{dest}: give the name of a new library file")
        report = copying.copy_library(library.url, str(dest))
        out.write(f"{report.summary()}\n(a copy with your own stars, read states and "
                  "private notes; back the whole server up with pg_dump, see the README)\n")
        return 0
    if args.dest is not None and Path(args.dest).exists() and not Path(args.dest).is_dir():
        raise CliError(f"{args.dest} exists: give a new file's name or a folder")
    dest = backup.make_backup(path, "manual", Path(args.dest) if args.dest else None)
    out.write(f"backed up {library.location} to {dest}\n")
    return 0


def backups_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep-daily", type=int, metavar="N",
                   help="keep the newest N daily backups (default 7)")
    p.add_argument("--keep-migration", type=int, metavar="N",
                   help="keep the newest N backups made before schema upgrades (default 3)")


def run_backups(path: Path, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """List the backups; set how many automatic ones are kept."""
    policy = backup.read_policy(path)
    asked = {name: max(0, value) for name in ("keep_daily", "keep_migration")
             if (value := getattr(args, name)) is not None}
    if asked:
        policy = dataclasses.replace(policy, **asked)
        backup.write_policy(path, policy)
    found = backup.list_backups(path)
    for info in found:
        papers = "unreadable" if info.papers is None else f"{info.papers} papers"
        out.write(f"{info.created:%Y-%m-%d %H:%M:%S}  {info.kind:<9}  "
                  f"{info.size / 1e6:8.1f} MB  {papers:>13}  {info.path}\n")
    out.write(f"{len(found)} backup{'s' if len(found) != 1 else ''} in "
              f"{backup.backup_folder(path)} (keeping {policy.keep_daily} daily, "
              f"{policy.keep_migration} before upgrades)\n")
    return 0


def restore_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("backup", metavar="BACKUP")
    p.add_argument("--yes", action="store_true", help="really replace the library")


def run_restore(path: Path, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Replace the library by a backup, keeping the replaced one."""
    source = Path(args.backup)
    if not args.yes:
        raise CliError(f"restoring replaces {path} by {source}; run again with --yes "
                       "to do it (the library it replaces is kept as a backup)")
    kept = backup.restore(path, source)
    out.write(f"restored {path} from {source}\n")
    if kept is not None:
        out.write(f"the library it replaced is kept in {kept}\n")
    return 0


def salvage_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("output", metavar="NEW_FILE", type=new_file_argument)


def run_salvage(path: Path, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Copy what can be read of a (damaged) library into a new one."""
    report = backup.salvage(path, Path(args.output), lambda new: Library.open(str(new)).close())
    for table, count in report.copied.items():
        lost = report.lost.get(table, 0)
        out.write(f"{table}: {count} rows copied" + (f", {lost} lost" if lost else "") + "\n")
    out.write(f"salvaged {path} into {args.output}; the damaged file was not changed\n")
    return 0


def copy_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", metavar="SRC", help="library file or URL")
    p.add_argument("destination", metavar="DST", type=new_file_argument,
                   help="a library file that does not exist yet, or an empty database's URL")


def run_copy(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Copy a whole library into a new one (a file onto a server, or back)."""
    report = copying.copy_library(args.source, args.destination)
    out.write(report.summary() + "\n")
    return 0


def init_shared_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", metavar="URL", type=text_argument,
                   help="e.g. postgresql://user@host/database")
    p.add_argument("--group", metavar="ROLE",
                   help="let the members of this database role read and write the library "
                   "(also tables of later versions); may be given for a library set up "
                   "already")


def run_init_shared(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Create an empty library's schema in an empty database on a server."""
    if args.group and _is_library(args.url):
        out.write(copying.grant_to_group(args.url, args.group) + "\n")
        return 0
    out.write(copying.init_shared(args.url) + "\n")
    if args.group:
        out.write(copying.grant_to_group(args.url, args.group) + "\n")
    return 0


def _is_library(url: str) -> bool:
    """Whether the database at `url` holds a Papershelf library at the newest schema."""
    engine = create_library_engine(resolve_target(url))
    try:
        return current_revision(engine) == SCHEMA_HEAD
    except LibraryError:
        return False
    finally:
        engine.dispose()
