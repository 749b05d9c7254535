"""Reading an attached PDF's text is bounded: by pages, by characters and by time, in a
worker process that is stopped at the deadline. A file that runs out of time gets a
note and never holds up the files after it; pypdf's own complaints never reach the user.

The hostile PDFs are made here with pypdf: pages that share one large content stream
(some 2.5 s of pypdf's work a page), and many tiny pages.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfWriter
from pypdf.generic import DictionaryObject, NameObject, StreamObject

from papershelf.core import files
from papershelf.core.library import Library, View
from papershelf.metadata import attaching, pdftext
from tests.conftest import SEEDS, run_cli, seeded_file
from tests.test_attachments import BODY, PDF, pdf_file

ROOT = Path(__file__).resolve().parents[1]


def shared_stream_pdf(pages: int, stream_bytes: int, word: str = "slow") -> bytes:
    """A PDF of `pages` pages that all show one content stream of some `stream_bytes`
    bytes (the word drawn over and over): small on disk, slow to read."""
    writer = PdfWriter()
    font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"),
        NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"),
    })  # fmt: skip
    op = f"BT /F1 12 Tf 72 720 Td ({word}) Tj ET\n".encode()
    stream = StreamObject()
    stream.set_data(op * max(1, stream_bytes // len(op)))
    shared = writer._add_object(stream.flate_encode())
    for _ in range(pages):
        page = writer.add_blank_page(width=612, height=792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})})
        page[NameObject("/Contents")] = shared
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture
def two_papers(library: Library) -> tuple[int, int]:
    library.ensure_sample(SEEDS)
    first, second = library.view_ids()[:2]
    return first, second


def test_a_pdf_too_slow_to_read_is_cut_off_and_holds_up_no_other_file(
        library: Library, two_papers: tuple[int, int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdftext, "LIMITS", pdftext.Limits(seconds=2))
    slow = tmp_path / "slow.pdf"
    slow.write_bytes(shared_stream_pdf(40, 2_000_000))  # ~100 s unbounded
    assert slow.stat().st_size < 20_000
    library.attach_file(two_papers[0], slow)
    library.attach_file(two_papers[1], pdf_file(tmp_path))  # attached after it

    started = time.monotonic()
    count, problems = attaching.index_texts(library)
    elapsed = time.monotonic() - started

    assert elapsed < 10
    assert count == 2
    (note,) = problems
    assert note.startswith("PDF: slow.pdf: reading its text took over 2 s; ")
    assert "\n" not in note
    assert library.view_ids(View(search="frobnication")) == [two_papers[1]]
    assert all(a.indexed for a in library.attachments(two_papers[0]))
    assert attaching.index_texts(library) == (0, [])  # not tried again


def test_only_the_first_pages_of_a_long_pdf_are_read(
        library: Library, two_papers: tuple[int, int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdftext, "LIMITS", pdftext.Limits(pages=50, chars=1_000))
    long = tmp_path / "long.pdf"
    long.write_bytes(shared_stream_pdf(3_000, 40, word="zanzibar"))
    library.attach_file(two_papers[0], long)

    started = time.monotonic()
    texts, problems = attaching.read_texts(library.pending_texts())
    elapsed = time.monotonic() - started

    assert elapsed < 10
    (text,) = texts.values()
    assert text.count("zanzibar") == 50  # one a page
    (note,) = problems
    assert note == "PDF: long.pdf has 3000 pages; search sees the text of the first 50"

    monkeypatch.setattr(pdftext, "LIMITS", pdftext.Limits(pages=3_000, chars=1_000))
    texts, problems = attaching.read_texts(library.pending_texts())
    (text,) = texts.values()
    assert 1_000 <= len(text) < 1_100 and problems == []
    assert pdftext.Limits().chars == files.TEXT_MAX  # (by default, what search keeps)


def test_cli_attach_after_a_slow_pdf_is_not_held_up(
        library: Library, library_target: str, two_papers: tuple[int, int],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdftext, "LIMITS", pdftext.Limits(seconds=2))
    slow = tmp_path / "slow.pdf"
    slow.write_bytes(shared_stream_pdf(40, 2_000_000))
    first, second = (row.key for row in library.rows(list(two_papers)).values())

    started = time.monotonic()
    status, out, err = run_cli("attach", first, str(slow), "--library", library_target)
    assert (status, err) == (0, "")
    assert "  note: PDF: slow.pdf: reading its text took over 2 s; " in out
    status, out, err = run_cli("attach", second, str(pdf_file(tmp_path / "in")),
                               "--library", library_target)
    assert time.monotonic() - started < 15
    assert (status, err) == (0, "")
    assert out.endswith("  text of 1 file read: search finds it\n")
    status, out, _ = run_cli("search", BODY.split()[1], "--library", library_target)
    assert second in out and out.endswith("1 paper\n")


def test_pypdf_never_writes_to_the_terminal(tmp_path: Path) -> None:
    library = tmp_path / "lib.sqlite"
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(PDF[: len(PDF) // 3])
    seeded_file(library)
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(library))

    run = subprocess.run([sys.executable, "-m", "papershelf", "attach", "icml2024framequant",
                          str(truncated)], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=60)

    assert run.returncode == 0
    assert "  note: PDF: truncated.pdf is damaged" in run.stdout
    assert run.stderr == ""



def test_without_worker_processes_the_text_is_read_all_the_same(
        library: Library, two_papers: tuple[int, int], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object) -> None:
        raise OSError(38, "Function not implemented")  # (a sandbox without processes)

    monkeypatch.setattr(multiprocessing.get_context("spawn").Process, "start", refuse)
    library.attach_file(two_papers[0], pdf_file(tmp_path))

    assert attaching.index_texts(library) == (1, [])
    assert library.view_ids(View(search="frobnication")) == [two_papers[0]]


def test_a_worker_killed_between_two_files_does_not_stop_the_next(tmp_path: Path) -> None:
    first, second = pdf_file(tmp_path / "a"), pdf_file(tmp_path / "b", body="Second file")
    with pdftext.Reader() as reader:
        assert reader.read(first) == pdftext.Read(BODY)
        reader._process.kill()  # (the system's out-of-memory killer, say)
        reader._process.join()
        assert reader.read(second) == pdftext.Read("Second file")
