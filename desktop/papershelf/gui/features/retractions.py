"""Retractions and corrections in the window (issue 44): the notices checked again in the
background, and the one warning an export, a copied citation or an auto-export gives
for the retracted papers it holds.

A timer starts a check a little after the library opens and then every day: Retraction
Watch's CSV is downloaded again when the library's copy is a week old (in a worker, to a
temporary file), and Crossref is asked for the update relations of the papers imported
since the last check; the notices are then written through the operations (one write,
no undo step) and announced as a change of those papers, so the table's marks, the
detail pane and `is:retracted` follow. In offline mode nothing is asked.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papershelf.core.shapes import BIB_FIELDS
from papershelf.gui.i18n import localized
from papershelf.gui.qt import QTimer, Translator
from papershelf.gui.shell import Feature, Shell

if TYPE_CHECKING:
    from papershelf.core.edits import Change
    from papershelf.gui.outcomes import ImportOutcome

tr = Translator("MainWindow")
log = logging.getLogger(__name__)

FIRST_CHECK_MS = 2 * 60 * 1000  # after the library opens (the first paint comes first)
CHECK_EVERY_MS = 24 * 60 * 60 * 1000
CSV_KEPT = timedelta(days=7)  # Retraction Watch's CSV is downloaded again after this
CROSSREF_PER_CHECK = 200  # papers asked about at most in one check


def warn_retracted(shell: Shell, lines: Sequence[str]) -> None:
    """Say once, without stopping anything, which retracted papers went out: in the
    message area above the table, each paper named."""
    if not lines:
        return
    shown = list(lines[:8]) + ([tr("… and {n} more").format(n=len(lines) - 8)]
                               if len(lines) > 8 else [])
    shell.add_panel.show_message("\n".join(localized(line) for line in shown))


class RetractionsFeature(Feature):
    """The periodic check of the notices (see the module docstring)."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.check)
        self._running = False
        self._stopped = False
        self._new_ids: set[int] = set()  # imported since the last check

    def attach(self) -> None:
        self.shell.importFinished.connect(self._imported)
        self._timer.start(FIRST_CHECK_MS)

    def close(self) -> None:
        self._stopped = True
        self._timer.stop()

    def _imported(self, outcome: ImportOutcome) -> None:
        report = getattr(outcome, "report", None)
        if report is not None:
            self._new_ids.update(report.added_ids)

    def check(self) -> None:
        """Check now (in a worker); the next check follows a day after this one ends."""
        if self._running or self._stopped or self.shell.closing:
            return
        self._running = True
        library = self.shell.library
        asked, self._new_ids = sorted(self._new_ids)[-CROSSREF_PER_CHECK:], set()

        def fetch(_job: object) -> dict[str, Any] | None:
            from papershelf.core import retractions
            from papershelf.metadata import retractions as fetching
            from papershelf.metadata.http import HttpSettings, ServiceError, make_client

            found: dict[str, Any] = {"folder": None, "csv": None, "crossref": None}
            try:
                with make_client(HttpSettings()) as client:
                    if client.offline:
                        return None
                    if _csv_is_old(library):
                        folder = tempfile.mkdtemp(prefix="papershelf-rw-")
                        found["folder"] = folder
                        try:
                            csv = fetching.download_csv(client, Path(folder))
                        except ServiceError:
                            csv = None  # (asked again at the next check)
                        if csv is not None:  # (read here: the write waits for no parse)
                            found["csv"] = retractions.stage(
                                retractions.read_csv(csv, []), folder)
                    dois = retractions.dois_to_check(library.context, asked) if asked \
                        else []
                    entries, answered = [], []
                    for doi in dois:
                        try:
                            entries.extend(fetching.crossref_notices(doi, client))
                            answered.append(doi)
                        except ServiceError:
                            continue
                    found["crossref"] = (answered, entries)
                    return found
            except BaseException:  # (a full disk, ...: the partial CSV goes too)
                if found["folder"]:
                    shutil.rmtree(found["folder"], ignore_errors=True)
                raise

        self.shell.tasks.run(fetch, self._fetched, self._failed)

    def _fetched(self, found: dict[str, Any] | None) -> None:
        if found is None or self._stopped:
            self._ended(found)
            return
        library = self.shell.library

        def write() -> Change:
            from papershelf.core import retractions
            from papershelf.core.edits import Change

            if found["csv"] is not None:
                retractions.replace_source(library.context, retractions.RETRACTION_WATCH,
                                           retractions.staged(found["csv"]))
            answered, entries = found["crossref"] or ([], [])
            if answered:
                retractions.replace_for_dois(library.context, answered, entries)
            return Change("", frozenset())

        def landed(_change: Change) -> None:
            self._ended(found)
            if found["csv"] is not None or (found["crossref"] or ([],))[0]:
                self._announce()

        self.shell.ops.perform(write, 0, landed, on_failed=lambda: self._ended(found))

    def _announce(self) -> None:
        """The notices changed: every row's mark and the pane's lines may have."""
        from papershelf.core.edits import Change
        from papershelf.gui.write_queue import ChangeEvent

        model = self.shell.model
        self.shell.ops.announce(ChangeEvent(Change(
            "", frozenset(model.ids), touched=frozenset({BIB_FIELDS}))))

    def _failed(self, exc: BaseException) -> None:
        """The check stopped (a service's answer no code foresaw, a full disk): a quiet
        line of the status bar, the details in the log; the next check comes a day
        later. Nobody asked for this check, so no dialog."""
        self._ended(None)
        log.warning("the check for retraction notices failed", exc_info=exc)
        self.shell.statusBar().showMessage(
            tr("The check for retraction notices failed; it runs again tomorrow"), 15000)

    def _ended(self, found: dict[str, Any] | None) -> None:
        self._running = False
        if found is not None and found.get("folder"):
            shutil.rmtree(found["folder"], ignore_errors=True)
        if not self._stopped:
            self._timer.start(CHECK_EVERY_MS)



def _csv_is_old(library: Any) -> bool:
    """Whether the library's Retraction Watch notices are missing or a week old."""
    from papershelf.core import retractions

    newest = retractions.loaded_at(library.context, retractions.RETRACTION_WATCH)
    return newest is None or datetime.now(timezone.utc) - newest > CSV_KEPT
