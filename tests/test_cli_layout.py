"""The commands are declared once (papershelf.cli.commands): `papershelf --help` lists
them, launch tells a command from a file by them, each has its handler where the
declaration says, and the README's command list names the same ones."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys

import pytest

from papershelf import launch
from papershelf.__main__ import main
from papershelf.cli.commands import COMMANDS, NAMES
from papershelf.cli.main import GROUPS
from tests.conftest import ROOT


def readme_commands() -> set[str]:
    """The commands the README's "The command line" block shows: each line's
    `papershelf NAME ...`, and each `| NAME ...` after it on the line."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## The command line\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    names = set()
    for line in block.splitlines():
        line = line.split(" #", 1)[0]
        if line.startswith("papershelf "):
            for part in line.removeprefix("papershelf ").split(" | "):
                names.add(part.split()[0])
    return names


def help_commands(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The commands `papershelf --help` lists, in its order."""
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listing = capsys.readouterr().out.split("\n  COMMAND\n", 1)[1]
    return re.findall(r"^    ([a-z][a-z-]*)(?:  |$)", listing, flags=re.MULTILINE)


def test_help_lists_the_declared_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert help_commands(capsys) == list(NAMES)
    assert len(set(NAMES)) == len(NAMES)


def test_the_readme_names_the_commands_help_lists(capsys: pytest.CaptureFixture[str]) -> None:
    readme, listed = readme_commands(), set(help_commands(capsys))
    assert sorted(listed - readme) == [], "commands the README's list leaves out"
    assert sorted(readme - listed) == [], "commands the README names that do not exist"


def test_launch_tells_the_declared_commands_from_files() -> None:
    assert [launch.first_command(["--library", "l.sqlite", name]) for name in NAMES] == \
        list(NAMES)
    assert launch.first_command(["refs.bib"]) is None
    assert not launch.for_the_window(["auto-export", "list"])


def test_launch_loads_only_the_declaration() -> None:
    code = ("import sys, papershelf.launch; "
            "print(sorted(m for m in sys.modules if m.startswith('papershelf')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == [
        "['papershelf',", "'papershelf.cli',", "'papershelf.cli.commands',",
        "'papershelf.launch']"]


def test_each_command_has_its_handler_and_each_handler_its_command() -> None:
    handlers = set()
    for command in COMMANDS:
        module = GROUPS[command.group]
        assert callable(getattr(module, f"run_{command.function}", None)), command.name
        handlers.add((command.group, f"run_{command.function}"))
    for group, module in GROUPS.items():
        found = {(group, name) for name in vars(module) if name.startswith("run_")}
        assert found <= handlers, f"handlers no command declares in {group}"
    for path in (ROOT / "desktop" / "papershelf" / "cli").glob("*.py"):
        held = any(name.startswith("run_") for name in vars(
            importlib.import_module(f"papershelf.cli.{path.stem}")))
        assert path.stem in GROUPS or not held, f"{path.name}: a group main.GROUPS lacks"
