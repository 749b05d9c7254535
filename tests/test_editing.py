"""Editing a paper's fields by name (issue 25): `Library.set_fields` and `new_paper`, and
the command line's `show`, `set`, `new` and `edit`. Each field set survives an export
and an import into another library; a wrong value is refused whole; an edit is one undo
step; the citation key stays; two people editing one paper keep what each changed."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from papershelf.__main__ import main
from papershelf.core.library import FieldError, Library, View
from papershelf.formats.records import Author
from tests.conftest import SEEDS, bibtex_of, seeded_file

# Every kind of field, as a user sets it (BibTeX values), on an @article.
EVERY_FIELD = {
    "type": "article",
    "title": "Graph Networks for {DNA} Folding",
    "author": "Doe, Jane and van der Berg, Piet and {World Health Organization}",
    "editor": "Roe, Richard and Poe, Edgar",
    "year": "2021",
    "venue": "Journal of Folding",
    "volume": "12",
    "number": "3",
    "pages": "12--19",
    "publisher": "ACM",
    "doi": "10.1145/3292500.3330701",
    "eprint": "2301.01234v2",
    "url": "https://example.org/folding",
    "abstract": "We fold DNA with graphs \\& networks.\n\nA second paragraph.",
    "keywords": "graphs, folding",
    "note": "Extended version",
}


def _first(library: Library) -> int:
    return library.view_ids()[0]


def _fresh_import(tmp_path: Path, bibtex: str) -> Library:
    """A new library file holding what `bibtex` imports."""
    path = tmp_path / "export.bib"
    path.write_text(bibtex, encoding="utf-8")
    other = Library.open(str(tmp_path / "other.sqlite"))
    report = other.import_file(path)
    assert report.added == 1 and not report.problems, report.problems
    return other


def test_every_field_set_survives_an_export_and_an_import(seeded: Library,
                                                          tmp_path: Path) -> None:
    pid = _first(seeded)
    key = seeded.paper(pid).key  # type: ignore[union-attr]
    change = seeded.set_fields(pid, EVERY_FIELD)
    assert change.ids == {pid} and change.undo is not None
    fields = seeded.paper_fields(pid)
    for name, value in EVERY_FIELD.items():
        if name != "venue":
            assert fields[name] == value, name
    assert fields["journal"] == "Journal of Folding"  # where an article keeps its venue
    other = _fresh_import(tmp_path, bibtex_of(seeded, [key]))
    try:
        (copy,) = other.details(other.view_ids())
        assert copy.key == key
        assert other.paper_fields(copy.id) == fields
        mine = seeded.paper(pid)
        assert mine is not None
        for name in ("entry_type", "title", "authors", "venue", "year", "volume", "pages",
                     "publisher", "doi", "url", "abstract"):
            assert getattr(copy.record, name) == getattr(mine.record, name), name
        assert copy.record.title == "Graph Networks for DNA Folding"
        assert copy.record.authors == [Author("Doe", "Jane"), Author("van der Berg", "Piet"),
                                       Author("World Health Organization")]
        assert copy.record.year == 2021 and copy.record.venue == "Journal of Folding"
        assert copy.record.abstract == ("We fold DNA with graphs & networks.\n\n"
                                        "A second paragraph.")
    finally:
        other.close()


def test_a_paper_read_from_no_bib_file_is_exported_as_before_but_for_the_edit(
        seeded: Library) -> None:
    pid = _first(seeded)
    key = seeded.paper(pid).key  # type: ignore[union-attr]
    before = bibtex_of(seeded, [key])
    assert "  key = {Successor features learned by}\n" in before  # (bibtex's sort key)
    seeded.set_fields(pid, {"volume": "235"})
    after = bibtex_of(seeded, [key])
    assert after.replace("  volume = {235},\n", "") == before


@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", list(EVERY_FIELD))
def test_each_field_set_on_an_imported_entry_survives_an_export_and_an_import(
        library: Library, tmp_path: Path, name: str) -> None:
    source = tmp_path / "in.bib"
    source.write_text("@inproceedings{doe2020graphs,\n  author = {Doe, Jane},\n"
                      "  title = {Graphs},\n  booktitle = {Proc. of Graphs},\n"
                      "  year = {2020},\n  series = {LNCS},\n}\n", encoding="utf-8")
    library.import_file(source)
    (pid,) = library.view_ids()
    library.set_fields(pid, {name: EVERY_FIELD[name]})
    fields = library.paper_fields(pid)
    (other_folder := tmp_path / "other").mkdir()
    other = _fresh_import(other_folder, bibtex_of(library))
    try:
        (copy,) = other.details(other.view_ids())
        assert copy.key == "doe2020graphs"
        assert other.paper_fields(copy.id) == fields
        mine = library.paper(pid)
        assert mine is not None
        for attribute in ("entry_type", "title", "authors", "venue", "year", "volume",
                          "pages", "publisher", "doi", "url", "abstract"):
            assert getattr(copy.record, attribute) == getattr(mine.record, attribute)
    finally:
        other.close()
    if name != "venue":
        assert fields[name] == EVERY_FIELD[name]
    else:
        assert fields["booktitle"] == EVERY_FIELD["venue"]  # where it keeps its venue


def test_the_table_search_and_sorting_follow_an_edit(seeded: Library) -> None:
    pid, other = seeded.view_ids()[:2]
    seeded.set_fields(other, {"author": "Zulu, Zed"})
    seeded.set_fields(pid, {"title": "Zebrafish swimming", "year": "1999",
                            "author": "Aardvark, Ann", "venue": "Fish Letters"})
    row = seeded.rows([pid])[pid]
    assert (row.title, row.authors, row.venue, row.year) == (
        "Zebrafish swimming", "Ann Aardvark", "Fish Letters", 1999)
    assert seeded.view_ids(View(search="zebrafish")) == [pid]
    assert seeded.view_ids(View(search="aardvark")) == [pid]
    assert seeded.view_ids(View(sort="year"))[0] == pid
    by_author = seeded.view_ids(View(sort="authors"))
    assert by_author.index(pid) < by_author.index(other)


def test_an_edit_keeps_the_other_fields_of_an_imported_entry_as_written(
        library: Library, tmp_path: Path) -> None:
    source = tmp_path / "in.bib"
    source.write_text('@string{jfold = "Journal of Folding"}\n\n'
                      "@article{doe2020graphs,\n  author = {Doe, Jane},\n"
                      "  title = {Graphs},\n  journal = jfold,\n  year = {2020},\n"
                      "  month = jul,\n}\n", encoding="utf-8")
    library.import_file(source)
    (pid,) = library.view_ids()
    library.set_fields(pid, {"year": "2021", "pages": "1--9"})
    out = bibtex_of(library)
    assert '@string{jfold = {Journal of Folding}}' in out
    assert "journal = jfold," in out and "month = jul\n" in out
    assert "year = {2021}" in out and "pages = {1--9}" in out
    assert library.paper(pid).record.venue == "Journal of Folding"  # type: ignore[union-attr]


def test_changing_the_entry_type_keeps_the_fields(seeded: Library) -> None:
    pid = _first(seeded)
    before = seeded.paper_fields(pid)
    assert before["type"] == "inproceedings"
    seeded.set_fields(pid, {"type": "article"})
    after = seeded.paper_fields(pid)
    assert after.pop("type") == "article"
    before.pop("type")
    assert after == before
    assert seeded.paper(pid).record.venue == "ICML"  # type: ignore[union-attr]


@pytest.mark.parametrize(("values", "message"), [
    ({"doi": "11.1234/x"}, "doi: '11.1234/x' is not a DOI"),
    ({"doi": "10.12/x"}, "is not a DOI"),
    ({"eprint": "2313.01234"}, "eprint: '2313.01234' is not an arXiv id"),
    ({"arxiv": "hep-th/990100"}, "is not an arXiv id"),
    ({"year": "20x"}, "year: '20x' is not a year"),
    ({"year": "3000"}, "is not a year"),
    ({"year": "999"}, "is not a year"),
    ({"pages": "twelve"}, "pages: 'twelve' are not pages"),
    ({"pages": "12-"}, "are not pages"),
    ({"url": "ftp://example.org/x"}, "url: 'ftp://example.org/x' is not a web address"),
    ({"url": "example.org"}, "is not a web address"),
    ({"url": "https://exa mple.org"}, "is not a web address"),
    ({"author": "Doe, Jane, Jr, Extra"}, "author: a name in"),
    ({"title": ""}, "title: a paper needs a title"),
    ({"type": "not a type"}, "type: 'not a type' is not an entry type"),
    ({"type": "proceedings"}, "@proceedings is not a paper's entry type"),
    ({"title": "A {broken title"}, "title: the braces in"),
    ({"9lives": "x"}, "not a BibTeX field name"),
    ({"note": "bell\x07"}, "note: the value holds control characters"),
    ({"year": "2020", "doi": "not a doi"}, "doi:"),  # the good one is not written either
])
def test_a_wrong_value_is_refused_and_nothing_is_written(
        seeded: Library, values: dict[str, str], message: str) -> None:
    pid = _first(seeded)
    before, exported = seeded.paper(pid), bibtex_of(seeded)
    with pytest.raises(FieldError, match="nothing was changed") as refused:
        seeded.set_fields(pid, values)
    assert message in str(refused.value)
    after = seeded.paper(pid)
    assert after is not None and before is not None
    assert (after.version, after.record) == (before.version, before.record)
    assert bibtex_of(seeded) == exported


@pytest.mark.parametrize("pages", ["12", "12-19", "12--19", "12–19", "xi--xv", "e123",
                                   "S12--S19", "1--5, 7--9", "123+"])
def test_pages_as_papers_number_them_are_taken(seeded: Library, pages: str) -> None:
    pid = _first(seeded)
    seeded.set_fields(pid, {"pages": pages})
    assert seeded.paper(pid).record.pages == pages  # type: ignore[union-attr]


@pytest.mark.parametrize(("given", "stored"), [
    ("2301.01234", "2301.01234"), ("2301.01234v2", "2301.01234v2"),
    ("hep-th/9901001", "hep-th/9901001"), ("math.AG/0309136", "math.AG/0309136"),
    ("arXiv:1706.03762", "1706.03762")])
def test_arxiv_ids_new_and_old_are_taken(seeded: Library, given: str, stored: str) -> None:
    pid = _first(seeded)
    seeded.set_fields(pid, {"arxiv": given})
    assert seeded.paper_fields(pid)["eprint"] == stored


def test_an_eprint_of_another_archive_is_not_taken_for_an_arxiv_id(seeded: Library) -> None:
    pid = _first(seeded)
    seeded.set_fields(pid, {"eprint": "PMC1234567", "archiveprefix": "PubMed Central"})
    assert seeded.paper_fields(pid)["eprint"] == "PMC1234567"
    seeded.set_fields(pid, {"eprint": "PMC7654321"})  # (its archive is PubMed Central)
    assert seeded.paper_fields(pid)["eprint"] == "PMC7654321"
    with pytest.raises(FieldError, match="is not an arXiv id"):
        seeded.set_fields(seeded.view_ids()[1], {"eprint": "PMC1234567"})


def test_a_doi_link_is_stored_as_the_doi(seeded: Library) -> None:
    pid = _first(seeded)
    seeded.set_fields(pid, {"doi": "https://doi.org/10.1145/3292500.3330701"})
    assert seeded.paper(pid).record.doi == "10.1145/3292500.3330701"  # type: ignore[union-attr]


def test_a_field_edit_is_one_undo_step_and_its_undo_redoes_it(seeded: Library) -> None:
    pid = _first(seeded)
    fields, exported = seeded.paper_fields(pid), bibtex_of(seeded)
    row = seeded.rows([pid])[pid]
    change = seeded.set_fields(pid, {"title": "A better title", "year": "2020",
                                     "author": "Doe, Jane", "venue": None})
    assert change.description == "Edit title, year, author, booktitle"
    edited = seeded.paper_fields(pid)
    assert edited["title"] == "A better title" and "booktitle" not in edited
    assert change.undo is not None
    redo = change.undo()
    assert seeded.paper_fields(pid) == fields
    assert bibtex_of(seeded) == exported
    assert seeded.rows([pid])[pid] == row  # the title is provisional again, too
    assert redo.undo is not None
    again = redo.undo()
    assert seeded.paper_fields(pid) == edited
    assert seeded.rows([pid])[pid].title == "A better title"
    assert again.undo is not None


def test_removing_a_field_removes_it(seeded: Library) -> None:
    pid = _first(seeded)
    seeded.set_fields(pid, {"note": "x", "volume": "3"})
    seeded.set_fields(pid, {"note": None, "volume": ""})
    fields = seeded.paper_fields(pid)
    assert "note" not in fields and "volume" not in fields
    assert seeded.paper(pid).record.volume == ""  # type: ignore[union-attr]


def test_setting_what_a_paper_has_changes_nothing(seeded: Library) -> None:
    pid = _first(seeded)
    before = seeded.paper(pid)
    change = seeded.set_fields(pid, {"year": "2024"})
    assert not change.ids
    assert seeded.paper(pid) == before


def test_a_title_or_authors_make_a_provisional_title_real(seeded: Library) -> None:
    first, second, third = seeded.view_ids()[:3]
    assert all(seeded.rows([p])[p].title_provisional for p in (first, second, third))
    seeded.set_fields(first, {"title": "Successor Features Form a Temporal Distance"})
    seeded.set_fields(second, {"author": "Adepu, Harshavardhan and Singh, Vikas"})
    seeded.set_fields(third, {"year": "2023"})
    rows = seeded.rows([first, second, third])
    assert not rows[first].title_provisional and not rows[second].title_provisional
    assert rows[third].title_provisional  # (a year says nothing about the title)


def test_a_title_set_by_hand_takes_the_sort_key_made_from_the_old_one_along(
        seeded: Library, tmp_path: Path) -> None:
    """A sample paper's `key` field (bibtex's sort key) comes from its provisional title:
    a title set by hand replaces it in `show` and every export, whether or not another
    edit came first; a `key` given by the user or by an import stays."""
    first, second, third = seeded.view_ids()[:3]
    keys = [seeded.paper(p).key for p in (first, second, third)]  # type: ignore[union-attr]
    assert seeded.paper_fields(first)["key"] == "Successor features learned by"
    seeded.set_fields(first, {"title": "Successor Features Form a Temporal Distance"})
    seeded.set_fields(second, {"volume": "235"})  # (an edit of another field first)
    seeded.set_fields(second, {"title": "FrameQuant: Transformers in Two Bits"})
    seeded.set_fields(third, {"key": "Pruning tests"})
    seeded.set_fields(third, {"title": "Pruning Tests for L0 Problems"})
    assert seeded.paper_fields(first)["key"] == "Successor Features Form a"
    assert seeded.paper_fields(second)["key"] == "FrameQuant: Transformers in Two"
    assert seeded.paper_fields(third)["key"] == "Pruning tests"
    exported = bibtex_of(seeded, keys)
    assert "Successor features learned by" not in exported
    assert "  key = {Successor Features Form a}\n" in exported
    assert "  key = {FrameQuant: Transformers in Two}\n" in exported
    assert "  key = {Pruning tests}\n" in exported
    # The window's title edit (set_title) does the same.
    fourth, fifth = seeded.view_ids()[3:5]
    seeded.set_fields(fourth, {"volume": "235"})
    seeded.set_title(fourth, "Learning to Stitch Temporal Distances")
    seeded.set_title(fifth, "A Title Typed in the Window")
    assert seeded.paper_fields(fourth)["key"] == "Learning to Stitch Temporal"
    assert seeded.paper_fields(fifth)["key"] == "A Title Typed in"
    bib = tmp_path / "given.bib"
    bib.write_text("@misc{given, title = {A B C D E}, key = {Zulu}}\n", encoding="utf-8")
    seeded.import_file(bib)
    (given,) = seeded.ids_for_keys(["given"])[0]
    seeded.set_fields(given, {"title": "F G H I J"})
    seeded.set_title(given, "K L M N O")
    assert seeded.paper_fields(given)["key"] == "Zulu"


def test_the_citation_key_never_changes_with_a_field_edit(seeded: Library) -> None:
    pid = _first(seeded)
    key = seeded.paper(pid).key  # type: ignore[union-attr]
    seeded.set_fields(pid, {"title": "Totally different", "author": "Zed, Zoe",
                            "year": "1990", "type": "article"})
    assert seeded.paper(pid).key == key  # type: ignore[union-attr]
    assert seeded.ids_for_keys([key]) == ([pid], [])


def test_a_paper_typed_in_gets_a_key_from_the_pattern(library: Library) -> None:
    change, pid = library.new_paper({"type": "inproceedings", "title": "Deep Folding",
                                     "author": "Doe, Jane", "year": "2022",
                                     "venue": "NeurIPS"})
    detail = library.paper(pid)
    assert detail is not None
    assert detail.key == "doe2022deep"
    assert library.paper_fields(pid)["booktitle"] == "NeurIPS"
    with pytest.raises(FieldError, match="title: a paper needs a title"):
        library.new_paper({"type": "misc", "year": "2022"})
    with pytest.raises(FieldError, match="is not a DOI"):
        library.new_paper({"title": "Another", "doi": "nope"})
    with pytest.raises(Exception, match="already, as doe2022deep"):
        library.new_paper({"title": "Deep Folding"})
    assert change.undo is not None
    change.undo()
    assert library.paper(pid) is None


def test_two_people_editing_one_paper_keep_what_each_changed(
        library_target: str, seeded: Library) -> None:
    other = Library.open(library_target)
    try:
        pid = _first(seeded)
        seeded.set_fields(pid, {"abstract": "First line.\nMiddle line.\nLast line."})
        base = seeded.paper_fields(pid)  # what both read
        other.set_fields(pid, {"year": "2020", "title": "Theirs",
                               "abstract": "First line, theirs.\nMiddle line.\nLast line."},
                         base)
        mine = seeded.set_fields(pid, {"volume": "7", "title": "Mine",
                                       "abstract": "First line.\nMiddle line.\nLast, mine."},
                                 base)
        assert mine.replaced == {"title": "Theirs"} and not mine.conflict
        fields = seeded.paper_fields(pid)
        assert (fields["year"], fields["volume"], fields["title"]) == ("2020", "7", "Mine")
        assert fields["abstract"] == "First line, theirs.\nMiddle line.\nLast, mine."
    finally:
        other.close()


def test_two_people_rewriting_one_line_of_the_abstract_keep_both_versions(
        seeded: Library) -> None:
    pid = _first(seeded)
    seeded.set_fields(pid, {"abstract": "One line."})
    base = seeded.paper_fields(pid)
    seeded.set_fields(pid, {"abstract": "One line, theirs."}, base)
    mine = seeded.set_fields(pid, {"abstract": "One line, mine."}, base)
    assert mine.conflict and not mine.replaced
    abstract = seeded.paper_fields(pid)["abstract"]
    assert "One line, mine." in abstract and "One line, theirs." in abstract
    assert "<<<<<<<" in abstract and ">>>>>>>" in abstract


def test_two_members_of_a_shared_library_editing_different_fields_keep_both(
        pg_roles: object) -> None:
    alice = Library.open(pg_roles.alice)  # type: ignore[attr-defined]
    bob = Library.open(pg_roles.bob)  # type: ignore[attr-defined]
    try:
        alice.ensure_sample(SEEDS)
        pid = alice.view_ids()[0]
        base = bob.paper_fields(pid)
        alice.set_fields(pid, {"doi": "10.1145/3292500.3330701"}, base)
        change = bob.set_fields(pid, {"pages": "1--10"}, base)
        assert not change.replaced
        for member in (alice, bob):
            fields = member.paper_fields(pid)
            assert (fields["doi"], fields["pages"]) == ("10.1145/3292500.3330701", "1--10")
    finally:
        alice.close()
        bob.close()


# -- the command line ---------------------------------------------------------------------


@pytest.fixture
def lib_file(tmp_path: Path) -> str:
    return str(seeded_file(tmp_path / "library.sqlite"))


def _cli(lib_file: str, *args: str) -> tuple[int, str, str]:
    """`papershelf --library LIB ARGS` as a user runs it: the exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["--library", lib_file, *args])
        except SystemExit as exc:  # (argparse's usage errors)
            status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


def test_show_prints_every_field_readable_bibtex_or_json(lib_file: str) -> None:
    status, out, _err = _cli(lib_file, "set", "icml2024framequant", "note=Two {BITS} \\& more",
                             "author=Adepu, Harshavardhan")
    assert status == 0 and out == "icml2024framequant: Edit note, author\n"
    status, out, _err = _cli(lib_file, "show", "icml2024framequant")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "citation key: icml2024framequant"
    assert lines[1].split() == ["type:", "inproceedings"]
    assert "note:         Two BITS & more" in lines
    assert any(line.split(None, 1) == ["booktitle:", "International Conference on Machine "
                                       "Learning (ICML)"] for line in lines)
    status, out, _err = _cli(lib_file, "show", "icml2024framequant", "--bibtex")
    assert out.startswith("@inproceedings{icml2024framequant,\n")
    assert "  note = {Two {BITS} \\& more}\n" in out
    status, out, _err = _cli(lib_file, "show", "icml2024framequant", "--json")
    shown = json.loads(out)
    assert shown["key"] == "icml2024framequant" and shown["type"] == "inproceedings"
    assert shown["fields"]["note"] == "Two {BITS} \\& more"
    assert shown["readable"]["note"] == "Two BITS & more"
    assert shown["provisional"] is False  # (authors were given)


def test_set_refuses_a_wrong_value_in_one_line_and_changes_nothing(lib_file: str) -> None:
    before = _cli(lib_file, "export")[1]
    for args in (["year=2020", "doi=10.1/x"], ["pages=twelve"], ["no-equals-sign"],
                 ["url=ftp://x.org"], ["year=2020", "YEAR=2021"]):
        status, out, err = _cli(lib_file, "set", "icml2024framequant", *args)
        assert status == 1 and out == "", args
        assert len(err.splitlines()) == 1 and err.startswith("papershelf: error: "), err
    assert _cli(lib_file, "export")[1] == before
    status, out, _err = _cli(lib_file, "set", "icml2024framequant", "year=2024")
    assert (status, out) == (0, "icml2024framequant: no change\n")


def test_set_removes_a_field_given_without_a_value(lib_file: str) -> None:
    assert _cli(lib_file, "set", "icml2024framequant", "volume=3")[0] == 0
    assert "volume = {3}" in _cli(lib_file, "show", "icml2024framequant", "--bibtex")[1]
    assert _cli(lib_file, "set", "icml2024framequant", "volume=")[0] == 0
    assert "volume" not in _cli(lib_file, "show", "icml2024framequant", "--bibtex")[1]


def test_new_adds_a_paper_and_prints_its_key(lib_file: str) -> None:
    status, out, err = _cli(lib_file, "new", "--type", "article", "title=Deep Folding",
                            "author=Doe, Jane", "year=2022", "venue=Folding Letters")
    assert status == 0, err
    assert out == "doe2022deep\n"
    shown = json.loads(_cli(lib_file, "show", "doe2022deep", "--json")[1])
    assert shown["type"] == "article" and shown["fields"]["journal"] == "Folding Letters"
    status, out, err = _cli(lib_file, "new", "title=Another", "year=twenty")
    assert status == 1 and "year: 'twenty' is not a year" in err
    assert "Another" not in _cli(lib_file, "list")[1]


def _editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """$EDITOR: a Python script that rewrites the file it is given (`text` is its text)."""
    script = tmp_path / "editor.py"
    script.write_text("import sys\npath = sys.argv[1]\ntext = open(path).read()\n" + body +
                      "open(path, 'w').write(text)\n", encoding="utf-8")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}")


def test_edit_sets_what_was_changed_in_the_editor(lib_file: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _editor(tmp_path, monkeypatch,
            "text = text.replace('year = {2024}', 'year = {2023},\\n  pages = {7--9}')\n"
            "text = text.replace('@inproceedings', '@article')\n")
    status, out, err = _cli(lib_file, "edit", "icml2024framequant")
    assert status == 0, err
    assert out == "icml2024framequant: Edit type, year, pages\n"
    shown = json.loads(_cli(lib_file, "show", "icml2024framequant", "--json")[1])
    assert shown["type"] == "article"
    assert (shown["fields"]["year"], shown["fields"]["pages"]) == ("2023", "7--9")


def test_edit_without_a_change_says_so(lib_file: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _editor(tmp_path, monkeypatch, "")
    before = _cli(lib_file, "export")[1]
    assert _cli(lib_file, "edit", "icml2024framequant")[:2] == (0, "no change\n")
    assert _cli(lib_file, "export")[1] == before


@pytest.mark.parametrize(("body", "message"), [
    ("text = text.replace('year = {2024}', 'year = {2024')\n", "icml2024framequant.bib:"),
    ("text = text.replace('year = {2024}', 'year = {later}')\n", "year: 'later' is not a year"),
    ("text = text.replace('icml2024framequant', 'other2024')\n",
     "the citation key cannot be changed here"),
    ("text = ''\n", "no entries"),
])
def test_edit_refuses_a_broken_entry_and_changes_nothing(
        lib_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str,
        message: str) -> None:
    _editor(tmp_path, monkeypatch, body)
    before = _cli(lib_file, "export")[1]
    status, out, err = _cli(lib_file, "edit", "icml2024framequant")
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and message in err, err
    assert _cli(lib_file, "export")[1] == before


def test_edit_reports_an_editor_that_fails(lib_file: str, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    monkeypatch.setenv("VISUAL", "false")
    status, _out, err = _cli(lib_file, "edit", "icml2024framequant")
    assert status == 1 and "exited with status 1; nothing was changed" in err


def test_edit_says_which_fields_someone_changed_while_it_was_open(
        lib_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _editor(tmp_path, monkeypatch,  # (meanwhile, another papershelf sets year and volume)
            "from papershelf.__main__ import main\n"
            f"main(['--library', {lib_file!r}, 'set', 'icml2024framequant', 'year=2020', "
            "'volume=9'])\n"
            "text = text.replace('year = {2024}', 'year = {2023},\\n  pages = {7--9}')\n")
    status, out, err = _cli(lib_file, "edit", "icml2024framequant")
    assert status == 0, err
    assert ("note: someone had set year to 2020 while you edited; yours replaced it "
            "(`papershelf set icml2024framequant year=2020` puts theirs back)") in out
    fields = json.loads(_cli(lib_file, "show", "icml2024framequant", "--json")[1])["fields"]
    assert (fields["year"], fields["volume"], fields["pages"]) == ("2023", "9", "7--9")


# -- `add --bibtex`: pasted BibTeX through the importer -------------------------------

PASTED = """% copied from a publisher's page
@inproceedings{doe2024shelves,
  title = {Shelves for Papers},
  author = {Doe, Jane and Roe, Richard},
  booktitle = {Proceedings of Testing},
  year = {2024},
}

@article{broken,
  title = {Never Closed,
  year = 2020
"""


def test_add_bibtex_from_a_file_imports_the_good_entries_and_names_the_bad(
        lib_file: str, tmp_path: Path) -> None:
    bib = tmp_path / "clip.txt"  # (any name: --bibtex says what it is)
    bib.write_text(PASTED, encoding="utf-8")

    status, out, _err = _cli(lib_file, "add", "--bibtex", str(bib))

    assert status == 0
    assert out.splitlines()[0] == f"{bib}: 1 added, 0 already present, 1 failed"
    assert f"failed: {bib}:9: unreadable @article" in out
    library = Library.open(lib_file)
    try:
        (pid,) = library.view_ids(View(search="shelves"))
        assert library.paper_fields(pid)["author"] == "Doe, Jane and Roe, Richard"
    finally:
        library.close()
    # The same again merges onto the paper: nothing added twice.
    status, out, _err = _cli(lib_file, "add", "--bibtex", str(bib))
    assert out.splitlines()[0] == f"{bib}: 0 added, 1 already present, 1 failed"


def test_add_bibtex_reads_standard_input(lib_file: str, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(PASTED.split("@article")[0]))
    status, out, _err = _cli(lib_file, "add", "--bibtex", "-")
    assert status == 0
    assert out.splitlines()[0] == "standard input: 1 added, 0 already present, 0 failed"
    assert _cli(lib_file, "show", "doe2024shelves")[0] == 0


@pytest.mark.parametrize(("args", "stdin", "says"), [
    (["--bibtex", "-"], "just some words\n",
     "standard input: not a BibTeX file (no @entry found); nothing was added"),
    (["--bibtex", "-", "10.1000/xyz"], "", "give identifiers or --bibtex, not both"),
    ([], "", "name a paper to add"),
])
def test_add_bibtex_refuses_what_is_no_bibtex(lib_file: str, monkeypatch: pytest.MonkeyPatch,
                                              args: list[str], stdin: str, says: str) -> None:
    before = _cli(lib_file, "list")[1]
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status, out, err = _cli(lib_file, "add", *args)
    assert status == 1 and out == ""
    assert says in err and len(err.splitlines()) == 1
    assert _cli(lib_file, "list")[1] == before


def test_add_bibtex_names_a_missing_file(lib_file: str, tmp_path: Path) -> None:
    status, _out, err = _cli(lib_file, "add", "--bibtex", str(tmp_path / "nope.bib"))
    assert status == 1
    assert f"{tmp_path / 'nope.bib'}: cannot read file: No such file or directory" in err
