"""Annotations: highlights, notes and rectangles on a paper's PDF, kept in the library.

Each row is one member's (`user_name`: the database role on a shared library, '' in a
library file), and the other members see it only when it is `shared`. On PostgreSQL,
row-level security says so: a member reads their own and the shared ones, and writes
only their own (as for saved searches).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 12:00:00
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from papershelf.core.store import pg_members

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def _columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False, server_default=""),
        sa.Column("shared", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("file_sha256", sa.String(64), nullable=False, server_default=""),
        sa.Column("page_index", sa.Integer(), nullable=False),
        sa.Column("page_label", sa.String(64), nullable=False, server_default=""),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("color", sa.String(16), nullable=False, server_default="#ffd400"),
        sa.Column("rects", sa.JSON(), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False, server_default=""),
        sa.Column("comment", sa.Text(), nullable=False, server_default=""),
        sa.Column("search_text", sa.Text(), nullable=False, server_default=""),
        sa.Column("image", sa.LargeBinary(), nullable=True),
        sa.Column("origin", sa.String(8), nullable=False, server_default="app"),
        sa.Column("source_id", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "annotations", *_columns(),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_annotations_paper_id", "annotations", ["paper_id"])
    op.create_index("uq_annotations_source", "annotations",
                    ["paper_id", "user_name", "source_id"], unique=True)
    # Other members' annotations of a paper someone deleted, until it comes back (a
    # shared library's triggers keep them; a library file's stays empty, as personal_kept).
    op.create_table(
        "annotations_kept", *_columns(),
        sa.Column("kept_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_annotations_kept_paper_id", "annotations_kept", ["paper_id"])
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.install_annotations(conn)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.uninstall_annotations(conn)
    op.drop_table("annotations_kept")
    op.drop_table("annotations")
