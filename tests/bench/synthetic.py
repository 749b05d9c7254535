"""Deterministic synthetic papers for the benchmark: realistic sizes, accents, no network.

Abstracts are 900-1,800 characters drawn from a Zipf-weighted vocabulary of real
machine-learning words and made-up ones; 1-20 authors, some with accented names.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

from papershelf.core import keys
from papershelf.core.library import Library, abstract_hash, normalize_text
from papershelf.formats.records import Author, PaperRecord

# Bump when the generated papers or the library layout change: the bench cache is keyed by it.
GENERATOR_VERSION = 1

ML_WORDS = (
    "learning neural network model models deep graph transformer attention training data "
    "optimization gradient stochastic reinforcement policy agent reward language large "
    "diffusion generative adversarial robust robustness privacy federated bayesian inference "
    "kernel regression classification representation contrastive self supervised benchmark "
    "quantization pruning sparse efficient scalable convergence theory bound bounds regret "
    "online bandit causal fairness uncertainty calibration distribution shift domain "
    "adaptation generalization memory retrieval embedding vision image video speech token "
    "tokens sequence recurrent convolutional layer layers loss function functions estimator "
    "sampling markov chain monte carlo variational latent encoder decoder autoencoder"
).split()
GIVEN = ("Anna Jürgen Zoë José François Søren Łukasz Chloé Ana Wei Li Jing Hiroshi Yuki "
         "Ahmed Fatima Olga Ivan Pierre Marie Lars Ingrid Miguel Lucía Björn Ángel").split()
FAMILY = ("Müller Schmidt García Martínez Nguyen Wang Li Zhang Chen Kim Park Smith Johnson "
          "Brown Dubois Lefèvre Øster Kowalski Nowak Ivanov Sato Suzuki Rossi Bianchi "
          "Silva Santos Andersson Johansson Öztürk Yılmaz Hernández López Khan Ali").split()


class Generator:
    """Makes the same papers for the same seed, in any number."""

    def __init__(self, seed: int = 2024) -> None:
        self.random = random.Random(seed)
        rnd = random.Random(seed + 1)
        made_up = {
            "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(4, 11)))
            for _ in range(20000)
        }
        self.vocab = ML_WORDS + sorted(made_up)
        weights = [1.0 / (rank + 1) ** 0.9 for rank in range(len(self.vocab))]
        self.cum_weights = list(itertools.accumulate(weights))

    def words(self, n: int) -> list[str]:
        return self.random.choices(self.vocab, cum_weights=self.cum_weights, k=n)

    def record(self, n: int) -> PaperRecord:
        """Paper number n (deterministic for a given seed and call order)."""
        rnd = self.random
        title_words = self.words(rnd.randint(5, 12))
        title = " ".join(title_words).capitalize()
        abstract_words: list[str] = []
        length = rnd.randint(900, 1800)
        total = 0
        while total < length:
            sentence = self.words(rnd.randint(8, 20))
            text = " ".join(sentence).capitalize() + ". "
            abstract_words.append(text)
            total += len(text)
        authors = [Author(rnd.choice(FAMILY), rnd.choice(GIVEN))
                   for _ in range(min(20, max(1, int(rnd.expovariate(0.3)) + 1)))]
        return PaperRecord(
            entry_type="inproceedings", key=None, title=title, authors=authors,
            abstract="".join(abstract_words).strip(), venue=rnd.choice(
                ["ICML", "NeurIPS", "ICLR", "AISTATS", "COLT"]),
            year=rnd.randint(2000, 2025), pages=f"{n % 9000 + 1}--{n % 9000 + 12}",
        )

    def records(self, count: int) -> Iterator[PaperRecord]:
        for n in range(count):
            yield self.record(n)


def build_library(path: Path, count: int, seed: int = 2024) -> None:
    """A migrated library file with `count` synthetic papers (bulk-loaded, fully indexed)."""
    Library.open(str(path)).close()
    gen = Generator(seed)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    allocator = keys.KeyAllocator(set())
    batch: list[tuple[object, ...]] = []
    authors: list[tuple[int, int, str, str]] = []

    def flush() -> None:
        conn.executemany(
            "INSERT INTO papers (id, key, entry_type, title, title_provisional, title_norm, "
            "authors_text, authors_sort, abstract_hash, venue, year, volume, pages, "
            "publisher, doi, url, notes, tags_text, added_at, modified_at) VALUES "
            "(?, ?, 'inproceedings', ?, 0, ?, ?, ?, ?, ?, ?, '', ?, '', '', '', "
            "'', '', ?, ?)", [row[:6] + row[7:11] + row[13:] for row in batch])
        conn.executemany("INSERT INTO personal (user_name, paper_id, starred, read_state) "
                         "VALUES ('', ?, ?, ?)",
                         [(row[0], *row[11:13]) for row in batch if row[11] or row[12] != "unread"])
        conn.executemany("INSERT INTO paper_texts (paper_id, abstract, bib_fields) "
                         "VALUES (?, ?, '{}')", [(row[0], row[6]) for row in batch])
        conn.executemany("INSERT INTO paper_authors (paper_id, position, family, given) "
                         "VALUES (?, ?, ?, ?)", authors)
        batch.clear()
        authors.clear()

    for n, record in enumerate(gen.records(count), start=1):
        key = allocator.key(keys.format_key(keys.DEFAULT_PATTERN, record))
        added = (start + timedelta(seconds=n)).strftime("%Y-%m-%d %H:%M:%S.%f")
        text = ", ".join(a.display() for a in record.authors)
        batch.append((n, key, record.title, normalize_text(record.title), text,
                      normalize_text(record.authors[0].family), record.abstract,
                      abstract_hash(record.abstract), record.venue, record.year, record.pages,
                      int(n % 7 == 0), ("unread", "reading", "read")[n % 3], added, added))
        authors.extend((n, i, a.family, a.given) for i, a in enumerate(record.authors))
        if len(batch) >= 20000:
            flush()
    flush()
    conn.execute("INSERT INTO meta (name, value) VALUES ('sample_imported', 'bench')")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def write_bib(path: Path, count: int, seed: int = 7) -> None:
    """A BibTeX file of `count` synthetic entries."""
    from papershelf.formats.bibtex import write_bibtex

    gen = Generator(seed)
    allocator = keys.KeyAllocator(set())
    records = []
    for record in gen.records(count):
        record.key = allocator.key(keys.format_key(keys.DEFAULT_PATTERN, record))
        records.append(record)
    path.write_text(write_bibtex(records), encoding="utf-8")


def write_abstract_list(path: Path, count: int, seed: int = 11) -> None:
    """An abstract list (the seeds' format) of `count` paragraphs."""
    gen = Generator(seed)
    paragraphs = [r.abstract for r in gen.records(count)]
    path.write_text("ICML 2024 论文列表\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys
    import time

    t = time.perf_counter()
    build_library(Path(sys.argv[1]), int(sys.argv[2]))
    print(json.dumps({"seconds": round(time.perf_counter() - t, 1)}))
