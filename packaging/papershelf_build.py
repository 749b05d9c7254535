"""Papershelf's build backend: setuptools, plus the data the package carries at run time.

pyproject.toml names this module as the build backend (`backend-path = ["packaging"]`).
It is setuptools' own backend with two additions:

- `build_py` stages `papershelf/data/` from the top-level sources listed in `STAGED`
  (the sample seeds, the icons, the launcher and metainfo) and compiles the
  translations (`resources/translations/*.ts`) into `.qm` files there, with
  pyside6-lrelease. A wheel gets the folder in its build tree; an editable install
  (`make install`, `pip install -e .`) gets it in the checkout, where it is not
  committed (.gitignore). The code finds it with importlib.resources either way.
- `sdist` adds those sources (and this file) to the source archive, so a wheel
  built from the sdist carries the same data.

PySide6 (for lrelease) is a requirement of building a wheel or an editable install,
not of building the sdist.

    python packaging/papershelf_build.py FOLDER   # stage the data into FOLDER by hand
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F403  (the PEP 517/660 hooks)
from setuptools.command.build_py import build_py as _build_py
from setuptools.command.sdist import sdist as _sdist

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "papershelf"
DATA = "data"  # papershelf/data, what `papershelf.core.paths.package_data` reads

# Folder in papershelf/data: (source folder in the project, file patterns). Data only.
STAGED = {
    "seeds": ("seeds", ("*.txt",)),
    "icons": ("resources/icons", ("*.svg", "*.png")),
    "linux": ("packaging/linux", ("*.desktop", "*.metainfo.xml")),
}
# The translations' sources, compiled into papershelf/data/translations.
TRANSLATIONS = "resources/translations"
QT_REQUIREMENT = "PySide6-Essentials>=6.6,!=6.12.0"  # as in pyproject.toml's dependencies


def sources(root: Path = ROOT) -> list[Path]:
    """Every source file the staged data is made of (what an sdist must carry)."""
    found = [p for folder, patterns in STAGED.values() for pattern in patterns
             for p in sorted((root / folder).glob(pattern))]
    return found + sorted((root / TRANSLATIONS).glob("*.ts"))


def compile_translation(ts: Path, qm: Path) -> None:
    """One .ts into its .qm with PySide6's lrelease (a failure stops the build)."""
    script = ("import sys; from PySide6.scripts.pyside_tool import lrelease; "
              "sys.argv[0] = 'pyside6-lrelease'; lrelease()")
    result = subprocess.run([sys.executable, "-c", script, "-silent", str(ts), "-qm", str(qm)],
                            capture_output=True, text=True)
    if result.returncode != 0 or not qm.is_file():
        raise RuntimeError(f"pyside6-lrelease {ts} failed:\n{result.stdout}{result.stderr}")


def stage(target: Path, root: Path = ROOT) -> list[Path]:
    """Make `target` (papershelf/data) afresh from the sources; returns the files written."""
    if target.exists():
        shutil.rmtree(target)
    written = []
    for name, (folder, patterns) in STAGED.items():
        found = [p for pattern in patterns for p in sorted((root / folder).glob(pattern))]
        if not found:
            raise RuntimeError(f"{root / folder}: no {' or '.join(patterns)} to package")
        (target / name).mkdir(parents=True)
        for source in found:
            written.append(Path(shutil.copyfile(source, target / name / source.name)))
    translations = sorted((root / TRANSLATIONS).glob("*.ts"))
    if not translations:
        raise RuntimeError(f"{root / TRANSLATIONS}: no .ts files to compile")
    (target / "translations").mkdir(parents=True)
    for ts in translations:
        qm = target / "translations" / ts.with_suffix(".qm").name
        compile_translation(ts, qm)
        written.append(qm)
    return written


class build_py(_build_py):
    """setuptools' build_py, then papershelf/data staged beside the modules."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # the checkout itself is the package
            target = ROOT / "desktop" / PACKAGE / DATA
        else:
            target = Path(self.build_lib) / PACKAGE / DATA
        self._staged = [str(p) for p in stage(target)]

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *getattr(self, "_staged", [])]


class sdist(_sdist):
    """setuptools' sdist, plus the data's sources and this backend."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        extra = [str(p.relative_to(ROOT)) for p in [*sources(), Path(__file__).resolve()]]
        super().make_release_tree(base_dir, sorted(set(files) | set(extra)))


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    """setuptools' requirements, and PySide6 for lrelease."""
    return [*_orig.get_requires_for_build_wheel(config_settings), QT_REQUIREMENT]


def get_requires_for_build_editable(
        config_settings: dict[str, object] | None = None) -> list[str]:
    """setuptools' requirements, and PySide6 for lrelease."""
    return [*_orig.get_requires_for_build_editable(config_settings), QT_REQUIREMENT]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for path in stage(Path(sys.argv[1]).resolve()):
        print(path)
