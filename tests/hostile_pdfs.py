"""Hostile PDFs for the reader's tests, written byte by byte or with pypdf: cut short, with
a broken cross-reference, locked with a password, a decompression bomb, a page that takes
minutes to draw, ten thousand pages."""

from __future__ import annotations

import zlib
from pathlib import Path

from pypdf import PdfWriter


def one_page(path: Path, content: bytes, filters: bytes = b" /Filter /FlateDecode") -> Path:
    """A one-page PDF (US Letter) whose page's content stream is `content` as stored."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        b">> >> >> >>",
        b"<< /Length %d%s >>\nstream\n" % (len(content), filters) + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def bomb(path: Path, gib: int = 3) -> Path:
    """A 3 MB file whose page's content stream inflates to `gib` GiB (of spaces after one
    line drawn): the same deflate block, flushed so that it can be repeated, `gib` × 1024
    times, then the checksum of it all."""
    start, chunk = b"0 0 m 612 792 l S\n", b" " * (1 << 20)
    deflater = zlib.compressobj(9)
    head = deflater.compress(start) + deflater.flush(zlib.Z_FULL_FLUSH)
    block = deflater.compress(chunk) + deflater.flush(zlib.Z_FULL_FLUSH)
    tail = deflater.flush()[:-4]  # (its checksum, of `start` only)
    check = zlib.adler32(start)
    for _ in range(gib * 1024):
        check = zlib.adler32(chunk, check)
    return one_page(path, head + block * (gib * 1024) + tail + check.to_bytes(4, "big"))


def slow(path: Path) -> Path:
    """A page of two million strokes: PDFium draws it for minutes."""
    return one_page(path, zlib.compress(b"0 0 m 612 792 l S\n" * 2_000_000))


def wordy(path: Path, chars: int = 300_000) -> Path:
    """A page of `chars` tiny letters (a dense page has some 10,000)."""
    line = b"x" * 1000
    text = b"".join(b"(%s) Tj T* " % line for _ in range(chars // len(line)))
    return one_page(path, zlib.compress(b"BT /F1 0.1 Tf 0.1 TL 10 780 Td " + text + b"ET"))


def truncated(source: Path, path: Path) -> Path:
    """The first half of `source`."""
    data = source.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def bad_xref(source: Path, path: Path) -> Path:
    """`source` with its `startxref` pointing past the end (the cross-reference lost)."""
    data = source.read_bytes()
    at = data.rindex(b"startxref")
    path.write_bytes(data[:at] + b"startxref\n999999999\n%%EOF\n")
    return path


def locked(source: Path, path: Path, password: str = "secret") -> Path:
    """`source` encrypted (AES-128), opening with `password` only."""
    writer = PdfWriter(clone_from=source)
    writer.encrypt(password, algorithm="AES-128")
    with path.open("wb") as out:
        writer.write(out)
    return path


def many_pages(path: Path, count: int = 10_000) -> Path:
    """`count` blank pages."""
    writer = PdfWriter()
    for _ in range(count):
        writer.add_blank_page(612, 792)
    with path.open("wb") as out:
        writer.write(out)
    return path


def annotated(path: Path, annotations: list[dict[str, object]], extra: list[object] = (),
              shared: list[float] = (), pages: int = 1) -> Path:
    """A blank PDF whose first page holds `annotations` (each its dictionary's entries,
    names without the slash; a list of numbers becomes an array, "shared" the one array
    object of the numbers `shared`), then the objects `extra` as they are in /Annots (no
    annotation at all)."""
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        PdfObject,
    )

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(612, 792)
    one = writer._add_object(ArrayObject(FloatObject(v) for v in shared))
    for entries in annotations:
        made = DictionaryObject({NameObject("/Type"): NameObject("/Annot")})
        for name, value in entries.items():
            if value == "shared":
                value = one
            elif isinstance(value, list):
                value = ArrayObject(v if isinstance(v, PdfObject) else FloatObject(v)
                                    for v in value)
            made[NameObject(f"/{name}")] = value  # type: ignore[assignment]
        writer.add_annotation(0, made)
    page = writer.pages[0]
    for thing in extra:
        page[NameObject("/Annots")].append(thing)  # type: ignore[union-attr]
    with path.open("wb") as out:
        writer.write(out)
    return path
