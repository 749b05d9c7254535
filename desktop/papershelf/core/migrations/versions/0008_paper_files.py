"""Files attached to papers, and their text in search.

`paper_files` holds a paper's attached PDFs (a path relative to the library's folder for
a copied file, an absolute one for a linked file; size, SHA-256, when) and the text read
from each for search. The text has an index of its own (an FTS5 table on SQLite, a GIN
index on PostgreSQL, core.search.install_files), so the papers' index is not rebuilt:
on a library of a million papers the upgrade takes no longer than on an empty one.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from papershelf.core import search

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paper_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_paper_files_paper_id", "paper_files", ["paper_id"])
    search.install_files(op.get_bind())


def downgrade() -> None:
    search.uninstall_files(op.get_bind())
    op.drop_index("ix_paper_files_paper_id", "paper_files")
    op.drop_table("paper_files")
