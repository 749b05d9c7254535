"""Citation keys (papershelf.core.keys): the default key, key patterns, uniqueness."""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.core import keys
from papershelf.formats.bibtex import read_bibtex
from papershelf.formats.records import Author, PaperRecord
from tests.test_bibtex_import import PMLR

MYERS = PaperRecord(
    title="Learning Temporal Distances: Contrastive Successor Features Can Provide a Metric",
    authors=[Author("Myers", "Vivek"), Author("Zheng", "Chongyi"), Author("Dragan", "Anca")],
    year=2024,
    venue="International Conference on Machine Learning ({ICML})",
)
MULLER = PaperRecord(
    title="Über die Würfel of $\\ell_0$", authors=[Author("Müller-Łukasz", "Jörg")], year=2019
)


@pytest.mark.parametrize(
    ("pattern", "record", "expected"),
    [
        ("[auth:lower][year][shorttitle]", MYERS, "myers2024LearningTemporalDistances"),
        ("[auth][year]", MYERS, "Myers2024"),
        ("[veryshorttitle]", MYERS, "Learning"),
        ("[Auth]", PaperRecord(authors=[Author("van Beethoven", "Ludwig")]), "VanBeethoven"),
        ("[auth]", PaperRecord(authors=[Author("van Beethoven", "Ludwig")]), "vanBeethoven"),
        ("[authors2]", MYERS, "MyersZhengEtAl"),
        ("[authors3]", MYERS, "MyersZhengDragan"),
        ("[authEtAl][shortyear]", MYERS, "MyersEtAl24"),
        ("[authors]", MULLER, "MullerLukasz"),
        ("[title:lower]", MULLER, "uberdiewurfelell0"),  # English stop words only
        ("[venue]", MYERS, "ICML"),
        ("[venue:lower]-[year]", PaperRecord(venue="NeurIPS 2023", year=2023), "neurips-2023"),
        ("[auth:upper:ascii]_[year]", MULLER, "MULLERLUKASZ_2019"),
        ("[auth:lower][year][veryshorttitle:lower]", MULLER, "mullerlukasz2019uber"),
        ("[auth]", PaperRecord(), "anon"),
        ("[venue]", PaperRecord(title="No venue", year=2020), "anon2020no"),  # falls back
    ],
)
def test_format_key(pattern: str, record: PaperRecord, expected: str) -> None:
    key = keys.format_key(pattern, record)
    assert key == expected
    assert keys.is_valid_key(key)


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("", "empty"),
        ("[auth", "unbalanced '\\['"),
        ("auth]", "unbalanced '\\]'"),
        ("[author]", "unknown field \\[author\\]"),
        ("[auth:title]", "unknown modifier :title"),
        ("key-", "has no \\[field\\]"),
        ("[auth] [year]", "characters a citation key cannot have"),
        ("[auth],[year]", "characters a citation key cannot have"),
    ],
)
def test_invalid_patterns(pattern: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        keys.validate_pattern(pattern)
    with pytest.raises(ValueError, match=message):
        keys.format_key(pattern, MYERS)


def test_the_default_pattern_gives_family_year_first_word() -> None:
    assert keys.format_key(keys.DEFAULT_PATTERN, MYERS) == "myers2024learning"
    for record in [*read_bibtex(PMLR).records, MULLER, PaperRecord(venue="ICML")]:
        assert keys.is_valid_key(keys.format_key(keys.DEFAULT_PATTERN, record))


def _suffixes() -> Iterator[str]:
    """'', 'a', 'b', ..., 'z', 'aa', 'ab', ...: the rule `keys.suffix_at` counts."""
    yield ""
    for width in itertools.count(1):
        yield from map("".join, itertools.product(string.ascii_lowercase, repeat=width))


def _unique_key(base: str, taken: Callable[[str], bool]) -> str:
    """The rule one key at a time: `base` if free, else base + a, b, ... (the first free)."""
    return next(key for key in map(base.__add__, _suffixes()) if not taken(key))


def test_collision_gets_a_suffix() -> None:
    allocator = keys.KeyAllocator({"myers2024learning", "myers2024learninga"})
    assert allocator.key("myers2024learning") == "myers2024learningb"
    assert allocator.key("free") == "free"


def test_suffixes_go_on_past_three_letters_in_order() -> None:
    short = list(itertools.islice(_suffixes(), 1 + 26 + 26**2 + 26**3))
    assert short[:3] == ["", "a", "b"]
    assert short[26:29] == ["z", "aa", "ab"]
    assert short[-1] == "zzz"
    assert len(set(short)) == len(short)
    taken = {"k" + suffix for suffix in short}
    asked: list[str] = []

    def is_taken(candidate: str) -> bool:
        asked.append(candidate)
        return candidate in taken

    assert _unique_key("k", is_taken) == "kaaaa"
    assert asked == [*("k" + suffix for suffix in short), "kaaaa"]  # in order, none twice
    taken.discard("kzz")
    assert keys.KeyAllocator(taken).key("k") == "kzz"


_PATTERN = st.lists(
    st.sampled_from(
        ["[auth]", "[Auth]", "[auth:lower]", "[year]", "[shorttitle]", "[veryshorttitle:upper]",
         "[authors2]", "[title:ascii]", "[venue]", "-", "_", ":"]
    ),
    min_size=1,
    max_size=4,
).map("".join)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    pattern=_PATTERN,
    title=st.text(max_size=40),
    family=st.text(max_size=15),
    venue=st.text(max_size=20),
    year=st.one_of(st.none(), st.integers(1, 2100)),
)
def test_any_pattern_gives_a_valid_key(
    pattern: str, title: str, family: str, venue: str, year: int | None
) -> None:
    if not any(c in pattern for c in "["):
        return
    record = PaperRecord(title=title, authors=[Author(family)], venue=venue, year=year)
    key = keys.format_key(pattern, record)
    assert key and keys.is_valid_key(key)


@settings(max_examples=200, deadline=None)
@given(taken=st.sets(st.sampled_from(["lee2024", "lee2024a", "lee2024c", "lee2024z",
                                      "lee2024aa", "kim2024", "kim2024b"])),
       bases=st.lists(st.sampled_from(["lee2024", "kim2024", "park2023"]), max_size=80))
def test_an_import_allocates_the_keys_one_at_a_time_would(taken: set[str],
                                                          bases: list[str]) -> None:
    """Many papers of one base in an import: the same keys as one `_unique_key` call each
    (the first free of base, base + a, b, ...), without re-trying the taken ones."""
    allocator = keys.KeyAllocator(set(taken))
    expected_taken = set(taken)
    for base in bases:
        expected = _unique_key(base, expected_taken.__contains__)
        expected_taken.add(expected)
        assert allocator.key(base) == expected
    assert allocator.taken == expected_taken


def test_suffix_at_counts_like_suffixes() -> None:
    assert [keys.suffix_at(i) for i in (0, 1, 26, 27, 52, 53, 702, 703)] == [
        "", "a", "z", "aa", "az", "ba", "zz", "aaa"]
    assert list(itertools.islice(_suffixes(), 1000)) == [
        keys.suffix_at(i) for i in range(1000)]
