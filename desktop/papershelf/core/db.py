"""Opening a library: engine, schema migrations, and clear errors.

The engine comes from the library's store (core.store), which knows its database's
connection settings. Errors come in two kinds (as in qutebrowser's sql.py, see
papershelf.errors): `LibraryError` is the environment's fault (locked, corrupt, unwritable,
newer than us) and carries a message for the user; anything else is our bug.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError

from papershelf.core import backup, paths
from papershelf.core.store import store_type
from papershelf.core.store.sqlite import BUSY_TIMEOUT_MS
from papershelf.errors import DamagedLibraryError, LibraryError, NewerLibraryError
from papershelf.messages import text as message

# The schema revisions this Papershelf knows, oldest first; the last is the newest. A test
# checks it is Alembic's head, so opening an up-to-date library never loads Alembic.
KNOWN_REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009",
                   "0010", "0011", "0012", "0013", "0014", "0015",
                   "0016", "0017", "0018", "0019", "0020", "0021", "0022", "0023", "0024",
                   "0025", "0026", "0027")
SCHEMA_HEAD = KNOWN_REVISIONS[-1]
MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def resolve_target(target: str | None) -> str:
    """The SQLAlchemy URL of the library to open: argument, $PAPERSHELF_LIBRARY, default."""
    if not target:
        target = os.environ.get(paths.LIBRARY_ENV) or str(paths.default_library_path())
    if "://" in target:
        try:
            make_url(target)
        except (ArgumentError, ValueError) as exc:  # (a port that is not a number)
            raise LibraryError(f"{target}: not a database URL ({exc})") from None
        return target
    path = Path(target).expanduser().resolve()
    if path.is_dir():
        raise LibraryError(f"{path}: is a folder; give the path of a library file")
    return f"sqlite:///{path}"


def missing_library(target: str | None) -> Path | None:
    """The library file `target` or $PAPERSHELF_LIBRARY names when it does not exist, else
    None (the default library, a server's, a file that exists). Opening it would make a
    new library: a mistyped path must not, so the command line makes one only for a
    command that imports papers, and the window only when the user says so."""
    named = target or os.environ.get(paths.LIBRARY_ENV)
    if not named:
        return None
    path = backup.library_file(resolve_target(named))
    return path if path is not None and not path.exists() else None


def describe(url: str) -> str:
    """A human name for the library: its file path, or its URL without a password."""
    return store_type(url).describe(url)


def create_library_engine(url: str) -> Engine:
    """An engine for `url` with Papershelf's connection settings (not yet migrated)."""
    return store_type(url).engine_for(url)


def current_revision(engine: Engine) -> str | None:
    """The schema revision stored in the library, or None for a new, empty one."""
    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        if "alembic_version" in tables:
            row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
            return row[0] if row else None
        if tables:
            raise LibraryError(
                f"{describe(str(engine.url))}: this database is not a Papershelf library "
                f"(it has other tables: {', '.join(sorted(tables)[:5])})"
            )
        return None


def run_migrations(engine: Engine, target: str = "head") -> None:
    """Bring the schema to `target` with Alembic, in one transaction."""
    # (Alembic loads only when a migration is due: opening a library stays quick.)
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, target)


def migrate(engine: Engine, before: Callable[[], None] | None = None) -> None:
    """Upgrade an older library; refuse one written by a newer Papershelf. `before` runs
    first when an older library is about to be upgraded (open_engine's backup)."""
    revision = current_revision(engine)
    if revision == SCHEMA_HEAD:
        return
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise NewerLibraryError(
            f"{describe(str(engine.url))}: this library was written by a newer version of "
            f"Papershelf (schema {revision}); this version understands schema {SCHEMA_HEAD} "
            "and older. Update Papershelf to open it; the library was not changed."
        )
    if revision is not None and before is not None:
        before()
    run_migrations(engine)


def open_engine(target: str | None) -> tuple[Engine, str]:
    """Open (creating and migrating as needed) the library named by `target`."""
    url = resolve_target(target)
    library_file = backup.library_file(url)
    if library_file is not None:
        backup.check_on_open(library_file)  # a damaged library is never written to
    engine = create_library_engine(url)

    def back_up() -> None:
        if library_file is not None:
            try:
                backup.migration_backup(library_file, backup.read_policy(library_file))
            except backup.BackupError as exc:
                raise LibraryError(f"{exc}; the library was not upgraded") from None

    try:
        migrate(engine, back_up)
    except LibraryError:
        engine.dispose()
        raise
    except (OperationalError, DBAPIError) as exc:
        engine.dispose()
        raise LibraryError(environment_message(url, exc)) from None
    return engine, url


def environment_message(url: str, exc: BaseException) -> str:
    """One line for the user about a database error that is not our bug."""
    explained = getattr(store_type(url), "explain", None)  # the server's own errors
    if explained is not None and (line := explained(url, exc)) is not None:
        return str(line) if not isinstance(line, str) else line
    detail = str(getattr(exc, "orig", exc))
    lowered = detail.lower()
    where = describe(url)
    if "not a database" in lowered or "malformed" in lowered:
        return message("{where}: the file is not a Papershelf library or is damaged "
                       "({detail})", where=where, detail=detail)
    if "locked" in lowered or "busy" in lowered:
        return message("{where}: the library is busy (another program is writing to it); "
                       "try again", where=where)
    if "readonly" in lowered or "read-only" in lowered:
        return message("{where}: the library cannot be written (read-only file or "
                       "folder)", where=where)
    if ("disk" in lowered and "full" in lowered) or ("disk i/o error" in lowered
                                                     and _disk_nearly_full(url)):
        # (A library closed cleanly has no log files: on a full disk SQLite cannot make
        # them again and says only "disk I/O error".)
        return message("{where}: the disk is full; nothing was changed", where=where)
    if "unable to open" in lowered:
        path = backup.library_file(url)
        if path is not None and path.exists() and not (
                os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
            return message("{where}: the library cannot be written (read-only file or "
                           "folder)", where=where)
        return message("{where}: cannot open the library file ({detail})", where=where,
                       detail=detail)
    return message("{where}: database error ({detail})", where=where, detail=detail)


def _disk_nearly_full(url: str) -> bool:
    path = backup.library_file(url)
    try:
        return path is not None and shutil.disk_usage(path.parent).free < 1 << 20
    except OSError:
        return False


__all__ = [
    "BUSY_TIMEOUT_MS", "KNOWN_REVISIONS", "MIGRATIONS_DIR", "SCHEMA_HEAD",
    "DamagedLibraryError", "LibraryError",
    "NewerLibraryError", "create_library_engine", "current_revision", "describe",
    "environment_message", "migrate", "missing_library", "open_engine", "resolve_target",
    "run_migrations",
]
