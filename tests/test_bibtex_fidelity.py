"""Issue 23: what a user's paper cites survives an import and an export, on the real
files of biber, Better BibTeX and JabRef that showed each defect (tests/data/thirdparty,
origins in its README). The generic checks on every third-party file (keys, round trip,
bibtexparser, bibtex and biber) are in tests/test_thirdparty_bibtex.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest

from papershelf.core.library import Library, View
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.errors import UserError
from papershelf.formats import read_file
from papershelf.formats.latex import fix_bare_specials
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


# -- 5. macros defined in another file ---------------------------------------------------


def _entry(bib: str, key: str) -> str:
    """The exported block of one entry."""
    start = bib.index(f"{{{key},\n")
    return bib[start:bib.index("\n}\n", start) + 1]


@pytest.mark.sqlite_only
def test_an_undefined_macro_stays_the_macro_on_export(library: Library) -> None:
    """biber's etc/papers.bib uses journal abbreviations whose @strings are in another
    file (`journal = dam`): exported as written, not as the text `{dam}`."""
    report = library.import_file(THIRDPARTY / "biber-papers.bib")
    bib = bibtex_of(library)
    assert "journal = dam,\n" in _entry(bib, "AignerF84")
    assert "{dam}" not in bib and "@string" not in bib
    assert not [n for n in report.notices if "bare" in n]
    (paper,) = library.records(library.ids_for_keys(["AignerF84"])[0])
    assert paper.venue == "dam"  # shown as its name
    assert any(n.endswith("field 'journal' of entry 'AignerF84': macro 'dam' is not defined "
                          "in this file; shown as its name and exported as the macro it is")
               for n in report.notices)


def test_undefined_macros_and_month_names_keep_their_form(library: Library,
                                                         tmp_path: Path) -> None:
    """As in Better BibTeX's #873 (whose `@string`s are elsewhere): `MCDERMOTT # {…}`,
    `month = September` (not one of bibtex's month macros), `IJCAI-75`."""
    bib = tmp_path / "ai.bib"
    bib.write_text("@techreport(McDermott:72,\n\tauthor =\tMCDERMOTT # { and Gerald J. "
                   "Sussman},\n\tyear =\t\t{1972},\n\tmonth = \tSeptember,\n\tinstitution ="
                   "\t{MIT},\n\ttitle =\t\t{The {\\sc CONNIVER} Reference Manual}\n)\n\n"
                   "@inproceedings{Sacerdoti:75,\n  author = {Earl D. Sacerdoti},\n  title = "
                   "{The Nonlinear Nature of Plans},\n  booktitle = IJCAI-75,\n}\n",
                   encoding="utf-8")
    library.import_file(bib)
    out = bibtex_of(library)
    assert "author = MCDERMOTT # { and Gerald J. Sussman},\n" in _entry(out, "McDermott:72")
    assert "month = September\n" in _entry(out, "McDermott:72")
    assert "booktitle = IJCAI-75\n" in _entry(out, "Sacerdoti:75")


def test_an_undefined_macro_is_not_escaped_as_text(library: Library) -> None:
    """Better BibTeX #472: `Booktitle = IEEE_J_PROC` is a macro, not a bare `_` in text."""
    report = library.import_file(THIRDPARTY / "bbt-math-markup-472.bib")
    assert "  booktitle = IEEE_J_PROC,\n" in _entry(bibtex_of(library), "test_citation1")
    assert not [n for n in report.notices if "bare" in n]


def test_a_macro_one_record_uses_undefined_is_not_defined_by_another(
        library: Library, tmp_path: Path) -> None:
    """Two files, one defining `jx` and one using it undefined: the export cannot give
    the second file's entry the first file's meaning."""
    (tmp_path / "a.bib").write_text("@article{a,\n  title = {A},\n  journal = jx,\n}\n",
                                    encoding="utf-8")
    (tmp_path / "b.bib").write_text("@string{jx = {J. of X}}\n"
                                    "@article{b,\n  title = {B},\n  journal = jx,\n}\n",
                                    encoding="utf-8")
    library.import_file(tmp_path / "a.bib")
    library.import_file(tmp_path / "b.bib")
    bib = bibtex_of(library)
    assert "journal = jx" in _entry(bib, "a")
    assert "journal = {J. of X}" in _entry(bib, "b") and "@string" not in bib


# -- 6. crossref to another file ---------------------------------------------------------


def test_a_crossref_to_another_file_is_exported(library: Library) -> None:
    """Better BibTeX's `Better BibTeX.011.bib`: a DBLP entry whose parent is elsewhere."""
    report = library.import_file(THIRDPARTY / "bbt-crossref-elsewhere-011.bib")
    assert "  crossref = {DBLP:conf/cata/2010},\n" in _entry(bibtex_of(library), "Klassen2010")
    assert any("entry 'Klassen2010': crossref 'DBLP:conf/cata/2010' is not in this file; the "
               "field is kept and exported as it is" in n for n in report.notices)


@pytest.mark.sqlite_only
def test_a_month_inherited_from_the_proceedings_stays_a_macro(library: Library,
                                                             tmp_path: Path) -> None:
    bib = tmp_path / "volume.bib"
    bib.write_text("@inproceedings{child,\n  author = {A. Author},\n  title = {T},\n"
                   "  crossref = {P},\n}\n\n@inproceedings{other,\n  author = {B. Author},\n"
                   "  title = {U},\n}\n\n@proceedings{P,\n  title = {Proc. of Things},\n"
                   "  month = oct,\n  year = 2001,\n}\n", encoding="utf-8")
    library.import_file(bib)
    out = bibtex_of(library)
    assert "month = oct\n" in _entry(out, "child") and "month = oct\n" in _entry(out, "other")


# -- 7. verbatim fields ------------------------------------------------------------------


@pytest.mark.parametrize("ascii_only", [False, True])
def test_file_paths_are_written_byte_for_byte(ascii_only: bool, library: Library) -> None:
    """Better BibTeX #2300: `file` paths with `’`, `;` and spaces stay as they are, even
    in an ASCII export (LaTeX accents would name another file)."""
    path = THIRDPARTY / "bbt-zotfile-paths-2300.bib"
    library.import_file(path)
    out = export_papers(library, library.view_ids(View()),
                        ExportOptions(ascii_only=ascii_only)).text
    # What the file says (the first `file` of an entry counts, as for bibtex), and what
    # bibtexparser reads from the export, unprocessed.
    originals = {r.key: r.raw["file"] for r in read_file(path).records if "file" in r.raw}
    exported = {e.key: str(e.fields_dict["file"].value)[1:-1]
                for e in bibtexparser.parse_string(out, parse_stack=[]).entries
                if "file" in e.fields_dict}
    assert any("Newton’s regulae" in value for value in originals.values())
    assert exported == originals


def test_verbatim_fields_and_url_arguments_are_never_escaped(library: Library,
                                                             tmp_path: Path) -> None:
    fields = {"url": "http://x.org/a%50b_c#d&e~f", "doi": "10.1000/a_b%50",
              "eprint": "math/0101_01", "pdf": "/home/jörg/a%50_b.pdf",
              "verba": "a%b_c#d", "note": r"Online: \url{http://x.org/%50_a#b}"}
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items())
    (tmp_path / "v.bib").write_text(f"@misc{{v,\n  title = {{T}},\n{body}}}\n",
                                    encoding="utf-8")
    report = library.import_file(tmp_path / "v.bib")
    assert not [n for n in report.notices if "bare" in n]
    for ascii_only in (False, True):
        out = export_papers(library, library.view_ids(View()),
                            ExportOptions(ascii_only=ascii_only)).text
        for name, value in fields.items():
            assert f"  {name} = {{{value}}}" in out


# -- 3. math other than $...$ ------------------------------------------------------------


@pytest.mark.sqlite_only
def test_math_in_parentheses_is_math(library: Library) -> None:
    """JabRef's testbib/jabref-authors.bib: `Radix-2\\({}^{\\mbox{k}}\\)` is math; its `^`
    is not escaped (`\\textasciicircum{}` is invalid in math mode)."""
    report = library.import_file(THIRDPARTY / "jabref-authors.bib")
    assert not [n for n in report.notices if "bare ^" in n]
    out = bibtex_of(library)
    assert "textasciicircum" not in out
    assert ("title = {Pipelined Radix-2\\({}^{\\mbox{k}}\\) Feedforward {FFT} Architectures}"
            in _entry(out, "GarridoGrajalMarcosEtAl2013"))


@pytest.mark.parametrize("math", [r"\[x_1^2\]", "$$x_1^2$$", r"\(x_1^2\)",
                                  r"\begin{equation*}x_1^2\end{equation*}",
                                  r"\begin{align}a &= x_1^2\end{align}"])
def test_display_math_and_math_environments_are_math(math: str) -> None:
    assert fix_bare_specials(f"Bounds {math} for a_b")[0] == f"Bounds {math} for a\\_b"


# -- 4. a stray control character ---------------------------------------------------------


@pytest.mark.sqlite_only
def test_a_few_control_bytes_do_not_refuse_a_file(library: Library) -> None:
    """Better BibTeX #97: two `\\x01` in one abstract (`300\\x01C`, for a degree sign)."""
    path = THIRDPARTY / "bbt-jabref-groups-97.bib"
    assert path.read_bytes().count(b"\x01") == 2
    report = library.import_file(path)
    assert report.added == 911 and report.failed == 0
    assert (f"{path}:4798: control characters U+0001 (2 times) dropped (not text; LaTeX "
            "would stop on it)") in report.notices
    assert "\x01" not in bibtex_of(library)


# -- 2. biblatex extended names ----------------------------------------------------------


def test_an_extended_name_list_is_kept_verbatim(library: Library) -> None:
    """biber's t/tdata/labelalpha.bib, LDN3: no stray commas to repair; read by parts."""
    report = library.import_file(THIRDPARTY / "biber-labelalpha.bib")
    assert not [n for n in report.notices if "LDN3" in n]
    assert ("  author = {Vela, Luis and given={Ura Ru}, family={Juan}, suffix={Sr}, "
            "prefix={von}},\n") in _entry(bibtex_of(library), "LDN3")
    (paper,) = library.records(library.ids_for_keys(["LDN3"])[0])
    assert [(a.family, a.given) for a in paper.authors] == [("Vela", "Luis"),
                                                            ("von Juan Sr", "Ura Ru")]


def test_the_comma_repair_still_applies_to_classic_names(library: Library,
                                                         tmp_path: Path) -> None:
    bib = tmp_path / "x.bib"
    bib.write_text("@misc{k,\n  author = {Van Tuan Nguyen, and given=Ada, family=Byron},\n"
                   "  title = {T},\n}\n", encoding="utf-8")
    report = library.import_file(bib)
    assert any("author name 'Van Tuan Nguyen,' has a stray comma" in n for n in report.notices)
    assert "author = {Nguyen, Van Tuan and Byron, Ada}" in bibtex_of(library)


# -- 8. line ends and @string order ----------------------------------------------------


def test_carriage_returns_alone_end_lines(library: Library, tmp_path: Path) -> None:
    """JabRef's encoding-utf-16BE-with-header.bib: UTF-16BE, a `% Encoding:` line and
    old Mac line ends. Its one entry has no key, which is said with its line (it was
    read as part of the `%` comment line)."""
    path = THIRDPARTY / "encodings" / "jabref-utf-16BE-cr-header.bib"
    report = library.import_file(path)
    assert [(p.line, p.message) for p in report.problems] == [
        (3, "@article without a key; skipped")]
    assert not [n for n in report.notices if "commented out" in n]
    cr = tmp_path / "mac.bib"
    cr.write_bytes(b"% Mac\r@article{mac,\r  title = {Old Lines},\r  year = 1999,\r}\r")
    assert library.import_file(cr).added == 1
    assert "@article{mac,\n  title = {Old Lines},\n  year = {1999}\n}\n" in bibtex_of(library)


@pytest.mark.sqlite_only
def test_the_strings_keep_their_order_from_one_export_to_the_next(library: Library,
                                                                  tmp_path: Path) -> None:
    """biber's t/tdata/examples.bib: `anch-ie`, first used by a crossref parent (which is
    written after its children), moved from line 4 to line 8 of the second export; both
    exports wrote the eight @strings in the order of first use, not the file's."""
    path = THIRDPARTY / "biber-examples.bib"
    library.import_file(path)
    first = bibtex_of(library)
    (tmp_path / "first.bib").write_text(first, encoding="utf-8")
    again = Library.open(str(tmp_path / "again.sqlite"))
    try:
        again.import_file(tmp_path / "first.bib")
        second = bibtex_of(again)
    finally:
        again.close()
    strings = [line for line in first.splitlines() if line.startswith("@string")]
    as_written = re.findall(r"^@STRING\{([\w-]+)", path.read_text(encoding="utf-8"), re.M)
    assert [line.split("{")[1].split(" ")[0] for line in strings] == as_written
    assert len(as_written) == 8
    assert [line for line in second.splitlines() if line.startswith("@string")] == strings
    assert second == first


@pytest.mark.parametrize("order", ["BE", "LE"])
def test_utf16_without_a_byte_order_mark_is_read(order: str, library: Library) -> None:
    """JabRef's tiny-BE-noBOM.bib and tiny-LE-noBOM.bib were refused as binary data."""
    path = THIRDPARTY / "encodings" / f"jabref-tiny-{order}-noBOM.bib"
    report = library.import_file(path)
    assert report.added == 1 and report.failed == 0
    assert f"{path}: no byte order mark; read as UTF-16{order}" in report.notices
    assert paper_keys(library) == ["Verwilghen+vanGalen+Wilke2011"]


# -- the peer corpus ---------------------------------------------------------------------


@pytest.mark.sqlite_only
def test_the_corpus_script_counts_a_folder(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m tests.bench.bibtex_corpus` on a folder of real files (the peer
    repositories are given the same way, as already-fetched git directories)."""
    from tests.bench.bibtex_corpus import main
    for name in ("bbt-unknown-command-1733.bib", "jabref-msbib-roundtrip-7.bib",
                 "bbt-math-markup-472.bib"):
        (tmp_path / name).write_bytes((THIRDPARTY / name).read_bytes())
    assert main([str(tmp_path)]) == 0
    table = capsys.readouterr().out
    for row in ("| files | 3 |", "| entries | 4 |", "| keys changed | 0 |",
                "| round trips not identical | 0 |", "| macros written as text | 0 |"):
        assert row in table
