"""The window's features, one module each over the `Shell` (gui.shell): each declares
the actions it handles and what it does when the library opens and the window closes.

`Features` makes them for a window, in the order their hooks run (live updates first:
they start before the window first reads the library); the window reaches one as
`window.features.triage`, and no feature imports the window.
"""

from __future__ import annotations

from collections.abc import Iterator

from papershelf.gui.features.admin import AdminFeature
from papershelf.gui.features.annotations import AnnotationsFeature
from papershelf.gui.features.around import AroundFeature
from papershelf.gui.features.autoexport import AutoExportFeature
from papershelf.gui.features.bestmatch import BestMatchFeature
from papershelf.gui.features.connector import WindowConnector
from papershelf.gui.features.editing import EditingFeature
from papershelf.gui.features.exporting import ExportingFeature
from papershelf.gui.features.feeds import FeedsFeature
from papershelf.gui.features.importing import ImportingFeature
from papershelf.gui.features.listing import ListingFeature
from papershelf.gui.features.live import LiveFeature
from papershelf.gui.features.pdfs import PdfsFeature
from papershelf.gui.features.reading import ReadingFeature
from papershelf.gui.features.retractions import RetractionsFeature
from papershelf.gui.features.saved_searches import SavedSearchesFeature
from papershelf.gui.features.triage import TriageFeature
from papershelf.gui.shell import Feature, Shell


class Features:
    """A window's features by name."""

    def __init__(self, shell: Shell) -> None:
        self.live = LiveFeature(shell)
        self.listing = ListingFeature(shell)
        self.triage = TriageFeature(shell)
        self.saved_searches = SavedSearchesFeature(shell)
        self.editing = EditingFeature(shell)
        self.importing = ImportingFeature(shell)  # (its Cancel before the download's)
        self.exporting = ExportingFeature(shell)
        self.annotations = AnnotationsFeature(shell)
        self.pdfs = PdfsFeature(shell)
        self.reading = ReadingFeature(shell)
        self.admin = AdminFeature(shell)
        self.bestmatch = BestMatchFeature(shell)
        self.around = AroundFeature(shell)
        self.autoexport = AutoExportFeature(shell)
        self.connector = WindowConnector(shell)
        self.retractions = RetractionsFeature(shell)
        self.feeds = FeedsFeature(shell)  # (last: its actions' state wins in the inbox)

    def __iter__(self) -> Iterator[Feature]:
        return iter([value for value in vars(self).values() if isinstance(value, Feature)])
