"""The registry of file formats: which format a name, a file or some bytes are.

Each format is one module declaring its `Format` (formats.plugin); import, export,
auto-export and the command line ask here, so a new format is one new module, named in
`formats()`. The modules are imported when the registry is first asked (a window starts
without the Zotero or EndNote readers). Never imports Qt.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from papershelf.formats.plugin import HEAD_BYTES, Format

# What a file no format's sniff claims is read as: a list of abstracts (whose reader
# says why a file is none).
FALLBACK = "abstracts"


@functools.cache
def formats() -> tuple[Format, ...]:
    """Every format, in the order they are listed (an export's choices). Their sniffs ask
    for different first characters (@, TY, [ or {, <, PMID, an SQLite header), so the
    order a file's first bytes are tried in does not matter. (A module may declare more
    than one: `FORMATS`.)"""
    from papershelf.formats import abstracts, bibtex, csljson, endnote, medline, ris, zotero

    return (*bibtex.FORMATS, ris.FORMAT, csljson.FORMAT, endnote.FORMAT, medline.FORMAT,
            zotero.FORMAT, abstracts.FORMAT)


@functools.cache
def _by_name() -> dict[str, Format]:
    return {name: fmt for fmt in formats() for name in fmt.names}


def by_name(name: str) -> Format:
    """The format called `name` (its own name or an alias, any case, spaces around it
    ignored); KeyError if there is none."""
    return _by_name()[name.strip().lower()]


def readable() -> tuple[Format, ...]:
    """The formats an import reads."""
    return tuple(fmt for fmt in formats() if fmt.read is not None)


def writable() -> tuple[Format, ...]:
    """The formats an export writes."""
    return tuple(fmt for fmt in formats() if fmt.write is not None)


def names(fmts: tuple[Format, ...]) -> list[str]:
    """Every name the formats are asked by (their own and their aliases), sorted: a
    command line's choices."""
    return sorted(name for fmt in fmts for name in fmt.names)


def by_suffix(path: str | os.PathLike[str]) -> Format | None:
    """The readable format a file's suffix names, if any."""
    suffix = Path(path).suffix.lower()
    return next((fmt for fmt in readable() if suffix in fmt.suffixes), None)


def for_path(path: str | os.PathLike[str]) -> Format:
    """The format of a file: by its suffix, else by a look at its first bytes (a file
    that cannot be opened: `FALLBACK`, whose reader reports the error)."""
    found = by_suffix(path)
    if found is not None:
        return found
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return by_name(FALLBACK)
    return sniff(head)


def sniff(head: bytes) -> Format:
    """The format of a file without a name (standard input), by its first bytes."""
    return next((fmt for fmt in formats() if fmt.sniff is not None and fmt.sniff(head)),
                by_name(FALLBACK))


def writer_for_path(path: str | os.PathLike[str] | None, default: str = "bibtex") -> Format:
    """The export format a file's name asks for by its suffix (.ris, .json; `default`
    for any other name, or none)."""
    if path is not None:
        suffix = Path(path).suffix.lower()
        for fmt in writable():
            if fmt.suffixes[:1] == (suffix,):
                return fmt
    return by_name(default)
