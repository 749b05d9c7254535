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
from itertools import islice
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
QUADS_MAX = 256  # rectangles of one annotation kept (a line of text each)
RECTS_MAX = 100_000  # rectangles read from one file at most
TEXT_MAX = 20_000  # characters of one annotation's contents kept
PROBLEMS_MAX = 20  # damaged annotations named one by one (then counted)
COORDINATE_MAX = 1e6  # points: a number beyond is no place on a page
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


class Damaged(ValueError):
    """What makes one annotation unreadable (the others of the file are read)."""


def _resolved(value: Any) -> Any:
    return value.get_object() if hasattr(value, "get_object") else value


def _number(value: Any) -> float:
    number = float(_resolved(value))  # (null: TypeError; a name: ValueError)
    if not abs(number) <= COORDINATE_MAX:  # (NaN too)
        raise Damaged(f"a coordinate of {number:g}")
    return round(number, 2)


def _rects(annotation: Any) -> tuple[Rect, ...]:
    """The annotation's rectangles: from /QuadPoints (at most QUADS_MAX), else /Rect."""
    quads = _resolved(annotation.get("/QuadPoints"))
    found: list[Rect] = []
    if quads is not None:
        if not isinstance(quads, list):
            raise Damaged("its /QuadPoints is no array")
        numbers = [_number(v) for v in quads[:QUADS_MAX * 8]]
        for at in range(0, len(numbers) - 7, 8):
            xs, ys = numbers[at:at + 8:2], numbers[at + 1:at + 8:2]
            found.append((min(xs), min(ys), max(xs), max(ys)))
    rect = _resolved(annotation.get("/Rect"))
    if not found and rect is not None:
        if not isinstance(rect, list) or len(rect) != 4:
            raise Damaged(f"its /Rect has {len(rect) if isinstance(rect, list) else 'no'} "
                          "numbers")
        x0, y0, x1, y1 = (_number(v) for v in rect)
        found.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return tuple(found)


def _color(annotation: Any) -> str:
    try:
        values = [float(v) for v in islice(_resolved(annotation.get("/C")) or (), 4)]
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
    """A PDF string as one line of at most TEXT_MAX characters, cut before it is split
    (thousands of annotations may share one string of megabytes)."""
    if value is None:
        return ""
    if isinstance(value, (str, bytes)):
        value = value[:TEXT_MAX * 4]
    return " ".join(str(value or "").split())[:TEXT_MAX]


def read(path: str | os.PathLike[str], problems: list[str] | None = None
         ) -> list[FileAnnotation]:
    """The annotations in the PDF at `path` of the kinds the library keeps (at most
    `ANNOTATIONS_MAX`, `RECTS_MAX` rectangles in all), or PdfError. A damaged one (a
    /Rect of 3 numbers, a null among its /QuadPoints, no dictionary) is skipped and
    named in `problems` (the first PROBLEMS_MAX, then counted)."""
    from pypdf import PdfReader

    quiet_pypdf()
    file = Path(path)
    found: list[FileAnnotation] = []
    problems = [] if problems is None else problems
    skipped = rects = 0
    with pdf_failures(file):
        reader = PdfReader(file)
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfError("PDF", f"{file.name} is encrypted; its annotations cannot be read")
        for index, page in enumerate(reader.pages):
            annotations = _resolved(page.get("/Annots"))
            for ref in annotations if isinstance(annotations, list) else ():
                try:
                    annotation = _annotation(index, _resolved(ref))
                except Exception as error:  # (pypdf's and ours: this one only is lost)
                    why = str(error) if isinstance(error, Damaged) else \
                        "not a dictionary" if isinstance(error, AttributeError) else \
                        type(error).__name__
                    if len(problems) < PROBLEMS_MAX:
                        problems.append(f"{file.name}, page {index + 1}: a damaged "
                                        f"annotation ({why}) skipped")
                    else:
                        skipped += 1
                    continue
                if annotation is None:
                    continue
                found.append(annotation)
                rects += len(annotation.rects)
                if len(found) >= ANNOTATIONS_MAX or rects >= RECTS_MAX:
                    problems.append(f"{file.name}: more than {len(found):,} annotations "
                                    f"or {RECTS_MAX:,} rectangles; the rest not read")
                    return found
    if skipped:
        problems.append(f"{file.name}: {skipped} more damaged annotations skipped")
    return found


def _annotation(index: int, annotation: Any) -> FileAnnotation | None:
    """The annotation as the library keeps it (None: a kind it does not), or an error."""
    kind = _SUBTYPES.get(str(annotation.get("/Subtype")))
    if kind is None:
        return None
    rects = _rects(annotation)
    if not rects:
        return None
    comment = _text(annotation.get("/Contents"))
    name = _text(annotation.get("/NM"))[:200]
    source = name or hashlib.sha1(repr((index, kind, rects, comment)).encode()).hexdigest()
    return FileAnnotation(index, kind, rects, comment, _text(annotation.get("/T"))[:200],
                          _color(annotation), _date(annotation.get("/M")), source)


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
