"""BibTeX text to `PaperRecord`s: the scanned entries, completed and checked.

A paper with a `crossref` inherits the missing venue fields of its parent, the papers of
a file with one `@proceedings` entry take its booktitle and year, an entry that uses a
command a `@preamble` defines keeps the preambles, and what real bibtex or LaTeX would
fail on (and the writer repairs) is named in the warnings.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from collections.abc import Callable
from pathlib import Path

from papershelf.formats.bibtex.decode import decode_bibtex
from papershelf.formats.bibtex.fields import (
    PRINTED_FIELDS,
    VENUE_FALLBACK,
    VENUE_FIELD,
    aliases,
    clean,
    clean_paragraphs,
    clean_url,
    shown,
)
from papershelf.formats.bibtex.jabref import apply_jabref
from papershelf.formats.bibtex.names import (
    encode_authors,
    name_commas,
    name_ok_for_bibtex,
    parse_name,
    parse_names,
    split_names,
)
from papershelf.formats.bibtex.scanner import Entry, Scanner
from papershelf.formats.latex import fix_bare_specials
from papershelf.formats.readable import latex_to_text
from papershelf.formats.records import FormatError, PaperRecord, ReadProblem, ReadResult
from papershelf.messages import plural
from papershelf.messages import text as message

__all__ = ["duplicate_key", "parse_bibtex", "read_bibtex", "string_macros"]

# What a paper inherits from its crossref parent (or a file's single @proceedings).
_INHERITED = (
    "booktitle", "year", "month", "date", "editor", "publisher", "organization", "address",
    "location", "series", "volume", "number", "edition", "isbn", "journal", "school",
    "institution",
)  # fmt: skip
_IN_PROCEEDINGS = frozenset({"inproceedings", "conference"})
_YEAR_RE = re.compile(r"\s*(\d{1,4})\s*")


def read_bibtex(path: str | os.PathLike[str]) -> ReadResult:
    """Read a `.bib` file (UTF-8, UTF-16 with a BOM or single-byte: see `decode_bibtex`)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(name, message("cannot read file: {reason}",
                                        reason=str(exc.strerror or exc))) from exc
    text, notices = decode_bibtex(data, name)
    result = parse_bibtex(text, name)
    result.notices[:0] = notices
    return result


def duplicate_key(path: str, key: str, line: int, first_line: int) -> ReadProblem:
    """The problem of an entry whose key an earlier entry has (it is skipped)."""
    return ReadProblem(path, line, message(
        "duplicate entry key '{key}' (first on line {first}); skipped", key=key,
        first=first_line))


def string_macros(text: str, path: str, macros: dict[str, str]) -> dict[str, str]:
    """The `@string` macros known after `text`, given those known before it (for a big
    file read in pieces: what the next piece starts with)."""
    scanner = Scanner(text, path, ReadResult())
    scanner.strings = dict(macros)
    scanner.scan()
    return scanner.strings


def parse_bibtex(text: str, path: str, first_line: int = 1,
                 macros: dict[str, str] | None = None) -> ReadResult:
    """Parse BibTeX source; bad blocks become `ReadProblem`s, the rest records (file order).

    `@string` macros, `#` concatenation and month macros are expanded; a paper with a
    `crossref` inherits the missing venue fields of its parent; in a file whose papers
    lack a booktitle but which holds one `@proceedings` entry (a proceedings volume, as
    PMLR publishes them) the papers inherit from it. `@proceedings`, `@preamble` and
    `@comment` blocks are not papers. Raises FormatError if the text holds no BibTeX
    block at all (e.g. a RIS or JSON file). `first_line` is the line number of the
    text's first line and `macros` the `@string` macros defined before it (for a piece
    of a bigger file, see `core.ingest`).
    """
    result = ReadResult()
    scanner = Scanner(text, path, result, first_line)
    if macros:
        scanner.strings = dict(macros)
    scanner.scan()
    if scanner.blocks == 0:
        comment_only = all(
            not line.strip() or line.lstrip().startswith("%") for line in text.splitlines()
        )
        if not comment_only:
            raise FormatError(path, message("not a BibTeX file (no @entry found)"))
        result.notices.append(message("{path}: no entries found", path=path))
        return result

    papers: list[Entry] = []
    proceedings: list[Entry] = []
    by_key: dict[str, Entry] = {}
    for entry in scanner.entries:
        lower_key = entry.key.lower()
        first = by_key.get(lower_key)
        if first is not None:
            result.problems.append(duplicate_key(path, entry.key, entry.line, first.line))
            continue
        by_key[lower_key] = entry
        if entry.entry_type.lower() == "proceedings":
            proceedings.append(entry)
        else:
            papers.append(entry)

    for entry in scanner.entries:  # biblatex's `ids`: other keys a crossref may use
        for alias in aliases(entry.fields):
            by_key.setdefault(alias, entry)
    _inherit_crossrefs(papers, by_key, scanner)
    if len(proceedings) == 1:
        _fill_from_proceedings(papers, proceedings[0], path, result)
    if proceedings:
        keys = ", ".join(p.key for p in proceedings)
        result.notices.append(plural(
            "{path}: %n @proceedings entries not imported as papers: {keys}",
            len(proceedings), f"{path}: {len(proceedings)} @proceedings entr"
            f"{'y' if len(proceedings) == 1 else 'ies'} not imported as papers: {keys}",
            path=path, keys=keys))
    if result.preambles:
        result.notices.append(message(
            "{path}: {n} @preamble block(s) kept out of the papers; kept with the entries "
            "that use them and exported with them", path=path, n=len(result.preambles)))
    needs_preamble = _preamble_users(result.preambles)
    for entry in papers:
        author = entry.fields.get("author")
        names = split_names(author) if author else []
        _check_entry(entry, scanner, names)
        record = _entry_to_record(entry, names)
        if needs_preamble is not None and needs_preamble(entry):
            record.preambles = list(result.preambles)
        result.records.append(record)
    apply_jabref(text, result.records, path, result)  # groups, special fields, files
    return result


_DEFINED_RE = re.compile(
    r"\\(?:(?:re|provide)?newcommand\*?|def|DeclareRobustCommand\*?)\s*\{?\s*\\([A-Za-z@]+)"
)


def _preamble_users(preambles: list[str]) -> Callable[[Entry], bool] | None:
    """Which entries need the file's `@preamble`s: those using a command they define
    (all entries if no definition can be found in them); None without preambles."""
    if not preambles:
        return None
    names = sorted({n for text in preambles for n in _DEFINED_RE.findall(text)})
    if not names:
        return lambda entry: True
    uses = re.compile(r"\\(?:" + "|".join(map(re.escape, names)) + r")(?![A-Za-z@])")

    def needs(entry: Entry) -> bool:
        values = itertools.chain(entry.fields.values(), entry.inherited.values())
        return any("\\" in v and uses.search(v) for v in values)

    return needs


def _inherit_crossrefs(papers: list[Entry], by_key: dict[str, Entry], scanner: Scanner) -> None:
    """Copy the missing venue fields of each crossref parent into its children."""
    filled = 0
    for entry in papers:
        target = entry.fields.get("crossref")
        if target is None:
            continue
        parent = by_key.get(target.strip().lower())
        if parent is None:
            scanner.warn(entry.line, message(
                "entry '{key}': crossref '{target}' is not in this file; the field is kept "
                "and exported as it is (for the file that holds that entry)",
                key=entry.key, target=target))
            continue
        if _inherit(entry, parent, entry.inherited):
            filled += 1
    if filled:
        scanner.result.notices.append(plural(
            "{path}: %n entries completed from their crossref parent", filled,
            f"{scanner.path}: {filled} entr{'y' if filled == 1 else 'ies'} completed from "
            "their crossref parent", path=scanner.path))


def _inherit(child: Entry, parent: Entry, into: dict[str, str]) -> list[str]:
    """Put the child's missing `_INHERITED` fields from `parent` into `into` (the child's
    fields, or its `inherited` ones for a crossref); the names filled."""
    filled: list[str] = []
    fields = child.fields
    parent_fields = parent.fields

    def take(name: str, source: str) -> None:
        into[name] = parent_fields[source]
        filled.append(name)
        expression = parent.sources.get(source)
        if expression is not None:
            child.sources[name] = expression
            for macro, value in parent.strings.items():
                child.strings.setdefault(macro, value)
            for lower, place in parent.string_places.items():
                child.string_places.setdefault(lower, place)

    if (
        "booktitle" not in fields
        and "booktitle" not in parent_fields
        and (
            parent.entry_type.lower() in ("proceedings", "book", "collection")
            and "title" in parent_fields
        )
    ):
        take("booktitle", "title")
    for name in _INHERITED:
        if name not in fields and name in parent_fields:
            if name == "journal" and child.entry_type.lower() != "article":
                continue
            take(name, name)
    return filled


def _fill_from_proceedings(
    papers: list[Entry], volume: Entry, path: str, result: ReadResult
) -> None:
    """Papers of a proceedings volume file take booktitle, year, ... from its one entry."""
    count = 0
    names: list[str] = []
    for entry in papers:
        if entry.entry_type.lower() not in _IN_PROCEEDINGS or "booktitle" in entry.fields:
            continue
        if "crossref" in entry.fields:
            continue
        filled = _inherit(entry, volume, entry.fields)
        if filled:
            count += 1
            names.extend(n for n in filled if n not in names)
    if count:
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        result.notices.append(plural(
            "{path}: filled {fields} of %n entries from @{type} {key}", count,
            f"{path}: filled {listed} of {count} entr{'y' if count == 1 else 'ies'} from "
            f"@{volume.entry_type} {volume.key}", path=path, fields=listed,
            type=volume.entry_type, key=volume.key))


@functools.lru_cache(maxsize=1024)
def _bad_names(value: str) -> tuple[str, ...]:
    """The names of an author/editor list that bibtex rejects (editor lists repeat)."""
    return tuple(p for p in split_names(value) if not name_ok_for_bibtex(p))


def _check_entry(entry: Entry, scanner: Scanner, author_names: list[str] | None = None) -> None:
    """Warn about what real bibtex/LaTeX would fail on and the writer will repair.

    `author_names` is `split_names` of the author field when the caller has it.
    """
    fields = entry.fields
    for name in ("author", "editor"):
        value = fields.get(name)
        if value is None or "," not in value:
            continue
        if name == "author" and author_names is not None:
            rejected = [p for p in author_names if "," in p and not name_ok_for_bibtex(p)]
        else:
            rejected = list(_bad_names(value))
        for person in rejected:
            parts = name_commas(person)
            why = message("too many commas") if len(parts) > 3 \
                else message("a stray comma (empty part)")
            fixed = encode_authors(parse_names(person), ascii_only=False)
            scanner.warn(entry.field_lines.get(name, entry.line), message(
                "entry '{key}': {field} name {person} has {why}; bibtex stops on it, so it "
                "is exported as {fixed}", key=entry.key, field=name, person=repr(person),
                why=why, fixed=repr(fixed)))
    bad: list[str] = []
    chars = ""
    for name, value in fields.items():
        if entry.sources.get(name) == value:
            continue  # an undefined macro: written back as the macro, nothing to escape
        if name in PRINTED_FIELDS and (
            "%" in value
            or "&" in value
            or "#" in value
            or "_" in value
            or "^" in value
            or "$" in value
        ):  # else fix_bare_specials finds nothing
            _fixed, found = fix_bare_specials(value)
            if found:
                bad.append(name)
                chars += "".join(c for c in found if c not in chars)
    if bad:
        scanner.warn(entry.field_lines.get(bad[0], entry.line), message(
            "entry '{key}': bare {chars} in {fields} would break LaTeX; exported escaped",
            key=entry.key, chars=" ".join(chars), fields=", ".join(bad)))


def _entry_to_record(entry: Entry, author_names: list[str] | None = None) -> PaperRecord:
    """One scanned entry as a record: raw fields verbatim, readable fields decoded.

    `author_names` is `split_names` of the author field when the caller has it.
    """
    raw = entry.fields | entry.inherited if entry.inherited else entry.fields
    entry_type = entry.entry_type.lower()
    venue_field = VENUE_FIELD.get(entry_type)
    if venue_field not in raw:
        venue_field = next((f for f in VENUE_FALLBACK if f in raw), None)
    year_text = raw.get("year", "")
    year: int | None
    if year_text.isdigit() and year_text.isascii() and len(year_text) <= 4:
        year = int(year_text)  # what `_YEAR_RE` would find
    else:
        if not year_text.isdigit():
            year_text = latex_to_text(year_text)
        year_match = _YEAR_RE.fullmatch(year_text)
        year = int(year_match.group(1)) if year_match else None
    if author_names is None:
        authors = parse_names(raw.get("author", ""))
    else:
        authors = [a for a in map(parse_name, author_names) if a is not None]
    return PaperRecord(
        entry_type=entry_type,
        key=entry.key,
        title=clean(shown(raw.get("title", ""))),
        authors=authors,
        abstract=clean_paragraphs(shown(raw.get("abstract", ""))),
        venue=clean(shown(raw[venue_field])) if venue_field else "",
        year=year,
        volume=clean(raw.get("volume", "")),
        pages=clean(raw.get("pages", "")),
        publisher=clean(shown(raw.get("publisher", ""))),
        doi=clean_url(raw.get("doi", "")),
        url=clean_url(raw.get("url", "")),
        raw=entry.fields,
        raw_source=entry.sources,
        strings=entry.strings,
        string_places=entry.string_places,
        inherited=entry.inherited,
        source_line=entry.line,
    )

