"""Titles and abstracts written in LaTeX match their readable form.

An import finds the paper it already has by its normalised title (`title_norm`) and its
abstract's fingerprint (`abstract_hash`). RIS exports write text, not TeX (`$\\ell_0$`
as ℓ₀), so `core.ingest.normalize_text` now reads LaTeX as a reader sees it before
normalising; the papers whose title or abstract holds LaTeX (a backslash or a dollar)
get both again, or importing them again would add them a second time.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 10:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from papershelf.core.ingest import abstract_hash, normalize_text

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_BATCH = 2000


def upgrade() -> None:
    conn = op.get_bind()
    papers = sa.table("papers", sa.column("id", sa.Integer), sa.column("title", sa.Text),
                      sa.column("title_provisional", sa.Boolean),
                      sa.column("title_norm", sa.Text), sa.column("abstract_hash", sa.String))
    texts = sa.table("paper_texts", sa.column("paper_id", sa.Integer),
                     sa.column("abstract", sa.Text))

    def latex(column: sa.ColumnClause[str]) -> sa.ColumnElement[bool]:
        return sa.or_(column.contains("\\", autoescape=True), column.contains("$"))

    rows = conn.execute(
        sa.select(papers.c.id, papers.c.title, papers.c.title_provisional, texts.c.abstract)
        .select_from(papers.outerjoin(texts, texts.c.paper_id == papers.c.id))
        .where(sa.or_(latex(papers.c.title), latex(texts.c.abstract)))).all()
    changed = [{"pid": pid, "norm": "" if provisional else normalize_text(title or ""),
                "hash": abstract_hash(abstract or "")}
               for pid, title, provisional, abstract in rows]
    update = (papers.update().where(papers.c.id == sa.bindparam("pid"))
              .values(title_norm=sa.bindparam("norm"), abstract_hash=sa.bindparam("hash")))
    for start in range(0, len(changed), _BATCH):
        conn.execute(update, changed[start:start + _BATCH])


def downgrade() -> None:
    pass  # (the old values matched less: nothing to undo)
