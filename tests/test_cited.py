"""The papers a LaTeX document cites (issue 27): `papershelf export --aux` reads what real
pdflatex (bibtex) and biblatex write, \\include'd chapters and \\nocite{*} too, and writes
exactly those papers; a cited key the library lacks is named."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import bibtexparser
import pytest

from papershelf.core.cited import cited
from papershelf.core.library import Library, View
from tests.conftest import paper_keys, run_cli, seeded_file


@pytest.fixture
def lib_file(tmp_path: Path) -> str:
    return str(seeded_file(tmp_path / "library.sqlite"))


def latex(folder: Path, body: str, *, biblatex: bool = False) -> Path:
    """Run real pdflatex on a document citing as `body` does; its .aux (or .bcf)."""
    tool = shutil.which("pdflatex")
    assert tool is not None, "pdflatex is not installed: apt-get install texlive-latex-base"
    preamble = ("\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}"
                if biblatex else "")
    (folder / "doc.tex").write_text(
        f"\\documentclass{{article}}{preamble}\\begin{{document}}{body}"
        + ("\\printbibliography" if biblatex else "\\bibliographystyle{plain}"
           "\\bibliography{refs}") + "\\end{document}\n", encoding="utf-8")
    subprocess.run([tool, "-interaction=nonstopmode", "doc.tex"], cwd=folder,
                   capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    return folder / ("doc.bcf" if biblatex else "doc.aux")


def sample_keys(lib_file: str) -> list[str]:
    library = Library.open(lib_file)
    try:
        return paper_keys(library)
    finally:
        library.close()


def test_a_bibtex_document_with_a_chapter(tmp_path: Path, lib_file: str) -> None:
    a, b, c = sample_keys(lib_file)[:3]
    (tmp_path / "chapter.tex").write_text(f"See \\cite{{{c}}}.\n", encoding="utf-8")
    aux = latex(tmp_path, f"\\cite{{{b},{a}}} and \\cite{{{b}}}\\include{{chapter}}")
    assert cited(aux).keys == [b, a, c]  # (in citing order, each once)

    out_file = tmp_path / "refs.bib"
    status, _out, err = run_cli("--library", lib_file, "export", "--aux", str(aux),
                                "-o", str(out_file), "--tag-cited", "thesis")
    assert status == 0, err
    assert [e.key for e in bibtexparser.parse_file(str(out_file)).entries] == [b, a, c]
    library = Library.open(lib_file)
    try:
        assert library.count(View(tag="thesis")) == 3
    finally:
        library.close()


def test_biblatex_and_nocite_everything(tmp_path: Path, lib_file: str) -> None:
    keys = sample_keys(lib_file)
    bcf = latex(tmp_path, f"\\cite{{{keys[4]}}}\\nocite{{*}}", biblatex=True)
    found = cited(bcf)
    assert found.keys == [keys[4]] and found.everything
    assert cited(tmp_path / "doc.aux").keys[:1] == [keys[4]]  # (biblatex's .aux too)
    status, out, _err = run_cli("--library", lib_file, "export", "--aux", str(bcf))
    assert status == 0
    written = [e.key for e in bibtexparser.parse_string(out).entries]
    assert written[0] == keys[4] and sorted(written) == sorted(keys)


def test_keys_the_library_lacks_are_named(tmp_path: Path, lib_file: str) -> None:
    first = sample_keys(lib_file)[0]
    aux = tmp_path / "doc.aux"
    aux.write_text(f"\\relax\n\\citation{{{first},nosuch2020,other2021}}\n"
                   "\\bibdata{refs}\n\\@input{missing-chapter.aux}\n", encoding="utf-8")
    status, out, err = run_cli("--library", lib_file, "export", "--aux", str(aux))
    assert status == 1 and out == ""
    assert "no paper with the keys nosuch2020, other2021; nothing was written" in err
    status, out, err = run_cli("--library", lib_file, "export", "--aux", str(aux),
                               "--allow-missing")
    assert status == 0
    assert [e.key for e in bibtexparser.parse_string(out).entries] == [first]
    assert "not in the library: nosuch2020, other2021" in err


def test_an_aux_that_cites_nothing_is_said_so(tmp_path: Path, lib_file: str) -> None:
    aux = tmp_path / "doc.aux"
    aux.write_text("\\relax\n\\bibdata{refs}\n", encoding="utf-8")
    status, out, err = run_cli("--library", lib_file, "export", "--aux", str(aux))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "cites no paper" in err


@pytest.mark.parametrize("command", [("export", "--aux", "{file}"),
                                     ("auto-export", "add", "{out}", "--aux", "{file}"),
                                     ("auto-export", "add", "{out}", "--aux", "{file}",
                                      "--allow-missing")])
def test_a_file_that_is_no_aux_is_refused(tmp_path: Path, lib_file: str,
                                          command: tuple[str, ...]) -> None:
    """The PDF (or any binary file) chosen instead of the .aux: one line saying so,
    no auto-export kept, nothing written."""
    wrong, out = tmp_path / "paper.pdf", tmp_path / "refs.bib"
    wrong.write_bytes(b"%PDF-1.7\n\x00\x01\x02binary")
    argv = [part.format(file=wrong, out=out) for part in command]
    status, printed, err = run_cli("--library", lib_file, *argv)
    assert (status, printed) == (1, "")
    assert err == (f"papershelf: error: {wrong}: not a LaTeX .aux or biblatex .bcf file "
                   "(it holds binary data)\n")
    assert not out.exists()
    assert run_cli("--library", lib_file, "auto-export", "list")[1] == "0 auto-exports\n"


def test_a_missing_aux_says_what_to_do(tmp_path: Path, lib_file: str) -> None:
    status, _out, err = run_cli("--library", lib_file, "export", "--aux",
                                str(tmp_path / "doc.aux"))
    assert status == 1 and "no such file (run LaTeX first" in err
