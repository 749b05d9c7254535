"""File > Backups…: list, back up now, restore (after asking); the damaged-library dialog."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.core import backup
from papershelf.core.library import Library
from papershelf.gui import app
from papershelf.gui.backups import BackupsDialog, RecoveryDialog
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QEvent, QMessageBox
from tests.gui.conftest import wait_idle

# Backups are a library file's (a server's library is backed up with pg_dump).
pytestmark = [pytest.mark.gui, pytest.mark.sqlite_only]


def _library_file(library: Library) -> Path:
    path = backup.library_file(library.url)
    assert path is not None
    return path


def test_back_up_now_and_choose_a_restore(qtbot: QtBot, window: MainWindow,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = window.features.admin.show_backups()
    assert isinstance(dialog, BackupsDialog)
    wait_idle(qtbot, window)
    assert dialog.table.rowCount() == 0
    dialog.back_up_button.click()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10000)
    assert dialog.table.item(0, 1).text() == "made by you"
    assert dialog.table.item(0, 3).text() == "38"
    assert dialog.status.text().startswith("Backed up to ")
    qtbot.waitUntil(lambda: dialog.space.text().startswith("Space the backups take together: "))
    assert "always the last two" in dialog.intro.text()
    qtbot.waitUntil(lambda: dialog.status.text().endswith(" and checked"))  # (full check)
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *_a, **_k: QMessageBox.StandardButton.Yes)
    dialog.restore_button.click()
    (made,) = backup.list_backups(_library_file(window.library))
    # The window closes; the application restores with the library closed, then reopens.
    qtbot.waitUntil(lambda: not window.isVisible())
    assert window.features.admin.restore_requested == made.path


def test_closing_the_backups_list_before_it_is_read_is_harmless(
        qtbot: QtBot, window: MainWindow) -> None:
    """The list is read in the background; closing the dialog at once (it is deleted on
    close) must not make the arriving list touch a deleted table (an error in a slot
    fails the test)."""
    dialog = window.features.admin.show_backups()
    assert isinstance(dialog, BackupsDialog)
    dialog.close()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    wait_idle(qtbot, window)
    assert window.isVisible()


def test_restore_then_reopen(qtbot: QtBot, gui_library: Library) -> None:
    path = _library_file(gui_library)
    saved = backup.make_backup(path)
    gui_library.set_starred(gui_library.view_ids()[:5], True)
    gui_library.close()
    assert app._restore(gui_library.url, saved)
    reopened = Library.open(str(path))
    try:
        assert reopened.counts().starred == 0
    finally:
        reopened.close()


def test_the_damaged_library_dialog_offers_the_newest_sound_backup(
        qtbot: QtBot, gui_library: Library) -> None:
    path = _library_file(gui_library)
    backup.make_backup(path)
    dialog = RecoveryDialog(path, "the library is damaged (test)")
    qtbot.addWidget(dialog)
    assert dialog.newest is not None and dialog.restore_button.isEnabled()
    dialog.restore_button.click()
    assert dialog.choice == "restore"


def test_closing_the_backups_list_while_a_backup_runs_is_harmless(
        qtbot: QtBot, window: MainWindow) -> None:
    """The backup and its full check go on in the background; their results, arriving
    after the dialog was closed (and deleted), are dropped, and the backup is made."""
    dialog = window.features.admin.show_backups()
    assert isinstance(dialog, BackupsDialog)
    wait_idle(qtbot, window)
    dialog.back_up_button.click()
    dialog.close()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qtbot.waitUntil(lambda: len(backup.list_backups(_library_file(window.library))) == 1)
    wait_idle(qtbot, window)
    assert window.isVisible()


def test_back_up_now_right_after_an_edit_holds_the_edit(
        qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stars just given in the window wait in the write-ahead log when Back Up Now is
    clicked: the backup holds them (and the library file was read through SQLite alone:
    tests/sqlite_guard.py)."""
    path = _library_file(window.library)
    ids = window.library.view_ids()[:5]
    window.ops.set_starred(ids, True)
    wait_idle(qtbot, window)
    assert not backup.closed_cleanly(path)  # (the stars are in the log, not the file)
    dialog = window.features.admin.show_backups()
    assert isinstance(dialog, BackupsDialog)
    wait_idle(qtbot, window)
    dialog.back_up_button.click()
    qtbot.waitUntil(lambda: dialog.status.text().endswith(" and checked"), timeout=10000)
    (made,) = backup.list_backups(path)
    with contextlib.closing(sqlite3.connect(made.path)) as conn:
        starred = {r[0] for r in conn.execute("SELECT paper_id FROM personal WHERE starred")}
    assert starred == set(ids)
