"""The single import point for PySide6, plus the few tiny Qt helpers everyone needs.

Every other module of the GUI imports Qt names from here (as in Anki's `aqt.qt`),
so a future Qt binding change, or a missing system library, touches one file.
"""

from __future__ import annotations

from functools import cache

# QtCore, QtGui and QtWidgets each have their own QIntList (and QtGui its own QPointList,
# QPointFList, qFuzzyCompare), so the later star imports redefine them: harmless, nothing
# uses them, hence the ignores. Names from QtNetwork are imported one by one.
from PySide6.QtCore import *  # noqa: F403
from PySide6.QtCore import QCoreApplication, QSize
from PySide6.QtGui import *  # type: ignore[assignment]  # noqa: F403
from PySide6.QtGui import QFontMetrics, QIcon
from PySide6.QtNetwork import QAbstractSocket as QAbstractSocket
from PySide6.QtNetwork import QLocalServer as QLocalServer
from PySide6.QtNetwork import QLocalSocket as QLocalSocket
from PySide6.QtWidgets import *  # type: ignore[assignment]  # noqa: F403
from PySide6.QtWidgets import QApplication
from shiboken6 import isValid

from papershelf.core.paths import package_data


def alive(callback: object) -> bool:
    """Whether a callback may still be called: a method of a Qt object whose C++ side
    was deleted (a dialog closed while its job ran) may not."""
    owner = getattr(callback, "__self__", None)
    return not isinstance(owner, QObject) or bool(isValid(owner))  # noqa: F405


def translate(context: str, text: str) -> str:
    """A user-visible string, translated in `context` (for a module without a `tr`)."""
    return QCoreApplication.translate(context, text)


class Translator:
    """`tr = Translator("MainWindow")` then `tr("Import…")`: one context per module."""

    def __init__(self, context: str) -> None:
        self.context = context

    def __call__(self, text: str) -> str:
        return QCoreApplication.translate(self.context, text)


@cache
def icon(name: str) -> QIcon:
    """An icon the package carries (`name`.svg), else the desktop theme's, else empty."""
    folder = package_data("icons")
    if folder is not None:
        path = folder / f"{name}.svg"
        if path.is_file():
            return QIcon(str(path))
    return QIcon.fromTheme(_THEME_NAMES.get(name, name))


# Freedesktop theme names for our icons, used when a resource file is missing.
_THEME_NAMES = {
    "import": "document-open",
    "export": "document-save-as",
    "search": "edit-find",
    "star": "starred",
    "star-outline": "non-starred",
    "papershelf": "accessories-dictionary",
}


def dpi_size(width: int, height: int) -> QSize:
    """A size in device-independent pixels scaled to the UI font (no clipped text)."""
    app = QApplication.instance()
    em = 16
    if isinstance(app, QApplication):
        em = max(QFontMetrics(QApplication.font()).height(), 12)
    return QSize(width * em // 16, height * em // 16)
