"""Saved searches: a query of the search language under a name, in the sidebar.

Each row is one member's (`user_name`: the database role on a shared library, '' in a
library file), or every member's when `shared`; names are unique per member, ignoring
case. On PostgreSQL, row-level security shows a member their own and the shared ones,
and lets them change only those (as core.saved does on any database).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 13:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_VISIBLE = "user_name = current_user OR shared"


def upgrade() -> None:
    op.create_table(
        "saved_searches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("uq_saved_searches_name", "saved_searches",
                    ["user_name", sa.text("lower(name)")], unique=True)
    if op.get_bind().dialect.name == "postgresql":
        for statement in (
                "ALTER TABLE saved_searches ENABLE ROW LEVEL SECURITY",
                "ALTER TABLE saved_searches FORCE ROW LEVEL SECURITY",
                f"CREATE POLICY saved_searches_visible ON saved_searches USING ({_VISIBLE}) "
                f"WITH CHECK ({_VISIBLE})"):
            op.execute(statement)


def downgrade() -> None:
    op.drop_table("saved_searches")
