"""Big writes on PostgreSQL: an import goes in by COPY, in its one transaction.

A big file is imported in pieces (made tiny here, read in this process), a COPY of new
papers, their texts and authors per piece: the library gets exactly the papers, keys and
fields SQLite's does, and an import cut off halfway (the connection lost, or cancelled)
leaves it exactly as it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from psycopg import sql
from sqlalchemy.engine import make_url

from papershelf.core import ingest
from papershelf.core.library import ImportCancelled, Library, View
from papershelf.errors import LibraryError
from tests.conftest import SEEDS, bibtex_of
from tests.postgres_server import PostgresServer

PIECE = 4096


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files of a few pieces of a few KB each, read in this process."""
    monkeypatch.setattr(ingest, "PIECE_BYTES", PIECE)
    monkeypatch.setattr(ingest, "MIN_PIECES_BYTES", 2 * PIECE)
    monkeypatch.setattr(ingest, "MAX_WORKERS", 1)


def entry(n: int, key: str = "paper") -> str:
    """A BibTeX entry with what COPY's text format must carry through: tabs, line
    breaks and backslashes in values, `\\N` (COPY's null) as text, quotes in the JSON of
    the raw fields, characters beyond the BMP, no year, @string macros; and a DOI with
    what an array's text must quote."""
    authors = " and ".join(f"Müller{n % 7}, Ana{k}" for k in range(n % 4))  # some: none
    year = "" if n % 5 == 0 else f"  year = {{{2000 + n % 25}}},\n"
    return (f"@inproceedings{{{key}{n},\n  author = {{{authors}}},\n"
            f"  title = {{On {{M}}odel {n}: \"quoted\" \\N and $x^{n % 3}$ caf\\'e 🦜}},\n"
            f"  booktitle = icml # {{ {n % 3}}},\n{year}"
            f"  doi = {{10.1000/\"Paper\", {{{n}}}\\_{n % 2}}},\n"
            f"  note = {{tab\there\\\\ and a backslash \\textbackslash}},\n"
            f"  abstract = {{We study problem {n}\tin depth,\n  over two lines "
            + "and at length " * (n % 20 + 20) + ".}\n}\n\n")


def bib_file(path: Path, first: int = 0, count: int = 120, key: str = "paper") -> Path:
    path.write_text("@string{icml = {Proc. ICML}}\n\n"
                    + "".join(entry(n, key) for n in range(first, first + count)),
                    encoding="utf-8")
    return path


def contents(library: Library) -> list[tuple[object, ...]]:
    """Every paper: id, key, every field of its record, the user's own data."""
    details = library.details(library.view_ids(View()))
    return [(d.id, d.record.key, dataclasses.astuple(d.record), d.starred, d.read_state,
             d.private_notes) for d in details]


def database(url: str) -> str:
    return str(make_url(url).database)


def table_digests(server: PostgresServer, name: str) -> dict[str, str]:
    """A digest of every row of every table of the database `name`."""
    tables = [t for (t,) in server.admin(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'", name)]
    return {t: str(server.admin(sql.SQL(
        "SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM {} r")
        .format(sql.Identifier(t)), name)[0][0]) for t in tables}


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Library]:
    library = Library.open(str(tmp_path / "library.sqlite"))
    yield library
    library.close()


@pytest.fixture
def pg(pg_url: str) -> Iterator[Library]:
    library = Library.open(pg_url)
    yield library
    library.close()


def test_an_import_in_pieces_gives_every_paper_as_on_sqlite(
        small_pieces: None, tmp_path: Path, lite: Library, pg: Library) -> None:
    bib = bib_file(tmp_path / "big.bib")
    assert len(list(ingest.pieces(str(bib), "bibtex") or [])) > 10
    # Half of them again, under other keys: the same papers by their DOIs.
    again = bib_file(tmp_path / "again.bib", first=60, count=120, key="again")
    for library in (lite, pg):
        library.ensure_sample(SEEDS)
        first, second = library.import_file(bib), library.import_file(again)
        assert (first.added, first.already_present, first.failed) == (120, 0, 0)
        assert (second.added, second.already_present) == (60, 60)
    assert contents(pg) == contents(lite)
    assert bibtex_of(pg) == bibtex_of(lite)
    paper = pg.details(pg.ids_for_keys(["paper7"])[0])[0].record
    assert paper.raw["abstract"].startswith("We study problem 7\tin depth,\n  over two")
    assert paper.raw["note"] == "tab\there\\\\ and a backslash \\textbackslash"
    assert '"quoted" \\N' in paper.raw["title"] and "🦜" in paper.title
    assert [a.family for a in paper.authors] == ["Müller0"] * 3
    assert paper.venue == "Proc. ICML 1" and paper.year == 2007
    assert paper.doi == '10.1000/"Paper", 7_1'


@dataclasses.dataclass
class Interrupted:
    """A library of the 38 samples, a big file to import into it, and a digest of every
    table before, to compare with after an import that did not finish."""

    library: Library
    bib: Path
    database: str
    server: PostgresServer
    before: dict[str, str]
    pieces: list[int]

    def progress(self, done: int, _total: int) -> None:
        self.pieces.append(done)

    def unchanged(self) -> bool:
        return table_digests(self.server, self.database) == self.before


@pytest.fixture
def interrupted(small_pieces: None, tmp_path: Path, pg_server: PostgresServer,
                pg_url: str, pg: Library) -> Interrupted:
    pg.ensure_sample(SEEDS)
    name = database(pg_url)
    return Interrupted(pg, bib_file(tmp_path / "big.bib"), name, pg_server,
                       table_digests(pg_server, name), [])


def test_an_import_whose_connection_is_lost_halfway_changes_nothing(
        interrupted: Interrupted) -> None:
    def progress(done: int, total: int) -> None:
        interrupted.progress(done, total)
        if len(interrupted.pieces) == 6:  # several pieces' papers copied in: cut off
            interrupted.server.admin(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                "current_database() AND state LIKE 'idle in transaction%'",
                interrupted.database)

    library = interrupted.library
    with pytest.raises(LibraryError, match=r"connection to the server .* was lost; "
                                           r"nothing was changed"):
        library.import_file(interrupted.bib, progress)
    assert len(interrupted.pieces) == 6
    assert interrupted.unchanged()
    assert library.count() == 38
    assert library.import_file(interrupted.bib).added == 120  # the next try goes in whole


def test_a_cancelled_import_changes_nothing(interrupted: Interrupted) -> None:
    with pytest.raises(ImportCancelled):
        interrupted.library.import_file(interrupted.bib, interrupted.progress,
                                        lambda: len(interrupted.pieces) >= 6)
    assert len(interrupted.pieces) == 6
    assert interrupted.unchanged()


# Files imported one after the other: keys taken, in any case, with gaps in their
# variants, beyond ASCII, one a prefix of another; then the same keys again (new papers).
KEY_FILES = [
    ["smith2020", "smith2020b", "Smith2020a", "müller2021", "lee", "lee2020"],
    ["smith2020", "müller2021", "lee", "Smith2020a"],
    ["smith2020", "müller2021", "lee", "smith2020a", "lee2020"],
]


@pytest.fixture(params=["default", "icu", "icu with a C index"])
def keyed_library(request: pytest.FixtureRequest, pg_server: PostgresServer,
                  pg_url: str, tmp_path: Path) -> Iterator[Library]:
    """A library in the test database (its collation orders by code point), or in a
    database sorting by English rules (ICU), with or without an index of the keys in
    code point order."""
    if request.param == "default":
        library = Library.open(pg_url)
    else:
        name = f"icu_{tmp_path.name[-12:].lower()}".replace("-", "_")
        pg_server.admin(sql.SQL("CREATE DATABASE {} TEMPLATE template0 LOCALE_PROVIDER icu "
                                "ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'")
                        .format(sql.Identifier(name)))
        request.addfinalizer(lambda: pg_server.drop_database(name))
        Library.open(pg_server.url(name)).close()  # (the schema)
        if request.param == "icu with a C index":
            pg_server.admin('CREATE INDEX ix_keys_c ON papers (key COLLATE "C")', name)
        library = Library.open(pg_server.url(name))
    yield library
    library.close()


def test_new_papers_get_the_keys_they_get_on_sqlite(
        keyed_library: Library, lite: Library, tmp_path: Path) -> None:
    outcomes = []
    for library in (lite, keyed_library):
        notices = []
        for number, keys in enumerate(KEY_FILES):
            path = tmp_path / f"keys{number}.bib"
            path.write_text("".join(f"@article{{{key}, title = {{Paper {key} of file "
                                    f"{number}}}, year = {{2020}}}}\n" for key in keys),
                            encoding="utf-8")
            report = library.import_file(path)
            assert report.added == len(keys)
            notices += report.notices
        outcomes.append((sorted(row.key for row in library.rows(
            library.view_ids(View())).values()), notices))
    assert outcomes[1] == outcomes[0]
    keys = outcomes[0][0]
    assert len(keys) == len(set(keys)) == sum(map(len, KEY_FILES)), keys
    assert {"smith2020a", "smith2020c", "smith2020aa", "Smith2020aa", "müller2021b",
            "leeb", "lee2020a"} <= set(keys)
