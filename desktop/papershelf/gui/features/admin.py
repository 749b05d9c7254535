"""The library's administration: opening another library, backups, duplicates, finding
metadata, Preferences, and Help's dialogs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from papershelf import lazy
from papershelf.gui import appearance
from papershelf.gui import settings as S
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import QMessageBox, Qt, Translator
from papershelf.gui.shell import Feature, Handler, Shell

if TYPE_CHECKING:
    from papershelf.core import backup
    from papershelf.gui import (
        backups,
        citations,
        dialogs,
        duplicates,
        metadata_dialog,
        preferences,
        shared_dialog,
    )
    from papershelf.gui.backups import BackupsDialog
    from papershelf.gui.duplicates import DuplicatesDialog
    from papershelf.gui.metadata_dialog import MetadataDialog
    from papershelf.gui.preferences import PreferencesDialog
else:
    backup = lazy.module("papershelf.core.backup")
    backups = lazy.module("papershelf.gui.backups")
    citations = lazy.module("papershelf.gui.citations")
    dialogs = lazy.module("papershelf.gui.dialogs")
    duplicates = lazy.module("papershelf.gui.duplicates")
    metadata_dialog = lazy.module("papershelf.gui.metadata_dialog")
    preferences = lazy.module("papershelf.gui.preferences")
    shared_dialog = lazy.module("papershelf.gui.shared_dialog")

tr = Translator("MainWindow")


class AdminFeature(Feature):
    """The dialogs that look after the library as a whole."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self._duplicates: DuplicatesDialog | None = None
        self._metadata: MetadataDialog | None = None
        # A backup the user chose to restore: the application restores it once this window
        # has closed the library, then opens the restored one.
        self.restore_requested: Path | None = None

    def handlers(self) -> dict[str, Handler]:
        shell = self.shell
        return {
            "open_file": lambda: shared_dialog.choose_library_file(shell),
            "open_shared": lambda: shared_dialog.open_shared_library(shell),
            "backups": self.show_backups,
            "find_duplicates": self.show_duplicates,
            "find_metadata": self.find_metadata,
            "preferences": self.show_preferences,
            "shortcuts": self.show_shortcuts,
            "about": lambda: dialogs.show_about(shell, shell.library.location),
        }

    def update_actions(self) -> None:
        metadata_dialog.update_action(self.shell.actions["find_metadata"],
                                      self.shell.selected_count())

    def close(self) -> None:
        if self._duplicates is not None:
            self._duplicates.close()
        if self._metadata is not None:
            self._metadata.close()  # (stops its lookup)

    def show_duplicates(self) -> DuplicatesDialog:
        """Paper > Find Duplicates: the (one, non-modal) list of suspected pairs."""
        shell = self.shell
        if self._duplicates is None:
            self._duplicates = duplicates.DuplicatesDialog(
                shell.library, shell.ops, shell.tasks,
                (shell.actions["undo"], shell.actions["redo"]), shell)
        if self._duplicates.isVisible():  # already open: bring it to the front
            self._duplicates.raise_()
        else:
            self._duplicates.show()
        self._duplicates.activateWindow()
        return self._duplicates

    def find_metadata(self) -> MetadataDialog:
        """Paper > Find Metadata: candidates for the selected papers (none selected:
        every provisional paper) in the (one, non-modal) dialog, which looks them up."""
        shell = self.shell
        if self._metadata is None:
            self._metadata = metadata_dialog.MetadataDialog(
                shell.ops, shell.tasks, (shell.actions["undo"], shell.actions["redo"]), shell)
        self._metadata.look_up(shell.table.selected_ids())
        return self._metadata

    # -- backups ---------------------------------------------------------------------------

    def start_daily_backup(self) -> None:
        """The first start of a day backs the library up, in the background."""
        url = self.shell.library.url

        def failed(exc: BaseException) -> None:
            self.shell.statusBar().showMessage(
                tr("No daily backup: {reason}").format(reason=error_text(exc)))

        self.shell.tasks.run(lambda _job: backup.daily_backup_for(url), None, failed)

    def show_backups(self) -> BackupsDialog | None:
        """File > Backups: make one now, or restore one (the window then reopens)."""
        shell = self.shell
        library_file = backup.library_file(shell.library.url)
        if library_file is None:
            QMessageBox.information(shell, tr("Backups"), tr(
                "This library is on a database server: back it up with the server's own "
                "tools (pg_dump)."))
            return None
        dialog = backups.BackupsDialog(library_file, shell.tasks, shell)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _code: self._backup_chosen(dialog.restore_requested))
        dialog.open()
        return dialog

    def _backup_chosen(self, path: Path | None) -> None:
        if path is not None:
            self.restore_requested = path
            self.shell.close()

    # -- preferences and help --------------------------------------------------------------

    def show_preferences(self) -> PreferencesDialog:
        """Edit > Preferences (window-modal): key pattern and export defaults."""
        shell = self.shell
        settings = shell.settings
        pid = shell.table.current_id()
        detail = shell.library.paper(pid) if pid is not None else None
        dialog = preferences.PreferencesDialog(shell.library.key_pattern,
                                   preferences.load_export_options(settings),
                                   detail.record if detail is not None else None, shell,
                                   language=settings.get(S.LANGUAGE),
                                   appearance=settings.get(S.APPEARANCE),
                                   cite_form=settings.get(S.CITE_FORM),
                                   connector=settings.get(S.ZOTERO_CONNECTOR),
                                   mark_reading=settings.get(S.MARK_READING),
                                   feeds_hours=settings.get(S.FEEDS_CHECK_HOURS))
        citations.add_style_choice(dialog, settings.get(S.CSL_STYLE))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._apply_preferences(dialog))
        dialog.open()
        return dialog

    def _apply_preferences(self, dialog: PreferencesDialog) -> None:
        shell = self.shell
        settings = shell.settings
        preferences.save_export_options(settings, dialog.export_options())
        settings.set(S.CITE_FORM, dialog.cite_form())
        citations.apply_style_choice(dialog, settings)
        settings.set(S.LANGUAGE, dialog.language())
        settings.set(S.ZOTERO_CONNECTOR, dialog.connector_enabled())
        settings.set(S.MARK_READING, dialog.mark_reading())
        settings.set(S.FEEDS_CHECK_HOURS, dialog.feeds_check_hours())
        shell.settings_changed()  # (the Zotero Connector's server, the checks' schedule)
        if dialog.appearance() != settings.get(S.APPEARANCE) \
                or dialog.appearance() != appearance.current():
            settings.set(S.APPEARANCE, dialog.appearance())
            appearance.apply(dialog.appearance())
        if dialog.pattern_changed():
            pattern = dialog.pattern()
            shell.ops.set_key_pattern(pattern, lambda: shell.statusBar().showMessage(
                tr("New papers get citation keys from {pattern}").format(pattern=pattern),
                6000))

    def show_shortcuts(self) -> None:
        """Help > Keyboard Shortcuts."""
        dialog = dialogs.ShortcutsDialog(self.shell.actions, self.shell)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
