"""Live updates of a shared library (core.live): the change log read after each
notification, catch-up after a lost connection, personal changes kept to their user.

Run on the test session's own PostgreSQL server (tests.postgres_server); the waits are
on the listening socket (`select`), never sleeps.
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert

from papershelf.core.library import NOTES, PAPERS, STARRED, TAGS, Library
from papershelf.core.live import MAX_DELAY, ChangeFeed, RemoteChange
from papershelf.core.models import ChangeLog, utcnow
from papershelf.formats.records import PaperRecord, ReadResult
from tests.postgres_server import PostgresServer, SharedLibrary

WAIT_SECONDS = 5.0


def add_papers(library: Library, n: int = 3) -> list[int]:
    """Import `n` small papers; their ids."""
    report = library.import_result(
        ReadResult(records=[PaperRecord(title=f"Shared paper {k}", year=2024)
                            for k in range(n)]), "test", "bibtex")
    return sorted(report.added_ids)


def wait_for(feed: ChangeFeed, done: Callable[[list[RemoteChange]], bool]
             ) -> list[RemoteChange]:
    """Drain `feed` each time its socket is readable until `done(everything so far)`."""
    seen: list[RemoteChange] = []
    deadline = time.monotonic() + WAIT_SECONDS
    while not done(seen):
        left = deadline - time.monotonic()
        fileno = feed.fileno()
        assert fileno is not None, "the feed stopped listening"
        assert left > 0, f"no notification in {WAIT_SECONDS} s; got {seen}"
        readable, _, _ = select.select([fileno], [], [], left)
        if readable:
            seen.extend(feed.drain())
    return seen


@pytest.fixture
def opened() -> Iterator[Callable[[str], Library]]:
    """Open libraries by URL; all are closed at the end."""
    libraries: list[Library] = []

    def open_(url: str) -> Library:
        libraries.append(Library.open(url))
        return libraries[-1]

    yield open_
    for library in libraries:
        library.close()


@pytest.fixture
def feeds() -> Iterator[Callable[[Library], ChangeFeed]]:
    """Make change feeds; each stops listening at the end."""
    made: list[ChangeFeed] = []

    def make(library: Library) -> ChangeFeed:
        made.append(ChangeFeed(library))
        return made[-1]

    yield make
    for feed in made:
        feed.close()


def test_a_star_in_one_library_reaches_the_others_feed(
        pg_roles: SharedLibrary, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    here, there = opened(pg_roles.alice), opened(pg_roles.alice)
    ids = add_papers(here)
    feed, own_feed = feeds(there), feeds(here)
    assert feed.listen() == []  # (the import was before the feed opened)
    assert feed.connected and feed.fileno() is not None
    own_feed.listen()

    here.set_starred(ids[:1], True)
    changes = wait_for(feed, bool)
    assert [(c.ids, c.touched, c.structural, c.own) for c in changes] == [
        (frozenset(ids[:1]), frozenset({STARRED}), False, False)]
    assert feed.drain() == []  # nothing more arrived: nothing to read
    assert there.rows(ids[:1])[ids[0]].starred
    # The library that wrote it hears of it too, as its own change.
    assert [(c.seq, c.own) for c in wait_for(own_feed, bool)] == [(changes[0].seq, True)]


def test_the_feed_starts_at_the_newest_change(
        pg_roles: SharedLibrary, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    library = opened(pg_roles.alice)
    ids = add_papers(library)
    library.add_tags(ids, ["old"])
    feed = feeds(library)
    assert feed.last_seq > 0
    assert feed.poll() == []
    library.add_tags(ids[:1], ["new"])
    [change] = feed.poll()
    assert change.seq == feed.last_seq and change.touched == {TAGS}


def test_a_lost_connection_catches_up_on_every_change_in_order(
        pg_server: PostgresServer, pg_roles: SharedLibrary,
        opened: Callable[[str], Library], feeds: Callable[[Library], ChangeFeed]) -> None:
    here, there = opened(pg_roles.alice), opened(pg_roles.alice)
    ids = add_papers(here)
    feed = feeds(there)
    feed.listen()

    # The server cuts the listening connection (as a restart or a dead network would).
    cut = pg_server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = 'papershelf-live'")
    assert cut == [(True,)]
    deadline = time.monotonic() + WAIT_SECONDS
    while (fileno := feed.fileno()) is not None:  # (first the server's goodbye, then EOF)
        readable, _, _ = select.select([fileno], [], [], deadline - time.monotonic())
        assert readable  # a broken connection wakes the socket notifier too
        assert feed.drain() == []
    assert not feed.connected

    here.set_starred([ids[0]], True)
    here.add_tags(ids[1:], ["missed"])
    here.set_notes(ids[2], "written while the window was away")
    caught_up = feed.reconnect()
    assert caught_up is not None and feed.connected
    assert [(c.ids, c.touched) for c in caught_up] == [
        (frozenset({ids[0]}), {STARRED}), (frozenset(ids[1:]), {TAGS}),
        (frozenset({ids[2]}), {NOTES})]
    assert [c.seq for c in caught_up] == sorted(c.seq for c in caught_up)

    here.set_starred([ids[1]], True)  # and it listens again
    assert [c.ids for c in wait_for(feed, bool)] == [frozenset({ids[1]})]


def test_a_closed_listener_catches_up_when_it_reconnects(
        pg_roles: SharedLibrary, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    here, there = opened(pg_roles.bob), opened(pg_roles.bob)
    feed = feeds(there)
    feed.listen()
    feed.close()  # the laptop went to sleep
    ids = add_papers(here, 2)
    here.delete_papers(ids[:1])
    caught_up = feed.reconnect()
    assert caught_up is not None
    assert [(c.ids, c.structural, PAPERS in c.touched) for c in caught_up] == [
        (frozenset(ids), True, True), (frozenset(ids[:1]), True, True)]


def test_a_personal_change_is_seen_by_its_user_only(
        pg_roles: SharedLibrary, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    alice, alice_elsewhere, bob = (opened(pg_roles.alice), opened(pg_roles.alice),
                                   opened(pg_roles.bob))
    ids = add_papers(alice)
    bobs, alices = feeds(bob), feeds(alice_elsewhere)
    bobs.listen()
    alices.listen()

    alice.set_starred(ids[:1], True)  # hers alone
    alice.add_tags(ids[1:2], ["everyone's"])  # the shared paper's tags
    tag_change = (frozenset(ids[1:2]), frozenset({TAGS}))
    seen_by_bob = wait_for(bobs, lambda seen: bool(seen))
    assert [(c.ids, c.touched) for c in seen_by_bob] == [tag_change]
    seen_by_alice = wait_for(alices, lambda seen: len(seen) >= 2)
    assert [(c.ids, c.touched) for c in seen_by_alice] == [
        (frozenset(ids[:1]), frozenset({STARRED})), tag_change]
    assert not bob.rows(ids[:1])[ids[0]].starred


def test_a_change_committed_after_a_later_one_is_not_missed(
        pg_url: str, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    feed = feeds(opened(pg_url))
    engine = create_engine(pg_url)
    row = {"at": utcnow(), "touched": TAGS, "structural": False}
    try:
        with engine.connect() as slow, engine.connect() as quick:
            slow.execute(insert(ChangeLog).values(paper_ids=[1], **row))  # seq n, open
            quick.execute(insert(ChangeLog).values(paper_ids=[2], **row))  # seq n + 1
            quick.commit()
            assert [c.ids for c in feed.poll()] == [frozenset({2})]
            slow.commit()
        assert [c.ids for c in feed.poll()] == [frozenset({1})]
        assert feed.poll() == []
    finally:
        engine.dispose()


def test_reconnection_backs_off_from_one_to_thirty_seconds(
        pg_server: PostgresServer, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    name = pg_server.create_database()
    library = opened(pg_server.url(name))
    feed = feeds(library)
    feed.listen()
    assert feed.retry_delay == 1
    library.close()
    pg_server.drop_database(name)  # gone: every attempt fails
    delays = []
    for _attempt in range(7):
        assert feed.reconnect() is None
        assert not feed.connected
        delays.append(feed.retry_delay)
    assert delays == [2, 4, 8, 16, MAX_DELAY, MAX_DELAY, MAX_DELAY]


def test_on_sqlite_the_log_is_read_and_there_is_nothing_to_listen_to(
        tmp_path: Path, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    library = opened(str(tmp_path / "single.sqlite"))
    feed = feeds(library)
    assert feed.listen() == [] and feed.fileno() is None and not feed.connected
    ids = add_papers(library, 2)
    library.set_starred(ids, True)
    added, starred = feed.poll()
    assert (added.ids, added.structural, PAPERS in added.touched) == (frozenset(ids), True, True)
    assert (starred.ids, starred.touched) == (frozenset(ids), {STARRED})


def test_catching_up_on_many_changes_merges_them() -> None:
    changes = [RemoteChange(1, frozenset({1}), frozenset({STARRED}), False),
               RemoteChange(2, frozenset({2, 3}), frozenset({TAGS}), False),
               RemoteChange(3, None, frozenset({PAPERS}), True)]
    assert RemoteChange.merged(changes[:2]) == RemoteChange(
        2, frozenset({1, 2, 3}), frozenset({STARRED, TAGS}), False)
    assert RemoteChange.merged(changes) == RemoteChange(
        3, None, frozenset({STARRED, TAGS, PAPERS}), True)
    assert RemoteChange.merged([]) is None


def test_a_window_away_longer_than_the_log_keeps_rereads_everything(
        library: Library, feeds: Callable[[Library], ChangeFeed],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The log keeps a month. A feed asleep meanwhile (its changes pruned away) gets one
    change naming everything; a feed that was up to date goes on change by change."""
    from datetime import timedelta

    from sqlalchemy import select as sql_select
    from sqlalchemy import update

    from papershelf.core import context

    ids = add_papers(library, 3)
    asleep, awake = feeds(library), feeds(library)
    library.set_starred(ids[:1], True)
    assert len(asleep.poll()) == 1
    library.add_tags(ids, ["old"])
    library.set_starred(ids[1:2], True)
    assert len(awake.poll()) == 3
    with library.engine.begin() as conn:  # all of that was six weeks ago
        conn.execute(update(ChangeLog).values(at=utcnow() - timedelta(days=42)))
    monkeypatch.setattr(context, "PRUNE_EVERY", 1)
    library.set_starred(ids[2:3], True)  # today's change prunes the old ones
    with library.engine.connect() as conn:
        assert conn.execute(sql_select(ChangeLog.touched)).scalars().all() == [STARRED]
    (everything,) = asleep.poll()
    assert (everything.ids, everything.structural, PAPERS in everything.touched) == (
        None, True, True)
    (star,) = awake.poll()
    assert (star.ids, star.touched) == (frozenset(ids[2:3]), {STARRED})
    assert asleep.poll() == [] and awake.poll() == []


def test_a_library_file_says_when_another_program_committed_to_it(
        tmp_path: Path, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    """SQLite notifies no one: `committed()` tells (its data version), cheaply enough to
    ask often; the log then says what, and which changes the library itself wrote."""
    path = str(tmp_path / "shared #1 100%.sqlite")  # (a name that is no URI as it is)
    here, there = opened(path), opened(path)
    ids = add_papers(here, 2)
    feed = feeds(here)
    assert feed.path == path
    assert not feed.committed() and feed.poll() == []

    there.set_starred(ids[:1], True)  # another program's write
    assert feed.committed()
    assert not feed.committed()  # (asked again: nothing new)
    assert [(c.ids, c.touched, c.own) for c in feed.poll()] == [
        (frozenset(ids[:1]), frozenset({STARRED}), False)]

    here.set_notes(ids[1], "the feed's own library wrote this")
    assert feed.committed()
    assert [(c.ids, c.touched, c.own) for c in feed.poll()] == [
        (frozenset(ids[1:]), frozenset({NOTES}), True)]

    started = time.perf_counter()
    for _ in range(1000):
        feed.committed()
    assert time.perf_counter() - started < 0.2  # (measured: about 5 µs each)

    feed.close()  # (closed: what it may have missed meanwhile is read again)
    there.add_tags(ids, ["while closed"])
    assert feed.committed()
    assert [(c.touched, c.own) for c in feed.poll()] == [(frozenset({TAGS}), False)]


def test_a_write_that_rolled_back_is_not_taken_for_the_librarys_own(
        tmp_path: Path, opened: Callable[[str], Library],
        feeds: Callable[[Library], ChangeFeed]) -> None:
    """SQLite gives a rolled-back seq to the next write, another program's too: that one
    must not be taken for the library's own (and hidden from its window)."""
    path = str(tmp_path / "shared.sqlite")
    here, there = opened(path), opened(path)
    ids = add_papers(here, 2)
    feed = feeds(here)
    ctx = here._ctx  # (a write of the library's that fails after logging itself)
    with pytest.raises(RuntimeError), ctx.write() as session:
        ctx.log(session, {STARRED}, ids)
        raise RuntimeError("the write failed")
    assert not feed.committed()
    there.set_starred(ids, True)
    assert [(c.touched, c.own) for c in feed.poll()] == [(frozenset({STARRED}), False)]
