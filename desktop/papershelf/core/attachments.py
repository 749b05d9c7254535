"""Attaching files to papers: attach, detach, the text search reads from them.

Attaching copies a PDF into the library's folder (or links it where it is) and adds its
row in one transaction; detaching removes rows. Both return an undoable `Change` (the
undo of an attach is a detach, whose undo puts the very rows back). Neither ever
deletes a file: a copied file stays in the folder when it is detached or its paper
deleted, so undo always finds it (core.files). The text of a file is read outside
any transaction by whoever calls `pending_texts` (pypdf, in metadata.attaching, off the
GUI thread, in a worker process bounded in pages, characters and time: a file that runs
out of them gets what was read by then, so it never stays pending) and stored with
`set_texts`, a short write that is not an undo step.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import delete, insert, select, update

from papershelf.core import files
from papershelf.core.context import Context
from papershelf.core.edits import FILES, Change
from papershelf.core.files import COPIED, LINKED, Attachment
from papershelf.core.models import Paper, PaperFile, utcnow
from papershelf.errors import UserError
from papershelf.messages import text

log = logging.getLogger(__name__)


def folder(ctx: Context) -> Path:
    """Where the library keeps the files it copies (core.files.folder_for)."""
    return files.folder_for(ctx.url)


def attachments(ctx: Context, paper_id: int) -> list[Attachment]:
    """The files attached to a paper, in the order they were attached."""
    return of_papers(ctx, [paper_id]).get(paper_id, [])


def of_papers(ctx: Context, ids: Sequence[int]) -> dict[int, list[Attachment]]:
    """The files attached to papers (those without any are absent)."""
    with ctx.read() as session:
        return files.read(session, ids, folder(ctx))


def local_pdf(ctx: Context, paper_id: int) -> Path | None:
    """The first of a paper's attached PDFs that is on this computer, or None."""
    return files.first_present(attachments(ctx, paper_id))


def attach(ctx: Context, paper_id: int, source: str | Path, *, link: bool = False) -> Change:
    """Attach the PDF at `source` to a paper: copied into the library's folder (a file
    already in it is taken as it is), or with `link` left where it is. UserError, with
    nothing attached, for a file that is not a PDF, one the paper already has, or a
    paper that is gone."""
    path = files.check_pdf(Path(source))
    size, sha256 = files.fingerprint(path)
    home = folder(ctx)
    with ctx.read() as session:
        key = session.scalar(select(Paper.key).where(Paper.id == paper_id))
        same = session.scalar(select(PaperFile.path).where(
            PaperFile.paper_id == paper_id, PaperFile.sha256 == sha256).limit(1))
    if key is None:
        raise UserError("the paper no longer exists; nothing attached")
    if same is not None:
        raise UserError(f"{key} already has this file attached ({files.file_name(same)})")
    copied: Path | None = None
    within = files.inside(home, path)
    if link:
        stored, kind = str(path), LINKED
    elif within is not None:  # (a download, or a file the user put there)
        stored, kind = within, COPIED
    else:
        copied = files.copy_into(home, path, files.safe_file_name(path.stem))
        stored, kind = copied.name, COPIED
    try:
        with ctx.write() as session:
            if session.scalar(select(Paper.id).where(Paper.id == paper_id)) is None:
                raise UserError("the paper no longer exists; nothing attached")
            file_id = session.execute(insert(PaperFile).values(
                paper_id=paper_id, path=stored, kind=kind, size=size, sha256=sha256,
                added_at=utcnow()).returning(PaperFile.id)).scalar_one()
            ctx.log(session, {FILES}, [paper_id])
    except BaseException:
        if copied is not None:  # our own copy of a moment ago: nothing of the user's
            copied.unlink(missing_ok=True)
        raise
    return Change(text("Attach {name}", name=files.file_name(stored)), frozenset({paper_id}),
                  undo=lambda: detach(ctx, [file_id]), touched=frozenset({FILES}))


def attach_each(ctx: Context, wanted: Sequence[tuple[int, Path]]
                ) -> tuple[list[Change], list[tuple[int, UserError]]]:
    """`attach` each (paper id, file) in turn: the Changes made, and the refusals (a
    file that is not a PDF, or is attached already) by their index in `wanted`, the
    others attached all the same. Any other error takes back what was attached before
    it (what cannot be taken back stays) and is raised."""
    done: list[Change] = []
    refused: list[tuple[int, UserError]] = []
    try:
        for n, (paper_id, path) in enumerate(wanted):
            try:
                done.append(attach(ctx, paper_id, path))
            except UserError as exc:
                refused.append((n, exc))
    except BaseException:
        try:
            for change in reversed(done):
                if change.undo is not None:
                    change.undo()
        except Exception:  # (the first error is the one to tell)
            log.exception("could not take back the files attached before the error")
        raise
    return done, refused


def detach(ctx: Context, file_ids: Sequence[int]) -> Change:
    """Take files off their papers (the files themselves stay where they are); undo
    attaches them again, their text included."""
    with ctx.write() as session:
        rows = [dict(row._mapping) for row in session.execute(
            select(*PaperFile.__table__.columns).where(PaperFile.id.in_(list(file_ids))))]
        session.execute(delete(PaperFile).where(PaperFile.id.in_([r["id"] for r in rows])))
        papers = {row["paper_id"] for row in rows}
        if rows:
            ctx.log(session, {FILES}, papers)
    what = (f"Detach {files.file_name(rows[0]['path'])}" if len(rows) == 1
            else f"Detach {len(rows)} files")

    def undo() -> Change:
        with ctx.write() as session:
            alive = set(session.scalars(select(Paper.id).where(Paper.id.in_(papers))))
            ids = files.put_back(session, [r for r in rows if r["paper_id"] in alive])
            ctx.log(session, {FILES}, alive)
        return Change(what.replace("Detach", "Attach", 1), frozenset(alive),
                      undo=lambda: detach(ctx, ids), touched=frozenset({FILES}))

    return Change(what, frozenset(papers), undo=undo if rows else None,
                  touched=frozenset({FILES}))


def pending_texts(ctx: Context, limit: int = 20) -> list[Attachment]:
    """Attached files on this computer whose text search has not read yet (at most
    `limit`), oldest first."""
    home = folder(ctx)
    found: list[Attachment] = []
    with ctx.read() as session:
        rows = session.execute(select(PaperFile.paper_id).where(PaperFile.body.is_(None))
                               .order_by(PaperFile.id)).scalars().all()
        for attached in files.read(session, sorted(set(rows)), home).values():
            found.extend(a for a in attached if not a.indexed and a.present())
    return sorted(found, key=lambda a: a.id)[:limit]


def set_texts(ctx: Context, texts: dict[int, str]) -> Change:
    """Store the text read from files (by file id) for search; a file detached
    meanwhile is skipped. Not an undo step: the text only follows the file."""
    changed: set[int] = set()
    with ctx.write() as session:
        for file_id, body in texts.items():
            paper_id = session.scalar(update(PaperFile).where(PaperFile.id == file_id)
                                      .values(body=files.searchable(body))
                                      .returning(PaperFile.paper_id))
            if paper_id is not None:
                changed.add(paper_id)
        if changed:
            ctx.log(session, {FILES}, changed)
    return Change("", frozenset(changed), touched=frozenset({FILES}))

