"""Annotations between the library and a paper's PDF: a quote highlighted on a page,
the annotations already in the file imported once, a copy of the file with the
library's annotations written in, and the annotations as Markdown (a paper's notes, a
document). The window's reader and the command line both do it through here; the file
is read in a worker process (`reading.bounded`), never in the caller's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from papershelf.core.annotating import Annotation, New
from papershelf.core.edits import Change
from papershelf.core.files import Attachment
from papershelf.core.library import Library
from papershelf.errors import UserError
from papershelf.formats.records import Author
from papershelf.messages import plural, text
from papershelf.reading import bounded, fileannots, notes
from papershelf.reading.pdfwork import Quoted, find, in_file, labels, write


def pdf_of(library: Library, paper_id: int, key: str) -> Attachment:
    """The paper's first PDF on this computer, or UserError."""
    for attachment in library.attachments(paper_id):
        location = attachment.location
        if (location is not None and location.suffix.lower() == ".pdf"
                and location.is_file()):
            return attachment
    raise UserError(text("{key} has no PDF on this computer", key=key))


def highlight(library: Library, paper_id: int, key: str, page: int, quote: str, *,
              comment: str = "", color: str = "yellow", kind: str = "highlight",
              shared: bool = False) -> tuple[Change, Annotation]:
    """Highlight `quote` on page `page` (counted from 1, whatever its label) of the
    paper's PDF; UserError when the page or the text is not there."""
    attachment = pdf_of(library, paper_id, key)
    assert attachment.location is not None
    if not quote.strip():
        raise UserError(text("a highlight needs the text it covers (--quote)"))
    where = bounded.call(find, str(attachment.location), page - 1, quote)
    if not 1 <= page <= where.pages:
        raise UserError(text("{key}'s PDF has no page {page} (it has {pages})", key=key,
                             page=page, pages=where.pages))
    if where.found is None:
        raise UserError(text("the text is not on page {page} of {key}'s PDF: \"{quote}\"",
                             page=page, key=key, quote=_short(quote)))
    change, annotation_id = library.add_annotation(paper_id, New(
        kind, page - 1, where.label, where.found.rects, where.found.text, comment, color,
        shared, attachment.sha256))
    made = library.annotation(annotation_id)
    assert made is not None
    return change, made


def _short(quote: str, longest: int = 60) -> str:
    quote = " ".join(quote.split())
    return quote if len(quote) <= longest else quote[:longest - 1] + "…"


def import_from_file(library: Library, paper_id: int, key: str, *, shared: bool = False,
                     problems: list[str] | None = None) -> tuple[Change, int, int]:
    """Import the annotations already in the paper's PDF (those imported before are
    skipped); the change, how many were added and how many the file has. A damaged
    annotation is skipped (the others are imported) and named in `problems`."""
    attachment = pdf_of(library, paper_id, key)
    assert attachment.location is not None
    infile = bounded.call(in_file, str(attachment.location))
    if problems is not None:
        problems.extend(infile.problems)
    items = []
    for found, quote, image in zip(infile.found, infile.quotes, infile.images, strict=True):
        label = (infile.labels[found.page_index] if found.page_index < len(infile.labels)
                 else str(found.page_index + 1))
        items.append(New(found.kind, found.page_index, label, found.rects, quote,
                         found.comment, found.color, shared, attachment.sha256, image,
                         origin="file", source_id=f"{attachment.sha256[:16]}:"
                         f"{found.source_id}", created_at=found.modified))
    n = len(infile.found)
    change, ids = library.add_annotations(
        paper_id, items, plural("Import %n annotations from the PDF", n,
                                "Import 1 annotation from the PDF" if n == 1 else
                                f"Import {n} annotations from the PDF"))
    return change, len(ids), n


def export_pdf(library: Library, paper_id: int, key: str, target: str | Path) -> int:
    """Write a copy of the paper's PDF with its annotations (those the member sees) as
    standard ones other readers show; how many. The library's file is not changed."""
    attachment = pdf_of(library, paper_id, key)
    assert attachment.location is not None
    marks = library.annotations_of([paper_id]).get(paper_id, [])
    items = [fileannots.Written(
        a.page_index, a.kind, a.rects, a.comment, a.owner or "", a.color,
        f"papershelf-{a.id}", a.modified_at) for a in marks if a.rects]
    return int(bounded.call(write, str(attachment.location), str(target), items))


def add_to_notes(library: Library, paper_id: int, key: str, form: str = "latex"
                 ) -> tuple[Change, int]:
    """Add the paper's annotations, as Markdown quotes with their citations, to its
    notes (those already there are not added again); the change and how many."""
    marks = library.annotations_of([paper_id]).get(paper_id, [])
    detail = library.paper(paper_id)
    if detail is None:
        raise UserError(text("the paper no longer exists"))
    new, added = notes.with_blocks(detail.record.notes, notes.blocks(marks, key, form))
    if not added:
        return Change(text("Add annotations to notes"), frozenset()), 0
    change = library.set_notes(paper_id, new, (detail.version, detail.record.notes))
    change.description = text("Add annotations to notes")
    return change, added


def markdown(library: Library, ids: Sequence[int], form: str = "latex",
             heading: str = "") -> str:
    """The annotations of these papers as one Markdown document (papers without any are
    left out)."""
    marks = library.annotations_of(ids)
    sections = []
    for detail in library.details([i for i in ids if i in marks]):
        record = detail.record
        sections.append(notes.Section(record.key or "", record.title or "",
                                      _byline(record.authors),
                                      str(record.year) if record.year else "",
                                      marks[detail.id]))
    return notes.document(sections, form, heading)


def _byline(authors: Sequence[Author]) -> str:
    names = [a.family or a.given for a in authors]
    if len(names) > 3:
        return f"{names[0]} et al."
    return ", ".join(names)


def labels_of(path: str | Path) -> list[str]:
    """The pages' labels of a PDF (read in a worker process)."""
    return list(bounded.call(labels, str(path)))


__all__ = ["Quoted", "add_to_notes", "export_pdf", "highlight", "import_from_file",
           "labels_of", "markdown", "pdf_of"]
