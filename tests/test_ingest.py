"""A big file is imported in pieces, read by worker processes: the library ends up
exactly as if the file had been read whole, problems and all, and a cancel or a bad
piece leaves it untouched.

Pieces are made tiny here (a few KB) so that small files take the piecewise path.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from papershelf.core import ingest
from papershelf.core.library import ImportCancelled, ImportReport, Library, View
from papershelf.core.search import fts5
from papershelf.formats import format_of, read_file
from papershelf.formats.records import FormatError

PIECE = 4096


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "PIECE_BYTES", PIECE)
    monkeypatch.setattr(ingest, "MIN_PIECES_BYTES", 2 * PIECE)


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, small_pieces: None) -> None:
    """Pieces read in this process (the worker processes have their own test)."""
    monkeypatch.setattr(ingest, "MAX_WORKERS", 1)


def bib_entry(n: int) -> str:
    authors = " and ".join(f"Müller{n % 7}, Ana{k}" for k in range(1 + n % 4))
    return (f"@inproceedings{{paper{n},\n  author = {{{authors}}},\n"
            f"  title = {{On {{M}}odel {n} with $x^{n % 3}$ and caf\\'e}},\n"
            f"  booktitle = {{ICML}},\n  year = {{{2000 + n % 25}}},\n"
            f"  abstract = {{We study problem {n} " + "in depth " * (n % 20 + 20) + ".}\n}\n\n")


def bib_file(tmp_path: Path, count: int = 300) -> Path:
    """Entries with problems scattered over the pieces: an unreadable entry, a key
    repeated far from its first use, an entry without a key's comma, a repeated title."""
    parts = [bib_entry(n) for n in range(count)]
    parts[40] = "@article{broken,\n  title = {Unclosed\n\n"
    parts[150] = bib_entry(3).replace("paper3,", "paper3,", 1)  # the same key again
    # The same title under another key: another paper (Find Duplicates lists the pair).
    parts[200] = bib_entry(5).replace("paper5,", "paper5copy,", 1)
    parts[250] = "@misc{nocomma\n  title = {X}\n}\n\n"
    path = tmp_path / "big.bib"
    path.write_text("% a comment line\n" + "".join(parts), encoding="utf-8")
    return path


def abstract_file(tmp_path: Path, count: int = 200, heading: str = "ICML 2024 论文列表") -> Path:
    paragraphs = [f"Paragraph {n} describes a method that " + "learns quickly and well " * 8
                  + f"on benchmark {n}." for n in range(count)]
    paragraphs[17] = "too short"
    paragraphs[120] = "a\tb\tc\nd\te\tf\ng\th\ti"
    path = tmp_path / "list.txt"
    path.write_text(heading + "\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    return path


def whole(library: Library, path: Path) -> ImportReport:
    """The import as it goes for a small file: read whole, then imported."""
    return library.import_result(read_file(path), str(path), format_of(path))


def contents(library: Library) -> list[tuple[object, ...]]:
    ids = library.view_ids(View())
    details = library.details(ids)
    return [(d.id, d.record.key, dataclasses.astuple(d.record), d.starred, d.read_state)
            for d in details]


def problems(report: ImportReport) -> list[tuple[object, ...]]:
    return sorted((p.line or 0, p.message) for p in report.problems)


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Library, Library]]:
    first = Library.open(str(tmp_path / "a.sqlite"))
    second = Library.open(str(tmp_path / "b.sqlite"))
    yield first, second
    first.close()
    second.close()


def same_as_whole(two: tuple[Library, Library], path: Path,
                  progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Import `path` into the first library (in pieces, as import_file does for a big
    file) and read whole into the second; the two must agree. The first report."""
    pieces, reference = two
    report = pieces.import_file(path, progress)
    expected = whole(reference, path)
    assert (report.added, report.already_present) == (expected.added, expected.already_present)
    assert problems(report) == problems(expected)
    assert sorted(report.notices) == sorted(expected.notices)
    assert contents(pieces) == contents(reference)
    return report


def test_bibtex_in_pieces_gives_the_same_library_and_problems(
        tmp_path: Path, in_process: None, two: tuple[Library, Library]) -> None:
    path = bib_file(tmp_path)
    assert len(list(ingest.pieces(str(path), "bibtex") or [])) > 10
    progress: list[tuple[int, int]] = []
    report = same_as_whole(two, path, lambda done, total: progress.append((done, total)))
    assert report.added == 297
    assert any("duplicate entry key 'paper3'" in p.message for p in report.problems)
    pieces = two[0]
    # Progress went up to the whole file, in bytes.
    assert progress[-1] == (path.stat().st_size, path.stat().st_size)
    assert len(progress) > 10
    # Searchable when the import ends: it indexed each piece as it went.
    assert pieces.pending_index() == 0
    assert len(pieces.view_ids(View(search="Müller3"))) > 0


def ris_file(tmp_path: Path, count: int = 300) -> Path:
    """RIS records with problems over the pieces: a record with no ER line before the
    next TY, one with neither title nor author, tags no field keeps (one in a record
    far from the first), CRLF line ends and a TY with one space."""
    records = []
    for n in range(count):
        authors = "".join(f"AU  - Müller{n % 7}, Ana{k}\r\n" for k in range(1 + n % 4))
        records.append(f"TY  - CONF\r\n{authors}TI  - On Model {n} and café\r\n"
                       f"T2  - ICML\r\nPY  - {2000 + n % 25}\r\n"
                       f"AB  - We study problem {n} " + "in depth " * (n % 20 + 20)
                       + "\r\nER  - \r\n\r\n")
    records[40] = "TY  - JOUR\r\nTI  - Never ended\r\n\r\n"
    records[150] = "TY  - JOUR\r\nPY  - 2020\r\nER  - \r\n\r\n"
    records[7] = records[7].replace("PY  -", "ZZ  - a tag of no one\r\nPY  -")
    records[260] = records[260].replace("TY  - CONF", "TY - CONF").replace(
        "PY  -", "Q9  - another\r\nPY  -")
    path = tmp_path / "big.ris"
    path.write_bytes("".join(records).encode("utf-8"))
    return path


def test_ris_in_pieces_gives_the_same_library_problems_and_notice(
        tmp_path: Path, in_process: None, two: tuple[Library, Library]) -> None:
    """A big RIS file (a database's export) is read in pieces like a .bib: the same
    papers, each problem on its line, and the tags not kept named once for the file."""
    path = ris_file(tmp_path)
    assert len(list(ingest.pieces(str(path), "ris") or [])) > 10
    report = same_as_whole(two, path)
    assert report.added == 299  # (the record without ER too: it ends at the next TY)
    data = path.read_bytes()

    def line_of(text: bytes) -> int:
        return data[:data.index(text)].count(b"\n") + 1

    assert [(p.line, p.message) for p in report.problems] == [
        (line_of(b"TY  - JOUR\r\nPY"), "record has no title, author, DOI or URL")]
    assert report.notices == [f"{path}: RIS tags not kept: Q9, ZZ"]


def test_abstract_list_in_pieces_gives_the_same_library(
        tmp_path: Path, in_process: None, two: tuple[Library, Library]) -> None:
    path = abstract_file(tmp_path)
    report = same_as_whole(two, path)
    assert report.added == 198
    assert [p.line for p in report.problems] == [37, 243]
    pieces = two[0]
    first = pieces.details(pieces.view_ids(View(), 1))[0].record
    assert (first.venue, first.year, first.title_provisional) == ("ICML", 2024, True)


def test_abstract_list_without_heading_in_pieces(
        tmp_path: Path, in_process: None, two: tuple[Library, Library]) -> None:
    path = abstract_file(tmp_path, heading="This first paragraph is an abstract too, "
                         "long enough to be one: " + "words that read like prose " * 8 + ".")
    report = same_as_whole(two, path)
    assert any("no heading line" in n for n in report.notices)


def test_reimporting_in_pieces_adds_nothing(tmp_path: Path, in_process: None,
                                            library: Library) -> None:
    path = bib_file(tmp_path)
    library.import_file(path)
    before = contents(library)
    again = library.import_file(path)
    assert again.added == 0
    assert again.already_present == 297
    assert contents(library) == before


def test_worker_processes_read_the_pieces(tmp_path: Path, small_pieces: None,
                                          two: tuple[Library, Library]) -> None:
    """The real thing: two worker processes; the same library as reading whole."""
    assert same_as_whole(two, bib_file(tmp_path, 400)).added == 397


def test_a_bad_abstract_list_fails_whole_in_a_worker(tmp_path: Path, small_pieces: None,
                                                     library: Library) -> None:
    """A file that is mostly not abstracts: the error of the whole-file reader, and
    nothing written (the papers of the good pieces are rolled back)."""
    good = [f"Paragraph {n} describes a method that " + "learns quickly " * 12
            for n in range(40)]
    bad = [f"row {n}, {n + 1}, {n + 2}\nrow {n}, {n}, {n}\nrow 1, 2, 3" for n in range(60)]
    path = tmp_path / "table.txt"
    path.write_text("Results 2024\n\n" + "\n\n".join(good + bad) + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as raised:
        library.import_file(path)
    with pytest.raises(FormatError) as expected:
        read_file(path)
    assert raised.value.message == expected.value.message
    assert "60 of 100 paragraphs" in raised.value.message
    assert library.count() == 0


def checksum(path: Path) -> str:
    """Every table's rows, and the schema (an import sets indexes aside for a while)."""
    conn = sqlite3.connect(path)
    digest = hashlib.sha256()
    for row in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                            "ORDER BY name"):
        digest.update(repr(row).encode())
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"):
        for row in sorted(map(repr, conn.execute(f'SELECT * FROM "{name}"'))):
            digest.update(row.encode())
    conn.close()
    return digest.hexdigest()


@pytest.mark.sqlite_only  # (the file's bytes)
def test_cancel_in_pieces_leaves_the_library_exactly_as_it_was(
        tmp_path: Path, in_process: None, seeded: Library, library_path: Path) -> None:
    path = bib_file(tmp_path)
    before = checksum(library_path)
    seen: list[int] = []

    def cancelled() -> bool:
        return len(seen) >= 5  # five pieces in

    with pytest.raises(ImportCancelled):
        seeded.import_file(path, lambda done, total: seen.append(done), cancelled)
    assert checksum(library_path) == before
    assert seeded.count() == 38
    assert seeded.pending_index() == 0


def schema_and_words(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The library's schema, and every word of its search index where it is."""
    conn = sqlite3.connect(path)
    schema = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                          "WHERE name NOT LIKE 'sqlite_stat%' ORDER BY name").fetchall()
    conn.execute("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, paper_fts, instance)")
    words = conn.execute("SELECT * FROM temp.words ORDER BY 1, 2, 3, 4").fetchall()
    conn.close()
    return schema, words


@pytest.mark.sqlite_only  # (the file's index)
def test_pieces_are_indexed_as_a_rebuild_indexes_them_and_the_schema_stays(
        tmp_path: Path, in_process: None, seeded: Library, library_path: Path) -> None:
    """Each piece's papers go to the search index as they were inserted (a tagged
    paper's words read back, its tags being written after it): the index holds what a
    rebuild from the tables makes; the indexes of `papers` the import set aside while it
    ran are all back, as they were."""
    entries = [bib_entry(n) for n in range(300)]
    for n in range(0, 300, 10):
        entries[n] = entries[n].replace("  booktitle", f"  keywords = {{Zebra{n}}},\n  booktitle")
    path = tmp_path / "tagged.bib"
    path.write_text("".join(entries), encoding="utf-8")
    schema, _ = schema_and_words(library_path)
    assert seeded.import_file(path).added == 300
    assert len(seeded.view_ids(View(search="zebra30"))) == 1
    assert len(seeded.view_ids(View(search="Müller3"))) > 0
    seeded.close()
    after, words = schema_and_words(library_path)
    assert after == schema
    engine = create_engine(f"sqlite:///{library_path}")
    with engine.begin() as conn:
        fts5.rebuild(conn)
    engine.dispose()
    assert schema_and_words(library_path)[1] == words


@pytest.mark.parametrize("twist", ["string", "crossref", "latin1"])
def test_files_with_references_between_entries_import_right(
        tmp_path: Path, in_process: None, two: tuple[Library, Library], twist: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """@string macros (defined at the top and redefined further down) reach the later
    pieces; crossref and non-UTF-8 bytes anywhere: the file is read whole after all."""
    path = bib_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    if twist == "string":
        text = text.replace("booktitle = {ICML}", "booktitle = icml")
        middle = text.index("@inproceedings{paper160,")
        text = ("@string{icml = {Proc. ICML}}\n" + text[:middle]
                + "@String{ICML = {Proc. ICML, later}}\n\n" + text[middle:])
    elif twist == "crossref":
        text += "@proceedings{icml2024,\n  booktitle = {Proc. ICML 2024},\n  year = 2024\n}\n"
        text = text.replace("booktitle = {ICML},", "crossref = {icml2024},")
    path.write_bytes(text.encode("latin-1", errors="replace") if twist == "latin1"
                     else text.encode("utf-8"))
    pieces = two[0]
    if twist == "string":  # macros go from piece to piece: no need to read it whole
        monkeypatch.setattr(pieces, "import_result", None)
    assert same_as_whole(two, path).added > 250
    venue = pieces.details(pieces.view_ids(View(), 1))[0].record.venue
    assert venue == {"string": "Proc. ICML", "crossref": "Proc. ICML 2024",
                     "latin1": "ICML"}[twist]
    if twist == "string":
        last = pieces.details(pieces.view_ids(View(descending=True), 1))[0].record
        assert (last.key, last.venue) == ("paper299", "Proc. ICML, later")


def test_without_worker_processes_the_file_is_read_whole(
        tmp_path: Path, small_pieces: None, monkeypatch: pytest.MonkeyPatch,
        two: tuple[Library, Library]) -> None:
    """Where processes cannot be started (a sandbox) the import still works, whole."""
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(ingest.ProcessPoolExecutor, "submit", refuse)
    assert same_as_whole(two, bib_file(tmp_path)).added == 297
