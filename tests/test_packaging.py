"""Desktop integration is data that validates: the launcher, the metainfo, the icons,
the per-user install and uninstall, and the bundle's generated version resource."""

from __future__ import annotations

import ast
import configparser
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "packaging" / "linux"))
sys.path.insert(0, str(ROOT / "packaging" / "pyinstaller"))

import install_desktop

LINUX = ROOT / "packaging" / "linux"
APP_ID = "io.github.papershelf.Papershelf"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"


def validate_desktop(path: Path) -> None:
    result = subprocess.run(["desktop-file-validate", str(path)], capture_output=True,
                            text=True)
    errors = [line for line in result.stdout.splitlines() if ": error:" in line
              or ": warning:" in line]
    assert result.returncode == 0 and not errors, result.stdout + result.stderr


def entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_launcher_validates_and_opens_bib_files() -> None:
    validate_desktop(DESKTOP)
    desktop = entry(DESKTOP)
    assert desktop["Exec"] == "papershelf %F"
    assert desktop["Icon"] == APP_ID
    assert "text/x-bibtex" in desktop["MimeType"].split(";")
    assert {"Office", "Education"} <= set(desktop["Categories"].split(";"))
    assert desktop["Name"] == "Papershelf" and desktop["GenericName"] and desktop["Comment"]


def test_metainfo_validates() -> None:
    result = subprocess.run(["appstreamcli", "validate", "--no-net", "--no-color",
                             str(METAINFO)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    text = METAINFO.read_text(encoding="utf-8")
    assert f"<launchable type=\"desktop-id\">{APP_ID}.desktop</launchable>" in text
    assert "<project_license>GPL-3.0-or-later</project_license>" in text


def test_icons_are_rendered_at_every_size() -> None:
    for size in install_desktop.PNG_SIZES:
        path = ROOT / "resources" / "icons" / f"papershelf-{size}.png"
        assert png_size(path) == (size, size)


def test_install_and_uninstall_for_the_user(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "my data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    program = str(tmp_path / "venv with space" / "bin" / "papershelf")
    assert install_desktop.main(["install", program]) == 0
    launcher = data / "applications" / f"{APP_ID}.desktop"
    validate_desktop(launcher)
    installed = entry(launcher)
    assert installed["Exec"] == f'"{program}" %F'
    assert installed["TryExec"] == program
    assert (data / "metainfo" / f"{APP_ID}.metainfo.xml").read_bytes() == METAINFO.read_bytes()
    icons = data / "icons" / "hicolor"
    assert (icons / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in install_desktop.PNG_SIZES:
        assert png_size(icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)

    assert install_desktop.main(["uninstall"]) == 0
    left = [p for p in data.rglob("*") if p.is_file() and APP_ID in p.name]
    assert left == []


def test_exec_quoting_follows_the_spec() -> None:
    quote = install_desktop.exec_argument
    assert quote("/home/ana/.venv/bin/papershelf") == "/home/ana/.venv/bin/papershelf"
    assert quote("/home/a b/papershelf") == '"/home/a b/papershelf"'
    assert quote("/opt/50%/papershelf") == "/opt/50%%/papershelf"
    assert quote('/x/$"q/p') == '"/x/\\\\$\\\\"q/p"'


def test_make_install_desktop_uses_the_venv_program(tmp_path: Path) -> None:
    """The Makefile passes an absolute path, so the launcher needs no activated venv."""
    result = subprocess.run(["make", "-s", "-n", "install-desktop"], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    line = next(li for li in result.stdout.splitlines() if "install_desktop.py install" in li)
    program = line.split("install ", 1)[1].strip().strip('"')
    assert program == str(ROOT / ".venv" / "bin" / "papershelf")
    assert shutil.which("update-desktop-database") is not None  # desktop-file-utils


def test_windows_version_resource_comes_from_the_package_version() -> None:
    import build_assets

    from papershelf import __version__

    assert build_assets.version_tuple("0.1.0") == (0, 1, 0, 0)
    assert build_assets.version_tuple("1.2rc1") == (1, 2, 1, 0)
    text = build_assets.version_resource(__version__)
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call) and getattr(call.func, "id", "") == "VSVersionInfo"
    assert f"'ProductVersion', '{__version__}'" in text
