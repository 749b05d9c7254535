"""Files attached to papers: where they live, how they are named and written, their rows.

A library keeps the PDFs it copies in its own folder: `files/` beside a library file, or
for a library on a database server (which has no file) a folder of the user's data
directory named after the server and database (`folder_for`). A copied file's row holds
its path relative to that folder; a linked file's, its absolute path. A stored path is
only ever resolved inside the folder (`Attachment.location`), so a row written by
someone else cannot point a copied file elsewhere. Files are written whole or not at
all: a temporary file in the destination folder, flushed, then given a free name that
nothing else took meanwhile (`place`); a name is always a plain file name
(`safe_file_name`). Only a file that starts like a PDF is taken (`check_pdf`).
Papershelf never deletes a file it keeps: the rows come and go (undoably), the files
stay.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from papershelf.core import backup, paths
from papershelf.core.models import PaperFile
from papershelf.core.store import chunks
from papershelf.errors import UserError

COPIED, LINKED = "copied", "linked"
FOLDER = "files"
PDF_MAGIC = b"%PDF-"
# PDF readers accept the header anywhere in the first 1024 bytes.
MAGIC_WINDOW = 1024
# The text kept of one file for search: some 150 pages, and within what PostgreSQL's
# index takes of one value (a tsvector under 1 MB).
TEXT_MAX = 400_000

_UNSAFE_RE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')
_SPACES_RE = re.compile(r"\s+")
_DOTS_WORD_RE = re.compile(r"(?<!\S)\.+(?!\S)")  # "..", "." standing alone
_WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(1, 10)]
    + [f"lpt{i}" for i in range(1, 10)]
)  # fmt: skip
_NAME_MAX = 120  # characters before ".pdf"; well inside every file system's limit
_SLUG_RE = re.compile(r"[^A-Za-z0-9._-]+")


# -- where and under which name --------------------------------------------------------


def folder_for(url: str) -> Path:
    """The folder a library keeps its copied files in: `files/` beside its file, or,
    for a library on a database server, one in the user's data directory per server
    and database (each member of a group keeps their own copies there)."""
    library = backup.library_file(url)
    if library is not None:
        return library.parent / FOLDER
    parsed = make_url(url)
    where = "-".join(str(part) for part in (parsed.host or "local", parsed.port or "",
                                            parsed.database or "") if part != "")
    return paths.data_dir() / "shared" / (_SLUG_RE.sub("_", where) or "library") / FOLDER


def safe_file_name(stem: str, suffix: str = ".pdf") -> str:
    """`stem` as a plain file name that every system accepts: no path separators, no
    "..", no control or reserved characters, not hidden, not a Windows device name, of
    bounded length; "paper" when nothing is left."""
    text = unicodedata.normalize("NFC", stem)
    text = _DOTS_WORD_RE.sub(" ", _UNSAFE_RE.sub(" ", text))
    text = _SPACES_RE.sub(" ", text).strip(" .-")
    text = text[:_NAME_MAX].rstrip(" .")
    if not text or text.lower().split(".")[0] in _WINDOWS_RESERVED:
        text = f"paper {text}".strip()
    return text + suffix


def _free_path(folder: Path, name: str) -> Path:
    """`folder/name`, or `folder/name (2)` ... when that file exists."""
    path = folder / name
    stem, suffix = path.stem, path.suffix
    n = 2
    while path.exists():
        path = folder / f"{stem} ({n}){suffix}"
        n += 1
    return path


def place(temp: Path, folder: Path, name: str) -> Path:
    """Move the finished `temp` (a file in `folder`) to a free `folder/name…`
    atomically, never replacing a file that appeared meanwhile (a hard link fails if
    the name is taken). UserError if no name inside the folder can be had."""
    for _ in range(100):
        final = _free_path(folder, name)
        # The final path is inside `folder` by construction; check anyway.
        if final.resolve().parent != folder.resolve():
            raise UserError(f"{name}: refused a file name outside {folder}")
        try:
            os.link(temp, final)
        except FileExistsError:
            continue
        except OSError:  # no hard links here (some network or FAT file systems)
            os.replace(temp, final)
            return final
        temp.unlink()
        return final
    raise UserError(f"{folder}: no free file name for {name}")


def copy_into(folder: Path, source: Path, name: str) -> Path:
    """Copy `source` into `folder` under a free `name…`, whole or not at all; the new
    file's path. UserError (naming the folder) if it cannot be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(prefix=".papershelf-", suffix=".part",
                                             dir=folder)
    except OSError as exc:
        raise UserError(f"{folder}: cannot write ({exc.strerror})") from None
    temp = Path(temp_name)
    try:
        with os.fdopen(handle, "wb") as out, open(source, "rb") as src:
            shutil.copyfileobj(src, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
        return place(temp, folder, name)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise UserError(f"{folder}: cannot write {name} ({exc.strerror})") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


# -- what a file is ----------------------------------------------------------------------


def starts_like_pdf(head: bytes) -> bool:
    """Whether the first bytes of a file hold the PDF header."""
    return PDF_MAGIC in head[:MAGIC_WINDOW]


def is_pdf(path: Path) -> bool:
    """Whether `path` is a readable regular file that starts like a PDF."""
    try:
        with open(path, "rb") as handle:
            return path.is_file() and starts_like_pdf(handle.read(MAGIC_WINDOW))
    except OSError:
        return False


def check_pdf(path: Path) -> Path:
    """`path` resolved, if it names a readable PDF; else UserError, one line."""
    try:
        resolved = path.expanduser().resolve(strict=True)
    except (OSError, RuntimeError):
        raise UserError(f"{path}: no such file") from None
    if not resolved.is_file():
        raise UserError(f"{path}: not a file")
    try:
        with open(resolved, "rb") as handle:
            head = handle.read(MAGIC_WINDOW)
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror})") from None
    if not starts_like_pdf(head):
        raise UserError(f"{path}: not a PDF (it does not start like one); nothing attached")
    return resolved


def fingerprint(path: Path) -> tuple[int, str]:
    """A file's size and SHA-256 (hex)."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def inside(folder: Path, path: Path) -> str | None:
    """`path` (resolved) relative to `folder` in POSIX form, if it lies within it."""
    try:
        return path.relative_to(folder.resolve()).as_posix()
    except ValueError:
        return None


def searchable(text: str) -> str:
    """A file's text as search keeps it: no NUL characters (which PostgreSQL's text
    refuses), at most TEXT_MAX characters."""
    return text.replace("\x00", " ")[:TEXT_MAX]


# -- the rows --------------------------------------------------------------------------


@dataclass(frozen=True)
class Attachment:
    """A file attached to a paper: its row, and where it is on this computer."""

    id: int
    paper_id: int
    path: str  # relative to the library's folder (copied) or absolute (linked)
    kind: str  # COPIED or LINKED
    size: int
    sha256: str
    added_at: datetime
    indexed: bool  # its text was read for search
    # Where it is on this computer; None when the stored path cannot name a file here
    # (a copied file's path leaving the folder, a linked file's path of another system).
    location: Path | None

    @property
    def name(self) -> str:
        """The file's name (the last part of its path)."""
        return file_name(self.path)

    def present(self) -> bool:
        """Whether the file is on this computer and still a PDF."""
        return self.location is not None and is_pdf(self.location)


def first_present(attached: Iterable[Attachment]) -> Path | None:
    """Where the first of these attached files that is on this computer is, or None."""
    return next((a.location for a in attached if a.present()), None)


def file_name(stored: str) -> str:
    """The file name of a stored path, whatever system wrote it."""
    return stored.replace("\\", "/").rsplit("/", 1)[-1]


def locate(folder: Path, path: str, kind: str) -> Path | None:
    """Where a stored path is on this computer: a copied file's inside `folder` (never
    outside it), a linked file's where its absolute path says."""
    if kind == LINKED:
        linked = Path(path)
        return linked if linked.is_absolute() else None
    if kind != COPIED or not path or PurePosixPath(path).is_absolute():
        return None
    candidate = folder / path
    try:
        candidate.resolve().relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return None
    return candidate


_LISTED = (PaperFile.id, PaperFile.paper_id, PaperFile.path, PaperFile.kind, PaperFile.size,
           PaperFile.sha256, PaperFile.added_at, PaperFile.body.is_not(None))


def read(session: Session, ids: Sequence[int], folder: Path) -> dict[int, list[Attachment]]:
    """The attached files of papers, in the order they were attached (papers without
    any are absent), without their text."""
    found: dict[int, list[Attachment]] = {}
    for chunk in chunks(list(ids)):
        for row in session.execute(select(*_LISTED).where(PaperFile.paper_id.in_(chunk))
                                   .order_by(PaperFile.id)):
            file_id, pid, path, kind, size, sha256, added_at, indexed = row
            found.setdefault(pid, []).append(Attachment(
                file_id, pid, path, kind, size, sha256, added_at, bool(indexed),
                locate(folder, path, kind)))
    return found


def snapshot(session: Session, ids: Iterable[int]) -> list[dict[str, Any]]:
    """Every column of the files of these papers (their text too), to `put_back`."""
    columns = list(PaperFile.__table__.columns)
    rows: list[dict[str, Any]] = []
    for chunk in chunks(list(ids)):
        rows.extend(dict(row._mapping) for row in session.execute(
            select(*columns).where(PaperFile.paper_id.in_(chunk))))
    return rows


def put_back(session: Session, rows: Sequence[dict[str, Any]]) -> list[int]:
    """Insert file rows as `snapshot` read them, under their ids where those are still
    free (SQLite may have given one to a file attached meanwhile); their ids now."""
    if not rows:
        return []
    wanted = [row["id"] for row in rows]
    taken = {file_id for chunk in chunks(wanted) for file_id in session.scalars(
        select(PaperFile.id).where(PaperFile.id.in_(chunk)))}
    ids = []
    for row in rows:
        values = {k: v for k, v in row.items() if k != "id" or v not in taken}
        ids.append(int(session.execute(insert(PaperFile).values(**values)
                                       .returning(PaperFile.id)).scalar_one()))
    return ids
