"""Editing a paper's bibliographic fields by their BibTeX names (issue 25).

A paper's fields are what an export writes for it (`fields_of`: the entry type and the
BibTeX fields, as BibTeX values), so what the user edits is what the .bib file says.
`set_fields` changes some of them in one transaction: each value is stored verbatim
with the paper's BibTeX fields (`bib_fields`, as an import stores an entry) and the
readable columns it stands for (title, authors, venue, year, ...) are read from it the
way an import reads them, so setting a field, exporting and importing the export gives
the same paper. A paper that has no BibTeX fields yet (added from an abstract list or a
service) is first given those its export writes, so its other fields are exported as
before. The citation key never changes.

The paper's row is locked while the edit is written: two members of a shared library
editing different fields of a paper both keep their edits. Where the field itself
changed since the caller read it (`base`), the abstract is merged three-way like notes
and any other field is replaced (last write wins); the Change names those fields.

The undo puts back exactly the fields the edit changed (their BibTeX values, how they
were written and the readable columns they made), and nothing else; if someone else
changed any of them since, it leaves the paper as it is (`Change.skipped`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timezone
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from papershelf.core import edits, importing
from papershelf.core import fields as paper_fields
from papershelf.core.context import Context
from papershelf.core.edits import BIB_FIELDS, Change, hold_for_undo, merge_texts
from papershelf.core.ingest import abstract_hash, authors_sort, authors_text, normalize_text
from papershelf.core.models import Paper, PaperAuthor, PaperText, utcnow
from papershelf.errors import UserError
from papershelf.formats.bibtex import parse_bibtex, write_bibtex
from papershelf.formats.bibtex.fields import (
    VENUE_FALLBACK,
    VENUE_FIELD,
    VERBATIM_FIELDS,
    clean,
    clean_paragraphs,
    clean_url,
    keyword_tags,
    shown,
)
from papershelf.formats.bibtex.names import raw_name_list_ok, split_names
from papershelf.formats.bibtex.writer import sort_key, venue_field_for
from papershelf.formats.readable import bibtex_balanced
from papershelf.formats.records import Author, PaperRecord, ReadResult, bib_extra, with_bib_extra
from papershelf.messages import text

#: The name of the entry type among a paper's fields (`@article` is `type: article`).
TYPE = "type"
#: A paper's venue, wherever it keeps it (`booktitle`, `journal`, ... by its type).
VENUE = "venue"
# Other names a user may give a field by.
_ALIASES = {"entrytype": TYPE, "entry_type": TYPE, "authors": "author", "editors": "editor",
            "arxiv": "eprint"}
# The readable attribute (and column) each BibTeX field stands for.
_ATTRIBUTES = {"title": "title", "author": "authors", "abstract": "abstract",
               "year": "year", "volume": "volume", "pages": "pages",
               "publisher": "publisher", "doi": "doi", "url": "url"}
_COLUMNS = frozenset(paper_fields.COPIED_COLUMNS) | {"entry_type", "title_provisional"}

# A field name as bibtex reads one (the scanner's), not starting with a digit.
_NAME_RE = re.compile(r"^[^\s\"#%'(),={}@0-9][^\s\"#%'(),={}@]*$")
_TYPE_RE = re.compile(r"^[a-z][a-z0-9_-]*$")
_NOT_PAPERS = frozenset({"string", "preamble", "comment", "proceedings"})
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_DOI_PREFIX_RE = re.compile(r"(?i)^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)")
_DOI_RE = re.compile(r"^10\.\d{4,9}/\S+$")
_ARXIV_PREFIX_RE = re.compile(r"(?i)^arxiv:\s*")
_ARXIV_NEW_RE = re.compile(r"^\d{2}(0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?$")
_ARXIV_OLD_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{2}(0[1-9]|1[0-2])\d{3}"
                           r"(?:v\d+)?$")
_PAGE = r"(?:[A-Za-z]{0,3}\d+[A-Za-z]?|[ivxlcdm]+|[IVXLCDM]+)"
_PAGES_RE = re.compile(rf"^{_PAGE}(?:\s*(?:-{{1,3}}|–|—)\s*{_PAGE})?\+?$")
_YEAR_RE = re.compile(r"^\d{1,4}$")
FIRST_YEAR = 1000
LONGEST_NAME = 64
LONGEST_TYPE = 32  # (the entry_type column)


class FieldError(UserError):
    """A field value that cannot be stored (or a field that cannot be set): which field
    and what is wrong. Nothing was written."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}; nothing was changed")


# -- checking what the user typed -------------------------------------------------------


def field_name(name: str) -> str:
    """A field's name as the library keeps it (lower case, aliases resolved); FieldError
    if it cannot be a BibTeX field name."""
    lower = name.strip().lower()
    lower = _ALIASES.get(lower, lower)
    if not lower:
        raise FieldError(repr(name), "a field needs a name")
    if len(lower) > LONGEST_NAME or not _NAME_RE.match(lower):
        raise FieldError(repr(name)[:80], "not a BibTeX field name (no spaces, quotes, "
                         "braces, commas or # % ' ( ) = @, not starting with a digit)")
    return lower


def checked_value(name: str, value: str | None) -> str | None:
    """`value` of the field `name` as it is stored (None or blank: the field is removed);
    FieldError naming what is wrong with it."""
    if value is None or not value.strip():
        if name in (TYPE, "title"):
            raise FieldError(name, f"a paper needs a {'title' if name == 'title' else name}")
        return None
    value = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    if _CONTROL_RE.search(value):
        raise FieldError(name, "the value holds control characters")
    if name == TYPE:
        return _entry_type(value)
    if not bibtex_balanced(value):
        raise FieldError(name, f"the braces in {_short(value)} do not pair up (a BibTeX "
                         "value needs as many } as {, each after its {)")
    check = _CHECKS.get(name)
    return check(name, value) if check is not None else value


def _short(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


def _entry_type(value: str) -> str:
    lower = value.lower().lstrip("@")
    if len(lower) > LONGEST_TYPE or not _TYPE_RE.match(lower):
        raise FieldError(TYPE, f"{_short(value)} is not an entry type (article, "
                         "inproceedings, book, misc, ...)")
    if lower in _NOT_PAPERS:
        raise FieldError(TYPE, f"@{lower} is not a paper's entry type")
    return lower


def _doi(name: str, value: str) -> str:
    doi = _DOI_PREFIX_RE.sub("", value)
    if not _DOI_RE.match(doi):
        raise FieldError(name, f"{_short(value)} is not a DOI (10.NNNN/suffix, e.g. "
                         "10.1145/3292500.3330701)")
    return doi


def _eprint(name: str, value: str) -> str:
    found = _ARXIV_PREFIX_RE.sub("", value)
    if not (_ARXIV_NEW_RE.match(found) or _ARXIV_OLD_RE.match(found)):
        raise FieldError(name, f"{_short(value)} is not an arXiv id (2301.01234, "
                         "2301.01234v2 or hep-th/9901001)")
    return found


def _year(name: str, value: str) -> str:
    last = datetime.now(timezone.utc).year + 5
    if not _YEAR_RE.match(value) or not FIRST_YEAR <= int(value) <= last:
        raise FieldError(name, f"{_short(value)} is not a year (a number from "
                         f"{FIRST_YEAR} to {last})")
    return str(int(value))


def _pages(name: str, value: str) -> str:
    parts = [part.strip() for part in value.split(",")]
    if not all(_PAGES_RE.match(part) for part in parts):
        raise FieldError(name, f"{_short(value)} are not pages (12, 12-19, 12--19, "
                         "xi--xv, e1002; several separated by commas)")
    return value


def _url(name: str, value: str) -> str:
    try:
        parts = urlsplit(value)
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.netloc \
            or any(c.isspace() for c in value):
        raise FieldError(name, f"{_short(value)} is not a web address (http:// or "
                         "https://, no spaces)")
    return value


def _names(name: str, value: str) -> str:
    names = split_names(value)
    if not names:
        raise FieldError(name, f"{_short(value)} names nobody")
    if not raw_name_list_ok(value):
        raise FieldError(name, f"a name in {_short(value)} has too many commas (write "
                         "'Family, Given and Family, Given'; a name of an organisation "
                         "in braces: {World Health Organization})")
    return value


_CHECKS = {"doi": _doi, "year": _year, "pages": _pages, "url": _url,
           "author": _names, "editor": _names}


def checked_values(values: Mapping[str, str | None]) -> dict[str, str | None]:
    """The user's field values checked and named as the library keeps them; FieldError
    for the first wrong one (so nothing is written)."""
    out: dict[str, str | None] = {}
    for name, value in values.items():
        lower = field_name(name)
        if lower in out:
            raise FieldError(lower, "given twice")
        out[lower] = checked_value(lower, value)
    return out


def _check_eprint(wanted: dict[str, str | None], fields: Mapping[str, str]) -> None:
    """An eprint is an arXiv id unless its archive (`archivePrefix` or `eprinttype`, as
    given or as the paper has it) is another."""
    eprint = wanted.get("eprint")
    if not eprint:
        return
    archive = next((wanted[name] if name in wanted else fields.get(name)
                    for name in ("archiveprefix", "eprinttype")
                    if wanted.get(name) or fields.get(name)), None) or "arxiv"
    if archive.lower() == "arxiv":
        wanted["eprint"] = _eprint("eprint", eprint)


# -- a paper's fields as BibTeX ----------------------------------------------------------


def _shown_record(record: PaperRecord) -> PaperRecord:
    """The record as its fields are shown: without what an export adds of the user's
    own (tags as keywords, notes, files)."""
    shown = PaperRecord(**{name: getattr(record, name)
                           for name in record.__dataclass_fields__})
    shown.tags, shown.files, shown.notes = [], [], ""
    return shown


def entry_of(record: PaperRecord) -> str:
    """The BibTeX a paper's fields are edited as: its export, without the user's tags,
    notes and files (with the @strings and @preambles its fields use)."""
    return write_bibtex([_shown_record(record)], include_abstract=True)


def parse_entry(source: str, path: str = "<entry>") -> tuple[str, str, dict[str, str]]:
    """The citation key, entry type and fields of the one entry of `source`; a
    UserError naming the line and what is wrong if it is not one readable entry."""
    result = parse_bibtex(source, path)
    if result.problems:
        raise UserError(str(result.problems[0]))
    if len(result.records) != 1:
        raise UserError(f"{path}: {len(result.records) or 'no'} entries; write exactly one")
    record = result.records[0]
    return record.key or "", record.entry_type, dict(record.raw)


def fields_of(record: PaperRecord) -> dict[str, str]:
    """A paper's fields as `set_fields` takes them: `type` and the BibTeX fields its
    export writes, as BibTeX values (in the export's order; an author-less paper read
    from no .bib file has the `key` field the writer gives it, bibtex's sort key)."""
    _key, entry_type, found = parse_entry(entry_of(record))
    return {TYPE: entry_type, **found}


def readable_value(name: str, value: str) -> str:
    """A field's BibTeX value as readable text (LaTeX decoded; a URL or DOI unwrapped;
    an abstract keeps its paragraphs)."""
    if name in VERBATIM_FIELDS:
        return clean_url(value)
    if name == "abstract":
        return clean_paragraphs(shown(value))
    return clean(shown(value))


def _decoded(entry_type: str, values: Mapping[str, str]) -> PaperRecord:
    """A record of fields as an import reads them (readable title, authors, venue...)."""
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in values.items()
                   if bibtex_balanced(value))
    result = parse_bibtex(f"@{entry_type}{{decoded,\n{body}}}\n", "<fields>")
    if result.problems or len(result.records) != 1:
        problem = result.problems[0].message if result.problems else "no entry"
        raise UserError(f"the fields cannot be read as BibTeX: {problem}")
    return result.records[0]


# -- writing -----------------------------------------------------------------------------

# What an edit changes, slot by slot: ("raw", name) a BibTeX value, ("source", name) how
# it was written (a macro expression), ("inherited", name) a value from a crossref
# parent, ("attr", name) a readable attribute; None removes a BibTeX value.
Slot = tuple[str, str]
Slots = dict[Slot, Any]


def _record_of(paper: Paper) -> PaperRecord:
    texts = paper.texts
    record = PaperRecord(
        **{name: getattr(paper, name) for name in paper_fields.COPIED_COLUMNS},
        entry_type=paper.entry_type, key=paper.key, title_provisional=paper.title_provisional,
        authors=[Author(a.family, a.given) for a in paper.authors],
        abstract=texts.abstract if texts is not None else "",
        raw=dict(texts.bib_fields or {}) if texts is not None else {})
    return with_bib_extra(record, texts.bib_extra if texts is not None else None)


def _attribute(paper: Paper, name: str) -> Any:
    if name == "authors":
        return tuple((a.family, a.given) for a in paper.authors)
    if name == "abstract":
        return paper.texts.abstract if paper.texts is not None else ""
    return getattr(paper, name)


def _apply(session: Session, paper: Paper, slots: Slots) -> Slots:
    """Give the paper the slots' values (one new version of it); returns the slots as
    they were (what puts it back)."""
    if paper.texts is None:
        paper.texts = PaperText(abstract="", bib_fields={})
    texts = paper.texts
    raw = dict(texts.bib_fields or {})
    extra = with_bib_extra(PaperRecord(), texts.bib_extra)
    kept = {"raw": raw, "source": extra.raw_source, "inherited": extra.inherited}
    before: Slots = {}
    for (kind, name), value in slots.items():
        if kind == "attr":
            before[kind, name] = _attribute(paper, name)
            if name == "authors":
                paper.authors.clear()
                session.flush()  # (the old rows go before the new take their positions)
                paper.authors = [PaperAuthor(position=n, family=family, given=given)
                                 for n, (family, given) in enumerate(value)]
            elif name == "abstract":
                texts.abstract = value
            else:
                assert name in _COLUMNS, name
                setattr(paper, name, value)
            continue
        values = kept[kind]
        before[kind, name] = values.get(name)
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value
    texts.bib_fields = raw
    texts.bib_extra = bib_extra(extra)
    authors = [Author(family, given) for family, given in _attribute(paper, "authors")]
    paper.title_norm = "" if paper.title_provisional else normalize_text(paper.title)
    paper.authors_text, paper.authors_sort = authors_text(authors), authors_sort(authors)
    paper.abstract_hash = abstract_hash(texts.abstract)
    paper.modified_at = utcnow()
    paper.version += 1
    return before


def _description(names: list[str]) -> str:
    return text("Edit {fields}", fields=", ".join(names))


def _slots_now(paper: Paper, slots: Slots) -> Slots:
    """What the paper holds now in the places of `slots`."""
    texts = paper.texts
    if texts is None:
        return {slot: None for slot in slots}
    extra = with_bib_extra(PaperRecord(), texts.bib_extra)
    kept = {"raw": dict(texts.bib_fields or {}), "source": extra.raw_source,
            "inherited": extra.inherited}
    return {(kind, name): _attribute(paper, name) if kind == "attr" else kept[kind].get(name)
            for kind, name in slots}


def _put(ctx: Context, paper_id: int, description: str, slots: Slots,
         expected: Slots) -> Change:
    """Write slots (an undo or redo) if the paper still holds the `expected` values
    there (what the edit being reversed wrote); if someone else changed any of them
    since, the paper is left as it is (the Change's `skipped` says so). The Change's
    undo writes back what the slots replaced, the same way."""
    with ctx.write() as session:
        hold_for_undo(ctx, session, [paper_id])
        paper = session.get(Paper, paper_id)
        if paper is None or _slots_now(paper, expected) != expected:
            return Change(description, frozenset(), touched=frozenset({BIB_FIELDS}), skipped=1)
        before = _apply(session, paper, slots)
        ctx.log(session, {BIB_FIELDS}, [paper_id])
    return Change(description, frozenset({paper_id}), touched=frozenset({BIB_FIELDS}),
                  undo=partial(_put, ctx, paper_id, description, before, slots))


def _plan(paper: Paper, wanted: dict[str, str | None], base: Mapping[str, str | None] | None
          ) -> tuple[Slots, list[str], dict[str, str | None], bool]:
    """The slots that give the paper the wanted field values; the fields changed, those
    whose concurrent value was replaced (with that value) and whether an abstract merge
    conflicted."""
    record = _record_of(paper)
    now = fields_of(record)
    slots: Slots = {}
    raw = dict(record.raw)
    if not raw:  # (what its export writes becomes its BibTeX, so it is exported as before)
        raw = {name: value for name, value in now.items() if name != TYPE}
        slots.update({("raw", name): value for name, value in raw.items()})
        record.raw = dict(raw)
    wanted = dict(wanted)
    _check_eprint(wanted, now)
    seen = {_ALIASES.get(name.lower(), name.lower()): value
            for name, value in (base or {}).items()}
    if VENUE in wanted or VENUE in seen:
        new_type = wanted.get(TYPE) or record.entry_type
        target = VENUE_FIELD.get(new_type) if new_type != record.entry_type else None
        target = target or venue_field_for(_with_type(record, new_type))
        if VENUE in wanted:
            if target in wanted:
                raise FieldError(VENUE, f"give the venue or {target}, not both")
            wanted[target] = wanted.pop(VENUE)
        if VENUE in seen:
            seen.setdefault(target, seen.pop(VENUE))
    replaced: dict[str, str | None] = {}
    conflict = False
    changed: list[str] = []
    entry_type = record.entry_type
    for name, value in wanted.items():
        current = now.get(name)
        if base is not None and name in seen and current != seen[name] and current != value:
            if name == "abstract" and value and current:
                value, conflict = merge_texts(seen[name] or "", value, current)
            else:
                replaced[name] = current
        if value == current:
            continue
        changed.append(name)
        if name == TYPE:
            entry_type = value or entry_type
            slots["attr", "entry_type"] = entry_type
            continue
        slots["raw", name] = value
        if name in record.raw_source:
            slots["source", name] = None
        if value is None and name in record.inherited:
            slots["inherited", name] = None
    if not changed:
        return {}, [], replaced, conflict
    new_raw = {**record.inherited, **raw}  # (what an import of its export reads)
    for (kind, name), value in slots.items():
        if kind == "raw" and value is None:
            new_raw.pop(name, None)
        elif kind == "raw":
            new_raw[name] = value
    decoded = _decoded(entry_type, new_raw)
    attributes = {_ATTRIBUTES[name] for name in changed if name in _ATTRIBUTES}
    was = _venue_source(record.entry_type, {**record.inherited, **raw})
    now_in = _venue_source(entry_type, new_raw)
    if was != now_in or {was, now_in} & set(changed):
        attributes.add("venue")
    if "title" in changed or ("author" in changed and decoded.authors):
        slots["attr", "title_provisional"] = False
    if "title" in changed and "key" not in changed and record.title and (
            raw.get("key") == sort_key(record.title)):
        # The sort key was made from the old title (a provisional one): it follows the
        # title; a `key` given by the user or an import is left as it is.
        slots["raw", "key"] = sort_key(decoded.title) if decoded.title else None
    for name in sorted(attributes):
        slots["attr", name] = getattr(decoded, name) if name != "authors" else tuple(
            (a.family, a.given) for a in decoded.authors)
    return slots, changed, replaced, conflict


def _venue_source(entry_type: str, fields: Mapping[str, str]) -> str | None:
    """The field an import reads a paper's venue from (as the reader chooses it)."""
    field = VENUE_FIELD.get(entry_type)
    if field is not None and field in fields:
        return field
    return next((name for name in VENUE_FALLBACK if name in fields), None)


def _with_type(record: PaperRecord, entry_type: str) -> PaperRecord:
    shown = _shown_record(record)
    shown.entry_type = entry_type
    return shown


def set_fields(ctx: Context, paper_id: int, values: Mapping[str, str | None],
               base: Mapping[str, str | None] | None = None) -> Change:
    """Set fields of a paper by their BibTeX names (`type` the entry type, `venue`
    wherever the paper keeps its venue, `arxiv` its eprint): values as BibTeX values;
    None or blank removes a field. A wrong value is a FieldError and nothing is written.
    `base`: the fields as the caller read them (`fields_of`), to merge the abstract
    with, and to name the fields someone else changed meanwhile (`Change.replaced`)."""
    wanted = checked_values(values)
    with ctx.write() as session:
        paper = session.get(Paper, paper_id, with_for_update=True)
        if paper is None:
            raise UserError("the paper no longer exists")
        slots, changed, replaced, conflict = _plan(paper, wanted, base)
        if not slots:
            return Change(_description(list(wanted)), frozenset(), touched=frozenset({BIB_FIELDS}))
        before = _apply(session, paper, slots)
        ctx.log(session, {BIB_FIELDS}, [paper_id])
    description = _description(changed)
    return Change(description, frozenset({paper_id}), touched=frozenset({BIB_FIELDS}),
                  undo=partial(_put, ctx, paper_id, description, before, slots),
                  conflict=conflict,
                  replaced=replaced)


def set_fields_and_tags(ctx: Context, paper_id: int, values: Mapping[str, str | None],
                        base: Mapping[str, str | None] | None = None) -> Change:
    """`set_fields`, where a `keywords` field is the paper's tags (an entry's keywords
    are its tags, and the export writes the tags as its keywords): the tags its old
    value gave go, the new value's come; one undo step for all of it."""
    if "keywords" not in values:
        return set_fields(ctx, paper_id, values, base)
    with ctx.read() as session:
        texts = session.get(PaperText, paper_id)
        before = keyword_tags((texts.bib_fields or {}).get("keywords", "")) if texts else []
    change = set_fields(ctx, paper_id, values, base)
    after = keyword_tags(values["keywords"] or "")
    changes = [change]
    if gone := [tag for tag in before if tag not in after]:
        changes.append(edits.remove_tags(ctx, [paper_id], gone))
    if came := [tag for tag in after if tag not in before]:
        changes.append(edits.add_tags(ctx, [paper_id], came))
    return edits.combined(change.description, changes)


def new_record(values: Mapping[str, str | None]) -> PaperRecord:
    """The record of a paper typed in by hand (`values` as for `set_fields`, `type` among
    them, a title required); FieldError for a wrong value."""
    wanted: dict[str, str | None] = {
        name: value for name, value in checked_values(values).items() if value is not None}
    if "title" not in wanted:
        raise FieldError("title", "a paper needs a title")
    _check_eprint(wanted, {})
    entry_type = wanted.pop(TYPE, None) or "misc"
    if VENUE in wanted:
        target = venue_field_for(PaperRecord(entry_type=entry_type))
        if target in wanted:
            raise FieldError(VENUE, f"give the venue or {target}, not both")
        wanted[target] = wanted.pop(VENUE)
    record = _decoded(entry_type, {name: value for name, value in wanted.items()
                                   if value is not None})
    record.key, record.source_line = None, None
    return record


def add_new(ctx: Context, values: Mapping[str, str | None]) -> tuple[Change, int]:
    """Add a paper typed in by hand as an import adds an entry (its key made from the
    key pattern); the Change (its undo takes the paper away) and the paper's id. A
    paper the library has already (the same DOI, title or abstract) is refused."""
    record = new_record(values)
    existing, _merged = importing.paper_for(ctx, record)
    if existing is not None:
        with ctx.read() as session:
            key = session.get(Paper, existing).key  # type: ignore[union-attr]
        raise UserError(f"the library has this paper already, as {key} (the same DOI, "
                        f"title or abstract); change its fields with `papershelf set {key}`")
    report = importing.import_result(ctx, ReadResult(records=[record]), "(typed in)",
                                     "bibtex")
    return report.undoable(ctx, text("New paper")), report.added_ids[0]
