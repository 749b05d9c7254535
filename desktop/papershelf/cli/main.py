"""`papershelf COMMAND ...`: the parser made from the declared commands, and `run`,
which hands each command what it works on.

Every failure the user can cause ends in one line on stderr and exit status 1, never
a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TextIO

from papershelf import __version__
from papershelf.cli import (
    around,
    autoexport,
    editing,
    exporting,
    feeds,
    files,
    importing,
    libraries,
    metadata,
    reading,
    retractions,
    searching,
    triage,
)
from papershelf.cli.arguments import library_option
from papershelf.cli.commands import BY_NAME, COMMANDS, MAKERS, Command
from papershelf.cli.common import CliError, print_error
from papershelf.core import backup, paths
from papershelf.core.backup import BackupError
from papershelf.core.db import LibraryError, describe, missing_library, resolve_target
from papershelf.core.library import Library, UserError
from papershelf.formats.records import FormatError
from papershelf.launch import (
    PROG,
    ArgumentParser,
    add_desktop_options,
    for_the_window,
    one_line,
    parse_window_arguments,
)
from papershelf.metadata.http import ServiceError

# The modules that hold the commands, by the name a Command's `group` gives.
GROUPS: dict[str, ModuleType] = {
    module.__name__.rpartition(".")[2]: module
    for module in (around, autoexport, editing, exporting, feeds, files, importing, libraries,
                   metadata, reading, retractions, searching, triage)
}


def _module(command: Command) -> ModuleType:
    """The module of papershelf.cli that holds `command`."""
    return GROUPS[command.group]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `papershelf` and its commands."""
    common = library_option()
    parser = ArgumentParser(
        prog=PROG, parents=[common],
        description="Papershelf: triage, annotate and cite papers. Without a command, "
        "opens the window; `papershelf FILE...` opens it and imports the files.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="render the main window to a PNG file and exit")
    add_desktop_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        takes_library = command.runs != "arguments"  # (the others name their libraries)
        p = sub.add_parser(command.name, parents=[common] if takes_library else [],
                           help=command.help)
        arguments = getattr(_module(command), f"{command.function}_arguments", None)
        if arguments is not None:
            arguments(p)
    return parser


def desktop_integration(parsed: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """`--install-desktop` / `--uninstall-desktop`: the menu entry for this program."""
    from papershelf import integration

    try:
        if parsed.install_desktop:
            for path in integration.install():
                out.write(f"installed {path}\n")
            out.write("Papershelf is in the applications menu (Office, Education)\n")
        else:
            for path in integration.uninstall():
                out.write(f"removed {path}\n")
    except integration.IntegrationError as exc:
        print_error(err, exc)
        return 1
    return 0


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """`papershelf COMMAND ...`, or the window: `papershelf [--library L] [--screenshot F]
    [FILE...]`, importing the FILEs (launch.parse_window_arguments)."""
    args = list(argv)
    if not for_the_window(args):
        parsed = build_parser().parse_args(args)
        parsed.open_files = []
        return parsed
    return parse_window_arguments(args)


def open_library(args: argparse.Namespace) -> Library:
    """Open the chosen library; a new, empty one gets the sample papers once."""
    library = Library.open(getattr(args, "library", None))
    try:  # the first start of a day backs the library up
        backup.daily_backup_for(library.url)
    except BackupError as exc:
        sys.stderr.write(f"{PROG}: warning: no daily backup: {one_line(str(exc))}\n")
    if not library.shared:  # (a group's library gets no sample papers)
        library.ensure_sample(paths.seeds_dir())
    library.index_pending()  # finish what an interrupted bulk import left unsearchable
    return library


def run(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Run a command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        command = BY_NAME[args.command]
        handler: Callable[..., int] = getattr(_module(command), f"run_{command.function}")
        if command.runs == "file":
            return handler(_library_file(args), args, out, err)
        if command.runs == "arguments":
            return handler(args, out, err)
        check_library(args, command)  # (a mistyped --library makes no new library)
        library = open_library(args)
        try:
            with autoexport.kept_current(library, err):  # a write refreshes them
                return handler(library, args, out, err)
        finally:
            library.close()
    except (CliError, UserError, LibraryError, FormatError, BackupError, ServiceError) as exc:
        print_error(err, exc)
        return 1
    except OSError as exc:  # a file the user named: too long a name, not writable, ...
        if exc.filename is None:
            raise
        print_error(err, f"{exc.filename}: {exc.strerror or exc}")
        return 1


def _library_file(args: argparse.Namespace) -> Path:
    """The chosen library's file; CliError for a library on a database server."""
    url = resolve_target(getattr(args, "library", None))
    path = backup.library_file(url)
    if path is None:
        raise CliError(f"{describe(url)} is a library on a database server: back it up with "
                       "the server's own tools (pg_dump; see the README)")
    return path


def check_library(args: argparse.Namespace, command: Command) -> None:
    """UserError (one line) when the command would make a new library where none was
    meant to be: a missing library file named with --library or $PAPERSHELF_LIBRARY (a
    mistyped path), for a command that does not make its library. The default library
    is made on any command's first start."""
    if command.makes_library:
        return
    path = missing_library(getattr(args, "library", None))
    if path is None:
        return
    folder = "" if path.parent.is_dir() else f" (the folder {path.parent} does not exist)"
    raise UserError(f"{path}: no such library{folder}; {', '.join(MAKERS[:-1])} or "
                    f"{MAKERS[-1]} make a new one there, nothing else does")
