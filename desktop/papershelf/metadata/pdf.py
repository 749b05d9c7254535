"""A paper's PDF: downloaded safely into the library's folder, and its text for search.

`download_pdf` never writes outside the folder it is given, whatever the URL or the
server's Content-Disposition says (the name comes from the paper, else from the URL,
and is cleaned down to a plain file name); the body goes to a temporary file in that
folder and is renamed into place only once it is whole, within the size limit and
really a PDF (`%PDF-` near the start: a login or error page is refused). `pdf_text`
reads the text with pypdf (metadata.pdftext, which also bounds it); a damaged file is a
one-line error, not a traceback.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

import httpx

from papershelf.core.files import MAGIC_WINDOW, place, safe_file_name, starts_like_pdf
from papershelf.formats.records import PaperRecord
from papershelf.metadata import pdftext
from papershelf.metadata.errors import ServiceError
from papershelf.metadata.http import Download, ServiceClient
from papershelf.metadata.pdftext import PdfError

__all__ = ["MAX_PDF_BYTES", "PdfError", "download_pdf", "pdf_text", "safe_file_name"]

log = logging.getLogger(__name__)

MAX_PDF_BYTES = 200 * 1024 * 1024


def _stem_for(paper: PaperRecord | None, url: str) -> str:
    """What to call the file: "Family Year - Title" for a paper, else the URL's last part."""
    if paper is not None and paper.title:
        family = paper.authors[0].family if paper.authors else ""
        head = " ".join(part for part in (family, str(paper.year or "")) if part)
        return f"{head} - {paper.title}" if head else paper.title
    last = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    return last.removesuffix(".pdf").removesuffix(".PDF") or "paper"


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
            final = place(temp, target, name)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    log.info("downloaded %s to %s", url, final)
    return final


def _write_pdf(download: Download, out: BinaryIO) -> None:
    """Write the body of `download` to `out`, refused ("not a PDF") as soon as its first
    `MAGIC_WINDOW` bytes (or all of it, if shorter) hold no PDF header."""
    head = b""
    for chunk in download.chunks():
        out.write(chunk)
        if len(head) < MAGIC_WINDOW:
            head += chunk[:MAGIC_WINDOW]
            if len(head) >= MAGIC_WINDOW:
                _check_magic(download.service, head, download.headers)
    if len(head) < MAGIC_WINDOW:
        _check_magic(download.service, head, download.headers)


def _check_magic(service: str, head: bytes, headers: httpx.Headers) -> None:
    """Raise "not a PDF" unless `head` (the first bytes) holds the PDF header."""
    if starts_like_pdf(head):
        return
    content_type = headers.get("content-type", "").split(";")[0].strip()
    if b"<html" in head.lower() or "html" in content_type:
        what = "an HTML page"
    else:
        what = f"“{content_type}”" if content_type else "something else"
    raise ServiceError(service, f"not a PDF (the server sent {what})", "not-pdf")


def pdf_text(path: str | os.PathLike[str]) -> str:
    """The text of the PDF at `path`, page after page (pages separated by a blank line),
    within the page and character bounds of `pdftext.LIMITS` but not its time (a
    `pdftext.Reader` bounds that). Raises PdfError (a ServiceError) naming the file
    when it cannot be read."""
    pages = [part for part in pdftext.pages_text(path, pdftext.LIMITS) if isinstance(part, str)]
    return pdftext.joined(pages, pdftext.LIMITS.chars)
