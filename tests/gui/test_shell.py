"""The window as a shell (issue 42): each action is handled by the window or by one
feature, and no GUI module but the one that starts the application imports the
window (the features use gui.shell)."""

from __future__ import annotations

import ast

from papershelf.gui.main_window import MainWindow
from papershelf.gui.shell import Feature
from tests.conftest import ROOT

GUI = ROOT / "desktop" / "papershelf" / "gui"


def test_every_action_has_one_handler(window: MainWindow) -> None:
    assert set(window.handlers()) == set(window.actions.specs)
    assert all(isinstance(feature, Feature) for feature in window.features)
    assert window.feature_list() == list(window.features)


def test_only_the_application_imports_the_window() -> None:
    importers = []
    for path in sorted(GUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [alias.name for alias in node.names]
                     if isinstance(node, ast.Import) else [])
            if any(name.endswith("main_window") for name in names) or (
                    isinstance(node, ast.ImportFrom) and any(
                        alias.name == "main_window" for alias in node.names)):
                importers.append(path.relative_to(GUI).as_posix())
    assert sorted(set(importers)) == ["app.py"]
