"""Qt's floor for figure 1: a bare PySide6 window with a table, measured as the probe
measures Papershelf's (tests/bench/probe.py, `startup`).

    python -m tests.bench.bare [--rows 38]

A QMainWindow at 1280x800 whose central widget is a QTableView on a
QStandardItemModel of ROWS rows and the table's 7 columns of text; nothing of
Papershelf is imported. "Painted" means what it means in the probe: a paint event of
the table's viewport handled (timed in a zero-timer queued by an event filter) while
the model has rows. Prints one JSON object ({"first_paint_wall": time.time(), ...})
and exits.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

PROCESS_START = time.time()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bare")
    parser.add_argument("--rows", type=int, default=38)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtGui import QStandardItem, QStandardItemModel
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableView

    app = QApplication(sys.argv[:1])
    model = QStandardItemModel(0, 7)
    model.setHorizontalHeaderLabels(["★", "Read", "Title", "Authors", "Venue", "Year", "Key"])
    for n in range(args.rows):
        model.appendRow([QStandardItem(text) for text in (
            "", "unread", f"A paper title number {n}", "Ada Lovelace, Charles Babbage",
            "ICML", "2024", f"paper{n}")])
    window = QMainWindow()
    table = QTableView()
    table.setModel(model)
    window.setCentralWidget(table)
    window.resize(1280, 800)
    painted: list[float] = []

    def handled() -> None:
        if not painted and model.rowCount():
            painted.append(time.time())
            app.quit()

    class Filter(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                QTimer.singleShot(0, handled)
            return False

    watcher = Filter()
    table.viewport().installEventFilter(watcher)
    window.show()
    QTimer.singleShot(60_000, app.quit)  # (a hang ends with no result)
    app.exec()
    if not painted:
        return 1
    sys.stdout.write(json.dumps({"process_start": PROCESS_START,
                                 "first_paint_wall": painted[0],
                                 "rows": model.rowCount()}) + "\n")
    sys.stdout.flush()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
