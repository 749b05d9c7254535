"""Annotations kept in the library (issue 43): a quote highlighted on a page of a real
PDF (made by pdflatex), the annotations other readers wrote into a file imported once,
a copy of the file with the library's annotations, Markdown with page-exact citations,
undo, and on a shared library each member's private ones kept to them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import psycopg
import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject

from papershelf.core.annotating import New
from papershelf.core.library import Library
from papershelf.core.shapes import View
from papershelf.errors import UserError
from papershelf.metadata.pdftext import PdfError
from papershelf.reading import marking
from tests.pdfs import make_paper
from tests.postgres_server import SharedLibrary, plain_sql


@pytest.fixture(scope="module")
def paper_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_paper(tmp_path_factory.mktemp("pdf"))


def _first(library: Library) -> tuple[int, str]:
    pid = library.view_ids(View())[0]
    return pid, library.rows([pid])[pid].key


@pytest.fixture
def with_pdf(seeded: Library, paper_pdf: Path) -> tuple[Library, int, str]:
    pid, key = _first(seeded)
    seeded.attach_file(pid, paper_pdf)
    return seeded, pid, key


def test_a_quote_is_highlighted_on_the_page_the_user_names(
        with_pdf: tuple[Library, int, str]) -> None:
    library, pid, key = with_pdf
    # The quote runs over two lines, and the page breaks "to-kens" at a line's end.
    _change, made = marking.highlight(library, pid, key, 2, "every pair of tokens,  which",
                                      comment="quadratic", color="green")
    assert made.quote == "every pair of tokens, which"
    assert len(made.rects) == 2  # one rectangle per line
    assert made.page_index == 1 and made.page_label == "1"  # (the title page is "i")
    assert made.color == "#5fb236" and made.comment == "quadratic"
    (shown,) = library.annotations_of([pid])[pid]
    assert shown == made


def test_a_quote_not_on_the_page_is_one_error_and_nothing_is_written(
        with_pdf: tuple[Library, int, str]) -> None:
    library, pid, key = with_pdf
    with pytest.raises(UserError, match="not on page 1"):
        marking.highlight(library, pid, key, 1, "every pair of tokens")
    with pytest.raises(UserError, match="has no page 7 \\(it has 2\\)"):
        marking.highlight(library, pid, key, 7, "tokens")
    assert library.annotations_of([pid]) == {}


def test_each_change_is_one_undo_step(seeded: Library) -> None:
    pid, _key = _first(seeded)
    added, aid = seeded.add_annotation(pid, New("note", 0, "i", [(72, 700, 72, 700)],
                                                comment="read this first"))
    edited = seeded.edit_annotation(aid, comment="read this last")
    assert seeded.annotation(aid).comment == "read this last"
    assert edited.undo is not None
    edited.undo()
    assert seeded.annotation(aid).comment == "read this first"
    removed = seeded.remove_annotations([aid])
    assert seeded.annotations_of([pid]) == {}
    assert removed.undo is not None
    removed.undo()
    assert seeded.annotation(aid).comment == "read this first"
    assert added.undo is not None
    added.undo()
    assert seeded.annotation(aid) is None


def test_deleting_or_merging_a_paper_and_undoing_it_keeps_its_annotations(
        seeded: Library) -> None:
    first, second = seeded.view_ids(View())[:2]
    seeded.add_annotation(first, New("note", 0, "", [(1, 2, 1, 2)], comment="on first"))
    seeded.add_annotation(second, New("note", 0, "", [(1, 2, 1, 2)], comment="on second"))
    deleted = seeded.delete_papers([first])
    assert deleted.undo is not None
    deleted.undo()
    assert [a.comment for a in seeded.annotations_of([first])[first]] == ["on first"]
    merged = seeded.merge_papers(first, second)
    assert sorted(a.comment for a in seeded.annotations_of([first])[first]) == [
        "on first", "on second"]
    assert merged.undo is not None
    merged.undo()
    marks = seeded.annotations_of([first, second])
    assert [a.comment for a in marks[first]] == ["on first"]
    assert [a.comment for a in marks[second]] == ["on second"]


def _annotated_elsewhere(source: Path, target: Path) -> Path:
    """`source` with annotations as Acrobat or Okular write them: a highlight with
    QuadPoints and a name, an underline without one, a sticky note, a text box, and a
    link (not an annotation the library keeps)."""
    writer = PdfWriter(clone_from=PdfReader(source))

    def annotation(subtype: str, rect: list[float], **extra: object) -> DictionaryObject:
        made = DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject(subtype),
            NameObject("/Rect"): ArrayObject(FloatObject(v) for v in rect)})
        for name, value in extra.items():
            made[NameObject(f"/{name}")] = value  # type: ignore[assignment]
        return made

    # "Sparse attention matches" on page 2 (its line: 72.48, 428.33 to 181.23, 437.33)
    quad = ArrayObject(FloatObject(v) for v in (72.48, 437.33, 181.23, 437.33, 72.48,
                                                428.33, 181.23, 428.33))
    writer.add_annotation(1, annotation(
        "/Highlight", [72.48, 428.33, 181.23, 437.33], QuadPoints=quad,
        Contents=TextStringObject("the main result"), T=TextStringObject("Okular user"),
        NM=TextStringObject("okular-1"),
        C=ArrayObject([FloatObject(1), FloatObject(0.4), FloatObject(0.4)])))
    writer.add_annotation(1, annotation("/Underline", [72.48, 428.33, 181.23, 437.33],
                                        QuadPoints=quad))
    writer.add_annotation(0, annotation("/Text", [100, 600, 120, 620],
                                        Contents=TextStringObject("sticky")))
    writer.add_annotation(1, annotation("/FreeText", [300, 100, 400, 130],
                                        Contents=TextStringObject("a text box")))
    writer.add_annotation(1, annotation("/Link", [10, 10, 20, 20]))
    with target.open("wb") as out:
        writer.write(out)
    return target


def test_annotations_in_the_file_are_imported_once(
        seeded: Library, paper_pdf: Path, tmp_path: Path) -> None:
    pid, key = _first(seeded)
    seeded.attach_file(pid, _annotated_elsewhere(paper_pdf, tmp_path / "okular.pdf"))
    _change, added, there = marking.import_from_file(seeded, pid, key)
    assert (added, there) == (4, 4)
    marks = seeded.annotations_of([pid])[pid]
    assert [(a.kind, a.page_label) for a in marks] == [
        ("note", "i"), ("highlight", "1"), ("underline", "1"), ("text", "1")]
    highlight = marks[1]
    assert highlight.quote == "Sparse attention matches"
    assert highlight.comment == "the main result" and highlight.color == "#ff6666"
    assert highlight.origin == "file"
    assert marking.import_from_file(seeded, pid, key)[1:] == (0, 4)  # again: none twice
    assert len(seeded.annotations_of([pid])[pid]) == 4


def test_export_writes_a_copy_other_readers_show_and_leaves_the_file(
        with_pdf: tuple[Library, int, str], tmp_path: Path) -> None:
    library, pid, key = with_pdf
    (attachment,) = library.attachments(pid)
    assert attachment.location is not None
    before = hashlib.sha256(attachment.location.read_bytes()).hexdigest()
    marking.highlight(library, pid, key, 2, "a fixed stride", comment="why fixed?")
    library.add_annotation(pid, New("note", 0, "i", [(90, 650, 90, 650)], comment="title"))
    assert marking.export_pdf(library, pid, key, tmp_path / "out.pdf") == 2
    assert hashlib.sha256(attachment.location.read_bytes()).hexdigest() == before
    pages = PdfReader(tmp_path / "out.pdf").pages
    (written,) = [a.get_object() for a in pages[1]["/Annots"]
                  if a.get_object()["/Subtype"] == "/Highlight"]
    assert written["/Contents"] == "why fixed?"
    assert len(written["/QuadPoints"]) == 8
    assert [a.get_object()["/Subtype"] for a in pages[0]["/Annots"]] == ["/Text"]
    # Importing the copy into another paper gives the same marks back.
    other = library.view_ids(View())[1]
    library.attach_file(other, tmp_path / "out.pdf")
    other_key = library.rows([other])[other].key
    marking.import_from_file(library, other, other_key)
    assert [a.quote for a in library.annotations_of([other])[other]] == ["", "a fixed stride"]


def test_notes_and_rectangles_go_out_as_text_and_square_and_come_back_once(
        with_pdf: tuple[Library, int, str], tmp_path: Path) -> None:
    """A sticky note is a /Text annotation, a rectangle a /Square (as Okular and Acrobat
    write them); read back, a rectangle has the image of what it frames again."""
    library, pid, key = with_pdf
    library.add_annotation(pid, New("note", 0, "i", [(90, 650, 90, 650)], comment="see"))
    library.add_annotation(pid, New("rectangle", 0, "i", [(72, 600, 372, 720)],
                                    comment="the title", color="red", image=b"\x89PNG..."))
    assert marking.export_pdf(library, pid, key, tmp_path / "out.pdf") == 2
    written = {a.get_object()["/Subtype"]: a.get_object()
               for a in PdfReader(tmp_path / "out.pdf").pages[0]["/Annots"]}
    assert set(written) == {"/Text", "/Square"}
    assert [float(v) for v in written["/Square"]["/Rect"]] == [72, 600, 372, 720]
    assert written["/Square"]["/Contents"] == "the title"
    assert [float(v) for v in written["/Text"]["/Rect"]][::3] == [90, 650]  # (its corner)
    other = library.view_ids(View())[1]
    library.attach_file(other, tmp_path / "out.pdf")
    other_key = library.rows([other])[other].key
    assert marking.import_from_file(library, other, other_key)[1:] == (2, 2)
    assert marking.import_from_file(library, other, other_key)[1:] == (0, 2)  # (once)
    note, framed = sorted(library.annotations_of([other])[other], key=lambda a: a.kind)
    assert (note.kind, note.comment, note.left, note.top) == ("note", "see", 90, 650)
    assert (framed.kind, framed.comment, framed.rects, framed.color) == (
        "rectangle", "the title", ((72, 600, 372, 720),), "#ff6666")
    image = library.annotation_image(framed.id)
    assert image is not None and image.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(image[16:20], "big"), int.from_bytes(image[20:24], "big")
    assert (width, height) == (600, 240)  # (2 pixels a point)


def test_annotations_become_notes_and_a_document_with_page_exact_citations(
        with_pdf: tuple[Library, int, str]) -> None:
    library, pid, key = with_pdf
    marking.highlight(library, pid, key, 2, "Sparse attention matches dense attention",
                      comment="main claim")
    library.add_annotation(pid, New("note", 0, "i", [(90, 650, 90, 650)], comment="see"))
    _change, added = marking.add_to_notes(library, pid, key, "latex")
    assert added == 2
    notes = library.paper(pid).record.notes
    assert f"> Sparse attention matches dense attention \\cite[p.~1]{{{key}}}" in notes
    assert f"- see \\cite[p.~i]{{{key}}}" in notes
    assert marking.add_to_notes(library, pid, key)[1] == 0  # not twice
    document = marking.markdown(library, [pid], "pandoc")
    assert f"> Sparse attention matches dense attention [@{key}, p. 1]" in document
    assert document.startswith("## ")


def test_a_damaged_or_missing_pdf_is_one_line(seeded: Library, tmp_path: Path) -> None:
    pid, key = _first(seeded)
    with pytest.raises(UserError, match="has no PDF on this computer"):
        marking.highlight(seeded, pid, key, 1, "anything")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 100)
    seeded.attach_file(pid, broken)
    with pytest.raises(PdfError, match=r"broken\.pdf is damaged"):
        marking.highlight(seeded, pid, key, 1, "anything")


@pytest.mark.sqlite_only
def test_annotations_survive_a_kill_right_after_they_are_made(
        library_path: Path, paper_pdf: Path) -> None:
    """Saved at once: a second program sees it, with no window closed in between."""
    library = Library.open(str(library_path))
    library.ensure_sample(Path("seeds"))
    pid, _key = _first(library)
    library.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)], comment="kept"))
    other = Library.open(str(library_path))  # (as a process killed after the write)
    assert [a.comment for a in other.annotations_of([pid])[pid]] == ["kept"]
    other.close()
    library.close()


def test_a_members_private_annotations_stay_theirs(pg_lab: SharedLibrary) -> None:
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(Path("seeds"))
        pid = alice.view_ids(View())[0]
        _c, private = alice.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)],
                                                    comment="alice only"))
        _c, shared = alice.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)],
                                                   comment="for the lab", shared=True))
        assert [a.comment for a in bob.annotations_of([pid])[pid]] == ["for the lab"]
        with pytest.raises(UserError):
            bob.edit_annotation(shared, comment="bob was here")
        with pytest.raises(UserError):
            bob.remove_annotations([private])
        # Plain SQL as bob: neither read nor changed.
        with plain_sql(pg_lab.bob) as conn:
            assert conn.execute("SELECT comment FROM annotations").fetchall() == [
                ("for the lab",)]
            conn.execute("UPDATE annotations SET comment = 'x'")
            conn.execute("DELETE FROM annotations")
            assert conn.execute("SELECT count(*) FROM annotations_kept").fetchone() == (0,)
        assert sorted(a.comment for a in alice.annotations_of([pid])[pid]) == [
            "alice only", "for the lab"]
        # Bob deletes the paper: alice's annotations come back with its undo.
        deleted = bob.delete_papers([pid])
        with plain_sql(pg_lab.bob) as conn:
            assert conn.execute("SELECT comment FROM annotations_kept").fetchall() == [
                ("for the lab",)]
        assert deleted.undo is not None
        deleted.undo()
        assert sorted(a.comment for a in alice.annotations_of([pid])[pid]) == [
            "alice only", "for the lab"]
        # Bob merges it into another paper: alice's move with it.
        other = alice.view_ids(View())[1]
        bob.merge_papers(other, pid)
        assert sorted(a.comment for a in alice.annotations_of([other])[other]) == [
            "alice only", "for the lab"]
    finally:
        alice.close()
        bob.close()


def test_ann_finds_the_words_of_annotations_and_has_annotations_the_papers_with_any(
        seeded: Library) -> None:
    first, second, third = seeded.view_ids(View())[:3]
    seeded.add_annotation(first, New("highlight", 0, "", [(1, 1, 2, 2)],
                                     quote="Sparse attention matches dense attention",
                                     comment="the main claim"))
    seeded.add_annotation(second, New("note", 0, "", [(1, 1, 1, 1)], comment="Kögler's "
                                      "counterexample"))

    def found(query: str) -> list[int]:
        return sorted(seeded.view_ids(View(search=query)))

    assert found("ann:dense") == [first]
    assert found('ann:"matches dense"') == [first]
    assert found('ann:"dense matches"') == []  # (a phrase, in its order)
    assert found('ann:"attention the"') == []  # (never from the quote into the comment)
    assert found("ann:kogler") == [second]  # (accents as search folds them)
    assert found("ann:counter*") == [second]
    assert found("ann:counter") == []  # (a word, not part of one)
    assert found("has:annotations") == sorted([first, second])
    assert third in found("-has:annotations")
    # An edited comment is searched as it is now.
    (mark,) = seeded.annotations_of([first])[first]
    seeded.edit_annotation(mark.id, comment="a weaker claim")
    assert found("ann:weaker") == [first] and found("ann:main") == []


def test_ann_never_finds_another_members_private_annotation(pg_lab: SharedLibrary) -> None:
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(Path("seeds"))
        pid = alice.view_ids(View())[0]
        alice.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)], comment="zanzibar"))
        alice.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)], comment="quokka",
                                      shared=True))
        assert alice.view_ids(View(search="ann:zanzibar")) == [pid]
        assert bob.view_ids(View(search="ann:zanzibar")) == []
        assert bob.view_ids(View(search="ann:quokka")) == [pid]
        assert bob.count(View(search="has:annotations")) == 1
    finally:
        alice.close()
        bob.close()


def test_a_members_plain_words_find_only_the_annotations_they_see(
        pg_lab: SharedLibrary) -> None:
    from sqlalchemy import select, text

    from papershelf.core import search
    from papershelf.core.models import Paper
    from papershelf.core.store.postgres import PostgresStore

    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(Path("seeds"))
        pid = alice.view_ids(View())[0]
        alice.add_annotation(pid, New("note", 0, "", [(1, 1, 1, 1)],
                                      comment="zanzibar quokkas"))
        # Plain words and phrases find papers through the annotations a member sees...
        assert alice.view_ids(View(search="zanzibar")) == [pid]
        assert alice.view_ids(View(search='"zanzibar quok*"')) == [pid]
        assert alice.view_ids(View(search='ann:"quokkas zanzibar"')) == []
        # ...and never through another member's private one, index or not.
        assert bob.view_ids(View(search="zanzibar")) == []
        assert bob.view_ids(View(search="zanz*")) == []
        assert bob.count(View(search="ann:zanzibar")) == 0
        # A member's search reads the annotations' index, not every annotation (row-level
        # security would have it read them all: `PG_ANNOTATED_PAPERS`, which gives the
        # papers, whose annotations are then not read again).
        for query in (PostgresStore.search.matches("zanzibar"),
                      PostgresStore.search.field_matches(None, ("quokkas",), True)):
            with bob.engine.connect() as conn:
                conn.execute(text("SET enable_seqscan = off"))
                compiled = select(Paper.id).where(query).compile(conn)
                plan = "\n".join(row[0] for row in conn.exec_driver_sql(
                    "EXPLAIN (VERBOSE) " + compiled.string, compiled.params))
            assert search.PG_ANNOTATED_PAPERS in plan and "Seq Scan" not in plan, plan
            assert "annotations" not in plan.replace(search.PG_ANNOTATED_PAPERS, ""), plan
        # That search runs as the library's owner, yet gives a member only what they
        # see, and no member can say they are another.
        holding = (f"SELECT {search.PG_ANNOTATED_PAPERS}"
                   "(to_tsquery('papershelf_search', 'zanzibar'))")
        with plain_sql(pg_lab.alice) as conn:
            assert conn.execute(holding).fetchall() == [(pid,)]  # (the paper's id)
        with plain_sql(pg_lab.bob) as conn:
            assert conn.execute(holding).fetchall() == []
            for sql in ("SET ROLE alice", "SELECT set_config('role', 'alice', false)",
                        "SET SESSION AUTHORIZATION alice"):
                with pytest.raises(psycopg.Error):
                    conn.execute(sql)
            assert conn.execute(holding).fetchall() == []
    finally:
        alice.close()
        bob.close()


BIB_NEW = "@article{fresh2026, title = {A fresh paper}, year = {2026}}\n"


def test_a_new_paper_given_a_deleted_papers_id_has_none_of_its_annotations(
        seeded: Library) -> None:
    newest = max(seeded.view_ids(View()))
    seeded.add_annotation(newest, New("note", 0, "", [(1, 1, 1, 1)], comment="mine"))
    deleted = seeded.delete_papers([newest])
    seeded.import_bibtex(BIB_NEW, "new.bib")
    (fresh,) = seeded.view_ids(View(search="title:fresh"))
    assert seeded.annotations_of([fresh]).get(fresh, []) == []
    assert seeded.view_ids(View(search="ann:mine")) == []
    assert deleted.undo is not None  # (undo puts the deleted paper back whole)
    deleted.undo()
    assert [a.comment for a in seeded.annotations_of([newest])[newest]] == ["mine"]


def test_another_members_kept_annotations_go_to_no_new_paper(pg_lab: SharedLibrary) -> None:
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(Path("seeds"))
        newest = max(alice.view_ids(View()))
        alice.add_annotation(newest, New("note", 0, "", [(1, 1, 1, 1)], comment="alice's"))
        deleted = bob.delete_papers([newest])  # (alice's annotation kept for its undo)
        bob.import_bibtex(BIB_NEW, "new.bib")  # (a new paper, given the same id)
        (fresh,) = alice.view_ids(View(search="title:fresh"))
        assert fresh == newest
        assert alice.annotations_of([fresh]).get(fresh, []) == []
        assert alice.view_ids(View(search="ann:alice")) == []
        # An undo of a deletion still brings back what it kept.
        other = min(alice.view_ids(View()))
        alice.add_annotation(other, New("note", 0, "", [(1, 1, 1, 1)], comment="again"))
        again = bob.delete_papers([other])
        assert again.undo is not None
        again.undo()
        assert [a.comment for a in alice.annotations_of([other])[other]] == ["again"]
        # And the first deletion's undo, the new paper in its place, brings back hers.
        assert deleted.undo is not None
        deleted.undo()
        assert [a.comment for a in alice.annotations_of([newest])[newest]] == ["alice's"]
    finally:
        alice.close()
        bob.close()
