"""Rows dragged out of the paper table (issue 27, "cite while you write"): dropped into a
text editor they write the citation Copy Citation would (`\\cite{a,b}`, or the form
chosen in Preferences) as `text/plain`, and programs that take BibTeX find the entries
as `application/x-bibtex` (for selections small enough to write at once)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from papershelf.core import citing
from papershelf.gui.qt import QByteArray, QMimeData

if TYPE_CHECKING:
    from papershelf.core.firstpage import FirstPage
    from papershelf.core.library import Library
    from papershelf.core.transfer import ExportOptions

MIME_TEXT = "text/plain"
MIME_BIBTEX = "application/x-bibtex"
# Past this many papers a drag carries the citation only (BibTeX is written on the GUI
# thread as the drag starts: a big selection's would stall it).
BIBTEX_LIMIT = 200


def paper_mime(library: Library | FirstPage, ids: Sequence[int], form: str,
               options: Callable[[], ExportOptions] | None = None) -> QMimeData:
    """What a drag of the papers `ids` carries: their citation in `form` (core.citing),
    in the given order, and their BibTeX (with `options`) when cheap enough."""
    from papershelf.core.library import Library

    rows = library.rows(ids)
    keys = [rows[pid].key for pid in ids if pid in rows]
    mime = QMimeData()
    mime.setText(citing.citation(keys, form))
    if isinstance(library, Library) and 0 < len(ids) <= BIBTEX_LIMIT:
        from papershelf.core.transfer import ExportOptions, export_papers

        text = export_papers(library, list(ids),
                             options() if options is not None else ExportOptions()).text
        mime.setData(MIME_BIBTEX, QByteArray(text.encode("utf-8")))
    return mime
