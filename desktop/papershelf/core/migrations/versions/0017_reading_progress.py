"""Reading progress: where each member is in each paper's PDF.

Four columns of `personal` (one row per member and paper): the page last read (from 0),
how far down it, the page count, and when. They are the member's own like the rest of
the row: on PostgreSQL the table's row-level security (schema 0007) keeps them so, and
nothing else changes there.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_COLUMNS = (("last_page", sa.Integer()), ("last_position", sa.Float()),
            ("page_count", sa.Integer()), ("last_read_at", sa.DateTime(timezone=True)))


def upgrade() -> None:
    for name, kind in _COLUMNS:
        op.add_column("personal", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    for name, _kind in reversed(_COLUMNS):  # (SQLite 3.35 and later drop columns)
        op.drop_column("personal", name)
