"""A followed source's name (issue 44): what the member calls it, kept in the library
with the source (`feed_sources.name`, '' for its spelling) rather than in one window's
settings, so `papershelf follow list` and every window show it. On PostgreSQL the row
stays its member's alone: the table's row-level security (pg_members.FEED_TABLES)
covers the new column as it does the others.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07 18:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("feed_sources",
                  sa.Column("name", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("feed_sources") as batch:
        batch.drop_column("name")
