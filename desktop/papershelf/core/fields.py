"""A paper's fields, declared once: name, column, BibTeX field, and who may set it.

Reading a paper builds its `PaperRecord` from `RECORD_COLUMNS` (`record_from`); an
import's prepared tuples (`core.ingest`) carry `PAPER_COLUMNS`; merging an imported
duplicate (`core.importing.merge_into`) fills the `fill` fields a paper lacks and takes
the verbatim BibTeX of the fields it owns (`OWNED_BIBTEX`); the user's own fields (notes,
tags) it never touches. Pure Python without the database: the import's worker processes
import it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from papershelf.formats.records import Author, PaperRecord, with_bib_extra


@dataclass(frozen=True)
class Field:
    """One field of a paper's record and where the library keeps it."""

    name: str  # the PaperRecord attribute
    column: str | None  # its column; None: a table of its own (paper_authors, paper_tags)
    table: str = "papers"  # or "paper_texts", the long text kept apart
    bibtex: str | None = None  # the BibTeX field holding its verbatim value, if just one
    fill: bool = False  # an import completes a paper that lacks it from a duplicate


# In the order a merge fills them in and names them to the user.
FIELDS = (
    Field("entry_type", "entry_type"),  # the entry's @type, lower case
    Field("key", "key"),  # assigned by the library on import, unique
    Field("title", "title", bibtex="title", fill=True),  # fills a provisional one too
    Field("title_provisional", "title_provisional"),
    Field("abstract", "abstract", table="paper_texts", bibtex="abstract", fill=True),
    Field("venue", "venue", fill=True),  # read from one of VENUE_FIELDS
    Field("volume", "volume", bibtex="volume", fill=True),
    Field("pages", "pages", bibtex="pages", fill=True),
    Field("publisher", "publisher", bibtex="publisher", fill=True),
    Field("doi", "doi", bibtex="doi", fill=True),
    Field("url", "url", bibtex="url", fill=True),
    Field("year", "year", bibtex="year", fill=True),
    Field("authors", None, bibtex="author", fill=True),
    Field("raw", "bib_fields", table="paper_texts"),  # every BibTeX field, verbatim
    # The user's own: an import never sets them, nor does `merge_into`.
    Field("notes", "notes"),
    Field("tags", None),
)

# The BibTeX fields a venue is read from.
VENUE_FIELDS = ("booktitle", "journal", "howpublished", "school", "institution")
# The BibTeX fields a record's own fields stand for (the rest of an entry is only raw).
OWNED_BIBTEX = frozenset(f.bibtex or f.name for f in FIELDS if f.fill)
# The fields a merge fills as plain values of `papers` (title, abstract and authors
# need more than a value).
COMPLETED = tuple(f for f in FIELDS if f.fill and f.table == "papers" and f.column
                  and f.name != "title")

# How the entry was written beyond its values (records.bib_extra), beside bib_fields.
EXTRA_COLUMN = "bib_extra"
TEXT_COLUMNS = frozenset((*(f.column for f in FIELDS if f.table == "paper_texts"
                            and f.column), EXTRA_COLUMN))
# What a stored record is read from, and the record attribute each column gives.
RECORD_COLUMNS = (*(f.column for f in FIELDS if f.column), EXTRA_COLUMN)
_RECORD_ATTRS = tuple(f.name for f in FIELDS if f.column)
_EXTRA = len(RECORD_COLUMNS) - 1

# Each user's own columns (of `personal`, one row per user and paper), with the value a
# paper has for a user without a row.
PERSONAL_DEFAULTS: dict[str, Any] = {
    "starred": False, "read_state": "unread", "read_at": None, "private_notes": ""}
PERSONAL_COLUMNS = tuple(PERSONAL_DEFAULTS)
# The user's data of `papers` beyond the record (`tags_text` mirrors the tags).
PAPER_STATE_COLUMNS = ("tags_text", "added_at", "modified_at")
# What a new paper is given besides its record: the user's own, then `papers`' columns.
STATE_COLUMNS = (*PERSONAL_COLUMNS, *PAPER_STATE_COLUMNS)
# Columns derived from the record, kept for sorting, the table and duplicate detection.
DERIVED_COLUMNS = ("title_norm", "authors_text", "authors_sort", "abstract_hash")
# Columns of `papers` an import copies from the record attribute of the same name.
COPIED_COLUMNS = tuple(f.name for f in FIELDS if f.column == f.name and f.table == "papers"
                       and f.name not in ("entry_type", "key", "title_provisional"))
# The `papers` columns of an import's prepared tuple, in its order (the writer adds id,
# key and import_id, and the PAPER_STATE_COLUMNS).
PAPER_COLUMNS = ("entry_type", "title_provisional", *COPIED_COLUMNS, *DERIVED_COLUMNS)


# `record_from` passes the values positionally, in PaperRecord's own order (its
# fields up to `raw`, with the authors among them), and the notes by name: checked here.
_ORDER = [f.name for f in dataclasses.fields(PaperRecord)]
_BEFORE_AUTHORS = itemgetter(*map(_RECORD_ATTRS.index, _ORDER[:_ORDER.index("authors")]))
_AFTER_AUTHORS = itemgetter(*map(_RECORD_ATTRS.index,
                                 _ORDER[_ORDER.index("authors") + 1:_ORDER.index("raw") + 1]))
_NOTES = _RECORD_ATTRS.index("notes")
_new_record: Callable[..., PaperRecord] = PaperRecord
assert len(_BEFORE_AUTHORS(_RECORD_ATTRS)) + len(_AFTER_AUTHORS(_RECORD_ATTRS)) + 1 == len(
    _RECORD_ATTRS), "a record field with a column is missing from record_from"


def record_from(_id: int, values: Sequence[Any], authors: list[Author], tags: list[str]
                ) -> PaperRecord:
    """A stored paper's record from its RECORD_COLUMNS values (as the column types give
    them), authors and tags (a `Store.read_papers` maker)."""
    record = _new_record(*_BEFORE_AUTHORS(values), authors, *_AFTER_AUTHORS(values),
                         notes=values[_NOTES], tags=tags)
    if record.abstract is None:  # (a paper without its texts row)
        record.abstract = ""
    if record.raw is None:
        record.raw = {}
    extra = values[_EXTRA]
    return with_bib_extra(record, extra) if extra else record
