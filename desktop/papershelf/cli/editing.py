"""A paper's fields and keys: `show`, `set`, `new`, `edit`, the key pattern and keys
(`key-pattern`, `regenerate-keys`, `set-key`), and duplicates (`duplicates`, `merge`)."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from papershelf.cli.arguments import add_key, assignment_argument, key_argument, text_argument
from papershelf.cli.common import CliError, ids_for
from papershelf.core.library import Library, UserError, parse_entry, readable_value
from papershelf.formats.records import FormatError

VALUES_HELP = ("FIELD=VALUE: a BibTeX field (title, author, editor, year, venue, volume, "
               "number, pages, publisher, doi, eprint or arxiv, url, abstract, keywords, "
               "any other; type: the entry type) and its value as a .bib file writes it "
               "(author='Doe, Jane and Roe, Richard'); FIELD= removes it")


def run_duplicates(library: Library, args: argparse.Namespace, out: TextIO,
                   err: TextIO) -> int:
    """List suspected duplicates, one pair a line."""
    pairs = library.find_duplicates()
    rows = library.rows([i for p in pairs for i in (p.keep_id, p.other_id)])
    for pair in pairs:
        keep, other = rows[pair.keep_id], rows[pair.other_id]
        out.write(f"{keep.key}  {other.key}  ({pair.reason}): {keep.title}\n")
    out.write(f"{len(pairs)} suspected duplicate{'s' if len(pairs) != 1 else ''}\n")
    return 0



def merge_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keep", metavar="KEEP_KEY", type=key_argument)
    p.add_argument("other", metavar="OTHER_KEY", type=key_argument)


def run_merge(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Merge two papers."""
    keep, other = ids_for(library, [args.keep, args.other])
    if keep == other:
        raise CliError(f"{args.keep} and {args.other} are the same paper: nothing to merge")
    change = library.merge_papers(keep, other)
    out.write(f"{change.description}\n")
    return 0



def key_pattern_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pattern", nargs="?", metavar="PATTERN", type=text_argument,
                   help="e.g. '[auth:lower][year][shorttitle]'")


def run_key_pattern(library: Library, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    """Show or set the key pattern."""
    if args.pattern is not None:
        library.set_key_pattern(args.pattern)
    out.write(f"{library.key_pattern}\n")
    return 0



def regenerate_keys_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keys", nargs="+", metavar="KEY", type=key_argument)


def run_regenerate_keys(library: Library, args: argparse.Namespace, out: TextIO,
                        err: TextIO) -> int:
    """New keys from the current pattern, for the papers named."""
    ids = ids_for(library, args.keys)
    before = {pid: row.key for pid, row in library.rows(ids).items()}
    library.regenerate_keys(ids)
    after = library.rows(ids)
    for pid in ids:
        out.write(f"{before[pid]} -> {after[pid].key}\n")
    return 0



def set_key_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("new_key", metavar="NEW_KEY", type=key_argument)


def run_set_key(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Change one paper's key."""
    (pid,) = ids_for(library, [args.key])
    library.set_key(pid, args.new_key)
    out.write(f"{args.key} -> {args.new_key}\n")
    return 0



def show_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--bibtex", action="store_true", help="its BibTeX entry")
    shape.add_argument("--json", action="store_true",
                       help="JSON: key, type, fields (BibTeX values), readable values, tags")


def run_show(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Every field of one paper: readable lines, its BibTeX entry or JSON."""
    (pid,) = ids_for(library, [args.key])
    if args.bibtex:
        out.write(library.paper_entry(pid))
        return 0
    fields = library.paper_fields(pid)
    detail = library.paper(pid)
    assert detail is not None
    entry_type = fields.pop("type")
    readable = {name: readable_value(name, value) for name, value in fields.items()}
    if args.json:
        json.dump({"key": detail.key, "type": entry_type, "fields": fields,
                   "readable": readable, "provisional": detail.record.title_provisional,
                   "tags": detail.record.tags}, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 0
    lines = [("citation key", detail.key), ("type", entry_type), *readable.items()]
    if detail.record.tags:
        lines.append(("tags", ", ".join(detail.record.tags)))
    width = max(len(name) for name, _value in lines)
    for name, value in lines:
        value = value.replace("\n", "\n" + " " * (width + 2))
        out.write(f"{name + ':':<{width + 1}} {value}\n")
    return 0



def set_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("values", nargs="+", metavar="FIELD=VALUE", type=assignment_argument,
                   help=VALUES_HELP)


def run_set(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Set fields of one paper; a wrong value changes nothing."""
    (pid,) = ids_for(library, [args.key])
    change = library.set_fields(pid, _values(args.values))
    out.write(f"{args.key}: {change.description if change.ids else 'no change'}\n")
    return 0


def _values(pairs: Sequence[tuple[str, str]]) -> dict[str, str | None]:
    """FIELD=VALUE arguments as set_fields takes them (a field named twice: CliError)."""
    values: dict[str, str | None] = {}
    for name, value in pairs:
        if name.lower() in (n.lower() for n in values):
            raise CliError(f"the field {name} is given twice; nothing was changed")
        values[name] = value
    return values



def new_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--type", metavar="TYPE", type=text_argument,
                   help="its entry type: article, inproceedings, book, ... (default misc)")
    p.add_argument("values", nargs="+", metavar="FIELD=VALUE", type=assignment_argument,
                   help=VALUES_HELP.removesuffix("; FIELD= removes it"))


def run_new(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add a paper typed in; prints its key."""
    values = _values(args.values)
    if args.type is not None:
        if any(name.lower() in ("type", "entrytype", "entry_type") for name in values):
            raise CliError("give the entry type once, as --type or type=; nothing was added")
        values = {"type": args.type, **values}
    _change, pid = library.new_paper(values)
    detail = library.paper(pid)
    assert detail is not None
    out.write(f"{detail.key}\n")
    return 0



def edit_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)


def run_edit(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Edit a paper's BibTeX entry in the user's editor; what changed is set."""
    (pid,) = ids_for(library, [args.key])
    detail = library.paper(pid)
    assert detail is not None
    entry = library.paper_entry(pid)
    original = (f"% The BibTeX entry of {detail.key}: change, add or remove its fields, "
                "save and quit.\n% Its citation key stays (`papershelf set-key` changes "
                "it); these lines are ignored.\n\n" + entry)
    base = library.paper_fields(pid)
    with tempfile.TemporaryDirectory(prefix="papershelf-") as folder:
        path = Path(folder) / "entry.bib"
        path.write_text(original, encoding="utf-8")
        _run_editor(path)
        try:
            edited = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise CliError("the edited entry is not UTF-8 text; nothing was changed") from None
    if edited == original:
        out.write("no change\n")
        return 0
    try:
        key, entry_type, fields = parse_entry(edited, f"{detail.key}.bib")
    except (UserError, FormatError) as exc:
        raise CliError(f"{exc}; nothing was changed") from None
    if key != detail.key:
        raise CliError(f"the citation key cannot be changed here ({detail.key} became "
                       f"{key}); use `papershelf set-key`; nothing was changed")
    _key, was_type, was = parse_entry(entry)
    was, now = {"type": was_type, **was}, {"type": entry_type, **fields}
    values = {name: now.get(name) for name in [*now, *was] if now.get(name) != was.get(name)}
    change = library.set_fields(pid, values, base=dict(base)) if values else None
    if change is None or not change.ids:
        out.write("no change\n")
        return 0
    out.write(f"{detail.key}: {change.description}\n")
    for name, theirs in sorted(change.replaced.items()):
        what = f"removed {name}" if theirs is None else f"set {name} to {theirs}"
        out.write(f"  note: someone had {what} while you edited; yours replaced it "
                  f"(`papershelf set {detail.key} {name}={theirs or ''}` puts theirs back)\n")
    if change.conflict:
        out.write("  note: someone changed the abstract while you edited; both versions are "
                  "kept in it, between <<<<<<< and >>>>>>> lines\n")
    return 0


def _editor() -> str:
    """The user's editor, as git finds it: $VISUAL, $EDITOR, else vi."""
    return os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"


def _run_editor(path: Path) -> None:
    """Run the user's editor on `path` and wait for it (a shell reads $EDITOR, so it may
    hold options, as git allows); CliError if it cannot run or fails."""
    editor = _editor()
    if os.name == "nt":
        argv = [*shlex.split(editor, posix=False), str(path)]
    else:
        argv = ["sh", "-c", f'{editor} "$@"', editor, str(path)]
    try:
        status = subprocess.run(argv, check=False).returncode
    except OSError as exc:
        raise CliError(f"cannot run the editor {editor!r}: {exc.strerror or exc}; "
                       "nothing was changed") from None
    if status != 0:
        raise CliError(f"the editor {editor!r} exited with status {status}; nothing was "
                       "changed")

