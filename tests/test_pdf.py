"""A paper's PDF: downloaded into the library's folder, safely, and read for its text.

The PDFs are made here with pypdf; the server is a local one on 127.0.0.1.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pypdf import PdfWriter
from pypdf.generic import ContentStream, DictionaryObject, NameObject
from pytest_httpserver import HTTPServer
from werkzeug import Response

from papershelf.formats.records import Author, PaperRecord
from papershelf.metadata.http import HttpSettings, Offline, ServiceClient, ServiceError
from papershelf.metadata.pdf import PdfError, download_pdf, pdf_text, safe_file_name
from tests import services_support
from tests.services_support import clients

server = services_support.server
httpserver = services_support.httpserver

FRAMEQUANT = PaperRecord(
    title="FrameQuant: Flexible Low-Bit Quantization for Transformers",
    authors=[Author("Adepu", "Harshavardhan"), Author("Zeng", "Zhanpeng")],
    year=2024,
)


def make_pdf(text: str) -> bytes:
    """A one-page PDF showing `text` in Helvetica."""
    writer = PdfWriter()
    page = writer.add_blank_page(width=612, height=792)
    font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"),
        NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"),
    })  # fmt: skip
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
    )
    contents = ContentStream(None, writer)
    contents.set_data(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1"))
    page.replace_contents(contents)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


PDF = make_pdf("FrameQuant: two-bit quantization of Transformers")


@pytest.fixture
def connect() -> Iterator[Callable[..., ServiceClient]]:
    """`connect(**settings)`: a client with no cache, no spacing and no real waiting."""
    with clients(HttpSettings(
        use_cache=False, offline=False, trust_env=False, spacing={"web": 0.0},
        sleep=lambda seconds: None,
    )) as make:  # fmt: skip
        yield make


def files(folder: Path) -> list[str]:
    """Every file in `folder`, hidden ones too (a leftover temporary file would show)."""
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_pdf_is_saved_under_the_papers_name_and_its_text_read(
    httpserver: HTTPServer, connect: Callable[..., ServiceClient], tmp_path: Path
) -> None:
    httpserver.expect_request("/v235/adepu24a.pdf").respond_with_data(
        PDF, content_type="application/pdf"
    )
    folder = tmp_path / "papers"

    path = download_pdf(
        httpserver.url_for("/v235/adepu24a.pdf"), folder, connect(), paper=FRAMEQUANT
    )
    again = download_pdf(
        httpserver.url_for("/v235/adepu24a.pdf"), folder, connect(), paper=FRAMEQUANT
    )

    assert path.name == "Adepu 2024 - FrameQuant Flexible Low-Bit Quantization for Transformers.pdf"
    assert again.name == path.stem + " (2).pdf"  # nothing is overwritten
    assert path.parent == folder and path.read_bytes() == PDF
    assert files(folder) == sorted([path.name, again.name])
    assert pdf_text(path) == "FrameQuant: two-bit quantization of Transformers"


def test_a_hostile_name_cannot_put_the_file_outside_the_folder(
    httpserver: HTTPServer, connect: Callable[..., ServiceClient], tmp_path: Path
) -> None:
    httpserver.expect_request(re.compile("^/dl/")).respond_with_data(
        PDF,
        content_type="application/pdf",
        headers={"Content-Disposition": 'attachment; filename="../../escape.pdf"'},
    )
    folder = tmp_path / "library" / "papers"

    path = download_pdf(httpserver.url_for("/dl/..%2F..%2Fescape.pdf"), folder, connect())
    hostile_paper = PaperRecord(title="../../../etc/passwd", authors=[Author("..")])
    named = download_pdf(httpserver.url_for("/dl/x.pdf"), folder, connect(), paper=hostile_paper)

    assert path.parent == folder and named.parent == folder
    assert path.name == "escape.pdf"
    assert named.name == "etc passwd.pdf"
    assert not (tmp_path / "escape.pdf").exists()
    assert not (tmp_path / "library" / "escape.pdf").exists()


def test_an_html_page_instead_of_a_pdf_is_refused(
    httpserver: HTTPServer, connect: Callable[..., ServiceClient], tmp_path: Path
) -> None:
    httpserver.expect_request("/pdf/login").respond_with_data(
        "<!DOCTYPE html><html><body>Please sign in</body></html>", content_type="text/html"
    )

    with pytest.raises(ServiceError) as error:
        download_pdf(httpserver.url_for("/pdf/login"), tmp_path / "papers", connect())

    assert str(error.value) == "download: not a PDF (the server sent an HTML page)"
    assert error.value.kind == "not-pdf"
    assert files(tmp_path / "papers") == []


def test_a_pdf_over_the_size_limit_is_refused_and_nothing_kept(
    httpserver: HTTPServer, connect: Callable[..., ServiceClient], tmp_path: Path
) -> None:
    big = PDF + b"%" * 4096
    httpserver.expect_request("/announced.pdf").respond_with_data(big)
    httpserver.expect_request("/streamed.pdf").respond_with_response(
        Response((big[i:i + 512] for i in range(0, len(big), 512)), content_type="application/pdf")
    )  # fmt: skip
    folder = tmp_path / "papers"

    for path in ("/announced.pdf", "/streamed.pdf"):
        with pytest.raises(ServiceError) as error:
            download_pdf(httpserver.url_for(path), folder, connect(), max_bytes=2048)
        assert str(error.value) == "download: answer too big (over 2 KB)"

    assert files(folder) == []


def test_downloading_offline_asks_nothing(
    httpserver: HTTPServer, connect: Callable[..., ServiceClient], tmp_path: Path
) -> None:
    with pytest.raises(Offline):
        download_pdf(httpserver.url_for("/a.pdf"), tmp_path / "papers", connect(offline=True))

    assert httpserver.log == []
    assert files(tmp_path / "papers") == []


def test_a_missing_pdf_is_not_found(
    httpserver: HTTPServer, connect: Callable[..., ServiceClient], tmp_path: Path
) -> None:
    httpserver.expect_request("/gone.pdf").respond_with_data("no", status=404)

    with pytest.raises(ServiceError) as error:
        download_pdf(httpserver.url_for("/gone.pdf"), tmp_path, connect())

    assert str(error.value) == "download: not found"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"%PDF-1.4\nthis is not a PDF body at all", "is damaged"),
        (b"<html>an error page saved as .pdf</html>", "is damaged or not a PDF"),
        (PDF[: len(PDF) // 3], "is damaged"),
    ],
)
def test_a_broken_pdf_is_one_clear_error(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(content)

    with pytest.raises(PdfError) as error:
        pdf_text(path)

    message = str(error.value)
    assert message.startswith(f"PDF: broken.pdf {problem}")
    assert "\n" not in message
    assert isinstance(error.value, ServiceError)


def test_a_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PdfError) as error:
        pdf_text(tmp_path / "nowhere.pdf")

    assert str(error.value) == "PDF: nowhere.pdf does not exist"


@pytest.mark.parametrize(
    ("stem", "name"),
    [
        ("A/B\\C: D?", "A B C D.pdf"),
        ("..", "paper.pdf"),
        (".hidden", "hidden.pdf"),
        ("con", "paper con.pdf"),
        ("x" * 300, "x" * 120 + ".pdf"),
    ],
)
def test_file_names_are_plain_names(stem: str, name: str) -> None:
    assert safe_file_name(stem) == name
