"""Normalised titles, for finding duplicates by title.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 21:10:00
"""

from __future__ import annotations

import html
import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# A frozen copy of papershelf.core.library.normalize_text as of this revision, so the
# migration keeps doing what it did even if the library's function changes later.
_TAG_RE = re.compile(r"<[^>]+>")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def _normalize(text: str) -> str:
    text = html.unescape(_TAG_RE.sub(" ", text)).translate(_QUOTES)
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _NON_ALNUM.sub(" ", text).strip()


def upgrade() -> None:
    # A plain ADD COLUMN: rebuilding the table (batch mode) would drop the search triggers.
    op.add_column("papers", sa.Column("title_norm", sa.Text(), nullable=False, server_default=""))
    conn = op.get_bind()
    papers = sa.table("papers", sa.column("id", sa.Integer), sa.column("title", sa.Text),
                      sa.column("title_provisional", sa.Boolean),
                      sa.column("title_norm", sa.Text))
    rows = conn.execute(sa.select(papers.c.id, papers.c.title)
                        .where(papers.c.title_provisional.is_(False))).all()
    if rows:
        conn.execute(
            papers.update().where(papers.c.id == sa.bindparam("pid"))
            .values(title_norm=sa.bindparam("norm")),
            [{"pid": pid, "norm": _normalize(title or "")} for pid, title in rows],
        )
    op.create_index("ix_papers_title_norm", "papers", ["title_norm"])


def downgrade() -> None:
    op.drop_index("ix_papers_title_norm", table_name="papers")
    op.drop_column("papers", "title_norm")
