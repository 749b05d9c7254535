"""Tests for LaTeX -> readable Unicode conversion (papershelf.formats.readable)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.formats.readable import find_math_spans, latex_to_text, math_to_text

SEEDS = Path(__file__).resolve().parents[1] / "seeds"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("{F}rame{Q}uant", "FrameQuant"),
        (r"{\"u} \"{u} \'e {\ss} \c{c} \o", "ü ü é ß ç ø"),
        (r"Kr\"{a}mer and C\'{e}dric", "Krämer and Cédric"),
        (r"Fort \& Scherlis, 100\% sure", "Fort & Scherlis, 100% sure"),
        ("a~b", "a b"),
        (r"$\ell_0$-Regularized", "ℓ₀-Regularized"),
        ("$L_2$", "L₂"),
        (r"$\mathcal{O}(\epsilon^{-2})$", "𝒪(ε⁻²)"),
        ("RG$^2$", "RG²"),
        (r"$P=\alpha N\to\infty$", "P=α N→∞"),
        (r"$\Omega(\sqrt{d(\log d)^{-1}})$", "Ω(√(d(log d)⁻¹))"),
        (r"$\mathscr{F}\subset L_{\Psi_p}$", "ℱ⊂ L_Ψₚ"),
        (r"$\frac{1}{2}$", "1/2"),
        (r"$\mathbb{R}^d$", "ℝᵈ"),
        (r"\input{chapter} \unknownmacro{keep me} \textbf{bold}", "chapter keep me bold"),
        (
            r"\textbackslash{}x \_ \# \$5 \{ \} \textasciitilde{} \textasciicircum{}",
            "\\x _ # $5 { } ~ ^",
        ),
        ("100% plain {x}", "100% plain x"),
        ("a {unbalanced", "a unbalanced"),
        ("Branch--and---Bound {x}", "Branch--and---Bound x"),
    ],
)
def test_latex_to_text_examples(source: str, expected: str) -> None:
    assert latex_to_text(source) == expected


def test_keep_math_keeps_source() -> None:
    assert latex_to_text(r"for $\ell_0$ {P}roblems", keep_math=True) == r"for $\ell_0$ Problems"
    assert latex_to_text(r"RG$^2$: 5% of \$3", keep_math=True) == "RG$^2$: 5% of $3"


def test_fast_path_returns_same_object() -> None:
    text = "A plain title: 100% & more -- with (parens)"
    assert latex_to_text(text) is text


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"with $\ell_0$ & 5% \ kept", r"with ℓ₀ & 5% \ kept"),
        ("costs $5 and $6", "costs $5 and $6"),
        (r"$T^{ 1.5}/\sqrt{n}$", "T^1.5/√n"),
        (r"$n^{−1/2}$", "n^(−1/2)"),
        (r"$\mathcal{O} (\epsilon^{-4})$", "𝒪 (ε⁻⁴)"),
        ("$^2$ and $L_\\infty$", "² and L_∞"),
        ("no math", "no math"),
    ],
)
def test_math_to_text_examples(source: str, expected: str) -> None:
    assert math_to_text(source) == expected


def test_seed_math_snippets_become_readable() -> None:
    snippets = set()
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        snippets.update(text[a:b] for a, b in find_math_spans(text))
    assert len(snippets) >= 20
    for snippet in snippets:
        readable = math_to_text(snippet)
        assert "$" not in readable, snippet
        assert not re.search(r"\\[A-Za-z]", readable), (snippet, readable)
        assert "{" not in readable and "}" not in readable, (snippet, readable)
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        converted = math_to_text(text)
        # Text outside math (%, &, plain words) is untouched.
        assert converted.count("%") == text.count("%")
        assert converted.count("&") == text.count("&")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises(text: str) -> None:
    assert isinstance(latex_to_text(text), str)
    assert isinstance(latex_to_text(text, keep_math=True), str)
    assert isinstance(math_to_text(text), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("\\{}$~^_&%#abcXYZ 12()-=")))
def test_never_raises_on_latex_like_text(text: str) -> None:
    assert isinstance(latex_to_text(text), str)
    assert isinstance(math_to_text(text), str)


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126)))
def test_fast_path_identity_on_plain_ascii(text: str) -> None:
    plain = re.sub(r"[\\{}$~]", "", text)
    assert latex_to_text(plain) == plain
