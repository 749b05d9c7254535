"""`-` is standard output for `export -o` and `cite -o`, and standard input for `import`,
as the README says; where neither can be meant (a backup's destination, a library to
copy into, a file to keep exported) it is refused in one line, never taken for a file
named `-`."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

BIB = ("@article{knuth1984literate,\n  author = {Knuth, Donald E.},\n"
       "  title = {Literate Programming},\n  journal = {The Computer Journal},\n"
       "  year = {1984}\n}\n")
RIS = "TY  - JOUR\nID  - lamport1978time\nTI  - Time, Clocks\nAU  - Lamport, Leslie\nER  - \n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder of the command (where a file named `-` would appear)."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_export_to_dash_writes_standard_output(here: Path, library_path: Path) -> None:
    status, out, err = run_cli("--library", str(library_path), "export", "-o", "-")
    assert status == 0, err
    assert out.count("@inproceedings{") == 38
    assert not (here / "-").exists()
    status, out, err = run_cli("--library", str(library_path), "export", "-o", "-",
                               "--format", "ris")
    assert status == 0, err
    assert out.count("TY  - CONF") == 38
    assert not (here / "-").exists()


def test_cite_to_dash_writes_standard_output(here: Path, library_path: Path) -> None:
    status, out, err = run_cli("--library", str(library_path), "cite", "-o", "-")
    assert status == 0, err
    assert "(2024)" in out
    assert not (here / "-").exists()


def test_import_dash_reads_standard_input(here: Path, library_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "-").write_text(RIS, encoding="utf-8")  # a file named `-` is not what is read
    _stdin(monkeypatch, BIB.encode())
    status, out, err = run_cli("--library", str(library_path), "import", "-")
    assert status == 0, err
    assert out.startswith("standard input: 1 added, 0 already present, 0 failed")
    status, out, _ = run_cli("--library", str(library_path), "list")
    assert "knuth1984literate" in out and "lamport1978time" not in out


def test_import_dash_tells_the_format_by_its_contents(here: Path, library_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, RIS.encode())
    status, out, err = run_cli("--library", str(library_path), "import", "-")
    assert status == 0, err
    assert out.startswith("standard input: 1 added")
    _stdin(monkeypatch, b"TY  - JOUR\nER  - \n")
    status, out, err = run_cli("--library", str(library_path), "import", "-")
    assert "failed: standard input:1: record has no title, author, DOI or URL" in out


def test_import_dash_of_nothing_is_one_line(library_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"")
    status, _out, err = run_cli("--library", str(library_path), "import", "-")
    assert status == 1
    assert err.startswith("papershelf: error: standard input: ") and err.count("\n") == 1


def test_a_database_on_standard_input_is_one_line(library_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A Zotero database is read from its file (its attachments are beside it)."""
    _stdin(monkeypatch, b"SQLite format 3\x00" + bytes(4000))
    status, _out, err = run_cli("--library", str(library_path), "import", "-")
    assert status == 1
    assert err == ("papershelf: error: standard input: a Zotero database cannot be read "
                   "from here; name its file (zotero.sqlite)\n")


@pytest.mark.parametrize("argv", [("backup", "-"), ("salvage", "-"),
                                  ("auto-export", "add", "-")])
def test_dash_where_no_stream_can_be_meant_is_refused(here: Path, library_path: Path,
                                                     argv: tuple[str, ...],
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    with pytest.raises(SystemExit) as exit_:
        run_cli("--library", str(library_path), *argv)
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "'-'" in err and "name a file" in err
    assert not (here / "-").exists()
