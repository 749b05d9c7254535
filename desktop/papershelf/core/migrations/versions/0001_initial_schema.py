"""Initial schema: papers, authors, tags, imports, meta and the search index.

Revision ID: 0001
Revises: 
Create Date: 2026-11-29 20:49:16.818087
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op



revision = '0001'
down_revision = None
branch_labels = None
depends_on = None

# The search index as this revision made it (frozen: later revisions replace it).
FTS_V1 = [
    """CREATE VIRTUAL TABLE paper_fts USING fts5(
        title, authors_text, abstract, notes, tags_text,
        content='papers', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2', prefix='2 3')""",
    """CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        INSERT INTO paper_fts(rowid, title, authors_text, abstract, notes, tags_text)
        VALUES (new.id, new.title, new.authors_text, new.abstract, new.notes, new.tags_text);
    END""",
    """CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        INSERT INTO paper_fts(paper_fts, rowid, title, authors_text, abstract, notes, tags_text)
        VALUES ('delete', old.id, old.title, old.authors_text, old.abstract, old.notes,
                old.tags_text);
    END""",
    """CREATE TRIGGER papers_fts_update
        AFTER UPDATE OF title, authors_text, abstract, notes, tags_text ON papers BEGIN
        INSERT INTO paper_fts(paper_fts, rowid, title, authors_text, abstract, notes, tags_text)
        VALUES ('delete', old.id, old.title, old.authors_text, old.abstract, old.notes,
                old.tags_text);
        INSERT INTO paper_fts(rowid, title, authors_text, abstract, notes, tags_text)
        VALUES (new.id, new.title, new.authors_text, new.abstract, new.notes, new.tags_text);
    END""",
]


def upgrade() -> None:
    op.create_table('imports',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('format', sa.String(length=32), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('added', sa.Integer(), nullable=False),
    sa.Column('merged', sa.Integer(), nullable=False),
    sa.Column('failed', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('meta',
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('tags',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=255), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('papers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=255), nullable=False),
    sa.Column('entry_type', sa.String(length=32), nullable=False),
    sa.Column('title', sa.Text(), nullable=False),
    sa.Column('title_provisional', sa.Boolean(), nullable=False),
    sa.Column('authors_text', sa.Text(), nullable=False),
    sa.Column('authors_sort', sa.Text(), nullable=False),
    sa.Column('abstract', sa.Text(), nullable=False),
    sa.Column('abstract_hash', sa.String(length=40), nullable=True),
    sa.Column('venue', sa.Text(), nullable=False),
    sa.Column('year', sa.Integer(), nullable=True),
    sa.Column('volume', sa.Text(), nullable=False),
    sa.Column('pages', sa.Text(), nullable=False),
    sa.Column('publisher', sa.Text(), nullable=False),
    sa.Column('doi', sa.Text(), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('bib_fields', sa.JSON(), nullable=False),
    sa.Column('starred', sa.Boolean(), nullable=False),
    sa.Column('read_state', sa.String(length=16), nullable=False),
    sa.Column('read_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('notes', sa.Text(), nullable=False),
    sa.Column('tags_text', sa.Text(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('modified_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('import_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['import_id'], ['imports.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('papers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_papers_abstract_hash'), ['abstract_hash'], unique=False)
        batch_op.create_index('ix_papers_added_at', ['added_at'], unique=False)
        batch_op.create_index('ix_papers_authors_sort', ['authors_sort'], unique=False)
        batch_op.create_index('ix_papers_doi', ['doi'], unique=False)
        batch_op.create_index(batch_op.f('ix_papers_import_id'), ['import_id'], unique=False)
        batch_op.create_index('ix_papers_read_state', ['read_state'], unique=False)
        batch_op.create_index('ix_papers_starred', ['starred'], unique=False)
        batch_op.create_index('ix_papers_title_lower', [sa.text('lower(title)')], unique=False)
        batch_op.create_index('ix_papers_venue', ['venue'], unique=False)
        batch_op.create_index('ix_papers_year', ['year'], unique=False)

    op.create_table('paper_authors',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('paper_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('family', sa.Text(), nullable=False),
    sa.Column('given', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['paper_id'], ['papers.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('paper_id', 'position', name='uq_paper_authors_position')
    )
    op.create_table('paper_tags',
    sa.Column('paper_id', sa.Integer(), nullable=False),
    sa.Column('tag_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['paper_id'], ['papers.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tag_id'], ['tags.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('paper_id', 'tag_id')
    )
    with op.batch_alter_table('paper_tags', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_paper_tags_tag_id'), ['tag_id'], unique=False)

    if op.get_bind().dialect.name == "sqlite":
        for statement in FTS_V1:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("papers_fts_insert", "papers_fts_delete", "papers_fts_update"):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute("DROP TABLE IF EXISTS paper_fts")
    with op.batch_alter_table('paper_tags', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_paper_tags_tag_id'))

    op.drop_table('paper_tags')
    op.drop_table('paper_authors')
    with op.batch_alter_table('papers', schema=None) as batch_op:
        batch_op.drop_index('ix_papers_year')
        batch_op.drop_index('ix_papers_venue')
        batch_op.drop_index('ix_papers_starred')
        batch_op.drop_index('ix_papers_title_lower')
        batch_op.drop_index('ix_papers_read_state')
        batch_op.drop_index(batch_op.f('ix_papers_import_id'))
        batch_op.drop_index('ix_papers_doi')
        batch_op.drop_index('ix_papers_authors_sort')
        batch_op.drop_index('ix_papers_added_at')
        batch_op.drop_index(batch_op.f('ix_papers_abstract_hash'))

    op.drop_table('papers')
    op.drop_table('tags')
    op.drop_table('meta')
    op.drop_table('imports')
