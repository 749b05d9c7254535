"""Attached files' contents in a shared library: uploaded once, fetched into a cache.

A PDF a member attaches is on their computer only (core.files). On a shared library its
bytes also go into the table `file_contents` (schema 0018), once per distinct content by
SHA-256, within the library's size limit (`size_limit`, its owner's to set): `upload`
one file, or `upload_pending` every attached file on this computer that the library
lacks; a file goes up in slices (COPY), never whole in memory. A member who does not
have a paper's file opens it from their own cache (`local_path_for`): the content is
fetched in slices into a folder of the user's cache directory named by the library's
id, checked against its hash, written whole or not at all (a temporary file, then a
rename), and the least recently opened files go when the cache outgrows `CACHE_LIMIT`
(with the temporary files of fetches killed before their rename). A file in the cache
is checked on each open; a damaged one is fetched again. A library file keeps the table
empty, and nothing here changes for it.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import platformdirs
from sqlalchemy import func, select
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from papershelf.core import attachments, files
from papershelf.core.context import Context
from papershelf.core.files import Attachment
from papershelf.core.models import FileContent, Meta, PaperFile, utcnow
from papershelf.core.paths import APP_NAME
from papershelf.core.store.pg_members import FILE_SIZE_SETTING, file_size_limit
from papershelf.errors import LibraryError, UserError
from papershelf.messages import text

# How much of the user's cache the contents of one library's files may take.
CACHE_LIMIT = 2 * 1024 ** 3
SLICE = 4 * 1024 * 1024  # bytes fetched (and reported as progress) at a time
STALE_PART = 24 * 3600  # seconds: a fetch's temporary file untouched this long is left over
LIBRARY_ID = "library_id"  # (a row of meta)
_SHA256_RE = re.compile(r"[0-9a-f]{64}")
MB = 1024 * 1024
UNIQUE_VIOLATION = "23505"

Progress = Callable[[int, int], None]


def _no_progress(_done: int, _total: int) -> None:
    """Progress nobody shows."""


def shared(ctx: Context) -> bool:
    """Whether the library keeps its files' contents (a shared library on PostgreSQL)."""
    return ctx.engine.dialect.name == "postgresql"


def size_limit(ctx: Context) -> int:
    """The largest file content the library takes, in bytes (its setting, read as the
    server reads it, else 100 MB)."""
    with ctx.read() as session:
        value = session.scalar(select(Meta.value).where(Meta.name == FILE_SIZE_SETTING))
    return file_size_limit(value)


def set_size_limit(ctx: Context, limit: int) -> None:
    """Set the library's limit of one file content, in bytes (the server keeps to it);
    UserError, one line, unless this user is the library's owner (only the owner may:
    schema 0026) or the limit is not 1 to 18 digits."""
    if not 0 < limit < 10 ** 18:
        raise UserError(text("{limit} bytes: not a limit of one file", limit=limit))
    with ctx.read() as session:
        owner = session.scalar(sql_text(
            "SELECT pg_has_role(relowner, 'USAGE') FROM pg_class "
            "WHERE oid = to_regclass('meta')")) if shared(ctx) else True
    if not owner:
        raise UserError(text("only the shared library's owner sets its limit of one file; "
                             "ask them"))
    with ctx.write() as session:
        session.merge(Meta(name=FILE_SIZE_SETTING, value=str(int(limit))))


def library_id(ctx: Context) -> str:
    """The shared library's id (`meta.library_id`), made by the first member who asks
    (a copy of a library keeps its id: the cache holds contents by hash, whatever
    library they came from)."""
    with ctx.read() as session:
        found = session.scalar(select(Meta.value).where(Meta.name == LIBRARY_ID))
    if not found:
        with ctx.write() as session:
            session.execute(pg_insert(Meta).values(name=LIBRARY_ID, value=uuid.uuid4().hex)
                            .on_conflict_do_nothing())
            found = session.scalar(select(Meta.value).where(Meta.name == LIBRARY_ID))
    return re.sub(r"[^0-9A-Za-z_-]+", "_", found or "") or "library"  # (a folder's name)


def cache_dir(ctx: Context) -> Path:
    """This member's cache of the shared library's file contents: a folder of the user's
    cache directory named by the library's id (the same library under any address)."""
    return (Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "shared"
            / library_id(ctx))


def stored(ctx: Context, hashes: Sequence[str]) -> set[str]:
    """Which of these contents (by SHA-256) the library keeps."""
    if not hashes or not shared(ctx):
        return set()
    with ctx.read() as session:
        return set(session.scalars(select(FileContent.sha256).where(
            FileContent.sha256.in_(sorted(set(hashes))))))


def _megabytes(size: int, up: bool = False) -> str:
    """A size in megabytes as people write it (100, 2.5, 0.07), rounded `up` or down to
    hundredths (so a file over a limit never reads as equal to it)."""
    hundredths = -(-size * 100 // MB) if up else size * 100 // MB
    return f"{hundredths / 100:.2f}".rstrip("0").rstrip(".")


def _too_big(path: Path, size: int, limit: int) -> UserError:
    return UserError(text(
        "{name}: {size} MB, over the shared library's limit of {limit} MB for one "
        "file; not uploaded", name=path.name, size=_megabytes(size, up=True),
        limit=_megabytes(limit)))


def _unreadable(path: Path, exc: OSError) -> UserError:
    return UserError(text("{name}: cannot be read ({problem}); not uploaded",
                          name=path.name, problem=exc.strerror or str(exc)))


def _send(session: Session, path: Path, limit: int, progress: Progress) -> None:
    """COPY a file's content into `file_contents` in `session`'s transaction, one slice
    at a time (its hex text: the client never holds the whole file), its hash and size
    counted as it goes and sent after it; the server checks both (_CONTENT_CHECKED)."""
    conn = session.connection().connection.driver_connection
    assert conn is not None
    digest, done = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise _too_big(path, size, limit)
        with conn.cursor() as cursor, cursor.copy(
                "COPY file_contents (content, sha256, size, added_at) FROM STDIN") as copy:
            copy.write(b"\\\\x")  # (a bytea in hex, its backslash escaped for COPY)
            while part := handle.read(SLICE):
                done += len(part)
                if done > limit:  # (grown since)
                    raise _too_big(path, done, limit)
                digest.update(part)
                copy.write(part.hex().encode("ascii"))
                progress(done, max(size, done))
            copy.write(f"\t{digest.hexdigest()}\t{done}\t{utcnow().isoformat()}\n"
                       .encode("ascii"))


def upload(ctx: Context, path: Path, progress: Progress = _no_progress) -> bool:
    """Put a file's content into the shared library unless it is there already; whether
    it was sent. UserError, one line naming the file, when it is over the size limit or
    cannot be read. Nothing on a library file."""
    if not shared(ctx):
        return False
    limit = size_limit(ctx)
    try:
        if (size := path.stat().st_size) > limit:
            raise _too_big(path, size, limit)
        if stored(ctx, [files.fingerprint(path)[1]]):
            return False
        with ctx.write() as session:
            _send(session, path, limit, progress)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    except (DBAPIError, ctx.engine.dialect.loaded_dbapi.Error) as exc:
        if getattr(getattr(exc, "orig", exc), "sqlstate", None) == UNIQUE_VIOLATION:
            return False  # (another member sent it meanwhile)
        raise
    return True


def _refused(path: Path, exc: Exception) -> str:
    """The line for a file the server refused (`exc`: a LibraryError, or the database's
    error, as SQLAlchemy's or the driver's): its name and the server's reason."""
    orig = getattr(exc, "orig", None) or exc
    diag = getattr(orig, "diag", None)
    reason = getattr(diag, "message_primary", None) or str(orig)
    reason = " ".join(reason.split()) or type(orig).__name__
    return text("{name}: the shared library refused it ({reason}); not uploaded",
                name=path.name, reason=reason)


def pending_uploads(ctx: Context) -> list[Attachment]:
    """The attached files on this computer whose content the shared library lacks, one
    per content, oldest first."""
    if not shared(ctx):
        return []
    home = attachments.folder(ctx)
    with ctx.read() as session:
        ids = session.scalars(select(PaperFile.paper_id).distinct().where(
            PaperFile.sha256.not_in(select(FileContent.sha256)))).all()
        found = [a for attached in files.read(session, sorted(ids), home).values()
                 for a in attached]
    have = stored(ctx, [a.sha256 for a in found])
    seen: set[str] = set()
    pending = []
    for attachment in sorted(found, key=lambda a: a.id):
        if attachment.sha256 not in have and attachment.sha256 not in seen \
                and attachment.present():
            seen.add(attachment.sha256)
            pending.append(attachment)
    return pending


def upload_pending(ctx: Context, progress: Progress = _no_progress,
                   cancelled: Callable[[], bool] = lambda: False) -> tuple[int, list[str]]:
    """Upload every attached file on this computer that the shared library lacks, with
    progress over all their bytes: how many were sent, and a line for each refused (by
    this client or by the server: the others are sent all the same)."""
    pending = pending_uploads(ctx)
    total = sum(a.size for a in pending) or 1
    before, sent, problems = 0, 0, []
    for attachment in pending:
        if cancelled():
            break
        assert attachment.location is not None  # (present)

        def within(done: int, _all: int, start: int = before) -> None:
            progress(start + done, total)

        try:
            sent += upload(ctx, attachment.location, within)
        except UserError as exc:
            problems.append(str(exc))
        except (LibraryError, DBAPIError, ctx.engine.dialect.loaded_dbapi.Error) as exc:
            problems.append(_refused(attachment.location, exc))  # (the others go on)
        before += attachment.size
        progress(min(before, total), total)
    return sent, problems


def _good(path: Path, sha256: str) -> bool:
    """Whether a cached file is whole: its bytes have its hash."""
    try:
        return files.fingerprint(path)[1] == sha256
    except OSError:
        return False


def fetch(ctx: Context, sha256: str, progress: Progress = _no_progress,
          limit: int = CACHE_LIMIT) -> Path:
    """The cached copy of a content of the shared library, fetched (in slices, with
    progress) unless the cache holds it whole already; UserError when the library lacks
    it or what came is not it."""
    if not _SHA256_RE.fullmatch(sha256):
        raise UserError(text("{sha256} is not the SHA-256 of a file", sha256=sha256))
    folder = cache_dir(ctx)
    target = folder / f"{sha256}.pdf"
    try:
        if _good(target, sha256):  # (a damaged copy is fetched again, and replaced)
            os.utime(target)  # (recently opened: the last to be evicted)
            return target
        return _fetch_into(ctx, sha256, folder, target, progress, limit)
    except OSError as exc:
        raise UserError(text("the cache {folder} cannot be written ({problem})",
                             folder=str(folder), problem=exc.strerror or str(exc))) from None


def _fetch_into(ctx: Context, sha256: str, folder: Path, target: Path, progress: Progress,
                limit: int) -> Path:
    """`fetch` from the library: into a temporary file of the cache, then renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, temp_name = tempfile.mkstemp(prefix=".fetch-", suffix=".part", dir=folder)
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as out, ctx.read() as session:
            size = session.scalar(select(FileContent.size).where(
                FileContent.sha256 == sha256))
            if size is None:
                raise UserError(text("the shared library does not keep this file "
                                     "({sha256}); a member who has it can send it with "
                                     "`papershelf upload-files`", sha256=sha256[:12]))
            done = 0
            while done < size:
                part = session.scalar(select(func.substring(
                    FileContent.content, done + 1, SLICE)).where(
                    FileContent.sha256 == sha256)) or b""
                if not part:
                    break
                out.write(part)
                digest.update(part)
                done += len(part)
                progress(done, size)
            out.flush()
            os.fsync(out.fileno())
        if digest.hexdigest() != sha256:
            raise UserError(text("the file {sha256} came from the shared library damaged; "
                                 "nothing was kept", sha256=sha256[:12]))
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    evict(folder, limit, keep=target)
    return target


def evict(folder: Path, limit: int, keep: Path | None = None) -> list[Path]:
    """Delete the least recently used cached files until the cache is within `limit`
    bytes (never `keep`, the file just opened), and the temporary files of fetches
    untouched for `STALE_PART` (a process killed before its rename); those deleted."""
    gone = []
    for path in folder.glob(".fetch-*.part"):
        try:
            if time.time() - path.stat().st_mtime > STALE_PART:
                path.unlink()
                gone.append(path)
        except OSError:  # (gone meanwhile, or open on Windows: another time)
            continue
    entries = []
    for path in folder.glob("*.pdf"):
        try:
            stat = path.stat()
        except OSError:
            continue
        entries.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _t, size, _p in entries)
    for _time, size, path in sorted(entries):
        if total <= limit:
            break
        if path == keep:
            continue
        try:
            path.unlink(missing_ok=True)
        except OSError:  # (open in a viewer, on Windows: it goes another time)
            continue
        total -= size
        gone.append(path)
    return gone


def local_path_for(ctx: Context, paper_id: int, progress: Progress = _no_progress
                   ) -> Path | None:
    """Where a paper's PDF can be opened on this computer: its first attached file that
    is here, else (a shared library) the first the library keeps, from this member's
    cache (fetched if need be); None when there is none. Slow on a fetch: call it off
    the GUI thread."""
    attached = attachments.attachments(ctx, paper_id)
    local = files.first_present(attached)
    if local is not None or not shared(ctx):
        return local
    have = stored(ctx, [a.sha256 for a in attached])
    for attachment in attached:
        if attachment.sha256 in have:
            return fetch(ctx, attachment.sha256, progress)
    return None

