"""BibTeX fidelity on a corpus of real `.bib` files (issue 23): the totals for the README.

    python -m tests.bench.bibtex_corpus [--compile] [--list] REPO_OR_FOLDER...

Each argument is an already-fetched repository (a bare git directory or a work tree:
the `.bib` files of its HEAD are read with git, byte for byte) or a plain folder (its
`.bib` files, recursively). Nothing is fetched here. The corpus of issue 23 is the test
files of plk/biber, retorquere/zotero-better-bibtex, JabRef/jabref, pybtex (mirror
live-clones/pybtex) and sciunto-org/python-bibtexparser.

For every file: import into a fresh library, export, import the export into another
fresh library and export again. Counted: files refused whole, entries read, entries
neither imported nor reported (dropped silently), keys changed (a key of the file that
is neither a paper's key nor an alias of one afterwards, or that is only an alias
without a notice saying so), round trips not byte-identical, exports whose @strings
are not in the order of the file's, verbatim fields (url, doi, eprint, file, pdf,
verba-c) whose text bibtexparser reads differently from the export, and bare macros
written back as text; a file a snapshot lacks is counted and named. `--compile` also
compiles the original (a UTF-16 one, which bibtex cannot read, as UTF-8) and the export
with bibtex (plain) and with biber and counts the files whose export gives a warning or
error the original does not (slow: four runs a file). `--list` names each file with a defect.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import bibtexparser

from papershelf.core.library import Library, View
from papershelf.core.transfer import export_papers
from papershelf.formats import read_file
from papershelf.formats.records import FormatError

VERBATIM = ("url", "doi", "eprint", "file", "pdf", "verba", "verbb", "verbc")
_BARE_WORD = re.compile(r"^[A-Za-z][^\s\"#%'(),={}@]*$")


def bib_files(source: Path) -> Iterator[tuple[str, bytes | None]]:
    """(name, bytes) of each `.bib` file of a repository's HEAD or of a folder (None for
    a file a snapshot lacks: it may leave out its biggest files)."""
    git = ["git", f"--git-dir={source}"] if (source / "HEAD").is_file() else (
        ["git", "-C", str(source)] if (source / ".git").exists() else None)
    if git is None:
        for path in sorted(source.rglob("*.bib")):
            yield str(path.relative_to(source)), path.read_bytes()
        return
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", "HEAD"], check=True,
                             capture_output=True).stdout.split(b"\0")
    for line in listing:
        if not line:
            continue
        meta, _tab, name = line.partition(b"\t")
        mode, kind, blob = meta.split()
        if kind != b"blob" or not name.lower().endswith(b".bib") or mode == b"120000":
            continue
        blob_of = subprocess.run([*git, "cat-file", "blob", blob.decode()],
                                 capture_output=True)
        yield (name.decode("utf-8", "replace"),
               blob_of.stdout if blob_of.returncode == 0 else None)


def _fields(text: str) -> dict[str, dict[str, str]]:
    """bibtexparser's reading of BibTeX text: key -> field name -> raw value."""
    library = bibtexparser.parse_string(text, parse_stack=[])
    out: dict[str, dict[str, str]] = {}
    for entry in library.entries:
        out.setdefault(entry.key, {f.key.lower(): str(f.value) for f in entry.fields})
    return out


def _string_names(text: str) -> list[str]:
    """The `@string` names of BibTeX text as bibtexparser reads them, in file order
    (lower-case, each once)."""
    library = bibtexparser.parse_string(text, parse_stack=[])
    return list(dict.fromkeys(s.key.lower() for s in library.strings))


def _out_of_order(original: list[str], exported: list[str]) -> bool:
    """Whether the export writes the original's @strings in another order."""
    place = {name: n for n, name in enumerate(original)}
    kept = [place[name] for name in exported if name in place]
    return kept != sorted(kept)


def _body(value: str) -> str:
    """A raw value without its outer braces or quotes."""
    if len(value) >= 2 and value[0] + value[-1] in ("{}", '""'):
        return value[1:-1]
    return value


def check_file(name: str, data: bytes, work: Path, compile_too: bool) -> Counter[str]:
    """The defects of one file (a Counter of what was counted)."""
    counts: Counter[str] = Counter(files=1)
    path = work / "original.bib"
    path.write_bytes(data)
    try:
        read = read_file(path)
    except FormatError:
        counts["refused"] += 1
        return counts
    counts["entries"] += len(read.records) + len(read.problems)
    for db in work.glob("*.sqlite*"):
        db.unlink()
    one, two = Library.open(str(work / "one.sqlite")), Library.open(str(work / "two.sqlite"))
    try:
        report = one.import_file(path)
        accounted = report.added + report.merged + report.already_present
        counts["dropped silently"] += max(0, len(read.records) - accounted)
        rows = one.rows(one.view_ids(View())).values()
        keys = {row.key for row in rows}
        wanted = [r.key for r in read.records if r.key]
        missing = [k for k in wanted if k not in keys]
        _found, lost = one.ids_for_keys(missing)
        noticed = sum(1 for n in report.notices if "cannot be a citation key" in n)
        counts["keys changed"] += len(lost) + max(0, len(missing) - len(lost) - noticed
                                                  - report.merged - report.already_present)
        counts["keys replaced with notice"] += noticed
        first = export_papers(one, one.view_ids(View())).text
        (work / "first.bib").write_text(first, encoding="utf-8")
        two.import_file(work / "first.bib")
        second = export_papers(two, two.view_ids(View())).text
        counts["round trips not identical"] += first != second
        text = read_as_text(path)
        counts["@strings out of the file's order"] += _out_of_order(_string_names(text),
                                                                    _string_names(first))
        original, exported = _fields(text), _fields(first)
        for key, fields in original.items():
            got = exported.get(key)
            if got is None:
                continue
            for field in VERBATIM:
                if field in fields and field in got and _body(fields[field]) != _body(got[field]):
                    counts["verbatim fields changed"] += 1
            for field, value in fields.items():
                if _BARE_WORD.match(value) and got.get(field, value) != value:
                    counts["macros written as text"] += 1
        if compile_too and read.records:  # (a file of @strings only exports nothing)
            if b"\0" in data:  # UTF-16, which bibtex cannot read: compile it as UTF-8
                path = work / "original-utf8.bib"
                path.write_text(text, encoding="utf-8")
            counts["new bibtex/biber problems"] += _new_problems(path, work / "first.bib", work)
    finally:
        one.close()
        two.close()
    return counts


def read_as_text(path: Path) -> str:
    """The file's text as Papershelf decodes it (for bibtexparser)."""
    from papershelf.formats.bibtex import decode_bibtex
    return decode_bibtex(path.read_bytes(), str(path))[0]


def _new_problems(original: Path, export: Path, work: Path) -> int:
    """1 if compiling the export gives a warning or error compiling the original does not
    (they are printed, to standard error)."""
    from tests.test_thirdparty_bibtex import _problems
    found = []
    for n, bib in enumerate((original, export)):
        seen: set[str] = set()
        for backend in ("bibtex", "biber"):
            folder = work / f"tex{n}{backend}"
            subprocess.run(["rm", "-rf", str(folder)], check=True)
            try:
                seen |= {f"{backend}: {p}" for p in _problems(bib, backend, folder)}
            except Exception as exc:  # a tool that crashes on the file: say so, go on
                seen.add(f"{backend}: failed ({exc.__class__.__name__})")
        found.append(seen)
    new = found[1] - found[0]
    for problem in sorted(new)[:5]:
        print(f"  new: {problem[:200]}", file=sys.stderr)
    return int(bool(new))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    totals: Counter[str] = Counter()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for source in args.sources:
            label = source.parent.name if source.name == "repo" else source.name
            for name, data in bib_files(source):
                print(f"{label}/{name}:", file=sys.stderr)
                if data is None:
                    totals["not in the snapshot"] += 1
                    print(f"{label}/{name}: not in the snapshot")
                    continue
                try:
                    counts = check_file(name, data, work, args.compile)
                except Exception as exc:  # our bug: count it, name it, go on
                    counts = Counter(files=1, tracebacks=1)
                    print(f"{label}/{name}: {exc!r}", file=sys.stderr)
                totals += counts
                defects = {k: v for k, v in counts.items()
                           if v and k not in ("files", "entries")}
                if args.list and defects:
                    print(f"{label}/{name}: {defects}")
    order = ("not in the snapshot", "files", "entries", "refused", "tracebacks",
             "dropped silently", "keys changed", "keys replaced with notice",
             "round trips not identical", "@strings out of the file's order",
             "verbatim fields changed", "macros written as text", "new bibtex/biber problems")
    print("| what | count |\n|---|---|")
    for what in order:
        if what in totals or what not in ("not in the snapshot", "tracebacks",
                                           "new bibtex/biber problems") or (
                what == "new bibtex/biber problems" and args.compile):
            print(f"| {what} | {totals[what]} |")
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
