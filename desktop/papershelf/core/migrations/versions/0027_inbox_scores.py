"""The inbox's ranking kept with its items, and its identities indexed (issue 44).

Each item keeps the score and reason the member's ranking model gave it, and that
model's version (`ranked_by`: what it learnt from, feeds.learning.stamp; '' when not
ranked yet), so that a listing after a restart reads the ranking back instead of
ranking every item again (85,000 items: minutes). The member's items are looked up by
DOI, arXiv id and normalised title when a source's papers are checked against the inbox:
an index each; and listing the inbox reads each item's state, id, kept flag and source
from an index of its own, not from the items' pages (their abstracts: 100 MB at 85,000).

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07 18:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

_INDEXES = {"ix_inbox_items_doi": ["doi"], "ix_inbox_items_arxiv_id": ["arxiv_id"],
            "ix_inbox_items_title_norm": ["title_norm"],
            # (listing the inbox reads these of each item: from the index alone)
            "ix_inbox_items_listing": ["state", "id", "kept", "source_id"]}


def upgrade() -> None:
    op.add_column("inbox_items", sa.Column("score", sa.Float(), nullable=True))
    op.add_column("inbox_items", sa.Column("reason", sa.Text(), nullable=False,
                                           server_default=""))
    op.add_column("inbox_items", sa.Column("ranked_by", sa.String(64), nullable=False,
                                           server_default=""))
    for name, columns in _INDEXES.items():
        op.create_index(name, "inbox_items", ["user_name", *columns])


def downgrade() -> None:
    for name in _INDEXES:
        op.drop_index(name, table_name="inbox_items")
    with op.batch_alter_table("inbox_items") as batch:
        batch.drop_column("ranked_by")
        batch.drop_column("reason")
        batch.drop_column("score")
