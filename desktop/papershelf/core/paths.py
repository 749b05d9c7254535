"""Where Papershelf keeps and finds things: the default library, the sample seeds."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "Papershelf"
LIBRARY_ENV = "PAPERSHELF_LIBRARY"
SEEDS_ENV = "PAPERSHELF_SEEDS"


def data_dir() -> Path:
    """The user's data directory for Papershelf (e.g. ~/.local/share/Papershelf)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_library_path() -> Path:
    """`library.sqlite` in the user's data directory."""
    return data_dir() / "library.sqlite"


def _bundle_root() -> Path | None:
    """The unpacked bundle's folder when running from a PyInstaller build."""
    root = getattr(sys, "_MEIPASS", None)
    return Path(root) if root else None


def project_dir(name: str) -> Path | None:
    """A top-level project folder (seeds, resources) in a checkout or a bundle."""
    candidates = []
    bundle = _bundle_root()
    if bundle is not None:
        candidates.append(bundle / name)
    # desktop/papershelf/core/paths.py -> the checkout's top level
    candidates.append(Path(__file__).resolve().parents[3] / name)
    candidates.append(Path(sys.prefix) / "share" / "papershelf" / name)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


def seeds_dir() -> Path | None:
    """The folder of sample abstract lists imported on a first start."""
    override = os.environ.get(SEEDS_ENV)
    if override is not None:
        return Path(override) if override else None
    return project_dir("seeds")
