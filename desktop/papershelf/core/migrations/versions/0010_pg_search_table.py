"""PostgreSQL searches a narrow table of each paper's words, walked in id order.

Schemas 0005-0009 searched a shared library through GIN indexes on tsvector
expressions of the fat `papers` and `paper_texts` rows: every match was read from their
heaps, and the words of a phrase or weighted term computed again for each. A common
word in a library of a million papers (300,000 matches) took seconds before its first
page. Now `paper_search` holds one narrow row a paper (its id, and its title, authors
and abstract as a stored tsvector kept out of line) with a GIN index, kept by triggers;
the first page of a search walks its key in id order and stops when the page is full,
or goes through the GIN index for a rarer word. Shared notes and tags, which bulk edits
change, have an expression index of their own on `papers`. A bulk import leaves its
papers' rows to be made afterwards in batches (`fts_pending`), as on SQLite.

A library file keeps its FTS5 index: this revision changes nothing there.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 21:00:00
"""

from __future__ import annotations

from alembic import op

from papershelf.core import search

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        search.pg_install_table(conn)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        search.pg_uninstall_table(conn)
