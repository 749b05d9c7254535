"""A shared library's PDFs in the window (issue 43): a PDF alice attaches goes to the
library by itself, in the background; bob, who does not have it, presses Enter on the
paper and reads it in a tab, from his own cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core.library import Library
from papershelf.gui.qt import Qt
from papershelf.gui.reader.pages import pdfium_queue
from papershelf.gui.reader.tab import ReaderTab
from tests.conftest import SEEDS
from tests.gui.conftest import WindowFactory, wait_idle
from tests.pdfs import make_paper
from tests.postgres_server import SharedLibrary

pytestmark = [pytest.mark.gui]


def test_bob_reads_in_a_tab_the_pdf_alice_attached_in_her_window(
        pg_lab: SharedLibrary, qtbot: QtBot, windows: WindowFactory, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def computer(name: str) -> None:
        for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
            monkeypatch.setenv(var, str(tmp_path / name / var.lower()))

    computer("alice")
    alice = Library.open(pg_lab.alice)
    bob = Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(SEEDS)
        pdf = make_paper(tmp_path / "in")
        window = windows.open(alice)
        pid = window.model.id_at(0)
        assert pid is not None
        uploaded: list[object] = []
        window.ops.filesUploaded.connect(lambda outcome: uploaded.append(outcome))
        window.ops.attach_files(pid, [str(pdf)])
        qtbot.waitUntil(lambda: bool(uploaded), timeout=20000)
        assert uploaded == [(1, [])]
        assert "every member can open" in window.statusBar().currentMessage()
        windows.close(window)

        computer("bob")
        window = windows.open(bob)
        row = next(r for r in range(window.model.rowCount()) if window.model.id_at(r) == pid)
        window.table.go_to_row(row)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)
        window.table.setFocus()
        assert bob.local_pdf(pid) is None
        qtbot.keyClick(window.table, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), ReaderTab),
                        timeout=20000)
        tab = window.tabs.currentWidget()
        assert isinstance(tab, ReaderTab) and tab.paper_id == pid
        assert tab.path.read_bytes() == pdf.read_bytes()
        assert str(tab.path).startswith(str(tmp_path / "bob"))
        wait_idle(qtbot, window)
        assert pdfium_queue().wait(10_000)
        windows.close(window)
    finally:
        alice.close()
        bob.close()
