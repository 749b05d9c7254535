"""The identity corpus of issue 40: ~300 realistic CSL-JSON items, as `export --format
csljson` writes them, on which Papershelf's bibliographies and citations are compared
with citeproc-js's (fixtures in corpus/, made by make_fixtures.sh).

Deterministic: the same items every run, from

- the PMLR seed papers (../shared/data/icml2024-pmlr-seeds.bib, 38 papers of ICML 2024);
- 262 papers of the ICML 2024 catalog (../shared/data/icml2024-paperlists.json, read
  where it lies, never copied here), shaped into every kind a reading list holds: articles,
  proceedings papers, books, theses, reports, chapters, arXiv preprints, with particles
  ("van der Schaar"), non-ASCII names, 17 to 71 authors, corporate authors, missing
  years, hyphenated ("Shi-ang") and lower-case ("shyma yaser") given names, and many
  alike first authors and years (disambiguation).

    python tests/data/csl/corpus.py [OUT.json]   # items, clusters, digest (stdout without OUT)
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SHARED = os.environ.get("PAPERSHELF_SHARED_DATA",
                        os.path.join(os.path.dirname(ROOT), "shared", "data"))
CATALOG = os.path.join(SHARED, "icml2024-paperlists.json")
SEEDS = os.path.join(SHARED, "icml2024-pmlr-seeds.bib")
SIZE = 300

ICML = "Proceedings of the 41st International Conference on Machine Learning"
PMLR = "Proceedings of Machine Learning Research"
_PARTICLES = {"van", "von", "der", "den", "de", "la", "le", "du", "da", "di", "dos", "del",
              "ter", "ten", "zu", "des"}
JOURNALS = [("Journal of Machine Learning Research", "J. Mach. Learn. Res."),
            ("Transactions on Machine Learning Research", "Trans. Mach. Learn. Res."),
            ("Nature Machine Intelligence", "Nat. Mach. Intell."),
            ("IEEE Transactions on Pattern Analysis and Machine Intelligence",
             "IEEE Trans. Pattern Anal. Mach. Intell."),
            ("Neural Computation", "Neural Comput.")]
PUBLISHERS = [("MIT Press", "Cambridge, MA"), ("Cambridge University Press", "Cambridge"),
              ("Springer", "Cham"), ("O'Reilly Media", "Sebastopol, CA"),
              ("Princeton University Press", "Princeton, NJ")]
UNIVERSITIES = ["Stanford University", "University of Oxford", "ETH Zürich",
                "Université de Montréal", "Carnegie Mellon University", "Tsinghua University"]
CORPORATE = ["OpenAI", "Google DeepMind", "European Commission",
             "National Institute of Standards and Technology", "Meta AI",
             "Organisation for Economic Co-operation and Development"]


def person(name: str) -> dict[str, str]:
    """A catalog name ("Mark van der Wilk") as the CSL-JSON export writes it: the
    particles joined to the family name."""
    words = name.split()
    if len(words) == 1:
        return {"family": words[0]}
    start = len(words) - 1
    for n in range(1, len(words) - 1):
        if words[n] in _PARTICLES:
            start = n
            break
    return {"family": " ".join(words[start:]), "given": " ".join(words[:start])}


def _pages(rng: random.Random) -> str:
    first = rng.randrange(1, 60000)
    # some ranges cross a hundred or a thousand (Chicago writes 1885–1901, 98–104)
    return f"{first}-{first + rng.choice([8, 12, 17, 20, 25, 31, 104, 9, 3])}"


def _unbrace(text: str) -> str:
    accents = {"\\'": "\u0301", '\\"': "\u0308", "\\`": "\u0300", "\\^": "\u0302",
               "\\~": "\u0303", "\\c": "\u0327", "\\v": "\u030c", "\\H": "\u030b"}
    import unicodedata

    def accent(match: re.Match[str]) -> str:
        return unicodedata.normalize("NFC", match.group(2) + accents[match.group(1)])

    text = re.sub(r"\{?(\\['\"`^~cvH])\s*\{?([A-Za-z])\}?\}?", accent, text)
    text = text.replace("\\o", "ø").replace("\\l", "ł").replace("\\ss", "ß")
    return re.sub(r"[{}]", "", text).strip()


def seeds() -> list[dict[str, Any]]:
    """The PMLR seed papers as proceedings papers."""
    with open(SEEDS, encoding="utf-8") as handle:
        text = handle.read()
    found = []
    for entry in re.split(r"\n@", text)[1:]:
        if not entry.lower().startswith("inproceedings"):
            continue
        fields = dict(re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?\s*$", entry, re.M))
        key = entry.split("{", 1)[1].split(",", 1)[0]
        authors = [a.strip() for a in _unbrace(fields["author"]).split(" and ")]
        item: dict[str, Any] = {
            "id": key, "type": "paper-conference", "title": _unbrace(fields["title"]),
            "author": [{"family": a.split(",", 1)[0].strip(),
                        "given": a.split(",", 1)[1].strip()} if "," in a else person(a)
                       for a in authors],
            "container-title": ICML, "collection-title": PMLR, "volume": "235",
            "publisher": "PMLR", "issued": {"date-parts": [[2024, 7]]},
            "URL": f"https://proceedings.mlr.press/v235/{key}.html"}
        if "pages" in fields:
            item["page"] = fields["pages"].replace("--", "-")
        found.append(item)
    return found


def _kind(n: int) -> str:
    # 262 papers: most are proceedings papers and preprints, as in a real reading list
    kinds = (["paper-conference"] * 9 + ["article-journal"] * 5 + ["article"] * 5
             + ["book", "thesis", "report", "chapter"])
    return kinds[n % len(kinds)]


def catalog(count: int) -> list[dict[str, Any]]:
    with open(CATALOG, encoding="utf-8") as handle:
        papers = json.load(handle)
    rng = random.Random(40)
    # All the papers of 17 to 71 authors, of particles, of hyphenated or lower-case given
    # names (the hard cases), then alike first authors (disambiguation), then any.
    def hard(paper: dict[str, Any]) -> bool:
        names = paper["author"].split(";")
        return (len(names) >= 17
                or any(set(name.split()[1:-1]) & _PARTICLES for name in names[:3])
                or any(name[:1].islower() or "-" in name.split()[0] for name in names[:2])
                or not names[0].isascii())

    named = {"6FtAXU4ean", "jr0W36wOBx", "1HDrfUahXv", "6KLNiRdWH6", "9cG1oRnqNd",
             "amRSBdZlw9"}  # the names issue 40 quotes: shyma yaser, Shi-ang, Kögler...
    chosen = [p for p in papers if hard(p) and p["id"] not in named]
    rng.shuffle(chosen)
    chosen.sort(key=lambda p: len(p["author"].split(";")) < 17)  # all the many-authored
    chosen = [p for p in papers if p["id"] in named] + chosen[:count // 2 - len(named)]
    by_first: dict[str, list[dict[str, Any]]] = {}
    for paper in papers:
        by_first.setdefault(paper["author"].split(";")[0].split()[-1], []).append(paper)
    taken = {p["id"] for p in chosen}
    for family in ("Wang", "Zhang", "Li", "Chen", "Liu"):
        for paper in by_first.get(family, [])[:8]:
            if paper["id"] not in taken and len(chosen) < count * 3 // 4:
                chosen.append(paper)
                taken.add(paper["id"])
    rest = [p for p in papers if p["id"] not in taken]
    rng.shuffle(rest)
    chosen += rest[:count - len(chosen)]
    chosen.sort(key=lambda p: p["id"])
    items = []
    for n, paper in enumerate(chosen):
        items.append(shaped(paper, n, rng))
    return items


def shaped(paper: dict[str, Any], n: int, rng: random.Random) -> dict[str, Any]:
    names = [person(name.strip()) for name in paper["author"].split(";") if name.strip()]
    kind = _kind(n)
    if len(names) >= 17 and kind in ("book", "thesis", "report", "chapter"):
        kind = "paper-conference"  # (those keep a few authors only)
    key = paper["proceeding"].rsplit("/", 1)[-1].removesuffix(".html") or paper["id"]
    year = rng.choice([2024] * 6 + [2023, 2022, 2021, 2019])
    item: dict[str, Any] = {"id": f"{key}-{paper['id']}", "type": kind,
                            "title": paper["title"].strip(), "author": names,
                            "issued": {"date-parts": [[year]]}}
    if kind == "paper-conference":
        item.update({"container-title": ICML, "collection-title": PMLR, "volume": "235",
                     "page": _pages(rng), "publisher": "PMLR",
                     "issued": {"date-parts": [[2024, 7]]}, "URL": paper["proceeding"]})
    elif kind == "article-journal":
        journal, short = JOURNALS[n % len(JOURNALS)]
        item.update({"container-title": journal, "container-title-short": short,
                     "volume": str(rng.randrange(5, 47)), "issue": str(rng.randrange(1, 13)),
                     "page": _pages(rng),
                     "DOI": f"10.{rng.randrange(1000, 9999)}/{paper['id'].lower()}"})
        item["issued"] = {"date-parts": [[year, rng.randrange(1, 13)]]}
    elif kind == "article":
        number = f"{year % 100:02d}{rng.randrange(1, 13):02d}.{rng.randrange(10000, 99999)}"
        item.update({"publisher": "arXiv", "number": f"arXiv:{number}",
                     "URL": f"https://arxiv.org/abs/{number}"})
    elif kind == "book":
        publisher, place = PUBLISHERS[n % len(PUBLISHERS)]
        item.update({"publisher": publisher, "publisher-place": place,
                     "author": names[:3]})
        if n % 3 == 0:
            item["edition"] = "2"
    elif kind == "thesis":
        item.update({"genre": "PhD thesis", "publisher": UNIVERSITIES[n % len(UNIVERSITIES)],
                     "author": names[:1]})
    elif kind == "report":
        item.update({"author": [{"literal": CORPORATE[n % len(CORPORATE)]}],
                     "number": f"TR-{year}-{rng.randrange(1, 99):02d}",
                     "publisher": CORPORATE[n % len(CORPORATE)]})
    elif kind == "chapter":
        publisher, place = PUBLISHERS[n % len(PUBLISHERS)]
        item.update({"container-title": "Handbook of Machine Learning Methods",
                     "editor": [person("Katherine Heller"), person("Adrian Weller")],
                     "publisher": publisher, "publisher-place": place,
                     "page": _pages(rng), "author": names[:4]})
    if n % 23 == 5:  # a paper of no known year
        del item["issued"]
    if n % 29 == 7 and kind != "report":  # a corporate author among people
        item["author"] = [{"literal": CORPORATE[n % len(CORPORATE)]}, *names[:2]]
    return item


def corpus(size: int = SIZE) -> list[dict[str, Any]]:
    """The corpus's items, the same every time (FileNotFoundError without ../shared)."""
    found = seeds()
    found += catalog(size - len(found))
    seen: set[str] = set()
    for item in found:  # ids are unique
        while item["id"] in seen:
            item["id"] += "x"
        seen.add(item["id"])
    return found


def digest(items: list[dict[str, Any]]) -> str:
    """What a fixture was made from: it is stale when the corpus changes."""
    text = json.dumps(items, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def clusters(items: list[dict[str, Any]]) -> list[list[str]]:
    """Citations of several items together: every tenth item with two further on, and
    a run of the same first author (collapsed "(Wang et al., 2024a, 2024b)")."""
    ids = [item["id"] for item in items]
    found = [[ids[n], ids[(n + 7) % len(ids)], ids[(n + 13) % len(ids)]]
             for n in range(0, len(ids), 10)]
    by_first: dict[str, list[str]] = {}
    for item in items:
        first = (item.get("author") or [{}])[0]
        by_first.setdefault(first.get("family") or first.get("literal") or "", []).append(
            item["id"])
    found += [same[:3] for _family, same in sorted(by_first.items()) if len(same) >= 3]
    return found


def document(size: int = SIZE) -> dict[str, Any]:
    """What make_fixtures.sh renders: the items, the clusters, the digest."""
    items = corpus(size)
    return {"items": items, "clusters": clusters(items), "digest": digest(items)}


def main(argv: list[str]) -> None:
    text = json.dumps(document(), ensure_ascii=False, indent=1) + "\n"
    if len(argv) > 1:
        with open(argv[1], "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
