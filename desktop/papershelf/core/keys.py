"""Citation keys: generated once from author, year and title, then never changed silently.

A key pattern (a setting) says how a new paper's key is built, in Better BibTeX's
notation: `[auth:lower][year][veryshorttitle:lower]` (the default) gives `myers2024learning`.
Fields: `[auth]`, `[Auth]`, `[authors]`, `[authorsN]`, `[authEtAl]`, `[year]`,
`[shortyear]`, `[title]`, `[shorttitle]`, `[veryshorttitle]`, `[venue]`; modifiers
`:lower`, `:upper`, `:ascii` (applied left to right). Text outside brackets is copied.
Keys are always ASCII (bibtex, biber and LaTeX all accept them), so every field is
transliterated (`Müller` -> `Muller`); `:ascii` says so explicitly.
"""

from __future__ import annotations

import functools
import itertools
import re
import string
import unicodedata
from collections.abc import Iterator

from papershelf.formats.bibtex.fields import key_problem
from papershelf.formats.records import PaperRecord

# Words a key never starts from: articles, prepositions and filler of titles.
STOPWORDS = frozenset(
    "a an the of on in into for to from and or with without by at as is are be via towards "
    "toward about over under beyond between through its it this that these those we our do "
    "does can how what when why which new".split()
)
_SPECIAL = str.maketrans({"ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe",
                          "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "þ": "th",
                          "ı": "i"})
_NON_KEY = re.compile(r"[^a-z0-9]+")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*", re.UNICODE)


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits only: 'Müller-Łukasz' -> 'mullerlukasz'."""
    if text.isascii():  # nothing to transliterate (ASCII is its own NFKD): the common case
        return text.lower() if text.isalnum() else _NON_KEY.sub("", text.lower())
    return _ascii_fold_unicode(text)


@functools.lru_cache(maxsize=4096)
def _ascii_fold_unicode(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPECIAL))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NON_KEY.sub("", stripped.lower())


def first_significant_word(title: str) -> str:
    """The first title word that is not a stop word, folded to ASCII ('' if none)."""
    fallback = ""
    for match in _WORD.finditer(title):
        folded = ascii_fold(match.group())
        if not folded:
            continue
        fallback = fallback or folded
        if match.group().lower() not in STOPWORDS and len(folded) > 1:
            return folded
    return fallback


# --------------------------------------------------------------------------- patterns

DEFAULT_PATTERN = "[auth:lower][year][veryshorttitle:lower]"
FIELDS = (
    "auth", "Auth", "authors", "authorsN", "authEtAl", "year", "shortyear", "title",
    "shorttitle", "veryshorttitle", "venue",
)  # fmt: skip
MODIFIERS = ("lower", "upper", "ascii")
_PATTERN_TOKEN_RE = re.compile(r"\[([^\[\]]*)\]|([^\[\]]+)|([\[\]])")
_AUTHORS_N_RE = re.compile(r"authors([1-9][0-9]?)")
_LITERAL_RE = re.compile(r"^[A-Za-z0-9_:.+/@!?*<>-]*$")
_KEEP_CASE_NON_KEY = re.compile(r"[^A-Za-z0-9]+")
_VENUE_SKIP = frozenset(
    "proceedings proc advances annual conference's the of on in and for at".split()
)
_VENUE_PAREN_RE = re.compile(r"\(\{?([A-Z][A-Za-z]*[A-Z])\}?\)")
_VENUE_ACRONYM_RE = re.compile(r"\b([A-Za-z]*[A-Z][a-z]*[A-Z][A-Za-z]*)\b")
_ORDINAL_RE = re.compile(r"^\d+(st|nd|rd|th)?$|^(first|second|third|\w+th)$", re.IGNORECASE)

Part = tuple[str, str, tuple[str, ...]]  # ("text", literal, ()) or ("field", name, modifiers)


def _fold_keep_case(text: str) -> str:
    """ASCII letters and digits of `text`, case kept: 'Müller-Łukasz' -> 'MullerLukasz'."""
    if text.isascii():  # as in `ascii_fold`
        return text if text.isalnum() else _KEEP_CASE_NON_KEY.sub("", text)
    return _fold_keep_case_unicode(text)


@functools.lru_cache(maxsize=4096)
def _fold_keep_case_unicode(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPECIAL))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _KEEP_CASE_NON_KEY.sub("", stripped)


@functools.lru_cache(maxsize=64)
def _parse_pattern(pattern: str) -> tuple[Part, ...]:
    if not pattern.strip():
        raise ValueError("the key pattern is empty; try " + DEFAULT_PATTERN)
    parts: list[Part] = []
    for match in _PATTERN_TOKEN_RE.finditer(pattern):
        inner, literal, stray = match.groups()
        if stray is not None:
            raise ValueError(
                f"unbalanced {stray!r} at position {match.start() + 1} of the key pattern "
                f"{pattern!r}"
            )
        if literal is not None:
            if not _LITERAL_RE.match(literal):
                raise ValueError(
                    f"the text {literal!r} in the key pattern holds characters a citation "
                    "key cannot have (spaces, commas, braces, quotes, #, %, =, \\)"
                )
            parts.append(("text", literal, ()))
            continue
        name, *mods = inner.split(":")
        if not (name in FIELDS or _AUTHORS_N_RE.fullmatch(name)):
            raise ValueError(
                f"unknown field [{name}] in the key pattern; known fields: "
                + ", ".join(f"[{f}]" for f in FIELDS)
            )
        for mod in mods:
            if mod not in MODIFIERS:
                raise ValueError(
                    f"unknown modifier :{mod} in [{inner}]; known modifiers: "
                    + ", ".join(f":{m}" for m in MODIFIERS)
                )
        parts.append(("field", name, tuple(mods)))
    if not any(kind == "field" for kind, _name, _mods in parts):
        raise ValueError(f"the key pattern {pattern!r} has no [field]; every key would be equal")
    return tuple(parts)


def validate_pattern(pattern: str) -> None:
    """Raise ValueError with a message for the user if `pattern` is not a key pattern."""
    _parse_pattern(pattern)


def _iter_words(title: str) -> Iterator[str]:
    """Significant title words (stop words dropped), ASCII, case kept, one at a time
    (callers often want only the first few)."""
    for word in _WORD.findall(title):
        if word.lower() in STOPWORDS:
            continue
        folded = _fold_keep_case(word)
        if folded:
            yield folded


def _capitalized(word: str) -> str:
    return word[:1].upper() + word[1:]


def _venue_acronym(venue: str) -> str:
    """'ICML' from 'International Conference on Machine Learning ({ICML})' or its initials."""
    match = _VENUE_PAREN_RE.search(venue) or _VENUE_ACRONYM_RE.search(venue)
    if match:
        return match.group(1)
    words = [
        word
        for word in _WORD.findall(venue)
        if word.lower() not in _VENUE_SKIP
        and word.lower() not in STOPWORDS
        and not _ORDINAL_RE.match(word)
        and not word.isdigit()
    ]
    if len(words) == 1:
        return str(words[0])
    return "".join(_fold_keep_case(word)[:1].upper() for word in words)


def _field_value(name: str, record: PaperRecord) -> str:
    """The text of one pattern field for `record` (ASCII, case as described in FIELDS)."""
    if name == "year":
        return str(record.year) if record.year else "nd"
    if name == "veryshorttitle":
        word = first_significant_word(record.title)
        original = next((w for w in _iter_words(record.title) if w.lower() == word), word)
        return _capitalized(original[:24])
    if name.startswith(("auth", "Auth")):
        return _author_field_value(name, record)
    if name == "shortyear":
        return f"{record.year % 100:02d}" if record.year else "nd"
    if name == "shorttitle":
        return "".join(_capitalized(w) for w in itertools.islice(_iter_words(record.title), 3))
    if name == "title":
        return "".join(_capitalized(w) for w in _iter_words(record.title))
    if name == "venue":
        return _fold_keep_case(_venue_acronym(record.venue))
    raise AssertionError(f"unhandled key field {name}")  # pragma: no cover - _parse_pattern


def _author_field_value(name: str, record: PaperRecord) -> str:
    """`_field_value` of the author fields: auth, Auth, authors, authorsN, authEtAl."""
    authors = [a for a in record.authors if (a.family or a.given).strip()]
    families = [_fold_keep_case(a.family) or _fold_keep_case(a.given) for a in authors]
    families = [f for f in families if f]
    if name in ("auth", "Auth"):
        who = families[0] if families else (_fold_keep_case(record.venue) or "anon")
        who = who[:24]
        return _capitalized(who) if name == "Auth" else who
    if name == "authors":
        return "".join(families)
    if name == "authEtAl":
        if len(families) > 2:
            return families[0] + "EtAl"
        return "".join(families)
    count = _AUTHORS_N_RE.fullmatch(name)
    if count is not None:
        n = int(count.group(1))
        return "".join(families[:n]) + ("EtAl" if len(families) > n else "")
    raise AssertionError(f"unhandled key field {name}")  # pragma: no cover - _parse_pattern


def format_key(pattern: str, record: PaperRecord) -> str:
    """The key `pattern` gives for `record` (before it is made unique: `KeyAllocator`).

    ValueError if the pattern is invalid. A pattern whose fields are all empty for this
    record (say `[venue]` without a venue) falls back to the default pattern, whose
    fields never are (`anon`, `nd`).
    """
    parts = _parse_pattern(pattern)
    out: list[str] = []
    filled = False
    for kind, name, mods in parts:
        if kind == "text":
            out.append(name)
            continue
        value = _field_value(name, record)
        for mod in mods:
            if mod == "lower":
                value = value.lower()
            elif mod == "upper":
                value = value.upper()
            else:  # ascii: already so; fold again in case a field ever keeps Unicode
                value = _fold_keep_case(value)
        filled = filled or bool(value)
        out.append(value)
    key = "".join(out)[:255]
    if (not filled or not is_valid_key(key)) and pattern != DEFAULT_PATTERN:
        return format_key(DEFAULT_PATTERN, record)
    return key


def suffix_at(index: int) -> str:
    """The `index`-th suffix that makes a taken key unique: '', 'a', ..., 'z', 'aa', 'ab',
    ... (0: '', 1: 'a', 26: 'z', 27: 'aa')."""
    letters = []
    while index > 0:
        index, letter = divmod(index - 1, 26)
        letters.append(string.ascii_lowercase[letter])
    return "".join(reversed(letters))


class KeyAllocator:
    """Unique keys for the many new papers of an import (`base` itself if free, else
    base + a, b, c ...: the first not taken), against a set that only grows.

    Remembers per base how many of its candidates are known to be taken, so the n-th
    paper of a common base (an abstract list's papers of one venue and year, without
    authors) costs one look-up instead of n: the first free candidate can only move on.
    """

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self._skip: dict[str, int] = {}

    def key(self, base: str) -> str:
        """The first of base, base + a, b, ... not taken; it is taken from now on."""
        index = self._skip.get(base, 0)
        while (candidate := base + suffix_at(index)) in self.taken:
            index += 1
        self._skip[base] = index + 1
        self.taken.add(candidate)
        return candidate


def is_valid_key(key: str) -> bool:
    """Whether `key` can be a citation key: what bibtex reads back from a `.bib` file
    (no white space, comma or brace; at most 255 characters). One rule for a key read
    from a file and a key the user sets, so both keep what the other accepts."""
    return key_problem(key) is None


def why_invalid_key(key: str) -> str | None:
    """Why `key` cannot be a citation key, in words (None if it can)."""
    return key_problem(key)
