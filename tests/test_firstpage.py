"""The window's first page (core.firstpage): read with sqlite3 before SQLAlchemy is imported,
it must show what the library shows, or step aside."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.core import db, firstpage, firstpage_pg, importing, shapes
from papershelf.core.firstpage_pg import open_first_page
from papershelf.core.library import SORT_COLUMNS, Library, View
from papershelf.core.models import ReadState
from papershelf.core.progress import Position
from tests.conftest import SEEDS
from tests.postgres_server import ROLES, PostgresServer, SharedLibrary

BIB = r"""
@article{zeta, title={{\'E}mile and the Zebra}, author={Zola, {\'E}mile}, year={2021},
  journal={Nature}}
@inproceedings{alpha, title={alpha beta}, author={Able, Ann and Baker, Bob}, year={2024},
  booktitle={ICML}}
@inproceedings{alpha2, title={Alpha Beta}, author={Able, Ann}, year={2024}, booktitle={ICML}}
@misc{nodate, title={A note without a year}, author={Ünal, Özge}}
@book{big, title={Zebras}, author={Zola, Zed}, year={1999}, publisher={Big Press}}
@article{same, title={zebras}, author={Abel, Al}, year={1999}, journal={}}
"""
TAGS = ("to read", "Thesis/Chapter 2", "b", "A", "THESIS/chapter 2")  # (tags match ignoring case)


@pytest.fixture
def varied(library: Library, tmp_path: Path) -> Library:
    """The sample papers and a few with authors, years, venues, accents and ties."""
    library.ensure_sample(SEEDS)
    bib = tmp_path / "varied.bib"
    bib.write_text(BIB, encoding="utf-8")
    library.import_file(bib)
    return library


def test_the_shapes_are_the_cores() -> None:
    assert tuple(s.value for s in ReadState) == shapes.READ_STATES
    assert firstpage.SCHEMA == db.SCHEMA_HEAD, (
        "a new migration: check core.firstpage's queries against it, then bump SCHEMA")
    assert firstpage.SAMPLE_FLAG == importing.SAMPLE_FLAG
    assert set(firstpage._ORDER) == set(SORT_COLUMNS)


views = st.builds(
    View,
    filter=st.sampled_from(shapes.FILTERS),
    tag=st.none() | st.sampled_from(TAGS),
    sort=st.sampled_from(SORT_COLUMNS),
    descending=st.booleans(),
    starred=st.booleans(),
)
edits = st.lists(st.tuples(st.sampled_from(("star", "unstar", "read", "tag", "open")),
                           st.lists(st.integers(0, 43), min_size=1, max_size=8),
                           st.sampled_from((*shapes.READ_STATES, *TAGS))), max_size=4)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=edits, view=views, limit=st.none() | st.integers(1, 60))
def test_the_first_page_is_the_librarys(varied: Library, library_target: str,
                                        changes: list[tuple[str, list[int], str]],
                                        view: View, limit: int | None) -> None:
    everyone = varied.view_ids(View())
    for what, picks, value in changes:
        ids = [everyone[n % len(everyone)] for n in picks]
        if what in ("star", "unstar"):
            varied.set_starred(ids, what == "star")
        elif what == "read" and value in shapes.READ_STATES:
            varied.set_read_state(ids, value)
        elif what == "tag" and value not in shapes.READ_STATES:
            varied.add_tags(ids, [value])
        elif what == "open":  # (read in: a place in its PDF, "Recently read")
            for n, pid in enumerate(ids):
                varied.save_position(pid, Position(n % 4, 0.5, 6 + n % 3))
    page = open_first_page(library_target)
    assert page is not None
    try:
        assert (page.location, page.url, page.shared, page.user_name) == (
            varied.location, varied.url, varied.shared, varied.user_name)
        assert page.size_estimate() == varied.size_estimate()
        assert page.counts() == varied.counts()
        assert page.tag_names() == varied.tag_names()
        assert page.answers(view)
        ids = page.view_ids(view, limit=limit)
        assert ids == varied.view_ids(view, limit=limit)
        assert page.rows(ids) == varied.rows(ids)
    finally:
        page.close()


def test_a_tag_is_matched_ignoring_case_on_the_first_page_too(varied: Library,
                                                             library_target: str) -> None:
    """The sidebar's tag, or one remembered from the last start, shows the same papers on
    the first page as in the library (and as the search's tag: finds)."""
    tagged = varied.view_ids(View())[:3]
    varied.add_tags(tagged, ["To Read"])
    page = open_first_page(library_target)
    assert page is not None
    try:
        for spelled in ("To Read", "to read", "TO READ"):
            view = View(tag=spelled)
            assert sorted(page.view_ids(view)) == sorted(varied.view_ids(view)) == sorted(
                tagged)
    finally:
        page.close()


def test_it_steps_aside_when_it_cannot_answer(tmp_path: Path) -> None:
    # No file yet (the first start makes it and imports the sample), a folder, a URL,
    # not a database at all: the window starts the ordinary way.
    assert open_first_page(str(tmp_path / "new.sqlite")) is None
    assert not (tmp_path / "new.sqlite").exists()  # (it never creates one)
    assert open_first_page(str(tmp_path)) is None
    assert open_first_page("postgresql://someone@127.0.0.1:1/lab") is None  # (no server)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    assert open_first_page(str(junk)) is None

    # A library whose sample is still to come, and one of another schema.
    path = tmp_path / "lib.sqlite"
    Library.open(str(path)).close()
    assert open_first_page(str(path)) is None
    library = Library.open(str(path))
    library.ensure_sample(SEEDS)
    library.close()
    page = open_first_page(str(path))
    assert page is not None
    assert page.answers(View(filter="starred", sort="year"))
    assert not page.answers(View(search="transformer"))  # (a search: the library's job)
    page.close()
    before = path.read_bytes()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.close()
    assert open_first_page(str(path)) is None
    assert path.read_bytes() != before  # (the test's own change only)


def test_it_finds_the_library_as_opening_it_does(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # (the one-window check of a start uses it, before SQLAlchemy is imported)
    monkeypatch.chdir(tmp_path)
    targets = [None, "", "lib.sqlite", str(tmp_path / "x" / ".." / "lib.sqlite"), "~/l.sqlite",
               "postgresql://me@127.0.0.1/lab", "sqlite:///elsewhere.sqlite"]
    for target in targets:
        assert firstpage.library_url(target) == db.resolve_target(target), target
    monkeypatch.setenv("PAPERSHELF_LIBRARY", str(tmp_path / "env.sqlite"))
    assert firstpage.library_url(None) == db.resolve_target(None)
    assert firstpage.library_url(str(tmp_path)) is None  # (a folder: opening it says so)


def test_it_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite"
    library = Library.open(str(path))
    library.ensure_sample(SEEDS)
    library.close()
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in tmp_path.iterdir()}
    page = open_first_page(str(path))
    assert page is not None
    page.rows(page.view_ids(View(sort="title")))
    page.counts()
    page.close()
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in tmp_path.iterdir()
             if p.name in before}
    assert after == before


def test_it_imports_neither_sqlalchemy_nor_the_core() -> None:
    code = ("import sys; import papershelf.core.firstpage, papershelf.core.firstpage_pg; "
            "print(sorted(m for m in sys.modules if m.startswith(('sqlalchemy', 'PySide6', "
            "'psycopg')) or m in ('papershelf.core.library', 'papershelf.core.db')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


# -- a shared library's (core.firstpage_pg) ---------------------------------------------


def test_each_member_sees_their_own_first_page(pg_lab: SharedLibrary) -> None:
    """Stars and read states are each member's (row-level security): the first page
    counts and shows a member's own, as the library opened as that member does."""
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(SEEDS)
        everyone = alice.view_ids(View())
        alice.set_starred(everyone[:3], True)
        alice.set_read_state(everyone[1:4], "read")
        bob.set_starred(everyone[5:6], True)
        bob.set_read_state(everyone[:2], "reading")
        alice.add_tags(everyone[2:7], ["Thesis"])
        for member in (alice, bob):
            page = open_first_page(member.url)
            assert page is not None
            try:
                assert (page.location, page.shared, page.user_name) == (
                    member.location, True, member.user_name)
                assert page.counts() == member.counts()
                for view in (View(starred=True), View(filter="read"), View(filter="unread"),
                             View(filter="reading", sort="title"), View(tag="thesis"),
                             View(sort="starred", descending=True), View(sort="read_state")):
                    ids = page.view_ids(view)
                    assert ids == member.view_ids(view), view
                    assert page.rows(ids) == member.rows(ids)
            finally:
                page.close()
        assert alice.counts() != bob.counts()
    finally:
        alice.close()
        bob.close()


def test_a_shared_first_page_steps_aside(pg_lab: SharedLibrary, pg_server: PostgresServer,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A password needed and not at hand, a wrong one, another schema, another driver:
    the ordinary start (which asks, or says what is wrong)."""
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", "/nonexistent")
    without = pg_lab.alice.replace(f":{ROLES['alice']}@", "@")
    assert without != pg_lab.alice
    assert open_first_page(without) is None
    assert open_first_page(pg_lab.alice.replace(f":{ROLES['alice']}@", ":wrong@")) is None
    assert open_first_page(pg_lab.alice.replace("postgresql://", "postgresql+pg8000://")) is None
    page = open_first_page(pg_lab.alice.replace("postgresql://", "postgresql+psycopg://"))
    assert page is not None
    page.close()
    pg_server.admin("UPDATE alembic_version SET version_num = '9999'", database=pg_lab.database)
    assert open_first_page(pg_lab.alice) is None


@pytest.mark.parametrize("url", [
    "postgresql://me@/lab?host=/run/x%20y&port=5433",
    "postgresql://me:s%40cret@db.example.org:5433/lab",
    "postgres://m%C3%A9:pw@[::1]/the%20lab?sslmode=require&application_name=a+b",
    "postgresql+psycopg://me@host/lab?port=1&host=/tmp&connect_timeout=3",
    "postgresql://me@/lab",
    "postgresql:///lab?host=/tmp",
])
def test_a_shared_librarys_name_is_the_cores(url: str) -> None:
    assert firstpage_pg.describe(url) == db.describe(url)


def test_a_first_page_read_ahead_answers_as_one_read_when_asked(
        pg_lab: SharedLibrary, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in a thread while Qt loads (`read_ahead`, as the window starts), a member's
    first page answers as the library does; a library it cannot read: the ordinary start."""
    alice = Library.open(pg_lab.alice)
    try:
        alice.ensure_sample(SEEDS)
        everyone = alice.view_ids(View())
        alice.set_starred(everyone[:3], True)
        alice.set_read_state(everyone[1:4], "read")
        firstpage_pg.read_ahead(alice.url)
        page = open_first_page(alice.url)
        assert page is not None
        try:
            assert page.size_estimate() == max(everyone)
            assert page.counts() == alice.counts()
            alice.set_starred(everyone[3:5], True)
            assert page.counts() == alice.counts()  # (asked again: read again)
            for view in (View(), View(filter="read"), View(starred=True, sort="title")):
                ids = page.view_ids(view)
                assert ids == alice.view_ids(view), view
                assert page.rows(ids) == alice.rows(ids)
        finally:
            page.close()
        alice.add_tags(everyone[:2], ["Thesis"])
        monkeypatch.setattr(firstpage_pg, "COUNTED_BEFORE_SHOWN", 1)  # (a big library)
        firstpage_pg.read_ahead(alice.url)
        page = open_first_page(alice.url)
        assert page is not None
        try:
            assert page.tag_names() == alice.tag_names() == ["Thesis"]
            assert page.counts() == alice.counts()
        finally:
            page.close()
        wrong = alice.url.replace(f":{ROLES['alice']}@", ":wrong@")
        firstpage_pg.read_ahead(wrong)
        assert open_first_page(wrong) is None
    finally:
        alice.close()
