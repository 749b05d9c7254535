"""Shared test setup: offscreen Qt, an isolated home, and one-line fresh libraries."""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from papershelf.cli import main as cli_main
from papershelf.core import db
from papershelf.core.library import Library, View
from papershelf.core.store import GenericStore
from papershelf.core.transfer import export_papers

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SHARED_DATA = ROOT.parent / "shared" / "data"
SEED_FILES = sorted(SEEDS.glob("*.txt"))
THIRDPARTY = ROOT / "tests" / "data" / "thirdparty"  # real BibTeX files (see its README)
THIRDPARTY_FILES = sorted(THIRDPARTY.glob("*.bib"))


# A PostgreSQL server of the session's own (pg_server, pg_url, pg_roles).
pytest_plugins = ["tests.postgres_server", "tests.sqlite_guard"]

DIALECTS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test of a library (`library`, `seeded`, `library_target`, the CLI's) runs on
    SQLite and on PostgreSQL, so a feature cannot quietly work on one only; a test of the
    file itself says `@pytest.mark.sqlite_only`."""
    if "dialect" not in metafunc.fixturenames:
        return
    only_sqlite = (metafunc.definition.get_closest_marker("sqlite_only") is not None
                   or metafunc.config.getoption("--store") == "generic")
    metafunc.parametrize("dialect", DIALECTS[:1] if only_sqlite else DIALECTS,
                         indirect=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store", choices=("own", "generic"), default="own",
        help="the store of the `library` fixture: its database's own, or the generic "
        "store (plain SQLAlchemy, as a database without its own store gets) on SQLite")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or writes the real user's library, settings or logs."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in (("HOME", ""), ("XDG_DATA_HOME", ".local/share"),
                     ("XDG_CONFIG_HOME", ".config"), ("XDG_STATE_HOME", ".local/state"),
                     ("XDG_CACHE_HOME", ".cache")):
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.delenv("PAPERSHELF_LIBRARY", raising=False)
    monkeypatch.delenv("PAPERSHELF_SEEDS", raising=False)
    return home


@pytest.fixture
def library_path(tmp_path: Path) -> Path:
    """Where a test's library file lives."""
    return tmp_path / "library.sqlite"


@pytest.fixture
def dialect(request: pytest.FixtureRequest) -> str:
    """The database of the test's library: each test runs once per dialect."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def library_target(dialect: str, library_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a test's library lives: a file path, or a fresh PostgreSQL database's URL."""
    if dialect == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return str(library_path)


@pytest.fixture
def library(library_target: str, request: pytest.FixtureRequest) -> Iterator[Library]:
    """A fresh, empty library (with the generic store under `--store=generic`)."""
    if request.config.getoption("--store") == "generic":
        engine, url = db.open_engine(library_target)
        lib = Library(engine, url, GenericStore(engine))
    else:
        lib = Library.open(library_target)
    yield lib
    lib.close()


@pytest.fixture
def seeded(library: Library) -> Library:
    """A fresh library after its first start: the 38 sample papers."""
    library.ensure_sample(SEEDS)
    return library


def seeded_file(path: Path) -> Path:
    """A library file at `path` after its first start (the 38 sample papers), closed."""
    library = Library.open(str(path))
    library.ensure_sample(SEEDS)
    library.close()
    return path


def run_cli(*argv: str) -> tuple[int, str, str]:
    """`papershelf ARGV` in-process: the exit status, and what it printed on stdout and
    on stderr."""
    out, err = io.StringIO(), io.StringIO()
    status = cli_main.run(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def paper_keys(library: Library) -> list[str]:
    """The citation keys of every paper of the library, sorted."""
    return sorted(row.key for row in library.rows(library.view_ids(View())).values())


def bibtex_of(library: Library, keys: Sequence[str] | None = None) -> str:
    """The BibTeX export of every paper of the library, or of the papers with `keys`."""
    ids = library.view_ids(View()) if keys is None else library.ids_for_keys(keys)[0]
    return export_papers(library, ids).text


def fake_opener(folder: Path, monkeypatch: pytest.MonkeyPatch, status: int = 0) -> Path:
    """An `xdg-open` first on the PATH that notes what it was asked to open (the file it
    returns, a line each) and exits with `status`, complaining at length as the real
    one does when no program opens a file."""
    bin_dir = folder / "fake-bin"
    bin_dir.mkdir(exist_ok=True)
    asked = folder / "opened.txt"
    script = bin_dir / "xdg-open"
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$1" >> "{asked}"\n'
        + ("for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do "
           'echo "xdg-open: no method available for opening $1 ($i)" >&2; done\n'
           if status else "")
        + f"exit {status}\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return asked


def files_holding(text: str, *folders: Path) -> list[Path]:
    """Every file under `folders` whose bytes hold `text`, read by another process: a
    database open here among them (a library, the HTTP cache) would lose this process's
    locks on it if it were read here (tests/sqlite_guard.py)."""
    found = subprocess.run(["grep", "-rlF", "--", text, *map(str, folders)],
                           capture_output=True, text=True, timeout=60)
    assert found.returncode in (0, 1), found.stderr
    return [Path(line) for line in found.stdout.splitlines()]
