"""Full-text search: what a user's query means, and the databases' own indexes.

A user's query is forgiving: words, "quoted phrases" and prefix* are understood;
operators and stray punctuation are dropped, so no input raises (`parse_query`).

A library searches through its store's `SearchIndex` (core.store). SQLite's is
`FTS5Index`: a contentless FTS5 index kept in sync by triggers on `papers` and
`paper_texts` (the indexed text: title, authors_text, abstract, notes, tags_text),
which a bulk import may leave to be filled in batches afterwards. PostgreSQL's is
`PostgresSearch`: two GIN indexes on tsvector expressions (papers' columns, and
paper_texts' abstract), which PostgreSQL keeps up to date itself. Other databases use
the generic store's LIKE search. `install`, `uninstall` and `rebuild` are the
migrations' entry points and run for any database, so they alone look at the dialect.

The text of the files attached to papers (paper_files.body) is searched too, from an
index of its own (`install_files`: an FTS5 table kept by triggers, a GIN index), so
that adding it took no rebuild of the papers' index: a term of a query matches a
paper when its fields or its files' text hold it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    Connection,
    FromClause,
    Integer,
    and_,
    bindparam,
    column,
    false,
    func,
    literal_column,
    select,
    table,
    text,
    true,
    union_all,
)
from sqlalchemy.exc import DBAPIError

from papershelf.core.models import Paper, PaperFile, PaperText

# -- what a query means -------------------------------------------------------

# What a search looks in: columns of papers, and the abstract (of paper_texts).
INDEXED_COLUMNS = ("title", "authors_text", "abstract", "notes", "tags_text")


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


class SearchIndex(Protocol):
    """Full-text search as one database does it (a store's `search`): the papers
    matching a user's query, and an index a bulk import may fill afterwards."""

    def matches(self, query: str) -> ColumnElement[bool]:
        """A WHERE clause on `papers` keeping the papers that match `query`."""
        ...

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        """The index as a table to walk in id order (its `rowid` is the paper id) and
        its MATCH clause, or None where the index cannot lead a query."""
        ...

    def other_matches(self, query: str) -> ColumnElement[bool] | None:
        """With a `driving_match`: a WHERE clause on `papers` keeping the papers that
        match `query` but that walk does not find (their files' text), or None."""
        ...

    def defer(self, conn: Connection, first_id: int) -> bool:
        """Leave papers from `first_id` on out of the index (a bulk import); False if
        the index cannot defer (then nothing is deferred)."""
        ...

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        """The deferred import ended at `last_id`; `index_now`: index it right away."""
        ...

    def pending(self, conn: Connection) -> int:
        """How many papers wait to be indexed."""
        ...

    def index_some(self, conn: Connection, limit: int) -> int:
        """Index up to `limit` pending ids; how many ids were covered (0: none pending)."""
        ...


class ImmediateIndex:
    """The part of a `SearchIndex` for an index that is always up to date (the writes
    keep it so): it never leads a query, defers nothing, has nothing pending."""

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        return None

    def other_matches(self, query: str) -> ColumnElement[bool] | None:
        return None

    def defer(self, conn: Connection, first_id: int) -> bool:
        return False

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        return None

    def pending(self, conn: Connection) -> int:
        return 0

    def index_some(self, conn: Connection, limit: int) -> int:
        return 0


# -- SQLite's FTS5 index -------------------------------------------------------

FTS_TABLE = "paper_fts"

PENDING_TABLE = "fts_pending"
# Papers whose ids fall in a pending range are not in the index yet: a bulk import adds
# them without the per-row triggers and `index_pending` indexes them in batches later.
_NOT_PENDING = (f"NOT EXISTS (SELECT 1 FROM {PENDING_TABLE} "
                "WHERE {id} BETWEEN lo AND hi)")
_COLUMNS = ", ".join(INDEXED_COLUMNS)
# The abstract lives in paper_texts (papers rows stay small, so bulk edits are cheap);
# the index is contentless, so every removal restates exactly what was indexed.
_SOURCE = ("SELECT p.id, p.title, p.authors_text, t.abstract, p.notes, p.tags_text "
           "FROM papers p JOIN paper_texts t ON t.paper_id = p.id")

_SQLITE_DDL = [
    f"CREATE TABLE {PENDING_TABLE} (lo INTEGER NOT NULL, hi INTEGER NOT NULL)",
    f"""CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(
        {_COLUMNS}, content='', tokenize='unicode61 remove_diacritics 2')""",
    # A paper is indexed when its texts row arrives (always right after its papers row).
    f"""CREATE TRIGGER paper_texts_fts_insert AFTER INSERT ON paper_texts
        WHEN {_NOT_PENDING.format(id="new.paper_id")} BEGIN
        INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS})
        SELECT p.id, p.title, p.authors_text, new.abstract, p.notes, p.tags_text
        FROM papers p WHERE p.id = new.paper_id;
    END""",
    f"""CREATE TRIGGER paper_texts_fts_update AFTER UPDATE OF abstract ON paper_texts
        WHEN {_NOT_PENDING.format(id="old.paper_id")} BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS})
        SELECT 'delete', p.id, p.title, p.authors_text, old.abstract, p.notes, p.tags_text
        FROM papers p WHERE p.id = old.paper_id;
        INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS})
        SELECT p.id, p.title, p.authors_text, new.abstract, p.notes, p.tags_text
        FROM papers p WHERE p.id = new.paper_id;
    END""",
    f"""CREATE TRIGGER papers_fts_update
        AFTER UPDATE OF title, authors_text, notes, tags_text ON papers
        WHEN {_NOT_PENDING.format(id="old.id")} BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS})
        SELECT 'delete', old.id, old.title, old.authors_text, t.abstract, old.notes,
               old.tags_text
        FROM paper_texts t WHERE t.paper_id = old.id;
        INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS})
        SELECT new.id, new.title, new.authors_text, t.abstract, new.notes, new.tags_text
        FROM paper_texts t WHERE t.paper_id = new.id;
    END""",
    f"""CREATE TRIGGER papers_fts_delete BEFORE DELETE ON papers
        WHEN {_NOT_PENDING.format(id="old.id")} BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, {_COLUMNS})
        SELECT 'delete', old.id, old.title, old.authors_text, t.abstract, old.notes,
               old.tags_text
        FROM paper_texts t WHERE t.paper_id = old.id;
    END""",
]
_TRIGGERS = ("paper_texts_fts_insert", "paper_texts_fts_update", "papers_fts_update",
             "papers_fts_delete", "papers_fts_insert")


def install(conn: Connection) -> None:
    """Create the search index for this connection's dialect (called by a migration)."""
    if conn.dialect.name == "sqlite":
        for statement in _SQLITE_DDL:
            conn.exec_driver_sql(statement)
    elif conn.dialect.name == "postgresql":
        _pg_install(conn)


def uninstall(conn: Connection) -> None:
    """Drop what `install` created (the migration's downgrade)."""
    if conn.dialect.name == "sqlite":
        for trigger in _TRIGGERS:
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {FTS_TABLE}")
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {PENDING_TABLE}")
    elif conn.dialect.name == "postgresql":
        # (The unaccent extension stays: other things in the database may use it.)
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_TEXTS_INDEX}")
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_PAPERS_INDEX}")
        conn.exec_driver_sql(f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {PG_CONFIG}")


def rebuild(conn: Connection) -> None:
    """Re-derive the whole index from the papers table (after bulk loads or repair)."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('delete-all')")
        conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) {_SOURCE}")
        conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE}")
    elif conn.dialect.name == "postgresql":
        # PostgreSQL keeps its indexes up to date itself (a REINDEX would only compute
        # every row's words a second time): rebuilding is making sure they are there.
        _pg_install(conn)


# -- the text of attached files -----------------------------------------------------

FILES_FTS_TABLE = "file_fts"
PG_FILES_INDEX = "ix_paper_files_search"
# An external-content FTS5 index over paper_files.body (its rowid is the file's id);
# a row whose text is not read yet (NULL) is not in it.
_FILES_SQLITE_DDL = [
    f"""CREATE VIRTUAL TABLE {FILES_FTS_TABLE} USING fts5(
        body, content='paper_files', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
    f"""CREATE TRIGGER paper_files_fts_insert AFTER INSERT ON paper_files
        WHEN new.body IS NOT NULL BEGIN
        INSERT INTO {FILES_FTS_TABLE}(rowid, body) VALUES (new.id, new.body);
    END""",
    f"""CREATE TRIGGER paper_files_fts_update AFTER UPDATE OF body ON paper_files BEGIN
        INSERT INTO {FILES_FTS_TABLE}({FILES_FTS_TABLE}, rowid, body)
        SELECT 'delete', old.id, old.body WHERE old.body IS NOT NULL;
        INSERT INTO {FILES_FTS_TABLE}(rowid, body)
        SELECT new.id, new.body WHERE new.body IS NOT NULL;
    END""",
    f"""CREATE TRIGGER paper_files_fts_delete AFTER DELETE ON paper_files
        WHEN old.body IS NOT NULL BEGIN
        INSERT INTO {FILES_FTS_TABLE}({FILES_FTS_TABLE}, rowid, body)
        VALUES ('delete', old.id, old.body);
    END""",
]
_FILES_TRIGGERS = ("paper_files_fts_insert", "paper_files_fts_update",
                   "paper_files_fts_delete")


def install_files(conn: Connection) -> None:
    """Create the index of the attached files' text (called by a migration, once
    paper_files exists)."""
    if conn.dialect.name == "sqlite":
        for statement in _FILES_SQLITE_DDL:
            conn.exec_driver_sql(statement)
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {PG_FILES_INDEX} ON paper_files "
                             f"USING gin (({pg_files_document()}))")


def uninstall_files(conn: Connection) -> None:
    """Drop what `install_files` created (the migration's downgrade)."""
    if conn.dialect.name == "sqlite":
        for trigger in _FILES_TRIGGERS:
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {FILES_FTS_TABLE}")
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_FILES_INDEX}")


def _fts5_term(term: Term) -> str:
    """One term as an FTS5 phrase (with its prefix mark) that cannot be a syntax error."""
    quoted = '"' + " ".join(w.replace('"', "") for w in term.words) + '"'
    return quoted + ("*" if term.prefix else "")


def _fts5_query(terms: list[Term]) -> str:
    """An FTS5 MATCH string that means 'every term' and cannot be a syntax error."""
    return " AND ".join(_fts5_term(term) for term in terms)


def _files_match(terms: list[Term]) -> tuple[str, dict[str, str]]:
    """SQL selecting the paper ids found through their files' text: papers with a file
    holding one of the terms, each other term in their files or their fields (read
    for those few papers only, by rowid); and its parameters."""
    params = {"files_any": " OR ".join(_fts5_term(term) for term in terms)}
    in_files = (f"SELECT paper_id FROM paper_files WHERE id IN (SELECT rowid FROM "
                f"{FILES_FTS_TABLE} WHERE {FILES_FTS_TABLE} MATCH :{{name}})")
    sql = "SELECT found.paper_id FROM paper_files found WHERE found.id IN " + (
        f"(SELECT rowid FROM {FILES_FTS_TABLE} WHERE {FILES_FTS_TABLE} MATCH :files_any)")
    if len(terms) > 1:
        for n, term in enumerate(terms):
            params[f"files_{n}"] = params[f"fields_{n}"] = _fts5_term(term)
            sql += (f" AND (found.paper_id IN ({in_files.format(name=f'files_{n}')}) OR "
                    f"EXISTS (SELECT 1 FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :fields_{n} "
                    f"AND {FTS_TABLE}.rowid = found.paper_id))")
    return sql, params


# A prefix standing for at most this many of the index's terms is searched as their OR.
MAX_EXPANSION = 32
_VOCAB = "paper_fts_terms"
_PLAIN = re.compile(r"[a-z0-9]+")


def expanded_query(cursor: Any, query: str) -> str:
    """`query` as an FTS5 MATCH string for SQLite's own cursor, each one-word prefix
    (`gra*`) spelled out as the index's terms that start with it ("graph" OR
    "gradient").

    The same papers, found differently: FTS5 merges the whole document lists of a
    prefix's terms before it returns a first match, where it reads an OR in rowid order
    and stops after the first page (many times faster for the first page of a common
    prefix in a big library). A prefix with more than MAX_EXPANSION terms, or other than plain
    lower-case letters and digits (what the tokenizer keeps as it is), stays a prefix.
    """
    parts = []
    for term in parse_query(query):
        word = term.words[0].lower() if len(term.words) == 1 else ""
        spelled = (_terms_starting(cursor, word)
                   if term.prefix and _PLAIN.fullmatch(word) else None)
        if spelled:
            parts.append("(" + " OR ".join(f'"{t}"' for t in spelled) + ")")
        else:
            parts.append(_fts5_query([term]))
    return " AND ".join(parts)


def _terms_starting(cursor: Any, prefix: str) -> list[str] | None:
    """The index's terms that start with `prefix` (None if more than MAX_EXPANSION), one
    step each: the vocabulary table seeks to a term without reading document lists."""
    cursor.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_VOCAB} "
                   f"USING fts5vocab(main, {FTS_TABLE}, instance)")
    found: list[str] = []
    low, high = prefix, prefix + "\U0010ffff"
    while len(found) <= MAX_EXPANSION:
        row = cursor.execute(f"SELECT term FROM temp.{_VOCAB} WHERE term >= ? AND term < ? "
                             "LIMIT 1", (low, high)).fetchone()
        if row is None or not row[0].startswith(prefix):
            return found
        found.append(row[0])
        low = row[0] + "\x01"  # the next term after this one (terms hold no controls)
    return None


_FTS = table(FTS_TABLE, column("rowid", Integer))


def _index_range(conn: Connection, lo: int, hi: int) -> None:
    """Add the papers with ids from `lo` to `hi` to the index."""
    conn.exec_driver_sql(
        f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) {_SOURCE} WHERE p.id BETWEEN ? AND ?",
        (lo, hi))


class FTS5Index:
    """SQLite's `SearchIndex`: the FTS5 index the migrations `install`."""

    def matches(self, query: str) -> ColumnElement[bool]:
        """A WHERE clause on `papers` that keeps the papers matching `query`.

        An empty or meaningless query (only punctuation) matches everything.
        """
        terms = parse_query(query)
        if not terms:
            return true()
        in_files, params = _files_match(terms)
        return Paper.id.in_(
            text(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :fts_query "
                 f"UNION {in_files}")
            .bindparams(fts_query=_fts5_query(terms), **params)
            .columns(column("rowid", Integer))
        )

    def other_matches(self, query: str) -> ColumnElement[bool] | None:
        """The papers found by `query` that `driving_match` does not walk: through their
        files' text (a few, read by rowid)."""
        terms = parse_query(query)
        if not terms:
            return None
        in_files, params = _files_match(terms)
        return Paper.id.in_(text(in_files).bindparams(**params)
                            .columns(column("paper_id", Integer)))

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        """For a search in the index's own order: the index as a table to select from
        (its `rowid` is the paper id) and the MATCH clause; None if the query means
        everything.

        Walking the index in id order stops after the first page of hits, so the first
        results of a search in a big library come back without reading all its hits.
        """
        terms = parse_query(query)
        if not terms:
            return None
        match = literal_column(FTS_TABLE).op("MATCH")(
            bindparam("fts_query", _fts5_query(terms)))
        return _FTS, match

    def defer(self, conn: Connection, first_id: int) -> bool:
        """Leave papers from `first_id` on out of the index until `close_deferred`.

        For bulk loads: building the index in batches afterwards is what makes a big
        import fast.
        """
        conn.exec_driver_sql(f"INSERT INTO {PENDING_TABLE} (lo, hi) VALUES (?, ?)",
                             (first_id, 2**62))
        return True

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        """The bulk load from `first_id` ended at `last_id`: only that range stays
        pending, or none if `index_now` (a load that turned out small is indexed right
        away)."""
        if index_now and last_id >= first_id:
            _index_range(conn, first_id, last_id)
        if last_id < first_id or index_now:
            conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE} WHERE lo = ?", (first_id,))
        else:
            conn.exec_driver_sql(f"UPDATE {PENDING_TABLE} SET hi = ? WHERE lo = ?",
                                 (last_id, first_id))

    def pending(self, conn: Connection) -> int:
        """How many papers wait to be indexed."""
        return int(conn.exec_driver_sql(
            f"SELECT count(*) FROM papers JOIN {PENDING_TABLE} ON papers.id BETWEEN lo AND hi"
        ).scalar() or 0)

    def index_some(self, conn: Connection, limit: int) -> int:
        """Index up to `limit` pending papers, in the caller's transaction; returns how
        many ids were covered (0 when nothing is pending)."""
        row = conn.exec_driver_sql(
            f"SELECT rowid, lo, hi FROM {PENDING_TABLE} ORDER BY lo LIMIT 1").first()
        if row is None:
            return 0
        rowid, lo, hi = row
        upto = min(hi, lo + limit - 1)
        _index_range(conn, lo, upto)
        if upto >= hi:
            conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE} WHERE rowid = ?", (rowid,))
        else:
            conn.exec_driver_sql(f"UPDATE {PENDING_TABLE} SET lo = ? WHERE rowid = ?",
                                 (upto + 1, rowid))
        return int(upto - lo + 1)


# -- PostgreSQL's tsvector index -------------------------------------------------

# The index's text search configuration: a copy of 'simple' (no stemming, no stop
# words: right for any language, like FTS5's unicode61), with accents removed by the
# `unaccent` dictionary where the extension is there or this role may create it.
PG_CONFIG = "papershelf_search"
PG_PAPERS_INDEX = "ix_papers_search"
PG_TEXTS_INDEX = "ix_paper_texts_search"
# A constant in the SQL, never a parameter: the planner uses an expression index only
# for the very same expression.
_PG_CONFIG = f"'{PG_CONFIG}'::regconfig"
# ASCII punctuation becomes space before PostgreSQL's parser sees the text, so that
# "graph-based", "3.14", "a@b.org" and "foo_bar" are words apart as in FTS5 (the parser
# would keep each whole, as a hyphenated word, a number, an e-mail address).
_PG_PUNCTUATION = "'[!-/:-@[-`{-~]'"
# The papers columns in the index, each with a weight of its own (A, B, C, D: four at
# most), which keeps a phrase within one column as FTS5 does: without it, the last word
# of a title and the first of the authors would be neighbours.
_PG_COLUMNS = tuple(name for name in INDEXED_COLUMNS if name != "abstract")
_PG_WEIGHTS = "ABCD"
# Changing these expressions takes a migration that creates the indexes anew: a query
# whose expression is not the index's still answers right, but reads every row.


def _pg_vector(column_sql: str) -> str:
    return (f"to_tsvector({_PG_CONFIG}, "
            f"regexp_replace({column_sql}, {_PG_PUNCTUATION}, ' ', 'g'))")


def pg_papers_document(prefix: str = "") -> str:
    """The indexed tsvector of a papers row, in SQL (its columns named `prefix` + name):
    the GIN index's expression, which a query repeats to use the index."""
    return " || ".join(f"setweight({_pg_vector(prefix + name)}, '{weight}')"
                       for name, weight in zip(_PG_COLUMNS, _PG_WEIGHTS))


def pg_texts_document(prefix: str = "") -> str:
    """The indexed tsvector of a paper_texts row (its abstract), in SQL."""
    return _pg_vector(prefix + "abstract")


def pg_files_document(prefix: str = "") -> str:
    """The indexed tsvector of a paper_files row (its text), in SQL."""
    return _pg_vector(prefix + "body")


def _pg_install(conn: Connection) -> None:
    """The text search configuration (once per schema) and the two GIN indexes."""
    exists = conn.execute(text(
        "SELECT 1 FROM pg_ts_config WHERE cfgname = :name AND pg_ts_config_is_visible(oid)"),
        {"name": PG_CONFIG}).first()
    if exists is None:
        conn.exec_driver_sql(
            f"CREATE TEXT SEARCH CONFIGURATION {PG_CONFIG} (COPY = pg_catalog.simple)")
        unaccent = _pg_unaccent(conn)
        if unaccent is not None:  # (the only token types that can hold accents)
            conn.exec_driver_sql(f"ALTER TEXT SEARCH CONFIGURATION {PG_CONFIG} ALTER MAPPING "
                                 f"FOR word, numword WITH {unaccent}, pg_catalog.simple")
    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {PG_PAPERS_INDEX} ON papers "
                         f"USING gin (({pg_papers_document()}))")
    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {PG_TEXTS_INDEX} ON paper_texts "
                         f"USING gin (({pg_texts_document()}))")


def _pg_unaccent(conn: Connection) -> str | None:
    """The unaccent dictionary's qualified name, creating the extension if it is
    missing and this role may (a trusted extension: a database's owner may); None if
    it cannot be had."""
    find = text("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n "
                "ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'")
    schema = conn.execute(find).scalar()
    if schema is None:
        if not conn.execute(text(
                "SELECT has_database_privilege(current_database(), 'CREATE') AND EXISTS "
                "(SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent')")).scalar():
            return None
        try:
            with conn.begin_nested():
                conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS unaccent")
        except DBAPIError:  # not trusted on this server, no CREATE on the schema...
            return None
        schema = conn.execute(find).scalar()
    return f"{conn.dialect.identifier_preparer.quote(str(schema))}.unaccent"


def _pg_operand(word: str, prefix: bool, weight: str) -> str:
    """One word of a tsquery: quoted, with its prefix mark and weight."""
    quoted = "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"
    marks = ("*" if prefix else "") + weight
    return f"{quoted}:{marks}" if marks else quoted


def pg_tsqueries(term: Term) -> tuple[str, str] | None:
    """`term` as `to_tsquery` input: for the papers index (a phrase within one column)
    and for the one-column indexes (abstracts, files' text); None if it has no word at
    all (it matches nothing, as in FTS5)."""
    # The parser splits at underscores as FTS5 does; split here already, so a word is
    # one lexeme and a phrase is the only thing that needs one column.
    words = [part for word in term.words for part in word.split("_") if part]
    if not words:
        return None

    def phrase(weight: str) -> str:
        last = len(words) - 1
        return " <-> ".join(_pg_operand(word, term.prefix and n == last, weight)
                            for n, word in enumerate(words))

    if len(words) == 1:
        return phrase(""), phrase("")
    return " | ".join(f"({phrase(w)})" for w in _PG_WEIGHTS[:len(_PG_COLUMNS)]), phrase("")


_PG_PAPERS = Paper.__table__.alias("search_papers")
_PG_TEXTS = PaperText.__table__.alias("search_texts")
_PG_PAPERS_DOCUMENT: ColumnElement[Any] = literal_column(pg_papers_document("search_papers."))
_PG_TEXTS_DOCUMENT: ColumnElement[Any] = literal_column(pg_texts_document("search_texts."))
_PG_FILES = PaperFile.__table__.alias("search_files")
_PG_FILES_DOCUMENT: ColumnElement[Any] = literal_column(pg_files_document("search_files."))


class PostgresSearch(ImmediateIndex):
    """PostgreSQL's `SearchIndex`: GIN indexes on tsvector expressions, which the
    migrations `install` and PostgreSQL keeps up to date (nothing is ever pending).

    The same papers as FTS5 for the same query, with these differences: accents are
    removed by PostgreSQL's `unaccent` rules, which also spell out ligatures ("straße"
    finds "strasse", "æ" finds "ae", FTS5 keeps them) and cover more scripts (Greek
    tonos); where `unaccent` could not be installed (not the database's owner, or no
    contrib package) accents count, "erdos" no longer finds "Erdős". Characters that
    PostgreSQL's parser takes for neither letter nor digit (superscripts, fractions;
    non-ASCII punctuation too in a database with the C locale, which also folds case in
    ASCII only) separate words. Phrases do not reach past a column's 16,383rd word, and
    a column's index entry is limited to 1 MB (PostgreSQL's tsvector limits).
    """

    def matches(self, query: str) -> ColumnElement[bool]:
        """A WHERE clause on `papers`: for each term, the papers whose columns, abstract
        or files' text match it, each found through its GIN index."""
        terms = parse_query(query)
        if not terms:
            return true()
        clauses: list[ColumnElement[bool]] = []
        for term in terms:
            queries = pg_tsqueries(term)
            if queries is None:
                return false()
            in_papers, in_text = queries
            clauses.append(Paper.id.in_(union_all(
                select(_PG_PAPERS.c.id).where(_PG_PAPERS_DOCUMENT.bool_op("@@")(
                    func.to_tsquery(literal_column(_PG_CONFIG), in_papers))),
                select(_PG_TEXTS.c.paper_id).where(_PG_TEXTS_DOCUMENT.bool_op("@@")(
                    func.to_tsquery(literal_column(_PG_CONFIG), in_text))),
                select(_PG_FILES.c.paper_id).where(_PG_FILES_DOCUMENT.bool_op("@@")(
                    func.to_tsquery(literal_column(_PG_CONFIG), in_text))))))
        return and_(*clauses)
