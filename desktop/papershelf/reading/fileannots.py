"""The annotations inside a PDF file, read and written with pypdf: those other readers
(Acrobat, Okular, Preview, Zotero's export) write, and a copy of a file with the
library's annotations written in as standard ones.

Read: Highlight, Underline, StrikeOut, Squiggly, Text (a sticky note), FreeText and
Square (a rectangle over a figure), with their rectangles (from QuadPoints, or Rect),
contents, author, colour and time. Each gets a `source_id` (its /NM name, or a
fingerprint of what it is) so that reading the same file again finds the ones already
imported. Written: a copy (never the library's
own file) with each annotation as its kind, QuadPoints in the order Acrobat writes
them, the comment as /Contents and the member as /T.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from papershelf.metadata.pdftext import PdfError, pdf_failures, quiet_pypdf
from papershelf.reading.document import Rect

# The kinds of annotation in the library, and their PDF subtypes.
KINDS = ("highlight", "underline", "strikeout", "squiggly", "note", "text", "rectangle")
_SUBTYPES = {"/Highlight": "highlight", "/Underline": "underline", "/StrikeOut": "strikeout",
             "/Squiggly": "squiggly", "/Text": "note", "/FreeText": "text",
             "/Square": "rectangle"}
_WRITTEN = {"highlight": "/Highlight", "underline": "/Underline", "strikeout": "/StrikeOut",
            "squiggly": "/Squiggly", "note": "/Text", "text": "/FreeText",
            "rectangle": "/Square"}
# The colours a reader picks from (Zotero's), by name.
COLORS = {"yellow": "#ffd400", "red": "#ff6666", "green": "#5fb236", "blue": "#2ea8e5",
          "purple": "#a28ae5"}
ANNOTATIONS_MAX = 20_000  # read from one file at most
TEXT_MAX = 20_000  # characters of one annotation's contents kept
NOTE_SIZE = 20.0  # a sticky note's icon, in points


@dataclass(frozen=True)
class FileAnnotation:
    """An annotation as a PDF file holds it."""

    page_index: int
    kind: str
    rects: tuple[Rect, ...]
    comment: str
    author: str
    color: str  # "#rrggbb"
    modified: datetime | None
    source_id: str


def _number(value: Any) -> float:
    return round(float(value), 2)


def _rects(annotation: Any) -> tuple[Rect, ...]:
    quads = annotation.get("/QuadPoints")
    found: list[Rect] = []
    if quads is not None:
        numbers = [_number(v) for v in quads]
        for at in range(0, len(numbers) - 7, 8):
            xs, ys = numbers[at:at + 8:2], numbers[at + 1:at + 8:2]
            found.append((min(xs), min(ys), max(xs), max(ys)))
    if not found and annotation.get("/Rect") is not None:
        x0, y0, x1, y1 = (_number(v) for v in annotation["/Rect"])
        found.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return tuple(found)


def _color(annotation: Any) -> str:
    try:
        values = [float(v) for v in annotation.get("/C") or ()]
    except (TypeError, ValueError):
        values = []
    if len(values) == 3:
        return "#" + "".join(f"{max(0, min(255, round(v * 255))):02x}" for v in values)
    return COLORS["yellow"]


def _date(value: Any) -> datetime | None:
    """A PDF date ("D:20240131120000Z", "D:20240131120000+01'00'")."""
    text = str(value or "").removeprefix("D:")
    try:
        moment = datetime.strptime(text[:14], "%Y%m%d%H%M%S")
    except ValueError:
        return None
    return moment.replace(tzinfo=timezone.utc)


def _text(value: Any) -> str:
    return " ".join(str(value or "").split())[:TEXT_MAX] if value is not None else ""


def read(path: str | os.PathLike[str]) -> list[FileAnnotation]:
    """The annotations in the PDF at `path` of the kinds the library keeps (at most
    `ANNOTATIONS_MAX`), or PdfError."""
    from pypdf import PdfReader

    quiet_pypdf()
    file = Path(path)
    found: list[FileAnnotation] = []
    with pdf_failures(file):
        reader = PdfReader(file)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError("PDF", f"{file.name} is encrypted; its annotations cannot be read")
        for index, page in enumerate(reader.pages):
            for ref in page.get("/Annots") or ():
                annotation = ref.get_object()
                kind = _SUBTYPES.get(str(annotation.get("/Subtype")))
                if kind is None:
                    continue
                rects = _rects(annotation)
                if not rects:
                    continue
                comment = _text(annotation.get("/Contents"))
                name = _text(annotation.get("/NM"))[:200]
                source = name or hashlib.sha1(repr((index, kind, rects, comment)).encode()
                                              ).hexdigest()
                found.append(FileAnnotation(
                    index, kind, rects, comment, _text(annotation.get("/T"))[:200],
                    _color(annotation), _date(annotation.get("/M")), source))
                if len(found) >= ANNOTATIONS_MAX:
                    return found
    return found


@dataclass(frozen=True)
class Written:
    """An annotation to write into a copy of a file."""

    page_index: int
    kind: str
    rects: Sequence[Rect]
    comment: str
    author: str
    color: str
    name: str  # (its /NM: the same annotation keeps its name from one export to the next)
    modified: datetime


def _pdf_date(moment: datetime) -> str:
    return "D:" + moment.astimezone(timezone.utc).strftime("%Y%m%d%H%M%S") + "Z"


def _rgb(color: str) -> list[float]:
    value = color.lstrip("#")
    try:
        return [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    except ValueError:
        return [1.0, 0.83, 0.0]


def _dictionary(item: Written) -> Any:
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    def numbers(values: Iterable[float], places: int = 2) -> ArrayObject:
        return ArrayObject(FloatObject(round(v, places)) for v in values)

    rects = list(item.rects)
    left = min(r[0] for r in rects)
    bottom = min(r[1] for r in rects)
    right = max(r[2] for r in rects)
    top = max(r[3] for r in rects)
    if item.kind == "note":
        left, top = rects[0][0], rects[0][3]
        right, bottom = left + NOTE_SIZE, top - NOTE_SIZE
    annotation = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"),
        NameObject("/Subtype"): NameObject(_WRITTEN[item.kind]),
        NameObject("/Rect"): numbers((left, bottom, right, top)),
        NameObject("/Contents"): TextStringObject(item.comment),
        NameObject("/T"): TextStringObject(item.author),
        NameObject("/NM"): TextStringObject(item.name),
        NameObject("/M"): TextStringObject(_pdf_date(item.modified)),
        NameObject("/C"): numbers(_rgb(item.color), 4),
        NameObject("/F"): NumberObject(4),  # (printed)
    })
    if item.kind in ("highlight", "underline", "strikeout", "squiggly"):
        # Each line: upper left, upper right, lower left, lower right (as Acrobat writes).
        annotation[NameObject("/QuadPoints")] = numbers(
            v for x0, y0, x1, y1 in rects for v in (x0, y1, x1, y1, x0, y0, x1, y0))
    elif item.kind == "note":
        annotation[NameObject("/Name")] = NameObject("/Comment")
    return annotation


def write_copy(source: str | os.PathLike[str], target: str | os.PathLike[str],
               annotations: Iterable[Written]) -> int:
    """Write a copy of the PDF `source` to `target` with `annotations` added (whole or
    not at all); the number written. `source` is never changed."""
    from pypdf import PdfReader, PdfWriter

    quiet_pypdf()
    source, target = Path(source), Path(target)
    if source.resolve() == target.resolve():
        raise PdfError("PDF", f"{target.name} is the paper's own file: write the copy "
                       "elsewhere")
    with pdf_failures(source):
        reader = PdfReader(source)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError("PDF", f"{source.name} is encrypted; no copy can be written")
        writer = PdfWriter(clone_from=reader)
        count = 0
        for item in annotations:
            if not item.rects or not 0 <= item.page_index < len(writer.pages):
                continue
            writer.add_annotation(item.page_index, _dictionary(item))
            count += 1
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".papershelf-unfinished.",
                                                 dir=target.parent)
            try:
                with os.fdopen(handle, "wb") as out:
                    writer.write(out)
                os.replace(temporary, target)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as error:
            raise PdfError("PDF", f"{target.name} cannot be written "
                           f"({error.strerror})") from None
    return count
