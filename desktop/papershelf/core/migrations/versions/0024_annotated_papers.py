"""An `ann:` search finds its papers without reading the annotations' rows (issue 43:
p95 <= 50 ms over 100,000 annotations; a prefix held by 16,000 of them took 60 ms on a
file and 264 ms on PostgreSQL).

On PostgreSQL, schema 0020's `papershelf_annotations_holding(tsquery)` gave the ids of
the annotations holding the words, which the search read again by id (row-level
security filtering each row): `papershelf_annotated_papers(tsquery)` replaces it and
gives the ids of their papers, each once, what the search needs. It runs as the
library's owner as the old one did, takes the caller from the session (never an
argument), gives a role that may not read `annotations` nothing, and only the library's
members may call it (`pg_members.MEMBER_FUNCTIONS`: EXECUTE granted to the roles the
tables are, taken from PUBLIC). On a file, an index of each annotation's paper and owner
by its id, which the FTS5 table's hits are looked up in.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07 18:40:00
"""

from __future__ import annotations

from alembic import op

from papershelf.core import search
from papershelf.core.store import pg_members

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    search.install_annotation_hits(conn)
    if conn.dialect.name == "postgresql":
        for role in pg_members.member_roles(conn):
            pg_members.grant_to(conn, role)


def downgrade() -> None:
    search.uninstall_annotation_hits(op.get_bind())  # (0020's function as it was)
