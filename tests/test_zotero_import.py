"""Zotero's own library, zotero.sqlite, imported (issue 28): `papershelf import
~/Zotero/zotero.sqlite` (and File › Import) brings every regular item with its creators
in order, its collections as tag paths, its tags, its child notes as the paper's notes,
its PDFs linked where Zotero keeps them and its Better BibTeX key; trashed items,
standalone notes and files stay out, each said; Zotero may be running meanwhile."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from papershelf.core.library import Library, View
from papershelf.formats import format_of
from papershelf.formats.zotero import read_zotero
from tests.conftest import bibtex_of, run_cli
from tests.zotero_db import (
    LINKED_FILE,
    LINKED_URL,
    PDF_BYTES,
    STORED_FILE,
    ZoteroWriter,
    new_zotero_db,
)

NOTE_HTML = ('<div data-schema-version="8"><h1>Reading notes</h1>\n'
             '<p>Key <strong>idea</strong>: depth &amp; data, see '
             '<a href="https://www.nature.com/articles/nature14539">the paper</a>.</p>'
             '<ul><li>convnets</li><li>recurrent nets</li></ul></div>')


@pytest.fixture
def zotero(tmp_path: Path) -> Path:
    """A Zotero data folder: zotero.sqlite, storage/ with one stored PDF, and
    better-bibtex.sqlite; returns the database's path."""
    return build_zotero(tmp_path)


def build_zotero(tmp_path: Path) -> Path:
    """The `zotero` fixture's data folder, made under `tmp_path`."""
    folder = tmp_path / "Zotero"
    folder.mkdir()
    path = folder / "zotero.sqlite"
    db = new_zotero_db(path)
    z = ZoteroWriter(db)
    db.execute("BEGIN")
    article = z.item("journalArticle", "LECUN001", title="Deep learning",
                     publicationTitle="Nature", date="2015-05-27 27 May 2015",
                     volume="521", issue="7553", pages="436-444",
                     DOI="10.1038/nature14539", url="https://doi.org/10.1038/nature14539",
                     abstractNote="Deep learning allows computational models...",
                     libraryCatalog="www.nature.com",
                     extra="Citation Key: lecun2015deep\nPMID: 26017442")
    # Creators stored out of order: their orderIndex decides.
    z.creator(article, 2, "Hinton", "Geoffrey")
    z.creator(article, 0, "LeCun", "Yann")
    z.creator(article, 3, "Smith", "Jane", role="editor")
    z.creator(article, 1, "Bengio", "Yoshua")
    paper = z.item("conferencePaper", "GRAVES01",
                   title="Speech Recognition with Deep Recurrent Neural Networks",
                   proceedingsTitle="2013 IEEE International Conference on Acoustics, "
                   "Speech and Signal Processing", conferenceName="ICASSP 2013",
                   date="2013-05-00 May 2013", pages="6645-6649")
    z.creator(paper, 0, "Graves", "Alex")
    book = z.item("book", "WHO00001", title="World health statistics 2020",
                  publisher="WHO Press", place="Geneva", date="2020-00-00 2020",
                  ISBN="978-92-4-000510-5")
    z.creator(book, 0, "World Health Organization", single_field=True)
    trashed = z.item("journalArticle", "TRASH001", title="A paper in the trash")
    z.creator(trashed, 0, "Nobody", "N.")
    z.trash(trashed)
    z.item("journalArticle", "EMPTY001", pages="1-2")  # (nothing to make a paper of)
    # Collections Thesis > Chapter 2, and Reading.
    thesis = z.collection("Thesis", "COLL0001")
    chapter = z.collection("Chapter 2", "COLL0002", parent=thesis)
    reading = z.collection("Reading", "COLL0003")
    z.file_in(chapter, article)
    z.file_in(reading, article)
    z.file_in(thesis, paper)
    z.tag(article, "deep learning")
    z.tag(article, "review")
    z.tag(book, "statistics")
    # A child note, a stored PDF, a web snapshot (no PDF), a link to a web page, a
    # linked PDF that is gone; a standalone note.
    z.note(article, "NOTE0001", NOTE_HTML)
    z.note(None, "NOTE0002", "<p>A note of its own</p>")
    pdf = z.attachment(article, "ATTACH01", STORED_FILE,
                       "storage:LeCun - 2015 - Deep learning.pdf")
    z.annotation(pdf, "ANNOT002", 1, "Representation learning is a set of methods",
                 "the definition", page="437", sort="00001|000100|00050")
    z.annotation(pdf, "ANNOT001", 1, "Deep learning allows computational models",
                 page="436", sort="00000|000010|00020")
    z.annotation(pdf, "ANNOT003", 3, page="438", sort="00002|000000|00000")  # (an image)
    z.attachment(article, "ATTACH02", STORED_FILE, "storage:snapshot.html", "text/html")
    z.attachment(paper, "ATTACH03", LINKED_URL, "", "text/html")
    z.attachment(paper, "ATTACH04", LINKED_FILE, str(tmp_path / "gone.pdf"))
    db.execute("COMMIT")
    db.close()
    stored = folder / "storage" / "ATTACH01"
    stored.mkdir(parents=True)
    (stored / "LeCun - 2015 - Deep learning.pdf").write_bytes(PDF_BYTES)
    snapshot = folder / "storage" / "ATTACH02"
    snapshot.mkdir()
    (snapshot / "snapshot.html").write_text("<html>Nature</html>", encoding="utf-8")
    bbt = sqlite3.connect(folder / "better-bibtex.sqlite")
    bbt.execute("CREATE TABLE citationkey (itemID NOT NULL, itemKey NOT NULL, "
                "libraryID NOT NULL, citationKey NOT NULL, pinned)")
    bbt.execute("INSERT INTO citationkey VALUES (2, 'GRAVES01', 1, 'graves2013speech', 0)")
    bbt.commit()
    bbt.close()
    return path


def _by_title(library: Library) -> dict[str, int]:
    """The papers by title, without the sample a first start imports (provisional
    titles)."""
    return {d.record.title: d.id for d in library.details(library.view_ids(View()))
            if not d.record.title_provisional}


def test_papershelf_import_brings_the_zotero_library(library_path: Path, zotero: Path) -> None:
    assert format_of(zotero) == "zotero"
    status, out, _err = run_cli("--library", str(library_path), "import", str(zotero))
    assert status == 0
    assert f"{zotero}: 3 added, 0 already present, 1 failed" in out
    assert "Zotero item EMPTY001 (untitled) has no title" in out  # (named, not dropped)
    assert "standalone notes (not under any item) are no papers, not imported: 1" in out
    assert "not PDFs, not attached: 1" in out and "snapshot.html" in out
    assert "not on this computer, not attached: 1" in out and "gone.pdf" in out
    assert "annotations without text (images, ink), not imported: 1" in out

    library = Library.open(str(library_path))
    try:
        papers = _by_title(library)
        assert set(papers) == {"Deep learning",
                               "Speech Recognition with Deep Recurrent Neural Networks",
                               "World health statistics 2020"}  # (not the trashed one)
        article = library.paper(papers["Deep learning"])
        assert article is not None
        record = article.record
        assert [a.family for a in record.authors] == ["LeCun", "Bengio", "Hinton"]
        assert record.key == "lecun2015deep"  # Better BibTeX's key, from Extra
        assert (record.entry_type, record.venue, record.year, record.volume,
                record.pages, record.doi) == (
            "article", "Nature", 2015, "521", "436--444", "10.1038/nature14539")
        assert sorted(record.tags) == ["Reading", "Thesis/Chapter 2", "deep learning",
                                       "review"]
        assert record.notes.startswith("# Reading notes\n\nKey **idea**: depth & data, see "
                                       "[the paper](https://www.nature.com/articles/")
        assert "- convnets\n- recurrent nets" in record.notes
        # Then the PDF's highlights, in the file's order, with their comments and pages.
        assert record.notes.endswith(
            "## Annotations\n\n> Deep learning allows computational models (p. 436)\n\n"
            "> Representation learning is a set of methods\nthe definition (p. 437)")
        (attached,) = article.files
        assert attached.kind == "linked"
        assert attached.location == (zotero.parent / "storage" / "ATTACH01"
                                     / "LeCun - 2015 - Deep learning.pdf")
        assert library.local_pdf(article.id) == attached.location

        graves = library.paper(papers["Speech Recognition with Deep Recurrent Neural "
                                      "Networks"])
        assert graves is not None
        assert graves.record.key == "graves2013speech"  # (from better-bibtex.sqlite)
        assert graves.record.entry_type == "inproceedings"
        assert graves.record.venue.startswith("2013 IEEE International Conference")
        assert graves.record.tags == ["Thesis"] and not graves.files

        bib = bibtex_of(library)
        assert "editor = {Smith, Jane}" in bib
        assert "author = {{World Health Organization}}" in bib
        assert "number = {7553}" in bib and "month = {5}" in bib
        assert "note = {PMID: 26017442}" in bib  # (Extra, without the key line)
        assert "address = {Geneva}" in bib and "publisher = {WHO Press}" in bib
        # The search finds the notes' words, as for notes typed in.
        assert library.view_ids(View(search="convnets")) == [article.id]
    finally:
        library.close()


def test_importing_it_again_adds_nothing_and_says_why(library: Library, zotero: Path) -> None:
    first = library.import_file(zotero)
    assert first.added == 3
    paper_id = _by_title(library)["Deep learning"]
    library.set_notes(paper_id, "my own notes")
    again = library.import_file(zotero)
    assert (again.added, again.already_present) == (0, 3)
    assert (f"{zotero}: already in the library, so keeping their own notes and files "
            "(Zotero's were not added): 1 paper") in again.notices
    detail = library.paper(paper_id)
    assert detail is not None
    assert detail.record.notes == "my own notes" and len(detail.files) == 1


def test_undoing_the_import_takes_the_papers_with_their_notes_and_files(
        library: Library, zotero: Path) -> None:
    report = library.import_file(zotero)
    change = library.import_change(report)
    assert change.undo is not None
    redo = change.undo()
    assert library.count() == 0
    assert redo.undo is not None
    redo.undo()
    article = library.paper(_by_title(library)["Deep learning"])
    assert article is not None and article.record.notes.startswith("# Reading notes")
    assert len(article.files) == 1


@pytest.mark.another_program_here  # (Zotero, played here; its files are copied to be read)
def test_a_running_zotero_does_not_stop_the_import(library: Library, tmp_path: Path) -> None:
    """Zotero holds its database open in WAL mode, in the middle of a write: what it
    committed is imported (from the WAL too), what it is writing is not, and Zotero's
    files are left as they were."""
    path = tmp_path / "running" / "zotero.sqlite"
    path.parent.mkdir()
    db = new_zotero_db(path)
    db.execute("PRAGMA wal_autocheckpoint=0")  # (the committed item stays in the WAL)
    z = ZoteroWriter(db)
    committed = z.item("journalArticle", "DONE0001", title="Committed before the import")
    z.creator(committed, 0, "Writer", "Ada")
    db.execute("BEGIN IMMEDIATE")  # Zotero writing meanwhile, holding the write lock
    z.item("journalArticle", "HALF0001", title="Being written by Zotero")
    wal = path.with_name("zotero.sqlite-wal")
    assert wal.stat().st_size > 0
    before = sorted(p.name for p in path.parent.iterdir()), path.read_bytes()
    try:
        report = library.import_file(path)
        after = sorted(p.name for p in path.parent.iterdir()), path.read_bytes()
    finally:
        db.execute("COMMIT")
        db.close()
    assert report.added == 1 and not report.problems
    assert list(_by_title(library)) == ["Committed before the import"]
    assert after == before  # (Zotero's files: read, nothing written beside them)


def test_a_sqlite_file_that_is_not_zotero_is_refused_in_one_line(
        library_path: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    status, _out, err = run_cli("--library", str(library_path), "import", str(other))
    assert status == 1
    assert err.count("\n") == 1 and f"{other}:" in err and "not Zotero's" in err
    assert "Traceback" not in err


def test_theses_programs_and_dates_read_as_a_bibtex_user_expects(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    db = new_zotero_db(path, wal=False)
    z = ZoteroWriter(db)
    thesis = z.item("thesis", "THESIS01", title="On proofs", university="ETH Zürich",
                    thesisType="Master's thesis", date="0000-00-00 Spring 2019",
                    accessDate="2024-03-01 10:11:12", shortTitle="Proofs")
    z.creator(thesis, 0, "Doe", "Jane")
    program = z.item("computerProgram", "PROG0001", title="papershelf",
                     date="2026-12-00 December 2026")
    z.creator(program, 0, "Coder", "Cat", role="programmer")
    z.creator(program, 1, "Helper", "Hal", role="contributor")
    db.close()
    result = read_zotero(path)
    assert not result.problems
    by_key = {r.title: r for r in result.records}
    record = by_key["On proofs"]
    assert (record.entry_type, record.venue, record.year) == ("mastersthesis",
                                                              "ETH Zürich", 2019)
    assert record.raw["urldate"] == "2024-03-01" and record.raw["shorttitle"] == "Proofs"
    program_record = by_key["papershelf"]
    assert [a.family for a in program_record.authors] == ["Coder"]  # (its primary type)
    assert program_record.raw["contributor"] == "Helper, Hal"
    assert (program_record.year, program_record.raw["month"]) == (2026, "12")


def test_a_damaged_zotero_database_is_one_clear_line(library_path: Path,
                                                     tmp_path: Path) -> None:
    broken = tmp_path / "zotero.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    status, _out, err = run_cli("--library", str(library_path), "import", str(broken))
    assert status == 1 and err.count("\n") == 1
    assert f"{broken}:" in err and "Traceback" not in err
