"""What `papershelf` needs to tell the window from a command, with the standard library
and the commands' names only: a start of the window imports neither the command line's
parser and handlers nor the core before its first paint (`__main__`, core.firstpage).

`parse_window_arguments` reads `papershelf [--library L] [--screenshot F] [FILE...]`;
`cli.main.parse_arguments` hands a command line with a command (or --help, --version) to
the full parser. The names come from the commands' declaration, `cli.commands`, which
imports nothing.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import NoReturn

from papershelf.cli.commands import NAMES

PROG = "papershelf"
HELP_OPTIONS = frozenset({"-h", "--help", "--version"})


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr and exit status 1."""

    def error(self, message: str) -> NoReturn:
        self.exit(1, f"{PROG}: error: {one_line(message)} (see `{self.prog} --help`)\n")


def one_line(text: str, longest: int = 600) -> str:
    """`text` as one printable line: control characters (a newline, a terminal's escape)
    written as escapes, the middle of a very long text left out."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in str(text))
    if len(text) > longest:
        text = f"{text[:longest // 2]}…{text[-longest // 4:]}"
    return text


def typed(value: str, what: str) -> str:
    """A value as typed on one line: not empty, no control characters."""
    if not value.strip():
        raise argparse.ArgumentTypeError(f"an empty {what}")
    if not value.isprintable():
        raise argparse.ArgumentTypeError(f"{what} {one_line(value, 80)!r} has control "
                                         "characters")
    return value


def library_argument(value: str) -> str:
    """--library: a library file or a URL, not empty (a missing file is made only by the
    commands that import papers, and by the window when the user says so)."""
    return typed(value, "library")


def add_desktop_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--install-desktop", action="store_true",
                       help="put Papershelf in your desktop's applications menu (launcher, "
                       "icons, Open With for .bib files) and exit")
    group.add_argument("--uninstall-desktop", action="store_true",
                       help="take it out of the menu again and exit")


def first_command(args: Sequence[str]) -> str | None:
    """The subcommand named in `args` (skipping option values), or None."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("--library", "--screenshot", "--read", "--page"):
            skip = True
        elif arg == "--":
            return None
        elif not arg.startswith("-"):
            return arg if arg in NAMES else None
    return None


def for_the_window(args: Sequence[str]) -> bool:
    """Whether `args` start the window (no subcommand, no --help or --version)."""
    return first_command(args) is None and not HELP_OPTIONS & set(args)


def parse_window_arguments(args: Sequence[str]) -> argparse.Namespace:
    """`papershelf [--library L] [--screenshot F] [--install-desktop] [FILE...]`, importing
    the FILEs (what a file manager runs for "Open With"); a mistake exits with one line."""
    window = ArgumentParser(prog=PROG)
    window.add_argument("--library", metavar="PATH_OR_URL", default=argparse.SUPPRESS,
                        type=library_argument)
    window.add_argument("--screenshot", metavar="FILE.png")
    window.add_argument("--read", metavar="KEY", help=argparse.SUPPRESS)  # (`read`'s)
    window.add_argument("--page", metavar="N", type=int, help=argparse.SUPPRESS)
    add_desktop_options(window)
    window.add_argument("open_files", nargs="*", metavar="FILE")
    parsed = window.parse_args(list(args))
    for name in parsed.open_files:
        if not os.path.exists(name):
            window.error(f"{name!r} is neither a command ({', '.join(NAMES)}) "
                         "nor a file to open")
    parsed.command = None
    return parsed


READ = "read"  # the command that opens the window on a paper's PDF (cli.reading)


def read_arguments(args: Sequence[str]) -> argparse.Namespace:
    """The window's arguments for `papershelf read KEY [--page N] [--library L]` (which
    the command line has checked): the window on that library, reading KEY at page N."""
    read = argparse.ArgumentParser(prog=PROG, add_help=False)
    read.add_argument("--library", default=None)
    read.add_argument("--page", type=int, default=None)
    read.add_argument("command")
    read.add_argument("key")
    parsed, _rest = read.parse_known_args(list(args))
    window = ["--read", parsed.key]
    if parsed.library is not None:
        window += ["--library", parsed.library]
    if parsed.page is not None:
        window += ["--page", str(parsed.page)]
    return parse_window_arguments(window)
