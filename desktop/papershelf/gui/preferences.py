"""Edit > Preferences: the library's citation-key pattern, the BibTeX export defaults, the
interface language and how Papershelf behaves on the network.

The key pattern belongs to the library (it is stored in the library, so every window and
the command line on it agree); the export defaults are the user's and live in QSettings
with the other preferences. For those the dialog only collects values: the window applies
them (the pattern through `Operations`, the export defaults through `save_export_options`).

The Network section is the exception: its values are not the window's. Working offline
and the contact e-mail go to `metadata.settings`' preference file (which every lookup, the
command line's too, reads when it starts), API keys to the system keyring and nowhere
else; so the dialog saves them itself when OK is pressed, and Remove deletes a stored key
at once. A key field never shows a stored key, only whether there is one.
"""

from __future__ import annotations

import html

from papershelf.core import citing, keys
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
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPalette,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStyle,
    Qt,
    QTabWidget,
    QVBoxLayout,
    QWidget,
    Translator,
    dpi_size,
)
from papershelf.gui.settings import Settings
from papershelf.metadata.settings import (
    SERVICES,
    KeyStoreError,
    NetworkPreferences,
    contact_problem,
    environment_overrides,
    key_is_stored,
    key_problem,
    keyring_problem,
    load_network_preferences,
    remove_key,
    save_network_preferences,
    store_key,
)

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
        include_files=settings.get(S.EXPORT_FILES),
    )


def save_export_options(settings: Settings, options: ExportOptions) -> None:
    """Remember export defaults as the user's preferences."""
    settings.set(S.EXPORT_ABSTRACT, options.include_abstract)
    settings.set(S.EXPORT_NOTES, options.include_notes)
    settings.set(S.EXPORT_ASCII, options.ascii_only)
    settings.set(S.EXPORT_FLAVOUR, options.flavour)
    settings.set(S.EXPORT_FILES, options.include_files)


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
    """The key pattern (validated as typed, with an example key), export defaults, the
    language and the network preferences (saved by the dialog itself, see the module)."""

    def __init__(self, pattern: str, export: ExportOptions,
                 example: PaperRecord | None = None, parent: QWidget | None = None,
                 language: str = "system", network: NetworkPreferences | None = None,
                 appearance: str = "system", cite_form: str = "cite",
                 connector: bool = False, mark_reading: bool = True,
                 feeds_hours: int = 6) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(tr("Preferences"))
        self._initial_pattern = pattern
        self._example = example if example is not None else EXAMPLE_RECORD
        layout = QVBoxLayout(self)
        # Three tabs (Ctrl+Tab), each in a scroll area: the dialog fits a 1024x600 screen.
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for title, sections in (
                (tr("Citation Keys && Export"),
                 (self._build_keys(pattern), self._build_export(export),
                  self._build_citing(cite_form))),
                (tr("Interface"), (self._build_language(language, appearance),
                                   self._build_reading(mark_reading))),
                (tr("Network"), (self._build_network(
                    network if network is not None else load_network_preferences()),
                    self._build_connector(connector), self._build_feeds(feeds_hours)))):
            page = QWidget()
            page_layout = QVBoxLayout(page)
            for section in sections:
                page_layout.addWidget(section)
            page_layout.addStretch(1)
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(page)
            self.tabs.addTab(scroll, title)
        layout.addWidget(self.tabs, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.pattern_edit.textChanged.connect(self._validate)
        self.contact_edit.textChanged.connect(self._validate)
        for edit in self.key_edits.values():
            edit.textChanged.connect(self._validate)
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
        self.files_check = QCheckBox(tr("Include attached PDFs as a file fiel&d"))
        self.files_check.setToolTip(tr("JabRef's form for BibTeX, Better BibLaTeX's for "
                                       "BibLaTeX: the paths of the attached PDFs"))
        self.files_check.setChecked(export.include_files)
        for check in (self.abstract_check, self.notes_check, self.ascii_check,
                      self.files_check):
            form.addRow("", check)
        return box

    def _build_citing(self, form: str) -> QGroupBox:
        box = QGroupBox(tr("Copy Citation"))
        layout = QFormLayout(box)
        self.cite_combo = QComboBox()
        for name in citing.FORMS:
            self.cite_combo.addItem(citing.citation(["key1", "key2"], name), name)
        self.cite_combo.setCurrentIndex(max(0, self.cite_combo.findData(form)))
        self.cite_combo.setToolTip(tr("What Edit › Copy Citation (Ctrl+Shift+K) puts on "
                                      "the clipboard: LaTeX (natbib, biblatex), pandoc "
                                      "or Typst"))
        layout.addRow(tr("&Cite as:"), self.cite_combo)
        return box

    def cite_form(self) -> str:
        """The chosen form of Copy Citation (a core.citing.FORMS name)."""
        return str(self.cite_combo.currentData())

    def _build_language(self, language: str, appearance: str) -> QGroupBox:
        box = QGroupBox(tr("Language and appearance"))
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
        self.appearance_combo = QComboBox()
        self.appearance_combo.setObjectName("appearance")
        self.appearance_combo.addItem(tr("As the system"), "system")
        self.appearance_combo.addItem(tr("Light"), "light")
        self.appearance_combo.addItem(tr("Dark"), "dark")
        self.appearance_combo.setCurrentIndex(
            max(0, self.appearance_combo.findData(appearance)))
        self.appearance_combo.setToolTip(tr("As the system follows the desktop's light or "
                                            "dark colour scheme"))
        form.addRow(tr("&Appearance:"), self.appearance_combo)
        return box

    def _build_network(self, network: NetworkPreferences) -> QGroupBox:
        box = QGroupBox(tr("Network"))
        form = QFormLayout(box)
        self.offline_check = QCheckBox(tr("Work off&line: ask no web service (answers "
                                          "already fetched are still used)"))
        self.offline_check.setObjectName("workOffline")
        self.offline_check.setChecked(network.offline)
        form.addRow("", self.offline_check)

        self.contact_edit = QLineEdit(network.contact)
        self.contact_edit.setObjectName("contactEmail")
        self.contact_edit.setPlaceholderText(tr("name@example.org"))
        self.contact_edit.setToolTip(tr("Sent to Crossref and OpenAlex with each request "
                                        "(their “polite pool”); leave empty to send none"))
        label = QLabel(tr("Contact &e-mail:"))
        label.setBuddy(self.contact_edit)
        form.addRow(label, self.contact_edit)

        self._keyring_problem = keyring_problem()
        self.key_edits: dict[str, QLineEdit] = {}
        self.remove_buttons: dict[str, QPushButton] = {}
        for service in SERVICES.values():
            if not service.takes_key:
                continue
            edit = QLineEdit()
            edit.setObjectName(f"apiKey_{service.name}")
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setInputMethodHints(Qt.InputMethodHint.ImhSensitiveData
                                     | Qt.InputMethodHint.ImhNoPredictiveText
                                     | Qt.InputMethodHint.ImhNoAutoUppercase)
            edit.setMaxLength(512)
            remove = QPushButton(tr("Remove"))
            remove.setObjectName(f"removeKey_{service.name}")
            remove.setAutoDefault(False)
            remove.setToolTip(tr("Delete the stored {service} key from the system keyring "
                                 "now").format(service=service.label))
            remove.clicked.connect(lambda _=False, name=service.name: self._remove_key(name))
            row = QHBoxLayout()
            row.addWidget(edit, 1)
            row.addWidget(remove)
            label = QLabel(tr("{service} API key:").format(service=service.label))
            label.setBuddy(edit)
            form.addRow(label, row)
            self.key_edits[service.name] = edit
            self.remove_buttons[service.name] = remove
            self._show_key_state(service.name)

        # What stops OK in this section (an e-mail or key typed wrongly); hidden when none.
        self.network_problem = QLabel()
        self.network_problem.setObjectName("networkProblem")
        self.network_problem.setWordWrap(True)
        self.network_problem.setTextFormat(Qt.TextFormat.PlainText)
        form.addRow("", self.network_problem)
        self._network_form = form

        self.network_status = QLabel()
        self.network_status.setObjectName("networkStatus")
        self.network_status.setWordWrap(True)
        self.network_status.setTextFormat(Qt.TextFormat.PlainText)
        form.addRow("", self.network_status)
        self._show_network_status()

        overrides = environment_overrides()
        self.environment_note = QLabel(tr("Set in the environment, which wins over these "
                                          "preferences: {variables}")
                                       .format(variables=", ".join(overrides)))
        self.environment_note.setObjectName("environmentNote")
        self.environment_note.setWordWrap(True)
        self.environment_note.setTextFormat(Qt.TextFormat.PlainText)
        self.environment_note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        form.addRow("", self.environment_note)
        form.setRowVisible(self.environment_note, bool(overrides))
        return box

    def _show_key_state(self, name: str) -> None:
        """Whether a key is stored for service `name` (never the key): the field's
        placeholder and the Remove button say it."""
        edit, remove = self.key_edits[name], self.remove_buttons[name]
        if self._keyring_problem is not None:
            edit.setPlaceholderText(tr("Cannot be stored without a system keyring"))
            edit.setEnabled(False)
            remove.setEnabled(False)
            return
        stored = key_is_stored(name)
        edit.setPlaceholderText(tr("A key is stored (type a new one to replace it)") if stored
                                else tr("No key stored"))
        remove.setEnabled(stored)

    def _show_network_status(self, problem: str | None = None) -> None:
        """The line under the keys: `problem` when there is one, else where keys are kept
        (or that they cannot be kept)."""
        if problem is None and self._keyring_problem is not None:
            problem = tr("No system keyring is available, so API keys cannot be stored "
                         "here; set {variables} instead.").format(variables=", ".join(
                             SERVICES[name].key_env for name in self.key_edits))
        if problem is None:
            self.network_status.setText(tr("Keys are kept in the system keyring, never in a "
                                           "file."))
            self.network_status.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        else:
            self.network_status.setText(problem)
            self.network_status.setForegroundRole(QPalette.ColorRole.WindowText)

    def _remove_key(self, name: str) -> None:
        """Remove: delete the stored key of service `name` now (Cancel does not bring it
        back), and forget what was typed in its field."""
        try:
            remove_key(name)
        except KeyStoreError as error:
            self._show_network_status(str(error))
            return
        self.key_edits[name].clear()
        self._show_key_state(name)
        self._show_network_status(tr("The {service} key was removed from the keyring.")
                                  .format(service=SERVICES[name].label))

    def network_preferences(self) -> NetworkPreferences:
        """The network preferences chosen (API keys are not among them)."""
        return NetworkPreferences(offline=self.offline_check.isChecked(),
                                  contact=self.contact_edit.text().strip())

    def _network_problem(self) -> str | None:
        """Why the network section cannot be saved as it is, or None."""
        problem = contact_problem(self.contact_edit.text())
        if problem is not None:
            return tr("Contact e-mail: {problem}").format(problem=problem)
        for name, edit in self.key_edits.items():
            if edit.text().strip() and key_problem(edit.text()) is not None:
                return tr("{service} API key: {problem}").format(
                    service=SERVICES[name].label, problem=key_problem(edit.text()))
        return None

    def _save_network(self) -> bool:
        """Store the keys typed in the keyring and the other network preferences in their
        file; False (with the reason shown) when one of them could not be saved."""
        for name, edit in self.key_edits.items():
            if not edit.text().strip():
                continue
            try:
                store_key(name, edit.text())
            except KeyStoreError as error:
                self._show_network_status(str(error))
                return False
            edit.clear()
            self._show_key_state(name)
        try:
            save_network_preferences(self.network_preferences())
        except (OSError, ValueError) as error:
            self._show_network_status(tr("Network preferences not saved: {error}")
                                      .format(error=error))
            return False
        return True

    def _build_connector(self, on: bool) -> QGroupBox:
        note = QLabel(tr("While the window is open, Save to Zotero in the browser saves "
                         "into this library (at 127.0.0.1, port 23119; only the extension "
                         "may send, not web pages). Zotero itself must not be running."))
        note.setWordWrap(True)
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        box, self.connector_check = _checked_group(
            tr("Browser"), tr("Receive papers from the browser's &Zotero Connector"),
            "zoteroConnector", on, note)
        return box

    def _build_reading(self, mark_reading: bool) -> QGroupBox:
        box, self.mark_reading_check = _checked_group(
            tr("Reading"), tr("Opening an unread paper's PDF marks it as being &read"),
            "markReading", mark_reading)
        return box

    def mark_reading(self) -> bool:
        """Whether opening an unread paper's PDF makes it "reading"."""
        return self.mark_reading_check.isChecked()

    def _build_feeds(self, hours: int) -> QGroupBox:
        box = QGroupBox(tr("Followed Sources"))
        form = QFormLayout(box)
        self.feeds_hours = QSpinBox()
        self.feeds_hours.setObjectName("feedsCheckHours")
        self.feeds_hours.setRange(0, 168)
        self.feeds_hours.setValue(max(0, min(hours, 168)))
        self.feeds_hours.setSuffix(tr(" hours"))
        self.feeds_hours.setSpecialValueText(tr("only when asked"))
        self.feeds_hours.setToolTip(tr("How often the window asks the sources you follow "
                                       "for new papers (never in offline mode)"))
        form.addRow(tr("Check every:"), self.feeds_hours)
        return box

    def feeds_check_hours(self) -> int:
        """How often the followed sources are checked, in hours (0: only when asked)."""
        return self.feeds_hours.value()

    def connector_enabled(self) -> bool:
        """Whether the Zotero Connector's server is to run."""
        return self.connector_check.isChecked()

    def appearance(self) -> str:
        """The appearance chosen: 'system', 'light' or 'dark'."""
        return str(self.appearance_combo.currentData())

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
        network_problem = self._network_problem()
        self.network_problem.setText(network_problem or "")
        self._network_form.setRowVisible(self.network_problem, network_problem is not None)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            problem is None and network_problem is None)

    def is_valid(self) -> bool:
        """Whether what was typed can be saved: the pattern, the contact e-mail, the keys."""
        return pattern_problem(self.pattern_edit.text()) is None \
            and self._network_problem() is None

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
            include_files=self.files_check.isChecked(),
        )

    def accept(self) -> None:
        """Close with OK, but never with an invalid pattern or e-mail (Enter in a field);
        the network preferences are saved here, and the dialog stays open (saying why)
        when they cannot be."""
        if self.is_valid() and self._save_network():
            super().accept()


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def _checked_group(title: str, label: str, name: str, on: bool,
                   *below: QWidget) -> tuple[QGroupBox, QCheckBox]:
    """A group box of the dialog holding one check box (`name` its object name), then
    the widgets `below` it."""
    box = QGroupBox(title)
    check = QCheckBox(label)
    check.setObjectName(name)
    check.setChecked(on)
    layout = QVBoxLayout(box)
    for widget in (check, *below):
        layout.addWidget(widget)
    return box, check
