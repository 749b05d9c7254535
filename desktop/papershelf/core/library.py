"""The one facade the command line and the window call: queries and operations.

`Library` holds an open library and hands each call to the room that does it:

- `core.views`: which papers a view shows, their rows, details, records and counts;
- `core.edits`: the user's edits, each one transaction returning an undoable `Change`
  that names what it touched (as in Anki's collection);
- `core.editing`: a paper's bibliographic fields by their BibTeX names (`set_fields`),
  and papers typed in by hand;
- `core.keying`: the key pattern and regenerating citation keys;
- `core.importing`: importing files, merging entries into the papers they are, and
  the search index a big import fills afterwards;
- `core.duplicates`: finding and merging duplicates;
- `core.attachments`: files attached to papers, and their text for search;
- `core.saved`: saved searches, the sidebar's named queries.

The rooms share a `Context` (engine, sessions and the database's `Store`, core.store),
not each other's private names. Queries hand out plain dataclasses, never ORM objects,
so callers on any thread can hold them without a session. Every name the window and the
command line import from here is defined in a room and re-exported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from papershelf.core import (
    annotating,
    attachments,
    completing,
    db,
    duplicates,
    editing,
    edits,
    filestore,
    importing,
    keying,
    progress,
    querysql,
    retractions,
    saved,
    views,
)
from papershelf.core.context import Context
from papershelf.core.duplicates import DuplicatePair
from papershelf.core.editing import FieldError, parse_entry, readable_value
from papershelf.core.edits import (
    BIB_FIELDS,
    FILES,
    KEY,
    NOTES,
    PAPERS,
    READ_STATE,
    SAVED,
    STARRED,
    TAGS,
    Change,
)
from papershelf.core.files import Attachment
from papershelf.core.importing import Cancelled, ImportCancelled, ImportReport, Progress
from papershelf.core.ingest import abstract_hash, normalize_text
from papershelf.core.saved import SavedSearch
from papershelf.core.store import Store, store_for
from papershelf.core.tally import Tally
from papershelf.core.views import (
    FILTERS,
    READ_STATES,
    SORT_COLUMNS,
    Counts,
    PaperDetail,
    PaperRow,
    View,
)
from papershelf.errors import UserError
from papershelf.formats import format_of, read_file
from papershelf.formats.records import PaperRecord, ReadResult

_EVERY_PAPER = View()


def _quiet(_done: int, _total: int) -> None:
    """Progress nobody shows."""


class Library:
    """A Papershelf library: open it, ask it, change it."""

    def __init__(self, engine: Engine, url: str, store: Store | None = None) -> None:
        self.engine = engine
        self.url = url
        self._ctx = Context(engine, url, store if store is not None else store_for(engine))

    # -- opening and closing -------------------------------------------------

    @classmethod
    def open(cls, target: str | None = None) -> Library:
        """Open the library at a path or URL (default: the user's), creating it if new."""
        engine, url = db.open_engine(target)
        return cls(engine, url)

    def close(self) -> None:
        """Release every connection (the WAL is checkpointed by SQLite)."""
        self.engine.dispose()

    @property
    def location(self) -> str:
        """The library's file path, or its URL without a password."""
        return db.describe(self.url)

    @property
    def user_name(self) -> str:
        """Whose stars, read states and private notes this library shows: the database
        role on a shared library, '' on a single-user one."""
        return self._ctx.user_name

    @property
    def own_seqs(self) -> AbstractSet[int]:
        """The change log's rows this Library object wrote (core.live tells its own
        changes from other programs' by them)."""
        return self._ctx.own_seqs

    @property
    def context(self) -> Context:
        """The sessions and change log behind this library, for the rooms beside the core
        that keep tables of their own (papershelf.feeds)."""
        return self._ctx

    @property
    def shared(self) -> bool:
        """Whether several users share this library (a PostgreSQL database)."""
        return self.dialect == "postgresql"

    @property
    def dialect(self) -> str:
        """The database dialect's name ('sqlite', 'postgresql')."""
        return self.engine.dialect.name

    # -- queries (core.views) -------------------------------------------------

    def view_ids(self, view: View = _EVERY_PAPER, limit: int | None = None) -> list[int]:
        """The ids of the papers a view shows, in its order (the first `limit` only)."""
        return views.view_ids(self._ctx, view, limit)

    def size_estimate(self) -> int:
        """An instant upper bound of the number of papers (the largest id)."""
        return views.size_estimate(self._ctx)

    def count(self, view: View = _EVERY_PAPER) -> int:
        """How many papers a view shows."""
        return views.count(self._ctx, view)

    def rows(self, ids: Sequence[int]) -> dict[int, PaperRow]:
        """Table rows for the given ids (missing ids are simply absent)."""
        return views.rows(self._ctx, ids)

    def paper(self, paper_id: int) -> PaperDetail | None:
        """Everything about one paper, or None if it no longer exists."""
        found = views.details(self._ctx, [paper_id])
        return found[0] if found else None

    def details(self, ids: Sequence[int]) -> list[PaperDetail]:
        """Full details of papers, in the order of `ids` (missing ids skipped)."""
        return views.details(self._ctx, ids)

    def records(self, ids: Sequence[int], with_files: bool = False) -> list[PaperRecord]:
        """The bibliographic records of papers, in the order of `ids` (for export);
        `with_files`: with the paths of their attached files on this computer."""
        return views.records(self._ctx, ids, with_files)

    def ids_for_keys(self, wanted: Iterable[str]) -> tuple[list[int], list[str]]:
        """Ids of the papers with these citation keys (or merged-in aliases), in the given
        order, and the unknown keys."""
        return views.ids_for_keys(self._ctx, wanted)

    def counts(self) -> Counts:
        """Paper counts for the sidebar: each filter and each tag."""
        return views.counts(self._ctx)

    def tags_of(self, ids: Sequence[int]) -> dict[int, list[str]]:
        """The tags of each paper (for "Remove tag…" on a selection)."""
        return views.tags_of(self._ctx, ids)

    def tag_names(self) -> list[str]:
        """Every tag, alphabetically."""
        return views.tag_names(self._ctx)

    def venues(self) -> list[str]:
        """Every venue (booktitle or journal), in order: the search field completes them."""
        return querysql.venues(self._ctx)

    def first_authors(self, typed: str, limit: int = 12) -> list[str]:
        """First authors' family names beginning as typed: the search field completes
        `au:` with them."""
        return querysql.first_authors(self._ctx, typed, limit)

    def info(self) -> dict[str, Any]:
        """Location, schema version and counts, for `papershelf info`."""
        return views.info(self._ctx)

    # -- citation keys (core.keying) ------------------------------------------

    @property
    def key_pattern(self) -> str:
        """The pattern new papers get their citation key from (a library-wide setting)."""
        return keying.key_pattern(self._ctx)

    def set_key_pattern(self, pattern: str) -> None:
        """Change the key pattern for papers added from now on; existing keys stay."""
        keying.set_key_pattern(self._ctx, pattern)

    def key_new_paper(self, paper_id: int, made: str) -> Change:
        """Key a paper added by hand from the fields filled in since, unless its key is
        no longer `made` (the key it was added with)."""
        return keying.key_new_paper(self._ctx, paper_id, made)

    def regenerate_keys(self, ids: Sequence[int]) -> Change:
        """Give papers new keys from the current pattern (the user's explicit request)."""
        return keying.regenerate_keys(self._ctx, ids)

    # -- the user's edits (core.edits) -----------------------------------------

    def set_starred(self, ids: Sequence[int], starred: bool) -> Change:
        """Star or unstar papers."""
        return edits.set_starred(self._ctx, ids, starred)

    def toggle_starred(self, ids: Sequence[int]) -> Change:
        """Star the papers, or unstar them if every one is already starred (the S key)."""
        return edits.toggle_starred(self._ctx, ids)

    def set_read_state(self, ids: Sequence[int], state: str) -> Change:
        """Mark papers unread, reading or read (read also records when)."""
        return edits.set_read_state(self._ctx, ids, state)

    def cycle_read_state(self, ids: Sequence[int]) -> Change:
        """Unread → reading → read → unread, all papers following the first one's state."""
        return edits.cycle_read_state(self._ctx, ids)

    def set_notes(self, paper_id: int, notes: str,
                  base: tuple[int, str] | None = None) -> Change:
        """Replace a paper's shared notes (Markdown text); `base`: the version and notes
        the editor started from, to merge with someone else's edit made meanwhile."""
        return edits.set_notes(self._ctx, paper_id, notes, base)

    def position(self, paper_id: int) -> progress.Position | None:
        """Where the user left a paper's PDF (core.progress), or None."""
        return progress.position(self._ctx, paper_id)

    def save_position(self, paper_id: int, where: progress.Position) -> Change:
        """Remember where the user is in a paper's PDF (nothing to undo)."""
        return progress.save_position(self._ctx, paper_id, where)

    def opened(self, paper_id: int, mark_reading: bool = True) -> Change:
        """The user opened a paper's PDF: read now, and unread → reading if asked."""
        return progress.opened(self._ctx, paper_id, mark_reading)

    def set_private_notes(self, paper_id: int, notes: str) -> Change:
        """Replace the user's own notes on a paper (no other user sees them)."""
        return edits.set_private_notes(self._ctx, paper_id, notes)

    def paper_for(self, record: PaperRecord) -> tuple[int | None, PaperRecord]:
        """The paper already here that `record` is (as an import decides), or None; and
        the record as an import would merge it (for `complete_paper`)."""
        return importing.paper_for(self._ctx, record)

    def complete_paper(self, paper_id: int, record: PaperRecord, description: str,
                       version: int | None = None) -> Change:
        """Fill in what a paper lacks from `record` (found for it in a catalog or a
        service), as an import completes a duplicate; if `version` is given and the
        paper changed since, nothing is written (UserError). Undoable."""
        return completing.complete_paper(self._ctx, paper_id, record, description, version)

    def set_title(self, paper_id: int, title: str, base: str | None = None) -> Change:
        """Give a paper a real title: no longer provisional; the raw BibTeX title is
        dropped. `base`: the title the user started from; if someone else changed it
        meanwhile, nothing is written (`EditConflict`)."""
        return edits.set_title(self._ctx, paper_id, title, base)

    def set_key(self, paper_id: int, key: str, base: str | None = None) -> Change:
        """Change a paper's citation key (the user's explicit choice); must stay unique.
        `base` as for `set_title`."""
        return edits.set_key(self._ctx, paper_id, key, base)

    def set_fields(self, paper_id: int, values: Mapping[str, str | None],
                   base: Mapping[str, str | None] | None = None) -> Change:
        """Set fields of a paper by their BibTeX names, as BibTeX values (`type`: the entry
        type, `venue`: wherever the paper keeps its venue); None or '' removes a field.
        A wrong value is a `FieldError` naming the field, and nothing is written. `base`:
        the fields as the caller read them (`paper_fields`): an abstract changed
        meanwhile is merged, other fields changed meanwhile are replaced and named in
        the Change's `replaced`. The citation key stays. Undoable."""
        return editing.set_fields_and_tags(self._ctx, paper_id, values, base)

    def paper_fields(self, paper_id: int) -> dict[str, str]:
        """A paper's fields as `set_fields` takes them: `type` and every BibTeX field its
        export writes (UserError if the paper no longer exists)."""
        return editing.fields_of(self._record(paper_id))

    def paper_entry(self, paper_id: int) -> str:
        """A paper's BibTeX entry as its fields are edited: its export, without the
        user's tags, notes and files."""
        return editing.entry_of(self._record(paper_id))

    def _record(self, paper_id: int) -> PaperRecord:
        found = views.records(self._ctx, [paper_id])
        if not found:
            raise UserError("the paper no longer exists")
        return found[0]

    def new_paper(self, values: Mapping[str, str | None]) -> tuple[Change, int]:
        """Add a paper typed in by hand (`values` as for `set_fields`, a title among them;
        `type` defaults to misc), keyed from the key pattern as an import keys it; the
        Change (undo takes it away) and its id. A paper the library already has (same
        DOI, title or abstract) is refused (UserError)."""
        return editing.add_new(self._ctx, values)

    def add_tags(self, ids: Sequence[int], names: Iterable[str]) -> Change:
        """Put tags on papers (tags are created as needed)."""
        return edits.add_tags(self._ctx, ids, names)

    def remove_tags(self, ids: Sequence[int], names: Iterable[str]) -> Change:
        """Take tags off papers."""
        return edits.remove_tags(self._ctx, ids, names)

    def delete_papers(self, ids: Sequence[int]) -> Change:
        """Delete papers (with their notes and tags); undo brings them back whole."""
        return edits.delete_papers(self._ctx, ids)

    # -- duplicates (core.duplicates) -----------------------------------------------

    def find_duplicates(self, limit: int = 1000) -> list[DuplicatePair]:
        """Pairs of papers that look like the same paper: same DOI, title or abstract."""
        return duplicates.find_duplicates(self._ctx, limit)

    def merge_papers(self, keep_id: int, other_id: int) -> Change:
        """Fold `other` into `keep` and delete it; undo puts both back as they were."""
        return duplicates.merge_papers(self._ctx, keep_id, other_id)

    # -- attached files (core.attachments) ----------------------------------------------

    @property
    def files_folder(self) -> Path:
        """Where the library keeps the files it copies: `files/` beside a library file,
        a folder of the user's data directory for a library on a server."""
        return attachments.folder(self._ctx)

    def attachments(self, paper_id: int) -> list[Attachment]:
        """The files attached to a paper, in the order they were attached."""
        return attachments.attachments(self._ctx, paper_id)

    def attachments_of(self, ids: Sequence[int]) -> dict[int, list[Attachment]]:
        """The files attached to papers, by paper (those without any are absent)."""
        return attachments.of_papers(self._ctx, ids)

    def local_pdf(self, paper_id: int) -> Path | None:
        """The first of a paper's attached PDFs that is on this computer, or None."""
        return attachments.local_pdf(self._ctx, paper_id)

    def local_path_for(self, paper_id: int, progress: Progress | None = None
                       ) -> Path | None:
        """Where the paper's PDF opens on this computer: its own file, else on a shared
        library the library's copy in this member's cache, fetched if need be (slow:
        off the GUI thread); None when there is none (core.filestore)."""
        return filestore.local_path_for(self._ctx, paper_id, progress or _quiet)

    def upload_files(self, progress: Progress | None = None,
                     cancelled: Callable[[], bool] = lambda: False) -> tuple[int, list[str]]:
        """On a shared library, send the contents of the attached files on this computer
        that it lacks (once each): how many went, and a line for each refused."""
        return filestore.upload_pending(self._ctx, progress or _quiet, cancelled)

    def set_file_size_limit(self, limit: int) -> None:
        """Set the largest file (bytes) a shared library keeps the content of, for every
        member (the server keeps to it too)."""
        filestore.set_size_limit(self._ctx, limit)

    def attach_file(self, paper_id: int, path: str | Path, *, link: bool = False) -> Change:
        """Attach a PDF to a paper, copied into `files_folder` or (`link`) where it is;
        UserError for a file that is not a PDF or is attached already. Undoable."""
        return attachments.attach(self._ctx, paper_id, path, link=link)

    def attach_each(self, wanted: Sequence[tuple[int, Path]]
                    ) -> tuple[list[Change], list[tuple[int, UserError]]]:
        """Attach each (paper id, file); the Changes, and the refusals by index (the
        others are attached all the same). Any other error takes back what was attached
        before it and is raised."""
        return attachments.attach_each(self._ctx, wanted)

    def detach_files(self, file_ids: Sequence[int]) -> Change:
        """Take attached files off their papers (no file is deleted). Undoable."""
        return attachments.detach(self._ctx, file_ids)

    def pending_texts(self, limit: int = 20) -> list[Attachment]:
        """Attached files on this computer whose text is not yet read for search."""
        return attachments.pending_texts(self._ctx, limit)

    def set_file_texts(self, texts: dict[int, str]) -> Change:
        """Store the text read from attached files (by file id) for search."""
        return attachments.set_texts(self._ctx, texts)

    # -- saved searches (core.saved) ---------------------------------------------------

    # -- annotations (core.annotations) ------------------------------------------------

    def annotations_of(self, ids: Sequence[int]) -> dict[int, list[annotating.Annotation]]:
        return annotating.annotations_of(self._ctx, ids)

    def annotation(self, annotation_id: int) -> annotating.Annotation | None:
        return annotating.annotation(self._ctx, annotation_id)

    def annotation_image(self, annotation_id: int) -> bytes | None:
        return annotating.image_of(self._ctx, annotation_id)

    def add_annotation(self, paper_id: int, new: annotating.New) -> tuple[Change, int]:
        return annotating.add(self._ctx, paper_id, new)

    def add_annotations(self, paper_id: int, items: Sequence[annotating.New],
                        description: str) -> tuple[Change, list[int]]:
        return annotating.add_each(self._ctx, paper_id, items, description)

    def edit_annotation(self, annotation_id: int, **values: Any) -> Change:
        return annotating.edit(self._ctx, annotation_id, **values)

    def remove_annotations(self, annotation_ids: Sequence[int]) -> Change:
        return annotating.remove(self._ctx, annotation_ids)

    def saved_searches(self) -> list[SavedSearch]:
        """The user's own saved searches and the shared ones, in the sidebar's order."""
        return saved.saved_searches(self._ctx)

    def saved_counts(self) -> dict[int, int]:
        """How many papers each saved search finds, by its id."""
        return saved.saved_counts(self._ctx)

    def saved_tally(self) -> Tally:
        """The saved searches' counts, kept current by the papers each change names
        (core.tally): for the sidebar, which shows them after every edit."""
        return Tally(self._ctx)

    def add_saved_search(self, name: str, query: str, shared: bool = False) -> Change:
        """Save a query of the search language under a name, last in the list (`shared`:
        every member of a shared library sees it). UserError for an empty name or query,
        or a name the user already sees (ignoring case). Undoable."""
        return saved.add(self._ctx, name, query, shared)

    def rename_saved_search(self, search_id: int, name: str) -> Change:
        """Rename a saved search (UserError as for `add_saved_search`). Undoable."""
        return saved.rename(self._ctx, search_id, name)

    def edit_saved_search(self, search_id: int, query: str) -> Change:
        """Give a saved search another query (UserError for an empty one). Undoable."""
        return saved.edit(self._ctx, search_id, query)

    def move_saved_search(self, search_id: int, position: int) -> Change:
        """Move a saved search to `position` of `saved_searches()` (0: first). Undoable."""
        return saved.move(self._ctx, search_id, position)

    def remove_saved_search(self, search_id: int) -> Change:
        """Delete a saved search; undo brings it back."""
        return saved.remove(self._ctx, search_id)

    # -- import and the search index (core.importing) -------------------------------

    def ensure_sample(self, seeds: Path | None) -> ImportReport | None:
        """On the first start of an empty library, import the sample lists, once ever."""
        return importing.ensure_sample(self._ctx, seeds, self.import_file)

    def import_file(self, path: str | Path, progress: Progress | None = None,
                    cancelled: Cancelled | None = None) -> ImportReport:
        """Read a file (abstract list, BibTeX, RIS, CSL-JSON, a Zotero database) and
        import it; FormatError if unreadable.

        A big file is read in pieces by worker processes while this one writes; any
        other is read whole, then imported. `progress` counts bytes of the file then,
        records otherwise.
        """
        fmt = format_of(path)
        if fmt == "zotero":  # (Zotero's database: its notes and PDFs come along)
            from papershelf.core.zoteroimport import import_zotero

            return self._checked(import_zotero(self._ctx, path, progress, cancelled))
        report = importing.import_in_pieces(self._ctx, str(path), fmt, progress, cancelled)
        if report is not None:
            return self._checked(report)
        return self.import_result(read_file(path), str(path), fmt, progress, cancelled)

    def import_bibtex(self, text: str, source: str, progress: Progress | None = None,
                      cancelled: Cancelled | None = None) -> ImportReport:
        """Import BibTeX source that is not a file (a paste, standard input), as an
        import of a file named `source` does: good entries added or merged, each bad one
        reported with its line; FormatError if it holds no entry at all. Control
        characters are dropped with a notice, as a file's are."""
        from papershelf.formats.bibtex import parse_bibtex
        from papershelf.formats.bibtex.decode import drop_controls

        text, notices = drop_controls(text, source)
        result = parse_bibtex(text, source)
        result.notices[:0] = notices
        return self.import_result(result, source, "bibtex", progress, cancelled)

    def import_change(self, report: ImportReport) -> Change:
        """The import a report tells of as one undoable Change (the window's undo step):
        undo deletes the papers it added and puts back the ones it completed."""
        return report.undoable(self._ctx)

    def import_result(self, result: ReadResult, source: str, fmt: str,
                      progress: Progress | None = None,
                      cancelled: Cancelled | None = None) -> ImportReport:
        """Add what a reader read, merging duplicates; one transaction, cancellable."""
        return self._checked(
            importing.import_result(self._ctx, result, source, fmt, progress, cancelled))

    def _checked(self, report: ImportReport) -> ImportReport:
        """The report with a note for each paper it added or completed that the
        library's notices say is retracted (core.retractions)."""
        report.notices.extend(self.retraction_warnings(report.added_ids + report.merged_ids))
        return report

    # -- retraction and correction notices (core.retractions) -------------------------

    def notices_of(self, ids: Sequence[int]) -> dict[int, list[retractions.PaperNotice]]:
        """The retraction, correction and other notices of each of these papers that
        has some, the most serious first."""
        return retractions.notices_of(self._ctx, ids)

    def retraction_warnings(self, ids: Sequence[int]) -> list[str]:
        """One line for each retracted paper among `ids` ("Retracted: <title> (2023,
        notice 10.…)"): what an export, a copied citation or an import warns of."""
        return retractions.warnings(self._ctx, ids)

    def pending_index(self) -> int:
        """How many papers a bulk import left for `index_pending` (not yet searchable)."""
        return importing.pending_index(self._ctx)

    def index_pending(self, progress: Progress | None = None,
                      cancelled: Cancelled | None = None, batch: int = 5000,
                      limit: int | None = None) -> int:
        """Add papers left out by bulk imports to the search index, a batch per
        transaction (at most about `limit` ids in this call); returns how many ids were
        covered. Safe to stop at any time."""
        return importing.index_pending(self._ctx, progress, cancelled, batch, limit)


__all__ = [
    "BIB_FIELDS", "FILES", "FILTERS", "KEY", "NOTES", "PAPERS", "READ_STATE", "READ_STATES",
    "SAVED",
    "SORT_COLUMNS", "STARRED", "TAGS", "Attachment", "Cancelled", "Change",
    "Counts", "DuplicatePair", "FieldError",
    "ImportCancelled", "ImportReport", "Library", "PaperDetail", "PaperRow", "Progress",
    "SavedSearch",
    "UserError", "View", "abstract_hash", "normalize_text", "parse_entry", "readable_value",
]
