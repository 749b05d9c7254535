"""Retraction and correction notices (core.retractions).

One table, library-wide: the notices Retraction Watch (as Crossref publishes it) and
Crossref's `update-to`/`updated-by` relations give, matched to papers by DOI and PubMed
id when read. On PostgreSQL it is shared reference data like the papers: every member
reads it and may refresh it (`pg_members.MEMBER_PRIVILEGES`), without row-level security.

Revision ID: 0019
Revises: 0016
Create Date: 2026-12-07 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from papershelf.core.store import pg_members

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("doi_norm", sa.Text(), nullable=False, server_default=""),
        sa.Column("pmid", sa.String(16), nullable=False, server_default=""),
        sa.Column("nature", sa.String(32), nullable=False),
        sa.Column("date", sa.String(10), nullable=False, server_default=""),
        sa.Column("notice_doi", sa.Text(), nullable=False, server_default=""),
        sa.Column("notice_url", sa.Text(), nullable=False, server_default=""),
        sa.Column("reason", sa.Text(), nullable=False, server_default=""),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notices_doi_norm", "notices", ["doi_norm"])
    op.create_index("ix_notices_pmid", "notices", ["pmid"])
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        for role in pg_members.member_roles(conn):
            pg_members.grant_to(conn, role)


def downgrade() -> None:
    op.drop_table("notices")
