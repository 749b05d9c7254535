"""Read and write BibTeX files (bibtexparser 2).

Reading keeps every field verbatim in `PaperRecord.raw` and decodes the fields the
library shows; writing prefers those raw values, so an unedited entry is written back
as it was read (except an author list real `bibtex` would reject, which is rebuilt).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from bibtexparser.entrypoint import parse_string, write_string
from bibtexparser.library import Library
from bibtexparser.middlewares import RemoveEnclosingMiddleware, ResolveStringReferencesMiddleware
from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    Entry,
    ExplicitComment,
    Field,
    ParsingFailedBlock,
    Preamble,
    String,
)
from bibtexparser.writer import BibtexFormat

from papershelf.core.display import latex_to_text
from papershelf.core.latex import bibtex_balanced, encode_text, encode_verbatim, to_ascii
from papershelf.core.records import Author, FormatError, PaperRecord, ReadProblem, ReadResult

__all__ = ["VENUE_ACRONYMS", "parse_bibtex", "parse_names", "read_bibtex", "write_bibtex"]

# --------------------------------------------------------------------------- reading

_MONTHS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}  # fmt: skip
# The field that holds the venue, by entry type; other types use the first present one.
_VENUE_FIELD = {
    "inproceedings": "booktitle",
    "conference": "booktitle",
    "incollection": "booktitle",
    "inbook": "booktitle",
    "proceedings": "booktitle",
    "article": "journal",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
    "misc": "howpublished",
}
_VENUE_FALLBACK = ("booktitle", "journal", "howpublished", "school", "institution", "publisher")
_WS_RE = re.compile(r"\s+")
_PARAGRAPH_RE = re.compile(r"[ \t\r\f\v]*\n[ \t\r\f\v]*\n\s*")
_YEAR_RE = re.compile(r"\s*(\d{1,4})\s*")
_URL_WRAPPER_RE = re.compile(r"^\\(?:url|href)\s*\{(.*)\}$", re.DOTALL)
_URL_ESCAPE_RE = re.compile(r"\\([_%&#~$])")
_NOT_BIBTEX_RE = re.compile(r"@\s*[A-Za-z]+\s*[{(]")


def read_bibtex(path: str | Path) -> ReadResult:
    """Read a `.bib` file (UTF-8, with or without BOM) into records and problems."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(name, f"cannot read file: {exc.strerror or exc}") from exc
    return parse_bibtex(_decode(data, name), name)


def _decode(data: bytes, path: str) -> str:
    """UTF-8 text of a file; anything else is a FormatError naming file and line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(
            path, f"not UTF-8 encoded (byte 0x{data[exc.start]:02x} cannot be decoded)", line
        ) from exc


def parse_bibtex(text: str, path: str) -> ReadResult:
    """Parse BibTeX source; bad entries become `ReadProblem`s, the rest records (file order).

    Raises FormatError if the text holds no BibTeX block at all (e.g. a RIS or JSON file).
    """
    library = parse_string(
        text,
        parse_stack=[ResolveStringReferencesMiddleware(True), RemoveEnclosingMiddleware(True)],
    )
    result = ReadResult()
    blocks = library.blocks
    has_bibtex_block = any(
        isinstance(b, (Entry, String, Preamble, ExplicitComment, ParsingFailedBlock))
        for b in blocks
    )
    if not has_bibtex_block:
        comment_only = all(
            not line.strip() or line.lstrip().startswith("%") for line in text.splitlines()
        )
        if not comment_only and not _NOT_BIBTEX_RE.search(text):
            raise FormatError(path, "not a BibTeX file (no @entry found)")
        result.notices.append(f"{path}: no entries found")
        return result

    strings = {key.lower(): s.value for key, s in library.strings_dict.items()}
    proceedings: list[str] = []
    for block in blocks:
        line = block.start_line + 1 if block.start_line is not None else None
        if isinstance(block, DuplicateBlockKeyBlock):
            first = block.previous_block.start_line
            where = f" (first on line {first + 1})" if first is not None else ""
            result.problems.append(
                ReadProblem(path, line, f"duplicate entry key '{block.key}'{where}; skipped")
            )
        elif isinstance(block, ParsingFailedBlock):
            reason = str(block.error).strip() or type(block.error).__name__
            result.problems.append(ReadProblem(path, line, f"unreadable entry: {reason}"))
        elif isinstance(block, Entry):
            entry_type = block.entry_type.lower()
            if entry_type == "proceedings":
                proceedings.append(block.key)
                continue
            if not block.key.strip():
                result.problems.append(ReadProblem(path, line, "entry without a key; skipped"))
                continue
            record = _entry_to_record(block, entry_type, (path, line), strings, result)
            result.records.append(record)
    if proceedings:
        result.notices.append(
            f"{path}: {len(proceedings)} @proceedings entr"
            f"{'y' if len(proceedings) == 1 else 'ies'} not imported as papers: "
            + ", ".join(proceedings)
        )
    return result


def _split_top_level(value: str, sep: str, quotes: bool = True) -> list[str]:
    """Split on `sep` (a single char) outside braces (and `"..."` if `quotes`)."""
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    for i, ch in enumerate(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0 and quotes:
            quoted = not quoted
        elif ch == sep and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    parts.append(value[start:])
    return parts


def _resolve_unenclosed(value: str, strings: dict[str, str]) -> tuple[str, list[str]]:
    """Resolve a macro or `#` concatenation (`{Proc. } # icml`) to its text.

    Returns the text and the names of macros that are not defined.
    """
    out: list[str] = []
    unknown: list[str] = []
    for piece in _split_top_level(value, "#"):
        piece = piece.strip()
        if len(piece) >= 2 and (piece[0], piece[-1]) in (("{", "}"), ('"', '"')):
            out.append(piece[1:-1])
        elif piece.isdigit():
            out.append(piece)
        elif piece.lower() in strings:
            inner = strings[piece.lower()]
            out.append(inner)
        elif piece.lower() in _MONTHS:
            out.append(_MONTHS[piece.lower()])
        else:
            out.append(piece)
            unknown.append(piece)
    return "".join(out), unknown


def _clean(value: str) -> str:
    """Readable one-line text of a field (LaTeX decoded, math kept, spaces collapsed)."""
    return _WS_RE.sub(" ", latex_to_text(value, keep_math=True)).strip()


def _clean_paragraphs(value: str) -> str:
    """Readable text that keeps blank-line paragraph breaks (abstracts)."""
    text = latex_to_text(value, keep_math=True).strip()
    return "\n\n".join(_WS_RE.sub(" ", p).strip() for p in _PARAGRAPH_RE.split(text))


def _clean_url(value: str) -> str:
    """A url/doi value: `\\url{...}` unwrapped and `\\_`-style escapes undone, else verbatim."""
    value = value.strip()
    match = _URL_WRAPPER_RE.match(value)
    if match:
        value = match.group(1).strip()
    if "\\" in value:
        value = _URL_ESCAPE_RE.sub(r"\1", value)
    return value.replace("{", "").replace("}", "") if "{" in value else value


def _entry_to_record(
    entry: Entry,
    entry_type: str,
    where: tuple[str, int | None],
    strings: dict[str, str],
    result: ReadResult,
) -> PaperRecord:
    """One parsed entry as a record: raw fields verbatim, readable fields decoded."""
    raw: dict[str, str] = {}
    path, line = where
    location = f"{path}:{line}" if line else path
    for field in entry.fields:
        name = field.key.lower()
        value = field.value if isinstance(field.value, str) else str(field.value)
        if field.enclosing == "no-enclosing" and not value.isdigit():
            value, unknown = _resolve_unenclosed(value, strings)
            if unknown:
                result.notices.append(
                    f"{location}: entry '{entry.key}': undefined macro "
                    f"{', '.join(unknown)} in field '{name}' kept as text"
                )
        if name in raw:
            result.notices.append(
                f"{location}: entry '{entry.key}': field '{name}' given "
                "twice; the first value is kept"
            )
            continue
        raw[name] = value

    venue_field = _VENUE_FIELD.get(entry_type)
    if venue_field not in raw:
        venue_field = next((f for f in _VENUE_FALLBACK if f in raw), None)
    year_text = latex_to_text(raw.get("year", ""))
    year_match = _YEAR_RE.fullmatch(year_text)
    return PaperRecord(
        entry_type=entry_type,
        key=entry.key,
        title=_clean(raw.get("title", "")),
        authors=parse_names(raw.get("author", "")),
        abstract=_clean_paragraphs(raw.get("abstract", "")),
        venue=_clean(raw[venue_field]) if venue_field else "",
        year=int(year_match.group(1)) if year_match else None,
        volume=_clean(raw.get("volume", "")),
        pages=_clean(raw.get("pages", "")),
        publisher=_clean(raw.get("publisher", "")),
        doi=_clean_url(raw.get("doi", "")),
        url=_clean_url(raw.get("url", "")),
        raw=raw,
        source_line=line,
    )


# --------------------------------------------------------------------------- names


def _split_names(value: str) -> list[str]:
    """Split an author list on ` and ` at brace depth 0 (case-insensitive, like bibtex)."""
    names: list[str] = []
    depth = 0
    start = 0
    i = 0
    n = len(value)
    lower = value.lower()
    while i < n:
        ch = value[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif (
            depth == 0
            and ch.isspace()
            and lower.startswith("and", i + 1)
            and i + 4 < n
            and value[i + 4].isspace()
        ):
            names.append(value[start:i])
            i += 4
            start = i
            continue
        i += 1
    names.append(value[start:])
    return [name.strip() for name in names if name.strip()]


def _split_words(name: str) -> list[str]:
    """Whitespace/`~` separated words of a name at brace depth 0."""
    words: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in name:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if depth == 0 and (ch.isspace() or ch == "~"):
            if current:
                words.append("".join(current))
                current = []
            continue
        current.append(ch)
    if current:
        words.append("".join(current))
    return words


def _is_lower_word(word: str) -> bool:
    """BibTeX's 'von' test: the first letter at brace depth 0 (or of `{\\x..}`) is lower-case."""
    if word.startswith("{") and not word.startswith("{\\"):
        return False  # a braced group is caseless: never a von particle
    text = latex_to_text(word)
    for ch in text:
        if ch.isalpha():
            return ch.islower()
    return False


def _name_commas(name: str) -> list[str]:
    """Comma-separated parts of one name at brace depth 0."""
    return [part.strip() for part in _split_top_level(name, ",", quotes=False)]


def _name_ok_for_bibtex(name: str) -> bool:
    """False for names bibtex rejects: empty parts (trailing comma) or more than 2 commas."""
    parts = _name_commas(name)
    return len(parts) <= 3 and all(parts)


def _parse_name(name: str) -> Author | None:
    """'Family, Given', 'Family, Jr, Given' or 'Given von Family' as an Author."""
    parts = [p for p in _name_commas(name) if p]
    if not parts:
        return None
    if len(parts) == 1:
        words = _split_words(parts[0])
        if len(words) <= 1:
            family, given = parts[0], ""
        else:
            lower = [i for i, w in enumerate(words[:-1]) if _is_lower_word(w)]
            if lower:
                first, last = lower[0], lower[-1]
                given = " ".join(words[:first])
                family = " ".join(words[first:])
                if last < first:  # pragma: no cover - defensive
                    family = " ".join(words[first:])
            else:
                given, family = " ".join(words[:-1]), words[-1]
    elif len(parts) == 2:
        family, given = parts
    else:
        family, given = f"{parts[0]} {parts[1]}", " ".join(parts[2:])
    family, given = _clean(family), _clean(given)
    if family.lower() == "others" and not given:
        return None  # "and others" means et al., not a person
    if not family:
        family, given = given, ""
    return Author(family=family, given=given) if family else None


def parse_names(value: str) -> list[Author]:
    """An `author`/`editor` value as Authors (decoded; 'and others' dropped)."""
    if not value.strip():
        return []
    authors: list[Author] = []
    for name in _split_names(value):
        author = _parse_name(name)
        if author is not None:
            authors.append(author)
    return authors


# --------------------------------------------------------------------------- writing

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
_KEY_INVALID_RE = re.compile(r"[\s,{}()\"#%'=\\]")
_ENTRY_TYPE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_AND_RE = re.compile(r"(?i)(?:^|\s)and(?:\s|$)")
_URL_FIELDS = frozenset({"url", "doi"})
_NAME_FIELDS = frozenset({"author", "editor"})
_FORMAT = BibtexFormat()  # type: ignore[no-untyped-call]
_FORMAT.indent = "  "
_FORMAT.block_separator = "\n"


def _venue_field_for(record: PaperRecord) -> str:
    """Field name that carries the venue when writing `record`."""
    entry_type = record.entry_type.lower()
    field = _VENUE_FIELD.get(entry_type)
    if field is not None and (field in record.raw or not record.raw):
        return field
    for candidate in _VENUE_FALLBACK:
        if candidate in record.raw:
            return candidate
    if field is not None:
        return field
    return "publisher" if entry_type == "book" and not record.publisher else "howpublished"


def _encode_venue(venue: str, field: str, ascii_only: bool) -> str:
    """Venue text as BibTeX; a bare acronym (`ICML`, `ICML 2024`) becomes its long name."""
    match = _ACRONYM_RE.match(venue)
    if match:
        long_name = VENUE_ACRONYMS.get(match.group(1).upper())
        if long_name is not None:
            return long_name
    protect = field in ("booktitle", "journal", "series")
    return encode_text(venue, protect_case=protect, ascii_only=ascii_only)


def _encode_name_part(text: str, ascii_only: bool, brace: bool) -> str:
    """One family/given name, escaped and braced when bibtex must see it as one unit."""
    body = encode_text(text, ascii_only=ascii_only)
    if brace or "," in text or _AND_RE.search(text):
        return f"{{{body}}}"
    return body


def _encode_authors(authors: Iterable[Author], ascii_only: bool) -> str:
    """Authors as `Family, Given and Family, Given` that bibtex splits correctly."""
    names: list[str] = []
    for author in authors:
        family, given = author.family.strip(), author.given.strip()
        if not family:
            family, given = given, ""
        if not family:
            continue
        # A family name with spaces but no given name is one unit ({Company Name}).
        family_src = _encode_name_part(family, ascii_only, brace=not given and " " in family)
        if given:
            names.append(f"{family_src}, {_encode_name_part(given, ascii_only, brace=False)}")
        else:
            names.append(family_src)
    return " and ".join(names)


def _raw_name_list_ok(value: str) -> bool:
    """True if bibtex accepts every name of a raw author/editor value."""
    if "," not in value:
        return True
    return all(_name_ok_for_bibtex(name) for name in _split_names(value))


def _raw_value(name: str, value: str, ascii_only: bool) -> str | None:
    """A raw field value as written, or None if it cannot be written verbatim."""
    if not bibtex_balanced(value):
        return None
    if ascii_only and name not in _URL_FIELDS and not value.isascii():
        return to_ascii(value)
    return value


def _record_to_entry(
    record: PaperRecord, include_abstract: bool, include_notes: bool, ascii_only: bool
) -> Entry:
    """One record as a bibtexparser Entry whose field values are final BibTeX source."""
    if record.key is None:
        raise ValueError("cannot write a record without a key")
    if not record.key or _KEY_INVALID_RE.search(record.key):
        raise ValueError(f"invalid BibTeX key {record.key!r}")
    entry_type = (record.entry_type or "misc").lower()
    if not _ENTRY_TYPE_RE.match(entry_type):
        raise ValueError(f"invalid BibTeX entry type {record.entry_type!r}")

    raw = record.raw
    fields: list[Field] = []
    written: set[str] = set()

    def put(name: str, value: str) -> None:
        written.add(name)
        if value:
            fields.append(Field(name, f"{{{value}}}"))

    def from_raw(name: str) -> str | None:
        value = raw.get(name)
        return None if value is None else _raw_value(name, value, ascii_only)

    # author: verbatim unless bibtex would reject a name (e.g. a stray trailing comma)
    author = from_raw("author")
    if author is not None and _raw_name_list_ok(author):
        put("author", author)
    else:
        authors = record.authors or (parse_names(raw["author"]) if "author" in raw else [])
        put("author", _encode_authors(authors, ascii_only))

    title = from_raw("title")
    put("title", title if title is not None else encode_text(
        record.title, protect_case=True, ascii_only=ascii_only
    ))  # fmt: skip

    venue_field = _venue_field_for(record)
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
    tags_written = bool(record.tags)
    for name, value in raw.items():
        if name in written or (notes_written and name == "annote"):
            continue
        if tags_written and name == "keywords":
            continue
        if name in _NAME_FIELDS and not _raw_name_list_ok(value):
            put(name, _encode_authors(parse_names(value), ascii_only))
            continue
        kept = _raw_value(name, value, ascii_only)
        if kept is None:
            kept = encode_text(_clean(value), ascii_only=ascii_only)
        put(name, kept)
    if notes_written:
        put("annote", encode_text(record.notes.strip(), ascii_only=ascii_only))
    if tags_written:
        put("keywords", ", ".join(encode_text(t, ascii_only=ascii_only) for t in record.tags))
    return Entry(entry_type, record.key, fields)


def write_bibtex(
    records: Iterable[PaperRecord],
    *,
    include_abstract: bool = True,
    include_notes: bool = False,
    ascii_only: bool = False,
) -> str:
    """BibTeX source for `records` (UTF-8 text unless `ascii_only`).

    Raises ValueError for a record without a (valid) key or for duplicate keys.
    """
    entries: list[Block] = [
        _record_to_entry(record, include_abstract, include_notes, ascii_only) for record in records
    ]
    library = Library(entries)
    text = write_string(library, unparse_stack=[], bibtex_format=_FORMAT)
    return text
