"""Typed settings, each declared once with its default.

User preferences (what the user chose) are kept apart from remembered window
state (what the window looked like), in separate QSettings groups, so forgetting
the layout can never lose a preference.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Generic, TypeVar

from papershelf.gui.qt import QByteArray, QSettings

T = TypeVar("T")

ORGANIZATION = "Papershelf"
APPLICATION = "Papershelf"


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One setting: where it lives, its type and its default."""

    key: str
    default: T
    kind: type[T]


# -- user preferences ------------------------------------------------------------
EXPORT_ABSTRACT = Setting("preferences/export_include_abstract", True, bool)
EXPORT_NOTES = Setting("preferences/export_include_notes", False, bool)
EXPORT_ASCII = Setting("preferences/export_ascii_only", False, bool)
EXPORT_FLAVOUR = Setting("preferences/export_flavour", "bibtex", str)  # or "biblatex"
EXPORT_FILES = Setting("preferences/export_include_files", False, bool)
CITE_FORM = Setting("preferences/cite_form", "cite", str)  # core.citing.FORMS
# Copy as Formatted Bibliography's style: a formats.csl.STYLES name or a .csl file's path.
CSL_STYLE = Setting("preferences/csl_style", "apa", str)
LAST_FOLDER = Setting("preferences/last_folder", "", str)
# The interface language: "system" (the system locale's), "en" or "zh_CN" (gui/i18n.py).
LANGUAGE = Setting("preferences/language", "system", str)
APPEARANCE = Setting("preferences/appearance", "system", str)  # or "light", "dark"
# Receive papers from the browser's Zotero Connector while the window is open
# (gui/features/connector.py).
ZOTERO_CONNECTOR = Setting("preferences/zotero_connector", False, bool)
# Opening an unread paper's PDF in the reader marks it "reading" (gui/features/reading.py).
MARK_READING = Setting("preferences/mark_reading_on_open", True, bool)
# How often the window asks the followed sources for new papers (gui/features/feeds.py;
# never in offline mode); 0: only when asked.
FEEDS_CHECK_HOURS = Setting("preferences/feeds_check_hours", 6, int)
# The network preferences (work offline, the contact e-mail) are not QSettings: the command
# line follows them too, so they are `metadata.settings.NetworkPreferences`, in a plain
# file it reads; API keys are only ever in the system keyring (gui/preferences.py).

# -- remembered across sessions (not window state: "Reset Layout" keeps it) ------------
# The shared libraries opened last, newest first: URLs without a password
# (gui/shared_dialog.py).
RECENT_SHARED: Setting[list[str]] = Setting("history/recent_shared_libraries", [], list)
# The server and database tried last in Open Shared Library, opened or not (a URL without
# a password): the dialog starts from it, so a failed try need not be typed again.
LAST_SHARED_TRY: Setting[str] = Setting("history/last_shared_try", "", str)
# The names the user gave followed sources in the sidebar, kept per library
# (`for_library`) before they were kept in the library: a JSON object, spelling to name,
# moved to the library once and emptied (gui/features/feeds.py).
FEED_NAMES: Setting[str] = Setting("history/feed_names", "", str)
# The tag the inbox is ranked by, per library ('': the whole library; features/feeds.py).
INBOX_RANK_TAG: Setting[str] = Setting("history/inbox_rank_tag", "", str)

# -- remembered window state ---------------------------------------------------------
GEOMETRY = Setting("window/geometry", QByteArray(), QByteArray)
WINDOW_STATE = Setting("window/state", QByteArray(), QByteArray)
SPLITTER = Setting("window/splitter", QByteArray(), QByteArray)
HEADER = Setting("window/table_header", QByteArray(), QByteArray)
SORT = Setting("window/sort", "added", str)
SORT_DESCENDING = Setting("window/sort_descending", False, bool)
FILTER = Setting("window/filter", "all", str)
TAG = Setting("window/tag", "", str)


def for_library(setting: Setting[T], location: str) -> Setting[T]:
    """`setting` kept for one library (its path, or its URL without a password): the
    filter a library was left on means nothing to another one."""
    digest = hashlib.sha1(location.encode("utf-8")).hexdigest()[:16]
    return Setting(f"libraries/{digest}/{setting.key.rpartition('/')[2]}",
                   setting.default, setting.kind)

class Settings:
    """Typed access to a QSettings store (injected, so tests use a temporary file)."""

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store if store is not None else QSettings(ORGANIZATION, APPLICATION)

    def get(self, setting: Setting[T]) -> T:
        """The stored value, or the default when absent or of the wrong type."""
        if not self.store.contains(setting.key):
            return setting.default
        value = self.store.value(setting.key, setting.default, type=setting.kind)
        return value if isinstance(value, setting.kind) else setting.default

    def set(self, setting: Setting[T], value: T) -> None:
        """Store a value."""
        self.store.setValue(setting.key, value)

    def sync(self) -> None:
        """Write to disk now."""
        self.store.sync()
