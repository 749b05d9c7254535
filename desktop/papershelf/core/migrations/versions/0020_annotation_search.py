"""The annotations' words indexed (issue 43): plain words and `ann:` find papers through
their annotations without reading every annotation.

On SQLite an external-content FTS5 table over each annotation's quote and comment, kept
by triggers; on PostgreSQL a GIN index on their tsvector (the papers' text search
configuration), which row-level security still filters. Search then matches annotations
with the papers' own FTS5 and tsquery terms (core.search.annotated).

On PostgreSQL too, the annotations kept for a deleted paper come back only with that
paper (an undo or redo of its deletion, `pg_members.RESTORING`): a new paper later given
its id got them before.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07 16:10:00
"""

from __future__ import annotations

from alembic import op

from papershelf.core import search
from papershelf.core.store import pg_members

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


# Schema 0015's function: kept annotations came back to any paper given their id.
_BACK_0015 = """
BEGIN
    IF EXISTS (SELECT 1 FROM {s}.annotations_kept) THEN
        WITH back AS (
            DELETE FROM {s}.annotations_kept k USING papershelf_new n
            WHERE k.paper_id = n.id
            RETURNING k.id, k.paper_id, k.user_name, k.shared, k.file_sha256,
                k.page_index, k.page_label, k.kind, k.color, k.rects, k.quote, k.comment,
                k.search_text, k.image, k.origin, k.source_id, k.created_at, k.modified_at)
        INSERT INTO {s}.annotations (id, paper_id, user_name, shared, file_sha256,
            page_index, page_label, kind, color, rects, quote, comment, search_text, image,
            origin, source_id, created_at, modified_at)
        SELECT * FROM back
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END"""


def upgrade() -> None:
    conn = op.get_bind()
    search.install_annotations(conn)
    if conn.dialect.name == "postgresql":
        pg_members.replace_function(conn, "papershelf_annotations_back")


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.replace_function(conn, "papershelf_annotations_back", _BACK_0015)
    search.uninstall_annotations(conn)
