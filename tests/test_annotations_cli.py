"""`papershelf annotations`: a quote highlighted on a page of a paper's PDF, listed,
exported as Markdown with the page's label and as a PDF other readers show; a quote not
on the page is one error line and exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import run_cli, seeded_file
from tests.pdfs import make_paper


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


@pytest.fixture
def library_with_pdf(tmp_path: Path, paper_pdf: Path) -> tuple[str, str]:
    path = str(seeded_file(tmp_path / "lib.sqlite"))
    _status, out, _err = run_cli("list", "--library", path, "--json")
    key = json.loads(out)[0]["key"]
    assert run_cli("attach", "--library", path, key, str(paper_pdf))[0] == 0
    return path, key


def test_a_quote_is_highlighted_listed_and_cited_by_its_pages_label(
        library_with_pdf: tuple[str, str], tmp_path: Path) -> None:
    path, key = library_with_pdf
    status, out, err = run_cli("annotations", "add", "--library", path, key, "--page", "2",
                               "--quote", "Sparse attention matches dense attention",
                               "--comment", "the claim", "--color", "blue")
    assert (status, err) == (0, "")
    assert out.endswith("\tp. 1\tSparse attention matches dense attention\n")
    status, out, _err = run_cli("annotations", "list", "--library", path, key, "--json")
    (mark,) = [json.loads(line) for line in out.splitlines()]
    assert (mark["page"], mark["page_label"], mark["comment"], mark["color"]) == (
        2, "1", "the claim", "#2ea8e5")
    status, out, _err = run_cli("annotations", "export", "--library", path, key,
                                "--cite", "pandoc")
    assert f"> Sparse attention matches dense attention [@{key}, p. 1]" in out
    status, out, _err = run_cli("annotations", "export", "--library", path, key,
                                "--format", "pdf", "-o", str(tmp_path / "marked.pdf"))
    assert status == 0
    annots = [a.get_object() for a in PdfReader(tmp_path / "marked.pdf").pages[1]["/Annots"]]
    assert [(a["/Subtype"], a["/Contents"]) for a in annots
            if a["/Subtype"] != "/Link"] == [("/Highlight", "the claim")]


def test_text_not_on_the_page_is_one_line_and_exit_1(
        library_with_pdf: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    path, key = library_with_pdf
    status, out, err = run_cli("annotations", "add", "--library", path, key, "--page", "1",
                               "--quote", "no such words in this paper")
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "not on page 1" in err
    with pytest.raises(SystemExit):
        run_cli("annotations", "add", "--library", path, key, "--page", "0", "--quote", "x")
    assert "pages are counted from 1" in capsys.readouterr().err
    assert run_cli("annotations", "list", "--library", path, key)[1] == ""
