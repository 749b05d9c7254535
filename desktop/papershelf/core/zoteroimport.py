"""Importing Zotero's own library (`zotero.sqlite`, read by `formats.zotero`).

The items are imported as any file's entries are (merging what the library has), and in
the same transaction the papers the import added get what a file of entries cannot
bring: their Zotero notes as the paper's notes, and their attached PDFs, linked where
Zotero keeps them (nothing is copied). A paper the library had already keeps its own
notes and files (an import never touches the user's data); one notice says how many
such items had notes or files. Attachments that are no PDF (web snapshots, EPUBs) are
counted in a notice too: nothing is dropped silently.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from sqlalchemy import insert, update
from sqlalchemy.orm import Session

from papershelf.core import files, importing
from papershelf.core.context import Context
from papershelf.core.edits import FILES, NOTES
from papershelf.core.importing import Cancelled, ImportReport, Progress
from papershelf.core.models import Paper, PaperFile, utcnow
from papershelf.errors import UserError
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.formats.zotero import read_zotero
from papershelf.messages import counted, text

__all__ = ["import_zotero"]


def import_zotero(ctx: Context, path: str | os.PathLike[str],
                  progress: Progress | None = None,
                  cancelled: Cancelled | None = None) -> ImportReport:
    """Import a Zotero database: its items as papers, the new papers with their notes
    and PDFs; one transaction. FormatError if it is no Zotero database."""
    name = os.fspath(path)
    result = read_zotero(name)
    finish = _Finisher(ctx, name, result)
    # (The finisher links the PDFs, and counts those it cannot: not the import too.)
    bare = dataclasses.replace(result, records=[
        dataclasses.replace(record, files=[]) if record.files else record
        for record in result.records])
    return importing.import_result(ctx, bare, name, "zotero", progress, cancelled,
                                   finish=finish)


class _Finisher:
    """The Zotero part of the import's transaction (`importing.Finish`)."""

    def __init__(self, ctx: Context, source: str, result: ReadResult) -> None:
        self.ctx = ctx
        self.source = source
        self.by_item = {r.source_line: r for r in result.records}

    def __call__(self, session: Session, report: ImportReport,
                 added: list[tuple[int, int | None]]) -> None:
        notes: list[dict[str, object]] = []
        rows: list[dict[str, object]] = []
        refused: list[str] = []
        now = utcnow()
        given: set[int | None] = set()
        changed: set[int] = set()
        for paper_id, item_id in added:
            record = self.by_item.get(item_id)
            if record is None:
                continue
            given.add(item_id)
            linked = _file_rows(paper_id, record, now, refused)
            if record.notes:
                notes.append({"id": paper_id, "notes": record.notes})
            if record.notes or linked:
                changed.add(paper_id)
            rows += linked
        if notes:
            session.execute(update(Paper), notes)  # (by primary key, in bulk)
        if rows:
            session.execute(insert(PaperFile), rows)
        if changed:
            self.ctx.log(session, {NOTES, FILES}, changed)
        kept = sum(1 for item, r in self.by_item.items()
                   if item not in given and (r.notes or r.files))
        if kept:
            report.notices.append(counted(
                "{path}: already in the library, so keeping their own notes and files "
                "(Zotero's were not added): %n papers", kept, path=self.source))
        if refused:
            report.notices.append(text(
                "{path}: attached files that are not PDFs, not attached: {count} (first: "
                "{first})", path=self.source, count=len(refused), first=refused[0]))


def _file_rows(paper_id: int, record: PaperRecord, now: object, refused: list[str]
               ) -> list[dict[str, object]]:
    """The `paper_files` rows linking a new paper's PDFs where they are (each file
    once); the others' paths go to `refused`."""
    rows: list[dict[str, object]] = []
    seen: set[str] = set()
    for name in record.files:
        try:
            path = files.check_pdf(Path(name))
            size, sha256 = files.fingerprint(path)
        except (UserError, OSError):
            refused.append(name)
            continue
        if sha256 in seen:
            continue
        seen.add(sha256)
        rows.append({"paper_id": paper_id, "path": str(path), "kind": files.LINKED,
                     "size": size, "sha256": sha256, "added_at": now})
    return rows
