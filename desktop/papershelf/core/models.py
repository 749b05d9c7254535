"""The SQLAlchemy ORM classes: the library's tables.

Readable text lives in plain columns (what the table shows, sorts and
searches); `paper_texts` holds the long text: the abstract, and `bib_fields`, the
verbatim BibTeX of an imported entry so it can be written back unchanged.
`authors_text` and `tags_text` are denormalised copies kept by the library so the
table and the full-text index never join. `paper_files` lists the files attached to a
paper (core.files) with the text read from them for search.
"""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(timezone.utc)


class ReadState(str, enum.Enum):
    """Where the user is with a paper."""

    UNREAD = "unread"
    READING = "reading"
    READ = "read"


class Base(DeclarativeBase):
    """Declarative base of every table."""


class ImportBatch(Base):
    """One import: which file, when, and what it did."""

    __tablename__ = "imports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source: Mapped[str] = mapped_column(Text)
    format: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    added: Mapped[int] = mapped_column(Integer, default=0)
    merged: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)


class Paper(Base):
    """A paper and the user's own data about it."""

    __tablename__ = "papers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(255), unique=True)
    entry_type: Mapped[str] = mapped_column(String(32), default="inproceedings")
    title: Mapped[str] = mapped_column(Text, default="")
    title_provisional: Mapped[bool] = mapped_column(Boolean, default=False)
    # The real title reduced for duplicate detection ('' while provisional).
    title_norm: Mapped[str] = mapped_column(Text, default="", server_default="", index=True)
    authors_text: Mapped[str] = mapped_column(Text, default="")
    authors_sort: Mapped[str] = mapped_column(Text, default="")
    abstract_hash: Mapped[str | None] = mapped_column(String(40), index=True)
    venue: Mapped[str] = mapped_column(Text, default="")
    year: Mapped[int | None] = mapped_column(Integer)
    volume: Mapped[str] = mapped_column(Text, default="")
    pages: Mapped[str] = mapped_column(Text, default="")
    publisher: Mapped[str] = mapped_column(Text, default="")
    doi: Mapped[str] = mapped_column(Text, default="")
    url: Mapped[str] = mapped_column(Text, default="")

    # Shared notes: every user of a shared library reads and edits them (a user's own
    # notes are `Personal.private_notes`). `version` grows with every edit of the paper,
    # so two people editing it at once are told apart (core.edits).
    notes: Mapped[str] = mapped_column(Text, default="")
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    tags_text: Mapped[str] = mapped_column(Text, default="")

    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    import_id: Mapped[int | None] = mapped_column(
        ForeignKey("imports.id", ondelete="SET NULL"), index=True
    )

    texts: Mapped[PaperText] = relationship(
        back_populates="paper", cascade="all, delete-orphan", uselist=False
    )
    authors: Mapped[list[PaperAuthor]] = relationship(
        back_populates="paper",
        order_by="PaperAuthor.position",
        cascade="all, delete-orphan",
    )
    tags: Mapped[list[Tag]] = relationship(secondary="paper_tags", back_populates="papers")

    __table_args__ = (
        Index("ix_papers_title_lower", func.lower(text("title"))),
        Index("ix_papers_authors_sort", "authors_sort"),
        Index("ix_papers_venue", "venue"),
        Index("ix_papers_year", "year"),
        Index("ix_papers_added_at", "added_at"),
        Index("ix_papers_doi", "doi"),
        Index("ix_papers_doi_lower", func.lower(text("doi"))),
    )


class Personal(Base):
    """One user's own data about a paper: star, read state and private notes.

    A paper without a row here is unstarred, unread and has no private notes for that
    user. On SQLite there is one user, `""`; on a shared PostgreSQL library the user is
    the database role, and row-level security shows each role only its own rows.
    """

    __tablename__ = "personal"

    # (paper first: a paper's rows are found, and deleted with it, through the key)
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    user_name: Mapped[str] = mapped_column(String(255), primary_key=True, default="")
    starred: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    read_state: Mapped[str] = mapped_column(
        String(16), default=ReadState.UNREAD.value, server_default=ReadState.UNREAD.value)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    private_notes: Mapped[str] = mapped_column(Text, default="", server_default="")
    # Where the user is in the paper's PDF (core.progress): the page (from 0), how far
    # down it (0 to 1), of how many pages, and when they last read in it.
    last_page: Mapped[int | None] = mapped_column(Integer)
    last_position: Mapped[float | None] = mapped_column(Float)
    page_count: Mapped[int | None] = mapped_column(Integer)
    last_read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    # The key is the table (one B-tree), and there is no index on starred or read state:
    # rows exist only where the user set something, a scan of them is quick (100,000 in
    # 10 ms), and starring 100,000 papers does not move 100,000 index entries.
    __table_args__ = ({"sqlite_with_rowid": False},)


class PersonalKept(Base):
    """Other users' personal rows of papers deleted from a shared library, kept so that
    an undo brings them back (core.store: `keep_others_personal`).

    On a shared library one member deleting (or merging away) a paper must not lose
    another member's star, read state, private notes or reading progress on it: the
    rows move here when the paper goes, by a trigger that runs as the library's owner,
    and back when its deletion is undone (core.store.pg_members; a new paper given its
    id gets none). The one user of a SQLite library needs none of this (its own rows
    travel in the undo), so there the table stays empty.
    """

    __tablename__ = "personal_kept"

    paper_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_name: Mapped[str] = mapped_column(String(255), primary_key=True)
    starred: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    read_state: Mapped[str] = mapped_column(
        String(16), default=ReadState.UNREAD.value, server_default=ReadState.UNREAD.value)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    private_notes: Mapped[str] = mapped_column(Text, default="", server_default="")
    last_page: Mapped[int | None] = mapped_column(Integer)  # (schema 0025: as Personal's)
    last_position: Mapped[float | None] = mapped_column(Float)
    page_count: Mapped[int | None] = mapped_column(Integer)
    last_read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    kept_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChangeLog(Base):
    """One committed write, for the other windows of a shared library: they catch up on
    every change after the last `seq` they saw (a notification is only a hint)."""

    __tablename__ = "changes"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # NULL for a change everyone sees; the user's name for a change of their own data.
    user_name: Mapped[str | None] = mapped_column(String(255))
    touched: Mapped[str] = mapped_column(Text, default="")  # core.edits names, comma-joined
    paper_ids: Mapped[list[int] | None] = mapped_column(JSON)  # NULL: many papers
    structural: Mapped[bool] = mapped_column(Boolean, default=False)


class SavedSearch(Base):
    """A query of the search language (core.query) under a name, shown in the sidebar
    (core.saved): a member's own (`user_name` as in `Personal`), or also every other
    member's when `shared`. Names are unique per member, ignoring case."""

    __tablename__ = "saved_searches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_name: Mapped[str] = mapped_column(String(255))
    name: Mapped[str] = mapped_column(String(255))
    query: Mapped[str] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer, default=0)  # (the sidebar's order)
    shared: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        Index("uq_saved_searches_name", "user_name", func.lower(text("name")), unique=True),
    )


class AutoExport(Base):
    """A file kept current as the library changes (core.autoexport): one member's
    (`user_name` as in `Personal`: the file is on their computer), its `path` unique
    among theirs, with what it holds and the outcome of its last refresh."""

    __tablename__ = "auto_exports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_name: Mapped[str] = mapped_column(String(255))
    path: Mapped[str] = mapped_column(Text)
    what: Mapped[str] = mapped_column(Text)  # all | starred | tag:NAME | saved:NAME
    format: Mapped[str] = mapped_column(String(16))  # bibtex | biblatex | csljson
    include_abstract: Mapped[bool] = mapped_column(Boolean, default=True)
    include_notes: Mapped[bool] = mapped_column(Boolean, default=False)
    ascii_only: Mapped[bool] = mapped_column(Boolean, default=False)
    include_files: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(String(16), default="new")  # new | ok | failed
    message: Mapped[str] = mapped_column(Text, default="")  # (why it failed)
    written_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The change log's seq when the file was last found current, and its "size:mtime_ns".
    seq: Mapped[int | None] = mapped_column(Integer)
    stamp: Mapped[str] = mapped_column(String(64), default="")

    __table_args__ = (Index("uq_auto_exports_path", "user_name", "path", unique=True),)


class PaperText(Base):
    """The long text of a paper, apart so that rows of `papers` stay small and cheap to
    scan and update: its abstract and the verbatim BibTeX fields of an imported entry."""

    __tablename__ = "paper_texts"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    abstract: Mapped[str] = mapped_column(Text, default="")
    bib_fields: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    # How the entry was written beyond its values (see records.bib_extra); NULL if nothing.
    bib_extra: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    paper: Mapped[Paper] = relationship(back_populates="texts")


class PaperFile(Base):
    """A file attached to a paper (a PDF): shared like the paper. A copied file's path is
    relative to the library's folder, a linked one's absolute (core.files)."""

    __tablename__ = "paper_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))  # "copied" or "linked"
    size: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str] = mapped_column(String(64))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The file's text for search (its own index, core.search); NULL until it is read,
    # '' when it has none.
    body: Mapped[str | None] = mapped_column(Text)


class PaperAuthor(Base):
    """One author of a paper, in order."""

    __tablename__ = "paper_authors"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    family: Mapped[str] = mapped_column(Text, default="")
    given: Mapped[str] = mapped_column(Text, default="")

    paper: Mapped[Paper] = relationship(back_populates="authors")

    __table_args__ = (UniqueConstraint("paper_id", "position", name="uq_paper_authors_position"),)


class Tag(Base):
    """A user tag (also used as a reading list)."""

    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(255), unique=True)

    papers: Mapped[list[Paper]] = relationship(secondary="paper_tags", back_populates="tags")


class PaperTag(Base):
    """Which paper carries which tag."""

    __tablename__ = "paper_tags"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    tag_id: Mapped[int] = mapped_column(
        ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class Meta(Base):
    """Small library-wide facts, e.g. whether the sample papers were imported once."""

    __tablename__ = "meta"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="")


class FileContent(Base):
    """The bytes of an attached file, once per distinct content (by SHA-256), for a
    shared library's members who do not have it on their computer (core.filestore).
    Never changed: a content is its hash (the server checks it; migration 0018)."""

    __tablename__ = "file_contents"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(BigInteger)
    media_type: Mapped[str] = mapped_column(String(100), default="application/pdf")
    content: Mapped[bytes] = mapped_column(LargeBinary)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Annotation(Base):
    """A mark on a page of a paper's PDF, kept in the library, not in the file: a
    highlight, underline, strike-out or squiggle of a quote, a sticky note, a text box,
    or a rectangle on a figure (its image kept). Each is one member's (`user_name`; ''
    in a library file), seen by the others of a shared library only when `shared`
    (row-level security says so on the server too)."""

    __tablename__ = "annotations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    user_name: Mapped[str] = mapped_column(String(255), default="")
    shared: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The file it was made on (paper_files.sha256): the same file in every member's copy.
    file_sha256: Mapped[str] = mapped_column(String(64), default="")
    page_index: Mapped[int] = mapped_column(Integer)  # from 0
    page_label: Mapped[str] = mapped_column(String(64), default="")
    kind: Mapped[str] = mapped_column(String(16))  # reading.fileannots.KINDS
    color: Mapped[str] = mapped_column(String(16), default="#ffd400")
    # [[left, bottom, right, top], ...] in PDF points, one per line of a quote.
    rects: Mapped[list[list[float]]] = mapped_column(JSON, default=list)
    quote: Mapped[str] = mapped_column(Text, default="")
    comment: Mapped[str] = mapped_column(Text, default="")
    # The words of the quote and the comment as search reads them (`ann:`).
    search_text: Mapped[str] = mapped_column(Text, default="")
    image: Mapped[bytes | None] = mapped_column(LargeBinary)  # (a rectangle's, PNG)
    # "app": made in Papershelf; "file": read from the PDF, `source_id` naming it there.
    origin: Mapped[str] = mapped_column(String(8), default="app")
    source_id: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        # (a file's annotation is imported once per member, however often it is read)
        Index("uq_annotations_source", "paper_id", "user_name", "source_id", unique=True),
    )


class AnnotationKept(Base):
    """Other members' annotations of a paper deleted from a shared library, kept (by a
    trigger, core.store.pg_members) until the paper comes back with its id; empty in a
    library file, where the one user's annotations travel in the undo."""

    __tablename__ = "annotations_kept"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    paper_id: Mapped[int] = mapped_column(Integer, index=True)
    user_name: Mapped[str] = mapped_column(String(255), default="")
    shared: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    file_sha256: Mapped[str] = mapped_column(String(64), default="")
    page_index: Mapped[int] = mapped_column(Integer)
    page_label: Mapped[str] = mapped_column(String(64), default="")
    kind: Mapped[str] = mapped_column(String(16))
    color: Mapped[str] = mapped_column(String(16), default="#ffd400")
    rects: Mapped[list[list[float]]] = mapped_column(JSON, default=list)
    quote: Mapped[str] = mapped_column(Text, default="")
    comment: Mapped[str] = mapped_column(Text, default="")
    # The words of the quote and the comment as search reads them (`ann:`).
    search_text: Mapped[str] = mapped_column(Text, default="")
    image: Mapped[bytes | None] = mapped_column(LargeBinary)
    origin: Mapped[str] = mapped_column(String(8), default="app")
    source_id: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    kept_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FeedSource(Base):
    """A source one member follows for new papers (papershelf.feeds): an arXiv category
    or query, an RSS/Atom feed, a journal by ISSN, an author on OpenAlex. `spelling` is
    how it is written ("arxiv:cs.LG", "issn:1234-5678"), unique among the member's; the
    validators of the last answer make the next check a conditional GET; `note` says
    what went wrong (or was skipped) at the last check; `name` is what the member calls
    it ('': its spelling), shown by the window and `follow list`."""

    __tablename__ = "feed_sources"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_name: Mapped[str] = mapped_column(String(255), default="")
    spelling: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))  # arxiv | feed | issn | openalex
    etag: Mapped[str] = mapped_column(Text, default="")
    last_modified: Mapped[str] = mapped_column(Text, default="")
    state: Mapped[str] = mapped_column(String(16), default="new")  # new | ok | failed
    note: Mapped[str] = mapped_column(Text, default="")
    checked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    name: Mapped[str] = mapped_column(Text, default="")

    __table_args__ = (Index("uq_feed_sources_spelling", "user_name", "spelling", unique=True),)


class InboxItem(Base):
    """A paper a followed source brought that was not in the library: one member's, in
    their inbox (`state` "new") until they add, star or dismiss it. `identity` is its
    first of "doi:…", "arxiv:…", "title:…" (unique among the member's items)."""

    __tablename__ = "inbox_items"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_name: Mapped[str] = mapped_column(String(255), default="")
    source_id: Mapped[int | None] = mapped_column(
        ForeignKey("feed_sources.id", ondelete="SET NULL"), index=True)
    identity: Mapped[str] = mapped_column(Text)
    title: Mapped[str] = mapped_column(Text, default="")
    title_norm: Mapped[str] = mapped_column(Text, default="")
    authors: Mapped[str] = mapped_column(Text, default="")  # (names joined by "; ")
    abstract: Mapped[str] = mapped_column(Text, default="")
    url: Mapped[str] = mapped_column(Text, default="")
    doi: Mapped[str] = mapped_column(Text, default="")
    arxiv_id: Mapped[str] = mapped_column(String(64), default="")
    venue: Mapped[str] = mapped_column(Text, default="")
    published: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(16), default="new")  # new|added|starred|dismissed
    kept: Mapped[bool] = mapped_column(Boolean, default=False)
    paper_id: Mapped[int | None] = mapped_column(Integer)  # (the paper it became)
    found_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The rank the member's model gave it, and that model's version (feeds.learning.stamp;
    # '' when not ranked yet): read back, not ranked again, while the model is the same.
    score: Mapped[float | None] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(Text, default="")
    ranked_by: Mapped[str] = mapped_column(String(64), default="")

    __table_args__ = (Index("uq_inbox_items_identity", "user_name", "identity", unique=True),
                      Index("ix_inbox_items_doi", "user_name", "doi"),
                      Index("ix_inbox_items_arxiv_id", "user_name", "arxiv_id"),
                      Index("ix_inbox_items_title_norm", "user_name", "title_norm"),
                      Index("ix_inbox_items_listing", "user_name", "state", "id", "kept",
                            "source_id"))


class InboxDismissed(Base):
    """What a member dismissed from their inbox, by each identity it had ("doi:…",
    "arxiv:…", "title:…"), so that it never comes back, and its title (what the ranking
    learns they do not want)."""

    __tablename__ = "inbox_dismissed"

    user_name: Mapped[str] = mapped_column(String(255), primary_key=True, default="")
    identity: Mapped[str] = mapped_column(Text, primary_key=True)
    title: Mapped[str] = mapped_column(Text, default="")
    dismissed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Notice(Base):
    """A retraction, correction, expression of concern or reinstatement of a paper, as
    Retraction Watch (through Crossref) or Crossref's `update-to`/`updated-by` tell it
    (core.retractions): library-wide reference data, not anyone's own. A paper is the
    notice's when its DOI, lower-cased, is `doi_norm`, or its `pmid` BibTeX field is
    `pmid` ('' when the notice names none)."""

    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    doi_norm: Mapped[str] = mapped_column(Text, default="", index=True)
    pmid: Mapped[str] = mapped_column(String(16), default="", index=True)
    # Retraction | Correction | Expression of concern | Reinstatement
    nature: Mapped[str] = mapped_column(String(32))
    date: Mapped[str] = mapped_column(String(10), default="")  # YYYY-MM-DD, or ''
    notice_doi: Mapped[str] = mapped_column(Text, default="")
    notice_url: Mapped[str] = mapped_column(Text, default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    source: Mapped[str] = mapped_column(String(16))  # retractionwatch | crossref
    loaded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
