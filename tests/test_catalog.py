"""Offline conference catalogs: reading them, keeping them, and finding a provisional
paper's real entry in them (`metadata.catalog` and `metadata.matching`)."""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from papershelf.core.ingest import normalize_text
from papershelf.formats.abstracts import read_abstract_list
from papershelf.formats.bibtex import read_bibtex
from papershelf.formats.records import Author, FormatError, PaperRecord
from papershelf.metadata.catalog import MANIFEST, CatalogStore, read_catalog, split_author
from papershelf.metadata.matching import Candidate, confident, rank
from tests.conftest import SEED_FILES, SHARED_DATA

CATALOG = SHARED_DATA / "icml2024-paperlists.json"
PMLR_SEEDS = SHARED_DATA / "icml2024-pmlr-seeds.bib"


def _write(path: Path, entries: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def _entry(title: str, author: str = "Ada Lovelace", **extra: str) -> dict[str, Any]:
    return {"id": "x", "title": title, "author": author, "status": "Poster", **extra}


# --- reading a catalog ----------------------------------------------------------------


def test_the_real_icml_catalog_reads_into_records() -> None:
    records = read_catalog(CATALOG)
    assert len(records) == 2610
    first = records[0]
    assert first.title == ("Improved Modelling of Federated Datasets using "
                           "Mixtures-of-Dirichlet-Multinomials")
    assert first.authors == [Author("Scott", "Jonathan"), Author("Cahill", "Áine")]
    assert (first.venue, first.year, first.doi) == ("ICML", 2024, "")
    assert first.url == "https://proceedings.mlr.press/v235/scott24a.html"
    assert first.raw == {
        "openreview": "https://openreview.net/forum?id=01M0N8VgfB",
        "pdf": "https://raw.githubusercontent.com/mlresearch/v235/main/assets/scott24a/"
               "scott24a.pdf",
    }
    assert all(r.title and r.authors and r.venue == "ICML" and r.year == 2024
               for r in records)


@pytest.mark.parametrize(("name", "family", "given"), [
    ("Jonathan Scott", "Scott", "Jonathan"),
    ("Mark van der Wilk", "van der Wilk", "Mark"),
    ("Valentin De Bortoli", "De Bortoli", "Valentin"),
    ("Julius von Kügelgen", "von Kügelgen", "Julius"),
    ("Bruno Castro da Silva", "da Silva", "Bruno Castro"),
    ("Ghadi S. Al Hajj", "Al Hajj", "Ghadi S."),
    ("Mark J. van der Laan", "van der Laan", "Mark J."),
    ("Nhuong Van Nguyen", "Nguyen", "Nhuong Van"),
    ("Martin Luther King Jr.", "King Jr.", "Martin Luther"),
    ("Prabhat", "Prabhat", ""),
    ("Le Song", "Song", "Le"),
])
def test_author_names_split_at_the_family_name(name: str, family: str, given: str) -> None:
    assert split_author(name) == Author(family, given)


def test_venue_and_year_come_from_the_file_name_when_no_site_says(tmp_path: Path) -> None:
    path = _write(tmp_path / "neurips2023.json", [_entry("A Paper")])
    record = read_catalog(path)[0]
    assert (record.venue, record.year) == ("NeurIPS", 2023)
    unknown = _write(tmp_path / "papers.json", [_entry("A Paper")])
    assert (read_catalog(unknown)[0].venue, read_catalog(unknown)[0].year) == ("", None)


def test_an_explicit_venue_and_year_override_the_file(tmp_path: Path) -> None:
    record = read_catalog(CATALOG, venue="ICML (main)", year=2025)[0]
    assert (record.venue, record.year) == ("ICML (main)", 2025)


def test_rejected_and_withdrawn_papers_are_left_out(tmp_path: Path) -> None:
    path = _write(tmp_path / "iclr2024.json", [
        _entry("Kept", status="Poster"), _entry("Gone", status="Reject"),
        _entry("Also gone", status="Withdraw"), _entry("Desk", status="Desk Reject"),
    ])
    assert [r.title for r in read_catalog(path)] == ["Kept"]


@pytest.mark.parametrize(("content", "message"), [
    ("@article{a, title = {T}}", "not JSON"),
    ('{"title": "T", "author": "A"}', "holds a JSON dict, not a list"),
    ("[]", "lists no papers"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('[{"name": "x"}, {"name": "y"}]', "not papers with a title and authors"),
])
def test_a_file_that_is_not_a_catalog_is_refused_naming_the_file(
        tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "mine.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=message) as raised:
        read_catalog(path)
    assert str(path) in str(raised.value)


def test_a_missing_file_is_a_format_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read the file") as raised:
        read_catalog(tmp_path / "absent.json")
    assert "absent.json" in str(raised.value)


# --- keeping catalogs -------------------------------------------------------------------


def test_adding_a_catalog_copies_it_and_adding_it_again_adds_nothing(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    info = store.add(CATALOG)
    assert (info.name, info.venue, info.year, info.papers) == (
        "icml2024-paperlists.json", "ICML", 2024, 2610)
    assert info.path.parent == tmp_path / "catalogs"
    assert info.path.read_bytes() == CATALOG.read_bytes()
    renamed = tmp_path / "copy.json"
    renamed.write_bytes(CATALOG.read_bytes())
    assert store.add(CATALOG) == info
    assert store.add(renamed) == info
    assert store.catalogs() == [info]
    assert sorted(p.name for p in (tmp_path / "catalogs").iterdir()) == [
        "catalogs.json", "icml2024-paperlists.json"]


def test_catalogs_and_their_overrides_survive_a_restart(tmp_path: Path) -> None:
    source = _write(tmp_path / "papers.json", [_entry("A Paper")])
    folder = tmp_path / "catalogs"
    added = CatalogStore(folder).add(source, venue="COLT", year=2022)
    assert CatalogStore(folder).catalogs() == [added]
    assert (added.venue, added.year) == ("COLT", 2022)
    found = CatalogStore(folder).search(PaperRecord(title="A Paper"))
    assert (found[0].record.venue, found[0].record.year) == ("COLT", 2022)


def test_adding_the_same_file_with_a_venue_updates_the_stored_one(tmp_path: Path) -> None:
    source = _write(tmp_path / "papers.json", [_entry("A Paper")])
    store = CatalogStore(tmp_path / "catalogs")
    store.add(source)
    updated = store.add(source, venue="UAI", year=2021)
    assert store.catalogs() == [updated]
    assert store.search(PaperRecord(title="A Paper"))[0].record.venue == "UAI"


def test_two_different_files_of_one_name_are_both_kept(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = store.add(_write(tmp_path / "a" / "icml2023.json", [_entry("One")]))
    second = store.add(_write(tmp_path / "b" / "icml2023.json", [_entry("Two")]))
    assert (first.name, second.name) == ("icml2023.json", "icml2023-2.json")
    assert [c.name for c in store.catalogs()] == ["icml2023.json", "icml2023-2.json"]


def test_removing_a_catalog_deletes_its_copy_and_its_papers_from_search(
        tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    info = store.add(_write(tmp_path / "icml2023.json", [_entry("Unique Zebra Title")]))
    assert store.search(PaperRecord(title="Unique Zebra Title"))
    store.remove(info.name)
    assert store.catalogs() == []
    assert not info.path.exists()
    assert store.search(PaperRecord(title="Unique Zebra Title")) == []
    with pytest.raises(KeyError, match="no catalog named"):
        store.remove(info.name)


def test_a_file_that_is_not_a_catalog_is_not_added(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    with pytest.raises(FormatError):
        store.add(SEED_FILES[0])
    assert store.catalogs() == []


def test_a_damaged_manifest_is_read_as_no_catalogs(tmp_path: Path) -> None:
    folder = tmp_path / "catalogs"
    folder.mkdir()
    (folder / MANIFEST).write_text("{not json", encoding="utf-8")
    store = CatalogStore(folder)
    assert store.catalogs() == []
    store.add(_write(tmp_path / "icml2023.json", [_entry("A Paper")]))
    assert len(store.catalogs()) == 1


def test_a_paper_in_two_catalogs_does_not_tie_with_itself(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    older = [_entry("Sparse Zebra Codes for Streaming Data"), _entry("Another Paper")]
    newer = [*older, _entry("A Third Paper")]
    store.add(_write(tmp_path / "icml2023.json", older))
    store.add(_write(tmp_path / "icml2023-update.json", newer))
    paper = PaperRecord(title="Sparse Zebra Codes for Streaming Data", venue="ICML",
                        year=2023)
    found = store.search(paper)
    assert found[0].record.title == paper.title
    assert [c.record.title for c in found].count(paper.title) == 1
    assert confident(found)


def test_search_returns_copies_the_caller_may_change(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    store.add(_write(tmp_path / "icml2023.json", [_entry("Sparse Zebra Codes")]))
    paper = PaperRecord(title="Sparse Zebra Codes")
    first = store.search(paper)[0].record
    first.title = "Changed"
    first.authors.append(Author("Someone"))
    again = store.search(paper)[0].record
    assert again.title == "Sparse Zebra Codes" and again.authors == [Author("Lovelace", "Ada")]


# --- matching provisional papers against the real catalog ------------------------------


@dataclass
class _Outcome:
    title: str
    position: int | None  # of the right paper among the top 5, None if not there
    results: list[Candidate]


@pytest.fixture(scope="module")
def icml_store(tmp_path_factory: pytest.TempPathFactory) -> CatalogStore:
    """The ICML 2024 catalog, stored (its index is built by the first search)."""
    store = CatalogStore(tmp_path_factory.mktemp("catalogs"))
    store.add(CATALOG)
    return store


@pytest.fixture(scope="module")
def seed_lists() -> list[list[PaperRecord]]:
    """The papers of each seed file, in its order (ICML's site's, and the catalog's)."""
    return [read_abstract_list(path).records for path in SEED_FILES]


@pytest.fixture(scope="module")
def truth() -> dict[str, str]:
    """The real title of each seed paper, by its normalised abstract: the PMLR entry whose
    abstract is the seed paragraph."""
    return {normalize_text(r.abstract): r.title for r in read_bibtex(PMLR_SEEDS).records}


def _outcomes(papers: list[PaperRecord], results: list[list[Candidate]],
              truth: dict[str, str]) -> list[_Outcome]:
    found: list[_Outcome] = []
    for paper, ranked in zip(papers, results, strict=True):
        assert paper.title_provisional
        title = truth[normalize_text(paper.abstract)]
        titles = [normalize_text(c.record.title) for c in ranked]
        target = normalize_text(title)
        found.append(_Outcome(title, titles.index(target) if target in titles else None,
                              ranked))
    return found


@pytest.fixture(scope="module")
def outcomes(icml_store: CatalogStore, seed_lists: list[list[PaperRecord]],
             truth: dict[str, str]) -> list[_Outcome]:
    """Every seed abstract searched alone in the stored ICML 2024 catalog."""
    papers = [paper for papers in seed_lists for paper in papers]
    return _outcomes(papers, [icml_store.search(p, limit=5) for p in papers], truth)


@pytest.fixture(scope="module")
def listed_outcomes(icml_store: CatalogStore, seed_lists: list[list[PaperRecord]],
                    truth: dict[str, str]) -> list[_Outcome]:
    """Every seed abstract searched with the others of its list, in the list's order."""
    return [outcome for papers in seed_lists
            for outcome in _outcomes(papers, icml_store.search_many(papers, 5), truth)]


# The seed whose abstract barely uses its title's words: "Dynamic Survival Analysis with
# Controlled Latent States" shares only "controlled" with its abstract (which speaks of
# counting processes and signatures), and six other ICML 2024 titles have that word. No
# title-versus-abstract score finds it (it ranks about 470th) when it is searched alone:
# its list finds it (it is entry 2501 of the catalog, between its neighbours' 2502 and
# 2500), as the services, which search abstracts, may. ("Do Efficient Transformers Really
# Save Computation?", which shares only "efficient" and "transformers" with its abstract,
# is found by the pair: two ICML titles have "efficient transformers", which the abstract
# says three times and its provisional title once.)
OUT_OF_REACH = {
    "Dynamic Survival Analysis with Controlled Latent States",
}


# Measured, each seed searched alone: the right entry is first for 35 of the 38 seeds and
# in the top five for 37 ("Do Efficient Transformers Really Save Computation?" is 2nd,
# "Ai-sampler: ..." 4th, the one out of reach about 470th).
def test_the_right_catalog_entry_is_first_for_most_seed_papers(
        outcomes: list[_Outcome]) -> None:
    assert len(outcomes) == 38
    first = sum(1 for o in outcomes if o.position == 0)
    assert first >= 35, [o.title for o in outcomes if o.position != 0]


def test_the_right_entry_is_in_the_top_five_for_all_but_the_one_out_of_reach(
        outcomes: list[_Outcome]) -> None:
    missed = {o.title for o in outcomes if o.position is None}
    assert missed <= OUT_OF_REACH
    assert sum(1 for o in outcomes if o.position is not None) >= 37


# --- the order of a list --------------------------------------------------------------------


# Measured, each seed list searched in its order: the right entry is first for all 38
# (the three above placed first between their neighbours) and so in the top five for all;
# 34 are confident (29 alone), none wrongly.
def test_in_its_lists_order_every_seed_paper_finds_its_entry_first(
        listed_outcomes: list[_Outcome]) -> None:
    assert len(listed_outcomes) == 38
    assert [o.title for o in listed_outcomes if o.position is None] == []
    assert sum(1 for o in listed_outcomes if o.position == 0) >= 35
    assert [o.title for o in listed_outcomes if o.position != 0] == []


def test_the_paper_out_of_reach_is_placed_between_its_neighbours(
        listed_outcomes: list[_Outcome]) -> None:
    (survival,) = [o for o in listed_outcomes if o.title in OUT_OF_REACH]
    best = survival.results[0]
    assert best.place == ("entry 2501 of icml2024-paperlists, between its neighbours in "
                          "the list (entries 2502 and 2500)")
    assert best.why.startswith(best.place + "; title words in the paper: controlled")
    assert best.score < 0.05  # (its words alone: the score says how well they fit)
    assert survival.results[1].score > best.score and not confident(survival.results)


def test_the_list_order_never_pushes_out_a_clear_text_match(
        outcomes: list[_Outcome], listed_outcomes: list[_Outcome]) -> None:
    for alone, listed in zip(outcomes, listed_outcomes, strict=True):
        if confident(alone.results):
            assert listed.results[0].record == alone.results[0].record
            assert confident(listed.results)
            assert [c.score for c in listed.results] == [c.score for c in alone.results]


def test_confident_takes_a_placed_entry_only_where_the_words_agree(
        outcomes: list[_Outcome], listed_outcomes: list[_Outcome]) -> None:
    """A placed best is confident when the text ranks it first too (a margin too small
    alone: FrameQuant, "Critical feature learning ...", ...), never when the text prefers
    another candidate: those three wait for the user's click."""
    accepted = [o for o in listed_outcomes if confident(o.results)]
    assert [o.title for o in accepted if o.position != 0] == []
    assert len(accepted) == 34
    newly = [o for o, alone in zip(listed_outcomes, outcomes, strict=True)
             if confident(o.results) and not confident(alone.results)]
    assert len(newly) == 5 and all(o.results[0].place for o in newly)
    waiting = {o.title for o in listed_outcomes
               if o.results[0].place and not confident(o.results)}
    assert waiting == {"Dynamic Survival Analysis with Controlled Latent States",
                       "Do Efficient Transformers Really Save Computation?",
                       "Ai-sampler: Adversarial Learning of Markov kernels with involutive "
                       "maps"}


def test_a_list_in_the_other_direction_is_placed_too(
        icml_store: CatalogStore, seed_lists: list[list[PaperRecord]],
        truth: dict[str, str]) -> None:
    papers = seed_lists[0][::-1]  # (the catalog's order, ascending)
    found = _outcomes(papers, icml_store.search_many(papers), truth)
    assert all(o.position == 0 for o in found)
    (survival,) = [o for o in found if o.title in OUT_OF_REACH]
    assert survival.results[0].place.endswith("(entries 2500 and 2502)")


@pytest.mark.parametrize("seed", range(5))
def test_a_list_in_another_order_is_ranked_paper_by_paper(
        icml_store: CatalogStore, seed_lists: list[list[PaperRecord]], seed: int) -> None:
    """The seeds shuffled, or the two lists' papers taken in turn (two runs of one
    catalog mixed): nothing is placed, every paper is ranked as alone."""
    papers = [paper for papers in seed_lists for paper in papers]
    random.Random(seed).shuffle(papers)
    alternating = [paper for pair in zip(*seed_lists, strict=True) for paper in pair]
    for order in (papers, alternating):
        found = icml_store.search_many(order)
        assert not any(c.place for results in found for c in results)
        assert found == [icml_store.search(paper) for paper in order]


# A paper of another conference: "Attention Is All You Need" (NeurIPS 2017).
ATTENTION = PaperRecord(
    title="The dominant sequence transduction models are based on complex recurrent or "
          "convolutional neural networks…", title_provisional=True, venue="NeurIPS",
    year=2017,
    abstract="The dominant sequence transduction models are based on complex recurrent "
    "or convolutional neural networks that include an encoder and a decoder. The best "
    "performing models also connect the encoder and decoder through an attention "
    "mechanism. We propose a new simple network architecture, the Transformer, based "
    "solely on attention mechanisms, dispensing with recurrence and convolutions "
    "entirely. Experiments on two machine translation tasks show these models to be "
    "superior in quality while being more parallelizable and requiring significantly "
    "less time to train.")


def test_a_paper_inserted_into_a_run_is_not_placed(
        icml_store: CatalogStore, seed_lists: list[list[PaperRecord]],
        truth: dict[str, str]) -> None:
    """Between two papers matched to consecutive entries, a paper of another conference
    fits no entry: it is ranked as alone, and so are the papers near it whose neighbours
    no longer run in step; the list's other papers are still placed."""
    papers = list(seed_lists[0])
    papers.insert(7, ATTENTION)  # between entries 2503 and 2502 (from 1)
    found = icml_store.search_many(papers)
    assert found[7] == icml_store.search(ATTENTION)
    assert not any(c.place for c in found[7])
    placed = {n for n, results in enumerate(found) if results[0].place}
    assert len(placed) >= 10 and placed.isdisjoint(range(4, 11))  # (around the paper)
    seeds = _outcomes(papers[:7] + papers[8:], found[:7] + found[8:], truth)
    assert all(o.position == 0 for o in seeds if o.results[0].place)


def test_a_paper_in_the_place_of_another_is_placed_but_not_confident(
        icml_store: CatalogStore, seed_lists: list[list[PaperRecord]]) -> None:
    """A list in the catalog's order with one paper replaced by another conference's:
    its place is the replaced paper's entry, which it shows first with its reason, but
    its words fit another entry better, so the user decides."""
    papers = list(seed_lists[0])
    papers[8] = ATTENTION  # in the place of "Dynamic Survival Analysis ..."
    results = icml_store.search_many(papers)[8]
    assert results[0].record.title == "Dynamic Survival Analysis with Controlled Latent States"
    assert results[0].place.startswith("entry 2501 of icml2024-paperlists")
    assert not confident(results)


def test_confident_accepts_most_seed_matches_and_none_wrongly(
        outcomes: list[_Outcome]) -> None:
    accepted = [o for o in outcomes if confident(o.results)]
    assert [o.title for o in accepted if o.position != 0] == []
    assert len(accepted) >= 28
    assert not any(confident(o.results) for o in outcomes if o.title in OUT_OF_REACH)


def test_each_result_says_why(outcomes: list[_Outcome]) -> None:
    frame_quant = next(o for o in outcomes if o.title.startswith("FrameQuant"))
    best = frame_quant.results[0]
    assert best.why.startswith("title words in the paper: ")
    assert "framequant" in best.why and "same year" in best.why and "same venue" in best.why


def test_a_search_is_quick_after_the_index_is_built(tmp_path: Path) -> None:
    store = CatalogStore(tmp_path / "catalogs")
    store.add(CATALOG)
    papers = [p for path in SEED_FILES for p in read_abstract_list(path).records]
    store.search(papers[0])  # builds the index
    times = []
    for paper in papers:
        start = time.perf_counter()
        store.search(paper)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.1, times


# --- ranking near misses ------------------------------------------------------------------

FRAME_QUANT = "FrameQuant: Flexible Low-Bit Quantization for Transformers"


@pytest.fixture
def frame_quant_paper() -> PaperRecord:
    """The provisional FrameQuant paper of the sample library (ICML 2024, no title)."""
    papers = read_abstract_list(SEED_FILES[0]).records
    paper = next(p for p in papers if p.title.startswith("FrameQuant"))
    assert paper.title_provisional and (paper.venue, paper.year) == ("ICML", 2024)
    return paper


def test_the_right_candidate_beats_its_near_misses(frame_quant_paper: PaperRecord) -> None:
    right = PaperRecord(title=FRAME_QUANT, venue="ICML", year=2024)
    near_misses = [
        PaperRecord(title="Flexible Low-Bit Quantization for Diffusion Models",
                    venue="ICML", year=2024),
        PaperRecord(title=FRAME_QUANT, venue="ICML", year=2023),
        PaperRecord(title=FRAME_QUANT + " (Workshop)", venue="ICML Workshop", year=2024),
        PaperRecord(title=FRAME_QUANT, venue="NeurIPS", year=2024),
    ]
    ranked = rank(frame_quant_paper, [*near_misses, right])
    assert ranked[0].record is right
    assert confident(ranked)
    why = {c.record.venue + str(c.record.year): c.why for c in ranked}
    assert "another year (2023)" in why["ICML2023"]
    assert "a workshop version" in why["ICML Workshop2024"]
    assert "another venue (NeurIPS)" in why["NeurIPS2024"]


def test_a_true_tie_is_not_confident(frame_quant_paper: PaperRecord) -> None:
    twins = [PaperRecord(title=FRAME_QUANT, venue="ICML", year=2024),
             PaperRecord(title=FRAME_QUANT, venue="ICML", year=2024)]
    ranked = rank(frame_quant_paper, twins)
    assert ranked[0].score == ranked[1].score
    assert not confident(ranked)
    assert confident(rank(frame_quant_paper, twins[:1]))


def test_a_close_runner_up_is_not_confident(frame_quant_paper: PaperRecord) -> None:
    """A near miss the abstract also supports ("Transformers ... for many Vision ...
    tasks") may lose, but too narrowly for the match to be accepted unseen."""
    right = PaperRecord(title=FRAME_QUANT, venue="ICML", year=2024)
    vision = PaperRecord(title="FrameQuant: Flexible Low-Bit Quantization for Vision Models",
                         venue="ICML", year=2024)
    ranked = rank(frame_quant_paper, [vision, right])
    assert ranked[0].record is right
    assert not confident(ranked)


def test_a_candidates_abstract_is_compared_with_the_papers() -> None:
    """A service's record has an abstract: the same abstract is the same paper, but under
    another year or as a workshop version it is a near miss, and a title that starts the
    same way with another abstract is another paper."""
    abstract = ("We study zebra codes for streaming data and show that sparse zebra "
                "codes reach the capacity of any channel with memory. " * 3)
    paper = PaperRecord(title="We study zebra codes for streaming data", title_provisional=True,
                        abstract=abstract, venue="ICML", year=2024)
    right = PaperRecord(title="Capacity of Zebra Codes", abstract=abstract, venue="ICML",
                        year=2024)
    near_misses = [
        PaperRecord(title="Capacity of Zebra Codes", abstract=abstract, venue="ICML",
                    year=2023),
        PaperRecord(title="Capacity of Zebra Codes", abstract=abstract,
                    venue="ICML Workshop", year=2024),
        PaperRecord(title="Capacity of Zebra Codes for Images", venue="ICML", year=2024,
                    abstract="Images are not streams; zebra codes for them need another "
                    "proof of their capacity, which we give for channels without memory."),
    ]
    ranked = rank(paper, [*near_misses, right])
    assert ranked[0].record is right and ranked[0].score == 1.0
    assert ranked[0].why.startswith("abstracts 100% alike")
    assert confident(ranked)
    why = {(c.record.title, c.record.venue, c.record.year): c.why for c in ranked}
    assert "another year (2023)" in why["Capacity of Zebra Codes", "ICML", 2023]
    assert "a workshop version" in why["Capacity of Zebra Codes", "ICML Workshop", 2024]
    # The other paper's abstract is no likelier to be this paper's than chance.
    assert "abstracts" not in why["Capacity of Zebra Codes for Images", "ICML", 2024]


def test_a_paper_with_a_real_title_matches_by_its_title() -> None:
    paper = PaperRecord(title="Attention is all you need", venue="NeurIPS", year=2017)
    candidates = [
        PaperRecord(title="Attention Is Not All You Need", venue="NeurIPS", year=2017),
        PaperRecord(title="Attention Is All You Need", venue="Advances in Neural "
                    "Information Processing Systems", year=2017),
        PaperRecord(title="Attention Is All You Need In Speech Separation",
                    venue="ICASSP", year=2021),
    ]
    ranked = rank(paper, candidates)
    assert ranked[0].record is candidates[1]
    assert ranked[0].why.startswith("titles 100% alike")
    assert "same venue" in ranked[0].why


def test_nothing_to_rank_is_not_confident() -> None:
    assert rank(PaperRecord(title="Anything"), []) == []
    assert not confident([])


def test_a_preprint_venue_is_no_disagreement() -> None:
    paper = PaperRecord(title="Sparse Zebra Codes", venue="arXiv preprint", year=2024)
    candidate = PaperRecord(title="Sparse Zebra Codes", venue="ICML", year=2024)
    ranked = rank(paper, [candidate])
    assert "another venue" not in ranked[0].why and ranked[0].score == 1.0


def test_a_title_of_common_words_only_is_still_found(tmp_path: Path) -> None:
    fields = ["vision", "speech", "chemistry", "biology", "finance", "robotics"]
    entries = [_entry(f"Neural Networks for {field} Part {n}")
               for field in fields for n in range(12)]
    entries.append(_entry("Neural Networks"))
    store = CatalogStore(tmp_path / "catalogs")
    store.add(_write(tmp_path / "icml2023.json", entries))
    found = store.search(PaperRecord(title="Neural networks", venue="ICML", year=2023))
    assert found[0].record.title == "Neural Networks"


def test_a_paper_two_catalogs_list_has_its_place_in_each(tmp_path: Path) -> None:
    """The same papers in two catalogs in two orders, indexed once: a list in the second
    catalog's order places a paper whose words match nothing at that catalog's entry."""
    titles = ["Sparse Zebra Codes", "Quantum Walrus Graphs", "Lazy Otter Sampling",
              "Brittle Heron Kernels", "Velvet Lynx Bandits", "Amber Ibis Flows"]
    store = CatalogStore(tmp_path / "catalogs")
    store.add(_write(tmp_path / "zoo2023.json", [_entry(t) for t in titles]))
    second = [titles[n] for n in (5, 3, 1, 0, 2, 4)]
    store.add(_write(tmp_path / "zoo2023-extra.json", [_entry(t) for t in second]))
    papers = [PaperRecord(title=t, venue="ZOO", year=2023) for t in second]
    papers[3] = PaperRecord(title="Nothing to see…", title_provisional=True,
                            abstract="Nothing here says which paper this is.")

    found = store.search_many(papers)

    assert [r[0].record.title for r in found] == second
    assert found[3][0].place == ("entry 4 of zoo2023-extra, between its neighbours in the "
                                 "list (entries 3 and 5)")
    assert found[3][0].score == 0.0 and not confident(found[3])
    assert all(confident(r) for n, r in enumerate(found) if n != 3)
