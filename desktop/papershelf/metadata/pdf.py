"""A paper's PDF: downloaded safely into the library's folder, and its text for search.

`download_pdf` never writes outside the folder it is given, whatever the URL or the
server's Content-Disposition says (the name comes from the paper, else from the URL,
and is cleaned down to a plain file name); the body goes to a temporary file in that
folder and is renamed into place only once it is whole, within the size limit and
really a PDF (`%PDF-` near the start: a login or error page is refused). `pdf_text`
reads the text with pypdf; a damaged file is a one-line error, not a traceback.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import unicodedata
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

import httpx

from papershelf.formats.records import PaperRecord
from papershelf.metadata.errors import ErrorKind, ServiceError
from papershelf.metadata.http import Download, ServiceClient

__all__ = ["MAX_PDF_BYTES", "PdfError", "download_pdf", "pdf_text", "safe_file_name"]

log = logging.getLogger(__name__)

MAX_PDF_BYTES = 200 * 1024 * 1024
PDF_MAGIC = b"%PDF-"
# PDF readers accept the header anywhere in the first 1024 bytes.
_MAGIC_WINDOW = 1024
_UNSAFE_RE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')
_SPACES_RE = re.compile(r"\s+")
_DOTS_WORD_RE = re.compile(r"(?<!\S)\.+(?!\S)")  # "..", "." standing alone
_WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(1, 10)]
    + [f"lpt{i}" for i in range(1, 10)]
)  # fmt: skip
_NAME_MAX = 120  # characters before ".pdf"; well inside every file system's limit


class PdfError(ServiceError):
    """A PDF that cannot be read (damaged, encrypted, not a PDF): one line, the file named."""

    def __init__(self, service: str, problem: str, kind: ErrorKind = "unreadable") -> None:
        super().__init__(service, problem, kind)


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


def _stem_for(paper: PaperRecord | None, url: str) -> str:
    """What to call the file: "Family Year - Title" for a paper, else the URL's last part."""
    if paper is not None and paper.title:
        family = paper.authors[0].family if paper.authors else ""
        head = " ".join(part for part in (family, str(paper.year or "")) if part)
        return f"{head} - {paper.title}" if head else paper.title
    last = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    return last.removesuffix(".pdf").removesuffix(".PDF") or "paper"


def _free_path(folder: Path, name: str) -> Path:
    """`folder/name`, or `folder/name (2)` ... when that file exists."""
    path = folder / name
    stem, suffix = path.stem, path.suffix
    n = 2
    while path.exists():
        path = folder / f"{stem} ({n}){suffix}"
        n += 1
    return path


def download_pdf(
    url: str,
    folder: str | os.PathLike[str],
    client: ServiceClient,
    max_bytes: int = MAX_PDF_BYTES,
    *,
    paper: PaperRecord | None = None,
) -> Path:
    """Download the PDF at `url` into `folder` and return its path.

    The file is named after `paper` when given ("Adepu 2024 - FrameQuant….pdf"), else
    after the URL, never after the server's Content-Disposition, and an existing file is
    not overwritten ("… (2).pdf"). Raises ServiceError: "not a PDF" for anything that
    does not start like one (an HTML page), "too big" past `max_bytes`, and the client's
    errors (offline, time-out, not found, ...). Nothing is left behind on failure.
    """
    target = Path(folder)
    name = safe_file_name(_stem_for(paper, url))
    with client.download(url, max_bytes=max_bytes, accept="application/pdf") as download:
        target.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(prefix=".papershelf-", suffix=".part", dir=target)
        temp = Path(temp_name)
        try:
            with os.fdopen(handle, "wb") as out:
                _write_pdf(download, out)
                out.flush()
                os.fsync(out.fileno())
            final = _place(temp, target, name)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    log.info("downloaded %s to %s", url, final)
    return final


def _write_pdf(download: Download, out: BinaryIO) -> None:
    """Write the body of `download` to `out`, refused ("not a PDF") as soon as its first
    `_MAGIC_WINDOW` bytes (or all of it, if shorter) hold no PDF header."""
    head = b""
    for chunk in download.chunks():
        out.write(chunk)
        if len(head) < _MAGIC_WINDOW:
            head += chunk[:_MAGIC_WINDOW]
            if len(head) >= _MAGIC_WINDOW:
                _check_magic(download.service, head, download.headers)
    if len(head) < _MAGIC_WINDOW:
        _check_magic(download.service, head, download.headers)


def _check_magic(service: str, head: bytes, headers: httpx.Headers) -> None:
    """Raise "not a PDF" unless `head` (the first bytes) holds the PDF header."""
    if PDF_MAGIC in head[:_MAGIC_WINDOW]:
        return
    content_type = headers.get("content-type", "").split(";")[0].strip()
    if b"<html" in head.lower() or "html" in content_type:
        what = "an HTML page"
    else:
        what = f"“{content_type}”" if content_type else "something else"
    raise ServiceError(service, f"not a PDF (the server sent {what})", "not-pdf")


def _place(temp: Path, folder: Path, name: str) -> Path:
    """Move the finished `temp` to a free `folder/name…` atomically, never replacing a
    file that appeared meanwhile (a hard link fails if the name is taken)."""
    for _ in range(100):
        final = _free_path(folder, name)
        # The final path is inside `folder` by construction; check anyway.
        if final.resolve().parent != folder.resolve():
            raise ServiceError("download", "refused a file name outside the folder", "bad-url")
        try:
            os.link(temp, final)
        except FileExistsError:
            continue
        except OSError:  # no hard links here (some network or FAT file systems)
            os.replace(temp, final)
            return final
        temp.unlink()
        return final
    raise ServiceError("download", f"no free file name for {name}", "bad-url")


def pdf_text(path: str | os.PathLike[str]) -> str:
    """The text of the PDF at `path`, page after page (pages separated by a blank line).
    Raises PdfError (a ServiceError) naming the file when it cannot be read."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    file = Path(path)
    try:
        reader = PdfReader(file)
        # Many "encrypted" PDFs only restrict printing: the empty password opens them.
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError("PDF", f"{file.name} is encrypted; its text cannot be read")
        pages = [page.extract_text() or "" for page in reader.pages]
    except PdfError:
        raise
    except FileNotFoundError:
        raise PdfError("PDF", f"{file.name} does not exist") from None
    except OSError as error:
        raise PdfError("PDF", f"{file.name} cannot be opened ({error.strerror})") from None
    except PdfReadError as error:
        raise PdfError("PDF", f"{file.name} is damaged or not a PDF ({error})") from None
    except Exception as error:  # pypdf raises many kinds on a broken file
        log.info("pypdf failed on %s", file, exc_info=True)
        raise PdfError(
            "PDF", f"{file.name} is damaged ({type(error).__name__})"
        ) from None
    return "\n\n".join(text.strip() for text in pages if text.strip())
