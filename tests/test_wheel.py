"""Packaging cannot rot: the sdist is built, the wheel is built from the sdist (as pip
and pipx build one), installed into a fresh venv away from the checkout, and its first
start has the 38 sample papers, the icons and the Chinese catalogue, all from the
wheel's own papershelf/data.

The fresh venv gets the wheel only (`--no-deps`); its dependencies (PySide6, SQLAlchemy,
...) come from the test venv's site-packages through a .pth line, which adds that folder
to the path without running its .pth files, so the checkout's editable install stays
out of sight. What this proves is the wheel itself: its modules, its data and its
entry point; installing PySide6 once more would prove only that PyPI works.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

from tests.conftest import ROOT, SEED_FILES

APP_ID = "io.github.papershelf.Papershelf"


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    assert result.returncode == 0, f"{command}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result  # type: ignore[no-any-return]


def user_pip_cache() -> str:
    """The pip cache of the user running the tests (the isolated home has none), so the
    build's own environment reuses setuptools' and PySide6's wheels."""
    if os.environ.get("PIP_CACHE_DIR"):
        return os.environ["PIP_CACHE_DIR"]
    import pwd

    return str(Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "pip")


CHECK = """
import sys
from pathlib import Path

venv = Path(sys.argv[1])
import papershelf
from papershelf.core.paths import package_data, seeds_dir

assert Path(papershelf.__file__).is_relative_to(venv), papershelf.__file__
for name in ("seeds", "icons", "translations", "linux"):
    folder = package_data(name)
    assert folder is not None and folder.is_relative_to(venv), (name, folder)
assert seeds_dir() == package_data("seeds")

from papershelf.gui.qt import QApplication, QCoreApplication, icon
from papershelf.gui import i18n

app = QApplication([])
for name in ("star", "star-outline", "unread", "reading", "read", "papershelf"):
    loaded = icon(name)  # from the package's file, not the desktop theme's
    assert loaded.name() == "" and not loaded.pixmap(16, 16).isNull(), name
assert i18n.install("zh_CN"), "no zh_CN catalogue"
print(QCoreApplication.translate("MainWindow", "&File"))
"""

# The reader's PDFium runs in a worker process started from the installed package (a
# spawned interpreter that must find papershelf.reading.server there, not the checkout).
READER = """
import sys
from pathlib import Path

import pypdfium2 as pdfium

from papershelf.reading import server


def main() -> None:
    path = Path(sys.argv[1])
    made = pdfium.PdfDocument.new()
    made.new_page(200, 300)
    made.save(str(path))
    worker = server.Server()
    try:
        remote = server.Remote(worker, str(path))
        layout = remote.open()
        bitmap = remote.render(0, 1.0)
        assert worker.pid() is not None
        print(len(layout.sizes), bitmap.width, bitmap.height)
    finally:
        worker.stop()


if __name__ == "__main__":
    main()
"""


def test_the_wheel_installs_and_starts_away_from_the_checkout(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    build_env = {**os.environ, "PIP_CACHE_DIR": user_pip_cache()}
    run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], env=build_env,
        cwd=tmp_path, timeout=900)
    (sdist,) = dist.glob("papershelf-*.tar.gz")
    (wheel,) = dist.glob("papershelf-*.whl")

    # The sdist has the sources (the wheel above was built from it), never the staged data.
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {f"seeds/{p.name}" for p in SEED_FILES} <= names
    assert {"resources/translations/papershelf_zh_CN.ts", "packaging/papershelf_build.py",
            f"packaging/linux/{APP_ID}.desktop"} <= names
    assert not [n for n in names if n.endswith(".qm") or "/papershelf/data/" in n]
    # The wheel has the data: seeds, icons, every catalogue compiled, launcher, metainfo.
    with zipfile.ZipFile(wheel) as archive:
        data = {n.removeprefix("papershelf/data/") for n in archive.namelist()
                if n.startswith("papershelf/data/")}
    assert {f"seeds/{p.name}" for p in SEED_FILES} <= data
    assert {f"icons/{p.name}" for p in (ROOT / "resources" / "icons").glob("*.svg")} <= data
    assert {f"translations/{p.stem}.qm"
            for p in (ROOT / "resources" / "translations").glob("*.ts")} <= data
    assert {f"linux/{APP_ID}.desktop", f"linux/{APP_ID}.metainfo.xml"} <= data

    # A fresh venv, away from the checkout, with the wheel and nothing of the checkout.
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout=120)
    python = venv / "bin" / "python"
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                   "['purelib'])"]).stdout.strip()
    # (with no PYTHONPATH, and the .pth written after: pip would see the checkout's
    # papershelf on either path and keep it as "already installed")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)], timeout=300,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    Path(purelib, "test-venv-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")

    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_STATE_HOME": str(home / "state"), "TMPDIR": os.environ.get("TMPDIR", "/tmp")}
    program = venv / "bin" / "papershelf"
    # The first start: a new library gets the sample papers; the window renders.
    library, shot = home / "library.sqlite", home / "shot.png"
    run([str(program), "--library", str(library), "--screenshot", str(shot)], cwd=home,
        env=env, timeout=120)
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (1280, 800)
    listed = run([str(program), "--library", str(library), "list", "--json"], cwd=home,
                 env=env, timeout=120)
    assert len(json.loads(listed.stdout)) == 38
    # The icons and the Chinese catalogue, from the installed package's data.
    checked = run([str(python), "-c", CHECK, str(venv)], cwd=home, env=env, timeout=120)
    assert checked.stdout.strip() == "文件(&F)"
    # The reader's worker process, started from the installed package, draws a page.
    (home / "reader_check.py").write_text(READER, encoding="utf-8")
    drawn = run([str(python), str(home / "reader_check.py"), str(home / "blank.pdf")],
                cwd=home, env=env, timeout=120)
    assert drawn.stdout.split() == ["1", "200", "300"]
    # The menu entry, from the installed package, runs the installed program.
    run([str(program), "--install-desktop"], cwd=home, env=env, timeout=120)
    launcher = home / "data" / "applications" / f"{APP_ID}.desktop"
    assert f"Exec={program} %F" in launcher.read_text(encoding="utf-8").splitlines()
    icons = home / "data" / "icons" / "hicolor"
    assert (icons / "256x256" / "apps" / f"{APP_ID}.png").is_file()
    run([str(program), "--uninstall-desktop"], cwd=home, env=env, timeout=120)
    assert not launcher.exists()
