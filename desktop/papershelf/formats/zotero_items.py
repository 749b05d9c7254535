"""Zotero items, as the browser's Zotero Connector sends them, read into records.

The Connector posts what its translators found on a page: Zotero's item JSON (the
translators' form: `itemType`, `creators` with `firstName`/`lastName` or one `name`,
`publicationTitle`, `abstractNote`, `tags`, `notes` as HTML, ...). Like the CSL-JSON
reader (formats.csljson), fields with an attribute of their own fill it; the others go
to `raw` under their BibTeX name. Tags and notes are the user's (`ZoteroItem.tags`,
`ZoteroItem.notes`, notes turned into plain text): the caller applies them to the paper
the record becomes. Nothing of an item is ever shown as rich text. Pure Python.

Types: journalArticle, magazineArticle, newspaperArticle -> article; conferencePaper ->
inproceedings; book -> book; bookSection, encyclopediaArticle, dictionaryEntry ->
incollection; thesis -> phdthesis (mastersthesis by its thesisType); report ->
techreport; manuscript -> unpublished; anything else (preprint, webpage, blogPost,
document, ...) -> misc.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from papershelf.formats.interchange import (
    one_line,
    pages_in,
    paragraphs,
    put_names,
    put_raw,
    year_month,
)
from papershelf.formats.records import Author, PaperRecord

__all__ = ["TYPE_OF_ZOTERO", "ZoteroItem", "html_text", "read_item", "webpage"]

TYPE_OF_ZOTERO = {
    "journalArticle": "article", "magazineArticle": "article",
    "newspaperArticle": "article", "conferencePaper": "inproceedings", "book": "book",
    "bookSection": "incollection", "encyclopediaArticle": "incollection",
    "dictionaryEntry": "incollection", "thesis": "phdthesis", "report": "techreport",
    "manuscript": "unpublished",
}
# Where each type keeps its venue, the first one present.
_VENUE_KEYS = {
    "inproceedings": ("proceedingsTitle", "conferenceName", "publicationTitle"),
    "incollection": ("bookTitle", "encyclopediaTitle", "dictionaryTitle",
                     "publicationTitle"),
    "phdthesis": ("university", "publisher"),
    "mastersthesis": ("university", "publisher"),
    "techreport": ("institution", "publisher"),
    "book": ("publisher",),
}
_OTHER_VENUES = ("publicationTitle", "websiteTitle", "blogTitle", "forumTitle",
                 "repository", "publisher")
# Plain-text fields kept as raw BibTeX fields, and the field each goes to.
_RAW_KEYS = {"shortTitle": "shorttitle", "journalAbbreviation": "shortjournal",
             "series": "series", "place": "address", "ISBN": "isbn", "ISSN": "issn",
             "edition": "edition", "language": "language", "extra": "note",
             "reportNumber": "number", "issue": "number", "number": "number"}
_ARXIV_RE = re.compile(r"^\s*arxiv:\s*(\S+)\s*$", re.IGNORECASE)
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}")
_WHITE_RE = re.compile(r"\s+")
MAX_NOTE = 100_000  # characters of one note kept (a page's whole text is not a note)
MAX_TAG = 255  # as long as a tag typed on the command line may be
MAX_TAGS, MAX_NOTES = 200, 50  # of one item (the rest are dropped)


@dataclass
class ZoteroItem:
    """One item the Connector sent: its record, the Connector's id for it (to find the
    paper again for its attachments), its tags and its notes as plain text."""

    record: PaperRecord
    connector_id: str
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _text(value: Any) -> str:
    """A value as one line of text (numbers too; anything else is "")."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, (int, float)):
        return str(value)
    return one_line(value) if isinstance(value, str) else ""


def _person(creator: dict[str, Any]) -> Author | None:
    """A creator: `lastName` and `firstName`, or a single `name` (an institution)."""
    family, given = _text(creator.get("lastName")), _text(creator.get("firstName"))
    if not family:
        family, given = _text(creator.get("name")) or given, ""
    return Author(family, given) if family else None


def _creators(value: Any) -> tuple[list[Author], list[Author]]:
    """Authors and editors; other creators (contributors, translators, ...) count as
    authors only when there is no author at all."""
    authors: list[Author] = []
    editors: list[Author] = []
    others: list[Author] = []
    for creator in value if isinstance(value, list) else []:
        person = _person(creator) if isinstance(creator, dict) else None
        if person is None:
            continue
        kind = _text(creator.get("creatorType")) or "author"
        (authors if kind == "author" else editors if kind in ("editor", "seriesEditor")
         else others).append(person)
    return authors or others, editors


def _tags(value: Any) -> list[str]:
    """Tags as `[{"tag": "x", "type": 1}]` or plain strings, cleaned, without repeats."""
    tags: list[str] = []
    for tag in value[:MAX_TAGS * 2] if isinstance(value, list) else []:
        if len(tags) == MAX_TAGS:
            break
        name = _text(tag.get("tag") if isinstance(tag, dict) else tag).strip(",")
        name = "".join(c for c in name if c.isprintable())[:MAX_TAG].strip()
        if name and name not in tags:
            tags.append(name)
    return tags


def _notes(value: Any) -> list[str]:
    """Notes (`[{"note": "<p>html</p>"}]` or strings) as plain text."""
    notes: list[str] = []
    for note in value[:MAX_NOTES] if isinstance(value, list) else []:
        markup = note.get("note") if isinstance(note, dict) else note
        if isinstance(markup, str):
            plain = html_text(markup[:MAX_NOTE * 4])[:MAX_NOTE]
            if plain:
                notes.append(plain)
    return notes


def read_item(item: dict[str, Any], number: int = 1) -> ZoteroItem | None:
    """The record of one Connector item, or None when nothing identifies a paper in it
    (no title, creator, DOI or URL). `number` names an item without an id."""
    zotero_type = _text(item.get("itemType"))
    entry_type = TYPE_OF_ZOTERO.get(zotero_type, "misc")
    if entry_type == "phdthesis" and "master" in _text(item.get("thesisType")).lower():
        entry_type = "mastersthesis"
    authors, editors = _creators(item.get("creators"))
    title, doi, url = (_text(item.get("title")), _text(item.get("DOI")),
                       _text(item.get("url")))
    if not (title or authors or doi or url):
        return None
    raw: dict[str, str] = {}
    put_names(raw, "editor", editors)
    year, month = year_month(_text(item.get("date")))
    if month is not None:
        raw["month"] = str(month)
    for key, name in _RAW_KEYS.items():
        if name not in raw:
            put_raw(raw, name, _text(item.get(key)))
    arxiv = _ARXIV_RE.match(_text(item.get("archiveID")))
    if arxiv:
        put_raw(raw, "eprint", arxiv.group(1))
        raw["archiveprefix"] = "arXiv"
    accessed = _DATE_RE.match(_text(item.get("accessDate")))
    if accessed and url:
        raw["urldate"] = accessed.group(0)
    venue_keys = _VENUE_KEYS.get(entry_type, _OTHER_VENUES)
    venue = next((v for v in map(_text, map(item.get, venue_keys)) if v), "")
    publisher = "" if entry_type in ("book", "phdthesis", "mastersthesis", "techreport") and \
        venue == _text(item.get("publisher")) else _text(item.get("publisher"))
    abstract = item.get("abstractNote")
    record = PaperRecord(
        entry_type=entry_type, title=title, authors=authors,
        abstract=paragraphs(abstract) if isinstance(abstract, str) else "",
        venue=venue, year=year, volume=_text(item.get("volume")),
        pages=pages_in(_text(item.get("pages"))), publisher=publisher, doi=doi, url=url,
        raw=raw, source_line=number)
    ident = item.get("id")
    connector_id = ident if isinstance(ident, str) and ident else f"item{number}"
    return ZoteroItem(record, connector_id, _tags(item.get("tags")),
                      _notes(item.get("notes")))


def webpage(url: str, title: str, accessed: str = "") -> PaperRecord:
    """A page saved without a translator (Save to Zotero on any page): its title (the
    URL when it has none) and URL, as a misc entry (biblatex's @online)."""
    raw: dict[str, str] = {}
    if _DATE_RE.match(accessed):
        raw["urldate"] = accessed[:10]
    return PaperRecord(entry_type="misc", title=one_line(title) or one_line(url),
                       url=one_line(url), raw=raw)


class _PlainText(HTMLParser):
    """The text of a note's HTML: blocks become paragraphs, list items lines."""

    _BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
                         "pre", "ul", "ol", "table", "tr"})
    _SKIPPED = frozenset({"script", "style", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIPPED:
            self._skipping += 1
        elif tag in self._BLOCKS:
            self.parts.append("\n\n")
        elif tag == "br":
            self.parts.append("\n")
        elif tag == "li":
            self.parts.append("\n- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        elif tag in self._BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(_WHITE_RE.sub(" ", data))


def html_text(markup: str) -> str:
    """Plain text of HTML (a Zotero note): no markup, paragraphs kept, control
    characters dropped."""
    parser = _PlainText()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.parts)
    text = "".join(c for c in text if c.isprintable() or c == "\n")
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
