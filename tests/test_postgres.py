"""A library on PostgreSQL: opened by URL, searched as on SQLite, refused clearly.

Runs against the test session's own server (`tests.postgres_server`), on a Unix socket.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from papershelf.core import search
from papershelf.core.annotating import New
from papershelf.core.library import Library, View
from papershelf.core.models import Paper
from papershelf.core.search.pg_schema import pg_annotations_document
from papershelf.core.store import PostgresStore, store_type
from papershelf.errors import LibraryError
from tests.conftest import SEEDS
from tests.postgres_server import PostgresServer, SharedLibrary, downgrade_shared

# Papers beyond the samples: accents, other scripts, punctuation inside words.
UNICODE_BIB = r"""
@article{erdos1959,
  title = {On random graphs: naïve bounds and Ångström-scale phenomena},
  author = {Erdős, Paul and Rényi, Alfréd},
  year = {1959},
  abstract = {Нейронные сети meet 深度学习的论文列表 and αβγ-divergences; graph-based
              methods, e-mail to x@y.org, π is 3.14 and foo_bar stays apart.},
}
@article{mueller2020,
  title = {Deep networks for graph learning},
  author = {Müller, Jürgen},
  year = {2020},
  abstract = {Graph learning at scale, with a note on Schrödinger bridges.},
}
"""

# Queries that must find the same papers on PostgreSQL as on SQLite's FTS5.
QUERIES = [
    # words, any case, any order
    "learning", "Learning", "temporal distance", "distance temporal",
    "reinforcement learning", "transformer", "graph",
    # phrases: adjacent words, in order, within one column
    '"temporal distance"', '"distance temporal"', '"successor features"',
    '"graph learning"', '"contrastive learning"',
    '"phenomena erdős"', '"phenomena paul"', '"learning graph"',
    # prefixes
    "lear*", "tempor* dist*", '"temporal dist"*', "quant*", "Transf*", "x*",
    # punctuation inside words splits them, as FTS5 does
    "graph-based", "x@y.org", "3.14", "e-mail", "foo_bar", "Transformer-based",
    # nothing matches
    "zzzqqq", "learning zzzqqq", '"learning zzzqqq"', "zzz*",
    # operators and junk are plain words or nothing
    "learning AND temporal", "(learning)", "***", '"', '""', "- -", "___",
    # other scripts: a CJK run is one word; case folds in Cyrillic and Greek
    "深度学习的论文列表", "深度*", "深度", "αβγ", "ΑΒΓ", "αβ*", "нейронные", "НЕЙРОННЫЕ",
    "сети",
    # diacritics do not count
    "Erdős", "erdos", "ERDOS", "renyi", "Rényi", "naive", "naïve", "NAÏVE", "angstrom",
    "Ångström", "muller", "jürgen", "schrodinger", "Schröd*",
]


def found(library: Library, query: str) -> set[str]:
    """The citation keys of the papers a search finds."""
    return {row.key for row in library.rows(library.view_ids(View(search=query))).values()}


def one_line_error(target: str) -> str:
    """The LibraryError of opening `target`, checked to be one line."""
    with pytest.raises(LibraryError) as failure:
        Library.open(target)
    message = str(failure.value)
    assert "\n" not in message and message.strip() == message
    return message


def driver_error(url: str) -> DBAPIError:
    """The driver's error on connecting to `url` with the store's own engine."""
    engine = PostgresStore.engine_for(url)
    try:
        with pytest.raises(DBAPIError) as failure, engine.connect():
            pass
    finally:
        engine.dispose()
    return failure.value


def tables(server: PostgresServer, database: str) -> list[str]:
    return [name for (name,) in server.admin(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1", database)]


@pytest.fixture
def pg_library(pg_url: str) -> Iterator[Library]:
    """A fresh, empty library on the test server."""
    library = Library.open(pg_url)
    yield library
    library.close()


@pytest.fixture
def unicode_bib(tmp_path: Path) -> Path:
    path = tmp_path / "unicode.bib"
    path.write_text(UNICODE_BIB, encoding="utf-8")
    return path


# -- opening and using a library ----------------------------------------------------


def test_a_library_on_postgres_imports_the_sample_papers(pg_url: str) -> None:
    library = Library.open(pg_url)
    try:
        assert library.dialect == "postgresql"
        library.ensure_sample(SEEDS)
        assert library.count() == 38
        assert len({row.key for row in library.rows(library.view_ids()).values()}) == 38
    finally:
        library.close()
    again = Library.open(pg_url.replace("postgresql://", "postgres://", 1))
    try:  # the scheme libpq's users type works as well
        assert again.ensure_sample(SEEDS) is None
        assert again.count() == 38
    finally:
        again.close()


def test_a_database_owner_makes_a_library_that_ignores_accents(
        pg_server: PostgresServer, unicode_bib: Path) -> None:
    # Not a superuser: the `unaccent` extension is one a database's owner may create.
    pg_server.create_role("dora", "s3cret:/@?")
    database = pg_server.create_database(owner="dora")
    library = Library.open(pg_server.url(database, "dora", "s3cret:/@?"))
    try:
        assert library.location == (f"postgresql://dora@/{database}"
                                    f"?host={pg_server.socket_dir}&port={pg_server.port}")
        library.import_file(unicode_bib)
        assert found(library, "erdos renyi") == {"erdos1959"}
    finally:
        library.close()


def test_where_unaccent_cannot_be_had_accents_count(
        pg_server: PostgresServer, unicode_bib: Path) -> None:
    # gina may create tables in the schema, not extensions in the database.
    pg_server.create_role("gina", "pw")
    database = pg_server.create_database()
    pg_server.admin("GRANT CREATE ON SCHEMA public TO gina", database)
    library = Library.open(pg_server.url(database, "gina", "pw"))
    try:
        library.import_file(unicode_bib)
        assert found(library, "Erdős") == found(library, "ERDŐS") == {"erdos1959"}
        assert found(library, "erdos") == set()
    finally:
        library.close()
    assert not pg_server.admin("SELECT 1 FROM pg_extension WHERE extname = 'unaccent'",
                               database)


def test_connections_carry_our_settings_unless_the_url_says_otherwise(pg_url: str) -> None:
    for url, name in ((pg_url, "papershelf"), (pg_url + "&application_name=mine", "mine")):
        engine = store_type(url).engine_for(url)
        try:
            assert engine.dialect.driver == "psycopg"
            with engine.connect() as conn:
                assert conn.scalar(text("SHOW application_name")) == name
        finally:
            engine.dispose()


def test_a_session_has_the_memory_a_negated_search_needs(pg_url: str) -> None:
    """work_mem at least 64 MB (at the server's 4 MB default, `-learning` or the unread
    of a million papers took minutes: NOT IN compared every paper with the whole list);
    a higher setting of the URL's (or the server's) stays."""
    for url, expected in ((pg_url, "64MB"),
                          (pg_url + "&options=-c%20work_mem%3D256MB", "256MB")):
        engine = PostgresStore.engine_for(url)
        try:
            with engine.connect() as conn:
                assert conn.scalar(text("SHOW work_mem")) == expected
                conn.rollback()
                assert conn.scalar(text("SHOW work_mem")) == expected
        finally:
            engine.dispose()


def test_a_fresh_library_has_its_search_indexes(pg_url: str) -> None:
    engine = PostgresStore.engine_for(pg_url)
    try:
        with engine.connect() as conn:
            indexes = set(conn.scalars(text("SELECT indexname FROM pg_indexes")))
            assert {search.PG_SEARCH_INDEX, search.PG_NOTES_INDEX,
                    search.PG_FILES_INDEX} <= indexes
            assert not {search.PG_PAPERS_INDEX, search.PG_TEXTS_INDEX} & indexes
    finally:
        engine.dispose()


def _plan(library: Library, where: Any) -> str:
    """The server's plan of the ids of the papers `where` keeps, indexes preferred."""
    query = select(Paper.id).where(where)
    with library.engine.connect() as conn:
        conn.execute(text("SET enable_seqscan = off"))  # (38 papers: a scan would win)
        compiled = query.compile(conn)
        return "\n".join(row[0] for row in conn.exec_driver_sql(
            "EXPLAIN " + compiled.string, compiled.params))


def test_search_uses_the_indexes(pg_library: Library) -> None:
    pg_library.ensure_sample(SEEDS)
    plan = _plan(pg_library, PostgresStore.search.matches('"temporal distance" lear*'))
    assert f"Bitmap Index Scan on {search.PG_SEARCH_INDEX}" in plan
    assert f"Bitmap Index Scan on {search.PG_NOTES_INDEX}" in plan
    assert search.PG_ANNOTATED_PAPERS in plan  # (plain words find papers through
    assert "Seq Scan" not in plan  # their annotations too, read by this function...)
    with pg_library.engine.connect() as conn:  # (...through their index)
        conn.execute(text("SET enable_seqscan = off"))
        plan = "\n".join(row[0] for row in conn.exec_driver_sql(
            f"EXPLAIN SELECT id FROM annotations a WHERE {pg_annotations_document('a.')} "
            "@@ to_tsquery('papershelf_search', 'lear:*')"))
    assert f"Bitmap Index Scan on {search.PG_ANNOTATIONS_INDEX}" in plan


def test_words_found_through_annotations_join_the_other_papers_as_one_set(
        pg_library: Library) -> None:
    # The papers of a plain word beyond the walk of the first page (notes, tags, files,
    # annotations) are one set of ids, each term then looked up by key for those few:
    # an OR of two IN tested every paper, and read every paper holding "graph" for the
    # few annotated ones (850 ms a keystroke over 100,000 papers and annotations).
    pg_library.ensure_sample(SEEDS)
    plan = _plan(pg_library, PostgresStore.search.other_matches("graph lear*"))
    assert search.PG_ANNOTATED_PAPERS in plan
    assert f"Bitmap Index Scan on {search.PG_NOTES_INDEX}" in plan
    on_papers = re.findall(r"Scan (?:using \w+ )?on papers  \(.*\n(?:.*Cond:.*\n)*"
                           r"\s+Filter: (.*)", plan)  # (the library's papers, not an alias)
    assert not [f for f in on_papers if " OR " in f], plan
    assert f"Seq Scan on {search.PG_SEARCH_TABLE}" not in plan


def test_a_page_of_papers_found_through_annotations_is_the_first_of_them(
        pg_library: Library) -> None:
    # More papers annotated with a word than a page holds: the page is the first of all
    # those found (in either order), as without a page, with the walk's ones among them.
    pg_library.ensure_sample(SEEDS)
    ids = pg_library.view_ids(View())
    for pid in ids[::2]:
        pg_library.add_annotation(pid, New("note", 0, "", [(1, 2, 1, 2)],
                                           comment="wombatish thoughts"))
    pg_library.add_annotation(ids[1], New("note", 0, "", [(1, 2, 1, 2)], comment="learning"))
    for words in ("wombatish", "wombat*", "learning", "learn* wombatish"):
        for descending in (False, True):
            view = View(search=words, sort="added", descending=descending)
            every = pg_library.view_ids(view)
            assert every, words
            assert pg_library.view_ids(view, limit=3) == every[:3], (words, descending)


def test_importing_files_again_does_as_on_sqlite(
        pg_library: Library, tmp_path: Path, unicode_bib: Path) -> None:
    # The store's look-ups by value (DOI in any case, key, title, abstract) and its key
    # prefixes decide what is merged and which keys new papers get.
    bib = tmp_path / "again.bib"
    bib.write_text("""
@article{smith2020, title = {Graph learning}, doi = {10.1000/ABC}, year = {2020}}
@article{smith2020a, title = {Graph learning, again}, year = {2020}}
@article{jones2021, title = {Deep quokkas}, author = {Jones, Ann}, year = {2021}}
""", encoding="utf-8")
    changed = tmp_path / "changed.bib"
    changed.write_text(bib.read_text().replace("10.1000/ABC", "10.1000/abc")
                       .replace("smith2020a", "smith2020b"), encoding="utf-8")
    lite = Library.open(str(tmp_path / "library.sqlite"))
    try:
        outcomes = []
        for library in (lite, pg_library):
            library.ensure_sample(SEEDS)
            reports = [library.import_file(path)
                       for path in (bib, changed, unicode_bib, unicode_bib, bib)]
            outcomes.append(([(r.added, r.merged) for r in reports],
                             sorted(row.key for row in library.rows(
                                 library.view_ids()).values())))
        assert outcomes[1] == outcomes[0]
        assert outcomes[0][0][0] == (3, 0) and outcomes[0][0][3] == (0, 0)
        assert {"smith2020", "smith2020a", "smith2020b"} <= set(outcomes[0][1])
    finally:
        lite.close()


@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_the_migrated_schema_matches_the_models(pg_library: Library) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from papershelf.core.models import Base

    with pg_library.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    # The search table, its pending ranges and the search indexes (notes, attached files',
    # text) are the only things the models do not declare.
    assert [d for d in diff if "_search" not in str(d[1].name)
            and d[1].name != search.PENDING_TABLE] == []
    assert len(diff) == 6  # (the two tables, the four GIN indexes)


# -- search as on SQLite ------------------------------------------------------------


@pytest.fixture
def both(pg_library: Library, tmp_path: Path, unicode_bib: Path
         ) -> Iterator[tuple[Library, Library]]:
    """The same papers (the samples and UNICODE_BIB) in a SQLite library and in a
    PostgreSQL one."""
    lite = Library.open(str(tmp_path / "library.sqlite"))
    try:
        for library in (lite, pg_library):
            library.ensure_sample(SEEDS)
            library.import_file(unicode_bib)
        yield lite, pg_library
    finally:
        lite.close()


def test_search_finds_the_same_papers_as_on_sqlite(both: tuple[Library, Library]) -> None:
    lite, pg_library = both
    assert pg_library.count() == lite.count() == 40
    expected = {q: found(lite, q) for q in QUERIES}
    assert {q: found(pg_library, q) for q in QUERIES} == expected
    assert {q: pg_library.count(View(search=q)) for q in QUERIES} == {
        q: len(keys) for q, keys in expected.items()}
    assert expected["erdos"] == {"erdos1959"} and expected["深度*"] == {"erdos1959"}
    assert len(expected["lear*"]) > len(expected['"contrastive learning"']) > 0


_WORDS = ["learning", "Temporal", "distance", "graph", "models", "the", "of", "a", "x",
          "3", "14", "erdős", "Naive", "深度学习的论文列表", "αβγ", "zzz", "foo_bar"]
_PIECES = st.one_of(
    st.sampled_from(_WORDS), st.sampled_from(_WORDS).map(lambda w: w[:3] + "*"),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(
        lambda ws: '"' + " ".join(ws) + '"'),
    st.sampled_from(["-", "(", ")", "AND", "OR", "NOT", "*", '"', ":", "'", "\\", "%", "_",
                     "a:b", "^", "🙂"]))


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_PIECES, max_size=4).map(" ".join))
def test_any_query_finds_the_same_papers_as_on_sqlite(
        both: tuple[Library, Library], query: str) -> None:
    lite, pg_library = both
    assert found(pg_library, query) == found(lite, query)


def test_a_field_search_finds_a_word_only_in_notes_on_the_first_page(
        pg_library: Library) -> None:
    """`title:WORD word` where the word is in one paper's notes only: that paper is on the
    first page the window asks for; with the word in no note at all, the page is the
    search table's alone (asked of the notes' index first: before, the server worked
    out the papers of every word for three seconds over a million papers: `au:santos
    bound`)."""
    pg_library.ensure_sample(SEEDS)
    pid = pg_library.view_ids(View(search='"temporal distance"'))[0]
    query = "title:temporal zoetrope"  # (the sample's titles are drawn from abstracts)
    assert pg_library.view_ids(View(search=query, typing=True), limit=50) == []
    pg_library.set_notes(pid, "Compare with the zoetrope paper")
    assert pg_library.view_ids(View(search=query, typing=True), limit=50) == [pid]
    assert pg_library.view_ids(View(search=query), limit=50) == [pid]


def test_search_follows_edits(pg_library: Library) -> None:
    pg_library.ensure_sample(SEEDS)
    pid = pg_library.view_ids(View(search='"temporal distance"'))[0]
    pg_library.set_notes(pid, "Read with Zoë before Tuesday")
    pg_library.add_tags([pid], ["to-read", "quasimetrics"])
    assert pg_library.view_ids(View(search="zoe tuesday")) == [pid]
    assert pg_library.view_ids(View(search='"to read"')) == [pid]
    pg_library.delete_papers([pid])
    assert pg_library.view_ids(View(search="zoe")) == []


# -- clear refusals, nothing written ------------------------------------------------


def test_a_wrong_password_is_one_clear_line(pg_server: PostgresServer) -> None:
    pg_server.create_role("erin", "right")
    database = pg_server.create_database(owner="erin")
    url = pg_server.url(database, "erin", "wrong")
    assert PostgresStore.explain(url, driver_error(url)) == (
        f"{PostgresStore.describe(url)}: the server on socket "
        f"{pg_server.socket_dir}/.s.PGSQL.{pg_server.port} refused the login of 'erin': "
        "wrong password (or no such user)")
    assert one_line_error(url) == PostgresStore.explain(url, driver_error(url))
    no_password = pg_server.url(database, "erin")
    assert "none was given" in one_line_error(no_password)
    assert tables(pg_server, database) == []


def test_a_server_that_is_down_is_one_clear_line(tmp_path: Path) -> None:
    url = f"postgresql://postgres@/papers?host={tmp_path}&port=5432"
    message = one_line_error(url)
    assert message == PostgresStore.explain(url, driver_error(url))
    assert message.startswith(f"postgresql://postgres@/papers?host={tmp_path}&port=5432: "
                              "cannot reach the PostgreSQL server on socket "
                              f"{tmp_path}/.s.PGSQL.5432: ")
    assert message.endswith("(is it running?)")


def test_each_bad_library_url_is_one_line_and_exit_code_1_on_the_command_line(
        pg_server: PostgresServer, tmp_path: Path) -> None:
    """A wrong URL, a server that is down, a wrong password, another program's database,
    a newer schema: `papershelf list` says what is wrong in one line, exits 1."""
    from tests.conftest import run_cli

    pg_server.create_role("frank", "right")
    newer = pg_server.create_database()
    Library.open(pg_server.url(newer)).close()
    pg_server.admin("UPDATE alembic_version SET version_num = '9999'", newer)
    other = pg_server.create_database()
    pg_server.admin("CREATE TABLE invoices (id integer PRIMARY KEY)", other)
    cases = {
        "postgresql://alice@db:notaport/papers": "not a database URL",
        f"postgresql://postgres@/papers?host={tmp_path}&port=5432":
            "cannot reach the PostgreSQL server",
        pg_server.url(newer, "frank", "wrong"): "wrong password",
        pg_server.url(other): "not a Papershelf library",
        pg_server.url(newer): "written by a newer version of Papershelf",
    }
    for url, expected in cases.items():
        status, out, err = run_cli("list", "--library", url)
        assert (status, out) == (1, ""), url
        assert expected in err and err.count("\n") == 1, err
    assert tables(pg_server, other) == ["invoices"]
    assert pg_server.admin("SELECT version_num FROM alembic_version", newer) == [("9999",)]


def test_a_database_that_does_not_exist_is_one_clear_line(
        pg_server: PostgresServer) -> None:
    url = pg_server.url("no_such_library")
    message = one_line_error(url)
    assert message == PostgresStore.explain(url, driver_error(url))
    assert "the database 'no_such_library' does not exist on the server" in message
    assert not pg_server.admin("SELECT 1 FROM pg_database WHERE datname = 'no_such_library'")


def test_a_database_of_another_program_is_refused_untouched(
        pg_server: PostgresServer) -> None:
    database = pg_server.create_database()
    pg_server.admin("CREATE TABLE invoices (id integer PRIMARY KEY, total numeric)", database)
    message = one_line_error(pg_server.url(database))
    assert message.endswith("this database is not a Papershelf library "
                            "(it has other tables: invoices)")
    assert tables(pg_server, database) == ["invoices"]


def test_a_role_that_may_not_create_tables_is_one_clear_line(
        pg_server: PostgresServer) -> None:
    pg_server.create_role("frank", "pw")
    database = pg_server.create_database()  # the superuser's: frank may only connect
    url = pg_server.url(database, "frank", "pw")
    message = one_line_error(url)
    assert message.endswith(": the role 'frank' may not do this on the server on socket "
                            f"{pg_server.socket_dir}/.s.PGSQL.{pg_server.port}: "
                            "permission denied for schema public")
    assert tables(pg_server, database) == []


def test_a_connection_lost_midway_is_one_clear_line(
        pg_server: PostgresServer, pg_url: str) -> None:
    engine = PostgresStore.engine_for(pg_url)
    try:
        with engine.connect() as conn:
            pid = conn.scalar(text("SELECT pg_backend_pid()"))
            pg_server.admin(sql.SQL("SELECT pg_terminate_backend({})").format(pid))
            with pytest.raises(DBAPIError) as failure:
                conn.execute(text("SELECT 1"))
    finally:
        engine.dispose()
    assert PostgresStore.explain(pg_url, failure.value) == (
        f"{PostgresStore.describe(pg_url)}: the connection to the server on socket "
        f"{pg_server.socket_dir}/.s.PGSQL.{pg_server.port} was lost; nothing was changed")


def test_other_errors_are_not_explained(pg_url: str) -> None:
    engine = PostgresStore.engine_for(pg_url)
    try:
        with pytest.raises(DBAPIError) as failure, engine.connect() as conn:
            conn.execute(text("SELECT * FROM no_such_table"))
    finally:
        engine.dispose()
    assert PostgresStore.explain(pg_url, failure.value) is None


class _ServerError(Exception):
    """A driver error as psycopg raises it: its message and SQLSTATE (None: libpq's)."""

    def __init__(self, message: str, sqlstate: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(("message", "sqlstate", "says"), [
    ('connection failed: connection to server at "10.1.2.3", port 5432 failed: FATAL:  '
     'role "bob" does not exist', None, "the server at db.example.org:5432 has no user 'bob'"),
    ('connection failed: connection to server at "10.1.2.3", port 5432 failed: FATAL:  '
     'no pg_hba.conf entry for host "10.1.2.4", user "bob", database "papers"', None,
     "the role 'bob' may not do this on the server at db.example.org:5432: no pg_hba.conf"),
    ("connection timeout expired", None,
     "cannot reach the PostgreSQL server at db.example.org:5432: connection timeout expired"),
    ("failed to resolve host 'db.example.org': [Errno -2] Name or service not known", None,
     "(is its name right?)"),
    ("FATAL:  the database system is starting up", "57P03", "cannot reach"),
    ("consuming input failed: server closed the connection unexpectedly\n\tThis probably "
     "means the server terminated abnormally", None, "was lost; nothing was changed"),
    ("terminating connection due to administrator command", "57P01", "was lost"),
    ("sorry, too many clients already", "53300", "has no connection to spare"),
    ('could not extend file "base/16384/16385": No space left on device', "53100",
     "out of disk or memory; nothing was changed"),
    ("cannot execute UPDATE in a read-only transaction", "25006", "only allows reading"),
    ("deadlock detected", "40P01", "the library is busy"),
])
def test_each_kind_of_server_failure_is_named(
        message: str, sqlstate: str | None, says: str) -> None:
    url = "postgresql://bob:secret@db.example.org/papers"
    line = PostgresStore.explain(url, _ServerError(message, sqlstate))
    assert line is not None and "\n" not in line and "secret" not in line
    assert line.startswith("postgresql://bob@db.example.org/papers: ")
    assert says in line


def test_server_errors_that_are_our_bugs_are_not_explained() -> None:
    url = "postgresql://bob@db.example.org/papers"
    for error in (_ServerError('could not open file "base/1/2": No such file or directory',
                               "58P01"),
                  _ServerError('column "nope" does not exist', "42703"),
                  _ServerError('relation "papers" does not exist', "42P01")):
        assert PostgresStore.explain(url, error) is None


# -- the store's own paths ----------------------------------------------------------


def test_key_prefixes_are_found_whatever_the_collation(
        pg_server: PostgresServer, tmp_path: Path) -> None:
    # A language's collation sorts "smith2020a" after "smith2020~": a range scan up to
    # prefix + "~" (fine in C) would miss it, and the next "smith2020a" would collide.
    database = f"icu_{tmp_path.name[-12:].lower()}".replace("-", "_")
    pg_server.admin(sql.SQL("CREATE DATABASE {} TEMPLATE template0 LOCALE_PROVIDER icu "
                            "ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'")
                    .format(sql.Identifier(database)))
    bib = tmp_path / "smith.bib"
    bib.write_text("".join(f"@article{{{key}, title = {{Paper {key}}}, year = {{2020}}}}\n"
                           for key in ("smith2020", "smith2020a", "Smith2020b", "smith2021")))
    library = Library.open(pg_server.url(database))
    try:
        library.import_file(bib)
        store = PostgresStore(library.engine)
        with library.engine.connect() as conn:
            assert conn.scalar(text("SELECT 'smith2020a' < 'smith2020~'")) is False
        with Session(library.engine) as session:
            assert store.keys_starting_with(session, {"smith2020", "Smith", "zz"}) == {
                "smith2020", "smith2020a", "Smith2020b"}
            assert store.keys_starting_with(session, set()) == set()
    finally:
        library.close()
        pg_server.drop_database(database)


def test_the_shared_library_fixture_gives_two_ordinary_users(
        pg_roles: SharedLibrary) -> None:
    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        alice.ensure_sample(SEEDS)
        assert bob.count() == 38
        with bob.engine.connect() as conn:
            assert conn.scalar(text("SELECT current_user")) == "bob"
            assert conn.scalar(text("SELECT rolsuper FROM pg_roles "
                                    "WHERE rolname = current_user")) is False
    finally:
        alice.close()
        bob.close()


def test_members_search_and_index_a_library_upgraded_to_the_search_table(
        pg_roles: SharedLibrary) -> None:
    """A shared library made before the search table (schema 0009) and upgraded by its
    owner: its members search it, and a member's big import becomes searchable once
    that member's window (here: index_pending) has indexed it."""
    from papershelf.formats.records import Author, PaperRecord, ReadResult

    downgrade_shared(pg_roles.superuser, "0009",
                     before=lambda owner: owner.import_file(next(SEEDS.glob("*.txt"))))
    Library.open(pg_roles.superuser).close()  # (upgraded as it opens)
    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        assert alice.view_ids(View(search="learning"))
        alice.set_notes(alice.view_ids()[0], "ask bob about the wombat")
        assert bob.view_ids(View(search="wombat")) == alice.view_ids()[:1]
        big = ReadResult(records=[
            PaperRecord(title=f"Numbat survey {i}", authors=[Author("Lovelace", "Ada")],
                        abstract=f"On numbats, part {i}.") for i in range(1200)])
        report = alice.import_result(big, "big.bib", "bibtex")
        assert report.added == 1200 and bob.pending_index() == 1200
        assert bob.view_ids(View(search="numbat")) == []
        assert alice.index_pending() == 1200
        assert len(bob.view_ids(View(search="numbats"))) == 1200
        assert bob.pending_index() == 0
    finally:
        alice.close()
        bob.close()
