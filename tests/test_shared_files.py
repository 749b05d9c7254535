"""A shared library keeps its files' contents (issue 43): alice attaches a PDF, bob, who
does not have it on his computer, opens it from the library (byte for byte, through his
own cache); the server keeps every content as it is (no member changes one, or adds one
whose bytes are not its hash, even with psql), within the library's size limit; the
cache is checked on every open and bounded."""

from __future__ import annotations

import os
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from papershelf.core import files, filestore
from papershelf.core.library import Library
from papershelf.core.live import ChangeFeed
from papershelf.core.shapes import View
from papershelf.core.store.pg_members import FILE_SIZE_DEFAULT
from tests.conftest import SEEDS, run_cli
from tests.pdfs import make_paper
from tests.postgres_server import SharedLibrary, downgrade_shared, plain_sql


@pytest.fixture
def as_member(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Switch to a member's own computer: their data and cache directories."""
    def switch(name: str) -> None:
        for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
            monkeypatch.setenv(var, str(tmp_path / name / var.lower()))
    return switch


@pytest.fixture
def shared(pg_lab: SharedLibrary, as_member: Any, tmp_path: Path
           ) -> Iterator[tuple[Library, Library, int, bytes]]:
    """Alice attached a PDF to a paper (on her computer); bob has an empty one."""
    as_member("alice")
    alice = Library.open(pg_lab.alice)
    bob = Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(SEEDS)
        pid = alice.view_ids(View())[0]
        pdf = make_paper(tmp_path / "in")
        alice.attach_file(pid, pdf)
        yield alice, bob, pid, pdf.read_bytes()
    finally:
        alice.close()
        bob.close()


def _slices_read(library: Library) -> list[str]:
    """The statements reading a content's bytes, from now on."""
    seen: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "substring" in statement:
            seen.append(statement)

    event.listen(library.engine, "before_cursor_execute", before)
    return seen


def test_bob_opens_the_pdf_alice_attached_from_the_library(
        shared: tuple[Library, Library, int, bytes], as_member: Any) -> None:
    alice, bob, pid, content = shared
    assert alice.upload_files() == (1, [])
    assert alice.upload_files() == (0, [])  # (once)
    as_member("bob")
    assert bob.local_pdf(pid) is None  # (not on his computer)
    fetched = _slices_read(bob)
    path = bob.local_path_for(pid)
    assert path is not None and path.read_bytes() == content
    assert path.is_relative_to(Path(os.environ["XDG_CACHE_HOME"]))
    assert len(fetched) == 1
    # Opened again: from the cache, not fetched again.
    inode = path.stat().st_ino
    assert bob.local_path_for(pid) == path and path.stat().st_ino == inode
    assert len(fetched) == 1
    # A damaged cached copy is noticed and fetched again.
    path.write_bytes(b"%PDF-1.7\n" + b"\x00" * len(content))
    again = bob.local_path_for(pid)
    assert again is not None and again.read_bytes() == content
    assert len(fetched) == 2
    # Alice opens her own file, never the library's copy.
    as_member("alice")
    assert alice.local_path_for(pid) == alice.local_pdf(pid)


def test_the_command_line_uploads_and_opens(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary,
        as_member: Any) -> None:
    alice, _bob, pid, content = shared
    status, out, err = run_cli("upload-files", "--library", pg_lab.alice)
    assert (status, out, err) == (0, "1 file uploaded to the shared library\n", "")
    as_member("bob")
    key = alice.rows([pid])[pid].key
    status, out, err = run_cli("open", key, "--pdf", "--print", "--library", pg_lab.bob)
    assert status == 0 and err == ""
    assert Path(out.strip()).read_bytes() == content


def test_no_member_changes_a_content_or_adds_a_false_one(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary) -> None:
    alice, _bob, pid, content = shared
    alice.upload_files()
    (sha256,) = [a.sha256 for a in alice.attachments(pid)]
    with plain_sql(pg_lab.bob) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE file_contents SET content = 'forged'::bytea")
        with pytest.raises(psycopg.errors.CheckViolation, match="do not have this SHA-256"):
            conn.execute("INSERT INTO file_contents (sha256, size, content, added_at) "
                         "VALUES (%s, 6, 'forged'::bytea, now())", (sha256[::-1],))
        with pytest.raises(psycopg.errors.UniqueViolation):  # (its own hash: taken)
            conn.execute("INSERT INTO file_contents (sha256, size, content, added_at) "
                         "VALUES (%s, 1, %s, now())", (sha256, content))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="still attached"):
            conn.execute("DELETE FROM file_contents")
        # A true content nobody attached may come and go.
        conn.execute("INSERT INTO file_contents (sha256, size, content, added_at) VALUES "
                     "(encode(sha256('x'::bytea), 'hex'), 0, 'x'::bytea, now())")
        assert conn.execute("DELETE FROM file_contents WHERE size = 1").rowcount == 1
    # Not even the library's owner changes one.
    with plain_sql(pg_lab.superuser) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="never changed"):
            conn.execute("UPDATE file_contents SET media_type = 'text/plain'")
        assert conn.execute("SELECT content FROM file_contents").fetchall() == [(content,)]


def test_a_file_over_the_size_limit_is_refused_naming_it(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary,
        tmp_path: Path) -> None:
    alice, _bob, _pid, content = shared
    assert 0.07 * 2**20 < len(content) < 0.08 * 2**20
    owner = Library.open(pg_lab.superuser)
    try:
        owner.set_file_size_limit(60_000)
    finally:
        owner.close()
    sent, problems = alice.upload_files()
    assert sent == 0
    assert problems == ["paper.pdf: 0.08 MB, over the shared library's limit of 0.05 MB "
                        "for one file; not uploaded"]
    # The server keeps to the limit too.
    with plain_sql(pg_lab.bob) as conn, pytest.raises(psycopg.errors.CheckViolation,
                                                      match="over the library's limit"):
        conn.execute("INSERT INTO file_contents (sha256, size, content, added_at) "
                     "VALUES (encode(sha256(%s), 'hex'), 0, %s, now())", (content, content))
    status, _out, err = run_cli("upload-files", "--library", pg_lab.alice)
    assert status == 1 and err.count("\n") == 1 and "paper.pdf" in err
    # The library's owner raises the limit: the file goes.
    status, out, err = run_cli("upload-files", "--size-limit", "5", "--library",
                               pg_lab.superuser)
    assert (status, err) == (0, "")
    assert out == ("the library takes files of up to 5 MB\n"
                   "1 file uploaded to the shared library\n")


def test_a_file_the_server_refuses_does_not_stop_the_others(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server refuses a file the client let through (a limit lowered meanwhile, a
    time-out): that file gets its line, and the next one is sent all the same."""
    alice, _bob, pid, _content = shared
    other = next(i for i in alice.view_ids(View()) if i != pid)
    small = tmp_path / "small.pdf"
    small.write_bytes(b"%PDF-1.4\n" + os.urandom(1000))
    alice.attach_file(other, small)
    with plain_sql(pg_lab.superuser) as conn:
        conn.execute("INSERT INTO meta VALUES ('file_size_limit', '60000')")
    monkeypatch.setattr(filestore, "size_limit", lambda _ctx: 10**9)  # (read before)
    sent, problems = alice.upload_files()
    assert sent == 1 and len(problems) == 1
    assert problems[0].startswith("paper.pdf: the shared library refused it (")
    assert "over the library's limit of 60000 bytes" in problems[0]
    assert "\n" not in problems[0] and "INSERT" not in problems[0]
    assert filestore.stored(alice.context, [files.fingerprint(small)[1]])


def test_a_member_pointing_a_paper_at_another_stored_file_is_a_logged_change(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary,
        tmp_path: Path) -> None:
    """Papers and their files are every member's to change; bob changing which stored
    PDF alice's paper opens, even in plain SQL, is a change every window is told of."""
    alice, bob, pid, _content = shared
    other = next(i for i in bob.view_ids(View()) if i != pid)
    own = tmp_path / "bobs.pdf"
    own.write_bytes(b"%PDF-1.4\n" + os.urandom(1000))
    bob.attach_file(other, own)
    bob.upload_files()
    assert filestore.stored(bob.context, [files.fingerprint(own)[1]])
    feed = ChangeFeed(alice)
    try:
        assert feed.poll() == []
        with plain_sql(pg_lab.bob) as conn:
            conn.execute("UPDATE paper_files SET body = 'indexed'")  # (not the file: no)
            conn.execute("UPDATE paper_files SET sha256 = %s WHERE paper_id = %s",
                         (files.fingerprint(own)[1], pid))
        [change] = feed.poll()
    finally:
        feed.close()
    assert (change.ids, change.touched, change.own) == (frozenset({pid}), frozenset({"files"}),
                                                        False)


def test_only_the_owner_sets_the_size_limit(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary) -> None:
    """A member who lifted the limit would lift it for everyone (every client uploads
    and every server takes files up to it): only the library's owner sets it."""
    alice, _bob, _pid, _content = shared
    status, out, err = run_cli("upload-files", "--size-limit", "100000", "--library",
                               pg_lab.alice)
    assert (status, out) == (1, "")
    assert err.count("\n") == 1 and "owner" in err and "Traceback" not in err
    with plain_sql(pg_lab.bob) as conn:
        for statement in (
                "INSERT INTO meta VALUES ('file_size_limit', '999999999999')",
                "INSERT INTO meta VALUES ('file_size_limit', '9') ON CONFLICT (name) "
                "DO UPDATE SET value = '999999999999'",
                "UPDATE meta SET name = 'file_size_limit' WHERE name = 'sample_imported'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="owner"):
                conn.execute(statement)
    owner = Library.open(pg_lab.superuser)
    try:
        owner.set_file_size_limit(7 * 2**20)
    finally:
        owner.close()
    with plain_sql(pg_lab.bob) as conn:
        for statement in ("UPDATE meta SET value = '999999999999' "
                          "WHERE name = 'file_size_limit'",
                          "UPDATE meta SET name = 'bob' WHERE name = 'file_size_limit'",
                          "DELETE FROM meta WHERE name = 'file_size_limit'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        conn.execute("UPDATE meta SET value = value WHERE name = 'sample_imported'")
    assert filestore.size_limit(alice.context) == 7 * 2**20
    # Schema 0025 let him (the downgrade takes the trigger away); upgraded, not again.
    downgrade_shared(pg_lab.superuser, "0025")
    raise_it = "UPDATE meta SET value = '999999999' WHERE name = 'file_size_limit'"
    with plain_sql(pg_lab.bob) as conn:
        assert conn.execute(raise_it).rowcount == 1
    Library.open(pg_lab.superuser).close()
    with plain_sql(pg_lab.bob) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(raise_it)


@pytest.mark.parametrize("value", ["\u00b2", "1" * 19, "12 ", "-5", "\u0663"])
def test_the_client_reads_the_limit_as_the_server_does(
        shared: tuple[Library, Library, int, bytes], pg_lab: SharedLibrary,
        value: str) -> None:
    """A limit that is not 1 to 18 ASCII digits is the default, 100 MB, for the client
    as for the server's check (`^[0-9]{1,18}$`): not an error, nor a bound the server
    does not keep."""
    alice, _bob, _pid, _content = shared
    with plain_sql(pg_lab.superuser) as conn:
        conn.execute("INSERT INTO meta VALUES ('file_size_limit', %s)", (value,))
    assert filestore.size_limit(alice.context) == FILE_SIZE_DEFAULT


def test_uploading_and_fetching_hold_a_slice_of_the_file_not_the_file(
        shared: tuple[Library, Library, int, bytes], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, as_member: Any) -> None:
    alice, bob, _pid, _content = shared
    monkeypatch.setattr(filestore, "SLICE", 64 * 1024)
    small, big = tmp_path / "small.pdf", tmp_path / "big.pdf"
    small.write_bytes(os.urandom(100_000))
    big.write_bytes(os.urandom(12 * 2**20))
    assert filestore.upload(alice.context, small)  # (statements compiled, connected)
    tracemalloc.start()
    try:
        assert filestore.upload(alice.context, big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * 2**20  # (the file's slices, and its hash read in 1 MB: not 3 x 12 MB)
    sha256 = files.fingerprint(big)[1]
    assert filestore.stored(alice.context, [sha256])
    as_member("bob")
    filestore.fetch(bob.context, files.fingerprint(small)[1])
    tracemalloc.start()
    try:
        fetched = filestore.fetch(bob.context, sha256)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * 2**20 and fetched.read_bytes() == big.read_bytes()


def test_the_cache_keeps_within_its_bound_least_recently_opened_first(tmp_path: Path
                                                                       ) -> None:
    for n, name in enumerate(("old", "mid", "new")):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(b"x" * 100)
        os.utime(path, (1000 + n, 1000 + n))
    gone = filestore.evict(tmp_path, 150, keep=tmp_path / "old.pdf")
    assert sorted(p.name for p in gone) == ["mid.pdf", "new.pdf"]
    assert filestore.evict(tmp_path, 150) == []


def test_a_fetch_a_killed_process_left_half_done_is_cleared(tmp_path: Path) -> None:
    """`.fetch-*.part` files (a fetch killed before its rename) go at the next fetch's
    eviction once they are a day old; one being written now stays."""
    stale, fresh = tmp_path / ".fetch-a1b2.part", tmp_path / ".fetch-c3d4.part"
    for path in (stale, fresh):
        path.write_bytes(b"x" * 100)
    old = time.time() - 2 * 24 * 3600
    os.utime(stale, (old, old))
    assert filestore.evict(tmp_path, 10**9) == [stale]
    assert not stale.exists() and fresh.exists()


@pytest.mark.sqlite_only
def test_a_library_file_keeps_no_contents(library: Library, tmp_path: Path) -> None:
    library.ensure_sample(SEEDS)
    pid = library.view_ids(View())[0]
    library.attach_file(pid, make_paper(tmp_path / "in"))
    assert library.upload_files() == (0, [])
    assert library.local_path_for(pid) == library.local_pdf(pid)
    status, _out, err = run_cli("upload-files", "--library", str(library.url))
    assert status != 0 and "nothing to upload" in err
