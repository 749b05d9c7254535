"""The PyInstaller bundle builds (`make bundle`) and runs: a fresh library gets the sample
papers through the bundled migrations, and the window renders a screenshot.

The one slow test of the suite (a minute or two): it builds the bundle from scratch.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path

from tests.conftest import ROOT


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    assert result.returncode == 0, f"{command}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result  # type: ignore[no-any-return]


def test_bundle_builds_imports_the_seeds_and_renders(tmp_path: Path) -> None:
    dist, work = tmp_path / "dist", tmp_path / "work"
    run(["make", "-s", "bundle", f"BUNDLE_DIST={dist}", f"BUNDLE_WORK={work}"], cwd=ROOT,
        timeout=1200)
    folder = dist / "papershelf"
    program = folder / "papershelf"
    assert program.is_file()
    bundled = folder / "_internal"
    data = bundled / "papershelf" / "data"  # where importlib.resources finds it, as in a wheel
    assert len(list((data / "seeds").glob("*.txt"))) == len(list((ROOT / "seeds").glob("*.txt")))
    assert {p.name for p in (data / "translations").glob("*.qm")} >= {
        "papershelf_zh_CN.qm", "papershelf_en.qm"}
    assert (data / "icons" / "papershelf.svg").is_file()
    assert (data / "linux" / "io.github.papershelf.Papershelf.desktop").is_file()
    assert list((bundled / "papershelf" / "core" / "migrations" / "versions").glob("0001_*.py"))
    assets = work / "papershelf" / "assets"  # what the spec generated for Windows and macOS
    assert (assets / "papershelf.ico").read_bytes()[:4] == b"\0\0\1\0"
    assert (assets / "papershelf.icns").read_bytes()[:4] == b"icns"
    assert "VSVersionInfo(" in (assets / "version_info.txt").read_text(encoding="utf-8")

    # Run it like a user would: from another folder, nothing of the checkout on the paths.
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen", "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "TMPDIR": os.environ.get("TMPDIR", "/tmp")}
    library, shot = tmp_path / "library.sqlite", tmp_path / "shot.png"
    run([str(program), "--library", str(library), "--screenshot", str(shot)], cwd=home,
        env=env, timeout=120)
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (1280, 800)
    listed = run([str(program), "--library", str(library), "list", "--json"], cwd=home,
                 env=env, timeout=120)
    assert len(json.loads(listed.stdout)) == 38
    # The bundle puts itself in the menu: the launcher runs the bundle's program.
    run([str(program), "--install-desktop"], cwd=home, env=env, timeout=120)
    launcher = home / "data" / "applications" / "io.github.papershelf.Papershelf.desktop"
    assert f"Exec={program} %F" in launcher.read_text(encoding="utf-8").splitlines()

    # A big file is read by worker processes: in the frozen program they must start as
    # workers (multiprocessing.freeze_support), not as a second copy of the app.
    from papershelf.core import ingest

    big = tmp_path / "big.bib"
    entry = ("@article{{paper{n},\n  author = {{Lovelace, Ada and Babbage, Charles}},\n"
             "  title = {{Analytical engines, part {n}}},\n  journal = {{Notes}},\n"
             "  year = {{1843}},\n  abstract = {{Note {n}. "
             + "The engine weaves algebraic patterns. " * 40 + "}}\n}}\n\n")
    size = 0
    with big.open("w", encoding="utf-8") as handle:
        n = 0
        while size < ingest.MIN_PIECES_BYTES + ingest.PIECE_BYTES:
            size += handle.write(entry.format(n=n))
            n += 1
    imported = run([str(program), "--library", str(library), "import", str(big)], cwd=home,
                   env=env, timeout=300)
    assert f"{n} added, 0 already present, 0 failed" in imported.stdout
    listed = run([str(program), "--library", str(library), "list", "--json"], cwd=home,
                 env=env, timeout=120)
    assert len(json.loads(listed.stdout)) == 38 + n
