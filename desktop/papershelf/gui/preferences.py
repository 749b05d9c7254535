"""Edit > Preferences: the library's citation-key pattern and the BibTeX export defaults.

The key pattern belongs to the library (it is stored in the library, so every window and
the command line on it agree); the export defaults are the user's and live in QSettings
with the other preferences. The dialog only collects values: the window applies them
(the pattern through `Operations`, the export defaults through `save_export_options`).
"""

from __future__ import annotations

import html

from papershelf.core import keys
from papershelf.core.transfer import FLAVOURS, ExportOptions
from papershelf.formats.bibtex import Flavour
from papershelf.formats.records import Author, PaperRecord
from papershelf.gui import settings as S
from papershelf.gui.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFontDatabase,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPalette,
    QPushButton,
    QStyle,
    Qt,
    QVBoxLayout,
    QWidget,
    Translator,
    dpi_size,
)
from papershelf.gui.settings import Settings

tr = Translator("Preferences")

# Shown as the example when no paper is current.
EXAMPLE_RECORD = PaperRecord(
    entry_type="article",
    title="On Computable Numbers, with an Application to the Entscheidungsproblem",
    authors=[Author("Turing", "Alan M.")],
    venue="Proceedings of the London Mathematical Society",
    year=1936,
)


def load_export_options(settings: Settings) -> ExportOptions:
    """The user's export defaults (declared defaults where nothing valid is stored)."""
    return ExportOptions(
        include_abstract=settings.get(S.EXPORT_ABSTRACT),
        include_notes=settings.get(S.EXPORT_NOTES),
        ascii_only=settings.get(S.EXPORT_ASCII),
        flavour=_flavour(settings.get(S.EXPORT_FLAVOUR)),
    )


def save_export_options(settings: Settings, options: ExportOptions) -> None:
    """Remember export defaults as the user's preferences."""
    settings.set(S.EXPORT_ABSTRACT, options.include_abstract)
    settings.set(S.EXPORT_NOTES, options.include_notes)
    settings.set(S.EXPORT_ASCII, options.ascii_only)
    settings.set(S.EXPORT_FLAVOUR, options.flavour)


def _flavour(value: str) -> Flavour:
    """The flavour named `value`; BibTeX for anything else (a hand-edited setting)."""
    for flavour in FLAVOURS:
        if value == flavour:
            return flavour
    return "bibtex"


def pattern_problem(pattern: str) -> str | None:
    """Why `pattern` is not a key pattern (the core's message), or None if it is one."""
    try:
        keys.validate_pattern(pattern.strip())
    except ValueError as exc:
        return str(exc)
    return None


class PreferencesDialog(QDialog):
    """The key pattern (validated as typed, with an example key) and export defaults."""

    def __init__(self, pattern: str, export: ExportOptions,
                 example: PaperRecord | None = None, parent: QWidget | None = None,
                 language: str = "system") -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(tr("Preferences"))
        self._initial_pattern = pattern
        self._example = example if example is not None else EXAMPLE_RECORD
        layout = QVBoxLayout(self)
        layout.addWidget(self._build_keys(pattern))
        layout.addWidget(self._build_export(export))
        layout.addWidget(self._build_language(language))
        layout.addStretch(1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.pattern_edit.textChanged.connect(self._validate)
        self._validate()
        self.resize(dpi_size(620, 0).width(), self.sizeHint().height())

    def _build_keys(self, pattern: str) -> QGroupBox:
        box = QGroupBox(tr("Citation keys"))
        form = QFormLayout(box)
        self.pattern_edit = QLineEdit(pattern)
        self.pattern_edit.setObjectName("keyPattern")
        self.pattern_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.pattern_edit.setToolTip(tr("How a new paper's citation key is built "
                                        "(Better BibTeX notation)"))
        self.default_button = QPushButton(tr("Default"))
        self.default_button.setToolTip(tr("Use the default pattern {pattern}")
                                       .format(pattern=keys.DEFAULT_PATTERN))
        self.default_button.setAutoDefault(False)
        self.default_button.clicked.connect(
            lambda: self.pattern_edit.setText(keys.DEFAULT_PATTERN))
        row = QHBoxLayout()
        row.addWidget(self.pattern_edit, 1)
        row.addWidget(self.default_button)
        label = QLabel(tr("&Pattern:"))
        label.setBuddy(self.pattern_edit)
        form.addRow(label, row)

        self.status_icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.status_icon.setPixmap(self.style().standardIcon(
            QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(size, size))
        self.status_icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.status = QLabel()
        self.status.setObjectName("patternStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status_icon)
        status_row.addWidget(self.status, 1)
        form.addRow("", status_row)

        fields = " ".join(f"[{name}]" for name in keys.FIELDS)
        modifiers = " ".join(f":{name}" for name in keys.MODIFIERS)
        help_text = QLabel(tr("Fields: {fields}; modifiers: {modifiers}. The pattern applies "
                              "to papers added from now on; Paper › Regenerate Citation Keys "
                              "renews existing keys.").format(fields=fields,
                                                              modifiers=modifiers))
        help_text.setWordWrap(True)
        help_text.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        form.addRow("", help_text)
        return box

    def _build_export(self, export: ExportOptions) -> QGroupBox:
        box = QGroupBox(tr("BibTeX export and Copy BibTeX"))
        form = QFormLayout(box)
        self.flavour_combo = QComboBox()
        self.flavour_combo.addItem(tr("BibTeX"), "bibtex")
        self.flavour_combo.addItem(tr("BibLaTeX (for biber)"), "biblatex")
        self.flavour_combo.setCurrentIndex(max(0, self.flavour_combo.findData(export.flavour)))
        self.flavour_combo.setToolTip(tr("BibLaTeX writes date, journaltitle and eprint "
                                         "fields instead of year, journal and note"))
        form.addRow(tr("&Format:"), self.flavour_combo)  # the label's buddy is set
        self.abstract_check = QCheckBox(tr("Include &abstracts"))
        self.abstract_check.setChecked(export.include_abstract)
        self.notes_check = QCheckBox(tr("Include &notes (as an annote field)"))
        self.notes_check.setChecked(export.include_notes)
        self.ascii_check = QCheckBox(tr("Write accented letters as LaTeX &commands "
                                        "(ASCII only)"))
        self.ascii_check.setChecked(export.ascii_only)
        for check in (self.abstract_check, self.notes_check, self.ascii_check):
            form.addRow("", check)
        return box

    def _build_language(self, language: str) -> QGroupBox:
        box = QGroupBox(tr("Language"))
        form = QFormLayout(box)
        self.language_combo = QComboBox()
        self.language_combo.addItem(tr("As the system"), "system")
        self.language_combo.addItem("English", "en")
        self.language_combo.addItem("简体中文", "zh_CN")
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(language)))
        form.addRow(tr("&Interface:"), self.language_combo)
        note = QLabel(tr("Takes effect when Papershelf starts again."))
        note.setEnabled(False)
        form.addRow("", note)
        return box

    def language(self) -> str:
        """The interface language chosen: 'system', 'en' or 'zh_CN'."""
        return str(self.language_combo.currentData())

    def _validate(self) -> None:
        """Check the pattern as it is typed: an example key, or why it is invalid."""
        pattern = self.pattern_edit.text().strip()
        problem = pattern_problem(pattern)
        if problem is None:
            title = self._example.title
            short = title if len(title) <= 48 else title[:47].rstrip() + "…"
            self.status.setText(tr("Example: <b><tt>{key}</tt></b> for “{title}”").format(
                key=keys.format_key(pattern, self._example), title=_escape(short)))
        else:
            self.status.setText(_escape(problem[:1].upper() + problem[1:]))
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status_icon.setVisible(problem is not None)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(problem is None)

    def is_valid(self) -> bool:
        """Whether the pattern typed can be saved."""
        return pattern_problem(self.pattern_edit.text()) is None

    def pattern(self) -> str:
        """The pattern typed (stripped)."""
        return self.pattern_edit.text().strip()

    def pattern_changed(self) -> bool:
        """Whether the pattern differs from the library's."""
        return self.pattern() != self._initial_pattern

    def export_options(self) -> ExportOptions:
        """The export defaults chosen."""
        return ExportOptions(
            include_abstract=self.abstract_check.isChecked(),
            include_notes=self.notes_check.isChecked(),
            ascii_only=self.ascii_check.isChecked(),
            flavour=_flavour(str(self.flavour_combo.currentData())),
        )

    def accept(self) -> None:
        """Close with OK, but never with an invalid pattern (Enter in the field)."""
        if self.is_valid():
            super().accept()


def _escape(text: str) -> str:
    return html.escape(text, quote=False)
