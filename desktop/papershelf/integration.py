"""The desktop's menu entry for the current user: `papershelf --install-desktop` and
`--uninstall-desktop`, from whatever installed Papershelf (pipx, a venv, a bundle).

Files go to the XDG data directory ($XDG_DATA_HOME, else ~/.local/share):
applications/ (the launcher, which also offers Papershelf for .bib files),
icons/hicolor/<size>/apps/ and metainfo/. They are copied from the data the package
carries (papershelf/data/linux and icons). The launcher's Exec is the absolute path
of the program that installed it, so it works without activating a virtual
environment. The desktop caches are refreshed when their tools exist
(update-desktop-database, gtk-update-icon-cache); without them the desktop notices
the files on its next scan. Standard library only, no Qt.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from papershelf.core.paths import package_data

APP_ID = "io.github.papershelf.Papershelf"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
# Characters that force quoting of an Exec argument (Desktop Entry spec, "The Exec key").
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


class IntegrationError(Exception):
    """The launcher cannot be installed here (no data, not a freedesktop system)."""


def data_home(env: dict[str, str] | None = None) -> Path:
    """$XDG_DATA_HOME, or ~/.local/share when unset or not absolute (as the spec says)."""
    env = dict(os.environ) if env is None else env
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path(env.get("HOME") or Path.home()) / ".local" / "share"


def exec_argument(path: str) -> str:
    """One Exec argument, quoted and escaped as the Desktop Entry spec asks."""
    text = path.replace("%", "%%")
    if any(c in _RESERVED for c in text):
        for c in ('\\', '"', "`", "$"):
            text = text.replace(c, "\\" + c)
        text = f'"{text}"'
    # The value is also a desktop-file string, where a backslash is written twice.
    return text.replace("\\", "\\\\")


def program_command() -> list[str]:
    """The absolute command that started this Papershelf: a bundle's program, the
    `papershelf` script (pipx's link in ~/.local/bin stays valid across upgrades), or
    this Python with `-m papershelf`."""
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable)]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name.startswith("papershelf") and script.is_file() \
            and script.suffix != ".py":
        return [os.path.abspath(script)]
    return [os.path.abspath(sys.executable), "-m", "papershelf"]


def _source(folder: str, name: str) -> Path:
    found = package_data(folder)
    if found is None or not (found / name).is_file():
        raise IntegrationError(f"this Papershelf carries no {folder}/{name} (a broken "
                               "install: reinstall it)")
    return found / name


def launcher_text(command: list[str]) -> str:
    """The packaged .desktop file with Exec and TryExec running `command`."""
    lines = []
    source = _source("linux", f"{APP_ID}.desktop").read_text(encoding="utf-8")
    for line in source.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={' '.join(exec_argument(a) for a in command)} %F"
        elif line.startswith("TryExec="):
            line = f"TryExec={command[0].replace(chr(92), chr(92) * 2)}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def installed_files(data: Path) -> dict[Path, tuple[str, str] | None]:
    """Every file installed, with its packaged source (None for the generated launcher)."""
    icons = data / "icons" / "hicolor"
    files: dict[Path, tuple[str, str] | None] = {
        data / "applications" / f"{APP_ID}.desktop": None,
        data / "metainfo" / f"{APP_ID}.metainfo.xml": ("linux", f"{APP_ID}.metainfo.xml"),
        icons / "scalable" / "apps" / f"{APP_ID}.svg": ("icons", "papershelf.svg"),
    }
    for size in PNG_SIZES:
        files[icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = \
            ("icons", f"papershelf-{size}.png")
    return files


def refresh_caches(data: Path) -> None:
    """Tell the desktop about the change, with whichever tools this system has."""
    commands = (["update-desktop-database", "-q", str(data / "applications")],
                ["gtk-update-icon-cache", "-q", "-f", "-t", str(data / "icons" / "hicolor")])
    for command in commands:
        if shutil.which(command[0]):
            subprocess.run(command, check=False, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)


def _check_platform() -> None:
    if sys.platform in ("win32", "darwin"):
        raise IntegrationError("the launcher is for Linux desktops (freedesktop); on this "
                               "system use the bundle (see packaging/README.md)")


def install(data: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Copy the launcher, icons and metainfo; returns the files written."""
    _check_platform()
    data = data_home() if data is None else data
    command = program_command() if command is None else command
    if not os.path.isabs(command[0]):
        raise IntegrationError(f"{command[0]}: the launcher needs an absolute path")
    sources = {target: None if source is None else _source(*source)
               for target, source in installed_files(data).items()}  # (all found first)
    text = launcher_text(command)
    written = []
    try:
        for target, path in sources.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            if path is None:
                target.write_text(text, encoding="utf-8")
            else:
                shutil.copyfile(path, target)
            written.append(target)
    except OSError as exc:
        raise IntegrationError(f"cannot write {exc.filename or data}: "
                               f"{exc.strerror or exc}") from None
    refresh_caches(data)
    return written


def uninstall(data: Path | None = None) -> list[Path]:
    """Remove what `install` wrote (missing files are fine); returns the files removed."""
    _check_platform()
    data = data_home() if data is None else data
    removed = []
    try:
        for target in installed_files(data):
            if target.exists():
                target.unlink()
                removed.append(target)
    except OSError as exc:
        raise IntegrationError(f"cannot remove {exc.filename}: {exc.strerror or exc}") from None
    refresh_caches(data)
    return removed
