"""PDFs attached to papers: attach (copy or link), detach, undo, the text in search, the
download of a record's PDF, the command line, the export's `file` field, and the schema.

Every library test runs on SQLite and on PostgreSQL. The PDFs are made with pypdf
(tests/test_pdf.py); the server is a local one on 127.0.0.1.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from pytest_httpserver import HTTPServer
from sqlalchemy import inspect, update

from papershelf.core import copying, db
from papershelf.core.library import Library, UserError, View
from papershelf.core.models import PaperFile
from papershelf.core.transfer import ExportOptions, export_papers
from papershelf.formats.bibtex import write_bibtex
from papershelf.formats.bibtex.writer import file_field
from papershelf.formats.records import Author, PaperRecord, ReadResult
from papershelf.metadata import attaching
from papershelf.metadata.http import HttpSettings, ServiceClient
from tests import services_support
from tests.conftest import SEEDS, run_cli
from tests.services_support import clients
from tests.test_pdf import make_pdf

server = services_support.server
httpserver = services_support.httpserver

BODY = "Zanzibar frobnication of quaternion widgets"
PDF = make_pdf(BODY)


@pytest.fixture
def seeded_paper(library: Library) -> int:
    """A paper of the sample library (whose fields say nothing of zanzibar)."""
    library.ensure_sample(SEEDS)
    return library.view_ids()[0]


def pdf_file(folder: Path, name: str = "paper.pdf", body: str = BODY) -> Path:
    """A one-page PDF showing `body`, written at `folder/name`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(make_pdf(body))
    return path


def read_texts(library: Library) -> list[str]:
    """Read the attached files' text for search, as the window's worker does."""
    _count, problems = attaching.index_texts(library)
    return problems


def found(library: Library, query: str, **view: object) -> list[int]:
    return library.view_ids(View(search=query, **view))  # type: ignore[arg-type]


def on_disk(folder: Path) -> list[str]:
    """Every file in a folder, hidden ones too (a temporary file left over would show)."""
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# -- attaching, detaching, undo --------------------------------------------------------------


def test_an_attached_pdf_is_copied_into_the_library_folder_and_undo_detaches_it(
        library: Library, seeded_paper: int, tmp_path: Path) -> None:
    source = pdf_file(tmp_path / "downloads")
    change = library.attach_file(seeded_paper, source)

    (attached,) = library.attachments(seeded_paper)
    assert change.description == "Attach paper.pdf" and change.ids == {seeded_paper}
    assert attached.kind == "copied" and attached.name == "paper.pdf"
    assert attached.location == library.files_folder / "paper.pdf"
    assert attached.location.read_bytes() == PDF and attached.size == len(PDF)
    assert source.exists()  # the user's own file stays where it was
    detail = library.paper(seeded_paper)
    assert detail is not None and [a.name for a in detail.files] == ["paper.pdf"]
    assert library.local_pdf(seeded_paper) == attached.location

    assert read_texts(library) == []
    assert found(library, "frobnication") == [seeded_paper]

    assert change.undo is not None
    redo = change.undo()
    assert library.attachments(seeded_paper) == []
    assert found(library, "frobnication") == []
    assert on_disk(library.files_folder) == ["paper.pdf"]  # detaching deletes no file
    assert redo.undo is not None
    redo.undo()
    (back,) = library.attachments(seeded_paper)
    assert back.indexed and found(library, "frobnication") == [seeded_paper]


def test_a_linked_pdf_stays_where_it_is(library: Library, seeded_paper: int,
                                        tmp_path: Path) -> None:
    source = pdf_file(tmp_path / "papers", "mine.pdf")
    library.attach_file(seeded_paper, source, link=True)

    (attached,) = library.attachments(seeded_paper)
    assert attached.kind == "linked" and attached.path == str(source.resolve())
    assert library.local_pdf(seeded_paper) == source.resolve()
    assert on_disk(library.files_folder) == []


def test_a_hostile_file_name_is_copied_under_a_plain_name_inside_the_folder(
        library: Library, seeded_paper: int, tmp_path: Path) -> None:
    hostile = pdf_file(tmp_path / "in", '..\\..\\evil:name?<>|"*.pdf')
    library.attach_file(seeded_paper, hostile)

    (attached,) = library.attachments(seeded_paper)
    assert attached.name == "evil name.pdf"
    assert on_disk(library.files_folder) == ["evil name.pdf"]
    anywhere = set(tmp_path.rglob("*evil*")) | set(library.files_folder.parent.rglob("*evil*"))
    assert anywhere == {hostile, library.files_folder / "evil name.pdf"}


def test_a_stored_path_leaving_the_folder_is_never_followed(
        library: Library, seeded_paper: int, tmp_path: Path) -> None:
    library.attach_file(seeded_paper, pdf_file(tmp_path / "in"))
    outside = pdf_file(tmp_path, "outside.pdf")
    with library.engine.begin() as conn:  # as a hostile member of a group could write it
        conn.execute(update(PaperFile).values(path=f"../{outside.name}"))

    (attached,) = library.attachments(seeded_paper)
    assert attached.location is None and not attached.present()
    assert library.local_pdf(seeded_paper) is None
    assert library.pending_texts() == []


def test_a_file_that_is_not_a_pdf_is_refused_with_one_line(
        library: Library, seeded_paper: int, tmp_path: Path) -> None:
    page = tmp_path / "login.pdf"
    page.write_text("<!DOCTYPE html><html><body>Please sign in</body></html>")

    with pytest.raises(UserError) as error:
        library.attach_file(seeded_paper, page)
    assert str(error.value) == (f"{page}: not a PDF (it does not start like one); "
                                "nothing attached")
    with pytest.raises(UserError, match="no such file"):
        library.attach_file(seeded_paper, tmp_path / "missing.pdf")
    with pytest.raises(UserError, match="not a file"):
        library.attach_file(seeded_paper, tmp_path)
    assert library.attachments(seeded_paper) == []
    assert on_disk(library.files_folder) == []


def test_the_same_file_twice_is_refused(library: Library, seeded_paper: int,
                                        tmp_path: Path) -> None:
    library.attach_file(seeded_paper, pdf_file(tmp_path / "a"))
    with pytest.raises(UserError, match=r"already has this file attached \(paper\.pdf\)"):
        library.attach_file(seeded_paper, pdf_file(tmp_path / "b", "copy.pdf"))
    assert on_disk(library.files_folder) == ["paper.pdf"]


def test_two_files_of_one_name_are_both_kept(library: Library, seeded_paper: int,
                                             tmp_path: Path) -> None:
    library.attach_file(seeded_paper, pdf_file(tmp_path / "a"))
    library.attach_file(seeded_paper, pdf_file(tmp_path / "b", body="Another text"))
    assert [a.name for a in library.attachments(seeded_paper)] == ["paper.pdf",
                                                                    "paper (2).pdf"]


# -- search ------------------------------------------------------------------------------


def test_a_phrase_from_the_pdf_body_finds_the_paper(library: Library, seeded_paper: int,
                                                    tmp_path: Path) -> None:
    detail = library.paper(seeded_paper)
    assert detail is not None
    title_word = detail.record.title.split()[0]
    library.attach_file(seeded_paper, pdf_file(tmp_path))
    assert found(library, "frobnication") == []  # (not read yet)
    read_texts(library)

    for query in ("frobnication", '"quaternion widgets"', "frobnic*", "ZANZIBAR",
                  f"{title_word} quaternion", f'"frobnication of" {title_word}'):
        assert found(library, query) == [seeded_paper], query
        assert found(library, query, sort="title") == [seeded_paper], query
        assert library.view_ids(View(search=query), limit=5) == [seeded_paper], query
        assert library.count(View(search=query)) == 1, query
    for query in ('"widgets quaternion"', "frobnication nonexistentword", "zanzi"):
        assert found(library, query) == [], query
    assert found(library, "frobnication", filter="starred") == []


def test_deleting_a_paper_keeps_its_file_and_undo_brings_the_attachment_back(
        library: Library, seeded_paper: int, tmp_path: Path) -> None:
    library.attach_file(seeded_paper, pdf_file(tmp_path))
    read_texts(library)

    change = library.delete_papers([seeded_paper])
    assert found(library, "frobnication") == []
    assert on_disk(library.files_folder) == ["paper.pdf"]
    assert change.undo is not None
    change.undo()
    (attached,) = library.attachments(seeded_paper)
    assert attached.indexed and found(library, "frobnication") == [seeded_paper]


def test_merging_keeps_both_papers_files_and_undo_puts_them_back(
        library: Library, tmp_path: Path) -> None:
    report = library.import_result(ReadResult(records=[
        PaperRecord(key=key, title="Same Title", authors=[Author("Lovelace", "Ada")])
        for key in ("a", "b")]), "t.bib", "bibtex")
    keep, other = report.added_ids
    library.attach_file(keep, pdf_file(tmp_path / "1", "one.pdf", "first"))
    library.attach_file(other, pdf_file(tmp_path / "2", "two.pdf", "second"))

    change = library.merge_papers(keep, other)
    assert [a.name for a in library.attachments(keep)] == ["one.pdf", "two.pdf"]
    assert change.undo is not None
    change.undo()
    assert [a.name for a in library.attachments(keep)] == ["one.pdf"]
    assert [a.name for a in library.attachments(other)] == ["two.pdf"]


def test_a_damaged_pdf_is_attached_and_its_text_problem_said_once(
        library: Library, seeded_paper: int, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nthis is not a PDF body at all")
    library.attach_file(seeded_paper, broken)

    (problem,) = read_texts(library)
    assert problem.startswith("PDF: broken.pdf is damaged") and "\n" not in problem
    (attached,) = library.attachments(seeded_paper)
    assert attached.indexed and read_texts(library) == []  # (not tried again)


# -- downloading a record's PDF --------------------------------------------------------------


@pytest.fixture
def connect() -> Iterator[Callable[..., ServiceClient]]:
    """`connect(**settings)`: a client with no cache, no spacing and no real waiting."""
    with clients(HttpSettings(use_cache=False, offline=False, trust_env=False,
                              spacing={"web": 0.0}, sleep=lambda seconds: None)) as make:
        yield make


def paper_with_pdf(library: Library, url: str, key: str = "adepu2024framequant") -> int:
    """A paper whose record names a PDF at `url`: FrameQuant, or (another `key`) a paper
    of that title."""
    title = ("FrameQuant: Flexible Low-Bit Quantization for Transformers"
             if key == "adepu2024framequant" else key.capitalize())
    record = PaperRecord(key=key, title=title, year=2024,
                         authors=[Author("Adepu", "Harshavardhan")], url=url)
    return library.import_result(ReadResult(records=[record]), "t", "bibtex").added_ids[0]


def test_the_pdf_a_record_names_is_downloaded_and_attached(
        library: Library, httpserver: HTTPServer,
        connect: Callable[..., ServiceClient]) -> None:
    httpserver.expect_request("/v235/adepu24a.pdf").respond_with_data(
        PDF, content_type="application/pdf")
    pid = paper_with_pdf(library, httpserver.url_for("/v235/adepu24a.pdf"))

    fetched = attaching.download_all(library, [pid], connect())
    change, refused = attaching.attach_fetched(library, fetched)

    assert refused == [] and change.ids == {pid}
    (attached,) = library.attachments(pid)
    name = "Adepu 2024 - FrameQuant Flexible Low-Bit Quantization for Transformers.pdf"
    assert attached.name == name and on_disk(library.files_folder) == [name]
    read_texts(library)
    assert found(library, '"quaternion widgets"') == [pid]


@pytest.mark.parametrize(("answer", "problem"), [
    ("html", "not a PDF (the server sent an HTML page)"),
    ("big", "answer too big (over 2 KB)"),
    ("missing", "not found"),
])
def test_a_bad_answer_is_one_line_and_attaches_nothing(
        library: Library, httpserver: HTTPServer, connect: Callable[..., ServiceClient],
        answer: str, problem: str) -> None:
    if answer == "html":
        httpserver.expect_request("/p.pdf").respond_with_data(
            "<html><body>Please sign in</body></html>", content_type="text/html")
    elif answer == "big":
        httpserver.expect_request("/p.pdf").respond_with_data(PDF + b"%" * 4096)
    else:
        httpserver.expect_request("/p.pdf").respond_with_data("no", status=404)
    pid = paper_with_pdf(library, httpserver.url_for("/p.pdf"))

    item = attaching.download(library, pid, connect(), max_bytes=2048)

    assert item.path is None and item.error == f"adepu2024framequant: download: {problem}"
    assert library.attachments(pid) == [] and on_disk(library.files_folder) == []


def test_offline_mode_downloads_nothing(library: Library, httpserver: HTTPServer,
                                        connect: Callable[..., ServiceClient]) -> None:
    pid = paper_with_pdf(library, httpserver.url_for("/p.pdf"))
    (item,) = attaching.download_all(library, [pid], connect(offline=True))
    assert item.error.startswith("adepu2024framequant: ") and "offline mode is on" in item.error
    assert httpserver.log == [] and on_disk(library.files_folder) == []


def test_a_paper_naming_no_pdf_says_so(library: Library, seeded_paper: int,
                                       connect: Callable[..., ServiceClient]) -> None:
    item = attaching.download(library, seeded_paper, connect())
    assert item.path is None and "no PDF address is known" in item.error


# -- the command line ------------------------------------------------------------------------


@pytest.fixture
def target(library_target: str, library: Library) -> str:
    """The test's library (with the sample papers) for `papershelf --library`."""
    library.ensure_sample(SEEDS)
    return library_target


def first_key(library: Library) -> str:
    return library.rows(library.view_ids()[:1]).popitem()[1].key


def test_cli_attach_files_detach(target: str, library: Library, tmp_path: Path) -> None:
    key = first_key(library)
    source = pdf_file(tmp_path / "in")

    status, out, err = run_cli("attach", key, str(source), "--library", target)
    assert (status, err) == (0, "")
    assert out == (f"attached paper.pdf to {key} (copied into {library.files_folder})\n"
                   "  text of 1 file read: search finds it\n")
    status, out, _ = run_cli("search", "frobnication", "--library", target)
    assert status == 0 and key in out and out.endswith("1 paper\n")
    status, out, _ = run_cli("files", key, "--library", target)
    assert out.startswith("1. paper.pdf  0.0 MB  copied  searchable  ")
    assert out.endswith("1 attached file\n")
    status, out, _ = run_cli("open", key, "--pdf", "--print", "--library", target)
    assert out == f"{library.files_folder / 'paper.pdf'}\n"
    status, out, _ = run_cli("info", "--library", target)
    assert "Attached files: 1" in out

    status, out, err = run_cli("detach", key, "paper.pdf", "--library", target)
    assert status == 0 and out.startswith(f"detached paper.pdf from {key} (the file stays")
    assert library.attachments(library.ids_for_keys([key])[0][0]) == []
    assert on_disk(library.files_folder) == ["paper.pdf"]


def test_cli_attach_errors_are_one_line_and_write_nothing(target: str, library: Library,
                                                          tmp_path: Path) -> None:
    key = first_key(library)
    page = tmp_path / "page.pdf"
    page.write_text("<html></html>")
    for args, message in (
        (("attach", key, str(page)), f"{page}: not a PDF (it does not start like one); "
                                     "nothing attached"),
        (("attach", key, str(tmp_path / "nope.pdf")), f"{tmp_path / 'nope.pdf'}: no such file"),
        (("attach", "nokey", str(page)), "no paper with the key nokey (see `papershelf list`)"),
        (("detach", key), f"{key} has no attached files"),
    ):
        status, out, err = run_cli(*args, "--library", target)
        assert (status, out, err) == (1, "", f"papershelf: error: {message}\n"), args
    run_cli("attach", key, str(pdf_file(tmp_path / "in")), "--library", target)
    status, _, err = run_cli("detach", key, "other.pdf", "--library", target)
    assert status == 1 and err == (f"papershelf: error: {key} has no attached file "
                                   "'other.pdf' (it has: paper.pdf)\n")
    assert on_disk(library.files_folder) == ["paper.pdf"]


def test_cli_download_pdf(target: str, library: Library, httpserver: HTTPServer,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
    httpserver.expect_request("/good.pdf").respond_with_data(PDF,
                                                             content_type="application/pdf")
    httpserver.expect_request("/bad.pdf").respond_with_data("<html></html>",
                                                            content_type="text/html")
    good = paper_with_pdf(library, httpserver.url_for("/good.pdf"))
    library.set_key(good, "good")
    bad = paper_with_pdf(library, httpserver.url_for("/bad.pdf"), "bad")

    status, out, err = run_cli("download-pdf", "good", "bad", "--library", target)

    assert status == 1
    assert err == "papershelf: error: bad: download: not a PDF (the server sent an HTML " \
                  "page)\n"
    assert re.match(r"good: downloaded Adepu 2024 - FrameQuant .*\.pdf \(0\.0 MB\)\n"
                    r"  text of 1 file read: search finds it\n$", out)
    assert [len(library.attachments(pid)) for pid in (good, bad)] == [1, 0]

    status, out, err = run_cli("download-pdf", "bad", "--offline", "--library", target)
    assert status == 1 and "offline mode is on" in err and out == ""


# -- export ----------------------------------------------------------------------------------


def test_file_field_forms() -> None:
    paths = ["/home/a/x.pdf", r"C:\Users\b\y;z.pdf", "/p/odd{.pdf", "/p/a:b.pdf"]
    assert file_field(paths, "bibtex") == (
        r":/home/a/x.pdf:PDF;:C\:\\Users\\b\\y\;z.pdf:PDF;:/p/a\:b.pdf:PDF")
    assert file_field(paths, "biblatex") == r"/home/a/x.pdf;C:\\Users\\b\\y\;z.pdf;/p/a:b.pdf"
    assert file_field(["/p/odd{.pdf"], "bibtex") is None


def test_export_writes_the_attached_files_when_asked(library: Library, seeded_paper: int,
                                                     library_target: str,
                                                     tmp_path: Path) -> None:
    library.attach_file(seeded_paper, pdf_file(tmp_path))
    path = library.files_folder / "paper.pdf"

    assert "file =" not in export_papers(library, [seeded_paper]).text
    bibtex = export_papers(library, [seeded_paper], ExportOptions(include_files=True)).text
    assert f"  file = {{:{path}:PDF}}" in bibtex
    biblatex = export_papers(library, [seeded_paper],
                             ExportOptions(include_files=True, flavour="biblatex")).text
    assert f"  file = {{{path}}}" in biblatex
    status, out, _ = run_cli("export", "--files", "--library", library_target)
    assert status == 0 and f"file = {{:{path}:PDF}}" in out


def test_classic_export_names_the_arxiv_preprint_as_arxiv_does() -> None:
    added = PaperRecord(key="k", title="T", url="https://arxiv.org/abs/2403.06082v2")
    imported = PaperRecord(key="i", title="T", url="https://arxiv.org/abs/2403.06082",
                           raw={"title": "T", "url": "https://arxiv.org/abs/2403.06082"})
    text = write_bibtex([added, imported])
    assert "eprint = {2403.06082v2},\n  archiveprefix = {arXiv}" in text
    assert text.count("eprint") == 1  # an imported entry is written back as it was


# -- the schema ------------------------------------------------------------------------------


def _migrate(library: Library, revision: str, *, down: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS_DIR))
    with library.engine.begin() as conn:
        config.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(config, revision)


def test_the_schema_goes_down_to_0007_and_up_again(library_target: str, tmp_path: Path
                                                    ) -> None:
    library = Library.open(library_target)
    try:
        library.ensure_sample(SEEDS)
        pid = library.view_ids()[0]
        library.attach_file(pid, pdf_file(tmp_path))
        read_texts(library)
        _migrate(library, "0007", down=True)
        with library.engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
        assert "paper_files" not in tables and "file_fts" not in tables
        _migrate(library, "head", down=False)
        assert library.attachments(pid) == [] and found(library, "learning")
        library.attach_file(pid, tmp_path / "paper.pdf")
        read_texts(library)
        assert found(library, "frobnication") == [pid]
    finally:
        library.close()


@pytest.mark.sqlite_only  # (a file copied onto the server and back)
def test_a_copied_library_keeps_its_attachments_and_their_text(
        library: Library, seeded_paper: int, tmp_path: Path, pg_url: str) -> None:
    library.attach_file(seeded_paper, pdf_file(tmp_path / "in"))
    read_texts(library)

    copying.copy_library(library.location, pg_url)
    back = tmp_path / "back" / "library.sqlite"
    back.parent.mkdir()
    copying.copy_library(pg_url, str(back))

    for target in (pg_url, str(back)):
        copy = Library.open(target)
        try:
            (attached,) = copy.attachments(seeded_paper)
            assert attached.name == "paper.pdf" and attached.indexed
            assert found(copy, '"quaternion widgets"') == [seeded_paper], target
        finally:
            copy.close()
