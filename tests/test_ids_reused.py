"""A deleted paper's id given to a new paper of a library file (issue 43's leftover):
SQLite gives a new row the id after the largest, and an import takes the ids after the
largest paper's, so deleting the newest paper frees its id for the next one. Nothing of
the old paper may come with it: not its star, read state, private notes, reading
progress, tags, attached files or annotations. (A shared library's members: see
tests/test_personal.py.)"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from papershelf.core import backup
from papershelf.core.annotating import New
from papershelf.core.library import Library, View
from tests.conftest import seeded_file

BIB_FRESH = "@article{fresh2026, title = {A fresh paper}, year = {2026}}\n"


def _mark(library: Library, pid: int, folder: Path) -> None:
    """Everything a user keeps on a paper, on paper `pid`."""
    library.set_starred([pid], True)
    library.set_read_state([pid], "reading")
    library.set_private_notes(pid, "zanzibar secret")
    library.add_tags([pid], ["oldtag"])
    library.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)], comment="quokka"))
    pdf = folder / "old.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    library.attach_file(pid, pdf)


def _fresh_has_nothing(library: Library, old: int) -> None:
    """A paper imported now takes the id `old` and has none of what was kept on it."""
    library.import_bibtex(BIB_FRESH, "new.bib")
    (fresh,) = library.view_ids(View(search="title:fresh"))
    assert fresh == old
    detail = library.paper(fresh)
    assert detail is not None
    assert (detail.starred, detail.read_state, detail.private_notes, detail.record.tags) == (
        False, "unread", "", [])
    assert library.annotations_of([fresh]).get(fresh, []) == []
    assert library.attachments(fresh) == []
    counts = library.counts()
    assert (counts.starred, counts.reading, counts.tags) == (0, 0, {})
    for words in ("zanzibar", "ann:quokka", "tag:oldtag", "is:starred"):
        assert library.view_ids(View(search=words)) == [], words


def _delete_with_sqlite3(path: Path, pid: int) -> None:
    """Paper `pid` deleted by another program (the sqlite3 shell: foreign keys off)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("DELETE FROM papers WHERE id = ?", (pid,))
        conn.commit()


@pytest.mark.sqlite_only
def test_a_paper_imported_after_the_newest_is_deleted_has_none_of_its_data(
        seeded: Library, tmp_path: Path) -> None:
    newest = max(seeded.view_ids())
    _mark(seeded, newest, tmp_path)
    deleted = seeded.delete_papers([newest])
    _fresh_has_nothing(seeded, newest)
    assert deleted.undo is not None  # (and the undo puts the old paper back whole)
    deleted.undo()
    detail = seeded.paper(newest)
    assert detail is not None and (detail.starred, detail.private_notes) == (
        True, "zanzibar secret")
    assert [a.comment for a in seeded.annotations_of([newest])[newest]] == ["quokka"]


def test_a_paper_imported_where_another_programs_deletion_left_rows_has_none_of_them(
        tmp_path: Path) -> None:
    """The sqlite3 shell deletes a paper without its rows (its foreign keys are off): the
    next import gave the new paper the old one's star, notes, tags and annotations, or
    failed on its texts (`UNIQUE constraint failed: paper_texts.paper_id`)."""
    path = seeded_file(tmp_path / "lib.sqlite")
    library = Library.open(str(path))
    newest = max(library.view_ids())
    _mark(library, newest, tmp_path)
    library.close()
    _delete_with_sqlite3(path, newest)
    library = Library.open(str(path))
    try:
        _fresh_has_nothing(library, newest)
    finally:
        library.close()


def test_salvage_keeps_nothing_of_a_paper_it_could_not_read(tmp_path: Path) -> None:
    """A damaged library whose newest paper's row cannot be read while the rows about it
    can (here: that row gone, as damage leaves it): the salvaged library holds none of
    them (counted as lost), and a paper added later, given that id, gets none; nor does
    an import given the id of an import it could not read get that import's papers. The
    annotations of the papers it saved are saved too."""
    path = seeded_file(tmp_path / "lib.sqlite")
    library = Library.open(str(path))
    newest, kept = max(library.view_ids()), min(library.view_ids())
    _mark(library, newest, tmp_path)
    library.add_annotation(kept, New("note", 0, "", [(1, 1, 1, 1)], comment="wombat"))
    library.close()
    _delete_with_sqlite3(path, newest)
    with contextlib.closing(sqlite3.connect(path)) as conn:  # (and the imports' rows)
        conn.execute("DELETE FROM imports")
        conn.commit()
    out = tmp_path / "saved.sqlite"
    report = backup.salvage(path, out, lambda new: Library.open(str(new)).close())
    assert report.lost["personal"] == report.lost["paper_tags"] == 1
    library = Library.open(str(out))
    try:
        assert [a.comment for a in library.annotations_of([kept])[kept]] == ["wombat"]
        assert library.view_ids(View(search="ann:wombat")) == [kept]
        _fresh_has_nothing(library, newest)
    finally:
        library.close()
    with contextlib.closing(sqlite3.connect(out)) as conn:  # (the new import is its own)
        assert conn.execute("SELECT id FROM papers WHERE import_id = "
                            "(SELECT max(id) FROM imports)").fetchall() == [(newest,)]
