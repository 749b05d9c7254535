"""Modules imported when first used: the window paints its first rows before the core,
SQLAlchemy and the dialogs are imported (see core.firstpage), then imports them.

    dialogs = lazy.module("papershelf.gui.dialogs")

binds a module object whose code runs on its first attribute access (importlib's
LazyLoader); a module already imported is handed out as it is. `load(*modules)` runs
them now: the window does so on the GUI thread right after its first paint, so no
worker thread is ever the first to touch one (LazyLoader is not safe for that before
Python 3.12).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def module(name: str) -> ModuleType:
    """The module `name`, its code run when an attribute is first read."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    lazy = importlib.util.module_from_spec(spec)
    sys.modules[name] = lazy
    loader.exec_module(lazy)
    parent, _, child = name.rpartition(".")
    if parent:  # (as an import binds it: `papershelf.gui.dialogs` is an attribute too)
        setattr(sys.modules[parent], child, lazy)
    return lazy


def load(*modules: ModuleType) -> None:
    """Run the code of lazy modules now (any attribute read does)."""
    for lazy in modules:
        getattr(lazy, "__name__", None)  # (the read that runs it)
