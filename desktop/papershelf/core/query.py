"""The search query language: what a user's query means, as a tree, in plain Python.

The window's search field and the command line share this language; `parse` turns a
query into a tree of the frozen dataclasses below (core.querywords reads it back in
words), and `evaluate` is its meaning on one paper (a `Searchable`): the reference that the SQL
compilers of core.search are tested against. Nothing here knows SQL or Qt.

Words are what the databases' tokenizers (SQLite FTS5 `unicode61 remove_diacritics 2`,
PostgreSQL 'simple' + unaccent) make of a text, close enough (`words`): NFKD, marks
(Unicode category M) dropped, lower-cased with `str.lower` (as the databases do; not
`casefold`, so ß stays ß), then runs of letters and digits (`[^\\W_]+`: `\\w` without the
underscore, which both databases treat as a separator).

The tree, and what each node means for a paper:

- `Text(field, words, prefix)`: the field's words hold `words` consecutively (a phrase),
  the last one as a prefix when `prefix`. `words` is never empty; they are as typed,
  lower-cased (`typed_words`), and compared folded as `words` folds. Field None is any of
  title, authors, abstract, notes, tags and attached files' text (search.INDEXED_COLUMNS
  plus the files and the annotations the user sees), each on its own: a phrase never
  spans two of them. Authors and tags
  are each one text, their names joined by ", " (authors_text, tags_text). `venue` is
  the booktitle or journal, `pdf` the attached files' text, `ann` the quotes and comments
  of the paper's annotations the user sees (each annotation on its own).
- `Exact(field, value, prefix)`: key, doi, entry type or one of the tags equals `value`
  (or starts with it when `prefix`), ignoring case; `value` is lower-cased.
- `Flag(field, value)`: is:starred, is:unread|reading|read (the read state),
  is:provisional (a placeholder title), is:retracted (a retraction notice names it),
  is:corrected (a correction or an expression of concern does), has:pdf (a file
  attached), has:annotations, has:notes, has:abstract, has:doi (the text is not blank).
- `Range(field, low, high)`: the half-open interval [low, high), None for an open end;
  ints for `year`, aware datetimes for `added`, `read` (when marked read) and
  `lastread` (when last read in the reader). A paper without a year or date is outside
  every range.
- `Not(node)`, `And(nodes)`, `Or(nodes)` (two or more, never nested in their own kind),
  and `Everything()`, which is only ever the whole tree (nothing searchable was typed).

Operators are upper-case only (`and`, `or`, `not` are words); `-` negates at the start
of a term only (`transformer-xl` is the phrase "transformer xl"). Reading a query
never fails. A term that yields no words (`*`, `-`, `""`) drops out, as does an
operator with nothing to work on; a known field with nothing after it yet (`author:`)
drops out too, so typing one does not empty the list; an unknown field or a value that
does not parse (`foo:bar`, `year:abc`, `10.1000/x:y`) is read as plain words.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import TypeAlias, TypeVar

from papershelf.core.shapes import (
    ANNOTATIONS,
    BIB_FIELDS,
    FILES,
    KEY,
    NOTES,
    PRIVATE_ANNOTATIONS,
    PROGRESS,
    READ_STATE,
    STARRED,
    TAGS,
)

# -- the language's names ------------------------------------------------------------

TEXT_FIELDS = ("author", "title", "abstract", "venue", "notes", "pdf", "ann")
EXACT_FIELDS = ("key", "doi", "tag", "type")
RANGE_FIELDS = ("year", "added", "read", "lastread")
FLAGS: Mapping[str, tuple[str, ...]] = {
    "is": ("starred", "unread", "reading", "read", "provisional", "retracted", "corrected"),
    "has": ("pdf", "notes", "doi", "abstract", "annotations"),
}
# Every spelling of a field (for completion), to the field it names.
FIELDS: Mapping[str, str] = {
    **{name: name for name in (*TEXT_FIELDS, *EXACT_FIELDS, *RANGE_FIELDS, *FLAGS)},
    "au": "author",
}

HELP = """\
words          papers with all of them (in title, authors, abstract, notes, tags, PDFs,
               annotations)
"a phrase"     the words in this order          vari*   words starting with "vari"
a OR b, a | b  either                           -a, NOT a   not this
(a OR b) c     grouping; AND binds tighter than OR: a b OR c = (a b) OR c
author: au: title: abstract: venue: notes: pdf:   words in that field only
ann:           words in the paper's annotations (their quotes and comments)
tag:"to read"  key:smith2020 key:smith*  doi:10.1000/xyz  type:article
year:2024  year:2020..2024  year:>=2022  (also >, <, <=, 2020.. and ..2024)
added:<30d     added in the last 30 days (d, w, m = months, y); added:>30d older
added:2026-11  added:2026-11-05  added:>=2026-01-01  read: (the same, when marked read)
lastread:<7d   last read in the last 7 days (the same forms as added:)
is:starred  is:unread  is:reading  is:read  is:provisional
is:retracted   a retraction notice    is:corrected  a correction or expression of concern
has:pdf  has:notes  has:doi  has:abstract  has:annotations"""

# -- the tree --------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """Words in a text field (None: any searched text) as a phrase, the last maybe a prefix."""

    field: str | None
    words: tuple[str, ...]
    prefix: bool = False


@dataclass(frozen=True)
class Exact:
    """A whole value (key, doi, tag, type), lower-cased, or its start when `prefix`."""

    field: str
    value: str
    prefix: bool = False


@dataclass(frozen=True)
class Flag:
    """A state of the paper: is:starred, has:pdf, ... (`field` is "is" or "has")."""

    field: str
    value: str


@dataclass(frozen=True)
class Range:
    """The half-open interval [low, high) of year (ints) or added/read (aware datetimes)."""

    field: str
    low: int | datetime | None
    high: int | datetime | None


@dataclass(frozen=True)
class Not:
    """Papers the node does not match."""

    node: Node


@dataclass(frozen=True)
class And:
    """Papers every node matches."""

    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    """Papers any node matches."""

    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Everything:
    """Every paper: the query had nothing searchable."""


Node: TypeAlias = Text | Exact | Flag | Range | Not | And | Or | Everything

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> tuple[str, ...]:
    """The words of `text` as the databases' full-text tokenizers see them."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return tuple(_WORD.findall(bare.lower()))


def typed_words(text: str) -> tuple[str, ...]:
    """The words of a query as typed, lower-cased, their accents kept: the databases
    fold them as they folded the text they index (PostgreSQL without `unaccent` keeps
    accents, so "Erdős" must reach it as typed); `evaluate` folds them as `words`."""
    lowered = unicodedata.normalize("NFKC", text).lower()  # (accents stay letters)
    return tuple(_WORD.findall("".join(c for c in lowered
                                       if not unicodedata.category(c).startswith("M"))))


# -- reading a query -------------------------------------------------------------------

# A token: an operator or parenthesis (str), a term (a Node), or a term with nothing
# searchable (None, kept so that `NOT *` does not negate the term after it).
_Token: TypeAlias = str | Node | None
_END = ""
_FIELD = re.compile(r"([A-Za-z]+):(.*)")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)")
_COMPARISONS = (">=", "<=", ">", "<", "=")
_AGE = re.compile(r"(\d{1,6})([dwmy])", re.I)
_DAY = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
_YEAR = re.compile(r"\d{1,4}")
_T = TypeVar("_T", int, datetime)
TYPED_PREFIX = 3  # the shortest word being typed that is searched as a prefix


def parse(query: str, *, typing: bool = False, now: datetime | None = None) -> Node:
    """The tree of `query`; never raises.

    With `typing` (the user is still typing it) the last word becomes a prefix when the
    query ends in it, not in whitespace or a parenthesis, and it has TYPED_PREFIX letters
    or more (a word of one or two is searched whole until a third comes): a bare word, a
    field's word value (`author:hin`, `key:smi`), or an unclosed quoted phrase
    (`"deep lea`), never a closed one. `now` (default: now in UTC; a naive one is taken
    as UTC) anchors relative dates, and its time zone is the one calendar dates
    (`added:2026-11`) are read in.
    """
    now = now or datetime.now(timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    typing = typing and bool(query) and not query[-1].isspace()
    node = _Parser(_lex(query, typing, now)).or_expr(0)
    return Everything() if node is None else node


def as_typed(query: str, now: datetime | None = None) -> str:
    """`query` written so that, read whole, it finds what it finds while being typed
    (`parse(query, typing=True)`): the word being typed gets its `*` (`quant` →
    `quant*`, `"deep lea` → `"deep lea*"`). A saved search keeps what the search field
    showed, and the command line's `search --prefix` reads a query the same way."""
    now = now or datetime.now(timezone.utc)
    typed = parse(query, typing=True, now=now)
    if typed == parse(query, now=now):
        return query
    unclosed = query.count('"') % 2 == 1
    whole = query + ('*"' if unclosed else "*")
    return whole if parse(whole, now=now) == typed else query


def _lex(query: str, typing: bool, now: datetime) -> list[_Token]:
    """The tokens of `query`: operators and parentheses as strings, terms as nodes."""
    tokens: list[_Token] = []
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c.isspace():
            i += 1
        elif c in "()|":
            tokens.append("OR" if c == "|" else c)
            i += 1
        elif c == "-":  # a negation when it starts a term; alone it is nothing
            if i + 1 < n and not query[i + 1].isspace():
                tokens.append("NOT")
            i += 1
        elif c == '"':
            phrase, i, closed = _quoted(query, i)
            tokens.append(_text(None, phrase, typing and i == n and not closed))
        else:
            start, i = i, _word_end(query, i)
            chunk = query[start:i]
            match = _FIELD.fullmatch(chunk)
            if chunk in ("OR", "AND", "NOT"):
                tokens.append(chunk)
            elif match and match[1].lower() in FIELDS:
                value, closed = match[2], False
                if not value and i < n and query[i] == '"':
                    value, i, closed = _quoted(query, i)
                    chunk += value
                tokens.append(_field(FIELDS[match[1].lower()], value, chunk,
                                     typing and i == n and not closed, now))
            else:
                tokens.append(_text(None, chunk, typing and i == n))
    return tokens


def _quoted(query: str, i: int) -> tuple[str, int, bool]:
    """The phrase of the quote at `i`, where it ends, and whether it was closed."""
    close = query.find('"', i + 1)
    if close < 0:
        return query[i + 1:], len(query), False
    return query[i + 1:close], close + 1, True


def _word_end(query: str, i: int) -> int:
    """Where the word at `i` ends: at whitespace, a quote, `|`, or a `)` it did not open
    (so `(doi:10.1002/(SICI)x)` keeps the DOI's parentheses and closes the group)."""
    depth = 0
    while i < len(query):
        c = query[i]
        if c.isspace() or c in '"|' or (c == ")" and not depth):
            break
        depth += {"(": 1, ")": -1}.get(c, 0)
        i += 1
    return i


def _text(field: str | None, text: str, typing: bool) -> Text | None:
    """The words of `text` as a Text term (a prefix if it ends with * or is being typed)."""
    found = typed_words(text)
    if not found:
        return None
    # (A word of one or two letters as a prefix stands for a good part of a language:
    # slow to search in a big library, and it tells the user little.)
    typed = typing and len(found[-1]) >= TYPED_PREFIX
    return Text(field, found, typed or text.rstrip().endswith("*"))


def _field(name: str, value: str, raw: str, typing: bool, now: datetime) -> Node | None:
    """The term `name:value`; its plain words (`raw`) when the value does not parse."""
    value = value.strip()
    if not value.rstrip("*").strip():
        return None  # nothing typed after the field yet
    node = _value(name, value, typing, now)
    return _text(None, raw, typing) if node is None else node


def _value(name: str, value: str, typing: bool, now: datetime) -> Node | None:
    """The term of field `name` with `value`, or None when the value does not parse."""
    if name in TEXT_FIELDS:
        return _text(name, value, typing)
    if name in EXACT_FIELDS:
        exact = value.rstrip("*").strip().lower()
        if name == "doi":
            exact = _DOI_PREFIX.sub("", exact)
        return Exact(name, exact, typing or value.endswith("*")) if exact else None
    if name in FLAGS:
        return Flag(name, value.lower()) if value.lower() in FLAGS[name] else None
    if name == "year":
        years = _bounds(value, _year, lambda _: None)
        return Range(name, *years) if years else None
    dates = _bounds(value, lambda text: _calendar(text, now), lambda text: _ago(text, now))
    return Range(name, *dates) if dates else None


def _bounds(value: str, period: Callable[[str], tuple[_T, _T] | None],
            ago: Callable[[str], _T | None]) -> tuple[_T | None, _T | None] | None:
    """[low, high) of a range value: a period (`2024`), compared (`>=2024`), between two
    (`2020..2024`, either end open), or for dates an age (`<30d` is newer than 30 days)."""
    op = next((o for o in _COMPARISONS if value.startswith(o)), "")
    rest = value[len(op):].strip()
    point = ago(rest)
    if point is not None:
        return (None, point) if op.startswith(">") else (point, None)
    if not op and ".." in rest:
        first, _, last = rest.partition("..")
        a, b = period(first) if first else None, period(last) if last else None
        if (first and a is None) or (last and b is None) or (a is None and b is None):
            return None
        if a is not None and b is not None and b[0] < a[0]:
            a, b = b, a  # written backwards: 2024..2020
        return (a[0] if a else None), (b[1] if b else None)
    found = period(rest)
    if found is None:
        return None
    start, end = found
    return {">=": (start, None), ">": (end, None), "<": (None, start),
            "<=": (None, end)}.get(op, (start, end))


def _year(text: str) -> tuple[int, int] | None:
    """The years [y, y + 1) of a year."""
    return (int(text), int(text) + 1) if _YEAR.fullmatch(text) else None


def _calendar(text: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The instants [start, end) of a calendar year, month or day, in now's time zone."""
    match = _DAY.fullmatch(text)
    if not match:
        return None
    year, month, day = int(match[1]), match[2], match[3]
    try:
        if month is None:
            start, end = date(year, 1, 1), date(year + 1, 1, 1)
        elif day is None:
            start = date(year, int(month), 1)
            end = date(year + start.month // 12, start.month % 12 + 1, 1)
        else:
            start = date(year, int(month), int(day))
            end = start + timedelta(days=1)
    except (ValueError, OverflowError):
        return None
    return (datetime.combine(start, time(), now.tzinfo),
            datetime.combine(end, time(), now.tzinfo))


def _ago(text: str, now: datetime) -> datetime | None:
    """The instant an age (`30d`, `2w`, `6m` months, `1y`) before `now`."""
    match = _AGE.fullmatch(text)
    if not match:
        return None
    count, unit = int(match[1]), match[2].lower()
    try:
        if unit in "dw":
            return now - timedelta(days=count * (7 if unit == "w" else 1))
        months = now.year * 12 + now.month - 1 - count * (12 if unit == "y" else 1)
        year, month = divmod(months, 12)
        day = min(now.day, calendar.monthrange(year, month + 1)[1])
        return now.replace(year=year, month=month + 1, day=day)
    except (ValueError, OverflowError):
        return None


# Groups and negations nested deeper than this are read flat (no recursion error).
_MAX_NESTING = 64


class _Parser:
    """Operators over tokens, forgiving: AND (implicit or written) binds tighter than OR;
    NOT and `-` bind to the next term or group; an operator with nothing to work on, a
    stray `)` and an unclosed `(` are ignored; None means nothing searchable. `depth`
    counts the groups and negations around a token."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> _Token:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else _END

    def or_expr(self, depth: int) -> Node | None:
        alternatives = [self.and_expr(depth)]
        while self.peek() == "OR":
            self.pos += 1
            alternatives.append(self.and_expr(depth))
        return _combine(Or, alternatives)

    def and_expr(self, depth: int) -> Node | None:
        parts: list[Node | None] = []
        while (token := self.peek()) not in (_END, "OR"):
            if token == ")" and depth:
                break
            if token in (")", "AND"):  # a stray `)` at the top level, or the implicit AND
                self.pos += 1
            else:
                parts.append(self.unary(depth))
        return _combine(And, parts)

    def unary(self, depth: int) -> Node | None:
        token = self.tokens[self.pos]
        self.pos += 1
        if token in ("NOT", "(") and depth >= _MAX_NESTING:
            return None  # too deep: read on as if it were not there
        if token == "NOT":
            if self.peek() in (_END, "OR", "AND", ")"):
                return None
            inner = self.unary(depth + 1)
            return None if inner is None else Not(inner)
        if token == "(":
            inner = self.or_expr(depth + 1)
            if self.peek() == ")":
                self.pos += 1
            return inner
        assert not isinstance(token, str)  # and_expr passes no other operator here
        return token


def _combine(kind: type[And] | type[Or], parts: Sequence[Node | None]) -> Node | None:
    """The nodes of `parts` joined by `kind`, flattened; one node alone; None if none."""
    nodes: list[Node] = []
    for part in parts:
        if isinstance(part, kind):
            nodes.extend(part.nodes)
        elif part is not None:
            nodes.append(part)
    if not nodes:
        return None
    return nodes[0] if len(nodes) == 1 else kind(tuple(nodes))


# -- what a tree means -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Searchable:
    """What a query looks at in one paper. `authors` are display names, `tags` in the
    order of tags_text (sorted, ignoring case), `pdf_text` the text of its files (a phrase
    may span two files here, not in the index: compare with one file), `read_state`
    'unread', 'reading' or 'read'."""

    added: datetime
    title: str = ""
    authors: Sequence[str] = ()
    abstract: str = ""
    venue: str = ""
    notes: str = ""
    tags: Sequence[str] = ()
    pdf_text: str = ""
    key: str = ""
    doi: str = ""
    entry_type: str = ""
    starred: bool = False
    read_state: str = "unread"
    provisional: bool = False
    has_pdf: bool = False
    annotations: str = ""  # the quotes and comments of the annotations the user sees
    has_annotations: bool = False
    year: int | None = None
    read_at: datetime | None = None
    notices: frozenset[str] = frozenset()  # "retracted", "corrected" (core.retractions)
    last_read_at: datetime | None = None  # when the user last read its PDF here


def is_plain(node: Node) -> bool:
    """Whether the tree is plain words: an AND of words and phrases in no field."""
    nodes = node.nodes if isinstance(node, And) else (node,)
    return all(isinstance(n, Text) and n.field is None for n in nodes)


def evaluate(node: Node, record: Searchable) -> bool:
    """Whether `record` matches `node` (the module docstring says what each node means)."""
    match node:
        case Everything():
            return True
        case Not(inner):
            return not evaluate(inner, record)
        case And(nodes):
            return all(evaluate(n, record) for n in nodes)
        case Or(nodes):
            return any(evaluate(n, record) for n in nodes)
        case Text(field, phrase, prefix):
            folded = tuple(token for word in phrase for token in words(word))
            return bool(folded) and any(_holds(words(text), folded, prefix)
                                        for text in _texts(field, record))
        case Exact(field, value, prefix):
            return any(v.lower().startswith(value) if prefix else v.lower() == value
                       for v in _values(field, record))
        case Flag(field, value):
            return _flag(field, value, record)
        case Range(field, low, high):
            point = {"year": record.year, "added": record.added,
                     "lastread": record.last_read_at}.get(field, record.read_at)
            return (point is not None and (low is None or _order(low) <= _order(point))
                    and (high is None or _order(point) < _order(high)))


def _texts(field: str | None, record: Searchable) -> tuple[str, ...]:
    """The texts a Text term of `field` looks in, each on its own."""
    authors, tags = ", ".join(record.authors), ", ".join(record.tags)
    if field is None:
        return (record.title, authors, record.abstract, record.notes, tags, record.pdf_text,
                record.annotations)
    return ({"author": authors, "title": record.title, "abstract": record.abstract,
             "venue": record.venue, "notes": record.notes, "pdf": record.pdf_text,
             "ann": record.annotations}[field],)


def _holds(tokens: tuple[str, ...], phrase: tuple[str, ...], prefix: bool) -> bool:
    """Whether `tokens` hold `phrase` consecutively (its last word as a prefix if asked)."""
    *head, last = phrase
    for i in range(len(tokens) - len(phrase) + 1):
        end = tokens[i + len(head)]
        if list(tokens[i:i + len(head)]) == head and (
                end.startswith(last) if prefix else end == last):
            return True
    return False


def _values(field: str, record: Searchable) -> Sequence[str]:
    """The values an Exact term of `field` compares with."""
    return {"key": (record.key,), "doi": (record.doi,), "type": (record.entry_type,),
            "tag": record.tags}[field]


def _flag(field: str, value: str, record: Searchable) -> bool:
    """Whether `record` has the state `field:value`."""
    if field == "is":
        if value == "starred":
            return record.starred
        if value in ("retracted", "corrected"):
            return value in record.notices
        return record.provisional if value == "provisional" else record.read_state == value
    return {"pdf": record.has_pdf, "notes": bool(record.notes.strip()),
            "doi": bool(record.doi.strip()), "abstract": bool(record.abstract.strip()),
            "annotations": record.has_annotations}[value]


def _order(point: int | datetime) -> float:
    """A year or an instant as a number to compare (a Range holds one kind only)."""
    return point.timestamp() if isinstance(point, datetime) else float(point)


# -- what a tree reads -----------------------------------------------------------------

# The parts of a paper (the names of `Change.touched`, core.shapes) each term looks at.
# BIB_FIELDS stands for the bibliographic record (title, authors, abstract, venue, doi, type,
# year, the provisional title): an edit of any of them touches it.
_TEXT_PARTS: Mapping[str | None, frozenset[str]] = {
    None: frozenset({BIB_FIELDS, NOTES, TAGS, FILES, ANNOTATIONS, PRIVATE_ANNOTATIONS}),
    **{name: frozenset({BIB_FIELDS}) for name in ("author", "title", "abstract", "venue")},
    "notes": frozenset({NOTES}),
    "pdf": frozenset({FILES}),
    "ann": frozenset({ANNOTATIONS, PRIVATE_ANNOTATIONS}),
}
_EXACT_PARTS: Mapping[str, frozenset[str]] = {
    "key": frozenset({KEY}), "tag": frozenset({TAGS}),
    "doi": frozenset({BIB_FIELDS}), "type": frozenset({BIB_FIELDS}),
}
_FLAG_PARTS: Mapping[str, frozenset[str]] = {
    "starred": frozenset({STARRED}), "provisional": frozenset({BIB_FIELDS}),
    # (notices are read in as the bibliographic record changes: core.retractions)
    "retracted": frozenset({BIB_FIELDS}), "corrected": frozenset({BIB_FIELDS}),
    **{state: frozenset({READ_STATE}) for state in ("unread", "reading", "read")},
    "pdf": frozenset({FILES}), "notes": frozenset({NOTES}),
    "doi": frozenset({BIB_FIELDS}), "abstract": frozenset({BIB_FIELDS}),
    "annotations": frozenset({ANNOTATIONS, PRIVATE_ANNOTATIONS}),
}
# (`added` never changes; a paper's read date changes with its read state.)
_RANGE_PARTS: Mapping[str, frozenset[str]] = {
    "year": frozenset({BIB_FIELDS}), "added": frozenset(), "read": frozenset({READ_STATE}),
    "lastread": frozenset({PROGRESS}),
}


def parts_read(query: str) -> frozenset[str]:
    """The parts of a paper (`Change.touched`'s names) that decide whether `query` finds
    it: a list searching `query` may find other papers only after a change touching one
    of them (an empty query reads none)."""
    return _read(parse(query))


def _read(node: Node) -> frozenset[str]:
    """The parts of a paper the terms of `node` look at."""
    match node:
        case Everything():
            return frozenset()
        case Not(inner):
            return _read(inner)
        case And(nodes) | Or(nodes):
            return frozenset().union(*(_read(n) for n in nodes))
        case Text(field, _words, _prefix):
            return _TEXT_PARTS[field]
        case Exact(field, _value, _prefix):
            return _EXACT_PARTS[field]
        case Flag(_field, value):
            return _FLAG_PARTS[value]
        case Range(field, _low, _high):
            return _RANGE_PARTS[field]
