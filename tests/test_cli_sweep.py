"""Every subcommand, generated from the argument parser (a new command is swept by
itself), on odd arguments: empty, blank, 5,000 characters, control characters, a
folder, a missing file, a binary file, in each positional slot and each option that
takes a value. A user mistake is one line on stderr and exit status 1 with the library
unchanged; exit 0 only where the argument is legitimately fine; never a traceback or
an "internal error".
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import sqlite3
import webbrowser
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from papershelf import __main__
from papershelf.cli.commands import NAMES
from papershelf.cli.main import build_parser
from papershelf.launch import one_line
from tests.conftest import seeded_file

ODD = {
    "empty": "",
    "blank": "   ",
    "long": "x" * 5000,
    "control": "a\x01b\x1b[31mc\td\ne",
    "folder": "{tmp}/a folder",
    "missing": "{tmp}/missing/nothing.bib",
    "binary": "{tmp}/binary.bin",
}


@dataclass(frozen=True)
class Slot:
    """One argument of a command: a positional (option None) or an option's value."""

    command: tuple[str, ...]
    dest: str
    metavar: str
    option: str | None
    many: bool


def _subcommands(parser: argparse.ArgumentParser,
                 prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                                argparse.ArgumentParser]]:
    """(command words, parser) of every leaf subcommand, however deeply nested."""
    found = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found = True
                yield from _subcommands(sub, (*prefix, name))
    if not found and prefix:
        yield prefix, parser


def _slots(command: tuple[str, ...], parser: argparse.ArgumentParser) -> list[Slot]:
    slots = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
            continue
        if action.nargs == 0 or action.choices is not None:
            continue  # flags, and values argparse itself checks
        if action.type in (int, float):
            continue  # (argparse checks numbers itself)
        metavar = str(action.metavar or action.dest.upper())
        option = action.option_strings[-1] if action.option_strings else None
        many = action.nargs in ("+", "*")
        slots.append(Slot(command, action.dest, metavar, option, many))
    return slots


PARSER = build_parser()
COMMANDS = list(_subcommands(PARSER))
SLOTS = [slot for command, parser in COMMANDS for slot in _slots(command, parser)]


def test_the_sweep_covers_every_command() -> None:
    named = {command for command, _parser in COMMANDS}
    assert {c[0] for c in named} == set(NAMES)
    # Each argument once per odd value (and each command once as it is).
    assert len(SLOTS) * len(ODD) > 500


def test_an_error_line_is_one_printable_line() -> None:
    assert one_line("a\nb\x1b[31m\tc") == "a\\nb\\x1b[31m\\tc"
    assert one_line("论文 ok") == "论文 ok"
    long = one_line("x" * 5000)
    assert len(long) < 700 and "…" in long


class Sandbox:
    """A seeded library copied afresh per run, in a folder that is the working folder."""

    def __init__(self, folder: Path, pristine: Path) -> None:
        self.folder = folder
        self.pristine = pristine
        self.library = folder / "lib" / "library.sqlite"
        con = sqlite3.connect(pristine)
        self.keys = [k for (k,) in con.execute("SELECT key FROM papers ORDER BY id LIMIT 3")]
        con.close()

    def reset(self) -> None:
        """Everything afresh: what a run before wrote is gone."""
        for path in self.folder.iterdir():
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
        (self.folder / "a folder").mkdir()
        (self.folder / "binary.bin").write_bytes(bytes(range(256)) * 8)
        self.library.parent.mkdir()
        shutil.copyfile(self.pristine, self.library)

    def dump(self) -> list[str]:
        con = sqlite3.connect(self.library)
        try:
            return list(con.iterdump())
        finally:
            con.close()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return seeded_file(tmp_path_factory.mktemp("pristine") / "library.sqlite")


@pytest.fixture
def sandbox(tmp_path: Path, pristine: Path, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAPERSHELF_OFFLINE", "1")
    for name in ("VISUAL", "EDITOR"):  # (`edit` runs the user's editor: one that saves nothing)
        monkeypatch.setenv(name, "true")
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: False)
    # (serve-connector listens on a free port and returns at once, not at Ctrl+C)
    monkeypatch.setattr("papershelf.core.connector.DEFAULT_PORT", 0)
    monkeypatch.setattr("papershelf.core.connector.ConnectorServer.wait", lambda self: None)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    return Sandbox(tmp_path, pristine)


def valid(slot: Slot, box: Sandbox) -> str:
    """A sound value for a slot that is not the one being swept."""
    if slot.metavar in ("KEY", "KEEP_KEY"):
        return box.keys[0]
    if slot.metavar == "OTHER_KEY":
        return box.keys[1]
    if slot.metavar == "NEW_KEY":
        return "sweep2024"
    if slot.metavar in ("SRC", "PATH_OR_URL"):
        return str(box.library)
    if slot.metavar in ("DST", "NEW_FILE", "DEST"):
        return str(box.folder / "new.sqlite")
    if slot.metavar == "FILE":
        return str(box.folder / "binary.bin")
    return "sweep"


def invocation(command: tuple[str, ...], slots: list[Slot], swept: Slot | None, value: str,
               box: Sandbox) -> list[str]:
    argv = [command[0]]
    if any(slot.dest == "library" for slot in slots):
        argv += ["--library", value if swept and swept.dest == "library" else str(box.library)]
    argv += command[1:]
    for slot in slots:
        if slot.dest == "library":
            continue
        if slot.option is not None:
            if slot is swept:
                argv += [slot.option, value]
            continue
        argv.append(value if slot is swept else valid(slot, box))
    return argv


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = __main__.main(argv)
        except SystemExit as exc:  # (argparse's usage errors)
            status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


# Where an odd value is legitimately fine: (command, slot's dest, value kind) -> why.
# A value kind of "*" means any odd value.
PATHS = ("folder", "missing", "binary")  # (values that are sound text, too)
FINE: dict[tuple[str, str, str], str] = {
    ("search", "query", "*"): "a search only reads; finding nothing is an answer",
    ("list", "search", "*"): "the same search, as a filter",
    ("export", "search", "*"): "the same search, as a filter",
    ("cite", "search", "*"): "the same search, as a filter",
    **{(command, "tag", kind): "a filter by a tag no paper has lists nothing"
       for command in ("list", "export", "cite") for kind in PATHS},
    ("*", "library", "missing"): "a new library is created, folders and all",
    ("note", "text", "*"): "notes are free text: lines, tabs, any length; '' clears them",
    **{("tag", "tags", kind): "a tag may hold spaces, slashes and dots" for kind in PATHS},
    **{("set-key", "new_key", kind): "slashes and dots are fine in a BibTeX key"
       for kind in ("missing", "binary")},
    ("backup", "dest", "folder"): "the backup goes into that folder",
    ("backups", "library", "binary"): "a damaged library's backups are listed unopened",
    ("salvage", "library", "binary"): "salvage reads what it can of a damaged file",
    ("export", "output", "binary"): "-o replaces a file, as a shell's > does",
    ("cite", "output", "binary"): "-o replaces a file, as a shell's > does",
    **{("saved", "name", kind): "a saved search's name may hold slashes, dots and spaces"
       for kind in PATHS},
    **{("saved", "query", kind): "a query is free text; finding nothing is an answer"
       for kind in (*PATHS, "long")},
    ("auto-export", "file", "binary"): "an auto-export replaces its file, as export -o does",
    **{("auto-export", "tag", kind): "a tag no paper has: an empty file, kept current"
       for kind in PATHS},
}


def fine(slot: Slot, kind: str) -> bool:
    return any((command, slot.dest, k) in FINE for command in (slot.command[0], "*")
               for k in (kind, "*"))


@pytest.mark.parametrize("command", [c for c, _p in COMMANDS], ids=" ".join)
def test_odd_arguments_are_one_line_and_exit_1(command: tuple[str, ...],
                                               sandbox: Sandbox) -> None:
    slots = next(_slots(c, p) for c, p in COMMANDS if c == command)
    cases: list[tuple[Slot | None, str, str]] = [(None, "none", "")]  # (as it is)
    cases += [(s, k, v.format(tmp=sandbox.folder)) for s in slots for k, v in ODD.items()]
    problems = []
    for swept, kind, value in cases:
        sandbox.reset()
        before = sandbox.dump()
        argv = invocation(command, slots, swept, value, sandbox)
        status, _out, err = run_main(argv)
        shown = f"{' '.join(command)} {swept.metavar if swept else ''}={kind}"
        if "internal error" in err or "Traceback" in err:
            problems.append(f"{shown}: {err.strip()[:300]}")
            continue
        changed = sandbox.library.exists() and sandbox.dump() != before
        if status == 1:
            lines = err.splitlines()
            if len(lines) != 1 or not lines[0].startswith("papershelf: error: "):
                problems.append(f"{shown}: exit 1 but stderr {err[:300]!r}")
            if changed:
                problems.append(f"{shown}: exit 1 but the library changed")
        elif status == 0:
            if swept is not None and not fine(swept, kind):
                problems.append(f"{shown}: exit 0 (changed: {changed}); stderr {err[:200]!r}")
        else:
            problems.append(f"{shown}: exit {status}: {err.strip()[:300]}")
    assert not problems, "\n".join(problems)
