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

PENDING_TABLE = "fts_pending"
# Papers whose ids fall in a pending range are not in the index yet: a bulk import adds
# them without the per-row triggers and `index_pending` indexes them in batches later.
_NOT_PENDING = (f"NOT EXISTS (SELECT 1 FROM {PENDING_TABLE} "
                "WHERE {row}.id BETWEEN lo AND hi)")
_COLUMNS = "title, authors_text, abstract, notes, tags_text"
_NEW = "new.id, new.title, new.authors_text, new.abstract, new.notes, new.tags_text"
_OLD = "old.id, old.title, old.authors_text, old.abstract, old.notes, old.tags_text"

_SQLITE_DDL = [
    f"CREATE TABLE {PENDING_TABLE} (lo INTEGER NOT NULL, hi INTEGER NOT NULL)",
    f"""CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(
        {_COLUMNS}, content='papers', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
    f"""CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers
        WHEN {_NOT_PENDING.format(row="new")} BEGIN
        INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) VALUES ({_NEW});
    END""",
    f"""CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers
        WHEN {_NOT_PENDING.format(row="old")} BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS}) VALUES ('delete', {_OLD});
    END""",
    f"""CREATE TRIGGER papers_fts_update
        AFTER UPDATE OF {_COLUMNS} ON papers
        WHEN {_NOT_PENDING.format(row="old")} BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS}) VALUES ('delete', {_OLD});
        INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) VALUES ({_NEW});
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
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {PENDING_TABLE}")


def rebuild(conn: Connection) -> None:
    """Re-derive the whole index from the papers table (after bulk loads or repair)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")
        conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE}")


def defer(conn: Connection, first_id: int) -> bool:
    """Leave papers from `first_id` on out of the index until `close_deferred`.

    For bulk loads: building the index in batches afterwards is what makes a big import
    fast; returns False where the dialect indexes differently (nothing deferred).
    """
    if conn.dialect.name != "sqlite":
        return False
    conn.exec_driver_sql(f"INSERT INTO {PENDING_TABLE} (lo, hi) VALUES (?, ?)",
                         (first_id, 2**62))
    return True


def close_deferred(conn: Connection, first_id: int, last_id: int) -> None:
    """The bulk load from `first_id` ended at `last_id`: only that range stays pending."""
    if last_id < first_id:
        conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE} WHERE lo = ?", (first_id,))
    else:
        conn.exec_driver_sql(f"UPDATE {PENDING_TABLE} SET hi = ? WHERE lo = ?",
                             (last_id, first_id))


def pending(conn: Connection) -> int:
    """How many papers wait to be indexed (0 where the dialect has no deferral)."""
    if conn.dialect.name != "sqlite":
        return 0
    return int(conn.exec_driver_sql(
        f"SELECT count(*) FROM papers JOIN {PENDING_TABLE} ON papers.id BETWEEN lo AND hi"
    ).scalar() or 0)


def index_some(conn: Connection, limit: int) -> int:
    """Index up to `limit` pending papers, in the caller's transaction; returns how many
    ids were covered (0 when nothing is pending)."""
    if conn.dialect.name != "sqlite":
        return 0
    row = conn.exec_driver_sql(
        f"SELECT rowid, lo, hi FROM {PENDING_TABLE} ORDER BY lo LIMIT 1").first()
    if row is None:
        return 0
    rowid, lo, hi = row
    upto = min(hi, lo + limit - 1)
    conn.exec_driver_sql(
        f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) SELECT id, {_COLUMNS} FROM papers "
        "WHERE id BETWEEN ? AND ?", (lo, upto))
    if upto >= hi:
        conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE} WHERE rowid = ?", (rowid,))
    else:
        conn.exec_driver_sql(f"UPDATE {PENDING_TABLE} SET lo = ? WHERE rowid = ?",
                             (upto + 1, rowid))
    return int(upto - lo + 1)


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
