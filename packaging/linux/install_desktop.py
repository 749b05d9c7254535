"""Install (or remove) Papershelf's launcher, icons and metainfo for the current user.

    python packaging/linux/install_desktop.py install /abs/path/to/papershelf
    python packaging/linux/install_desktop.py uninstall

Files go to the XDG data directory ($XDG_DATA_HOME, else ~/.local/share):
applications/, icons/hicolor/<size>/apps/ and metainfo/. The launcher's Exec is the
absolute path given, so it works without activating a virtual environment. The desktop
caches are refreshed when their tools exist (update-desktop-database,
gtk-update-icon-cache); without them the desktop notices the files on its next scan.
Standard library only: `make install-desktop` runs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

APP_ID = "io.github.papershelf.Papershelf"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ICONS = ROOT / "resources" / "icons"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
# Characters that force quoting of an Exec argument (Desktop Entry spec, "The Exec key").
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


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


def launcher_text(executable: str) -> str:
    """The packaged .desktop file with Exec and TryExec pointing at `executable`."""
    lines = []
    source = (HERE / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    for line in source.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={exec_argument(executable)} %F"
        elif line.startswith("TryExec="):
            line = f"TryExec={executable.replace(chr(92), chr(92) * 2)}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def installed_files(data: Path) -> dict[Path, Path | None]:
    """Every file installed, with its source (None for the generated launcher)."""
    icons = data / "icons" / "hicolor"
    files: dict[Path, Path | None] = {
        data / "applications" / f"{APP_ID}.desktop": None,
        data / "metainfo" / f"{APP_ID}.metainfo.xml": HERE / f"{APP_ID}.metainfo.xml",
        icons / "scalable" / "apps" / f"{APP_ID}.svg": ICONS / "papershelf.svg",
    }
    for size in PNG_SIZES:
        files[icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = \
            ICONS / f"papershelf-{size}.png"
    return files


def refresh_caches(data: Path) -> None:
    """Tell the desktop about the change, with whichever tools this system has."""
    commands = (["update-desktop-database", "-q", str(data / "applications")],
                ["gtk-update-icon-cache", "-q", "-f", "-t", str(data / "icons" / "hicolor")])
    for command in commands:
        if shutil.which(command[0]):
            subprocess.run(command, check=False, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)


def install(executable: str, data: Path) -> list[Path]:
    """Copy the launcher, icons and metainfo; returns the files written."""
    if not os.path.isabs(executable):
        raise SystemExit(f"install_desktop: {executable}: give an absolute path")
    written = []
    for target, source in installed_files(data).items():
        target.parent.mkdir(parents=True, exist_ok=True)
        if source is None:
            target.write_text(launcher_text(executable), encoding="utf-8")
        else:
            shutil.copyfile(source, target)
        written.append(target)
    refresh_caches(data)
    return written


def uninstall(data: Path) -> list[Path]:
    """Remove what `install` wrote (missing files are fine); returns the files removed."""
    removed = []
    for target in installed_files(data):
        if target.exists():
            target.unlink()
            removed.append(target)
    refresh_caches(data)
    return removed


def main(argv: list[str]) -> int:
    data = data_home()
    if len(argv) == 2 and argv[0] == "install":
        for path in install(argv[1], data):
            print(f"installed {path}")
        return 0
    if argv == ["uninstall"]:
        for path in uninstall(data):
            print(f"removed {path}")
        return 0
    sys.stderr.write(__doc__ or "")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
