"""File › Open Shared Library… and File › Open Library File…: choosing another library.

`SharedLibraryDialog` asks where a group's PostgreSQL library is (host or socket folder,
port, database, user) and tries to open it in a worker, so the window never waits on a
server (one that does not answer is given up after libpq's connect_timeout). A failure
is the server's own reason in one line, and the dialog stays open; a server that asks
for a password none was found for (libpq looks in ~/.pgpass, PGPASSWORD, a service file)
gets a password field. A password typed there lives only in the URL handed to the
application for this session: it is never saved, never logged, never shown. When the
library opens, the dialog remembers its URL, without password, among the recent ones
(`RECENT_SHARED`) and the window hands the URL to the application, which closes the
window and opens that library (`app.next_target`), as it reopens one after a restore.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, unquote, urlsplit

from papershelf.errors import LibraryError
from papershelf.gui import settings as S
from papershelf.gui.i18n import error_text
from papershelf.gui.qt import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPalette,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    Translator,
    dpi_size,
)
from papershelf.gui.settings import Settings
from papershelf.gui.single_instance import current_user
from papershelf.gui.workers import TaskManager

if TYPE_CHECKING:
    from papershelf.core.library import Library
    from papershelf.gui.shell import Shell

tr = Translator("SharedLibrary")

DEFAULT_PORT = 5432
RECENT_LIMIT = 6  # shared libraries remembered (and offered) at most
# A host name or IPv4 address goes into the URL's authority; a socket folder, an IPv6
# address or anything odder goes into its query (`?host=`), where libpq reads any host.
_PLAIN_HOST = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*")


@dataclass(frozen=True)
class SharedTarget:
    """Where a shared library is: what the dialog's fields say, without the password."""

    host: str = ""  # a host name or address, a socket folder (/…), or '' for libpq's default
    port: int = DEFAULT_PORT
    database: str = ""
    user: str = ""

    def url(self, password: str = "") -> str:
        """The library's `postgresql://` URL, with `password` only if one is given."""
        login = quote(self.user, safe="")
        if password:
            login += ":" + quote(password, safe="")
        netloc = f"{login}@" if login else ""
        host = self.host.strip()
        query = ""
        if host and _PLAIN_HOST.fullmatch(host):
            netloc += f"{host}:{self.port}"
        else:
            query = f"?host={quote(host, safe='/')}&" if host else "?"
            query += f"port={self.port}"
        return f"postgresql://{netloc}/{quote(self.database, safe='')}{query}"

    @classmethod
    def from_url(cls, url: str) -> SharedTarget:
        """The fields of a `postgresql://` URL (as `url` makes them, or as typed for
        --library); what the URL does not say is left empty."""
        parts = urlsplit(url)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        login, _, address = parts.netloc.rpartition("@")
        host, port = address, ""
        if address.startswith("["):  # [IPv6]:port
            host, _, rest = address[1:].partition("]")
            port = rest.removeprefix(":")
        elif ":" in address:
            host, _, port = address.partition(":")
        port = query.get("port", port)
        return cls(host=unquote(query.get("host", host)),
                   port=int(port) if port.isdigit() else DEFAULT_PORT,
                   database=unquote(query.get("dbname", parts.path.lstrip("/"))),
                   user=unquote(query.get("user", login.partition(":")[0])))

    def server(self) -> str:
        """The server as a person names it: its host (and port if not the usual one),
        its socket folder, or this computer."""
        host = self.host.strip()
        if not host:
            return tr("this computer")
        if host.startswith("/") or self.port == DEFAULT_PORT:
            return host
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    def title(self, user: str = "") -> str:
        """`database on host as user` (the window title, the recent entries)."""
        return tr("{database} on {server} as {user}").format(
            database=self.database, server=self.server(), user=user or self.user)


def library_title(library: Library) -> str:
    """What the window title calls a library: its file's name, or for a shared one
    `database on host as user` (the role it was opened as); never a password."""
    location = library.location
    if library.shared:
        target = SharedTarget.from_url(library.url)
        if target.database:
            return target.title(library.user_name)
    return Path(location).name if "://" not in location else location


# -- the recent shared libraries --------------------------------------------------------

def recent_libraries(settings: Settings) -> list[str]:
    """The shared libraries opened last, newest first: URLs without a password."""
    return [url for url in settings.get(S.RECENT_SHARED) if isinstance(url, str) and url]


def remember_library(settings: Settings, target: SharedTarget) -> None:
    """Put a library that opened first among the recent ones (its URL has no password:
    the target holds none)."""
    url = target.url()
    recent = [url, *(u for u in recent_libraries(settings) if u != url)]
    settings.set(S.RECENT_SHARED, recent[:RECENT_LIMIT])
    settings.sync()


# -- trying a library, in a worker ---------------------------------------------------------

@dataclass(frozen=True)
class Tried:
    """How opening a library went: the role it opened as, or why it did not open."""

    user: str | None  # None when it did not open
    problem: str = ""  # one line for the user
    asks_password: bool = False  # the server wants a password none was given for


def try_library(url: str) -> Tried:
    """Open the library at `url` and close it again (in a worker: this waits on the
    server). The environment's failures are a `Tried`; anything else is our bug."""
    try:
        from papershelf.core.library import Library  # (in a worker: not lazily)

        library = Library.open(url)
    except LibraryError as exc:
        return Tried(None, error_text(exc), asks_for_password(exc))
    try:
        return Tried(library.user_name)
    finally:
        library.close()


def asks_for_password(exc: BaseException) -> bool:
    """Whether the server asked for a password and none was found, or refused the one
    given: libpq says so on the failed connection (PQconnectionNeedsPassword,
    PQconnectionUsedPassword), which psycopg keeps on its error, under the LibraryError
    the core raised."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        error = getattr(cause, "orig", None) or cause
        text = str(error).lower()
        if "no password supplied" in text:
            return True
        pgconn = getattr(error, "pgconn", None)
        if pgconn is not None:
            used = bool(getattr(pgconn, "used_password", False))
            return bool(getattr(pgconn, "needs_password", False)) or (
                used and "password authentication failed" in text)
        cause = cause.__cause__ or cause.__context__
    return False


_tasks: TaskManager | None = None


def connection_tasks() -> TaskManager:
    """Where the dialogs try libraries: not the window's workers, so an attempt on a
    server that does not answer holds up neither the window's reads nor its closing
    (libpq gives up after its connect_timeout; the application waits at exit)."""
    global _tasks
    if _tasks is None:
        _tasks = TaskManager(QApplication.instance())
    return _tasks


class _Attempt:
    """The attempt whose answer the dialog waits for (a plain object, so an answer that
    comes after the dialog was closed and deleted is recognised as stale)."""

    current: object | None = None


# -- the dialog ----------------------------------------------------------------------------

class SharedLibraryDialog(QDialog):
    """Where a shared library is; `libraryChosen(url)` once it opened (the URL carries a
    password typed here, for this session only)."""

    libraryChosen = Signal(str)

    def __init__(self, settings: Settings, parent: QWidget | None = None,
                 url: str | None = None, tasks: TaskManager | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Open Shared Library"))
        self.settings = settings
        self.tasks = tasks if tasks is not None else connection_tasks()
        self.chosen: str | None = None
        self._attempt = _Attempt()
        layout = QVBoxLayout(self)
        intro = QLabel(tr("A library on a PostgreSQL server, shared by a group. Papershelf "
                          "never saves a password: the server's is looked up in ~/.pgpass, "
                          "PGPASSWORD or a service file, or asked for here."), self)
        intro.setWordWrap(True)
        intro.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout.addWidget(intro)

        form = QFormLayout()
        self.form = form
        self.recent = QComboBox(self)
        for recent_url in recent_libraries(settings):
            self.recent.addItem(SharedTarget.from_url(recent_url).title(), recent_url)
            self.recent.setItemData(self.recent.count() - 1, recent_url,
                                    Qt.ItemDataRole.ToolTipRole)
        self.recent.activated.connect(lambda n: self.set_target(
            SharedTarget.from_url(str(self.recent.itemData(n)))))
        form.addRow(tr("&Recent:"), self.recent)
        form.setRowVisible(self.recent, self.recent.count() > 0)
        self.host = QLineEdit(self)
        self.host.setPlaceholderText(tr("db.example.org, or a socket folder; empty: this "
                                        "computer"))
        form.addRow(tr("&Server:"), self.host)
        self.port = QSpinBox(self)
        self.port.setRange(1, 65535)
        self.port.setValue(DEFAULT_PORT)
        form.addRow(tr("Por&t:"), self.port)
        self.database = QLineEdit(self)
        form.addRow(tr("&Database:"), self.database)
        self.user = QLineEdit(self)
        self.user.setPlaceholderText(current_user())
        form.addRow(tr("&User:"), self.user)
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setToolTip(tr("Used for this session only, never saved"))
        form.addRow(tr("&Password:"), self.password)
        form.setRowVisible(self.password, False)  # until the server asks for one
        layout.addLayout(form)

        self.status = QLabel(self)
        self.status.setObjectName("problem")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                        | QDialogButtonBox.StandardButton.Cancel, self)
        self.open_button = self.buttons.button(QDialogButtonBox.StandardButton.Open)
        self.buttons.accepted.connect(self.try_open)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.finished.connect(lambda _code: setattr(self._attempt, "current", None))
        for edit in (self.database, self.user):
            edit.textChanged.connect(lambda _text: self._update_button())

        recent = recent_libraries(settings)
        start = url if url is not None else (settings.get(S.LAST_SHARED_TRY)
                                             or (recent[0] if recent else None))
        self.set_target(SharedTarget.from_url(start) if start else
                        SharedTarget(user=current_user()))
        self.recent.setCurrentIndex(self.recent.findData(start) if start else -1)
        self.resize(dpi_size(520, 0).width(), self.sizeHint().height())

    def set_target(self, target: SharedTarget) -> None:
        """Fill the fields (the password stays as typed)."""
        self.host.setText(target.host)
        self.port.setValue(target.port)
        self.database.setText(target.database)
        self.user.setText(target.user or current_user())
        self._update_button()

    def target(self) -> SharedTarget:
        """What the fields say."""
        return SharedTarget(host=self.host.text().strip(), port=self.port.value(),
                            database=self.database.text().strip(),
                            user=self.user.text().strip() or current_user())

    @property
    def connecting(self) -> bool:
        """Whether an attempt to open the library is under way."""
        return self._attempt.current is not None

    def _update_button(self) -> None:
        self.open_button.setEnabled(not self.connecting and bool(self.database.text().strip()))

    def _set_busy(self, busy: bool) -> None:
        for widget in (self.recent, self.host, self.port, self.database, self.user,
                       self.password):
            widget.setEnabled(not busy)
        self._update_button()

    def try_open(self) -> None:
        """Open the library in a worker; the dialog closes only if it opens."""
        target = self.target()
        if self.connecting or not target.database:
            return
        url = target.url(self.password.text())
        self.settings.set(S.LAST_SHARED_TRY, target.url())  # (never its password)
        attempt = object()
        state = self._attempt
        state.current = attempt
        self.status.setText(tr("Connecting to {library}…").format(library=target.title()))
        self._set_busy(True)

        def answered(tried: Tried) -> None:
            if state.current is attempt:  # (not cancelled, nor superseded)
                state.current = None
                self._answered(target, url, tried)

        def failed(exc: BaseException) -> None:
            if state.current is attempt:
                state.current = None
                self._set_busy(False)
                self.status.clear()
            raise exc  # our bug: the crash handler's

        self.tasks.run(lambda _job: try_library(url), answered, failed)

    def _answered(self, target: SharedTarget, url: str, tried: Tried) -> None:
        self._set_busy(False)
        if tried.user is None:
            self.status.setText(tried.problem)
            if tried.asks_password:
                self.form.setRowVisible(self.password, True)
                self.password.setFocus(Qt.FocusReason.OtherFocusReason)
                self.password.selectAll()
            return
        self.status.clear()
        remember_library(self.settings, target)
        self.chosen = url
        self.accept()
        self.libraryChosen.emit(url)


# -- what the window's File menu calls ---------------------------------------------------

def open_shared_library(window: Shell, url: str | None = None,
                        connect: bool = False) -> SharedLibraryDialog:
    """File › Open Shared Library… (window-modal): the window opens the library chosen.
    With `connect`, the library at `url` (a recent one) is tried at once."""
    dialog = SharedLibraryDialog(window.settings, window, url)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.libraryChosen.connect(window.open_library)
    dialog.open()
    if connect:
        dialog.try_open()
    return dialog


def add_recent_menu(window: Shell, menu: QMenu) -> QMenu:
    """File › Open Recent Shared Library: the recent libraries, each tried through the
    dialog (which asks for a password if the server wants one)."""
    recent = menu.addMenu(tr("Open &Recent Shared Library"))
    recent.setObjectName("recentShared")

    def fill() -> None:
        recent.clear()
        urls = recent_libraries(window.settings)
        for url in urls:
            action = recent.addAction(SharedTarget.from_url(url).title())
            action.setStatusTip(url)
            action.triggered.connect(
                lambda _checked=False, u=url: open_shared_library(window, u, connect=True))
        recent.setEnabled(bool(urls))

    fill()
    recent.aboutToShow.connect(fill)
    return recent


def choose_library_file(window: Shell) -> None:
    """File › Open Library File…: the window closes and the application opens the file
    chosen (going back to this library if it cannot)."""
    location = window.library.location
    folder = str(Path(location).parent) if not window.library.shared else str(Path.home())
    path, _filter = QFileDialog.getOpenFileName(
        window, tr("Open Library File"), folder,
        tr("Papershelf libraries (*.sqlite);;All files (*)"))
    if path:
        window.open_library(path)
