"""BibTeX file bytes to text: the encoding is found, binary data refused.

A `.bib` file is UTF-8 (with or without BOM), UTF-16 with a BOM, or an older single-byte
file (Windows-1252 or Latin-1), which is read with a notice rather than refused. A text
file with a few stray control characters (a pasted abstract's `\x01`) is read without
them, with a notice naming each line; only a file with NUL bytes or many control
characters is binary data.
"""

from __future__ import annotations

import re
from collections import Counter

from papershelf.formats.records import FormatError
from papershelf.messages import plural
from papershelf.messages import text as msg

__all__ = ["control_notice", "decode_bibtex", "drop_controls", "without_controls"]

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CP1252_ONLY_RE = re.compile(rb"[\x80-\x9f]")
# All bytes but the ones `_CONTROL_RE` matches: deleting them leaves the control bytes.
_NOT_CONTROL_BYTES = bytes(b for b in range(256) if not _CONTROL_RE.match(chr(b)))
# More control characters than this (or any NUL) make a file binary data, not text.
_STRAY_CONTROLS = 16
_STRAY_PER_CHAR = 1 / 1000


_LONE_CR_RE = re.compile(r"\r(?!\n)")


def decode_bibtex(data: bytes, path: str) -> tuple[str, list[str]]:
    """The text of a BibTeX file and the notices of its reading (not UTF-8, control
    characters dropped).

    UTF-8 (BOM or not) and UTF-16 with a BOM are read as they are; bytes that are not
    UTF-8 are read as Windows-1252 if they use its 0x80-0x9F characters, else as
    Latin-1, with a notice. A few control characters are dropped, a notice for each
    line; binary data (NUL bytes, many control characters) is a FormatError. A lone
    carriage return (old Mac line ends, as in JabRef's UTF-16BE test files) is a line
    end, as for bibtex: it is read as `\n`.
    """
    text, notices = _decode(data, path)
    if "\r" in text:
        text = _LONE_CR_RE.sub("\n", text)
    return text, notices


def _decode(data: bytes, path: str) -> tuple[str, list[str]]:
    """`decode_bibtex` but for the line ends."""
    if b"\x00" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        unmarked = _utf16_without_bom(data, path)
        if unmarked is not None:
            return unmarked
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise FormatError(path, msg("not valid UTF-16 ({reason})",
                                        reason=exc.reason)) from exc
        return _check_text(text.lstrip("\ufeff"), path)
    try:
        return _check_bytes(data, data.decode("utf-8-sig"), path)
    except UnicodeDecodeError as exc:
        bad_line = data.count(b"\n", 0, exc.start) + 1
    encoding, label = "latin-1", "Latin-1"
    if _CP1252_ONLY_RE.search(data):
        encoding, label = "cp1252", "Windows-1252"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:  # cp1252 leaves 5 bytes undefined
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(path, msg("neither UTF-8 nor a single-byte encoding"),
                          line) from exc
    notice = msg("{path}: not UTF-8 (first non-UTF-8 byte on line {line}); read as {encoding}",
                 path=path, line=bad_line, encoding=label)
    text, notices = _check_bytes(data, text, path)
    return text, [notice, *notices]


def _utf16_without_bom(data: bytes, path: str) -> tuple[str, list[str]] | None:
    """UTF-16 text without a byte order mark (JabRef writes such files), told by its
    NUL bytes: every other byte of ASCII text. None if it is not that."""
    if len(data) % 2:
        return None
    for encoding, zeros in (("utf-16-be", data[0::2]), ("utf-16-le", data[1::2])):
        if zeros.count(0) * 10 >= len(zeros) * 9:  # 90% ASCII or more
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                return None
            text, notices = _check_text(text, path)
            label = encoding.upper().replace("-BE", "BE").replace("-LE", "LE")
            return text, [msg("{path}: no byte order mark; read as {encoding}", path=path,
                              encoding=label), *notices]
    return None


def _check_bytes(data: bytes, text: str, path: str) -> tuple[str, list[str]]:
    """`_check_text(text, path)` for `text` decoded from `data` as UTF-8 or single-byte.

    Those encodings keep bytes 0x00-0x7F as the same characters, so the control
    characters can be looked for in the bytes, which is much faster.
    """
    if data.translate(None, _NOT_CONTROL_BYTES):
        return _check_text(text, path)
    return text, []


def _check_text(text: str, path: str) -> tuple[str, list[str]]:
    """`text` without its few control characters and a notice for each line that had
    some; a FormatError if they are binary data (a NUL, or too many to be stray)."""
    found = list(_CONTROL_RE.finditer(text))
    if not found:
        return text, []
    nul = next((m for m in found if m.group() == "\x00"), None)
    if nul is not None or len(found) > _STRAY_CONTROLS + len(text) * _STRAY_PER_CHAR:
        first = nul or found[0]
        line = text.count("\n", 0, first.start()) + 1
        raise FormatError(path, msg("not a text file (binary data: {what})", what=msg(
            "a NUL byte") if nul else msg("{n} control characters", n=len(found))), line)
    return drop_controls(text, path)


# Lines named one by one in the notices of `drop_controls`; the rest are counted.
_NAMED_LINES = 20


def drop_controls(text: str, path: str) -> tuple[str, list[str]]:
    """`text` (of the file `path`) without its control
    characters, and a notice for each line that had some (after the first
    `_NAMED_LINES`, one notice counts the others). The BibTeX reader's, and the RIS and
    CSL-JSON readers': what they store is text that LaTeX and the readers accept."""
    if not _CONTROL_RE.search(text):
        return text, []
    by_line: dict[int, Counter[str]] = {}
    line, pos = 1, 0
    for match in _CONTROL_RE.finditer(text):
        line += text.count("\n", pos, match.start())
        pos = match.start()
        by_line.setdefault(line, Counter())[match.group()] += 1
    notices = [control_notice(f"{path}:{number}", chars)
               for number, chars in list(by_line.items())[:_NAMED_LINES]]
    more = len(by_line) - _NAMED_LINES
    if more > 0:
        notices.append(plural(
            "{path}: control characters dropped on %n more lines", more,
            f"{path}: control characters dropped on {more} more line{'s' if more > 1 else ''}",
            path=path))
    return _CONTROL_RE.sub("", text), notices


def without_controls(value: str, counts: Counter[str]) -> str:
    """`value` without its control characters, each counted in `counts` (a reader that
    names a record rather than a line: CSL-JSON's items)."""
    found = _CONTROL_RE.findall(value)
    if not found:
        return value
    counts.update(found)
    return _CONTROL_RE.sub("", value)


def control_notice(where: str, chars: Counter[str]) -> str:
    """The notice that the control characters `chars` of `where` (a file's line or
    record) were dropped."""
    listed = ", ".join(f"U+{ord(c):04X}" + (f" ({n} times)" if n > 1 else "")
                       for c, n in chars.items())
    count = sum(chars.values())
    return plural(
        "{where}: %n control characters {chars} dropped (not text; LaTeX would stop on "
        "it)", count, f"{where}: control character{'s' if count > 1 else ''} "
        f"{listed} dropped (not text; LaTeX would stop on it)", where=where, chars=listed)
