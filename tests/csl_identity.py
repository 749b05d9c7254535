"""How many entries of the identity corpus (tests/data/csl/corpus.py) Papershelf renders
exactly as citeproc-js does, per style: the figures of issue 40 (README, "Citation
styles"). Run from the repository's root:

    PYTHONPATH=desktop python -m tests.csl_identity [STYLE...] [--show N]

An entry counts as identical when its bibliography entry is the same text in the same
place and its citation (alone, with the whole corpus cited) is the same text. The
citations of several items together (`clusters`) are counted apart.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from papershelf.formats import csl

DATA = Path(__file__).resolve().parent / "data" / "csl"
FIXTURES = DATA / "corpus"


def corpus_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("csl_corpus", DATA / "corpus.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference(style: str) -> dict[str, Any]:
    """citeproc-js's rendering of the corpus in `style` (a short name of csl.STYLES)."""
    return json.loads((FIXTURES / f"{csl.STYLES[style]}.json").read_text(encoding="utf-8"))


def js_text(entry: str) -> str:
    """citeproc-js's HTML of an entry as the plain text Papershelf writes: a numeric
    label and its entry on one line, tags dropped, references as characters."""
    entry = re.sub(r'\s*<div class="csl-left-margin">(.*?)</div>'
                   r'<div class="csl-right-inline">(.*?)</div>\s*', r"\1 \2", entry, flags=re.S)
    entry = re.sub(r'^<div class="csl-entry">\s*|\s*</div>$', "", entry.strip())
    return html.unescape(re.sub(r"<[^>]+>", "", entry))


@dataclass
class Result:
    style: str
    entries: int = 0
    same_entries: int = 0  # bibliography entry: same text, same place
    same_citations: int = 0  # the item's citation alone
    same_both: int = 0
    clusters: int = 0
    same_clusters: int = 0
    seconds: float = 0.0
    differences: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def identity(self) -> float:
        """Percent of entries whose bibliography entry and citation are both identical."""
        return 100.0 * self.same_both / self.entries if self.entries else 0.0


def measure(style: str, document: dict[str, Any] | None = None) -> Result:
    """Papershelf's rendering of the corpus in `style` compared with citeproc-js's."""
    document = document or corpus_module().document()
    theirs = reference(style)
    if theirs["digest"] != document["digest"]:
        raise RuntimeError(f"{style}: the fixtures are stale (run make_fixtures.sh)")
    items = document["items"]
    ids = [item["id"] for item in items]
    started = time.perf_counter()
    entries, cites = csl.render_items(items, style, True,
                                      [[i] for i in ids] + document["clusters"])
    result = Result(style, entries=len(ids), seconds=time.perf_counter() - started)
    ours_entries = [csl.to_text(entry) for entry in entries]
    their_entries = [js_text(entry) for entry in theirs["bibliography"]["html"]]
    place = {ident: n for n, ident in enumerate(theirs["order"])}
    ours_cites = [csl.to_text(cite) for cite in cites]
    their_cites = [js_text(c) for c in theirs["citations"]["html"] + theirs["clusters"]["html"]]
    for n, ident in enumerate(ids):
        at = place[ident]
        entry_same = at < len(ours_entries) and ours_entries[at] == their_entries[at]
        cite_same = ours_cites[n] == their_cites[n]
        result.same_entries += entry_same
        result.same_citations += cite_same
        result.same_both += entry_same and cite_same
        if not entry_same:
            result.differences.append(("entry", ours_entries[at] if at < len(ours_entries)
                                       else "", their_entries[at]))
        if not cite_same:
            result.differences.append(("citation", ours_cites[n], their_cites[n]))
    for mine, theirs_cite in zip(ours_cites[len(ids):], their_cites[len(ids):], strict=True):
        result.clusters += 1
        result.same_clusters += mine == theirs_cite
        if mine != theirs_cite:
            result.differences.append(("cluster", mine, theirs_cite))
    return result


def main(argv: list[str]) -> None:
    show = 0
    if "--show" in argv:
        at = argv.index("--show")
        show = int(argv[at + 1])
        del argv[at:at + 2]
    styles = argv or list(csl.STYLES)
    document = corpus_module().document()
    print(f"corpus: {len(document['items'])} items, {len(document['clusters'])} clusters")
    print("style     identity  entries  citations  clusters  seconds")
    for style in styles:
        result = measure(style, document)
        n = result.entries
        print(f"{style:9} {result.identity:7.1f}%  {100 * result.same_entries / n:6.1f}%  "
              f"{100 * result.same_citations / n:8.1f}%  "
              f"{100 * result.same_clusters / max(result.clusters, 1):7.1f}%  "
              f"{result.seconds:6.2f}")
        for part, mine, theirs in result.differences[:show]:
            print(f"  {part}\n    ours:   {mine}\n    theirs: {theirs}")


if __name__ == "__main__":
    main(sys.argv[1:])
