"""Render the application icon: PNGs from the SVG (Qt), and .ico/.icns from the PNGs (Pillow).

    python packaging/make_icons.py png            # resources/icons/papershelf-<size>.png
    python packaging/make_icons.py bundle FOLDER  # FOLDER/papershelf.ico and .icns

The PNGs are committed (the Linux launcher and the window use them); the Windows and
macOS icon files are build products, written by the PyInstaller spec at build time.
Pillow is needed only for `bundle`; it is a build-time requirement, never a runtime one.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "papershelf.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # the ICO format stops at 256


def png_path(size: int) -> Path:
    """Where the PNG of one size lives."""
    return ICONS / f"papershelf-{size}.png"


def render_pngs() -> list[Path]:
    """Render the SVG at every size with QSvgRenderer (antialiased, transparent)."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"{SVG}: not a valid SVG")
    written = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing
                               | QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        path = png_path(size)
        if not image.save(str(path), "PNG"):
            raise SystemExit(f"{path}: cannot write")
        written.append(path)
    del app
    return written


def write_bundle_icons(folder: Path) -> tuple[Path, Path]:
    """papershelf.ico (Windows) and papershelf.icns (macOS) from the committed PNGs."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    largest = Image.open(png_path(max(SIZES))).convert("RGBA")
    ico = folder / "papershelf.ico"
    # Pillow picks, for each size asked, the best of the images appended (our own renders
    # of the small sizes are sharper than a downscale of the largest).
    extra = [Image.open(png_path(s)).convert("RGBA") for s in ICO_SIZES]
    largest.save(ico, format="ICO", sizes=[(s, s) for s in ICO_SIZES], append_images=extra)
    icns = folder / "papershelf.icns"
    largest.save(icns, format="ICNS",
                 append_images=[Image.open(png_path(s)).convert("RGBA") for s in SIZES])
    return ico, icns


def main(argv: list[str]) -> int:
    if argv[:1] == ["png"]:
        for path in render_pngs():
            print(path.relative_to(ROOT))
        return 0
    if len(argv) == 2 and argv[0] == "bundle":
        for path in write_bundle_icons(Path(argv[1])):
            print(path)
        return 0
    sys.stderr.write(__doc__ or "")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
