"""Fuzzing the importers: random and mutated BibTeX files and abstract lists.

Whatever the bytes, an import either reads the file (importing the good entries and
naming each bad one with its line) or refuses the whole file with one FormatError; any
other exception is a bug. The library stays sound and keeps what it had.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.core import backup
from papershelf.core.library import Library
from papershelf.formats.records import FormatError
from tests.conftest import SEED_FILES, THIRDPARTY_FILES

SOURCES = [p.read_bytes() for p in THIRDPARTY_FILES + SEED_FILES]
# Pieces that matter to the readers, spliced in at random places.
TOKENS = [b"@", b"{", b"}", b"(", b")", b'"', b"#", b"%", b",", b"=", b"\n\n", b"\\",
          b"@string{x = {y}}", b"@comment{", b"crossref = {", b"\xff\xfe", b"\x00",
          "é".encode(), "论文".encode(), b"\r\n", b"$", b"and", b"@preamble{"]
# (One tmp_path serves all examples of a test: hence the suppressed health check.)
FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 8))):
        where = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        if kind == "delete":
            del data[where:where + draw(st.integers(1, 200))]
        elif kind == "insert":
            data[where:where] = draw(st.sampled_from(TOKENS))
        elif kind == "duplicate":
            data[where:where] = data[max(0, where - 300):where]
        else:
            del data[where:]
    return bytes(data)


def _import_into_a_new_library(path: Path, data: bytes, suffix: str) -> Path:
    """Import `data` (as a file ending in `suffix`) into the library in `path` and check
    the outcome; the library's file."""
    library_file = path / "fuzz.sqlite"
    library = Library.open(str(library_file))
    try:
        _check(library, path, data, suffix)
    finally:
        library.close()
    return library_file


def _check(library: Library, path: Path, data: bytes, suffix: str) -> None:
    target = path / f"input{suffix}"
    target.write_bytes(data)
    before = library.count()
    try:
        report = library.import_file(target)
    except FormatError as exc:
        assert str(exc).startswith(str(target))
        assert library.count() == before  # refused whole: nothing written
        return
    assert library.count() == before + report.added
    for problem in report.problems:
        assert problem.path == str(target)
        assert problem.line is None or problem.line >= 1


@FUZZ
@given(data=mutated(), suffix=st.sampled_from([".bib", ".txt"]))
def test_mutated_real_files(tmp_path: Path, data: bytes, suffix: str) -> None:
    library_file = _import_into_a_new_library(tmp_path, data, suffix)
    assert backup.integrity_errors(library_file) == []


@FUZZ
@given(data=st.binary(max_size=2000) | st.text(max_size=2000).map(str.encode),
       suffix=st.sampled_from([".bib", ".txt", ""]))
def test_random_bytes(tmp_path: Path, data: bytes, suffix: str) -> None:
    _import_into_a_new_library(tmp_path, data, suffix)
