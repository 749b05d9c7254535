"""Citation keys: generated once from author, year and title, then never changed silently."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Iterator

from papershelf.core.records import PaperRecord

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
# Characters bibtex/biber accept in a key without complaint.
VALID_KEY = re.compile(r"^[A-Za-z0-9_:.+/@!?*<>\[\]-]+$")


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits only: 'Müller-Łukasz' -> 'mullerlukasz'."""
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


def key_base(record: PaperRecord) -> str:
    """The key before de-duplication: family name (or venue), year, first title word."""
    who = ""
    if record.authors:
        first = record.authors[0]
        who = ascii_fold(first.family) or ascii_fold(first.given)
    if not who:
        who = ascii_fold(record.venue) or "anon"
    year = str(record.year) if record.year else "nd"
    word = first_significant_word(record.title)
    return f"{who[:24]}{year}{word[:24]}"


def suffixes() -> Iterator[str]:
    """'', 'a', 'b', ..., 'z', 'aa', 'ab', ...: what makes a taken key unique."""
    yield ""
    width = 1
    while True:
        yield from _combinations(width)
        width += 1


def _combinations(width: int) -> Iterator[str]:
    if width == 1:
        yield from string.ascii_lowercase
        return
    for head in string.ascii_lowercase:
        for tail in _combinations(width - 1):
            yield head + tail


def unique_key(base: str, taken: Callable[[str], bool]) -> str:
    """`base` itself if free, else base + a, b, c ... (the first one not taken)."""
    for suffix in suffixes():
        candidate = base + suffix
        if not taken(candidate):
            return candidate
    raise AssertionError("unreachable: suffixes() is infinite")


def is_valid_key(key: str) -> bool:
    """Whether bibtex and biber accept `key` as a citation key."""
    return bool(VALID_KEY.match(key)) and len(key) <= 255
