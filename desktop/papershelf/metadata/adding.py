"""Adding papers by their identifiers, with no Qt: what `papershelf add` and the window's
File > Add by Identifier share.

`look_up` asks the service that owns an identifier and never raises for a service's
failure: its `Looked` holds the record found, or the error to show as one line.
`add_found` adds what was found the way an import adds an entry: the paper already
there (found as `core.importing` finds it) is completed with what it lacks
(`Library.complete_paper`), any other becomes a new paper. The new papers are written
together, a few hundred per import (one import per paper made writing cost most of the
job); records go in order all the same, so that two identifiers of one paper make one
paper. It returns what became of each record and one `Change` for all of them: its undo
puts back what completing changed (nothing else: every user's star, read state and
notes stay) and takes the new papers away, and the undo's own undo does it all again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from papershelf.core import edits
from papershelf.core.library import BIB_FIELDS, Change, Library, abstract_hash, normalize_text
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.messages import joined, text
from papershelf.metadata.errors import ServiceError
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.identifiers import Identifier
from papershelf.metadata.services import lookup

__all__ = ["Added", "Adding", "Looked", "Outcome", "add_found", "look_up", "look_up_all"]

log = logging.getLogger(__name__)

FORMAT = "identifier"  # the import batch's format for papers added by identifier
# New papers are imported this many at a time (an import of 1,000 or more would leave its
# papers out of search until the index catches up in the background).
WRITE_BATCH = 500

Outcome = Literal["added", "completed", "already"]


@dataclass(frozen=True)
class Looked:
    """What looking one identifier up gave: the record, or the error that stopped it;
    and the remarks made on the way (a service skipped for want of a key, a fallback)."""

    identifier: Identifier
    record: PaperRecord | None = None
    error: ServiceError | None = None
    notes: tuple[str, ...] = ()

    @property
    def failure(self) -> str:
        """The failure as one line for the user: the identifier, then why ('' when the
        paper was found)."""
        return "" if self.error is None else text("{identifier}: {error}",
                                                  identifier=self.identifier.value,
                                                  error=self.error.message)


@dataclass(frozen=True)
class Added:
    """What became of one record: a new paper ("added"), the paper it already was,
    completed with what it lacked ("completed"), or that paper unchanged ("already").
    `paper_id` is None when the paper it already was is not known."""

    identifier: Identifier
    outcome: Outcome
    paper_id: int | None
    key: str = ""


@dataclass(frozen=True)
class Adding:
    """What `add_found` did: each record's fate, in order, and the one undoable Change
    (empty when nothing changed)."""

    items: tuple[Added, ...]
    change: Change

    def count(self, outcome: Outcome) -> int:
        """How many records had this outcome."""
        return sum(1 for item in self.items if item.outcome == outcome)

    @property
    def paper_ids(self) -> list[int]:
        """The papers the records are (added, completed or already there), in order."""
        return list(dict.fromkeys(i.paper_id for i in self.items if i.paper_id is not None))


def look_up(identifier: Identifier, client: ServiceClient) -> Looked:
    """The paper `identifier` names, from the service that owns it (a failure is in the
    `Looked`, not raised)."""
    notes: list[str] = []
    try:
        record = lookup(identifier, client, notes)
    except ServiceError as error:
        return Looked(identifier, error=error, notes=tuple(notes))
    return Looked(identifier, record, notes=tuple(notes))


def look_up_all(wanted: Sequence[Identifier], client: ServiceClient,
                progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] | None = None) -> list[Looked]:
    """Each identifier looked up, in order; `progress(done, total)` after each. When
    `cancelled()` turns true, the ones looked up so far are returned. In offline mode
    each one fails at once (unless its answer is cached)."""
    found: list[Looked] = []
    for done, identifier in enumerate(wanted, start=1):
        if cancelled is not None and cancelled():
            break
        found.append(look_up(identifier, client))
        if progress is not None:
            progress(done, len(wanted))
        _let_others_in()
    return found


def _let_others_in() -> None:
    """Let a thread waiting for the interpreter lock have it now (the window's, when this
    runs in its worker). A thread making many short database or network calls releases
    the lock often but takes it back before a waiting thread wakes up, and each release
    counts as a turn given: the window then waited up to 100-250 ms at a time."""
    time.sleep(0)


def add_found(library: Library, found: Sequence[Looked]) -> Adding:
    """Add the papers found (the failed lookups are skipped), in order, each as an
    import adds an entry: a new paper, or the paper already there completed
    (`Library.complete_paper`, the import's merge). One Change for all, whose undo takes
    back everything this did.

    A database error part way undoes what was done before it, then is raised."""
    writer = _Writer(library)
    try:
        for looked in found:
            if looked.record is not None:
                writer.add(looked.identifier, looked.record)
        writer.flush()
    except BaseException:
        _take_back(library, writer.added, writer.completions)
        raise
    done = [item for item in writer.items if item is not None]
    keys = {pid: row.key for pid, row in library.rows(
        [i.paper_id for i in done if i.paper_id is not None]).items()}
    items = tuple(Added(i.identifier, i.outcome, i.paper_id, keys.get(i.paper_id or 0, ""))
                  for i in done)
    added, completions = writer.added, writer.completions
    completed = {pid for change in completions for pid in change.ids} - set(added)
    description = _describe(len(added), len(completed))
    if not added and not completions:
        return Adding(items, Change(description, frozenset()))
    return Adding(items, _together(library, description, added, completions))


class _Writer:
    """`add_found`'s writing: a record of a paper already there completes it at once;
    the new ones wait, to be imported together (`flush`): when WRITE_BATCH wait, at
    the end, and before a record that may be one of them (same DOI, title or abstract),
    so that the library answers for it as it would had they been written one by one."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.items: list[Added | None] = []  # in order; None: waiting to be written
        self.added: list[int] = []  # the new papers
        self.completions: list[Change] = []  # the papers completed
        self._waiting: list[tuple[int, Identifier, PaperRecord]] = []  # (item, ...)
        self._marks: set[str] = set()  # what tells the waiting papers apart

    def add(self, identifier: Identifier, record: PaperRecord) -> None:
        _let_others_in()
        marks = _marks(record)
        if marks & self._marks:
            self.flush()
        match, incoming = self.library.paper_for(record)  # (as an import finds it)
        if match is None:
            self._waiting.append((len(self.items), identifier, record))
            self.items.append(None)
            self._marks |= marks
            if len(self._waiting) >= WRITE_BATCH:
                self.flush()
            return
        change = self.library.complete_paper(match, incoming,
                                             f"Complete paper from {identifier.value}")
        if change.ids:
            self.completions.append(change)
        self.items.append(Added(identifier, "completed" if change.ids else "already", match))

    def flush(self) -> None:
        """Import the new papers waiting, as one import."""
        waiting, self._waiting, self._marks = self._waiting, [], set()
        if not waiting:
            return
        source = waiting[0][1].value if len(waiting) == 1 else f"{len(waiting)} identifiers"
        report = self.library.import_result(
            ReadResult(records=[record for _, _, record in waiting]), source, FORMAT)
        self.added.extend(report.added_ids)
        if len(report.added_ids) == len(waiting):  # each a new paper, in order
            for (index, identifier, _), pid in zip(waiting, report.added_ids):
                self.items[index] = Added(identifier, "added", pid)
            return
        # Someone else added some of the papers just now: the import completed or had them.
        new, merged = set(report.added_ids), set(report.merged_ids)
        for index, identifier, record in waiting:
            found, _ = self.library.paper_for(record)
            outcome: Outcome = ("added" if found in new else "completed" if found in merged
                                else "already")
            self.items[index] = Added(identifier, outcome, found)


def _marks(record: PaperRecord) -> set[str]:
    """What an import matches a record on (`core.importing.find_existing`): its DOI, its
    title and its abstract, normalized as the import does."""
    marks = set()
    if doi := record.doi.strip().lower():
        marks.add("doi:" + doi)
    if not record.title_provisional and (title := normalize_text(record.title)):
        marks.add("title:" + title)
    if hashed := abstract_hash(record.abstract):
        marks.add("abstract:" + hashed)
    return marks


def _take_back(library: Library, added: list[int], completions: list[Change]) -> None:
    """Undo what an add that failed part way did (if that fails too, it stays done)."""
    if not added and not completions:
        return
    try:
        undo = _together(library, "", added, completions).undo
        if undo is not None:
            undo()
    except Exception:
        log.exception("could not take back the papers added before the error")


def _describe(added: int, completed: int) -> str:
    """'Add 2 papers', 'Complete 1 paper', 'Add 2 papers, complete 1 paper': the undo
    step."""
    parts = []
    if added:
        parts.append(edits.describe("Add", range(added)))
    if completed:
        parts.append(edits.describe("Complete", range(completed)))
    return joined(*parts) if len(parts) == 2 else parts[0] if parts else text("Add papers")


def _together(library: Library, description: str, added: Sequence[int],
              completions: Sequence[Change]) -> Change:
    """One Change for the papers `added` and the `completions` made after them or
    between them. Its undo reverses the completions (last first), then deletes the
    papers added; the undo's undo brings those back whole and completes again."""
    added = list(added)
    ids = frozenset(added).union(*(change.ids for change in completions))

    def undo() -> Change:
        redos = [change.undo() for change in reversed(completions) if change.undo is not None]
        deleted = library.delete_papers(added) if added else None

        def redo() -> Change:
            if deleted is not None and deleted.undo is not None:
                deleted.undo()
            again = [change.undo() for change in reversed(redos) if change.undo is not None]
            return _together(library, description, added, again)

        return Change(description, ids, structural=bool(added), undo=redo,
                      touched=frozenset({BIB_FIELDS}))

    return Change(description, ids, structural=bool(added), undo=undo,
                  touched=frozenset({BIB_FIELDS}))
