"""What the command line checks before it writes: that a library named explicitly exists
(unless the command is one that makes a library), and that an export selects a paper."""

from __future__ import annotations

import argparse
import shlex

from papershelf.core.db import missing_library
from papershelf.core.errors import UserError

# The commands that make the library they are given when it does not exist yet: they
# bring papers in. Every other one, on a library file named with --library or
# $PAPERSHELF_LIBRARY that does not exist (a mistyped path), is an error. The default
# library is made on any command's first start, as before.
CREATING = frozenset({"import", "new", "add"})


def check_library(args: argparse.Namespace) -> None:
    """UserError (one line) when the command would make a new library where none was
    meant to be: a missing library file named explicitly, for a command not in CREATING."""
    if args.command in CREATING:
        return
    path = missing_library(getattr(args, "library", None))
    if path is None:
        return
    folder = "" if path.parent.is_dir() else f" (the folder {path.parent} does not exist)"
    raise UserError(f"{path}: no such library{folder}; import, new or add make a new one "
                    "there, nothing else does")


def nothing_selected(args: argparse.Namespace) -> str:
    """The line of an export that selected no paper: the keys, filters and search the
    user gave, as they gave them (so the mistyped one shows)."""
    given: list[str] = []
    for name in ("keys", "aux"):
        if getattr(args, name, None):
            given.append(f"--{name} {shlex.quote(getattr(args, name))}")
    given += [f"--{name}" for name in ("starred", "unread", "reading", "read")
              if getattr(args, name, False)]
    for name in ("tag", "search", "saved"):
        if getattr(args, name, None):
            given.append(f"--{name} {shlex.quote(getattr(args, name))}")
    if not given:
        return "the library has no papers; nothing was written"
    return f"no paper matches {' '.join(given)}; nothing was written"
