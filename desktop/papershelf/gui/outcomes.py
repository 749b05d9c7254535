"""What the window's longer operations did, in the interface language: an import's
counts, adding papers by identifier, a metadata lookup, PDF downloads, accepted
candidates, and the lines an export or an import is named and reported by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from papershelf.core import transfer
from papershelf.core.importing import ImportReport
from papershelf.core.transfer import Export, Missing
from papershelf.gui.i18n import localized, number
from papershelf.gui.qt import Translator
from papershelf.metadata import adding, attaching, complete
from papershelf.metadata.identifiers import Identifier

tr = Translator("Operations")

# ServiceError kinds a Retry may mend (offline: once the user is online again)
UNREACHED = frozenset({"network", "timeout", "offline"})


def import_name(paths: Sequence[str]) -> str:
    """What an import of files is called: the file's name, or how many files."""
    return Path(paths[0]).name if len(paths) == 1 else tr("{n} files").format(n=len(paths))


def incomplete_lines(export: Export) -> list[str]:
    """A line for each incomplete entry an export names: its key and what it lacks."""
    words: dict[Missing, str] = {"authors": tr("no authors"),
                                 "title": tr("provisional title"), "year": tr("no year")}
    return [f"{entry.key}: {', '.join(words[m] for m in entry.missing)}"
            for entry in export.incomplete]


class ImportOutcome(transfer.ImportOutcome):
    """The core's import outcome, with its summary line in the interface language."""

    def summary(self) -> str:
        """One line: added, completed, already present, failed (files included)."""
        text = _counts(self.report, len(self.failed_files))
        if self.cancelled:
            text += " " + tr("(cancelled; the file being read was not imported)")
        return text

    def file_summaries(self) -> list[str]:
        """When several files were imported: a line for each, its name and its counts."""
        if len(self.reports) + len(self.failed_files) < 2:
            return []
        return [tr("{name}: {counts}").format(name=Path(path).name,
                                              counts=_counts(report, 0))
                for path, report in self.reports]


def _counts(report: ImportReport, failed_files: int) -> str:
    """Added, completed, already present, failed: an import's counts in one line."""
    parts = [tr("{n} added").format(n=number(report.added))]
    if report.merged:
        parts.append(tr("{n} completed").format(n=number(report.merged)))
    parts.append(tr("{n} already present").format(n=number(report.already_present)))
    parts.append(tr("{n} failed").format(n=number(report.failed + failed_files)))
    return tr(", ").join(parts)


@dataclass(frozen=True)
class AddOutcome:
    """What adding papers by identifier did: how many identifiers were asked for, each
    lookup (`metadata.adding.Looked`), what the write did (None: nothing was written),
    whether the user cancelled, whether the write failed (its error was shown), and the
    error that stopped the lookups."""

    asked: int
    looked: tuple[adding.Looked, ...] = ()
    result: adding.Adding | None = None
    cancelled: bool = False
    unwritten: bool = False
    error: str = ""

    def failures(self) -> list[str]:
        """One line per identifier that could not be looked up: it, then why."""
        return [localized(item.failure) for item in self.looked if item.error is not None]

    def unreached(self) -> list[Identifier]:
        """The identifiers no service could be reached for (no network, a server down,
        a time-out): worth a Retry, unlike one a service does not know."""
        return [item.identifier for item in self.looked
                if item.error is not None and item.error.kind in UNREACHED]

    def notes(self) -> list[str]:
        """The remarks the lookups made (a service skipped, a fallback), once each."""
        return list(dict.fromkeys(localized(note) for item in self.looked
                                  for note in item.notes))

    def summary(self) -> str:
        """One line: added, completed, already had, failed; or why nothing was added."""
        if self.cancelled:
            return tr("Cancelled; nothing was added")
        if self.unwritten:
            return tr("Nothing was added: the library could not be written")
        if self.error:
            return tr("Nothing was added: {reason}").format(reason=self.error)
        done = self.result
        return tr("Added {added}, completed {completed}, already had {already}, "
                  "failed {failed}").format(
            added=done.count("added") if done else 0,
            completed=done.count("completed") if done else 0,
            already=done.count("already") if done else 0,
            failed=len(self.failures()))

    def report(self) -> str:
        """The summary, then a line per failure and per note."""
        lines = [self.summary(), *self.failures()]
        lines += [tr("Note: {note}").format(note=note) for note in self.notes()]
        return "\n".join(lines)


@dataclass(frozen=True)
class MetadataLookup:
    """What looking papers up for their metadata found: how many papers were asked
    about, a proposal (`metadata.complete.Proposal`) for each paper looked up, the run's
    notes (a service skipped, offline mode), whether the user cancelled (the proposals
    are then those of the papers looked up before), and the error that stopped it."""

    asked: int
    proposals: tuple[complete.Proposal, ...] = ()
    notes: tuple[str, ...] = ()
    cancelled: bool = False
    error: str = ""


@dataclass(frozen=True)
class Downloads:
    """What downloading papers' PDFs did: how many papers were asked for, what came of
    each (`metadata.attaching.Fetched`), the files not attached (the paper has the same
    already), whether the user cancelled, whether the write failed (its error was
    shown), and the error that stopped the downloads."""

    asked: int
    fetched: tuple[attaching.Fetched, ...] = ()
    refused: tuple[str, ...] = ()
    cancelled: bool = False
    unwritten: bool = False
    error: str = ""

    def summary(self) -> str:
        """One line: how many PDFs were attached, how many papers failed."""
        if self.cancelled:
            return tr("Cancelled; no PDF was attached")
        if self.unwritten:
            return tr("No PDF was attached: the library could not be written")
        if self.error:
            return tr("No PDF was attached: {reason}").format(reason=self.error)
        got = sum(1 for item in self.fetched if item.path is not None) - len(self.refused)
        text = tr("1 PDF attached, {failed} failed") if got == 1 else tr(
            "{n} PDFs attached, {failed} failed")
        return text.format(n=got, failed=len(self.failures()))

    def failures(self) -> list[str]:
        """One line per paper whose PDF was not attached: its key, then why."""
        return [item.error for item in self.fetched if item.error] + list(self.refused)

    def report(self) -> str:
        """The summary, then a line per failure."""
        return "\n".join([self.summary(), *self.failures()])


@dataclass(frozen=True)
class Acceptance:
    """What accepting candidates did: the papers completed; a line for each paper left
    as it was (it changed since it was looked up, or is gone); and whether the write
    failed as a whole (its error was shown, nothing was completed)."""

    completed: tuple[int, ...] = ()
    failures: tuple[str, ...] = ()
    unwritten: bool = False
