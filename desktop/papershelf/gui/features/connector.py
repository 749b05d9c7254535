"""The window's Zotero Connector server: on while the preference is on and the window
open, its writes through the window's operations.

The server (core.connector) answers each request in a thread of its own. A write is
handed to the GUI thread by a queued signal, where `Operations.perform` runs it in the
write worker like any edit of the window (one undo step, the table refreshed by the
change it announces); the request's thread waits for it to land. No widget is touched
from the server's threads. A port in use (Zotero is running) is one line in the status
bar; the window works on as before.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.errors import UserError
from papershelf.gui import settings as S
from papershelf.gui.qt import Qt, Signal, Translator
from papershelf.gui.shell import Feature, Shell

if TYPE_CHECKING:
    from papershelf.core import connector, receiving
    from papershelf.core.edits import Change
    from papershelf.core.receiving import Write
else:
    connector = lazy.module("papershelf.core.connector")
    receiving = lazy.module("papershelf.core.receiving")

tr = Translator("Connector")
log = logging.getLogger(__name__)

PORT: int | None = None  # None: core.connector.DEFAULT_PORT (tests listen on any: 0)
WAIT_SECONDS = 300.0  # a request's thread waits this long for its write to land


@dataclass
class _Pending:
    """One write a request's thread waits for."""

    write: Write
    done: threading.Event = field(default_factory=threading.Event)
    change: Change | None = None
    error: BaseException | None = None

    def finish(self, change: Change | None = None, error: BaseException | None = None
               ) -> None:
        if not self.done.is_set():
            self.change, self.error = change, error
            self.done.set()


class WindowConnector(Feature):
    """Starts and stops the Connector's server for one window."""

    _asked = Signal(object)  # a _Pending, from a request's thread

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.server: connector.ConnectorServer | None = None
        self._closed = False
        self._asked.connect(self._perform, Qt.ConnectionType.QueuedConnection)

    def attach(self) -> None:
        # The browser's Zotero Connector saves here while the preference is on.
        self.settings_changed()

    def settings_changed(self) -> None:
        self.enable(self.shell.settings.get(S.ZOTERO_CONNECTOR))

    @property
    def running(self) -> bool:
        """Whether the server listens."""
        return self.server is not None

    def enable(self, on: bool) -> None:
        """Run the server (`on`) or stop it; a port in use is said in the status bar."""
        if not on:
            self.stop()
            return
        if self.server is not None or self._closed:
            return
        port = connector.DEFAULT_PORT if PORT is None else PORT
        server = connector.ConnectorServer(receiving.Receiver(self.shell.library, self._run),
                                           port)
        try:
            server.start()
        except connector.PortInUse as exc:
            log.warning("%s", exc)
            self.shell.statusBar().showMessage(tr(
                "The Zotero Connector cannot reach Papershelf: port {port} is in use "
                "(is Zotero running?)").format(port=port), 15000)
            return
        self.server = server

    def stop(self) -> None:
        """Stop listening (the window is closing, or the preference is off)."""
        server, self.server = self.server, None
        if server is not None:
            server.stop()

    def close(self) -> None:
        """The window closes: no more requests; the writes asked for still land."""
        self._closed = True
        self.stop()

    # -- writes, from a request's thread to the operations ------------------------------

    def _run(self, write: Write) -> Change:
        """The Receiver's Runner (on a request's thread)."""
        if self._closed:
            raise UserError("the window is closing")
        pending = _Pending(write)
        self._asked.emit(pending)
        if not pending.done.wait(WAIT_SECONDS):
            raise UserError("the window did not save it in time")
        if pending.error is not None:
            if isinstance(pending.error, UserError):
                raise pending.error
            raise UserError(str(pending.error) or type(pending.error).__name__)
        assert pending.change is not None
        return pending.change

    def _perform(self, pending: _Pending) -> None:
        """In the GUI thread: the write as one of the window's operations."""
        library = self.shell.library

        def write() -> Change:
            try:
                return pending.write(library)
            except BaseException as exc:
                pending.finish(error=exc)
                raise

        self.shell.ops.perform(
            write, 1, on_done=lambda change: pending.finish(change),
            on_failed=lambda: pending.finish(error=UserError("the save failed")))
