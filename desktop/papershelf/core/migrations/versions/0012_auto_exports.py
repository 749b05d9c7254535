"""Auto-exports: .bib (or CSL-JSON) files Papershelf keeps current as the library changes.

Each row is one member's (`user_name` as in `saved_searches`: the database role on a
shared library, '' in a library file), since the files are on that member's computer;
paths are unique per member. `what` is the papers written (all, starred, tag:NAME,
saved:NAME), `format` bibtex, biblatex or csljson, and the last refresh's outcome is
kept (`state` new, ok or failed, with its `message`), and the change log's `seq` and
the file's `stamp` (size and mtime) when it was last current. On PostgreSQL, row-level
security shows each member only their own.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 18:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_OWN = "user_name = current_user"


def upgrade() -> None:
    op.create_table(
        "auto_exports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("what", sa.Text(), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("include_abstract", sa.Boolean(), nullable=False),
        sa.Column("include_notes", sa.Boolean(), nullable=False),
        sa.Column("ascii_only", sa.Boolean(), nullable=False),
        sa.Column("include_files", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("stamp", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("uq_auto_exports_path", "auto_exports", ["user_name", "path"],
                    unique=True)
    if op.get_bind().dialect.name == "postgresql":
        for statement in (
                "ALTER TABLE auto_exports ENABLE ROW LEVEL SECURITY",
                "ALTER TABLE auto_exports FORCE ROW LEVEL SECURITY",
                f"CREATE POLICY auto_exports_own ON auto_exports USING ({_OWN}) "
                f"WITH CHECK ({_OWN})"):
            op.execute(statement)


def downgrade() -> None:
    op.drop_table("auto_exports")
