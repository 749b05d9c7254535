"""Read and write BibTeX files.

Reading keeps every field and the entry type verbatim in `PaperRecord.raw` /
`entry_type` and decodes, once, the fields the library shows; writing prefers those raw
values, so an unedited entry is written back as it was read. The writer changes a raw
value only where real bibtex or LaTeX would fail on it (an author list with a stray
comma, a bare `%`/`&`/`#` in a printed field), and the reader names each such entry in
`ReadResult.warnings` when it imports it.

The reader has its own scanner, modelled on BibTeX's rules (bibtex.web, with biber's
reading of `@comment` and of `%` lines inside an entry), instead of bibtexparser's
splitter: bibtexparser 2.1 merges a value into the previous one when a comma is
missing, conjures entries from text inside `@comment{...}` or inside a field value,
turns a `%` line inside an entry into a field and accepts entries without a key (see
tests/test_bibtex_import.py, which reproduces each of these). The scanner is one
regex-driven pass over the text with fast paths for the common field shapes (their
equivalence with the general code is tested in tests/test_bibtex_fast_paths.py).

The modules, in reading order: `decode` (bytes to text), `scanner` (text to entries,
`@string`/`@preamble`/`@comment`), `reader` (entries to records: crossref and
`@proceedings` inheritance, preambles, warnings), `names` (author lists), `fields` (what
fields mean, values as readable text), `writer` (records to BibTeX), `biblatex` (the
biblatex flavour, arXiv ids) and `format` (BibTeX and BibLaTeX as formats.registry knows
them: suffixes, sniffing, reading in pieces). This package exports what the rest of Papershelf uses.
"""

from __future__ import annotations

from papershelf.formats.bibtex.biblatex import arxiv_id
from papershelf.formats.bibtex.decode import decode_bibtex
from papershelf.formats.bibtex.fields import PRINTED_FIELDS, key_problem
from papershelf.formats.bibtex.format import BIBLATEX, FORMAT, FORMATS, is_bibtex_text
from papershelf.formats.bibtex.names import parse_names
from papershelf.formats.bibtex.reader import (
    duplicate_key,
    parse_bibtex,
    read_bibtex,
    string_macros,
)
from papershelf.formats.bibtex.writer import VENUE_ACRONYMS, Flavour, write_bibtex

__all__ = [
    "BIBLATEX",
    "FORMAT",
    "FORMATS",
    "PRINTED_FIELDS",
    "VENUE_ACRONYMS",
    "Flavour",
    "arxiv_id",
    "decode_bibtex",
    "duplicate_key",
    "is_bibtex_text",
    "key_problem",
    "parse_bibtex",
    "parse_names",
    "read_bibtex",
    "string_macros",
    "write_bibtex",
]
