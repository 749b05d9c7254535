"""Triage: star and unstar papers, mark them read, being read or unread, their notes
and tags."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from papershelf.cli.arguments import add_key, key_argument, tag_argument
from papershelf.cli.common import CliError, ids_for
from papershelf.core.library import Library


def mark_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keys", nargs="+", metavar="KEY", type=key_argument)


def run_mark(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """star / unstar / mark-read / mark-reading / mark-unread."""
    ids = ids_for(library, args.keys)
    if args.command in ("star", "unstar"):
        change = library.set_starred(ids, args.command == "star")
    else:
        change = library.set_read_state(ids, args.command.removeprefix("mark-"))
    out.write(f"{change.description}\n")
    return 0


def note_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("text", nargs="?", metavar="TEXT")
    p.add_argument("--append", action="store_true", help="add to the notes instead of replacing")
    p.add_argument("--private", action="store_true",
                   help="your own notes on a shared library, which no other member sees "
                   "(without it: the shared notes, every member's)")


def run_note(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Show, set or append to a paper's notes: the shared ones, or with --private the
    member's own; says which it wrote."""
    if args.private and not library.shared:
        raise CliError("a library file has one user: its notes are yours already (write "
                       "them without --private)")
    (paper_id,) = ids_for(library, [args.key])
    detail = library.paper(paper_id)
    assert detail is not None
    notes = detail.private_notes if args.private else detail.record.notes
    if args.text is None:
        out.write(notes + ("\n" if notes else ""))
        return 0
    text = sys.stdin.read() if args.text == "-" else args.text
    if args.append and notes:
        text = notes.rstrip("\n") + "\n\n" + text
    if args.private:
        library.set_private_notes(paper_id, text)
        out.write(f"private notes of {args.key} saved (only you see them)\n")
    else:
        library.set_notes(paper_id, text)
        out.write(f"shared notes of {args.key} saved (every member sees them; --private "
                  "writes your own)\n" if library.shared else f"notes of {args.key} saved\n")
    return 0


def tag_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("tags", nargs="+", metavar="TAG", type=tag_argument)


def run_tag(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add or remove tags."""
    ids = ids_for(library, [args.key])
    if args.command == "tag":
        library.add_tags(ids, args.tags)
    else:
        has = library.tags_of(ids).get(ids[0], [])
        missing = [tag for tag in args.tags if tag not in has]
        if missing:
            raise CliError(f"{args.key} has no tag {', '.join(missing)} (it has: "
                           f"{', '.join(has) or 'none'})")
        library.remove_tags(ids, args.tags)
    detail = library.paper(ids[0])
    assert detail is not None
    tags = ", ".join(f'"{tag}"' if " " in tag else tag for tag in detail.record.tags)
    out.write(f"{args.key}: tags {tags or '(none)'}\n")
    return 0
