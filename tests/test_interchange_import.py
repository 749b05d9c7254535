"""RIS and CSL-JSON files in the library (issue 28): imported by the window's Import, the
command line and drag-and-drop like a .bib file (one undoable import, merging what the
library has, each bad record named by its line), whatever their name says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papershelf.core.library import Library, View
from papershelf.formats import format_of
from tests.conftest import run_cli

RIS = """TY  - CONF
TI  - Attention Is All You Need
AU  - Vaswani, Ashish
AU  - Shazeer, Noam
T2  - Advances in Neural Information Processing Systems
PY  - 2017
DO  - 10.48550/arXiv.1706.03762
ER  -

TY  - JOUR
ER  -

TY  - JOUR
TI  - Deep learning
AU  - LeCun, Yann
T2  - Nature
PY  - 2015
VL  - 521
SP  - 436
EP  - 444
DO  - 10.1038/nature14539
ER  -
"""

CSL = [
    {"id": "lecun2015", "type": "article-journal", "title": "Deep learning",
     "author": [{"family": "LeCun", "given": "Yann"}], "container-title": "Nature",
     "issued": {"date-parts": [[2015, 5]]}, "DOI": "10.1038/nature14539"},
    {"id": "broken", "type": "article-journal"},
    {"id": "graves2013", "type": "paper-conference", "title": "Speech Recognition with "
     "Deep Recurrent Neural Networks", "author": [{"family": "Graves", "given": "Alex"}],
     "container-title": "ICASSP", "issued": {"date-parts": [[2013]]}},
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    ris = tmp_path / "zotero.ris"
    ris.write_text(RIS, encoding="utf-8")
    csl = tmp_path / "export.json"
    csl.write_text(json.dumps(CSL, indent=2), encoding="utf-8")
    unnamed = tmp_path / "export.txt"  # (a RIS file whose name does not say so)
    unnamed.write_text(RIS, encoding="utf-8")
    return {"ris": ris, "csl": csl, "unnamed": unnamed}


def test_formats_are_told_by_name_or_contents(files: dict[str, Path], tmp_path: Path) -> None:
    assert format_of(files["ris"]) == format_of(files["unnamed"]) == "ris"
    assert format_of(files["csl"]) == "csljson"
    heading = tmp_path / "list.txt"
    heading.write_text("[ICML 2024] papers\n\nAn abstract.\n", encoding="utf-8")
    assert format_of(heading) == "abstracts"  # (a bracket is no JSON by itself)


def test_ris_then_csl_json_import_and_merge(library: Library, files: dict[str, Path]) -> None:
    report = library.import_file(files["ris"])
    assert report.added == 2 and report.failed == 1
    (problem,) = report.problems
    assert problem.path == str(files["ris"]) and problem.line == 10
    (pid,) = library.view_ids(View(search="deep learning"))
    record = library.paper(pid).record  # type: ignore[union-attr]
    assert (record.venue, record.year, record.pages) == ("Nature", 2015, "436--444")

    # The same paper from CSL-JSON (same DOI) is merged onto it; the other one is new.
    again = library.import_file(files["csl"])
    assert again.added == 1 and again.merged == 1 and again.failed == 1
    assert again.problems[0].line is not None
    assert library.count() == 3
    assert library.view_ids(View(search="speech recognition"))


def test_the_command_line_imports_a_ris_file_named_txt(
        library_path: Path, files: dict[str, Path]) -> None:
    status, out, _err = run_cli("--library", str(library_path), "import",
                                str(files["unnamed"]))
    assert status == 0
    assert "2 added" in out and "1 failed" in out
    assert f"failed: {files['unnamed']}:10:" in out


@pytest.mark.parametrize(("args", "starts"), [
    (["--format", "ris"], "TY  - "), (["--format", "csljson"], "["),
])
def test_the_command_line_exports_ris_and_csl_json(library_path: Path, files: dict[str, Path],
                                                   args: list[str], starts: str) -> None:
    run_cli("--library", str(library_path), "import", str(files["ris"]))
    status, out, _err = run_cli("--library", str(library_path), "export", *args)
    assert status == 0 and out.startswith(starts)
    assert "Deep learning" in out and "LeCun" in out


def test_an_export_file_named_ris_is_ris_and_reads_back(library_path: Path,
                                                        files: dict[str, Path],
                                                        tmp_path: Path) -> None:
    run_cli("--library", str(library_path), "import", str(files["csl"]))
    target = tmp_path / "out.ris"
    status, _out, err = run_cli("--library", str(library_path), "export", "-o", str(target),
                                "--search", "lecun OR graves")  # (the search language)
    assert status == 0 and "exported 2 papers" in err
    assert target.read_text(encoding="utf-8").startswith("TY  - ")
    other = Library.open(str(tmp_path / "other.sqlite"))
    try:
        report = other.import_file(target)
        assert report.added == 2 and not report.problems
        titles = {d.record.title for d in other.details(other.view_ids())}
        assert "Deep learning" in titles
    finally:
        other.close()
