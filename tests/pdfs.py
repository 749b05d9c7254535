"""PDFs for the reader's tests, made by real pdflatex: a paper with a roman-numbered
title page (its label "i", the next page "1"), two columns, mathematics, internal and
external links and an outline (hyperref)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

PAPER = r"""
\documentclass[twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{hyperref}
\title{Sparse Attention for Long Sequences}
\author{Ada Lovelace}
\begin{document}
\pagenumbering{roman}
\maketitle
\begin{abstract}
We study attention that reads only a few tokens of a long sequence.
\end{abstract}
\clearpage
\pagenumbering{arabic}
\section{Introduction}\label{sec:intro}
Transformers compute attention over every pair of tokens, which costs time quadratic in
the length of the sequence. We propose a sparse pattern whose cost grows linearly, and
show in Section~\ref{sec:results} that it keeps the accuracy of dense attention on
long-document benchmarks. The code is at \url{https://example.org/sparse}.
\section{Method}
Let $x_1, \dots, x_n$ be the tokens. Each token attends to $O(\sqrt{n})$ others chosen by
a fixed stride, so the whole layer costs $O(n\sqrt{n})$ operations.
\section{Results}\label{sec:results}
Sparse attention matches dense attention within one point of accuracy while using a
tenth of the memory on sequences of sixteen thousand tokens.
\end{document}
"""


def make_paper(folder: Path, name: str = "paper") -> Path:
    """The paper above as `folder/name.pdf` (pdflatex run twice, for the labels)."""
    tool = shutil.which("pdflatex")
    assert tool is not None, "pdflatex is not installed: apt-get install texlive-latex-base"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.tex").write_text(PAPER, encoding="utf-8")
    for _ in range(2):
        subprocess.run([tool, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
                       cwd=folder, check=True, capture_output=True, timeout=120)
    return folder / f"{name}.pdf"
