"""Desktop integration is data that validates: the launcher, the metainfo, the icons,
the per-user install and uninstall (`papershelf --install-desktop`), the data the
package carries, and the bundle's generated version resource."""

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

sys.path.insert(0, str(ROOT / "packaging" / "pyinstaller"))

from papershelf import __main__, integration
from papershelf.core.paths import package_data

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
    for size in integration.PNG_SIZES:
        path = ROOT / "resources" / "icons" / f"papershelf-{size}.png"
        assert png_size(path) == (size, size)


def test_install_and_uninstall_for_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "my data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    program = tmp_path / "venv with space" / "bin" / "papershelf"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", [str(program), "--install-desktop"])
    assert __main__.main(["--install-desktop"]) == 0
    assert "applications menu" in capsys.readouterr().out
    launcher = data / "applications" / f"{APP_ID}.desktop"
    validate_desktop(launcher)
    installed = entry(launcher)
    assert installed["Exec"] == f'"{program}" %F'
    assert installed["TryExec"] == str(program)
    assert (data / "metainfo" / f"{APP_ID}.metainfo.xml").read_bytes() == METAINFO.read_bytes()
    icons = data / "icons" / "hicolor"
    assert (icons / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in integration.PNG_SIZES:
        assert png_size(icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png") == (size, size)

    assert __main__.main(["--uninstall-desktop"]) == 0
    left = [p for p in data.rglob("*") if p.is_file() and APP_ID in p.name]
    assert left == []
    assert __main__.main(["--uninstall-desktop"]) == 0  # (nothing left to remove is fine)


def test_the_launcher_runs_python_m_papershelf_without_a_script(tmp_path: Path) -> None:
    """Started as `python -m papershelf`, the launcher runs the same Python the same way."""
    command = [sys.executable, "-m", "papershelf"]
    assert integration.install(tmp_path, command)
    launcher = tmp_path / "applications" / f"{APP_ID}.desktop"
    validate_desktop(launcher)
    python = integration.exec_argument(sys.executable)
    assert entry(launcher)["Exec"] == f"{python} -m papershelf %F"


def test_install_desktop_mistakes_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    assert __main__.main(["--install-desktop"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("papershelf: error: cannot write ") and err.count("\n") == 1
    with pytest.raises(SystemExit) as exited:
        __main__.main(["--install-desktop", "--uninstall-desktop"])
    assert exited.value.code == 1


def test_exec_quoting_follows_the_spec() -> None:
    quote = integration.exec_argument
    assert quote("/home/ana/.venv/bin/papershelf") == "/home/ana/.venv/bin/papershelf"
    assert quote("/home/a b/papershelf") == '"/home/a b/papershelf"'
    assert quote("/opt/50%/papershelf") == "/opt/50%%/papershelf"
    assert quote('/x/$"q/p') == '"/x/\\\\$\\\\"q/p"'


def test_make_install_desktop_uses_the_venv_program() -> None:
    """The Makefile runs the venv's program, so the launcher needs no activated venv."""
    result = subprocess.run(["make", "-s", "-n", "install-desktop"], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    line = next(li for li in result.stdout.splitlines() if "--install-desktop" in li)
    program = line.split("--install-desktop", 1)[0].strip().strip('"')
    assert program == str(ROOT / ".venv" / "bin" / "papershelf")
    assert shutil.which("update-desktop-database") is not None  # desktop-file-utils


def test_the_package_carries_its_data_staged_from_the_sources() -> None:
    """papershelf/data (what the checkout, a wheel and a bundle read) is the top-level
    sources staged: the same seeds, icons, launcher and metainfo, every catalogue
    compiled."""
    for name, source, patterns in (("seeds", "seeds", ["*.txt"]),
                                   ("icons", "resources/icons", ["*.svg", "*.png"]),
                                   ("linux", "packaging/linux", [f"{APP_ID}.*"])):
        folder = package_data(name)
        assert folder is not None, name
        for pattern in patterns:
            expected = sorted(p.name for p in (ROOT / source).glob(pattern))
            assert expected and sorted(p.name for p in folder.glob(pattern)) == expected
            for file in expected:
                assert (folder / file).read_bytes() == (ROOT / source / file).read_bytes()
    translations = package_data("translations")
    assert translations is not None
    assert sorted(p.stem for p in translations.glob("*.qm")) == sorted(
        p.stem for p in (ROOT / "resources" / "translations").glob("*.ts"))
    assert package_data("no-such-folder") is None


def test_windows_version_resource_comes_from_the_package_version() -> None:
    import build_assets

    from papershelf import __version__

    assert build_assets.version_tuple("0.1.0") == (0, 1, 0, 0)
    assert build_assets.version_tuple("1.2rc1") == (1, 2, 1, 0)
    text = build_assets.version_resource(__version__)
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call) and getattr(call.func, "id", "") == "VSVersionInfo"
    assert f"'ProductVersion', '{__version__}'" in text
