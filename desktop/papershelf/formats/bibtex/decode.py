"""BibTeX file bytes to text: the encoding is found, binary data refused.

A `.bib` file is UTF-8 (with or without BOM), UTF-16 with a BOM, or an older single-byte
file (Windows-1252 or Latin-1), which is read with a notice rather than refused.
"""

from __future__ import annotations

import re

from papershelf.formats.records import FormatError

__all__ = ["decode_bibtex"]

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CP1252_ONLY_RE = re.compile(rb"[\x80-\x9f]")
# All bytes but the ones `_CONTROL_RE` matches: deleting them leaves the control bytes.
_NOT_CONTROL_BYTES = bytes(b for b in range(256) if not _CONTROL_RE.match(chr(b)))


def decode_bibtex(data: bytes, path: str) -> tuple[str, str | None]:
    """The text of a BibTeX file and a notice when it was not UTF-8.

    UTF-8 (BOM or not) and UTF-16 with a BOM are read as they are; bytes that are not
    UTF-8 are read as Windows-1252 if they use its 0x80-0x9F characters, else as
    Latin-1, with a notice. Binary data (control characters) is a FormatError.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise FormatError(path, f"not valid UTF-16 ({exc.reason})") from exc
        return _check_text(text.lstrip("\ufeff"), path), None
    try:
        return _check_bytes(data, data.decode("utf-8-sig"), path), None
    except UnicodeDecodeError as exc:
        bad_line = data.count(b"\n", 0, exc.start) + 1
    encoding, label = "latin-1", "Latin-1"
    if _CP1252_ONLY_RE.search(data):
        encoding, label = "cp1252", "Windows-1252"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:  # cp1252 leaves 5 bytes undefined
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(path, "neither UTF-8 nor a single-byte encoding", line) from exc
    notice = f"{path}: not UTF-8 (first non-UTF-8 byte on line {bad_line}); read as {label}"
    return _check_bytes(data, text, path), notice


def _check_bytes(data: bytes, text: str, path: str) -> str:
    """`_check_text(text, path)` for `text` decoded from `data` as UTF-8 or single-byte.

    Those encodings keep bytes 0x00-0x7F as the same characters, so the control
    characters can be looked for in the bytes, which is much faster.
    """
    if data.translate(None, _NOT_CONTROL_BYTES):
        return _check_text(text, path)
    return text


def _check_text(text: str, path: str) -> str:
    """`text` unless it holds binary control characters (then a FormatError)."""
    match = _CONTROL_RE.search(text)
    if match:
        line = text.count("\n", 0, match.start()) + 1
        raise FormatError(path, "not a text file (binary data)", line)
    return text

