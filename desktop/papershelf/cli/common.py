"""What the commands share: the user's mistake (CliError) and its one error line, and
the papers the keys or filters choose."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from papershelf.core.library import FILTERS, Library, SavedSearch, View
from papershelf.launch import PROG, one_line


class CliError(Exception):
    """A mistake in what the user asked for; shown as one line."""


def print_error(err: TextIO, message: object) -> None:
    """One error line on stderr."""
    err.write(f"{PROG}: error: {one_line(str(message))}\n")


def view(library: Library, args: argparse.Namespace) -> View:
    """The view the filters (arguments.add_filters) ask for."""
    state = "all"
    for name in ("unread", "reading", "read"):
        if getattr(args, name, False):
            state = name
    search = saved_search(library, args.saved).query if args.saved else args.search
    return View(filter=state, tag=getattr(args, "tag", None), search=search,
                sort=args.sort, descending=args.reverse,
                starred=getattr(args, "starred", False))


assert {"unread", "reading", "read"} <= set(FILTERS)  # the state flags `view` passes on


def selected_ids(library: Library, args: argparse.Namespace) -> list[int]:
    """The papers the filters choose, in their order."""
    return library.view_ids(view(library, args))


def filtered(args: argparse.Namespace) -> bool:
    """Whether a filter narrows the papers named otherwise (by keys, by an .aux file)."""
    return any((args.starred, args.unread, args.reading, args.read, args.tag, args.search,
                args.saved))


def saved_search(library: Library, name: str) -> SavedSearch:
    """The saved search the user sees under `name` (ignoring case); CliError if none."""
    for found in library.saved_searches():
        if found.name.lower() == name.strip().lower():
            return found
    raise CliError(f"no saved search named {name!r} (see `papershelf saved list`)")


def ids_for(library: Library, keys: Sequence[str]) -> list[int]:
    """The papers with these keys, in their order; CliError naming the keys none has."""
    ids, missing = library.ids_for_keys(keys)
    if missing:
        raise CliError(f"no paper with the key{'s' if len(missing) > 1 else ''} "
                       f"{', '.join(missing)} (see `papershelf list`)")
    return ids


def output_file(output: str | None) -> str:
    """The file an `-o` names; "" for none, or `-`: standard output."""
    return "" if output in (None, "-") else str(output)


def read_stdin() -> bytes:
    """All of standard input, as bytes."""
    stream = getattr(sys.stdin, "buffer", None)
    return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
