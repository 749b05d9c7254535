"""Which of several candidate records is a given paper: scores, reasons and confidence.

A provisional paper has an abstract but no title, so a candidate's title is judged by
how much of it the abstract says: a paper's title words, above all the rare ones (a
method name like "FrameQuant", a hyphenated term like "Branch-and-Bound"), usually
appear in its abstract, often several times and often side by side. Rarity is measured
over the candidates' titles (`WordStats`), so "learning" counts for little and
"FrameQuant" for much; two words side by side count by how rare they are as a pair
("efficient transformers" is in two ICML 2024 titles, though each word is in dozens). A
paper with a real title is also compared title to title with rapidfuzz, and a candidate
with an abstract (an online service's record) abstract to abstract. Another year,
another venue or a workshop version lowers a score, so a near miss loses to the right
candidate; `confident` says when the best is a clear winner. A candidate may also be
`placed`: the order of the list the paper came from puts it there (`catalog`'s batch
search); `placed_first` ranks it first unless the text has a clear winner of its own.

`Matcher` keeps the words of a fixed list of candidates (a conference catalog) with an
inverted index, so a search scores only the candidates that share a word with the paper.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from rapidfuzz import fuzz

from papershelf.formats.records import PaperRecord

__all__ = [
    "CONFIDENT_MARGIN",
    "CONFIDENT_SCORE",
    "PLACED_SCORE",
    "Candidate",
    "Matcher",
    "WordStats",
    "confident",
    "is_workshop",
    "placed_first",
    "rank",
    "venue_acronym",
    "words",
]

# `confident`: the best score at least this, and this far above the runner-up.
CONFIDENT_SCORE = 0.55
CONFIDENT_MARGIN = 0.12
# `confident` for a best the list order places where the text puts it too: the text's
# own first choice, by any margin, with at least this score (a title word or two of the
# paper's rarer ones: evidence of its own, not a first choice among near nothings).
PLACED_SCORE = 0.3

# Words that say nothing about which paper a title names (with the adverbs of a question
# title, "Do Efficient Transformers Really Save Computation?", which abstracts seldom say).
_STOP_WORDS = frozenset("""
a an and are as at be by can do does for from how in into is it its of on or our over
the their this through to towards toward under using via we what when where which
while who why with without your you not than that these those between beyond vs versus
really truly actually
""".split())
_WORD_RE = re.compile(r"[^\W_]+(?:[-‐‑][^\W_]+)*")
_HYPHENS_RE = re.compile(r"[-‐‑]")
_MATH_RE = re.compile(r"\$[^$]*\$")
_MATH_MARKUP_RE = re.compile(r"\\[A-Za-z]+|[{}^_\\]")
_COMBINING_RE = re.compile("[\u0300-\u036f]")
# Suffixes cut to bring a word's forms together ("simulators" and "simulation",
# "quantization" and "quantized"), longest first; what is left is cut to `_STEM_CHARS`.
_SUFFIXES = (
    "izations", "isations", "ization", "isation", "ational", "ations", "ators", "ities",
    "izing", "ising", "ation", "ator", "ness", "ments", "ment", "able", "ized", "ised",
    "izes", "ises", "ings", "ity", "ize", "ise", "ing", "ies", "ied", "ers", "er", "ed",
    "es", "s",
)
_KEEP_ENDINGS = ("ss", "us", "is", "ous")
_STEM_CHARS = 7
# A title word that only shares its first letters with a word of the paper ("mollify" and
# "mollification") counts for this much of a word the paper has.
_PREFIX_CHARS = 6
_PREFIX_CREDIT = 0.5
# How the evidence adds up (see `Matcher._score`): the extra weight of a title word, or
# of a pair of title words side by side, that the paper's own (provisional) title has;
# the weight of two title words the paper has side by side (times the pair's rarity);
# the power of the share of a title's weight found (a title mostly unsaid is unlikely,
# however many of its words match), where no word weighs more than `_COVERAGE_CAP` (a
# word in one title of fifty or rarer: rarer still says no more about whether an
# abstract would use it, as "save" or "really" shows); the evidence that makes a score
# of 1/2.
_TITLE_BONUS = 1.0
_PAIR_WEIGHT = 1.0
_COVERAGE_POWER = 1.5
_COVERAGE_CAP = 4.0
_HALF_SCORE = 25.0
# Two unrelated abstracts are up to about this much alike letter by letter (rapidfuzz's
# ratio, 0 to 1); above it, the likeness of two abstracts is evidence.
_ABSTRACT_CHANCE = 0.5
# A word in more than this many candidates' titles (or this share of them) is common: a
# search looks first at the candidates with a rarer word of the paper.
_COMMON_POSTINGS = 50
_COMMON_SHARE = 0.05
# What a disagreement costs (a factor on the evidence).
_OTHER_YEAR = 0.5
_OTHER_VENUE = 0.5
_WORKSHOP = 0.5
_WORKSHOP_RE = re.compile(r"\bworkshops?\b", re.IGNORECASE)
# Venue names to the acronym a catalog uses ("Proceedings of the 41st International
# Conference on Machine Learning" is ICML).
_VENUE_NAMES = (
    ("neural information processing systems", "NEURIPS"),
    ("international conference on machine learning", "ICML"),
    ("international conference on learning representations", "ICLR"),
    ("artificial intelligence and statistics", "AISTATS"),
    ("uncertainty in artificial intelligence", "UAI"),
    ("conference on learning theory", "COLT"),
    ("computer vision and pattern recognition", "CVPR"),
    ("international conference on computer vision", "ICCV"),
    ("european conference on computer vision", "ECCV"),
    ("empirical methods in natural language processing", "EMNLP"),
    ("north american chapter of the association for computational linguistics", "NAACL"),
    ("association for computational linguistics", "ACL"),
    ("knowledge discovery and data mining", "KDD"),
    ("journal of machine learning research", "JMLR"),
    ("transactions on machine learning research", "TMLR"),
    ("aaai conference on artificial intelligence", "AAAI"),
    ("international joint conference on artificial intelligence", "IJCAI"),
)
_ACRONYMS = frozenset(acronym for _, acronym in _VENUE_NAMES)
_VENUE_ALIASES = {"NIPS": "NEURIPS"}
_PREPRINT_RE = re.compile(r"\b(?:arxiv|corr|preprint|biorxiv|medrxiv|ssrn|openreview)\b")


# Words common in research titles of every field, for `WordStats` without a catalog.
_COMMON_TITLE_WORDS = """
model models learning learn network networks neural deep data method methods approach
analysis efficient large language system systems based new novel framework algorithm
algorithms optimization training representation representations robust generative
graph theory study problem problems application applications improved fast simple
scalable general adaptive estimation inference prediction detection recognition
classification generation performance evaluation design dynamic dynamics control
information structure process function functions effect effects towards toward using
multi via case time image images text task tasks feature features
""".split()
_COMMON_SHARE_IN_PRIOR = 0.1
# `rank` without a catalog's statistics weighs words as if among this many other titles,
# about the size of a conference catalog, so its scores mean what a catalog search's do.
_PRIOR_TITLES = 2000


@dataclass(frozen=True)
class Candidate:
    """A record that may be the paper, its score (0 to 1, higher is likelier: how well
    the paper's words fit it) and why, in words a user can check ("title words in the
    paper: framequant, ...; same year"). `place` says, when the order of the paper's
    list puts the paper at this candidate, where and why (also at the start of `why`);
    "" when it does not."""

    record: PaperRecord
    score: float
    why: str
    place: str = ""


def _stem(word: str) -> str:
    """`word` (lower case) without an inflection or derivation suffix, cut short."""
    if len(word) <= 4 or word.isdigit() or word.endswith(_KEEP_ENDINGS):
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    return word[:_STEM_CHARS]


def _fold(text: str) -> str:
    """`text` in lower case without accents or inline math markup."""
    if "$" in text:
        text = _MATH_RE.sub(lambda m: " " + _MATH_MARKUP_RE.sub(" ", m.group()) + " ", text)
    if not text.isascii():
        text = _COMBINING_RE.sub("", unicodedata.normalize("NFKD", text))
    return text.casefold()


@dataclass(frozen=True)
class _Word:
    """One telling word of a text: its stem, its folded form, and whether it is the run
    together form of a hyphenated term ("lowbit" for "low-bit")."""

    stem: str
    text: str
    compound: bool = False


def _words(text: str) -> list[_Word]:
    """The telling words of `text` in order (see `words`)."""
    out: list[_Word] = []
    for match in _WORD_RE.finditer(_fold(text)):
        parts = [p for p in _HYPHENS_RE.split(match.group()) if p]
        for part in parts:
            if part not in _STOP_WORDS and (len(part) > 1 or part.isdigit()):
                out.append(_Word(_stem(part), part))
        if len(parts) > 1:
            joined = "".join(parts)
            out.append(_Word(_stem(joined), joined, compound=True))
    return out


def _pairs(found: Sequence[_Word]) -> list[tuple[str, str]]:
    """The stems side by side in `found` (a text's words), the run together forms of
    hyphenated terms left out."""
    plain = [word.stem for word in found if not word.compound]
    return [(a, b) for a, b in itertools.pairwise(plain) if a != b]


def words(text: str) -> list[str]:
    """The stems of the words of `text` that can tell papers apart, in order. A
    hyphenated term gives its parts and the parts run together ("low-bit": low, bit,
    lowbit), so "Low-Bit" in a title meets "low bit" or "lowbit" in an abstract."""
    return [word.stem for word in _words(text)]


_COMMON_STEMS = frozenset(stem for word in _COMMON_TITLE_WORDS for stem in words(word))


class WordStats:
    """How rare each word is among a set of titles (inverse document frequency), so a
    title's rare words weigh more than its common ones.

    `prior` adds that many imagined titles in which the words common in research titles
    ("model", "learning", "network", ...) appear one time in ten and others never: with
    a handful of titles (the results of one search) every word would otherwise look
    either common or rare by chance, and a score would mean less than the same score
    in a catalog of thousands."""

    def __init__(self, titles: Iterable[str], prior: int = 0) -> None:
        counts: Counter[str] = Counter()
        pairs: Counter[tuple[str, str]] = Counter()
        total = 0
        for title in titles:
            found = _words(title)
            counts.update({word.stem for word in found})
            pairs.update(set(_pairs(found)))
            total += 1
        self.documents = total + prior
        self._counts = counts
        self._pairs = pairs
        self._prior = prior * _COMMON_SHARE_IN_PRIOR

    def idf(self, stem: str) -> float:
        """The weight of `stem`: high for a rare word, near zero for one in every title."""
        count = self._counts.get(stem, 0) + (self._prior if stem in _COMMON_STEMS else 0.0)
        return math.log((self.documents + 1) / (count + 0.5))

    def pair_idf(self, first: str, second: str) -> float:
        """The weight of two stems side by side in a title, by how rare the pair is (in
        the imagined titles, two common words are side by side one time in a hundred)."""
        count = float(self._pairs.get((first, second), 0))
        if first in _COMMON_STEMS and second in _COMMON_STEMS:
            count += self._prior * _COMMON_SHARE_IN_PRIOR
        return math.log((self.documents + 1) / (count + 0.5))


@dataclass(frozen=True)
class _Title:
    """A candidate read once: its distinct title words (stem, folded word, weight), the
    pairs of stems side by side in its title (with their weight), the weight of all its
    words as coverage counts it, its title and abstract for rapidfuzz, and its venue."""

    words: tuple[tuple[str, str, float], ...]
    pairs: tuple[tuple[str, str, float], ...]
    total: float
    text: str
    abstract: str
    venue: str
    workshop: bool


@dataclass(frozen=True)
class _Paper:
    """What candidates are compared with, read once per paper."""

    counts: Counter[str]
    prefixes: frozenset[str]
    pairs: Counter[tuple[str, str]]
    title_stems: frozenset[str]
    title_pairs: frozenset[tuple[str, str]]
    title: str
    abstract: str
    real_title: bool
    year: int | None
    venue: str
    workshop: bool


def _paper(paper: PaperRecord) -> _Paper:
    title = _words(paper.title)
    abstract = _words(paper.abstract)
    found = abstract + title
    return _Paper(
        counts=Counter(word.stem for word in found),
        prefixes=frozenset(w.text[:_PREFIX_CHARS] for w in found
                           if len(w.text) >= _PREFIX_CHARS),
        pairs=Counter(_pairs(abstract) + _pairs(title)),
        title_stems=frozenset(word.stem for word in title),
        title_pairs=frozenset(_pairs(title)),
        title=_normal(paper.title),
        abstract=_normal(paper.abstract),
        real_title=bool(paper.title.strip()) and not paper.title_provisional,
        year=paper.year,
        venue=venue_acronym(paper.venue),
        workshop=is_workshop(paper),
    )


def _normal(text: str) -> str:
    """`text` folded to lower-case words separated by single spaces."""
    return " ".join(re.findall(r"[^\W_]+", _fold(text)))


def is_workshop(record: PaperRecord) -> bool:
    """Whether `record` is a workshop paper (its venue or title says "workshop")."""
    return bool(_WORKSHOP_RE.search(record.venue) or _WORKSHOP_RE.search(record.title))


def venue_acronym(venue: str) -> str:
    """The short name of a venue for comparing two ("ICML" for "ICML", "ICML 2024" and
    "Proceedings of the 41st International Conference on Machine Learning"), or the
    venue's words in lower case when it is none Papershelf knows; "" for no venue or a
    preprint server (arXiv is where a paper waits for its venue, not another one). A
    workshop's venue is its conference's ("ICML Workshop" is ICML): being a workshop is
    judged apart."""
    text = " ".join(re.findall(r"[^\W_]+", _fold(venue)))
    if not text or _PREPRINT_RE.search(text):
        return ""
    first = text.split()[0].upper()
    first = _VENUE_ALIASES.get(first, first)
    if first in _ACRONYMS:
        return first
    for name, acronym in _VENUE_NAMES:
        if name in text:
            return acronym
    return _WORKSHOP_RE.sub("", text).strip()


class Matcher:
    """Candidates held ready for scoring many papers: their title words, how rare each
    word is among them (or in `stats`), and which candidates have which word."""

    def __init__(self, candidates: Sequence[PaperRecord], stats: WordStats | None = None,
                 prior: int = 0) -> None:
        self.candidates = list(candidates)
        self.stats = stats or WordStats((c.title for c in self.candidates), prior=prior)
        idf = functools.lru_cache(maxsize=None)(self.stats.idf)
        pair_idf = functools.lru_cache(maxsize=None)(self.stats.pair_idf)
        self._titles: list[_Title] = []
        self._by_stem: dict[str, list[int]] = defaultdict(list)
        self._by_prefix: dict[str, list[int]] = defaultdict(list)
        for index, record in enumerate(self.candidates):
            found = _words(record.title)
            distinct: dict[str, str] = {}
            for word in found:
                distinct.setdefault(word.stem, word.text)
            pairs = dict.fromkeys(_pairs(found))
            self._titles.append(_Title(
                words=tuple((stem, text, idf(stem)) for stem, text in distinct.items()),
                pairs=tuple((a, b, pair_idf(a, b)) for a, b in pairs),
                total=sum(min(idf(stem), _COVERAGE_CAP) for stem in distinct),
                text=_normal(record.title),
                abstract=_normal(record.abstract) if record.abstract else "",
                venue=venue_acronym(record.venue),
                workshop=is_workshop(record),
            ))
            for stem, text in distinct.items():
                self._by_stem[stem].append(index)
                if len(text) >= _PREFIX_CHARS:
                    self._by_prefix[text[:_PREFIX_CHARS]].append(index)

    def rank(self, paper: PaperRecord, limit: int | None = None) -> list[Candidate]:
        """The candidates that share a word with `paper`, scored, best first (at most
        `limit` of them)."""
        return [candidate for _, candidate in self.rank_indexed(paper, limit)]

    def rank_indexed(self, paper: PaperRecord, limit: int | None = None
                     ) -> list[tuple[int, Candidate]]:
        """`rank`, each candidate with its index in `candidates`."""
        prepared = _paper(paper)
        # A candidate that shares only common words with the paper cannot score high:
        # looking first at those with a rarer word keeps a search of thousands quick.
        common = max(_COMMON_POSTINGS, int(len(self.candidates) * _COMMON_SHARE))
        indexes: set[int] = set()
        frequent: list[list[int]] = []
        for table, keys in ((self._by_stem, prepared.counts), (self._by_prefix, prepared.prefixes)):
            for key in keys:
                postings = table.get(key)
                if postings is None:
                    continue
                if len(postings) <= common:
                    indexes.update(postings)
                else:
                    frequent.append(postings)
        if len(indexes) < (limit or _COMMON_POSTINGS):
            for postings in frequent:  # a paper of common words only: look at them all
                indexes.update(postings)
        scores = sorted(((self._score(prepared, i, None), i) for i in indexes),
                        key=lambda pair: (-pair[0], pair[1]))
        if limit is not None:
            scores = scores[:limit]
        return [(i, self._candidate(prepared, i)) for _, i in scores]

    def candidate(self, paper: PaperRecord, index: int) -> Candidate:
        """The candidate at `index` scored against `paper`, whatever its rank."""
        return self._candidate(_paper(paper), index)

    def score_all(self, paper: PaperRecord) -> list[Candidate]:
        """Every candidate scored against `paper`, in the order they were given."""
        prepared = _paper(paper)
        return [self._candidate(prepared, i) for i in range(len(self.candidates))]

    def _candidate(self, paper: _Paper, index: int) -> Candidate:
        reasons: list[str] = []
        score = self._score(paper, index, reasons)
        return Candidate(self.candidates[index], round(score, 4), "; ".join(reasons))

    def _score(self, paper: _Paper, index: int, reasons: list[str] | None) -> float:
        """The candidate's score against `paper` (0 to 1), and the reasons for it when
        `reasons` is a list: the evidence that the paper says the title (the rarity of
        each title word the paper has, more for a word it repeats and for one of its own
        title, and the rarity of each pair of title words the paper has side by side,
        more for one of its own title; times a power of the share of the title's rarity
        found), or how alike the titles or the abstracts are when both have one, lowered
        for another year, venue or a workshop version."""
        title = self._titles[index]
        if not title.words or title.total <= 0.0:
            if reasons is not None:
                reasons.append("the candidate has no title")
            return 0.0
        counts = paper.counts
        evidence = found_weight = 0.0
        found: list[tuple[float, str]] = []
        missing: list[tuple[float, str]] = []
        for stem, text, weight in title.words:
            count = counts.get(stem, 0)
            if count:
                evidence += weight * (1.0 + math.log(count))
                found_weight += min(weight, _COVERAGE_CAP)
                found.append((weight, text))
            elif len(text) >= _PREFIX_CHARS and text[:_PREFIX_CHARS] in paper.prefixes:
                evidence += _PREFIX_CREDIT * weight
                found_weight += _PREFIX_CREDIT * min(weight, _COVERAGE_CAP)
                found.append((_PREFIX_CREDIT * weight, f"{text} (partly)"))
            else:
                missing.append((weight, text))
            if stem in paper.title_stems:
                evidence += _TITLE_BONUS * weight
        for a, b, weight in title.pairs:
            count = paper.pairs.get((a, b), 0)
            if count:
                evidence += _PAIR_WEIGHT * weight * (1.0 + math.log(count))
                if (a, b) in paper.title_pairs:
                    evidence += _TITLE_BONUS * weight
        evidence *= math.pow(found_weight / title.total, _COVERAGE_POWER)
        factor = self._agreement(paper, index, reasons)
        evidence *= factor
        score = evidence / (evidence + _HALF_SCORE)
        alike = same_abstract = None
        if paper.real_title:
            alike = float(fuzz.ratio(paper.title, title.text)) / 100.0
            score = max(score, alike * alike * factor)
        if paper.abstract and title.abstract:
            same_abstract = float(fuzz.ratio(paper.abstract, title.abstract)) / 100.0
            beyond_chance = (same_abstract - _ABSTRACT_CHANCE) / (1.0 - _ABSTRACT_CHANCE)
            score = max(score, beyond_chance * factor)
        if reasons is not None:
            head: list[str] = []
            if same_abstract is not None and same_abstract > _ABSTRACT_CHANCE:
                head.append(f"abstracts {round(same_abstract * 100)}% alike")
            if alike is not None:
                head.append(f"titles {round(alike * 100)}% alike")
            if found:
                head.append("title words in the paper: "
                            + ", ".join(t for _, t in sorted(found, reverse=True)[:6]))
            if missing:
                head.append("not in it: "
                            + ", ".join(t for _, t in sorted(missing, reverse=True)[:4]))
            reasons[:0] = head
        return score

    def _agreement(self, paper: _Paper, index: int, reasons: list[str] | None) -> float:
        """The factor for year, venue and workshop (dis)agreement (1 when all agree or
        are unknown), with its reasons."""
        record = self.candidates[index]
        title = self._titles[index]
        factor = 1.0
        said: list[str] = []
        if paper.year is not None and record.year is not None:
            if paper.year == record.year:
                said.append("same year")
            else:
                factor *= _OTHER_YEAR
                said.append(f"another year ({record.year})")
        if paper.venue and title.venue:
            if title.venue == paper.venue:
                said.append("same venue")
            else:
                factor *= _OTHER_VENUE
                said.append(f"another venue ({record.venue})")
        if title.workshop != paper.workshop:
            factor *= _WORKSHOP
            said.append("a workshop version" if title.workshop else "not the workshop version")
        if reasons is not None:
            reasons.extend(said)
        return factor


def rank(paper: PaperRecord, candidates: Sequence[PaperRecord],
         stats: WordStats | None = None) -> list[Candidate]:
    """All of `candidates` scored against `paper`, best first. `stats` says how rare
    words are (a catalog's titles); without it the candidates' own titles are the
    measure, padded as if among a catalog's worth of other titles (see `WordStats`)."""
    scored = Matcher(candidates, stats, prior=_PRIOR_TITLES).score_all(paper)
    scored.sort(key=lambda c: -c.score)
    return scored


class _Ranked(Protocol):
    @property
    def score(self) -> float: ...

    @property
    def place(self) -> str: ...


_R = TypeVar("_R", bound=_Ranked)


def _clear_winner(best: float, runner_up: float) -> bool:
    return best >= CONFIDENT_SCORE and best - runner_up >= CONFIDENT_MARGIN


def confident(ranked: Sequence[_Ranked]) -> bool:
    """True when the best of `ranked` (as `rank` or `placed_first` give them) is a clear
    winner, so accepting it without a look is safe: a high score and a margin over the
    runner-up; or, when the list order places the paper at it, the text's own first
    choice too (a higher score than every other, at least PLACED_SCORE): two signals
    that agree need no margin. A candidate the list order alone puts first, whose words
    fit the paper less than another's, is never confident: the user looks at it."""
    if not ranked:
        return False
    best = ranked[0].score
    runner_up = max((c.score for c in ranked[1:]), default=0.0)
    if _clear_winner(best, runner_up):
        return True
    return bool(ranked[0].place) and best >= PLACED_SCORE and best > runner_up


def placed_first(ranked: Sequence[_R]) -> list[_R]:
    """`ranked` (best score first) with the candidate the list order places the paper at
    moved first, unless the best by score is a clear winner (a strong text match is
    never pushed out by the list order)."""
    out = list(ranked)
    placed = next((n for n, c in enumerate(out) if c.place), None)
    if not placed or _clear_winner(out[0].score, out[1].score if len(out) > 1 else 0.0):
        return out
    return [out[placed], *out[:placed], *out[placed + 1:]]
