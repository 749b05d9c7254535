"""Light and dark: the `appearance` preference, System (the default), Light or Dark.

System follows the desktop's colour scheme (Qt's `styleHints().colorScheme()`, and its
changes while Papershelf runs): the platform's own style and palette when the scheme is
light, Fusion with Papershelf's dark palette when it is dark (a desktop that asks for
dark does not always give Qt a dark palette). Light and Dark force Fusion with a light or
the dark palette. The icons are drawn in mid-tone colours readable on both; the sidebar's
counts and the pane's dimmed texts use the palette's placeholder colour, which both
palettes set.
"""

from __future__ import annotations

from papershelf.gui.qt import QApplication, QColor, QPalette, QStyleFactory, Qt

APPEARANCES = ("system", "light", "dark")

_state: dict[str, object] = {}  # the platform's own style and palette; the choice


def wants_dark(choice: str, scheme: Qt.ColorScheme) -> bool:
    """Whether `choice` ('system', 'light', 'dark') shows the dark palette when the
    desktop's colour scheme is `scheme`."""
    if choice == "dark":
        return True
    return choice not in ("light", "dark") and scheme == Qt.ColorScheme.Dark


def dark_palette() -> QPalette:
    """Papershelf's dark palette (for Fusion): light grey text on dark grey, a blue
    selection, links and placeholders readable on it, disabled text dimmer."""
    palette = QPalette()
    roles = QPalette.ColorRole
    colours = {
        roles.Window: "#2b2d30", roles.WindowText: "#e4e6eb", roles.Base: "#1e1f22",
        roles.AlternateBase: "#26282b", roles.ToolTipBase: "#3c3f44",
        roles.ToolTipText: "#e4e6eb", roles.PlaceholderText: "#9a9ea6",
        roles.Text: "#e4e6eb", roles.Button: "#34373b", roles.ButtonText: "#e4e6eb",
        roles.BrightText: "#ff6b6b", roles.Light: "#4a4d52", roles.Midlight: "#3e4146",
        roles.Mid: "#2f3236", roles.Dark: "#1b1c1f", roles.Shadow: "#000000",
        roles.Highlight: "#3d6fb6", roles.HighlightedText: "#ffffff",
        roles.Link: "#6ea8ff", roles.LinkVisited: "#b28cff",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(disabled, role, QColor("#7c8088"))
    palette.setColor(disabled, roles.Highlight, QColor("#4a4d52"))
    return palette


def apply(choice: str) -> None:
    """Show the application in `choice` ('system', 'light' or 'dark'; anything else is
    'system'), now and, for 'system', whenever the desktop's colour scheme changes."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if "style" not in _state:
        _state["style"] = app.style().name()
        _state["palette"] = QPalette(app.palette())
        app.styleHints().colorSchemeChanged.connect(lambda _scheme: scheme_changed())
    _state["choice"] = choice if choice in APPEARANCES else "system"
    _show(app)


def current() -> str:
    """The appearance chosen last ('system' before any)."""
    return str(_state.get("choice", "system"))


def desktop_scheme() -> Qt.ColorScheme:
    """The desktop's colour scheme, as Qt knows it."""
    return QApplication.styleHints().colorScheme()


def scheme_changed() -> None:
    """The desktop switched between light and dark: 'system' follows."""
    app = QApplication.instance()
    if isinstance(app, QApplication) and "style" in _state:
        _show(app)


def _show(app: QApplication) -> None:
    choice = current()
    if wants_dark(choice, desktop_scheme()):
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    elif choice == "light":
        app.setStyle("Fusion")
        fusion = QStyleFactory.create("Fusion")
        app.setPalette(fusion.standardPalette())
    else:
        app.setStyle(str(_state["style"]))
        palette = _state["palette"]
        assert isinstance(palette, QPalette)
        app.setPalette(palette)
