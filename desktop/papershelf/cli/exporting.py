"""Papers going out: `export` (BibTeX, RIS, CSL-JSON; the papers a LaTeX document cites)
and `cite` (formatted bibliographies and in-text citations)."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from papershelf.cli.arguments import (
    add_filters,
    export_format_argument,
    key_argument,
    keys_argument,
    output_argument,
    tag_argument,
)
from papershelf.cli.common import CliError, filtered, ids_for, output_file, selected_ids
from papershelf.core.cited import cited_papers
from papershelf.core.library import Library
from papershelf.core.transfer import (
    ExportOptions,
    export_format_for_path,
    export_papers,
    write_atomically,
)


def export_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keys", metavar="K,K", type=keys_argument,
                   help="these papers, comma-separated keys")
    p.add_argument("--all", action="store_true", help="every paper")
    add_filters(p)
    p.add_argument("-o", "--output", metavar="FILE", type=output_argument,
                   help="write to FILE instead of stdout ('-': stdout)")
    p.add_argument("--no-abstract", action="store_true", help="leave abstracts out")
    p.add_argument("--notes", action="store_true", help="include your notes (as annote)")
    p.add_argument("--ascii", action="store_true",
                   help="write LaTeX accents instead of UTF-8 characters")
    p.add_argument("--biblatex", action="store_true",
                   help="BibLaTeX flavour (date, journaltitle, @online) instead of BibTeX")
    p.add_argument("--files", action="store_true",
                   help="include attached files as a `file` field (JabRef style for BibTeX, "
                   "Better BibLaTeX style with --biblatex)")
    p.add_argument("--aux", metavar="FILE.aux",
                   help="the papers a LaTeX document cites: its .aux (bibtex or biblatex; "
                   "included chapters' too) or biblatex's .bcf")
    p.add_argument("--allow-missing", action="store_true",
                   help="with --aux: write the cited papers the library has (else a cited "
                   "key it lacks is an error)")
    p.add_argument("--tag-cited", metavar="TAG", type=tag_argument,
                   help="with --aux: tag the cited papers")
    p.add_argument("--format", type=export_format_argument, metavar="FORMAT",
                   help="bibtex, ris or csl-json (also spelled csljson; default: by the "
                   "output file's suffix, .ris or .json; else bibtex)")


def run_export(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Write BibTeX for the chosen papers to a file (atomically) or standard output."""
    if args.aux is not None:
        ids = _cited_ids(library, args, err)
    elif args.allow_missing or args.tag_cited:
        raise CliError("--allow-missing and --tag-cited go with --aux FILE")
    elif args.keys:
        ids = ids_for(library, [k.strip() for k in args.keys.split(",") if k.strip()])
        if filtered(args):
            keep = set(selected_ids(library, args))
            ids = [i for i in ids if i in keep]
    else:
        ids = selected_ids(library, args)
    if not ids:  # (a file named with -o keeps what it had)
        raise CliError(nothing_selected(args))
    options = ExportOptions(include_abstract=not args.no_abstract, include_notes=args.notes,
                            ascii_only=args.ascii,
                            flavour="biblatex" if args.biblatex else "bibtex",
                            include_files=args.files,
                            format=args.format or export_format_for_path(output_file(args.output)))
    export = export_papers(library, ids, options)
    text = export.text
    warn_retracted(export.retracted, err)
    if output_file(args.output):
        write_atomically(Path(args.output), text)
        err.write(f"exported {len(ids)} paper{'s' if len(ids) != 1 else ''} "
                  f"to {args.output}\n")
    else:
        out.write(text)
    return 0


def warn_retracted(lines: Sequence[str], err: TextIO) -> None:
    """A warning line for each retracted paper written (the export is not stopped)."""
    for line in lines:
        err.write(f"warning: {line}\n")


def _cited_ids(library: Library, args: argparse.Namespace, err: TextIO) -> list[int]:
    """The papers the --aux file cites, in citing order (every paper for \\nocite{*});
    CliError for keys the library lacks unless --allow-missing; --tag-cited tags them."""
    if args.keys:
        raise CliError("give --aux or --keys, not both")
    ids, missing = cited_papers(library, args.aux)
    if missing:
        listed = ", ".join(missing[:20]) + (f" and {len(missing) - 20} more"
                                           if len(missing) > 20 else "")
        if not args.allow_missing:
            raise CliError(f"{args.aux}: the library has no paper with the key"
                           f"{'s' if len(missing) > 1 else ''} {listed}; nothing was "
                           "written (--allow-missing writes the others)")
        err.write(f"{args.aux}: not in the library: {listed}\n")
    if filtered(args):
        keep = set(selected_ids(library, args))
        ids = [i for i in ids if i in keep]
    if args.tag_cited and ids:
        library.add_tags(ids, [args.tag_cited])
    return ids


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


# Formatted citations and bibliographies (formats.csl).
def cite_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keys", nargs="*", metavar="KEY", type=key_argument)
    p.add_argument("--style", default="apa", metavar="STYLE",
                   help="apa, ieee, chicago, nature, acm, harvard, mla, or the path of a "
                   ".csl file (default: apa)")
    p.add_argument("--format", choices=["text", "html", "markdown", "rtf"],
                   help="default: by the output file's suffix (.html, .md, .rtf), else text")
    p.add_argument("--in-text", action="store_true",
                   help="the in-text citation of the papers instead: (Smith, 2020), [1]")
    p.add_argument("-o", "--output", metavar="FILE", type=output_argument,
                   help="write to FILE instead of stdout ('-': stdout)")
    add_filters(p)


def run_cite(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The formatted bibliography (or in-text citation) of the chosen papers."""
    from papershelf.formats import csl

    ids = ids_for(library, args.keys) if args.keys else []
    if not args.keys or filtered(args):
        keep = selected_ids(library, args)
        ids = [i for i in ids if i in set(keep)] if args.keys else keep
    fmt = args.format or csl.format_for(output_file(args.output))
    records = library.records(ids)
    warn_retracted(library.retraction_warnings(ids), err)
    text = (csl.citation(records, args.style, fmt) + "\n" if args.in_text
            else csl.bibliography(records, args.style, fmt))
    if output_file(args.output):
        write_atomically(Path(args.output), text)
        err.write(f"wrote {len(ids)} paper{'s' if len(ids) != 1 else ''} to {args.output}\n")
    else:
        out.write(text)
    return 0
