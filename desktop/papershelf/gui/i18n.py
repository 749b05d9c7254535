"""The interface language: Papershelf's catalogue and Qt's own, installed before any window.

The language is the user's `language` preference: "system" follows the system
locale's UI languages (a Chinese desktop gets Simplified Chinese, anything without
a catalogue gets English), "en" and "zh_CN" force one. Catalogues are `.qm` files
compiled from resources/translations/*.ts when the package is built, carried in
papershelf/data/translations.
"""

from __future__ import annotations

from pathlib import Path

from papershelf.core.paths import package_data
from papershelf.gui.qt import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from papershelf.messages import Text

CATALOGUE = "papershelf"
# The core's messages (papershelf.messages), in a catalogue of their own: lupdate
# reads only the GUI's sources, so it must not own (and drop) them.
CORE_CATALOGUE = "core"
CORE_CONTEXT = "Core"
LANGUAGES = ("system", "en", "zh_CN")


def translations_dir() -> Path | None:
    """Where the compiled catalogues are (papershelf/data/translations)."""
    return package_data("translations")


def locale_for(language: str, system: QLocale | None = None) -> QLocale:
    """The locale whose UI languages choose the catalogue ('system' or a language code)."""
    if language in LANGUAGES and language != "system":
        return QLocale(language)
    return system if system is not None else QLocale.system()


class CatalogueTranslator(QTranslator):
    """A QTranslator that also finds messages lupdate filed without a context.

    The modules translate with `tr = Translator("Context")` and call `tr("…")` at module
    level, which pyside6-lupdate extracts into the empty context while Qt asks for
    them in "Context"; so a miss in the asked context is looked up in the empty one.
    """

    def translate(self, context: str, source_text: str, disambiguation: str | None = None,
                  n: int = -1) -> str | None:
        text = super().translate(context, source_text, disambiguation, n)
        if not text and context:
            text = super().translate("", source_text, disambiguation, n)
        # None is Qt's null string, "no translation here"; "" would be a translation.
        return text or None


def install(language: str, folder: Path | None = None,
            system: QLocale | None = None) -> list[QTranslator]:
    """Install the catalogue of `language` (and Qt's, for standard buttons and menus).

    Returns the translators installed (empty for plain English without a catalogue);
    pass them to `remove` to undo. Qt's own catalogue is only loaded with ours, so
    the interface is never half in another language.
    """
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install translators after creating the QApplication")
    folder = translations_dir() if folder is None else folder
    locale = locale_for(language, system)
    QLocale.setDefault(locale)  # numbers and dates follow the interface's language
    installed: list[QTranslator] = []
    ours = CatalogueTranslator(app)
    if folder is not None and ours.load(locale, CATALOGUE, "_", str(folder)):
        app.installTranslator(ours)
        installed.append(ours)
        core = QTranslator(app)
        if core.load(locale, CORE_CATALOGUE, "_", str(folder)):
            app.installTranslator(core)
            installed.append(core)
        qt_dirs = [QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath), str(folder)]
        for qt_dir in qt_dirs:
            qtbase = QTranslator(app)
            if qtbase.load(locale, "qtbase", "_", qt_dir):
                app.installTranslator(qtbase)
                installed.append(qtbase)
                break
    return installed


def number(n: int) -> str:
    """A count as the interface's locale writes it (100,000 / 100 000), the same in the
    sidebar, the status bar and every message; grouped in English under the C locale."""
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return locale.toString(int(n))


def data_size(size: int) -> str:
    """Bytes as the interface's locale writes them, in the unit that fits: "27.6 kB",
    "361.2 MB" (never "0.0 MB" for a small file)."""
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return locale.formattedDataSize(size, 1, QLocale.DataSizeFormat.DataSizeSIFormat)


def localized(message: str) -> str:
    """A message of the core (`papershelf.messages.Text`) in the interface's language: its
    template translated, then filled with its values (themselves localized); the
    English as it is where the catalogue has no translation (or for a plain str)."""
    if not isinstance(message, Text):
        return message
    untranslated = message.template.replace("%n", str(message.n))
    translated = QCoreApplication.translate(CORE_CONTEXT, message.template, None, message.n)
    if translated == untranslated:
        return str(message)
    values = {name: localized(value) if isinstance(value, str) else value
              for name, value in message.values.items()}
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError):  # (a translation with a broken field)
        return str(message)


def error_text(exc: BaseException) -> str:
    """What an error says, in the interface's language: its message (a ServiceError's
    `message`, or a LibraryError's first argument) localized when the core made it a
    `Text`, else as it is."""
    made = getattr(exc, "message", None)
    if not isinstance(made, Text):
        made = exc.args[0] if len(exc.args) == 1 else None
    return localized(made) if isinstance(made, Text) else str(exc)


def remove(translators: list[QTranslator]) -> None:
    """Uninstall translators `install` returned (tests, and the end of `run_gui`)."""
    app = QCoreApplication.instance()
    QLocale.setDefault(QLocale.system())
    for translator in translators:
        if app is not None:
            app.removeTranslator(translator)
        translator.deleteLater()
