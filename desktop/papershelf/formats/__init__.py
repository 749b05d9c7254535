"""Readers and writers of the file formats Papershelf understands. Never imports Qt.

`read_file` picks the reader from the file's name and contents, so the command
line, the window's Import action and drag-and-drop all accept the same files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from papershelf.core.messages import text as message
from papershelf.formats.records import FormatError, ReadResult

BIBTEX_SUFFIXES = (".bib", ".bibtex")
RIS_SUFFIXES = (".ris",)
CSL_JSON_SUFFIXES = (".json",)
ENDNOTE_SUFFIXES = (".xml",)  # EndNote XML (formats.endnote)
MEDLINE_SUFFIXES = (".nbib", ".medline")  # PubMed (formats.medline)
FORMATS = ("bibtex", "abstracts", "ris", "csljson", "endnote", "medline", "zotero")
_SQLITE_START = b"SQLite format 3\x00"  # (an SQLite database: Zotero's zotero.sqlite)
_RIS_START = re.compile(r"TY {1,2}- ")
_JSON_START = re.compile(r'\[\s*[{\]]|\{\s*"')  # (an array of items, or one item)


def format_of(path: str | os.PathLike[str]) -> str:
    """'bibtex', 'ris', 'csljson', 'endnote', 'medline', 'zotero' or 'abstracts': by
    suffix, else by a look at the first bytes."""
    suffix = Path(path).suffix.lower()
    if suffix in BIBTEX_SUFFIXES:
        return "bibtex"
    if suffix in RIS_SUFFIXES:
        return "ris"
    if suffix in CSL_JSON_SUFFIXES:
        return "csljson"
    if suffix in ENDNOTE_SUFFIXES:
        return "endnote"
    if suffix in MEDLINE_SUFFIXES:
        return "medline"
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return "abstracts"  # read_file reports the error
    return format_of_data(head)


def format_of_data(head: bytes) -> str:
    """`format_of` for a file without a name (standard input): by its first bytes."""
    if head.startswith(_SQLITE_START):
        return "zotero"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = head[:4096].decode("utf-16", errors="ignore")
    else:
        text = head[:4096].decode("utf-8", errors="ignore")
    start = text.lstrip("\ufeff").lstrip()
    if _RIS_START.match(start):
        return "ris"
    if _JSON_START.match(start):
        return "csljson"
    from papershelf.formats import endnote, medline

    if endnote.is_endnote_xml(start):
        return "endnote"
    if medline.is_medline_text(start):
        return "medline"
    return "bibtex" if is_bibtex_text(text) else "abstracts"


def is_bibtex_text(text: str) -> bool:
    """Whether a text (a file's start, a paste) is BibTeX: after any `%` comment lines,
    it begins with an `@entry`."""
    text = text.lstrip("\ufeff").lstrip()
    while text.startswith("%"):  # BibTeX comment lines before the first entry
        text = text.partition("\n")[2].lstrip()
    return text.startswith("@")


def read_file(path: str | os.PathLike[str]) -> ReadResult:
    """Read an abstract list, a BibTeX, RIS, CSL-JSON, EndNote XML or MEDLINE file or a
    Zotero database; FormatError if the file is unusable."""
    name = str(path)
    if not os.path.exists(path):
        raise FormatError(name, message("no such file"))
    if os.path.isdir(path):
        raise FormatError(name, message("is a folder, not a file"))
    if not os.access(path, os.R_OK):
        raise FormatError(name, message("cannot be read (permission denied)"))
    fmt = format_of(path)
    if fmt == "bibtex":
        from papershelf.formats.bibtex import read_bibtex

        return read_bibtex(Path(path))
    if fmt == "ris":
        from papershelf.formats.ris import read_ris

        return read_ris(path)
    if fmt == "csljson":
        from papershelf.formats.csljson import read_csl_json

        return read_csl_json(path)
    if fmt == "zotero":
        from papershelf.formats.zotero import read_zotero

        return read_zotero(path)
    if fmt == "endnote":
        from papershelf.formats.endnote import read_endnote

        return read_endnote(path)
    if fmt == "medline":
        from papershelf.formats.medline import read_medline

        return read_medline(path)
    from papershelf.formats.abstracts import read_abstract_list

    return read_abstract_list(path)


def read_data(data: bytes, name: str) -> tuple[ReadResult, str]:
    """Read the contents of a file that has no name of its own (standard input, named
    `name` in messages), its format told by its first bytes: the records and the format;
    FormatError if it is unusable (nothing, or a Zotero database, which only a file
    can hold)."""
    if not data.strip():
        raise FormatError(name, message("nothing to import (no data)"))
    fmt = format_of_data(data)
    if fmt == "zotero":
        raise FormatError(name, message("a Zotero database cannot be read from here; "
                                        "name its file (zotero.sqlite)"))
    if fmt == "bibtex":
        from papershelf.formats.bibtex import decode_bibtex, parse_bibtex

        text, notices = decode_bibtex(data, name)
        result = parse_bibtex(text, name)
        result.notices[:0] = notices
        return result, fmt
    from papershelf.formats.abstracts import parse_abstract_list
    from papershelf.formats.csljson import parse_csl_json
    from papershelf.formats.endnote import parse_endnote
    from papershelf.formats.medline import parse_medline
    from papershelf.formats.ris import parse_ris

    parse = {"ris": parse_ris, "csljson": parse_csl_json, "endnote": parse_endnote,
             "medline": parse_medline, "abstracts": parse_abstract_list}[fmt]
    return parse(data, name), fmt
