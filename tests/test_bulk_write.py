"""A bulk write (an import, a copy) is one transaction tuned for speed; it still checks
every foreign key, so it never commits a row referring to a paper that is not there, and
a paper it deletes takes its rows with it."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, func, select, text
from sqlalchemy.exc import IntegrityError

from papershelf.core.library import Library
from papershelf.core.models import Paper, PaperText, Personal
from papershelf.errors import LibraryError
from tests.conftest import paper_keys


def _orphans(library: Library) -> list[tuple[object, ...]]:
    with library.engine.connect() as conn:
        return [tuple(row) for row in conn.exec_driver_sql("PRAGMA foreign_key_check")]


@pytest.mark.sqlite_only  # (a server checks every key as it goes)
def test_a_bulk_write_leaving_an_orphan_is_rolled_back_whole(seeded: Library) -> None:
    ctx = seeded.context
    before = paper_keys(seeded)
    with pytest.raises(IntegrityError, match="FOREIGN KEY"), ctx.bulk_write() as session:
        session.execute(text("UPDATE papers SET title = 'changed' WHERE id = 1"))
        session.execute(PaperText.__table__.insert().values(paper_id=10**6, abstract="x"))
    assert _orphans(seeded) == []
    with seeded.context.read() as session:
        assert session.scalar(select(func.count()).where(PaperText.paper_id == 10**6)) == 0
        assert session.scalar(select(Paper.title).where(Paper.id == 1)) != "changed"
    assert paper_keys(seeded) == before


@pytest.mark.sqlite_only
def test_a_paper_deleted_in_a_bulk_write_takes_its_rows_or_stays(seeded: Library) -> None:
    ctx = seeded.context
    seeded.set_starred([1], True)
    try:
        with ctx.bulk_write() as session:
            session.execute(delete(Paper).where(Paper.id == 1))
    except LibraryError:
        pass  # refused: the paper and its rows stay
    assert _orphans(seeded) == []
    with ctx.read() as session:
        paper = session.scalar(select(func.count()).where(Paper.id == 1))
        rows = session.scalar(select(func.count()).where(Personal.paper_id == 1))
        texts = session.scalar(select(func.count()).where(PaperText.paper_id == 1))
    assert (paper, rows, texts) in ((0, 0, 0), (1, 1, 1))


@pytest.mark.sqlite_only
def test_the_foreign_keys_are_checked_during_and_after_a_bulk_write(seeded: Library) -> None:
    with seeded.context.bulk_write() as session:
        assert session.connection().exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with seeded.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
