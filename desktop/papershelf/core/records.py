"""Plain data that flows between the file formats and the library.

Formats read files into `PaperRecord`s and write `PaperRecord`s out; the library
stores and returns them. Nothing here knows about the database or Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
    notes: str = ""
    tags: list[str] = field(default_factory=list)
    # Where the record was read from (1-based line of its start), for messages.
    source_line: int | None = None


@dataclass(frozen=True)
class ReadProblem:
    """One entry of an input file that could not be read: file, 1-based line, reason."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


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
