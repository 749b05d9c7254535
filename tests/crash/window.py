"""A real window for tests/test_crash.py:
`python -m tests.crash.window LIBRARY SETTINGS [notes|year]`.

Opens the window on the library (offscreen), selects the first paper, types into its
notes editor as a user would (or, with `year`, presses E and types YEAR into its year
field, then Enter), prints `typed KEY` and goes on running until it is killed.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from papershelf.core.library import Library
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QSettings, QTimer
from papershelf.gui.settings import Settings

TYPED = "Typed one second before the crash."
YEAR = "1999"


def main() -> None:
    app = QApplication(sys.argv[:1])
    library = Library.open(sys.argv[1])
    settings = Settings(QSettings(sys.argv[2], QSettings.Format.IniFormat))
    window = MainWindow(library, settings)
    window.show()

    def type_notes() -> None:
        if window.detail.current_id() is None:
            window.table.selectRow(0)
            QTimer.singleShot(50, type_notes)
            return
        paper = library.paper(window.detail.current_id() or 0)
        assert paper is not None
        if sys.argv[3:] == ["year"]:
            window.actions["edit_fields"].trigger()  # (E; offscreen, no window is active)
            fields = window.detail.fields_editor
            assert fields is not None
            year = fields.editor("year")
            assert year is not None
            year.setFocus()
            QTest.keyClick(year, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClicks(year, YEAR)
            QTest.keyClick(year, Qt.Key.Key_Return)
        else:
            editor = window.detail.notes_edit
            editor.setFocus()
            QTest.keyClicks(editor, TYPED)
        print(f"typed {paper.key}", flush=True)

    QTimer.singleShot(0, type_notes)
    app.exec()


if __name__ == "__main__":
    main()
