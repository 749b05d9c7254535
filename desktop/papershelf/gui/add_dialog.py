"""Adding papers by their identifiers in the window: File > Add by Identifier…, a paste
on the table and a drop of text or links all end in one `IdentifierAdder`.

The adder reads what it is given into identifiers (`metadata.identifiers.parse_many`),
runs one job at a time through `Operations.add_identifiers` (the next waits its turn)
and shows it in the window's message area, an `AddPanel`: progress and Cancel while the
job looks the papers up, then what it did, a line per failure. Every service's text it
shows is plain text.

Keeping the window painting while a job runs: a worker thread running Python holds the
interpreter lock, and a repaint of the window needs it for every cell of the table, so
a job starts once the panel announcing it has been painted (the panel appearing
relayouts the whole window). (The window also hides what it made at start-up from the
garbage collector: main_window.freeze_startup_objects.)
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QMimeData,
    QObject,
    QPaintEvent,
    QPalette,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QShortcut,
    QSizePolicy,
    Qt,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
    dpi_size,
)

if TYPE_CHECKING:
    from papershelf.gui.operations import AddOutcome, Operations
    from papershelf.gui.paper_model import PaperTableView
    from papershelf.gui.workers import Job
    from papershelf.metadata.http import HttpSettings
    from papershelf.metadata.identifiers import Identifier

# (imported when papers are first added: the window's first paint needs neither)
if TYPE_CHECKING:
    from papershelf.gui import operations
    from papershelf.metadata import identifiers
else:
    operations = lazy.module("papershelf.gui.operations")
    identifiers = lazy.module("papershelf.metadata.identifiers")

tr = Translator("AddDialog")

# A paste or a drop is taken for identifiers only when it looks like a list of them:
# at most this many lines, none longer than a title can be (prose is not looked up).
PASTE_MAX_LINES = 100
PASTE_MAX_LINE = 300
# A job starts once the panel announcing it is painted, or after this many ms if no
# paint comes (a window minimized or hidden).
START_AFTER_MS = 100


def identifier_text(mime: QMimeData) -> str:
    """What a paste or a drop names to add: its web links, one per line; else its text
    when it brings no links at all ('' for files, which are imported instead)."""
    if mime.hasUrls():
        return "\n".join(url.toString() for url in mime.urls()
                         if not url.isLocalFile() and url.scheme() in ("http", "https"))
    return mime.text() if mime.hasText() else ""


class AddDialog(QDialog):
    """File > Add by Identifier…: identifiers or titles, one per line; Add checks they
    can be read (a line that cannot is named, and the dialog stays open)."""

    def __init__(self, parent: QWidget | None = None, *, offline: bool = False,
                 text: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("addDialog")
        self.setWindowTitle(tr("Add by Identifier"))
        self._wanted: list[Identifier] = []
        intro = QLabel(tr("One paper per line: a DOI, an arXiv id, an OpenReview, PMLR, ACL "
                          "Anthology or DBLP link, or a title. Each is looked up online and "
                          "added, or completes the paper the library already has."))
        intro.setWordWrap(True)
        self.text_edit = QPlainTextEdit()
        self.text_edit.setObjectName("identifiers")
        self.text_edit.setTabChangesFocus(True)
        self.text_edit.setPlaceholderText(
            "10.18653/v1/N19-1423\narXiv:2403.06082\n"
            "https://openreview.net/forum?id=xPypr0kufs\nAttention Is All You Need")
        intro.setBuddy(self.text_edit)
        self.error_label = QLabel()
        self.error_label.setObjectName("addError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.hide()
        # (said before Add: offline, every lookup fails at once)
        self.offline_label = QLabel(tr("Offline mode is on (Edit › Preferences › Network): "
                                       "nothing can be looked up until you go online."))
        self.offline_label.setObjectName("addOffline")
        self.offline_label.setWordWrap(True)
        self.offline_label.setVisible(offline)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = self.buttons.addButton(tr("&Add"),
                                                 QDialogButtonBox.ButtonRole.AcceptRole)
        self.add_button.setDefault(True)
        self.add_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.text_edit.textChanged.connect(self._typed)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):  # Enter itself starts a new line
            QShortcut(QKeySequence(keys), self, self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.offline_label)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(self.error_label)
        if text:  # (what was typed last time and not added)
            self.text_edit.setPlainText(text)
        layout.addWidget(self.buttons)
        self.resize(dpi_size(520, 300))

    def identifiers(self) -> list[Identifier]:
        """What the user asked for, once the dialog was accepted."""
        return list(self._wanted)

    def accept(self) -> None:
        """Close only when every line can be read; else name the first that cannot."""
        try:
            wanted = identifiers.parse_many(self.text_edit.toPlainText())
        except ValueError as exc:
            self.error_label.setText(error_text(exc))
            self.error_label.show()
            return
        if not wanted:
            return
        self._wanted = wanted
        super().accept()

    def _typed(self) -> None:
        self.add_button.setEnabled(bool(self.text_edit.toPlainText().strip()))
        self.error_label.hide()


class AddPanel(QFrame):
    """The window's message area for adding by identifier: what the running job is at,
    with its progress and a Cancel button, then what it did (closed with ×)."""

    cancelRequested = Signal()
    retryRequested = Signal()
    painted = Signal()  # after each paint of the panel

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("addPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self.label = QLabel()
        self.label.setObjectName("addMessage")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # services' words, never markup
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(dpi_size(200, 0).width())
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop looking papers up; nothing is added"))
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.retry_button = QPushButton(tr("Retry"))
        self.retry_button.setToolTip(tr("Look up again the papers no service could be "
                                        "reached for"))
        self.retry_button.clicked.connect(self.retryRequested)
        self.action_button = QPushButton()  # a message's own action (show_message)
        self.action_button.setObjectName("messageAction")
        self.action_button.clicked.connect(self._act)
        self._action: Callable[[], None] | None = None
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(tr("Close this message"))
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        layout.addWidget(self.label, 1)
        for widget in (self.progress, self.cancel_button, self.retry_button,
                       self.action_button, self.close_button):
            layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignTop)
        self.retry_button.hide()
        self.action_button.hide()
        self.hide()

    def text(self) -> str:
        """The message shown."""
        return self.label.text()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        self.painted.emit()

    def show_running(self, text: str, total: int) -> None:
        """A job started: its description, an empty bar and Cancel."""
        self.label.setText(text)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(0)
        self.cancel_button.setEnabled(True)
        for widget in (self.progress, self.cancel_button):
            widget.show()
        self.retry_button.hide()
        self._offer(None)
        self.close_button.hide()
        self.show()

    def show_progress(self, done: int, total: int) -> None:
        """How many papers were looked up; once all were, Cancel is over."""
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        if done >= total:
            self.cancel_button.setEnabled(False)

    def show_cancelling(self) -> None:
        """Cancel was asked for: the lookup under way ends first."""
        self.label.setText(tr("Cancelling…"))
        self.cancel_button.setEnabled(False)

    def show_message(self, text: str, retry: bool = False,
                     action: tuple[str, Callable[[], None]] | None = None) -> None:
        """A finished job's report (or a problem, or a notice), until closed or the next
        job; with `retry`, a Retry button beside it; with an `action` (its button's text,
        what it does), a button that does it once and closes the message."""
        self.label.setText(text)
        self.progress.hide()
        self.cancel_button.hide()
        self.retry_button.setVisible(retry)
        self._offer(action)
        self.close_button.show()
        self.show()

    def _offer(self, action: tuple[str, Callable[[], None]] | None) -> None:
        self._action = action[1] if action is not None else None
        self.action_button.setText(action[0] if action is not None else "")
        self.action_button.setVisible(action is not None)

    def _act(self) -> None:
        action, self._action = self._action, None
        self.hide()
        if action is not None:
            action()


class IdentifierAdder(QObject):
    """Adds papers by identifier for one window: one job at a time, the next one queued,
    the message area kept up to date, and the papers added selected once the table
    shows them."""

    finished = Signal(object)  # AddOutcome, once its report is shown
    notice = Signal(str)  # a one-line message for the status bar

    def __init__(self, ops: Operations, panel: AddPanel, table: PaperTableView,
                 parent: QObject | None = None, settings: HttpSettings | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self._panel = panel
        self._table = table
        self.settings = settings  # the HTTP client's (None: the user's)
        self._job: Job | None = None
        self._starting: list[Identifier] | None = None  # shown, to start once painted
        self._queue: deque[list[Identifier]] = deque()
        self.last_outcome: AddOutcome | None = None
        self._unreached: list[Identifier] = []  # what Retry looks up again
        self._draft = ""  # what the dialog shows when opened (not added last time)
        self._asking: list[Identifier] = []  # what the job under way looks up
        self._typed: dict[Identifier, str] = {}  # the dialog's lines, as typed
        panel.cancelRequested.connect(self.cancel)
        panel.retryRequested.connect(self.retry)
        panel.painted.connect(self._painted)

    @property
    def running(self) -> bool:
        """Whether a job is under way (or about to start)."""
        return self._job is not None or self._starting is not None

    def ask(self, parent: QWidget) -> AddDialog:
        """File > Add by Identifier…: the dialog (window-modal); Add starts the job. It
        shows again what was typed and not added last time (cancelled, or failed to
        be looked up), and says before Add when the lookups would fail offline."""
        dialog = AddDialog(parent, offline=self._offline(), text=self._draft)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._add_typed(dialog))
        dialog.rejected.connect(lambda: self._keep_draft(dialog.text_edit.toPlainText()))
        dialog.open()
        return dialog

    def _keep_draft(self, text: str) -> None:
        self._draft = text

    def _add_typed(self, dialog: AddDialog) -> None:
        """The dialog's identifiers, each line remembered as typed (shown again if it
        is not added)."""
        self._typed = {}
        for line in dialog.text_edit.toPlainText().splitlines():
            with contextlib.suppress(ValueError):
                self._typed.setdefault(identifiers.parse_identifier(line), line.strip())
        self.add(dialog.identifiers())

    def _offline(self) -> bool:
        """Whether the lookups run offline: the window's own settings, else the
        environment's PAPERSHELF_OFFLINE, else the user's network preference."""
        if self.settings is not None and self.settings.offline is not None:
            return bool(self.settings.offline)
        from papershelf.metadata import settings as network

        told = network.offline_from_environment()
        return told if told is not None else network.load_network_preferences().offline

    def add_text(self, text: str) -> bool:
        """Add what a paste or a drop names, if it reads as a list of identifiers or
        titles (else a message says why not); True if a job was started or queued."""
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            return False
        if len(lines) > PASTE_MAX_LINES or any(len(line) > PASTE_MAX_LINE for line in lines):
            self._panel.show_message(tr(
                "That text is not a list of identifiers; use File › Add by Identifier… "
                "to add papers by DOI, arXiv id, link or title."))
            return False
        try:
            wanted = identifiers.parse_many(text)
        except ValueError as exc:
            self._panel.show_message(
                tr("Nothing was added: {reason}").format(reason=error_text(exc)))
            return False
        self.add(wanted)
        return bool(wanted)

    def add(self, wanted: Sequence[Identifier]) -> None:
        """Look the papers up and add them, now or after the job under way."""
        wanted = list(wanted)
        if not wanted:
            return
        if self.running:
            self._queue.append(wanted)
            self.notice.emit(tr("Queued after the papers being looked up"))
            return
        self._panel.show_running(
            tr("Looking up {n} papers…").format(n=len(wanted)) if len(wanted) != 1
            else tr("Looking up {what}…").format(what=wanted[0].value), len(wanted))
        self._starting = wanted
        QTimer.singleShot(START_AFTER_MS, self, self._start)

    def _painted(self) -> None:
        if self._starting is not None:  # (after this paint of the whole window)
            QTimer.singleShot(0, self, self._start)

    def _start(self) -> None:
        wanted, self._starting = self._starting, None
        if wanted is not None:
            self._asking = list(wanted)
            self._job = self._ops.add_identifiers(wanted, self._panel.show_progress,
                                                  self._done, self.settings)

    def cancel(self) -> None:
        """Stop the job under way (nothing of it is added) and forget the queued ones."""
        self._queue.clear()
        if self._starting is not None:  # not started: nothing to stop
            asked, self._starting = len(self._starting), None
            self._done(operations.AddOutcome(asked, cancelled=True))
        elif self._job is not None:
            self._job.cancel()
            self._panel.show_cancelling()

    def retry(self) -> None:
        """Look up again what no service could be reached for last time."""
        wanted, self._unreached = self._unreached, []
        self.add(wanted)

    def _done(self, outcome: AddOutcome) -> None:
        self._job = None
        self.last_outcome = outcome
        self._unreached = outcome.unreached()
        if outcome.cancelled or outcome.unwritten or outcome.error:
            kept = self._asking
        else:
            kept = [item.identifier for item in outcome.looked if item.error is not None]
        self._draft = "\n".join(self._typed.get(identifier, identifier.value)
                                for identifier in kept)
        self._asking = []
        self._panel.show_message(outcome.report(), retry=bool(self._unreached))
        self.notice.emit(outcome.summary())
        if outcome.result is not None:
            self._select(outcome.result.paper_ids, bool(outcome.result.change.structural))
        self.finished.emit(outcome)
        if self._queue:
            self.add(self._queue.popleft())

    def _select(self, ids: list[int], added: bool) -> None:
        """Select the papers in the table: now, or once it has re-read its list."""
        model = self._table.paper_model()

        def select() -> None:
            rows = model.rows_of(ids)
            if rows:
                self._table.select_rows(rows, rows[0])
                self._table.scrollTo(model.index(rows[0], 0))

        if ids and added:
            model.refreshed.connect(select, Qt.ConnectionType.SingleShotConnection)
        elif ids:
            select()
