"""Which imported entries are papers the library has, and what a merge does with them.

Distinct citation keys are distinct papers unless a strong identifier (DOI, arXiv id,
the same key and title) says otherwise; a merge completes the paper and never thins it;
raw BibTeX (macros, `#`, @string definitions) survives the round trip.
"""

from __future__ import annotations

from pathlib import Path

from papershelf.core.library import Library, View
from papershelf.formats.bibtex import parse_bibtex, read_bibtex
from tests.conftest import SHARED_DATA, bibtex_of, paper_keys

PMLR = SHARED_DATA / "icml2024-pmlr-seeds.bib"


def _bib(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_entries_of_one_file_with_the_same_title_are_all_imported(
        library: Library, tmp_path: Path) -> None:
    path = _bib(tmp_path, "two.bib", """
@article{short, author = {Doe, Jane}, title = {On Things}, journal = {J}, year = 2020}
@article{long, author = {Doe, Jane}, title = {On things}, journal = {J}, year = 2020,
  volume = 3, pages = {1--9}}
""")
    report = library.import_file(path)
    assert (report.added, report.already_present) == (2, 0)
    assert paper_keys(library) == ["long", "short"]
    assert "pages = {1--9}" in bibtex_of(library, ["long"])
    # The pair is a candidate for Find Duplicates, where the user decides.
    assert [p.reason for p in library.find_duplicates()] == ["same title"]


def test_another_key_with_a_known_title_is_added_and_listed(
        library: Library, tmp_path: Path) -> None:
    library.import_file(_bib(tmp_path, "a.bib", "@misc{mine, title = {Deep Nets}, year = 2019}"))
    report = library.import_file(
        _bib(tmp_path, "b.bib", "@misc{theirs, title = {Deep nets.}, year = 2019, note = {x}}"))
    assert (report.added, report.merged, report.already_present) == (1, 0, 0)
    assert paper_keys(library) == ["mine", "theirs"]
    (pair,) = library.find_duplicates()
    assert pair.reason == "same title"


def test_the_report_names_an_entry_added_although_it_looks_like_a_paper_there(
        library: Library, tmp_path: Path) -> None:
    library.import_file(_bib(tmp_path, "a.bib", "@misc{mine, title = {Deep Nets}, year = 2019}"))
    report = library.import_file(_bib(tmp_path, "b.bib", """
@misc{theirs, title = {Deep nets.}, year = 2019, note = {x}}
@misc{other, title = {Something else}}
"""))
    assert report.added == 2
    (notice,) = report.notices
    assert notice.endswith(
        "b.bib:2: entry 'theirs' was added although it looks like 'mine' (the same "
        "title): their citation keys differ and no DOI or arXiv id says they are one "
        "paper; Find Duplicates lists the pair")


def test_an_entry_completes_a_sample_paper_whose_title_was_set_by_hand(
        seeded: Library, tmp_path: Path) -> None:
    """A paper from an abstract list has no citation key of its own, edited or not: an
    entry with its title is that paper."""
    pid = seeded.view_ids()[0]
    key = seeded.paper(pid).key  # type: ignore[union-attr]
    seeded.set_fields(pid, {"title": "Successor Features Form a Temporal Distance"})
    report = seeded.import_file(_bib(tmp_path, "myers.bib", """
@inproceedings{myers2024, title = {Successor features form a temporal distance},
  author = {Myers, Vivek and Zheng, Chongyi}, booktitle = {ICML}, year = 2024}
"""))
    assert (report.added, report.merged) == (0, 1)
    assert len(seeded.view_ids(View())) == 38
    assert "myers2024" not in paper_keys(seeded) and key in paper_keys(seeded)
    assert [a.family for a in seeded.paper(pid).record.authors] == [  # type: ignore[union-attr]
        "Myers", "Zheng"]


def test_an_entry_that_gives_a_provisional_title_a_real_one_takes_its_sort_key_along(
        seeded: Library, tmp_path: Path) -> None:
    """The `key` field made from a provisional title (kept in the paper's BibTeX fields
    once the user edited one of them) follows the real title an import brings."""
    pid = seeded.view_ids()[0]
    seeded.set_fields(pid, {"volume": "235"})
    abstract = seeded.paper(pid).record.abstract  # type: ignore[union-attr]
    report = seeded.import_file(_bib(tmp_path, "myers.bib", f"""
@inproceedings{{myers2024, title = {{Learning Temporal Distances}}, author = {{Myers, Vivek}},
  booktitle = {{ICML}}, year = 2024, abstract = {{{abstract}}}}}
"""))
    assert report.merged == 1
    assert seeded.paper_fields(pid)["key"] == "Learning Temporal Distances"
    assert "Successor features learned by" not in bibtex_of(seeded)


def test_same_key_and_title_is_the_same_paper(library: Library, tmp_path: Path) -> None:
    path = _bib(tmp_path, "a.bib", "@misc{k, title = {Deep Nets}, year = 2019}")
    library.import_file(path)
    again = library.import_file(path)
    assert (again.added, again.already_present) == (0, 1)


def test_a_doi_merges_another_key_and_completes_the_paper(
        library: Library, tmp_path: Path) -> None:
    library.import_file(_bib(tmp_path, "a.bib", """
@article{mine, title = {Deep Nets}, author = {Doe, Jane}, doi = {10.1/ABC}}
"""))
    (pid,) = library.view_ids(View())
    library.set_notes(pid, "my notes")
    library.set_starred([pid], True)
    report = library.import_file(_bib(tmp_path, "b.bib", """
@string{jmlr = {Journal of Machine Learning Research}}
@article{theirs, title = {Deep nets}, author = {Doe, J. and Roe, R.}, doi = {10.1/abc},
  journal = jmlr, volume = 3, number = {2}, pages = {1--9}, month = jul, year = 2020,
  note = "Extended " # {version}}
"""))
    assert (report.added, report.merged) == (0, 1)
    assert report.summary().endswith("0 added, 1 completed, 0 already present, 0 failed")
    (notice,) = [n for n in report.notices if "completed" in n]
    assert notice.endswith(
        "b.bib:3: entry 'theirs' completed 'mine' with volume, pages, year, journal, "
        "number, month, note")
    detail = library.paper(pid)
    assert detail is not None
    assert detail.starred and detail.record.notes == "my notes" and detail.key == "mine"
    assert [a.family for a in detail.record.authors] == ["Doe"]  # the paper's own authors
    text = bibtex_of(library)
    assert "@string{jmlr = {Journal of Machine Learning Research}}" in text
    for line in ("journal = jmlr,", "month = jul", 'note = "Extended " # {version}',
                 "volume = {3}", "number = {2}", "pages = {1--9}", "year = {2020}"):
        assert line in text
    # The merged entry's key still finds the paper.
    assert library.ids_for_keys(["theirs"]) == ([pid], [])
    again = library.import_file(tmp_path / "b.bib")
    assert (again.added, again.merged, again.already_present) == (0, 0, 1)


def test_an_arxiv_id_tells_two_keys_apart_or_together(
        library: Library, tmp_path: Path) -> None:
    library.import_file(_bib(tmp_path, "a.bib", """
@misc{vaswani2017, title = {Attention Is All You Need}, eprint = {1706.03762},
  archiveprefix = {arXiv}}
@misc{other2017, title = {Gradient Tricks}, eprint = {1706.00001}, archiveprefix = {arXiv}}
"""))
    report = library.import_file(_bib(tmp_path, "b.bib", """
@inproceedings{NIPS2017_3f5ee243, title = {Attention is All you Need},
  url = {https://arxiv.org/abs/1706.03762}, booktitle = {NeurIPS}, year = 2017}
@misc{tricks, title = {Gradient tricks}, eprint = {1801.00002}, archiveprefix = {arXiv}}
"""))
    assert (report.added, report.merged) == (1, 1)
    assert paper_keys(library) == ["other2017", "tricks", "vaswani2017"]


def test_pmlr_file_completes_the_sample_library_every_field_kept(
        seeded: Library) -> None:
    report = seeded.import_file(PMLR)
    assert (report.added, report.merged, report.already_present) == (0, 38, 0)
    assert len([n for n in report.notices if " completed 'icml2024" in n]) == 38
    exported = parse_bibtex(bibtex_of(seeded), "export.bib").records
    by_title = {r.title: r for r in exported}
    for entry in read_bibtex(PMLR).records:
        mine = by_title[entry.title]
        missing = set(entry.raw) - set(mine.raw)
        assert not missing, (entry.key, missing)
    # Importing the same file again finds every paper by the keys merged into them.
    again = seeded.import_file(PMLR)
    assert (again.added, again.merged, again.already_present) == (0, 0, 38)


def test_editing_a_title_drops_its_macros(library: Library, tmp_path: Path) -> None:
    library.import_file(_bib(tmp_path, "a.bib", """
@string{conf = {Conference}}
@inproceedings{k, title = "On " # conf, booktitle = conf, year = 2020}
"""))
    (pid,) = library.view_ids(View())
    library.set_title(pid, "On Workshops")
    text = bibtex_of(library)
    assert "title = {On Workshops}" in text and "booktitle = conf" in text
    assert "@string{conf = {Conference}}" in text


def test_delete_and_undo_keep_the_raw_bibtex(library: Library, tmp_path: Path) -> None:
    library.import_file(_bib(tmp_path, "a.bib", """
@preamble{"\\newcommand{\\noopsort}[1]{}"}
@string{acm = {ACM}}
@inproceedings{child, title = {{\\noopsort{a}}Child}, crossref = {parent}, month = jan}
@inproceedings{parent, title = {Parent}, booktitle = {Proc. } # acm, year = 2000}
"""))
    before = bibtex_of(library)
    assert before.startswith("@preamble{{\\newcommand{\\noopsort}[1]{}}}\n@string{acm = {ACM}}")
    change = library.delete_papers(library.view_ids(View()))
    assert change.undo is not None
    change.undo()
    assert bibtex_of(library) == before
    # Without its parent the child carries what it inherits, and no crossref.
    child = bibtex_of(library, ["child"])
    assert "crossref" not in child and "booktitle = {Proc. } # acm" in child
    assert "year = {2000}" in child
