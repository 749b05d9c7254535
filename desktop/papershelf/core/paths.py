"""Where Papershelf keeps and finds things: the default library, the data it carries."""

from __future__ import annotations

import os
from importlib import resources
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


def package_data(name: str) -> Path | None:
    """A folder of the data the package carries (papershelf/data/NAME: seeds, icons,
    translations, linux), or None when it is missing.

    Found with importlib.resources, the same way in a checkout (staged there by
    `make install`), an installed wheel or sdist, and a PyInstaller bundle; the
    sources are the top-level seeds/, resources/ and packaging/linux/, staged by
    packaging/papershelf_build.py.
    """
    folder = resources.files("papershelf") / "data" / name
    if isinstance(folder, Path) and folder.is_dir():
        return folder
    return None


def seeds_dir() -> Path | None:
    """The folder of sample abstract lists imported on a first start."""
    override = os.environ.get(SEEDS_ENV)
    if override is not None:
        return Path(override) if override else None
    return package_data("seeds")
