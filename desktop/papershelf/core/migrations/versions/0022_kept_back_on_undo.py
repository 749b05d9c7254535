"""The members' stars, read states and private notes kept for a deleted paper of a
shared library (`personal_kept`) come back only with that paper, as its annotations do
since schema 0020: the undo or redo of its deletion names it (`pg_members.RESTORING`),
and a new paper later given its id (an import, a member's plain INSERT) gets none of
them; before, it got the other members' stars and notes of the deleted paper. The undo
of a merge names the merge and itself (it replaces the paper the merge kept), so what
the other members had on both papers comes back: their annotations too, which before
stayed kept. The annotations' trigger reads the deletions named as the personal rows'
does (`pg_members._kept_back`). Nothing on a file.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07 18:45:00
"""

from __future__ import annotations

from alembic import op

from papershelf.core.store import pg_members

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

# Schema 0013's: the kept rows came back to any paper given their id.
_PERSONAL_BACK_0013 = """
BEGIN
    IF EXISTS (SELECT 1 FROM {s}.personal_kept) THEN
        WITH back AS (
            DELETE FROM {s}.personal_kept k USING papershelf_new n
            WHERE k.paper_id = n.id
            RETURNING k.paper_id, user_name, starred, read_state, read_at, private_notes)
        INSERT INTO {s}.personal (paper_id, user_name, starred, read_state, read_at,
            private_notes)
        SELECT * FROM back
        ON CONFLICT (paper_id, user_name) DO NOTHING;
    END IF;
    RETURN NULL;
END"""

def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.replace_function(conn, "papershelf_papers_back",
                                    pg_members.PERSONAL_0022["papershelf_papers_back"])
        pg_members.replace_function(conn, "papershelf_annotations_back")


def downgrade() -> None:
    """The annotations' trigger stays: it reads schema 0020's one deletion as it did."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.replace_function(conn, "papershelf_papers_back", _PERSONAL_BACK_0013)
