"""The package's shape (issue 42): file sizes and import circles.

``python -m tests.layout`` prints every module over the line limit and every import
circle among the package's modules, counting every import: top level, type-only
(``if TYPE_CHECKING``) and inside functions. ``tests/test_layout.py`` keeps both empty.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "desktop" / "papershelf"
LINE_LIMIT = 700


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules `name` imports, wherever in the file the import is."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = _package_of(name, path)
    found: set[str] = set()

    def add(target: str) -> None:
        # "a.b.c" imports a.b.c, whose import runs a/__init__ and a/b/__init__ too; a
        # package's __init__ counts only when it is the target itself.
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("papershelf"):
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            if not module.startswith("papershelf"):
                continue
            for alias in node.names:
                full = f"{module}.{alias.name}"
                add(full if full in known else module)
    return found


def graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def circles(edges: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    edges = graph() if edges is None else edges
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    limit = sys.getrecursionlimit()  # (put back after: other tests rely on Python's own)
    sys.setrecursionlimit(max(10000, limit))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def too_long(limit: int = LINE_LIMIT) -> dict[str, int]:
    long = {}
    for name, path in _modules().items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            long[name] = lines
    return long


def main() -> int:
    long = too_long()
    for name, lines in sorted(long.items(), key=lambda kv: -kv[1]):
        print(f"{lines:5d} lines  {name}")
    found = circles()
    for component in found:
        print("circle:", " ⇄ ".join(component))
    if not long and not found:
        print(f"no module over {LINE_LIMIT} lines, no import circle")
    return 1 if long or found else 0


if __name__ == "__main__":
    raise SystemExit(main())
