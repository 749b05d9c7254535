"""The export compiles: real pdflatex + bibtex (plain, plainnat) and pdflatex + biber.

A LaTeX document cites every exported entry (`\\nocite{*}`) of the seed library, of the
PMLR volume file and of ~300 entries generated from the ICML 2024 paper list. Any
LaTeX error, any bibtex/biber error and any warning the export caused fails the test.
These tests are never skipped: a missing tool fails with the Debian package to install
(the list `.ci/run` installs).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from papershelf.core import keys
from papershelf.formats.abstracts import read_abstract_list
from papershelf.formats.bibtex import Flavour, parse_bibtex, read_bibtex, write_bibtex
from papershelf.formats.records import Author, PaperRecord
from tests.test_bibtex_import import PMLR, paperlists_bib

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"

# What to install when a tool or file is missing (Debian package names).
TOOLS = {"pdflatex": "texlive-latex-base", "bibtex": "texlive-binaries", "biber": "biber"}
TEX_FILES = {
    "plainnat.bst": "texlive-latex-base",
    "natbib.sty": "texlive-latex-base",
    "url.sty": "texlive-latex-base",
    "biblatex.sty": "texlive-bibtex-extra",
    "etoolbox.sty": "texlive-latex-recommended",
    "lmodern.sty": "lmodern",
    "t1lmr.fd": "lmodern",
}

DOCUMENT = r"""\documentclass{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{url}
%(packages)s
\begin{document}
\nocite{*}
%(bibliography)s
\end{document}
"""

# The seed records come from abstract lists: they have no authors (the user adds them),
# so bibtex styles say so. That is the data, not the export; any other warning fails.
_NO_AUTHOR_WARNINGS = re.compile(r"^Warning--empty author in ")
_LATEX_ERRORS = re.compile(
    r"^! |Undefined control sequence|Missing \$|Runaway argument|"
    r"LaTeX Error|Package \w+ Error|Unicode character",
    re.MULTILINE,
)


def _require_tools() -> dict[str, str]:
    found: dict[str, str] = {}
    for tool, package in TOOLS.items():
        path = shutil.which(tool)
        if path is None:
            pytest.fail(f"{tool} is not installed: apt-get install {package}")
        found[tool] = path
    for name, package in TEX_FILES.items():
        ok = subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout.strip()
        if not ok:
            pytest.fail(f"TeX file {name} is missing: apt-get install {package}")
    return found


@cache
def _records() -> tuple[list[PaperRecord], set[str]]:
    """Seeds, PMLR and paper-list records with unique keys; the keys of author-less ones."""
    allocator = keys.KeyAllocator(set())
    records: list[PaperRecord] = []
    for path in sorted(SEEDS.glob("*.txt")):
        for record in read_abstract_list(path).records:
            record.key = allocator.key(keys.format_key(keys.DEFAULT_PATTERN, record))
            records.append(record)
    assert len(records) == 38
    pmlr = read_bibtex(PMLR).records
    generated = parse_bibtex(paperlists_bib(300), "paperlists.bib").records
    assert len(pmlr) == 38 and len(generated) == 300
    for prefix, batch in (("pmlr:", pmlr), ("pl:", generated)):
        for record in batch:
            record.key = prefix + (record.key or "")
            records.append(record)
    no_author = {r.key for r in records if not r.authors and r.key}
    assert len(no_author) == 38  # exactly the seeds
    return records, no_author


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=120,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def _latex(tools: dict[str, str], cwd: Path) -> str:
    _run([tools["pdflatex"], "-interaction=nonstopmode", "doc.tex"], cwd)
    return (cwd / "doc.log").read_text(encoding="utf-8", errors="replace")


def _compile(
    tmp_path: Path, style: str, flavour: Flavour, records: list[PaperRecord] | None = None,
    include_files: bool = False,
) -> None:
    tools = _require_tools()
    no_author: set[str] = set()
    if records is None:
        records, no_author = _records()
    (tmp_path / "refs.bib").write_text(
        write_bibtex(records, flavour=flavour, include_files=include_files), encoding="utf-8")
    if flavour == "biblatex":
        packages = (
            r"\usepackage[backend=biber,style=" + style + r"]{biblatex}" + "\n"
            r"\addbibresource{refs.bib}"
        )
        bibliography = r"\printbibliography"
    else:
        packages = r"\usepackage{natbib}" if style == "plainnat" else ""
        bibliography = r"\bibliographystyle{" + style + r"}\bibliography{refs}"
    (tmp_path / "doc.tex").write_text(
        DOCUMENT % {"packages": packages, "bibliography": bibliography}, encoding="utf-8"
    )
    _latex(tools, tmp_path)
    if flavour == "biblatex":
        proc = _run([tools["biber"], "doc"], tmp_path)
        blg = (tmp_path / "doc.blg").read_text(encoding="utf-8", errors="replace")
        problems = [ln for ln in blg.splitlines() if " WARN - " in ln or " ERROR - " in ln]
        assert proc.returncode == 0 and not problems, "\n".join(problems) or proc.stdout
    else:
        proc = _run([tools["bibtex"], "doc"], tmp_path)
        blg = (tmp_path / "doc.blg").read_text(encoding="utf-8", errors="replace")
        assert "error message" not in blg, blg
        warnings = [ln for ln in blg.splitlines() if ln.startswith("Warning--")]
        unexplained = [
            ln
            for ln in warnings
            if not (_NO_AUTHOR_WARNINGS.match(ln) and ln.rsplit(" ", 1)[-1] in no_author)
        ]
        assert proc.returncode in (0, 1) and not unexplained, "\n".join(unexplained)
        assert "empty booktitle" not in blg and "empty year" not in blg
    log = _latex(tools, tmp_path)
    errors = sorted({m.group() for m in _LATEX_ERRORS.finditer(log)})
    assert not errors, f"{errors}\n{log[-3000:]}"
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    cited = len(re.findall(r"\\bibitem|\\entry\{", bbl))
    assert cited == len(records), (cited, len(records))


@pytest.mark.parametrize("style", ["plain", "plainnat"])
def test_bibtex_styles_compile(tmp_path: Path, style: str) -> None:
    _compile(tmp_path, style, "bibtex")


def test_biblatex_biber_compiles(tmp_path: Path) -> None:
    _compile(tmp_path, "authoryear", "biblatex")


@pytest.mark.parametrize(("style", "flavour"), [("plain", "bibtex"), ("plainnat", "bibtex"),
                                               ("authoryear", "biblatex")])
def test_attached_files_and_arxiv_ids_compile(tmp_path: Path, style: str,
                                             flavour: Flavour) -> None:
    """The `file` field of attached files (paths with spaces, %, #, _, ~, :, ;, a
    backslash, braces, non-ASCII) and an arXiv preprint's eprint fields."""
    paths = ["/home/ada/Papers/files/Adepu 2024 - FrameQuant 100% _fast_ #1.pdf",
             "/home/ada/Papers/files/Müller~ü {draft} a:b;c.pdf", r"C:\Users\ada\x.pdf"]
    records = [
        PaperRecord(key="adepu2024framequant", title="FrameQuant", year=2024,
                    authors=[Author("Adepu", "Harshavardhan")], venue="ICML",
                    url="https://arxiv.org/abs/2403.06082", files=paths),
        PaperRecord(key="other", title="Another Paper", year=2023, entry_type="article",
                    authors=[Author("Lovelace", "Ada")], venue="Journal of Tests",
                    files=[paths[0]]),
    ]
    _compile(tmp_path, style, flavour, records, include_files=True)
    bib = (tmp_path / "refs.bib").read_text(encoding="utf-8")
    assert bib.count("  file = {") == 2
    assert "eprint = {2403.06082}" in bib
    assert ("archiveprefix = {arXiv}" if flavour == "bibtex" else "eprinttype = {arxiv}") in bib


@pytest.mark.parametrize(("style", "flavour"), [("plain", "bibtex"), ("authoryear", "biblatex")])
def test_the_checks_catch_a_broken_export(tmp_path: Path, style: str, flavour: Flavour) -> None:
    """An undefined macro written verbatim from raw must fail the compile check."""
    broken = PaperRecord(
        key="broken", title="x", year=2024, authors=[], raw={"title": r"A \nosuchmacro title",
        "author": "Doe, Jane", "journal": "J", "year": "2024"}, entry_type="article",
    )  # fmt: skip
    with pytest.raises(AssertionError, match="Undefined control sequence"):
        _compile(tmp_path, style, flavour, [broken])
