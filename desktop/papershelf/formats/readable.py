"""LaTeX/BibTeX field text to readable Unicode, done once when a file is imported.

`latex_to_text` decodes BibTeX field values (braces, accents, escapes, inline math);
`math_to_text` renders only the inline `$math$` of plain text (the seed/abstract format).
Both never raise: on any parse failure they fall back to a simple regex cleanup.

The module also counts braces the way BibTeX does (`brace_end`, `bibtex_balanced`,
`top_level_matches`), for the BibTeX reader and writer and the LaTeX encoder: it is the
one module of the LaTeX side that all of them import.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterator

from pylatexenc import latexwalker
from pylatexenc.latex2text import (
    LatexNodes2Text,
    MacroTextSpec,
    SpecialsTextSpec,
    get_default_latex_context_db,
)

__all__ = [
    "MATH_SPAN_RE",
    "bibtex_balanced",
    "brace_end",
    "find_math_spans",
    "latex_to_text",
    "math_to_text",
    "top_level_matches",
]

_log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------
# Brace counting as BibTeX does it (shared by the BibTeX reader and writer and
# the LaTeX encoder). BibTeX ignores backslashes: `\{` counts as an opening brace.
# ---------------------------------------------------------------------------


def brace_end(text: str, pos: int) -> int:
    """Index after the `}` that closes the `{` at `pos`, or -1 if none does.

    The first `}` after `pos` outside braces, as `top_level_matches` would find it, but
    with `str` methods only, for the BibTeX scanner's fast path.
    """
    close = text.find("}", pos + 1)
    if close < 0:
        return -1
    if text.find("{", pos + 1, close) < 0:
        return close + 1  # the common case: no nested braces
    depth = 1
    start = pos + 1
    while True:
        depth += text.count("{", start, close) - 1
        if depth == 0:
            return close + 1
        start = close + 1
        close = text.find("}", start)
        if close < 0:
            return -1


def bibtex_balanced(s: str) -> bool:
    """True if the braces of `s` pair up, so that `{s}` is one BibTeX value."""
    if "{" not in s and "}" not in s:
        return True
    return brace_end("{" + s + "}", 0) == len(s) + 2


def top_level_matches(
    text: str, pattern: re.Pattern[str], start: int = 0
) -> Iterator[re.Match[str]]:
    """The matches of `pattern` in `text[start:]` that begin outside braces.

    Outside braces means after as many `{` as `}` (from `start`), so a `}` without its
    `{` puts what follows inside until a `{` makes up for it. A match of a `}` found
    outside braces is one that closes nothing.
    """
    depth = 0
    last = start
    for match in pattern.finditer(text, start):
        pos = match.start()
        depth += text.count("{", last, pos) - text.count("}", last, pos)
        last = pos
        if depth == 0:
            yield match


# ---------------------------------------------------------------------------
# Inline math detection (shared with the BibTeX writer).
# ---------------------------------------------------------------------------

#: A paired inline math span `$...$` in plain text, pandoc's rule: the opening `$` is not
#: followed by whitespace, the closing `$` is not preceded by whitespace nor followed by a
#: digit. So "costs $5 and $6" holds no math, `$\ell_0$` and `RG$^2$` do. A `%` (a TeX
#: comment) never occurs inside a span.
MATH_SPAN_RE = re.compile(r"\$(?![\s$])((?:\\[^%]|[^$\\%])+?)(?<![\s\\])\$(?!\d)")


def find_math_spans(s: str) -> list[tuple[int, int]]:
    """(start, end) of the well-formed inline `$...$` spans of plain text `s`.

    A span counts only if its content has balanced braces, so keeping it verbatim in a
    BibTeX value can never unbalance the value.
    """
    if "$" not in s:
        return []
    return [m.span() for m in MATH_SPAN_RE.finditer(s) if bibtex_balanced(m.group(1))]


# ---------------------------------------------------------------------------
# Math source -> readable Unicode (own small converter: pylatexenc flattens
# sub/superscript groups, so `^{-2}` and `_{\Psi_p}` lose their extent).
# ---------------------------------------------------------------------------

_SUP = dict(
    zip(
        "0123456789+-−=()niabcdefghjklmoprstuvwxyzABDEGHIJKLMNOPRTUVW⊤βγδφχθ′",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵀᵝᵞᵟᵠᵡᶿ′",
        strict=True,
    )
)
_SUB = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)
_SCRIPT_NEEDS_PARENS = frozenset(" +-−/*=,<>|")


def _alphabet(
    upper: int, lower: int | None, holes: dict[str, str], digits: int | None = None
) -> dict[str, str]:
    """Map ASCII letters (and digits) to a Unicode math alphabet, with its holes filled."""
    table: dict[str, str] = {}
    for i in range(26):
        table[chr(65 + i)] = chr(upper + i)
        if lower is not None:
            table[chr(97 + i)] = chr(lower + i)
    if digits is not None:
        for i in range(10):
            table[chr(48 + i)] = chr(digits + i)
    table.update(holes)
    return table


_SCRIPT = _alphabet(
    0x1D49C,
    0x1D4B6,
    {
        "B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ",
        "e": "ℯ", "g": "ℊ", "o": "ℴ",
    },
)  # fmt: skip
_FONTS: dict[str, dict[str, str]] = {
    "mathcal": _SCRIPT,
    "mathscr": _SCRIPT,
    "mathbb": _alphabet(
        0x1D538,
        0x1D552,
        {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"},
        digits=0x1D7D8,
    ),
    "mathfrak": _alphabet(0x1D504, 0x1D51E, {"C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"}),
}
# Macros whose argument is shown as plain text.
_PLAIN_ARG = frozenset(
    "mathrm mathit mathbf mathsf mathtt mathnormal boldsymbol bm text "
    "textrm textit textbf textsf texttt mbox operatorname emph hbox".split()
)
_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "bar": "\u0304", "overline": "\u0305", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308",
    "check": "\u030c", "breve": "\u0306", "acute": "\u0301", "grave": "\u0300",
    "underline": "\u0332",
}  # fmt: skip
_DROP = frozenset(
    "left right big Big bigg Bigg bigl bigr Bigl "
    "Bigr biggl biggr middle displaystyle textstyle scriptstyle limits nolimits nonumber".split()
)
_SPACES = {",": " ", ";": " ", ":": " ", ">": " ", "!": "", " ": " ", "quad": " ", "qquad": " "}
_SYMBOLS: dict[str, str] = {
    # Greek (epsilon as the common lunate-free form a reader expects)
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
    "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    # letters and constants
    "ell": "ℓ", "hbar": "ℏ", "imath": "ı", "jmath": "ȷ", "Re": "ℜ", "Im": "ℑ", "aleph": "ℵ",
    "wp": "℘", "infty": "∞", "partial": "∂", "nabla": "∇", "emptyset": "∅",
    "varnothing": "∅", "top": "⊤", "bot": "⊥", "perp": "⊥", "prime": "′",
    # operators and relations
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⇒", "iff": "⇔",
    "mapsto": "↦", "longrightarrow": "⟶", "uparrow": "↑", "downarrow": "↓",
    "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇", "in": "∈", "notin": "∉",
    "ni": "∋", "cap": "∩", "cup": "∪", "setminus": "∖", "forall": "∀", "exists": "∃",
    "neg": "¬", "lnot": "¬", "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨",
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "ll": "≪", "gg": "≫",
    "approx": "≈", "simeq": "≃", "sim": "∼", "cong": "≅", "equiv": "≡", "propto": "∝",
    "pm": "±", "mp": "∓", "times": "×", "div": "÷", "cdot": "·", "ast": "∗", "star": "⋆",
    "circ": "∘", "bullet": "•", "oplus": "⊕", "otimes": "⊗", "odot": "⊙",
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "oint": "∮",
    "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱",
    "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋",
    "mid": "|", "vert": "|", "Vert": "‖", "|": "‖", "lvert": "|", "rvert": "|",
    "lVert": "‖", "rVert": "‖", "backslash": "\\",
    "{": "{", "}": "}", "%": "%", "&": "&", "#": "#", "_": "_", "$": "$",
    # named functions
    "log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
    "max": "max", "min": "min", "sup": "sup", "inf": "inf", "lim": "lim", "arg": "arg",
    "argmax": "argmax", "argmin": "argmin", "det": "det", "dim": "dim", "ker": "ker",
    "Pr": "Pr", "tanh": "tanh", "sinh": "sinh", "cosh": "cosh", "gcd": "gcd", "deg": "deg",
    "limsup": "lim sup", "liminf": "lim inf", "poly": "poly", "polylog": "polylog",
}  # fmt: skip

_MATH_TOKEN_RE = re.compile(r"\\[A-Za-z]+\*?|\\.|\s+|.", re.DOTALL)


def _script(text: str, table: dict[str, str], mark: str) -> str:
    """`text` as Unicode super/subscript, or `^text`, `^(text)` when a char has none."""
    text = text.strip()
    if not text:
        return ""
    try:
        return "".join([table[c] for c in text])
    except KeyError:
        pass
    if len(text) == 1 or _SCRIPT_NEEDS_PARENS.isdisjoint(text):
        return mark + text
    return f"{mark}({text})"


def _needs_parens(text: str) -> bool:
    """True if `text` is more than one symbol, so `√`/`/` need parentheses to read right."""
    return len(text) > 1 and not text.isalnum()


class _MathConverter:
    """Recursive descent over math tokens; one instance per call (no shared state)."""

    def __init__(self, source: str) -> None:
        self.tokens: list[str] = _MATH_TOKEN_RE.findall(source)
        self.pos = 0

    def convert(self) -> str:
        """The whole source as readable text."""
        return self._sequence(in_group=False)

    def _sequence(self, in_group: bool) -> str:
        out: list[str] = []
        tokens = self.tokens
        while self.pos < len(tokens):
            tok = tokens[self.pos]
            self.pos += 1
            if tok == "}":
                if in_group:
                    break
                continue  # stray closing brace
            if tok == "{":
                out.append(self._sequence(in_group=True))
            elif tok == "^":
                out.append(_script(self._argument(), _SUP, "^"))
            elif tok == "_":
                out.append(_script(self._argument(), _SUB, "_"))
            elif tok[0] == "\\" and len(tok) > 1:
                out.append(self._macro(tok[1:]))
            elif tok.isspace():
                if out and not out[-1].endswith(" "):
                    out.append(" ")
            elif tok == "~":
                out.append(" ")
            else:
                out.append(tok)
        return "".join(out)

    def _skip_space(self) -> None:
        while self.pos < len(self.tokens) and self.tokens[self.pos].isspace():
            self.pos += 1

    def _argument(self) -> str:
        """The next argument: a `{group}`, a macro or a single character."""
        self._skip_space()
        if self.pos >= len(self.tokens):
            return ""
        tok = self.tokens[self.pos]
        self.pos += 1
        if tok == "{":
            return self._sequence(in_group=True)
        if tok[0] == "\\" and len(tok) > 1:
            return self._macro(tok[1:])
        if tok == "}":
            self.pos -= 1
            return ""
        return tok

    def _raw_argument(self) -> str:
        """The next `{group}` as source text (for `\\text{...}`), else one token."""
        # Counted on TeX tokens, not with `brace_end`: an escaped `\{` is no brace here.
        self._skip_space()
        if self.pos < len(self.tokens) and self.tokens[self.pos] == "{":
            depth = 0
            parts: list[str] = []
            while self.pos < len(self.tokens):
                tok = self.tokens[self.pos]
                self.pos += 1
                if tok == "{":
                    depth += 1
                    if depth == 1:
                        continue
                elif tok == "}":
                    depth -= 1
                    if depth == 0:
                        break
                parts.append(tok)
            return "".join(parts)
        return self._argument()

    def _optional_argument(self) -> None:
        """Skip a `[...]` optional argument (e.g. `\\sqrt[3]{x}` keeps only x)."""
        self._skip_space()
        if self.pos < len(self.tokens) and self.tokens[self.pos] == "[":
            while self.pos < len(self.tokens) and self.tokens[self.pos] != "]":
                self.pos += 1
            self.pos += 1

    def _macro(self, name: str) -> str:
        symbol = _SYMBOLS.get(name)
        if symbol is not None:
            return symbol
        font = _FONTS.get(name)
        if font is not None:
            return "".join([font.get(c, c) for c in self._argument()])
        if name in _PLAIN_ARG:
            if name.startswith("text") or name in ("mbox", "hbox", "operatorname"):
                return latex_to_text(self._raw_argument())
            return self._argument()
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            num, den = self._argument(), self._argument()
            num = f"({num})" if _needs_parens(num) else num
            den = f"({den})" if _needs_parens(den) else den
            return f"{num}/{den}"
        if name == "sqrt":
            self._optional_argument()
            arg = self._argument()
            return f"√({arg})" if _needs_parens(arg) else f"√{arg}"
        accent = _ACCENTS.get(name)
        if accent is not None:
            arg = self._argument()
            return arg + accent if len(arg) == 1 else arg
        if name in _DROP:
            at_dot = self.pos < len(self.tokens) and self.tokens[self.pos] == "."
            if name in ("left", "right", "middle") and at_dot:
                self.pos += 1
            return ""
        if name in _SPACES:
            return _SPACES[name]
        fallback = _FALLBACK_SYMBOLS.get(name)
        if fallback is not None:
            return fallback
        return name  # unknown macro: keep its name, never let text vanish


def _load_fallback_symbols() -> dict[str, str]:
    """Plain-string replacements of pylatexenc's default macros (symbols we do not list)."""
    table: dict[str, str] = {}
    try:
        for spec in get_default_latex_context_db().iter_macro_specs():
            repl = spec.simplify_repl
            if isinstance(repl, str) and repl and "%" not in repl and not spec.discard:
                table[spec.macroname] = repl
    except Exception:  # pragma: no cover - pylatexenc internals changed
        _log.debug("could not load pylatexenc symbol table", exc_info=True)
    return table


_FALLBACK_SYMBOLS = _load_fallback_symbols()


def _math_source_to_text(source: str) -> str:
    """Math-mode LaTeX (without delimiters) as readable Unicode; never raises."""
    try:
        return _MathConverter(source).convert().strip()
    except Exception:  # pragma: no cover - defensive, the converter is total
        _log.debug("math conversion failed for %r", source, exc_info=True)
        return _regex_cleanup(source)


# ---------------------------------------------------------------------------
# Text mode via pylatexenc.
# ---------------------------------------------------------------------------


def _keep_args(node: latexwalker.LatexMacroNode, l2t: LatexNodes2Text) -> str:
    """Replacement for macros whose arguments must stay visible (`\\input{x}` -> x)."""
    args = node.nodeargd.argnlist if node.nodeargd is not None else []
    return "".join(l2t.nodelist_to_text([a]) for a in args if a is not None)


def _build_context() -> object:
    """pylatexenc's default context with our overrides prepended."""
    db = get_default_latex_context_db()
    keep: Callable[[latexwalker.LatexMacroNode, LatexNodes2Text], str] = _keep_args
    db.add_context_category(
        "papershelf-overrides",
        prepend=True,
        macros=[
            MacroTextSpec("input", simplify_repl=keep),
            MacroTextSpec("include", simplify_repl=keep),
            MacroTextSpec("url", simplify_repl=keep),
            MacroTextSpec("textasciicircum", simplify_repl="^"),
            MacroTextSpec("textasciitilde", simplify_repl="~"),
            MacroTextSpec("textbackslash", simplify_repl="\\"),
            MacroTextSpec("textbraceleft", simplify_repl="{"),
            MacroTextSpec("textbraceright", simplify_repl="}"),
            MacroTextSpec("TeX", simplify_repl="TeX"),
            MacroTextSpec("LaTeX", simplify_repl="LaTeX"),
            MacroTextSpec("BibTeX", simplify_repl="BibTeX"),
        ],
        specials=[
            # `~` reads as a space; `&` is a literal in field text, not a tab stop.
            SpecialsTextSpec("~", " "),
            SpecialsTextSpec("&", "&"),
            # No TeX ligatures: the fast path cannot apply them, and a typed "--"
            # must round-trip through the writer unchanged.
            SpecialsTextSpec("--", "--"),
            SpecialsTextSpec("---", "---"),
            SpecialsTextSpec("``", "``"),
            SpecialsTextSpec("''", "''"),
            SpecialsTextSpec("!`", "!`"),
            SpecialsTextSpec("?`", "?`"),
        ],
    )
    return db


class _Latex2Text(LatexNodes2Text):  # type: ignore[misc]
    """pylatexenc converter that renders (or keeps) math with our converter."""

    def __init__(self, keep_math: bool) -> None:
        super().__init__(latex_context=_CONTEXT, math_mode="verbatim", strict_latex_spaces=False)
        self.keep_math = keep_math

    def math_node_to_text(self, node: latexwalker.LatexNode) -> str:
        """Inline math: its source `$...$` verbatim (keep_math) or readable Unicode."""
        verbatim = node.latex_verbatim()
        if node.isNodeType(latexwalker.LatexMathNode):
            opening, closing = node.delimiters
            inner = verbatim[len(opening) : len(verbatim) - len(closing)]
        else:  # a math environment: render its body
            inner = "".join(n.latex_verbatim() for n in node.nodelist)
        if self.keep_math:
            return f"${inner.strip()}$" if inner.strip() else ""
        return _math_source_to_text(inner)


_CONTEXT = _build_context()
_CONVERTERS = {False: _Latex2Text(keep_math=False), True: _Latex2Text(keep_math=True)}
_WALKER_CONTEXT = latexwalker.get_default_latex_context_db()

# Characters that send a string down the complete (slow) path.
_SIMPLE_ESCAPE_RE = re.compile(r"\\([&%$#_])")
_BRACES_AND_TIES = str.maketrans({"{": None, "}": None, "~": " "})
_PERCENT = "\ue001"  # stands for a literal `%` while pylatexenc parses
_UNESCAPED_PERCENT_RE = re.compile(r"(?<!\\)((?:\\\\)*)%")
_ESCAPED_CHAR_RE = re.compile(r"\\([&%$#_{}~^ ])")
_MACRO_RE = re.compile(r"\\[A-Za-z]+\*?\s*|\\.")
_INLINE_MATH_SRC_RE = re.compile(r"(?<!\\)\$((?:\\.|[^$\\])*)\$")


_HOLD = "\ue002"  # brackets the number of a held math span while pylatexenc parses
_HELD_RE = re.compile(_HOLD + r"(\d+)" + _HOLD)


def _hold_math(s: str, keep_math: bool) -> tuple[str, list[str]]:
    """`s` with its inline `$...$` spans out of pylatexenc's way (it lets a math macro
    such as `\\^` take the closing `$` as its argument), and what each span becomes.
    Display math (`$$`) is left to the parser."""
    if _HOLD in s or "$" not in s or "$$" in s.replace("\\$", ""):
        return s, []
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        inner = match.group(1)
        if keep_math:
            held.append(f"${inner.strip()}$" if inner.strip() else "")
        else:
            held.append(_math_source_to_text(inner))
        return f"{_HOLD}{len(held) - 1}{_HOLD}"

    return _INLINE_MATH_SRC_RE.sub(hold, s), held


def _regex_cleanup(s: str) -> str:
    """Last-resort cleanup when pylatexenc fails: drop macros and braces, unescape."""
    s = _ESCAPED_CHAR_RE.sub(lambda m: "\x00" + m.group(1), s)
    s = _MACRO_RE.sub("", s)
    s = s.replace("{", "").replace("}", "").replace("~", " ")
    return s.replace("\x00", "")


def _simple_path(s: str, keep_math: bool) -> str | None:
    """Plain text, `\\&`-style escapes and inline math only (typical abstracts): no parser.

    Returns None when the string needs pylatexenc.
    """
    spans = find_math_spans(s) if "$" in s else []
    if any(a > 0 and s[a - 1] == "\\" for a, _ in spans):
        return None  # an escaped `\\$` opened the span: let the parser decide
    out: list[str] = []
    last = 0
    for a, b in [*spans, (len(s), len(s))]:
        outside = s[last:a]
        if "\\" in outside:
            if "\\" in _SIMPLE_ESCAPE_RE.sub("", outside):
                return None
            outside = _SIMPLE_ESCAPE_RE.sub(r"\1", outside)
        if "$" in outside:
            return None
        if "{" in outside or "}" in outside or "~" in outside:
            # Case-protection braces ({ICML}, {F}rame{Q}uant) and ties, no macros.
            outside = outside.translate(_BRACES_AND_TIES)
        out.append(outside)
        if a < len(s):
            out.append(s[a:b] if keep_math else _math_source_to_text(s[a + 1 : b - 1]))
        last = b
    return "".join(out)


def latex_to_text(s: str, *, keep_math: bool = False) -> str:
    """BibTeX/LaTeX field text as a reader sees it: no braces, accents and math decoded.

    With `keep_math=True` inline math is kept as its `$source$` (the form stored in
    `PaperRecord` text attributes); otherwise it becomes readable Unicode (ℓ₀, 𝒪(ε⁻²)).
    Strings without any of `\\ { } $ ~` are returned unchanged (the common, cheap case);
    short ones that need the parser are remembered (venues and names repeat a lot).
    A bare `%` is a literal percent sign (BibTeX has no comments inside values).
    """
    if "\\" not in s and "{" not in s and "}" not in s and "$" not in s and "~" not in s:
        return s
    if len(s) <= 200:
        return _latex_to_text_cached(s, keep_math)
    return _latex_to_text(s, keep_math)


@functools.lru_cache(maxsize=8192)
def _latex_to_text_cached(s: str, keep_math: bool) -> str:
    return _latex_to_text(s, keep_math)


def _latex_to_text(s: str, keep_math: bool) -> str:
    """`latex_to_text` without the cache: the simple path, else pylatexenc."""
    simple = _simple_path(s, keep_math)
    if simple is not None:
        return simple
    try:
        # A bare `%` is a literal in BibTeX values but a comment to pylatexenc: hide it.
        sentinel = "%" in s and _PERCENT not in s
        source = _UNESCAPED_PERCENT_RE.sub(r"\1" + _PERCENT, s) if sentinel else s
        source, held = _hold_math(source, keep_math)
        walker = latexwalker.LatexWalker(
            source, latex_context=_WALKER_CONTEXT, tolerant_parsing=True
        )
        nodes = walker.get_latex_nodes()[0]
        text = str(_CONVERTERS[keep_math].nodelist_to_text(nodes))
        if held:
            text = _HELD_RE.sub(lambda m: held[int(m.group(1))], text)
        return text.replace(_PERCENT, "%") if sentinel else text
    except Exception:
        _log.debug("pylatexenc failed on %r; using regex cleanup", s, exc_info=True)
        try:
            if keep_math:
                return _regex_cleanup(s)
            return _regex_cleanup(
                _INLINE_MATH_SRC_RE.sub(lambda m: _math_source_to_text(m.group(1)), s)
            )
        except Exception:  # pragma: no cover - a regex cannot really fail here
            return s


def math_to_text(s: str) -> str:
    """Plain text with inline `$math$`: converts only the math, leaves the rest as is.

    `%`, `&` and backslashes outside math are plain characters here (the seed format),
    and a lone `$` ("costs $5") is not math.
    """
    if "$" not in s:
        return s
    spans = find_math_spans(s)
    if not spans:
        return s
    out: list[str] = []
    last = 0
    for start, end in spans:
        out.append(s[last:start])
        out.append(_math_source_to_text(s[start + 1 : end - 1]))
        last = end
    out.append(s[last:])
    return "".join(out)
