"""The window among several programs, for the many-programs harness (tests/stress):
`python -m tests.stress.window LIBRARY SETTINGS SEED KEY,KEY,...`.

A real window (offscreen) started as the app starts it (its daily backup in the
background), working only on the papers named (its own: no other program writes them)
through its own actions and widgets: Star / Unstar (S), Cycle Read State (R),
notes are typed into the detail pane's notes box, a title is typed into the fields editor
(E) and sent with Enter; now and then File > Backups > Back Up Now. A burst of one to
three such steps is asked at once (a quick user); each step prints
`asked N KIND KEY VALUE` as it is asked. Once the window's operations have finished
every step asked so far, and its own library connection shows each value, it prints
`ack N` (every step up to N acknowledged), or `nack N REASON` when one failed; then the
next burst. It runs until it is killed.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

from PySide6.QtTest import QTest

from papershelf.core.library import Library
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QApplication, QSettings, Qt, QTimer
from papershelf.gui.settings import Settings

READ_CYCLE = {"unread": "reading", "reading": "read", "read": "unread"}  # (R)
STEPS = ("star", "star", "read", "read", "note", "note", "title", "backup")
CTRL = Qt.KeyboardModifier.ControlModifier


def say(line: str) -> None:
    print(line, flush=True)


def main() -> None:
    app = QApplication(sys.argv[:1])
    library = Library.open(sys.argv[1])
    settings = Settings(QSettings(sys.argv[2], QSettings.Format.IniFormat))
    rnd = random.Random(int(sys.argv[3]))
    keys = sys.argv[4].split(",")
    window = MainWindow(library, settings)
    window.show()
    QTimer.singleShot(0, window, window.features.admin.start_daily_backup)  # (as the app does)
    table = window.table
    details = {d.key: d for d in library.details(library.ids_for_keys(keys)[0])}
    ids = {key: details[key].id for key in keys}
    # What this window last asked of each paper (nobody else writes them).
    starred = {key: bool(details[key].starred) for key in keys}
    state = {key: details[key].read_state for key in keys}
    asked = 0
    burst: list[tuple[str, str, str]] = []  # this burst's writes: kind, key, value
    failures: list[str] = []
    window.ops.failed.connect(failures.append)

    def shown(key: str, then: Callable[[], None]) -> None:
        """Select the paper's row and call `then` once the detail pane shows it."""
        pid = ids[key]
        row = window.model.row_of(pid)
        if not window.model.complete or row is None:
            QTimer.singleShot(20, lambda: shown(key, then))
            return
        if window.detail.current_id() != pid:
            table.setFocus()
            table.select_rows([row], row)
        detail = getattr(window.detail, "_detail", None)
        if window.detail.current_id() != pid or detail is None or detail.id != pid:
            QTimer.singleShot(20, lambda: shown(key, then))
            return
        then()

    def ask(kind: str, key: str, value: str) -> None:
        nonlocal asked
        asked += 1
        burst.append((kind, key, value))
        say(f"asked {asked} {kind} {key} {value}")

    def step(left: int) -> None:
        if left == 0:
            number = asked
            window.ops.when_settled(lambda: settled(number))
            return
        kind = rnd.choice(STEPS)
        key = rnd.choice(keys)

        def go_on() -> None:
            step(left - 1)

        if kind == "backup":  # File > Backups, Back Up Now (then closed: the job goes on)
            dialog = window.features.admin.show_backups()
            assert dialog is not None
            dialog.back_up_button.click()
            dialog.reject()
            say("backup")
            go_on()
            return

        def act() -> None:
            table.setFocus()
            if kind == "star":
                starred[key] = not starred[key]
                ask("star", key, str(int(starred[key])))
                window.actions["toggle_star"].trigger()  # (S, the toolbar's Star)
            elif kind == "read":
                state[key] = READ_CYCLE[state[key]]
                ask("read", key, state[key])
                window.actions["cycle_read"].trigger()  # (R)
            elif kind == "note":
                token = f"wn{asked + 1}x{rnd.randrange(10**6)}"
                ask("note", key, token)
                editor = window.detail.notes_edit
                editor.setFocus()
                QTest.keyClick(editor, Qt.Key.Key_End, CTRL)
                QTest.keyClicks(editor, f" {token}")
                window.detail.flush()  # (as leaving the box does)
                table.setFocus()
            else:
                title = f"Window title {asked + 1}x{rnd.randrange(10**6)}"
                ask("title", key, title)
                window.actions["edit_fields"].trigger()  # (E)
                fields = window.detail.fields_editor
                assert fields is not None
                field = fields.editor("title")
                assert field is not None
                field.setFocus()
                QTest.keyClick(field, Qt.Key.Key_A, CTRL)
                QTest.keyClicks(field, title)
                QTest.keyClick(field, Qt.Key.Key_Return)
                window.detail.tabs.setCurrentIndex(0)
                table.setFocus()
            go_on()

        shown(key, act)

    def settled(number: int) -> None:
        """Every step up to `number` has finished: acknowledged if each is shown."""
        done = list(burst)
        burst.clear()
        last = {(kind, key): value for kind, key, value in done if kind != "note"}
        wrong = [f"{kind} {key}" for kind, key, value in done
                 if (kind, key) not in last or last[kind, key] == value
                 if not seen(kind, key, value)]
        failed = list(failures)
        failures.clear()
        if failed:
            say(f"nack {number} {failed[0]!r}")
        else:
            say(f"nack {number} not shown: {wrong}" if wrong else f"ack {number}")
        if failed or wrong:
            # A step failed (the library busy): the star and read state it would have
            # moved on are read again, so that the next S and R are asked rightly.
            for detail in library.details(list(ids.values())):
                starred[detail.key] = bool(detail.starred)
                state[detail.key] = detail.read_state
        QTimer.singleShot(rnd.randint(0, 100), lambda: step(rnd.randint(1, 3)))

    def seen(kind: str, key: str, value: str) -> bool:
        """Whether the window's own connection reads the value asked of the paper."""
        (detail,) = library.details([ids[key]])
        if kind == "star":
            return str(int(detail.starred)) == value
        if kind == "read":
            return detail.read_state == value
        if kind == "note":
            return value in detail.record.notes
        return detail.record.title == value

    def start() -> None:
        if not window.model.complete or window.model.rowCount() == 0:
            QTimer.singleShot(20, start)
            return
        say("ready")
        step(rnd.randint(1, 3))

    QTimer.singleShot(0, start)
    app.exec()


if __name__ == "__main__":
    main()
