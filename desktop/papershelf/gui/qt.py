"""The single import point for PySide6, plus the few tiny Qt helpers everyone needs.

Every other module of the GUI imports Qt names from here (as in Anki's `aqt.qt`),
so a future Qt binding change, or a missing system library, touches one file.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import QCoreApplication as QCoreApplication
from PySide6.QtCore import QObject as QObject
from PySide6.QtCore import QSize as QSize
from PySide6.QtGui import QFontMetrics as QFontMetrics
from PySide6.QtGui import QIcon as QIcon
from PySide6.QtNetwork import QAbstractSocket as QAbstractSocket
from PySide6.QtNetwork import QLocalServer as QLocalServer
from PySide6.QtNetwork import QLocalSocket as QLocalSocket
from PySide6.QtWidgets import QApplication as QApplication
from shiboken6 import isValid

if TYPE_CHECKING:
    # QtCore, QtGui and QtWidgets each have their own QIntList (and QtGui its own
    # QPointList, QPointFList, qFuzzyCompare), so the later star imports redefine them:
    # harmless, nothing uses them, hence the ignores.
    from PySide6.QtCore import *  # noqa: F403
    from PySide6.QtGui import *  # type: ignore[assignment]  # noqa: F403
    from PySide6.QtWidgets import *  # type: ignore[assignment]  # noqa: F403
else:
    def __getattr__(name: str) -> Any:
        """A Qt name, looked up when a module first imports it (star imports of the three
        modules made PySide6 build every one of their ~1,500 classes: 0.12 s at start)."""
        for module in (QtWidgets, QtGui, QtCore):  # (as the star imports' order had it)
            found = getattr(module, name, None)
            if found is not None:
                globals()[name] = found
                return found
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from papershelf.core.paths import package_data


def alive(callback: object) -> bool:
    """Whether a callback may still be called: a method of a Qt object whose C++ side
    was deleted (a dialog closed while its job ran) may not."""
    owner = getattr(callback, "__self__", None)
    return not isinstance(owner, QObject) or bool(isValid(owner))


def translate(context: str, text: str) -> str:
    """A user-visible string, translated in `context` (for a module without a `tr`)."""
    return QCoreApplication.translate(context, text)


class Translator:
    """`tr = Translator("MainWindow")` then `tr("Import…")`: one context per module."""

    def __init__(self, context: str) -> None:
        self.context = context

    def __call__(self, text: str, disambiguation: str = "", n: int = -1) -> str:
        """`text` translated; with `n`, in the plural form for that count ("%n keys")."""
        return QCoreApplication.translate(self.context, text, disambiguation or None, n)


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
    "help": "help-contents",
    "star": "starred",
    "star-outline": "non-starred",
    "papershelf": "accessories-dictionary",
    "recent": "document-open-recent",
}


def dpi_size(width: int, height: int) -> QSize:
    """A size in device-independent pixels scaled to the UI font (no clipped text)."""
    app = QApplication.instance()
    em = 16
    if isinstance(app, QApplication):
        em = max(QFontMetrics(QApplication.font()).height(), 12)
    return QSize(width * em // 16, height * em // 16)
