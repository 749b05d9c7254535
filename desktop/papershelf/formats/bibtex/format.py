"""BibTeX and BibLaTeX as the registry knows them (formats.registry): names, suffixes,
how a file is told, read (whole or in pieces) and written."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Sequence
from typing import cast

from papershelf.formats.bibtex.decode import decode_bibtex
from papershelf.formats.bibtex.reader import parse_bibtex, read_bibtex, string_macros
from papershelf.formats.bibtex.writer import Flavour, write_bibtex
from papershelf.formats.plugin import (
    Format,
    PieceContext,
    PieceRead,
    Pieces,
    ReadWhole,
    WriteOptions,
    head_text,
)
from papershelf.formats.records import PaperRecord, ReadResult

# Where a piece of a BibTeX file may start: a line opening an entry (as the reader's
# own recovery does).
_START_RE = re.compile(rb"\n[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]")
# BibTeX that refers across entries (and a `crossref` field): such a file is read whole.
# (A JabRef groups tree, at the file's end, gives the paths of the `groups` before it.)
_WHOLE_RE = re.compile(
    r"(?i)@[ \t]*proceedings[ \t]*[{(]|jabref-meta:[ \t]*group(?:stree|ing)")
# A piece defining @string macros: the pieces after it get them.
_STRING_RE = re.compile(rb"@[ \t]*[sS][tT][rR][iI][nN][gG][ \t]*[{(]")


def is_bibtex_text(text: str) -> bool:
    """Whether a text (a file's start, a paste) is BibTeX: after any `%` comment lines,
    it begins with an `@entry`."""
    text = text.lstrip("\ufeff").lstrip()
    while text.startswith("%"):  # BibTeX comment lines before the first entry
        text = text.partition("\n")[2].lstrip()
    return text.startswith("@")


def parse_bibtex_data(data: bytes, name: str) -> ReadResult:
    """The records of a BibTeX file's bytes (`name` only names it in messages)."""
    text, notices = decode_bibtex(data, name)
    result = parse_bibtex(text, name)
    result.notices[:0] = notices
    return result


def _read_piece(text: str, first_line: int, first: bool, context: PieceContext) -> PieceRead:
    if _WHOLE_RE.search(text):
        raise ReadWhole()
    result = parse_bibtex(text, context.path, first_line, context.macros)
    if any("crossref" in record.raw for record in result.records):
        raise ReadWhole()
    return PieceRead(result.records, result.problems, result.notices)


def _context_after(data: bytes, first: bool, context: PieceContext) -> dict[str, object]:
    """What changes for the pieces after this one: its @string macros are added."""
    if not _STRING_RE.search(data):
        return {}
    if first:
        data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReadWhole() from None
    return {"macros": string_macros(text, context.path, context.macros)}


def _writer(flavour: Flavour | None
            ) -> Callable[[Sequence[PaperRecord], WriteOptions], str]:
    def write(records: Sequence[PaperRecord], options: WriteOptions) -> str:
        return write_bibtex(records, include_abstract=options.include_abstract,
                            include_notes=options.include_notes, ascii_only=options.ascii_only,
                            flavour=flavour or cast(Flavour, options.flavour),
                            include_files=options.include_files)
    return write


FORMAT = Format(
    name="bibtex", title="BibTeX", suffixes=(".bib", ".bibtex"),
    sniff=lambda head: is_bibtex_text(head_text(head)),
    read=read_bibtex, parse=parse_bibtex_data,
    pieces=Pieces(_START_RE, _read_piece, context_after=_context_after, unique_keys=True),
    write=_writer(None))
# BibLaTeX is written, never told apart from BibTeX when read (a .bib file is BibTeX).
BIBLATEX = Format(name="biblatex", title="BibLaTeX", write=_writer("biblatex"))
FORMATS = (FORMAT, BIBLATEX)
