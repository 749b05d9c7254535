"""Full-text search: the only module that speaks a database's own search dialect.

SQLite gets an FTS5 index kept in sync by triggers on `papers` (the indexed
text is denormalised there: title, authors_text, abstract, notes, tags_text).
Other dialects fall back to LIKE until they get their own index (PostgreSQL:
a tsvector column, in its own migration).

A user's query is forgiving: words, "quoted phrases" and prefix* are
understood; operators and stray punctuation are dropped, so no input raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Connection, Integer, column, false, or_, text, true

from papershelf.core.models import Paper

FTS_TABLE = "paper_fts"
INDEXED_COLUMNS = ("title", "authors_text", "abstract", "notes", "tags_text")

_SQLITE_DDL = [
    f"""CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(
        title, authors_text, abstract, notes, tags_text,
        content='papers', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
    f"""CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        INSERT INTO {FTS_TABLE}(rowid, title, authors_text, abstract, notes, tags_text)
        VALUES (new.id, new.title, new.authors_text, new.abstract, new.notes, new.tags_text);
    END""",
    f"""CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, title, authors_text, abstract, notes,
                                tags_text)
        VALUES ('delete', old.id, old.title, old.authors_text, old.abstract, old.notes,
                old.tags_text);
    END""",
    f"""CREATE TRIGGER papers_fts_update
        AFTER UPDATE OF title, authors_text, abstract, notes, tags_text ON papers BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, title, authors_text, abstract, notes,
                                tags_text)
        VALUES ('delete', old.id, old.title, old.authors_text, old.abstract, old.notes,
                old.tags_text);
        INSERT INTO {FTS_TABLE}(rowid, title, authors_text, abstract, notes, tags_text)
        VALUES (new.id, new.title, new.authors_text, new.abstract, new.notes, new.tags_text);
    END""",
]


def install(conn: Connection) -> None:
    """Create the search index for this connection's dialect (called by a migration)."""
    if conn.dialect.name == "sqlite":
        for statement in _SQLITE_DDL:
            conn.exec_driver_sql(statement)


def uninstall(conn: Connection) -> None:
    """Drop what `install` created (the migration's downgrade)."""
    if conn.dialect.name == "sqlite":
        for trigger in ("papers_fts_insert", "papers_fts_delete", "papers_fts_update"):
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {FTS_TABLE}")


def rebuild(conn: Connection) -> None:
    """Re-derive the whole index from the papers table (after bulk loads or repair)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")


@dataclass(frozen=True)
class Term:
    """One part of a parsed query: a word or phrase, optionally a prefix."""

    words: tuple[str, ...]
    prefix: bool = False


_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')
_WORD = re.compile(r"\w+", re.UNICODE)


def parse_query(query: str) -> list[Term]:
    """Split a user's query into terms; punctuation and operators become plain words or vanish."""
    terms: list[Term] = []
    for match in _TOKEN.finditer(query):
        phrase, bare = match.group(1), match.group(2)
        if phrase is not None:
            words = tuple(_WORD.findall(phrase))
            if words:
                terms.append(Term(words, prefix=phrase.rstrip().endswith("*")))
            continue
        words = tuple(_WORD.findall(bare or ""))
        if words:
            terms.append(Term(words, prefix=bool(bare) and bare.endswith("*")))
    return terms


def _fts5_query(terms: list[Term]) -> str:
    """An FTS5 MATCH string that means 'every term' and cannot be a syntax error."""
    parts = []
    for term in terms:
        quoted = '"' + " ".join(w.replace('"', "") for w in term.words) + '"'
        parts.append(quoted + ("*" if term.prefix else ""))
    return " AND ".join(parts)


def matches(conn_dialect: str, query: str) -> ColumnElement[bool]:
    """A WHERE clause on `papers` that keeps the papers matching `query`.

    An empty or meaningless query (only punctuation) matches everything.
    """
    terms = parse_query(query)
    if not terms:
        return true()
    if conn_dialect == "sqlite":
        return Paper.id.in_(
            text(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :fts_query")
            .bindparams(fts_query=_fts5_query(terms))
            .columns(column("rowid", Integer))
        )
    clauses: list[ColumnElement[bool]] = []
    for term in terms:
        needle = "%" + " ".join(term.words) + "%"
        clauses.append(
            or_(*(getattr(Paper, col).ilike(needle) for col in INDEXED_COLUMNS))
        )
    result: ColumnElement[bool] = clauses[0] if clauses else false()
    for clause in clauses[1:]:
        result = result & clause
    return result
