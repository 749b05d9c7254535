"""Plain data that flows between the file formats and the library.

Formats read files into `PaperRecord`s and write `PaperRecord`s out; the library
stores and returns them. Nothing here knows about the database or Qt.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from papershelf.messages import text as message

# Entry types whose publisher (the university, the institution) is where they appeared:
# a reader takes it as the venue when there is none, a writer writes it as the publisher.
PUBLISHER_IS_VENUE = frozenset({"phdthesis", "mastersthesis", "techreport"})


@dataclass(frozen=True)
class Author:
    """One author, as readable (decoded) Unicode text."""

    family: str
    given: str = ""

    def display(self) -> str:
        """'Given Family', the order a reader expects."""
        return f"{self.given} {self.family}".strip()


@dataclass
class PaperRecord:
    """One paper, independent of where it came from or goes to.

    Text attributes (title, abstract, venue, ...) are readable Unicode; inline
    `$math$` is kept as written. `raw` holds the verbatim BibTeX field values
    of an imported entry (lower-case field names, in file order); a writer uses
    a raw value instead of the readable one as long as it is present, so an
    unedited imported entry is written back unchanged. The library drops a raw
    value when the user edits the field it belongs to.
    """

    entry_type: str = "inproceedings"
    key: str | None = None
    title: str = ""
    title_provisional: bool = False
    authors: list[Author] = field(default_factory=list)
    abstract: str = ""
    venue: str = ""
    year: int | None = None
    volume: str = ""
    pages: str = ""
    publisher: str = ""
    doi: str = ""
    url: str = ""
    raw: dict[str, str] = field(default_factory=dict)
    # How `raw` was written where it was more than one braced or quoted value: the BibTeX
    # expression of a field that used `@string` macros or `#` (`jul`, `"Proc. " # STOC`).
    # A writer writes the expression back as it was, with `strings`, the definitions of
    # the macros it uses (name as written: expanded value).
    raw_source: dict[str, str] = field(default_factory=dict)
    strings: dict[str, str] = field(default_factory=dict)
    # The place of each of those `@string`s among the @strings of the file (lower-case
    # name: 0 for the file's first), so that an export writes them in the file's order.
    string_places: dict[str, int] = field(default_factory=dict)
    # Fields the entry inherits from its `crossref` parent (raw values), written out only
    # when the parent is not written with it (bibtex then fills them in itself).
    inherited: dict[str, str] = field(default_factory=dict)
    # The `@preamble`s of the entry's file that its fields need (commands they use).
    preambles: list[str] = field(default_factory=list)
    # Other citation keys of the same paper: those of entries merged into it on import
    # (so importing them again finds it); never written out.
    aliases: list[str] = field(default_factory=list)
    notes: str = ""
    tags: list[str] = field(default_factory=list)
    # Paths of the files attached to the paper, for an export's `file` field (the
    # library fills them in only when an export asks for them). A reader gives those of
    # an entry's own `file` field that are PDFs on this computer: an import links them
    # to the paper it adds.
    files: list[str] = field(default_factory=list)
    # Where the record was read from (1-based line of its start), for messages.
    source_line: int | None = None
    # The reader's own state a file may carry (JabRef's special fields): given to a
    # new paper only (an import never touches a paper's star or read state); "" for
    # the read state is "not said".
    starred: bool = False
    read_state: str = ""


@dataclass(frozen=True)
class ReadProblem:
    """One entry of an input file that could not be read: file, 1-based line, reason."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


BIB_EXTRA_PARTS = ("raw_source", "strings", "string_places", "inherited", "preambles",
                   "aliases")


def bib_extra(record: PaperRecord) -> dict[str, object] | None:
    """What a record knows of its BibTeX source beyond `raw`, as one JSON-ready value
    (None when there is nothing: the common case)."""
    extra = {name: getattr(record, name) for name in BIB_EXTRA_PARTS if getattr(record, name)}
    return extra or None


def with_bib_extra(record: PaperRecord, extra: dict[str, object] | None) -> PaperRecord:
    """`record` with the parts `bib_extra` gave back (in place; returned for chaining)."""
    if extra:
        for name in BIB_EXTRA_PARTS:
            value = extra.get(name)
            if value:
                setattr(record, name, value.copy())  # type: ignore[attr-defined]
    return record


class FormatError(Exception):
    """A whole file is unreadable (undecodable, or not its format); nothing is imported."""

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")

    def __reduce__(self) -> tuple[type[FormatError], tuple[str, str, int | None]]:
        # Raised in an import's worker process, it travels back pickled.
        return FormatError, (self.path, self.message, self.line)


@dataclass
class ReadResult:
    """What a reader returns: the good records and one problem per bad entry.

    `warnings` are entries that were imported but carry a caveat (file, line, what and
    why, e.g. an author name real bibtex rejects); each is also in `notices` as text, so
    a caller that shows `notices` shows them. `preambles` holds the `@preamble` values
    of a BibTeX file (kept out of the papers).
    """

    records: list[PaperRecord] = field(default_factory=list)
    problems: list[ReadProblem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    warnings: list[ReadProblem] = field(default_factory=list)
    preambles: list[str] = field(default_factory=list)


def read_whole(path: str | os.PathLike[str],
               parse: Callable[[bytes, str], ReadResult]) -> ReadResult:
    """`parse` the bytes of a whole file, named by its path in messages; FormatError if
    the file cannot be read."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise FormatError(name, message("cannot read the file: {reason}",
                                        reason=str(exc.strerror or exc))) from exc
    return parse(data, name)
