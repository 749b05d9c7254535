"""Search index that bulk imports can fill in batches afterwards.

A table of pending id ranges; the triggers skip papers in them and
`Library.index_pending` indexes them later, off the user's way. The index is
rebuilt from the papers table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29 21:30:00
"""

from __future__ import annotations

from alembic import op

from papershelf.core import search

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    search.uninstall(conn)
    search.install(conn)
    search.rebuild(conn)


def downgrade() -> None:
    """The index without deferral answers the same queries; nothing to undo."""
