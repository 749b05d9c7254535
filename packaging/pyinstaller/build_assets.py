"""Files the PyInstaller spec generates at build time: icons and the Windows version resource.

Kept out of the spec so the spec stays a declaration. Everything here is derived
(from the committed PNGs and `papershelf.__version__`), so nothing generated is
committed and the same spec builds on Linux, Windows and macOS.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from make_icons import write_bundle_icons  # noqa: E402

APP_ID = "io.github.papershelf.Papershelf"


def version_tuple(version: str) -> tuple[int, int, int, int]:
    """'0.1.0' (or '1.2rc1', '1.2.3.dev4') as the four numbers Windows wants."""
    numbers = [int(n) for n in re.findall(r"\d+", version.split("+")[0])[:4]]
    numbers += [0] * (4 - len(numbers))
    return numbers[0], numbers[1], numbers[2], numbers[3]


def version_resource(version: str) -> str:
    """The text of a PyInstaller version file (a `VSVersionInfo` expression)."""
    four = version_tuple(version)
    strings = {
        "CompanyName": "The Papershelf authors",
        "FileDescription": "Papershelf, a reading-list manager for researchers",
        "FileVersion": version,
        "InternalName": "papershelf",
        "LegalCopyright": "GPL-3.0-or-later",
        "OriginalFilename": "papershelf.exe",
        "ProductName": "Papershelf",
        "ProductVersion": version,
    }
    table = ",\n          ".join(f"StringStruct({k!r}, {v!r})" for k, v in strings.items())
    return f"""# UTF-8
# Generated from papershelf.__version__ by packaging/pyinstaller/build_assets.py.
VSVersionInfo(
  ffi=FixedFileInfo(
    filevers={four},
    prodvers={four},
    mask=0x3f,
    flags=0x0,
    OS=0x40004,
    fileType=0x1,
    subtype=0x0,
    date=(0, 0)
  ),
  kids=[
    StringFileInfo([
      StringTable(
        '040904B0',
        [{table}])
    ]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""


def prepare(folder: Path, version: str) -> dict[str, Path]:
    """Write the .ico, .icns and version file into `folder`; their paths by kind."""
    folder.mkdir(parents=True, exist_ok=True)
    ico, icns = write_bundle_icons(folder)
    version_file = folder / "version_info.txt"
    version_file.write_text(version_resource(version), encoding="utf-8")
    return {"ico": ico, "icns": icns, "version": version_file}
