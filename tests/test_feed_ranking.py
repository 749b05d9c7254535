"""The inbox's ranking (papershelf.feeds.ranking, .learning): learnt from the member's own
library, it puts the items like the papers they starred, read or tagged first, says why,
and learns from what they dismissed."""

from __future__ import annotations

import os
import subprocess
import sys

from papershelf.core.library import Library
from papershelf.feeds import inbox, ranking
from papershelf.feeds.learning import model_of
from papershelf.feeds.ranking import Liked, Model, author_key

QUANTIZED = ("Quantizing transformer language models to two bits after training",
             "Post-training quantization of the weights of large transformer models to two "
             "bits keeps their accuracy and cuts their memory footprint.")
SOIL = ("Soil erosion on alpine meadows under grazing",
        "We measure how sheep and cattle erode the soil of alpine meadows over ten summers.")


def seed_titles(library: Library) -> dict[str, int]:
    return {row.title: pid for pid, row in library.rows(library.view_ids()).items()}


def test_items_like_the_starred_papers_come_first_with_the_reason(seeded: Library) -> None:
    by_title = seed_titles(seeded)
    liked = [pid for title, pid in by_title.items()
             if title.startswith(("FrameQuant", "Understanding the capabilities",
                                  "EE-LLM", "A thorough evaluation of these factors"))]
    assert len(liked) == 4
    seeded.set_starred(liked[:3], True)
    seeded.set_read_state(liked[3:], "read")
    model = model_of(seeded)
    (soil, soil_why), (quantized, why) = [
        (score, ranking.why(kept)) for score, kept in
        model.rank([(*SOIL, ()), (*QUANTIZED, ())])]
    assert quantized > soil
    assert why.startswith("like ") and "starred paper" in why and "“FrameQuant" in why
    assert soil_why == "nothing in your library like it yet"


def test_a_shared_author_is_a_reason_and_dismissed_items_count_against() -> None:
    liked = [Liked("Graph neural networks for molecules", "Message passing on molecular "
                   "graphs predicts their properties.", "starred",
                   (author_key("Noether", "Emmy"),)),
             Liked("Diffusion models for images", "Denoising diffusion generates images.",
                   "tagged")]
    model = Model.train(liked, ["Sheep grazing on alpine meadows"])
    score, kept = model.score("Bees and their dances", "Honey bees dance.",
                              [author_key("Noether", "E.")])
    why = ranking.why(kept)
    assert why == "shares an author with “Graph neural networks for molecules”"
    assert score > model.score("Bees and their dances", "Honey bees dance.")[0]
    grazing, grazing_why = model.score("Grazing sheep on alpine meadows", "")
    assert grazing < 0 and ranking.why(grazing_why) == "close to papers you dismissed"
    _score, tagged_why = model.score("Denoising diffusion models", "Diffusion for images.")
    assert ranking.why(tagged_why).startswith(
        "like a tagged paper: “Diffusion models for images”")


def test_an_empty_library_still_ranks(library: Library) -> None:
    model = model_of(library)
    assert model.rank([]) == []
    score, kept = model.score(*QUANTIZED)
    assert (score, ranking.why(kept)) == (0.0, "nothing in your library like it yet")
    assert inbox.items(library) == []


def test_the_words_running_through_what_i_like_are_what_it_is_about() -> None:
    """60 starred papers on diffusion (more than a common word's floor of 50), among a
    library of 600 others: "diffusion" is what the member likes, not a common word, so
    a diffusion paper comes before one that only shares the generic words."""
    methods = ("sampling", "guidance", "distillation", "inversion", "editing", "training")
    liked = [Liked(f"Diffusion {methods[i % 6]} study {i}", "", "starred")
             for i in range(60)]
    others = [(f"Robust learning bounds for problem {i}", "") for i in range(600)]
    model = Model.train(liked, background=others)
    (diffusion, why), (generic, _) = model.rank([
        ("Faster diffusion for images", "", ()), ("A study of learning bounds", "", ())])
    assert diffusion > generic and "starred papers" in ranking.why(why)


def test_the_model_is_learnt_once_and_again_when_what_it_learns_from_changes(
        seeded: Library) -> None:
    by_title = seed_titles(seeded)
    frame = next(pid for title, pid in by_title.items() if title.startswith("FrameQuant"))
    first = model_of(seeded)
    assert model_of(seeded) is first  # (nothing changed: not learnt again)
    seeded.set_starred([frame], True)
    starred = model_of(seeded)
    assert starred is not first
    assert "starred paper" in ranking.why(starred.score(*QUANTIZED)[1])
    seeded.add_tags([frame], ["quantization"])
    tagged = model_of(seeded)
    assert tagged is not starred
    assert model_of(seeded, "quantization") is model_of(seeded, "quantization")
    seeded.set_starred([frame], False)
    assert model_of(seeded) is not tagged


def test_a_check_ranks_what_it_brought_once_and_the_listing_agrees(seeded: Library) -> None:
    from datetime import datetime, timezone

    from papershelf.feeds import sources
    from papershelf.feeds.fetching import Found

    frame = next(pid for title, pid in seed_titles(seeded).items()
                 if title.startswith("FrameQuant"))
    seeded.set_starred([frame], True)
    _change, source = sources.follow(seeded.context, "arxiv:cs.LG")
    brought = [Found(*SOIL), Found(*QUANTIZED)]
    inbox._store(seeded.context, source.id, brought, datetime.now(timezone.utc))
    assert inbox.rank_new(seeded) == 0  # (no model at hand: nothing learnt for it)
    model_of(seeded)
    assert inbox.rank_new(seeded) == 2
    assert inbox.rank_new(seeded) == 0  # (each ranked once)
    listed = inbox.items(seeded)
    assert [item.title for item in listed] == [QUANTIZED[0], SOIL[0]]
    assert "starred paper" in listed[0].why
    seeded.set_starred([frame], False)  # (a new model: everything ranked by it again)
    assert all(item.why == "nothing in your library like it yet"
               for item in inbox.items(seeded))


def test_a_star_from_another_program_teaches_the_kept_model(seeded: Library,
                                                           library_target: str) -> None:
    """The window keeps its model between listings; a star made by another program on
    the same library (here `papershelf star` in its own process) is learnt at the next
    ranking, not after a restart."""
    first = model_of(seeded)
    assert ranking.why(first.score(*QUANTIZED)[1]) == "nothing in your library like it yet"
    by_title = seed_titles(seeded)
    keys = [seeded.rows([pid])[pid].key for title, pid in by_title.items()
            if title.startswith(("FrameQuant", "EE-LLM"))]
    done = subprocess.run([sys.executable, "-m", "papershelf", "--library", library_target,
                           "star", *keys], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    learnt = model_of(seeded)
    assert learnt is not first
    assert "starred paper" in ranking.why(learnt.score(*QUANTIZED)[1])


def test_the_ranking_survives_a_restart_and_only_new_likes_rank_again(
        seeded: Library, library_target: str, monkeypatch) -> None:
    """The ranks are kept with the items: a listing after a restart reads them back
    (nothing learnt, nothing ranked); editing or reading a paper's notes is no new like
    and keeps them; a star is one, and the items are ranked again (and kept so)."""
    from datetime import datetime, timezone

    from papershelf.feeds import learning, sources
    from papershelf.feeds.fetching import Found

    frame = next(pid for title, pid in seed_titles(seeded).items()
                 if title.startswith("FrameQuant"))
    seeded.set_starred([frame], True)
    _change, source = sources.follow(seeded.context, "arxiv:cs.LG")
    inbox._store(seeded.context, source.id, [Found(*SOIL), Found(*QUANTIZED)],
                 datetime.now(timezone.utc))
    before = [(item.title, item.score, item.reason) for item in inbox.items(seeded)]
    assert before[0][0] == QUANTIZED[0] and "starred paper" in ranking.why(before[0][2])
    again = Library.open(library_target)  # (the window started again)
    try:
        learnt: list[str] = []
        real_learn = learning._learn
        monkeypatch.setattr(learning, "_learn",
                            lambda lib, tag: learnt.append(tag) or real_learn(lib, tag))
        assert [(i.title, i.score, i.reason) for i in inbox.items(again)] == before
        again.set_notes(frame, "read it twice")  # (no like: the ranks stand)
        assert [(i.title, i.score, i.reason) for i in inbox.items(again)] == before
        assert learnt == []
        again.set_starred([frame], False)
        assert all(item.why == "nothing in your library like it yet"
                   for item in inbox.items(again))
        assert learnt == [""]
        assert inbox.rank_new(again) == 0  # (the new ranks are kept with the items)
    finally:
        again.close()


def test_a_check_with_the_model_at_hand_stores_the_ranks_with_the_items(
        seeded: Library, library_target: str) -> None:
    from datetime import datetime, timezone

    from papershelf.feeds import sources
    from papershelf.feeds.fetching import Found
    from papershelf.feeds.learning import kept

    frame = next(pid for title, pid in seed_titles(seeded).items()
                 if title.startswith("FrameQuant"))
    seeded.set_starred([frame], True)
    model_of(seeded)  # (as the window has it)
    _change, source = sources.follow(seeded.context, "arxiv:cs.LG")
    inbox._store(seeded.context, source.id, [Found(*SOIL), Found(*QUANTIZED)],
                 datetime.now(timezone.utc), ranked=kept(seeded), spelling=source.spelling)
    assert inbox.rank_new(seeded) == 0  # (ranked by the check, kept as listed)
    listed = inbox.items(seeded)
    assert [item.title for item in listed] == [QUANTIZED[0], SOIL[0]]
    assert listed[0].source == "arxiv:cs.LG" and "starred paper" in listed[0].why
    again = Library.open(library_target)
    try:
        assert [(i.title, i.score) for i in inbox.items(again)] == \
            [(i.title, i.score) for i in listed]
    finally:
        again.close()
