"""Search index that bulk imports can fill in batches afterwards.

A table of pending id ranges; the triggers skip papers in them and
`Library.index_pending` indexes them later, off the user's way. The index is
rebuilt from the papers table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29 21:30:00
"""

from __future__ import annotations

from alembic import op


revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


_COLUMNS = "title, authors_text, abstract, notes, tags_text"
_NEW = "new.id, new.title, new.authors_text, new.abstract, new.notes, new.tags_text"
_OLD = "old.id, old.title, old.authors_text, old.abstract, old.notes, old.tags_text"
_NOT_PENDING = "NOT EXISTS (SELECT 1 FROM fts_pending WHERE {row}.id BETWEEN lo AND hi)"


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for name in ("papers_fts_insert", "papers_fts_delete", "papers_fts_update"):
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE IF EXISTS paper_fts")
    op.execute("CREATE TABLE fts_pending (lo INTEGER NOT NULL, hi INTEGER NOT NULL)")
    op.execute(f"""CREATE VIRTUAL TABLE paper_fts USING fts5(
        {_COLUMNS}, content='papers', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""")
    op.execute(f"""CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers
        WHEN {_NOT_PENDING.format(row="new")} BEGIN
        INSERT INTO paper_fts(rowid, {_COLUMNS}) VALUES ({_NEW});
    END""")
    op.execute(f"""CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers
        WHEN {_NOT_PENDING.format(row="old")} BEGIN
        INSERT INTO paper_fts(paper_fts, rowid, {_COLUMNS}) VALUES ('delete', {_OLD});
    END""")
    op.execute(f"""CREATE TRIGGER papers_fts_update AFTER UPDATE OF {_COLUMNS} ON papers
        WHEN {_NOT_PENDING.format(row="old")} BEGIN
        INSERT INTO paper_fts(paper_fts, rowid, {_COLUMNS}) VALUES ('delete', {_OLD});
        INSERT INTO paper_fts(rowid, {_COLUMNS}) VALUES ({_NEW});
    END""")
    op.execute("INSERT INTO paper_fts(paper_fts) VALUES ('rebuild')")


def downgrade() -> None:
    """The index without deferral answers the same queries; nothing to undo."""
