"""`PaperRecord`s to BibTeX source.

An imported entry is written from its raw fields, macros and `#` expressions as they
were read (with the `@string` and `@preamble` heads they need); a value changes only
where bibtex or LaTeX would fail on it. Other fields are encoded from the record's
readable text. A `crossref` parent is written after the entries that refer to it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Literal

from papershelf.formats.bibtex.biblatex import to_biblatex, with_arxiv_eprint
from papershelf.formats.bibtex.fields import (
    MONTHS,
    PRINTED_FIELDS,
    VENUE_FALLBACK,
    VENUE_FIELD,
    VERBATIM_FIELDS,
    aliases,
    clean,
    key_problem,
    keyword_tags,
)
from papershelf.formats.bibtex.names import encode_authors, parse_names, raw_name_list_ok
from papershelf.formats.latex import encode_text, encode_verbatim, fix_bare_specials, to_ascii
from papershelf.formats.readable import bibtex_balanced, top_level_matches
from papershelf.formats.records import PaperRecord

__all__ = ["VENUE_ACRONYMS", "Flavour", "file_field", "long_venue", "venue_field_for",
           "write_bibtex"]

#: What `write_bibtex` writes for: classic bibtex, or biber (see `biblatex`).
Flavour = Literal["bibtex", "biblatex"]

#: Readable BibTeX for well-known venue acronyms (written as source, already protected).
VENUE_ACRONYMS: dict[str, str] = {
    "ICML": "International Conference on Machine Learning ({ICML})",
    "NEURIPS": "Advances in Neural Information Processing Systems ({NeurIPS})",
    "NIPS": "Advances in Neural Information Processing Systems ({NeurIPS})",
    "ICLR": "International Conference on Learning Representations ({ICLR})",
    "AISTATS": "International Conference on Artificial Intelligence and Statistics ({AISTATS})",
    "UAI": "Conference on Uncertainty in Artificial Intelligence ({UAI})",
    "COLT": "Conference on Learning Theory ({COLT})",
    "AAAI": "{AAAI} Conference on Artificial Intelligence",
    "IJCAI": "International Joint Conference on Artificial Intelligence ({IJCAI})",
    "CVPR": "{IEEE/CVF} Conference on Computer Vision and Pattern Recognition ({CVPR})",
    "ICCV": "{IEEE/CVF} International Conference on Computer Vision ({ICCV})",
    "ECCV": "European Conference on Computer Vision ({ECCV})",
    "ACL": "Annual Meeting of the Association for Computational Linguistics ({ACL})",
    "EMNLP": "Conference on Empirical Methods in Natural Language Processing ({EMNLP})",
    "NAACL": "Conference of the North American Chapter of the Association for "
    "Computational Linguistics ({NAACL})",
    "KDD": "{ACM} {SIGKDD} Conference on Knowledge Discovery and Data Mining ({KDD})",
    "JMLR": "Journal of Machine Learning Research",
    "TMLR": "Transactions on Machine Learning Research",
}
_ACRONYM_RE = re.compile(r"^\s*([A-Za-z]+)(?:[\s']*(?:\d{2}|\d{4}))?\s*$")
_ENTRY_TYPE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_NAME_FIELDS = frozenset({"author", "editor"})


def venue_field_for(record: PaperRecord) -> str:
    """Field name that carries the venue when writing `record`."""
    entry_type = record.entry_type.lower()
    field = VENUE_FIELD.get(entry_type)
    has = record.raw.keys() | record.inherited.keys() if record.inherited else record.raw
    if field is not None and (field in has or not record.raw):
        return field
    for candidate in VENUE_FALLBACK:
        if candidate in has:
            return candidate
    if field is not None:
        return field
    # (A book's venue is its publisher, as the readers have it: no howpublished repeats it.)
    book_publisher = not record.publisher or record.venue == record.publisher
    return "publisher" if entry_type == "book" and book_publisher else "howpublished"


def long_venue(venue: str) -> str | None:
    """The long name (BibTeX source) of a bare acronym venue (`ICML`, `ICML 2024`), the
    proceedings' or journal's title every export writes; None for any other venue."""
    match = _ACRONYM_RE.match(venue)
    return VENUE_ACRONYMS.get(match.group(1).upper()) if match else None


def _encode_venue(venue: str, field: str, ascii_only: bool) -> str:
    """Venue text as BibTeX; a bare acronym (`ICML`, `ICML 2024`) becomes its long name."""
    long_name = long_venue(venue)
    if long_name is not None:
        return long_name
    protect = field in ("booktitle", "journal", "series")
    return encode_text(venue, protect_case=protect, ascii_only=ascii_only)


def _raw_value(name: str, value: str, ascii_only: bool) -> str | None:
    """A raw field value as written, or None if it cannot be written verbatim.

    Printed text fields get their bare LaTeX specials escaped (the reader warned);
    verbatim fields (`VERBATIM_FIELDS`) stay byte for byte, also in an ASCII export.
    """
    if not bibtex_balanced(value):
        return None
    if name in VERBATIM_FIELDS:
        return value
    if name in PRINTED_FIELDS:
        value = fix_bare_specials(value)[0]
    if ascii_only and not value.isascii():
        return to_ascii(value)
    return value


class _Expression(str):
    """A field value written as it was read, macros and `#` included: not braced.

    `expanded` is the value written instead (braced) where its macros cannot be defined.
    """

    expanded: str

    def __new__(cls, expression: str, expanded: str) -> _Expression:
        self = super().__new__(cls, expression)
        self.expanded = expanded
        return self


# In an expression: a quote, or a word, which outside braces and quotes is a macro name.
_QUOTE_OR_WORD_RE = re.compile(r'"|[^\s"#%\'(),={}@0-9][^\s"#%\'(),={}@]*')


def _macros_of(expression: str) -> list[str]:
    """The macro names an expression uses (outside its quoted and braced parts): a `"`
    outside braces opens or closes a quoted part, as bibtex reads it."""
    names: list[str] = []
    quoted = False
    for match in top_level_matches(expression, _QUOTE_OR_WORD_RE):
        if match.group() == '"':
            quoted = not quoted
        elif not quoted:
            names.append(match.group())
    return names


_JABREF_SPECIAL_RE = re.compile(r"([\\:;])")
_BIBLATEX_SPECIAL_RE = re.compile(r"([\\;{}])")


def file_field(paths: Iterable[str], flavour: Flavour) -> str | None:
    """The `file` field naming attached files, as reference managers write it: for
    BibTeX JabRef's `:path:PDF` (description, path, type), one per file joined by `;`,
    a `\\`, `:` or `;` in a path escaped with a backslash as JabRef does; for BibLaTeX
    Better BibLaTeX's plain paths joined by `;` (`\\`, `;` and braces escaped). A path
    whose braces do not balance is left out (bibtex counts every brace); None when no
    path is left."""
    parts = []
    for path in paths:
        if not path or not bibtex_balanced(path):
            continue
        if flavour == "biblatex":
            parts.append(_BIBLATEX_SPECIAL_RE.sub(r"\\\1", path))
        else:
            parts.append(":" + _JABREF_SPECIAL_RE.sub(r"\\\1", path) + ":PDF")
    return ";".join(parts) or None


def _record_fields(
    record: PaperRecord,
    include_abstract: bool,
    include_notes: bool,
    ascii_only: bool,
    exported_keys: frozenset[str],
    files: str | None = None,
) -> list[tuple[str, str]]:
    """The (name, BibTeX value body) pairs of one record, in writing order; a value that
    is an `_Expression` is written as it is, without braces. `files`: the `file` field
    of its attached files, written instead of an imported one."""
    crossref = record.raw.get("crossref")
    parent_written = crossref is not None and crossref.strip().lower() in exported_keys
    # Inherited fields are written unless the crossref parent is, which gives them.
    raw = record.raw if parent_written or not record.inherited else (
        record.inherited | record.raw)
    skipped = set(record.inherited) - set(record.raw) if parent_written else set()
    fields: list[tuple[str, str]] = []
    written: set[str] = set(skipped)

    def put(name: str, value: str) -> None:
        written.add(name)
        if name in skipped:
            return
        if value or name in raw:  # an empty imported field is kept too (lossless)
            fields.append((name, value))

    def from_raw(name: str) -> str | None:
        value = raw.get(name)
        if value is None:
            return None
        kept = _raw_value(name, value, ascii_only)
        expression = record.raw_source.get(name)
        # (an undefined macro alone is its own value: a name, not text to escape)
        if expression is not None and (expression == value
                                       or _raw_value(name, value, False) == value):
            return _Expression(_ascii(expression, ascii_only), kept or "")
        return kept

    # author: verbatim unless bibtex would reject a name (e.g. a stray trailing comma)
    author = from_raw("author")
    if author is not None and raw_name_list_ok(author):
        put("author", author)
    else:
        authors = record.authors or (parse_names(raw["author"]) if "author" in raw else [])
        put("author", encode_authors(authors, ascii_only))

    title = from_raw("title")
    put("title", title if title is not None else encode_text(
        record.title, protect_case=True, ascii_only=ascii_only
    ))  # fmt: skip

    venue_field = venue_field_for(record)
    venue = from_raw(venue_field)
    if (
        venue is None
        and record.venue
        and not (venue_field == "publisher" and record.venue == record.publisher)
    ):
        venue = _encode_venue(record.venue, venue_field, ascii_only)
    if venue_field != "publisher":
        put(venue_field, venue or "")

    year = from_raw("year")
    put("year", year if year is not None else ("" if record.year is None else str(record.year)))
    for name in ("volume", "pages"):
        value = from_raw(name)
        put(name, value if value is not None else encode_text(getattr(record, name)))
    publisher = from_raw("publisher")
    if publisher is None:
        publisher = encode_text(record.publisher, ascii_only=ascii_only)
        if not publisher and venue_field == "publisher" and venue:
            publisher = venue
    put("publisher", publisher)
    for name in ("doi", "url"):
        value = from_raw(name)
        put(name, value if value is not None else encode_verbatim(getattr(record, name)))
    if include_abstract:
        abstract = from_raw("abstract")
        put("abstract", abstract if abstract is not None else encode_text(
            record.abstract, ascii_only=ascii_only
        ))  # fmt: skip
    else:
        written.add("abstract")

    notes_written = include_notes and bool(record.notes.strip())
    # (Tags that are the entry's own keywords, unedited: the field is written as it was.)
    tags_written = bool(record.tags) and (
        set(record.tags) != set(keyword_tags(raw.get("keywords", ""))))
    if crossref is not None and not parent_written and record.inherited:
        # The entry carries what it inherits instead (bibtex fails on a crossref to an
        # entry it does not have). A parent that was not in the entry's own file either
        # (nothing inherited: it lives in another .bib) keeps its crossref, as written.
        written.add("crossref")
    for name, value in raw.items():
        if name in written or (notes_written and name == "annote"):
            continue
        if (tags_written and name == "keywords") or (files and name == "file"):
            continue
        if name in _NAME_FIELDS and not raw_name_list_ok(value):
            put(name, encode_authors(parse_names(value), ascii_only))
            continue
        kept = from_raw(name)
        if kept is None:
            kept = encode_text(clean(value), ascii_only=ascii_only)
        put(name, kept)
    if not raw and not record.authors and record.title:
        # bibtex sorts and labels an author-less entry by its `key` field, else by the
        # first letters of the citation key (which overflows plainnat's a..z suffixes).
        words = record.title.split()
        put("key", encode_text(" ".join(words[:4]), ascii_only=ascii_only))
    if notes_written:
        put("annote", encode_text(record.notes.strip(), ascii_only=ascii_only))
    if tags_written:
        put("keywords", ", ".join(encode_text(t, ascii_only=ascii_only) for t in record.tags))
    if files:
        put("file", files)
    return fields


def _check_record(record: PaperRecord) -> tuple[str, str]:
    """The key and lower-case entry type of a record; ValueError if it cannot be written."""
    if record.key is None:
        raise ValueError("cannot write a record without a key")
    problem = key_problem(record.key)
    if problem is not None:
        raise ValueError(f"invalid BibTeX key {record.key!r}: {problem}")
    entry_type = (record.entry_type or "misc").lower()
    if not _ENTRY_TYPE_RE.match(entry_type):
        raise ValueError(f"invalid BibTeX entry type {record.entry_type!r}")
    return record.key, entry_type


def write_bibtex(
    records: Iterable[PaperRecord],
    *,
    include_abstract: bool = True,
    include_notes: bool = False,
    ascii_only: bool = False,
    flavour: Flavour = "bibtex",
    include_files: bool = False,
) -> str:
    """BibTeX source for `records` (UTF-8 text unless `ascii_only`).

    `flavour="biblatex"` writes for biber: `date` instead of year/month, `journaltitle`,
    `@online` for entries that are only a URL, and `eprint`/`eprinttype` for arXiv ids;
    classic BibTeX gets `eprint`/`archivePrefix` for an arXiv id of a paper not read from
    a .bib file (an imported entry is written back as it was). `include_files` writes a
    record's `files` as a `file` field (`file_field`).
    A `crossref` is written only when its target is written too, and then (as bibtex
    requires) the target comes after the entries that refer to it.
    Raises ValueError for a record without a (valid) key or for duplicate keys.
    """
    if flavour not in ("bibtex", "biblatex"):
        raise ValueError(f"unknown flavour {flavour!r} (use 'bibtex' or 'biblatex')")
    records = list(records)
    checked = [_check_record(record) for record in records]
    exported = frozenset(key.lower() for key, _type in checked)
    if len(exported) < len(checked):
        seen: set[str] = set()
        for key, _type in checked:
            if key.lower() in seen:
                raise ValueError(f"duplicate BibTeX key {key!r}")
            seen.add(key.lower())
    names = {key.lower(): key.lower() for key, _type in checked}
    if flavour == "biblatex":  # biber resolves a crossref to an `ids` alias; bibtex does not
        for record, (key, _type) in zip(records, checked):
            for alias in aliases(record.raw):
                names.setdefault(alias, key.lower())
    exported = frozenset(names)  # keys (and aliases) a crossref can name
    targets = {names[r.raw["crossref"].strip().lower()] for r in records
               if "crossref" in r.raw and r.raw["crossref"].strip().lower() in names}
    blocks: list[str] = []
    strings: dict[str, tuple[str, str]] = {}  # lower-case macro: (name, value)
    places: dict[str, int] = {}  # lower-case macro: its place in the file it came from
    undefined: set[str] = set()  # lower-case macros written that no record defines
    preambles: list[str] = []
    # In the order they are written: crossref targets after the entries (so the
    # @preambles, in the order of first use, come out the same when the export is read
    # and written again). The @strings come in the order of the file they were read
    # from (a tie, or a record that does not say, in the order of first use).
    written = sorted(zip(records, checked), key=lambda rc: rc[1][0].lower() in targets)
    for record, (key, entry_type) in written:
        files = file_field(record.files, flavour) if include_files else None
        fields = _record_fields(record, include_abstract, include_notes, ascii_only, exported,
                                files)
        if flavour == "biblatex":
            entry_type, fields = to_biblatex(entry_type, fields)
        elif not record.raw:
            fields = with_arxiv_eprint(fields)
        fields = _with_strings(record, fields, strings, places, undefined, ascii_only)
        for preamble in record.preambles:
            if preamble not in preambles:
                preambles.append(preamble)
        body = "".join(
            f"  {name} = {value},\n" if isinstance(value, _Expression)
            else f"  {name} = {{{value}}},\n" for name, value in fields
        )
        if body:
            block = f"@{entry_type}{{{key},\n{body[:-2]}\n}}\n"
        else:
            block = f"@{entry_type}{{{key},\n}}\n"
        blocks.append(block)
    head = [f"@preamble{{{{{_ascii(p, ascii_only)}}}}}\n" for p in preambles if bibtex_balanced(p)]
    head += [f"@string{{{name} = {{{value}}}}}\n" for _lower, (name, value)
             in sorted(strings.items(), key=lambda item: places[item[0]])]
    if head:
        head = ["".join(head)]
    return "\n".join(head + blocks)


def _ascii(text: str, ascii_only: bool) -> str:
    """`text` with non-ASCII characters as LaTeX if `ascii_only`."""
    return to_ascii(text) if ascii_only and not text.isascii() else text


def _with_strings(record: PaperRecord, fields: list[tuple[str, str]],
                  strings: dict[str, tuple[str, str]], places: dict[str, int],
                  undefined: set[str], ascii_only: bool) -> list[tuple[str, str]]:
    """Note the `@string` macros the record's expressions use in `strings` (the file's
    definitions so far) and their places in the file the record was read from in
    `places` (last where it does not say); an expression whose macro another record
    defines otherwise is written expanded instead. A macro the file it came from did
    not define (its `@string` is in another file, like a journal abbreviation list)
    stays the macro it is: the record knows no value for it."""
    if not record.raw_source or not any(isinstance(value, _Expression) for _name, value in fields):
        return fields
    known = {name.lower(): value for name, value in record.strings.items()}
    out: list[tuple[str, str]] = []
    for name, value in fields:
        if isinstance(value, _Expression):
            wanted = _definitions(value, known, strings, undefined, ascii_only)
            if wanted is not None:
                for lower, definition in wanted.items():
                    if lower not in strings:
                        strings[lower] = definition
                        places[lower] = record.string_places.get(lower, sys.maxsize)
                undefined.update(m.lower() for m in _macros_of(value)
                                 if m.lower() not in known and m.lower() not in MONTHS)
                out.append((name, value))
                continue
            value = value.expanded
        out.append((name, value))
    return out


def _definitions(expression: str, known: dict[str, str], strings: dict[str, tuple[str, str]],
                 undefined: set[str], ascii_only: bool) -> dict[str, tuple[str, str]] | None:
    """The `@string` definitions (lower-case name: name, value) an expression needs, or
    None if it cannot be written as it is: a macro it defines has another definition in
    the file being written, or one it uses undefined is defined there (by another
    record), or the reverse of either."""
    wanted: dict[str, tuple[str, str]] = {}
    for macro in _macros_of(expression):
        lower = macro.lower()
        if lower in known:
            definition = bibtex_balanced(known[lower]) and _ascii(known[lower], ascii_only)
            if (not definition or lower in undefined
                    or strings.get(lower, (macro, definition))[1] != definition):
                return None
            wanted[lower] = (macro, definition)
        elif lower in strings:
            return None
    return wanted
