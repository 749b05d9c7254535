"""Annotations in a hostile PDF (reading.fileannots): one damaged annotation is skipped
and named, the others imported; a file cannot make the library store or paint millions
of rectangles, nor split one huge comment thousands of times."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pypdf.generic import (
    NameObject,
    NullObject,
    NumberObject,
    TextStringObject,
)

from papershelf.core.library import Library
from papershelf.core.shapes import View
from papershelf.reading import fileannots
from tests.conftest import run_cli
from tests.hostile_pdfs import annotated

QUAD = [72.0, 437.0, 181.0, 437.0, 72.0, 428.0, 181.0, 428.0]
GOOD = {"Subtype": NameObject("/Highlight"), "Rect": [72, 428, 181, 437], "QuadPoints": QUAD,
        "NM": TextStringObject("good-1"), "Contents": TextStringObject("kept")}


def test_one_damaged_annotation_is_skipped_and_named_the_others_imported(
        seeded: Library, tmp_path: Path) -> None:
    pdf = annotated(tmp_path / "paper.pdf", [
        GOOD,
        {"Subtype": NameObject("/Highlight"), "Rect": [10, 10, 50]},  # (3 numbers)
        {"Subtype": NameObject("/Underline"), "Rect": [10, 10, 50, 50],
         "QuadPoints": [*QUAD[:7], NullObject()]},
        {"Subtype": NameObject("/StrikeOut"), "Rect": [10, 10, 50, 50],
         "QuadPoints": [*QUAD[:7], NameObject("/Oops")]},
        {"Subtype": NameObject("/Text"), "Rect": [100, 600, 120, 620],
         "Contents": TextStringObject("also kept")},
    ], extra=[NumberObject(5), NullObject()])
    pid = seeded.view_ids(View())[0]
    key = seeded.rows([pid])[pid].key
    seeded.attach_file(pid, pdf)
    status, out, err = run_cli("--library", seeded.url, "annotations", "import", key)
    assert status == 0, err
    assert out == f"2 of the 2 annotations in {key}'s PDF imported\n"
    lines = err.splitlines()
    assert len(lines) == 5 and all(line.startswith("warning: paper.pdf, page 1: ")
                                   for line in lines), err
    assert "its /Rect has 3 numbers" in lines[0] and "not a dictionary" in lines[3]
    assert sorted(a.comment for a in seeded.annotations_of([pid])[pid]) == [
        "also kept", "kept"]


def test_rectangles_are_bounded_per_annotation_and_per_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """50 highlights sharing one array of 80,000 numbers (a 167 KB file) were 500,000
    rectangles (11 MB of JSON in the library, 8 s)."""
    pdf = annotated(tmp_path / "many.pdf", [
        {"Subtype": NameObject("/Highlight"), "Rect": [72, 428, 181, 437],
         "QuadPoints": "shared", "NM": TextStringObject(f"n{n}")} for n in range(50)],
        shared=QUAD * 10_000)
    assert pdf.stat().st_size < 400_000
    started = time.process_time()
    found = fileannots.read(pdf)
    spent = time.process_time() - started
    assert len(found) == 50
    assert all(len(a.rects) == fileannots.QUADS_MAX for a in found)
    assert spent < 3, spent
    monkeypatch.setattr(fileannots, "RECTS_MAX", 1000)
    problems: list[str] = []
    assert len(fileannots.read(pdf, problems)) == 4  # (4 × 256 rectangles)
    assert problems == ["many.pdf: more than 4 annotations or 1,000 rectangles; the rest "
                        "not read"]


def test_a_huge_comment_is_cut_before_it_is_split() -> None:
    """20,000 annotations may share one 10 MB /Contents: each is cut to its bound first,
    never split whole."""
    huge = TextStringObject("word " * 2_000_000)
    started = time.process_time()
    for _ in range(100):
        comment = fileannots._text(huge)
    spent = time.process_time() - started
    assert len(comment) == fileannots.TEXT_MAX
    assert spent < 0.5, spent
