"""`papershelf auto-export add|list|remove|run`, and the refresh after a writing command.

The command line's part of core.autoexport: a file kept current with every paper, the
starred ones, a tag's or a saved search's, as `export` would write it. Every command that
changes the library refreshes the auto-exports before it exits (`kept_current`), so a
`papershelf star KEY` leaves the .bib a LaTeX build reads up to date.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from papershelf.cli.arguments import (
    export_formats,
    library_option,
    new_file_argument,
    tag_argument,
    text_argument,
)
from papershelf.core import autoexport
from papershelf.core.library import Library
from papershelf.core.transfer import export_format_for_path
from papershelf.errors import LibraryError, UserError
from papershelf.launch import PROG, one_line


def auto_export_arguments(p: argparse.ArgumentParser) -> None:
    """Its actions: add, list, remove, run."""
    actions = p.add_subparsers(dest="auto_command", metavar="ACTION", required=True)
    c = actions.add_parser("add", parents=[library_option()],
                           help="keep FILE current (every paper unless told) and write it now")
    c.add_argument("file", metavar="FILE", type=new_file_argument)
    what = c.add_mutually_exclusive_group()
    what.add_argument("--all", action="store_true", help="every paper (the default)")
    what.add_argument("--starred", action="store_true", help="the starred papers")
    what.add_argument("--tag", metavar="TAG", type=tag_argument, help="the papers with TAG")
    what.add_argument("--saved", metavar="NAME", type=text_argument,
                      help="the papers a saved search finds (see `papershelf saved`)")
    what.add_argument("--aux", metavar="FILE.aux", type=text_argument,
                      help="the papers a LaTeX document cites, in citing order: its .aux "
                      "(or biblatex's .bcf), read again whenever LaTeX rewrites it")
    c.add_argument("--allow-missing", action="store_true",
                   help="with --aux: keep the file even if the document is not compiled "
                   "yet or cites keys the library lacks (the others are written)")
    c.add_argument("--format", choices=sorted(export_formats(biblatex=True)),
                   help="bibtex, biblatex, csl-json or ris (default: csl-json for a "
                   ".json file, ris for a .ris file, else bibtex)")
    c.add_argument("--no-abstract", action="store_true", help="leave abstracts out")
    c.add_argument("--notes", action="store_true", help="include your notes (as annote)")
    c.add_argument("--ascii", action="store_true",
                   help="write LaTeX accents instead of UTF-8 characters")
    c.add_argument("--files", action="store_true",
                   help="include attached files as a `file` field")
    actions.add_parser("list", parents=[library_option()],
                       help="each auto-export: file, papers, format and last outcome")
    c = actions.add_parser("remove", parents=[library_option()],
                           help="stop keeping FILE current (the file stays)")
    c.add_argument("file", metavar="FILE")
    actions.add_parser("run", parents=[library_option()],
                       help="bring every auto-export up to date now")


def run_auto_export(library: Library, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    """add / list / remove / run."""
    if args.auto_command == "add":
        if args.allow_missing and not args.aux:
            raise UserError("--allow-missing goes with --aux FILE.aux")
        what = ("starred" if args.starred else f"tag:{args.tag}" if args.tag
                else f"saved:{args.saved}" if args.saved
                else f"aux:{args.aux}" if args.aux else "all")
        fmt = (export_formats(biblatex=True)[args.format] if args.format
               else export_format_for_path(args.file))
        outcome = autoexport.add(library, args.file, what, fmt,
                                 include_abstract=not args.no_abstract,
                                 include_notes=args.notes, ascii_only=args.ascii,
                                 include_files=args.files,
                                 allow_missing=args.allow_missing)
        found = outcome.export
        out.write(f"{found.path}: auto-exported ({found.describe_what()}, {found.format})"
                  f"{', ' + _said(outcome)}\n")
        _warn_retracted(outcome, err)
        return 0
    if args.auto_command == "remove":
        gone = autoexport.remove(library, args.file)
        out.write(f"{gone.path}: no longer auto-exported (the file stays)\n")
        return 0
    if args.auto_command == "run":
        outcomes = autoexport.refresh(library)
        for outcome in outcomes:
            out.write(f"{outcome.export.path}: {_said(outcome)}\n")
            _warn_retracted(outcome, err)
        if not outcomes:
            out.write("no auto-exports (see `papershelf auto-export add`)\n")
        return 1 if any(o.export.state == "failed" for o in outcomes) else 0
    exports = autoexport.auto_exports(library)
    for found in exports:
        state = "out of date" if autoexport.out_of_date(library, found) else _state(found)
        out.write(f"{found.path}  {found.describe_what()}  {found.format}  {state}\n")
    out.write(f"{len(exports)} auto-export{'s' if len(exports) != 1 else ''}\n")
    return 0


def _warn_retracted(outcome: autoexport.Outcome, err: TextIO) -> None:
    """A warning line for each retracted paper a file just written holds."""
    for line in outcome.retracted:
        err.write(f"{PROG}: warning: {outcome.export.path}: {one_line(line)}\n")


def _said(outcome: autoexport.Outcome) -> str:
    """What a refresh did: written or up to date (and its note), waiting, failed."""
    found = outcome.export
    if found.state != "ok":
        return _state(found)
    return ("written" if outcome.written else "up to date") + (
        f"; {found.message}" if found.message else "")


def _state(found: autoexport.AutoExport) -> str:
    """An auto-export's state as listed."""
    if found.state == "new":
        return "not written yet"
    if found.state == "ok":
        return "up to date" + (f"; {found.message}" if found.message else "")
    return f"{found.state}: {found.message}"  # (waiting or failed)


@contextmanager
def kept_current(library: Library, err: TextIO) -> Iterator[None]:
    """Run a command, then refresh the auto-exports if it changed the library; a file
    that cannot be written is a warning line (the command did what it was asked). What
    a refresh killed mid-write left beside a file is removed first."""
    autoexport.remove_leftovers(autoexport.auto_exports(library))
    before = autoexport.last_change(library)
    try:
        yield
    finally:
        try:
            if autoexport.last_change(library) != before:
                for outcome in autoexport.refresh(library):
                    if outcome.export.state == "failed":
                        err.write(f"{PROG}: warning: auto-export not written: "
                                  f"{one_line(outcome.export.message)}\n")
                    _warn_retracted(outcome, err)
        except (LibraryError, UserError) as exc:
            err.write(f"{PROG}: warning: auto-exports not refreshed: {one_line(str(exc))}\n")
