"""`papershelf add`, `open` and `catalog` against a local server playing the services.

The arXiv API is a pytest-httpserver on 127.0.0.1 answering with the documented Atom
shape (tests/data/services); no test reaches the internet.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from tests.conftest import SEEDS, SHARED_DATA, seeded_file
from tests.conftest import run_cli as run
from tests.services_support import DATA, local_server

CATALOG = SHARED_DATA / "icml2024-paperlists.json"


@pytest.fixture
def services(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[HTTPServer]:
    with local_server() as server:
        root = server.url_for("/").rstrip("/")
        for name in ("CROSSREF", "ARXIV", "OPENREVIEW", "DBLP", "OPENALEX", "S2", "PMLR",
                     "ACL"):
            monkeypatch.setenv(f"PAPERSHELF_{name}_URL", root)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.delenv("PAPERSHELF_OFFLINE", raising=False)
        yield server


def test_add_by_arxiv_link_then_again(services: HTTPServer, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERSHELF_SEEDS", "")
    lib = ["--library", str(tmp_path / "lib.sqlite")]
    services.expect_request("/api/query").respond_with_data(
        (DATA / "arxiv" / "query-2403.06082.xml").read_text(encoding="utf-8"),
        content_type="application/atom+xml")
    status, out, err = run("add", *lib, "https://arxiv.org/abs/2403.06082v2")
    assert status == 0, err
    assert out.startswith("2403.06082v2: added as adepu2024framequant")
    status, out, _ = run("list", *lib, "--json")
    assert '"title": "FrameQuant: Flexible Low-Bit Quantization for Transformers"' in out
    # The same paper again, by its arXiv DOI: nothing added.
    status, out, _ = run("add", *lib, "doi:10.48550/arXiv.2403.06082")
    assert status == 0 and out.strip().endswith("already had it")
    # And by the first link once more: answered from the cache, no request.
    assert run("add", *lib, "https://arxiv.org/abs/2403.06082v2")[0] == 0
    assert len(services.log) == 2
    status, out, _ = run("open", *lib, "adepu2024framequant", "--pdf", "--print")
    assert status == 0 and out.strip().startswith("http") and "2403.06082" in out


def test_add_reports_each_failure_and_goes_on(services: HTTPServer, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERSHELF_SEEDS", str(SEEDS))
    lib = ["--library", str(tmp_path / "lib.sqlite")]
    services.expect_request("/api/query").respond_with_data(
        (DATA / "arxiv" / "query-2403.06082.xml").read_text(encoding="utf-8"),
        content_type="application/atom+xml")
    services.expect_request("/works/10.9999/nowhere").respond_with_data("", status=404)
    status, out, err = run("add", *lib, "10.9999/nowhere", "arXiv:2403.06082")
    assert status == 1
    assert err.count("\n") == 1 and "10.9999/nowhere" in err and "Traceback" not in err
    # The sample library holds FrameQuant with a provisional title: completed, not added.
    assert "2403.06082: already had it: completed icml2024framequant" in out
    status, out, _ = run("list", *lib)
    assert out.strip().endswith("38 papers")
    assert "FrameQuant: Flexible Low-Bit Quantization for Transformers" in out


def test_offline_add_asks_nobody(services: HTTPServer, tmp_path: Path) -> None:
    status, _, err = run("add", "--library", str(tmp_path / "lib.sqlite"), "--offline",
                         "arXiv:2403.06082")
    assert status == 1 and "offline" in err.lower()
    assert services.log == []


def test_catalogs_are_added_listed_and_removed(tmp_path: Path) -> None:
    lib = ["--library", str(seeded_file(tmp_path / "lib.sqlite"))]
    status, out, err = run("catalog", *lib, "add", str(CATALOG))
    assert status == 0, err
    assert "2610 papers" in out or "papers, ICML 2024" in out
    status, out, _ = run("catalog", *lib, "list")
    assert out.strip().endswith("1 catalog")
    name = out.split()[0]
    assert run("catalog", *lib, "remove", name)[0] == 0
    status, _, err = run("catalog", *lib, "remove", name)
    assert status == 1 and "no catalog named" in err
