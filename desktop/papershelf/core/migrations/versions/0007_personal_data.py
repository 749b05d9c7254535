"""Each user's own data apart from the shared paper; a change log; versions.

A shared library has many users, each with their own stars, read states and private
notes: those move from `papers` to `personal` (one row per user and paper, only where
the user set something; no row means unstarred, unread, no private notes). On SQLite
the one user is `''` and keeps every star and read state. `papers.notes` stays: the
notes everyone shares. `papers.version` grows with each edit, so a write can tell that
someone else changed the paper since it was read. `changes` logs each committed write
for the other open windows. On PostgreSQL, row-level security keeps each role to its
own personal rows (even in plain SQL), and a trigger notifies listeners of each change.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

NOTIFY_CHANNEL = "papershelf_changes"

_POSTGRES_UP = [
    "ALTER TABLE personal ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE personal FORCE ROW LEVEL SECURITY",
    "CREATE POLICY personal_own ON personal USING (user_name = current_user) "
    "WITH CHECK (user_name = current_user)",
    "ALTER TABLE changes ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE changes FORCE ROW LEVEL SECURITY",
    "CREATE POLICY changes_visible ON changes "
    "USING (user_name IS NULL OR user_name = current_user) "
    "WITH CHECK (user_name IS NULL OR user_name = current_user)",
    "CREATE FUNCTION papershelf_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$ "
    f"BEGIN PERFORM pg_notify('{NOTIFY_CHANNEL}', NEW.seq::text); RETURN NULL; END $$",
    "CREATE TRIGGER changes_notify AFTER INSERT ON changes "
    "FOR EACH ROW EXECUTE FUNCTION papershelf_notify_change()",
]
_POSTGRES_DOWN = [
    "DROP TRIGGER IF EXISTS changes_notify ON changes",
    "DROP FUNCTION IF EXISTS papershelf_notify_change()",
]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        "personal",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False),
        sa.Column("starred", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("read_state", sa.String(16), nullable=False, server_default="unread"),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("private_notes", sa.Text(), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id", "user_name"),
        sqlite_with_rowid=False,
    )
    user = "current_user" if dialect == "postgresql" else "''"
    op.execute(
        "INSERT INTO personal (user_name, paper_id, starred, read_state, read_at) "
        f"SELECT {user}, id, starred, read_state, read_at FROM papers "
        "WHERE starred OR read_state != 'unread' OR read_at IS NOT NULL")
    op.drop_index("ix_papers_starred", "papers")
    op.drop_index("ix_papers_read_state", "papers")
    for name in ("starred", "read_state", "read_at"):
        op.drop_column("papers", name)  # (SQLite 3.35 and newer: no table rebuild)
    op.add_column("papers", sa.Column("version", sa.Integer(), nullable=False,
                                      server_default="1"))
    op.create_table(
        "changes",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_name", sa.String(255), nullable=True),
        sa.Column("touched", sa.Text(), nullable=False),
        sa.Column("paper_ids", sa.JSON(), nullable=True),
        sa.Column("structural", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
    )
    if dialect == "postgresql":
        for statement in _POSTGRES_UP:
            op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        for statement in _POSTGRES_DOWN:
            op.execute(statement)
    op.drop_table("changes")
    op.drop_column("papers", "version")
    op.add_column("papers", sa.Column("starred", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.add_column("papers", sa.Column("read_state", sa.String(16), nullable=False,
                                      server_default="unread"))
    op.add_column("papers", sa.Column("read_at", sa.DateTime(timezone=True), nullable=True))
    user = "current_user" if dialect == "postgresql" else "''"
    mine = f"FROM personal WHERE personal.paper_id = papers.id AND user_name = {user}"
    op.execute(
        f"UPDATE papers SET starred = (SELECT starred {mine}), "
        f"read_state = (SELECT read_state {mine}), read_at = (SELECT read_at {mine}) "
        f"WHERE EXISTS (SELECT 1 {mine})")
    op.create_index("ix_papers_starred", "papers", ["starred"])
    op.create_index("ix_papers_read_state", "papers", ["read_state"])
    op.drop_table("personal")
