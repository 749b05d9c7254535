"""Zotero's own library, `zotero.sqlite`, read into records. No Qt, no Papershelf database.

Zotero may be running, and it holds its database locked: the file (and its `-wal`, what
Zotero wrote since its last checkpoint) is copied into a temporary folder and the copy
opened read-only, so what Zotero committed is read and nothing of Zotero's is touched.

What is read, per regular item (notes, attachments and annotations are not papers;
items in the trash, and feed items, are skipped):

    item type             entry type (journalArticle -> article, conferencePaper ->
                          inproceedings, book, bookSection -> incollection, thesis ->
                          phdthesis or mastersthesis, report -> techreport, manuscript ->
                          unpublished, anything else -> misc)
    title, abstractNote   title, abstract
    publicationTitle, proceedingsTitle, bookTitle, ...   venue (journal, booktitle);
                          a book's venue is its publisher, a thesis's its university,
                          a report's its institution (as the BibTeX reader has them)
    date                  year, and raw month
    DOI, url, volume, pages, publisher   the record's own attributes
    issue, number         raw number        place            raw address
    extra                 raw note, without a `Citation Key: ...` line (the key)
    other fields          raw, under their BibTeX name (`ISBN` -> isbn, `shortTitle`
                          -> shorttitle, `accessDate` -> urldate) or their own in lower
                          case (`libraryCatalog` -> librarycatalog)
    creators              in their order: authors (and the item type's primary creator
                          type: a program's programmer, ...); editors -> raw editor;
                          others (translator, bookAuthor, contributor, ...) -> raw under
                          their own name. A single-field name is a corporate name.
    collections           tags, as paths (`Thesis/Chapter 2`)
    tags                  tags
    child notes           the record's notes (HTML as Markdown-ish text, in order),
                          then the annotations of its PDFs (highlights, comments, page)
    child attachments     the record's files: stored ones (`storage:name`) at
                          `<data folder>/storage/<attachment key>/<name>`, linked ones
                          where they are; only those that exist
    citation key          Better BibTeX's (its `better-bibtex.sqlite` beside the
                          database, else `Citation Key:` in Extra), else Zotero's own
                          `citationKey` field

A zotero.sqlite is read so that it cannot run code nor take unbounded memory: the tables
read are checked first (`_check_tables`: a generated column, computed on each read, or a
virtual table is refused: Zotero writes neither); each value is cut in SQL (`substr`) to
MAX_VALUE characters (names, tags and keys to MAX_NAME), a notice counting those cut;
and the text read for the whole import may not exceed what a database of its size can
hold (`_Budget`: a value shared by thousands of items is not copied a thousand times).

Each record's `source_line` is its Zotero itemID (the importer uses it to give the
added papers their notes and files, `core.zoteroimport`).
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from papershelf.formats.htmlnotes import note_text
from papershelf.formats.interchange import one_line, pages_in, paragraphs, put_names, put_raw
from papershelf.formats.plugin import Format
from papershelf.formats.records import (
    PUBLISHER_IS_VENUE,
    Author,
    FormatError,
    PaperRecord,
    ReadProblem,
    ReadResult,
)
from papershelf.messages import text as message

__all__ = ["SQLITE_MAGIC", "ZoteroItem", "read_zotero"]

SQLITE_MAGIC = b"SQLite format 3\x00"

TYPE_OF_ZOTERO = {
    "journalArticle": "article", "magazineArticle": "article",
    "newspaperArticle": "article", "conferencePaper": "inproceedings", "book": "book",
    "bookSection": "incollection", "encyclopediaArticle": "incollection",
    "dictionaryEntry": "incollection", "thesis": "phdthesis", "report": "techreport",
    "manuscript": "unpublished",
}
_NOT_PAPERS = frozenset({"note", "attachment", "annotation"})
_VENUES = ("publicationTitle", "proceedingsTitle", "bookTitle", "encyclopediaTitle",
           "dictionaryTitle", "websiteTitle", "blogTitle", "forumTitle", "programTitle",
           "seriesTitle")
_PUBLISHERS = ("publisher", "university", "institution", "repository", "label", "company",
               "distributor", "network", "studio")
# Zotero fields kept as raw BibTeX fields of another name.
_RAW_FIELDS = {
    "issue": "number", "number": "number", "place": "address", "ISBN": "isbn",
    "ISSN": "issn", "edition": "edition", "series": "series", "language": "language",
    "shortTitle": "shorttitle", "journalAbbreviation": "shortjournal",
    "conferenceName": "eventtitle", "numPages": "pagetotal", "thesisType": "type",
    "reportType": "type", "reportNumber": "number", "seriesNumber": "number",
    "archiveID": "eprint", "numberOfVolumes": "volumes",
}
_OWN = frozenset({"title", "abstractNote", "date", "DOI", "url", "volume", "pages",
                  "extra", "citationKey", "accessDate", *_VENUES, *_PUBLISHERS})
_EDITORS = frozenset({"editor", "seriesEditor"})
_KEY_LINE_RE = re.compile(r"^\s*(?:citation key|bibtex)\s*:\s*(\S+)\s*$", re.I | re.M)
_MULTIPART_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?: (.*))?$", re.S)
_YEAR_RE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_ISO_DAY_RE = re.compile(r"^\d{4}-\d{2}-\d{2}")

STORED_FILE, STORED_URL, LINKED_FILE = 0, 1, 2  # itemAttachments.linkMode
COPY_ATTEMPTS = 3  # copies of a database being written to, before giving up
MAX_VALUE = 100_000  # characters of one field, note or annotation kept (some 40 pages)
MAX_NOTE_HTML = 1_000_000  # characters of a note's HTML read (its markup is dropped)
MAX_NAME = 1_000  # characters of a name: a creator's, a tag's, a collection's, a type's
MAX_PATH = 4_096  # characters of an attachment's path
# The text read for one import, in characters: this much, plus four times the size of
# the database (what its values can hold, each read once, with room for notes' markup).
TEXT_BUDGET = 32 << 20
_TABLES = frozenset({
    "items", "itemTypes", "fields", "itemData", "itemDataValues", "creators",
    "itemCreators", "creatorTypes", "itemTypeCreatorTypes", "tags", "itemTags",
    "collections", "collectionItems", "itemNotes", "itemAttachments", "deletedItems",
    "libraries"})
_READ = _TABLES | {"itemTypesCombined", "fieldsCombined", "itemAnnotations",
                   "deletedCollections"}  # (the tables read when they are there)


@dataclass
class ZoteroItem:
    """One regular item of a Zotero database, as read (before it is a record)."""

    item_id: int
    key: str
    type_name: str
    fields: dict[str, str]
    creators: list[tuple[str, Author]]  # (creator type, name), in order
    tags: list[str]
    notes: list[str]  # the child notes' text
    files: list[str]  # the child attachments' paths that exist
    missing: list[str]  # the child attachments' paths that do not


def read_zotero(path: str | os.PathLike[str]) -> ReadResult:
    """The papers of a Zotero database (a copy of it is read; Zotero may be running):
    one record per regular item, one problem per item that cannot be one (named by its
    Zotero key and title), notices for what is not a paper; FormatError if the file is
    not a Zotero database."""
    name = os.fspath(path)
    data_folder = Path(name).resolve().parent
    for attempt in range(COPY_ATTEMPTS):
        with _copy_of(name) as (copy, bbt):
            try:
                connection = _open(copy)
                try:
                    budget = _Budget(name, TEXT_BUDGET + 4 * _size_with_wal(copy))
                    items, notices = _read_items(connection, name, data_folder, budget)
                finally:
                    connection.close()
            except sqlite3.DatabaseError as exc:
                # (a copy taken while Zotero wrote may be torn: another is taken)
                if attempt + 1 < COPY_ATTEMPTS:
                    continue
                raise FormatError(name, message(
                    "cannot read this Zotero database ({reason}); if Zotero is writing to "
                    "it, try again in a moment", reason=str(exc))) from exc
            bbt_keys = _bbt_keys(bbt) if bbt is not None else {}
            break
    result = ReadResult(notices=notices)
    if budget.cut:
        result.notices.append(message(
            "{path}: values over {limit} characters cut short: {count} (first: Zotero "
            "item {key}'s {field})", path=name, limit=MAX_VALUE, count=budget.cut,
            key=budget.first_cut[0], field=budget.first_cut[1]))
    missing: list[str] = []
    for item in items:
        try:
            record = item_record(item, bbt_keys.get(item.key))
        except Exception as exc:  # (one odd item is reported; the others are imported)
            result.problems.append(ReadProblem(name, None, _named(item, message(
                "could not be converted ({reason})", reason=f"{type(exc).__name__}: {exc}")
            )))
            continue
        if record is None:
            result.problems.append(ReadProblem(name, None, _named(
                item, message("has no title, creator, DOI or URL"))))
            continue
        result.records.append(record)
        missing += item.missing
    if missing:
        result.notices.append(message(
            "{path}: attached files that are not on this computer, not attached: {count} "
            "(first: {first})", path=name, count=len(missing), first=missing[0]))
    return result


def _named(item: ZoteroItem, why: str) -> str:
    title = one_line(item.fields.get("title", ""))
    return message("Zotero item {key} ({title}) {why}", key=item.key,
                   title=repr(title) if title else message("untitled"), why=why)


class _Budget:
    """The text an import may read, in characters; past it, FormatError. Counts the
    values cut short to MAX_VALUE, and names the first."""

    def __init__(self, name: str, limit: int) -> None:
        self.name = name
        self.limit = limit
        self.used = 0
        self.cut = 0
        self.first_cut = ("", "")

    def take(self, text: str) -> str:
        self.used += len(text)
        if self.used > self.limit:
            raise FormatError(self.name, message(
                "holds more text than a database of its size can: over {limit} "
                "characters (values repeated across items); nothing imported",
                limit=self.limit))
        return text

    def capped(self, value: str, key: str, field: str, limit: int = MAX_VALUE) -> str:
        """`value` (read as at most `limit` + 1 characters), cut to `limit`, counted."""
        if len(value) > limit:
            value = value[:limit]
            self.cut += 1
            if self.cut == 1:
                self.first_cut = (key, field)
        return self.take(value)


def _open(copy: Path) -> sqlite3.Connection:
    """The copy of a database, read-only, running no SQL function its schema names
    unless SQLite deems it harmless (views, triggers: `trusted_schema`)."""
    connection = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    connection.execute("PRAGMA trusted_schema = OFF")
    return connection


def _size_with_wal(copy: Path) -> int:
    wal = copy.with_name(copy.name + "-wal")
    return copy.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _check_tables(connection: sqlite3.Connection, name: str, tables: set[str]) -> None:
    """Refuse a database whose tables read (of `tables`) are not plain tables: a
    generated column runs its expression on each read (a printf of 250 million
    characters), a virtual table runs its module's code; Zotero writes neither."""
    schema = dict(connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    for table in sorted(tables & set(schema)):
        what = None
        if str(schema[table] or "").lstrip().upper().startswith("CREATE VIRTUAL"):
            what = message("{table} is a virtual table", table=table)
        else:
            for column in connection.execute(f'PRAGMA table_xinfo("{table}")'):
                if column[6] in (2, 3):  # (hidden: a generated column, virtual or stored)
                    what = message("{table}.{column} is a generated column", table=table,
                                   column=column[1])
                    break
        if what is not None:
            raise FormatError(name, message(
                "not a Zotero database as Zotero writes it ({what}); nothing imported",
                what=what))


@contextmanager
def _copy_of(name: str) -> Iterator[tuple[Path, Path | None]]:
    """A private copy of the database with its WAL (and of Better BibTeX's beside it),
    in a temporary folder that goes away afterwards."""
    source = Path(name)
    with tempfile.TemporaryDirectory(prefix="papershelf-zotero-") as folder:
        copy = Path(folder) / "zotero.sqlite"
        try:
            _copy_with_wal(source, copy)
        except OSError as exc:
            raise FormatError(name, message("cannot read the file: {reason}",
                                            reason=str(exc.strerror or exc))) from exc
        bbt_source = source.parent / "better-bibtex.sqlite"
        bbt: Path | None = Path(folder) / "better-bibtex.sqlite"
        try:
            _copy_with_wal(bbt_source, bbt)  # type: ignore[arg-type]
        except OSError:
            bbt = None  # (none, or unreadable: Extra's keys still count)
        yield copy, bbt


def _copy_with_wal(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
    wal = source.with_name(source.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, target.with_name(target.name + "-wal"))


def _bbt_keys(path: Path) -> dict[str, str]:
    """Better BibTeX's citation keys by Zotero item key (its `citationkey` table); {}
    when there is none or it cannot be read."""
    try:
        connection = _open(path)
        try:
            _check_tables(connection, str(path), {"citationkey"})
            rows = connection.execute(
                f"SELECT substr(itemKey, 1, {MAX_NAME}), substr(citationKey, 1, "
                f"{MAX_NAME}) FROM citationkey").fetchall()
        finally:
            connection.close()
    except (sqlite3.Error, FormatError):
        return {}
    return {str(k): str(c) for k, c in rows if k and c}


# -- reading the tables ----------------------------------------------------------------


def _names(connection: sqlite3.Connection, combined: str, plain: str, id_column: str,
           name_column: str) -> dict[int, str]:
    """Zotero's id -> name table: the `...Combined` one (with custom types and fields,
    filled at each start), else the plain one."""
    tables = {r[0] for r in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table in (combined, plain):
        if table in tables:
            rows = connection.execute(
                f"SELECT {id_column}, substr({name_column}, 1, {MAX_NAME}) FROM {table}")
            found = {int(i): str(n) for i, n in rows if n is not None}
            if found:
                return found
    return {}


def _read_items(connection: sqlite3.Connection, name: str, data_folder: Path,
                budget: _Budget) -> tuple[list[ZoteroItem], list[str]]:
    tables = {r[0] for r in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if _TABLES - tables:
        raise FormatError(name, message(
            "an SQLite database, but not Zotero's (it lacks the tables {tables})",
            tables=", ".join(sorted(_TABLES - tables))))
    _check_tables(connection, name, set(_READ))
    types = _names(connection, "itemTypesCombined", "itemTypes", "itemTypeID", "typeName")
    field_names = _names(connection, "fieldsCombined", "fields", "fieldID", "fieldName")
    creator_types = _names(connection, "creatorTypes", "creatorTypes", "creatorTypeID",
                           "creatorType")
    primary: dict[int, set[int]] = defaultdict(set)  # item type: its primary creator types
    for type_id, creator_type in connection.execute(
            "SELECT itemTypeID, creatorTypeID FROM itemTypeCreatorTypes WHERE primaryField"):
        primary[type_id].add(creator_type)
    trashed = "SELECT itemID FROM deletedItems"
    feeds = "SELECT libraryID FROM libraries WHERE type = 'feed'"
    rows = connection.execute(
        f"SELECT itemID, itemTypeID, substr(key, 1, {MAX_NAME}) FROM items WHERE itemID "
        f"NOT IN ({trashed}) AND libraryID NOT IN ({feeds}) ORDER BY itemID").fetchall()
    items: dict[int, ZoteroItem] = {}
    type_of: dict[int, int] = {}
    for item_id, type_id, key in rows:
        type_name = types.get(type_id, "")
        if type_name in _NOT_PAPERS:
            continue
        items[item_id] = ZoteroItem(item_id, str(key), type_name, {}, [], [], [], [], [])
        type_of[item_id] = type_id
    # Each value once (items share them), at most MAX_VALUE + 1 characters of it.
    values = {value_id: str(value) for value_id, value in connection.execute(
        f"SELECT valueID, substr(value, 1, {MAX_VALUE + 1}) FROM itemDataValues "
        f"WHERE value IS NOT NULL")}
    for item_id, field_id, value_id in connection.execute(
            "SELECT itemID, fieldID, valueID FROM itemData"):
        item = items.get(item_id)
        value = values.get(value_id)
        if item is not None and value is not None and field_id in field_names:
            field = field_names[field_id]
            item.fields[field] = budget.capped(value, item.key, field)
    for item_id, type_id, first, last, mode in connection.execute(
            f"SELECT ic.itemID, ic.creatorTypeID, substr(c.firstName, 1, {MAX_NAME}), "
            f"substr(c.lastName, 1, {MAX_NAME}), c.fieldMode FROM itemCreators ic "
            f"JOIN creators c ON c.creatorID = ic.creatorID "
            f"ORDER BY ic.itemID, ic.orderIndex"):
        item = items.get(item_id)
        person = _person(first, last, mode) if item is not None else None
        if item is None or person is None:
            continue
        budget.take(person.family + person.given)
        role = creator_types.get(type_id, "author")
        if role != "author" and type_id in primary[type_of[item_id]]:
            role = "author"  # (a program's programmer, a film's director, ...)
        item.creators.append((role, person))
    for item_id, tag in connection.execute(
            f"SELECT it.itemID, substr(t.name, 1, {MAX_NAME}) FROM itemTags it "
            f"JOIN tags t ON t.tagID = it.tagID ORDER BY it.itemID, t.name"):
        _add_tag(items.get(item_id), tag, budget)
    paths = _collection_paths(connection, tables)
    for item_id, collection_id in connection.execute(
            "SELECT itemID, collectionID FROM collectionItems ORDER BY itemID, collectionID"):
        if collection_id in paths:
            _add_tag(items.get(item_id), paths[collection_id], budget)
    standalone = {"note": 0, "file": 0}
    for parent, note in connection.execute(
            f"SELECT n.parentItemID, substr(n.note, 1, {MAX_NOTE_HTML}) FROM itemNotes n "
            f"JOIN items i "
            f"ON i.itemID = n.itemID WHERE n.itemID NOT IN ({trashed}) "
            f"AND i.libraryID NOT IN ({feeds}) "
            f"AND n.itemID NOT IN (SELECT itemID FROM itemAttachments) "
            f"ORDER BY n.parentItemID, i.dateAdded, n.itemID"):
        if parent is None:
            standalone["note"] += 1
        elif (item := items.get(parent)) is not None and (body := note_text(note or "")):
            item.notes.append(budget.capped(body, item.key, "note"))
    for parent, mode, path, key in connection.execute(
            f"SELECT a.parentItemID, a.linkMode, substr(a.path, 1, {MAX_PATH}), "
            f"substr(i.key, 1, {MAX_NAME}) FROM itemAttachments a "
            f"JOIN items i ON i.itemID = a.itemID WHERE a.itemID NOT IN ({trashed}) "
            f"AND i.libraryID NOT IN ({feeds}) ORDER BY a.parentItemID, a.itemID"):
        if parent is None:
            standalone["file"] += 1
            continue
        item = items.get(parent)
        where = _attachment_path(data_folder, mode, path, str(key))
        if item is None or where is None:
            continue
        budget.take(str(where))
        if isinstance(where, str):  # (a path Zotero resolves with one of its settings)
            item.missing.append(where)
        else:
            (item.files if where.is_file() else item.missing).append(str(where))
    without_text = 0
    if "itemAnnotations" in tables:
        without_text = _read_annotations(connection, items, trashed, budget)
    notices: list[str] = []
    if without_text:
        notices.append(message(
            "{path}: annotations without text (images, ink), not imported: {count}",
            path=name, count=without_text))
    for kind, count in standalone.items():
        if count:
            notices.append(message(
                "{path}: standalone {what} (not under any item) are no papers, not "
                "imported: {count}", path=name, count=count,
                what=message("notes") if kind == "note" else message("files")))
    return list(items.values()), notices


def _read_annotations(connection: sqlite3.Connection, items: dict[int, ZoteroItem],
                      trashed: str, budget: _Budget) -> int:
    """The annotations of each item's PDFs (highlights and their comments, in the
    file's order) as one more note of the item, a block per file; how many had no text
    (images, ink) to keep."""
    without_text = 0
    blocks: dict[tuple[int, int], list[str]] = {}
    for item_id, attachment_id, quoted, comment, page in connection.execute(
            f"SELECT a.parentItemID, n.parentItemID, substr(n.text, 1, {MAX_VALUE + 1}), "
            f"substr(n.comment, 1, {MAX_VALUE + 1}), substr(n.pageLabel, 1, {MAX_NAME}) "
            f"FROM itemAnnotations n JOIN itemAttachments a "
            f"ON a.itemID = n.parentItemID WHERE n.itemID NOT IN ({trashed}) "
            f"AND a.itemID NOT IN ({trashed}) ORDER BY a.parentItemID, a.itemID, "
            f"n.sortIndex"):
        if item_id not in items:
            continue
        key = items[item_id].key
        quoted = budget.capped(one_line(str(quoted or "")), key, "annotation")
        comment = budget.capped(paragraphs(str(comment or "")), key, "annotation")
        if not (quoted or comment):
            without_text += 1
            continue
        lines = [f"> {quoted}"] if quoted else []
        if comment:
            lines.append(comment)
        if page:
            lines[-1] += f" (p. {one_line(str(page))})"
        blocks.setdefault((item_id, attachment_id), []).append("\n".join(lines))
    for (item_id, _attachment), marked in blocks.items():
        items[item_id].notes.append("## " + message("Annotations") + "\n\n"
                                    + "\n\n".join(marked))
    return without_text


def _person(first: object, last: object, mode: object) -> Author | None:
    """A creator as an author: a single-field name (fieldMode 1) is one family name."""
    family, given = one_line(str(last or "")), one_line(str(first or ""))
    if mode == 1:
        family, given = one_line(f"{given} {family}"), ""
    if not family:
        family, given = given, ""
    return Author(family, given) if family else None


def _add_tag(item: ZoteroItem | None, tag: object, budget: _Budget) -> None:
    if item is None or tag is None:
        return
    name = " ".join(str(tag).split()).strip(",")
    if name and name not in item.tags:
        item.tags.append(budget.take(name))


def _collection_paths(connection: sqlite3.Connection, tables: set[str]) -> dict[int, str]:
    """Each collection's path from its top collection (`Thesis/Chapter 2`); collections
    in the trash (and those under them) have none."""
    rows = {cid: (str(name), parent) for cid, name, parent in connection.execute(
        f"SELECT collectionID, substr(collectionName, 1, {MAX_NAME}), parentCollectionID "
        f"FROM collections")}
    trashed = set()
    if "deletedCollections" in tables:
        trashed = {r[0] for r in connection.execute(
            "SELECT collectionID FROM deletedCollections")}
    paths: dict[int, str] = {}
    for cid in rows:
        parts, seen, current, gone = [], set(), cid, False
        while current is not None and current in rows and current not in seen:
            seen.add(current)
            gone = gone or current in trashed
            name, parent = rows[current]
            parts.append(" ".join(name.split()))
            current = parent
        if not gone:
            paths[cid] = "/".join(reversed(parts))
    return paths


def _attachment_path(data_folder: Path, mode: object, path: object, key: str
                     ) -> Path | str | None:
    """Where an attachment's file is: a stored file in `storage/<key>/`, a linked one as
    Zotero has it (its path as text when it is relative to Zotero's base folder, a
    setting of Zotero's profile); None for a link to a web page (no file)."""
    if not isinstance(path, str) or not path:
        return None
    if mode in (STORED_FILE, STORED_URL) or path.startswith("storage:"):
        return data_folder / "storage" / key / path.removeprefix("storage:")
    if mode == LINKED_FILE:
        if path.startswith("attachments:"):
            return path
        return Path(path).expanduser()
    return None


# -- an item as a record ---------------------------------------------------------------


def _year_month(value: str) -> tuple[int | None, int | None]:
    """Year and month of a Zotero date: `2019-05-00 May 2019` as Zotero stores it, or
    text as written."""
    match = _MULTIPART_RE.match(value.strip())
    if match:
        year, month = int(match.group(1)), int(match.group(2))
        if year:
            return year, month if 1 <= month <= 12 else None
        value = match.group(4) or ""
    found = _YEAR_RE.search(value)
    return (int(found.group(1)) if found else None), None


def item_record(item: ZoteroItem, bbt_key: str | None = None) -> PaperRecord | None:
    """The record of one item, or None when nothing identifies a paper in it."""
    f = item.fields
    entry_type = TYPE_OF_ZOTERO.get(item.type_name, "misc")
    if entry_type == "phdthesis" and "master" in f.get("thesisType", "").lower():
        entry_type = "mastersthesis"
    raw: dict[str, str] = {}
    authors = [person for role, person in item.creators if role == "author"]
    others: dict[str, list[Author]] = {}
    for role, person in item.creators:
        if role != "author":
            others.setdefault("editor" if role in _EDITORS else role.lower(), []).append(
                person)
    for role, people in others.items():
        put_names(raw, role, people)
    year, month = _year_month(f.get("date", ""))
    if month is not None:
        raw["month"] = str(month)
    extra = f.get("extra", "")
    found = _KEY_LINE_RE.search(extra)
    key = bbt_key or (found.group(1) if found else None) or one_line(f.get("citationKey", ""))
    if found:
        extra = _KEY_LINE_RE.sub("", extra)
    for name, value in f.items():
        if name in _OWN:
            continue
        target = _RAW_FIELDS.get(name, name.lower())
        if target not in raw:
            put_raw(raw, target, value)
    access = one_line(f.get("accessDate", ""))
    if access:
        put_raw(raw, "urldate", _ISO_DAY_RE.match(access).group(0)  # type: ignore[union-attr]
                if _ISO_DAY_RE.match(access) else access)
    put_raw(raw, "note", "; ".join(line.strip() for line in extra.splitlines() if line.strip()))
    venue = next((one_line(f[n]) for n in _VENUES if f.get(n, "").strip()), "")
    publisher = next((one_line(f[n]) for n in _PUBLISHERS if f.get(n, "").strip()), "")
    if entry_type in PUBLISHER_IS_VENUE and not venue:
        venue, publisher = publisher, ""
    elif entry_type == "book":  # (as the BibTeX reader has it: a book's venue is its
        venue = publisher  # publisher, the field that holds it)
        put_raw(raw, "publisher", publisher)
    title = one_line(f.get("title", ""))
    doi, url = one_line(f.get("DOI", "")), one_line(f.get("url", ""))
    if not (title or authors or doi or url or others):
        return None
    return PaperRecord(
        entry_type=entry_type, key=key or None, title=title, authors=authors,
        abstract=paragraphs(f.get("abstractNote", "")), venue=venue, year=year,
        volume=one_line(f.get("volume", "")), pages=pages_in(f.get("pages", "")),
        publisher=publisher, doi=doi, url=url, raw=raw,
        notes="\n\n".join(item.notes), tags=list(item.tags), files=list(item.files),
        source_line=item.item_id)


# How an SQLite database (Zotero's zotero.sqlite) starts.
_SQLITE_START = b"SQLite format 3\x00"


def _refuse(data: bytes, name: str) -> ReadResult:
    """A Zotero database is a file: its attachments are found beside it."""
    raise FormatError(name, message("a Zotero database cannot be read from here; "
                                    "name its file (zotero.sqlite)"))


FORMAT = Format(name="zotero", title="Zotero database",
                sniff=lambda head: head.startswith(_SQLITE_START), read=read_zotero,
                parse=_refuse)
