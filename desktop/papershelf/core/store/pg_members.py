"""What a member of a shared library may do on PostgreSQL, and what the database does for
them (schema 0013): the privileges of each table, the saved searches' policies, and the
two triggers that keep the members' private data across deletions.

Each member's stars, read states and private notes are rows of `personal` that row-level
security keeps to them. A paper deleted (or merged away) takes every member's rows with
it (the foreign key cascades), and a member cannot see, let alone keep, the others'.
Two triggers run as the library's owner (SECURITY DEFINER) and do it for them, whoever
deletes and however (the window, the command line, plain SQL):

- `papershelf_personal_gone`, after rows of `personal` go: those of papers that no
  longer exist move to `personal_kept`; of the paper a merge folds away (named by the
  settings `papershelf.merge_from` and `papershelf.merge_into` of the transaction), they
  are also combined into the rows of the paper it was merged into;
- `papershelf_papers_back`, after papers are inserted by the undo (or redo) of their
  deletion (`RESTORING`): the rows that deletion kept come back; a new paper later given
  a deleted paper's id gets none (issue 43).

No member can call either (a trigger function is called by its trigger only); neither
takes a user name, and both name every table with its schema and search `pg_temp` last,
so no temporary table of a member's stands in for the library's. A member's own rows
travel in the window's undo: the store deletes them itself before the paper goes (so
they are not kept twice).
"""

from __future__ import annotations

import re

from sqlalchemy import Connection, text

from papershelf.core.shapes import FILES

# The settings naming the paper a merge folds away and the paper it is folded into.
MERGE_FROM = "papershelf.merge_from"
MERGE_INTO = "papershelf.merge_into"

# Each table's privileges for the members: the least the app needs in normal use. The
# change log is written and pruned, never changed; kept rows are only the triggers' to
# write (a member may drop their own); the schema version is read by every client.
MEMBER_PRIVILEGES = {
    "papers": "SELECT, INSERT, UPDATE, DELETE",
    "paper_texts": "SELECT, INSERT, UPDATE, DELETE",
    "paper_authors": "SELECT, INSERT, UPDATE, DELETE",
    "paper_files": "SELECT, INSERT, UPDATE, DELETE",
    "tags": "SELECT, INSERT, UPDATE, DELETE",
    "paper_tags": "SELECT, INSERT, UPDATE, DELETE",
    "paper_search": "SELECT, INSERT, UPDATE, DELETE",
    "fts_pending": "SELECT, INSERT, UPDATE, DELETE",
    "imports": "SELECT, INSERT, UPDATE",
    "meta": "SELECT, INSERT, UPDATE",
    "changes": "SELECT, INSERT, DELETE",
    "personal": "SELECT, INSERT, UPDATE, DELETE",
    "personal_kept": "SELECT, DELETE",
    "saved_searches": "SELECT, INSERT, UPDATE, DELETE",
    "auto_exports": "SELECT, INSERT, UPDATE, DELETE",
    "annotations": "SELECT, INSERT, UPDATE, DELETE",
    "annotations_kept": "SELECT",
    "feed_sources": "SELECT, INSERT, UPDATE, DELETE",
    "inbox_items": "SELECT, INSERT, UPDATE, DELETE",
    "inbox_dismissed": "SELECT, INSERT, UPDATE, DELETE",
    "notices": "SELECT, INSERT, UPDATE, DELETE",
    "file_contents": "SELECT, INSERT, DELETE",
    "alembic_version": "SELECT",
}
# The functions a member calls (core.search.pg_schema: the annotations' index read as
# the library's owner, giving each member what they see), EXECUTE for members only.
MEMBER_FUNCTIONS = ("papershelf_annotated_papers(tsquery)",)
# New ids (and, for copying a library in, moving a sequence past the ids copied).
SEQUENCE_PRIVILEGES = "USAGE, SELECT, UPDATE"

# A shared search is every member's to read; only its owner changes or deletes it.
_OWN = "user_name = current_user"
SAVED_SEARCH_POLICIES = {
    "saved_searches_read": f"FOR SELECT USING ({_OWN} OR shared)",
    "saved_searches_add": f"FOR INSERT WITH CHECK ({_OWN})",
    "saved_searches_change": f"FOR UPDATE USING ({_OWN}) WITH CHECK ({_OWN})",
    "saved_searches_remove": f"FOR DELETE USING ({_OWN})",
}
# A member reads their own annotations and the shared ones, and writes only their own.
ANNOTATION_POLICIES = {
    "annotations_read": f"FOR SELECT USING ({_OWN} OR shared)",
    "annotations_add": f"FOR INSERT WITH CHECK ({_OWN})",
    "annotations_change": f"FOR UPDATE USING ({_OWN}) WITH CHECK ({_OWN})",
    "annotations_remove": f"FOR DELETE USING ({_OWN})",
}
# A member's followed sources and inbox are theirs alone, to read and to write.
FEED_TABLES = ("feed_sources", "inbox_items", "inbox_dismissed")
_FEED_RULE = f"FOR ALL USING ({_OWN}) WITH CHECK ({_OWN})"
_SAVED_SEARCHES_BEFORE = ("saved_searches_visible", f"USING ({_OWN} OR shared) "
                          f"WITH CHECK ({_OWN} OR shared)")

# A member's columns of `personal` that are kept for a deleted paper: up to schema 0024
# their star, read state and notes; from 0025 their reading progress too.
_COLUMNS_0013 = "paper_id, user_name, starred, read_state, read_at, private_notes"
_PROGRESS = "last_page, last_position, page_count, last_read_at"
_COLUMNS = f"{_COLUMNS_0013}, {_PROGRESS}"
_RANK = "pg_catalog.array_position(ARRAY['unread', 'reading', 'read']::text[], {}::text)"
_SPACE = "E' \\t\\r\\n'"
_FURTHER = f"{_RANK.format('EXCLUDED.read_state')} > {_RANK.format('p.read_state')}"
# A merge keeps the place in the paper read last.
_LATER = "EXCLUDED.last_read_at > p.last_read_at OR p.last_read_at IS NULL"


def _personal_gone(columns: str) -> str:
    """The body of the trigger function after rows of `personal` go, keeping `columns`
    (plpgsql; {s} is the quoted schema)."""
    names = columns.split(", ")[2:]
    progress = [c for c in names if c in _PROGRESS.split(", ")]
    later = "".join(f",\n        {c} = CASE WHEN {_LATER} THEN EXCLUDED.{c} ELSE p.{c} END"
                    for c in progress)
    return f"""
DECLARE
    merge_from integer := NULLIF(
        pg_catalog.current_setting('{MERGE_FROM}', true), '')::integer;
    merge_into integer := NULLIF(
        pg_catalog.current_setting('{MERGE_INTO}', true), '')::integer;
BEGIN
    INSERT INTO {{s}}.personal_kept AS k ({columns}, kept_at)
    SELECT {columns}, pg_catalog.now() FROM papershelf_gone g
    WHERE NOT EXISTS (SELECT 1 FROM {{s}}.papers p WHERE p.id = g.paper_id)
    ON CONFLICT (paper_id, user_name) DO UPDATE SET
        {", ".join(f"{c} = EXCLUDED.{c}" for c in names)},
        kept_at = EXCLUDED.kept_at;
    IF merge_into IS NULL OR merge_from IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO {{s}}.personal AS p ({columns})
    SELECT merge_into, {", ".join(columns.split(", ")[1:])}
    FROM papershelf_gone g
    WHERE g.paper_id = merge_from
      AND NOT EXISTS (SELECT 1 FROM {{s}}.papers WHERE id = merge_from)
      AND EXISTS (SELECT 1 FROM {{s}}.papers WHERE id = merge_into)
    ON CONFLICT (paper_id, user_name) DO UPDATE SET
        starred = p.starred OR EXCLUDED.starred,
        read_state = CASE WHEN {_FURTHER} THEN EXCLUDED.read_state ELSE p.read_state END,
        read_at = CASE WHEN {_FURTHER} THEN EXCLUDED.read_at ELSE p.read_at END,
        private_notes = CASE
            WHEN pg_catalog.btrim(EXCLUDED.private_notes, {_SPACE}) = ''
                 OR EXCLUDED.private_notes = p.private_notes THEN p.private_notes
            ELSE pg_catalog.btrim(pg_catalog.rtrim(p.private_notes, {_SPACE}) || E'\\n\\n'
                                  || EXCLUDED.private_notes, {_SPACE}) END{later};
    RETURN NULL;
END"""


_PERSONAL_GONE = _personal_gone(_COLUMNS)
# The setting by which a transaction says it puts deleted papers back (an undo or redo
# of their deletion: core.edits.restore): when the deletions it undoes kept the rows of
# the papers (each `DELETION_TIME`, in UTC; separated by spaces). Only those rows come
# back, to the papers they were taken from; a new paper later given a deleted paper's id
# gets none (issue 43).
RESTORING = "papershelf.restoring"
DELETION_TIME = ("SELECT pg_catalog.to_char(pg_catalog.now() AT TIME ZONE 'UTC', "
                 "'YYYY-MM-DD\"T\"HH24:MI:SS.US')")


def _kept_back(table: str, columns: str) -> str:
    """The body of a trigger function after papers are inserted: the rows of
    `{table}_kept` that the deletions this transaction undoes (`RESTORING`) kept of
    those papers go back into `table`."""
    return f"""
DECLARE
    deleted timestamptz[] := ARRAY(
        SELECT t::timestamp AT TIME ZONE 'UTC' FROM pg_catalog.unnest(
            pg_catalog.string_to_array(pg_catalog.current_setting('{RESTORING}', true), ' ')) t
        WHERE t <> '');
BEGIN
    IF pg_catalog.cardinality(deleted) > 0 AND EXISTS (SELECT 1 FROM {{s}}.{table}_kept) THEN
        WITH back AS (
            DELETE FROM {{s}}.{table}_kept k USING papershelf_new n
            WHERE k.paper_id = n.id AND k.kept_at = ANY (deleted)
            RETURNING {", ".join("k." + c for c in columns.split(", "))})
        INSERT INTO {{s}}.{table} ({columns}) SELECT {columns} FROM back
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END"""


_PAPERS_BACK = _kept_back("personal", _COLUMNS)
# Schema 0022's bodies of the personal rows' two triggers (before progress was kept).
PERSONAL_0022 = {"papershelf_personal_gone": _personal_gone(_COLUMNS_0013),
                 "papershelf_papers_back": _kept_back("personal", _COLUMNS_0013)}
# Each trigger: its table, when it fires, its function's body.
TRIGGERS = {
    "papershelf_personal_gone": ("personal", "AFTER DELETE",
                                 "OLD TABLE AS papershelf_gone", _PERSONAL_GONE),
    "papershelf_papers_back": ("papers", "AFTER INSERT",
                               "NEW TABLE AS papershelf_new", _PAPERS_BACK),
}
# The functions members could call up to schema 0012 (SECURITY DEFINER, trusting the user
# name and the search path they were given).
OLD_FUNCTIONS = ("papershelf_keep_personal(integer[], text)",
                 "papershelf_fold_personal(integer, integer, text)",
                 "papershelf_bring_back_personal(integer[])")


def schema_of(conn: Connection) -> str:
    """The library's schema, quoted."""
    return conn.dialect.identifier_preparer.quote(str(conn.scalar(text(
        "SELECT current_schema()"))))


def member_roles(conn: Connection) -> list[str]:
    """The roles (quoted) given privileges on the library's papers: its groups, or its
    members one by one."""
    names = conn.scalars(text(
        "SELECT DISTINCT r.rolname FROM pg_class c, aclexplode(c.relacl) a "
        "JOIN pg_roles r ON r.oid = a.grantee "
        "WHERE c.oid = to_regclass('papers') AND a.grantee <> c.relowner ORDER BY 1"))
    return [conn.dialect.identifier_preparer.quote(name) for name in names]


def grant_to(conn: Connection, role: str) -> None:
    """Give `role` (quoted) what a member needs, and no more: `MEMBER_PRIVILEGES` on
    each table (what it had before is taken back), the sequences, `MEMBER_FUNCTIONS`,
    and on the tables later versions add, reading (their migrations grant what else they
    need)."""
    s = schema_of(conn)
    conn.exec_driver_sql(f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {role}")
    conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA {s} TO {role}")
    for table, privileges in MEMBER_PRIVILEGES.items():
        if conn.scalar(text("SELECT to_regclass(:t) IS NOT NULL"), {"t": table}):
            conn.exec_driver_sql(f"GRANT {privileges} ON {s}.{table} TO {role}")
    conn.exec_driver_sql(f"GRANT {SEQUENCE_PRIVILEGES} ON ALL SEQUENCES IN SCHEMA {s} "
                         f"TO {role}")
    for function in MEMBER_FUNCTIONS:
        if conn.scalar(text("SELECT to_regprocedure(:f) IS NOT NULL"), {"f": function}):
            conn.exec_driver_sql(f"GRANT EXECUTE ON FUNCTION {s}.{function} TO {role}")
    conn.exec_driver_sql(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} REVOKE ALL ON TABLES "
                         f"FROM {role}")
    conn.exec_driver_sql(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT ON TABLES "
                         f"TO {role}")
    conn.exec_driver_sql(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {s} "
                         f"GRANT {SEQUENCE_PRIVILEGES} ON SEQUENCES TO {role}")
    _no_creating_in_schema(conn, s)


def _no_creating_in_schema(conn: Connection, s: str) -> None:
    """Nobody but its owner creates objects in the library's schema (PostgreSQL 15's
    default for `public`; older servers let everyone), where this role owns it."""
    if conn.scalar(text("SELECT pg_has_role(nspowner, 'USAGE') FROM pg_namespace "
                        "WHERE nspname = current_schema()")):
        conn.exec_driver_sql(f"REVOKE CREATE ON SCHEMA {s} FROM PUBLIC")


def install(conn: Connection) -> None:
    """Schema 0013 on PostgreSQL (its migration): the triggers in place of the functions
    members called, the saved searches' policies, the members' grants cut to
    `MEMBER_PRIVILEGES`."""
    s = schema_of(conn)
    for signature in OLD_FUNCTIONS:
        conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {s}.{signature}")
    _create_triggers(conn, s, TRIGGERS)
    conn.exec_driver_sql(f"DROP POLICY IF EXISTS {_SAVED_SEARCHES_BEFORE[0]} "
                         f"ON {s}.saved_searches")
    for name, rule in SAVED_SEARCH_POLICIES.items():
        conn.exec_driver_sql(f"CREATE POLICY {name} ON {s}.saved_searches {rule}")
    for role in member_roles(conn):
        grant_to(conn, role)


def uninstall(conn: Connection, old_functions: dict[str, str]) -> None:
    """Back to schema 0012 (the migration's downgrade): `old_functions` are schema
    0009's, by signature."""
    s = schema_of(conn)
    _drop_triggers(conn, s, TRIGGERS)
    for name in SAVED_SEARCH_POLICIES:
        conn.exec_driver_sql(f"DROP POLICY IF EXISTS {name} ON {s}.saved_searches")
    conn.exec_driver_sql(f"CREATE POLICY {_SAVED_SEARCHES_BEFORE[0]} ON {s}.saved_searches "
                         f"{_SAVED_SEARCHES_BEFORE[1]}")
    for signature, body in old_functions.items():
        conn.exec_driver_sql(f"CREATE FUNCTION {signature} RETURNS void LANGUAGE sql "
                             f"SECURITY DEFINER SET search_path = pg_catalog, {s} "
                             f"AS $fn${body}$fn$")


_ANNOTATION_COLUMNS = ("id, paper_id, user_name, shared, file_sha256, page_index, page_label, "
                       "kind, color, rects, quote, comment, search_text, image, origin, "
                       "source_id, created_at, modified_at")
# (an annotation kept before, come back and gone again: kept as it is now)
_KEPT_AGAIN = ", ".join(f"{c} = EXCLUDED.{c}" for c in _ANNOTATION_COLUMNS.split(", ")[1:])
_ANNOTATIONS_GONE = f"""
DECLARE
    merge_from integer := NULLIF(
        pg_catalog.current_setting('{MERGE_FROM}', true), '')::integer;
    merge_into integer := NULLIF(
        pg_catalog.current_setting('{MERGE_INTO}', true), '')::integer;
BEGIN
    IF merge_into IS NOT NULL AND merge_from IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM {{s}}.papers WHERE id = merge_from) THEN
        -- (the paper kept, locked against a deletion running meanwhile: one that
        -- committed first leaves no row, and the annotations are kept below)
        PERFORM 1 FROM {{s}}.papers WHERE id = merge_into FOR KEY SHARE;
        IF FOUND THEN
            INSERT INTO {{s}}.annotations ({_ANNOTATION_COLUMNS})
            SELECT {_ANNOTATION_COLUMNS.replace("paper_id", "merge_into")}
            FROM papershelf_gone g WHERE g.paper_id = merge_from
            ON CONFLICT DO NOTHING;
        END IF;
    END IF;
    -- Every annotation of a paper that is gone and that did not move is kept.
    INSERT INTO {{s}}.annotations_kept ({_ANNOTATION_COLUMNS}, kept_at)
    SELECT {_ANNOTATION_COLUMNS}, pg_catalog.now() FROM papershelf_gone g
    WHERE NOT EXISTS (SELECT 1 FROM {{s}}.papers p WHERE p.id = g.paper_id)
      AND NOT EXISTS (SELECT 1 FROM {{s}}.annotations a WHERE a.id = g.id)
    ON CONFLICT (id) DO UPDATE SET {_KEPT_AGAIN}, kept_at = EXCLUDED.kept_at;
    RETURN NULL;
END"""
_ANNOTATIONS_BACK = _kept_back("annotations", _ANNOTATION_COLUMNS)
# Other members' annotations outlive a paper one member deletes (kept, and back with
# the paper when the deletion is undone) or merges away (moved onto the paper kept).
ANNOTATION_TRIGGERS = {
    "papershelf_annotations_gone": ("annotations", "AFTER DELETE",
                                    "OLD TABLE AS papershelf_gone", _ANNOTATIONS_GONE),
    "papershelf_annotations_back": ("papers", "AFTER INSERT",
                                    "NEW TABLE AS papershelf_new", _ANNOTATIONS_BACK),
}


def _create_function(conn: Connection, s: str, name: str, body: str,
                     replace: bool = False) -> None:
    conn.exec_driver_sql(
        f"CREATE {'OR REPLACE ' if replace else ''}FUNCTION {s}.{name}() RETURNS trigger "
        f"LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, {s}, pg_temp "
        f"AS $fn${body.format(s=s)}$fn$")
    conn.exec_driver_sql(f"REVOKE ALL ON FUNCTION {s}.{name}() FROM PUBLIC")


def _create_triggers(conn: Connection, s: str,
                     triggers: dict[str, tuple[str, str, str, str]]) -> None:
    for name, (table, when, transition, body) in triggers.items():
        _create_function(conn, s, name, body)
        conn.exec_driver_sql(f"CREATE TRIGGER {name} {when} ON {s}.{table} REFERENCING "
                             f"{transition} FOR EACH STATEMENT EXECUTE FUNCTION {s}.{name}()")


def _drop_triggers(conn: Connection, s: str,
                   triggers: dict[str, tuple[str, str, str, str]]) -> None:
    for name, (table, *_rest) in triggers.items():
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name} ON {s}.{table}")
        conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {s}.{name}()")


def install_annotations(conn: Connection) -> None:
    """Schema 0015 on PostgreSQL: the annotations' row-level security (not forced on
    the owner, whose triggers keep the other members' annotations), the triggers, and
    the members' grants on the new tables."""
    s = schema_of(conn)
    for table in ("annotations", "annotations_kept"):
        conn.exec_driver_sql(f"ALTER TABLE {s}.{table} ENABLE ROW LEVEL SECURITY")
    for name, rule in ANNOTATION_POLICIES.items():
        conn.exec_driver_sql(f"CREATE POLICY {name} ON {s}.annotations {rule}")
    conn.exec_driver_sql(f"CREATE POLICY annotations_kept_read ON {s}.annotations_kept "
                         f"FOR SELECT USING ({_OWN} OR shared)")
    _create_triggers(conn, s, ANNOTATION_TRIGGERS)
    for role in member_roles(conn):
        grant_to(conn, role)


def replace_function(conn: Connection, name: str, body: str | None = None) -> None:
    """The function of the trigger `name` (of `TRIGGERS` or `ANNOTATION_TRIGGERS`) as it
    is now (`body` None), or as `body` says (a migration's downgrade; {s} the schema)."""
    _create_function(conn, schema_of(conn), name,
                     body or {**TRIGGERS, **ANNOTATION_TRIGGERS}[name][3], replace=True)


def mend_annotations_gone(conn: Connection) -> None:
    """Schema 0018 on PostgreSQL: `papershelf_annotations_gone` as it is now, which keeps
    the annotations of a paper merged into one that is gone, or that cannot move, where
    schema 0015's dropped them."""
    replace_function(conn, "papershelf_annotations_gone")


def uninstall_annotations(conn: Connection) -> None:
    """Back to schema 0014 (the tables go with the migration's downgrade)."""
    _drop_triggers(conn, schema_of(conn), ANNOTATION_TRIGGERS)


def install_feeds(conn: Connection) -> None:
    """Schema 0016 on PostgreSQL: each feed table's row-level security (not forced on the
    library's owner, who copies libraries in) and the members' grants on them."""
    s = schema_of(conn)
    for table in FEED_TABLES:
        conn.exec_driver_sql(f"ALTER TABLE {s}.{table} ENABLE ROW LEVEL SECURITY")
        conn.exec_driver_sql(f"CREATE POLICY {table}_own ON {s}.{table} {_FEED_RULE}")
    for role in member_roles(conn):
        grant_to(conn, role)


# The library's setting (a row of `meta`) bounding one file's content, in bytes, and its
# default; the server refuses a bigger content as the client does (core.filestore). Only
# the library's owner sets it (schema 0026). A value that is not 1 to 18 ASCII digits is
# the default, for the server and the client alike (`file_size_limit`).
FILE_SIZE_SETTING = "file_size_limit"
FILE_SIZE_DEFAULT = 100 * 1024 * 1024
_FILE_SIZE_RE = "[0-9]{1,18}"


def file_size_limit(value: str | None) -> int:
    """The limit of one file's content that the setting's `value` says, as the server
    reads it (`_CONTENT_CHECKED`)."""
    return int(value) if value is not None and re.fullmatch(_FILE_SIZE_RE, value) \
        else FILE_SIZE_DEFAULT


_FILE_SIZE_SQL = _FILE_SIZE_RE.replace("{", "{{").replace("}", "}}")  # (in a body)
# (plpgsql bodies, SECURITY INVOKER: every member's own rights; {s} is the quoted schema)
_CONTENT_CHECKED = f"""
DECLARE
    most bigint := coalesce((SELECT CASE WHEN value ~ '^{_FILE_SIZE_SQL}$' THEN value::bigint END
                             FROM {{s}}.meta WHERE name = '{FILE_SIZE_SETTING}'),
                            {FILE_SIZE_DEFAULT});
BEGIN
    IF NEW.content IS NULL OR NEW.sha256 IS DISTINCT FROM
       pg_catalog.encode(pg_catalog.sha256(NEW.content), 'hex') THEN
        RAISE EXCEPTION USING ERRCODE = 'check_violation', MESSAGE = 'file content '
            || NEW.sha256 || ': its bytes do not have this SHA-256';
    END IF;
    NEW.size := pg_catalog.octet_length(NEW.content);
    IF NEW.size > most THEN
        RAISE EXCEPTION USING ERRCODE = 'check_violation', MESSAGE = 'file content '
            || NEW.sha256 || ': ' || NEW.size || ' bytes, over the library''s limit of '
            || most || ' bytes';
    END IF;
    RETURN NEW;
END"""
_CONTENT_KEPT = """
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = 'file content '
            || OLD.sha256 || ': a stored file is never changed';
    END IF;
    IF EXISTS (SELECT 1 FROM {s}.paper_files f WHERE f.sha256 = OLD.sha256) THEN
        RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = 'file content '
            || OLD.sha256 || ': still attached to a paper';
    END IF;
    RETURN OLD;
END"""
# Each row trigger of `file_contents`: when it fires, its function's body.
CONTENT_TRIGGERS = {
    "papershelf_content_checked": ("BEFORE INSERT", _CONTENT_CHECKED),
    "papershelf_content_kept": ("BEFORE UPDATE OR DELETE", _CONTENT_KEPT),
}


def install_file_contents(conn: Connection) -> None:
    """Schema 0018 on PostgreSQL: `file_contents` checked by the server for everyone,
    its owner included (a row's bytes have its hash and are within the library's size
    limit; a row is never changed, and deleted only when no paper's file is it), the
    members' grants (read, add, delete; no UPDATE), and the annotations' trigger mended."""
    s = schema_of(conn)
    for name, (when, body) in CONTENT_TRIGGERS.items():
        conn.exec_driver_sql(
            f"CREATE FUNCTION {s}.{name}() RETURNS trigger LANGUAGE plpgsql "
            f"SET search_path = pg_catalog, {s}, pg_temp AS $fn${body.format(s=s)}$fn$")
        conn.exec_driver_sql(f"CREATE TRIGGER {name} {when} ON {s}.file_contents "
                             f"FOR EACH ROW EXECUTE FUNCTION {s}.{name}()")
    mend_annotations_gone(conn)
    for role in member_roles(conn):
        grant_to(conn, role)


def uninstall_file_contents(conn: Connection) -> None:
    """Back to schema 0016 (the table goes with the migration's downgrade; the mended
    annotations' trigger stays, as it keeps more)."""
    s = schema_of(conn)
    for name in CONTENT_TRIGGERS:
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name} ON {s}.file_contents")
        conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {s}.{name}()")


# The row of `meta` only the library's owner (a role with its rights) writes: the limit
# of one file's content, which bounds every member's uploads and the server's check.
_SETTING_OWNED = f"""
BEGIN
    IF (TG_OP <> 'INSERT' AND OLD.name = '{FILE_SIZE_SETTING}')
       OR (TG_OP <> 'DELETE' AND NEW.name = '{FILE_SIZE_SETTING}') THEN
        IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c
                                       WHERE c.oid = TG_RELID), 'USAGE') THEN
            RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE =
                'only the library''s owner sets its limit of one file ({FILE_SIZE_SETTING})';
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END"""
OWNER_SETTINGS_TRIGGER = "papershelf_owner_settings"
# A paper's file pointed at another stored content (its `sha256` changed: no window of
# the app does it, a member may in plain SQL) is a change in the log like any other, so
# every window shows the paper as it now is (review item 13).
_FILE_REPOINTED = f"""
BEGIN
    INSERT INTO {{s}}.changes (at, user_name, touched, paper_ids, structural)
    VALUES (pg_catalog.now(), NULL, '{FILES}', CASE WHEN OLD.paper_id = NEW.paper_id
            THEN pg_catalog.json_build_array(NEW.paper_id)
            ELSE pg_catalog.json_build_array(OLD.paper_id, NEW.paper_id) END, false);
    RETURN NULL;
END"""
FILE_REPOINTED_TRIGGER = "papershelf_file_repointed"


def install_owner_settings(conn: Connection) -> None:
    """Schema 0026 on PostgreSQL: the file size limit in `meta` is the library owner's
    alone to insert, change or delete, and a paper's file pointed at another content is
    logged (row triggers with the writer's own rights)."""
    s = schema_of(conn)
    name = OWNER_SETTINGS_TRIGGER
    conn.exec_driver_sql(
        f"CREATE FUNCTION {s}.{name}() RETURNS trigger LANGUAGE plpgsql "
        f"SET search_path = pg_catalog, {s}, pg_temp AS $fn${_SETTING_OWNED}$fn$")
    conn.exec_driver_sql(f"CREATE TRIGGER {name} BEFORE INSERT OR UPDATE OR DELETE "
                         f"ON {s}.meta FOR EACH ROW EXECUTE FUNCTION {s}.{name}()")
    name = FILE_REPOINTED_TRIGGER
    conn.exec_driver_sql(
        f"CREATE FUNCTION {s}.{name}() RETURNS trigger LANGUAGE plpgsql "
        f"SET search_path = pg_catalog, {s}, pg_temp "
        f"AS $fn${_FILE_REPOINTED.format(s=s)}$fn$")
    conn.exec_driver_sql(f"CREATE TRIGGER {name} AFTER UPDATE OF sha256 ON {s}.paper_files "
                         f"FOR EACH ROW WHEN (OLD.sha256 IS DISTINCT FROM NEW.sha256) "
                         f"EXECUTE FUNCTION {s}.{name}()")


def uninstall_owner_settings(conn: Connection) -> None:
    """Back to schema 0021."""
    s = schema_of(conn)
    for name, table in ((OWNER_SETTINGS_TRIGGER, "meta"),
                        (FILE_REPOINTED_TRIGGER, "paper_files")):
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name} ON {s}.{table}")
        conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {s}.{name}()")
