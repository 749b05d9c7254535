"""The registry of file formats (papershelf.formats.registry): one answer for every caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.core import autoexport, transfer
from papershelf.formats import format_of, format_of_data, registry


def test_every_name_and_alias_names_one_format() -> None:
    names = [name for fmt in registry.formats() for name in fmt.names]
    assert len(names) == len(set(names))
    assert registry.by_name("csl-json") is registry.by_name("CSLJSON ")
    with pytest.raises(KeyError):
        registry.by_name("docx")


def test_the_lists_of_readable_and_writable_formats() -> None:
    assert {fmt.name for fmt in registry.readable()} == {
        "bibtex", "ris", "csljson", "endnote", "medline", "zotero", "abstracts"}
    assert set(autoexport.FORMATS) == {fmt.name for fmt in registry.writable()}
    assert registry.names(registry.writable()) == sorted(autoexport.FORMAT_NAMES)
    assert transfer.EXPORT_FORMATS == {"bibtex": ".bib", "ris": ".ris", "csljson": ".json"}
    assert transfer.EXPORT_FORMAT_NAMES == {"bibtex": "bibtex", "ris": "ris",
                                            "csljson": "csljson", "csl-json": "csljson"}


@pytest.mark.parametrize(("name", "expected"), [
    ("refs.bib", "bibtex"), ("refs.BIBTEX", "bibtex"), ("refs.ris", "ris"),
    ("refs.json", "csljson"), ("refs.xml", "endnote"), ("refs.nbib", "medline"),
    ("refs.medline", "medline")])
def test_a_suffix_names_the_format(tmp_path: Path, name: str, expected: str) -> None:
    assert format_of(tmp_path / name) == expected  # (by name: the file need not exist)


@pytest.mark.parametrize(("head", "expected"), [
    (b"SQLite format 3\x00rest", "zotero"), (b"\xef\xbb\xbf  TY  - JOUR\n", "ris"),
    (b'[{"type": "book"}]', "csljson"), (b'{"id": "a"}', "csljson"), (b"[]", "csljson"),
    (b'<?xml version="1.0"?><xml><records>', "endnote"), (b"PMID- 123\n", "medline"),
    (b"% a comment\n@article{a,", "bibtex"), ("\ufeff@book{b,".encode("utf-16"), "bibtex"),
    (b"ICML 2024\n\nAn abstract.", "abstracts"), (b"", "abstracts")])
def test_the_first_bytes_name_the_format(tmp_path: Path, head: bytes, expected: str) -> None:
    assert format_of_data(head) == expected
    path = tmp_path / "refs.txt"
    path.write_bytes(head)
    assert format_of(path) == expected


def test_an_export_format_by_the_files_name() -> None:
    assert [transfer.export_format_for_path(p) for p in ("a.ris", "a.JSON", "a.bib", "a.txt",
                                                         "a")] == [
        "ris", "csljson", "bibtex", "bibtex", "bibtex"]
