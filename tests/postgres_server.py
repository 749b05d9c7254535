"""A throwaway PostgreSQL server for the tests: a pytest plugin (`tests.postgres_server`).

One cluster per test session, made by `initdb` in a temporary folder and listening on a
Unix socket only (no TCP: nothing else can reach it and no port can clash), fsync off
(nothing in it has to survive). PostgreSQL refuses to run as root, so as root the
server runs as the `postgres` OS user. It is stopped at the end of the session, and at
interpreter exit if the session ends any other way. The PG* environment variables are
cleared for the session, so the user's own settings never reach it.

Fixtures:
- `pg_server` (session): the running `PostgresServer`.
- `pg_url`: the URL of a fresh library database for the superuser, already migrated
  to the schema head (copied from a template migrated once per session), dropped after
  the test.
- `pg_lab`: a `SharedLibrary` set up as the README says: owned by `labadmin`, a role
  that is not a superuser (`init-shared --group lab`), used by alice and bob, members of
  the group role `lab`.
- `pg_roles`: a `SharedLibrary`: ordinary login roles alice and bob (not superusers, so
  row-level security applies to them) with passwords, and a fresh library database they
  share. The database and its tables belong to the superuser `postgres`; alice and bob
  have a member's privileges on each table (`pg_members.MEMBER_PRIVILEGES`) and use its
  sequences, not change the schema.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
from psycopg import sql

SUPERUSER = "postgres"
PORT = 54329  # names the socket file only: the server listens on no TCP port
# The roles of `pg_roles` and their passwords.
ROLES = {"alice": "alice-secret", "bob": "bob-secret"}
HBA = """\
local all postgres trust
local all all scram-sha-256
"""
_DATABASE_NUMBERS = itertools.count(1)


def _bin_dir() -> Path:
    """The newest installed PostgreSQL's programs (Debian's layout, then the PATH)."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if found:
        newest = max(found, key=lambda p: int(re.sub(r"\D", "", Path(p).parts[-3]) or 0))
        return Path(newest).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    pytest.fail("PostgreSQL's initdb is missing (looked in /usr/lib/postgresql/*/bin and "
                "on the PATH): `make test` installs Debian's postgresql package "
                "(.ci/system-packages)", pytrace=False)


class PostgresServer:
    """A PostgreSQL cluster of its own in a temporary folder, on a Unix socket."""

    def __init__(self) -> None:
        self.bin_dir = _bin_dir()
        self.base = Path(tempfile.mkdtemp(prefix="papershelf-pg-"))
        self.data_dir = self.base / "data"
        self.socket_dir = str(self.base / "socket")
        self.log_file = self.base / "server.log"
        self.port = PORT
        self._running = False
        self._as_user: list[str] = []
        Path(self.socket_dir).mkdir(mode=0o700)
        if os.geteuid() == 0:  # PostgreSQL's programs refuse root
            try:
                account = pwd.getpwnam(SUPERUSER)
            except KeyError:
                pytest.fail("running as root, the tests run PostgreSQL as the `postgres` "
                            "OS user, which is missing: install Debian's postgresql "
                            "package (`make test` does)", pytrace=False)
            for path in (self.base, Path(self.socket_dir)):
                os.chown(path, account.pw_uid, account.pw_gid)
            self._as_user = (["runuser", "-u", SUPERUSER, "--"] if shutil.which("runuser")
                             else ["su", SUPERUSER, "-s", "/bin/sh", "-c"])

    def _run(self, program: str, *args: str) -> None:
        """Run one of PostgreSQL's programs (as the `postgres` OS user under root)."""
        command = [str(self.bin_dir / program), *args]
        if self._as_user[:1] == ["su"]:
            command = [*self._as_user, " ".join(map(_shell_quote, command))]
        else:
            command = [*self._as_user, *command]
        result = subprocess.run(command, cwd=self.base, capture_output=True, text=True,
                                check=False, timeout=120)
        if result.returncode != 0:
            log = self.log_file.read_text(errors="replace") if self.log_file.exists() else ""
            raise RuntimeError(f"{program} {' '.join(args)} failed ({result.returncode}):\n"
                               f"{result.stdout}{result.stderr}{log[-3000:]}")

    def start(self) -> None:
        """initdb and start the server, waiting until it accepts connections."""
        self._run("initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "-E", "UTF8",
                  "--locale=C.UTF-8", "-A", "trust", "--no-sync", "--no-instructions")
        hba = self.data_dir / "pg_hba.conf"
        if os.geteuid() == 0:  # written by root into the postgres user's folder
            stat = os.stat(hba)
            hba.write_text(HBA)
            os.chown(hba, stat.st_uid, stat.st_gid)
        else:
            hba.write_text(HBA)
        options = (f"-k {self.socket_dir} -c listen_addresses='' -p {self.port} "
                   "-c fsync=off -c full_page_writes=off -c synchronous_commit=off")
        self._running = True  # (stop() is harmless if the start fails half-way)
        atexit.register(self.stop)
        self._run("pg_ctl", "-D", str(self.data_dir), "-l", str(self.log_file), "-w",
                  "-t", "60", "-o", options, "start")

    def stop(self) -> None:
        """Stop the server (fast: open connections are cut) and delete its files."""
        if self._running:
            self._running = False
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str, user: str = SUPERUSER, password: str | None = None) -> str:
        """A `postgresql://` URL of `database` on this server, as `user`."""
        login = quote(user, safe="")
        if password is not None:
            login += ":" + quote(password, safe="")
        return (f"postgresql://{login}@/{quote(database, safe='')}"
                f"?host={quote(self.socket_dir, safe='/')}&port={self.port}")

    def admin(self, statement: str | sql.Composable, database: str = "postgres"
              ) -> list[tuple[Any, ...]]:
        """Run `statement` as the superuser (autocommit) on `database`; its rows."""
        with psycopg.connect(host=self.socket_dir, port=self.port, user=SUPERUSER,
                             dbname=database, autocommit=True) as conn:
            cursor = conn.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def create_role(self, name: str, password: str) -> None:
        """A login role that is not a superuser, with `password` (made once, then only
        its password is set again)."""
        exists = self.admin(sql.SQL("SELECT 1 FROM pg_roles WHERE rolname = {}")
                            .format(sql.Literal(name)))
        verb = "ALTER" if exists else "CREATE"
        self.admin(sql.SQL(verb + " ROLE {} LOGIN NOSUPERUSER PASSWORD {}")
                   .format(sql.Identifier(name), sql.Literal(password)))

    def create_database(self, owner: str = SUPERUSER, template: str | None = None) -> str:
        """A new database of `owner` with a name of its own (a copy of `template`, or
        empty); its name."""
        name = f"papershelf_test_{next(_DATABASE_NUMBERS)}_{secrets.token_hex(3)}"
        statement = sql.SQL("CREATE DATABASE {} OWNER {}").format(
            sql.Identifier(name), sql.Identifier(owner))
        if template is not None:  # (copying files: steadier than WAL_LOG for small ones)
            statement += sql.SQL(" TEMPLATE {} STRATEGY FILE_COPY").format(
                sql.Identifier(template))
        self.admin(statement)
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database, cutting whatever connections a test left open."""
        self.admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                   .format(sql.Identifier(name)))


def _shell_quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the test session's own, on a Unix socket."""
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.startswith("PG")]:
            patch.delenv(name)  # no PGHOST, PGPASSWORD, PGSERVICE... of the user's
        server = PostgresServer()
        try:
            with _sigterm_interrupts():
                server.start()
                yield server
        finally:
            server.stop()


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM (a CI job cancelled, `kill`) ends the run as Ctrl+C does, through pytest's
    teardown, so the server is stopped: atexit handlers do not run on a signal."""
    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@pytest.fixture(scope="session")
def pg_template(pg_server: PostgresServer) -> str:
    """A library database at the schema head, the template of `pg_url`'s (made on first
    use in each session, so it always has this checkout's schema)."""
    from papershelf.core import db

    name = pg_server.create_database()
    engine, _ = db.open_engine(pg_server.url(name))
    engine.dispose()
    return name


@pytest.fixture
def pg_url(pg_server: PostgresServer, pg_template: str) -> Iterator[str]:
    """The URL of a fresh, empty library database at the schema head, for the
    superuser; dropped after the test."""
    name = pg_server.create_database(template=pg_template)
    yield pg_server.url(name)
    pg_server.drop_database(name)


@dataclass(frozen=True)
class SharedLibrary:
    """A library database shared by the ordinary roles alice and bob (`pg_roles`)."""

    database: str
    alice: str  # the library's URL as alice, with her password
    bob: str  # as bob
    superuser: str  # as postgres, who owns the database and its tables (bypasses RLS)

    @property
    def roles(self) -> Sequence[str]:
        return tuple(ROLES)


@pytest.fixture
def pg_roles(pg_server: PostgresServer, pg_template: str) -> Iterator[SharedLibrary]:
    """Roles alice and bob (passwords in `ROLES`) and a fresh library database at the
    schema head that both may read and write; dropped after the test."""
    from papershelf.core.store import pg_members

    for role, password in ROLES.items():
        pg_server.create_role(role, password)
    name = pg_server.create_database(template=pg_template)
    roles = sql.SQL(", ").join(map(sql.Identifier, ROLES))
    grants = ["GRANT USAGE ON SCHEMA public TO {}",
              "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}"]
    grants += [f"GRANT {privileges} ON {table} TO {{}}"  # (what `init-shared --group` gives)
               for table, privileges in pg_members.MEMBER_PRIVILEGES.items()]
    grants += [f"GRANT EXECUTE ON FUNCTION {function} TO {{}}"
               for function in pg_members.MEMBER_FUNCTIONS]
    for grant in grants:
        pg_server.admin(sql.SQL(grant).format(roles), database=name)
    yield SharedLibrary(name, *(pg_server.url(name, role, password)
                                for role, password in ROLES.items()),
                        superuser=pg_server.url(name))
    pg_server.drop_database(name)


# The owner of `pg_lab`'s library and its password.
LAB_ADMIN = ("labadmin", "admin-secret")


@pytest.fixture
def pg_lab(pg_server: PostgresServer) -> Iterator[SharedLibrary]:
    """A library set up as the README says: owned by an administrator role that is not
    a superuser (`init-shared --group lab`), used by alice and bob, members of lab."""
    from papershelf.core import copying

    for role, password in (*ROLES.items(), LAB_ADMIN):
        pg_server.create_role(role, password)
    pg_server.admin("DO $$ BEGIN CREATE ROLE lab NOLOGIN; EXCEPTION WHEN duplicate_object "
                    "THEN NULL; END $$")
    pg_server.admin("GRANT lab TO alice, bob")
    name = pg_server.create_database(owner=LAB_ADMIN[0])
    admin = pg_server.url(name, *LAB_ADMIN)
    copying.init_shared(admin)
    copying.grant_to_group(admin, "lab")
    yield SharedLibrary(name, *(pg_server.url(name, role, password)
                                for role, password in ROLES.items()), superuser=admin)
    pg_server.drop_database(name)


def plain_sql(url: str, autocommit: bool = True) -> psycopg.Connection[Any]:
    """A psycopg connection to the library at a SQLAlchemy `url`, as its role, outside
    Papershelf (what a member could do with psql)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return psycopg.connect(dbname=parsed.database, user=parsed.username,
                           password=parsed.password, host=str(parsed.query["host"]),
                           port=int(str(parsed.query["port"])), autocommit=autocommit)


def downgrade_shared(url: str, revision: str, *sql: str,
                     before: Callable[[Any], None] | None = None) -> None:
    """The shared library at `url` (its owner's) taken back to schema `revision` and
    `sql` run then, in one transaction, as a library made by that older version (it
    upgrades itself the next time its owner opens it); `before` is given the opened
    library first."""
    from alembic import command
    from alembic.config import Config

    from papershelf.core import db
    from papershelf.core.library import Library

    owner = Library.open(url)
    try:
        if before is not None:
            before(owner)
        config = Config()
        config.set_main_option("script_location", str(db.MIGRATIONS_DIR))
        with owner.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, revision)
            for statement in sql:
                conn.exec_driver_sql(statement)
    finally:
        owner.close()
