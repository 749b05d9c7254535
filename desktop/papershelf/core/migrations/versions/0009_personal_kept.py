"""Other members' stars, read states and private notes outlive a paper's deletion.

On a shared library a paper deleted (or merged into another) by one member took every
member's personal rows with it (the foreign key cascades), and the deleting member's
undo could only bring back their own: row-level security hides the others' rows from
them. Now, on PostgreSQL, three functions that run as the library's owner (SECURITY
DEFINER) do what a member cannot: keep the other members' rows of papers about to be
deleted in `personal_kept`, fold them onto the paper a duplicate is merged into, and
bring them back when an undo restores the paper. The owner reads past row-level
security to do so (the table is no longer FORCEd for it; the owner could always turn
row security off). A library file has one user, whose rows travel in the undo itself:
there the table stays empty.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 06:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_COLUMNS = "paper_id, user_name, starred, read_state, read_at, private_notes"
_STATE_RANK = "array_position(ARRAY['unread', 'reading', 'read']::text[], {}::text)"
_FUNCTIONS = {
    "papershelf_keep_personal(ids integer[], invoker text)": f"""
        INSERT INTO personal_kept ({_COLUMNS}, kept_at)
        SELECT {_COLUMNS}, now() FROM personal
        WHERE paper_id = ANY(ids) AND user_name <> invoker
        ON CONFLICT (paper_id, user_name) DO UPDATE SET
            starred = EXCLUDED.starred, read_state = EXCLUDED.read_state,
            read_at = EXCLUDED.read_at, private_notes = EXCLUDED.private_notes,
            kept_at = EXCLUDED.kept_at""",
    "papershelf_fold_personal(from_id integer, into_id integer, invoker text)": f"""
        INSERT INTO personal AS p ({_COLUMNS})
        SELECT into_id, user_name, starred, read_state, read_at, private_notes
        FROM personal
        WHERE paper_id = from_id AND user_name <> invoker
          AND EXISTS (SELECT 1 FROM papers WHERE id = into_id)
        ON CONFLICT (paper_id, user_name) DO UPDATE SET
            starred = p.starred OR EXCLUDED.starred,
            read_state = CASE WHEN {_STATE_RANK.format("EXCLUDED.read_state")}
                                   > {_STATE_RANK.format("p.read_state")}
                              THEN EXCLUDED.read_state ELSE p.read_state END,
            read_at = CASE WHEN {_STATE_RANK.format("EXCLUDED.read_state")}
                                > {_STATE_RANK.format("p.read_state")}
                           THEN EXCLUDED.read_at ELSE p.read_at END,
            private_notes = CASE
                WHEN btrim(EXCLUDED.private_notes, E' \\t\\r\\n') = ''
                     OR EXCLUDED.private_notes = p.private_notes THEN p.private_notes
                ELSE btrim(rtrim(p.private_notes, E' \\t\\r\\n') || E'\\n\\n'
                           || EXCLUDED.private_notes, E' \\t\\r\\n') END""",
    "papershelf_bring_back_personal(ids integer[])": f"""
        WITH back AS (
            DELETE FROM personal_kept k
            WHERE k.paper_id = ANY(ids) AND EXISTS (SELECT 1 FROM papers WHERE id = k.paper_id)
            RETURNING {_COLUMNS})
        INSERT INTO personal ({_COLUMNS}) SELECT {_COLUMNS} FROM back
        ON CONFLICT (paper_id, user_name) DO NOTHING""",
}


def upgrade() -> None:
    conn = op.get_bind()
    op.create_table(
        "personal_kept",
        sa.Column("paper_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_name", sa.String(255), nullable=False),
        sa.Column("starred", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("read_state", sa.String(16), nullable=False, server_default="unread"),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("private_notes", sa.Text(), nullable=False, server_default=""),
        sa.Column("kept_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("paper_id", "user_name"),
    )
    if conn.dialect.name != "postgresql":
        return
    schema = conn.dialect.identifier_preparer.quote(str(conn.scalar(sa.text(
        "SELECT current_schema()"))))
    for statement in (
            "ALTER TABLE personal NO FORCE ROW LEVEL SECURITY",
            # Each member sees their own kept rows only; the owner's functions see all.
            "ALTER TABLE personal_kept ENABLE ROW LEVEL SECURITY",
            "CREATE POLICY personal_kept_own ON personal_kept "
            "USING (user_name = current_user) WITH CHECK (user_name = current_user)"):
        op.execute(statement)
    for signature, body in _FUNCTIONS.items():
        op.execute(f"CREATE FUNCTION {signature} RETURNS void LANGUAGE sql "
                   f"SECURITY DEFINER SET search_path = pg_catalog, {schema} "
                   f"AS $fn${body}$fn$")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for signature in _FUNCTIONS:
            op.execute(f"DROP FUNCTION IF EXISTS {signature}")
        op.execute("ALTER TABLE personal FORCE ROW LEVEL SECURITY")
    op.drop_table("personal_kept")
