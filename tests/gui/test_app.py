"""Starting the window: what the user sees when Qt or the library cannot be used, the
crash handler, and bulk changes going through the worker."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from papershelf.__main__ import main
from papershelf.core.library import View
from papershelf.gui import app, write_queue
from papershelf.gui.main_window import MainWindow
from papershelf.gui.qt import QMessageBox, Qt
from tests.gui.conftest import wait_idle


def test_no_display_is_one_line_with_the_fix() -> None:
    problem = app.display_problem({}, "linux", lambda name: "lib.so")
    assert problem is not None and "DISPLAY" in problem and "\n" not in problem


def test_missing_xcb_cursor_names_the_package() -> None:
    def find(name: str) -> str | None:
        return None if name == "xcb-cursor" else f"lib{name}.so"

    problem = app.display_problem({"DISPLAY": ":0"}, "linux", find)
    assert problem is not None and "sudo apt install libxcb-cursor0`" in problem


def test_display_checks_only_apply_to_xcb() -> None:
    missing = lambda name: None  # noqa: E731
    assert app.display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", missing) is None
    assert app.display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", missing) is None
    assert app.display_problem({}, "win32", missing) is None
    assert app.display_problem({"DISPLAY": ":0"}, "linux", lambda n: "x.so") is None


def test_unusable_library_is_one_line_and_exit_1(tmp_path: Path, qapp: object,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["--screenshot", str(tmp_path / "x.png"), "--library", str(tmp_path)])
    assert status == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a folder" in err
    assert not (tmp_path / "x.png").exists()


def test_a_missing_library_named_explicitly_is_made_only_if_the_user_says_so(
        qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    answers = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes]

    def question(parent: object, title: str, text: str, *rest: object) -> object:
        asked.append(text)
        return answers.pop(0) if answers else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    typo = tmp_path / "libary.sqlite"
    assert app._open_library(str(typo), quiet=False) is None  # the user says no
    assert len(asked) == 1 and str(typo) in asked[0] and not typo.exists()
    library = app._open_library(str(typo), quiet=False)  # ... and then yes
    assert library is not None and library.count(View()) == 38
    library.close()
    assert len(asked) == 2 and typo.exists()
    again = app._open_library(str(typo), quiet=False)  # (it exists now: no question)
    assert again is not None
    again.close()
    monkeypatch.setenv("PAPERSHELF_LIBRARY", str(tmp_path / "env.sqlite"))
    assert app._open_library(None, quiet=False) is None  # (no answer left: a no)
    monkeypatch.delenv("PAPERSHELF_LIBRARY")
    first = app._open_library(None, quiet=False)  # the default library's first start
    assert first is not None and first.count(View()) == 38
    first.close()
    assert len(asked) == 3


def test_crash_handler_logs_and_says_so(qapp: object, isolated_home: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical",
                        staticmethod(lambda parent, title, text: shown.append(text)))
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        app.handle_exception(RuntimeError, exc, exc.__traceback__)
    assert len(shown) == 1 and "Something went wrong" in shown[0]
    log = Path(shown[0].split("saved to ")[1].rstrip("."))
    assert "RuntimeError: boom" in log.read_text(encoding="utf-8")
    assert "internal error" in capsys.readouterr().err


def test_bulk_star_runs_in_the_worker(window: MainWindow, qtbot: QtBot,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(write_queue, "BULK", 10)  # (the queue holds bulk writes)
    window.table.selectAll()
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    assert window.ops.busy  # running in the worker, the table's updates held
    assert not window.table.updatesEnabled()
    qtbot.waitUntil(lambda: not window.ops.busy)
    assert window.table.updatesEnabled()
    assert window.library.count(View(filter="starred")) == 38
    assert window.ops.undo_stack.count() == 1
    window.undo()
    wait_idle(qtbot, window)  # undo runs in the worker too
    assert window.library.count(View(filter="starred")) == 0
