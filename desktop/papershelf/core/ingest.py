"""From read records to rows: the part of an import that needs no database.

`prepare` turns `PaperRecord`s into plain tuples holding every column a new paper
needs (fingerprints, display values, the raw fields as JSON, authors and a citation
key base), so the library's writer only assigns ids and keys and inserts
(`insert_rows` gives the rows of each table). The columns are those `core.fields`
declares.

A big file is read in pieces (`pieces`), cut where its format's `Pieces`
(formats.plugin) say a piece may start (a new BibTeX entry, abstract paragraph or RIS
record), and each piece is read and prepared in a worker process (`PieceReader`): two
cores read while the library writes, and memory stays flat however big the file is.
Whole-file rules are kept: a piece knows its first line number, the abstract list's
heading and a BibTeX file's `@string` macros reach the pieces after them, and BibTeX
files whose entries refer to each other (`crossref`, `@proceedings`) are read whole
(reading a piece raises ReadWhole for them). RIS records stand alone; the tags no field
keeps are gathered from every piece into one notice.

Never imports Qt or SQLAlchemy (the worker processes start fast). The format registry
imports every reader, though a worker reads one format: the others add a few tens of
milliseconds to a worker's start, once per import of seconds.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import gc
import hashlib
import html
import json
import multiprocessing
import os
import re
import signal
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from papershelf.core import fields, keys
from papershelf.formats import abstracts, registry
from papershelf.formats.bibtex import duplicate_key
from papershelf.formats.plugin import PieceRead, Pieces, ReadWhole
from papershelf.formats.readable import latex_to_text
from papershelf.formats.records import (
    Author,
    PaperRecord,
    ReadProblem,
    bib_extra,
    with_bib_extra,
)
from papershelf.formats.titles import provisional_title

# ------------------------------------------------------------------ fingerprints

_TAG_RE = re.compile(r"<[^>]+>")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# ASCII other than lower-case letters and digits, as spaces (the ASCII text's fast path:
# translating and splitting takes a third of the time of the regular expression's sub).
_ASCII_SPACES = str.maketrans({c: " " for c in map(chr, range(128))
                               if not ("0" <= c <= "9" or "a" <= c <= "z")})
# Combining marks left by NFKD decomposition (é -> e + U+0301): dropped, so "résumé"
# and "resume" match.
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def normalize_text(text: str) -> str:
    """Text reduced to what identifies it: no markup, case, accents, quotes or spacing;
    LaTeX read as a reader sees it first (`$\\ell_0$` is ℓ₀, as RIS and CSL-JSON
    exports write it), so a title or abstract is the same in either form."""
    if "\\" in text or "$" in text:
        text = latex_to_text(text)
    if "<" in text:
        text = _TAG_RE.sub(" ", text)
    if "&" in text:
        text = html.unescape(text)
    if text.isascii():
        return " ".join(text.lower().translate(_ASCII_SPACES).split())
    text = unicodedata.normalize("NFKD", text.translate(_QUOTES).casefold())
    return _NON_ALNUM.sub(" ", _COMBINING.sub("", text)).strip()


def abstract_hash(abstract: str) -> str | None:
    """A fingerprint of an abstract for duplicate detection (None for a trivial one)."""
    norm = normalize_text(abstract)
    if len(norm) < 40:
        return None
    return hashlib.sha1(norm.encode()).hexdigest()


def authors_text(authors: Sequence[Author]) -> str:
    """'Given Family, Given Family' as the table shows it."""
    return ", ".join(a.display() for a in authors)


def authors_sort(authors: Sequence[Author]) -> str:
    """What sorting by author uses: the first author's family name, case-folded."""
    return normalize_text(authors[0].family or authors[0].given) if authors else ""


# ------------------------------------------------------------------ prepared papers

# A prepared paper is a plain tuple (cheap to send between processes): first the
# `papers` columns in PAPER_COLUMNS order (without id, key and import_id, which the
# writer assigns), then what the writer needs besides.
PAPER_COLUMNS = fields.PAPER_COLUMNS
N_COLUMNS = len(PAPER_COLUMNS)
(TITLE_NORM, HASH, DOI) = (PAPER_COLUMNS.index("title_norm"),
                           PAPER_COLUMNS.index("abstract_hash"), PAPER_COLUMNS.index("doi"))
# The extras, by position after the columns.
(ABSTRACT, RAW_JSON, AUTHORS, TAGS, KEY, WANTED_KEY, KEY_BASE, LINE, EXTRA_JSON) = range(
    N_COLUMNS, N_COLUMNS + 9)
# (starred, read state, files) a reader gave (core.personal_import), else None.
OWN = N_COLUMNS + 9
# The columns of a new paper's row, as `insert_rows` gives them.
INSERT_COLUMNS = ("id", "key", "import_id", *PAPER_COLUMNS, *fields.PAPER_STATE_COLUMNS)
# The columns of a new paper's personal row, after user_name (as `insert_rows` gives them).
PERSONAL_INSERT_COLUMNS = ("paper_id", *fields.PERSONAL_COLUMNS)
_N_PERSONAL = len(fields.PERSONAL_COLUMNS)
_NO_PERSONAL = tuple(fields.PERSONAL_DEFAULTS.values())

Prepared = tuple[Any, ...]

_copied = attrgetter(*fields.COPIED_COLUMNS)  # (their attributes have the columns' names)


TAG_MAX = 255  # characters of a tag's name (the column's size)


def _fitting(tags: Sequence[str]) -> tuple[str, ...]:
    """A record's tags as the library can hold them: a longer one is a list run together
    (a database's keywords, "A, B, C" as one), so its parts become the tags (written
    back, `keywords` reads as it did); a part still too long is cut."""
    if all(len(tag) <= TAG_MAX for tag in tags):
        return tuple(tags)
    fitting: dict[str, None] = {}
    for tag in tags:
        parts = [tag] if len(tag) <= TAG_MAX else [
            p.strip()[:TAG_MAX].strip() for p in re.split(r"[,;]", tag)]
        fitting.update((p, None) for p in parts if p)
    return tuple(fitting)


def _drawn_from_abstract(record: PaperRecord) -> bool:
    """Whether a record's title is the stand-in Papershelf draws from its abstract (an
    export of a provisional paper, read back): an entry without authors whose title is
    exactly `provisional_title` of its abstract. (Authors: a real entry; checked first,
    as drawing a title costs.)"""
    return (not record.authors and bool(record.title) and bool(record.abstract)
            and provisional_title(record.abstract) == record.title)


def prepare(records: Sequence[PaperRecord], pattern: str) -> list[Prepared]:
    """Each record as a prepared tuple; `pattern` makes the key base of a keyless one.
    A title that is the stand-in drawn from the record's abstract stays provisional
    (`_drawn_from_abstract`): an export read back changes no paper's title mark."""
    prepared = []
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    for r in records:
        provisional = r.title_provisional or _drawn_from_abstract(r)
        title_norm = "" if provisional else normalize_text(r.title)
        wanted = r.key if r.key and keys.is_valid_key(r.key) else None
        prepared.append((
            (r.entry_type or "misc").lower(), int(provisional), *_copied(r),
            title_norm, authors_text(r.authors), authors_sort(r.authors),
            abstract_hash(r.abstract),
            r.abstract, dumps(r.raw), tuple((a.family, a.given) for a in r.authors),
            _fitting(r.tags), r.key, wanted, wanted or keys.format_key(pattern, r),
            r.source_line, None if (extra := bib_extra(r)) is None else dumps(extra),
            (r.starred, r.read_state, tuple(r.files))
            if r.starred or r.read_state or r.files else None,
        ))
    return prepared


def with_alias(p: Prepared, alias: str) -> Prepared:
    """A prepared paper that is also known by `alias` (its BibTeX extra's aliases)."""
    extra = json.loads(p[EXTRA_JSON]) if p[EXTRA_JSON] else {}
    aliases = extra.setdefault("aliases", [])
    if alias not in aliases:
        aliases.append(alias)
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    return (*p[:EXTRA_JSON], dumps(extra), *p[EXTRA_JSON + 1:])


def record_of(p: Prepared) -> PaperRecord:
    """The record a prepared tuple was made from (for merging into an existing paper)."""
    values = dict(zip(PAPER_COLUMNS, p))
    return with_bib_extra(PaperRecord(
        **{name: values[name] for name in fields.COPIED_COLUMNS},
        entry_type=values["entry_type"], key=p[KEY],
        title_provisional=bool(values["title_provisional"]),
        authors=[Author(f, g) for f, g in p[AUTHORS]], abstract=p[ABSTRACT],
        raw=json.loads(p[RAW_JSON]), tags=list(p[TAGS]), source_line=p[LINE],
        **({} if p[OWN] is None else
           {"starred": p[OWN][0], "read_state": p[OWN][1], "files": list(p[OWN][2])}),
    ), p[EXTRA_JSON] and json.loads(p[EXTRA_JSON]))


Rows = list[tuple[Any, ...]]


def insert_rows(papers: Sequence[Prepared], ids: Sequence[int], keys_of: Sequence[str],
                states: Sequence[tuple[Any, ...]] | tuple[Any, ...], import_id: int | None
                ) -> tuple[Rows, Rows, Rows, Rows]:
    """The rows of new papers for `papers` (INSERT_COLUMNS), `paper_texts` (paper_id,
    abstract, bib_fields, bib_extra; JSON as text), `paper_authors` (paper_id,
    position, family, given) and the user's `personal` rows (PERSONAL_INSERT_COLUMNS;
    only where the state is not the default). `states` gives the STATE_COLUMNS for all
    papers (a tuple) or for each (a list)."""
    each = isinstance(states, list)
    rows = [(pid, key, import_id, *p[:N_COLUMNS],
             *(states[n] if each else states)[_N_PERSONAL:])
            for n, (pid, key, p) in enumerate(zip(ids, keys_of, papers))]
    texts = [(pid, p[ABSTRACT], p[RAW_JSON], p[EXTRA_JSON]) for pid, p in zip(ids, papers)]
    authors = [(pid, n, family, given) for pid, p in zip(ids, papers)
               for n, (family, given) in enumerate(p[AUTHORS])]
    every = states if each else [states] * len(ids)
    personal = [(pid, *state[:_N_PERSONAL]) for pid, state in zip(ids, every)
                if state[:_N_PERSONAL] != _NO_PERSONAL]
    return rows, texts, authors, personal


def indexed_texts(papers: Sequence[Prepared], ids: Sequence[int], columns: Sequence[str]
                  ) -> Rows:
    """(id, then `columns`: the search index's, of `papers` and the abstract) of the new
    papers `insert_rows` wrote, as written: those without tags (`tags_text` is written
    after them, by the tags), for the index to take without reading them back."""
    at = {name: n for n, name in enumerate(PAPER_COLUMNS)} | {"abstract": ABSTRACT}
    picked = [at.get(name) for name in columns]  # (None: tags_text, "" for these papers)
    return [(pid, *(p[n] if n is not None else "" for n in picked))
            for pid, p in zip(ids, papers) if not p[TAGS]]


# ------------------------------------------------------------------ pieces of a file

PIECE_BYTES = 2 << 20
# Worker processes reading pieces (at most; one per CPU).
MAX_WORKERS = 2
# Files smaller than this are read whole, in the importing process.
MIN_PIECES_BYTES = 3 * PIECE_BYTES


@dataclass
class Piece:
    """A part of a file that starts at a block boundary."""

    data: bytes
    first_line: int  # of the piece's first line in the file
    end: int  # byte offset in the file after the piece
    first: bool


@dataclass
class PieceResult:
    """A read and prepared piece: its papers, what the reader said about it (`said`,
    its records dropped once prepared), and where it ends in the file."""

    papers: list[Prepared]
    said: PieceRead
    end: int


@dataclass
class FileContext:
    """What every piece of a file needs to be read the way the whole file would be."""

    path: str
    fmt: str
    pattern: str
    venue: str = ""
    year: int | None = None
    macros: dict[str, str] = field(default_factory=dict)  # BibTeX @string, so far
    heading: str | None = None  # an abstract list's


def _line_breaks(data: bytes) -> int:
    """Line breaks as the readers count them (\\n, \\r\\n and a lone \\r)."""
    lines = data.count(b"\n")
    if b"\r" in data:
        lines += data.count(b"\r") - data.count(b"\r\n")
    return lines


def pieces(path: str, fmt: str, size: int | None = None) -> Iterator[Piece] | None:
    """The file in pieces of about `size` bytes, or None if it is to be read whole
    (small, or UTF-16). Reading a piece raises ReadWhole if the file turns out to need
    the whole-file reader after all."""
    size = size or PIECE_BYTES
    read_in_pieces = registry.by_name(fmt).pieces
    if read_in_pieces is None:  # (CSL-JSON and the other formats are read whole)
        return None
    try:
        total = os.path.getsize(path)
        with open(path, "rb") as handle:
            head = handle.read(4)
    except OSError:
        return None
    if total < MIN_PIECES_BYTES or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    return _cut(path, read_in_pieces.boundary, size)


def _cut(path: str, boundary: re.Pattern[bytes], size: int) -> Iterator[Piece]:
    with open(path, "rb") as handle:
        carry = b""
        line = 1
        offset = 0
        first = True
        while True:
            block = handle.read(size)
            data = carry + block
            if not block:
                if data:
                    yield Piece(data, line, offset + len(data), first)
                return
            # The last boundary in the block; none: take the next block too.
            cut = -1
            for match in boundary.finditer(data, max(0, len(data) - size)):
                cut = match.start() + 1  # after the newline
            if cut <= 0:
                carry = data
                continue
            piece, carry = data[:cut], data[cut:]
            offset += len(piece)
            yield Piece(piece, line, offset, first)
            line += _line_breaks(piece)
            first = False


_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def read_piece(piece: Piece, context: FileContext) -> PieceResult:
    """Read and prepare one piece (runs in a worker process)."""
    data = piece.data
    if piece.first:
        data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReadWhole() from None
    if _CONTROL_RE.search(text):
        raise ReadWhole()
    read = _pieces_of(context.fmt).read(text, piece.first_line, piece.first, context)
    papers = prepare(read.records, context.pattern)
    read.records = []  # (the prepared papers travel back from the worker, not both)
    return PieceResult(papers, read, piece.end)


# An abstract list's venue, year and heading (formats.abstracts).
abstract_list_heading = abstracts.list_heading


def start_context(context: FileContext) -> FileContext:
    """The context every piece of the file is read in: with what the format finds at the
    start of the whole file (an abstract list's heading)."""
    start = _pieces_of(context.fmt).start
    if start is None:
        return context
    return dataclasses.replace(context, **start(context.path))  # type: ignore[arg-type]


def unique_keys(fmt: str) -> bool:
    """Whether a key is read once in a file of the format (BibTeX): the entries of a key
    that came in an earlier piece are to be skipped."""
    return _pieces_of(fmt).unique_keys


def finish(context: FileContext, read: int, skipped: list[tuple[int, str]],
           unkept: set[str]) -> tuple[list[ReadProblem], list[str]]:
    """The whole file's problems and notices once every piece is read (an abstract
    list's judgement, one notice for the RIS tags no field keeps)."""
    done = _pieces_of(context.fmt).finish
    return ([], []) if done is None else done(context, read, skipped, unkept)


def first_of_each_key(papers: list[Prepared], first_lines: dict[str, int], path: str,
                      problems: list[ReadProblem]) -> list[Prepared]:
    """Entries of a piece (BibTeX's) whose key came earlier in the file are skipped, as
    the whole-file reader skips them (each piece has done so within itself); `problems`
    gets one for each (`first_lines`: each key so far, lower case, at its first line)."""
    kept = []
    for paper in papers:
        key, line = paper[KEY] or "", paper[LINE]
        first = first_lines.setdefault(key.lower(), line)
        if first != line:
            problems.append(duplicate_key(path, key, line, first))
            continue
        kept.append(paper)
    return kept


def _pieces_of(fmt: str) -> Pieces:
    read_in_pieces = registry.by_name(fmt).pieces
    assert read_in_pieces is not None  # (`pieces` cut the file)
    return read_in_pieces


def _in_context(source: Iterator[Piece], context: FileContext
                ) -> Iterator[tuple[Piece, FileContext]]:
    """Each piece with the context to read it in: what the pieces before it told the
    later ones (BibTeX's @string macros, read here, in order, from the few pieces that
    define any)."""
    read_in_pieces = registry.by_name(context.fmt).pieces
    after = read_in_pieces.context_after if read_in_pieces is not None else None
    for piece in source:
        yield piece, context
        if after is not None:
            changes = after(piece.data, piece.first, context)
            if changes:
                context = dataclasses.replace(context, **changes)  # type: ignore[arg-type]


def _start_worker(parent: int) -> None:
    """A worker process ignores Ctrl+C (the importing process decides), ends when the
    importing process `parent` is gone (killed, it cannot tell its workers), and collects
    cyclic garbage rarely: reading makes many small objects and hardly any cycles (the
    collector took a large share of the reading time)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    gc.set_threshold(100_000, 50, 100)
    with contextlib.suppress(OSError, AttributeError):  # (no nice on Windows)
        os.nice(5)  # the writing process, the pipeline's narrow part, goes first


def _watch_parent(parent: int) -> None:
    """End this worker process once its parent is gone (it is then re-parented)."""
    while os.getppid() == parent:
        time.sleep(0.25)
    os._exit(1)


class PieceReader:
    """Reads pieces in worker processes, yielding results in file order.

    At most `ahead` pieces are in flight, so memory stays bounded. With one worker
    (or one CPU) pieces are read in this process.
    """

    def __init__(self, workers: int | None = None, ahead: int | None = None) -> None:
        self.workers = workers or min(MAX_WORKERS, os.cpu_count() or 1)
        self.ahead = ahead or 2 * self.workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> PieceReader:
        if self.workers > 1:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(os.getpid(),))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def read(self, source: Iterator[Piece], context: FileContext,
             cancelled: Callable[[], bool] | None = None) -> Iterator[PieceResult]:
        if self._pool is None:
            for piece, known in _in_context(source, context):
                yield read_piece(piece, known)
            return
        pending: deque[Future[PieceResult]] = deque()
        try:
            for piece, known in _in_context(source, context):
                pending.append(self._pool.submit(read_piece, piece, known))
                if len(pending) >= self.ahead:
                    yield pending.popleft().result()
                if cancelled is not None and cancelled():
                    return
            while pending:
                yield pending.popleft().result()
        except (OSError, BrokenProcessPool) as exc:
            # No worker processes here (a sandbox, a worker killed): the whole-file reader.
            raise ReadWhole() from exc
