"""What BibTeX fields mean to Papershelf, shared by the reader and the writer.

The month macros bibtex predefines, the fields a style prints, the field that holds an
entry type's venue, biblatex's `ids` aliases, and a field value as readable text.
"""

from __future__ import annotations

import re

from papershelf.formats.latex import fix_bare_specials
from papershelf.formats.readable import latex_to_text

__all__ = [
    "MONTHS",
    "PRINTED_FIELDS",
    "VENUE_FALLBACK",
    "VENUE_FIELD",
    "VERBATIM_FIELDS",
    "aliases",
    "clean",
    "clean_paragraphs",
    "clean_url",
    "key_problem",
    "keyword_tags",
    "shown",
]

#: bibtex's predefined month macros (`jan` ... `dec`), in calendar order.
MONTHS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}  # fmt: skip

# The field that holds the venue, by entry type; other types use the first present one.
VENUE_FIELD = {
    "inproceedings": "booktitle",
    "conference": "booktitle",
    "incollection": "booktitle",
    "inbook": "booktitle",
    "proceedings": "booktitle",
    "article": "journal",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
    "misc": "howpublished",
}
VENUE_FALLBACK = ("booktitle", "journal", "howpublished", "school", "institution", "publisher")
#: Fields that bibtex styles or biber print (or copy into the `.bbl`): a bare `%`, `&`,
#: `#`, `_`, `^` or `$` in them breaks LaTeX, so the writer escapes it.
PRINTED_FIELDS = frozenset(
    "abstract addendum address annotation annote author booksubtitle booktitle "
    "booktitleaddon chapter edition editor eventtitle howpublished institution issuetitle "
    "journal journalsubtitle journaltitle language location maintitle mainsubtitle note "
    "organization publisher school series shortjournal shorttitle subtitle title titleaddon "
    "translator type venue version".split()
)
#: Fields biber reads verbatim and styles print with `\\url` (or never): a path or URL,
#: byte for byte. They are never escaped, never turned into LaTeX accents.
VERBATIM_FIELDS = frozenset(
    "url doi eprint file pdf verba verbb verbc urlraw".split()
)
_PARAGRAPH_RE = re.compile(r"[ \t\r\f\v]*\n[ \t\r\f\v]*\n\s*")
_BLANK_LINE_RE = re.compile(r"\n[ \t\r\f\v]*\n")  # where `_PARAGRAPH_RE` can match
_URL_WRAPPER_RE = re.compile(r"^\\(?:url|href)\s*\{(.*)\}$", re.DOTALL)
_URL_ESCAPE_RE = re.compile(r"\\([_%&#~$])")


# What a citation key cannot hold: bibtex ends a key at white space or a comma and a
# brace ends (or unbalances) the entry. Anything else is read back by bibtex (biber
# reads most of it too: `2004A&A...424..927C`, `Orlowski;2011`, `kumāra`).
_KEY_UNWRITABLE_RE = re.compile(r"[\s,{}]")
MAX_KEY_LENGTH = 255  # the library's key column


def key_problem(key: str) -> str | None:
    """Why `key` cannot be written as a citation key (None if it can)."""
    if not key:
        return "it is empty"
    if len(key) > MAX_KEY_LENGTH:
        return f"it is longer than {MAX_KEY_LENGTH} characters"
    bad = _KEY_UNWRITABLE_RE.search(key)
    if bad is not None:
        char = bad.group()
        what = {",": "a comma", "{": "a brace", "}": "a brace"}.get(char, "white space")
        return f"it holds {what}"
    return None


def aliases(fields: dict[str, str]) -> list[str]:
    """The other keys of an entry (biblatex's `ids` field), in lower case."""
    ids = fields.get("ids")
    return [a.strip().lower() for a in ids.split(",") if a.strip()] if ids else []


def _collapse(text: str) -> str:
    """`text` with each whitespace run as one space, and stripped.

    The same as `re.sub(r"\\s+", " ", text).strip()` (str.split() and the regex `\\s`
    agree on what whitespace is). ASCII text with nothing to collapse, the common case,
    is returned as it is, without splitting it.
    """
    if (
        text.isascii()
        and "  " not in text
        and "\n" not in text
        and "\t" not in text
        and "\r" not in text
        and "\x0b" not in text
        and "\x0c" not in text
        and "\x1c" not in text
        and "\x1d" not in text
        and "\x1e" not in text
        and "\x1f" not in text
        and not text.startswith(" ")
        and not text.endswith(" ")
    ):
        return text
    return " ".join(text.split())


def clean(value: str) -> str:
    """Readable one-line text of a field (LaTeX decoded, math kept, spaces collapsed)."""
    return _collapse(latex_to_text(value, keep_math=True)) if value else ""


def keyword_tags(value: str) -> list[str]:
    """The words of a `keywords` field as tags (`;` between them, else `,`), no repeats."""
    words = clean(value)
    tags: list[str] = []
    for tag in (" ".join(w.split()) for w in words.split(";" if ";" in words else ",")):
        if tag and tag not in tags:
            tags.append(tag)
    return tags


def clean_paragraphs(value: str) -> str:
    """Readable text that keeps blank-line paragraph breaks (abstracts)."""
    text = latex_to_text(value, keep_math=True).strip()
    if "\n" not in text or _BLANK_LINE_RE.search(text) is None:
        return _collapse(text)  # one paragraph
    return "\n\n".join(_collapse(p) for p in _PARAGRAPH_RE.split(text))


def clean_url(value: str) -> str:
    """A url/doi value: `\\url{...}` unwrapped and `\\_`-style escapes undone, else verbatim."""
    value = value.strip()
    if not value:
        return value
    match = _URL_WRAPPER_RE.match(value)
    if match:
        value = match.group(1).strip()
    if "\\" in value:
        value = _URL_ESCAPE_RE.sub(r"\1", value)
    return value.replace("{", "").replace("}", "") if "{" in value else value


def shown(value: str) -> str:
    """The source whose text is shown: an unpaired `$` reads as the dollar it exports as."""
    if "$" in value:
        fixed, found = fix_bare_specials(value)
        if "$" in found:
            return fixed
    return value

