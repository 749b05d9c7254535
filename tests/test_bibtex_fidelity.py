"""Issue 23: what a user's paper cites survives an import and an export, on the real
files of biber, Better BibTeX and JabRef that showed each defect (tests/data/thirdparty,
origins in its README). The generic checks on every third-party file (keys, round trip,
bibtexparser, bibtex and biber) are in tests/test_thirdparty_bibtex.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.core.errors import UserError
from papershelf.core.library import Library
from tests.conftest import THIRDPARTY, bibtex_of, paper_keys
from tests.test_cli import Cli

# -- 1. keys as written ----------------------------------------------------------------


@pytest.mark.parametrize(("name", "key"), [
    ("bbt-unknown-command-1733.bib", "2004A&A...424..927C"),  # an ADS bibcode
    ("jabref-msbib-roundtrip-7.bib", "Orlowski;2011"),
])
def test_a_key_bibtex_reads_is_kept_as_written(name: str, key: str, library: Library) -> None:
    report = library.import_file(THIRDPARTY / name)
    assert paper_keys(library) == [key]
    assert not [n for n in report.notices if "key" in n]
    assert f"{{{key},\n" in bibtex_of(library)


def test_a_key_that_cannot_be_one_is_replaced_with_a_notice_and_kept_as_alias(
        library: Library, tmp_path: Path) -> None:
    long_key = "k" * 300  # longer than any key column holds
    bib = tmp_path / "long.bib"
    bib.write_text("@misc{ok,\n  title = {Fine},\n}\n\n"
                   f"@misc{{{long_key},\n  author = {{Ada Lovelace}},\n"
                   "  title = {Notes on the Engine},\n  year = {1843},\n}\n", encoding="utf-8")
    report = library.import_file(bib)
    assert paper_keys(library) == ["lovelace1843notes", "ok"]
    (notice,) = [n for n in report.notices if long_key in n]
    assert notice.startswith(f"{bib}:5: the key '{long_key}' cannot be a citation key (it is "
                             "longer than 255 characters); the paper's key is "
                             "'lovelace1843notes'")
    assert library.ids_for_keys([long_key]) == (library.ids_for_keys(["lovelace1843notes"])[0], [])


@pytest.mark.parametrize("key", ["2004A&A...424..927C", "Orlowski;2011", "kumāra",
                                 "e\u0301tude", "é", "a(b)", "100%"])
def test_set_key_accepts_what_an_import_keeps(key: str, library: Library,
                                              tmp_path: Path) -> None:
    library.import_file(THIRDPARTY / "jabref-msbib-roundtrip-7.bib")
    (pid,) = library.ids_for_keys(["Orlowski;2011"])[0]
    library.set_key(pid, key)
    assert paper_keys(library) == [key]
    # ... and an import of the export keeps it too.
    (tmp_path / "out.bib").write_text(bibtex_of(library), encoding="utf-8")
    again = Library.open(str(tmp_path / "again.sqlite"))
    try:
        again.import_file(tmp_path / "out.bib")
        assert paper_keys(again) == [key]
    finally:
        again.close()


@pytest.mark.parametrize(("key", "why"), [("has space", "white space"), ("a,b", "a comma"),
                                          ("a{b", "a brace"), ("a}", "a brace")])
def test_set_key_refuses_what_bibtex_cannot_read_back(key: str, why: str,
                                                      library: Library) -> None:
    library.import_file(THIRDPARTY / "jabref-msbib-roundtrip-7.bib")
    (pid,) = library.ids_for_keys(["Orlowski;2011"])[0]
    with pytest.raises(UserError, match=f"cannot be a citation key: it holds {why}"):
        library.set_key(pid, key)


def test_cli_set_key_takes_a_non_ascii_key(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    cli = Cli(str(tmp_path / "library.sqlite"), capsys)
    assert cli("import", str(THIRDPARTY / "jabref-msbib-roundtrip-7.bib")) == 0
    assert cli("set-key", "Orlowski;2011", "Orłowski2011é") == 0
    assert cli("export", "--keys", "Orłowski2011é") == 0
    assert "@article{Orłowski2011é,\n" in cli.out
