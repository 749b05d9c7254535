"""Read and write BibTeX files.

Reading keeps every field and the entry type verbatim in `PaperRecord.raw` /
`entry_type` and decodes, once, the fields the library shows; writing prefers those raw
values, so an unedited entry is written back as it was read. The writer changes a raw
value only where real bibtex or LaTeX would fail on it (an author list with a stray
comma, a bare `%`/`&`/`#` in a printed field), and the reader names each such entry in
`ReadResult.warnings` when it imports it.

The reader has its own scanner, modelled on BibTeX's rules (bibtex.web, with biber's
reading of `@comment` and of `%` lines inside an entry), instead of bibtexparser's
splitter: bibtexparser 2.1 merges a value into the previous one when a comma is
missing, conjures entries from text inside `@comment{...}` or inside a field value,
turns a `%` line inside an entry into a field and accepts entries without a key (see
tests/test_bibtex_import.py, which reproduces each of these). The scanner is one
regex-driven pass over the text with fast paths for the common field shapes (their
equivalence with the general code is tested in tests/test_bibtex_fast_paths.py); reading
a file to records takes about a third of the time bibtexparser 2.1 needs to parse it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from papershelf.formats.latex import (
    bibtex_balanced,
    encode_text,
    encode_verbatim,
    fix_bare_specials,
    to_ascii,
)
from papershelf.formats.readable import latex_to_text
from papershelf.formats.records import Author, FormatError, PaperRecord, ReadProblem, ReadResult

__all__ = [
    "PRINTED_FIELDS",
    "VENUE_ACRONYMS",
    "arxiv_id",
    "decode_bibtex",
    "parse_bibtex",
    "parse_names",
    "read_bibtex",
    "write_bibtex",
]

Flavour = Literal["bibtex", "biblatex"]

# --------------------------------------------------------------------------- decoding

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_CP1252_ONLY_RE = re.compile(rb"[\x80-\x9f]")
# All bytes but the ones `_CONTROL_RE` matches: deleting them leaves the control bytes.
_NOT_CONTROL_BYTES = bytes(b for b in range(256) if not _CONTROL_RE.match(chr(b)))


def read_bibtex(path: str | Path) -> ReadResult:
    """Read a `.bib` file (UTF-8 with or without BOM, UTF-16 with BOM, or Latin-1)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(name, f"cannot read file: {exc.strerror or exc}") from exc
    text, notice = decode_bibtex(data, name)
    result = parse_bibtex(text, name)
    if notice:
        result.notices.insert(0, notice)
    return result


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


# --------------------------------------------------------------------------- scanning

_AT_RE = re.compile(r"@[ \t]*([A-Za-z][^\s\"#%'(),={}@]*)\s*([{(])")
_LINE_AT_RE = re.compile(r"\n[ \t]*@")
_LINE_ENTRY_RE = re.compile(r"\n[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]")
_SPACE_RE = re.compile(r"\s*")
_KEY_RE = {"}": re.compile(r"[^\s,{}]*"), ")": re.compile(r"[^\s,{}()]*")}
_NAME_RE = re.compile(r"[^\s\"#%'(),={}@]+")
_NUMBER_RE = re.compile(r"[0-9]+")
_BRACE_RE = re.compile(r"[{}]")
_QUOTED_RE = re.compile(r'[{}"]')
_STRAY_FIELD_RE = re.compile(r"^[ \t]*,?[ \t]*[A-Za-z][\w-]*[ \t]*=", re.MULTILINE)
# `name =` and the space around it: the start of a field `_fields` reads on its fast path.
_FIELD_HEAD_RE = re.compile(r"\s*+([^\s\"#%'(),={}@]++)\s*+=\s*+")
# The commonest field, `name = {value}` and the `,` or the entry's end after it, by the
# closing delimiter of the entry. The value holds no `}`; it is the whole braced value
# only if it holds no `{` either (`[^}]` is much faster than `[^{}]` for the regex engine).
_SIMPLE_FIELD_RE = {
    close: re.compile(r"\s*+([^\s\"#%'(),={}@]++)\s*+=\s*+\{([^}]*+)\}\s*+([," + close + "])")
    for close in "})"
}

_MONTHS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}  # fmt: skip


def _brace_end(text: str, pos: int) -> int:
    """Index after the `}` that closes the `{` at `pos` (all braces count), or -1."""
    close = text.find("}", pos + 1)
    if close < 0:
        return -1
    if text.find("{", pos + 1, close) < 0:
        return close + 1  # the common case: no nested braces
    depth = 1
    start = pos + 1
    while True:
        depth += text.count("{", start, close) - 1
        if depth == 0:
            return close + 1
        start = close + 1
        close = text.find("}", start)
        if close < 0:
            return -1


class _ScanError(Exception):
    """A block that cannot be read: why, and where the scanner stopped."""

    def __init__(self, reason: str, pos: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.pos = pos


@dataclass
class _Entry:
    """One scanned entry: fields verbatim (enclosing removed, macros resolved)."""

    entry_type: str  # as written, e.g. "InProceedings"
    key: str
    line: int
    fields: dict[str, str] = field(default_factory=dict)
    field_lines: dict[str, int] = field(default_factory=dict)
    # The expression of each field whose value used macros or `#`, as written.
    sources: dict[str, str] = field(default_factory=dict)
    # The `@string` macros those expressions use: name as written -> expanded value.
    strings: dict[str, str] = field(default_factory=dict)
    # Fields inherited from the crossref parent (kept apart from the verbatim fields).
    inherited: dict[str, str] = field(default_factory=dict)


class _Scanner:
    """One pass over BibTeX text: entries, @string/@preamble/@comment, problems."""

    def __init__(self, text: str, path: str, result: ReadResult, first_line: int = 1) -> None:
        self.text = text
        self.first_line = first_line
        self.path = path
        self.result = result
        self.strings: dict[str, str] = {}
        # What the last `_value`/`_macro` read used: (user macros as written, whether an
        # undefined macro was among them).
        self._used: list[str] = []
        self._undefined = False
        self._compound = False
        self.entries: list[_Entry] = []
        self.blocks = 0
        self._line_pos = 0
        self._line_no = first_line
        self._entry_start = 0
        self._entry_line_pos = 0  # `_entry_line` counts newlines incrementally from here
        self._entry_line_count = 0

    # -- positions and messages

    def line_of(self, pos: int) -> int:
        """1-based line of `pos` (incremental: positions mostly grow)."""
        if pos >= self._line_pos:
            self._line_no += self.text.count("\n", self._line_pos, pos)
            self._line_pos = pos
            return self._line_no
        return self.text.count("\n", 0, pos) + self.first_line

    def _entry_line(self, entry: _Entry, pos: int) -> int:
        """Line of `pos` inside the entry being scanned (incremental, like `line_of`)."""
        if pos < self._entry_line_pos:
            self._entry_line_pos = self._entry_start
            self._entry_line_count = 0
        self._entry_line_count += self.text.count("\n", self._entry_line_pos, pos)
        self._entry_line_pos = pos
        return entry.line + self._entry_line_count

    def warn(self, line: int | None, message: str) -> None:
        """An imported entry's caveat: in `warnings` and, as text, in `notices`."""
        warning = ReadProblem(self.path, line, message)
        self.result.warnings.append(warning)
        self.result.notices.append(str(warning))

    # -- the blocks

    def scan(self) -> None:
        text = self.text
        pos = 0
        while True:
            match = _AT_RE.search(text, pos)
            if match is None:
                self._check_outside(pos, len(text))
                return
            self._check_outside(pos, match.start())
            self.blocks += 1
            start = match.start()
            line_start = text.rfind("\n", 0, start) + 1
            if "%" in text[line_start:start] and text[line_start:start].lstrip().startswith("%"):
                # `%@book{...` at the start of a line: commented out, as biber reads it
                # (bibtex would read the entry); the lines after it are comments too.
                end = text.find("\n", start)
                pos = len(text) if end < 0 else end
                self.result.notices.append(
                    f"{self.path}:{self.line_of(start)}: "
                    f"{text[start:pos].strip()[:40]!r} is commented out with '%' (as biber "
                    "reads it); not imported")
                continue
            kind = match.group(1).lower()
            close = "}" if match.group(2) == "{" else ")"
            line = self.line_of(start)
            try:
                if kind == "comment":
                    pos = self._comment(match.end() - 1, close)
                elif kind == "preamble":
                    value, pos = self._value(match.end(), "@preamble", line)
                    pos = self._expect_close(pos, close, "@preamble")
                    self.result.preambles.append(value)
                elif kind == "string":
                    pos = self._string(match.end(), close, line)
                else:
                    pos = self._entry(match, close, line)
            except _ScanError as exc:
                where = self.line_of(exc.pos) if exc.pos >= start else line
                at = f" (line {where})" if where != line else ""
                if exc.reason.endswith(at):
                    at = ""  # the reason names the line already
                self.result.problems.append(
                    ReadProblem(self.path, line, f"unreadable @{match.group(1)}: {exc.reason}{at}")
                )
                resume = _LINE_AT_RE.search(text, start + 1)
                pos = resume.end() - 1 if resume else len(text)

    def _check_outside(self, start: int, end: int) -> None:
        """Text between blocks is a comment, unless it looks like a lost field."""
        if end - start < 4 or "=" not in self.text[start:end]:
            return
        match = _STRAY_FIELD_RE.search(self.text, start, end)
        if match is not None:
            snippet = self.text[match.start() : end].strip().splitlines()[0][:60]
            self.warn(
                self.line_of(match.start() + 1),
                f"text outside any entry looks like a field ({snippet!r}); an extra '}}' "
                "may have ended the entry before it. The text is ignored, as bibtex does",
            )

    def _comment(self, pos: int, close: str) -> int:
        """`@comment{...}`: the whole balanced block (as biber reads it)."""
        end = self._skip_group(pos, close)
        if end < 0:  # unclosed: like bibtex, only the word `@comment` is skipped
            return pos + 1
        return end

    def _skip_group(self, pos: int, close: str) -> int:
        """Index after the delimiter closing the group opened at `pos`, or -1."""
        text = self.text
        depth = 0
        pattern = _BRACE_RE if close == "}" else re.compile(r"[{})]")
        for match in pattern.finditer(text, pos + 1):
            ch = match.group()
            if ch == "{":
                depth += 1
            elif ch == "}":
                if depth == 0 and close == "}":
                    return match.end()
                depth -= 1
            elif depth == 0:  # `)` closing a paren group
                return match.end()
        return -1

    def _string(self, pos: int, close: str, line: int) -> int:
        text = self.text
        pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
        name = _NAME_RE.match(text, pos)
        if name is None:
            raise _ScanError("expected a macro name after @string", pos)
        pos = _SPACE_RE.match(text, name.end()).end()  # type: ignore[union-attr]
        if not text.startswith("=", pos):
            raise _ScanError(f"expected '=' after @string name {name.group()!r}", pos)
        value, pos = self._value(pos + 1, f"@string {name.group()}", line)
        self.strings[name.group().lower()] = value
        return self._expect_close(pos, close, "@string")

    def _expect_close(self, pos: int, close: str, what: str) -> int:
        pos = _SPACE_RE.match(self.text, pos).end()  # type: ignore[union-attr]
        if not self.text.startswith(close, pos):
            raise _ScanError(f"expected '{close}' to close {what}", pos)
        return pos + 1

    def _skip_space(self, pos: int, entry: _Entry | None) -> int:
        """Skip whitespace and `%` comment lines (biber ignores them, bibtex does not)."""
        text = self.text
        while True:
            pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
            if not text.startswith("%", pos):
                return pos
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            if entry is not None:
                comment = text[pos:end].strip()
                self.warn(
                    self._entry_line(entry, pos),
                    f"entry '{entry.key}': the line {comment[:60]!r} inside the entry is "
                    "read as a comment (biber's reading; bibtex stops on it) and is not "
                    "exported",
                )
            pos = end

    def _entry(self, match: re.Match[str], close: str, line: int) -> int:
        text = self.text
        self._entry_start = self._entry_line_pos = match.start()
        self._entry_line_count = 0
        pos = _SPACE_RE.match(text, match.end()).end()  # type: ignore[union-attr]
        key_match = _KEY_RE[close].match(text, pos)
        key = key_match.group() if key_match else ""
        pos = _SPACE_RE.match(text, pos + len(key)).end()  # type: ignore[union-attr]
        entry = _Entry(match.group(1), key, line)
        if text.startswith(close, pos):
            pos += 1
        elif not text.startswith(",", pos):
            found = text[pos : pos + 1] or "the end of the file"
            raise _ScanError(f"expected ',' after the key {key!r}, found {found!r}", pos)
        else:
            pos = self._fields(pos + 1, close, entry)
        if not key:
            self.result.problems.append(
                ReadProblem(self.path, line, f"@{entry.entry_type} without a key; skipped")
            )
        else:
            self.entries.append(entry)
        return pos

    def _fields(self, pos: int, close: str, entry: _Entry) -> int:
        """The `name = value` list of an entry; returns the index after its end."""
        text = self.text
        fields = entry.fields
        field_lines = entry.field_lines
        simple_field = _SIMPLE_FIELD_RE[close].match
        field_head = _FIELD_HEAD_RE.match
        while True:
            # Fastest path: `name = {value}` without nested braces or '@', then `,` or the
            # end of the entry.
            simple = simple_field(text, pos)
            if simple is not None:
                value = simple.group(2)
                if "{" not in value and "@" not in value:
                    lower = simple.group(1).lower()
                    field_line = self._entry_line(entry, simple.start(1))
                    if lower in fields:
                        self.result.notices.append(
                            f"{self.path}:{field_line}: entry '{entry.key}': field '{lower}' "
                            "given twice; the first value is kept"
                        )
                    else:
                        fields[lower] = value
                        field_lines[lower] = field_line
                    pos = simple.end()
                    if simple.group(3) == ",":
                        continue
                    return pos
            # Fast path: `name = value` with one `{...}`, `"..."`, number or macro, then
            # `,` or the end of the entry. Anything else (`#`, `%` lines, errors) is read
            # by the general code below, from the same place.
            head = field_head(text, pos)
            if head is not None:
                start = head.end()
                ch = text[start : start + 1]
                end = -1
                macro = ""
                if ch == "{":
                    end = _brace_end(text, start)
                elif ch == '"':
                    end = self._quoted_end_or_not(start)
                elif "0" <= ch <= "9":
                    end = _NUMBER_RE.match(text, start).end()  # type: ignore[union-attr]
                elif not ch.isdigit():  # a digit beyond 0-9 is the general code's
                    name_match = _NAME_RE.match(text, start)
                    if name_match is not None:
                        end = name_match.end()
                        macro = name_match.group()
                if end > 0:
                    after = end
                    next_char = text[end : end + 1]
                    if next_char.isspace():
                        after = _SPACE_RE.match(text, end).end()  # type: ignore[union-attr]
                        next_char = text[after : after + 1]
                    if next_char == "," or next_char == close:
                        if macro:
                            value = macro
                        elif ch == "{" or ch == '"':
                            value = text[start + 1 : end - 1]
                        else:
                            value = text[start:end]
                        self._store(entry, head.group(1), value, macro, head.start(1))
                        if next_char == ",":
                            pos = after + 1
                            continue
                        return after + 1
            pos = self._skip_space(pos, entry)
            if text.startswith(close, pos):
                return pos + 1
            name_match = _NAME_RE.match(text, pos)
            if name_match is None:
                found = text[pos : pos + 1]
                if not found:
                    raise _ScanError("the entry is not closed before the end of the file", pos)
                if found == "@":
                    raise _ScanError(
                        f"the entry is not closed before the next entry (line {self.line_of(pos)})",
                        pos,
                    )
                raise _ScanError(f"expected a field name or '{close}', found {found!r}", pos)
            name = name_match.group()
            field_line = self._entry_line(entry, pos)
            pos = _SPACE_RE.match(text, name_match.end()).end()  # type: ignore[union-attr]
            if not text.startswith("=", pos):
                raise _ScanError(f"expected '=' after the field name {name!r}", pos)
            what = f"field '{name.lower()}' of entry '{entry.key}'"
            start = _SPACE_RE.match(text, pos + 1).end()  # type: ignore[union-attr]
            value, pos = self._value(pos + 1, what, field_line)
            lower = name.lower()
            if self._compound and not self._undefined and lower not in entry.fields:
                self._keep_source(entry, lower, text[start:pos])
            self._keep(entry, lower, value, field_line)
            pos = self._skip_space(pos, entry)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith(close, pos):
                return pos + 1
            following = _NAME_RE.match(text, pos)
            if following is not None:
                after = _SPACE_RE.match(text, following.end()).end()  # type: ignore[union-attr]
                if text.startswith("=", after):
                    self.warn(
                        field_line,
                        f"entry '{entry.key}': missing ',' after field '{lower}'; read as "
                        f"if it were there (field '{following.group().lower()}' follows)",
                    )
                    continue
            found = text[pos : pos + 1] or "the end of the file"
            if found == "@":
                raise _ScanError(
                    f"the entry is not closed before the next entry (line {self.line_of(pos)})",
                    pos,
                )
            raise _ScanError(
                f"expected ',' or '{close}' after the value of field '{lower}', found {found!r}",
                pos,
            )

    def _store(self, entry: _Entry, name: str, value: str, macro: str, pos: int) -> None:
        """Keep a field read by `_fields`' fast path, with the messages `_value` would give."""
        field_line = self._entry_line(entry, pos)
        lower = name.lower()
        if macro:
            self._used = []
            self._undefined = False
            value = self._macro(macro, f"field '{lower}' of entry '{entry.key}'", field_line)
            if not self._undefined and lower not in entry.fields:
                self._keep_source(entry, lower, macro)
        if "@" in value and _LINE_ENTRY_RE.search(value):
            self.warn(
                field_line,
                f"field '{name.lower()}' of entry '{entry.key}' holds text that looks like an "
                "entry (a line starting with '@'); it is read as part of the value, as bibtex "
                "reads it",
            )
        self._keep(entry, lower, value, field_line)

    def _keep_source(self, entry: _Entry, lower: str, source: str) -> None:
        """Remember how a field was written (macros, `#`) and the macros it used."""
        entry.sources[lower] = source
        for name in self._used:
            entry.strings.setdefault(name, self.strings[name.lower()])

    def _keep(self, entry: _Entry, lower: str, value: str, field_line: int) -> None:
        """Store a field's value, unless the entry has it already (the first one counts)."""
        if lower in entry.fields:
            self.result.notices.append(
                f"{self.path}:{field_line}: entry '{entry.key}': field '{lower}' given "
                "twice; the first value is kept"
            )
        else:
            entry.fields[lower] = value
            entry.field_lines[lower] = field_line

    def _quoted_end_or_not(self, pos: int) -> int:
        """`_quoted_end(pos)`, or -1 where it raises."""
        end = self.text.find('"', pos + 1)
        if end < 0:
            return -1
        if self.text.find("{", pos + 1, end) < 0 and self.text.find("}", pos + 1, end) < 0:
            return end + 1
        try:
            return self._quoted_end(pos, "")
        except _ScanError:
            return -1

    def _value(self, pos: int, what: str, line: int) -> tuple[str, int]:
        """A value: `{...}`, `"..."`, a number or a macro, joined by `#`.

        Afterwards `_compound` says whether it used a macro or `#`, `_used` lists the
        `@string` macros it used and `_undefined` whether one of them was undefined.
        """
        text = self.text
        pieces: list[str] = []
        self._used = []
        self._undefined = False
        self._compound = False
        while True:
            pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
            ch = text[pos : pos + 1]
            if ch == "{":
                end = self._braced_end(pos, what)
                pieces.append(text[pos + 1 : end - 1])
            elif ch == '"':
                end = self._quoted_end(pos, what)
                pieces.append(text[pos + 1 : end - 1])
            elif "0" <= ch <= "9":  # (other digits, like '²', are read as a macro name)
                end = _NUMBER_RE.match(text, pos).end()  # type: ignore[union-attr]
                pieces.append(text[pos:end])
            else:
                macro = _NAME_RE.match(text, pos)
                if macro is None:
                    found = ch or "the end of the file"
                    raise _ScanError(f"expected a value for {what}, found {found!r}", pos)
                end = macro.end()
                self._compound = True
                pieces.append(self._macro(macro.group(), what, line))
            pos = _SPACE_RE.match(text, end).end()  # type: ignore[union-attr]
            if not text.startswith("#", pos):
                value = pieces[0] if len(pieces) == 1 else "".join(pieces)
                if "@" in value and _LINE_ENTRY_RE.search(value):
                    self.warn(
                        line,
                        f"{what} holds text that looks like an entry (a line starting with "
                        "'@'); it is read as part of the value, as bibtex reads it",
                    )
                return value, end
            self._compound = True
            pos += 1

    def _macro(self, name: str, what: str, line: int) -> str:
        lower = name.lower()
        value = self.strings.get(lower)
        if value is not None:
            self._used.append(name)
            return value
        month = _MONTHS.get(lower)
        if month is not None:
            return month
        self._undefined = True
        self.result.notices.append(
            f"{self.path}:{line}: {what}: undefined macro {name} kept as text"
        )
        return name

    def _braced_end(self, pos: int, what: str) -> int:
        end = _brace_end(self.text, pos)
        if end > 0:
            return end
        following = _LINE_ENTRY_RE.search(self.text, pos)
        hint = ""
        if following is not None:
            hint = f" (the next entry starts on line {self.line_of(following.start() + 1)})"
        raise _ScanError(f"the '{{' opening {what} is never closed{hint}", pos)

    def _quoted_end(self, pos: int, what: str) -> int:
        depth = 0
        for match in _QUOTED_RE.finditer(self.text, pos + 1):
            ch = match.group()
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth < 0:
                    raise _ScanError(f"unbalanced '}}' in the quoted {what}", match.start())
            elif depth == 0:
                return match.end()
        raise _ScanError(f"the '\"' opening {what} is never closed", pos)


# --------------------------------------------------------------------------- reading

# The field that holds the venue, by entry type; other types use the first present one.
_VENUE_FIELD = {
    "inproceedings": "booktitle",
    "conference": "booktitle",
    "incollection": "booktitle",
    "inbook": "booktitle",
    "proceedings": "booktitle",
    "article": "journal",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
    "misc": "howpublished",
}
_VENUE_FALLBACK = ("booktitle", "journal", "howpublished", "school", "institution", "publisher")
#: Fields that bibtex styles or biber print (or copy into the `.bbl`): a bare `%`, `&`,
#: `#`, `_`, `^` or `$` in them breaks LaTeX, so the writer escapes it.
PRINTED_FIELDS = frozenset(
    "abstract addendum address annotation annote author booksubtitle booktitle "
    "booktitleaddon chapter edition editor eventtitle howpublished institution issuetitle "
    "journal journalsubtitle journaltitle language location maintitle mainsubtitle note "
    "organization publisher school series shortjournal shorttitle subtitle title titleaddon "
    "translator type venue version".split()
)
# What a paper inherits from its crossref parent (or a file's single @proceedings).
_INHERITED = (
    "booktitle", "year", "month", "date", "editor", "publisher", "organization", "address",
    "location", "series", "volume", "number", "edition", "isbn", "journal", "school",
    "institution",
)  # fmt: skip
_IN_PROCEEDINGS = frozenset({"inproceedings", "conference"})
_PARAGRAPH_RE = re.compile(r"[ \t\r\f\v]*\n[ \t\r\f\v]*\n\s*")
_BLANK_LINE_RE = re.compile(r"\n[ \t\r\f\v]*\n")  # where `_PARAGRAPH_RE` can match
_YEAR_RE = re.compile(r"\s*(\d{1,4})\s*")
_URL_WRAPPER_RE = re.compile(r"^\\(?:url|href)\s*\{(.*)\}$", re.DOTALL)
_URL_ESCAPE_RE = re.compile(r"\\([_%&#~$])")
_AND_SPLIT_RE = re.compile(r"\s[aA][nN][dD](?=\s)")  # `_split_names` outside braces


def duplicate_key(path: str, key: str, line: int, first_line: int) -> ReadProblem:
    """The problem of an entry whose key an earlier entry has (it is skipped)."""
    return ReadProblem(path, line,
                       f"duplicate entry key '{key}' (first on line {first_line}); skipped")


def string_macros(text: str, path: str, macros: dict[str, str]) -> dict[str, str]:
    """The `@string` macros known after `text`, given those known before it (for a big
    file read in pieces: what the next piece starts with)."""
    scanner = _Scanner(text, path, ReadResult())
    scanner.strings = dict(macros)
    scanner.scan()
    return scanner.strings


def parse_bibtex(text: str, path: str, first_line: int = 1,
                 macros: dict[str, str] | None = None) -> ReadResult:
    """Parse BibTeX source; bad blocks become `ReadProblem`s, the rest records (file order).

    `@string` macros, `#` concatenation and month macros are expanded; a paper with a
    `crossref` inherits the missing venue fields of its parent; in a file whose papers
    lack a booktitle but which holds one `@proceedings` entry (a proceedings volume, as
    PMLR publishes them) the papers inherit from it. `@proceedings`, `@preamble` and
    `@comment` blocks are not papers. Raises FormatError if the text holds no BibTeX
    block at all (e.g. a RIS or JSON file). `first_line` is the line number of the
    text's first line and `macros` the `@string` macros defined before it (for a piece
    of a bigger file, see `core.ingest`).
    """
    result = ReadResult()
    scanner = _Scanner(text, path, result, first_line)
    if macros:
        scanner.strings = dict(macros)
    scanner.scan()
    if scanner.blocks == 0:
        comment_only = all(
            not line.strip() or line.lstrip().startswith("%") for line in text.splitlines()
        )
        if not comment_only:
            raise FormatError(path, "not a BibTeX file (no @entry found)")
        result.notices.append(f"{path}: no entries found")
        return result

    papers: list[_Entry] = []
    proceedings: list[_Entry] = []
    by_key: dict[str, _Entry] = {}
    for entry in scanner.entries:
        lower_key = entry.key.lower()
        first = by_key.get(lower_key)
        if first is not None:
            result.problems.append(duplicate_key(path, entry.key, entry.line, first.line))
            continue
        by_key[lower_key] = entry
        if entry.entry_type.lower() == "proceedings":
            proceedings.append(entry)
        else:
            papers.append(entry)

    for entry in scanner.entries:  # biblatex's `ids`: other keys a crossref may use
        for alias in _aliases(entry.fields):
            by_key.setdefault(alias, entry)
    _inherit_crossrefs(papers, by_key, scanner)
    if len(proceedings) == 1:
        _fill_from_proceedings(papers, proceedings[0], path, result)
    if proceedings:
        result.notices.append(
            f"{path}: {len(proceedings)} @proceedings entr"
            f"{'y' if len(proceedings) == 1 else 'ies'} not imported as papers: "
            + ", ".join(p.key for p in proceedings)
        )
    if result.preambles:
        result.notices.append(
            f"{path}: {len(result.preambles)} @preamble block(s) kept out of the papers; "
            "kept with the entries that use them and exported with them"
        )
    needs_preamble = _preamble_users(result.preambles)
    for entry in papers:
        author = entry.fields.get("author")
        names = _split_names(author) if author else []
        _check_entry(entry, scanner, names)
        record = _entry_to_record(entry, names)
        if needs_preamble is not None and needs_preamble(entry):
            record.preambles = list(result.preambles)
        result.records.append(record)
    return result


_DEFINED_RE = re.compile(
    r"\\(?:(?:re|provide)?newcommand\*?|def|DeclareRobustCommand\*?)\s*\{?\s*\\([A-Za-z@]+)"
)


def _preamble_users(preambles: list[str]) -> Callable[[_Entry], bool] | None:
    """Which entries need the file's `@preamble`s: those using a command they define
    (all entries if no definition can be found in them); None without preambles."""
    if not preambles:
        return None
    names = sorted({n for text in preambles for n in _DEFINED_RE.findall(text)})
    if not names:
        return lambda entry: True
    uses = re.compile(r"\\(?:" + "|".join(map(re.escape, names)) + r")(?![A-Za-z@])")

    def needs(entry: _Entry) -> bool:
        return any("\\" in v and uses.search(v) for v in entry.fields.values()) or any(
            "\\" in v and uses.search(v) for v in entry.inherited.values())

    return needs


def _aliases(fields: dict[str, str]) -> list[str]:
    """The other keys of an entry (biblatex's `ids` field), in lower case."""
    ids = fields.get("ids")
    return [a.strip().lower() for a in ids.split(",") if a.strip()] if ids else []


def _inherit_crossrefs(papers: list[_Entry], by_key: dict[str, _Entry], scanner: _Scanner) -> None:
    """Copy the missing venue fields of each crossref parent into its children."""
    filled = 0
    for entry in papers:
        target = entry.fields.get("crossref")
        if target is None:
            continue
        parent = by_key.get(target.strip().lower())
        if parent is None:
            scanner.warn(
                entry.line,
                f"entry '{entry.key}': crossref '{target}' is not in this file; the field "
                "is kept but not exported unless that entry is exported too",
            )
            continue
        if _inherit(entry, parent, entry.inherited):
            filled += 1
    if filled:
        scanner.result.notices.append(
            f"{scanner.path}: {filled} entr{'y' if filled == 1 else 'ies'} completed from "
            "their crossref parent"
        )


def _inherit(child: _Entry, parent: _Entry, into: dict[str, str]) -> list[str]:
    """Put the child's missing `_INHERITED` fields from `parent` into `into` (the child's
    fields, or its `inherited` ones for a crossref); the names filled."""
    filled: list[str] = []
    fields = child.fields
    parent_fields = parent.fields

    def take(name: str, source: str) -> None:
        into[name] = parent_fields[source]
        filled.append(name)
        expression = parent.sources.get(source)
        if expression is not None:
            child.sources[name] = expression
            for macro, value in parent.strings.items():
                child.strings.setdefault(macro, value)

    if (
        "booktitle" not in fields
        and "booktitle" not in parent_fields
        and (
            parent.entry_type.lower() in ("proceedings", "book", "collection")
            and "title" in parent_fields
        )
    ):
        take("booktitle", "title")
    for name in _INHERITED:
        if name not in fields and name in parent_fields:
            if name == "journal" and child.entry_type.lower() != "article":
                continue
            take(name, name)
    return filled


def _fill_from_proceedings(
    papers: list[_Entry], volume: _Entry, path: str, result: ReadResult
) -> None:
    """Papers of a proceedings volume file take booktitle, year, ... from its one entry."""
    count = 0
    names: list[str] = []
    for entry in papers:
        if entry.entry_type.lower() not in _IN_PROCEEDINGS or "booktitle" in entry.fields:
            continue
        if "crossref" in entry.fields:
            continue
        filled = _inherit(entry, volume, entry.fields)
        if filled:
            count += 1
            names.extend(n for n in filled if n not in names)
    if count:
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        result.notices.append(
            f"{path}: filled {listed} of {count} entr{'y' if count == 1 else 'ies'} from "
            f"@{volume.entry_type} {volume.key}"
        )


@functools.lru_cache(maxsize=1024)
def _bad_names(value: str) -> tuple[str, ...]:
    """The names of an author/editor list that bibtex rejects (editor lists repeat)."""
    return tuple(p for p in _split_names(value) if not _name_ok_for_bibtex(p))


def _check_entry(entry: _Entry, scanner: _Scanner, author_names: list[str] | None = None) -> None:
    """Warn about what real bibtex/LaTeX would fail on and the writer will repair.

    `author_names` is `_split_names` of the author field when the caller has it.
    """
    fields = entry.fields
    for name in ("author", "editor"):
        value = fields.get(name)
        if value is None or "," not in value:
            continue
        if name == "author" and author_names is not None:
            rejected = [p for p in author_names if "," in p and not _name_ok_for_bibtex(p)]
        else:
            rejected = list(_bad_names(value))
        for person in rejected:
            parts = _name_commas(person)
            why = "too many commas" if len(parts) > 3 else "a stray comma (empty part)"
            fixed = _encode_authors(parse_names(person), ascii_only=False)
            scanner.warn(
                entry.field_lines.get(name, entry.line),
                f"entry '{entry.key}': {name} name {person!r} has {why}; bibtex stops "
                f"on it, so it is exported as {fixed!r}",
            )
    bad: list[str] = []
    chars = ""
    for name, value in fields.items():
        if name in PRINTED_FIELDS and (
            "%" in value
            or "&" in value
            or "#" in value
            or "_" in value
            or "^" in value
            or "$" in value
        ):  # else fix_bare_specials finds nothing
            _fixed, found = fix_bare_specials(value)
            if found:
                bad.append(name)
                chars += "".join(c for c in found if c not in chars)
    if bad:
        scanner.warn(
            entry.field_lines.get(bad[0], entry.line),
            f"entry '{entry.key}': bare {' '.join(chars)} in {', '.join(bad)} would break "
            "LaTeX; exported escaped",
        )


def _split_top_level(value: str, sep: str, quotes: bool = True) -> list[str]:
    """Split on `sep` (a single char) outside braces (and `"..."` if `quotes`)."""
    if "{" not in value and "}" not in value and not (quotes and '"' in value):
        return value.split(sep)
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    for i, ch in enumerate(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0 and quotes:
            quoted = not quoted
        elif ch == sep and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    parts.append(value[start:])
    return parts


def _collapse(text: str) -> str:
    """`text` with each whitespace run as one space, and stripped.

    The same as `re.sub(r"\\s+", " ", text).strip()` (str.split() and the regex `\\s`
    agree on what whitespace is). ASCII text with nothing to collapse, the common case,
    is returned as it is, without splitting it.
    """
    if (
        text.isascii()
        and "  " not in text
        and "\n" not in text
        and "\t" not in text
        and "\r" not in text
        and "\x0b" not in text
        and "\x0c" not in text
        and "\x1c" not in text
        and "\x1d" not in text
        and "\x1e" not in text
        and "\x1f" not in text
        and not text.startswith(" ")
        and not text.endswith(" ")
    ):
        return text
    return " ".join(text.split())


def _clean(value: str) -> str:
    """Readable one-line text of a field (LaTeX decoded, math kept, spaces collapsed)."""
    return _collapse(latex_to_text(value, keep_math=True)) if value else ""


def _clean_paragraphs(value: str) -> str:
    """Readable text that keeps blank-line paragraph breaks (abstracts)."""
    text = latex_to_text(value, keep_math=True).strip()
    if "\n" not in text or _BLANK_LINE_RE.search(text) is None:
        return _collapse(text)  # one paragraph
    return "\n\n".join(_collapse(p) for p in _PARAGRAPH_RE.split(text))


def _clean_url(value: str) -> str:
    """A url/doi value: `\\url{...}` unwrapped and `\\_`-style escapes undone, else verbatim."""
    value = value.strip()
    if not value:
        return value
    match = _URL_WRAPPER_RE.match(value)
    if match:
        value = match.group(1).strip()
    if "\\" in value:
        value = _URL_ESCAPE_RE.sub(r"\1", value)
    return value.replace("{", "").replace("}", "") if "{" in value else value


def _shown(value: str) -> str:
    """The source whose text is shown: an unpaired `$` reads as the dollar it exports as."""
    if "$" in value:
        fixed, found = fix_bare_specials(value)
        if "$" in found:
            return fixed
    return value


def _entry_to_record(entry: _Entry, author_names: list[str] | None = None) -> PaperRecord:
    """One scanned entry as a record: raw fields verbatim, readable fields decoded.

    `author_names` is `_split_names` of the author field when the caller has it.
    """
    raw = entry.fields | entry.inherited if entry.inherited else entry.fields
    entry_type = entry.entry_type.lower()
    venue_field = _VENUE_FIELD.get(entry_type)
    if venue_field not in raw:
        venue_field = next((f for f in _VENUE_FALLBACK if f in raw), None)
    year_text = raw.get("year", "")
    year: int | None
    if year_text.isdigit() and year_text.isascii() and len(year_text) <= 4:
        year = int(year_text)  # what `_YEAR_RE` would find
    else:
        if not year_text.isdigit():
            year_text = latex_to_text(year_text)
        year_match = _YEAR_RE.fullmatch(year_text)
        year = int(year_match.group(1)) if year_match else None
    if author_names is None:
        authors = parse_names(raw.get("author", ""))
    else:
        authors = [a for a in map(_parse_name, author_names) if a is not None]
    return PaperRecord(
        entry_type=entry_type,
        key=entry.key,
        title=_clean(_shown(raw.get("title", ""))),
        authors=authors,
        abstract=_clean_paragraphs(_shown(raw.get("abstract", ""))),
        venue=_clean(_shown(raw[venue_field])) if venue_field else "",
        year=year,
        volume=_clean(raw.get("volume", "")),
        pages=_clean(raw.get("pages", "")),
        publisher=_clean(_shown(raw.get("publisher", ""))),
        doi=_clean_url(raw.get("doi", "")),
        url=_clean_url(raw.get("url", "")),
        raw=entry.fields,
        raw_source=entry.sources,
        strings=entry.strings,
        inherited=entry.inherited,
        source_line=entry.line,
    )


# --------------------------------------------------------------------------- names


def _split_names(value: str) -> list[str]:
    """Split an author list on ` and ` at brace depth 0 (case-insensitive, like bibtex)."""
    if "{" not in value and "}" not in value:
        # No braces: every ` and ` splits.
        return [name.strip() for name in _AND_SPLIT_RE.split(value) if name.strip()]
    names: list[str] = []
    depth = 0
    start = 0
    i = 0
    n = len(value)
    while i < n:
        ch = value[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif (
            depth == 0
            and ch.isspace()
            and value[i + 1 : i + 4].lower() == "and"  # (not value.lower(): 'İ' grows)
            and i + 4 < n
            and value[i + 4].isspace()
        ):
            names.append(value[start:i])
            i += 4
            start = i
            continue
        i += 1
    names.append(value[start:])
    return [name.strip() for name in names if name.strip()]


def _split_words(name: str) -> list[str]:
    """Whitespace/`~` separated words of a name at brace depth 0."""
    words: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in name:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if depth == 0 and (ch.isspace() or ch == "~"):
            if current:
                words.append("".join(current))
                current = []
            continue
        current.append(ch)
    if current:
        words.append("".join(current))
    return words


def _is_lower_word(word: str) -> bool:
    """BibTeX's 'von' test: the first letter at brace depth 0 (or of `{\\x..}`) is lower-case."""
    if word.startswith("{") and not word.startswith("{\\"):
        return False  # a braced group is caseless: never a von particle
    text = latex_to_text(word)
    for ch in text:
        if ch.isalpha():
            return ch.islower()
    return False


def _name_commas(name: str) -> list[str]:
    """Comma-separated parts of one name at brace depth 0."""
    return [part.strip() for part in _split_top_level(name, ",", quotes=False)]


@functools.lru_cache(maxsize=65536)
def _name_ok_for_bibtex(name: str) -> bool:
    """False for names bibtex rejects: empty parts (trailing comma) or more than 2 commas."""
    parts = _name_commas(name)
    return len(parts) <= 3 and all(parts)


@functools.lru_cache(maxsize=65536)
def _parse_name(name: str) -> Author | None:
    """'Family, Given', 'Family, Jr, Given' or 'Given von Family' as an Author."""
    parts = [p for p in _name_commas(name) if p]
    if not parts:
        return None
    if len(parts) == 1:
        words = _split_words(parts[0])
        if len(words) <= 1:
            family, given = parts[0], ""
        else:
            lower = [i for i, w in enumerate(words[:-1]) if _is_lower_word(w)]
            if lower:
                first, last = lower[0], lower[-1]
                given = " ".join(words[:first])
                family = " ".join(words[first:])
                if last < first:  # pragma: no cover - defensive
                    family = " ".join(words[first:])
            else:
                given, family = " ".join(words[:-1]), words[-1]
    elif len(parts) == 2:
        family, given = parts
    else:
        family, given = f"{parts[0]} {parts[1]}", " ".join(parts[2:])
    family, given = _clean(family), _clean(given)
    if family.lower() == "others" and not given:
        return None  # "and others" means et al., not a person
    if not family:
        family, given = given, ""
    return Author(family=family, given=given) if family else None


def parse_names(value: str) -> list[Author]:
    """An `author`/`editor` value as Authors (decoded; 'and others' dropped)."""
    if not value.strip():
        return []
    authors: list[Author] = []
    for name in _split_names(value):
        author = _parse_name(name)
        if author is not None:
            authors.append(author)
    return authors


# --------------------------------------------------------------------------- writing

#: Readable BibTeX for well-known venue acronyms (written as source, already protected).
VENUE_ACRONYMS: dict[str, str] = {
    "ICML": "International Conference on Machine Learning ({ICML})",
    "NEURIPS": "Advances in Neural Information Processing Systems ({NeurIPS})",
    "NIPS": "Advances in Neural Information Processing Systems ({NeurIPS})",
    "ICLR": "International Conference on Learning Representations ({ICLR})",
    "AISTATS": "International Conference on Artificial Intelligence and Statistics ({AISTATS})",
    "UAI": "Conference on Uncertainty in Artificial Intelligence ({UAI})",
    "COLT": "Conference on Learning Theory ({COLT})",
    "AAAI": "{AAAI} Conference on Artificial Intelligence",
    "IJCAI": "International Joint Conference on Artificial Intelligence ({IJCAI})",
    "CVPR": "{IEEE/CVF} Conference on Computer Vision and Pattern Recognition ({CVPR})",
    "ICCV": "{IEEE/CVF} International Conference on Computer Vision ({ICCV})",
    "ECCV": "European Conference on Computer Vision ({ECCV})",
    "ACL": "Annual Meeting of the Association for Computational Linguistics ({ACL})",
    "EMNLP": "Conference on Empirical Methods in Natural Language Processing ({EMNLP})",
    "NAACL": "Conference of the North American Chapter of the Association for "
    "Computational Linguistics ({NAACL})",
    "KDD": "{ACM} {SIGKDD} Conference on Knowledge Discovery and Data Mining ({KDD})",
    "JMLR": "Journal of Machine Learning Research",
    "TMLR": "Transactions on Machine Learning Research",
}
_ACRONYM_RE = re.compile(r"^\s*([A-Za-z]+)(?:[\s']*(?:\d{2}|\d{4}))?\s*$")
_KEY_INVALID_RE = re.compile(r"[\s,{}()\"#%'=\\]")
_ENTRY_TYPE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_AND_RE = re.compile(r"(?i)(?:^|\s)and(?:\s|$)")
_URL_FIELDS = frozenset({"url", "doi"})
_NAME_FIELDS = frozenset({"author", "editor"})


def _venue_field_for(record: PaperRecord) -> str:
    """Field name that carries the venue when writing `record`."""
    entry_type = record.entry_type.lower()
    field = _VENUE_FIELD.get(entry_type)
    has = record.raw.keys() | record.inherited.keys() if record.inherited else record.raw
    if field is not None and (field in has or not record.raw):
        return field
    for candidate in _VENUE_FALLBACK:
        if candidate in has:
            return candidate
    if field is not None:
        return field
    return "publisher" if entry_type == "book" and not record.publisher else "howpublished"


def _encode_venue(venue: str, field: str, ascii_only: bool) -> str:
    """Venue text as BibTeX; a bare acronym (`ICML`, `ICML 2024`) becomes its long name."""
    match = _ACRONYM_RE.match(venue)
    if match:
        long_name = VENUE_ACRONYMS.get(match.group(1).upper())
        if long_name is not None:
            return long_name
    protect = field in ("booktitle", "journal", "series")
    return encode_text(venue, protect_case=protect, ascii_only=ascii_only)


def _encode_name_part(text: str, ascii_only: bool, brace: bool) -> str:
    """One family/given name, escaped and braced when bibtex must see it as one unit."""
    body = encode_text(text, ascii_only=ascii_only)
    if brace or "," in text or _AND_RE.search(text):
        return f"{{{body}}}"
    return body


def _encode_authors(authors: Iterable[Author], ascii_only: bool) -> str:
    """Authors as `Family, Given and Family, Given` that bibtex splits correctly."""
    names: list[str] = []
    for author in authors:
        family, given = author.family.strip(), author.given.strip()
        if not family:
            family, given = given, ""
        if not family:
            continue
        # A family name with spaces but no given name is one unit ({Company Name}).
        family_src = _encode_name_part(family, ascii_only, brace=not given and " " in family)
        if given:
            names.append(f"{family_src}, {_encode_name_part(given, ascii_only, brace=False)}")
        else:
            names.append(family_src)
    return " and ".join(names)


def _raw_name_list_ok(value: str) -> bool:
    """True if bibtex accepts every name of a raw author/editor value."""
    if "," not in value:
        return True
    return all(_name_ok_for_bibtex(name) for name in _split_names(value))


def _raw_value(name: str, value: str, ascii_only: bool) -> str | None:
    """A raw field value as written, or None if it cannot be written verbatim.

    Printed text fields get their bare LaTeX specials escaped (the reader warned).
    """
    if not bibtex_balanced(value):
        return None
    if name in PRINTED_FIELDS:
        value = fix_bare_specials(value)[0]
    if ascii_only and name not in _URL_FIELDS and not value.isascii():
        return to_ascii(value)
    return value


class _Expression(str):
    """A field value written as it was read, macros and `#` included: not braced."""


# In an expression: a braced part (two levels), a quoted part, or a macro name (group 1).
_MACRO_WORD_RE = re.compile(
    r'\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|"[^"]*"|([^\s"#%\'(),={}@0-9][^\s"#%\'(),={}@]*)')


def _macros_of(expression: str) -> list[str]:
    """The macro names an expression uses (outside its quoted and braced parts)."""
    return [m.group(1) for m in _MACRO_WORD_RE.finditer(expression) if m.group(1)]


def _record_fields(
    record: PaperRecord,
    include_abstract: bool,
    include_notes: bool,
    ascii_only: bool,
    exported_keys: frozenset[str],
) -> list[tuple[str, str]]:
    """The (name, BibTeX value body) pairs of one record, in writing order; a value that
    is an `_Expression` is written as it is, without braces."""
    crossref = record.raw.get("crossref")
    parent_written = crossref is not None and crossref.strip().lower() in exported_keys
    # Inherited fields are written unless the crossref parent is, which gives them.
    raw = record.raw if parent_written or not record.inherited else (
        record.inherited | record.raw)
    skipped = set(record.inherited) - set(record.raw) if parent_written else set()
    fields: list[tuple[str, str]] = []
    written: set[str] = set(skipped)

    def put(name: str, value: str) -> None:
        written.add(name)
        if name in skipped:
            return
        if value or name in raw:  # an empty imported field is kept too (lossless)
            fields.append((name, value))

    def from_raw(name: str) -> str | None:
        value = raw.get(name)
        if value is None:
            return None
        expression = record.raw_source.get(name)
        if expression is not None and _raw_value(name, value, False) == value:
            if ascii_only and not expression.isascii():
                expression = to_ascii(expression)
            return _Expression(expression)
        return _raw_value(name, value, ascii_only)

    # author: verbatim unless bibtex would reject a name (e.g. a stray trailing comma)
    author = from_raw("author")
    if author is not None and _raw_name_list_ok(author):
        put("author", author)
    else:
        authors = record.authors or (parse_names(raw["author"]) if "author" in raw else [])
        put("author", _encode_authors(authors, ascii_only))

    title = from_raw("title")
    put("title", title if title is not None else encode_text(
        record.title, protect_case=True, ascii_only=ascii_only
    ))  # fmt: skip

    venue_field = _venue_field_for(record)
    venue = from_raw(venue_field)
    if (
        venue is None
        and record.venue
        and not (venue_field == "publisher" and record.venue == record.publisher)
    ):
        venue = _encode_venue(record.venue, venue_field, ascii_only)
    if venue_field != "publisher":
        put(venue_field, venue or "")

    year = from_raw("year")
    put("year", year if year is not None else ("" if record.year is None else str(record.year)))
    for name in ("volume", "pages"):
        value = from_raw(name)
        put(name, value if value is not None else encode_text(getattr(record, name)))
    publisher = from_raw("publisher")
    if publisher is None:
        publisher = encode_text(record.publisher, ascii_only=ascii_only)
        if not publisher and venue_field == "publisher" and venue:
            publisher = venue
    put("publisher", publisher)
    for name in ("doi", "url"):
        value = from_raw(name)
        put(name, value if value is not None else encode_verbatim(getattr(record, name)))
    if include_abstract:
        abstract = from_raw("abstract")
        put("abstract", abstract if abstract is not None else encode_text(
            record.abstract, ascii_only=ascii_only
        ))  # fmt: skip
    else:
        written.add("abstract")

    notes_written = include_notes and bool(record.notes.strip())
    tags_written = bool(record.tags)
    if crossref is not None and not parent_written:
        written.add("crossref")  # bibtex fails on a crossref to an entry it does not have
    for name, value in raw.items():
        if name in written or (notes_written and name == "annote"):
            continue
        if tags_written and name == "keywords":
            continue
        if name in _NAME_FIELDS and not _raw_name_list_ok(value):
            put(name, _encode_authors(parse_names(value), ascii_only))
            continue
        kept = from_raw(name)
        if kept is None:
            kept = encode_text(_clean(value), ascii_only=ascii_only)
        put(name, kept)
    if not raw and not record.authors and record.title:
        # bibtex sorts and labels an author-less entry by its `key` field, else by the
        # first letters of the citation key (which overflows plainnat's a..z suffixes).
        words = record.title.split()
        put("key", encode_text(" ".join(words[:4]), ascii_only=ascii_only))
    if notes_written:
        put("annote", encode_text(record.notes.strip(), ascii_only=ascii_only))
    if tags_written:
        put("keywords", ", ".join(encode_text(t, ascii_only=ascii_only) for t in record.tags))
    return fields


# --------------------------------------------------------------------------- biblatex

_ARXIV_ID = r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)"
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs|pdf)/" + _ARXIV_ID, re.IGNORECASE)
_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\." + _ARXIV_ID + "$", re.IGNORECASE)
_ARXIV_TEXT_RE = re.compile(r"(?:arxiv:|corr\s*,?\s*abs/)\s*" + _ARXIV_ID, re.IGNORECASE)
_ARXIV_BARE_RE = re.compile(_ARXIV_ID + "$")
_MONTH_NUMBERS = {name: f"{i:02d}" for i, name in enumerate(_MONTHS, start=1)}
_ONLINE_VENUES = (
    "howpublished", "journal", "journaltitle", "booktitle", "publisher", "institution",
    "school", "organization",
)  # fmt: skip


def arxiv_id(fields: dict[str, str]) -> str | None:
    """The arXiv identifier of an entry's fields (eprint, doi, url or journal), if any."""
    eprint = fields.get("eprint", "").strip()
    kind = (fields.get("eprinttype") or fields.get("archiveprefix") or "").strip().lower()
    if eprint and (kind == "arxiv" or (not kind and _ARXIV_BARE_RE.match(eprint))):
        return eprint
    match = _ARXIV_DOI_RE.match(fields.get("doi", "").strip())
    if match:
        return match.group(1)
    match = _ARXIV_URL_RE.search(fields.get("url", ""))
    if match:
        return match.group(1).removesuffix(".pdf")
    for name in ("journal", "note", "howpublished", "volume"):
        match = _ARXIV_TEXT_RE.search(fields.get(name, ""))
        if match:
            return match.group(1)
    return None


def _month_number(value: str) -> str | None:
    """'January', 'jan', '1', '{Jan.}' as '01'; None if it is not a month."""
    text = value.strip("{} .").lower()
    if text.isdigit() and 1 <= int(text) <= 12:
        return f"{int(text):02d}"
    return _MONTH_NUMBERS.get(text[:3]) if len(text) >= 3 else None


def _to_biblatex(
    entry_type: str, fields: list[tuple[str, str]]
) -> tuple[str, list[tuple[str, str]]]:
    """BibLaTeX names for classic BibTeX fields: date, journaltitle, @online, eprint."""
    values = dict(fields)
    renamed: dict[str, str] = {"archiveprefix": "eprinttype", "primaryclass": "eprintclass"}
    dropped: set[str] = set()
    extra: list[tuple[str, str]] = []
    year = values.get("year", "").strip()
    if "date" not in values and len(year) == 4 and year.isdigit():
        month = _month_number(values.get("month", "")) if "month" in values else None
        if month is not None or "month" not in values:
            renamed["year"] = "date"
            values["year"] = f"{year}-{month}" if month else year
            dropped.add("month")
    if entry_type == "article" and "journaltitle" not in values:
        renamed["journal"] = "journaltitle"
    online = entry_type in ("misc", "online") and "url" in values
    if online and not any(name in values for name in _ONLINE_VENUES):
        entry_type = "online"
    if "eprint" not in values:
        found = arxiv_id(values)
        if found is not None:
            extra = [("eprint", found), ("eprinttype", "arxiv")]
    elif (
        "eprinttype" not in values
        and "archiveprefix" not in values
        and _ARXIV_BARE_RE.match(values["eprint"].strip())
    ):
        extra = [("eprinttype", "arxiv")]
    out: list[tuple[str, str]] = []
    for name, _value in fields:
        if name in dropped:
            continue
        out.append((renamed.get(name, name), values[name]))
    return entry_type, out + extra


# --------------------------------------------------------------------------- writing


def _check_record(record: PaperRecord) -> tuple[str, str]:
    """The key and lower-case entry type of a record; ValueError if it cannot be written."""
    if record.key is None:
        raise ValueError("cannot write a record without a key")
    if not record.key or _KEY_INVALID_RE.search(record.key):
        raise ValueError(f"invalid BibTeX key {record.key!r}")
    entry_type = (record.entry_type or "misc").lower()
    if not _ENTRY_TYPE_RE.match(entry_type):
        raise ValueError(f"invalid BibTeX entry type {record.entry_type!r}")
    return record.key, entry_type


def write_bibtex(
    records: Iterable[PaperRecord],
    *,
    include_abstract: bool = True,
    include_notes: bool = False,
    ascii_only: bool = False,
    flavour: Flavour = "bibtex",
) -> str:
    """BibTeX source for `records` (UTF-8 text unless `ascii_only`).

    `flavour="biblatex"` writes for biber: `date` instead of year/month, `journaltitle`,
    `@online` for entries that are only a URL, and `eprint`/`eprinttype` for arXiv ids.
    A `crossref` is written only when its target is written too, and then (as bibtex
    requires) the target comes after the entries that refer to it.
    Raises ValueError for a record without a (valid) key or for duplicate keys.
    """
    if flavour not in ("bibtex", "biblatex"):
        raise ValueError(f"unknown flavour {flavour!r} (use 'bibtex' or 'biblatex')")
    records = list(records)
    checked = [_check_record(record) for record in records]
    exported = frozenset(key.lower() for key, _type in checked)
    if len(exported) < len(checked):
        seen: set[str] = set()
        for key, _type in checked:
            if key.lower() in seen:
                raise ValueError(f"duplicate BibTeX key {key!r}")
            seen.add(key.lower())
    names = {key.lower(): key.lower() for key, _type in checked}
    if flavour == "biblatex":  # biber resolves a crossref to an `ids` alias; bibtex does not
        for record, (key, _type) in zip(records, checked):
            for alias in _aliases(record.raw):
                names.setdefault(alias, key.lower())
    exported = frozenset(names)  # keys (and aliases) a crossref can name
    targets = {names[r.raw["crossref"].strip().lower()] for r in records
               if "crossref" in r.raw and r.raw["crossref"].strip().lower() in names}
    blocks: list[str] = []
    parents: list[str] = []
    strings: dict[str, tuple[str, str]] = {}  # lower-case macro: (name, value)
    preambles: list[str] = []
    for record, (key, entry_type) in zip(records, checked):
        fields = _record_fields(record, include_abstract, include_notes, ascii_only, exported)
        if flavour == "biblatex":
            entry_type, fields = _to_biblatex(entry_type, fields)
        fields = _with_strings(record, fields, strings, ascii_only)
        for preamble in record.preambles:
            if preamble not in preambles:
                preambles.append(preamble)
        body = "".join(
            f"  {name} = {value},\n" if isinstance(value, _Expression)
            else f"  {name} = {{{value}}},\n" for name, value in fields
        )
        if body:
            block = f"@{entry_type}{{{key},\n{body[:-2]}\n}}\n"
        else:
            block = f"@{entry_type}{{{key},\n}}\n"
        (parents if key.lower() in targets else blocks).append(block)
    head = [f"@preamble{{{{{_ascii(p, ascii_only)}}}}}\n" for p in preambles if bibtex_balanced(p)]
    head += [f"@string{{{name} = {{{value}}}}}\n" for name, value in strings.values()]
    if head:
        head = ["".join(head)]
    return "\n".join(head + blocks + parents)


def _ascii(text: str, ascii_only: bool) -> str:
    return to_ascii(text) if ascii_only and not text.isascii() else text


def _with_strings(record: PaperRecord, fields: list[tuple[str, str]],
                  strings: dict[str, tuple[str, str]], ascii_only: bool,
                  ) -> list[tuple[str, str]]:
    """Note the `@string` macros the record's expressions use in `strings` (the file's
    definitions so far); an expression whose macro another record defines otherwise, or
    that no record defines, is written expanded instead."""
    if not any(isinstance(value, _Expression) for _name, value in fields):
        return fields
    known = {name.lower(): value for name, value in record.strings.items()}
    out: list[tuple[str, str]] = []
    for name, value in fields:
        if isinstance(value, _Expression):
            wanted: dict[str, tuple[str, str]] = {}
            for macro in _macros_of(value):
                lower = macro.lower()
                if lower in known:
                    definition = bibtex_balanced(known[lower]) and _ascii(known[lower], ascii_only)
                    if not definition or strings.get(lower, (macro, definition))[1] != definition:
                        break
                    wanted[lower] = (macro, definition)
                elif lower not in _MONTHS:
                    break
            else:
                strings.update((k, v) for k, v in wanted.items() if k not in strings)
                out.append((name, value))
                continue
            expanded = record.raw.get(name, record.inherited.get(name, ""))
            value = _raw_value(name, expanded, ascii_only) or ""
        out.append((name, value))
    return out
