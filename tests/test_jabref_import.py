"""JabRef and Mendeley libraries brought in (issue 28): JabRef's static groups become tags
named by their path in the group tree, its special fields the star, the read state and
`priority/N` tags, Mendeley's tags tags, and the PDFs of `file` fields on this computer
are linked. The real files are JabRef's own test data (tests/data/jabref/README.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from papershelf.__main__ import main
from papershelf.core import ingest
from papershelf.core.library import Library
from papershelf.formats import read_file
from papershelf.formats.bibtex.jabref import parse_group_tree
from tests.conftest import bibtex_of


@pytest.fixture(autouse=True)
def _past_first_start(request: pytest.FixtureRequest) -> None:
    """The library has had its first start (no sample papers come with a CLI import)."""
    if "library" in request.fixturenames:
        request.getfixturevalue("library").ensure_sample(None)

DATA = Path(__file__).parent / "data"
COMPLEX = DATA / "jabref" / "jabref-complex.bib"
CHOCOLATE = DATA / "jabref" / "jabref-chocolate.bib"
LEGACY = DATA / "thirdparty" / "bbt-jabref-groups-97.bib"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def by_key(library: Library) -> dict[str, int]:
    return {d.key: d.id for d in library.details(library.view_ids())}


def entry_of(library: Library, key: str) -> str:
    text = bibtex_of(library, [key])
    start = text.index("@")
    return text[start:text.index("\n}\n", start) + 3]


def test_the_cli_imports_a_jabref_library_with_its_groups_as_tag_paths(
        library_target: str, library: Library, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--library", library_target, "import", str(COMPLEX)]) == 0
    out = capsys.readouterr().out
    assert f"{COMPLEX}: 20 added, 0 already present, 0 failed" in out
    assert ("JabRef's dynamic groups are searches, not tags; not imported: DynamicGroup, "
            "Automatic group (Authors)") in out
    assert "1 file(s) named in `file` fields are not PDFs on this computer" in out
    ids = by_key(library)
    tags = library.tags_of(list(ids.values()))
    # `groups = {StaticGroup, TestOneSubOne, TestOneSubTwo, TestOne, TestTwo}`, the two
    # subgroups under TestOne in the tree.
    assert sorted(tags[ids["1137631"]]) == ["StaticGroup", "TestOne", "TestOne/TestOneSubOne",
                                            "TestOne/TestOneSubTwo", "TestTwo"]
    assert sorted(tags[ids["1132768"]]) == ["TestOne/TestOneSubOne", "TestOne/TestOneSubTwo"]
    assert sorted(tags[ids["1102917"]]) == ["TestOne", "TestTwo", "priority/1"]
    assert tags.get(ids["10250999"]) == ["priority/2"]
    assert not tags.get(ids["deBraga2001"])
    assert "TestOne/TestOneSubOne" in library.tag_names()
    states = {d.key: d.read_state for d in library.details(list(ids.values()))}
    assert states["1137628"] == "read" and states["820136"] == "reading"
    assert states["deBraga2001"] == "unread"
    read = library.paper(ids["1137628"])
    assert read is not None and read.read_at is not None


def test_mapped_fields_are_not_kept_twice_and_the_others_are_kept(library: Library) -> None:
    report = library.import_file(COMPLEX)
    assert report.added == 20 and report.failed == 0
    entry = entry_of(library, "1102917")
    assert "groups =" not in entry and "priority =" not in entry
    assert "keywords = {TestOne, TestTwo, priority/1}" in entry
    assert "bdsk-url-1 = {http://dx.doi.org/10.1007/s00779-005-0347-6}" in entry
    assert "issn = {1617-4909}" in entry
    assert "readstatus =" not in entry_of(library, "1137628")
    # The `file` of a PDF not on this computer stays as it was written.
    assert ("file = {:/Volumes/iDisk/Freie Universität Berlin/Semester 9/Softwareprozesse/"
            "p11-bostrom.pdf:PDF}") in entry_of(library, "1137631")
    (paper,) = library.records([by_key(library)["10250999"]])
    # (in the file's order; the `Jr.` parts go as the BibTeX reader reads them)
    assert [a.family.split()[-2 if a.family.endswith("Jr.") else -1] for a in
            paper.authors][:2] == ["Hippel", "Reagle"]
    assert [a.family.split()[0] for a in paper.authors] == ["von", "Reagle", "Sherry", "van"]


def test_chocolate_read_states_and_static_groups(library: Library) -> None:
    """JabRef's sample library: `readstatus` on most entries, a static group `Used`,
    keyword groups on `readstatus` (dynamic: not tags), biblatex fields kept."""
    report = library.import_file(CHOCOLATE)
    assert report.added == 15 and report.failed == 0
    assert any("not imported: Entries without a group, Entries without a linked file, "
               "To read, Skimmed, Read" in n for n in report.notices)
    ids = by_key(library)
    details = {d.key: d for d in library.details(list(ids.values()))}
    assert details["Parker_2006"].read_state == "read"
    assert details["Katz_2011"].read_state == "reading"
    assert library.tags_of([ids["Parker_2006"]])[ids["Parker_2006"]] == ["Used"]
    assert library.tag_names() == ["Used"]
    parker = details["Parker_2006"].record
    assert parker.title == "Mood state effects of chocolate"
    assert [a.family for a in parker.authors] == ["Parker", "Parker", "Brotchie"]
    assert parker.doi == "10.1016/j.jad.2006.02.007"
    assert "journaltitle = {Journal of Affective Disorders}" in entry_of(library, "Parker_2006")


def test_ranking_and_relevance_star_and_mendeley_tags_and_files(
        library: Library, tmp_path: Path) -> None:
    folder = tmp_path / "export"
    (folder / "papers").mkdir(parents=True)
    (folder / "papers" / "Smith 2020.pdf").write_bytes(PDF)
    (folder / "notes.txt").write_text("not a pdf", encoding="utf-8")
    bib = folder / "library.bib"
    # As Mendeley Desktop exports (`mendeley-tags`, `file = {:path:pdf}`), and JabRef's
    # special fields.
    bib.write_text(
        "@article{Smith2020,\n"
        "author = {Smith, Ann and Jones, Bob},\n"
        "file = {:papers/Smith 2020.pdf:pdf;:notes.txt:txt;"
        ":C$\\backslash$:/Users/x/gone.pdf:pdf},\n"
        "journal = {Nature},\n"
        "keywords = {alpha,beta},\n"
        "mendeley-tags = {to cite, methods},\n"
        "title = {{Ranked paper}},\n"
        "year = {2020}\n}\n"
        "@article{Rel2021,\n  title = {Relevant paper},\n  author = {Roe, Cy},\n"
        "  relevance = {relevant},\n  year = {2021},\n}\n"
        "@article{Rank2022,\n  title = {Ranked two},\n  author = {Poe, Di},\n"
        "  ranking = {rank3},\n  qualityassured = {qualityAssured},\n  year = {2022},\n}\n",
        encoding="utf-8")
    report = library.import_file(bib)
    assert report.added == 3 and report.failed == 0
    assert any("2 file(s) named in `file` fields are not PDFs on this computer" in n
               for n in report.notices)
    ids = by_key(library)
    details = {d.key: d for d in library.details(list(ids.values()))}
    assert details["Rel2021"].starred and details["Rank2022"].starred
    assert not details["Smith2020"].starred
    # (its keywords too: an export writes the tags as keywords, and they are not lost)
    assert sorted(library.tags_of([ids["Smith2020"]])[ids["Smith2020"]]) == [
        "alpha", "beta", "methods", "to cite"]
    assert "keywords = {alpha, beta, methods, to cite}" in entry_of(library, "Smith2020")
    assert any("1 entries with JabRef groups or Mendeley tags also have keywords" in n
               for n in report.notices)
    (attached,) = library.attachments(ids["Smith2020"])
    assert Path(attached.path) == (folder / "papers" / "Smith 2020.pdf").resolve()
    assert library.local_pdf(ids["Smith2020"]) == (folder / "papers" / "Smith 2020.pdf").resolve()
    assert (folder / "papers" / "Smith 2020.pdf").exists()  # linked, not moved
    rank = entry_of(library, "Rank2022")
    assert "ranking" not in rank and "qualityassured = {qualityAssured}" in rank
    assert "mendeley-tags" not in entry_of(library, "Smith2020")


def test_an_import_never_changes_the_state_of_a_paper_it_completes(
        library: Library, tmp_path: Path) -> None:
    plain = tmp_path / "plain.bib"
    plain.write_text("@article{1137628,\n  title = {Introduction to software engineering for "
                     "secure systems: SESS06 -- secure by design},\n  year = {2006},\n}\n",
                     encoding="utf-8")
    library.import_file(plain)
    (pid,) = library.view_ids()
    library.add_tags([pid], ["mine"])
    report = library.import_file(COMPLEX)
    assert report.added == 19 and report.merged == 1
    detail = library.paper(pid)
    assert detail is not None and detail.read_state == "unread"
    assert library.tags_of([pid])[pid] == ["mine"]


def test_undoing_the_import_takes_the_papers_and_their_links(library: Library,
                                                             tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(PDF)
    bib = tmp_path / "x.bib"
    bib.write_text("@misc{k,\n  title = {T},\n  file = {:a.pdf:PDF},\n  readstatus = {read},\n}\n",
                   encoding="utf-8")
    report = library.import_file(bib)
    (pid,) = report.added_ids
    assert len(library.attachments(pid)) == 1
    change = library.import_change(report)
    assert change.undo is not None
    change.undo()
    assert library.view_ids() == []
    assert (tmp_path / "a.pdf").exists()


@pytest.mark.sqlite_only
def test_the_group_tree_is_read_whole_when_the_file_is_read_in_pieces(
        library: Library, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The tree is at the file's end: a file with one is read whole, so the groups of the
    entries before it still get their paths."""
    monkeypatch.setattr(ingest, "PIECE_BYTES", 2048)
    monkeypatch.setattr(ingest, "MIN_PIECES_BYTES", 4096)
    monkeypatch.setattr(ingest, "MAX_WORKERS", 1)
    path = tmp_path / "complex.bib"
    shutil.copy(COMPLEX, path)
    report = library.import_file(path)
    assert report.added == 20
    ids = by_key(library)
    assert sorted(library.tags_of([ids["1132768"]])[ids["1132768"]]) == [
        "TestOne/TestOneSubOne", "TestOne/TestOneSubTwo"]


def test_old_jabref_groups_list_their_entries_keys() -> None:
    """Better BibTeX #97: a JabRef 2.x library (`groupstree`, `ExplicitGroup` with the
    keys in the tree, wrapped at any character)."""
    result = read_file(LEGACY)
    tags = [r.tags for r in result.records]
    assert sum("Cu2O" in t for t in tags) == 879 and sum("CuO" in t for t in tags) >= 32
    # A key cut by the tree's line wrapping (`Ag` / `ekyan_1975_B`) is found whole.
    first = next(r for r in result.records if r.key == "Agekyan_1975_B")
    assert "Cu2O" in first.tags
    # An entry's own keywords stay, as tags first (they are what an export writes).
    review = next(r for r in result.records if r.raw.get("keywords") == "review")
    assert review.tags[0] == "review" and review.tags[1:] in (["Cu2O"], ["CuO"])


def test_group_names_with_escaped_separators() -> None:
    tree = parse_group_tree(
        "@Comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n"
        "1 StaticGroup:Thesis\\;0\\;1\\;\\;\\;\\;;\n2 StaticGroup:Chapter 2\\;0\\;1\\;\\;\\;\\;;\n"
        "2 StaticGroup:a\\\\\\;b\\;0\\;1\\;\\;\\;\\;;\n"
        "1 StaticGroup:Chapter 2\\;0\\;1\\;\\;\\;\\;;\n}")
    assert tree is not None
    assert tree.paths == {"Thesis": ["Thesis"], "Chapter 2": ["Thesis/Chapter 2", "Chapter 2"],
                          "a;b": ["Thesis/a;b"]}
