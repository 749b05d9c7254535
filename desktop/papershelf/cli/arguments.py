"""The arguments several commands share: the argparse `type=` checks of what a user
types (a mistake is found before anything runs: one line, exit status 1; which values
are fine is tests/test_cli_sweep.py's table), --library, and the filters.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from papershelf.cli.commands import MAKERS
from papershelf.core import paths
from papershelf.core.transfer import EXPORT_FORMAT_NAMES
from papershelf.launch import ArgumentParser, library_argument, one_line, typed

TAG_LENGTH = 255  # (as long as a key may be)


def library_option() -> ArgumentParser:
    """The parent parser of --library, which every command working on one library takes."""
    common = ArgumentParser(add_help=False)
    common.add_argument(
        "--library", metavar="PATH_OR_URL", default=argparse.SUPPRESS, type=library_argument,
        help=f"library file (only {', '.join(MAKERS[:-1])} and {MAKERS[-1]} make a missing "
        f"one) or SQLAlchemy URL (default: ${paths.LIBRARY_ENV}, else "
        f"{paths.default_library_path()})",
    )
    return common


def export_formats(biblatex: bool = False) -> dict[str, str]:
    """The export formats' names as a user may type them (csljson too), each to the
    format's own name; with `biblatex`, BibLaTeX too, which auto-export takes as a format."""
    names = dict(EXPORT_FORMAT_NAMES)
    if biblatex:
        names["biblatex"] = "biblatex"
    return names


def export_format_argument(value: str) -> str:
    """An export format's name: bibtex, ris or csl-json (csljson too), any case."""
    name = export_formats().get(value.strip().lower())
    if name is None:
        raise argparse.ArgumentTypeError(
            f"unknown format {value!r}; use bibtex, ris or csl-json")
    return name


def key_argument(value: str) -> str:
    """A citation key as typed: not empty, no control characters."""
    return typed(value, "key")


def keys_argument(value: str) -> str:
    """Comma-separated keys: at least one, each a key."""
    keys = [key_argument(k.strip()) for k in value.split(",") if k.strip()]
    if not keys:
        raise argparse.ArgumentTypeError("no keys given")
    return ",".join(keys)


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


def add_key(p: argparse.ArgumentParser) -> None:
    """KEY: the one paper a command works on."""
    p.add_argument("key", metavar="KEY", type=key_argument)


def add_filters(p: argparse.ArgumentParser) -> None:
    """--starred, --unread/--reading/--read, --tag, --search/--saved, --sort, --reverse:
    the papers `list` shows, `export` writes and `cite` formats (common.selected_ids)."""
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
