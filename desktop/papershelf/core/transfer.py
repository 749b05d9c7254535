"""Import and export between files and the library, shared by the command line and the window.

An export reads the chosen papers once: the same records give the text (BibTeX, RIS or
CSL-JSON: the writer formats.registry names) and the incomplete entries (no authors, a
provisional title, no year) the window asks about before writing. `write_atomically`
writes a whole file or nothing. A multi-file import (`ImportOutcome.collect`) imports the
files in turn, one transaction each, and merges their reports; an unreadable file is
collected with its reason and never stops the others. Never imports Qt; the messages for
the user are the callers' to word.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar, get_args

from papershelf.core import backup
from papershelf.core.gcpause import young_collections_only
from papershelf.core.library import (
    Cancelled,
    ImportCancelled,
    ImportReport,
    Library,
    Progress,
    UserError,
)
from papershelf.formats import read_data, registry
from papershelf.formats.bibtex import Flavour
from papershelf.formats.records import FormatError, PaperRecord

FLAVOURS: tuple[Flavour, ...] = get_args(Flavour)
INCOMPLETE_LISTED = 200  # incomplete entries an export names; the rest are only counted

# What an incomplete entry lacks: authors, a real (not provisional) title, a year.
Missing = Literal["authors", "title", "year"]


# -- export ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportOptions:
    """What goes into an exported entry besides the bibliographic fields."""

    include_abstract: bool = True
    include_notes: bool = False
    ascii_only: bool = False
    flavour: Flavour = "bibtex"
    # Attached files on this computer as a `file` field (JabRef's form for BibTeX,
    # Better BibLaTeX's for BibLaTeX).
    include_files: bool = False
    # What is written (a name formats.registry knows): BibTeX, or RIS or CSL-JSON for
    # other reference managers.
    format: str = "bibtex"


# The file formats an export writes, with the suffix of each (those a file's name tells).
EXPORT_FORMATS = {fmt.name: fmt.suffixes[0] for fmt in registry.writable() if fmt.suffixes}
# The names an export format is asked by (the command line's --format), each format's
# own and its aliases (CSL-JSON is csl-json, as the README writes it, and csljson too).
EXPORT_FORMAT_NAMES = {name: fmt.name for fmt in registry.writable() if fmt.suffixes
                       for name in fmt.names}


def export_format_for_path(path: str | Path) -> str:
    """The export format a file's name asks for (.ris, .json; else BibTeX)."""
    return registry.writer_for_path(path).name




@dataclass(frozen=True)
class Incomplete:
    """An entry a bibliography would show with gaps: its key and what it lacks."""

    key: str | None
    missing: tuple[Missing, ...]


@dataclass(frozen=True)
class Export:
    """The exported text of some papers, and how many of them are incomplete (the first
    `INCOMPLETE_LISTED` of those named, in export order)."""

    text: str
    incomplete_count: int
    incomplete: tuple[Incomplete, ...]
    # A line for each retracted paper among them (core.retractions), to warn with once.
    retracted: tuple[str, ...] = ()


def missing_of(record: PaperRecord) -> tuple[Missing, ...]:
    """What a record lacks that a reference manager would complain about."""
    missing: list[Missing] = []
    if not record.authors:
        missing.append("authors")
    if record.title_provisional:
        missing.append("title")
    if not record.year:
        missing.append("year")
    return tuple(missing)


def export_papers(library: Library, ids: Sequence[int],
                  options: ExportOptions = ExportOptions()) -> Export:
    """BibTeX (or BibLaTeX, or RIS or CSL-JSON: `options.format`) for papers in the
    given order, checked for incomplete entries on the same reading of the records.
    ValueError if a record cannot be written (no valid key, a duplicate key)."""
    with young_collections_only():  # (thousands of records at once: core.gcpause)
        return _export(library, ids, options)


def _export(library: Library, ids: Sequence[int], options: ExportOptions) -> Export:
    records = library.records(ids, with_files=options.include_files)
    count, listed = 0, list[Incomplete]()
    for record in records:
        missing = missing_of(record)
        if missing:
            count += 1
            if len(listed) < INCOMPLETE_LISTED:
                listed.append(Incomplete(record.key, missing))
    return Export(write_records(records, options), count, tuple(listed),
                  tuple(library.retraction_warnings(ids)))


def write_records(records: Sequence[PaperRecord], options: ExportOptions) -> str:
    """The text of records in the format `options.format` names (its writer takes the
    options it has: RIS and CSL-JSON write what they hold, the abstracts if asked)."""
    written = registry.by_name(options.format).write
    assert written is not None  # (ExportOptions name a format an export writes)
    return written(records, options)


def _mode_for(path: Path) -> int:
    """The permissions a written file gets: those of the file it replaces, else what a
    new file gets under the user's umask (not the temporary file's private 0600)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# What the name of a file `write_atomically` has not finished says, with its process id:
# `.refs.bib.papershelf-unfinished.PID.RANDOM.tmp` beside refs.bib.
_UNFINISHED = ".papershelf-unfinished"


def remove_unfinished(path: Path) -> list[Path]:
    """Delete what writes of `path` killed before they finished left beside it (their
    process is gone); the files removed."""
    pattern = re.compile(re.escape(f".{path.name}{_UNFINISHED}.") + r"(\d+)\.[^.]+\.tmp$")
    return backup.remove_stale_temporaries(path.parent, pattern)


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write a whole UTF-8 file (`text`, or its bytes already encoded) or nothing: a
    temporary file in the same folder, flushed to the disk, then renamed over `path`, so
    an existing file survives any failure intact. UserError, naming the file, if it
    cannot be written. The temporary file's name says what it is; one a killed write
    left behind is removed by the next write of `path` (or `remove_unfinished`)."""
    folder = path.resolve().parent
    if not folder.is_dir():
        raise UserError(f"{path}: the folder {folder} does not exist")
    remove_unfinished(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}{_UNFINISHED}.{os.getpid()}.",
                                   suffix=".tmp")
        try:
            os.chmod(tmp, _mode_for(path))
            # (bytes are written as they are: a big file's bytes are not encoded again,
            # and the write lets other threads run, the window's among them)
            data = text if isinstance(text, bytes) else text.encode("utf-8")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise UserError(f"{path}: cannot write ({exc.strerror})") from None


# -- import ----------------------------------------------------------------------------

# What messages call the file `-` of an import.
STANDARD_INPUT = "standard input"

# Called after each file of an import with its report, or the error that left it unread.
FileDone = Callable[[str, ImportReport | FormatError], None]

_Outcome = TypeVar("_Outcome", bound="ImportOutcome")


@dataclass
class ImportOutcome:
    """What a (multi-file) import did: the files' reports merged into one, the unreadable
    files with their reasons, how many files were imported, and whether it was cancelled
    (the file being read then was not imported)."""

    report: ImportReport
    failed_files: list[tuple[str, str]] = field(default_factory=list)
    cancelled: bool = False
    files: int = 0
    # Each file imported with its own report, in the order they were read.
    reports: list[tuple[str, ImportReport]] = field(default_factory=list)

    @classmethod
    def collect(cls: type[_Outcome], library: Library, paths: Sequence[str], source: str,
                progress: Progress | None = None, cancelled: Cancelled | None = None,
                each: FileDone | None = None,
                stdin: Callable[[], bytes] | None = None) -> _Outcome:
        """Import each file in turn, one transaction per file, into a report named
        `source`; never raises for a file that cannot be read. `progress` and `cancelled`
        are passed to `Library.import_file`. Given `stdin` (what reads standard input),
        the path `-` is standard input, named so in the messages."""
        outcome = cls(ImportReport(source=source))
        for path in paths:
            if cancelled is not None and cancelled():
                outcome.cancelled = True
                break
            try:
                if path == "-" and stdin is not None:
                    path = STANDARD_INPUT
                    result, fmt = read_data(stdin(), path)
                    report = library.import_result(result, path, fmt, progress, cancelled)
                else:
                    report = library.import_file(path, progress, cancelled)
            except ImportCancelled:
                outcome.cancelled = True
                break
            except FormatError as exc:
                outcome.failed_files.append((path, exc.message))
                if each is not None:
                    each(path, exc)
                continue
            outcome.report.absorb(report)
            outcome.reports.append((path, report))
            outcome.files += 1
            if each is not None:
                each(path, report)
        return outcome

    @classmethod
    def collect_bibtex(cls: type[_Outcome], library: Library, text: str, source: str,
                       progress: Progress | None = None,
                       cancelled: Cancelled | None = None) -> _Outcome:
        """Import BibTeX source named `source` (a paste, standard input) as `collect`
        imports one file; never raises for source that holds no entry."""
        outcome = cls(ImportReport(source=source))
        try:
            outcome.report.absorb(library.import_bibtex(text, source, progress, cancelled))
        except ImportCancelled:
            outcome.cancelled = True
        except FormatError as exc:
            outcome.failed_files.append((source, exc.message))
        else:
            outcome.files = 1
        return outcome
