"""The papers a LaTeX document cites, read from what LaTeX wrote: its `.aux` file
(bibtex's `\\citation{a,b}`, biblatex's `\\abx@aux@cite{0}{a}`, the `.aux` files of
`\\include`d chapters through `\\@input{…}`) or biblatex's `.bcf` (its `bcf:citekey`
elements). `\\nocite{*}` (a citation of `*`) cites every paper.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.errors import UserError

if TYPE_CHECKING:
    from papershelf.core.library import Library

# \citation{a,b}; \abx@aux@cite{0}{a} (biblatex 3.x: refsection, key) or {a} (older).
_CITATION = re.compile(r"\\citation\{([^}]*)\}")
_BIBLATEX = re.compile(r"\\abx@aux@cite\{([^}]*)\}(?:\{([^}]*)\})?")
_INPUT = re.compile(r"\\@input\{([^}]*)\}")
_BCF_KEY = "{https://sourceforge.net/projects/biblatex}citekey"


@dataclass
class Cited:
    """What a document cites: its keys in the order first cited, and whether it cites
    every paper (`\\nocite{*}`)."""

    keys: list[str] = field(default_factory=list)
    everything: bool = False

    def add(self, key: str) -> None:
        key = key.strip()
        if key == "*":
            self.everything = True
        elif key and key not in self.keys:
            self.keys.append(key)


def cited(path: str | Path) -> Cited:
    """The citations of an `.aux` (with the files it inputs) or a `.bcf` file;
    UserError naming the file if it cannot be read."""
    found = Cited()
    path = Path(path)
    if path.suffix.lower() == ".bcf":
        _read_bcf(path, found)
    else:
        _read_aux(path, found, set())
    return found


def cited_papers(library: Library, path: str | Path) -> tuple[list[int], list[str]]:
    """The library's papers a document cites, in citing order (every paper for
    `\\nocite{*}`), and the cited keys it lacks; UserError if the file cites nothing."""
    found = cited(path)
    if not found.keys and not found.everything:
        raise UserError(f"{path}: cites no paper (no \\citation or \\abx@aux@cite in it)")
    ids, missing = library.ids_for_keys(found.keys)
    if found.everything:
        ids = [*ids, *library.view_ids()]
    return list(dict.fromkeys(ids)), missing  # (once each: a key and its alias, or *)


def _text(path: Path) -> str:
    """The text of a file LaTeX wrote; UserError if it is not there, cannot be read or
    holds binary data (not a file LaTeX writes: a wrong file chosen)."""
    try:
        data = path.read_bytes()
        if b"\0" in data:
            raise UserError(f"{path}: not a LaTeX .aux or biblatex .bcf file (it holds "
                            "binary data)")
        return data.decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file (run LaTeX first: it writes the .aux)") \
            from None
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _read_aux(path: Path, found: Cited, seen: set[Path]) -> None:
    resolved = path.resolve()
    if resolved in seen:  # (an \@input loop)
        return
    seen.add(resolved)
    for line in _text(path).splitlines():
        for match in _CITATION.finditer(line):
            for key in match.group(1).split(","):
                found.add(key)
        for match in _BIBLATEX.finditer(line):
            found.add(match.group(2) if match.group(2) is not None else match.group(1))
        for match in _INPUT.finditer(line):
            included = path.parent / match.group(1)  # (LaTeX names it from the main
            if included.exists():                    # file's folder; a missing one: not
                _read_aux(included, found, seen)     # yet compiled, nothing cited there)


def _read_bcf(path: Path, found: Cited) -> None:
    try:
        root = ElementTree.fromstring(_text(path))
    except ElementTree.ParseError as exc:
        line = exc.position[0]
        raise UserError(f"{path}:{line}: not a biblatex control file ({exc})") from None
    for element in root.iter(_BCF_KEY):
        found.add(element.text or "")
