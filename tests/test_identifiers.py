"""Reading what a user pastes to add a paper, and the links a record names for reading it."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from papershelf.formats.bibtex import parse_bibtex, read_bibtex
from papershelf.formats.records import PaperRecord
from papershelf.metadata.catalog import read_catalog
from papershelf.metadata.identifiers import (
    Identifier,
    best_page,
    best_pdf,
    links,
    parse_identifier,
    parse_many,
)
from tests.conftest import SHARED_DATA

PMLR_SEEDS = SHARED_DATA / "icml2024-pmlr-seeds.bib"
CATALOG = SHARED_DATA / "icml2024-paperlists.json"

DOI = Identifier("doi", "10.1145/3368089.3409741")
ARXIV = Identifier("arxiv", "2402.01234")
ARXIV_V2 = Identifier("arxiv", "2402.01234v2")
OPENREVIEW = Identifier("openreview", "01M0N8VgfB")
PMLR = Identifier("pmlr", "v235/scott24a")
ACL = Identifier("acl", "2023.acl-long.1")
DBLP = Identifier("dblp", "conf/icml/ScottC24")

ACCEPTED = [
    # DOIs: bare, prefixed, resolver links, percent-encoded, upper case.
    ("10.1145/3368089.3409741", DOI),
    ("doi:10.1145/3368089.3409741", DOI),
    ("DOI: 10.1145/3368089.3409741", DOI),
    ("https://doi.org/10.1145/3368089.3409741", DOI),
    ("http://dx.doi.org/10.1145/3368089.3409741", DOI),
    ("doi.org/10.1145/3368089.3409741", DOI),
    ("https://doi.org/10.1145%2F3368089.3409741", DOI),
    ("https://doi.org/10.1145/3368089.3409741?utm_source=twitter", DOI),
    ("10.1145/3368089.3409741.", DOI),
    ("<https://doi.org/10.1145/3368089.3409741>", DOI),
    ("10.1000/ABC.Def", Identifier("doi", "10.1000/abc.def")),
    ("https://doi.org/10.1002/(SICI)1097-4636(199812)43:4<443::AID-JBM13>3.0.CO;2-K",
     Identifier("doi", "10.1002/(sici)1097-4636(199812)43:4<443::aid-jbm13>3.0.co;2-k")),
    ("https://dl.acm.org/doi/pdf/10.1145/3368089.3409741", DOI),
    # arXiv: new style, versions, prefixes, old style, links of every shape.
    ("2402.01234", ARXIV),
    ("2402.01234v2", ARXIV_V2),
    ("arXiv:2402.01234v2", ARXIV_V2),
    ("arxiv: 2402.01234", ARXIV),
    ("arXiv:2402.01234v2.", ARXIV_V2),
    ("0704.0001", Identifier("arxiv", "0704.0001")),
    ("hep-th/9901001", Identifier("arxiv", "hep-th/9901001")),
    ("math.GT/0309136", Identifier("arxiv", "math.GT/0309136")),
    ("arXiv:math.GT/0309136v1", Identifier("arxiv", "math.GT/0309136v1")),
    ("https://arxiv.org/abs/2402.01234", ARXIV),
    ("https://arxiv.org/abs/2402.01234v2", ARXIV_V2),
    ("https://arxiv.org/pdf/2402.01234", ARXIV),
    ("https://arxiv.org/pdf/2402.01234v2.pdf", ARXIV_V2),
    ("http://export.arxiv.org/abs/2402.01234", ARXIV),
    ("arxiv.org/abs/hep-th/9901001", Identifier("arxiv", "hep-th/9901001")),
    ("https://www.arxiv.org/abs/2402.01234?context=cs", ARXIV),
    ("https://doi.org/10.48550/arXiv.2402.01234", ARXIV),
    ("10.48550/arXiv.2402.01234", ARXIV),
    # OpenReview forum and PDF links.
    ("https://openreview.net/forum?id=01M0N8VgfB", OPENREVIEW),
    ("https://openreview.net/pdf?id=01M0N8VgfB", OPENREVIEW),
    ("https://openreview.net/forum?id=01M0N8VgfB&noteId=XyZ12abCDe", OPENREVIEW),
    ("openreview.net/forum?id=01M0N8VgfB&referrer=%5BAuthor%20Console%5D", OPENREVIEW),
    # PMLR pages and PDFs (also the PDF link PMLR's own listings give).
    ("https://proceedings.mlr.press/v235/scott24a.html", PMLR),
    ("https://proceedings.mlr.press/v235/scott24a/scott24a.pdf", PMLR),
    ("http://proceedings.mlr.press/v235/scott24a.html", PMLR),
    ("https://raw.githubusercontent.com/mlresearch/v235/main/assets/scott24a/scott24a.pdf",
     PMLR),
    ("pmlr-v235-scott24a", PMLR),
    # ACL Anthology ids and links.
    ("2023.acl-long.1", ACL),
    ("P19-1001", Identifier("acl", "P19-1001")),
    ("https://aclanthology.org/2023.acl-long.1/", ACL),
    ("https://aclanthology.org/2023.acl-long.1.pdf", ACL),
    ("https://aclanthology.org/P19-1001.pdf", Identifier("acl", "P19-1001")),
    ("https://www.aclweb.org/anthology/P19-1001", Identifier("acl", "P19-1001")),
    # DBLP record links and keys.
    ("https://dblp.org/rec/conf/icml/ScottC24", DBLP),
    ("https://dblp.org/rec/conf/icml/ScottC24.html", DBLP),
    ("https://dblp.org/rec/conf/icml/ScottC24.bib", DBLP),
    ("https://dblp.org/rec/conf/icml/ScottC24.xml", DBLP),
    ("https://dblp.uni-trier.de/rec/conf/icml/ScottC24.html", DBLP),
    ("https://dblp.org/rec/conf/icml/ScottC24.html?view=bibtex", DBLP),
    ("DBLP:conf/icml/ScottC24", DBLP),
    # Anything else is a title, spaces collapsed.
    ("Attention Is All You Need", Identifier("title", "Attention Is All You Need")),
    ("  Attention   Is\tAll You\n Need ", Identifier("title", "Attention Is All You Need")),
    ("Do Efficient Transformers Really Save Computation?",
     Identifier("title", "Do Efficient Transformers Really Save Computation?")),
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTED, ids=[t for t, _ in ACCEPTED])
def test_every_accepted_form_reads_as_its_identifier(text: str, expected: Identifier) -> None:
    assert parse_identifier(text) == expected


NEAR_MISSES = [
    # A DOI inside a sentence or a reference is what the user meant.
    ("See 10.1145/3368089.3409741 for the details.", DOI),
    ("Scott, J. (2024). A paper. In Proc. ICML (doi:10.1145/3368089.3409741).", DOI),
    ("Published as https://doi.org/10.1145/3368089.3409741, and on arXiv.", DOI),
    ("Vaswani et al. Attention is all you need. arXiv preprint arXiv:1706.03762, 2017.",
     Identifier("arxiv", "1706.03762")),
    ("arXiv:2402.01234v2 [cs.LG]", ARXIV_V2),
    # Tracking parameters and trailing punctuation from the paste are dropped.
    ("https://arxiv.org/abs/2402.01234v2?utm_source=twitter&utm_medium=social", ARXIV_V2),
    ("https://openreview.net/forum?id=01M0N8VgfB&utm_campaign=x", OPENREVIEW),
    ("https://proceedings.mlr.press/v235/scott24a.html?fbclid=abc", PMLR),
    ("(https://arxiv.org/abs/2402.01234).", ARXIV),
    ("10.1002/abc(12)).", Identifier("doi", "10.1002/abc(12)")),
    # Numbers that only look like identifiers are titles: no slash, month 13, month 24.
    ("10.1145", Identifier("title", "10.1145")),
    ("2413.01234", Identifier("title", "2413.01234")),
    ("2024.12345", Identifier("title", "2024.12345")),
    # A title that mentions arXiv but names no id; quotes and a final period go.
    ("Why arXiv matters", Identifier("title", "Why arXiv matters")),
    ("“Attention is all you need.”", Identifier("title", "Attention is all you need")),
]


@pytest.mark.parametrize(("text", "expected"), NEAR_MISSES, ids=[t for t, _ in NEAR_MISSES])
def test_near_misses_read_as_the_user_meant(text: str, expected: Identifier) -> None:
    assert parse_identifier(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_text_is_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(ValueError, match="Nothing to look up"):
        parse_identifier(text)


@pytest.mark.parametrize("text", [
    "https://example.com/some/page",
    "https://arxiv.org/list/cs.LG/recent",
    "https://openreview.net/group?id=ICML.cc/2024/Conference",
])
def test_a_link_that_names_no_paper_is_refused_not_searched_as_a_title(text: str) -> None:
    with pytest.raises(ValueError, match="not a link Papershelf can read"):
        parse_identifier(text)


def test_parse_many_reads_one_identifier_per_line_and_skips_blank_lines() -> None:
    pasted = "10.1145/3368089.3409741\n\n  arXiv:2402.01234v2.\r\nAttention Is All You Need\n"
    assert parse_many(pasted) == [DOI, ARXIV_V2,
                                  Identifier("title", "Attention Is All You Need")]


def test_parse_many_names_the_line_it_cannot_read() -> None:
    with pytest.raises(ValueError) as raised:
        parse_many("2402.01234\n\nhttps://example.com/x\n")
    assert str(raised.value).startswith("Line 3: https://example.com/x is not a link")


# --- links ---------------------------------------------------------------------------


def _bib(source: str) -> PaperRecord:
    """The one record of a BibTeX snippet."""
    result = parse_bibtex(source, "test.bib")
    assert not result.problems
    return result.records[0]


def _only_web_links(found: dict[str, str]) -> None:
    for url in found.values():
        parts = urlsplit(url)
        assert parts.scheme in ("http", "https") and parts.hostname, url


def test_links_of_the_real_pmlr_entries_name_the_proceedings_and_openreview() -> None:
    records = read_bibtex(PMLR_SEEDS).records
    assert len(records) == 38
    for record in records:
        key, forum = record.key, record.raw["openreview"]
        found = links(record)
        assert found["pmlr"] == f"https://proceedings.mlr.press/v235/{key}.html"
        assert found["pmlr_pdf"] == f"https://proceedings.mlr.press/v235/{key}/{key}.pdf"
        assert found["openreview"] == f"https://openreview.net/forum?id={forum}"
        assert found["openreview_pdf"] == f"https://openreview.net/pdf?id={forum}"
        assert best_page(record) == found["pmlr"] == found["page"]
        assert best_pdf(record) == found["pmlr_pdf"] == found["pdf"]
        _only_web_links(found)


def test_links_of_a_pmlr_download_with_its_own_url_and_pdf_fields() -> None:
    bib = r"""@InProceedings{pmlr-v235-scott24a,
  title = {Improved Modelling of Federated Datasets},
  author = {Scott, Jonathan and Cahill, {\'A}ine},
  booktitle = {Proceedings of the 41st International Conference on Machine Learning},
  year = {2024}, volume = {235}, publisher = {PMLR},
  pdf = {https://raw.githubusercontent.com/mlresearch/v235/main/assets/scott24a/scott24a.pdf},
  url = {https://proceedings.mlr.press/v235/scott24a.html}}"""
    record = _bib(bib)
    assert best_page(record) == "https://proceedings.mlr.press/v235/scott24a.html"
    assert best_pdf(record) == "https://proceedings.mlr.press/v235/scott24a/scott24a.pdf"


def test_a_key_shaped_like_a_pmlr_id_is_not_pmlr_without_a_pmlr_venue() -> None:
    record = PaperRecord(key="smith24a", title="T", year=2024, volume="12",
                         venue="Journal of Things")
    assert "pmlr" not in links(record)


def test_links_of_catalog_entries() -> None:
    record = read_catalog(CATALOG)[0]
    found = links(record)
    assert found["page"] == "https://proceedings.mlr.press/v235/scott24a.html"
    assert found["pdf"] == "https://proceedings.mlr.press/v235/scott24a/scott24a.pdf"
    assert found["openreview"] == "https://openreview.net/forum?id=01M0N8VgfB"


def test_links_of_an_arxiv_preprint_from_its_eprint_fields() -> None:
    bib = """@misc{v, title = {Attention Is All You Need}, eprint = {1706.03762v7},
      archiveprefix = {arXiv}, primaryclass = {cs.CL}}"""
    record = _bib(bib)
    assert links(record) == {
        "arxiv": "https://arxiv.org/abs/1706.03762v7",
        "arxiv_pdf": "https://arxiv.org/pdf/1706.03762v7",
        "page": "https://arxiv.org/abs/1706.03762v7",
        "pdf": "https://arxiv.org/pdf/1706.03762v7",
    }


def test_a_doi_gives_the_page_and_an_arxiv_doi_the_arxiv_links() -> None:
    journal = PaperRecord(title="T", doi="10.1145/3368089.3409741",
                          url="https://example.org/paper/17")
    found = links(journal)
    assert found["doi"] == "https://doi.org/10.1145/3368089.3409741"
    assert found["url"] == "https://example.org/paper/17"
    assert best_page(journal) == found["doi"]
    assert best_pdf(journal) is None
    preprint = PaperRecord(title="T", doi="https://doi.org/10.48550/arXiv.2402.01234")
    assert best_page(preprint) == "https://arxiv.org/abs/2402.01234"
    assert best_pdf(preprint) == "https://arxiv.org/pdf/2402.01234"


def test_a_doi_with_characters_unsafe_in_a_url_is_escaped() -> None:
    record = PaperRecord(title="T", doi="10.1002/(SICI)1097-4636(199812)43:4<443::AID>3.0.CO;2-K")
    page = best_page(record)
    assert page == ("https://doi.org/10.1002/(sici)1097-4636(199812)43:4%3C443::aid%3E3.0.co;2-k")


def test_the_record_own_pdf_link_is_preferred_and_latex_markup_is_read() -> None:
    bib = r"""@article{a, title = {T}, journal = {J}, year = 2020,
      url = {\url{https://example.org/papers/a\_b.pdf}}, eprint = {2402.01234},
      archiveprefix = {arXiv}}"""
    record = _bib(bib)
    found = links(record)
    assert found["pdf"] == "https://example.org/papers/a_b.pdf"
    assert found["page"] == "https://arxiv.org/abs/2402.01234"


def test_only_web_links_come_out() -> None:
    record = PaperRecord(title="T", url="javascript:alert(1)",
                         raw={"pdf": "file:///home/me/paper.pdf", "url": "ftp://x.org/a.pdf",
                              "openreview": "not an id!"})
    assert links(record) == {}
    assert best_page(record) is None and best_pdf(record) is None


def test_a_dblp_key_or_biburl_gives_the_dblp_page() -> None:
    bib = """@inproceedings{DBLP:conf/icml/ScottC24, title = {T}, booktitle = {ICML},
      year = {2024}, biburl = {https://dblp.org/rec/conf/icml/ScottC24.bib}}"""
    record = _bib(bib)
    assert links(record)["dblp"] == "https://dblp.org/rec/conf/icml/ScottC24.html"
    assert best_page(record) == "https://dblp.org/rec/conf/icml/ScottC24.html"


def test_links_never_fetch(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("identifiers must not touch the network")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert parse_identifier("https://doi.org/10.1145/3368089.3409741") == DOI
    assert best_page(PaperRecord(title="T", doi=DOI.value))

