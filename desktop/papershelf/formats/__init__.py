"""Readers and writers of the file formats Papershelf understands. Never imports Qt.

Each format is one module declaring its `Format` (formats.plugin), gathered by
formats.registry. `read_file` picks the reader from the file's name and contents, so the
command line, the window's Import action and drag-and-drop all accept the same files.
"""

from __future__ import annotations

import os

from papershelf.formats import registry
from papershelf.formats.records import FormatError, ReadResult
from papershelf.messages import text as message


def format_of(path: str | os.PathLike[str]) -> str:
    """The name of a file's format ('bibtex', 'ris', 'csljson', ..., 'abstracts'): by
    suffix, else by a look at the first bytes (`registry.for_path`)."""
    return registry.for_path(path).name


def format_of_data(head: bytes) -> str:
    """`format_of` for a file without a name (standard input): by its first bytes."""
    return registry.sniff(head).name


def is_bibtex_text(text: str) -> bool:
    """Whether a text (a file's start, a paste) is BibTeX: after any `%` comment lines,
    it begins with an `@entry`."""
    from papershelf.formats.bibtex.format import is_bibtex_text as is_bibtex

    return is_bibtex(text)


def read_file(path: str | os.PathLike[str]) -> ReadResult:
    """Read a file of any format the registry reads (an abstract list, BibTeX, RIS,
    CSL-JSON, EndNote XML, MEDLINE, a Zotero database); FormatError if it is unusable."""
    name = str(path)
    if not os.path.exists(path):
        raise FormatError(name, message("no such file"))
    if os.path.isdir(path):
        raise FormatError(name, message("is a folder, not a file"))
    if not os.access(path, os.R_OK):
        raise FormatError(name, message("cannot be read (permission denied)"))
    read = registry.for_path(path).read
    assert read is not None  # (the registry tells only formats it reads)
    return read(path)


def read_data(data: bytes, name: str) -> tuple[ReadResult, str]:
    """Read the contents of a file that has no name of its own (standard input, named
    `name` in messages), its format told by its first bytes: the records and the format;
    FormatError if it is unusable (nothing, or a format only a file can hold: a Zotero
    database)."""
    if not data.strip():
        raise FormatError(name, message("nothing to import (no data)"))
    fmt = registry.sniff(data)
    assert fmt.parse is not None  # (every format a sniff tells reads bytes, or refuses)
    return fmt.parse(data, name), fmt.name
