"""An inbox item in the detail pane: its title, authors, venue, where it came from, why it
ranks where it does, whether it is kept past the clean-up, its link and abstract
(read-only: the keys A, S, D and Shift+K triage it)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from papershelf.gui.i18n import localized
from papershelf.gui.qt import QFrame, QScrollArea, Qt, QVBoxLayout, QWidget
from papershelf.gui.record_view import WrapLabel, bold, heading

if TYPE_CHECKING:
    from papershelf.feeds.inbox import Item


class InboxItemView(QScrollArea):
    """One inbox item, shown as the detail pane shows a paper."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inboxItem")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.title_label = WrapLabel()
        self.title_label.setObjectName("inboxTitle")
        self.title_label.setFont(bold(self.title_label.font(), 1.3))
        self.authors_label = WrapLabel()
        self.venue_label = WrapLabel()
        self.reason_label = WrapLabel()
        self.reason_label.setObjectName("inboxReason")
        self.source_label = WrapLabel()
        self.source_label.set_dimmed(True)
        self.kept_label = WrapLabel()
        self.kept_label.setObjectName("inboxKept")
        self.links_label = WrapLabel(rich=True)
        self.keys_label = WrapLabel()
        self.keys_label.set_dimmed(True)
        abstract_heading = heading(self.tr("Abstract"))
        self.abstract_label = WrapLabel()
        self.abstract_label.setObjectName("inboxAbstract")
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(4)
        for label in (self.title_label, self.authors_label, self.venue_label,
                      self.reason_label, self.source_label, self.kept_label, self.links_label,
                      self.keys_label):
            layout.addWidget(label)
        layout.addSpacing(8)
        layout.addWidget(abstract_heading)
        layout.addWidget(self.abstract_label)
        layout.addStretch(1)
        self.setWidget(page)

    def show_item(self, item: Item, keys: str, source: str = "") -> None:
        """Show `item`; `keys` says how to triage it, `source` what its source is called
        (default: its spelling)."""
        self.title_label.setText(item.title)
        self.authors_label.setText(", ".join(item.authors))
        when = f"{item.published:%Y-%m-%d}" if item.published else ""
        self.venue_label.setText(" · ".join(part for part in (item.venue, when) if part))
        reason = localized(item.why)
        self.reason_label.setText(self.tr("Why here: {reason}").format(reason=reason)
                                  if reason else "")
        self.source_label.setText(self.tr("From {source}").format(
            source=source or item.source) if item.source else self.tr("From a source no longer "
                                                              "followed"))
        self.kept_label.setText(self.tr("Kept: stays in the inbox past the clean-up of old "
                                        "items") if item.kept else "")
        links = []
        if item.url:
            links.append(f"<a href='{html.escape(item.url, quote=True)}'>"
                         f"{html.escape(item.url)}</a>")
        if item.doi:
            url = f"https://doi.org/{item.doi}"
            links.append(f"<a href='{html.escape(url, quote=True)}'>"
                         f"doi:{html.escape(item.doi)}</a>")
        self.links_label.setText("<br>".join(links))
        self.keys_label.setText(keys)
        self.abstract_label.setText(item.abstract or self.tr("(no abstract)"))
        for label in (self.authors_label, self.venue_label, self.reason_label,
                      self.kept_label, self.links_label):
            label.setVisible(bool(label.text()))
        self.verticalScrollBar().setValue(0)
