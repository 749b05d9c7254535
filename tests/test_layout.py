"""The package keeps the shape the README's "Where things go" gives it (issue 42): no
module over 700 lines, no import circle (every import counted: top level, type-only and
inside functions), and only the module that starts the app imports the main window."""

from __future__ import annotations

from tests import layout


def test_no_module_is_over_the_line_limit() -> None:
    assert layout.too_long() == {}


def test_no_import_circle() -> None:
    assert layout.circles() == []


def test_the_circle_finder_finds_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert layout.circles(edges) == [["a", "b", "c"]]


def test_only_the_app_imports_the_main_window() -> None:
    importers = sorted(name for name, imported in layout.graph().items()
                       if "papershelf.gui.main_window" in imported)
    assert importers == ["papershelf.gui.app"]


def test_the_core_imports_no_qt() -> None:
    """The core, the formats, metadata, reading and the command line never import Qt
    nor the window (wherever in a module the import is)."""
    import ast

    below = ("core", "formats", "metadata", "reading", "cli")
    for name, imported in layout.graph().items():
        if name.split(".")[1:2] and name.split(".")[1] in below:
            assert not [m for m in imported if m.startswith("papershelf.gui")], name
    for folder in below:
        for path in (layout.PACKAGE / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            modules = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                       for alias in node.names]
            modules += [node.module or "" for node in ast.walk(tree)
                        if isinstance(node, ast.ImportFrom)]
            assert not [m for m in modules if m.startswith(("PySide6", "shiboken"))], path
