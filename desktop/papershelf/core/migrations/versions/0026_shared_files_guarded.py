"""The shared files' limit is the library owner's (review item 2): on PostgreSQL the row
`file_size_limit` of `meta`, which bounds every member's uploads and the server's check
of each stored file, is inserted, changed or deleted only by a role with the rights of
the library's owner (pg_members.install_owner_settings); any member could lift it for
everyone before. And a paper's file pointed at another stored content (its `sha256`
changed, in plain SQL: the app never does) is logged as a change of the paper's files,
which every window shows (review item 13); it was silent. Nothing on a file.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07 19:10:00
"""

from __future__ import annotations

from alembic import op

from papershelf.core.store import pg_members

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.install_owner_settings(conn)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.uninstall_owner_settings(conn)
