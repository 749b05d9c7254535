"""Edit › Copy as Formatted Bibliography (Ctrl+Shift+B): the selected papers'
bibliography in the citation style chosen in Preferences (formats.csl), on the clipboard
as HTML for a word processor and as plain text for everything else; and that style's
choice in the Preferences dialog.

The window only calls `copy_bibliography`, `add_style_choice` and `apply_style_choice`;
the rendering is the core's (formats.csl), in a worker for a big selection.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from papershelf.formats import csl
from papershelf.gui import settings as S
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QApplication,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QMimeData,
    QPushButton,
    QWidget,
    Translator,
)

if TYPE_CHECKING:
    from papershelf.gui.preferences import PreferencesDialog
    from papershelf.gui.shell import Shell

tr = Translator("Citations")

# Up to this many papers are formatted at once on the GUI thread (about 0.3 s); more in
# a worker.
AT_ONCE = 100


def clipboard_data(text: str, markup: str) -> QMimeData:
    """The clipboard's contents: text/plain and text/html of one bibliography."""
    data = QMimeData()
    data.setText(text)
    data.setHtml(markup)
    return data


def copy_bibliography(window: Shell) -> None:
    """The selected papers' formatted bibliography on the clipboard (plain text and
    HTML), in the style of Preferences; an unusable style is one error message."""
    ids = window.table.selected_ids()
    if not ids:
        return
    style = window.settings.get(S.CSL_STYLE)
    library = window.library

    def render() -> list[str]:
        return csl.bibliographies(library.records(ids), style, ("text", "html"))

    def copy(result: object) -> None:
        text, markup = result if isinstance(result, list) else ("", "")
        QApplication.clipboard().setMimeData(clipboard_data(text, markup))
        window.statusBar().showMessage(
            tr("Copied the bibliography of {count} papers ({style})").format(
                count=len(ids), style=csl.style_title(style)) if len(ids) != 1 else
            tr("Copied the bibliography of 1 paper ({style})").format(
                style=csl.style_title(style)), 4000)

    def failed(exc: BaseException) -> None:
        if isinstance(exc, (csl.StyleError, ValueError)):
            window.show_error(error_text(exc))
        else:
            raise exc

    def read() -> None:  # once the writes asked for before have landed
        if len(ids) <= AT_ONCE:
            try:
                result = render()
            except (csl.StyleError, ValueError) as exc:
                failed(exc)
            else:
                copy(result)
        else:
            window.tasks.run(lambda _job: render(), copy, failed)

    window.ops.when_settled(read)


def add_style_choice(dialog: PreferencesDialog, style: str) -> QComboBox:
    """A "Bibliography style" row under the dialog's Copy Citation choice: the styles of
    formats.csl, and a .csl file of one's own (Browse…)."""
    combo = QComboBox()
    combo.setObjectName("bibliographyStyleCombo")
    for name in csl.STYLES:
        combo.addItem(csl.STYLE_TITLES[name], name)
    if style.lower() not in csl.STYLES:
        combo.addItem(csl.style_title(style), style)
    combo.setCurrentIndex(max(0, combo.findData(style)))
    combo.setToolTip(tr("The style of Edit › Copy as Formatted Bibliography (Ctrl+Shift+B)"))
    browse = QPushButton(tr("Browse…"))
    browse.setToolTip(tr("Use a citation style file (.csl) of your own"))

    def chosen() -> None:
        path, _filter = QFileDialog.getOpenFileName(
            dialog, tr("Citation Style"), os.path.expanduser("~"),
            tr("Citation styles (*.csl)"))
        if path:
            if combo.findData(path) < 0:
                combo.addItem(csl.style_title(path), path)
            combo.setCurrentIndex(combo.findData(path))

    browse.clicked.connect(chosen)
    row = QWidget()
    line = QHBoxLayout(row)
    line.setContentsMargins(0, 0, 0, 0)
    line.addWidget(combo, 1)
    line.addWidget(browse)
    box = dialog.cite_combo.parentWidget()
    form = box.layout() if box is not None else None
    assert isinstance(form, QFormLayout)  # (the Copy Citation group's)
    form.addRow(tr("&Bibliography style:"), row)
    dialog.bibliography_style_combo = combo  # type: ignore[attr-defined]
    return combo


def apply_style_choice(dialog: PreferencesDialog, settings: S.Settings) -> None:
    """Keep the style chosen in the dialog (add_style_choice's)."""
    combo = getattr(dialog, "bibliography_style_combo", None)
    if isinstance(combo, QComboBox):
        settings.set(S.CSL_STYLE, str(combo.currentData()))
