"""The reader's worker process (reading.server) without a window: a document opened in
it survives another file killing it (it opens again in the next worker), the file the
worker died on is one line; the command line says an encrypted PDF is encrypted."""

from __future__ import annotations

import json
import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from papershelf.metadata.pdftext import PdfError
from papershelf.reading.document import Encrypted
from papershelf.reading.server import CHARS_MAX, HITS_MAX, Fit, Lost, Remote, Server
from tests import hostile_pdfs
from tests.conftest import run_cli, seeded_file
from tests.pdfs import make_paper


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


@pytest.fixture
def server() -> Iterator[Server]:
    made = Server()
    yield made
    made.stop()


def test_a_document_opens_again_after_the_worker_died_on_another(
        server: Server, paper_pdf: Path, tmp_path: Path) -> None:
    paper = Remote(server, str(paper_pdf))
    assert paper.open().labels == ["i", "1"]
    killed = Remote(server, str(hostile_pdfs.bad_xref(paper_pdf, tmp_path / "other.pdf")))
    killed.open()
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(Lost) as lost:
        killed.render(0, 1.0)
    assert str(lost.value) == "other.pdf: this PDF could not be read (its reader was killed)"
    with pytest.raises(Lost):  # (given up: not opened again)
        killed.text(0)
    bitmap = paper.render(0, 1.0)  # (opened again in a new worker)
    assert (bitmap.width, bitmap.height) == (612, 792)
    assert bitmap.stride * bitmap.height == len(bitmap.data)
    assert "Sparse Attention" in paper.text(0).text
    assert [hit.page for hit in paper.search("attention", 2, lambda: False)] == [0, 0, 1, 1, 1, 1]
    assert server.pid() not in (None, pid)


def test_the_first_page_rendered_at_a_views_fit_fills_its_width(
        server: Server, paper_pdf: Path) -> None:
    remote = Remote(server, str(paper_pdf))
    layout = remote.open()
    assert layout.labels == ["i", "1"]
    scale = Fit(306.0, ratio=2.0).scale(layout.sizes)
    assert scale == 1.0  # (612 points 306 pixels wide, ×2)
    first = remote.render(0, scale)
    assert (first.width, first.height) == (612, 792)


def test_a_wrong_password_is_encrypted_the_right_one_opens(
        server: Server, paper_pdf: Path, tmp_path: Path) -> None:
    remote = Remote(server, str(hostile_pdfs.locked(paper_pdf, tmp_path / "locked.pdf")))
    for password in (None, "wrong"):
        with pytest.raises(Encrypted) as error:
            remote.open(password)
        assert str(error.value) == "PDF: locked.pdf is encrypted"
    assert len(remote.open("secret").sizes) == 2


def test_a_page_out_of_range_is_one_line(server: Server, paper_pdf: Path) -> None:
    remote = Remote(server, str(paper_pdf))
    remote.open()
    with pytest.raises(PdfError) as error:
        remote.render(7, 1.0)
    assert str(error.value) == "PDF: paper.pdf has no page 8"
    assert remote.text(1).page == 1  # (the worker goes on)


def test_the_command_line_says_an_encrypted_pdf_is_encrypted(
        paper_pdf: Path, tmp_path: Path) -> None:
    path = str(seeded_file(tmp_path / "lib.sqlite"))
    key = json.loads(run_cli("list", "--library", path, "--json")[1])[0]["key"]
    locked = hostile_pdfs.locked(paper_pdf, tmp_path / "locked.pdf")
    assert run_cli("attach", "--library", path, key, str(locked))[0] == 0
    status, _out, err = run_cli("annotations", "add", "--library", path, key, "--page", "1",
                                "--quote", "Sparse")
    assert (status, err) == (1, "papershelf: error: PDF: locked.pdf is encrypted\n")


def test_a_page_crosses_the_pipe_where_no_shared_file_can_be_made(
        paper_pdf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from papershelf.reading import server as module

    shared = Server()
    remote = Remote(shared, str(paper_pdf))
    remote.open()
    through_file = remote.render(0, 1.0)
    shared.stop()
    monkeypatch.setattr(module, "_pixels_file", lambda: ("", None))
    again = remote.render(0, 1.0)  # (a new worker, without the file)
    shared.stop()
    assert again == through_file and len(again.data) == again.stride * again.height
    assert not list(Path(tempfile.gettempdir()).glob("papershelf-pages-*"))
    assert not list(Path("/dev/shm").glob("papershelf-pages-*"))


def test_no_worker_process_is_one_line(paper_pdf: Path, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:
    import multiprocessing.process

    def refused(_process: object) -> None:
        raise PermissionError("no processes in this sandbox")

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refused)
    shared = Server()
    with pytest.raises(Lost) as lost:
        Remote(shared, str(paper_pdf)).open()
    shared.stop()
    assert str(lost.value) == ("paper.pdf: this PDF could not be read (no worker process "
                               "can be started here)")


def test_a_page_of_300_000_letters_is_read_and_searched_within_bounds(
        server: Server, tmp_path: Path) -> None:
    remote = Remote(server, str(hostile_pdfs.wordy(tmp_path / "wordy.pdf")))
    remote.open()
    text = remote.text(0)
    assert len(text.text) == len(text.boxes) == CHARS_MAX
    assert len(remote.search("x", 1, lambda: False)) == HITS_MAX
