"""Copying a whole library (core/copying.py; `papershelf copy` and `init-shared`): a file
into a new file, a file onto PostgreSQL and back, compared row for row."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from psycopg import sql
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from papershelf.core import copying, db
from papershelf.core.library import Library, View
from papershelf.core.models import Base
from papershelf.errors import LibraryError, UserError
from tests.conftest import SEEDS, run_cli
from tests.crash.harness import downgrade
from tests.postgres_server import PostgresServer, SharedLibrary

# Beyond the samples: an import with macros, a crossref-free month, a DOI, an abstract,
# and two entries that are one paper (merged by the user).
EXTRA_BIB = r"""
@string{icml = "International Conference on Machine Learning"}
@inproceedings{smith2020graphs,
  title = {Graphs of Everything},
  author = {Smith, Ann and Doe, John},
  booktitle = icml # " 2020",
  year = 2020,
  month = jul,
  doi = {10.1000/graphs},
}
@article{lee2021copy,
  title = {Learning to Copy Libraries},
  author = {Lee, Kim and Öztürk, Ayşe},
  journal = {Journal of Copying},
  year = {2021},
  abstract = {We copy libraries row for row, with their naïve umlauts.},
}
@article{lee2021again,
  title = {Learning to copy libraries},
  author = {Lee, K.},
  journal = {J. Copying},
  year = {2021},
  doi = {10.1000/copy},
}
"""
# A process id no process can have (above Linux's largest pid_max).
DEAD_PID = 2**22 + 1


def used_library(path: Path) -> Path:
    """A library file after some use: samples and an import, stars, read states, shared
    and private notes, tags, a merge, renamed keys, a key pattern, a deleted paper."""
    library = Library.open(str(path))
    try:
        library.ensure_sample(SEEDS)
        bib = path.with_name(path.stem + "-extra.bib")
        bib.write_text(EXTRA_BIB, encoding="utf-8")
        library.import_file(bib)
        ids = library.view_ids(View(sort="key"))
        library.set_starred(ids[:5], True)
        library.set_read_state(ids[3:8], "read")
        library.set_read_state(ids[8:10], "reading")
        library.set_notes(ids[0], "Shared *notes*, in Markdown.")
        library.set_private_notes(ids[1], "Only mine.")
        library.add_tags(ids[:6], ["to-read", "graphs"])
        library.remove_tags(ids[:1], ["graphs"])
        copies = [p for p in library.find_duplicates()
                  if {library.rows([p.keep_id])[p.keep_id].key,
                      library.rows([p.other_id])[p.other_id].key}
                  == {"lee2021copy", "lee2021again"}]
        assert copies, "the two Lee entries should look like one paper"
        library.merge_papers(copies[0].keep_id, copies[0].other_id)
        library.set_key(ids[2], "renamed2020")
        library.set_key_pattern("[auth:lower][year]")
        library.regenerate_keys([ids[4]])
        library.delete_papers([ids[12]])  # a gap among the ids
    finally:
        library.close()
    return path


def _utc(value: Any) -> Any:
    """A time as aware UTC (SQLite gives it without its zone), for comparing across
    databases; any other value as it is."""
    if isinstance(value, datetime):
        return (value.replace(tzinfo=timezone.utc) if value.tzinfo is None
                else value.astimezone(timezone.utc))
    return value


def table_rows(target: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table a copy carries (not the change log, not the rows kept
    for other users), all columns, as the column types read them, in a fixed order."""
    engine = db.create_library_engine(db.resolve_target(target))
    try:
        with engine.connect() as conn:
            return {t.name: sorted((tuple(map(_utc, row)) for row in conn.execute(select(t))),
                                   key=repr)
                    for t in Base.metadata.sorted_tables if t.name not in copying.NOT_COPIED}
    finally:
        engine.dispose()


def changes(target: str) -> list[tuple[Any, ...]]:
    """The change log of a library: what each change touched, whose it is, whether it
    was structural."""
    engine = db.create_library_engine(db.resolve_target(target))
    try:
        with engine.connect() as conn:
            log = Base.metadata.tables["changes"]
            return [tuple(row) for row in conn.execute(
                select(log.c.touched, log.c.user_name, log.c.paper_ids, log.c.structural)
                .order_by(log.c.seq))]
    finally:
        engine.dispose()


# What a copy logs in its destination: many papers changed (the windows open on an
# empty shared library read it all again); the source's log is not copied.
COPY_LOGGED = [("papers", None, None, True)]


# Where the user is in a personal row.
USER_AT = list(Base.metadata.tables["personal"].c.keys()).index("user_name")


def as_user(rows: dict[str, list[tuple[Any, ...]]], user: str) -> dict[str, list[Any]]:
    """`rows` with every personal row given to `user`."""
    moved = dict(rows)
    moved["personal"] = sorted(((*r[:USER_AT], user, *r[USER_AT + 1:])
                                for r in rows["personal"]), key=repr)
    return moved


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _leftovers(folder: Path) -> list[str]:
    """Temporary files and logs of copies in `folder`."""
    return sorted(p.name for p in folder.iterdir()
                  if ".tmp" in p.name or p.name.endswith(("-journal",)))


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """A used library file, closed."""
    return used_library(tmp_path / "source.sqlite")


# -- a file into a file ------------------------------------------------------------------


def test_a_copy_holds_every_row_and_leaves_the_source_as_it_was(
        source: Path, tmp_path: Path) -> None:
    before = table_rows(str(source))
    assert before["personal"] and before["paper_tags"] and before["imports"]
    assert any(row for row in before["paper_texts"] if row[-1] is not None)  # bib_extra
    digest = _digest(source)
    dest = tmp_path / "sub" / "copy.sqlite"
    report = copying.copy_library(str(source), str(dest))
    assert _leftovers(dest.parent) == [] and [p.name for p in dest.parent.iterdir()] == [
        "copy.sqlite"]  # one file, whole: no log beside it
    with sqlite3.connect(dest) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert table_rows(str(dest)) == before
    assert _digest(source) == digest
    assert report.rows == {name: len(rows) for name, rows in before.items()}
    assert report.papers == len(before["papers"]) and report.tags == len(before["tags"])
    assert report.personal == len(before["personal"]) and report.notes == 2
    assert changes(str(dest)) == COPY_LOGGED
    assert "copied" in report.summary() and f"{report.papers} papers" in report.summary()


def test_the_copy_is_a_library_to_go_on_with(source: Path, tmp_path: Path) -> None:
    """Searchable (its index rebuilt), the same counts, and new papers and tags get
    ids of their own."""
    dest = tmp_path / "copy.sqlite"
    copying.copy_library(str(source), str(dest))
    original, copy = Library.open(str(source)), Library.open(str(dest))
    try:
        assert copy.counts() == original.counts()
        for query in ("umlauts", "naive", "graphs", "markdown", "copy*"):
            assert copy.view_ids(View(search=query)) == original.view_ids(View(search=query))
        assert copy.view_ids(View(search="umlauts"))
        top = max(copy.view_ids())
        bib = tmp_path / "new.bib"
        bib.write_text("@article{new2024, title = {Brand new}, author = {New, Nora}, "
                       "year = {2024}}\n", encoding="utf-8")
        (added,) = copy.import_file(bib).added_ids
        assert added > top
        copy.add_tags([added], ["fresh"])
        assert "fresh" in copy.tag_names()
    finally:
        original.close()
        copy.close()


def test_a_copy_is_one_moment_of_a_library_being_written(
        source: Path, tmp_path: Path) -> None:
    """Copied while another program is in the middle of a write: the copy holds what was
    committed, and the write goes on."""
    before = table_rows(str(source))
    writer = sqlite3.connect(source, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("DELETE FROM paper_tags")
        copying.copy_library(str(source), str(tmp_path / "copy.sqlite"))
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert table_rows(str(tmp_path / "copy.sqlite")) == before
    assert table_rows(str(source))["paper_tags"] == []


def test_an_existing_destination_is_refused_and_left_alone(
        source: Path, tmp_path: Path) -> None:
    dest = used_library(tmp_path / "other.sqlite")
    digest = _digest(dest)
    with pytest.raises(UserError, match="exists already"):
        copying.copy_library(str(source), str(dest))
    assert _digest(dest) == digest
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(UserError, match="exists already"):
        copying.copy_library(str(source), str(empty))
    assert empty.read_bytes() == b""
    assert _leftovers(tmp_path) == []


FULL = "the disk is full; nothing was changed"


@pytest.mark.parametrize(("failure", "message"), [
    (OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full")),
     FULL),
    (OSError(28, "No space left on device"), "cannot be written (No space left on device)"),
    (RuntimeError("a bug of ours"), None),
])
def test_a_copy_that_fails_midway_leaves_nothing(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        failure: Exception, message: str | None) -> None:
    """No destination and no temporary file, whatever stopped it; an environment error
    is one line for the user, about the file they named; a bug is raised as it is."""
    write = copying._TableCopy.write

    def failing(self: copying._TableCopy, dst: Any, rows: Any) -> None:
        if self.target.name == "paper_texts":
            raise failure
        write(self, dst, rows)

    monkeypatch.setattr(copying._TableCopy, "write", failing)
    folder = tmp_path / "out"
    folder.mkdir()
    dest = folder / "copy.sqlite"
    with pytest.raises(RuntimeError if message is None else LibraryError) as raised:
        copying.copy_library(str(source), str(dest))
    if message is not None:
        assert str(raised.value) == f"{dest}: {message}"
    assert list(folder.iterdir()) == []


def test_what_a_killed_copy_left_is_cleared_by_the_next(source: Path, tmp_path: Path) -> None:
    stale = tmp_path / f".copy.sqlite.{DEAD_PID}.tmp"
    for suffix in ("", "-wal", "-shm"):
        stale.with_name(stale.name + suffix).write_bytes(b"half a library")
    copying.copy_library(str(source), str(tmp_path / "copy.sqlite"))
    assert _leftovers(tmp_path) == []


def test_sources_that_cannot_be_copied(source: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy.sqlite"
    with pytest.raises(UserError, match="no such library file"):
        copying.copy_library(str(tmp_path / "missing.sqlite"), str(dest))
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(UserError, match=r"not a Papershelf library$"):
        copying.copy_library(str(other), str(dest))
    with pytest.raises(UserError, match="onto itself"):
        copying.copy_library(str(source), str(source))
    older = used_library(tmp_path / "older.sqlite")
    downgrade(older, "0006")
    digest = _digest(older)
    with pytest.raises(UserError, match=r"schema \(0006\) is older .* open it once"):
        copying.copy_library(str(older), str(dest))
    assert _digest(older) == digest  # (not upgraded behind the user's back)
    assert not dest.exists() and _leftovers(tmp_path) == []


def test_progress_counts_the_rows(source: Path, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    report = copying.copy_library(str(source), str(tmp_path / "copy.sqlite"),
                                  lambda done, total: seen.append((done, total)))
    total = sum(report.rows.values())
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


# -- the command line ------------------------------------------------------------------


def test_cli_copy_prints_the_counts_and_refuses_a_second_time(
        source: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy.sqlite"
    status, out, err = run_cli("copy", str(source), str(dest))
    assert (status, err) == (0, "")
    rows = table_rows(str(source))
    assert out.startswith(f"copied {source} to {dest}: {len(rows['papers'])} papers, "
                          f"{len(rows['tags'])} tags, 2 notes, "
                          f"{len(rows['personal'])} personal rows (")
    assert out.count("\n") == 1
    digest = _digest(dest)
    status, out, err = run_cli("copy", str(source), str(dest))
    assert (status, out) == (1, "")
    assert err == (f"papershelf: error: {dest}: exists already; name a new file "
                   "(a copy never replaces a library)\n")
    assert _digest(dest) == digest


def test_cli_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli("copy", str(tmp_path / "missing.sqlite"),
                               str(tmp_path / "copy.sqlite"))
    assert (status, out) == (1, "")
    assert err == f"papershelf: error: {tmp_path / 'missing.sqlite'}: no such library file\n"
    status, out, err = run_cli("init-shared", str(tmp_path / "lib.sqlite"))
    assert (status, out) == (1, "") and err.count("\n") == 1
    assert "not a database server's URL" in err
    assert not (tmp_path / "lib.sqlite").exists()
    with pytest.raises(SystemExit) as usage:
        run_cli("copy", str(tmp_path / "only-one.sqlite"))
    assert usage.value.code == 1
    assert capsys.readouterr().err == ("papershelf: error: the following arguments are "
                                       "required: DST (see `papershelf copy --help`)\n")


# -- onto PostgreSQL and back -------------------------------------------------------------


def _pg_counts(server: PostgresServer, database: str) -> dict[str, int]:
    """Rows per table, as the superuser sees them (every user's)."""
    return {t.name: int(server.admin(sql.SQL("SELECT count(*) FROM {}").format(
        sql.Identifier(t.name)), database=database)[0][0])
        for t in Base.metadata.sorted_tables}


@pytest.fixture
def empty_database(pg_server: PostgresServer) -> Iterator[str]:
    """A database without any table: what a server's administrator hands out."""
    name = pg_server.create_database()
    yield name
    pg_server.drop_database(name)


def test_a_file_onto_postgresql_and_back_is_the_same_library(
        source: Path, tmp_path: Path, pg_url: str) -> None:
    rows = table_rows(str(source))
    report = copying.copy_library(str(source), pg_url)
    assert report.rows == {name: len(found) for name, found in rows.items()}
    assert table_rows(pg_url) == as_user(rows, "postgres")
    assert changes(pg_url) == COPY_LOGGED
    back = tmp_path / "back.sqlite"
    copying.copy_library(pg_url, str(back))
    assert table_rows(str(back)) == rows


def test_the_copy_on_postgresql_is_a_library_to_go_on_with(
        source: Path, tmp_path: Path, pg_url: str) -> None:
    """Found by its search as on SQLite; new papers and tags take ids after the copied
    ones (the sequences were moved on)."""
    copying.copy_library(str(source), pg_url)
    original, shared = Library.open(str(source)), Library.open(pg_url)
    try:
        assert shared.counts() == original.counts()
        for query in ("umlauts", "graphs", "markdown", "copy*"):
            assert shared.view_ids(View(search=query)) == original.view_ids(
                View(search=query))
        top = max(shared.view_ids())
        bib = tmp_path / "new.bib"
        bib.write_text("@article{new2024, title = {Brand new}, author = {New, Nora}, "
                       "year = {2024}}\n", encoding="utf-8")
        (added,) = shared.import_file(bib).added_ids
        assert added > top
        shared.add_tags([added], ["fresh"])
        assert "fresh" in shared.tag_names()
    finally:
        original.close()
        shared.close()


def test_into_a_database_without_tables(
        source: Path, pg_server: PostgresServer, empty_database: str) -> None:
    url = pg_server.url(empty_database)
    copying.copy_library(str(source), url)
    assert table_rows(url) == as_user(table_rows(str(source)), "postgres")


def test_a_database_that_holds_anything_is_refused_and_left_alone(
        source: Path, pg_server: PostgresServer, pg_url: str, empty_database: str) -> None:
    copying.copy_library(str(source), pg_url)
    before = table_rows(pg_url)
    with pytest.raises(UserError, match="not empty"):
        copying.copy_library(str(source), pg_url)
    assert table_rows(pg_url) == before
    pg_server.admin("CREATE TABLE recipes (name text)", database=empty_database)
    pg_server.admin("INSERT INTO recipes VALUES ('soup')", database=empty_database)
    with pytest.raises(LibraryError, match="not a Papershelf library"):
        copying.copy_library(str(source), pg_server.url(empty_database))
    assert pg_server.admin("SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
                           database=empty_database) == [("recipes",)]


def test_a_copy_to_postgresql_that_fails_midway_writes_nothing(
        source: Path, pg_server: PostgresServer, pg_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    write = copying._TableCopy.write

    def failing(self: copying._TableCopy, dst: Any, rows: Any) -> None:
        write(self, dst, rows)
        if self.target.name == "paper_texts":
            raise RuntimeError("a bug of ours")

    monkeypatch.setattr(copying._TableCopy, "write", failing)
    with pytest.raises(RuntimeError):
        copying.copy_library(str(source), pg_url)
    assert set(_pg_counts(pg_server, str(make_url(pg_url).database)).values()) == {0}


def test_each_user_copies_their_own_rows(
        source: Path, tmp_path: Path, pg_server: PostgresServer,
        pg_roles: SharedLibrary) -> None:
    """Alice's stars in her file become hers on the server, not Bob's; a copy off the
    server takes only the copier's rows, even for a superuser, whom row-level security
    does not hold."""
    rows = table_rows(str(source))
    with pytest.raises(LibraryError, match="permission denied") as refused:
        copying.copy_library(str(source), pg_roles.alice)  # may not move the sequences
    assert str(refused.value).count("\n") == 0
    assert set(_pg_counts(pg_server, pg_roles.database).values()) == {0}
    pg_server.admin("GRANT UPDATE ON ALL SEQUENCES IN SCHEMA public TO alice",
                    database=pg_roles.database)
    copying.copy_library(str(source), pg_roles.alice)
    assert table_rows(pg_roles.superuser) == as_user(rows, "alice")

    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        starred = alice.view_ids(View(starred=True))
        assert starred and bob.view_ids(View(starred=True)) == []
        bob.set_starred(alice.view_ids()[-2:], True)
        bobs = bob.view_ids(View(starred=True))
    finally:
        alice.close()
        bob.close()

    for who, url, expected in (("alice", pg_roles.alice, starred),
                               ("bob", pg_roles.bob, bobs),
                               ("postgres", pg_roles.superuser, [])):
        copy = tmp_path / f"{who}.sqlite"
        copying.copy_library(url, str(copy))
        mine = Library.open(str(copy))
        try:
            assert mine.view_ids(View(starred=True)) == expected, who
        finally:
            mine.close()
        assert {row[USER_AT] for row in table_rows(str(copy))["personal"]} <= {""}
    assert table_rows(str(tmp_path / "alice.sqlite")) == rows


def test_init_shared_sets_up_an_empty_database_once(
        pg_server: PostgresServer, empty_database: str) -> None:
    url = pg_server.url(empty_database)
    status, out, err = run_cli("init-shared", url)
    assert (status, err) == (0, "")
    assert out == (f"{db.describe(url)}: created an empty Papershelf library (schema "
                   f"{db.SCHEMA_HEAD}); fill it with `papershelf copy LIBRARY "
                   f"{db.describe(url)}`\n")
    library = Library.open(url)
    try:
        assert library.count() == 0 and library.info()["schema"] == db.SCHEMA_HEAD
    finally:
        library.close()
    status, out, err = run_cli("init-shared", url)
    assert (status, out) == (1, "")
    assert err == (f"papershelf: error: {db.describe(url)}: already a Papershelf library "
                   f"(schema {db.SCHEMA_HEAD}); nothing was changed\n")


def test_init_shared_refuses_a_database_with_other_tables(
        pg_server: PostgresServer, empty_database: str) -> None:
    pg_server.admin("CREATE TABLE recipes (name text)", database=empty_database)
    with pytest.raises(LibraryError, match=r"not a Papershelf library \(it has other "
                                           r"tables: recipes\)"):
        copying.init_shared(pg_server.url(empty_database))
    assert pg_server.admin("SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
                           database=empty_database) == [("recipes",)]


def test_init_shared_with_a_group_lets_its_members_in(pg_server: PostgresServer) -> None:
    """`init-shared URL --group lab`: a member of lab who owns nothing opens the library,
    adds papers and stars them; a role outside the group is refused in one line."""
    for role in ("carol", "dave"):
        pg_server.create_role(role, "pw-" + role)
    pg_server.admin("DO $$ BEGIN CREATE ROLE lab NOLOGIN; EXCEPTION WHEN duplicate_object "
                    "THEN NULL; END $$")
    pg_server.admin("GRANT lab TO carol")
    name = pg_server.create_database()
    status, out, err = run_cli("init-shared", pg_server.url(name), "--group", "lab")
    assert status == 0, err
    assert "created an empty Papershelf library" in out and "'lab' may now" in out
    carol = Library.open(pg_server.url(name, "carol", "pw-carol"))
    try:
        carol.ensure_sample(SEEDS)
        carol.set_starred(carol.view_ids()[:1], True)
        assert (carol.count(), carol.counts().starred) == (38, 1)
    finally:
        carol.close()
    status, _, err = run_cli("list", "--library", pg_server.url(name, "dave", "pw-dave"))
    assert status == 1 and "permission denied" in err and err.count("\n") == 1
