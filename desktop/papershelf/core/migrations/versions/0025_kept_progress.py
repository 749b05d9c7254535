"""A member's reading progress kept with their other rows of a deleted paper: when
another member of a shared library deletes (or merges away) a paper, the members' place
in its PDF moves to `personal_kept` with their star and notes, and comes back with the
undo; a merge gives the paper kept the place read last. Before, only the star, read
state and notes were kept and the place was lost. Nothing changes on a file but the
table's four new columns (its one user's progress travels in the undo).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07 19:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from papershelf.core.store import pg_members

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

_COLUMNS = (("last_page", sa.Integer()), ("last_position", sa.Float()),
            ("page_count", sa.Integer()), ("last_read_at", sa.DateTime(timezone=True)))
_FUNCTIONS = ("papershelf_personal_gone", "papershelf_papers_back")


def upgrade() -> None:
    for name, kind in _COLUMNS:
        op.add_column("personal_kept", sa.Column(name, kind, nullable=True))
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        for function in _FUNCTIONS:
            pg_members.replace_function(conn, function)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        for function in _FUNCTIONS:
            pg_members.replace_function(conn, function, pg_members.PERSONAL_0022[function])
    for name, _kind in reversed(_COLUMNS):
        op.drop_column("personal_kept", name)
