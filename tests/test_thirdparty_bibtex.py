"""Real BibTeX files no one here wrote (tests/data/thirdparty, origins in its README).

For each file: every entry (but an `@proceedings`, which is not a paper) is in the library
after the import, under its own key; import -> export -> import -> export is
byte-identical from the first export on; what bibtexparser reads from the export equals
what it reads from the original, field by field (macros expanded on both sides); and the
export compiles with bibtex and with biber with no error or warning that compiling the
original does not give.
"""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.model import Entry

from papershelf.core.library import Library
from papershelf.formats import read_file
from papershelf.formats.bibtex.fields import keyword_tags
from papershelf.formats.bibtex.jabref import SPECIAL_FIELDS
from tests.conftest import THIRDPARTY, THIRDPARTY_FILES, bibtex_of, paper_keys
from tests.test_latex_compile import DOCUMENT, _require_tools, _run

XAMPL = THIRDPARTY / "xampl.bib"
# A file this big (biber's etc/papers.bib) is compiled once, not once per database: the
# export does not depend on the database, and biber takes ten seconds on it.
BIG_FILE = 100_000

# Fields the reader tells the user it repairs on export (a warning names the entry and
# field): an author list with a stray comma, bare LaTeX specials in a printed field.
_REPAIRED = re.compile(r"entry '(\S+)': (?:(author|editor) name|bare .* in ([\w, ]+) would)")


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[tuple[Library, Library]]:
    """Two empty libraries: the first import, and the import of its export."""
    libraries = (Library.open(str(tmp_path / "one.sqlite")),
                 Library.open(str(tmp_path / "two.sqlite")))
    yield libraries
    for library in libraries:
        library.close()


@cache
def _original(path: Path) -> dict[str, Entry]:
    """The file's entries as bibtexparser reads them, by key (the first of a key)."""
    entries: dict[str, Entry] = {}
    for entry in bibtexparser.parse_file(str(path)).entries:
        entries.setdefault(entry.key, entry)
    return entries


def _papers(path: Path) -> dict[str, Entry]:
    """The entries that are papers: not an @proceedings, nor commented out with `%` on
    the line of its `@` (biber skips those; bibtexparser, like bibtex, reads them)."""
    commented = set(re.findall(r"(?m)^[ \t]*%[ \t%]*@\w+[ \t]*[{(][ \t]*([^,\s]+)",
                               path.read_text(encoding="utf-8")))
    return {k: e for k, e in _original(path).items()
            if e.entry_type.lower() != "proceedings" and k not in commented}


_COMMENT_NOTICE = re.compile(r":(\d+): entry '[^']*': the line ('.*'|\".*\") inside the "
                             r"entry is read as a comment")


def _without_comments(path: Path, notices: list[str], out: Path) -> Path:
    """`path` without the `%` comments inside entries that these import notices name."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = False
    for notice in notices:
        match = _COMMENT_NOTICE.search(notice)
        if match:
            number, comment = int(match.group(1)), ast.literal_eval(match.group(2))
            line = lines[number - 1]
            at = line.find(comment)
            assert at >= 0, (number, comment)
            lines[number - 1] = line[:at] + "\n"
            cut = True
    if not cut:
        return path
    out.write_text("".join(lines), encoding="utf-8")
    return out


def _names(entries: dict[str, Entry]) -> dict[str, Entry]:
    """Entries by lower-case key and by each of their biblatex `ids` aliases."""
    names = {k.lower(): e for k, e in entries.items()}
    for entry in entries.values():
        ids = _fields(entry).get("ids")
        for alias in ids.split(",") if ids else []:
            names.setdefault(alias.strip().lower(), entry)
    return names


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _fields(entry: Entry) -> dict[str, str]:
    """An entry's fields, names in lower case, values with BibTeX's spacing, without the
    stray control characters that the import drops (and names in a notice)."""
    return {f.key.lower(): " ".join(_CONTROL.sub("", str(f.value)).split())
            for f in entry.fields}


def test_xampl_imports_every_paper(library: Library) -> None:
    """BibTeX's own example: 36 entries, 3 of them @proceedings; the -minimal and -full
    entries share titles but are different entries, and all are imported."""
    report = library.import_file(XAMPL)
    assert report.summary().endswith("33 added, 0 already present, 0 failed")
    assert any("3 @proceedings entries not imported" in n for n in report.notices)
    assert any("@preamble" in n for n in report.notices)
    assert set(paper_keys(library)) == set(_papers(XAMPL))
    full = library.records(library.ids_for_keys(["article-full"])[0])[0]
    assert (full.volume, full.pages, full.raw["number"]) == ("41", "73+", "7")


@pytest.mark.parametrize("path", THIRDPARTY_FILES, ids=[p.name for p in THIRDPARTY_FILES])
def test_round_trip(path: Path, fresh: tuple[Library, Library], tmp_path: Path) -> None:
    one, two = fresh
    report = one.import_file(path)
    assert set(_papers(path)) <= set(paper_keys(one)), report.summary()
    first = bibtex_of(one)
    (tmp_path / "first.bib").write_text(first, encoding="utf-8")
    two.import_file(tmp_path / "first.bib")
    assert bibtex_of(two) == first

    # Field by field, the export reads as the original (macros expanded on both sides).
    # A `%` comment inside an entry is read as biber reads it (bibtexparser would take
    # it for a field): the original is given to bibtexparser without the comments the
    # import named.
    exported = _original(tmp_path / "first.bib")
    read_as_biber = _without_comments(path, report.notices, tmp_path / "original.bib")
    original = _original(read_as_biber)
    repaired = {(m.group(1), name.strip()) for w in report.notices
                for m in [_REPAIRED.search(w)] if m
                for name in (m.group(2) or m.group(3)).split(",")}
    tags = {r.key: r.tags for r in one.records(one.view_ids())}
    # (Entries with tags beyond their keywords: a keywords field alone is the tags, and an
    # unedited one is written as it was.)
    grouped = {r.key for r in read_file(path).records
               if set(r.tags) != set(keyword_tags(r.raw.get("keywords", "")))}
    for key, entry in _papers(read_as_biber).items():
        got = _fields(exported[key])
        want = _fields(entry)
        target = want.get("crossref", "").lower()
        parent = _names(original).get(target) if target else None
        if parent is not None and target not in {k.lower() for k in exported}:
            # The parent is not exported (an @proceedings is not a paper): bibtex could
            # not resolve the crossref, so the entry carries what it inherits instead. A
            # crossref to an entry of another file is kept as it is.
            inherited = {name: value for name, value in _fields(parent).items()
                         if name in got and name not in want}
            if inherited or "crossref" not in got:
                want.pop("crossref")
                want |= inherited
        for name in list(want):
            if (key, name) in repaired:
                want.pop(name)
                got.pop(name, None)
        if any(name in want for name in SPECIAL_FIELDS) or key in grouped:
            # JabRef's groups and special fields became the paper's tags, star and read
            # state (formats.bibtex.jabref): the export writes the tags as its keywords.
            for name in SPECIAL_FIELDS:
                want.pop(name, None)
            if tags.get(key) and key in grouped:
                want["keywords"] = ", ".join(tags[key])
        assert got == want, key


# -- compiling -------------------------------------------------------------------------

_BIBTEX_PROBLEM = re.compile(r"^(Warning--.*|.*---line \d+ of file .*|I was expecting .*|"
                             r"You're missing .*|Repeated entry.*|I'm ignoring .*)$",
                             re.MULTILINE)
_BIBER_PROBLEM = re.compile(r"(?:WARN|ERROR) - (.*)$", re.MULTILINE)


def _problems(bib: Path, backend: str, folder: Path) -> set[str]:
    """What bibtex (plain) or biber (biblatex) says about a .bib file: its warnings and
    errors, without line numbers and file names (they differ between the two files)."""
    folder.mkdir()
    shutil.copy(bib, folder / "refs.bib")
    if backend == "biber":
        packages = r"\usepackage[backend=biber]{biblatex}\addbibresource{refs.bib}"
        bibliography = r"\printbibliography"
    else:
        packages, bibliography = "", r"\bibliographystyle{plain}\bibliography{refs}"
    (folder / "doc.tex").write_text(
        DOCUMENT % {"packages": packages, "bibliography": bibliography}, encoding="utf-8")
    tools = _require_tools()  # (a missing one fails the test, naming its package)
    _run([tools["pdflatex"], "-interaction=nonstopmode", "doc.tex"], folder)
    _run([tools[backend], "doc"], folder)
    log = (folder / "doc.blg").read_text(encoding="utf-8", errors="replace")
    pattern = _BIBER_PROBLEM if backend == "biber" else _BIBTEX_PROBLEM
    found = {m.group(1) if m.groups() else m.group() for m in pattern.finditer(log)}
    if backend == "biber":
        return {re.sub(r"(line \d+|'?/[^ ']*refs\.bib'?|refs\.bib|:\d+|/\S*/biber_tmp_\w+/\S+)",
                       "", p).strip()
                for p in found}
    return {p.replace("refs.bib", "").strip() for p in found}


@pytest.mark.parametrize("backend", ["bibtex", "biber"])
@pytest.mark.parametrize("path", THIRDPARTY_FILES, ids=[p.name for p in THIRDPARTY_FILES])
def test_export_compiles_like_the_original(path: Path, backend: str, library: Library,
                                           tmp_path: Path, dialect: str) -> None:
    library.import_file(path)
    export = tmp_path / "export.bib"
    export.write_text(bibtex_of(library), encoding="utf-8")
    before = _problems(path, backend, tmp_path / "original")
    after = _problems(export, backend, tmp_path / "export")
    # An entry bibtex stopped on in the original (at a `%` line biber reads as a
    # comment) is read whole from the export: what bibtex then says of it is not new.
    stopped = {key for key, line in _entry_lines(path)
               for problem in before for m in [re.search(r"---line (\d+)", problem)] if m
               if line <= int(m.group(1)) < _next_entry_line(path, line)}
    new = {p for p in after - before
           if not any(f'"{key}"' in p or p.endswith(f" {key}") for key in stopped)}
    assert not new, sorted(new)


def _entry_lines(path: Path) -> list[tuple[str, int]]:
    """Each entry's key and the line its `@` is on."""
    text = path.read_text(encoding="utf-8")
    return [(m.group(1), text.count("\n", 0, m.start()) + 1)
            for m in re.finditer(r"(?m)^[ \t]*@\w+[ \t]*[{(][ \t]*([^,\s]+)", text)]


def _next_entry_line(path: Path, line: int) -> int:
    return min((n for _k, n in _entry_lines(path) if n > line), default=1 << 30)
