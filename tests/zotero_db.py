"""Zotero databases built the way Zotero builds them, for the import tests and the bench.

`new_zotero_db` executes Zotero's own `userdata.sql` (vendored in tests/data/zotero),
then inserts the item types, fields and creator types the test items use, under their
real names (Zotero fills these tables from its schema.json at first start, numbering
them in that file's order). `ZoteroWriter` adds items as Zotero stores them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = Path(__file__).parent / "data" / "zotero" / "userdata.sql"

ITEM_TYPES = {"annotation": 1, "attachment": 3, "book": 7, "bookSection": 8,
              "conferencePaper": 11, "journalArticle": 22, "note": 28, "report": 33,
              "thesis": 36, "computerProgram": 10}
FIELDS = {"title": 1, "abstractNote": 2, "date": 6, "publisher": 8, "place": 7,
          "url": 13, "libraryCatalog": 14, "extra": 16, "volume": 19, "pages": 32,
          "ISBN": 11, "issue": 76, "DOI": 59, "publicationTitle": 38, "accessDate": 27,
          "proceedingsTitle": 115, "conferenceName": 114, "shortTitle": 25,
          "university": 69, "thesisType": 68, "institution": 89}
CREATOR_TYPES = {"author": 1, "contributor": 2, "editor": 3, "translator": 4,
                 "seriesEditor": 5, "programmer": 22}
# The primary creator type of each item type (itemTypeCreatorTypes.primaryField).
PRIMARY = {"book": "author", "bookSection": "author", "conferencePaper": "author",
           "journalArticle": "author", "report": "author", "thesis": "author",
           "computerProgram": "programmer"}
STORED_FILE, LINKED_FILE, LINKED_URL = 0, 2, 3


def new_zotero_db(path: Path, wal: bool = True) -> sqlite3.Connection:
    """A fresh zotero.sqlite at `path` with the user library (libraryID 1), open."""
    connection = sqlite3.connect(path, isolation_level=None)
    if wal:
        connection.execute("PRAGMA journal_mode=WAL")
    connection.executescript(SCHEMA.read_text(encoding="utf-8"))
    with connection:
        connection.execute("BEGIN")
        for name, ident in ITEM_TYPES.items():
            connection.execute("INSERT INTO itemTypes VALUES (?, ?, NULL, 1)", (ident, name))
            connection.execute("INSERT INTO itemTypesCombined VALUES (?, ?, 1, 0)",
                               (ident, name))
        for name, ident in FIELDS.items():
            connection.execute("INSERT INTO fields VALUES (?, ?, NULL)", (ident, name))
            connection.execute("INSERT INTO fieldsCombined VALUES (?, ?, NULL, NULL, 0)",
                               (ident, name))
        for name, ident in CREATOR_TYPES.items():
            connection.execute("INSERT INTO creatorTypes VALUES (?, ?)", (ident, name))
        for item_type, creator_type in PRIMARY.items():
            connection.execute("INSERT INTO itemTypeCreatorTypes VALUES (?, ?, 1)",
                               (ITEM_TYPES[item_type], CREATOR_TYPES[creator_type]))
        connection.execute("INSERT INTO libraries (libraryID, type, editable, filesEditable)"
                           " VALUES (1, 'user', 1, 1)")
    return connection


class ZoteroWriter:
    """Adds items, creators, tags, collections, notes and attachments as Zotero does."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.db = connection
        self.next_id = 1

    def item(self, item_type: str, key: str, parent: int | None = None,
             **fields: str) -> int:
        item_id = self.next_id
        self.next_id += 1
        self.db.execute("INSERT INTO items (itemID, itemTypeID, libraryID, key, dateAdded) "
                        "VALUES (?, ?, 1, ?, datetime('2024-01-01', ?))",
                        (item_id, ITEM_TYPES[item_type], key, f"+{item_id} seconds"))
        for name, value in fields.items():
            self.db.execute("INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)", (value,))
            (value_id,) = self.db.execute("SELECT valueID FROM itemDataValues WHERE value = ?",
                                          (value,)).fetchone()
            self.db.execute("INSERT INTO itemData VALUES (?, ?, ?)",
                            (item_id, FIELDS[name], value_id))
        return item_id

    def creator(self, item_id: int, order: int, last: str, first: str = "",
                role: str = "author", single_field: bool = False) -> None:
        mode = 1 if single_field else 0
        self.db.execute("INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) "
                        "VALUES (?, ?, ?)", (first, last, mode))
        (creator_id,) = self.db.execute(
            "SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND "
            "fieldMode = ?", (first, last, mode)).fetchone()
        self.db.execute("INSERT INTO itemCreators VALUES (?, ?, ?, ?)",
                        (item_id, creator_id, CREATOR_TYPES[role], order))

    def tag(self, item_id: int, name: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO tags (name) VALUES (?)", (name,))
        (tag_id,) = self.db.execute("SELECT tagID FROM tags WHERE name = ?",
                                    (name,)).fetchone()
        self.db.execute("INSERT INTO itemTags VALUES (?, ?, 0)", (item_id, tag_id))

    def collection(self, name: str, key: str, parent: int | None = None) -> int:
        cursor = self.db.execute(
            "INSERT INTO collections (collectionName, parentCollectionID, libraryID, key) "
            "VALUES (?, ?, 1, ?)", (name, parent, key))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def file_in(self, collection_id: int, item_id: int) -> None:
        self.db.execute("INSERT INTO collectionItems (collectionID, itemID) VALUES (?, ?)",
                        (collection_id, item_id))

    def note(self, parent: int | None, key: str, html: str) -> int:
        note_id = self.item("note", key)
        self.db.execute("INSERT INTO itemNotes (itemID, parentItemID, note, title) "
                        "VALUES (?, ?, ?, '')", (note_id, parent, html))
        return note_id

    def attachment(self, parent: int | None, key: str, mode: int, path: str,
                   content_type: str = "application/pdf") -> int:
        attachment_id = self.item("attachment", key)
        self.db.execute("INSERT INTO itemAttachments (itemID, parentItemID, linkMode, "
                        "contentType, path) VALUES (?, ?, ?, ?, ?)",
                        (attachment_id, parent, mode, content_type, path))
        return attachment_id

    def annotation(self, attachment_id: int, key: str, kind: int, text: str = "",
                   comment: str = "", page: str = "", sort: str = "00000|000000|00000") -> int:
        """An annotation of a PDF (kind 1 highlight, 3 image, ...), as Zotero 7 keeps it."""
        annotation_id = self.item("annotation", key)
        self.db.execute("INSERT INTO itemAnnotations (itemID, parentItemID, type, text, "
                        "comment, color, pageLabel, sortIndex, position, isExternal) "
                        "VALUES (?, ?, ?, ?, ?, '#ffd400', ?, ?, '{}', 0)",
                        (annotation_id, attachment_id, kind, text, comment, page, sort))
        return annotation_id

    def trash(self, item_id: int) -> None:
        self.db.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))


PDF_BYTES = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def generate(folder: Path, count: int, pdf_every: int = 10) -> Path:
    """A Zotero data folder with `count` generated regular items (journal articles and
    conference papers, three authors each, two tags, in one of twenty nested
    collections, a child note on every third, a stored PDF on every `pdf_every`-th, one
    in fifty in the trash); returns its zotero.sqlite."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "zotero.sqlite"
    db = new_zotero_db(path)
    z = ZoteroWriter(db)
    db.execute("BEGIN")
    tops = [z.collection(f"Project {n}", f"TOP{n:05d}") for n in range(4)]
    subs = [z.collection(f"Chapter {n}", f"SUB{n:05d}", parent=tops[n % 4])
            for n in range(16)]
    collections = tops + subs
    for n in range(count):
        kind = "journalArticle" if n % 3 else "conferencePaper"
        venue = ({"publicationTitle": f"Journal of Things {n % 97}"} if n % 3
                 else {"proceedingsTitle": f"Proceedings of Conference {n % 53}"})
        item = z.item(kind, f"K{n:07d}", title=f"On the generated topic number {n}",
                      date=f"{2000 + n % 25}-{1 + n % 12:02d}-00 {2000 + n % 25}",
                      DOI=f"10.5555/gen.{n}", pages=f"{n % 300 + 1}-{n % 300 + 9}",
                      abstractNote=f"We study generated problem {n} in some depth.",
                      extra=f"Citation Key: gen{n}" if n % 5 == 0 else "", **venue)
        for order in range(3):
            z.creator(item, order, f"Family{(n * 7 + order) % 2000}",
                      f"Given{(n + order) % 300}")
        z.tag(item, f"topic {n % 40}")
        z.tag(item, f"method {n % 25}")
        z.file_in(collections[n % len(collections)], item)
        if n % 3 == 0:
            z.note(item, f"N{n:07d}", f"<p>Notes on <b>item {n}</b></p><ul><li>one</li></ul>")
        if n % pdf_every == 0:
            key = f"A{n:07d}"
            z.attachment(item, key, STORED_FILE, f"storage:paper{n}.pdf")
            (folder / "storage" / key).mkdir(parents=True)
            (folder / "storage" / key / f"paper{n}.pdf").write_bytes(
                PDF_BYTES + str(n).encode())
        if n % 50 == 49:
            z.trash(item)
    db.execute("COMMIT")
    db.close()
    return path
