"""How an imported entry was written, beyond its field values.

`paper_texts.bib_extra` (JSON, NULL for most papers) keeps the BibTeX expressions of
fields that used `@string` macros or `#` (`month = jul`), the macro definitions they
use, the fields inherited from a crossref parent and the `@preamble`s the entry needs,
so that an export writes the entry back as it was read. DOIs are looked up ignoring
case on import (`ix_papers_doi_lower`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 23:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("paper_texts", sa.Column("bib_extra", sa.JSON(), nullable=True))
    op.create_index("ix_papers_doi_lower", "papers", [sa.text("lower(doi)")])


def downgrade() -> None:
    op.drop_index("ix_papers_doi_lower", "papers")
    op.drop_column("paper_texts", "bib_extra")  # (SQLite 3.35 and newer)
