"""A file of paragraphs that names no venue and year in a heading, and whose paragraphs
do not read as abstracts (random words, a word list), is refused in one line naming the
file and what to do, with nothing imported; the same words under a heading, and real
abstracts without one, still import. Read whole and read in pieces alike."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from papershelf.core.library import Library
from papershelf.formats.abstracts import parse_abstract_list
from papershelf.formats.records import FormatError
from tests.conftest import SEED_FILES, run_cli

WORDS = ("lantern quarry velvet orbit mosaic thistle harbor ember cobalt meadow saffron "
         "glacier pumice willow tundra falcon marble cactus nectar basalt quiver raven "
         "copper dune lichen").split()


def junk(paragraphs: int, seed: int = 3) -> str:
    """Paragraphs of random words, long enough to pass as abstracts by length alone."""
    rnd = random.Random(seed)
    return "\n\n".join(" ".join(rnd.choice(WORDS) for _ in range(60))
                       for _ in range(paragraphs)) + "\n"


def real_abstracts() -> str:
    """The sample list's abstracts, without its heading."""
    return SEED_FILES[0].read_text(encoding="utf-8").split("\n\n", 1)[1]


def test_random_words_without_a_heading_are_refused() -> None:
    with pytest.raises(FormatError) as caught:
        parse_abstract_list(junk(30).encode(), "words.txt")
    message = str(caught.value)
    assert message.startswith("words.txt: not imported")
    assert "heading naming a venue and year" in message and "\n" not in message


def test_the_same_words_under_a_heading_are_the_users_choice() -> None:
    result = parse_abstract_list(("NeurIPS 2025 papers\n\n" + junk(30)).encode(), "w.txt")
    assert len(result.records) == 30


def test_real_abstracts_without_a_heading_import_with_a_notice() -> None:
    result = parse_abstract_list(real_abstracts().encode(), "plain.txt")
    assert len(result.records) == 19
    assert any("no heading line" in notice for notice in result.notices)


def test_the_command_line_imports_nothing_of_it(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text(junk(30), encoding="utf-8")
    lib = tmp_path / "lib.sqlite"
    status, _out, err = run_cli("--library", str(lib), "import", str(words))
    assert status == 1 and f"{words}: not imported" in err
    library = Library.open(str(lib))
    try:
        assert library.count() == 38  # (the sample papers of a new library only)
    finally:
        library.close()


def test_a_big_file_read_in_pieces_is_refused_too(library: Library, tmp_path: Path) -> None:
    big = tmp_path / "words.txt"
    big.write_text(junk(20_000), encoding="utf-8")  # (about 8 MB: read in pieces)
    assert big.stat().st_size > 6 << 20
    with pytest.raises(FormatError, match="not imported"):
        library.import_file(big)
    assert library.count() == 0
