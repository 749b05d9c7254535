"""PostgreSQL's search index, its schema: the text search configuration, the search
table with its GIN index and the triggers that keep it, the GIN indexes of the shared
notes and tags and of the attached files' text; the migrations' entry points (`install`,
`pg_install_table`, `rebuild`...). The queries that use them are in search/postgres.py."""

from __future__ import annotations

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from papershelf.core.search.terms import PENDING_TABLE

# The index's text search configuration: a copy of 'simple' (no stemming, no stop
# words: right for any language, like FTS5's unicode61), with accents removed by the
# `unaccent` dictionary where the extension is there or this role may create it.
PG_CONFIG = "papershelf_search"
# Schemas 0005-0009 searched through two expression indexes (papers' columns, and
# paper_texts' abstract); schema 0010 replaced them by PG_SEARCH_TABLE.
PG_PAPERS_INDEX = "ix_papers_search"
PG_TEXTS_INDEX = "ix_paper_texts_search"
# From schema 0010: one narrow row a paper, its words as a stored tsvector (title,
# authors, abstract), kept by triggers; the few words users write (shared notes, tags)
# in an expression index of papers, so that tagging or annotating never recomputes an
# abstract's words. A search walks the table in id order and stops after the first page.
PG_SEARCH_TABLE = "paper_search"
PG_SEARCH_INDEX = "ix_paper_search_doc"
PG_NOTES_INDEX = "ix_papers_notes_search"
# A constant in the SQL, never a parameter: the planner uses an expression index only
# for the very same expression.
_PG_CONFIG = f"'{PG_CONFIG}'::regconfig"
# ASCII punctuation becomes space before PostgreSQL's parser sees the text, so that
# "graph-based", "3.14", "a@b.org" and "foo_bar" are words apart as in FTS5 (the parser
# would keep each whole, as a hyphenated word, a number, an e-mail address).
_PG_PUNCTUATION = "'[!-/:-@[-`{-~]'"
# Each column of a document has a weight of its own (A, B, C, D: four at most), which
# keeps a phrase within one column as FTS5 does: without it, the last word of a title
# and the first of the authors would be neighbours.
_PG_WEIGHTS = "ABCD"
_PG_DOC_COLUMNS = ("title", "authors_text", "abstract")  # paper_search.doc
_PG_NOTES_COLUMNS = ("notes", "tags_text")  # ix_papers_notes_search
_PG_V1_COLUMNS = ("title", "authors_text", "notes", "tags_text")  # ix_papers_search
# Changing these expressions takes a migration: a query whose expression is not the
# index's still answers right, but reads every row.


def _pg_vector(column_sql: str) -> str:
    return (f"to_tsvector({_PG_CONFIG}, "
            f"regexp_replace({column_sql}, {_PG_PUNCTUATION}, ' ', 'g'))")


def _pg_weighted(columns: tuple[str, ...], prefix: str | tuple[str, ...]) -> str:
    prefixes = (prefix,) * len(columns) if isinstance(prefix, str) else prefix
    return " || ".join(f"setweight({_pg_vector(p + name)}, '{weight}')"
                       for name, weight, p in zip(columns, _PG_WEIGHTS, prefixes))


def pg_search_document(papers: str = "", texts: str = "") -> str:
    """The tsvector of paper_search.doc, in SQL, from the columns of a papers row (named
    `papers` + name) and of its paper_texts row (`texts` + name)."""
    return _pg_weighted(_PG_DOC_COLUMNS, (papers, papers, texts))


def pg_notes_document(prefix: str = "") -> str:
    """The indexed tsvector of a papers row's shared notes and tags, in SQL: the
    expression of PG_NOTES_INDEX, which a query repeats to use the index."""
    return _pg_weighted(_PG_NOTES_COLUMNS, prefix)


def pg_files_document(prefix: str = "") -> str:
    """The indexed tsvector of a paper_files row (its text), in SQL."""
    return _pg_vector(prefix + "body")


def _pg_install(conn: Connection) -> None:
    """Schema 0005's search: the text search configuration (once per schema) and the two
    GIN expression indexes (migration 0010 replaces the indexes by `pg_install_table`)."""
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
                         f"USING gin (({_pg_weighted(_PG_V1_COLUMNS, '')}))")
    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {PG_TEXTS_INDEX} ON paper_texts "
                         f"USING gin (({_pg_vector('abstract')}))")


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


# Papers in a pending range have no paper_search row yet (a bulk import, a copy):
# `index_some` gives them theirs in batches afterwards.
_PG_NOT_PENDING = (f"NOT EXISTS (SELECT 1 FROM {PENDING_TABLE} "
                   "WHERE {id} BETWEEN lo AND hi)")
_PG_DOC_OF_NEW_TEXTS = pg_search_document("p.", "n.")
# The triggers keeping paper_search: a statement's new texts rows (a COPY of a whole
# import is one statement) at once; a changed title, authors or abstract row by row,
# and only when it changed (bulk edits of other columns never call a function). A
# deleted paper's row goes with it (the foreign key cascades).
_PG_TRIGGERS = {
    "papershelf_search_texts_added": ("paper_texts", """
        AFTER INSERT ON paper_texts REFERENCING NEW TABLE AS n
        FOR EACH STATEMENT""", f"""
        INSERT INTO {PG_SEARCH_TABLE} (paper_id, doc)
        SELECT p.id, {_PG_DOC_OF_NEW_TEXTS} FROM n JOIN papers p ON p.id = n.paper_id
        WHERE {_PG_NOT_PENDING.format(id="n.paper_id")}
        ON CONFLICT (paper_id) DO UPDATE SET doc = EXCLUDED.doc"""),
    "papershelf_search_texts_changed": ("paper_texts", """
        AFTER UPDATE OF abstract ON paper_texts FOR EACH ROW
        WHEN (old.abstract IS DISTINCT FROM new.abstract)""", f"""
        UPDATE {PG_SEARCH_TABLE} s SET doc = {pg_search_document("p.", "t.")}
        FROM papers p, paper_texts t
        WHERE s.paper_id = NEW.paper_id AND p.id = NEW.paper_id
          AND t.paper_id = NEW.paper_id"""),
    "papershelf_search_papers_changed": ("papers", """
        AFTER UPDATE OF title, authors_text ON papers FOR EACH ROW
        WHEN (old.title IS DISTINCT FROM new.title
              OR old.authors_text IS DISTINCT FROM new.authors_text)""", f"""
        UPDATE {PG_SEARCH_TABLE} s SET doc = {pg_search_document("p.", "t.")}
        FROM papers p, paper_texts t
        WHERE s.paper_id = NEW.id AND p.id = NEW.id AND t.paper_id = NEW.id"""),
}
_PG_FILL = (f"INSERT INTO {PG_SEARCH_TABLE} (paper_id, doc) "
            f"SELECT p.id, {pg_search_document('p.', 't.')} "
            "FROM papers p JOIN paper_texts t ON t.paper_id = p.id")


def pg_install_table(conn: Connection) -> None:
    """Schema 0010's search on PostgreSQL (its migration): the search table filled from
    every paper, its GIN index, the triggers, the notes index; the two expression
    indexes it replaces dropped. A member gets the rights on the new tables that the
    library's members have on `papers`."""
    conn.exec_driver_sql(f"CREATE TABLE {PENDING_TABLE} "
                         "(lo bigint PRIMARY KEY, hi bigint NOT NULL)")
    # (A row whose words pass about 2 kB, where PostgreSQL starts moving values out of
    # a row, keeps only a pointer to them, not their compressed form: rows stay narrow,
    # and reading the rows of many matches reads few pages.)
    conn.exec_driver_sql(
        f"CREATE TABLE {PG_SEARCH_TABLE} (paper_id integer PRIMARY KEY "
        "REFERENCES papers (id) ON DELETE CASCADE, doc tsvector NOT NULL) "
        "WITH (toast_tuple_target = 128)")
    # The planner's view of how common each word is, for choosing between walking the
    # table and the GIN index: with the default, a word no paper holds was taken for
    # one in 200 papers, and its search walked all of a million papers (3.4 s).
    conn.exec_driver_sql(f"ALTER TABLE {PG_SEARCH_TABLE} ALTER COLUMN doc SET STATISTICS 10000")
    for name, (_table, when, body) in _PG_TRIGGERS.items():
        conn.exec_driver_sql(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql "
                             f"AS $$ BEGIN {body}; RETURN NULL; END $$")
        conn.exec_driver_sql(f"CREATE TRIGGER {name} {when} EXECUTE FUNCTION {name}()")
    for grantee, privilege in conn.execute(text(
            "SELECT grantee, privilege_type FROM information_schema.role_table_grants "
            "WHERE table_schema = current_schema() AND table_name = 'papers' "
            "AND privilege_type IN ('SELECT', 'INSERT', 'UPDATE', 'DELETE') "
            "AND grantee <> current_user")).all():
        role = conn.dialect.identifier_preparer.quote(grantee)
        for table_name in (PG_SEARCH_TABLE, PENDING_TABLE):
            conn.exec_driver_sql(f"GRANT {privilege} ON {table_name} TO {role}")
    _pg_refill(conn)
    conn.exec_driver_sql(f"CREATE INDEX {PG_NOTES_INDEX} ON papers "
                         f"USING gin (({pg_notes_document()}))")
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_PAPERS_INDEX}")
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_TEXTS_INDEX}")


def pg_uninstall_table(conn: Connection) -> None:
    """Back to schema 0009's search (the migration's downgrade)."""
    _pg_install(conn)
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_NOTES_INDEX}")
    for name, (table_name, _when, _body) in _PG_TRIGGERS.items():
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name} ON {table_name}")
        conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {name}()")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {PG_SEARCH_TABLE}")
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS {PENDING_TABLE}")


def _pg_refill(conn: Connection) -> None:
    """Every paper's search row made anew, nothing pending. The index is built after
    the rows where this role may (much quicker than row by row), else kept meanwhile."""
    conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE}")
    conn.exec_driver_sql(f"DELETE FROM {PG_SEARCH_TABLE}")
    owner = conn.scalar(text("SELECT pg_has_role(relowner, 'USAGE') FROM pg_class "
                             "WHERE oid = to_regclass(:name)"), {"name": PG_SEARCH_TABLE})
    if owner:
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_SEARCH_INDEX}")
    conn.exec_driver_sql(_PG_FILL)
    if owner:
        conn.exec_driver_sql("SET LOCAL maintenance_work_mem = '256MB'")
        conn.exec_driver_sql(f"CREATE INDEX {PG_SEARCH_INDEX} ON {PG_SEARCH_TABLE} "
                             "USING gin (doc)")
    conn.exec_driver_sql(f"ANALYZE {PG_SEARCH_TABLE}")


def _pg_has_table(conn: Connection) -> bool:
    return conn.scalar(text("SELECT to_regclass(:name) IS NOT NULL"),
                       {"name": PG_SEARCH_TABLE}) is True


PG_FILES_INDEX = "ix_paper_files_search"


def install(conn: Connection) -> None:
    """Create schema 0005's search indexes (migration 0005)."""
    _pg_install(conn)


def uninstall(conn: Connection) -> None:
    """Drop what `install` created (the unaccent extension stays: other things in the
    database may use it)."""
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_TEXTS_INDEX}")
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_PAPERS_INDEX}")
    conn.exec_driver_sql(f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {PG_CONFIG}")


def rebuild(conn: Connection) -> None:
    """Re-derive the search rows (schema 0010 on; before, expression indexes that
    PostgreSQL keeps up to date itself)."""
    if _pg_has_table(conn):
        _pg_refill(conn)
    else:
        _pg_install(conn)


def install_files(conn: Connection) -> None:
    """Create the index of the attached files' text."""
    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {PG_FILES_INDEX} ON paper_files "
                         f"USING gin (({pg_files_document()}))")


def uninstall_files(conn: Connection) -> None:
    """Drop what `install_files` created."""
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_FILES_INDEX}")


# From schema 0020: the words of each annotation (its quote and its comment, a weight
# each, so that a phrase never runs from one into the other) in a GIN expression index,
# searched with the tsqueries of the papers' words (search/postgres.py).
PG_ANNOTATIONS_INDEX = "ix_annotations_search"
_PG_ANNOTATION_COLUMNS = ("quote", "comment")
# Row-level security keeps a member's reads of `annotations` to the rows they may see,
# and so PostgreSQL applies no condition of theirs before its own unless the condition
# is leakproof, which a tsquery match is not: a member's search read every annotation.
# Schema 0020's function read the index as the library's owner and gave the ids of the
# annotations holding the words that the calling member sees, which the search then read
# again by id (16,000 rows for a prefix). From schema 0024 it gives the ids of the papers
# with such an annotation, each once: what search needs. The member is the role they SET
# ROLE to, else the one they logged in as (`session_user`): PostgreSQL checks both, no
# member can name another; a role that may not read `annotations` (no member) gets
# nothing. It is the one function running with the owner's rights that a member may call,
# and only members may (`pg_members.MEMBER_FUNCTIONS`).
PG_ANNOTATIONS_HOLDING = "papershelf_annotations_holding"  # (schema 0020-0023)
PG_ANNOTATED_PAPERS = "papershelf_annotated_papers"
# (The member calling, in the function's SQL.)
_PG_CALLER = "coalesce(nullif(pg_catalog.current_setting('role'), 'none'), session_user)"


def pg_annotations_document(prefix: str = "") -> str:
    """The indexed tsvector of an annotations row, in SQL (the expression of
    PG_ANNOTATIONS_INDEX, which a query repeats to use the index)."""
    return _pg_weighted(_PG_ANNOTATION_COLUMNS, prefix)


def install_annotations(conn: Connection) -> None:
    """Create the index of the annotations' words and the function that reads it
    (migration 0020)."""
    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS {PG_ANNOTATIONS_INDEX} ON annotations "
                         f"USING gin (({pg_annotations_document()}))")
    _pg_holding(conn, _pg_schema(conn))


def _pg_schema(conn: Connection) -> str:
    return conn.dialect.identifier_preparer.quote(str(conn.scalar(text(
        "SELECT current_schema()"))))


def _pg_holding(conn: Connection, s: str) -> None:
    """Schema 0020's function: the ids of the annotations holding the words."""
    # (Its statement planned at each call for the words given: planned once for any
    # words, it read every annotation, 1.7 s a search over 100,000.)
    conn.exec_driver_sql(
        f"CREATE OR REPLACE FUNCTION {s}.{PG_ANNOTATIONS_HOLDING}(words tsquery) "
        "RETURNS SETOF integer LANGUAGE plpgsql STABLE SECURITY DEFINER "
        f"SET search_path = pg_catalog, {s}, pg_temp AS $fn$ BEGIN RETURN QUERY EXECUTE $q$"
        f"SELECT a.id FROM {s}.annotations a "
        f"WHERE {pg_annotations_document('a.')} @@ $1 "
        "AND (a.shared OR a.user_name = coalesce(nullif(current_setting('role'), 'none'), "
        "session_user))$q$ USING words; END $fn$")


def install_annotation_hits(conn: Connection) -> None:
    """Schema 0024's function in place of schema 0020's (migration 0024): the ids of the
    papers with an annotation the caller sees holding the words, each once; no role may
    call it until given EXECUTE (`pg_members.grant_to`, the library's members only)."""
    s = _pg_schema(conn)
    table = f"{s}.annotations".replace("'", "''")
    conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {s}.{PG_ANNOTATIONS_HOLDING}(tsquery)")
    # (Planned at each call for the words given, as schema 0020's. The caller's name is
    # the function's, never an argument; its rows are the same whoever reads them,
    # their number too: nothing tells of another member's private annotations.)
    conn.exec_driver_sql(
        f"CREATE OR REPLACE FUNCTION {s}.{PG_ANNOTATED_PAPERS}(words tsquery) "
        "RETURNS SETOF integer LANGUAGE plpgsql STABLE SECURITY DEFINER "
        f"SET search_path = pg_catalog, {s}, pg_temp AS $fn$ "
        f"DECLARE caller text := {_PG_CALLER}; BEGIN "
        f"IF pg_catalog.has_table_privilege(caller, '{table}', 'SELECT') THEN "
        "RETURN QUERY EXECUTE $q$"
        f"SELECT DISTINCT a.paper_id FROM {s}.annotations a "
        f"WHERE {pg_annotations_document('a.')} @@ $1 "
        "AND (a.shared OR a.user_name = $2)$q$ USING words, caller; "
        "END IF; END $fn$")
    conn.exec_driver_sql(f"REVOKE ALL ON FUNCTION {s}.{PG_ANNOTATED_PAPERS}(tsquery) "
                         "FROM PUBLIC")


def uninstall_annotation_hits(conn: Connection) -> None:
    """Back to schema 0020's function (migration 0024's downgrade)."""
    s = _pg_schema(conn)
    conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {s}.{PG_ANNOTATED_PAPERS}(tsquery)")
    _pg_holding(conn, s)


def uninstall_annotations(conn: Connection) -> None:
    """Drop what `install_annotations` created."""
    conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {PG_ANNOTATIONS_HOLDING}(tsquery)")
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS {PG_ANNOTATIONS_INDEX}")
