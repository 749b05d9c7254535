"""Conference catalogs the user added, searched offline to complete provisional papers.

A catalog is a file listing a conference's papers; Papershelf reads the public
"paperlists" JSON format (a list of objects with `title`, `author` as "A;B", `status`,
`site`, `or` for the OpenReview link, `proceeding` and `pdf`). `read_catalog` turns one
into `PaperRecord`s; `CatalogStore` keeps copies of the added files in one folder with
a small manifest (name, venue, year, content digest) and answers `search` from an
in-memory word index built once over all of them (`matching.Matcher`); `catalog_store`
is the user's, which the command line and the window share.

The index also keeps where each paper stands in its catalog's file, for `search_many`:
an abstract list copied from a conference's site lists its papers in the site's order,
which is its catalog's, so a paper whose words say little (an abstract that hardly uses
its title's words) is found between its neighbours in the list once they are matched.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from papershelf.core import paths
from papershelf.core.ingest import normalize_text
from papershelf.core.transfer import write_atomically
from papershelf.formats.records import Author, FormatError, PaperRecord
from papershelf.metadata.matching import (
    Candidate,
    Matcher,
    confident,
    placed_first,
    venue_acronym,
)

__all__ = [
    "MANIFEST",
    "NEIGHBOURS",
    "Catalog",
    "CatalogStore",
    "catalog_store",
    "read_catalog",
    "split_author",
]

MANIFEST = "catalogs.json"
_MANIFEST_VERSION = 1
# Words that start a family name ("Mark van der Wilk", "Valentin De Bortoli").
_PARTICLES = frozenset({
    "van", "von", "der", "den", "de", "del", "della", "dei", "degli", "di", "da", "dos",
    "das", "du", "la", "le", "ter", "ten", "zu", "vom", "af", "al", "el", "bin", "ibn",
})
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
# "Van" and "Le" are also Vietnamese middle names: "Nhuong Van Nguyen" is a Nguyen.
_VIETNAMESE_FAMILIES = frozenset({
    "nguyen", "tran", "le", "pham", "hoang", "huynh", "phan", "vu", "vo", "dang", "bui",
    "do", "ho", "ngo", "duong", "ly", "truong", "dinh", "doan", "lam", "trinh",
})
# Venue names as conferences write them, from the short name in a site or file name.
_VENUES = {
    "icml": "ICML", "neurips": "NeurIPS", "nips": "NeurIPS", "iclr": "ICLR",
    "aistats": "AISTATS", "colt": "COLT", "uai": "UAI", "corl": "CoRL", "colm": "COLM",
    "cvpr": "CVPR", "iccv": "ICCV", "eccv": "ECCV", "acl": "ACL", "emnlp": "EMNLP",
    "naacl": "NAACL", "aaai": "AAAI", "ijcai": "IJCAI", "kdd": "KDD", "www": "WWW",
    "siggraph": "SIGGRAPH", "wacv": "WACV", "acmmm": "ACM MM", "tmlr": "TMLR",
}
_SITE_RE = re.compile(r"(?i)^https?://(?:www\.)?([a-z]+)\.cc/virtual/((?:19|20)\d{2})/")
_FILE_RE = re.compile(r"(?i)(?:^|[^a-z])([a-z]+)[-_ ]?((?:19|20)\d{2})(?!\d)")
# A paperlists status for a paper the venue did not publish.
_NOT_PUBLISHED_RE = re.compile(r"(?i)reject|withdr|desk")
_NAME_RE = re.compile(r"[^\w.-]+")
# `search_many`: how many papers of a list on each side of a paper tell where it sits,
# and how many of them must be matched with confidence (at least one on each side).
NEIGHBOURS = 4
_ANCHORS = 3
# At least this many candidates are ranked for each paper of a list: whether its best
# is a clear winner depends on the runner-up.
_DEPTH = 5


@dataclass(frozen=True)
class Catalog:
    """One stored catalog: its name in the store, the venue and year its papers get,
    how many papers it holds, and the SHA-256 of its file (what makes two adds one)."""

    name: str
    venue: str
    year: int | None
    papers: int
    digest: str
    path: Path


def split_author(name: str) -> Author | None:
    """A name written "Given Family" as an Author: the family name is the last word,
    or from a particle on ("Mark van der Wilk" is "van der Wilk"), with "Jr." kept in
    it; None for an empty name."""
    words = name.split()
    if not words:
        return None
    suffix = ""
    if len(words) > 2 and words[-1].lower() in _SUFFIXES:
        suffix = " " + words.pop()
    if len(words) == 1:
        return Author(words[0] + suffix)
    start = len(words) - 1
    for index in range(1, len(words) - 1):
        word = words[index].lower()
        if word not in _PARTICLES:
            continue
        if (word in ("van", "le") and words[index][0].isupper()
                and words[-1].lower() in _VIETNAMESE_FAMILIES):
            break
        start = index
        break
    return Author(" ".join(words[start:]) + suffix, " ".join(words[:start]))


def read_catalog(path: str | os.PathLike[str], venue: str | None = None,
                 year: int | None = None) -> list[PaperRecord]:
    """The papers of a paperlists-format file, as records; `venue` and `year` replace
    what the file says (its `site` links, else its name). Papers the venue rejected or
    that were withdrawn are left out. Raises FormatError naming the file if it is not a
    catalog."""
    name = os.fspath(path)
    entries = _entries(name, _read(name))
    return _records(entries, *_venue_and_year(name, entries, venue, year))


def _read(name: str) -> bytes:
    """The bytes of the file `name`; FormatError naming it if it cannot be read."""
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise FormatError(name, f"cannot read the file: {exc.strerror or exc}") from exc


def _entries(name: str, data: bytes) -> list[dict[str, Any]]:
    """The paper objects of the catalog file `name` holding `data`; FormatError if it is
    not one."""
    what = "is not a conference catalog (a paperlists JSON list of papers)"
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise FormatError(name, f"{what}: it is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise FormatError(name, f"{what}: not JSON ({exc.msg})", exc.lineno) from None
    except RecursionError:
        raise FormatError(name, f"{what}: its JSON is nested too deeply") from None
    if not isinstance(value, list):
        raise FormatError(name, f"{what}: it holds a JSON {type(value).__name__}, not a list")
    if not value:
        raise FormatError(name, "the catalog lists no papers")
    entries = [e for e in value if isinstance(e, dict) and isinstance(e.get("title"), str)]
    if len(entries) < len(value) / 2 or not any(e.get("author") is not None for e in entries):
        raise FormatError(name, f"{what}: its items are not papers with a title and authors")
    return entries


def _venue_and_year(name: str, entries: list[dict[str, Any]], venue: str | None = None,
                    year: int | None = None) -> tuple[str, int | None]:
    """The venue and year of a catalog: `venue` and `year` when given, else what its
    papers' `site` links say ("https://icml.cc/virtual/2024/poster/35220" is ICML 2024),
    else its file name ("icml2024.json", "neurips-2023.json"); ("", None) when none says."""
    found_venue, found_year = _found_venue_and_year(name, entries)
    return (found_venue if venue is None else venue.strip(),
            found_year if year is None else year)


def _found_venue_and_year(name: str, entries: list[dict[str, Any]]
                          ) -> tuple[str, int | None]:
    """The venue and year a catalog's `site` links or file name say (see above)."""
    for entry in entries[:50]:
        match = _SITE_RE.match(str(entry.get("site") or ""))
        if match:
            short = match.group(1).lower()
            return _VENUES.get(short, short.upper()), int(match.group(2))
    for match in _FILE_RE.finditer(Path(name).stem):
        short = match.group(1).lower()
        if short in _VENUES:
            return _VENUES[short], int(match.group(2))
    match = _FILE_RE.search(Path(name).stem)
    if match:
        return match.group(1).upper(), int(match.group(2))
    return "", None


def _records(entries: Iterable[dict[str, Any]], venue: str, year: int | None
             ) -> list[PaperRecord]:
    records: list[PaperRecord] = []
    for entry in entries:
        title = " ".join(entry["title"].split())
        if not title or _NOT_PUBLISHED_RE.search(str(entry.get("status") or "")):
            continue
        authors = [a for a in map(split_author, str(entry.get("author") or "").split(";"))
                   if a is not None]
        track = str(entry.get("track") or "")
        raw: dict[str, str] = {}
        for field, key in (("openreview", "or"), ("pdf", "pdf")):
            link = _link(entry.get(key))
            if link:
                raw[field] = link
        records.append(PaperRecord(
            entry_type="inproceedings",
            title=title,
            authors=authors,
            venue=f"{venue} Workshop" if venue and "workshop" in track.lower() else venue,
            year=year,
            url=_link(entry.get("proceeding")),
            raw=raw,
        ))
    return records


def _link(value: object) -> str:
    """`value` if it is an http(s) link, else ""."""
    text = str(value or "").strip()
    return text if re.match(r"(?i)^https?://\S+$", text) else ""


def _copy(record: PaperRecord) -> PaperRecord:
    """A copy of a catalog record a caller may change without changing the catalog."""
    return dataclasses.replace(record, authors=list(record.authors), raw=dict(record.raw))


def _copied(candidates: Iterable[Candidate]) -> list[Candidate]:
    return [dataclasses.replace(c, record=_copy(c.record)) for c in candidates]


# Where a paper stands in a catalog: the catalog's name (its file's, without ".json") and
# its position among the catalog's papers (from 0, in the file's order; the papers
# `read_catalog` leaves out do not count).
_Place = tuple[str, int]


@dataclass(frozen=True)
class _Index:
    """The word index over the stored catalogs' papers, and where each paper stands:
    `places[i]` for the paper `matcher.candidates[i]` (more than one when two catalogs
    list it), `at` the other way round."""

    matcher: Matcher
    places: list[tuple[_Place, ...]]
    at: dict[_Place, int]


# What a reason says of a candidate the list's order put first (`_Placing.reason`).
PLACED_BY_LIST = "between its neighbours in the list"


@dataclass(frozen=True)
class _Placing:
    """Where the list order puts a paper: the candidate, its place, and the places of
    its nearest matched neighbours before and after it."""

    index: int
    place: _Place
    before: int
    after: int

    def reason(self) -> str:
        """The place in words, counting a catalog's papers from 1."""
        name, position = self.place
        return (f"entry {position + 1} of {name}, {PLACED_BY_LIST} "
                f"(entries {self.before + 1} and {self.after + 1})")


def _placing(anchors: Sequence[tuple[_Place, ...]], n: int, at: dict[_Place, int]
             ) -> _Placing | None:
    """Where the list order puts the paper `n` of a list whose papers matched with
    confidence stand at `anchors` (() for the others), or None when it says nothing.

    The matched papers among the NEIGHBOURS on each side of it (at least one on each side
    and _ANCHORS in all) must all stand in one catalog at consecutive places running one
    way, each as far from the paper's place as it is from the paper in the list: so a
    paper that is not in the run (another conference's, inserted) breaks it and is put
    nowhere, and neither are the papers of a list in another order."""
    before = [k for k in range(max(0, n - NEIGHBOURS), n) if anchors[k]]
    after = [k for k in range(n + 1, min(len(anchors), n + NEIGHBOURS + 1)) if anchors[k]]
    if not before or not after or len(before) + len(after) < _ANCHORS:
        return None
    first, last = before[-1], after[0]
    found: set[tuple[_Place, int, int]] = set()
    for name, start in anchors[first]:
        for step in (1, -1):
            place = (name, start + step * (n - first))
            if place in at and all((name, place[1] + step * (k - n)) in anchors[k]
                                   for k in (*before, *after)):
                found.add((place, start, place[1] + step * (last - n)))
    if len({at[place] for place, _, _ in found}) != 1:
        return None  # (none; or, with catalogs listing the same papers, several)
    place, start, end = min(found)
    return _Placing(at[place], place, start, end)


def _placed(matcher: Matcher, paper: PaperRecord, ranked: list[tuple[int, Candidate]],
            placing: _Placing) -> list[Candidate]:
    """The candidates `ranked` for `paper` with the one the list order puts it at
    marked (and added when the text did not rank it), placed first unless the text has
    a clear winner; nothing changes when the text is sure of another candidate."""
    own = [candidate for _, candidate in ranked]
    if confident(own) and ranked[0][0] != placing.index:
        return own
    reason = placing.reason()
    hit = next((c for i, c in ranked if i == placing.index), None)
    if hit is None:
        hit = matcher.candidate(paper, placing.index)
    placed = dataclasses.replace(hit, why=f"{reason}; {hit.why}" if hit.why else reason,
                                 place=reason)
    others = [c for i, c in ranked if i != placing.index]
    return placed_first(sorted([placed, *others], key=lambda c: -c.score))


class CatalogStore:
    """The catalogs a user added, kept in `folder` (copies of the files and a manifest),
    and one word index over all their papers for `search`. Safe to share between
    threads: a search builds the index once; adding or removing a catalog drops it."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self._lock = threading.RLock()
        self._built: _Index | None = None

    # -- catalogs -----------------------------------------------------------------------

    def catalogs(self) -> list[Catalog]:
        """The stored catalogs, in the order they were added."""
        with self._lock:
            return self._load()

    def add(self, path: str | os.PathLike[str], venue: str | None = None,
            year: int | None = None) -> Catalog:
        """Store a copy of the catalog file at `path` (FormatError if it is not one).
        Adding a file whose content is stored already adds nothing (a `venue` or `year`
        given then replaces the stored one). `venue` and `year` override what the file
        says. UserError naming the file if the copy cannot be written."""
        source = Path(path)
        data = _read(os.fspath(source))
        entries = _entries(os.fspath(source), data)
        found_venue, found_year = _venue_and_year(source.name, entries, venue, year)
        papers = len(_records(entries, found_venue, found_year))
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            stored = self._load()
            for index, catalog in enumerate(stored):
                if catalog.digest == digest:
                    if venue is None and year is None:
                        return catalog
                    changed = dataclasses.replace(
                        catalog, venue=found_venue if venue is not None else catalog.venue,
                        year=found_year if year is not None else catalog.year)
                    stored[index] = changed
                    self._save(stored)
                    self._built = None
                    return changed
            name = self._free_name(source.name, {c.name for c in stored})
            self.folder.mkdir(parents=True, exist_ok=True)
            target = self.folder / name
            write_atomically(target, data.decode("utf-8"))  # UTF-8, as `_entries` found
            catalog = Catalog(name, found_venue, found_year, papers, digest, target)
            self._save([*stored, catalog])
            self._built = None
            return catalog

    def remove(self, name: str) -> None:
        """Forget the stored catalog `name` and delete its copy; KeyError if none is."""
        with self._lock:
            stored = self._load()
            kept = [c for c in stored if c.name != name]
            if len(kept) == len(stored):
                raise KeyError(f"no catalog named {name!r}")
            self._save(kept)
            (self.folder / name).unlink(missing_ok=True)
            self._built = None

    # -- search -------------------------------------------------------------------------

    def search(self, record: PaperRecord, limit: int = 5) -> list[Candidate]:
        """The catalog papers most likely to be `record`, best first (at most `limit`),
        each with its score and the reasons for it; the records are copies."""
        return _copied(self._index().matcher.rank(record, limit))

    def search_many(self, records: Sequence[PaperRecord], limit: int = 5
                    ) -> list[list[Candidate]]:
        """`search` for each of `records`, papers of one list in its order (the papers
        of an abstract list, paragraph by paragraph), with that order put to use.

        Each paper is ranked alone first. A list copied from a conference's site is in
        its catalog's order: where a paper's neighbours in the list were matched with
        confidence to consecutive entries of a catalog (see `_placing`), the entry
        between them is marked as the paper's place (`Candidate.place`, also said in
        its `why`), added to its candidates if its words did not rank it, and ranked
        first unless they give a clear winner (`matching.placed_first`). A list in
        another order, or a paper its neighbours do not fit, is ranked as alone."""
        index = self._index()
        depth = max(limit, _DEPTH)
        ranked = [index.matcher.rank_indexed(record, depth) for record in records]
        anchors = [index.places[found[0][0]] if confident([c for _, c in found]) else ()
                   for found in ranked]
        results: list[list[Candidate]] = []
        for n, (record, found) in enumerate(zip(records, ranked, strict=True)):
            placing = _placing(anchors, n, index.at)
            candidates = ([c for _, c in found] if placing is None
                          else _placed(index.matcher, record, found, placing))
            results.append(_copied(candidates[:limit]))
        return results

    def _index(self) -> _Index:
        """The word index over all stored catalogs, built on first use, with the place
        of each paper in its catalog. A paper listed by two catalogs (the same title,
        venue and year) is indexed once, so it does not tie with itself; it keeps both
        places."""
        with self._lock:
            if self._built is None:
                seen: dict[tuple[str, str, int | None], int] = {}
                records: list[PaperRecord] = []
                places: list[list[_Place]] = []
                for catalog in self._load():
                    try:
                        papers = read_catalog(catalog.path, catalog.venue, catalog.year)
                    except FormatError:
                        continue  # the copy went missing or bad: search the others
                    name = Path(catalog.name).stem
                    for position, paper in enumerate(papers):
                        # (a title of letters normalize_text drops, such as Chinese,
                        # stays itself: it must not merge with every other such title)
                        key = (normalize_text(paper.title) or paper.title,
                               venue_acronym(paper.venue), paper.year)
                        if key not in seen:
                            seen[key] = len(records)
                            records.append(paper)
                            places.append([])
                        places[seen[key]].append((name, position))
                self._built = _Index(
                    Matcher(records), [tuple(p) for p in places],
                    {place: i for i, found in enumerate(places) for place in found})
            return self._built

    # -- manifest -----------------------------------------------------------------------

    def _load(self) -> list[Catalog]:
        """The manifest's catalogs whose files are present."""
        try:
            data = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
            items = data["catalogs"] if data.get("version") == _MANIFEST_VERSION else []
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            items = []
        stored: list[Catalog] = []
        for item in items:
            try:
                path = self.folder / str(item["name"])
                year = item.get("year")
                catalog = Catalog(str(item["name"]), str(item.get("venue") or ""),
                                  int(year) if year is not None else None,
                                  int(item["papers"]), str(item["digest"]), path)
            except (KeyError, TypeError, ValueError):
                continue
            if path.is_file():
                stored.append(catalog)
        return stored

    def _save(self, stored: list[Catalog]) -> None:
        items = [{"name": c.name, "venue": c.venue, "year": c.year, "papers": c.papers,
                  "digest": c.digest} for c in stored]
        text = json.dumps({"version": _MANIFEST_VERSION, "catalogs": items}, indent=1)
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomically(self.folder / MANIFEST, text)

    @staticmethod
    def _free_name(source: str, taken: set[str]) -> str:
        """A file name for a new catalog: the source's, made safe and unique."""
        stem, suffix = os.path.splitext(source)
        stem = _NAME_RE.sub("-", stem).strip("-.") or "catalog"
        suffix = suffix if suffix.lower() == ".json" else ".json"
        name, number = stem + suffix, 2
        while name in taken or name == MANIFEST:
            name = f"{stem}-{number}{suffix}"
            number += 1
        return name


def catalog_store() -> CatalogStore:
    """The user's catalogs (in the user data folder: they serve every library)."""
    return CatalogStore(paths.data_dir() / "catalogs")
