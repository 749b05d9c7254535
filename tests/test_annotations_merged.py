"""No annotation is lost when papers are merged on a shared library (issue 43, the
`papershelf_annotations_gone` trigger): a merge whose paper to keep is gone (deleted by
another member first, or while the merge runs) keeps the folded paper's annotations in
`annotations_kept`, where they wait for the paper to come back, as a deletion's do."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from papershelf.core.annotating import New
from papershelf.core.library import Library
from papershelf.core.shapes import View
from tests.postgres_server import SharedLibrary, plain_sql


def _annotated(pg_lab: SharedLibrary) -> tuple[int, int]:
    """Two papers; alice's shared and private annotations on the first."""
    alice = Library.open(pg_lab.alice)
    try:
        alice.ensure_sample(Path("seeds"))
        merge_from, merge_into = alice.view_ids(View())[:2]
        alice.add_annotation(merge_from, New("note", 0, "", [(1, 1, 1, 1)],
                                             comment="shared words", shared=True))
        alice.add_annotation(merge_from, New("note", 0, "", [(1, 1, 1, 1)],
                                             comment="private words"))
    finally:
        alice.close()
    return merge_from, merge_into


def _kept(pg_lab: SharedLibrary) -> list[tuple[int, str]]:
    """Every kept annotation (as the library's owner, who sees all), by comment."""
    with plain_sql(pg_lab.superuser) as conn:
        return sorted(conn.execute("SELECT paper_id, comment FROM annotations_kept")
                      .fetchall(), key=lambda row: row[1])


def test_a_merge_into_a_paper_deleted_first_keeps_the_annotations(
        pg_lab: SharedLibrary) -> None:
    merge_from, merge_into = _annotated(pg_lab)
    with plain_sql(pg_lab.bob) as conn:
        conn.execute(f"DELETE FROM papers WHERE id = {merge_into}")
    # Bob's merge, as the store runs it (with psql): the paper to keep is already gone.
    with plain_sql(pg_lab.bob, autocommit=False) as conn:
        conn.execute(f"SELECT set_config('papershelf.merge_from', '{merge_from}', true), "
                     f"set_config('papershelf.merge_into', '{merge_into}', true)")
        conn.execute(f"DELETE FROM papers WHERE id = {merge_from}")
        conn.commit()
    assert _kept(pg_lab) == [(merge_from, "private words"), (merge_from, "shared words")]


def test_a_merge_moving_an_annotation_the_kept_paper_has_keeps_it(
        pg_lab: SharedLibrary) -> None:
    """An annotation that cannot move (the kept paper has one from the same source, the
    same PDF's annotation imported twice) is kept rather than dropped."""
    merge_from, merge_into = _annotated(pg_lab)
    with plain_sql(pg_lab.alice) as conn:
        conn.execute(f"UPDATE annotations SET source_id = 'pdf-1' "
                     f"WHERE paper_id = {merge_from} AND comment = 'private words'")
        conn.execute("INSERT INTO annotations (paper_id, user_name, page_index, kind, "
                     "rects, comment, source_id, created_at, modified_at) VALUES "
                     f"({merge_into}, 'alice', 0, 'note', '[]', 'imported', 'pdf-1', "
                     "now(), now())")
    with plain_sql(pg_lab.bob, autocommit=False) as conn:
        conn.execute(f"SELECT set_config('papershelf.merge_from', '{merge_from}', true), "
                     f"set_config('papershelf.merge_into', '{merge_into}', true)")
        conn.execute(f"DELETE FROM papers WHERE id = {merge_from}")
        conn.commit()
    assert _kept(pg_lab) == [(merge_from, "private words")]
    with plain_sql(pg_lab.alice) as conn:
        assert sorted(conn.execute(f"SELECT comment FROM annotations WHERE paper_id = "
                                   f"{merge_into}").fetchall()) == [
            ("imported",), ("shared words",)]


def test_a_merge_into_a_paper_deleted_meanwhile_keeps_the_annotations(
        pg_lab: SharedLibrary) -> None:
    """Alice deletes the paper to keep while bob's merge runs: the merge waits for her,
    then keeps the annotations (before, it failed with a foreign-key error, or, had her
    deletion committed a moment earlier, lost them)."""
    merge_from, merge_into = _annotated(pg_lab)
    with plain_sql(pg_lab.alice, autocommit=False) as alice, \
            plain_sql(pg_lab.bob, autocommit=False) as bob, \
            plain_sql(pg_lab.superuser) as watcher:
        alice.execute(f"DELETE FROM papers WHERE id = {merge_into}")  # (not committed)
        bob.execute(f"SELECT set_config('papershelf.merge_from', '{merge_from}', true), "
                    f"set_config('papershelf.merge_into', '{merge_into}', true)")
        bob_pid = bob.info.backend_pid
        merged: list[BaseException | None] = []

        def merge() -> None:
            try:
                bob.execute(f"DELETE FROM papers WHERE id = {merge_from}")
                bob.commit()
                merged.append(None)
            except BaseException as exc:  # (handed to the test)
                merged.append(exc)

        worker = threading.Thread(target=merge)
        worker.start()
        deadline = time.monotonic() + 20
        while not watcher.execute("SELECT cardinality(pg_blocking_pids(%s)) > 0",
                                  (bob_pid,)).fetchone()[0]:  # type: ignore[index]
            assert time.monotonic() < deadline and not merged, "bob's merge never waited"
        alice.commit()
        worker.join(20)
    assert merged == [None]
    assert _kept(pg_lab) == [(merge_from, "private words"), (merge_from, "shared words")]
