"""SQLite's search index: a contentless FTS5 table of the papers' words kept by triggers
(`FTS5Index`), and one of the attached files' text (core.search says more)."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from contextlib import closing
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnClause,
    ColumnElement,
    Connection,
    FromClause,
    Integer,
    Select,
    String,
    TableClause,
    and_,
    bindparam,
    column,
    literal_column,
    not_,
    or_,
    select,
    table,
    text,
    true,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.compiler import compiles

from papershelf.core import query as q
from papershelf.core.models import Paper, PaperFile
from papershelf.core.query import parse
from papershelf.core.search.terms import (
    INDEXED_COLUMNS,
    PENDING_TABLE,
    Page,
    Term,
    monotone,
    plain_terms,
    text_leaves,
    tree_clause,
    words_only,
)

FTS_TABLE = "paper_fts"

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


FILES_FTS_TABLE = "file_fts"
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


ANNOTATIONS_FTS_TABLE = "annotation_fts"
# From schema 0020: an external-content FTS5 index of the annotations' quotes and comments
# (its rowid is the annotation's id; a column each, so a phrase never runs from the quote
# into the comment), kept by triggers, with the papers' tokenizer.
_ANNOTATIONS_SQLITE_DDL = [
    f"""CREATE VIRTUAL TABLE {ANNOTATIONS_FTS_TABLE} USING fts5(
        quote, comment, content='annotations', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
    f"""CREATE TRIGGER annotations_fts_insert AFTER INSERT ON annotations BEGIN
        INSERT INTO {ANNOTATIONS_FTS_TABLE}(rowid, quote, comment)
        VALUES (new.id, new.quote, new.comment);
    END""",
    f"""CREATE TRIGGER annotations_fts_update AFTER UPDATE OF quote, comment ON annotations
        BEGIN
        INSERT INTO {ANNOTATIONS_FTS_TABLE}({ANNOTATIONS_FTS_TABLE}, rowid, quote, comment)
        VALUES ('delete', old.id, old.quote, old.comment);
        INSERT INTO {ANNOTATIONS_FTS_TABLE}(rowid, quote, comment)
        VALUES (new.id, new.quote, new.comment);
    END""",
    f"""CREATE TRIGGER annotations_fts_delete AFTER DELETE ON annotations BEGIN
        INSERT INTO {ANNOTATIONS_FTS_TABLE}({ANNOTATIONS_FTS_TABLE}, rowid, quote, comment)
        VALUES ('delete', old.id, old.quote, old.comment);
    END""",
]
_ANNOTATIONS_TRIGGERS = ("annotations_fts_insert", "annotations_fts_update",
                         "annotations_fts_delete")


def install(conn: Connection) -> None:
    """Create the index (migration 0005)."""
    for statement in _SQLITE_DDL:
        conn.exec_driver_sql(statement)


def uninstall(conn: Connection) -> None:
    """Drop what `install` created."""
    for trigger in _TRIGGERS:
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {FTS_TABLE}")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {PENDING_TABLE}")


def rebuild(conn: Connection) -> None:
    """Re-derive the whole index from the papers table."""
    conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('delete-all')")
    conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) {_SOURCE}")
    conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE}")


def install_files(conn: Connection) -> None:
    """Create the index of the attached files' text."""
    for statement in _FILES_SQLITE_DDL:
        conn.exec_driver_sql(statement)


def uninstall_files(conn: Connection) -> None:
    """Drop what `install_files` created."""
    for trigger in _FILES_TRIGGERS:
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {FILES_FTS_TABLE}")


def install_annotations(conn: Connection) -> None:
    """Create the index of the annotations' words, filled from those there are."""
    for statement in _ANNOTATIONS_SQLITE_DDL:
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql(f"INSERT INTO {ANNOTATIONS_FTS_TABLE}({ANNOTATIONS_FTS_TABLE}) "
                         "VALUES ('rebuild')")


def uninstall_annotations(conn: Connection) -> None:
    """Drop what `install_annotations` created."""
    for trigger in _ANNOTATIONS_TRIGGERS:
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {ANNOTATIONS_FTS_TABLE}")


# From schema 0024: each annotation's paper and owner by its id, so that the papers of
# the annotations the FTS5 table finds are read from this small index rather than from
# the wide rows (a prefix held by 16,000 of 100,000 annotations: 28 to 14 ms).
ANNOTATION_HITS_INDEX = "ix_annotations_hits"


def install_annotation_hits(conn: Connection) -> None:
    """Create the index of the annotations' papers and owners by id (migration 0024)."""
    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {ANNOTATION_HITS_INDEX} "
                         "ON annotations (id, paper_id, shared, user_name)")


def uninstall_annotation_hits(conn: Connection) -> None:
    """Drop what `install_annotation_hits` created."""
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {ANNOTATION_HITS_INDEX}")


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


def _fts5_expr(node: q.Node, spell: Callable[[str], list[str] | None] | None = None
               ) -> str | None:
    """A tree of words (`terms.words_only`) as an FTS5 MATCH string that cannot be a
    syntax error, or None where FTS5 cannot say it (a NOT with nothing beside it to
    subtract from, a NOT under OR). `spell`: the index's terms a one-word prefix stands
    for (`expanded_query`)."""
    match node:
        case q.Text(field, words, prefix):
            spelled = spell(words[0]) if spell and prefix and len(words) == 1 else None
            phrase = ("(" + " OR ".join(f'"{t}"' for t in spelled) + ")" if spelled
                      else _fts5_term(Term(words, prefix)))
            return phrase if field is None else f"{_FTS_COLUMN[field]} : {phrase}"
        case q.Or(nodes):
            parts = [None if isinstance(n, q.Not) else _fts5_expr(n, spell) for n in nodes]
            return None if None in parts else "(" + " OR ".join(map(str, parts)) + ")"
        case q.And(nodes):
            have = [_fts5_expr(n, spell) for n in nodes if not isinstance(n, q.Not)]
            lack = [_fts5_expr(n.node, spell) for n in nodes if isinstance(n, q.Not)]
            if not have or None in have or None in lack:
                return None
            joined = "(" + " AND ".join(map(str, have)) + ")"
            return f"({joined} NOT ({' OR '.join(map(str, lack))}))" if lack else joined
    return None


def expressible(node: q.Node) -> bool:
    """Whether the index walks `node` (a tree of words in its fields FTS5 can say)."""
    return words_only(node, INDEXED_FIELDS) and _fts5_expr(node) is not None


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
    def spell(word: str) -> list[str] | None:
        return _terms_starting(cursor, word) if _PLAIN.fullmatch(word) else None

    return _fts5_expr(parse(query), spell) or ""


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
_FILES_FTS = table(FILES_FTS_TABLE, column("rowid", Integer))
# The index's column of each text field of the query language (core.query).
_FTS_COLUMN = {"title": "title", "author": "authors_text", "abstract": "abstract",
               "notes": "notes"}
INDEXED_FIELDS = frozenset(_FTS_COLUMN)


def _in_files(match: str) -> ColumnElement[bool]:
    """Papers with a file whose text matches the FTS5 `match` (its own parameter)."""
    return Paper.id.in_(select(PaperFile.paper_id).where(PaperFile.id.in_(
        select(_FILES_FTS.c.rowid).where(literal_column(FILES_FTS_TABLE).op("MATCH")(
            bindparam("files_match", match, unique=True))))))


_ANNOTATIONS_FTS = table(ANNOTATIONS_FTS_TABLE, column("rowid", Integer))


class _IndexedBy(TableClause):
    """A table read through one of its indexes (SQLite's INDEXED BY)."""

    inherit_cache = True

    def __init__(self, name: str, index: str, *columns: ColumnClause[Any]) -> None:
        super().__init__(name, *columns)
        self.index = index


@compiles(_IndexedBy, "sqlite")
def _indexed_by(element: _IndexedBy, compiler: Any, asfrom: bool = False, **kw: Any) -> str:
    rendered = str(compiler.visit_table(element, asfrom=asfrom, **kw))
    return f"{rendered} INDEXED BY {element.index}" if asfrom else rendered


# The annotations' papers and owners, looked up by id in their small index (without
# statistics, SQLite's planner would read the wide rows by rowid instead).
_ANNOTATION_PAPERS = _IndexedBy("annotations", ANNOTATION_HITS_INDEX, column("id", Integer),
                                column("paper_id", Integer), column("shared", Boolean),
                                column("user_name", String))


def annotation_hits(user: ColumnElement[str] | str,
                    phrases: list[tuple[tuple[str, ...], bool]]) -> Select[Any] | None:
    """The ids of the papers with an annotation `user` sees (their own, or shared) holding
    one of the `phrases` (words, prefix) in its quote or its comment, through their FTS5
    index (`core.search.annotated.Hits`); None if no phrase has a word."""
    terms = [_fts5_term(Term(words, prefix)) for words, prefix in phrases if words]
    if not terms:
        return None
    rows = _ANNOTATION_PAPERS.c
    return select(rows.paper_id.label("id")).where(
        or_(rows.user_name == user, rows.shared), rows.id.in_(
            select(_ANNOTATIONS_FTS.c.rowid).where(
                literal_column(ANNOTATIONS_FTS_TABLE).op("MATCH")(
                    bindparam("annotations_match", " OR ".join(terms), unique=True)))))


def _index_range(conn: Connection, lo: int, hi: int) -> None:
    """Add the papers with ids from `lo` to `hi` to the index."""
    conn.exec_driver_sql(
        f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) {_SOURCE} WHERE p.id BETWEEN ? AND ?",
        (lo, hi))


# FTS5's settings during a bulk load: its words kept in memory up to 16 MB before they are
# written out as a segment (the default is 1 MB), and no merging of segments as they are
# written (crisis merges still bound their number); about half the CPU time of indexing
# 100,000 papers with the defaults, and fewer, bigger segments. FTS5's defaults after
# it (`_USUAL_CONFIG`): the next writes merge the segments a little at a time.
_BULK_CONFIG = (("hashsize", 16 << 20), ("automerge", 0))
_USUAL_CONFIG = (("hashsize", 1 << 20), ("automerge", 4))


def _configure(conn: Connection, values: tuple[tuple[str, int], ...]) -> None:
    """Set FTS5 options of the papers' index (kept in its config table, transactional)."""
    for name, value in values:
        try:
            conn.exec_driver_sql(
                f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rank) VALUES (?, ?)", (name, value))
        except DBAPIError:  # (an SQLite that does not know the option: its default stays)
            continue


class FTS5Index:
    """SQLite's `SearchIndex`: the FTS5 index the migrations `install`."""

    disjoint_others = False  # (SQLite merges a UNION in order, dropping duplicates)

    def bound_values(self, query: str) -> tuple[Hashable, dict[str, str]] | None:
        return None  # (its prefixes are spelled out in the statement: `expanded_query`)

    def others_present(self, conn: Connection, query: str) -> bool:
        return True

    def walks(self, node: q.Node) -> bool:
        return expressible(node)

    def matches(self, query: str, others: bool = True) -> ColumnElement[bool]:
        """A WHERE clause on `papers` that keeps the papers matching `query` (`others`:
        always, as `others_present` says).

        An empty or meaningless query (only punctuation) matches everything.
        """
        terms, node = plain_terms(query)
        if terms == []:
            return true()
        if terms is None:  # the words the index holds, and papers with files of them
            walked = Paper.id.in_(select(_FTS.c.rowid).where(self._match(node)))
            through_files = self._others(node)
            return walked if through_files is None else or_(walked, through_files)
        in_files, params = _files_match(terms)
        return Paper.id.in_(
            text(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :fts_query "
                 f"UNION {in_files}")
            .bindparams(fts_query=_fts5_query(terms), **params)
            .columns(column("rowid", Integer))
        )

    def _match(self, node: q.Node) -> ColumnElement[bool]:
        """The MATCH of a tree of words (`expressible`) for papers whose files hold none
        of its words; those papers are `_others`' when the tree has a NOT (a word in a
        file then decides what the index cannot see)."""
        match = literal_column(FTS_TABLE).op("MATCH")(
            bindparam("fts_query", _fts5_expr(node)))
        candidates = self._with_files(node)
        if candidates is None or monotone(node):
            return match
        return and_(match, not_(candidates))

    def _with_files(self, node: q.Node) -> ColumnElement[bool] | None:
        """Papers with a file holding a word or phrase of the tree (a few), or None
        when it has no word that files could hold."""
        phrases = [_fts5_term(Term(t.words, t.prefix)) for t in text_leaves(node)]
        return _in_files(" OR ".join(phrases)) if phrases else None

    def _others(self, node: q.Node) -> ColumnElement[bool] | None:
        """The papers with files that the tree matches, words of files counted (each of
        the few read by id)."""
        candidates = self._with_files(node)
        if candidates is None:
            return None
        return and_(candidates, tree_clause(
            node, lambda t: self.field_matches(t.field, t.words, t.prefix)))

    def field_matches(self, field: str | None, words: tuple[str, ...],
                      prefix: bool) -> ColumnElement[bool]:
        """Through the index's column of the field (a column filter), or the files'."""
        phrase = _fts5_term(Term(words, prefix))
        files = _in_files(phrase)
        if field == "pdf":
            return files
        filtered = phrase if field is None else f"{_FTS_COLUMN[field]} : {phrase}"
        match = literal_column(FTS_TABLE).op("MATCH")(
            bindparam("fields_phrase", filtered, unique=True))
        fields = Paper.id.in_(select(_FTS.c.rowid).where(match))
        return or_(fields, files) if field is None else fields

    def other_matches(self, query: str, page: Page | None = None
                      ) -> ColumnElement[bool] | None:
        """The papers found by `query` that `driving_match` does not walk: through their
        files' text (a few, read by rowid)."""
        terms, node = plain_terms(query)
        if terms is None:
            return self._others(node)
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
        terms, node = plain_terms(query)
        if terms is None:
            return (_FTS, self._match(node)) if expressible(node) else None
        if not terms:
            return None
        match = literal_column(FTS_TABLE).op("MATCH")(
            bindparam("fts_query", _fts5_query(terms)))
        return _FTS, match

    def defer(self, conn: Connection, first_id: int) -> bool:
        """Leave papers from `first_id` on out of the index until `close_deferred`, and
        tune the index for a bulk load until then (`_BULK_CONFIG`).

        For bulk loads: the triggers skip the papers deferred, and the import indexes
        them a batch at a time (`index_deferred`), or `index_some` afterwards.
        """
        conn.exec_driver_sql(f"INSERT INTO {PENDING_TABLE} (lo, hi) VALUES (?, ?)",
                             (first_id, 2**62))
        _configure(conn, _BULK_CONFIG)
        return True

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        """The bulk load from `first_id` ended at `last_id`: only that range stays
        pending, or none if `index_now` (a load that turned out small is indexed right
        away). The index's settings are the usual ones again."""
        if index_now and last_id >= first_id:
            _index_range(conn, first_id, last_id)
        if last_id < first_id or index_now:
            conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE} WHERE lo = ?", (first_id,))
        else:
            conn.exec_driver_sql(f"UPDATE {PENDING_TABLE} SET hi = ? WHERE lo = ?",
                                 (last_id, first_id))
        _configure(conn, _USUAL_CONFIG)

    def index_deferred(self, conn: Connection, lo: int, hi: int,
                       texts: Sequence[tuple[Any, ...]] = ()) -> None:
        """Index the deferred papers `lo`..`hi` now, in the import's transaction; the
        range deferred then starts after `hi` (so the triggers keep those papers'
        entries from here on). The `texts` given are indexed as they are (reading them
        back from the tables took a sixth of the indexing time), the others' are read."""
        if not texts:
            _index_range(conn, lo, hi)
        else:
            driver = conn.connection.driver_connection
            with closing(driver.cursor()) as cursor:  # type: ignore[union-attr]
                cursor.executemany(f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) VALUES "
                                   f"(?{', ?' * len(INDEXED_COLUMNS)})", texts)
            given = {row[0] for row in texts}
            rest = [pid for pid in range(lo, hi + 1) if pid not in given]
            for start in range(0, len(rest), 500):
                chunk = rest[start:start + 500]
                conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}(rowid, {_COLUMNS}) {_SOURCE} "
                                     f"WHERE p.id IN ({', '.join('?' * len(chunk))})",
                                     tuple(chunk))
        conn.exec_driver_sql(f"UPDATE {PENDING_TABLE} SET lo = ? WHERE lo = ?", (hi + 1, lo))

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
