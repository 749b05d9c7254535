"""A citation of papers by their keys, as the user writes them in a document: LaTeX's
`\\cite{a,b}` and its natbib and biblatex relatives, pandoc's `[@a; @b]`, Typst's `@a`."""

from __future__ import annotations

from collections.abc import Sequence

# The forms of Copy Citation, by name: (what the menu calls it, how keys are written).
FORMS: dict[str, str] = {
    "cite": "\\cite{{{keys}}}",
    "citep": "\\citep{{{keys}}}",
    "citet": "\\citet{{{keys}}}",
    "autocite": "\\autocite{{{keys}}}",
    "parencite": "\\parencite{{{keys}}}",
    "pandoc": "[{keys}]",
    "typst": "{keys}",
}
_SEPARATORS = {"pandoc": "; ", "typst": " "}
_MARKS = {"pandoc": "@", "typst": "@"}


def citation(keys: Sequence[str], form: str = "cite") -> str:
    """The citation of `keys` in `form` (one of FORMS; an unknown one is `\\cite`)."""
    form = form if form in FORMS else "cite"
    mark = _MARKS.get(form, "")
    joined = _SEPARATORS.get(form, ",").join(mark + key for key in keys)
    return FORMS[form].format(keys=joined)
