"""Which inbox items a member will want first, learnt from their own library, locally.

The model is tf-idf over each paper's title and the start of its abstract: an item's
score is how close it is (cosine) to the papers the member likes (starred, read, tagged:
the mean of its three nearest), less how close it is to what they dismissed, plus a bonus
when it shares an author with a paper they like. Each score comes with the reason a person
reads ("like 2 starred papers: …", "shares an author with …"). Pure Python: the first
ranking indexes the liked papers (each word's postings, each paper's norm) and the model
keeps the index, so later rankings (the model is kept while the library is the same:
feeds.learning) only walk the postings of each item's telling words (the rarest of
each), summed in C (a map over a posting list, not a loop per paper). How common a word
is is counted over the whole library (the liked papers and the others, the background):
a word that runs through the liked papers alone is what they are about, and counts.
Training on a library of 100,000 (a tenth liked) takes about 2 s of CPU (`make bench`,
figure 17, which also measures the ranking's quality against recency); checking and
ranking 50 feeds against it is figure 20.
"""

from __future__ import annotations

import heapq
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import add, truediv
from typing import Any

from papershelf.core.ingest import normalize_text
from papershelf.messages import Text, counted, listed, plural, text

__all__ = ["Liked", "Model", "author_key", "why"]

ABSTRACT_CHARS = 300  # of an abstract read (its first sentences say what it is about)
NEAREST = 3  # liked papers an item's score averages over
AUTHOR_BONUS = 0.15
DISLIKE_WEIGHT = 0.5
LIKE_FLOOR = 0.08  # a similarity below this is no reason to name a paper
# A word in more than this share of the papers (and more than the floor) tells nothing.
COMMON_SHARE = 0.1
COMMON_FLOOR = 50
TELLING = 24  # of an item's words compared (the rarest: what it is about)
# A word held by more of the liked papers than this adds only to those a rarer word of
# the item already made candidates (when there are enough): ranking 2,000 items against
# 10,000 liked papers walks a few thousand postings each, not every paper on the topic.
LONG_POSTINGS = 256
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


@dataclass(frozen=True, slots=True)
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


def _terms(title: str, abstract: str) -> frozenset[str]:
    """The words of a paper's title and the start of its abstract (each once)."""
    words = f"{title} {abstract[:ABSTRACT_CHARS]}"
    words = words.lower() if words.isascii() else normalize_text(words)
    return frozenset(_WORD_RE.findall(words)) - _STOP


class Model:
    """What `train` learnt (each liked paper's words, how common each word is); `rank`
    scores items by it."""

    def __init__(self, liked: Sequence[Liked], disliked: Sequence[str],
                 background: Iterable[tuple[str, str]] = (), tag: str = "") -> None:
        self.liked = list(liked)
        self.tag = tag  # (the tag whose papers are liked, '': the member's; reasons name it)
        # (What a model keeps is kept long, in a window beside the check that uses it:
        # tuples and plain dicts of words and numbers, which the garbage collector stops
        # walking, rather than lists, which each of its full passes walks whole.)
        self._docs = [tuple(_terms(p.title, p.abstract)) for p in self.liked]
        self._bad = [tuple(_terms(title, "")) for title in disliked]
        df: Counter[str] = Counter()
        for terms in chain(self._docs, self._bad):  # (a call each: not one long hold of
            df.update(terms)  # the interpreter, which a window's thread waits out)
        others = 0
        for title, abstract in background:
            df.update(_terms(title, abstract))
            others += 1
        self._df = dict(df)
        self._n = n = len(self._docs) + len(self._bad) + others
        self._idfs = {t: math.log((n + 1) / (count + 1)) + 1.0 for t, count in df.items()}
        self._squares = {t: idf * idf for t, idf in self._idfs.items()}
        self._indexes: dict[int, tuple[dict[str, tuple[int, ...]], tuple[float, ...]]] = {}
        self._sets: dict[int, dict[str, frozenset[int]]] = {}
        authors: dict[str, list[int]] = defaultdict(list)
        for i, p in enumerate(self.liked):
            for key in p.authors:
                if key:
                    authors[key].append(i)
        self._authors = {key: tuple(held) for key, held in authors.items()}

    @classmethod
    def train(cls, liked: Sequence[Liked], disliked: Sequence[str] = (),
              background: Iterable[tuple[str, str]] = (), tag: str = "") -> Model:
        """The model of a member who likes `liked` and dismissed the titles `disliked`;
        `background`, the (title, abstract) of the library's other papers, says which
        words are common (counted only: a word that runs through the liked papers
        alone is what they are about, not a common word). With `tag`, the liked papers
        are that tag's, and each reason names it."""
        return cls(liked, disliked, background, tag)

    def _idf(self, term: str) -> float:
        idf = self._idfs.get(term)
        return math.log(self._n + 1) + 1.0 if idf is None else idf

    def _telling(self, terms: frozenset[str]) -> tuple[frozenset[str], float]:
        """The `TELLING` rarest of `terms` that are not common (in a tenth of the papers
        or fewer): the words an item is compared on; and the norm of all its words."""
        common = max(COMMON_FLOOR, COMMON_SHARE * self._n)
        idfs, df, unseen = self._idfs, self._df, math.log(self._n + 1) + 1.0
        weighed = [(idfs.get(t, unseen), t) for t in terms]
        rare = [pair for pair in weighed if df.get(pair[1], 0) <= common]
        norm = math.sqrt(sum(idf * idf for idf, _t in weighed)) or 1.0
        return frozenset(t for _idf, t in heapq.nlargest(TELLING, rare)), norm

    def _index(self, docs: Sequence[tuple[str, ...]]) -> tuple[dict[str, tuple[int, ...]],
                                                                 tuple[float, ...]]:
        """The `docs`' postings (word → docs holding it) and norms, made at the first
        ranking and kept with the model (a model is kept while the library is the same:
        feeds.learning), so later rankings only walk them."""
        index = self._indexes.get(id(docs))
        if index is None:
            postings: dict[str, list[int]] = defaultdict(list)
            squares = self._squares
            norms = []
            for i, terms in enumerate(docs):
                for term in terms:
                    postings[term].append(i)
                norms.append(math.sqrt(sum(map(squares.__getitem__, terms))) or 1.0)
            index = self._indexes[id(docs)] = (
                {term: tuple(held) for term, held in postings.items()}, tuple(norms))
        return index

    def _similar(self, told: Sequence[tuple[frozenset[str], float]],
                 docs: Sequence[tuple[str, ...]], nearest: int
                 ) -> list[list[tuple[int, float]]]:
        """Each item's `nearest` `docs` by cosine similarity (tf-idf, each word once) over
        its telling words, closest first: (doc, similarity). The sums run in C (a map
        over each word's postings), not a Python loop per doc; so, mostly, does the
        choice of the nearest (those at least the `nearest`th closest, then sorted)."""
        if not docs:
            return [[] for _ in told]
        postings, norms = self._index(docs)
        sets = self._sets.setdefault(id(docs), {})
        idfs, norm_of = self._idfs, norms.__getitem__
        found = []
        for telling, own in told:
            sims: dict[int, float] = {}
            # (rarest first: a word many of the docs hold then only adds to the docs
            # that a rarer word made candidates, when there are enough of them)
            for length, term in sorted((len(postings.get(t, ())), t) for t in telling):
                if not length:
                    continue
                weight = idfs[term] ** 2  # (a word of the docs is a word of the model)
                if not sims:
                    sims = dict.fromkeys(postings[term], weight)
                elif length > LONG_POSTINGS and len(sims) >= nearest:
                    held = sets.get(term)
                    if held is None:
                        held = sets[term] = frozenset(postings[term])
                    listed: Iterable[int] = held.intersection(sims)
                    sims.update(zip(listed, map(add, map(sims.__getitem__, listed),
                                                repeat(weight))))
                else:
                    listed = postings[term]
                    sims.update(zip(listed, map(add, map(sims.get, listed, repeat(0.0)),
                                                repeat(weight))))
            values = list(map(truediv, sims.values(), map(norm_of, sims)))
            pairs = list(zip(values, sims)) if len(values) <= nearest else list(compress(
                zip(values, sims), map(heapq.nlargest(nearest, values)[-1].__le__, values)))
            pairs.sort(reverse=True)  # (closest first; of equals, the later doc)
            found.append([(i, sim / own) for sim, i in pairs[:nearest]])
        return found

    def rank(self, items: Sequence[tuple[str, str, Sequence[str]]]) -> list[tuple[float, str]]:
        """For each item (title, abstract, `author_key`s): how much the member will want
        it (higher first), and why (as the library keeps it: `why` says it in words)."""
        told = [self._telling(_terms(title, abstract)) for title, abstract, _authors in items]
        likes = self._similar(told, self._docs, NEAREST)
        dislikes = self._similar(told, self._bad, 1)
        ranked = []
        for (_title, _abstract, authors), nearest, bad in zip(items, likes, dislikes):
            like = sum(s for _, s in nearest) / NEAREST
            dislike = bad[0][1] if bad else 0.0
            shared = [i for key in authors for i in self._authors.get(key, ())]
            score = like - DISLIKE_WEIGHT * dislike + (AUTHOR_BONUS if shared else 0.0)
            ranked.append((score, self._reason(nearest, shared, dislike)))
        return ranked

    def score(self, title: str, abstract: str, authors: Sequence[str] = ()
              ) -> tuple[float, str]:
        """`rank` of one item."""
        return self.rank([(title, abstract, authors)])[0]

    def _reason(self, nearest: list[tuple[int, float]], shared: list[int],
                dislike: float) -> str:
        """Why an item ranks where it does, as the library keeps it (`why` says it in
        words, in the reader's language): the parts of the reason, as JSON."""
        parts: list[list[str | int]] = []
        if shared:
            parts.append(["author", _quoted(self.liked[shared[0]].title)])
        close = [i for i, s in nearest if s >= LIKE_FLOOR]
        if self.tag and close:
            parts.append(["tag", len(close), ", ".join(_quoted(self.liked[i].title)
                                                       for i in close), _quoted(self.tag)])
        for kind in () if self.tag else _KINDS:
            titles = [_quoted(self.liked[i].title) for i in close if self.liked[i].why == kind]
            if titles:
                parts.append([kind, len(titles), ", ".join(titles)])
        if dislike >= max((s for _, s in nearest), default=0.0) and dislike >= LIKE_FLOOR:
            parts.append(["dismissed"])
        return json.dumps(parts, ensure_ascii=False, separators=(",", ":"))


# What a reason says of the papers an item is like, by why they are liked: the template
# (translated by the window) and the English of one paper.
_LIKE = {"starred": ("like %n starred papers: {titles}", "like a starred paper: {titles}"),
         "read": ("like %n read papers: {titles}", "like a paper you read: {titles}"),
         "tagged": ("like %n tagged papers: {titles}", "like a tagged paper: {titles}")}


def why(kept: str) -> str:
    """The reason `Model.rank` gave (as the library keeps it) in words: a message the
    window says in its language, the English elsewhere. A reason kept in words (before
    they were kept in parts) is said as it is."""
    if not kept.startswith("["):
        return kept
    try:
        said: list[str] = [_said(part) for part in json.loads(kept)]
    except (ValueError, TypeError, IndexError, KeyError):
        return kept
    return listed(said) if said else text("nothing in your library like it yet")


def _said(part: list[Any]) -> Text:
    kind = part[0]
    if kind == "author":
        return text("shares an author with {title}", title=str(part[1]))
    if kind == "dismissed":
        return text("close to papers you dismissed")
    if kind == "tag":
        return counted("like %n papers tagged {tag}: {titles}", int(part[1]),
                       tag=str(part[3]), titles=str(part[2]))
    template, one = _LIKE[kind]
    n, titles = int(part[1]), str(part[2])
    english = one if n == 1 else template.replace("%n", str(n))
    return plural(template, n, english.format(titles=titles), titles=titles)


def _quoted(title: str, longest: int = 60) -> str:
    title = " ".join(title.split())
    return f"“{title if len(title) <= longest else title[:longest - 1] + '…'}”"
