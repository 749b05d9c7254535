"""Author and editor lists: splitting, parsing into `Author`s, and writing them back.

Names are split and parsed by bibtex's rules (` and ` and commas count outside braces
only, a lower-case word starts the 'von' part), and written as `Family, Given` lists
that bibtex splits the same way. A name in biblatex's extended format
(`given={Ura Ru}, family={Juan}, prefix={von}`) is read by its parts and always kept
as written: its commas are not stray.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from papershelf.formats.bibtex.fields import clean
from papershelf.formats.latex import encode_text
from papershelf.formats.readable import latex_to_text, top_level_matches
from papershelf.formats.records import Author

__all__ = [
    "encode_authors",
    "is_extended_name",
    "name_commas",
    "name_ok_for_bibtex",
    "parse_name",
    "parse_names",
    "raw_name_list_ok",
    "split_names",
]

_AND_SPLIT_RE = re.compile(r"\s[aA][nN][dD](?=\s)")  # between two names of a list
_WORD_BREAK_RE = re.compile(r"[\s~]+")  # between two words of a name
_COMMA_RE = re.compile(",")
_AND_RE = re.compile(r"(?i)(?:^|\s)and(?:\s|$)")
# A part of a biblatex extended name: `family={Juan}`, `given-i={U}`, `useprefix=true`.
_EXTENDED_PART_RE = re.compile(r"\s*([A-Za-z][A-Za-z-]*)\s*=\s*(.*)", re.DOTALL)


def _split_top_level(value: str, separator: re.Pattern[str]) -> list[str]:
    """`value` split at the matches of `separator` that lie outside braces."""
    if "{" not in value and "}" not in value:
        return separator.split(value)
    parts: list[str] = []
    last = 0
    for match in top_level_matches(value, separator):
        parts.append(value[last : match.start()])
        last = match.end()
    parts.append(value[last:])
    return parts


# bibtexparser's `split_multiple_persons_names` and `parse_single_name_into_parts` read
# author lists as this splitter and `parse_name` do (on all but one author/editor field of
# the test corpus), but take 8-10 times as long, more than the import can spare: the
# splitting and parsing here stay hand-written.
def split_names(value: str) -> list[str]:
    """Split an author list on ` and ` outside braces (case-insensitive, like bibtex)."""
    return [name.strip() for name in _split_top_level(value, _AND_SPLIT_RE) if name.strip()]


def _split_words(name: str) -> list[str]:
    """The words of a name: split at whitespace and `~` outside braces."""
    return [word for word in _split_top_level(name, _WORD_BREAK_RE) if word]


def _is_lower_word(word: str) -> bool:
    """BibTeX's 'von' test: the first letter at brace depth 0 (or of `{\\x..}`) is lower-case."""
    if word.startswith("{") and not word.startswith("{\\"):
        return False  # a braced group is caseless: never a von particle
    text = latex_to_text(word)
    for ch in text:
        if ch.isalpha():
            return ch.islower()
    return False


def name_commas(name: str) -> list[str]:
    """The comma-separated parts of one name (commas outside braces), stripped."""
    if "{" not in name and "}" not in name:
        return [part.strip() for part in name.split(",")]  # (faster than the regex)
    return [part.strip() for part in _split_top_level(name, _COMMA_RE)]


def _extended_parts(name: str) -> dict[str, str] | None:
    """The parts of a biblatex extended name (lower-case part: value without its outer
    braces), or None for a classic name."""
    if "=" not in name:
        return None
    parts: dict[str, str] = {}
    for part in name_commas(name):
        if not part:
            continue
        match = _EXTENDED_PART_RE.fullmatch(part)
        if match is None:
            return None
        value = match.group(2).strip()
        if value.startswith("{") and value.endswith("}"):
            value = value[1:-1]
        parts[match.group(1).lower()] = value
    return parts or None


def is_extended_name(name: str) -> bool:
    """Whether `name` is in biblatex's extended name format (`family=..., given=...`)."""
    return _extended_parts(name) is not None


@functools.lru_cache(maxsize=65536)
def name_ok_for_bibtex(name: str) -> bool:
    """False for names bibtex rejects: empty parts (trailing comma) or more than 2 commas.
    A biblatex extended name is never repaired (it is kept as written)."""
    parts = name_commas(name)
    return (len(parts) <= 3 and all(parts)) or is_extended_name(name)


@functools.lru_cache(maxsize=65536)
def parse_name(name: str) -> Author | None:
    """'Family, Given', 'Family, Jr, Given', 'Given von Family' or a biblatex extended
    name (`given=..., family=..., prefix=..., suffix=...`) as an Author."""
    extended = _extended_parts(name)
    if extended is not None:
        family = " ".join(extended[p] for p in ("prefix", "family", "suffix")
                          if extended.get(p))
        return _author(family, extended.get("given", ""))
    parts = [p for p in name_commas(name) if p]
    if not parts:
        return None
    if len(parts) == 1:
        words = _split_words(parts[0])
        if len(words) <= 1:
            family, given = parts[0], ""
        else:
            von = next((i for i, w in enumerate(words[:-1]) if _is_lower_word(w)), -1)
            if von >= 0:  # the family name is bibtex's 'von Last': from that word on
                given, family = " ".join(words[:von]), " ".join(words[von:])
            else:
                given, family = " ".join(words[:-1]), words[-1]
    elif len(parts) == 2:
        family, given = parts
    else:
        family, given = f"{parts[0]} {parts[1]}", " ".join(parts[2:])
    return _author(family, given)


def _author(family: str, given: str) -> Author | None:
    """The Author of a family and a given name as written (None for `others`)."""
    family, given = clean(family), clean(given)
    if family.lower() == "others" and not given:
        return None  # "and others" means et al., not a person
    if not family:
        family, given = given, ""
    return Author(family=family, given=given) if family else None


def parse_names(value: str) -> list[Author]:
    """An `author`/`editor` value as Authors (decoded; 'and others' dropped)."""
    if not value.strip():
        return []
    authors: list[Author] = []
    for name in split_names(value):
        author = parse_name(name)
        if author is not None:
            authors.append(author)
    return authors


def _encode_name_part(text: str, ascii_only: bool, brace: bool) -> str:
    """One family/given name, escaped and braced when bibtex must see it as one unit."""
    body = encode_text(text, ascii_only=ascii_only)
    if brace or "," in text or _AND_RE.search(text):
        return f"{{{body}}}"
    return body


def encode_authors(authors: Iterable[Author], ascii_only: bool) -> str:
    """Authors as `Family, Given and Family, Given` that bibtex splits correctly."""
    names: list[str] = []
    for author in authors:
        family, given = author.family.strip(), author.given.strip()
        if not family:
            family, given = given, ""
        if not family:
            continue
        # A family name with spaces but no given name is one unit ({Company Name}).
        family_src = _encode_name_part(family, ascii_only, brace=not given and " " in family)
        if given:
            names.append(f"{family_src}, {_encode_name_part(given, ascii_only, brace=False)}")
        else:
            names.append(family_src)
    return " and ".join(names)


def raw_name_list_ok(value: str) -> bool:
    """True if bibtex accepts every name of a raw author/editor value."""
    if "," not in value:
        return True
    return all(name_ok_for_bibtex(name) for name in split_names(value))

