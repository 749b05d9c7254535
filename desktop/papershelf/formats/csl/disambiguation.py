"""Cites that read alike told apart as citeproc-js tells them apart (citeproc-py does
not), for formats.csl: a port of citeproc-js's CSL.Disambiguation (its runDisambig,
incrementDisambig, scanItems, evalScan, disNames, disYears, disExtraText and
captureStepToBase, quirks kept) and of the given names its name registry writes
(CSL.Registry.NameReg)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from papershelf.formats.csl.names import _name_key, _registered
from papershelf.formats.csl.state import _EXPANDED, _SUBSEQUENT, _Disambiguated
from papershelf.formats.csl.style import _Style

# (a cap on the steps of one group, against a loop the port would not leave)
_STEPS = 100_000


def _ambiguous(loaded: _Style, bib: Any, found: list[dict[str, Any]],
               known_as: dict[str, str], disambiguated: _Disambiguated) -> None:
    """`_told_apart`, the cites compared rendered as subsequent cites, as citeproc-js's
    getAmbiguousCite renders them (their et-al-subsequent-min and -use-first: ASA's
    "Wang et al." where a first cite writes "Wang, Neubig, and Fried")."""
    token = _SUBSEQUENT.set(True)
    try:
        _told_apart(loaded, bib, found, known_as, disambiguated)
    finally:
        _SUBSEQUENT.reset(token)


def _told_apart(loaded: _Style, bib: Any, found: list[dict[str, Any]],
                known_as: dict[str, str], disambiguated: _Disambiguated) -> None:
    """Tell apart the items whose cites read alike as citeproc-js does: the names that
    two people share are written with their initials or given names (the rules but
    "by-cite": `_names_told_apart`); the cites that read alike all the same (citeproc-js's
    ambiguity key: a cite as the style writes it, before any of this) are told apart by
    `_Group` (more names, given names, then year suffixes, 2020a and 2020b, in the
    bibliography's order, `bib` being sorted; or the style's `disambiguate` condition).
    Sets the names shown in `_EXPANDED`, the year suffixes in the items and the levels of
    the `disambiguate` condition in `disambiguated`. `known_as`: each item's id as the
    caller knows it (citeproc-js's order among alike cites). Only items of the same first
    author (and year, where a cite shows it) are rendered to compare, and a cite once for
    the settings of the names it shows, so a big bibliography costs little more."""
    from citeproc import Citation, CitationItem
    from citeproc.source import VariableError

    if not (loaded.year_suffix or loaded.disambiguates or loaded.add_names
            or loaded.add_given):
        return
    expanded = _EXPANDED.get()
    assert expanded is not None  # (set by render_items)
    people = {item["id"]: _people(item) for item in found}
    # (the given names the name registry writes; not in the ambiguity keys: citeproc-js
    # makes them before it registers the items, when evalname writes a short name as
    # it is)
    names_apart: dict[str, tuple[int, tuple[int, ...]]] = {}
    if loaded.add_given and loaded.given_rule != "by-cite":
        names_apart = _names_told_apart(loaded, people)
    layout = loaded.parsed.root.citation.layout

    def cite(ident: str) -> str:
        # the cite of `ident` alone, but for the layout's affixes, the same for all (not
        # through citeproc-py's Citation, which looks the item up in a list thrice)
        item = CitationItem(ident)
        Citation([item]).bibliography = bib
        layout.repressed = {}
        disambiguated.start(ident)
        try:
            return str(layout.render_children(item) or "")
        except VariableError:
            return ""

    alike: dict[tuple[str, object], list[str]] = {}
    for item in found:
        first = (people[item["id"]] or [{}])[0]
        who = str(first.get("family") or first.get("literal") or item.get("title", ""))
        # (a cite that shows no year is alike with one of the same names of any year:
        # MLA's "Liu et al.")
        year = item.get("issued", {}).get("date-parts", [[None]])[0][0] \
            if loaded.cites_year else None
        alike.setdefault((who.lower(), year), []).append(item["id"])
    groups = [group for ids in alike.values() if len(ids) > 1 for group in _alike(ids, cite)]
    expanded.update(names_apart)
    disambiguated.registered = names_apart
    place = {key: n for n, key in enumerate(bib.keys)}
    settled: dict[str, _Config] = {}
    for group in groups:
        told = _Group(loaded, group, people, known_as, place)
        settled.update(told.run(functools.partial(
            _rendered, cite=cite, bib=bib, expanded=expanded, disambiguated=disambiguated,
            names_apart=names_apart, known=told.rendered)))
        for ident in group:  # (what the renderings left behind)
            expanded[ident] = names_apart.get(ident, (0, ()))
            bib.source[ident].pop("year_suffix", None)
            disambiguated.levels.pop(ident, None)
    from citeproc.string import String

    for ident, config in settled.items():
        expanded[ident] = (config.names, _merged(names_apart.get(ident), config.givens))
        if config.year_suffix is not None:
            bib.source[ident]["year_suffix"] = String(_suffix(config.year_suffix))
        if config.disambiguate:
            disambiguated.levels[ident] = config.disambiguate


def _rendered(ident: str, config: _Config, cite: Callable[[str], str], bib: Any,
              expanded: dict[str, tuple[int, tuple[int, ...]]], disambiguated: _Disambiguated,
              names_apart: dict[str, tuple[int, tuple[int, ...]]],
              known: dict[tuple[Any, ...], tuple[str, int, int]]) -> tuple[str, int, int]:
    """The cite of `ident` with the disambiguation settings `config` (and the
    `disambiguate` conditions it held and met), rendered once for the settings of the
    names it shows (`known`)."""
    levels = _merged(names_apart.get(ident), config.givens)
    key = (ident, config.names, levels[:config.names], config.year_suffix,
           config.disambiguate)
    if key not in known:
        from citeproc.string import String

        expanded[ident] = (config.names, levels)
        source = bib.source[ident]
        if config.year_suffix is None:
            source.pop("year_suffix", None)
        else:
            source["year_suffix"] = String(_suffix(config.year_suffix))
        disambiguated.levels[ident] = config.disambiguate
        text = cite(ident)
        known[key] = (text, disambiguated.held, disambiguated.met)
    return known[key]


def _merged(levels: tuple[int, tuple[int, ...]] | None, givens: list[int]) -> tuple[int, ...]:
    """The given-name levels of the registry's names (`levels`) and of a cite's settings
    together, the higher of the two at each place."""
    own = levels[1] if levels else ()
    return tuple(max(a, b) for a, b in itertools.zip_longest(own, givens, fillvalue=0))


def _people(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The names a cite of `item` shows: its authors, else its editors."""
    return list(item.get("author") or item.get("editor") or [])


def _alike(ids: list[str], cite: Callable[[str], str]) -> list[list[str]]:
    """The groups (of two or more) of `ids` whose cites read the same."""
    read: dict[str, list[str]] = {}
    for ident in ids:
        read.setdefault(cite(ident), []).append(ident)
    return [group for group in read.values() if len(group) > 1]


def _names_told_apart(loaded: _Style, people: dict[str, list[dict[str, Any]]]
                      ) -> dict[str, tuple[int, tuple[int, ...]]]:
    """CSL's name disambiguation (every rule but "by-cite") as citeproc-js's name
    registry does it (CSL.Registry.NameReg's evalname), by item id: a family name that
    people of different initials share is written with its initials in the cites, and
    with the whole given name where two people share the initials too (but for the
    "-with-initials" rules, which give initials only where the initials differ: "Chao
    Li" and "Chengrui Li" stay "Li"). The registry holds every name of every item
    (`_registered`), the first only for the "primary-name" rules, which tell apart the
    first name of a cite only."""
    primary = loaded.given_rule.startswith("primary-name")
    with_initials = loaded.given_rule.endswith("with-initials")
    root = loaded.parsed.root

    def shown(names: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if primary:
            return names[:1]
        if loaded.et_al_min and len(names) >= loaded.et_al_min:
            return names[:loaded.et_al_use_first]
        return names

    registry: dict[str, dict[str, set[str]]] = {}  # family: initials: given names
    for names in people.values():
        for place in range(min(1, len(names))) if primary else _registered(root, len(names)):
            key = _name_key(names[place])
            if key:
                registry.setdefault(key[0], {}).setdefault(key[1], set()).add(key[2])
    told: dict[str, tuple[int, tuple[int, ...]]] = {}
    for ident, names in people.items():
        levels = []
        for name in shown(names):
            key = _name_key(name)
            initials = registry.get(key[0], {}) if key else {}
            if with_initials:
                levels.append(1 if len(initials) > 1 else 0)
            else:
                levels.append(2 if key and len(initials.get(key[1], ())) > 1
                              else 1 if len(initials) > 1 else 0)
        if any(levels):
            told[ident] = (0, tuple(levels))
    return told


@dataclass
class _Config:
    """citeproc-js's disambiguation settings of a cite (its CSL.AmbigConfig, of one list
    of names): the names shown, the level of their given names (0 as the style says, 1
    initials, 2 whole), a year suffix (0: a) and the level of the `disambiguate`
    condition (0: false)."""

    names: int
    givens: list[int]
    year_suffix: int | None = None
    disambiguate: int = 0

    def copy(self) -> _Config:
        return _Config(self.names, list(self.givens), self.year_suffix, self.disambiguate)


class _Group:
    """citeproc-js's CSL.Disambiguation run on the cites of one ambiguity key (`group`:
    cites that read the same as the style writes them)."""

    def __init__(self, loaded: _Style, group: list[str],
                 people: dict[str, list[dict[str, Any]]], known_as: dict[str, str],
                 place: dict[str, int]) -> None:
        self.loaded = loaded
        self.by_cite = loaded.given_rule == "by-cite"
        self.people = people
        self.place = place
        self.rendered: dict[tuple[Any, ...], tuple[str, int, int]] = {}
        root = loaded.parsed.root
        self.counts = {ident: len(_registered(root, len(people[ident]))) for ident in group}
        # configModes
        self.modes = []
        if loaded.add_names or (loaded.add_given and self.by_cite):
            self.modes.append("names")
        if loaded.year_suffix:
            self.modes.append("years")
        if loaded.disambiguates:
            self.modes.append("text")
        # initVars: the cites sorted by their number of names compared as text ("10"
        # before "4"), then by id; the first one's number bounds the names added
        self.items = sorted(group, key=lambda i: (str(self.counts[i]), known_as.get(i, i)))
        shown = max(self._shown(ident) for ident in group)
        self.base = _Config(shown, [0] * shown)
        self.better = self.base.copy()
        self.names_max = self.counts[self.items[0]]
        self.givens_max = 2 if loaded.add_given and self.by_cite else None
        self.settled: dict[str, _Config] = {}

    def _shown(self, ident: str) -> int:
        count = self.counts[ident]
        if self.loaded.et_al_min and count >= self.loaded.et_al_min:
            return min(count, self.loaded.et_al_use_first)
        return count

    def run(self, render: Callable[[str, _Config], tuple[str, int, int]]) -> dict[str, _Config]:
        """runDisambig: the settings each cite of the group is left with (`settled`);
        `render`: a cite with settings, and the `disambiguate` conditions it held and
        met."""
        if not self.modes:
            return {}
        self.render = render
        self.mode = 0
        self.init_givens = True
        self.lists: list[list[Any]] = [[self.base, list(self.items)]]
        steps = 0
        while self.lists:
            self.gname = 0
            self.clashes = [1, 0]
            while self.lists[0][1] and steps < _STEPS:
                steps += 1
                maxed = self._increment()
                self._scan(self.lists[0])
                # evalScan
                {"names": self._names, "years": self._years,
                 "text": self._text}[self.modes[self.mode]](maxed)
                if maxed:
                    if self.mode < len(self.modes) - 1:
                        self.mode += 1
                    elif len(self.lists) > 1:  # (citeproc-js drops the next list)
                        self.lists[1] = [self.base, []]
                    else:
                        self.lists.append([self.base, []])
            self.lists = self.lists[1:]
        return self.settled

    def _render(self, ident: str) -> str:
        """A cite with the base settings, which the rendering changes as citeproc-js's
        does: the names shown, their given names' levels padded, a level 1 of a name of
        no given name (or a style of no initials) made 2."""
        base = self.base
        count = self.counts[ident]
        if count:
            base.names = min(base.names, count) if base.names else count
            base.givens += [0] * (base.names - len(base.givens))
            if self.by_cite:
                names = self.people[ident]
                for n in range(min(base.names, len(names))):
                    if base.givens[n] == 1 and (not self.loaded.cite_initials
                                                or not names[n].get("given")):
                        base.givens[n] = 2
        text, self.held, self.met = self.render(ident, base)
        return text

    def _increment(self) -> bool:
        """incrementDisambig: the base settings one step further; whether they are at
        their last step."""
        if self.init_givens:
            self.init_givens = False
            return False
        base, gname = self.base, self.gname
        if self.modes[self.mode] == "names":
            increment_names = self.givens_max is None
            if self.givens_max is not None:
                if gname < len(base.givens) and base.givens[gname] < self.givens_max:
                    base.givens[gname] += 1
                else:
                    increment_names = True
            if increment_names and self.loaded.add_names and gname < self.names_max:
                base.names += 1
                gname = self.gname = gname + 1
            return ((not self.loaded.add_names or gname == self.names_max)
                    and (self.givens_max is None or gname >= len(base.givens)
                         or base.givens[gname] == self.givens_max))
        if self.modes[self.mode] == "text":
            base.disambiguate += 1
            self.better.disambiguate += 1
        return False

    def _scan(self, listed: list[Any]) -> None:
        """scanItems: the cites of the list alike with its first (partners) or not."""
        first, *others = listed[1]
        cite = self._render(first)
        self.partners: list[str] = [first]
        self.nonpartners: list[str] = []
        for other in others:
            (self.partners if self._render(other) == cite else self.nonpartners).append(other)
        self.clashes = [self.clashes[1], len(self.partners) - 1]

    def _capture(self) -> None:
        """captureStepToBase: the step just taken kept in the better settings."""
        base, better, gname = self.base, self.better, self.gname
        if self.by_cite and gname < len(base.givens):
            better.givens += [0] * (gname + 1 - len(better.givens))
            better.givens[gname] = base.givens[gname]
        better.names = base.names

    def _settle(self, ident: str, config: _Config) -> None:
        """registerAmbigToken."""
        self.settled[ident] = config.copy()

    def _names(self, maxed: bool) -> None:
        """disNames."""
        partners, nonpartners, clashes = self.partners, self.nonpartners, self.clashes
        better = self.better
        if clashes[1] == 0 and len(nonpartners) == 1:
            self._capture()
            self._settle(nonpartners[0], better)
            self._settle(partners[0], better)
            self.lists[0] = [better, []]
        elif clashes[1] == 0:
            self._capture()
            self._settle(partners[0], better)
            self.lists[0] = [better, nonpartners]
            if nonpartners:
                self.init_givens = True
        elif len(nonpartners) == 1:
            self._capture()
            self._settle(nonpartners[0], better)
            self.lists[0] = [better, partners]
        elif clashes[1] < clashes[0]:
            self._capture()
            self.lists[0] = [better, partners]
            self.lists.append([better, nonpartners])
        elif maxed:
            self.lists[0] = [better, nonpartners]
            self.lists.append([better, partners])
            if self.mode == len(self.modes) - 1:
                for ident in partners:
                    self._settle(ident, better)
                self.lists[0] = [better, []]

    def _years(self, _maxed: bool) -> None:
        """disYears: year suffixes in the bibliography's order, if the cites still
        clash."""
        base = self.lists[0][0]
        if self.clashes[1]:
            for n, ident in enumerate(sorted(self.lists[0][1], key=self.place.__getitem__)):
                base.year_suffix = n  # (on the list's settings, as citeproc-js does)
                self._settle(ident, base)
        self.lists[0] = [self.better, []]

    def _text(self, _maxed: bool) -> None:
        """disExtraText: the style's `disambiguate` condition, then more names with it."""
        done = self.clashes[1] == 0 and len(self.nonpartners) < 2
        base = self.base
        if not done and (not base.disambiguate or self.held != self.met):
            self.mode = 0
            base.disambiguate = self.better.disambiguate = self.held
            if not base.disambiguate:
                self.init_givens = True
                base.disambiguate = 1
            else:
                self._names(False)
        elif done or self.held == self.met:
            listed = self.lists[0]
            if done or self.mode == len(self.modes) - 1:
                for ident in listed[1]:
                    self._settle(ident, listed[0])
                self.lists[0] = [self.better, []]
            else:
                self.mode = len(self.modes) - 1
                listed[0].disambiguate = 1
                for ident in listed[1]:
                    self._settle(ident, listed[0])


def _suffix(n: int) -> str:
    """a, b, ..., z, aa, ab, ... (CSL's year suffixes)."""
    return _suffix(n // 26 - 1) + chr(ord("a") + n % 26) if n >= 26 else chr(ord("a") + n)
