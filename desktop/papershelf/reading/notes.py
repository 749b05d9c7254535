"""Annotations as writing: Markdown quotes, each with a page-exact citation in the form
the user writes in (LaTeX's `\\cite[p.~3]{key}` or pandoc's `[@key, p. 3]`), for a
paper's notes, the clipboard, or one document for a literature review.

The page is the page's label (what the paper prints on it: "iv", "3"), not its index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from papershelf.core.annotating import Annotation

CITE_FORMS = ("latex", "pandoc")
_KIND_WORDS = {"note": "Note", "text": "Text", "rectangle": "Figure"}


def citation(key: str, page_label: str, form: str = "latex") -> str:
    """The citation of page `page_label` of the paper `key`."""
    if form == "pandoc":
        return f"[@{key}, p. {page_label}]"
    if form == "latex":
        return f"\\cite[p.~{page_label}]{{{key}}}"
    raise ValueError(f"unknown citation form {form!r} (one of {', '.join(CITE_FORMS)})")


def quoted(annotation: Annotation, key: str, form: str = "latex") -> str:
    """One annotation as Markdown: its quote as a block quote ending with its citation,
    then its comment; a note or a rectangle by its comment alone, cited."""
    cite = citation(key, annotation.page_label, form)
    lines: list[str] = []
    if annotation.quote:
        words = annotation.quote.split("\n")
        lines.extend(f"> {line}".rstrip() for line in words[:-1])
        lines.append(f"> {words[-1]} {cite}")
        if annotation.comment.strip():
            lines.extend(["", annotation.comment.strip()])
    else:
        label = _KIND_WORDS.get(annotation.kind, "Note")
        comment = annotation.comment.strip() or f"({label.lower()})"
        lines.append(f"- {label}: {comment} {cite}" if annotation.kind == "rectangle"
                     else f"- {comment} {cite}")
    return "\n".join(lines)


def blocks(annotations: Iterable[Annotation], key: str, form: str = "latex") -> list[str]:
    return [quoted(a, key, form) for a in annotations]


def with_blocks(notes: str, new: Sequence[str]) -> tuple[str, int]:
    """`notes` with the `new` blocks not already in them added at the end (a blank line
    between two); how many were added."""
    added = [block for block in new if block not in notes]
    if not added:
        return notes, 0
    head = notes.rstrip()
    return (head + "\n\n" if head else "") + "\n\n".join(added) + "\n", len(added)


@dataclass(frozen=True)
class Section:
    """A paper's part of a document of annotations."""

    key: str
    title: str
    authors: str
    year: str
    annotations: Sequence[Annotation]


def document(sections: Iterable[Section], form: str = "latex", heading: str = "") -> str:
    """The annotations of several papers as one Markdown document: a heading per paper
    (its title, then its authors, year and key), its annotations in reading order."""
    parts = [f"# {heading}"] if heading else []
    for section in sections:
        if not section.annotations:
            continue
        byline = ", ".join(p for p in (section.authors, section.year) if p)
        parts.append(f"## {section.title}")
        parts.append(f"*{byline}* · `{section.key}`" if byline else f"`{section.key}`")
        parts.extend(blocks(section.annotations, section.key, form))
    return "\n\n".join(parts) + "\n" if parts else ""
