"""The command line, on the core only: `papershelf SUBCOMMAND ...`.

With no subcommand, `__main__` opens the window instead. Every failure the
user can cause ends in one line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import subprocess
import sys
import tempfile
import webbrowser
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy.engine import make_url

from papershelf import __version__, cli_autoexport
from papershelf.core import backup, copying, paths
from papershelf.core.backup import BackupError
from papershelf.core.cited import cited_papers
from papershelf.core.db import (
    SCHEMA_HEAD,
    LibraryError,
    create_library_engine,
    current_revision,
    describe,
    resolve_target,
)
from papershelf.core.library import (
    FILTERS,
    ImportReport,
    Library,
    PaperDetail,
    SavedSearch,
    UserError,
    View,
    parse_entry,
    readable_value,
)
from papershelf.core.transfer import (
    EXPORT_FORMAT_NAMES,
    ExportOptions,
    ImportOutcome,
    export_bibtex,
    format_for,
    write_atomically,
)
from papershelf.formats.bibtex.decode import decode_bibtex
from papershelf.formats.records import FormatError
from papershelf.launch import (
    COMMANDS,
    PROG,
    ArgumentParser,
    add_desktop_options,
    for_the_window,
    library_argument,
    one_line,
    parse_window_arguments,
    typed,
)
from papershelf.metadata import adding, attaching, complete, identifiers
from papershelf.metadata.catalog import catalog_store
from papershelf.metadata.http import HttpSettings, ServiceError, make_client
from papershelf.opener import open_externally


class CliError(Exception):
    """A mistake in what the user asked for; shown as one line."""


def _error(err: TextIO, message: object) -> None:
    """One error line on stderr."""
    err.write(f"{PROG}: error: {one_line(str(message))}\n")


# argparse `type=` checks of what a user types: a mistake is found before anything runs
# (one line, exit status 1). Which values are fine is tests/test_cli_sweep.py's table.
TAG_LENGTH = 255  # (as long as a key may be)


def key_argument(value: str) -> str:
    """A citation key as typed: not empty, no control characters."""
    return typed(value, "key")


def keys_argument(value: str) -> str:
    """Comma-separated keys: at least one, each a key."""
    keys = [key_argument(k.strip()) for k in value.split(",") if k.strip()]
    if not keys:
        raise argparse.ArgumentTypeError("no keys given")
    return ",".join(keys)


def export_format_argument(value: str) -> str:
    """An export format's name: bibtex, ris or csl-json (csljson too), any case."""
    name = EXPORT_FORMAT_NAMES.get(value.strip().lower())
    if name is None:
        raise argparse.ArgumentTypeError(
            f"unknown format {value!r}; use bibtex, ris or csl-json")
    return name


def tag_argument(value: str) -> str:
    """A tag as typed: not empty, no control characters, at most TAG_LENGTH long."""
    typed(value, "tag")
    if len(value) > TAG_LENGTH:
        raise argparse.ArgumentTypeError(f"a tag of {len(value)} characters (at most "
                                         f"{TAG_LENGTH})")
    return value


def text_argument(value: str) -> str:
    """A name, pattern, identifier or URL typed on one line."""
    return typed(value, "value")


def assignment_argument(value: str) -> tuple[str, str]:
    """FIELD=VALUE: a field's name and its value ('' removes the field)."""
    name, equals, rest = value.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(
            f"{one_line(value, 80)!r} is not FIELD=VALUE (e.g. year=2024; FIELD= removes "
            "the field)")
    return name.strip(), rest


def port_argument(value: str) -> int:
    """A TCP port: 0 (any free one) to 65535."""
    if not value.strip().isdigit() or int(value) > 65535:
        raise argparse.ArgumentTypeError(f"{one_line(value, 80)!r} is not a port (0-65535)")
    return int(value)


def new_file_argument(value: str) -> str:
    """The name of a file to write (or a database URL): not empty, no control
    characters, in a folder that exists; not `-`, which is standard output elsewhere."""
    typed(value, "file name")
    if value == "-":
        raise argparse.ArgumentTypeError("'-' (standard output) cannot be written here: "
                                         "name a file")
    return output_argument(value)


def output_argument(value: str) -> str:
    """`new_file_argument`, or `-`: standard output."""
    typed(value, "file name")
    if "://" not in value:
        parent = Path(value).parent
        if not parent.is_dir():
            raise argparse.ArgumentTypeError(f"{one_line(str(parent), 200)}: no such folder")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `papershelf` and its subcommands."""
    common = ArgumentParser(add_help=False)
    common.add_argument(
        "--library", metavar="PATH_OR_URL", default=argparse.SUPPRESS, type=library_argument,
        help=f"library file or SQLAlchemy URL (default: ${paths.LIBRARY_ENV}, "
        f"else {paths.default_library_path()})",
    )
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

    p = sub.add_parser("import", parents=[common],
                       help="import abstract lists, BibTeX, RIS and CSL-JSON files, "
                       "and Zotero's library (zotero.sqlite)")
    p.add_argument("files", nargs="+", metavar="FILE")

    def add_filters(p: argparse.ArgumentParser) -> None:
        p.add_argument("--starred", action="store_true", help="only starred papers")
        state = p.add_mutually_exclusive_group()
        state.add_argument("--unread", action="store_true", help="only unread papers")
        state.add_argument("--reading", action="store_true", help="only papers being read")
        state.add_argument("--read", action="store_true", help="only read papers")
        p.add_argument("--tag", metavar="TAG", type=tag_argument,
                       help="only papers with this tag")
        search = p.add_mutually_exclusive_group()
        search.add_argument("--search", metavar="QUERY", default="", help="full-text search")
        search.add_argument("--saved", metavar="NAME", type=text_argument,
                            help="the papers a saved search finds (see `papershelf saved`)")
        p.add_argument("--sort", default="added",
                       choices=["added", "title", "authors", "year", "venue", "key", "best"],
                       help="best: a search's best matches first (without --search: added)")
        p.add_argument("--reverse", action="store_true", help="reverse the order")

    p = sub.add_parser("list", parents=[common], help="list papers")
    add_filters(p)
    p.add_argument("--json", action="store_true", help="print JSON, one object per paper")

    p = sub.add_parser("search", parents=[common], help="full-text search")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--sort", default="added", choices=["added", "best"],
                   help="best: the best matches first (title, then authors, abstract, notes)")
    p.add_argument("--prefix", action="store_true",
                   help="read the last word as the start of a word (3 letters or more), "
                   "as the window's search field does while you type: quant finds "
                   "quantization")
    p.add_argument("--json", action="store_true", help="print JSON, one object per paper")

    for name, text in (("star", "star papers"), ("unstar", "unstar papers"),
                       ("mark-read", "mark papers read"),
                       ("mark-reading", "mark papers as being read"),
                       ("mark-unread", "mark papers unread")):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument("keys", nargs="+", metavar="KEY", type=key_argument)

    p = sub.add_parser("note", parents=[common],
                       help="set a paper's notes (Markdown); '-' reads standard input; "
                       "no text prints them")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("text", nargs="?", metavar="TEXT")
    p.add_argument("--append", action="store_true", help="add to the notes instead of replacing")
    p.add_argument("--private", action="store_true",
                   help="your own notes on a shared library, which no other member sees "
                   "(without it: the shared notes, every member's)")

    p = sub.add_parser("tag", parents=[common], help="add tags to a paper")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("tags", nargs="+", metavar="TAG", type=tag_argument)

    p = sub.add_parser("untag", parents=[common], help="remove tags from a paper")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("tags", nargs="+", metavar="TAG", type=tag_argument)

    p = sub.add_parser("export", parents=[common],
                       help="write BibTeX, RIS or CSL-JSON (default: every paper, as "
                       "BibTeX, to standard output)")
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

    # Formatted citations and bibliographies (formats.csl).
    p = sub.add_parser("cite", parents=[common],
                       help="a formatted bibliography (APA, IEEE, Chicago, ...) of the papers "
                       "with these keys, or of those the filters choose")
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

    sub.add_parser("info", parents=[common], help="library location, schema version, counts")

    sub.add_parser("duplicates", parents=[common],
                   help="list papers that look like the same paper")
    p = sub.add_parser("merge", parents=[common],
                       help="fold the second paper into the first (keeps the first's key)")
    p.add_argument("keep", metavar="KEEP_KEY", type=key_argument)
    p.add_argument("other", metavar="OTHER_KEY", type=key_argument)

    p = sub.add_parser("key-pattern", parents=[common],
                       help="show or set the citation key pattern for new papers")
    p.add_argument("pattern", nargs="?", metavar="PATTERN", type=text_argument,
                   help="e.g. '[auth:lower][year][shorttitle]'")
    p = sub.add_parser("regenerate-keys", parents=[common],
                       help="give papers new keys from the current pattern")
    p.add_argument("keys", nargs="+", metavar="KEY", type=key_argument)
    p = sub.add_parser("set-key", parents=[common], help="change a paper's citation key")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("new_key", metavar="NEW_KEY", type=key_argument)

    p = sub.add_parser("show", parents=[common],
                       help="every field of a paper (as 'field: value' lines)")
    p.add_argument("key", metavar="KEY", type=key_argument)
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--bibtex", action="store_true", help="its BibTeX entry")
    shape.add_argument("--json", action="store_true",
                       help="JSON: key, type, fields (BibTeX values), readable values, tags")
    values_help = ("FIELD=VALUE: a BibTeX field (title, author, editor, year, venue, "
                   "volume, number, pages, publisher, doi, eprint or arxiv, url, abstract, "
                   "keywords, any other; type: the entry type) and its value as a .bib file "
                   "writes it (author='Doe, Jane and Roe, Richard'); FIELD= removes it")
    p = sub.add_parser("set", parents=[common],
                       help="set fields of a paper (its citation key stays; see set-key)")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("values", nargs="+", metavar="FIELD=VALUE", type=assignment_argument,
                   help=values_help)
    p = sub.add_parser("new", parents=[common],
                       help="add a paper by hand (a title needed); prints its key")
    p.add_argument("--type", metavar="TYPE", type=text_argument,
                   help="its entry type: article, inproceedings, book, ... (default misc)")
    p.add_argument("values", nargs="+", metavar="FIELD=VALUE", type=assignment_argument,
                   help=values_help.removesuffix("; FIELD= removes it"))
    p = sub.add_parser("edit", parents=[common],
                       help="edit a paper's BibTeX entry in $VISUAL or $EDITOR (else vi)")
    p.add_argument("key", metavar="KEY", type=key_argument)

    p = sub.add_parser("backup", parents=[common],
                       help="back the library up (into its backups folder, or to DEST)")
    p.add_argument("dest", nargs="?", metavar="DEST", type=new_file_argument,
                   help="a new file or a folder")
    p = sub.add_parser("backups", parents=[common],
                       help="list the library's backups: date, kind, size, papers")
    p.add_argument("--keep-daily", type=int, metavar="N",
                   help="keep the newest N daily backups (default 7)")
    p.add_argument("--keep-migration", type=int, metavar="N",
                   help="keep the newest N backups made before schema upgrades (default 3)")
    p = sub.add_parser("restore", parents=[common],
                       help="replace the library by a backup (the library it replaces is "
                       "kept as a backup)")
    p.add_argument("backup", metavar="BACKUP")
    p.add_argument("--yes", action="store_true", help="really replace the library")
    p = sub.add_parser("add", parents=[common],
                       help="add papers by DOI, arXiv id, OpenReview/PMLR/ACL/DBLP link or "
                       "title, from the services that own their metadata ('-' reads one "
                       "per line from standard input)")
    p.add_argument("ids", nargs="*", metavar="ID", type=text_argument)
    p.add_argument("--bibtex", metavar="FILE",
                   help="add the BibTeX entries of FILE ('-': standard input, e.g. pasted) "
                   "as an import does, merging duplicates; asks no service")
    p.add_argument("--offline", action="store_true",
                   help="ask no service (only what is cached), as PAPERSHELF_OFFLINE=1")
    p = sub.add_parser("attach", parents=[common],
                       help="attach a PDF to a paper: copied into the library's files folder "
                       "(or linked where it is); its text becomes searchable")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--link", action="store_true",
                   help="link the file where it is instead of copying it")
    p = sub.add_parser("detach", parents=[common],
                       help="take attached files off a paper (all, or the one named); "
                       "the files themselves stay where they are")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the file's name or number as `papershelf files KEY` lists it")
    p = sub.add_parser("files", parents=[common], help="list the files attached to a paper")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p = sub.add_parser("download-pdf", parents=[common],
                       help="download the PDF each paper names (arXiv, PMLR, OpenReview, its "
                       "own link) into the library's files folder and attach it")
    p.add_argument("keys", nargs="+", metavar="KEY", type=key_argument)
    p.add_argument("--offline", action="store_true",
                   help="ask no server (so nothing is downloaded), as PAPERSHELF_OFFLINE=1")
    p = sub.add_parser("open", parents=[common],
                       help="open a paper's page (or its PDF) with the desktop's browser")
    p.add_argument("key", metavar="KEY", type=key_argument)
    p.add_argument("--pdf", action="store_true",
                   help="the PDF instead of the page (an attached one first)")
    p.add_argument("--print", action="store_true", dest="print_only",
                   help="print the address instead of opening it")
    p = sub.add_parser("serve-connector", parents=[common],
                       help="receive papers from the browser's Zotero Connector (as Zotero "
                       "would) until Ctrl+C")
    p.add_argument("--port", type=port_argument, default=None, metavar="N",
                   help="the port on 127.0.0.1 (default 23119, Zotero's)")
    p = sub.add_parser("saved", parents=[common],
                       help="saved searches: named queries, listed in the window's sidebar")
    saved = p.add_subparsers(dest="saved_command", metavar="ACTION", required=True)
    c = saved.add_parser("add", parents=[common], help="save a query under a name")
    c.add_argument("name", metavar="NAME", type=text_argument)
    c.add_argument("query", metavar="QUERY", type=text_argument)
    c.add_argument("--shared", action="store_true",
                   help="every member of a shared library sees it")
    saved.add_parser("list", parents=[common], help="each saved search: name, papers found, query")
    c = saved.add_parser("remove", parents=[common], help="delete a saved search")
    c.add_argument("name", metavar="NAME", type=text_argument)
    p = sub.add_parser("catalog", parents=[common],
                       help="conference catalogs searched offline to complete papers")
    catalog = p.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    c = catalog.add_parser("add", help="add a catalog file (paperlists JSON)")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--venue", help="the venue its papers get (default: from the file)")
    c.add_argument("--year", type=int, help="their year (default: from the file)")
    catalog.add_parser("list", help="the catalogs added")
    c = catalog.add_parser("remove", help="forget a catalog")
    c.add_argument("name", metavar="NAME")
    p = sub.add_parser("complete", parents=[common],
                       help="look papers up (the catalogs added first, then OpenAlex, "
                       "Semantic Scholar and DBLP) and show the candidates with what each "
                       "would change; exit status 1 if a service answered badly")
    p.add_argument("keys", nargs="*", metavar="KEY", type=key_argument)
    p.add_argument("--provisional", action="store_true",
                   help="every paper whose title is provisional (instead of KEYs)")
    p.add_argument("--accept-confident", action="store_true",
                   help="complete each paper whose best candidate is a clear winner (its "
                   "key, notes, star, read state and tags stay)")
    p.add_argument("--limit", type=int, default=3, metavar="N",
                   help="candidates shown per paper (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON, one object per paper")
    p.add_argument("--offline", action="store_true",
                   help="search the catalogs only, as PAPERSHELF_OFFLINE=1")

    p = sub.add_parser("salvage", parents=[common],
                       help="copy what can be read of a damaged library into a new file")
    p.add_argument("output", metavar="NEW_FILE", type=new_file_argument)

    p = sub.add_parser("copy", help="copy a whole library (papers, tags, notes, your stars "
                       "and read states) into a new library file or an empty database on "
                       "a server, e.g. a file onto PostgreSQL or back")
    p.add_argument("source", metavar="SRC", help="library file or URL")
    p.add_argument("destination", metavar="DST", type=new_file_argument,
                   help="a library file that does not exist yet, or an empty database's URL")
    p = sub.add_parser("init-shared",
                       help="set up an empty shared library in an empty PostgreSQL database")
    p.add_argument("url", metavar="URL", type=text_argument,
                   help="e.g. postgresql://user@host/database")
    p.add_argument("--group", metavar="ROLE",
                   help="let the members of this database role read and write the library "
                   "(also tables of later versions); may be given for a library set up "
                   "already")
    cli_autoexport.add_parser(sub, common)  # (auto-export add|list|remove|run)
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
        _error(err, exc)
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
    """Run a subcommand; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        if args.command in FILE_COMMAND_FUNCS:
            return FILE_COMMAND_FUNCS[args.command](_library_file(args), args, out, err)
        if args.command in LIBRARIES_COMMAND_FUNCS:
            return LIBRARIES_COMMAND_FUNCS[args.command](args, out, err)
        library = open_library(args)
        try:
            with cli_autoexport.kept_current(library, err):  # a write refreshes them
                return COMMAND_FUNCS[args.command](library, args, out, err)
        finally:
            library.close()
    except (CliError, UserError, LibraryError, FormatError, BackupError, ServiceError) as exc:
        _error(err, exc)
        return 1
    except OSError as exc:  # a file the user named: too long a name, not writable, ...
        if exc.filename is None:
            raise
        _error(err, f"{exc.filename}: {exc.strerror or exc}")
        return 1


def _library_file(args: argparse.Namespace) -> Path:
    """The chosen library's file; CliError for a library on a database server."""
    url = resolve_target(getattr(args, "library", None))
    path = backup.library_file(url)
    if path is None:
        raise CliError(f"{describe(url)} is a library on a database server: back it up with "
                       "the server's own tools (pg_dump; see the README)")
    return path


def _view(library: Library, args: argparse.Namespace) -> View:
    state = "all"
    for name in ("unread", "reading", "read"):
        if getattr(args, name, False):
            state = name
    search = _saved_search(library, args.saved).query if args.saved else args.search
    return View(filter=state, tag=getattr(args, "tag", None), search=search,
                sort=args.sort, descending=args.reverse,
                starred=getattr(args, "starred", False))


def _selected_ids(library: Library, args: argparse.Namespace) -> list[int]:
    return library.view_ids(_view(library, args))


def _saved_search(library: Library, name: str) -> SavedSearch:
    """The saved search the user sees under `name` (ignoring case); CliError if none."""
    for found in library.saved_searches():
        if found.name.lower() == name.strip().lower():
            return found
    raise CliError(f"no saved search named {name!r} (see `papershelf saved list`)")


def _ids_for(library: Library, keys: Sequence[str]) -> list[int]:
    ids, missing = library.ids_for_keys(keys)
    if missing:
        raise CliError(f"no paper with the key{'s' if len(missing) > 1 else ''} "
                       f"{', '.join(missing)} (see `papershelf list`)")
    return ids


def _paper_json(detail: PaperDetail) -> dict[str, Any]:
    record = detail.record
    return {
        "key": detail.key,
        "title": record.title,
        "provisional": record.title_provisional,
        "authors": [a.display() for a in record.authors],
        "venue": record.venue,
        "year": record.year,
        "starred": detail.starred,
        "read_state": detail.read_state,
        "tags": record.tags,
    }


def _print_papers(library: Library, ids: list[int], as_json: bool, out: TextIO) -> None:
    if as_json:
        details = library.details(ids)
        json.dump([_paper_json(d) for d in details], out, ensure_ascii=False, indent=2)
        out.write("\n")
        return
    rows = library.rows(ids)
    width = max([len(r.key) for r in rows.values()] + [3])
    state_mark = {"unread": " ", "reading": "~", "read": "✓"}
    for pid in ids:
        row = rows[pid]
        star = "★" if row.starred else " "
        title = row.title + (" (provisional title)" if row.title_provisional else "")
        year = str(row.year or "")
        out.write(f"{star}{state_mark.get(row.read_state, ' ')} {row.key:<{width}}  "
                  f"{year:>4}  {title}\n")
    out.write(f"{len(ids)} paper{'s' if len(ids) != 1 else ''}\n")


def cmd_import(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Import each file; a bad file is reported and the others still imported."""

    def each(name: str, result: ImportReport | FormatError) -> None:
        _print_import(library, result, out, err)

    outcome = ImportOutcome.collect(library, args.files, "total", each=each,
                                    stdin=read_stdin)
    if len(args.files) > 1:
        out.write(outcome.report.summary() + "\n")
    return 1 if outcome.failed_files else 0


def _print_import(library: Library, result: ImportReport | FormatError, out: TextIO,
                  err: TextIO) -> None:
    """What the import of one file did: its summary, notes and each entry that failed."""
    if isinstance(result, FormatError):
        _error(err, result)
        return
    library.index_pending()
    out.write(result.summary() + "\n")
    for notice in result.notices:
        out.write(f"  note: {notice}\n")
    for problem in result.problems:
        out.write(f"  failed: {problem}\n")


def cmd_list(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """List papers matching the filters."""
    _print_papers(library, _selected_ids(library, args), args.json, out)
    return 0


def cmd_search(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Full-text search over title, authors, abstract, notes and tags."""
    ids = library.view_ids(View(search=args.query, sort=args.sort, typing=args.prefix))
    _print_papers(library, ids, args.json, out)
    return 0


def cmd_mark(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """star / unstar / mark-read / mark-reading / mark-unread."""
    ids = _ids_for(library, args.keys)
    if args.command in ("star", "unstar"):
        change = library.set_starred(ids, args.command == "star")
    else:
        change = library.set_read_state(ids, args.command.removeprefix("mark-"))
    out.write(f"{change.description}\n")
    return 0


def cmd_note(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Show, set or append to a paper's notes: the shared ones, or with --private the
    member's own; says which it wrote."""
    if args.private and not library.shared:
        raise CliError("a library file has one user: its notes are yours already (write "
                       "them without --private)")
    (paper_id,) = _ids_for(library, [args.key])
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


def cmd_tag(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add or remove tags."""
    ids = _ids_for(library, [args.key])
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


def cmd_export(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Write BibTeX for the chosen papers to a file (atomically) or standard output."""
    if args.aux is not None:
        ids = _cited_ids(library, args, err)
    elif args.allow_missing or args.tag_cited:
        raise CliError("--allow-missing and --tag-cited go with --aux FILE")
    elif args.keys:
        ids = _ids_for(library, [k.strip() for k in args.keys.split(",") if k.strip()])
        filtered = any((args.starred, args.unread, args.reading, args.read, args.tag,
                        args.search, args.saved))
        if filtered:
            keep = set(_selected_ids(library, args))
            ids = [i for i in ids if i in keep]
    else:
        ids = _selected_ids(library, args)
    options = ExportOptions(include_abstract=not args.no_abstract, include_notes=args.notes,
                            ascii_only=args.ascii,
                            flavour="biblatex" if args.biblatex else "bibtex",
                            include_files=args.files,
                            format=args.format or format_for(_file(args.output)))
    text = export_bibtex(library, ids, options).text
    if _file(args.output):
        write_atomically(Path(args.output), text)
        err.write(f"exported {len(ids)} paper{'s' if len(ids) != 1 else ''} "
                  f"to {args.output}\n")
    else:
        out.write(text)
    return 0


def _file(output: str | None) -> str:
    """The file an `-o` names; "" for none, or `-`: standard output."""
    return "" if output in (None, "-") else str(output)


def read_stdin() -> bytes:
    """All of standard input, as bytes."""
    stream = getattr(sys.stdin, "buffer", None)
    return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")


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
    filtered = any((args.starred, args.unread, args.reading, args.read, args.tag,
                    args.search, args.saved))
    if filtered:
        keep = set(_selected_ids(library, args))
        ids = [i for i in ids if i in keep]
    if args.tag_cited and ids:
        library.add_tags(ids, [args.tag_cited])
    return ids


def cmd_cite(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The formatted bibliography (or in-text citation) of the chosen papers."""
    from papershelf.formats import csl

    ids = _ids_for(library, args.keys) if args.keys else []
    if not args.keys or any((args.starred, args.unread, args.reading, args.read, args.tag,
                             args.search, args.saved)):
        keep = _selected_ids(library, args)
        ids = [i for i in ids if i in set(keep)] if args.keys else keep
    fmt = args.format or csl.format_for(_file(args.output))
    records = library.records(ids)
    text = (csl.citation(records, args.style, fmt) + "\n" if args.in_text
            else csl.bibliography(records, args.style, fmt))
    if _file(args.output):
        write_atomically(Path(args.output), text)
        err.write(f"wrote {len(ids)} paper{'s' if len(ids) != 1 else ''} to {args.output}\n")
    else:
        out.write(text)
    return 0


def cmd_info(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def cmd_duplicates(library: Library, args: argparse.Namespace, out: TextIO,
                   err: TextIO) -> int:
    """List suspected duplicates, one pair a line."""
    pairs = library.find_duplicates()
    rows = library.rows([i for p in pairs for i in (p.keep_id, p.other_id)])
    for pair in pairs:
        keep, other = rows[pair.keep_id], rows[pair.other_id]
        out.write(f"{keep.key}  {other.key}  ({pair.reason}): {keep.title}\n")
    out.write(f"{len(pairs)} suspected duplicate{'s' if len(pairs) != 1 else ''}\n")
    return 0


def cmd_merge(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Merge two papers."""
    keep, other = _ids_for(library, [args.keep, args.other])
    if keep == other:
        raise CliError(f"{args.keep} and {args.other} are the same paper: nothing to merge")
    change = library.merge_papers(keep, other)
    out.write(f"{change.description}\n")
    return 0


def cmd_key_pattern(library: Library, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    """Show or set the key pattern."""
    if args.pattern is not None:
        library.set_key_pattern(args.pattern)
    out.write(f"{library.key_pattern}\n")
    return 0


def cmd_regenerate_keys(library: Library, args: argparse.Namespace, out: TextIO,
                        err: TextIO) -> int:
    """New keys from the current pattern, for the papers named."""
    ids = _ids_for(library, args.keys)
    before = {pid: row.key for pid, row in library.rows(ids).items()}
    library.regenerate_keys(ids)
    after = library.rows(ids)
    for pid in ids:
        out.write(f"{before[pid]} -> {after[pid].key}\n")
    return 0


def cmd_backup(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def cmd_backups(path: Path, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def cmd_restore(path: Path, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def cmd_salvage(path: Path, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Copy what can be read of a (damaged) library into a new one."""
    report = backup.salvage(path, Path(args.output), lambda new: Library.open(str(new)).close())
    for table, count in report.copied.items():
        lost = report.lost.get(table, 0)
        out.write(f"{table}: {count} rows copied" + (f", {lost} lost" if lost else "") + "\n")
    out.write(f"salvaged {path} into {args.output}; the damaged file was not changed\n")
    return 0


def cmd_copy(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Copy a whole library into a new one (a file onto a server, or back)."""
    report = copying.copy_library(args.source, args.destination)
    out.write(report.summary() + "\n")
    return 0


def cmd_init_shared(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def cmd_add(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Look each identifier up and add the paper (merging it onto one already there);
    with --bibtex, import BibTeX entries."""
    if args.bibtex is not None:
        if args.ids:
            raise CliError("give identifiers or --bibtex, not both; nothing was added")
        return _add_bibtex(library, args.bibtex, out, err)
    if not args.ids:
        raise CliError("name a paper to add: a DOI, arXiv id, link or title (or --bibtex "
                       "FILE)")
    text = "\n".join(sys.stdin.read() if i == "-" else i for i in args.ids)
    try:
        wanted = identifiers.parse_many(text)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    failed = 0
    with make_client(HttpSettings(offline=True if args.offline else None)) as client:
        for identifier in wanted:
            looked = adding.look_up(identifier, client)
            if looked.error is not None:
                _error(err, looked.failure)
                failed += 1
                continue
            for note in looked.notes:
                out.write(f"  note: {note}\n")
            (item,) = adding.add_found(library, [looked]).items
            out.write(f"{identifier.value}: {_what_happened(item)}\n")
    return 1 if failed else 0


def _add_bibtex(library: Library, name: str, out: TextIO, err: TextIO) -> int:
    """`add --bibtex FILE|-`: the entries imported as a file's are, whatever the file's
    name (as `import`, entries that cannot be read are reported and the rest added)."""
    notices: list[str] = []
    if name == "-":
        source, text = "standard input", sys.stdin.read()
    else:
        try:
            data = Path(name).read_bytes()
        except OSError as exc:
            raise CliError(f"{name}: cannot read file: {exc.strerror or exc}") from None
        source = name
        text, notices = decode_bibtex(data, name)
    outcome = ImportOutcome.collect_bibtex(library, text, source)
    if outcome.failed_files:
        ((_source, reason),) = outcome.failed_files
        raise CliError(f"{source}: {reason}; nothing was added")
    outcome.report.notices[:0] = notices
    _print_import(library, outcome.report, out, err)
    return 0


def _what_happened(item: adding.Added) -> str:
    if item.outcome == "added":
        return f"added as {item.key}"
    if item.outcome == "completed":
        return f"already had it: completed {item.key}"
    return "already had it"


def cmd_open(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Open (or print) the best page or PDF address a paper names; with --pdf, an
    attached PDF on this computer comes first."""
    (pid,) = _ids_for(library, [args.key])
    detail = library.paper(pid)
    assert detail is not None
    local = detail.local_pdf if args.pdf else None
    if local is not None:
        if args.print_only:
            out.write(f"{local}\n")
        elif (failed := open_externally(local)) is not None:
            raise CliError(failed)
        return 0
    url = (identifiers.best_pdf if args.pdf else identifiers.best_page)(detail.record)
    if url is None:
        raise CliError(f"{args.key}: no {'PDF' if args.pdf else 'page'} address is known "
                       "(add its DOI, arXiv id or a url)")
    if args.print_only or not webbrowser.open(url):
        out.write(url + "\n")
    return 0


def cmd_attach(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Attach a PDF to a paper (copied, or linked) and read its text for search."""
    (pid,) = _ids_for(library, [args.key])
    library.attach_file(pid, args.file, link=args.link)
    attached = library.attachments(pid)[-1]  # (the newest)
    where = "linked where it is" if args.link else f"copied into {library.files_folder}"
    out.write(f"attached {attached.name} to {args.key} ({where})\n")
    _index_texts(library, out)
    return 0


def _index_texts(library: Library, out: TextIO) -> None:
    """Read the text of newly attached files for search, and say what came of it."""
    read, problems = attaching.index_texts(library)
    for problem in problems:
        out.write(f"  note: {problem}\n")
    readable = read - len(problems)
    if readable:
        out.write(f"  text of {readable} file{'s' if readable > 1 else ''} read: "
                  "search finds it\n")


def cmd_detach(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Take one or all attached files off a paper; no file is deleted."""
    (pid,) = _ids_for(library, [args.key])
    attached = library.attachments(pid)
    if not attached:
        raise CliError(f"{args.key} has no attached files")
    chosen = attached
    if args.file is not None:
        chosen = [a for n, a in enumerate(attached, start=1)
                  if args.file in (str(n), a.name, a.path)]
        if not chosen:
            names = ", ".join(a.name for a in attached)
            raise CliError(f"{args.key} has no attached file {args.file!r} (it has: {names})")
    library.detach_files([a.id for a in chosen])
    for attachment in chosen:
        kept = f" (the file stays in {attachment.location})" if attachment.location else ""
        out.write(f"detached {attachment.name} from {args.key}{kept}\n")
    return 0


def cmd_files(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """List a paper's attached files: number, name, size, kind, text, where."""
    (pid,) = _ids_for(library, [args.key])
    attached = library.attachments(pid)
    for n, attachment in enumerate(attached, start=1):
        state = "searchable" if attachment.indexed else "text not read yet"
        if not attachment.present():
            state = "not on this computer"
        out.write(f"{n}. {attachment.name}  {attachment.size / 1e6:.1f} MB  "
                  f"{attachment.kind}  {state}  {attachment.location or attachment.path}\n")
    out.write(f"{len(attached)} attached file{'s' if len(attached) != 1 else ''}\n")
    return 0


def cmd_download_pdf(library: Library, args: argparse.Namespace, out: TextIO,
                     err: TextIO) -> int:
    """Download and attach the PDF each paper names; one line per paper."""
    ids = _ids_for(library, args.keys)
    with make_client(HttpSettings(offline=True if args.offline else None)) as client:
        fetched = attaching.download_all(library, ids, client)
    _change, problems = attaching.attach_fetched(library, fetched)
    failed = [item.error for item in fetched if item.error] + problems
    for line in failed:
        _error(err, line)
    for item in fetched:
        if item.path is not None and item.path.exists():
            out.write(f"{item.key}: downloaded {item.path.name} "
                      f"({item.path.stat().st_size / 1e6:.1f} MB)\n")
    _index_texts(library, out)
    return 1 if failed else 0


def cmd_saved(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add, list or remove saved searches."""
    if args.saved_command == "add":
        library.add_saved_search(args.name, args.query, shared=args.shared)
        out.write(f"saved search {' '.join(args.name.split())} added\n")
    elif args.saved_command == "remove":
        found = _saved_search(library, args.name)
        library.remove_saved_search(found.id)
        out.write(f"saved search {found.name} removed\n")
    else:
        searches, counts = library.saved_searches(), library.saved_counts()
        width = max([len(s.name) for s in searches] + [4])
        for found in searches:
            shared = "  (shared)" if found.shared else ""
            out.write(f"{found.name:<{width}}  {counts[found.id]:>6}  {found.query}{shared}\n")
        out.write(f"{len(searches)} saved search{'es' if len(searches) != 1 else ''}\n")
    return 0


def cmd_catalog(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add, list or remove the catalogs searched offline."""
    store = catalog_store()
    if args.catalog_command == "add":
        added = store.add(args.file, args.venue, args.year)
        out.write(f"catalog {added.name}: {added.papers} papers, {added.venue} "
                  f"{added.year or ''}\n".replace(" \n", "\n"))
    elif args.catalog_command == "remove":
        try:
            store.remove(args.name)
        except KeyError:
            raise CliError(f"no catalog named {args.name!r} (see `papershelf catalog "
                           "list`)") from None
        out.write(f"catalog {args.name} removed\n")
    else:
        found = store.catalogs()
        for entry in found:
            out.write(f"{entry.name}  {entry.papers} papers  {entry.venue} "
                      f"{entry.year or ''}\n")
        out.write(f"{len(found)} catalog{'s' if len(found) != 1 else ''}\n")
    return 0


def cmd_complete(library: Library, args: argparse.Namespace, out: TextIO,
                 err: TextIO) -> int:
    """Look papers up, print their candidates and what each would change; with
    --accept-confident, complete the papers with a clear winner."""
    if args.provisional == bool(args.keys):
        raise CliError("name the papers to complete (KEY...) or give --provisional")
    ids = complete.provisional_ids(library) if args.provisional else _ids_for(library, args.keys)
    notes: list[str] = []
    with make_client(HttpSettings(offline=True if args.offline else None)) as client:
        proposals = complete.find_candidates(library, ids, catalogs=catalog_store(),
                                             client=client, notes=notes,
                                             limit=max(1, args.limit))
    accepted: dict[int, list[str]] = {}
    failed = 0
    for proposal in proposals:
        for problem in proposal.problems:
            _error(err, f"{proposal.key}: {problem}")
            failed += 1
        if args.accept_confident and proposal.confident:
            try:
                change = complete.accept(library, proposal)
            except UserError as exc:  # (changed meanwhile, by someone else)
                _error(err, exc)
                failed += 1
                continue
            if change.ids:
                accepted[proposal.paper_id] = [c.field for c in proposal.options[0].changes]
    if args.json:
        json.dump({"notes": notes,
                   "papers": [_proposal_json(p, accepted.get(p.paper_id)) for p in proposals]},
                  out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 1 if failed else 0
    for note in notes:
        out.write(f"note: {note}\n")
    for proposal in proposals:
        _print_proposal(proposal, accepted.get(proposal.paper_id), out)
    sure = sum(1 for p in proposals if p.confident)
    out.write(f"{len(proposals)} paper{'s' if len(proposals) != 1 else ''} looked up: "
              f"{sure} confident, {len(accepted)} completed\n")
    return 1 if failed else 0


def _shorten(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def _print_proposal(proposal: complete.Proposal, filled: list[str] | None,
                    out: TextIO) -> None:
    what = " (provisional title)" if proposal.provisional else ""
    out.write(f"{proposal.key}: {_shorten(proposal.title, 70)}{what}\n")
    if not proposal.options:
        out.write("  no candidate found\n")
    for number, option in enumerate(proposal.options, start=1):
        record = option.record
        where = " ".join(str(v) for v in (record.venue, record.year) if v)
        sure = "  [confident]" if number == 1 and proposal.confident else ""
        out.write(f"  {number}. {option.score:.2f}  {_shorten(record.title, 80)}"
                  f"{f' ({where})' if where else ''}  [{option.source}]{sure}\n")
        out.write(f"       why: {option.why}\n")
        for change in option.changes:
            old = _shorten(change.old, 50) if change.old else "(none)"
            out.write(f"       {change.field}: {old} → {_shorten(change.new, 120)}\n")
        if not option.changes:
            out.write("       (nothing to change)\n")
    if filled is not None:
        out.write(f"  completed {proposal.key} with {', '.join(filled)}\n")


def _proposal_json(proposal: complete.Proposal, filled: list[str] | None) -> dict[str, Any]:
    return {
        "key": proposal.key,
        "title": proposal.title,
        "provisional": proposal.provisional,
        "confident": proposal.confident,
        "completed": filled or [],
        "problems": list(proposal.problems),
        "candidates": [{
            "score": option.score,
            "source": option.source,
            "why": option.why,
            "title": option.record.title,
            "authors": [a.display() for a in option.record.authors],
            "venue": option.record.venue,
            "year": option.record.year,
            "doi": option.record.doi,
            "url": option.record.url,
            "changes": [{"field": c.field, "old": c.old, "new": c.new}
                        for c in option.changes],
        } for option in proposal.options],
    }


def cmd_set_key(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Change one paper's key."""
    (pid,) = _ids_for(library, [args.key])
    library.set_key(pid, args.new_key)
    out.write(f"{args.key} -> {args.new_key}\n")
    return 0


def _values(pairs: Sequence[tuple[str, str]]) -> dict[str, str | None]:
    """FIELD=VALUE arguments as set_fields takes them (a field named twice: CliError)."""
    values: dict[str, str | None] = {}
    for name, value in pairs:
        if name.lower() in (n.lower() for n in values):
            raise CliError(f"the field {name} is given twice; nothing was changed")
        values[name] = value
    return values


def cmd_show(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Every field of one paper: readable lines, its BibTeX entry or JSON."""
    (pid,) = _ids_for(library, [args.key])
    if args.bibtex:
        out.write(library.paper_entry(pid))
        return 0
    fields = library.paper_fields(pid)
    detail = library.paper(pid)
    assert detail is not None
    entry_type = fields.pop("type")
    readable = {name: readable_value(name, value) for name, value in fields.items()}
    if args.json:
        json.dump({"key": detail.key, "type": entry_type, "fields": fields,
                   "readable": readable, "provisional": detail.record.title_provisional,
                   "tags": detail.record.tags}, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 0
    lines = [("citation key", detail.key), ("type", entry_type), *readable.items()]
    if detail.record.tags:
        lines.append(("tags", ", ".join(detail.record.tags)))
    width = max(len(name) for name, _value in lines)
    for name, value in lines:
        value = value.replace("\n", "\n" + " " * (width + 2))
        out.write(f"{name + ':':<{width + 1}} {value}\n")
    return 0


def cmd_set(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Set fields of one paper; a wrong value changes nothing."""
    (pid,) = _ids_for(library, [args.key])
    change = library.set_fields(pid, _values(args.values))
    out.write(f"{args.key}: {change.description if change.ids else 'no change'}\n")
    return 0


def cmd_new(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add a paper typed in; prints its key."""
    values = _values(args.values)
    if args.type is not None:
        if any(name.lower() in ("type", "entrytype", "entry_type") for name in values):
            raise CliError("give the entry type once, as --type or type=; nothing was added")
        values = {"type": args.type, **values}
    _change, pid = library.new_paper(values)
    detail = library.paper(pid)
    assert detail is not None
    out.write(f"{detail.key}\n")
    return 0


def _editor() -> str:
    """The user's editor, as git finds it: $VISUAL, $EDITOR, else vi."""
    return os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"


def _run_editor(path: Path) -> None:
    """Run the user's editor on `path` and wait for it (a shell reads $EDITOR, so it may
    hold options, as git allows); CliError if it cannot run or fails."""
    editor = _editor()
    if os.name == "nt":
        argv = [*shlex.split(editor, posix=False), str(path)]
    else:
        argv = ["sh", "-c", f'{editor} "$@"', editor, str(path)]
    try:
        status = subprocess.run(argv, check=False).returncode
    except OSError as exc:
        raise CliError(f"cannot run the editor {editor!r}: {exc.strerror or exc}; "
                       "nothing was changed") from None
    if status != 0:
        raise CliError(f"the editor {editor!r} exited with status {status}; nothing was "
                       "changed")


def cmd_edit(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Edit a paper's BibTeX entry in the user's editor; what changed is set."""
    (pid,) = _ids_for(library, [args.key])
    detail = library.paper(pid)
    assert detail is not None
    entry = library.paper_entry(pid)
    original = (f"% The BibTeX entry of {detail.key}: change, add or remove its fields, "
                "save and quit.\n% Its citation key stays (`papershelf set-key` changes "
                "it); these lines are ignored.\n\n" + entry)
    base = library.paper_fields(pid)
    with tempfile.TemporaryDirectory(prefix="papershelf-") as folder:
        path = Path(folder) / "entry.bib"
        path.write_text(original, encoding="utf-8")
        _run_editor(path)
        try:
            edited = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise CliError("the edited entry is not UTF-8 text; nothing was changed") from None
    if edited == original:
        out.write("no change\n")
        return 0
    try:
        key, entry_type, fields = parse_entry(edited, f"{detail.key}.bib")
    except (UserError, FormatError) as exc:
        raise CliError(f"{exc}; nothing was changed") from None
    if key != detail.key:
        raise CliError(f"the citation key cannot be changed here ({detail.key} became "
                       f"{key}); use `papershelf set-key`; nothing was changed")
    _key, was_type, was = parse_entry(entry)
    was, now = {"type": was_type, **was}, {"type": entry_type, **fields}
    values = {name: now.get(name) for name in [*now, *was] if now.get(name) != was.get(name)}
    change = library.set_fields(pid, values, base=dict(base)) if values else None
    if change is None or not change.ids:
        out.write("no change\n")
        return 0
    out.write(f"{detail.key}: {change.description}\n")
    for name, theirs in sorted(change.replaced.items()):
        what = f"removed {name}" if theirs is None else f"set {name} to {theirs}"
        out.write(f"  note: someone had {what} while you edited; yours replaced it "
                  f"(`papershelf set {detail.key} {name}={theirs or ''}` puts theirs back)\n")
    if change.conflict:
        out.write("  note: someone changed the abstract while you edited; both versions are "
                  "kept in it, between <<<<<<< and >>>>>>> lines\n")
    return 0


def cmd_serve_connector(library: Library, args: argparse.Namespace, out: TextIO,
                        err: TextIO) -> int:
    """The Zotero Connector's server on this library until Ctrl+C: one line per paper
    saved; a port in use (Zotero running) is one error line."""
    from papershelf.core import connector, receiving

    def say(line: str) -> None:
        out.write(one_line(line) + "\n")
        out.flush()

    port = connector.DEFAULT_PORT if args.port is None else args.port
    connector.serve(lambda heard: receiving.Receiver(library, on_saved=heard), port, say)
    return 0


COMMAND_FUNCS = {
    "import": cmd_import, "list": cmd_list, "search": cmd_search, "star": cmd_mark,
    "unstar": cmd_mark, "mark-read": cmd_mark, "mark-reading": cmd_mark,
    "mark-unread": cmd_mark, "note": cmd_note, "tag": cmd_tag, "untag": cmd_tag,
    "export": cmd_export, "info": cmd_info, "duplicates": cmd_duplicates, "merge": cmd_merge,
    "key-pattern": cmd_key_pattern, "regenerate-keys": cmd_regenerate_keys,
    "set-key": cmd_set_key, "backup": cmd_backup, "add": cmd_add, "open": cmd_open,
    "saved": cmd_saved, "catalog": cmd_catalog, "complete": cmd_complete, "attach": cmd_attach,
    "detach": cmd_detach, "files": cmd_files, "download-pdf": cmd_download_pdf,
    "show": cmd_show, "set": cmd_set, "new": cmd_new, "edit": cmd_edit,
    "serve-connector": cmd_serve_connector,
    "cite": cmd_cite,
    "auto-export": cli_autoexport.cmd_auto_export,
}
# Commands that work on the library file itself: they run without opening it (a damaged
# library can still be restored or salvaged).
FILE_COMMAND_FUNCS = {"backups": cmd_backups, "restore": cmd_restore, "salvage": cmd_salvage}
# Commands that name the libraries they work on themselves (not --library).
LIBRARIES_COMMAND_FUNCS = {"copy": cmd_copy, "init-shared": cmd_init_shared}
assert set(COMMAND_FUNCS) | set(FILE_COMMAND_FUNCS) | set(LIBRARIES_COMMAND_FUNCS) == set(COMMANDS)
assert {"unread", "reading", "read"} <= set(FILTERS)  # the state flags `_view` passes on
