"""The operations that look papers up online: adding papers by their identifiers, and
finding and accepting better metadata for papers; the lookups run in a worker, what
they found is written as one undo step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace

from papershelf.core.edits import combined, describe
from papershelf.core.library import Change, UserError
from papershelf.gui.i18n import error_text
from papershelf.gui.outcomes import Acceptance, AddOutcome, MetadataLookup
from papershelf.gui.workers import Job
from papershelf.gui.write_queue import WriteQueue
from papershelf.metadata import adding, complete
from papershelf.metadata.catalog import CatalogStore
from papershelf.metadata.http import HttpSettings, make_client
from papershelf.metadata.identifiers import Identifier

log = logging.getLogger(__name__)


class LookupOperations(WriteQueue):
    """Lookups by identifier and of metadata (a part of gui.operations' Operations)."""

    def add_identifiers(self, wanted: Sequence[Identifier],
                        on_progress: Callable[[int, int], None],
                        on_done: Callable[[AddOutcome], None],
                        settings: HttpSettings | None = None) -> Job:
        """Look papers up by their identifiers in a worker, then add what was found as
        one write and one undo step (`metadata.adding`); `on_done` gets the outcome in
        the GUI thread, also when nothing was added. Cancelled through the returned Job
        while it looks up, it adds nothing. `settings`: the HTTP client's (default: the
        user's cache, the real services, PAPERSHELF_OFFLINE)."""
        wanted = list(wanted)
        http = settings if settings is not None else HttpSettings()
        job: Job | None = None

        def look(running: Job) -> list[adding.Looked]:
            with make_client(http) as client:
                return adding.look_up_all(wanted, client, running.progress, running.cancelled)

        def looked(result: object) -> None:
            assert isinstance(result, list) and job is not None
            outcome = AddOutcome(len(wanted), tuple(result))
            if job.cancelled():
                on_done(AddOutcome(len(wanted), cancelled=True))
                return
            if not any(item.record is not None for item in outcome.looked):
                on_done(outcome)
                return
            made: list[adding.Adding] = []

            def write() -> Change:
                made.append(adding.add_found(self.library, outcome.looked))
                return made[0].change

            self.perform(write, len(wanted),
                         lambda _change: on_done(replace(outcome, result=made[0])),
                         on_failed=lambda: on_done(replace(outcome, unwritten=True)))

        def failed(exc: BaseException) -> None:
            on_done(AddOutcome(len(wanted), error=error_text(exc)))
            self.report(exc)

        job = self.tasks.run(look, looked, failed, on_progress)
        return job

    def find_metadata(self, ids: Sequence[int] | None,
                      on_progress: Callable[[int, int], None],
                      on_done: Callable[[MetadataLookup], None],
                      catalogs: Callable[[], CatalogStore | None],
                      settings: HttpSettings | None = None) -> Job:
        """Look papers up in the catalogs and the services in a worker
        (`metadata.complete.find_candidates`; `ids` None: every paper whose title is
        provisional); `on_done` gets the candidates in the GUI thread. Nothing is
        written. Cancelled through the returned Job, it hands over the papers looked up
        before. `catalogs` is called in the worker; `settings` as for `add_identifiers`."""
        wanted = None if ids is None else list(ids)
        http = settings if settings is not None else HttpSettings()

        def look(running: Job) -> MetadataLookup:
            chosen = complete.provisional_ids(self.library) if wanted is None else wanted
            notes: list[str] = []
            with make_client(http) as client:
                proposals = complete.find_candidates(
                    self.library, chosen, running.progress, running.cancelled,
                    catalogs=catalogs(), client=client, notes=notes)
            return MetadataLookup(len(chosen), tuple(proposals), tuple(notes),
                                  cancelled=running.cancelled())

        def looked(result: object) -> None:
            assert isinstance(result, MetadataLookup)
            on_done(result)

        def failed(exc: BaseException) -> None:
            on_done(MetadataLookup(len(wanted or ()), error=error_text(exc)))
            self.report(exc)

        return self.tasks.run(look, looked, failed, on_progress)

    def accept_candidates(self, chosen: Sequence[tuple[complete.Proposal, complete.Option]],
                          on_done: Callable[[Acceptance], None]) -> None:
        """Complete each paper from the candidate chosen for it (`metadata.complete.accept`:
        its key, notes, star, read state and tags stay), as one undo step; a paper that
        changed since it was looked up, or is gone, is left as it is and named in the
        Acceptance's failures. `on_done` gets the Acceptance in the GUI thread, also when
        nothing was written."""
        chosen = list(chosen)
        made: list[Acceptance] = []

        def write() -> Change:
            done: list[Change] = []
            completed: list[int] = []
            failures: list[str] = []
            try:
                for proposal, option in chosen:
                    try:
                        change = complete.accept(self.library, proposal, option)
                    except UserError as exc:  # (changed meanwhile, or deleted)
                        text = str(exc)
                        failures.append(text if proposal.key in text
                                        else f"{proposal.key}: {text}")
                        continue
                    if change.ids:
                        done.append(change)
                        completed.append(proposal.paper_id)
            except BaseException:
                _take_back(done)
                raise
            made.append(Acceptance(tuple(completed), tuple(failures)))
            return combined(describe("Complete", completed), done)

        self.perform(write, len(chosen), lambda _change: on_done(made[0]),
                     on_failed=lambda: on_done(Acceptance(unwritten=True)))


def _take_back(changes: Sequence[Change]) -> None:
    """Undo the completions a batch made before it failed (the failure is reported; if
    taking back fails too, they stay done)."""
    try:
        for change in reversed(changes):
            if change.undo is not None:
                change.undo()
    except Exception:
        log.exception("could not take back the papers completed before the error")
