"""Followed sources and the inbox they feed (papershelf.feeds).

Each row is one member's (`user_name`: the database role on a shared library, '' in a
library file): the sources they follow, the items those brought, what they dismissed.
On PostgreSQL, row-level security keeps every row to its member, for reading and
writing alike (`pg_members.FEED_TABLES`).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from papershelf.core.store import pg_members

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feed_sources",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False, server_default=""),
        sa.Column("spelling", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("etag", sa.Text(), nullable=False, server_default=""),
        sa.Column("last_modified", sa.Text(), nullable=False, server_default=""),
        sa.Column("state", sa.String(16), nullable=False, server_default="new"),
        sa.Column("note", sa.Text(), nullable=False, server_default=""),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("uq_feed_sources_spelling", "feed_sources", ["user_name", "spelling"],
                    unique=True)
    op.create_table(
        "inbox_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False, server_default=""),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("identity", sa.Text(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False, server_default=""),
        sa.Column("title_norm", sa.Text(), nullable=False, server_default=""),
        sa.Column("authors", sa.Text(), nullable=False, server_default=""),
        sa.Column("abstract", sa.Text(), nullable=False, server_default=""),
        sa.Column("url", sa.Text(), nullable=False, server_default=""),
        sa.Column("doi", sa.Text(), nullable=False, server_default=""),
        sa.Column("arxiv_id", sa.String(64), nullable=False, server_default=""),
        sa.Column("venue", sa.Text(), nullable=False, server_default=""),
        sa.Column("published", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.String(16), nullable=False, server_default="new"),
        sa.Column("kept", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("paper_id", sa.Integer(), nullable=True),
        sa.Column("found_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["source_id"], ["feed_sources.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_inbox_items_source_id", "inbox_items", ["source_id"])
    op.create_index("uq_inbox_items_identity", "inbox_items", ["user_name", "identity"],
                    unique=True)
    op.create_table(
        "inbox_dismissed",
        sa.Column("user_name", sa.String(255), nullable=False, server_default=""),
        sa.Column("identity", sa.Text(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False, server_default=""),
        sa.Column("dismissed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_name", "identity"),
    )
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.install_feeds(conn)


def downgrade() -> None:
    op.drop_table("inbox_dismissed")
    op.drop_table("inbox_items")
    op.drop_table("feed_sources")
