// Runs fixtures of the CSL processor test suite (processor-tests/humans/*.txt of
// github.com/citation-style-language/test-suite) through citeproc-js, as citeproc-js's
// own test runner (citeproc-test-runner) runs them, and prints one line a fixture:
//
//   @@csl-suite {"name": ..., "output": ...}     or     {"name": ..., "error": ...}
//
// in the order given (after a line "@@csl-suite-ready"), each as soon as it is done
// (tests/csl_suite.py reads them, with a time limit for each, and compares "output" with
// the fixture's RESULT). See README.md beside this file ("The CSL test suite").
//
//   NODE_PATH=/tmp/citeprocjs/node_modules node run_suite_citeprocjs.js LOCALES_DIR FIXTURE...
//
// LOCALES_DIR: citeproc-py's locales, the files Papershelf's engine reads too.
"use strict";
const fs = require("fs");
const path = require("path");
const CSL = require("citeproc");

const JSON_SECTIONS = new Set(["INPUT", "INPUT2", "CITATION-ITEMS", "CITATIONS", "BIBENTRIES",
  "BIBSECTION", "OPTIONS", "LANGPARAMS", "MULTIAFFIX", "ABBREVIATIONS"]);

// The sections of a fixture: the lines between ">>===== NAME =====>>" and
// "<<===== NAME =====<<", JSON ones parsed.
function parseFixture(file) {
  const text = fs.readFileSync(file, "utf8").replace(/^\ufeff/, "");
  const sections = {};
  let open = null;
  for (const line of text.split(/\r\n|\n|\r/)) {
    const start = line.match(/>>=+ ([A-Z0-9-]+) =+>>/);
    const end = line.match(/<<=+ ([A-Z0-9-]+) =+<</);
    if (start && !open) {
      open = start[1];
      sections[open] = [];
    } else if (end && end[1] === open) {
      open = null;
    } else if (open) {
      sections[open].push(line);
    }
  }
  const fixture = {};
  for (const [name, lines] of Object.entries(sections)) {
    const value = lines.join("\n");
    fixture[name] = JSON_SECTIONS.has(name) ? JSON.parse(value) : value;
  }
  return fixture;
}

function run(fixture, localesDir) {
  let byId = {};
  let ids = [];
  const load = (items) => {
    byId = Object.fromEntries(items.map((item) => [item.id, item]));
    ids = items.map((item) => item.id);
  };
  load(fixture.INPUT);
  const sys = {
    retrieveItem: (id) => byId[id],
    retrieveLocale: (lang) => {
      const file = path.join(localesDir, `locales-${lang}.xml`);
      return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : false;
    },
  };
  const engine = new CSL.Engine(sys, fixture.CSL);
  const [mode, ...submodes] = fixture.MODE.trim().split("-");
  if (submodes.includes("plain")) engine.setOutputFormat("plain");
  if (submodes.includes("rtf")) engine.setOutputFormat("rtf");
  for (const [option, value] of Object.entries(fixture.OPTIONS || {})) {
    if (option !== "variableWrapper") engine.opt.development_extensions[option] = value;
  }
  engine.setLangPrefsForCites({
    persons: ["translit"], institutions: ["translit"], titles: ["translit", "translat"],
    journals: ["translit"], publishers: ["translat"], places: ["translat"],
    ...(fixture.LANGPARAMS || {}),
  });
  const nosort = submodes.includes("nosort");
  if (fixture.BIBENTRIES) {
    for (const set of fixture.BIBENTRIES) engine.updateItems(set, nosort);
  } else if (!fixture.CITATIONS) {
    engine.updateItems(ids, nosort);
  }
  let output;
  if (fixture.CITATIONS) {
    // A document's citations, added one by one: after each, every citation whose
    // rendering changed is marked ">>", the others "..".
    let doc = [];
    const update = () => {
      for (const [citation, before, after] of fixture.CITATIONS) {
        const [, changed] = engine.processCitationCluster(citation, before, after);
        const live = engine.registry.citationreg.citationById;
        doc = doc.filter((entry) => live[entry.id]).map((entry) => ({ ...entry, mark: ".." }));
        for (const [at, string, id] of changed) {
          const known = doc.findIndex((entry) => entry.id === id);
          if (known >= 0) doc[known] = { id, string, mark: ">>" };
          else doc.splice(at, 0, { id, string, mark: ">>" });
        }
      }
    };
    update();
    if (fixture.INPUT2) {
      load(fixture.INPUT2);
      update();
    }
    output = doc.map((entry, n) => `${entry.mark}[${n}] ${entry.string}`).join("\n");
  } else {
    const clusters = fixture["CITATION-ITEMS"]
      || [engine.registry.reflist.map((entry) => ({ id: entry.id }))];
    output = clusters.map((cluster) => engine.makeCitationCluster(cluster)).join("\n");
  }
  if (mode === "bibliography") {
    const [meta, entries] = engine.makeBibliography(fixture.BIBSECTION);
    output = meta.bibstart + entries.join("") + meta.bibend;
  }
  return output.replace(/\r\n|\r/g, "\n");
}

const [localesDir, ...files] = process.argv.slice(2);
process.stdout.write("@@csl-suite-ready\n");
for (const file of files) {
  const name = path.basename(file, ".txt");
  let line;
  try {
    line = { name, output: run(parseFixture(file), localesDir) };
  } catch (error) {
    line = { name, error: String(error && error.stack ? error.stack.split("\n")[0] : error) };
  }
  process.stdout.write(`@@csl-suite ${JSON.stringify(line)}\n`);
}
