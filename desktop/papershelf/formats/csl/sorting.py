"""Sorting as citeproc-js sorts, for formats.csl: citeproc-py's Sort.sort with the keys
of an item rendered only when a comparison needs them (`_sorted`), compared as
citeproc-js's collator compares them (`_collated`)."""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from typing import Any

from papershelf.formats.csl.state import _SORTING
from papershelf.formats.csl.text import _KEPT_SPACE, _OWN_STOP, _PREFIX_STOP, _TAG_RE


def _sorted(self: Any, items: list[Any], context: Any) -> list[Any]:
    """citeproc-py's `Sort.sort`, comparing just as it does, but a key of an item is
    rendered only when a comparison needs it: the second key only for items alike in
    the first, and so on (citeproc-py renders every key's macro for every item first,
    most of the time of sorting a big bibliography)."""
    keys = [(key, key.get("sort", "ascending").lower() == "descending")
            for key in self.findall("cs:key", self.nsmap)]
    if keys and _grouped_sort(self):
        # (citeproc-js's makeCitationCluster, where it groups cites by author, gives
        # each key the direction of the key before it: Elsevier Harvard's "issued"
        # descending sorts a citation's "2022, 2024" ascending)
        keys = [(key, descending) for (key, _own), (_key, descending)
                in zip(keys, keys[:1] + keys[:-1], strict=True)]
    known: list[dict[int, Any]] = [{} for _ in keys]
    # the name options each key renders with (as citeproc-py's Key.sort_keys sets them)
    options = [{"name-as-sort-order": "all", **{
        option.replace("names", "et-al"): key.get(option)
        for option in ("names-min", "names-use-first", "names-use-last") if option in key.attrib}}
        for key, _descending in keys]

    def value(index: int, position: int) -> Any:
        values = known[index]
        if position not in values:
            token = _SORTING.set(options[index])
            try:
                values[position] = keys[index][0].sort_keys([items[position]], context)[0]
            finally:
                _SORTING.reset(token)
        return values[position]

    def compared(left: int, right: int) -> int:
        for index, (_key, descending) in enumerate(keys):
            left_key, right_key = value(index, left), value(index, right)
            if left_key is not None and right_key is not None:
                left_key, right_key = _comparable(left_key, right_key)
                result: int = (left_key > right_key) - (left_key < right_key)
                if result:
                    return -result if descending else result
            elif left_key is not None:
                return -1
            elif right_key is not None:
                return 1
        return 0

    order = sorted(range(len(items)), key=functools.cmp_to_key(compared))
    return [items[position] for position in order]


def _grouped_sort(sort: Any) -> bool:
    """Whether `sort` is a citation's that citeproc-js extends with a key of the cite's
    names (its grouped_sort: an in-text style that collapses its cites, or one that
    sets cite-group-delimiter, of no numbers and no positions)."""
    try:
        return sort.__dict__["_papershelf_grouped"]  # type: ignore[no-any-return]
    except KeyError:
        citation = sort.getparent()
        root = sort.get_root()
        grouped = citation.tag.endswith("citation") and (
            (root.get("class") == "in-text" and bool(citation.get("collapse")))
            or (bool(citation.get("cite-group-delimiter"))
                and not root.xpath_search('//cs:if[@position] | //cs:else-if[@position]'
                                          ' | //cs:text[@variable="citation-number"]')
                and all(citation.get(f"et-al-subsequent-{option}") in
                        (None, citation.get(f"et-al-{option}"))
                        for option in ("min", "use-first"))))
        sort.__dict__["_papershelf_grouped"] = grouped
        return grouped


def _comparable(left: Any, right: Any) -> tuple[Any, Any]:
    """Two sort keys compared as citeproc-js compares them (`_collated`), as numbers if
    both are."""
    left, right = str(left), str(right)
    try:
        return int(left), int(right)
    except ValueError:
        return _collated(left), _collated(right)


# Letters a collator files with another (ICU's root order): "Høgsgaard" among the Ho.
_FOLDED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                         "ß": "ss", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "þ": "th",
                         "ı": "i"})
_UNSORTED_RE = re.compile(r"[^\w ]+|_+")
_DIGITS_RE = re.compile(r"\d+")


def _number(match: re.Match[str]) -> str:
    digits = match.group(0).lstrip("0") or "0"
    return f"{len(digits):03d}{digits}"


@functools.lru_cache(maxsize=65536)
def _collated(text: str) -> str:
    """A sort key's collation key as citeproc-js compares it: its words (it writes the
    spaces of a key as "|", which its collator files before any letter or digit: "Bu,
    Z." before "Burns, C.") compared by their letters without accents, case or
    punctuation ("Kögler" before "Kremer", "Bărbulescu" before "Bar-Shalom"; its
    localeCompare at base sensitivity, punctuation ignored), numbers by their value
    ("9" before "10"). Keys it finds equal are told apart by the next key, then by the
    order the items came in (its registration order; Python's sort is stable)."""
    text = html.unescape(_TAG_RE.sub("", text.replace(_KEPT_SPACE, " ").replace(_PREFIX_STOP, "")
                                         .replace(_OWN_STOP, "")))
    bare = "".join(c for c in unicodedata.normalize("NFKD", text.translate(_FOLDED))
                   if not unicodedata.combining(c))
    return _DIGITS_RE.sub(_number, _UNSORTED_RE.sub("", bare).casefold())
