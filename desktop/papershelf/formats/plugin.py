"""What a file format declares: the `Format` each format module gives the registry.

A format is one module (formats.ris, formats.csljson, ...) ending in a `FORMAT`: its
one name and the other spellings accepted for it, the suffixes of its files, how the
first bytes of a file tell it, how a file (or the bytes of a file without a name) is
read, where a big file may be cut into pieces read apart, and how records are written.
`formats.registry` gathers them. This module imports no format, so every format can
import it. Never imports Qt.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from papershelf.formats.records import PaperRecord, ReadProblem, ReadResult

# How much of a file its format is told by.
HEAD_BYTES = 4096


class WriteOptions(Protocol):
    """What an export asks of a writer besides the records (core.transfer.ExportOptions)."""

    @property
    def include_abstract(self) -> bool: ...
    @property
    def include_notes(self) -> bool: ...
    @property
    def ascii_only(self) -> bool: ...
    @property
    def flavour(self) -> str: ...
    @property
    def include_files(self) -> bool: ...


class PieceContext(Protocol):
    """What every piece of a big file is read with (core.ingest.FileContext): the file,
    and what the pieces before it found (an abstract list's heading, BibTeX macros)."""

    @property
    def path(self) -> str: ...
    @property
    def venue(self) -> str: ...
    @property
    def year(self) -> int | None: ...
    @property
    def macros(self) -> dict[str, str]: ...
    @property
    def heading(self) -> str | None: ...


@dataclass
class PieceRead:
    """What a format's reader makes of one piece of a big file."""

    records: list[PaperRecord]
    problems: list[ReadProblem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # abstract lists
    unkept: set[str] = field(default_factory=set)  # RIS tags no field keeps


class ReadWhole(Exception):
    """A piece is unusual (not UTF-8, control characters, entries that refer to each
    other): read the file whole, so its reader decides and words the message as for any
    file."""


@dataclass(frozen=True)
class Pieces:
    """How a big file of a format is read in pieces: where a piece may start (at a line
    break the pattern matches), how a piece's text is read (`first_line` its first line
    in the file, `first` whether it starts the file), what the whole file's start tells
    every piece (`start`: an abstract list's heading), and what a piece tells the pieces
    after it (`context_after`, from its bytes: BibTeX's @string macros). Those two give
    the context's fields that change, by name. `finish` gives the whole file's problems
    and notices once every piece is read (from how many records were read, the
    paragraphs skipped and the tags no field kept); with `unique_keys` a key is read
    once in a file, its later entries skipped (as the whole file's reader does)."""

    boundary: re.Pattern[bytes]
    read: Callable[[str, int, bool, PieceContext], PieceRead]
    start: Callable[[str], dict[str, object]] | None = None
    context_after: Callable[[bytes, bool, PieceContext], dict[str, object]] | None = None
    finish: Callable[[PieceContext, int, list[tuple[int, str]], set[str]],
                     tuple[list[ReadProblem], list[str]]] | None = None
    unique_keys: bool = False


@dataclass(frozen=True)
class Format:
    """One file format, as its module declares it. `sniff` tells the format by a file's
    first bytes (`HEAD_BYTES` of them); `read` reads a file by its path; `parse` reads
    the bytes of a file without a name (standard input, named in messages). A format
    without `read` is only written; one without `write` only read."""

    name: str
    title: str
    aliases: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()
    sniff: Callable[[bytes], bool] | None = None
    read: Callable[[str | os.PathLike[str]], ReadResult] | None = None
    parse: Callable[[bytes, str], ReadResult] | None = None
    pieces: Pieces | None = None
    write: Callable[[Sequence[PaperRecord], WriteOptions], str] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the format is asked by: its own first, then its aliases."""
        return (self.name, *self.aliases)


def head_text(head: bytes) -> str:
    """The start of a file as text for sniffing: UTF-16 if it has a UTF-16 byte-order
    mark, else UTF-8, undecodable bytes dropped."""
    encoding = "utf-16" if head.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8"
    return head[:HEAD_BYTES].decode(encoding, errors="ignore")


def head_start(head: bytes) -> str:
    """`head_text` without a BOM or leading white space."""
    return head_text(head).lstrip("\ufeff").lstrip()


def interchange_writer(write: Callable[[Sequence[PaperRecord]], str]
                       ) -> Callable[[Sequence[PaperRecord], WriteOptions], str]:
    """A `Format.write` for a format that writes what it holds of every record (RIS,
    CSL-JSON): the options only leave out the abstracts."""
    def written(records: Sequence[PaperRecord], options: WriteOptions) -> str:
        if not options.include_abstract:
            records = [replace(record, abstract="") for record in records]
        return write(records)
    return written
