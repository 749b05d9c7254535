"""NUL and other control characters in RIS and CSL-JSON files are dropped with a notice
naming the file and line, as the BibTeX reader drops them: what the library stores (and
so exports) is text its own import and LaTeX accept, and a record that held nothing but
control characters is reported, not added with an empty title."""

from __future__ import annotations

import json
from pathlib import Path

from papershelf.core.library import Library
from tests.conftest import paper_keys, run_cli

RIS = ("TY  - JOUR\nID  - clean2020\nTI  - Clean \x01title\x00 here\nAU  - Smith, Jane\n"
       "AB  - An abstract\x07 with a bell.\nPY  - 2020\nER  - \n\n"
       "TY  - JOUR\nTI  - " + "\x00" * 100_000 + "\nER  - \n\n"
       "TY  - JOUR\nID  - plain2021\nTI  - Plain title\nPY  - 2021\nER  - \n")


def _titles(library: Library) -> dict[str, str]:
    rows = library.rows(library.ids_for_keys(paper_keys(library))[0]).values()
    return {row.key: row.title for row in rows}


def test_ris_control_characters_dropped_and_named(tmp_path: Path, library: Library) -> None:
    ris = tmp_path / "hostile.ris"
    ris.write_text(RIS, encoding="utf-8")
    status, out, _ = run_cli("--library", library.url, "import", str(ris))
    assert status == 0
    assert f"{ris}: 2 added, 0 already present, 1 failed" in out
    # The record of 100,000 NULs is reported by its line; the others are read without
    # their control characters, each line named.
    assert f"failed: {ris}:9: record has no title, author, DOI or URL" in out
    assert f"note: {ris}:3: control characters U+0001, U+0000 dropped" in out
    assert f"note: {ris}:5: control character U+0007 dropped" in out
    assert f"note: {ris}:10: control characters U+0000 (100000 times) dropped" in out
    titles = _titles(library)
    assert titles["clean2020"] == "Clean title here"
    assert titles["plain2021"] == "Plain title"
    assert "" not in titles.values()


def test_exported_library_imports_again_whole(tmp_path: Path, library: Library) -> None:
    """The export of what a hostile RIS file gave is read back, every paper."""
    ris = tmp_path / "hostile.ris"
    ris.write_text(RIS, encoding="utf-8")
    assert run_cli("--library", library.url, "import", str(ris))[0] == 0
    exported = tmp_path / "out.bib"
    assert run_cli("--library", library.url, "export", "-o", str(exported))[0] == 0
    assert b"\x00" not in exported.read_bytes()
    again = Library.open(str(tmp_path / "again.sqlite"))
    try:
        report = again.import_file(exported)
        assert not report.problems and not report.notices
        assert sorted(_titles(again).values()) == sorted(_titles(library).values())
    finally:
        again.close()


def test_csl_json_control_characters_dropped_and_named(tmp_path: Path,
                                                       library: Library) -> None:
    items = [
        {"id": "clean2020", "type": "article-journal", "title": "Clean\u0000 title\u001b",
         "author": [{"family": "Smi\u0000th", "given": "Jane"}],
         "abstract": "An abstract\u0007."},
        {"id": "nul2021", "type": "article-journal", "title": "\u0000" * 100_000},
        {"id": "plain2022", "type": "article-journal", "title": "Plain title",
         "\u0007weird-key": "x"},
    ]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(items, indent=1), encoding="utf-8")
    status, out, _ = run_cli("--library", library.url, "import", str(path))
    assert status == 0
    assert f"{path}: 2 added, 0 already present, 1 failed" in out
    assert f"failed: {path}:14: item has no title, author, DOI or URL" in out
    assert (f"note: {path}:2: control characters U+0000 (2 times), U+001B, U+0007 "
            "dropped") in out
    assert f"note: {path}:14: control characters U+0000 (100000 times) dropped" in out
    assert f"note: {path}: CSL-JSON keys not kept: weird-key\n" in out
    titles = _titles(library)
    assert titles["clean2020"] == "Clean title" and titles["plain2022"] == "Plain title"
    assert "nul2021" not in titles
    detail = library.paper(library.ids_for_keys(["clean2020"])[0][0])
    assert detail is not None
    assert detail.record.authors[0].family == "Smith"
    assert detail.record.abstract == "An abstract."


def test_pasted_bibtex_control_characters_dropped_and_named(library: Library) -> None:
    """BibTeX that is not a file (a paste, `add --bibtex -`) is read as a file is."""
    report = library.import_bibtex(
        "@misc{pasted1,\n  title = {Pas\x01ted\x00 title},\n  year = {2020}\n}\n", "paste")
    assert report.added == 1
    assert report.notices == ["paste:2: control characters U+0001, U+0000 dropped (not "
                              "text; LaTeX would stop on it)"]
    assert _titles(library)["pasted1"] == "Pasted title"
