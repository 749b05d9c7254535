"""Papers' PDFs without Qt: what `papershelf attach` / `download-pdf` and the window's
Paper menu share.

`download` fetches the PDF a paper's record names (`identifiers.best_pdf`: its own PDF
link, the proceedings', arXiv's, OpenReview's) into the library's folder and never
raises for a service's failure: its `Fetched` holds the file, or the one line saying
why not. `attach_fetched` attaches what was downloaded as one undoable Change.
`read_texts` reads attached files' text with pypdf in a worker process, each file
bounded in pages, characters and time (metadata.pdftext; still slow: run it off the
GUI thread, outside any transaction) and `index_texts` stores it for search, a few
files a time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from papershelf.core import edits
from papershelf.core.library import Attachment, Change, Library, UserError
from papershelf.metadata import pdftext
from papershelf.metadata.errors import ServiceError
from papershelf.metadata.http import ServiceClient
from papershelf.metadata.identifiers import best_pdf
from papershelf.metadata.pdf import MAX_PDF_BYTES, download_pdf

__all__ = ["Fetched", "attach_fetched", "download", "download_all", "index_texts",
           "read_texts"]

log = logging.getLogger(__name__)

Cancelled = Callable[[], bool]
Progress = Callable[[int, int], None]
TEXTS_AT_ONCE = 5  # files read between two writes of their text


@dataclass(frozen=True)
class Fetched:
    """What downloading one paper's PDF gave: the file (in the library's folder, not
    attached yet), or the one line saying why not."""

    paper_id: int
    key: str
    path: Path | None = None
    error: str = ""


def download(library: Library, paper_id: int, client: ServiceClient,
             max_bytes: int = MAX_PDF_BYTES) -> Fetched:
    """Download the PDF a paper's record names into the library's folder. Offline
    mode, a page that is not a PDF, a file over `max_bytes`: each is the Fetched's error."""
    detail = library.paper(paper_id)
    if detail is None:
        return Fetched(paper_id, "", error="the paper no longer exists")
    url = best_pdf(detail.record)
    if url is None:
        return Fetched(paper_id, detail.key, error=(
            f"{detail.key}: no PDF address is known (add its arXiv id, DOI or a link)"))
    try:
        path = download_pdf(url, library.files_folder, client, max_bytes,
                            paper=detail.record)
    except (ServiceError, UserError) as exc:
        return Fetched(paper_id, detail.key, error=f"{detail.key}: {exc}")
    except OSError as exc:  # (the library's folder cannot be made or written)
        return Fetched(paper_id, detail.key,
                       error=f"{detail.key}: {library.files_folder}: {exc.strerror}")
    return Fetched(paper_id, detail.key, path)


def download_all(library: Library, ids: Sequence[int], client: ServiceClient,
                 progress: Progress | None = None,
                 cancelled: Cancelled | None = None) -> list[Fetched]:
    """`download` each paper's PDF in turn; stops early when `cancelled`."""
    fetched: list[Fetched] = []
    for done, paper_id in enumerate(ids):
        if cancelled is not None and cancelled():
            break
        if progress is not None:
            progress(done, len(ids))
        fetched.append(download(library, paper_id, client))
    if progress is not None:
        progress(len(fetched), len(ids))
    return fetched


def discard(fetched: Sequence[Fetched]) -> None:
    """Remove downloaded files that will not be attached (our own, of a moment ago)."""
    for item in fetched:
        if item.path is not None:
            item.path.unlink(missing_ok=True)


def attach_fetched(library: Library, fetched: Sequence[Fetched]) -> tuple[Change, list[str]]:
    """Attach the downloaded files to their papers: one Change for all (one undo step);
    and a line for each file not attached (the paper has it already, or is gone),
    which is then removed again. A database error takes back what was attached before
    it, removes the downloads, and is raised."""
    got = [item for item in fetched if item.path is not None]
    try:
        done, refused = library.attach_each([(item.paper_id, item.path) for item in got
                                             if item.path is not None])
    except BaseException:
        discard(fetched)
        raise
    problems: list[str] = []
    for n, exc in refused:
        item = got[n]
        problems.append(str(exc) if item.key in str(exc) else f"{item.key}: {exc}")
        discard([item])
    description = edits.describe("Download PDF for", range(len(done)))
    return (edits.combined(description, done) if done
            else Change(description, frozenset())), problems


def read_texts(attached: Sequence[Attachment], cancelled: Cancelled | None = None
               ) -> tuple[dict[int, str], list[str]]:
    """The text of each attached file on this computer, by file id, each read within
    `pdftext.LIMITS` (pages, characters, seconds) in a worker process: a file pypdf
    cannot read gets no text ('') and a line saying why; one that ran out of time or
    pages, the text read by then and a line saying so. Either way it counts as read,
    so it never holds up the files after it."""
    texts: dict[int, str] = {}
    problems: list[str] = []
    with pdftext.Reader() as reader:
        for attachment in attached:
            if attachment.location is None:
                continue
            got = reader.read(attachment.location, cancelled)
            if got is None:  # cancelled
                break
            texts[attachment.id] = got.text
            if got.problem:
                problems.append(got.problem)
    return texts, problems


def index_texts(library: Library, cancelled: Cancelled | None = None
                ) -> tuple[int, list[str]]:
    """Read the text of every attached file not yet read and store it for search, a
    few files per write; how many files were read, and the problems met."""
    count, problems = 0, []
    while not (cancelled is not None and cancelled()):
        texts, seen = read_texts(library.pending_texts(TEXTS_AT_ONCE), cancelled)
        if not texts:
            break
        library.set_file_texts(texts)
        count += len(texts)
        problems += seen
    return count, problems
