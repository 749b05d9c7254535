"""The command line, end to end, each command in a temporary library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pytest

from papershelf.__main__ import main
from papershelf.core.db import SCHEMA_HEAD
from papershelf.core.library import Library
from tests.conftest import ROOT, SEED_FILES, SEEDS, seeded_file


class Cli:
    """Runs `papershelf --library TMP ...` in-process and keeps what it printed."""

    def __init__(self, library: str, capsys: pytest.CaptureFixture[str]) -> None:
        self.library = library
        self.capsys = capsys
        self.out = self.err = ""

    def __call__(self, *args: str) -> int:
        self.capsys.readouterr()
        status = main(["--library", str(self.library), *args])
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        return status

    def json(self, *args: str) -> list[dict[str, object]]:
        assert self(*args, "--json") == 0, self.err
        return json.loads(self.out)


@pytest.fixture
def cli(library_target: str, dialect: str, capsys: pytest.CaptureFixture[str]) -> Cli:
    """The command line on a fresh library with the sample papers: a file, whose first
    start imports them, or a PostgreSQL database, where the sample is put first (a
    group's library gets none by itself)."""
    if dialect == "postgresql":
        shared = Library.open(library_target)
        shared.ensure_sample(SEEDS)
        shared.close()
    else:  # (a missing library named with --library is an error for most commands)
        seeded_file(Path(library_target))
    return Cli(library_target, capsys)


def keys_of(papers: list[dict[str, object]]) -> list[str]:
    return [str(p["key"]) for p in papers]


def test_info_on_a_new_library_shows_the_sample(cli: Cli, library: Library) -> None:
    assert cli("info") == 0
    assert library.location in cli.out
    assert f"Schema version: {SCHEMA_HEAD}" in cli.out
    assert "Papers:         38" in cli.out
    # On a shared library the counts are the user's own, and it says whose.
    assert ("User:           postgres" in cli.out) == library.shared


def test_a_shared_library_gets_no_sample_papers(pg_url: str, capsys: pytest.CaptureFixture[str]
                                                ) -> None:
    """The sample is for a new user's own library, not for a group's."""
    cli = Cli(pg_url, capsys)
    assert cli("info") == 0
    assert "Papers:         0" in cli.out


def test_list_json_has_what_a_script_needs(cli: Cli) -> None:
    papers = cli.json("list")
    assert len(papers) == 38
    first = papers[0]
    assert set(first) == {"key", "title", "provisional", "authors", "venue", "year",
                          "starred", "read_state", "tags"}
    assert first["venue"] == "ICML" and first["year"] == 2024
    assert first["provisional"] is True and first["read_state"] == "unread"


def test_list_marks_provisional_titles(cli: Cli) -> None:
    assert cli("list") == 0
    assert cli.out.count("(provisional title)") == 38
    assert cli.out.rstrip().endswith("38 papers")


def test_importing_again_adds_nothing(cli: Cli) -> None:
    assert cli("import", *map(str, SEED_FILES)) == 0
    assert "0 added, 19 already present, 0 failed" in cli.out
    assert "total: 0 added, 38 already present, 0 failed" in cli.out


def test_triage_commands_change_what_list_shows(cli: Cli) -> None:
    keys = keys_of(cli.json("list"))
    assert cli("star", keys[0], keys[1]) == 0
    assert cli("mark-read", keys[1], keys[2]) == 0
    assert cli("mark-reading", keys[3]) == 0
    assert keys_of(cli.json("list", "--starred")) == keys[:2]
    assert keys_of(cli.json("list", "--read")) == keys[1:3]
    assert len(cli.json("list", "--unread")) == 35
    assert keys_of(cli.json("list", "--starred", "--read")) == [keys[1]]
    assert cli("unstar", keys[0]) == 0
    assert cli("mark-unread", keys[1]) == 0
    assert keys_of(cli.json("list", "--starred")) == [keys[1]]
    assert keys_of(cli.json("list", "--read")) == [keys[2]]


def test_notes_and_tags(cli: Cli) -> None:
    key = keys_of(cli.json("list"))[4]
    assert cli("note", key, "Read **section 3** again") == 0
    assert cli("note", key) == 0 and cli.out == "Read **section 3** again\n"
    assert cli("note", key, "and the appendix", "--append") == 0
    assert cli("note", key) == 0 and "appendix" in cli.out and "section 3" in cli.out
    assert cli("tag", key, "to-cite", "rl") == 0
    assert [p["tags"] for p in cli.json("list", "--tag", "to-cite")] == [["rl", "to-cite"]]
    assert keys_of(cli.json("search", "appendix")) == [key]
    assert cli("untag", key, "rl") == 0
    assert keys_of(cli.json("list", "--tag", "rl")) == []


def test_note_says_which_notes_it_wrote_and_private_writes_the_members_own(
        cli: Cli, dialect: str) -> None:
    key = keys_of(cli.json("list"))[5]
    assert cli("note", key, "For the group") == 0
    if dialect == "sqlite":  # one user, one notes box
        assert cli.out == f"notes of {key} saved\n"
        assert cli("note", "--private", key, "mine") == 1 and cli.out == ""
        assert cli.err == ("papershelf: error: a library file has one user: its notes are "
                           "yours already (write them without --private)\n")
        return
    assert cli.out == f"shared notes of {key} saved (every member sees them; --private " \
                      "writes your own)\n"
    assert cli("note", "--private", key, "Only mine") == 0
    assert cli.out == f"private notes of {key} saved (only you see them)\n"
    assert cli("note", "--private", "--append", key, "and more") == 0
    assert cli("note", "--private", key) == 0 and cli.out == "Only mine\n\nand more\n"
    assert cli("note", key) == 0 and cli.out == "For the group\n"
    library = Library.open(cli.library)
    try:
        [pid] = library.ids_for_keys([key])[0]
        detail = library.paper(pid)
        assert detail is not None
        assert (detail.record.notes, detail.private_notes) == (
            "For the group", "Only mine\n\nand more")
    finally:
        library.close()


def test_search(cli: Cli) -> None:
    hits = cli.json("search", "HarmonyDream")
    assert len(hits) == 1 and "HarmonyDream" in str(hits[0]["title"])
    assert len(cli.json("search", "harmony*")) == 1
    assert cli.json("search", '"') == cli.json("list")
    assert cli("search", "AND(") == 0
    assert keys_of(cli.json("list", "--search", "quantization")) == keys_of(
        cli.json("search", "quantization"))


def test_search_reads_a_half_word_as_the_window_does_when_asked(cli: Cli) -> None:
    """`quant` is a word of its own to `search` (none in the sample), the start of a word
    with --prefix: the papers the window's field shows while `quant` is typed, and a
    search saved from there (`quant*`)."""
    assert cli.json("search", "quant") == []
    typed = keys_of(cli.json("search", "quant", "--prefix"))
    assert typed and typed == keys_of(cli.json("search", "quant*"))
    assert keys_of(cli.json("search", "quantization", "--prefix")) == keys_of(
        cli.json("search", "quantization*"))


def test_unknown_key_is_one_clear_line(cli: Cli) -> None:
    assert cli("star", "nosuchkey2099") == 1
    assert cli.err == "papershelf: error: no paper with the key nosuchkey2099 " \
                      "(see `papershelf list`)\n"


def test_export_to_a_file_round_trips(cli: Cli, tmp_path: Path) -> None:
    keys = keys_of(cli.json("list"))
    cli("star", *keys[:5])
    out = tmp_path / "refs.bib"
    assert cli("export", "--starred", "-o", str(out)) == 0
    assert "exported 5 papers" in cli.err
    parsed = bibtexparser.parse_string(out.read_text(encoding="utf-8"))
    assert not parsed.failed_blocks
    assert sorted(e.key for e in parsed.entries) == sorted(keys[:5])
    assert all(e.entry_type == "inproceedings" for e in parsed.entries)
    assert all("booktitle" in e.fields_dict and "abstract" in e.fields_dict
               for e in parsed.entries)


def test_export_selections(cli: Cli) -> None:
    keys = keys_of(cli.json("list"))
    assert cli("export", "--keys", f"{keys[3]},{keys[1]}") == 0
    entries = bibtexparser.parse_string(cli.out).entries
    assert [e.key for e in entries] == [keys[3], keys[1]]
    assert cli("export", "--all", "--no-abstract") == 0
    entries = bibtexparser.parse_string(cli.out).entries
    assert len(entries) == 38 and not any("abstract" in e.fields_dict for e in entries)
    cli("note", keys[0], "my private thought")
    assert cli("export", "--keys", keys[0]) == 0 and "my private thought" not in cli.out
    assert cli("export", "--keys", keys[0], "--notes") == 0 and "my private thought" in cli.out
    cli("tag", keys[2], "thesis")
    assert cli("export", "--tag", "thesis") == 0
    assert [e.key for e in bibtexparser.parse_string(cli.out).entries] == [keys[2]]
    assert cli("export", "--search", "HarmonyDream") == 0
    assert len(bibtexparser.parse_string(cli.out).entries) == 1
    assert cli("export", "--read") == 1 and cli.out == ""  # (nothing selected)


def test_export_of_unknown_keys_writes_nothing(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    assert cli("export", "--keys", "nope2024x", "-o", str(out)) == 1
    assert not out.exists()


def test_exported_sample_library_passes_real_bibtex(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    assert cli("export", "--all", "-o", str(out)) == 0
    keys = keys_of(cli.json("list"))
    (tmp_path / "doc.aux").write_text(
        "".join(f"\\citation{{{k}}}\n" for k in keys) + "\\bibdata{refs}\n\\bibstyle{plain}\n",
        encoding="utf-8")
    run = subprocess.run(["bibtex", "doc"], cwd=tmp_path, capture_output=True, text=True,
                         check=False)
    log = run.stdout + (tmp_path / "doc.blg").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, log
    assert "error message" not in log, log
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == 38


def test_import_reports_bad_files_and_keeps_good_ones(cli: Cli, tmp_path: Path) -> None:
    bad = tmp_path / "garbage.txt"
    bad.write_bytes(b"\xff\xfe\x00\x01binary\x00junk")
    good = tmp_path / "good.bib"
    good.write_text("@article{knuth1984literate,\n  author = {Knuth, Donald E.},\n"
                    "  title = {Literate Programming},\n  journal = {The Computer Journal},\n"
                    "  year = {1984}\n}\n", encoding="utf-8")
    assert cli("import", str(bad), str(good)) == 1
    assert str(bad) in cli.err and cli.err.count("\n") == 1
    assert "good.bib: 1 added, 0 already present, 0 failed" in cli.out
    assert keys_of(cli.json("search", "literate")) == ["knuth1984literate"]


def test_import_reports_each_failed_entry(cli: Cli, tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.bib"
    mixed.write_text("@article{ok1,\n  title = {Good One},\n  year = {2020}\n}\n\n"
                     "@article{broken,\n  title = {Broken\n\n"
                     "@article{ok2,\n  title = {Good Two},\n  year = {2021}\n}\n",
                     encoding="utf-8")
    assert cli("import", str(mixed)) == 0
    assert "failed" in cli.out and "mixed.bib:" in cli.out
    titles = {p["title"] for p in cli.json("list")}
    assert "Good One" in titles


def test_a_folder_as_library_is_a_clear_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--library", str(tmp_path), "info"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("papershelf: error:") and "folder" in err


def test_environment_variable_chooses_the_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PAPERSHELF_LIBRARY", str(seeded_file(tmp_path / "env.sqlite")))
    assert main(["info"]) == 0
    assert str(tmp_path / "env.sqlite") in capsys.readouterr().out


def test_installed_command_never_shows_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, PAPERSHELF_LIBRARY=str(seeded_file(tmp_path / "lib.sqlite")))
    run = subprocess.run([sys.executable, "-m", "papershelf", "note", "missing-key"],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("papershelf: error: no paper with the key missing-key")
    run = subprocess.run([sys.executable, "-m", "papershelf", "frobnicate"],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "frobnicate" in run.stderr


def test_duplicates_are_listed_and_merged(cli: Cli, tmp_path: Path) -> None:
    bib = tmp_path / "two.bib"
    bib.write_text("@article{a2020,\n  title = {Deep Nets},\n  year = {2020}\n}\n"
                   "@article{b2021,\n  title = {Something Else},\n  year = {2021}\n}\n",
                   encoding="utf-8")
    assert cli("import", str(bib)) == 0
    cli("star", "b2021")
    from papershelf.core.library import Library, View

    lib = Library.open(str(cli.library))
    try:
        (pid,) = lib.view_ids(View(search="something"))
        lib.set_title(pid, "Deep nets.")
    finally:
        lib.close()
    assert cli("duplicates") == 0
    assert "a2020  b2021  (same title)" in cli.out
    assert cli("merge", "a2020", "b2021") == 0
    assert keys_of(cli.json("list", "--starred")) == ["a2020"]
    assert cli("duplicates") == 0 and "0 suspected duplicates" in cli.out


def test_a_utf16_bibtex_file_is_recognised_by_its_contents(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "export-from-windows.txt"
    path.write_bytes("@article{zoe2020,\n  author = {Zoë Ångström},\n  title = {Über Graphen},"
                     "\n  year = {2020}\n}\n".encode("utf-16"))
    assert cli("import", str(path)) == 0
    assert "1 added" in cli.out
    (paper,) = cli.json("search", "graphen")
    assert paper["authors"] == ["Zoë Ångström"] and paper["title"] == "Über Graphen"


def test_key_pattern_regenerate_and_set_key(cli: Cli) -> None:
    assert cli("key-pattern") == 0 and cli.out == "[auth:lower][year][veryshorttitle:lower]\n"
    assert cli("key-pattern", "[venue:lower][year]") == 0
    assert cli("key-pattern", "[bogus]") == 1 and "invalid key pattern" in cli.err
    keys = keys_of(cli.json("list"))
    assert cli("regenerate-keys", keys[0], keys[1]) == 0
    assert cli.out == f"{keys[0]} -> icml2024\n{keys[1]} -> icml2024a\n"
    assert cli("set-key", "icml2024", "myers2024learning") == 0
    assert keys_of(cli.json("list"))[0] == "myers2024learning"
    assert cli("set-key", "icml2024a", "myers2024learning") == 1


def test_biblatex_export(cli: Cli) -> None:
    key = keys_of(cli.json("list"))[0]
    assert cli("export", "--keys", key, "--biblatex") == 0
    assert "date = {2024}" in cli.out and "year =" not in cli.out


def test_files_without_a_command_open_the_window_with_them(tmp_path: Path) -> None:
    from papershelf.cli.main import parse_arguments

    refs, more = tmp_path / "refs.bib", tmp_path / "more.txt"
    refs.write_text("", encoding="utf-8")
    more.write_text("", encoding="utf-8")
    parsed = parse_arguments(["--library", "l.sqlite", str(refs), str(more)])
    assert parsed.command is None and parsed.open_files == [str(refs), str(more)]
    assert parse_arguments(["list", "--starred"]).command == "list"
    assert parse_arguments([]).open_files == []


def test_export_format_is_named_csl_json_and_csljson_alike(cli: Cli) -> None:
    """The README writes csl-json, auto-export add takes it: export takes it too, and
    csljson, with the same output; an unknown format is one line naming the three."""
    assert cli("export", "--format", "csl-json") == 0, cli.err
    items = json.loads(cli.out)
    assert cli("export", "--format", "csljson") == 0 and json.loads(cli.out) == items
    assert len(items) == 38
    with pytest.raises(SystemExit):
        cli("export", "--format", "endnote")
    assert "use bibtex, ris or csl-json" in cli.capsys.readouterr().err


def test_new_help_does_not_offer_to_remove_fields(cli: Cli) -> None:
    with pytest.raises(SystemExit):
        cli("new", "--help")
    shown = " ".join(cli.capsys.readouterr().out.split())
    assert "FIELD=VALUE" in shown and "removes it" not in shown


def test_tag_names_with_spaces_are_quoted(cli: Cli) -> None:
    key = keys_of(cli.json("list"))[0]
    assert cli("tag", key, "to read", "ml") == 0
    assert cli.out == f'{key}: tags ml, "to read"\n'


def test_open_pdf_says_in_one_line_when_nothing_opens_it(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A desktop with no PDF viewer: `open KEY --pdf` said nothing, exited 0 and let
    xdg-open's 17 lines of complaints through. Now one line names the file, exit 1."""
    from tests.conftest import fake_opener  # (a failing xdg-open on the PATH)

    fake_opener(tmp_path, monkeypatch, status=3)
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    key = keys_of(cli.json("list"))[0]
    assert cli("attach", key, str(pdf), "--link") == 0, cli.err
    assert cli("open", key, "--pdf") == 1
    assert cli.out == "" and cli.err.count("\n") == 1
    assert str(pdf) in cli.err and "could not be opened" in cli.err


def test_tags_match_ignoring_case_as_the_search_language_does(cli: Cli) -> None:
    key = keys_of(cli.json("list"))[5]
    assert cli("tag", key, "To-Read") == 0
    assert keys_of(cli.json("search", "tag:To-Read")) == [key]
    for spelled in ("To-Read", "to-read", "TO-READ"):
        assert keys_of(cli.json("list", "--tag", spelled)) == [key]
        assert keys_of(cli.json("search", f"tag:{spelled}")) == [key]
        assert cli("export", "--tag", spelled) == 0 and f"{{{key}," in cli.out


def test_an_export_that_selects_nothing_writes_nothing(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    out.write_text("@misc{kept, title = {What was there}}\n", encoding="utf-8")
    key = keys_of(cli.json("list"))[0]
    for args, named in ((["--tag", "to_read"], "no paper matches --tag to_read;"),
                        (["--search", "zyzzyvaqq"], "no paper matches --search zyzzyvaqq;"),
                        (["--keys", key, "--read"], f"no paper matches --keys {key} --read;")):
        assert cli("export", *args, "-o", str(out)) == 1, args
        assert cli.err.count("\n") == 1 and named in cli.err, cli.err
        assert "nothing was written" in cli.err
        assert out.read_text(encoding="utf-8") == "@misc{kept, title = {What was there}}\n"
        assert cli("export", *args) == 1 and cli.out == ""  # (nor on standard output)


def test_a_missing_library_named_explicitly_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    mistyped = tmp_path / "no-such-folder" / "library.sqlite"
    for command in (["list"], ["info"], ["search", "x"], ["export", "--all"], ["tag", "k", "t"]):
        assert main(["--library", str(mistyped), *command]) == 1, command
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1
        assert captured.err.startswith(f"papershelf: error: {mistyped}: no such library")
    missing = tmp_path / "typo.sqlite"
    monkeypatch.setenv("PAPERSHELF_LIBRARY", str(missing))
    assert main(["list"]) == 1
    assert "no such library" in capsys.readouterr().err
    assert not mistyped.parent.exists() and not missing.exists()


def test_import_and_new_create_a_library_named_explicitly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bib = tmp_path / "one.bib"
    bib.write_text("@misc{one2020, title = {One}, year = 2020}\n", encoding="utf-8")
    assert main(["--library", str(tmp_path / "a.sqlite"), "import", str(bib)]) == 0
    assert main(["--library", str(tmp_path / "b.sqlite"), "new", "title=Two"]) == 0
    capsys.readouterr()
    assert main(["--library", str(tmp_path / "a.sqlite"), "list"]) == 0
    assert "one2020" in capsys.readouterr().out


def test_the_default_library_is_made_on_the_first_start(
        isolated_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("38 papers")
