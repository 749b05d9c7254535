"""Auto-exports: files that stay current as the library changes, written only when their
bytes differ; a file that cannot be written keeps its old content and says why; the
command line's `auto-export` and the refresh after each writing command."""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path

import pytest

from papershelf.core import autoexport
from papershelf.core.gcpause import young_collections_only
from papershelf.core.library import Library, View
from papershelf.core.transfer import export_papers
from papershelf.errors import UserError
from papershelf.formats.readable import math_to_text
from papershelf.formats.records import PaperRecord
from papershelf.formats.ris import parse_ris
from tests.conftest import SEEDS, run_cli
from tests.postgres_server import SharedLibrary

OLD = 1_000_000_000  # an mtime (2001) a rewrite would move on


def keys_in(path: Path) -> list[str]:
    """The citation keys of a BibTeX file, in order."""
    return [line[line.index("{") + 1:-1] for line in path.read_text().splitlines()
            if line.startswith("@")]


def aged(path: Path) -> int:
    """Give `path` an old mtime; the mtime (ns) a rewrite would change."""
    os.utime(path, (OLD, OLD))
    return path.stat().st_mtime_ns


def first_ids(library: Library, n: int) -> list[int]:
    return library.view_ids(View(sort="key"))[:n]


def test_an_auto_export_writes_what_export_writes_and_is_listed(seeded: Library,
                                                                 tmp_path: Path) -> None:
    target = tmp_path / "all.bib"
    outcome = autoexport.add(seeded, target)
    assert outcome.written and outcome.export.state == "ok"
    ids = seeded.view_ids(View(sort="key"))
    assert target.read_text() == export_papers(seeded, ids).text
    assert len(keys_in(target)) == 38
    [listed] = autoexport.auto_exports(seeded)
    assert (listed.path, listed.what, listed.format, listed.state) == (
        str(target), "all", "bibtex", "ok")
    assert listed.written_at is not None


def test_a_file_built_in_batches_is_what_export_writes(seeded: Library, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A big file's entries are read and written a few hundred at a time (here 5): the
    same bytes as one export, and the garbage collector on again afterwards."""
    monkeypatch.setattr(autoexport, "BUILD_BATCH", 5)
    target = tmp_path / "all.bib"
    autoexport.add(seeded, target)
    assert target.read_text() == export_papers(seeded, seeded.view_ids(View(sort="key"))).text
    assert gc.isenabled()


def test_the_collector_waits_for_the_last_of_several_builds() -> None:
    """Two jobs building at once (an auto-export and an export): no full collection
    until both are done, and the collector as it was after; the young collections go on,
    so what the jobs made is not left for one long collection afterwards."""
    before = gc.get_threshold()
    with young_collections_only():
        with young_collections_only():
            made = [[n] for n in range(200_000)]  # (containers the collector tracks)
            assert gc.get_threshold()[2] > before[2]
        assert gc.get_threshold()[2] > before[2]
    assert gc.get_threshold() == before and gc.isenabled()
    assert gc.get_count()[0] <= before[0]  # (nothing piled up for the next collection)
    del made


def test_a_star_rewrites_the_starred_file_and_an_unrelated_change_leaves_it_alone(
        seeded: Library, tmp_path: Path) -> None:
    target = tmp_path / "starred.bib"
    autoexport.add(seeded, target, "starred")
    assert target.read_bytes() == b""
    first, other = first_ids(seeded, 2)
    first_key = seeded.rows([first])[first].key
    for cache in (None, autoexport.Cache()):  # the command line's, the window's
        seeded.set_starred([first], True)
        [outcome] = autoexport.refresh(seeded, cache)
        assert outcome.written and keys_in(target) == [first_key]
        before, mtime = target.read_bytes(), aged(target)
        seeded.set_notes(other, "not starred: not in the file")
        seeded.set_title(first, seeded.rows([first])[first].title)  # (the same title)
        assert [o.written for o in autoexport.refresh(seeded, cache)] == [False]
        assert target.read_bytes() == before and target.stat().st_mtime_ns == mtime
        seeded.set_starred([first], False)
        autoexport.refresh(seeded, cache)
        assert target.read_bytes() == b""


def test_with_a_cache_a_change_reads_only_the_papers_it_changed(
        seeded: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "starred.bib"
    autoexport.add(seeded, target, "starred")
    first, second, other = first_ids(seeded, 3)
    seeded.set_starred([first], True)
    cache = autoexport.Cache()
    autoexport.refresh(seeded, cache)
    read: list[int] = []
    real = seeded.records

    def counted(ids: list[int], with_files: bool = False) -> list[PaperRecord]:
        read.extend(ids)
        return real(ids, with_files)

    monkeypatch.setattr(seeded, "records", counted)
    seeded.set_notes(other, "an unstarred paper's notes")
    seeded.set_notes(first, "notes the file does not hold")
    seeded.set_read_state([first], "read")
    assert [o.written for o in autoexport.refresh(seeded, cache)] == [False]
    assert read == []
    seeded.set_title(first, "A Title Of Its Own")
    seeded.set_starred([second], True)
    assert [o.written for o in autoexport.refresh(seeded, cache)] == [True]
    assert sorted(read) == sorted([first, second])
    expected = export_papers(seeded, seeded.view_ids(View(starred=True, sort="key"))).text
    assert target.read_text() == expected and "A Title Of Its Own" in expected
    target.write_text("edited by hand\n")  # (the file changed: written again)
    assert [o.written for o in autoexport.refresh(seeded, cache)] == [True]
    assert target.read_text() == expected


def test_a_tag_and_a_saved_search_choose_the_papers(seeded: Library, tmp_path: Path) -> None:
    a, b, c = first_ids(seeded, 3)
    keys = {pid: row.key for pid, row in seeded.rows([a, b, c]).items()}
    seeded.add_tags([a, c], ["thesis"])
    seeded.add_saved_search("Mine", "tag:thesis -is:starred")
    autoexport.add(seeded, tmp_path / "tag.bib", "tag:thesis")
    autoexport.add(seeded, tmp_path / "saved.bib", "saved: mine")
    assert keys_in(tmp_path / "tag.bib") == [keys[a], keys[c]]
    assert keys_in(tmp_path / "saved.bib") == [keys[a], keys[c]]
    seeded.set_starred([c], True)
    seeded.add_tags([b], ["thesis"])
    autoexport.refresh(seeded, autoexport.Cache())
    assert keys_in(tmp_path / "tag.bib") == [keys[a], keys[b], keys[c]]
    assert keys_in(tmp_path / "saved.bib") == [keys[a], keys[b]]
    [search] = seeded.saved_searches()
    seeded.remove_saved_search(search.id)
    by_path = {o.export.path: o.export for o in autoexport.refresh(seeded)}
    gone = by_path[str(tmp_path / "saved.bib")]
    assert (gone.state, gone.message) == ("failed", "no saved search named 'mine'")
    assert keys_in(tmp_path / "saved.bib") == [keys[a], keys[b]]  # (the file stays)


@pytest.mark.parametrize(("what", "message"), [
    ("everything", "'everything': not what an auto-export can hold"),
    ("tag:", "'tag:': not what an auto-export can hold"),
    ("saved:Nope", "no saved search named 'Nope'"),
])
def test_what_an_auto_export_holds_is_checked(library: Library, tmp_path: Path, what: str,
                                              message: str) -> None:
    with pytest.raises(UserError, match=message):
        autoexport.add(library, tmp_path / "x.bib", what)
    assert autoexport.auto_exports(library) == [] and not (tmp_path / "x.bib").exists()


def test_a_file_that_cannot_be_written_keeps_its_content_and_the_reason(
        seeded: Library, tmp_path: Path) -> None:
    folder = tmp_path / "paper"
    folder.mkdir()
    target = folder / "refs.bib"
    autoexport.add(seeded, target, "starred")
    [first] = first_ids(seeded, 1)
    target.chmod(0o444)
    seeded.set_starred([first], True)
    [outcome] = autoexport.refresh(seeded)
    assert (outcome.written, outcome.export.state) == (False, "failed")
    assert outcome.export.message == f"{target}: is read-only"
    assert target.read_bytes() == b""
    [listed] = autoexport.auto_exports(seeded)
    assert (listed.state, listed.message) == ("failed", f"{target}: is read-only")
    target.chmod(0o644)
    [outcome] = autoexport.refresh(seeded)  # tried again, whatever changed
    assert outcome.written and outcome.export.state == "ok" and len(keys_in(target)) == 1

    target.unlink()
    folder.rmdir()
    seeded.set_starred([first], False)
    [outcome] = autoexport.refresh(seeded)
    assert outcome.export.message == f"{target}: the folder {folder} does not exist"
    with pytest.raises(UserError, match="already auto-exported"):
        autoexport.add(seeded, target)


def test_adding_a_file_that_cannot_be_written_keeps_nothing(library: Library,
                                                          tmp_path: Path) -> None:
    target = tmp_path / "locked.bib"
    target.write_text("mine\n")
    target.chmod(0o444)
    with pytest.raises(UserError, match=r"locked\.bib: is read-only"):
        autoexport.add(library, target)
    assert autoexport.auto_exports(library) == [] and target.read_text() == "mine\n"


def test_the_formats_and_options(seeded: Library, tmp_path: Path) -> None:
    autoexport.add(seeded, tmp_path / "refs.json", format="csljson")
    autoexport.add(seeded, tmp_path / "refs.bib", format="biblatex", include_abstract=False,
                   include_notes=True)
    items = json.loads((tmp_path / "refs.json").read_text())
    assert len(items) == 38 and all("title" in item for item in items)
    text = (tmp_path / "refs.bib").read_text()
    assert "journaltitle" in text or "date" in text
    assert "abstract" not in text
    with pytest.raises(UserError, match="unknown auto-export format 'endnote'"):
        autoexport.add(seeded, tmp_path / "refs.xml", format="endnote")


def test_a_ris_auto_export_follows_the_starred_papers(seeded: Library, library_target: str,
                                                      tmp_path: Path) -> None:
    """For EndNote or Zotero on the other side: a .ris file of the starred papers that a
    star and an unstar keep current, read back as the same papers."""
    first, second = first_ids(seeded, 2)
    seeded.set_starred([first], True)
    target = tmp_path / "starred.ris"
    assert run_cli("--library", library_target, "auto-export", "add", str(target),
                   "--starred") == (
        0, f"{target}: auto-exported (starred papers, ris), written\n", "")

    def titles() -> list[str]:
        return [record.title for record in parse_ris(target.read_bytes(), str(target)).records]

    def title(paper_id: int) -> str:
        paper = seeded.paper(paper_id)
        assert paper is not None
        return math_to_text(paper.record.title)  # (RIS holds text, not TeX: ℓ₀)

    assert titles() == [title(first)]
    seeded.set_starred([second], True)
    autoexport.refresh(seeded)
    assert sorted(titles()) == sorted(map(title, (first, second)))
    seeded.set_starred([first], False)
    autoexport.refresh(seeded)
    assert titles() == [title(second)]


def test_each_member_has_their_own(pg_roles: SharedLibrary, tmp_path: Path) -> None:
    alice, bob = Library.open(pg_roles.alice), Library.open(pg_roles.bob)
    try:
        alice.ensure_sample(SEEDS)
        first, second = first_ids(alice, 2)
        alice.set_starred([first], True)
        bob.set_starred([second], True)
        autoexport.add(alice, tmp_path / "alice.bib", "starred")
        autoexport.add(bob, tmp_path / "bob.bib", "starred")
        autoexport.add(bob, tmp_path / "alice.bib", "all")  # (his own, on his computer)
        assert [e.path for e in autoexport.auto_exports(alice)] == [str(tmp_path / "alice.bib")]
        assert len(autoexport.auto_exports(bob)) == 2
        assert keys_in(tmp_path / "bob.bib") == [alice.rows([second])[second].key]
        autoexport.remove(bob, tmp_path / "alice.bib")
        alice.set_starred([second], True)  # alice's star: her file, not bob's
        assert [o.written for o in autoexport.refresh(alice)] == [True]
        assert [o.written for o in autoexport.refresh(bob)] == [False]
        assert len(keys_in(tmp_path / "alice.bib")) == 2
    finally:
        alice.close()
        bob.close()


def test_the_command_line_adds_lists_runs_and_removes(
        seeded: Library, library_target: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    lib = ["--library", library_target]
    target = tmp_path / "refs.bib"
    assert run_cli(*lib, "auto-export", "add", str(target), "--starred", "--format",
                   "biblatex", "--no-abstract") == (
        0, f"{target}: auto-exported (starred papers, biblatex), written\n", "")
    assert run_cli(*lib, "auto-export", "add", str(tmp_path / "r.json"), "--tag", "x")[1] == (
        f"{tmp_path / 'r.json'}: auto-exported (tag x, csljson), written\n")
    assert run_cli(*lib, "auto-export", "list") == (
        0, f"{tmp_path / 'r.json'}  tag x  csljson  up to date\n"
           f"{target}  starred papers  biblatex  up to date\n2 auto-exports\n", "")
    assert run_cli(*lib, "auto-export", "run") == (
        0, f"{tmp_path / 'r.json'}: up to date\n{target}: up to date\n", "")
    assert run_cli(*lib, "auto-export", "remove", str(tmp_path / "r.json")) == (
        0, f"{tmp_path / 'r.json'}: no longer auto-exported (the file stays)\n", "")
    status, _out, err = run_cli(*lib, "auto-export", "remove", str(tmp_path / "r.json"))
    assert (status, err) == (1, f"papershelf: error: {tmp_path / 'r.json'}: is not "
                                "auto-exported (see `papershelf auto-export list`)\n")
    status, _out, err = run_cli(*lib, "auto-export", "add", str(tmp_path / "x.bib"),
                                "--saved", "Nope")
    assert (status, err) == (1, "papershelf: error: no saved search named 'Nope'\n")
    with pytest.raises(SystemExit) as usage:  # (argparse's: one line, exit status 1)
        run_cli(*lib, "auto-export", "add", str(tmp_path / "no" / "x.bib"))
    assert usage.value.code == 1
    assert f"{tmp_path / 'no'}: no such folder" in capsys.readouterr().err


def test_a_writing_command_refreshes_the_file_before_it_exits(
        seeded: Library, library_target: str, tmp_path: Path) -> None:
    lib = ["--library", library_target]
    target = tmp_path / "refs.bib"
    run_cli(*lib, "auto-export", "add", str(target), "--starred")
    [first] = first_ids(seeded, 1)
    key = seeded.rows([first])[first].key
    assert run_cli(*lib, "star", key)[0] == 0
    assert keys_in(target) == [key]
    mtime = aged(target)
    assert run_cli(*lib, "list", "--starred")[0] == 0  # reads only: nothing refreshed
    assert run_cli(*lib, "tag", key, "later")[0] == 0
    assert target.stat().st_mtime_ns != mtime and "later" in target.read_text()
    target.chmod(0o444)
    status, _out, err = run_cli(*lib, "unstar", key)
    assert (status, err) == (0, f"papershelf: warning: auto-export not written: {target}: "
                                "is read-only\n")
    assert keys_in(target) == [key]
    assert "failed:" in run_cli(*lib, "auto-export", "list")[1]
    target.chmod(0o644)
    assert run_cli(*lib, "auto-export", "run") == (0, f"{target}: written\n", "")
    assert keys_in(target) == []


def test_entries_that_need_others_are_written_as_export_writes_them(
        library: Library, tmp_path: Path) -> None:
    library.import_bibtex(
        "@string{jmlr = {Journal of Machine Learning Research}}\n"
        "@preamble{{\\newcommand{\\noop}[1]{}}}\n"
        "@article{alone, title = {Alone}, author = {Doe, Jane}, journal = jmlr, year = 2024}\n"
        "@inproceedings{part, title = {A Part}, author = {Roe, Rick}, crossref = {whole}}\n"
        "@proceedings{whole, title = {The Whole}, year = 2023, booktitle = {The Whole}}\n"
        "@misc{plain, title = {Plain}, author = {Poe, Edgar}, year = 2020}\n", "t.bib")
    target = tmp_path / "all.bib"
    autoexport.add(library, target)
    cache = autoexport.Cache()
    autoexport.refresh(library, cache)
    ids = library.view_ids(View(sort="key"))
    assert target.read_text() == export_papers(library, ids).text
    assert "@string{jmlr" in target.read_text()
    [plain] = library.ids_for_keys(["plain"])[0]
    library.set_title(plain, "Plainer")
    assert [o.written for o in autoexport.refresh(library, cache)] == [True]
    assert target.read_text() == export_papers(library, ids).text
    assert "Plainer" in target.read_text()


def test_a_new_window_with_nothing_changed_since_reads_no_paper(
        seeded: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "all.bib"
    autoexport.add(seeded, target)
    read: list[int] = []
    real = seeded.records

    def counted(ids: list[int], with_files: bool = False) -> list[PaperRecord]:
        read.extend(ids)
        return real(ids, with_files)

    monkeypatch.setattr(seeded, "records", counted)
    assert [o.written for o in autoexport.refresh(seeded, autoexport.Cache())] == [False]
    assert read == []
    [first] = first_ids(seeded, 1)
    seeded.set_title(first, "Changed While No Window Was Open")
    assert [o.written for o in autoexport.refresh(seeded, autoexport.Cache())] == [True]
    assert "Changed While No Window Was Open" in target.read_text()
    read.clear()
    seeded.set_starred([first], True)  # (not in the file's bytes, nor in its papers)
    seeded.set_read_state([first], "read")
    assert [o.written for o in autoexport.refresh(seeded, autoexport.Cache())] == [False]
    assert read == []
    target.write_text("edited by hand\n")
    assert [o.written for o in autoexport.refresh(seeded, autoexport.Cache())] == [True]
    assert "Changed While No Window Was Open" in target.read_text()
