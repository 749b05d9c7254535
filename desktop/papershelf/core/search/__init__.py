"""Full-text search: what a user's query means, and the databases' own indexes.

A user's query is forgiving: words, "quoted phrases" and prefix* are understood;
operators and stray punctuation are dropped, so no input raises (`parse_query`).

A library searches through its store's `SearchIndex` (core.store). SQLite's is
`FTS5Index`: a contentless FTS5 index kept in sync by triggers on `papers` and
`paper_texts` (the indexed text: title, authors_text, abstract, notes, tags_text),
which a bulk import may leave to be filled in batches afterwards. PostgreSQL's is
`PostgresSearch`: a narrow table of each paper's words as a stored tsvector with a GIN
index, kept by triggers, which a search walks in id order to its first page (schema
0010; before it, two GIN indexes on tsvector expressions), and a bulk import may leave
to be filled in batches afterwards too. Other databases use the generic store's LIKE
search. `install`, `uninstall`, `rebuild` and `pg_install_table` are the migrations'
entry points and run for any database, so they alone look at the dialect.

The text of the files attached to papers (paper_files.body) is searched too, from an
index of its own (`install_files`: an FTS5 table kept by triggers, a GIN index), so
that adding it took no rebuild of the papers' index: a term of a query matches a
paper when its fields or its files' text hold it.
"""

from __future__ import annotations

from types import ModuleType

from sqlalchemy import Connection

from papershelf.core.search import fts5, pg_schema
from papershelf.core.search.fts5 import (
    ANNOTATIONS_FTS_TABLE,
    FILES_FTS_TABLE,
    FTS_TABLE,
    FTS5Index,
    expanded_query,
)
from papershelf.core.search.pg_schema import (
    PG_ANNOTATED_PAPERS,
    PG_ANNOTATIONS_HOLDING,
    PG_ANNOTATIONS_INDEX,
    PG_CONFIG,
    PG_FILES_INDEX,
    PG_NOTES_INDEX,
    PG_PAPERS_INDEX,
    PG_SEARCH_INDEX,
    PG_SEARCH_TABLE,
    PG_TEXTS_INDEX,
    pg_install_table,
    pg_search_document,
    pg_uninstall_table,
)
from papershelf.core.search.postgres import PostgresSearch, pg_tsquery
from papershelf.core.search.terms import (
    INDEXED_COLUMNS,
    PENDING_TABLE,
    ImmediateIndex,
    SearchIndex,
    Term,
    parse_query,
)


def _on_backend(conn: Connection, step: str) -> None:
    """Run `step` of the search module of this connection's database (none for the
    generic store's LIKE search, which needs no index)."""
    backend: ModuleType | None = {"sqlite": fts5, "postgresql": pg_schema}.get(
        conn.dialect.name)
    if backend is not None:
        getattr(backend, step)(conn)


def install(conn: Connection) -> None:
    """Create the search index for this connection's dialect (called by migration 0005:
    on PostgreSQL, that schema's expression indexes)."""
    _on_backend(conn, "install")


def uninstall(conn: Connection) -> None:
    """Drop what `install` created (the migration's downgrade)."""
    _on_backend(conn, "uninstall")


def rebuild(conn: Connection) -> None:
    """Re-derive the whole index from the papers table (after bulk loads or repair)."""
    _on_backend(conn, "rebuild")


def install_files(conn: Connection) -> None:
    """Create the index of the attached files' text (called by a migration, once
    paper_files exists)."""
    _on_backend(conn, "install_files")


def uninstall_files(conn: Connection) -> None:
    """Drop what `install_files` created (the migration's downgrade)."""
    _on_backend(conn, "uninstall_files")


def install_annotations(conn: Connection) -> None:
    """Create the index of the annotations' words (migration 0020)."""
    _on_backend(conn, "install_annotations")


def uninstall_annotations(conn: Connection) -> None:
    """Drop what `install_annotations` created (the migration's downgrade)."""
    _on_backend(conn, "uninstall_annotations")


def install_annotation_hits(conn: Connection) -> None:
    """Schema 0024: the papers of the annotations holding a query's words found without
    reading the annotations' rows (on SQLite an index of each one's paper and owner by
    its id; on PostgreSQL a function in place of schema 0020's, `PG_ANNOTATED_PAPERS`)."""
    _on_backend(conn, "install_annotation_hits")


def uninstall_annotation_hits(conn: Connection) -> None:
    """Back to schema 0020's (migration 0024's downgrade)."""
    _on_backend(conn, "uninstall_annotation_hits")


__all__ = [
    "ANNOTATIONS_FTS_TABLE",
    "FILES_FTS_TABLE",
    "FTS_TABLE",
    "INDEXED_COLUMNS",
    "PENDING_TABLE",
    "PG_ANNOTATED_PAPERS",
    "PG_ANNOTATIONS_HOLDING",
    "PG_ANNOTATIONS_INDEX",
    "PG_CONFIG",
    "PG_FILES_INDEX",
    "PG_NOTES_INDEX",
    "PG_PAPERS_INDEX",
    "PG_SEARCH_INDEX",
    "PG_SEARCH_TABLE",
    "PG_TEXTS_INDEX",
    "FTS5Index",
    "ImmediateIndex",
    "PostgresSearch",
    "SearchIndex",
    "Term",
    "expanded_query",
    "install",
    "install_annotation_hits",
    "install_annotations",
    "install_files",
    "parse_query",
    "pg_install_table",
    "pg_search_document",
    "pg_tsquery",
    "pg_uninstall_table",
    "rebuild",
    "uninstall",
    "uninstall_annotation_hits",
    "uninstall_annotations",
    "uninstall_files",
]
