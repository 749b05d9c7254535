"""File › Follow…: one source to follow, spelt as `papershelf follow add` takes it (an arXiv
category or query, a feed's address, a journal's ISSN, an OpenAlex author), checked as
it is typed: what is wrong is one line under the field, and OK waits until it is right."""

from __future__ import annotations

from collections.abc import Collection

from papershelf.errors import UserError
from papershelf.feeds.sources import parse_source
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPalette,
    QVBoxLayout,
    QWidget,
)


class FollowDialog(QDialog):
    """Asks for one source; `spelling()` is the source as it will be followed."""

    def __init__(self, parent: QWidget | None = None, *,
                 followed: Collection[str] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("followDialog")
        self.setWindowTitle(self.tr("Follow a Source"))
        self._followed = set(followed)
        self._spelling = ""
        intro = QLabel(self.tr(
            "New papers of the sources you follow wait in the Inbox, best first. "
            "Follow one of:"))
        intro.setWordWrap(True)
        forms = QLabel(self.tr(
            "<b>arxiv:cs.LG</b> — an arXiv category<br>"
            "<b>arxiv:\"sparse attention\"</b> — an arXiv search<br>"
            "<b>https://…</b> — any RSS or Atom feed (a journal, a blog)<br>"
            "<b>issn:1234-5678</b> — a journal, through Crossref<br>"
            "<b>openalex:A5023888391</b>, <b>s2author:1741101</b>, "
            "<b>dblp:h/GeoffreyEHinton</b> — an author, through OpenAlex, Semantic Scholar "
            "or DBLP<br>"
            "<b>openalex:\"graph neural\"</b>, <b>crossref:\"graph neural\"</b> — a search "
            "run at OpenAlex or Crossref"))
        self.field = QLineEdit()
        self.field.setObjectName("followSource")
        self.field.setPlaceholderText("arxiv:cs.LG")
        intro.setBuddy(self.field)
        self.error_label = QLabel()
        self.error_label.setObjectName("followError")
        self.error_label.setWordWrap(True)
        self.error_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("&Follow"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (intro, forms, self.field, self.error_label, self.buttons):
            layout.addWidget(widget)
        self.field.textChanged.connect(self._check)
        self._check("")

    def spelling(self) -> str:
        """The source as it will be followed ('' while what is typed is none)."""
        return self._spelling

    def error(self) -> str:
        """What is wrong with what is typed ('' if nothing, or nothing typed yet)."""
        return self.error_label.text()

    def _check(self, typed: str) -> None:
        self._spelling, problem = "", ""
        if typed.strip():
            try:
                spelling = parse_source(typed).spelling
            except UserError as error:
                problem = error_text(error)
            else:
                if spelling in self._followed:
                    problem = self.tr("You follow {source} already").format(source=spelling)
                else:
                    self._spelling = spelling
        self.error_label.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            bool(self._spelling))

    def accept(self) -> None:
        """OK: only with a source to follow."""
        if self._spelling:
            super().accept()
