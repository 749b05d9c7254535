"""What a killed `restore` or auto-export leaves beside the user's files: a temporary
file whose name says what it is, removed at the next run; and an auto-export whose
refresh was killed is listed as out of date until its file is written.

Each kill is real and at a chosen moment: the papershelf process kills itself with
SIGKILL when it is about to rename its finished temporary file over the target."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from papershelf.core import backup
from tests.conftest import run_cli, seeded_file
from tests.crash.harness import environment

# Run papershelf, killed (SIGKILL, by itself) as it renames a file over the one named
# argv[1]; the other arguments are papershelf's.
KILLED_AT_RENAME = textwrap.dedent("""\
    import os, signal, sys
    from pathlib import Path
    target = sys.argv[1]
    real = os.replace
    def replace(src, dst, **kw):
        if Path(dst).name == target:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(src, dst, **kw)
    os.replace = replace
    from papershelf.__main__ import main
    sys.exit(main(sys.argv[2:]))
""")


def _killed_at_rename(target: str, *argv: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-c", KILLED_AT_RENAME, target, *argv],
                          env=environment(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == -9, proc.stderr  # (killed, as planned)
    return proc


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_killed_restore_leaves_a_named_file_removed_at_the_next_run(tmp_path: Path) -> None:
    lib = seeded_file(tmp_path / "library.sqlite")
    saved = backup.make_backup(lib, "manual")
    backup.daily_backup(lib)  # (today's is made: the next start only cleans up)
    _killed_at_rename("library.sqlite", "--library", str(lib), "restore", str(saved),
                      "--yes")
    (left,) = _temporaries(tmp_path)
    assert left.startswith(".library.sqlite.papershelf-restore.")
    status, out, err = run_cli("--library", str(lib), "list")  # the next run
    assert status == 0, err
    assert out.rstrip().endswith("38 papers")
    assert _temporaries(tmp_path) == []
    assert _temporaries(backup.backup_folder(lib)) == []


def test_a_restore_cleans_up_after_a_killed_one(tmp_path: Path) -> None:
    lib = seeded_file(tmp_path / "library.sqlite")
    saved = backup.make_backup(lib, "manual")
    _killed_at_rename("library.sqlite", "--library", str(lib), "restore", str(saved),
                      "--yes")
    assert len(_temporaries(tmp_path)) == 1
    status, _out, err = run_cli("--library", str(lib), "restore", str(saved), "--yes")
    assert status == 0, err
    assert _temporaries(tmp_path) == []


def test_a_killed_auto_export_refresh_is_out_of_date_and_cleaned_up(tmp_path: Path) -> None:
    lib = seeded_file(tmp_path / "library.sqlite")
    backup.daily_backup(lib)
    doc = tmp_path / "thesis"
    doc.mkdir()
    refs = doc / "refs.bib"
    assert run_cli("--library", str(lib), "auto-export", "add", str(refs))[0] == 0
    written = refs.read_bytes()
    # An edit changes the library; the refresh that follows is killed mid-write.
    _killed_at_rename("refs.bib", "--library", str(lib), "set", "icml2024framequant",
                      "year=2023")
    (left,) = _temporaries(doc)
    assert left.startswith(".refs.bib.papershelf-unfinished.")
    assert refs.read_bytes() == written  # (the user's file as it was)

    assert run_cli("--library", str(lib), "list")[0] == 0  # the next run, any command
    assert _temporaries(doc) == []  # removed the leftover

    status, out, err = run_cli("--library", str(lib), "auto-export", "list")
    assert status == 0, err
    assert f"{refs}  every paper  bibtex  out of date" in out

    assert run_cli("--library", str(lib), "auto-export", "run")[0] == 0
    status, out, err = run_cli("--library", str(lib), "auto-export", "list")
    assert f"{refs}  every paper  bibtex  up to date" in out

