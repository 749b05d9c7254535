"""Reader for "abstract lists": a plain-text file of paper abstracts, one per paragraph.

The format (as produced by conference digests and mailing lists)::

    ICML 2024 论文列表

    First abstract, one paragraph ...

    Second abstract ...

The optional heading gives venue and year; there are no titles or authors, so each
record gets a provisional title drawn from its abstract (`titles.provisional_title`), which
the user is expected to replace later. Small lists are read whole (`read_abstract_list`);
`core.ingest` reads big ones in pieces with `paragraphs`, `take_heading` and
`read_paragraphs`, and `core.importing` judges the whole with `judge_list`. Pure Python: no
Qt, no database.
"""

from __future__ import annotations

import codecs
import itertools
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from papershelf.formats.plugin import Format, PieceContext, PieceRead, Pieces
from papershelf.formats.records import FormatError, PaperRecord, ReadProblem, ReadResult, read_whole
from papershelf.formats.titles import provisional_title
from papershelf.messages import text as message

__all__ = [
    "judge_list",
    "paragraphs",
    "parse_abstract_list",
    "read_abstract_list",
    "read_paragraphs",
    "reject_other_formats",
    "take_heading",
]

# An abstract is prose: shorter paragraphs are stray lines, not abstracts.
MIN_ABSTRACT_CHARS = 150
MIN_ABSTRACT_WORDS = 20
# A heading is one short line that is not a sentence.
MAX_HEADING_CHARS = 80

_HEADING_RE = re.compile(
    r"^\s*(?P<venue>[A-Za-z][A-Za-z&.\-]*(?:\s+[A-Za-z][A-Za-z&.\-]*){0,3}?)?"
    r"\s*[-'’]?\s*(?P<year>(?:19|20)\d{2})(?!\d)"
)
_WORD_RE = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
_BIBTEX_RE = re.compile(r"@\s*[A-Za-z]+\s*[{(]")
# Control characters ([\x00-\x08\x0b\x0e-\x1f\x7f]), as the UTF-8 bytes they are.
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])


@dataclass
class _Paragraph:
    """A run of non-blank lines: its 1-based first line and its stripped lines."""

    line: int
    lines: list[str]

    @property
    def text(self) -> str:
        """The lines joined by single spaces, as the abstract is stored."""
        return " ".join(self.lines)


def read_abstract_list(path: str | os.PathLike[str]) -> ReadResult:
    """Read an abstract-list file; raise `FormatError` if it is not one (nothing imported)."""
    return read_whole(path, parse_abstract_list)


def parse_abstract_list(data: bytes, path: str) -> ReadResult:
    """Parse the bytes of an abstract list; `path` is only used in messages.

    Whole-file problems (not UTF-8, binary, empty, not such a list) raise `FormatError`;
    a few paragraphs too short to be abstracts are skipped and reported as problems.
    """
    text = _decode(data, path)
    paras = paragraphs(text)
    if not paras:
        raise FormatError(path, message("the file is empty: expected a heading and abstracts"))
    reject_other_formats(text, path)

    venue, year, heading, paras = take_heading(paras)
    check_unheaded_list(path, venue, year, ((para.line, para.text) for para in paras))
    result = ReadResult()
    result.records, bad = read_paragraphs(paras, venue, year)
    result.problems, result.notices = judge_list(
        path, heading, venue, year, len(result.records),
        [(para.line, reason) for para, reason in bad])
    return result


def judge_list(path: str, heading: str | None, venue: str, year: int | None, good: int,
               skipped: list[tuple[int, str]]) -> tuple[list[ReadProblem], list[str]]:
    """What a whole list comes to, from its heading, its number of abstracts and its
    skipped paragraphs (line, why): a FormatError if it has no abstracts or is mostly
    something else, else a problem per skipped paragraph and notices on the heading.
    (Also for a big list read in pieces by `core.ingest`, see `core.importing`.)"""
    if not good and not skipped:
        raise FormatError(path, message("the file has a heading ({heading}) but no abstracts",
                                     heading=repr(heading)))
    if len(skipped) > good:
        line, reason = skipped[0]
        raise FormatError(
            path,
            message("this does not look like a list of abstracts: {bad} of {all} paragraphs "
                 "are not abstract-like prose (line {line}: {reason})", bad=len(skipped),
                 all=len(skipped) + good, line=line, reason=reason),
        )
    problems = [ReadProblem(path, line, message("skipped paragraph: {reason}", reason=reason))
                for line, reason in skipped]
    notices: list[str] = []
    if heading is None:
        notices.append(message("{path}: no heading line (like 'ICML 2024 papers'); venue and "
                            "year left empty", path=path))
    elif not venue or year is None:
        notices.append(message("{path}: heading {heading} does not name a venue and year; left "
                            "empty", path=path, heading=repr(heading)))
    return problems, notices


# The commonest function words of English (and of a few other languages abstracts are
# written in): about a third of an abstract's words, almost none of a list of random
# words or keywords. A list whose heading names no venue and year must read as prose.
_FUNCTION_WORDS = frozenset("""
a an the of and or to in on at by for from with as is are was were be been being this
that these those it its we our us they their them which who than then there not no but
if so such can may will would should could has have had do does also into over under
between through about both each all any more most other some only how what when where
while der die das und ist von zu mit den dem des ein eine einer nicht sich auf für im
wir le la les et est une un pour dans que qui sur par avec nous el los las y en del por
para con una es se al lo como il di che per della si
""".split())
MIN_FUNCTION_SHARE = 0.12  # (the sample lists' abstracts: 0.26 at least, 0.36 typically)
JUDGED_PARAGRAPHS = 40  # paragraphs looked at to tell whether a list reads as prose


def _reads_as_prose(text: str) -> bool:
    """Whether a paragraph of enough words reads as sentences: in a script that spaces
    its words, enough of them are function words; other scripts are taken as they are."""
    words = _WORD_RE.findall(text)
    latin = [w for w in words if w[0] < "\u0250"]  # (Latin letters, accented too)
    if len(latin) < len(words) / 2:
        return True  # (Chinese, Japanese, Cyrillic, ...: not judged by these words)
    common = sum(1 for w in latin if w.lower() in _FUNCTION_WORDS)
    return common >= MIN_FUNCTION_SHARE * len(latin)


def check_unheaded_list(path: str, venue: str, year: int | None,
                        texts: Iterable[tuple[int, str]]) -> None:
    """A file whose heading names no venue and year, and whose first paragraphs (line,
    text) do not read as abstracts (random words, a keyword dump, a word list), is not
    imported: a FormatError saying so, rather than thousands of junk papers."""
    if venue and year is not None:
        return
    judged = [(line, text) for line, text in itertools.islice(texts, JUDGED_PARAGRAPHS)
              if _not_prose_text_reason(text.split("\n"), text) is None]
    if not judged:
        return  # (judge_list says what the file lacks)
    unlike = [line for line, text in judged if not _reads_as_prose(text)]
    if len(unlike) * 2 > len(judged):
        raise FormatError(
            path,
            message("not imported: the file has no heading naming a venue and year (like "
                 "'ICML 2024 papers') and its paragraphs do not read as abstracts ({bad} of "
                 "the first {judged}, from line {line}, are not sentences); add such a "
                 "heading as the first line to import it anyway", bad=len(unlike),
                 judged=len(judged), line=unlike[0]),
        )


def take_heading(paragraphs: list[_Paragraph]
                 ) -> tuple[str, int | None, str | None, list[_Paragraph]]:
    """Venue, year and heading line of a file's first paragraphs, and the rest."""
    venue: str = ""
    year: int | None = None
    heading: str | None = None
    first = paragraphs[0]
    if _is_heading(first.lines[0]):
        match = _HEADING_RE.match(first.lines[0])
        if len(first.lines) == 1 or _is_glued_heading(first.lines[0], match):
            heading = first.lines[0]
            if match:
                venue = (match.group("venue") or "").strip()
                year = int(match.group("year"))
            if len(first.lines) == 1:
                paragraphs = paragraphs[1:]
            else:
                paragraphs = [_Paragraph(first.line + 1, first.lines[1:]), *paragraphs[1:]]
    return venue, year, heading, paragraphs


def read_paragraphs(paragraphs: list[_Paragraph], venue: str, year: int | None
                    ) -> tuple[list[PaperRecord], list[tuple[_Paragraph, str]]]:
    """The records of the abstract paragraphs, and the other paragraphs with why not."""
    records: list[PaperRecord] = []
    bad: list[tuple[_Paragraph, str]] = []
    for para in paragraphs:
        abstract = para.text
        reason = _not_prose_text_reason(para.lines, abstract)
        if reason:
            bad.append((para, reason))
            continue
        records.append(
            PaperRecord(
                entry_type="inproceedings",
                title=provisional_title(abstract),
                title_provisional=True,
                abstract=abstract,
                venue=venue,
                year=year,
                source_line=para.line,
            )
        )
    return records, bad


def _decode(data: bytes, path: str) -> str:
    """UTF-8 (BOM optional) to text with '\\n' line ends, or a FormatError saying why not."""
    if b"\x00" in data:
        raise FormatError(
            path, message("this is a binary file (it contains NUL bytes), not a text list of "
                       "abstracts"))
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(
            path,
            message("the file is not UTF-8 text: byte {byte} at offset {offset} (line {line}) "
                 "cannot be decoded; save the file as UTF-8 and import it again",
                 byte=f"0x{data[exc.start]:02x}", offset=exc.start, line=line),
            line=line,
        ) from None
    # A control character is one ASCII byte in UTF-8 (and such a byte is never part of a
    # multi-byte character), so counting the bytes counts the characters, in C.
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    if controls > max(2, len(text) // 200):
        raise FormatError(path, message("this looks like a binary file (many control characters)"))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def paragraphs(text: str, first_line: int = 1) -> list[_Paragraph]:
    """Split text ('\\n' line ends) into paragraphs; lines holding only whitespace separate
    them. `first_line` is the number of the text's first line (a piece of a big file)."""
    paras: list[_Paragraph] = []
    current: _Paragraph | None = None
    for number, raw in enumerate(text.split("\n"), start=first_line):
        line = raw.strip()
        if not line:
            current = None
        elif current is None:
            current = _Paragraph(number, [line])
            paras.append(current)
        else:
            current.lines.append(line)
    return paras


def _is_heading(line: str) -> bool:
    """A heading is one short line that does not end like a sentence."""
    return len(line) < MAX_HEADING_CHARS and not line.endswith((".", "!", "?", "。"))


def _is_glued_heading(line: str, match: re.Match[str] | None) -> bool:
    """Is this first line a 'VENUE YEAR' heading with no blank line after it?

    Strict, so that a wrapped abstract starting "In 2020 we ..." is not mistaken for one.
    """
    if match is None or len(line) > 40:
        return False
    venue = match.group("venue") or ""
    return sum(1 for char in venue if char.isupper()) >= 2 and len(venue.split()) <= 2


def reject_other_formats(text: str, path: str) -> None:
    """Raise a FormatError naming the format when the file is clearly something else."""
    start = text.lstrip()
    if _BIBTEX_RE.match(start):
        raise FormatError(
            path, message("this is a BibTeX file (it starts with an @entry), not a list of "
                       "abstracts"))
    if start[:1] in "{[":
        raise FormatError(path, message("this looks like JSON data, not a list of abstracts"))
    if start[:1] == "<":
        raise FormatError(path, message("this looks like XML/HTML, not a list of abstracts"))


def _not_prose_reason(para: _Paragraph) -> str | None:
    """Why a paragraph is not an abstract (None if it reads like one)."""
    return _not_prose_text_reason(para.lines, para.text)


def _not_prose_text_reason(lines: list[str], text: str) -> str | None:
    """`_not_prose_reason` of a paragraph's lines and their joined `text`."""
    if len(lines) >= 3:
        if all("\t" in line for line in lines):
            return message("looks like tab-separated table rows, not prose")
        commas = {line.count(",") for line in lines}
        if len(commas) == 1 and min(commas) >= 2:
            return message("looks like comma-separated table rows, not prose")
    if len(text) < MIN_ABSTRACT_CHARS:
        words = len(_WORD_RE.findall(text))
    else:  # only "enough words or not" matters, and the exact count when not enough
        words = len(list(itertools.islice(_WORD_RE.finditer(text), MIN_ABSTRACT_WORDS)))
    if len(text) < MIN_ABSTRACT_CHARS or words < MIN_ABSTRACT_WORDS:
        return message("too short for an abstract ({chars} characters, {words} words)",
                       chars=len(text), words=words)
    if len(lines) >= 3 and len(text) / len(lines) < 30:
        return message("a list of {lines} short lines, not a prose paragraph",
                       lines=len(lines))
    if text.isascii():  # the letters ([^\W\d_]) of ASCII text are A-Z and a-z: count in C
        letters = len(text.encode("ascii").translate(None, _ASCII_NON_LETTERS))
    else:
        letters = sum(map(len, _LETTER_RUNS.findall(text)))  # runs, not a per-character loop
    if letters < 0.6 * (len(text) - text.count(" ")):
        return message("mostly digits and symbols, not prose")
    return None


_LETTER_RUNS = re.compile(r"[^\W\d_]+")
_ASCII_NON_LETTERS = bytes(b for b in range(128) if not _LETTER_RUNS.match(chr(b)))


# Where a piece of a big abstract list may start: after a blank line.
_PIECE_RE = re.compile(rb"\n[ \t\r\f\v]*\n")
# How much of a big list its heading is looked for in.
_HEADING_BYTES = 1 << 16


def list_heading(path: str) -> tuple[str, int | None, str | None]:
    """Venue, year and heading line of an abstract list (from its first paragraph); a
    FormatError if the list has no such heading and does not read as abstracts
    (`check_unheaded_list`, on the paragraphs of its first 64 KB)."""
    with open(path, "rb") as handle:
        head = handle.read(_HEADING_BYTES).removeprefix(codecs.BOM_UTF8)
    text = head.decode("utf-8", errors="ignore").replace("\r\n", "\n").replace("\r", "\n")
    paras = paragraphs(text)
    if not paras:
        return "", None, None
    venue, year, heading, rest = take_heading(paras)
    check_unheaded_list(path, venue, year, ((para.line, para.text) for para in rest[:-1]))
    return venue, year, heading


def _start(path: str) -> dict[str, object]:
    venue, year, heading = list_heading(path)
    return {"venue": venue, "year": year, "heading": heading}


def _read_piece(text: str, first_line: int, first: bool, context: PieceContext) -> PieceRead:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    paras = paragraphs(text, first_line)
    if first:
        reject_other_formats(text, context.path)
        if paras:
            paras = take_heading(paras)[3]
    records, bad = read_paragraphs(paras, context.venue, context.year)
    return PieceRead(records, skipped=[(para.line, reason) for para, reason in bad])


def _finish(context: PieceContext, read: int, skipped: list[tuple[int, str]],
            unkept: set[str]) -> tuple[list[ReadProblem], list[str]]:
    return judge_list(context.path, context.heading, context.venue, context.year, read,
                      skipped)


# A file no other format claims is read as an abstract list (formats.registry.FALLBACK).
FORMAT = Format(name="abstracts", title="abstract list", read=read_abstract_list,
                parse=parse_abstract_list, pieces=Pieces(_PIECE_RE, _read_piece, start=_start,
                              finish=_finish))
