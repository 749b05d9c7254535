"""A hostile member of a shared library: bob, with psql, against alice's private data.

The library is set up as the README says (owner `labadmin`, group `lab`, alice and bob
members). Alice stars papers, marks them read, writes private notes, saves searches (a
shared one and her own) and an auto-export; bob deletes one of the papers she has notes
on, so her row of it waits in `personal_kept`. Then bob, connected as himself, tries each
statement of `ATTACKS`, each in its own transaction: each must be refused or leave
alice's data as she sees it (her personal and kept rows, her saved searches and
auto-exports, the papers, the schema version) as it was, and nothing bob is shown (rows,
COPY output, notices, error messages) may hold her private words.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import psycopg
import pytest

from papershelf.core import autoexport
from papershelf.core.annotating import New
from papershelf.core.library import Library
from papershelf.feeds import inbox, sources
from papershelf.feeds.fetching import Found
from tests.conftest import SEEDS
from tests.postgres_server import PostgresServer, SharedLibrary, downgrade_shared, plain_sql

# A word only alice's private data holds (her notes, her own saved search, her export).
SECRET = "zanzibarquokka"
_PERSONAL = "paper_id int, user_name text, starred bool, read_state text, " \
            "read_at timestamptz, private_notes text"

# What bob tries, in order, in one session (so a temporary table made by one statement
# shadows the library's table in the next). {a1}: a paper alice starred, read and wrote
# private notes on (bob starred it too); {a2}: one she is reading; {gone}: the paper bob
# deleted, alice's row of it kept; {shared}, {own}: the ids of her shared and her own
# saved search; {export}: her auto-export's id.
ATTACKS = [
    # -- the library's own functions (schema 0009-0012), through temporary tables
    f"CREATE TEMP TABLE personal_kept ({_PERSONAL}, kept_at timestamptz, "
    "PRIMARY KEY (paper_id, user_name))",
    # (the functions ran as the library's owner: bob lets it write his tables)
    "GRANT ALL ON pg_temp.personal_kept TO PUBLIC",
    "SELECT papershelf_keep_personal(ARRAY(SELECT id FROM papers), 'bob')",
    "SELECT * FROM personal_kept",
    "SELECT * FROM pg_temp.personal_kept",
    f"CREATE TEMP TABLE personal ({_PERSONAL}, PRIMARY KEY (paper_id, user_name))",
    "GRANT ALL ON pg_temp.personal TO PUBLIC",
    "INSERT INTO pg_temp.personal VALUES ({a2}, 'alice', true, 'read', now(), 'planted')",
    "SELECT papershelf_keep_personal(ARRAY[{a2}], 'bob')",
    "SELECT papershelf_bring_back_personal(ARRAY[{a2}])",
    "SELECT papershelf_bring_back_personal(ARRAY(SELECT paper_id FROM pg_temp.personal))",
    "SELECT papershelf_fold_personal({a2}, {a1}, 'bob')",
    "CREATE TEMP TABLE papers (id int PRIMARY KEY)",
    "GRANT ALL ON pg_temp.papers TO PUBLIC",
    "INSERT INTO pg_temp.papers VALUES ({gone})",
    "SELECT papershelf_bring_back_personal(ARRAY[{gone}])",
    "SELECT * FROM pg_temp.personal",
    "DROP TABLE pg_temp.papers, pg_temp.personal, pg_temp.personal_kept",
    # -- the functions with other users' names and ids
    "SELECT papershelf_keep_personal(ARRAY[{a1}, {a2}], 'alice')",
    "SELECT papershelf_fold_personal({a1}, {a2}, 'bob')",
    "SELECT papershelf_fold_personal({a2}, {a1}, 'alice')",
    "SELECT papershelf_bring_back_personal(ARRAY[{gone}, {a1}, {a2}])",
    "DO $$ BEGIN PERFORM papershelf_fold_personal({a1}, {a2}, 'lab'); END $$",
    # -- the functions through views, and the trigger functions called directly
    "CREATE TEMP VIEW folding AS SELECT count(*) FROM "
    "(SELECT papershelf_fold_personal({a1}, {a2}, 'bob')) f",
    "SELECT * FROM folding",
    "CREATE VIEW public.keeping AS SELECT papershelf_keep_personal(ARRAY[{a1}], 'bob')",
    "CREATE TEMP VIEW kept_view AS SELECT * FROM personal_kept",
    "SELECT * FROM kept_view",
    "SELECT papershelf_personal_gone()",
    "SELECT papershelf_papers_back()",
    "CREATE TEMP VIEW trigger_view AS SELECT papershelf_personal_gone()",
    "SELECT papershelf_notify_change()",
    # -- the triggers of schema 0013, fired by bob with temporary tables in their way:
    # his own row deleted, and a paper inserted with the id of the deleted one (alice's
    # kept row comes back to it) and deleted again in the same transaction
    f"CREATE TEMP TABLE personal_kept ({_PERSONAL}, kept_at timestamptz, "
    "PRIMARY KEY (paper_id, user_name))",
    f"CREATE TEMP TABLE personal ({_PERSONAL}, PRIMARY KEY (paper_id, user_name))",
    "CREATE TEMP TABLE papers (id int PRIMARY KEY)",
    "GRANT ALL ON pg_temp.personal_kept, pg_temp.personal, pg_temp.papers TO PUBLIC",
    "INSERT INTO pg_temp.papers VALUES ({a1}), ({a2}), ({gone})",
    "DELETE FROM public.personal WHERE paper_id = {a1}",
    "INSERT INTO public.papers SELECT (jsonb_populate_record(NULL::public.papers, "
    "to_jsonb(p) || jsonb_build_object('id', {gone}, 'key', 'bobcopy'))).* "
    "FROM public.papers p WHERE p.id = {a2}; DELETE FROM public.papers WHERE id = {gone}",
    "SELECT * FROM pg_temp.personal_kept",
    "SELECT * FROM pg_temp.personal",
    "DROP TABLE pg_temp.papers, pg_temp.personal, pg_temp.personal_kept",
    # -- alice's rows, directly
    "SELECT * FROM personal WHERE user_name = 'alice'",
    "UPDATE personal SET private_notes = 'hacked' WHERE user_name = 'alice'",
    "DELETE FROM personal WHERE user_name = 'alice'",
    "INSERT INTO personal (paper_id, user_name, starred, private_notes) "
    "VALUES ({a2}, 'alice', true, 'forged')",
    "INSERT INTO personal (paper_id, user_name, private_notes) VALUES ({a1}, 'alice', 'x') "
    "ON CONFLICT (paper_id, user_name) DO UPDATE SET private_notes = 'overwritten'",
    "UPDATE personal SET user_name = 'alice' WHERE user_name = 'bob'",
    "MERGE INTO personal p USING (SELECT {a1} AS id) s ON p.paper_id = s.id "
    "WHEN MATCHED THEN UPDATE SET private_notes = 'merged'",
    "INSERT INTO personal_kept (paper_id, user_name, starred, read_state, private_notes, "
    "kept_at) VALUES ({a2}, 'alice', true, 'read', 'forged', now())",
    "UPDATE personal_kept SET private_notes = 'hacked'",
    "DELETE FROM personal_kept WHERE user_name = 'alice'",
    "SELECT * FROM personal_kept WHERE user_name = 'alice'",
    "COPY (SELECT * FROM personal) TO STDOUT",
    "COPY personal TO STDOUT",
    "COPY personal_kept TO STDOUT",
    "COPY personal (paper_id, user_name, starred, read_state, private_notes) FROM STDIN",
    "COPY personal_kept (paper_id, user_name, starred, read_state, private_notes) "
    "FROM STDIN",
    "COPY personal TO '/tmp/papershelf-personal.txt'",
    "COPY personal TO PROGRAM 'cat'",
    "SET row_security = off",
    "SELECT * FROM personal",
    "RESET row_security",
    # a function of bob's own that shows what it is given, before the policy can filter
    "CREATE FUNCTION pg_temp.peek(text) RETURNS boolean LANGUAGE plpgsql COST 0.0000001 "
    "AS $$ BEGIN RAISE NOTICE 'peek %', $1; RETURN true; END $$",
    "SELECT * FROM personal WHERE pg_temp.peek(private_notes)",
    "SELECT * FROM personal_kept WHERE pg_temp.peek(private_notes)",
    "SELECT * FROM saved_searches WHERE pg_temp.peek(query)",
    "SELECT most_common_vals::text FROM pg_stats WHERE tablename IN "
    "('personal', 'personal_kept', 'saved_searches', 'auto_exports')",
    # -- deleting and merging papers: bob's own way round the window
    "SELECT set_config('papershelf.merge_from', '{a1}', false)",
    "SELECT set_config('papershelf.merge_into', '{a2}', false)",
    "UPDATE papers SET id = id + 100000 WHERE id = {a1}",
    "DELETE FROM personal WHERE paper_id = {a1}",
    "RESET papershelf.merge_from",
    # -- saved searches and auto-exports
    "UPDATE saved_searches SET query = 'hacked' WHERE id = {shared}",
    "UPDATE saved_searches SET name = 'Renamed by bob' WHERE id = {shared}",
    "UPDATE saved_searches SET shared = false WHERE id = {shared}",
    "UPDATE saved_searches SET user_name = 'bob' WHERE id = {shared}",
    "DELETE FROM saved_searches WHERE id = {shared}",
    "INSERT INTO saved_searches (user_name, name, query, position, shared, created_at) "
    "VALUES ('alice', 'Forged', 'forged', 0, true, now())",
    "INSERT INTO saved_searches (user_name, name, query, position, shared, created_at) "
    "VALUES ('alice', 'Forged', 'forged', 0, false, now())",
    "SELECT * FROM saved_searches WHERE id = {own}",
    "UPDATE saved_searches SET shared = true WHERE id = {own}",
    "UPDATE auto_exports SET path = '/tmp/bob.bib' WHERE id = {export}",
    "DELETE FROM auto_exports WHERE id = {export}",
    "INSERT INTO auto_exports (user_name, path, what, format, include_abstract, "
    "include_notes, ascii_only, include_files, state, message, created_at, stamp) "
    "VALUES ('alice', '/tmp/forged.bib', 'all', 'bibtex', true, true, false, false, "
    "'new', '', now(), '')",
    "SELECT * FROM auto_exports",
    # -- annotations (schema 0015): {note} alice's private one, {lab} her shared one
    "SELECT * FROM annotations",
    "SELECT * FROM annotations_kept",
    "UPDATE annotations SET comment = 'bob was here' WHERE id = {lab}",
    "UPDATE annotations SET shared = true WHERE id = {note}",
    "UPDATE annotations SET user_name = 'bob' WHERE id = {lab}",
    "DELETE FROM annotations WHERE id IN ({note}, {lab})",
    "DELETE FROM annotations_kept",
    "INSERT INTO annotations (paper_id, user_name, shared, page_index, kind, rects, "
    "created_at, modified_at) VALUES ({a2}, 'alice', true, 0, 'note', '[]', now(), now())",
    "INSERT INTO annotations_kept (id, paper_id, user_name, page_index, kind, rects, "
    "created_at, modified_at, kept_at) VALUES (999999, {gone}, 'alice', 0, 'note', '[]', "
    "now(), now(), now())",
    "SELECT papershelf_annotations_gone()",
    "SELECT papershelf_annotations_back()",
    # (the search of the annotations' index, schema 0023: its owner's to change)
    "CREATE OR REPLACE FUNCTION papershelf_annotated_papers(words tsquery) RETURNS SETOF "
    "integer LANGUAGE sql AS 'SELECT paper_id FROM annotations'",
    "ALTER FUNCTION papershelf_annotated_papers(tsquery) OWNER TO bob",
    "ALTER FUNCTION papershelf_annotated_papers(tsquery) SET search_path = pg_temp, public",
    "ALTER FUNCTION papershelf_annotated_papers(tsquery) RESET ALL",
    "DROP FUNCTION papershelf_annotated_papers(tsquery)",
    "GRANT EXECUTE ON FUNCTION papershelf_annotated_papers(tsquery) TO PUBLIC",
    # (the triggers with temporary tables in their way: the deleted paper's id inserted,
    # alice's kept annotations come back to it, and deleted again in one transaction)
    "CREATE TEMP TABLE annotations_kept (LIKE public.annotations_kept)",
    "CREATE TEMP TABLE annotations (LIKE public.annotations)",
    "GRANT ALL ON pg_temp.annotations_kept, pg_temp.annotations TO PUBLIC",
    "INSERT INTO public.papers SELECT (jsonb_populate_record(NULL::public.papers, "
    "to_jsonb(p) || jsonb_build_object('id', {gone}, 'key', 'bobcopy'))).* "
    "FROM public.papers p WHERE p.id = {a2}; DELETE FROM public.papers WHERE id = {gone}",
    "SELECT * FROM pg_temp.annotations_kept",
    "SELECT * FROM pg_temp.annotations",
    "DROP TABLE pg_temp.annotations_kept, pg_temp.annotations",
    "SELECT most_common_vals::text FROM pg_stats WHERE tablename IN "
    "('annotations', 'annotations_kept')",
    "TRUNCATE annotations",
    "TRUNCATE annotations_kept",
    # -- followed sources and the inbox (schema 0016): all of alice's are hers alone
    "SELECT * FROM feed_sources",
    "SELECT * FROM inbox_items",
    "SELECT * FROM inbox_dismissed",
    "SELECT * FROM inbox_items WHERE pg_temp.peek(title)",
    "SELECT * FROM inbox_dismissed WHERE pg_temp.peek(title)",
    "COPY inbox_items TO STDOUT",
    "UPDATE feed_sources SET note = 'bob was here'",
    "UPDATE feed_sources SET user_name = 'bob'",
    "UPDATE inbox_items SET state = 'dismissed', kept = true",
    "DELETE FROM inbox_items",
    "DELETE FROM inbox_dismissed",
    "DELETE FROM feed_sources",
    "INSERT INTO inbox_dismissed (user_name, identity, title, dismissed_at) "
    "VALUES ('alice', 'title:forged', 'forged', now())",
    "INSERT INTO feed_sources (user_name, spelling, kind, etag, last_modified, state, note, "
    "created_at) VALUES ('alice', 'arxiv:forged', 'arxiv', '', '', 'new', '', now())",
    "INSERT INTO inbox_items (user_name, identity, title, title_norm, authors, abstract, url, "
    "doi, arxiv_id, venue, state, kept, found_at) VALUES ('alice', 'title:forged', 'forged', "
    "'forged', '', '', '', '', '', '', 'new', false, now())",
    "TRUNCATE inbox_items",
    "TRUNCATE inbox_dismissed",
    "SELECT most_common_vals::text FROM pg_stats WHERE tablename IN "
    "('feed_sources', 'inbox_items', 'inbox_dismissed')",
    # -- the limit of one shared file (schema 0026): the owner's, bounding everyone
    "UPDATE meta SET value = '999999999999' WHERE name = 'file_size_limit'",
    "INSERT INTO meta VALUES ('file_size_limit', '999999999999') "
    "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
    "DELETE FROM meta WHERE name = 'file_size_limit'",
    "UPDATE meta SET name = 'bob' WHERE name = 'file_size_limit'",
    "SET session_replication_role = replica",
    "ALTER TABLE meta DISABLE TRIGGER papershelf_owner_settings",
    "DROP TRIGGER papershelf_owner_settings ON meta",
    "CREATE OR REPLACE FUNCTION papershelf_owner_settings() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
    # -- the schema version, and tables the app does not write that way
    "UPDATE alembic_version SET version_num = '9999'",
    "DELETE FROM alembic_version",
    "INSERT INTO alembic_version VALUES ('0099')",
    "TRUNCATE personal",
    "TRUNCATE personal_kept",
    "TRUNCATE saved_searches",
    "TRUNCATE papers CASCADE",
    "TRUNCATE alembic_version",
    "UPDATE changes SET user_name = 'bob'",
    # -- roles, ownership, policies, the schema
    "SET ROLE alice",
    "SET ROLE labadmin",
    "SET SESSION AUTHORIZATION alice",
    "SET ROLE lab",
    "UPDATE personal SET private_notes = 'as lab' WHERE user_name = 'alice'",
    "SELECT * FROM personal",
    "RESET ROLE",
    "SELECT rolname, rolpassword FROM pg_authid",
    "ALTER TABLE personal DISABLE ROW LEVEL SECURITY",
    "ALTER TABLE personal OWNER TO bob",
    "ALTER TABLE personal DISABLE TRIGGER ALL",
    "ALTER TABLE personal_kept DISABLE ROW LEVEL SECURITY",
    "ALTER TABLE saved_searches NO FORCE ROW LEVEL SECURITY",
    "DROP POLICY personal_own ON personal",
    "CREATE POLICY bob_reads_all ON personal FOR SELECT USING (true)",
    "ALTER POLICY saved_searches_read ON saved_searches USING (true)",
    "ALTER FUNCTION papershelf_personal_gone() OWNER TO bob",
    "ALTER FUNCTION papershelf_personal_gone() SECURITY INVOKER",
    "CREATE OR REPLACE FUNCTION papershelf_notify_change() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
    "DROP FUNCTION papershelf_personal_gone() CASCADE",
    "DROP TRIGGER papershelf_personal_gone ON personal",
    "CREATE TRIGGER bob_sees AFTER INSERT ON personal FOR EACH ROW "
    "EXECUTE FUNCTION papershelf_notify_change()",
    "CREATE FUNCTION public.bob_function() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    "CREATE TABLE public.bob_table (x int)",
    "CREATE SCHEMA bob_schema",
    "CREATE EXTENSION dblink",
    "GRANT SELECT ON personal TO bob",
    "DROP TABLE personal",
    "DROP TABLE papers CASCADE",
    "DROP TABLE alembic_version",
    "ALTER TABLE papers ADD COLUMN bob text",
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT lo_import('/etc/passwd')",
    # -- LISTEN/NOTIFY
    "LISTEN papershelf_changes",
    "NOTIFY papershelf_changes, '999999'",
    "SELECT pg_notify('papershelf_changes', '1')",
    "UNLISTEN *",
]


@dataclass
class Outcome:
    """What one statement did: ran or was refused, and what bob was shown."""

    result: str
    shown: str


def attempt(conn: psycopg.Connection[Any], statement: str, notices: list[str],
            forged_row: tuple[Any, ...]) -> Outcome:
    """Run `statement` as bob in a transaction of its own: committed if it ran, rolled
    back if refused."""
    shown: list[str] = []
    notices.clear()
    try:
        with conn.cursor() as cursor:
            if " TO STDOUT" in statement:
                with cursor.copy(statement) as copy:
                    shown.extend(bytes(chunk).decode() for chunk in copy)
            elif " FROM STDIN" in statement:
                with cursor.copy(statement) as copy:
                    copy.write_row(forged_row)
            else:
                cursor.execute(statement)
                if cursor.description:
                    shown.append(repr(cursor.fetchall()))
        conn.commit()
        result = "ran"
    except psycopg.Error as exc:
        conn.rollback()
        result = f"refused ({exc.sqlstate}: {exc.diag.message_primary})"
        shown.append(str(exc))
    return Outcome(result, "\n".join([*shown, *notices]))


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """What alice sees of her own data, and of what every member relies on."""
    queries = {
        "her personal rows": "SELECT paper_id, user_name, starred, read_state, read_at, "
                             "private_notes FROM personal ORDER BY paper_id",
        "her kept rows": "SELECT paper_id, user_name, starred, read_state, read_at, "
                         "private_notes FROM personal_kept ORDER BY paper_id",
        "saved searches": "SELECT id, user_name, name, query, position, shared "
                          "FROM saved_searches ORDER BY id",
        "her auto-exports": "SELECT id, user_name, path, what, format FROM auto_exports "
                            "ORDER BY id",
        "papers": "SELECT to_jsonb(p)::text FROM papers p ORDER BY id",
        "annotations": "SELECT id, paper_id, user_name, shared, comment FROM annotations "
                       "ORDER BY id",
        "kept annotations": "SELECT id, paper_id, user_name, shared, comment "
                            "FROM annotations_kept ORDER BY id",
        "her sources": "SELECT id, user_name, spelling, note FROM feed_sources ORDER BY id",
        "her inbox": "SELECT id, user_name, title, state, kept FROM inbox_items ORDER BY id",
        "her dismissed": "SELECT user_name, identity, title FROM inbox_dismissed ORDER BY 2",
        "schema version": "SELECT version_num FROM alembic_version",
        "file size limit": "SELECT value FROM meta WHERE name = 'file_size_limit'",
    }
    with plain_sql(url) as conn:
        return {name: conn.execute(query).fetchall() for name, query in queries.items()}


@pytest.fixture
def targets(pg_lab: SharedLibrary, tmp_path: Path) -> Iterator[dict[str, int]]:
    """Alice's data in `pg_lab` (see the module's docstring); the ids `ATTACKS` name."""
    alice, bob = Library.open(pg_lab.alice), Library.open(pg_lab.bob)
    try:
        alice.ensure_sample(SEEDS)
        a1, a2, a3, gone = alice.view_ids()[:4]
        alice.set_starred([a1], True)
        alice.set_read_state([a1], "read")
        alice.set_read_state([a2], "reading")
        for pid in (a1, a2, a3, gone):
            alice.set_private_notes(pid, f"Alice only: {SECRET} on paper {pid}")
        bob.set_starred([a1], True)
        bob.set_private_notes(a2, "Bob's own note")
        alice.add_saved_search("Group reading", "learning", shared=True)
        alice.add_saved_search("Mine", SECRET)
        autoexport.add(alice, tmp_path / f"{SECRET}.bib", "starred")
        _change, note = alice.add_annotation(a1, New(
            "note", 0, "", [(1, 1, 1, 1)], comment=f"Alice only: {SECRET}"))
        _change, lab = alice.add_annotation(a1, New(
            "note", 0, "", [(1, 1, 1, 1)], comment="For the lab", shared=True))
        for shared in (False, True):  # (kept when bob deletes the paper)
            alice.add_annotation(gone, New("note", 0, "", [(1, 1, 1, 1)], shared=shared,
                                           comment=f"Alice's on the paper bob deletes: "
                                           f"{SECRET if not shared else 'shared'}"))
        bob.delete_papers([gone])
        _change, source = sources.follow(alice.context, f"https://example.org/{SECRET}.rss")
        inbox._store(alice.context, source.id, [
            Found(f"Alice's inbox: {SECRET}", doi=f"10.1/{SECRET}"),
            Found(f"Alice dismissed: {SECRET}")], datetime.now(timezone.utc))
        inbox.dismiss(alice, [next(i.id for i in inbox.items(alice)
                                   if i.title.startswith("Alice dismissed"))])
        owner = Library.open(pg_lab.superuser)
        try:
            owner.set_file_size_limit(10 * 2**20)
        finally:
            owner.close()
        saved = {s.name: s.id for s in alice.saved_searches()}
        [export] = autoexport.auto_exports(alice)
        yield {"a1": a1, "a2": a2, "a3": a3, "gone": gone, "shared": saved["Group reading"],
               "own": saved["Mine"], "export": export.id, "note": note, "lab": lab}
    finally:
        alice.close()
        bob.close()


def test_a_hostile_member_in_plain_sql_neither_reads_nor_changes_anothers_data(
        pg_lab: SharedLibrary, targets: dict[str, int]) -> None:
    assert len(ATTACKS) >= 60
    before = snapshot(pg_lab.alice)
    assert before["her kept rows"] and SECRET in repr(before["her personal rows"])
    assert before["file size limit"] == [(str(10 * 2**20),)]
    assert SECRET in repr(before["her inbox"]) and SECRET in repr(before["her dismissed"])
    failures = []
    with plain_sql(pg_lab.bob, autocommit=False) as bob:
        notices: list[str] = []
        bob.add_notice_handler(lambda diagnostic: notices.append(
            str(diagnostic.message_primary)))
        assert bob.execute("SELECT current_user, rolsuper FROM pg_roles "
                           "WHERE rolname = current_user").fetchone() == ("bob", False)
        bob.rollback()
        for template in ATTACKS:
            statement = template.format(**targets)
            outcome = attempt(bob, statement, notices,
                              (targets["a2"], "alice", True, "read", "forged by bob"))
            after = snapshot(pg_lab.alice)
            changed = [name for name in before if after[name] != before[name]]
            if changed:
                failures.append(f"{statement}\n    {outcome.result}; changed alice's "
                                f"{', '.join(changed)}")
                before = after  # (each statement blamed for its own change only)
            if SECRET in outcome.shown:
                failures.append(f"{statement}\n    {outcome.result}; bob was shown "
                                f"alice's private data: {outcome.shown[:300]}")
    assert not failures, "\n".join(failures)


def test_no_function_a_member_may_call_runs_with_the_owners_rights(
        pg_lab: SharedLibrary) -> None:
    """The functions that run as the library's owner are trigger functions no member can
    execute, each with the search path that ends in pg_temp; every policy that lets a
    member write says what they may write."""
    with plain_sql(pg_lab.superuser) as conn:
        definers = conn.execute(
            "SELECT p.proname, pg_catalog.format_type(p.prorettype, NULL), p.proconfig, "
            "has_function_privilege('lab', p.oid, 'EXECUTE'), "
            "has_function_privilege('bob', p.oid, 'EXECUTE') FROM pg_proc p "
            "WHERE p.pronamespace = current_schema()::regnamespace AND p.prosecdef "
            "ORDER BY 1").fetchall()
        policies = conn.execute("SELECT tablename, policyname, cmd, with_check IS NOT NULL "
                                "FROM pg_policies ORDER BY 1, 2").fetchall()
    assert [name for name, *_ in definers] == [
        "papershelf_annotated_papers", "papershelf_annotations_back",
        "papershelf_annotations_gone", "papershelf_papers_back", "papershelf_personal_gone"]
    for name, returns, config, group_may, bob_may in definers:
        # (but the search of the annotations' index, which gives the ids of the papers
        # of those the caller sees: the members', no one else's, tried below)
        assert (returns, group_may, bob_may) == (
            ("integer", True, True) if name == "papershelf_annotated_papers"
            else ("trigger", False, False))
        assert config == ['search_path=pg_catalog, public, pg_temp']
    with plain_sql(pg_lab.superuser) as conn:
        public = conn.execute(
            "SELECT a.grantee FROM pg_proc p, "
            "aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a WHERE p.oid = "
            "'papershelf_annotated_papers(tsquery)'::regprocedure AND a.grantee = 0")
        assert public.fetchall() == []  # (no role but the members may call it)
    assert [(table, name) for table, name, command, checked in policies
            if command != "SELECT" and command != "DELETE" and not checked] == []


def test_the_annotations_search_never_tells_a_member_which_papers_hold_anothers_words(
        pg_lab: SharedLibrary, targets: dict[str, int]) -> None:
    """`papershelf_annotated_papers`, which reads the annotations' index as the library's
    owner, gives alice the paper her private words are on; bob, typing SQL, asks it for
    them every way he can (a prefix, a weight, an OR with a shared word, as the group, with
    his own tables and search path, counting) and learns nothing: only the papers of his
    own and the shared annotations."""
    a1 = targets["a1"]  # (alice's private note holds SECRET, her shared one "lab")

    def asked(words: str) -> str:
        return f"papershelf_annotated_papers(to_tsquery('papershelf_search', '{words}'))"

    with plain_sql(pg_lab.alice) as alice:
        assert alice.execute(f"SELECT * FROM {asked(SECRET)}").fetchall() == [(a1,)]
    tries = [f"SELECT * FROM {asked(SECRET)}", f"SELECT * FROM {asked(SECRET[:6] + ':*')}",
             f"SELECT * FROM {asked(SECRET + ':B')}",
             f"SELECT * FROM {asked('alice <-> only')}",
             f"SELECT count(*) FROM {asked(SECRET)}",
             f"SELECT EXISTS (SELECT FROM {asked(SECRET)})",
             f"SELECT * FROM papers WHERE id IN (SELECT {asked(SECRET)})",
             f"SELECT * FROM {asked(SECRET + ' & lab')}"]
    with plain_sql(pg_lab.bob) as bob:
        assert bob.execute(f"SELECT * FROM {asked(SECRET + ' | lab')}").fetchall() == [(a1,)]
        shown = [bob.execute(sql).fetchall() for sql in tries]
        bob.execute("CREATE TEMP TABLE annotations AS SELECT * FROM public.annotations "
                    "WITH NO DATA")
        bob.execute(f"INSERT INTO pg_temp.annotations (id, paper_id, user_name, shared, "
                    f"page_index, kind, rects, quote, comment, created_at, modified_at) "
                    f"VALUES (1, {a1}, 'bob', true, 0, 'note', '[]', '', '{SECRET}', now(), "
                    "now())")
        bob.execute("SET search_path = pg_temp, public")
        shown.append(bob.execute(f"SELECT * FROM public.{asked(SECRET)}").fetchall())
        bob.execute("RESET search_path")
        bob.execute("SET ROLE lab")
        shown.append(bob.execute(f"SELECT * FROM {asked(SECRET)}").fetchall())
        bob.execute("RESET ROLE")
        shown.append(bob.execute(f"SELECT * FROM {asked(SECRET)}").fetchall())
        with pytest.raises(psycopg.Error):  # (no argument names the caller)
            bob.execute(f"SELECT * FROM papershelf_annotated_papers("
                        f"to_tsquery('papershelf_search', '{SECRET}'), 'alice')")
    assert shown == [[], [], [], [], [(0,)], [(False,)], [], [], [], [], []]


def test_the_annotations_search_gives_a_role_outside_the_library_nothing(
        pg_server: PostgresServer, pg_lab: SharedLibrary, targets: dict[str, int]) -> None:
    """Olga, a role of the same server who is no member (a role of her own: another
    test makes carol a member of lab), may not call it; given EXECUTE by mistake, she
    still learns nothing, not even of the shared annotations (she may not read
    `annotations`)."""
    pg_server.create_role("olga_outsider", "olga-secret")
    carol = pg_server.url(pg_lab.database, "olga_outsider", "olga-secret")
    asked = ("SELECT * FROM papershelf_annotated_papers(to_tsquery('papershelf_search', "
             f"'{SECRET} | lab'))")
    with plain_sql(carol) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(asked)
    with plain_sql(pg_lab.superuser) as owner:
        owner.execute("GRANT EXECUTE ON FUNCTION papershelf_annotated_papers(tsquery) "
                      "TO olga_outsider")
    with plain_sql(carol) as conn:
        assert conn.execute(asked).fetchall() == []
    with plain_sql(pg_lab.bob) as conn:  # (a member sees the shared one's paper)
        assert conn.execute(asked).fetchall() == [(targets["a1"],)]


def test_a_paper_deleted_in_plain_sql_keeps_the_other_members_data(
        pg_lab: SharedLibrary, targets: dict[str, int]) -> None:
    """Bob deletes a paper alice starred and wrote on, and merges another away, in psql:
    her rows of the first wait for it in `personal_kept` as the window's delete keeps
    them; those of the second are folded into the paper it was merged into."""
    a1, a2 = targets["a1"], targets["a2"]
    with plain_sql(pg_lab.bob) as bob:
        bob.execute("DELETE FROM papers WHERE id = %s", (a1,))
    with plain_sql(pg_lab.alice) as alice:
        kept = alice.execute("SELECT paper_id, starred, read_state, private_notes "
                             "FROM personal_kept WHERE paper_id = %s", (a1,)).fetchall()
    assert kept == [(a1, True, "read", f"Alice only: {SECRET} on paper {a1}")]
    third = targets["a3"]  # (alice wrote on it too)
    with plain_sql(pg_lab.bob) as bob, bob.transaction():
        bob.execute("SELECT set_config('papershelf.merge_from', %s, true), "
                    "set_config('papershelf.merge_into', %s, true)", (str(third), str(a2)))
        bob.execute("DELETE FROM papers WHERE id = %s", (third,))
    alice_library = Library.open(pg_lab.alice)
    try:
        detail = alice_library.paper(a2)
        assert detail is not None and detail.read_state == "reading"
        assert detail.private_notes == (f"Alice only: {SECRET} on paper {a2}\n\n"
                                        f"Alice only: {SECRET} on paper {third}")
    finally:
        alice_library.close()


def test_an_upgraded_shared_library_takes_back_what_members_could_do(
        pg_lab: SharedLibrary, targets: dict[str, int]) -> None:
    """A library shared under schema 0012, its group given every table (as `init-shared
    --group` did then), upgraded by its owner: the functions members could call are gone,
    and the group keeps only what `MEMBER_PRIVILEGES` says."""
    from papershelf.core.store.pg_members import MEMBER_PRIVILEGES

    downgrade_shared(pg_lab.superuser, "0012",
                     "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO lab")
    with plain_sql(pg_lab.bob) as bob:  # (what schema 0012 let bob do)
        bob.execute("SELECT papershelf_fold_personal(%s, %s, 'bob')",
                    (targets["a1"], targets["a2"]))
        bob.execute("UPDATE alembic_version SET version_num = version_num")
    Library.open(pg_lab.superuser).close()  # (upgraded as it opens)
    with plain_sql(pg_lab.bob) as bob:
        for statement in ("SELECT papershelf_fold_personal(1, 2, 'bob')",
                          "UPDATE alembic_version SET version_num = '0099'"):
            with pytest.raises(psycopg.Error):
                bob.execute(statement)
    with plain_sql(pg_lab.superuser) as conn:
        granted = dict(conn.execute(
            "SELECT table_name, string_agg(privilege_type, ', ' ORDER BY privilege_type) "
            "FROM information_schema.role_table_grants WHERE grantee = 'lab' "
            "GROUP BY table_name").fetchall())
    assert granted == {table: ", ".join(sorted(privileges.split(", ")))
                       for table, privileges in MEMBER_PRIVILEGES.items()}


def test_every_table_of_the_library_has_its_members_privileges(pg_url: str) -> None:
    """A table a later schema adds and `MEMBER_PRIVILEGES` forgets would be out of the
    members' reach after `init-shared --group` (which grants table by table)."""
    from papershelf.core.store.pg_members import MEMBER_PRIVILEGES

    with plain_sql(pg_url) as conn:
        tables = {name for (name,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    assert tables == set(MEMBER_PRIVILEGES)
