"""The sidebar's saved-search counts follow each change by reading only the papers it
names (core.tally), and always agree with counting again; on both databases."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection

from papershelf.core import tally as tally_module
from papershelf.core.library import Library
from papershelf.core.store import GenericStore, PostgresStore, SQLiteStore

QUERIES = {
    "Learning": "learning",
    "Graphs or networks": "graph OR network*",
    "Starred unread": "is:starred is:unread",
    "Tagged theory": 'tag:theory -"neural network"',
    "By Doe": "au:doe",
    "Recent": "year:>=2023",
    "Read with notes": "is:read has:notes",
    "Prefix title": "title:optim*",
    "In a PDF": "pdf:lemma",
    "Provisional": "is:provisional",
}


def _counts(library: Library, shown: list[tuple[object, int]]) -> dict[str, int]:
    return {search.name: count for search, count in shown}  # type: ignore[attr-defined]


def _exact(library: Library) -> dict[str, int]:
    counts = library.saved_counts()
    return {s.name: counts[s.id] for s in library.saved_searches()}


def test_counts_follow_every_kind_of_change(seeded: Library, tmp_path: Path) -> None:
    for name, query in QUERIES.items():
        seeded.add_saved_search(name, query)
    tally = seeded.saved_tally()
    assert _counts(seeded, tally.count_all()) == _exact(seeded)
    ids = seeded.view_ids()
    pdf = tmp_path / "proof.pdf"
    pdf.write_bytes(b"%PDF-1.4 proof")
    steps = [
        lambda: seeded.set_starred(ids[:3], True),
        lambda: seeded.set_read_state(ids[1:4], "read"),
        lambda: seeded.add_tags(ids[2:6], ["theory"]),
        lambda: seeded.set_fields(ids[0], {"title": "Optimal learning of graphs",
                                           "author": "Doe, Jane", "year": "2024"}),
        lambda: seeded.set_notes(ids[2], "a neural network, again"),
        lambda: seeded.set_fields(ids[5], {"abstract": "Nothing to see."}),
        lambda: seeded.attach_file(ids[7], pdf),
        lambda: seeded.set_file_texts({seeded.attachments(ids[7])[0].id: "a lemma"}),
        lambda: seeded.remove_tags(ids[3:4], ["theory"]),
        lambda: seeded.set_starred(ids[1:2], False),
        lambda: seeded.delete_papers(ids[2:3]),
    ]
    for step in steps:
        change = step()
        followed = tally.follow(sorted(change.ids))
        assert followed is not None
        assert _counts(seeded, followed) == _exact(seeded)
        if change.undo is not None:  # and back
            undone = change.undo()
            followed = tally.follow(sorted(undone.ids))
            assert followed is not None and _counts(seeded, followed) == _exact(seeded)
            redone = undone.undo() if undone.undo is not None else None
            if redone is not None:
                followed = tally.follow(sorted(redone.ids))
                assert followed is not None and _counts(seeded, followed) == _exact(seeded)


def test_a_new_or_edited_saved_search_is_counted_in_full(seeded: Library) -> None:
    seeded.add_saved_search("Learning", "learning")
    tally = seeded.saved_tally()
    tally.count_all()
    seeded.add_saved_search("Graphs", "graph")
    ids = seeded.view_ids()[:1]
    assert tally.follow(ids) is None  # (it cannot know what "Graphs" finds)
    assert _counts(seeded, tally.count_all()) == _exact(seeded)
    [learning, _graphs] = seeded.saved_searches()
    seeded.edit_saved_search(learning.id, "graph OR learning")
    assert tally.follow(ids) is None
    many = seeded.view_ids() * 20
    assert tally.follow(many) is None  # (too many papers to read one by one)


def test_a_change_made_while_counting_is_not_lost(seeded: Library, monkeypatch) -> None:
    """A star committed (and followed) while the full count reads the papers, after it
    read them: the new counts include it."""
    seeded.add_saved_search("Starred", "is:starred")
    tally = seeded.saved_tally()
    tally.count_all()
    matching = tally_module.Tally._matching
    pid = seeded.view_ids()[0]

    def stale(self, text):  # type: ignore[no-untyped-def]
        found = matching(self, text)  # (read before the star)
        change = seeded.set_starred([pid], True)
        tally.follow(sorted(change.ids))
        return found

    monkeypatch.setattr(tally_module.Tally, "_matching", stale)
    assert _counts(seeded, tally.count_all()) == {"Starred": 1}
    monkeypatch.setattr(tally_module.Tally, "_matching", matching)
    assert _exact(seeded) == {"Starred": 1}


class Endless:
    """Every store's `ids` made to run a statement that never ends unless interrupted (a
    count of an endless sequence on SQLite, an hour's sleep on PostgreSQL), until
    `release`d (a test that fails must not hang)."""

    SLEEP = "SELECT pg_sleep(3600)"

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._sent = threading.Event()
        self._released = threading.Event()
        self._engines: list[Any] = []
        for store in (GenericStore, SQLiteStore, PostgresStore):
            monkeypatch.setattr(store, "ids", self._ids)

    def _ids(self, conn: Connection, _query: Any) -> list[int]:
        if conn.dialect.name == "sqlite":
            conn.connection.driver_connection.create_function(  # type: ignore[union-attr]
                "going", 0, lambda: self._sent.set() or not self._released.is_set())
            conn.exec_driver_sql("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                                 "SELECT x + 1 FROM c WHERE going()) SELECT count(*) FROM c")
        else:
            self._engines.append(conn.engine)
            self._sent.set()
            conn.exec_driver_sql(self.SLEEP)
        return []

    def _server(self, statement: str) -> int:
        with self._engines[0].connect() as conn:
            return int(conn.exec_driver_sql(
                f"SELECT count({statement}) FROM pg_stat_activity "
                f"WHERE state = 'active' AND query = '{self.SLEEP}'").scalar() or 0)

    def running(self) -> bool:
        """Whether such a statement runs now (on a server: begun there, not only sent)."""
        return self._sent.is_set() and (not self._engines or self._server("*") > 0)

    def release(self) -> None:
        """End every such statement (and any later one) by itself."""
        self._released.set()
        if self._engines:
            self._server("pg_cancel_backend(pid)")


def test_a_count_under_way_stops_at_once(seeded: Library,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the window stops the full count of a big library's saved searches: the
    statement under way is interrupted (it would run for an hour), and no other
    search is counted after it."""
    for name, query in list(QUERIES.items())[:3]:
        seeded.add_saved_search(name, query)
    tally = seeded.saved_tally()
    endless = Endless(monkeypatch)
    heard: list[list[tuple[Any, int | None]]] = []
    result: list[object] = []
    counting = threading.Thread(target=lambda: result.append(tally.count_all(heard.append)))
    counting.start()
    try:
        while not endless.running():
            counting.join(0.05)
        tally.stop()
        counting.join(60)
        assert not counting.is_alive() and result == [None]
    finally:
        endless.release()
        counting.join()
    # Told of the searches before the first count, never of a count.
    assert [[(s.name, n) for s, n in shown] for shown in heard] == [
        [(name, None) for name in list(QUERIES)[:3]]]
    assert tally.count_all() is None  # (stopped for good)
    # The interrupted statement's connection went back to the pool, and reads again.
    assert set(_exact(seeded)) == set(list(QUERIES)[:3])


def test_the_searches_are_heard_before_each_count(seeded: Library) -> None:
    """What the sidebar shows while a big library is counted: every search at once,
    then each count as it is known."""
    for name, query in list(QUERIES.items())[:3]:
        seeded.add_saved_search(name, query)
    exact = _exact(seeded)
    heard: list[list[tuple[str, int | None]]] = []

    def counted(shown: list[tuple[Any, int | None]]) -> None:
        heard.append([(s.name, n) for s, n in shown])

    assert _counts(seeded, seeded.saved_tally().count_all(counted) or []) == exact
    names = list(QUERIES)[:3]
    assert heard == [[(name, exact[name] if i < known else None)
                      for i, name in enumerate(names)] for known in range(3)]
