"""What the worker process does with a PDF (reading.bounded runs these): light, so that
the worker starts quickly, importing PDFium and pypdf and nothing of the library."""

from __future__ import annotations

from dataclasses import dataclass

from papershelf.reading import document, fileannots


@dataclass(frozen=True)
class Quoted:
    """Where a quote is on a page: its text as the page has it, its rectangles, and
    the page's label."""

    found: document.Found | None
    label: str
    pages: int


def find(path: str, page_index: int, quote: str) -> Quoted:
    with document.opened(path) as pdf:
        labels = document.page_labels(pdf)
        if not 0 <= page_index < len(labels):
            return Quoted(None, "", len(labels))
        return Quoted(document.find_quote(pdf, page_index, quote), labels[page_index],
                      len(labels))


def labels(path: str) -> list[str]:
    with document.opened(path) as pdf:
        return document.page_labels(pdf)


@dataclass(frozen=True)
class InFile:
    """The annotations of a file, with the text each covers (a rectangle: the image of
    what it frames) and the pages' labels."""

    found: list[fileannots.FileAnnotation]
    quotes: list[str]
    labels: list[str]
    images: list[bytes | None]
    problems: list[str]  # (a line for each damaged annotation skipped)


def in_file(path: str) -> InFile:
    problems: list[str] = []
    found = fileannots.read(path, problems)
    with document.opened(path) as pdf:
        labels = document.page_labels(pdf)
        quotes = [document.text_in(pdf, a.page_index, a.rects)
                  if a.kind in ("highlight", "underline", "strikeout", "squiggly") else ""
                  for a in found]
        images = [document.framed_png(pdf, a.page_index, a.rects[0])
                  if a.kind == "rectangle" else None for a in found]
    return InFile(found, quotes, labels, images, problems)


def write(path: str, target: str, items: list[fileannots.Written]) -> int:
    return fileannots.write_copy(path, target, items)
