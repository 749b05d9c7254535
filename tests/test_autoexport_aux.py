"""Auto-exports that follow a LaTeX document (issue 27): `auto-export add refs.bib --aux
paper.aux` keeps refs.bib holding exactly the papers the document cites, in citing order,
rewritten when the library changes and when LaTeX rewrites the .aux (or a chapter's .aux);
keys the library lacks are named in the state, and a document not compiled yet waits."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from papershelf.core import autoexport
from papershelf.core.library import Library
from papershelf.core.transfer import export_papers
from papershelf.errors import UserError
from tests.conftest import paper_keys, run_cli, seeded_file
from tests.test_autoexport import aged, keys_in
from tests.test_cited import latex


def write_aux(path: Path, *keys: str, extra: str = "") -> None:
    """An .aux as bibtex's LaTeX writes it, citing `keys` one \\citation each."""
    lines = ["\\relax", *(f"\\citation{{{key}}}" for key in keys), extra,
             "\\bibstyle{plain}", "\\bibdata{refs}", "\\gdef \\@abspage@last{1}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def rewrite(path: Path, *keys: str, extra: str = "") -> None:
    """Rewrite the .aux as LaTeX does (a new file renamed over the old one), with a new
    mtime even within the same clock tick."""
    fresh = path.with_suffix(".tmp")
    write_aux(fresh, *keys, extra=extra)
    old = path.stat().st_mtime_ns if path.exists() else 0
    os.utime(fresh, ns=(old + 10**9, old + 10**9))
    fresh.replace(path)


def test_the_file_holds_the_cited_papers_and_follows_the_aux(seeded: Library,
                                                             tmp_path: Path) -> None:
    a, b, c, d = paper_keys(seeded)[:4]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, c, a)
    outcome = autoexport.add(seeded, target, f"aux:{aux}")
    assert (outcome.written, outcome.export.state, outcome.export.message) == (True, "ok", "")
    ids, _missing = seeded.ids_for_keys([c, a])
    assert target.read_text() == export_papers(seeded, ids).text  # (as export --aux)
    assert keys_in(target) == [c, a]

    rewrite(aux, c, a, b)  # (a new \citation)
    [outcome] = autoexport.refresh(seeded)
    assert outcome.written and keys_in(target) == [c, a, b]

    mtime = aged(target)  # an unchanged .aux and a change to an uncited paper: untouched
    [uncited] = seeded.ids_for_keys([d])[0]
    seeded.set_starred([uncited], True)
    before = target.read_bytes()
    [outcome] = autoexport.refresh(seeded)
    assert not outcome.written
    assert (target.read_bytes(), target.stat().st_mtime_ns) == (before, mtime)

    [cited_id] = seeded.ids_for_keys([b])[0]  # a change to a cited paper: rewritten
    seeded.set_fields(cited_id, {"note": "read again"})
    [outcome] = autoexport.refresh(seeded)
    assert outcome.written and "read again" in target.read_text()


def test_a_window_cache_sees_an_aux_rewrite_without_a_library_change(
        seeded: Library, tmp_path: Path) -> None:
    a, b = paper_keys(seeded)[:2]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, a)
    autoexport.add(seeded, target, f"aux:{aux}")
    cache = autoexport.Cache()
    autoexport.refresh(seeded, cache)
    mtime = aged(target)
    [outcome] = autoexport.refresh(seeded, cache)  # (nothing changed)
    assert not outcome.written and target.stat().st_mtime_ns == mtime
    rewrite(aux, a, b)
    [outcome] = autoexport.refresh(seeded, cache)
    assert outcome.written and keys_in(target) == [a, b]


def test_an_input_chapter_aux_counts_too(seeded: Library, tmp_path: Path) -> None:
    a, b = paper_keys(seeded)[:2]
    aux, chapter, target = tmp_path / "paper.aux", tmp_path / "ch1.aux", tmp_path / "r.bib"
    write_aux(aux, a, extra="\\@input{ch1.aux}")  # (ch1.aux not compiled yet)
    autoexport.add(seeded, target, f"aux:{aux}")
    assert keys_in(target) == [a]
    rewrite(chapter, b)
    [outcome] = autoexport.refresh(seeded)
    assert outcome.written and keys_in(target) == [a, b]


def test_keys_the_library_lacks_are_the_state_and_the_others_are_written(
        seeded: Library, tmp_path: Path) -> None:
    a, b = paper_keys(seeded)[:2]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, "ghost1", a, "ghost2", "ghost3")
    with pytest.raises(UserError, match="3 cited keys not in the library: ghost1, ghost2, "
                                        "ghost3; nothing was written"):
        autoexport.add(seeded, target, f"aux:{aux}")
    assert not target.exists() and autoexport.auto_exports(seeded) == []

    outcome = autoexport.add(seeded, target, f"aux:{aux}", allow_missing=True)
    assert outcome.export.state == "ok" and keys_in(target) == [a]
    assert outcome.export.message == "3 cited keys not in the library: ghost1, ghost2, ghost3"
    rewrite(aux, "ghost1", a, b)
    [outcome] = autoexport.refresh(seeded)
    assert keys_in(target) == [a, b]
    assert outcome.export.message == "1 cited key not in the library: ghost1"
    [listed] = autoexport.auto_exports(seeded)
    assert listed.message == "1 cited key not in the library: ghost1"


def test_a_document_not_compiled_yet_waits(seeded: Library, tmp_path: Path) -> None:
    a = paper_keys(seeded)[0]
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    with pytest.raises(UserError, match=r"paper\.aux: not there yet .*--allow-missing"):
        autoexport.add(seeded, target, f"aux:{aux}")
    outcome = autoexport.add(seeded, target, f"aux:{aux}", allow_missing=True)
    assert outcome.export.state == "waiting" and not target.exists()
    assert outcome.export.message == (f"{aux}: not there yet (run LaTeX on the document: "
                                      "it writes the .aux)")
    write_aux(aux, a)
    [outcome] = autoexport.refresh(seeded)
    assert outcome.export.state == "ok" and keys_in(target) == [a]


def test_the_command_line_adds_lists_and_follows_the_aux(tmp_path: Path) -> None:
    lib = ["--library", str(seeded_file(tmp_path / "library.sqlite"))]
    library = Library.open(lib[1])
    try:
        a, b, c = paper_keys(library)[:3]
    finally:
        library.close()
    aux, target = tmp_path / "paper.aux", tmp_path / "refs.bib"
    write_aux(aux, b, "nowhere")
    status, _out, err = run_cli(*lib, "auto-export", "add", str(target), "--aux", str(aux))
    assert (status, err) == (1, f"papershelf: error: {aux}: 1 cited key not in the library: "
                                "nowhere; nothing was written (--allow-missing writes the "
                                "others)\n")
    assert run_cli(*lib, "auto-export", "add", str(target), "--aux", str(aux),
                   "--allow-missing") == (
        0, f"{target}: auto-exported (papers cited in {aux}, bibtex), written; 1 cited key "
           "not in the library: nowhere\n", "")
    assert run_cli(*lib, "auto-export", "list") == (
        0, f"{target}  papers cited in {aux}  bibtex  up to date; 1 cited key not in the "
           "library: nowhere\n1 auto-export\n", "")
    rewrite(aux, b, a)
    assert run_cli(*lib, "auto-export", "run") == (0, f"{target}: written\n", "")
    assert keys_in(target) == [b, a]
    rewrite(aux, b, a, c)  # (any writing command follows the .aux too)
    assert run_cli(*lib, "tag", a, "draft")[0] == 0
    assert keys_in(target) == [b, a, c]
    mtime = aged(target)
    assert run_cli(*lib, "auto-export", "run") == (0, f"{target}: up to date\n", "")
    assert target.stat().st_mtime_ns == mtime
    aux.unlink()  # (latexmk -c): the file stays, the state says why
    assert run_cli(*lib, "auto-export", "run") == (
        0, f"{target}: waiting: {aux}: not there yet (run LaTeX on the document: it "
           "writes the .aux)\n", "")
    assert keys_in(target) == [b, a, c]
    status, _out, err = run_cli(*lib, "auto-export", "add", str(tmp_path / "x.bib"),
                                "--allow-missing")
    assert (status, err) == (1, "papershelf: error: --allow-missing goes with --aux "
                                "FILE.aux\n")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_a_real_compile_is_followed(seeded: Library, tmp_path: Path) -> None:
    a, b, c = paper_keys(seeded)[:3]
    aux = latex(tmp_path, f"\\cite{{{b},{a}}}")
    target = tmp_path / "refs.bib"
    autoexport.add(seeded, target, f"aux:{aux}")
    assert keys_in(target) == [b, a]
    latex(tmp_path, f"\\cite{{{b},{a}}} and \\cite{{{c}}}")
    [outcome] = autoexport.refresh(seeded)
    assert outcome.written and keys_in(target) == [b, a, c]
