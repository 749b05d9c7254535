"""Readable Unicode text to BibTeX/LaTeX source (the inverse of `readable.latex_to_text`).

Used by the BibTeX writer; all regexes are compiled once, the common case (no special
characters) costs a few `str` scans.
"""

from __future__ import annotations

import re

from pylatexenc.latexencode import UnicodeToLatexEncoder

from papershelf.formats.readable import bibtex_balanced, brace_end, find_math_spans

__all__ = [
    "encode_text",
    "encode_verbatim",
    "escape_text",
    "fix_bare_specials",
    "to_ascii",
]

_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
# Braces that BibTeX could not pair (it ignores backslashes when counting braces).
_UNPAIRED_BRACES = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}
_SPECIAL_RE = re.compile(r"[\\&%$#_{}~^]")
_LINE_START_AT_RE = re.compile(r"(\n[ \t]*)@")
_MATH_MARK = "\ue000"  # stands for one kept math span while a text is escaped
_MATH_MARK_RE = re.compile(_MATH_MARK)
_MATH_MARK_SPLIT_RE = re.compile(f"({_MATH_MARK})")
_WORD_SPLIT_RE = re.compile(r"(\s+)")
_FIRST_ALNUM_RE = re.compile(r"[^\W_]|\ue000")
_WORD_PARTS_RE = re.compile(r"[-/\u2010\u2013]")
_AFFIX_RE = re.compile(r"^([(\[\"'“‘«]*)(.*?)([)\]\"'”’».,:;!?]*)$", re.DOTALL)
_MATH_UPPER_RE = re.compile(r"(?<![\\A-Za-z])[A-Z]|\\(?:[A-Z][a-z]*)")
_URL_UNSAFE_RE = re.compile(r"[{}\\\s]")

_ENCODER = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    unknown_char_policy="keep",  # no LaTeX form (e.g. CJK): keep UTF-8 rather than lose it
    unknown_char_warning=False,
)


def escape_text(text: str) -> str:
    """Escape the LaTeX specials `\\ & % $ # _ { } ~ ^` of plain text (no math handling).

    Literal braces are written `\\{`/`\\}` when they pair up, else `\\textbraceleft{}`
    so that the BibTeX value stays balanced.
    """
    if not _SPECIAL_RE.search(text):
        return text
    if ("{" in text or "}" in text) and not bibtex_balanced(text):
        table = {**_ESCAPES, **_UNPAIRED_BRACES}
        return _SPECIAL_RE.sub(lambda m: table[m.group()], text)
    return _SPECIAL_RE.sub(lambda m: _ESCAPES[m.group()], text)


def _word_needs_protection(core: str, math: list[str]) -> bool:
    """Acronyms, mixed-case names and capital-letter parts must keep their case.

    A hyphen/slash part qualifies if it has an upper-case letter after its first
    letter (LLM, FrameQuant, pFedMe, GPT-4), is a capital with digits (L2, T5) or is
    a lone capital in a compound (Q-Learning). Plain Capitalized words do not.
    """
    parts = _WORD_PARTS_RE.split(core)
    for part in parts:
        start = _FIRST_ALNUM_RE.search(part)
        if start is None:
            continue
        plain = part[start.start() :].replace(_MATH_MARK, "")
        if not plain:
            continue
        if any(c.isupper() for c in plain[1:]):
            return True
        if plain[0].isupper() and (
            (len(plain) == 1 and len(parts) > 1) or any(c.isdigit() for c in plain)
        ):
            return True
    if _MATH_MARK in core:
        count = core.count(_MATH_MARK)
        return any(_MATH_UPPER_RE.search(m) for m in math[:count])
    return False


def _protect_words(text: str, math: list[str]) -> str:
    """Escape `text`, bracing (once) the words whose case must survive a style."""
    pieces = _WORD_SPLIT_RE.split(text)
    protect: dict[int, tuple[str, str, str]] = {}
    math_index = 0
    for i, piece in enumerate(pieces):
        n_math = piece.count(_MATH_MARK)
        word_math = math[math_index : math_index + n_math]
        math_index += n_math
        # Cheap exits for blanks, lower-case and plain Capitalized words (C-level methods).
        if (
            not piece
            or piece.isspace()
            or (not n_math and (piece.islower() or (piece[0].isupper() and piece[1:].islower())))
        ):
            continue
        match = _AFFIX_RE.match(piece)
        prefix, core, suffix = match.groups() if match else ("", piece, "")
        if core and _word_needs_protection(core, word_math):
            protect[i] = (prefix, core, suffix)
    if not protect:
        return escape_text(text)  # one decision on literal braces for the whole text
    out: list[str] = []
    for i, piece in enumerate(pieces):
        parts = protect.get(i)
        if parts is None:
            out.append(escape_text(piece))
        else:
            prefix, core, suffix = parts
            out.append(f"{escape_text(prefix)}{{{escape_text(core)}}}{escape_text(suffix)}")
    return "".join(out)


def encode_text(text: str, *, protect_case: bool = False, ascii_only: bool = False) -> str:
    """Readable text as a BibTeX value body: specials escaped, inline `$math$` kept as is.

    `protect_case` braces acronyms/mixed-case words once (titles, booktitles);
    `ascii_only` writes non-ASCII characters as LaTeX (`ü` -> `{\\"u}`).
    """
    if not text:
        return ""
    spans = find_math_spans(text) if "$" in text and _MATH_MARK not in text else []
    math = [text[a:b] for a, b in spans]
    if spans:
        pieces: list[str] = []
        last = 0
        for a, b in spans:
            pieces.append(text[last:a])
            pieces.append(_MATH_MARK)
            last = b
        pieces.append(text[last:])
        marked = "".join(pieces)
    else:
        marked = text
    if protect_case:
        body = _protect_words(marked, math)
    elif spans:
        body = "".join(
            escape_text(p) if p != _MATH_MARK else p for p in _MATH_MARK_SPLIT_RE.split(marked)
        )
    else:
        body = escape_text(marked)
    if ascii_only and not body.isascii():
        # Math placeholders survive (no LaTeX form: kept), so math itself is never encoded.
        body = str(_ENCODER.unicode_to_latex(body))
    if spans:
        # In math, a line break before `@` becomes a space (the same in math mode): a
        # `{@}` there would be read back braced, since math is kept as it is.
        it = iter(_LINE_START_AT_RE.sub(lambda m: m[1].replace("\n", " ") + "@", piece)
                  for piece in math)
        body = _MATH_MARK_RE.sub(lambda _m: next(it), body)
    if "\n" in body and "@" in body:
        # bibtexparser ends an entry at a line starting with `@`; `{@}` reads the same.
        body = _LINE_START_AT_RE.sub(r"\1{@}", body)
    return body


def to_ascii(source: str) -> str:
    """Non-ASCII characters of LaTeX source as LaTeX macros (`ü` -> `{\\"u}`).

    Inline `$math$` is left alone (text-mode accents are invalid in math), and so are
    characters without a LaTeX form (e.g. CJK), which stay UTF-8 rather than be lost.
    """
    if source.isascii():
        return source
    spans = find_math_spans(source) if "$" in source else []
    if not spans:
        return str(_ENCODER.unicode_to_latex(source))
    out: list[str] = []
    last = 0
    for a, b in spans:
        out.append(str(_ENCODER.unicode_to_latex(source[last:a])))
        out.append(source[a:b])
        last = b
    out.append(str(_ENCODER.unicode_to_latex(source[last:])))
    return "".join(out)


def encode_verbatim(value: str) -> str:
    """A URL or DOI as a BibTeX value body, written verbatim (no LaTeX escaping).

    Styles print url/doi with `\\url`/`\\doi` (verbatim) and biber reads them as verbatim
    fields, so `%`, `#`, `_`, `&`, `~` stay as they are; only characters that would break
    the BibTeX value or a URL (`{ } \\` and whitespace) are percent-encoded.
    """
    value = value.strip()
    if not _URL_UNSAFE_RE.search(value):
        return value
    return _URL_UNSAFE_RE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), value)


# --------------------------------------------------------------------------- BibTeX source

_BARE_QUICK_RE = re.compile(r"[%&#_^$]")
_SOURCE_TOKEN_RE = re.compile(r"\\[A-Za-z@]+\*?|\\.|\$\$|[%&#_^${}]", re.DOTALL)
# Math other than `$...$`: `\(...\)`, `\[...\]` and the environments of math mode.
_MATH_OPEN = {"\\(": "\\)", "\\[": "\\]"}
_MATH_ENV_RE = re.compile(
    r"\\begin\s*\{((?:equation|align|alignat|gather|multline|flalign|eqnarray|math|"
    r"displaymath|dmath)\*?)\}")
# Macros whose (first) braced argument is verbatim or a name, never text to escape.
_VERBATIM_ARG = frozenset(
    "url href path nolinkurl doi input include includegraphics cite citep citet citeauthor "
    "citeyear nocite ref eqref label hyperref verb".split()
)
_ALWAYS = frozenset("%&#")  # break LaTeX in text and in math alike
_TEXT_ONLY = frozenset("_^")  # fine in math, "Missing $" in text


def fix_bare_specials(source: str) -> tuple[str, str]:
    """BibTeX source with the specials LaTeX would choke on escaped, and which ones.

    A bare `%` comments out the rest of the line (in a biber `.bbl` it eats the closing
    brace), `&` and `#` are errors anywhere, `_` and `^` outside math, and an unpaired
    `$` opens math that never closes. Escaped forms (`\\%`), math `$...$` and verbatim
    arguments (`\\url{...}`, `\\cite{...}`) are left alone. Returns (source, '') when there
    is nothing to fix, which is the fast, common case.
    """
    if not _BARE_QUICK_RE.search(source):
        return source, ""
    tokens = list(_SOURCE_TOKEN_RE.finditer(source))
    dollars = [i for i, m in enumerate(tokens) if m.group() == "$"]
    lone_dollar = dollars[-1] if len(dollars) % 2 else -1
    out: list[str] = []
    found: list[str] = []
    last = 0
    in_math = False
    display = ""  # the `$$`, `\)`, `\]` or `\end{...}` that closes the math we are in
    skip_to = -1  # index in `source` up to which a verbatim argument runs
    pending_verbatim = False
    for i, m in enumerate(tokens):
        start = m.start()
        if start < skip_to:
            continue
        tok = m.group()
        if display:  # inside `$$`, `\(`, `\[` or a math environment: nothing to escape
            pending_verbatim = False
            if tok == display or (tok == "\\end" and source.startswith(display, start)):
                skip_to = start + len(display)
                display = ""
            elif tok in _ALWAYS and not (tok == "&" and display.startswith("\\end")):
                out.append(source[last:start] + "\\" + tok)
                last = m.end()
                if tok not in found:
                    found.append(tok)
            continue
        if not in_math and (tok == "$$" or tok in _MATH_OPEN):
            close = "$$" if tok == "$$" else _MATH_OPEN[tok]
            if source.find(close, m.end()) >= 0:
                display = close
                continue
        if not in_math and tok == "\\begin":
            env = _MATH_ENV_RE.match(source, start)
            if env is not None and f"\\end{{{env.group(1)}}}" in source[env.end():]:
                display = f"\\end{{{env.group(1)}}}"
                skip_to = env.end()
                continue
        if tok == "$$":  # an unclosed `$$`: math opened and closed at once
            continue
        if tok.startswith("\\"):
            pending_verbatim = tok[1:].rstrip("*") in _VERBATIM_ARG
            continue
        if tok == "{" and pending_verbatim:
            end = brace_end(source, start)
            if end > 0:
                skip_to = end
                pending_verbatim = False
                continue
        pending_verbatim = False
        if tok == "$":
            if i == lone_dollar:
                fix = True
            else:
                in_math = not in_math
                continue
        else:
            fix = tok in _ALWAYS or (tok in _TEXT_ONLY and not in_math)
        if fix:
            out.append(source[last:start])
            out.append(r"\textasciicircum{}" if tok == "^" else "\\" + tok)
            last = m.end()
            if tok not in found:
                found.append(tok)
    if not found:
        return source, ""
    out.append(source[last:])
    return "".join(out), "".join(found)

