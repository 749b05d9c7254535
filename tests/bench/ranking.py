"""The inbox's ranking (feeds.ranking): is it worth reading best first, and is it quick
to learn? Figure 17 of `make bench`, and alone:

    python -m tests.bench.ranking [--repeats N] [--count N] [--json]

Quality, on a realistic corpus: the 2,610 papers of the ICML 2024 catalog
(../shared/data/icml2024-paperlists.json, read where it is), arriving in a random order.
A simulated user's stars are driven by topics: three interests, each a few words of a
title ("diffusion", "reinforcement learning", "graph neural networks"); they star a
paper on one of their topics with probability 0.7 and any other with 0.03. The model is
trained on the stars among the first 70 % of the papers to arrive (the library); the
rest arrive in inbox batches of 100, each ranked by the model and by recency alone
(newest first, as a plain feed reader lists them), and a ranking is as good as the
later stars it puts first: NDCG@10 and precision@10, averaged over the batches and over
`--repeats` users (seeds). The model must beat recency clearly: recency's NDCG@10 at
most 2/3 of the model's.

Speed: training on a library of 100,000 synthetic papers (tests/bench/synthetic.py:
10-word titles, long abstracts, 1-20 authors; a tenth of them liked, the others the
background that says which words are common), which must take at most 5 s of CPU.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from papershelf.feeds.ranking import Liked, Model, author_key
from tests.bench.synthetic import Generator

MODULE = "tests.bench.ranking"
CATALOG = (Path(__file__).resolve().parents[2].parent / "shared" / "data"
           / "icml2024-paperlists.json")
TOPICS = (("diffusion", "denoising", "score-based"),
          ("reinforcement", "policy", "reward", "offline rl", "bandit"),
          ("graph neural", "gnn", "message passing", "graph transformer"))
STAR_ON_TOPIC = 0.7
STAR_OFF_TOPIC = 0.03
HISTORY = 0.7  # share of the papers that arrived before the inbox (the library)
BATCH = 100  # inbox items ranked at once
K = 10
RATIO_TARGET = 2 / 3  # recency's NDCG@10 / the model's, at most
TRAIN_TARGET_S = 5.0
TRAIN_COUNT = 100_000
LIKED_EVERY = 10  # of the library's papers, one in this many is liked


def catalog() -> list[tuple[str, tuple[str, ...]]]:
    """The catalog's papers: title and authors (`author_key`s)."""
    with CATALOG.open(encoding="utf-8") as handle:
        entries = json.load(handle)
    papers = []
    for entry in entries:
        title = " ".join(str(entry.get("title", "")).split())
        names = [n.strip() for n in str(entry.get("author", "")).split(";") if n.strip()]
        keys = tuple(author_key(n.rpartition(" ")[2], n.rpartition(" ")[0]) for n in names)
        if title:
            papers.append((title, keys))
    return papers


def on_topic(title: str) -> bool:
    lowered = title.lower()
    return any(word in lowered for topic in TOPICS for word in topic)


def ndcg(relevant: Sequence[bool], k: int = K) -> float:
    """NDCG@k of a ranking with binary relevance (0 when nothing is relevant)."""
    gain = sum(1 / math.log2(i + 2) for i, rel in enumerate(relevant[:k]) if rel)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, sum(relevant))))
    return gain / ideal if ideal else 0.0


def quality(seed: int) -> dict[str, float]:
    """One simulated user: the model's and recency's NDCG@10 and precision@10."""
    rnd = random.Random(seed)
    papers = catalog()
    rnd.shuffle(papers)  # (the order they arrive in)
    stars = [rnd.random() < (STAR_ON_TOPIC if on_topic(t) else STAR_OFF_TOPIC)
             for t, _ in papers]
    cut = int(len(papers) * HISTORY)
    liked = [Liked(t, "", "starred", a) for (t, a), s in zip(papers[:cut], stars) if s]
    others = [(t, "") for (t, _a), s in zip(papers[:cut], stars) if not s]
    model = Model.train(liked, background=others)
    scores: dict[str, list[float]] = {"model_ndcg": [], "recency_ndcg": [],
                                      "model_p": [], "recency_p": []}
    for start in range(cut, len(papers) - BATCH + 1, BATCH):
        batch = list(range(start, start + BATCH))
        if not any(stars[i] for i in batch):
            continue
        ranked = model.rank([(papers[i][0], "", papers[i][1]) for i in batch])
        by_model = [i for _, i in sorted(zip(ranked, batch), key=lambda p: -p[0][0])]
        by_recency = batch[::-1]  # newest first
        for name, order in (("model", by_model), ("recency", by_recency)):
            relevant = [stars[i] for i in order]
            scores[f"{name}_ndcg"].append(ndcg(relevant))
            scores[f"{name}_p"].append(sum(relevant[:K]) / K)
    return {name: statistics.mean(values) for name, values in scores.items()}


def training_seconds(count: int) -> float:
    """CPU seconds to train the model on a library of `count` synthetic papers (read
    beforehand), a tenth of them liked and the rest its background."""
    records = list(Generator(5).records(count))
    liked = [Liked(r.title, r.abstract, "starred",
                   tuple(author_key(a.family, a.given) for a in r.authors))
             for r in records[::LIKED_EVERY]]
    others = [(r.title, r.abstract) for i, r in enumerate(records) if i % LIKED_EVERY]
    start = time.process_time()
    Model.train(liked, background=others)
    return time.process_time() - start


def measure(repeats: int, count: int) -> dict[str, list[float]]:
    """Each figure's values: `repeats` users' quality, `repeats` trainings."""
    found: dict[str, list[float]] = {"model_ndcg": [], "recency_ndcg": [], "model_p": [],
                                     "recency_p": [], "ratio": [], "train_s": []}
    for seed in range(repeats):
        one = quality(seed)
        for name, value in one.items():
            found[name].append(value)
        found["ratio"].append(one["recency_ndcg"] / max(one["model_ndcg"], 1e-9))
    found = {name: [round(v, 3) for v in values] for name, values in found.items()}
    for _ in range(repeats):
        found["train_s"].append(training_seconds(count))
    return found


ROWS = {
    "ratio": ("17. Inbox ranking, ICML 2024 and topic-driven stars: recency's NDCG@10 / "
              "the model's", "x", RATIO_TARGET),
    "model_ndcg": ("17. Inbox ranking: the model's NDCG@10", "", None),
    "recency_ndcg": ("17. Inbox ranking: recency's NDCG@10", "", None),
    "model_p": ("17. Inbox ranking: the model's precision@10", "", None),
    "recency_p": ("17. Inbox ranking: recency's precision@10", "", None),
    "train_s": ("17. Train the ranking model on a 100k-paper library (CPU)", "s",
                TRAIN_TARGET_S),
}


def figure(bench: Any, libs: Any, repeat: Callable[..., None],
           failed: type[Exception]) -> None:
    """Figure 17's rows (no library: `libs` is not used), measured in one child
    process; `bench` is the run's `Bench`, `repeat` and `failed` its own."""
    plan = bench.plan
    count = plan.mid  # (100,000 in full mode)
    rows = {}
    for name, (title, unit, target) in ROWS.items():
        if name == "train_s":
            title = title.replace("100k", f"{count // 1000}k")
        rows[name] = bench.report.row(title, unit, target)
    bench.log("17. the inbox's ranking: quality on ICML 2024, training time…")

    def once(_n: int) -> None:
        result, _ = bench.run.run(MODULE, "--json", "--count", str(count),
                                  "--repeats", str(plan.repeats))
        for name, row in rows.items():
            row.values.extend(result[name])

    repeat(plan, once, tuple(rows.values()), repeats=1)
    if not any(row.values or row.error for row in rows.values()):
        raise failed("figure 17 measured nothing")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--count", type=int, default=TRAIN_COUNT)
    parser.add_argument("--json", action="store_true", help="the values as one JSON line")
    args = parser.parse_args(argv)
    found = measure(args.repeats, args.count)
    if args.json:
        sys.stdout.write(json.dumps(found) + "\n")
        return 0
    print("| figure | median | min – max | target |")
    print("|---|---|---|---|")
    for name, (title, _unit, target) in ROWS.items():
        values = found[name]
        print(f"| {title} | {statistics.median(values):.3f} | {min(values):.3f} – "
              f"{max(values):.3f} | {'' if target is None else f'<= {target:.2f}'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
