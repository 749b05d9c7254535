"""Starting the window: check Qt can open one, set up the application, open the library.

`run_gui` is what `papershelf` without a subcommand calls. It turns every
start-up failure into one clear message (a missing system library, no display,
a library Papershelf cannot use) instead of a Qt abort or a traceback, and in
normal runs installs a crash handler that logs tracebacks and shows a short box.
"""

from __future__ import annotations

import argparse
import ctypes.util
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from papershelf.cli import PROG

if TYPE_CHECKING:
    from papershelf.core.library import Library
    from papershelf.gui.main_window import MainWindow

SCREENSHOT_SIZE = (1280, 800)


# Libraries Qt's xcb plugin loads (ldconfig name, Debian/Ubuntu package), in the order
# they are most often missing; libxcb-cursor0 is the classic one since Qt 6.5.
XCB_LIBRARIES = (
    ("xcb-cursor", "libxcb-cursor0"),
    ("xcb-icccm", "libxcb-icccm4"),
    ("xcb-keysyms", "libxcb-keysyms1"),
    ("xcb-image", "libxcb-image0"),
    ("xcb-render-util", "libxcb-render-util0"),
    ("xcb-shape", "libxcb-shape0"),
    ("xcb-randr", "libxcb-randr0"),
    ("xkbcommon-x11", "libxkbcommon-x11-0"),
)


def display_problem(env: dict[str, str] | None = None, platform: str = sys.platform,
                    find_library: Callable[[str], str | None] = ctypes.util.find_library,
                    ) -> str | None:
    """Why Qt could not open a window here (one line with the fix), or None if it can."""
    env = dict(os.environ) if env is None else env
    if not platform.startswith("linux"):
        return None
    qpa = env.get("QT_QPA_PLATFORM", "")
    if qpa not in ("", "xcb") or (not qpa and env.get("WAYLAND_DISPLAY")):
        return None
    if not env.get("DISPLAY"):
        return (f"{PROG}: no display to open the window on (DISPLAY is not set); run it in a "
                "desktop session, or use `papershelf --screenshot FILE.png` or the commands "
                "(`papershelf --help`)")
    missing = [package for name, package in XCB_LIBRARIES if find_library(name) is None]
    if missing:
        what = missing[0] if len(missing) == 1 else " ".join(missing)
        return (f"{PROG}: Qt needs {what} to open a window; install "
                f"{'it' if len(missing) == 1 else 'them'} with `sudo apt install {what}` "
                "(Fedora: `sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms "
                "xcb-util-image xcb-util-renderutil libxkbcommon-x11`)")
    return None


def _import_problem(exc: ImportError) -> str:
    """One line for a Qt library that failed to load."""
    text = str(exc)
    if "libEGL" in text:
        fix = "`sudo apt install libegl1` (Fedora: `sudo dnf install libglvnd-egl`)"
    elif "libGL" in text:
        fix = "`sudo apt install libgl1` (Fedora: `sudo dnf install libglvnd-glx`)"
    elif "xkbcommon" in text:
        fix = "`sudo apt install libxkbcommon0 libxkbcommon-x11-0`"
    elif "fontconfig" in text:
        fix = "`sudo apt install libfontconfig1`"
    else:
        fix = "your distribution's package of that library"
    return f"{PROG}: Qt cannot start: {text}; install {fix}"


def run_gui(args: argparse.Namespace) -> int:
    """Open the main window (or render it to a PNG with --screenshot); exit status."""
    screenshot = getattr(args, "screenshot", None)
    if screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    else:
        problem = display_problem()
        if problem:
            sys.stderr.write(problem + "\n")
            return 1
    try:
        from papershelf.gui import qt
    except ImportError as exc:
        sys.stderr.write(_import_problem(exc) + "\n")
        return 1

    app = qt.QApplication.instance()
    if not isinstance(app, qt.QApplication):
        app = qt.QApplication(sys.argv[:1])
    app.setOrganizationName("Papershelf")
    app.setApplicationName("Papershelf")
    app.setApplicationDisplayName("Papershelf")
    app.setDesktopFileName("papershelf")
    app.setWindowIcon(qt.icon("papershelf"))

    library = _open_library(getattr(args, "library", None), bool(screenshot))
    if library is None:
        return 1
    try:
        if screenshot:
            return render_screenshot(library, Path(screenshot))
        return _run_window(app, library)
    finally:
        library.close()


def _open_library(target: str | None, quiet: bool) -> Library | None:
    """The library with its sample papers on a first start; None after telling the user."""
    from papershelf.core import paths
    from papershelf.core.db import LibraryError
    from papershelf.core.library import Library
    from papershelf.gui.qt import QMessageBox, translate

    try:
        library = Library.open(target)
        try:
            library.ensure_sample(paths.seeds_dir())
        except BaseException:
            library.close()
            raise
        return library
    except LibraryError as exc:
        if quiet:
            sys.stderr.write(f"{PROG}: {exc}\n")
        else:
            QMessageBox.critical(None, translate("App", "Papershelf cannot open the library"),
                                 str(exc))
        return None


def _run_window(app: object, library: Library) -> int:
    from papershelf.gui.main_window import MainWindow
    from papershelf.gui.qt import QApplication
    from papershelf.gui.settings import Settings

    assert isinstance(app, QApplication)
    installhandle_exception()
    window = MainWindow(library, Settings())
    window.show()
    try:
        return app.exec()
    finally:
        window.deleteLater()


def render_screenshot(library: Library, path: Path) -> int:
    """Render the main window offscreen at 1280x800, the first paper selected, to a PNG."""
    from papershelf.gui.qt import qInstallMessageHandler

    def quiet(kind: object, context: object, message: str) -> None:
        """The offscreen plugin's notice about size hints is noise; the rest is not."""
        if "propagateSizeHints" not in message:
            if previous is not None:
                previous(kind, context, message)
            else:
                sys.stderr.write(message + "\n")

    previous = qInstallMessageHandler(quiet)
    try:
        return _render(library, path)
    finally:
        qInstallMessageHandler(previous)


def _render(library: Library, path: Path) -> int:
    from papershelf.gui.main_window import MainWindow
    from papershelf.gui.qt import QApplication, QSettings
    from papershelf.gui.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        # A fresh layout, not the user's remembered one: the picture is reproducible.
        store = QSettings(str(Path(folder) / "screenshot.ini"), QSettings.Format.IniFormat)
        window: MainWindow = MainWindow(library, Settings(store))
        try:
            window.resize(*SCREENSHOT_SIZE)
            window.show()
            window.table.go_to_row(0)
            window.table.setFocus()
            for _ in range(3):
                QApplication.processEvents()
            image = window.grab().toImage()
            window.tasks.wait()
            ok = image.save(str(path), "PNG")
        finally:
            window.close()
            window.deleteLater()
            QApplication.processEvents()
            del store
    if not ok:
        sys.stderr.write(f"{PROG}: {path}: cannot write the screenshot\n")
        return 1
    return 0


# -- the crash handler ---------------------------------------------------------------------

_handling = False


def log_exception(kind: type[BaseException], exc: BaseException,
                  tb: TracebackType | None) -> str:
    """Append a traceback to the crash log (as `__main__` does) and return its path."""
    import platformdirs

    from papershelf.core.paths import APP_NAME

    try:
        folder = platformdirs.user_log_path(APP_NAME, appauthor=False, ensure_exists=True)
        path = folder / "crash.log"
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("".join(traceback.format_exception(kind, exc, tb)))
        return str(path)
    except OSError:
        return "(no log: the log folder cannot be written)"


def handle_exception(kind: type[BaseException], exc: BaseException,
                tb: TracebackType | None) -> None:
    """Our bug: log it, say so in a short box, keep running."""
    global _handling
    if issubclass(kind, KeyboardInterrupt):
        sys._handle_exception__(kind, exc, tb)
        return
    log = log_exception(kind, exc, tb)
    sys.stderr.write(f"{PROG}: internal error: {exc!r} (details in {log})\n")
    if _handling:
        return
    _handling = True
    try:
        from papershelf.gui.qt import QApplication, QMessageBox, translate

        if QApplication.instance() is not None:
            QMessageBox.critical(
                QApplication.activeWindow(), translate("App", "Papershelf"),
                translate("App", "Something went wrong, sorry. Your library is safe; the "
                          "details were saved to {log}.").format(log=log))
    finally:
        _handling = False


def installhandle_exception() -> None:
    """Route uncaught exceptions (also those in Qt slots) to the crash handler."""
    sys.excepthook = handle_exception
