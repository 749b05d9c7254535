"""Auto-exports that follow a LaTeX document: `aux:/abs/path/paper.aux` holds exactly the
papers the document cites, in citing order (as `papershelf export --aux` writes them).

What LaTeX wrote is read again when it changed: `source_stamp` sums up the size and
mtime of the .aux, of each `\\@input`ed .aux (a chapter not compiled yet counts as
missing) and of biblatex's .bcf next to it, so core.autoexport can tell a rewritten .aux
from an unchanged one without a look at the library. A cited key the library lacks is a
note (the file is written with the others: a writer mid-draft needs them); a missing
.aux is `NotCompiled`, the auto-export's state until LaTeX has run.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING

from papershelf.core.cited import cited
from papershelf.errors import UserError

if TYPE_CHECKING:
    from papershelf.core.library import Library

KIND = "aux"
_INPUT = re.compile(r"\\@input\{([^}]*)\}")
LISTED = 20  # missing keys named in a note; more are counted


class NotCompiled(UserError):
    """The document's .aux is not there (LaTeX has not run yet)."""


def is_aux(what: str) -> bool:
    """Whether an auto-export's `what` is a document's citations."""
    return what.partition(":")[0] == KIND


def aux_path(what: str) -> Path:
    """The .aux (or .bcf) of an `aux:PATH` selection."""
    return Path(what.partition(":")[2])


def sources(path: Path) -> list[Path]:
    """The files whose change may change what the document cites: the .aux, the .aux
    files it `\\@input`s (those too not written yet) and the .bcf beside it."""
    found: list[Path] = []
    _walk(path, found)
    if path.suffix.lower() != ".bcf":
        found.append(path.with_suffix(".bcf"))
    return found


def _walk(path: Path, found: list[Path]) -> None:
    if path in found:  # (an \@input loop)
        return
    found.append(path)
    if path.suffix.lower() == ".bcf":
        return
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    for match in _INPUT.finditer(text):
        _walk(path.parent / match.group(1), found)


def source_stamp(what: str) -> str:
    """A short digest of the sizes and mtimes of what the document's citations are read
    from ('' for a selection that is not a document's)."""
    if not is_aux(what):
        return ""
    parts = []
    for path in sources(aux_path(what)):
        try:
            found = path.stat()
            parts.append(f"{path}\0{found.st_size}:{found.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}\0-")
    return hashlib.blake2b("\n".join(parts).encode("utf-8", "surrogateescape"),
                           digest_size=8).hexdigest()


def watched(what: str) -> list[str]:
    """What a window watches for this selection: the files there are, or the folder of
    an .aux not written yet (LaTeX creates it there; a run that writes a chapter's .aux
    or the .bcf rewrites the main .aux too, so their folder is not watched)."""
    main = aux_path(what)
    if not main.exists():
        return [str(main.parent)] if main.parent.is_dir() else []
    return [str(path) for path in sources(main) if path.exists()]


def select(library: Library, what: str) -> tuple[list[int], str]:
    """The library's papers the document cites, in citing order (every paper for
    `\\nocite{*}`), and a note naming the cited keys the library lacks ('' if none).
    NotCompiled if the .aux is not there; UserError if it cannot be read."""
    path = aux_path(what)
    if not path.exists():
        raise NotCompiled(f"{path}: not there yet (run LaTeX on the document: it writes "
                          "the .aux)")
    found = cited(path)
    ids, missing = library.ids_for_keys(found.keys)
    if found.everything:
        ids = [*ids, *library.view_ids()]
    return list(dict.fromkeys(ids)), missing_note(missing)


def missing_note(missing: list[str]) -> str:
    """"3 cited keys not in the library: a, b, c" ('' for none)."""
    if not missing:
        return ""
    listed = ", ".join(missing[:LISTED]) + (
        f" and {len(missing) - LISTED} more" if len(missing) > LISTED else "")
    return (f"{len(missing)} cited key{'s' if len(missing) != 1 else ''} not in the "
            f"library: {listed}")


def check_complete(library: Library, what: str) -> None:
    """UserError unless the document is compiled and the library has every paper it
    cites (what `auto-export add --aux` asks for without --allow-missing)."""
    try:
        _ids, note = select(library, what)
    except NotCompiled as exc:
        raise UserError(f"{exc}; --allow-missing keeps it anyway") from None
    if note:
        raise UserError(f"{aux_path(what)}: {note}; nothing was written (--allow-missing "
                        "writes the others)")
