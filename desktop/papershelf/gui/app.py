"""Starting the window: check Qt can open one, set up the application, open the library.

`run_gui` is what `papershelf` without a subcommand calls. It turns every
start-up failure into one clear message (a missing system library, no display,
a library Papershelf cannot use) instead of a Qt abort or a traceback, and in
normal runs installs a crash handler that logs tracebacks and shows a short box.
It installs the interface language before any window exists, and keeps one window
per library: a start on a library that is already open hands its files (the
`papershelf FILE.bib` of a file manager) to that window and exits. When the window
closes for another library (File › Open Shared Library…, Open Library File…) or after a
restore, the loop opens that library in a new window (`next_target`), claiming the
one-window name of the library it opens (`reclaim`).
"""

from __future__ import annotations

import argparse
import ctypes.util
import gc
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from papershelf.core.library import Library
    from papershelf.gui.main_window import MainWindow
    from papershelf.gui.qt import QApplication, QMessageLogContext, QtMsgType
    from papershelf.gui.settings import Settings
    from papershelf.gui.single_instance import InstanceServer

# The command's name that starts every message on stderr (the command line's `cli.PROG`;
# the GUI does not import the command line).
PROG = "papershelf"

# The reverse-DNS id of the launcher (packaging/linux), also Wayland's app id.
APP_ID = "io.github.papershelf.Papershelf"

SCREENSHOT_SIZE = (1280, 800)
FIRST_PAINT_WAIT_MS = 1000  # the longest a start waits for its first paint to open the library


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


def make_application() -> QApplication:
    """The QApplication (created once), named and with the app icon, as every start has it."""
    from papershelf.gui import qt

    app = qt.QApplication.instance()
    if not isinstance(app, qt.QApplication):
        app = qt.QApplication(sys.argv[:1])
    app.setOrganizationName("Papershelf")
    app.setApplicationName("Papershelf")
    app.setApplicationDisplayName("Papershelf")
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(qt.icon("papershelf"))
    return app


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
        # A shared library's first page read while Qt loads (first_paint takes it).
        from papershelf.core.firstpage_pg import read_ahead

        read_ahead(getattr(args, "library", None))
    try:
        from papershelf.gui import qt  # noqa: F401  (does Qt load at all?)
    except ImportError as exc:
        sys.stderr.write(_import_problem(exc) + "\n")
        return 1

    app = make_application()

    from papershelf.gui import i18n
    from papershelf.gui import settings as S
    from papershelf.gui.settings import Settings

    target = getattr(args, "library", None)
    files = [os.path.abspath(f) for f in getattr(args, "open_files", None) or []]
    read_key = getattr(args, "read", None)  # (`papershelf read KEY [--page N]`)
    read = (read_key, getattr(args, "page", None) or 0) if read_key else None
    server: InstanceServer | None = None
    if not screenshot:
        claimed = claim_library(target, files, read)
        if isinstance(claimed, int):
            return claimed
        server = claimed
    translators = i18n.install(Settings().get(S.LANGUAGE))
    from papershelf.gui import appearance

    appearance.apply(Settings().get(S.APPEARANCE))
    # The library the user left for the one being opened: reopened if that one fails.
    left: str | None = None
    first = not screenshot  # (the first window paints its rows before the library opens)
    try:
        while True:  # again after a restore, or on the library the user chose
            window = first_paint(target, Settings()) if first else None
            first = False
            library = _open_library(target, bool(screenshot))
            if library is None:
                if window is not None:
                    discard(window)
                if left is None:
                    return 1
                target, left = left, None  # (the failure was said in a box)
                claimed, server = reclaim(server, target), None
                if isinstance(claimed, int):
                    return claimed
                server = claimed
                continue
            try:
                if screenshot:
                    return render_screenshot(library, Path(screenshot))
                closed = _run_window(app, library, server, files, window, read)
            finally:
                library.close()
            files, read = [], None
            following = next_target(library.url, closed)
            if following is None:
                return closed.status
            left = None
            if closed.open is not None:
                claimed, server = reclaim(server, following), None
                if claimed == 1:  # another window has it but does not answer (said)
                    following, claimed = library.url, reclaim(None, library.url)
                else:
                    left = library.url
                if isinstance(claimed, int):
                    return claimed
                server = claimed
            target = following
    finally:
        if server is not None:
            server.close()
        i18n.remove(translators)


@dataclass(frozen=True)
class Closed:
    """How a window ended: the exit status, and what the user asked to open next."""

    status: int
    restore: Path | None = None  # a backup to restore (the library is closed by then)
    open: str | None = None  # another library: a path, or a URL (maybe with a password)


def next_target(url: str, closed: Closed,
                restore: Callable[[str, Path], bool] | None = None) -> str | None:
    """The library to open after the window on `url` closed: the one the user chose, the
    same one after a restore (`restore`, default `_restore`, carries it out and says why
    not), or None to quit."""
    if closed.open is not None:
        return closed.open
    if closed.restore is not None and (restore or _restore)(url, closed.restore):
        return url
    return None


def instance_key(url: str) -> str:
    """What names a library's one window: its URL without a password, so a start that
    finds the password in ~/.pgpass and one that was given it meet."""
    if url.startswith("sqlite:///"):  # (a file's, named without importing SQLAlchemy)
        return url
    from papershelf.core.db import describe

    shown = describe(url)  # (a file's path, or a URL without password)
    return shown if "://" in shown else url


def reclaim(server: InstanceServer | None, target: str) -> InstanceServer | int | None:
    """Give up the claim on the library just left and claim `target`'s, as a start on it
    would: the new server (None if this system can have none), or the exit status when
    a window on `target` exists: 0 once it was brought to the front, 1 when it does not
    answer (said in a box too: the user is looking at windows, not at a terminal)."""
    from papershelf.core.db import describe
    from papershelf.gui.qt import QMessageBox, translate

    if server is not None:
        server.close()
        server.deleteLater()
    claimed = claim_library(target, [])
    if claimed == 1:
        QMessageBox.critical(None, translate("App", "Papershelf cannot open the library"),
                             translate("App", "Papershelf is already running on {library} "
                                       "but does not answer; close that window (or end "
                                       "that process) and try again.").format(
                                           library=describe(target)))
    return claimed


def claim_library(target: str | None, files: list[str],
                  read: tuple[str, int] | None = None) -> InstanceServer | int | None:
    """Become the one window on the library, or hand `files` (and the paper to `read`:
    key, page) to the one that is.

    Returns the listening server (None if this system cannot have one), or the exit
    status when this start is done: 0 after a hand-over, 1 when a window on the library
    exists but does not answer (starting a second writer is never the fix).
    """
    from papershelf.core.firstpage import library_url  # (before SQLAlchemy is imported)
    from papershelf.gui.single_instance import InstanceServer, Result, hand_over, server_name

    url = library_url(target)
    if url is None:
        return None  # opening the library says what is wrong with it
    name = server_name(instance_key(url))
    result = hand_over(name, files, read=read)
    if result is Result.HANDED_OVER:
        return 0
    if result is Result.NO_ANSWER:
        from papershelf.core.db import describe

        sys.stderr.write(f"{PROG}: Papershelf is already running on {describe(url)} but "
                         "does not answer; close that window (or end that process) and "
                         "try again\n")
        return 1
    server = InstanceServer(name)
    if not server.listen():
        sys.stderr.write(f"{PROG}: warning: cannot listen on {name} "
                         f"({server.server.errorString()}); files opened later will "
                         "start a second window\n")
        server.deleteLater()
        return None
    return server


def _restore(url: str, backup_file: Path) -> bool:
    """Replace the (closed) library by a backup; False after telling the user why not."""
    from papershelf.core import backup
    from papershelf.gui.qt import QMessageBox, translate

    library_file = backup.library_file(url)
    assert library_file is not None  # (File > Backups is refused for a server's library)
    try:
        backup.restore(library_file, backup_file)
    except backup.BackupError as exc:
        QMessageBox.critical(None, translate("App", "The backup was not restored"), str(exc))
        return False
    return True


def _recover(exc: Exception, target: str | None) -> bool:
    """The library is damaged: offer the newest sound backup, or a salvage into a new file
    (the damaged one is kept as it is). True if the library was restored and can be
    opened now."""
    from papershelf.core import backup
    from papershelf.core.db import resolve_target
    from papershelf.core.library import Library
    from papershelf.gui.backups import RecoveryDialog
    from papershelf.gui.qt import QMessageBox, translate

    library_file = backup.library_file(resolve_target(target))
    if library_file is None:
        return False
    dialog = RecoveryDialog(library_file, str(exc))
    if dialog.exec() != RecoveryDialog.DialogCode.Accepted:
        return False
    try:
        if dialog.choice == "restore" and dialog.newest is not None:
            backup.restore(library_file, dialog.newest.path)
            return True
        if dialog.choice == "salvage" and dialog.salvage_to is not None:
            backup.salvage(library_file, dialog.salvage_to,
                           lambda new: Library.open(str(new)).close())
            QMessageBox.information(None, translate("App", "Library Salvaged"), translate(
                "App", "What could be read is in {new}. The damaged library was kept as it "
                "is; open the salvaged one with papershelf --library {new}.").format(
                    new=dialog.salvage_to))
    except backup.BackupError as error:
        QMessageBox.critical(None, translate("App", "Papershelf cannot open the library"),
                             str(error))
    return False


def _open_library(target: str | None, quiet: bool) -> Library | None:
    """The library with its sample papers on a first start; None after telling the user."""
    from papershelf.core import paths
    from papershelf.core.db import DamagedLibraryError, LibraryError, missing_library
    from papershelf.core.library import Library
    from papershelf.gui.qt import QMessageBox, translate

    try:
        missing = None if quiet else missing_library(target)  # (a screenshot makes it)
        if missing is not None and not _create_asked(missing):
            return None
        try:
            library = Library.open(target)
        except DamagedLibraryError as exc:
            if quiet or not _recover(exc, target):
                raise
            library = Library.open(target)
        try:
            if not library.shared:  # (a group's library gets no sample papers)
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


def _create_asked(path: Path) -> bool:
    """Whether the user wants a new library made at `path`, a library file named with
    --library or $PAPERSHELF_LIBRARY that does not exist (a mistyped path?)."""
    from papershelf.gui.qt import QMessageBox, translate

    buttons = QMessageBox.StandardButton
    answer = QMessageBox.question(
        None, translate("App", "Create a New Library?"),
        translate("App", "There is no library at {path}. Create a new library there (with "
                  "the sample papers)?").format(path=path),
        buttons.Yes | buttons.No, buttons.No)
    return answer == buttons.Yes


def first_paint(target: str | None, settings: Settings,
                built: Callable[[MainWindow], None] | None = None) -> MainWindow | None:
    """The window on a library's first page, shown and painted, before the core and
    SQLAlchemy are imported (core.firstpage; a shared library's: core.firstpage_pg); None
    when it cannot be read that way (the window is then built the ordinary way).
    `built(window)` is called before it shows."""
    from papershelf.core.firstpage_pg import open_first_page

    page = open_first_page(target)
    if page is None:
        return None
    from papershelf.gui.main_window import MainWindow

    try:  # (a server's library may refuse a query the first page makes: no privilege)
        window = MainWindow(page, settings, first_paint=True)
    except page.errors:
        import logging

        logging.getLogger(__name__).info("no first paint", exc_info=True)
        page.close()
        return None
    if built is not None:
        built(window)
    window.show()
    _wait_for_paint(window)
    return window


def _wait_for_paint(window: MainWindow, timeout_ms: int = FIRST_PAINT_WAIT_MS) -> None:
    """Run the event loop until the table has painted (or `timeout_ms`: a window that is
    not shown on any screen never paints)."""
    from papershelf.gui.qt import QEvent, QEventLoop, QObject, QTimer

    loop = QEventLoop()

    class Painted(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                # Once the paint has been handled, and what it queued has run.
                QTimer.singleShot(0, lambda: QTimer.singleShot(0, loop.quit))
            return False

    watcher = Painted()
    viewport = window.table.viewport()
    viewport.installEventFilter(watcher)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    viewport.removeEventFilter(watcher)


def discard(window: MainWindow) -> None:
    """Take away a first-paint window whose library did not open after all."""
    from papershelf.gui.qt import QApplication, QEvent

    window.hide()
    window.discard_first_page()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _run_window(app: object, library: Library, server: InstanceServer | None,
                files: list[str], window: MainWindow | None = None,
                read: tuple[str, int] | None = None) -> Closed:
    """Show the window until it closes (`window`: one painted from the library's first
    page, to attach the library to), reading the paper `read` names (key, page from 1,
    0: where the user left it): the exit status, and a backup the user chose to restore
    (the caller restores it with the library closed) or another library to open."""
    from papershelf.gui.main_window import MainWindow
    from papershelf.gui.qt import QApplication, QTimer
    from papershelf.gui.settings import Settings
    from papershelf.gui.single_instance import FileOpenFilter, import_files, serve_window
    from papershelf.gui.termination import Termination, close_windows

    assert isinstance(app, QApplication)
    install_crash_handler()
    if window is None:
        window = MainWindow(library, Settings())
    else:
        window.attach(library)
    termination = Termination(close_windows)  # (a logout closes it as the user would)
    take = window.features.importing.import_files
    reading = window.features.reading.read_key
    if server is not None:
        serve_window(server, window, take, reading)
    app.installEventFilter(FileOpenFilter(window, take))
    # What startup made lives as long as the window: kept out of the collector's full
    # passes, which walked it all (75-230 ms, the GUI thread stalled while a PDF scrolls).
    gc.collect()
    gc.freeze()
    window.show()
    QTimer.singleShot(0, window, window.features.admin.start_daily_backup)
    if files:
        QTimer.singleShot(0, window, lambda: import_files(take, files))
    if read is not None:
        QTimer.singleShot(0, window, lambda: reading(*read))
    try:
        status = app.exec()
        return Closed(status, window.features.admin.restore_requested,
                      window.open_requested)
    finally:
        termination.remove()
        if server is not None:  # (a server kept for the next window serves that one)
            server.filesReceived.disconnect()
            server.readRequested.disconnect()
        window.deleteLater()


def render_screenshot(library: Library, path: Path) -> int:
    """Render the main window offscreen at 1280x800, the first paper selected, to a PNG."""
    from papershelf.gui.qt import qInstallMessageHandler

    def quiet(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
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
            # PySide6's stubs want bytes for the format, which it refuses at run time.
            ok = image.save(str(path), "PNG")  # type: ignore[call-overload]
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
        sys.__excepthook__(kind, exc, tb)
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


def install_crash_handler() -> None:
    """Route uncaught exceptions (also those in Qt slots) to the crash handler."""
    sys.excepthook = handle_exception
