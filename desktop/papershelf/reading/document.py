"""A PDF opened with PDFium (pypdfium2): its pages' labels, and where on a page a quote
is, as the rectangles a highlight of it covers.

Every failure is a `PdfError`: one line naming the file (missing, damaged, encrypted
without the password). The quote is found in the page's text as a reader reads it:
white space of any kind and amount matches any other, a word hyphenated at the end of a
line matches the whole word, and letters match ignoring case.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from papershelf.metadata.pdftext import PdfError

# A rectangle in PDF points: left, bottom, right, top (the page's origin bottom left).
Rect = tuple[float, float, float, float]

PAGES_MAX = 20_000  # (a file claiming more is refused: nobody reads it, it may be a bomb)
_DASHES = "-\u2010\u2011\u00ad"
# PDFium's mark of a hyphen it removed at the end of a line ("to\ufffekens").
_JOINED = "\ufffe"
# TeX's ligatures in T1-encoded fonts that give no Unicode for them come out as control
# characters, their places in the encoding (ff, fi, fl, ffi, ffl). (OT1's places are those
# of \v, \f and \r, which PDFium writes between lines: they cannot be told apart.)
_LIGATURES = {chr(0x1B + i): lig for i, lig in enumerate(("ff", "fi", "fl", "ffi", "ffl"))}


@dataclass(frozen=True)
class Found:
    """A quote found on a page: the text as the page has it, and its rectangles (one
    per line it runs over)."""

    text: str
    rects: tuple[Rect, ...]


class Encrypted(PdfError):
    """A PDF that opens with its password only (none was given, or a wrong one)."""


def open_document(path: str | os.PathLike[str], password: str | None = None) -> Any:
    """The PDF at `path` as a pypdfium2 document (the caller closes it), or PdfError
    (`Encrypted` when it needs its password)."""
    import pypdfium2 as pdfium

    file = Path(path)
    try:
        document = pdfium.PdfDocument(str(file), password=password)
    except FileNotFoundError:
        raise PdfError("PDF", f"{file.name} does not exist") from None
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            raise Encrypted("PDF", f"{file.name} is encrypted") from None
        raise PdfError("PDF", f"{file.name} is damaged or not a PDF") from None
    except OSError as error:
        raise PdfError("PDF", f"{file.name} cannot be opened ({error.strerror})") from None
    if len(document) > PAGES_MAX:
        count = len(document)
        document.close()
        raise PdfError("PDF", f"{file.name} has {count:,} pages, more than "
                       f"{PAGES_MAX:,}: it is not opened")
    return document


@contextmanager
def opened(path: str | os.PathLike[str], password: str | None = None) -> Iterator[Any]:
    """The PDF at `path` as a pypdfium2 document (closed after), or PdfError."""
    document = open_document(path, password)
    try:
        yield document
    finally:
        document.close()


def page_labels(document: Any) -> list[str]:
    """Each page's label as the file names it ("i", "ii", "1", …), or its number from
    1 where the file gives none."""
    labels = []
    for index in range(len(document)):
        try:
            label = document.get_page_label(index)
        except Exception:  # (a damaged label tree: the number is as good)
            label = ""
        labels.append(label or str(index + 1))
    return labels


def page_count(path: str | os.PathLike[str]) -> int:
    """How many pages the PDF at `path` has."""
    with opened(path) as document:
        return len(document)


def _fold(char: str) -> str:
    """A character as a quote is matched: lower case, ligatures and accents apart."""
    return unicodedata.normalize("NFKC", char).casefold()


def _searchable(text: str) -> tuple[str, list[int]]:
    """The page's text folded for matching, and for each character of it the index of
    the page's character it came from: runs of white space are one space, a dash at the
    end of a line joins the word it splits."""
    out: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in _DASHES and i + 1 < len(text) and text[i + 1] in "\r\n":
            out.append("-")  # "long-\r\ndocument" reads "long-document"
            where.append(i)
            i += 1
            while i < len(text) and text[i].isspace():
                i += 1
            continue
        if char == _JOINED or char == "\x02":  # a word PDFium found broken at a line's end
            i += 1
            while i < len(text) and text[i] in "\r\n":
                i += 1
            continue
        if char in _LIGATURES:
            for folded in _LIGATURES[char]:
                out.append(folded)
                where.append(i)
            i += 1
            continue
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                where.append(i)
            i += 1
            continue
        for folded in _fold(char):
            out.append(folded)
            where.append(i)
        i += 1
    return "".join(out), where


def readable(raw: str) -> str:
    """A stretch of a page's text as a reader reads it: a word PDFium found broken at a
    line's end whole again ("to\\ufffe\\r\\nkens"), a hyphen at a line's end kept with
    its next word ("long-\\r\\ndocument"), ligatures spelt out, lines joined by a space."""
    raw = re.sub("[\ufffe\x02]\\s*", "", raw)
    raw = re.sub(f"([{_DASHES}])[\\r\\n]+\\s*", r"\1", raw)
    raw = "".join(_LIGATURES.get(char, char) for char in raw)
    return " ".join(raw.split())


def _wanted(quote: str) -> str:
    folded = "".join(_fold(c) for c in quote)
    return re.sub(r"\s+", " ", folded).strip()


def find_quote(document: Any, page_index: int, quote: str) -> Found | None:
    """Where `quote` first is on the page `page_index` (from 0), or None."""
    wanted = _wanted(quote)
    if not wanted or not 0 <= page_index < len(document):
        return None
    page = document[page_index]
    textpage = page.get_textpage()
    try:
        text = page_text(textpage)
        searchable, where = _searchable(text)
        at = searchable.find(wanted)
        if at < 0:
            return None
        first, last = where[at], where[at + len(wanted) - 1]
        rects = tuple(line_rects(textpage, first, last - first + 1))
        return Found(readable(text[first:last + 1]), rects)
    finally:
        textpage.close()
        page.close()


def page_text(textpage: Any, limit: int | None = None) -> str:
    """A page's characters (the first `limit`), one for each of PDFium's (its character
    boxes go by the same index)."""
    count = textpage.count_chars()
    if limit is not None:
        count = min(count, limit)
    text = textpage.get_text_range(0, count) if count > 0 else ""
    if len(text) != count:  # (a character outside the BMP: read them one by one)
        text = "".join(textpage.get_text_range(i, 1)[:1] or " " for i in range(count))
    return str(text)


def line_rects(textpage: Any, index: int, count: int, digits: int | None = 2
               ) -> Iterator[Rect]:
    """The rectangles (one per line) of `count` characters from `index`, rounded to
    `digits` (None: as PDFium gives them)."""
    for n in range(textpage.count_rects(index, count)):
        left, bottom, right, top = (float(v) for v in textpage.get_rect(n))
        if digits is not None:
            left, bottom, right, top = (round(v, digits) for v in (left, bottom, right, top))
        yield (left, bottom, right, top)


def text_in(document: Any, page_index: int, rects: tuple[Rect, ...]) -> str:
    """The page's text inside `rects` (what a highlight covers), lines joined by a
    space."""
    if not 0 <= page_index < len(document):
        return ""
    page = document[page_index]
    textpage = page.get_textpage()
    try:
        parts = [textpage.get_text_bounded(left=left, bottom=bottom, right=right, top=top)
                 for left, bottom, right, top in rects]
        return readable("\r\n".join(parts))
    finally:
        textpage.close()
        page.close()


FRAME_SCALE = 2.0  # pixels a point of a rectangle's image
FRAME_SIDE_MAX = 2000  # pixels


def framed_png(document: Any, page_index: int, rect: Rect) -> bytes | None:
    """What `rect` frames on a page, rendered at `FRAME_SCALE` pixels a point (at most
    `FRAME_SIDE_MAX` a side), as PNG; None off the page or for nothing."""
    if not 0 <= page_index < len(document):
        return None
    page = document[page_index]
    try:
        width, height = page.get_size()
        left, bottom = max(0.0, rect[0]), max(0.0, rect[1])
        right, top = min(width, rect[2]), min(height, rect[3])
        if right - left < 1 or top - bottom < 1:
            return None
        scale = min(FRAME_SCALE, FRAME_SIDE_MAX / max(right - left, top - bottom))
        bitmap = page.render(scale=scale, crop=(left, bottom, width - right, height - top),
                             rev_byteorder=True)
        try:
            return _png(bitmap.width, bitmap.height, bitmap.stride, bitmap.n_channels,
                        bytes(bitmap.buffer))
        finally:
            bitmap.close()
    finally:
        page.close()


def _png(width: int, height: int, stride: int, channels: int, pixels: bytes) -> bytes:
    """Pixels (RGB, or RGBX: the fourth byte dropped) as a PNG file."""
    import struct
    import zlib

    rows = bytearray()
    for y in range(height):
        row = bytearray(pixels[y * stride:y * stride + width * channels])
        if channels == 4:
            del row[3::4]
        rows += b"\x00" + row  # (no filter)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))
