"""Names as citeproc-js writes them, for formats.csl: citeproc-py's Name.process patched
(`_patch_names`) to show the names a cite's disambiguation asks for (`_expanded_names`),
the given names citeproc-js's name registry writes whole (`_shared_given`), MLA's
"———" (`_substituted`), and sort keys of names as citeproc-js's."""

from __future__ import annotations

import itertools
import re
from typing import Any

from papershelf.formats.csl.state import (
    _CITE_NAMES,
    _DISAMBIGUATED,
    _EXPANDED,
    _FIRST_NAMES,
    _SORTING,
    _SUBSEQUENT,
)
from papershelf.formats.csl.text import _initials


def _patch_names(model: Any) -> None:
    """citeproc-py's cs:name (`model.Name`): its options looked up once per context, and
    its names as citeproc-js writes them."""
    from citeproc.string import String

    name_option = model.Name.get_option

    def option(self: Any, name: str, context: Any = None, sort_options: Any = None) -> Any:
        # (a name's option, by the style's inheritance: fixed for a context and the
        # options a sort key overrides)
        key: tuple[Any, ...] = (name, context, tuple(sorted(sort_options.items()))
                                if isinstance(sort_options, dict) else sort_options)
        known = self.__dict__.setdefault("_papershelf_options", {})
        if _SUBSEQUENT.get() and sort_options is None and name in _SUBSEQUENT_OPTIONS:
            # (a subsequent cite's et-al, where the style sets one)
            key = (*key, "subsequent")
            if key not in known:
                known[key] = _subsequent_option(self, name, context) \
                    or name_option(self, name, context, sort_options)
            return known[key]
        try:
            return known[key]
        except KeyError:
            value = known[key] = name_option(self, name, context, sort_options)
            return value

    process_names = model.Name.process

    def names(self: Any, item: Any, variable: str, context: Any = None,
              sort_options: Any = None, **kwargs: Any) -> Any:
        sorting = _SORTING.get()
        if sort_options is None and sorting is not None:
            # (citeproc-py forgets the sort key's options in a macro its macro calls)
            sort_options = sorting
        if sort_options is not None:
            # a sort key has its names in sort order ("Papamarkou, Theodore, Birdal,
            # Tolga"), with no "and" (citeproc-js's keys have none)
            sort_options = {**sort_options, "and": None}
            if self.get_option("demote-non-dropping-particle", context) == "sort-only":
                # a sort key files "van Breugel" under B where the style demotes
                # particles for sorting (citeproc-py keeps them before the family name)
                sort_options["demote-non-dropping-particle"] = "display-and-sort"
        expanded = (_EXPANDED.get() or {}).get(item.key)
        shared = _shared_given(self, item, variable, context, sort_options)
        if sort_options is not None:
            # a sort key has no "et al." (citeproc-js: "European Commission et al."
            # sorts with "European Commission", by the next keys)
            disambiguated = _DISAMBIGUATED.get()
            registered = disambiguated.registered.get(item.key) if disambiguated else None
            resorting = disambiguated is not None and disambiguated.resorting
            if registered and (resorting or _in_citation(self, context)):
                # (a citation's sort key has the given names citeproc-js's name registry
                # writes, "W.-N. Chen; X.-H. Chen; Yanxi Chen" (APSA's primary-name),
                # not those a cite adds by-cite, nor the names it adds)
                key = _expanded_names(self, item, variable, context, 0, registered[1],
                                      sort_options)
            elif shared:
                key = _expanded_names(self, item, variable, context, 0, shared, sort_options)
            else:
                key = process_names(self, item, variable, context, sort_options, **kwargs)
            et_al = str(self.et_al() or "")
            if et_al and key is not None and str(key).endswith(et_al):
                return String(str(key)[:-len(et_al)].rstrip(", "))
            return key
        citing = _in_citation(self, context)
        shown = 0  # (the names shown and the given names written whole)
        levels: tuple[int, ...] = ()
        if expanded is not None and (citing or variable == (
                "author" if "author" in item.reference else "editor")):
            # (the names a cite shows to be told apart: in the bibliography too)
            shown, levels = expanded
            if shared:  # (a level the cite asks for first, else the item's own)
                levels = tuple(asked or own for asked, own in itertools.zip_longest(
                    levels, shared, fillvalue=0))
            text = _expanded_names(self, item, variable, context, shown, levels)
        elif shared:
            shown, levels = 0, shared
            text = _expanded_names(self, item, variable, context, 0, shared)
        elif "after-inverted-name" in (option(self, "delimiter-precedes-et-al", context),
                                       option(self, "delimiter-precedes-last", context)):
            # (which citeproc-py does not know: MHRA's "Myers, Vivek, and others")
            text = _expanded_names(self, item, variable, context, 0, ())
        else:
            text = process_names(self, item, variable, context, sort_options, **kwargs)
        if citing:
            cited = _CITE_NAMES.get()
            if cited is not None and item.key not in cited:
                cited[item.key] = str(text)
            return text
        first = _FIRST_NAMES.get()
        if first is not None and item.key not in first and text is not None:
            rule = _substitute_rule(self)
            if rule == "partial-first":
                return _first_substituted(self, item, variable, context, shown, levels, first)
            if rule in ("complete-each", "partial-each"):
                return _each_substituted(self, item, variable, context, shown, levels, first,
                                         rule == "partial-each")
            return _substituted(self, item, text, first)
        return text

    model.Name.process = names
    model.Name.get_option = option


_SUBSEQUENT_OPTIONS = {"et-al-min": "et-al-subsequent-min",
                       "et-al-use-first": "et-al-subsequent-use-first"}


def _subsequent_option(name: Any, option: str, context: Any) -> int | None:
    """The et-al option `option` of a subsequent cite where the style sets one (on the
    cs:name, its cs:citation or the style; citeproc-js's inheritOpt), else None: the
    first cite's holds. The use-first holds only with the min."""
    element = context if context is not None else name
    found = element.xpath_search("./ancestor::*[self::cs:citation or self::cs:bibliography][1]")
    chain = [name, *found[:1], name.get_root()]

    def attribute(attr: str) -> str | None:
        return next((str(e.get(attr)) for e in chain if e.get(attr) is not None), None)

    if attribute("et-al-subsequent-min") is None:
        return None
    value = attribute(_SUBSEQUENT_OPTIONS[option])
    return int(value) if value is not None else None


def _in_citation(name: Any, context: Any) -> bool:
    """Whether a cs:name renders (through `context`, a macro's caller) in cs:citation."""
    known = name.__dict__.setdefault("_papershelf_in_citation", {})
    key = id(context)
    if key not in known:
        parent = (context if context is not None else name).xpath_search(
            "./ancestor::*[self::cs:citation or self::cs:bibliography][1]")
        known[key] = bool(parent) and parent[0].tag.endswith("citation")
    return bool(known[key])


def _expanded_names(self: Any, item: Any, variable: str, context: Any, shown: int,
                    levels: tuple[int, ...], sort_options: Any = None,
                    first_name: list[Any] | None = None,
                    every: list[Any] | None = None) -> Any:
    """citeproc-py's Name.process, with `shown` names at least before "et al." and the
    given names of the places `levels` tells written as initials (1) or whole (2).
    `first_name`: [its text] gets the first name's text appended; [its text, a
    substitute]: the first name is written as the substitute. `every`: [] gets each
    name's text appended; [a substitute, …]: the first names written as it."""
    def option(name: str) -> Any:
        return self.get_option(name, context, sort_options)

    and_, delimiter = option("and"), option("delimiter")
    et_al_min, use_first = option("et-al-min"), option("et-al-use-first")
    initialize_with = option("initialize-with")
    sort_order, sort_separator = option("name-as-sort-order"), option("sort-separator")
    style_form, demote = option("form"), option("demote-non-dropping-particle")
    names = item.reference.get(variable, [])
    if style_form == "count":
        return min(len(names), max(use_first, shown))
    truncated = len(names) > 1 and et_al_min and len(names) >= et_al_min
    use_last = False
    if truncated:
        use_first = max(use_first, shown)
        truncated = use_first < len(names)
        use_last = truncated and option("et-al-use-last") and use_first <= et_al_min - 2
        names = names[:use_first] + (names[-1:] if use_last else [])
    output = []
    for place, name in enumerate(names):
        given, family, dp, ndp, suffix = name.parts()
        level = levels[place] if place < len(levels) else 0
        form = "long" if level else style_form
        if given is not None and initialize_with is not None and level != 2:
            given = self.initialize(given, initialize_with, context)
        if form == "long" and (sort_order == "all" or (sort_order == "first" and place == 0)):
            if demote in ("never", "sort-only"):
                family = " ".join(n for n in (ndp, family) if n)
                given = " ".join(n for n in (given, dp) if n)
            else:
                given = " ".join(n for n in (given, dp, ndp) if n)
            given, family = _name_parts(self, given, family)
            text = sort_separator.join(n for n in (family, given, suffix) if n)
        elif form == "long":
            family = " ".join(n for n in (dp, ndp, family) if n)
            given, family = _name_parts(self, given, family)
            text = " ".join(n for n in (given, family, suffix) if n)
        else:
            family = " ".join(n for n in (ndp, family) if n)
            text = _name_parts(self, given, family)[1]
        output.append(text)
    if first_name is not None and output:
        if len(first_name) > 1:
            output[0] = first_name[1]
        else:
            first_name.append(str(output[0]))
    if every is not None:
        if every:
            output[:len(every)] = every[:len(output)]
        else:
            every.extend(str(text) for text in output)
    et_al = self.et_al()
    if use_last:  # (APA: "…, Xiong, C., … Zhao, Y.")
        output[-1] = self.unicode_character("horizontal ellipsis") + " " + output[-1]
        return self.join(output, delimiter)
    def inverted(place: int) -> bool:  # (a name written family name first)
        long = style_form == "long" or (levels[place] if place < len(levels) else 0)
        return bool(long) and (sort_order == "all" or (sort_order == "first"
                                                        and place == 0))

    if truncated and et_al:
        precedes = option("delimiter-precedes-et-al")
        if precedes == "always" or (precedes == "contextual" and len(output) >= 2) \
                or (precedes == "after-inverted-name" and inverted(len(output) - 1)):
            return self.join([*output, et_al], delimiter)
        return self.join(output, delimiter) + " " + et_al
    if and_ is not None and len(output) > 1:
        term = self.get_single_term(name="and") if and_ == "text" else self.preformat("&")
        text = self.join(output[:-1], ", ")
        precedes = option("delimiter-precedes-last")
        if precedes == "always" or (precedes == "contextual" and len(output) > 2) \
                or (precedes == "after-inverted-name" and inverted(len(output) - 2)):
            text = self.join([text, ""], ", ")
        else:
            text += " "
        return text + f"{term} " + output[-1]
    return self.join(output, delimiter)


def _shared_given(name: Any, item: Any, variable: str, context: Any,
                  sort_options: Any) -> tuple[int, ...] | None:
    """Where the style tells names apart cite by cite (givenname-disambiguation-rule
    "by-cite", disambiguate-add-givenname) and writes them with initials: the given
    names of `item`'s `variable` that citeproc-js writes whole (2) because two people
    of the list share a family name and initials ("Wang, Hengyi, Tan, S. and Wang,
    Hao": its name registry keys names by item), in the bibliography and in sort keys;
    None if none."""
    root = name.get_root()
    try:
        by_cite = root.__dict__["_papershelf_by_cite"]
    except KeyError:
        citation = root.citation
        by_cite = root.__dict__["_papershelf_by_cite"] = citation is not None \
            and citation.get("disambiguate-add-givenname") == "true" \
            and citation.get("givenname-disambiguation-rule", "by-cite") == "by-cite"
    names = item.reference.get(variable) or ()
    if not by_cite or len(names) < 2 or (sort_options is not None and len(names) > 50):
        # (nor in the sort key of a list of more than 50 names: Elsevier Harvard's
        # "Huang, Y., Sun, L." files before "Huang, Y., Zhang, O.")
        return None
    families = [person.get("family") for person in names if "literal" not in person]
    if len(set(families)) == len(families) \
            or name.get_option("form", context, sort_options) != "long" \
            or name.get_option("initialize-with", context, sort_options) is None:
        return None
    # (of a list of more than 50 names, citeproc-js registers the first names a style
    # may show, one more and the last: `_registered`)
    registered = _registered(root, len(names))
    keys = [_name_key(person) if place in registered else None
            for place, person in enumerate(names)]
    givens: dict[tuple[str, str], set[str]] = {}
    for key in keys:
        if key:
            givens.setdefault(key[:2], set()).add(key[2])
    levels = tuple(2 if key and len(givens[key[:2]]) > 1 else 0 for key in keys)
    return levels if any(levels) else None


def _registered(root: Any, count: int) -> range | set[int]:
    """The places of a list of `count` names that citeproc-js enters in its name
    registry (CSL.NameOutput's _truncateNameList): all, but of a list longer than 50
    and than the largest et-al-min or names-min of the citation (or bibliography) plus
    2, the first names up to that largest plus one, and the last."""
    if count <= 50:
        return range(count)
    try:
        limits = root.__dict__["_papershelf_name_limits"]
    except KeyError:
        limits = root.__dict__["_papershelf_name_limits"] = [max(
            [int(element.get(attribute)) for element in area.iter()
             for attribute in ("et-al-min", "names-min")
             if str(element.get(attribute) or "").isdigit()] or [0])
            for area in (root.citation, root.bibliography) if area is not None]
    places: set[int] = set()
    for limit in limits:
        if limit and count > limit + 2:
            places.update(range(limit + 1))
            places.add(count - 1)
        else:
            return range(count)
    return places


def _name_key(person: Any) -> tuple[str, str, str] | None:
    """A person's name as citeproc-js's name registry knows it: the family name, the
    initials and the given name (periods as spaces, a last word in lower case left
    out); None for a literal name or one of no given name, which it leaves out."""
    family = person.get("family")
    if "literal" in person or not family:
        return None
    given = re.sub(r"\s+", " ", str(person.get("given") or "").replace(".", " ")).strip()
    last = re.search(r"[,!]* ([^,]+)$", given)
    if last and last.group(1) == last.group(1).lower():
        given = given[:last.start()]
    initials = _initials(given)
    if not initials:
        return None
    return re.sub(r"\s+", " ", str(family).replace(".", " ")).strip(), initials, given


def _name_parts(name: Any, given: Any, family: Any) -> tuple[Any, Any]:
    for part in name.findall("cs:name-part", name.nsmap):
        given, family = part.format_part(given, family)
    return given, family


def _substitute_rule(name: Any) -> str:
    """The style's subsequent-author-substitute-rule (its bibliography's)."""
    root = name.get_root()
    try:
        return root.__dict__["_papershelf_substitute_rule"]  # type: ignore[no-any-return]
    except KeyError:
        bibliography = root.bibliography
        rule = root.__dict__["_papershelf_substitute_rule"] = str(
            bibliography.get("subsequent-author-substitute-rule", "complete-all")
            if bibliography is not None else "complete-all")
        return rule


def _first_substituted(name: Any, item: Any, variable: str, context: Any, shown: int,
                       levels: tuple[int, ...], first: dict[str, str]) -> Any:
    """The names of a bibliography's entry where the style's rule is "partial-first"
    (MHRA): the first name written as the subsequent-author-substitute where it is the
    first name of the entry before ("——, and Jakob H. Macke"), as citeproc-js does."""
    own: list[Any] = []
    text = _expanded_names(name, item, variable, context, shown, levels, first_name=own)
    before = next(reversed(first.values()), None)
    first[item.key] = own[0] if own else ""
    substitute = name.get_root().bibliography.get("subsequent-author-substitute")
    if substitute is None or not own or own[0] != before:
        return text
    return _expanded_names(name, item, variable, context, shown, levels,
                           first_name=[own[0], name.preformat(substitute)])


def _each_substituted(name: Any, item: Any, variable: str, context: Any, shown: int,
                      levels: tuple[int, ...], first: dict[str, Any], partial: bool) -> Any:
    """The names of a bibliography's entry where the style's rule is "complete-each"
    (each name written as the subsequent-author-substitute where all are those of the
    entry before: "——, and ——") or "partial-each" (each of the first names that are
    the entry before's, in their places: "——, Cy Brown, and Di Lee"), as citeproc-js."""
    own: list[Any] = []
    text = _expanded_names(name, item, variable, context, shown, levels, every=own)
    before = next(reversed(first.values()), None)
    first[item.key] = tuple(own)
    substitute = name.get_root().bibliography.get("subsequent-author-substitute")
    if substitute is None or not own or not isinstance(before, tuple):
        return text
    if partial:
        same = next((n for n, (mine, theirs) in enumerate(zip(own, before))
                     if mine != theirs), min(len(own), len(before)))
    else:
        same = len(own) if tuple(own) == before else 0
    if not same:
        return text
    return _expanded_names(name, item, variable, context, shown, levels,
                           every=[name.preformat(substitute)] * same)


def _substituted(name: Any, item: Any, text: Any, first: dict[str, str]) -> Any:
    """The first names of a bibliography's entry (`text`, of the cs:name `name`), or
    the style's subsequent-author-substitute ("———", MLA; citeproc-py ignores it) where
    they are those of the entry before, as citeproc-js does (its "complete-all" rule):
    the names compared without "et al.", so "European Commission, et al." after
    "European Commission" is "———" too; an entry of no names leaves the one before
    compared. `first`: the names compared of the entries so far."""
    shown, et_al = str(text), str(name.et_al() or "")
    compared = shown[:-len(et_al)].rstrip(", ") if et_al and shown.endswith(et_al) \
        else shown
    before = next(reversed(first.values()), None)
    first[item.key] = compared
    bibliography = name.get_root().bibliography
    substitute = bibliography.get("subsequent-author-substitute") \
        if bibliography is not None else None
    if substitute is None or not compared or compared != before:
        return text
    from citeproc.string import String

    return String(name.preformat(substitute))
