"""A member of a shared library can neither read nor change another's private data, even
in plain SQL.

Schemas 0009-0012 let members call three functions that ran as the library's owner
(SECURITY DEFINER) to keep, fold and bring back the other members' stars, read states
and private notes around a deletion. They believed the user name they were given, acted
on any paper, and found their tables by a search path in which a member's temporary
table came first: a member could read, plant and change another's rows through them.
They are replaced by two triggers no member can call (`core.store.pg_members`), which
also keep the others' rows when a paper is deleted in plain SQL. A shared saved search
is every member's to read and only its owner's to change; each table's grants are cut
to what the app needs (members no longer write the schema version).

A library file has one user and no roles: this revision changes nothing there.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 09:00:00
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from alembic import op

from papershelf.core.store import pg_members

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        pg_members.install(conn)


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        spec = importlib.util.spec_from_file_location(
            "papershelf_migration_0009", Path(__file__).with_name("0009_personal_kept.py"))
        assert spec is not None and spec.loader is not None
        schema_0009 = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(schema_0009)
        pg_members.uninstall(conn, schema_0009._FUNCTIONS)
