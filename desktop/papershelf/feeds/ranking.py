"""Which inbox items a member will want first, learnt from their own library, locally.

The model is tf-idf over each paper's title and the start of its abstract: an item's
score is how close it is (cosine) to the papers the member likes (starred, read, tagged:
the mean of its three nearest), less how close it is to what they dismissed, plus a bonus
when it shares an author with a paper they like. Each score comes with the reason a person
reads ("like 2 starred papers: …", "shares an author with …"). Pure Python: an inverted
index of the liked papers' terms, so scoring an item touches only the papers that share a
word with it. Training on 100,000 papers takes about 4 s on one core (measured: see the
module's test).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from papershelf.core.ingest import normalize_text
from papershelf.core.messages import text

__all__ = ["Liked", "Model", "author_key"]

ABSTRACT_CHARS = 600  # of an abstract read (its first sentences say what it is about)
NEAREST = 3  # liked papers an item's score averages over
AUTHOR_BONUS = 0.15
DISLIKE_WEIGHT = 0.5
LIKE_FLOOR = 0.08  # a similarity below this is no reason to name a paper
_WORD_RE = re.compile(r"[a-z][a-z0-9]{2,}")
_STOP = frozenset("""
the and for with from that this are was were been being have has had not but its our
their these those which what when where who whom how into onto over under than then
can could may might will would should shall also such via using use used based new show
shows shown paper papers propose proposed approach approaches method methods results
result study work works both each more most other some any all one two three between
within without about across while however thus here there they them his her she him
""".split())
_KINDS = ("starred", "read", "tagged")  # (the order a reason names them in)


@dataclass(frozen=True)
class Liked:
    """A paper the member likes: why (`starred`, `read`, `tagged`), its text and authors
    (`author_key`s)."""

    title: str
    abstract: str
    why: str
    authors: tuple[str, ...] = ()


def author_key(family: str, given: str = "") -> str:
    """An author as compared: family name normalised, and the first initial."""
    family = normalize_text(family)
    initial = normalize_text(given)[:1]
    return f"{family} {initial}".strip() if family else ""


def _terms(title: str, abstract: str) -> Counter[str]:
    words = _WORD_RE.findall(normalize_text(f"{title} {title} {abstract[:ABSTRACT_CHARS]}"))
    return Counter(w for w in words if w not in _STOP)


class Model:
    """What `train` learnt; `score` ranks an item by it."""

    def __init__(self, liked: Sequence[Liked], disliked: Sequence[str]) -> None:
        self.liked = list(liked)
        counts = [_terms(p.title, p.abstract) for p in self.liked]
        disliked_counts = [_terms(t, "") for t in disliked]
        df: Counter[str] = Counter()
        for c in counts:
            df.update(c.keys())
        for c in disliked_counts:
            df.update(c.keys())
        self._n = len(counts) + len(disliked_counts)
        self._df = df
        self._likes = self._index(counts)
        self._dislikes = self._index(disliked_counts)
        self._authors: dict[str, list[int]] = defaultdict(list)
        for i, p in enumerate(self.liked):
            for key in p.authors:
                if key:
                    self._authors[key].append(i)

    @classmethod
    def train(cls, liked: Sequence[Liked], disliked: Sequence[str] = ()) -> Model:
        """The model of a member who likes `liked` and dismissed the titles `disliked`."""
        return cls(liked, disliked)

    def _idf(self, term: str) -> float:
        return math.log((self._n + 1) / (self._df.get(term, 0) + 1)) + 1.0

    def _vector(self, counts: Counter[str]) -> dict[str, float]:
        weights = {t: (1 + math.log(n)) * self._idf(t) for t, n in counts.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {t: w / norm for t, w in weights.items()}

    def _index(self, counts: Iterable[Counter[str]]) -> dict[str, list[tuple[int, float]]]:
        index: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, c in enumerate(counts):
            for term, weight in self._vector(c).items():
                index[term].append((i, weight))
        return index

    @staticmethod
    def _similar(vector: dict[str, float], index: dict[str, list[tuple[int, float]]]
                 ) -> dict[int, float]:
        sims: dict[int, float] = defaultdict(float)
        for term, weight in vector.items():
            for doc, other in index.get(term, ()):
                sims[doc] += weight * other
        return sims

    def score(self, title: str, abstract: str, authors: Sequence[str] = ()
              ) -> tuple[float, str]:
        """How much the member will want the item (higher first), and why, in words."""
        vector = self._vector(_terms(title, abstract))
        sims = self._similar(vector, self._likes)
        nearest = sorted(sims.items(), key=lambda hit: -hit[1])[:NEAREST]
        like = sum(s for _, s in nearest) / NEAREST
        dislikes = self._similar(vector, self._dislikes)
        dislike = max(dislikes.values(), default=0.0)
        shared = [i for key in authors for i in self._authors.get(key, ())]
        score = like - DISLIKE_WEIGHT * dislike + (AUTHOR_BONUS if shared else 0.0)
        return score, self._reason(nearest, shared, dislike)

    def _reason(self, nearest: list[tuple[int, float]], shared: list[int],
                dislike: float) -> str:
        reasons = []
        if shared:
            reasons.append(text("shares an author with {title}",
                                title=_quoted(self.liked[shared[0]].title)))
        close = [i for i, s in nearest if s >= LIKE_FLOOR]
        for kind in _KINDS:
            titles = [_quoted(self.liked[i].title) for i in close if self.liked[i].why == kind]
            if titles:
                papers = f"{kind} paper" if len(titles) == 1 else f"{len(titles)} {kind} papers"
                reasons.append(text("like {papers}: {titles}", papers=papers,
                                    titles=", ".join(titles)))
        if dislike >= max((s for _, s in nearest), default=0.0) and dislike >= LIKE_FLOOR:
            reasons.append(text("close to papers you dismissed"))
        return "; ".join(reasons) or text("nothing in your library like it yet")


def _quoted(title: str, longest: int = 60) -> str:
    title = " ".join(title.split())
    return f"“{title if len(title) <= longest else title[:longest - 1] + '…'}”"
