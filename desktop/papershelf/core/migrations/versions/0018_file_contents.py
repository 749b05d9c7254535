"""File contents in the library: the bytes of attached files, once per distinct content.

A shared library's members do not share a disk: a PDF one of them attached is on their
computer only. `file_contents` keeps each distinct content once, by its SHA-256 (the
`sha256` of `paper_files`), so every member can open every paper (core.filestore). On
PostgreSQL the server checks each row for everyone (pg_members.CONTENT_TRIGGERS): its
bytes have its hash and are within the library's size limit, it is never changed, and it
is deleted only when no paper's file is it. A library file keeps the table empty.
This revision also mends schema 0015's `papershelf_annotations_gone`, which lost the
annotations of a paper merged into one that was gone.

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-07 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from papershelf.core.store import pg_members

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

def upgrade() -> None:
    op.create_table(
        "file_contents",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("media_type", sa.String(100), nullable=False,
                  server_default="application/pdf"),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sha256"),
    )
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        # (PDFs are compressed already: stored as they are, a slice is read without
        # the rest, core.filestore.fetch)
        op.execute("ALTER TABLE file_contents ALTER COLUMN content SET STORAGE EXTERNAL")
        pg_members.install_file_contents(conn)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.uninstall_file_contents(conn)
    op.drop_table("file_contents")
