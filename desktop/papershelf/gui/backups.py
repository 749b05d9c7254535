"""File > Backups…, and what the window offers when a library is damaged.

`BackupsDialog` lists the library's backups (date, kind, size, papers), makes one now in
the background, and asks before a restore, which the application carries out with the
library closed (`restore_requested`), then opens the restored library again.
`RecoveryDialog` is shown instead of the window when the library turns out damaged: it
says so in plain words and offers the newest sound backup, or a salvage into a new file;
the damaged file is kept as it is either way.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from papershelf.core import backup
from papershelf.gui.i18n import data_size, error_text
from papershelf.gui.qt import (
    QDesktopServices,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QLocale,
    QMessageBox,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QUrl,
    QVBoxLayout,
    QWidget,
    Translator,
)
from papershelf.gui.workers import Job, TaskManager

tr = Translator("Backups")


def _when(info: backup.BackupInfo) -> str:
    """When a backup was made, as the dialogs show it."""
    return info.created.strftime("%Y-%m-%d %H:%M")


def _plain_label(text: str, parent: QWidget) -> QLabel:
    """A label that shows `text` as it is (a path or a message is never markup)."""
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def _newest_readable(library_file: Path) -> backup.BackupInfo | None:
    """The newest backup that can be read, with its paper count; only the backups newer
    than it are opened (this runs before any window, while the user waits)."""
    for info in backup.list_backups(library_file, with_counts=False):
        papers = backup.paper_count(info.path)
        if papers is not None:
            return replace(info, papers=papers)
    return None


class BackupsDialog(QDialog):
    """The library's backups: make one now, restore one (after asking), show the folder."""

    def __init__(self, library_file: Path, tasks: TaskManager,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Backups"))
        self.library_file = library_file
        self.tasks = tasks
        self.restore_requested: Path | None = None
        self._backups: list[backup.BackupInfo] = []
        self._checking: Path | None = None  # the backup whose full check runs
        layout = QVBoxLayout(self)
        policy = backup.read_policy(library_file)
        self.intro = _plain_label(tr(
            "Papershelf backs your library up on the first start of each day and before "
            "every upgrade, and keeps the newest {daily} daily (at most {budget} of them, "
            "but always the last two) and {upgrade} pre-upgrade backups in {folder}.").format(
                daily=policy.keep_daily, budget=data_size(policy.daily_budget),
                upgrade=policy.keep_migration, folder=backup.backup_folder(library_file)),
            self)
        layout.addWidget(self.intro)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels([tr("Date"), tr("Kind"), tr("Size"),
                                              tr("Papers")])
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.table)
        self.space = QLabel(self)  # what the backups take on the disk
        layout.addWidget(self.space)
        self.status = QLabel(self)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.back_up_button = QPushButton(tr("Back Up Now"), self)
        self.restore_button = QPushButton(tr("Restore…"), self)
        self.folder_button = QPushButton(tr("Show Folder"), self)
        for button in (self.back_up_button, self.restore_button, self.folder_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        self.back_up_button.clicked.connect(self.back_up_now)
        self.restore_button.clicked.connect(self.restore)
        self.folder_button.clicked.connect(self.show_folder)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 360)
        self.refresh()

    def refresh(self) -> None:
        """List the backups again (in the background: counting papers opens each file)."""
        self.tasks.run(lambda _job: backup.list_backups(self.library_file), self._listed,
                       self._failed)

    def _listed(self, found: object) -> None:
        assert isinstance(found, list)
        self._backups = found
        kinds = {"daily": tr("daily"), "migration": tr("before an upgrade"),
                 "manual": tr("made by you"), "restore": tr("replaced by a restore")}
        self.table.setRowCount(len(found))
        for row, info in enumerate(found):
            papers = tr("unreadable") if info.papers is None else QLocale().toString(info.papers)
            for column, text in enumerate((_when(info), kinds.get(info.kind, info.kind),
                                           data_size(info.size), papers)):
                item = QTableWidgetItem(text)
                item.setToolTip(str(info.path))
                self.table.setItem(row, column, item)
        if found and not self.table.selectedItems():
            self.table.selectRow(0)
        self.space.setText(tr("Space the backups take together: {size}").format(
            size=data_size(sum(b.size for b in found))))
        self._update_buttons()

    def _failed(self, exc: BaseException) -> None:
        self.back_up_button.setEnabled(True)
        self.status.setText(error_text(exc))

    def _update_buttons(self) -> None:
        chosen = self.chosen()
        self.restore_button.setEnabled(chosen is not None and chosen.papers is not None)

    def chosen(self) -> backup.BackupInfo | None:
        """The backup selected in the list."""
        rows = {index.row() for index in self.table.selectedIndexes()}
        return self._backups[rows.pop()] if len(rows) == 1 else None

    def back_up_now(self) -> None:
        """A backup now, in the background (the window goes on working): in place after
        the quick check, then fully checked in the same job (on a million papers the
        full check takes a few times longer than the copy). Bound methods receive the
        results: a dialog closed meanwhile gets none (`workers`), the job goes on."""
        self.back_up_button.setEnabled(False)
        self.status.setText(tr("Backing up…"))

        def task(job: Job) -> Path:
            path = backup.make_backup(self.library_file, verify=False)
            self._checking = path
            job.progress(1, 2)
            backup.verify_backup(path)
            return path

        self.tasks.run(task, self._checked, self._failed, self._backed_up)

    def _backed_up(self, _done: int, _total: int) -> None:
        self.back_up_button.setEnabled(True)
        self.status.setText(tr("Backed up to {path}; checking it…").format(
            path=self._checking))
        self.refresh()

    def _checked(self, path: object) -> None:
        self.status.setText(tr("Backed up to {path} and checked").format(path=path))

    def restore(self) -> None:
        """Ask, then hand the chosen backup to the application to restore."""
        chosen = self.chosen()
        if chosen is None:
            return
        answer = QMessageBox.question(
            self, tr("Restore Backup"),
            tr("Replace your library by the backup of {date} ({papers} papers)? The "
               "library as it is now is kept as a backup too, and Papershelf opens the "
               "restored library.").format(date=_when(chosen), papers=chosen.papers))
        if answer == QMessageBox.StandardButton.Yes:
            self.restore_requested = chosen.path
            self.accept()

    def show_folder(self) -> None:
        folder = backup.backup_folder(self.library_file)
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


class RecoveryDialog(QDialog):
    """The library is damaged: restore the newest sound backup, salvage, or quit."""

    def __init__(self, library_file: Path, problem: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Your Library Is Damaged"))
        self.library_file = library_file
        self.newest = _newest_readable(library_file)
        self.choice: str | None = None  # "restore" or "salvage"
        self.salvage_to: Path | None = None
        layout = QVBoxLayout(self)
        text = tr("Papershelf found your library damaged (a crash or a failing disk can do "
                  "this) and did not change it.\n\n{problem}").format(problem=problem)
        if self.newest is not None:
            text += "\n\n" + tr("The newest sound backup is from {date}, with {papers} "
                                "papers.").format(date=_when(self.newest),
                                                  papers=self.newest.papers)
        layout.addWidget(_plain_label(text, self))
        buttons = QDialogButtonBox(self)
        self.restore_button = buttons.addButton(tr("Restore the Backup"),
                                                QDialogButtonBox.ButtonRole.AcceptRole)
        self.restore_button.setEnabled(self.newest is not None)
        self.salvage_button = buttons.addButton(tr("Salvage into a New Library…"),
                                                QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(tr("Quit"), QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.clicked.connect(self._restore)
        self.salvage_button.clicked.connect(self._salvage)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _restore(self) -> None:
        self.choice = "restore"
        self.accept()

    def _salvage(self) -> None:
        suggested = self.library_file.with_name(self.library_file.stem + "-salvaged.sqlite")
        name, _filter = QFileDialog.getSaveFileName(
            self, tr("Salvage into"), str(suggested), tr("Libraries (*.sqlite)"))
        if name:
            self.choice = "salvage"
            self.salvage_to = Path(name)
            self.accept()
