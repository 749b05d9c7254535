"""A real window driven at random, for tests/test_crash.py's stress test:
`python -m tests.crash.stress LIBRARY SETTINGS SEED`.

It acts as a quick user would, through the window's own keys and dialogs: star a few
papers or all of them (S), cycle read states (R), undo and redo (Ctrl+Z, Ctrl+Shift+Z),
type notes, change the interface language in Preferences. Several actions may be asked
before the earlier ones have landed. For each it prints `asked N` when it is asked and,
once everything asked so far has landed, `shown N STATE`, then waits for a line on
stdin before the next burst: the window's own view of each
paper (starred, read state, notes, from its table and detail pane) and the undo stack's
position, as JSON. The test kills it at a random moment and compares with a fresh reader.
"""

from __future__ import annotations

import json
import os
import random
import sys

from PySide6.QtCore import QSocketNotifier
from PySide6.QtTest import QTest

from papershelf.core.library import Library
from papershelf.gui.main_window import MainWindow
from papershelf.gui.preferences import PreferencesDialog
from papershelf.gui.qt import QApplication, QSettings, Qt, QTimer
from papershelf.gui.settings import Settings
from papershelf.gui.termination import Termination, close_windows

ACTIONS = ("star_some", "star_all", "read_some", "undo", "undo", "redo", "notes",
           "language")
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def window_state(window: MainWindow) -> dict[str, object]:
    """What the window shows: each paper's star, read state and notes (as its table's
    rows and its library connection read them), and the undo stack's position."""
    model = window.model
    model.invalidate(model.ids)  # (what a repaint would fetch now)
    rows = [model.row_at(r) for r in range(model.rowCount())]
    details = window.library.details([row.id for row in rows if row is not None])
    notes = {d.id: d.record.notes for d in details}
    return {
        "papers": {str(row.id): [row.starred, row.read_state, notes.get(row.id, "")]
                   for row in rows if row is not None},
        "undo_index": window.ops.undo_stack.index(),
    }


def main() -> None:
    app = QApplication(sys.argv[:1])
    library = Library.open(sys.argv[1])
    settings = Settings(QSettings(sys.argv[2], QSettings.Format.IniFormat))
    rnd = random.Random(int(sys.argv[3]))
    window = MainWindow(library, settings)
    window.show()
    table = window.table
    asked = 0

    def burst() -> None:
        if window.model.rowCount() == 0 or not window.model.complete:
            QTimer.singleShot(20, burst)
            return
        for _ in range(rnd.randint(1, 4)):  # a quick user: keys before the last landed
            act()
        number = asked
        window.ops.when_settled(lambda: show(number))

    def act() -> None:
        nonlocal asked
        table.setFocus()
        action = rnd.choice(ACTIONS)
        asked += 1
        print(f"asked {asked} {action}", flush=True)
        rows = window.model.rowCount()
        if action in ("star_some", "read_some", "notes"):
            picked = sorted(rnd.sample(range(rows), min(rows, rnd.randint(1, 5))))
            table.select_rows(picked, picked[0])
            if action == "notes":
                editor = window.detail.notes_edit
                editor.setFocus()
                QTest.keyClicks(editor, f" note{asked}")
                window.detail.flush()  # (as leaving the box does)
                table.setFocus()
            else:
                QTest.keyClick(table, Qt.Key.Key_S if action == "star_some" else Qt.Key.Key_R)
        elif action == "star_all":
            table.select_whole_view()
            QTest.keyClick(table, Qt.Key.Key_S)
        elif action == "undo":
            QTest.keyClick(table, Qt.Key.Key_Z, CTRL)
        elif action == "redo":
            QTest.keyClick(table, Qt.Key.Key_Z, CTRL | SHIFT)
        else:  # the interface language, in Preferences
            window.actions["preferences"].trigger()
            dialog = window.findChild(PreferencesDialog)
            assert dialog is not None
            combo = dialog.language_combo
            combo.setCurrentIndex((combo.currentIndex() + 1) % combo.count())
            dialog.accept()
            dialog.deleteLater()

    def show(number: int) -> None:
        print(f"shown {number} {json.dumps(window_state(window))}", flush=True)
        # The test compares, or kills, now; a line on stdin asks for the next burst.

    def go_on() -> None:
        if os.read(sys.stdin.fileno(), 4096):
            QTimer.singleShot(0, burst)
        else:
            notifier.setEnabled(False)  # (stdin closed: no more bursts)

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(go_on)

    termination = Termination(close_windows)  # (as the app's own window has)
    QTimer.singleShot(0, burst)
    status = app.exec()
    termination.remove()
    # A clean end (SIGTERM): what the window showed last, once it had closed.
    print(f"final {asked} {json.dumps(window_state(window))}", flush=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
