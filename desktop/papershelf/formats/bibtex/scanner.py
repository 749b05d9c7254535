"""The one-pass BibTeX scanner: blocks, fields and their values, as bibtex reads them.

It finds the `@entry`, `@string`, `@preamble` and `@comment` blocks and reads each
entry's `name = value` fields, expanding `@string` and month macros and `#`
concatenation while keeping, for the writer, how each compound value was written.
Unreadable blocks become problems, dubious ones warnings; `reader` makes records of
what it finds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from papershelf.formats.bibtex.fields import MONTHS
from papershelf.formats.readable import bibtex_balanced, brace_end, top_level_matches
from papershelf.formats.records import ReadProblem, ReadResult
from papershelf.messages import Text
from papershelf.messages import text as msg

__all__ = ["Entry", "Scanner"]

_AT_RE = re.compile(r"@[ \t]*([A-Za-z][^\s\"#%'(),={}@]*)\s*([{(])")
_LINE_AT_RE = re.compile(r"\n[ \t]*@")
_LINE_ENTRY_RE = re.compile(r"\n[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]")
_SPACE_RE = re.compile(r"\s*")
_KEY_RE = {"}": re.compile(r"[^\s,{}]*"), ")": re.compile(r"[^\s,{}()]*")}
_NAME_RE = re.compile(r"[^\s\"#%'(),={}@]+")
_NUMBER_RE = re.compile(r"[0-9]+")
_PAREN_CLOSE_RE = re.compile(r"\)")
_QUOTE_RE = re.compile('"')
_BRACE_CLOSE_RE = re.compile("}")
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


class _ScanError(Exception):
    """A block that cannot be read: why, and where the scanner stopped."""

    def __init__(self, reason: str, pos: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.pos = pos


_END = msg("the end of the file")  # (what a block found instead of what it expected)


def _field_of(field: str, key: str) -> Text:
    """How a message names a field of an entry."""
    return msg("field '{field}' of entry '{key}'", field=field, key=key)


@dataclass
class Entry:
    """One scanned entry: its fields as written (delimiters removed, macros expanded)."""

    entry_type: str  # as written, e.g. "InProceedings"
    key: str
    line: int
    fields: dict[str, str] = field(default_factory=dict)
    field_lines: dict[str, int] = field(default_factory=dict)
    # The expression of each field whose value used macros or `#`, as written.
    sources: dict[str, str] = field(default_factory=dict)
    # The `@string` macros those expressions use: name as written -> expanded value.
    strings: dict[str, str] = field(default_factory=dict)
    # Their places among the file's @strings (lower-case name: 0 for the first defined).
    string_places: dict[str, int] = field(default_factory=dict)
    # Fields inherited from the crossref parent (kept apart from the verbatim fields).
    inherited: dict[str, str] = field(default_factory=dict)


class Scanner:
    """One pass over BibTeX text: entries, @string/@preamble/@comment, problems."""

    def __init__(self, text: str, path: str, result: ReadResult, first_line: int = 1) -> None:
        self.text = text
        self.first_line = first_line
        self.path = path
        self.result = result
        self.strings: dict[str, str] = {}  # in the order defined (lower-case name: value)
        self._places: dict[str, int] = {}  # lower-case name: place in `strings`
        # What the last `_value` read: the `@string` macros it used (as written), whether
        # it met an undefined macro, whether it used a macro or `#` at all.
        self._used: list[str] = []
        self._undefined = False
        self._compound = False
        self.entries: list[Entry] = []
        self.blocks = 0
        self._line_pos = 0
        self._line_no = first_line
        self._entry_start = 0
        self._entry_line_pos = 0  # `_entry_line` counts newlines incrementally from here
        self._entry_line_count = 0

    # -- positions and messages

    def line_of(self, pos: int) -> int:
        """Line number of `pos`, the text's first line being `first_line` (incremental:
        positions mostly grow)."""
        if pos >= self._line_pos:
            self._line_no += self.text.count("\n", self._line_pos, pos)
            self._line_pos = pos
            return self._line_no
        return self.text.count("\n", 0, pos) + self.first_line

    def _entry_line(self, entry: Entry, pos: int) -> int:
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
        where = f"{self.path}:{line}" if line else self.path
        self.result.notices.append(Text(str(warning), "{where}: {problem}", where=where,
                                        problem=message))

    # -- the blocks

    def scan(self) -> None:
        """Read the whole text: entries into `entries`, macros into `strings`, preambles
        and problems into `result`."""
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
                self.result.notices.append(msg(
                    "{where}: {text} is commented out with '%' (as biber reads it); not "
                    "imported", where=f"{self.path}:{self.line_of(start)}",
                    text=repr(text[start:pos].strip()[:40])))
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
                self.result.problems.append(ReadProblem(self.path, line, msg(
                    "unreadable @{type}: {reason}{at}", type=match.group(1), reason=exc.reason,
                    at=msg(" (line {line})", line=where) if at else "")))
                resume = _LINE_AT_RE.search(text, start + 1)
                pos = resume.end() - 1 if resume else len(text)

    def _check_outside(self, start: int, end: int) -> None:
        """Text between blocks is a comment, unless it looks like a lost field."""
        if end - start < 4 or "=" not in self.text[start:end]:
            return
        match = _STRAY_FIELD_RE.search(self.text, start, end)
        if match is not None:
            snippet = self.text[match.start() : end].strip().splitlines()[0][:60]
            self.warn(self.line_of(match.start() + 1), msg(
                "text outside any entry looks like a field ({snippet}); an extra '}}' may "
                "have ended the entry before it. The text is ignored, as bibtex does",
                snippet=repr(snippet)))

    def _comment(self, pos: int, close: str) -> int:
        """`@comment{...}`: the whole balanced block (as biber reads it)."""
        end = self._skip_group(pos, close)
        if end < 0:  # unclosed: like bibtex, only the word `@comment` is skipped
            return pos + 1
        return end

    def _skip_group(self, pos: int, close: str) -> int:
        """Index after the delimiter closing the group opened at `pos`, or -1."""
        if close == "}":
            return brace_end(self.text, pos)
        paren = next(top_level_matches(self.text, _PAREN_CLOSE_RE, pos + 1), None)
        return -1 if paren is None else paren.end()

    def _string(self, pos: int, close: str, line: int) -> int:
        """`@string{name = value}` from after its opening delimiter: defines the macro."""
        text = self.text
        pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
        name = _NAME_RE.match(text, pos)
        if name is None:
            raise _ScanError(msg("expected a macro name after @string"), pos)
        pos = _SPACE_RE.match(text, name.end()).end()  # type: ignore[union-attr]
        if not text.startswith("=", pos):
            raise _ScanError(msg("expected '=' after @string name {name}",
                                 name=repr(name.group())), pos)
        value, pos = self._value(pos + 1, f"@string {name.group()}", line)
        self.strings[name.group().lower()] = value
        return self._expect_close(pos, close, "@string")

    def _expect_close(self, pos: int, close: str, what: str) -> int:
        """Index after the `close` ending a block, which must follow (after spaces)."""
        pos = _SPACE_RE.match(self.text, pos).end()  # type: ignore[union-attr]
        if not self.text.startswith(close, pos):
            raise _ScanError(msg("expected '{close}' to close {what}", close=close,
                                 what=what), pos)
        return pos + 1

    def _skip_space(self, pos: int, entry: Entry | None) -> int:
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
                self.warn(self._entry_line(entry, pos), msg(
                    "entry '{key}': the line {line} inside the entry is read as a comment "
                    "(biber's reading; bibtex stops on it) and is not exported",
                    key=entry.key, line=repr(comment[:60])))
            pos = end

    def _entry(self, match: re.Match[str], close: str, line: int) -> int:
        """An `@type{key, fields}` entry; returns the index after it."""
        text = self.text
        self._entry_start = self._entry_line_pos = match.start()
        self._entry_line_count = 0
        pos = _SPACE_RE.match(text, match.end()).end()  # type: ignore[union-attr]
        key_match = _KEY_RE[close].match(text, pos)
        key = key_match.group() if key_match else ""
        pos = _SPACE_RE.match(text, pos + len(key)).end()  # type: ignore[union-attr]
        entry = Entry(match.group(1), key, line)
        if text.startswith(close, pos):
            pos += 1
        elif not text.startswith(",", pos):
            found = repr(text[pos : pos + 1]) if text[pos : pos + 1] else _END
            raise _ScanError(msg("expected ',' after the key {key}, found {found}",
                                 key=repr(key), found=found), pos)
        else:
            pos = self._fields(pos + 1, close, entry)
        if not key:
            self.result.problems.append(ReadProblem(self.path, line, msg(
                "@{type} without a key; skipped", type=entry.entry_type)))
        else:
            self.entries.append(entry)
        return pos

    def _fields(self, pos: int, close: str, entry: Entry) -> int:
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
                        self._twice(entry, lower, field_line)
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
                    end = brace_end(text, start)
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
                    raise _ScanError(msg("the entry is not closed before the end of the file"),
                                     pos)
                if found == "@":
                    raise _ScanError(msg("the entry is not closed before the next entry (line "
                                         "{line})", line=self.line_of(pos)), pos)
                raise _ScanError(msg("expected a field name or '{close}', found {found}",
                                     close=close, found=repr(found)), pos)
            name = name_match.group()
            field_line = self._entry_line(entry, pos)
            pos = _SPACE_RE.match(text, name_match.end()).end()  # type: ignore[union-attr]
            if not text.startswith("=", pos):
                raise _ScanError(msg("expected '=' after the field name {name}",
                                     name=repr(name)), pos)
            lower = name.lower()
            what = _field_of(lower, entry.key)
            value, end = self._value(pos + 1, what, field_line)
            if self._compound and lower not in entry.fields:
                start = _SPACE_RE.match(text, pos + 1).end()  # type: ignore[union-attr]
                self._keep_source(entry, lower, text[start:end])
            self._keep(entry, lower, value, field_line)
            pos = self._skip_space(end, entry)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith(close, pos):
                return pos + 1
            following = _NAME_RE.match(text, pos)
            if following is not None:
                after = _SPACE_RE.match(text, following.end()).end()  # type: ignore[union-attr]
                if text.startswith("=", after):
                    self.warn(field_line, msg(
                        "entry '{key}': missing ',' after field '{field}'; read as if it "
                        "were there (field '{next}' follows)", key=entry.key, field=lower,
                        next=following.group().lower()))
                    continue
            found = text[pos : pos + 1]
            if found == "@":
                raise _ScanError(msg("the entry is not closed before the next entry (line "
                                     "{line})", line=self.line_of(pos)), pos)
            raise _ScanError(msg(
                "expected ',' or '{close}' after the value of field '{field}', found {found}",
                close=close, field=lower, found=repr(found) if found else _END), pos)

    def _store(self, entry: Entry, name: str, value: str, macro: str, pos: int) -> None:
        """Keep a field read by `_fields`' fast path, with the messages `_value` would give."""
        field_line = self._entry_line(entry, pos)
        lower = name.lower()
        if macro:
            self._used = []
            self._undefined = False
            value = self._macro(macro, _field_of(lower, entry.key), field_line)
            if lower not in entry.fields:
                self._keep_source(entry, lower, macro)
        if "@" in value and _LINE_ENTRY_RE.search(value):
            self.warn(field_line, msg(
                "{what} holds text that looks like an entry (a line starting with '@'); it "
                "is read as part of the value, as bibtex reads it",
                what=_field_of(lower, entry.key)))
        self._keep(entry, lower, value, field_line)

    def _keep_source(self, entry: Entry, lower: str, source: str) -> None:
        """Remember how a field was written (macros, `#`) and the macros it used."""
        entry.sources[lower] = source
        for name in self._used:
            lower_name = name.lower()
            entry.strings.setdefault(name, self.strings[lower_name])
            entry.string_places.setdefault(lower_name, self._place(lower_name))

    def _place(self, lower: str) -> int:
        """The place of a defined macro among the @strings so far (`strings` may have been
        given whole, with the macros of the pieces of a file read before this one)."""
        place = self._places.get(lower)
        if place is None:
            self._places = {name: n for n, name in enumerate(self.strings)}
            place = self._places[lower]
        return place

    def _keep(self, entry: Entry, lower: str, value: str, field_line: int) -> None:
        """Store a field's value, unless the entry has it already (the first one counts)."""
        if lower in entry.fields:
            self._twice(entry, lower, field_line)
        else:
            entry.fields[lower] = value
            entry.field_lines[lower] = field_line

    def _twice(self, entry: Entry, lower: str, field_line: int) -> None:
        """The notice of a field the entry has twice (the first value counts)."""
        self.result.notices.append(msg(
            "{where}: entry '{key}': field '{field}' given twice; the first value is kept",
            where=f"{self.path}:{field_line}", key=entry.key, field=lower))

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
                    raise _ScanError(msg("expected a value for {what}, found {found}",
                                         what=what, found=repr(ch) if ch else _END), pos)
                end = macro.end()
                self._compound = True
                pieces.append(self._macro(macro.group(), what, line))
            pos = _SPACE_RE.match(text, end).end()  # type: ignore[union-attr]
            if not text.startswith("#", pos):
                value = pieces[0] if len(pieces) == 1 else "".join(pieces)
                if "@" in value and _LINE_ENTRY_RE.search(value):
                    self.warn(line, msg(
                        "{what} holds text that looks like an entry (a line starting with "
                        "'@'); it is read as part of the value, as bibtex reads it",
                        what=what))
                return value, end
            self._compound = True
            pos += 1

    def _macro(self, name: str, what: str, line: int) -> str:
        """The value of a macro: an `@string`, a month, else its name (with a notice)."""
        lower = name.lower()
        value = self.strings.get(lower)
        if value is not None:
            self._used.append(name)
            return value
        month = MONTHS.get(lower)
        if month is not None:
            return month
        self._undefined = True
        self.result.notices.append(msg(
            "{where}: {what}: macro {name} is not defined in this file; shown as its name "
            "and exported as the macro it is", where=f"{self.path}:{line}", what=what,
            name=repr(name)))
        return name

    def _braced_end(self, pos: int, what: str) -> int:
        """Index after the `}` closing the `{` at `pos`; a _ScanError if none does."""
        end = brace_end(self.text, pos)
        if end > 0:
            return end
        following = _LINE_ENTRY_RE.search(self.text, pos)
        hint = ""
        if following is not None:
            hint = msg(" (the next entry starts on line {line})",
                       line=self.line_of(following.start() + 1))
        raise _ScanError(msg("the '{{' opening {what} is never closed{hint}", what=what,
                             hint=hint), pos)

    def _quoted_end(self, pos: int, what: str) -> int:
        """Index after the `"` closing the one at `pos`: the next `"` outside braces,
        unless a `}` before it closes nothing."""
        text = self.text
        end = text.find('"', pos + 1)
        if end >= 0 and bibtex_balanced(text[pos + 1 : end]):
            return end + 1  # the common case: the first `"` is outside braces
        quote = next(top_level_matches(text, _QUOTE_RE, pos + 1), None)
        if quote is not None and bibtex_balanced(text[pos + 1 : quote.start()]):
            return quote.end()
        stray = next(top_level_matches(text, _BRACE_CLOSE_RE, pos + 1), None)
        if stray is not None:
            raise _ScanError(msg("unbalanced '}}' in the quoted {what}", what=what),
                             stray.start())
        raise _ScanError(msg("the '\"' opening {what} is never closed", what=what), pos)

