"""The reader's own state a file brings (JabRef's star, read state and linked PDFs), for
the papers an import adds: never for a paper it completes, whose star, read state and
files are the user's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from papershelf.core import files, ingest
from papershelf.core.models import PaperFile, ReadState, utcnow
from papershelf.errors import UserError
from papershelf.messages import text


def states(new: Sequence[ingest.Prepared], default: tuple[Any, ...]
           ) -> tuple[Any, ...] | list[tuple[Any, ...]]:
    """The STATE_COLUMNS of new papers: `default` for all, unless a file said a paper
    is starred or how far it is read (then one tuple a paper)."""
    if not any(p[ingest.OWN] for p in new):
        return default
    starred, read_state, read_at, *rest = default
    each = []
    for paper in new:
        own = paper[ingest.OWN]
        if own is None or not (own[0] or own[1]):
            each.append(default)
            continue
        state = own[1] or read_state
        each.append((own[0] or starred, state,
                     utcnow() if state == ReadState.READ.value else read_at, *rest))
    return each


def link_files(session: Session, ids: Sequence[int], new: Sequence[ingest.Prepared],
               source: str) -> list[str]:
    """Link the PDFs the file named to the papers just added (left where they are, as
    `attachments.attach(link=True)` does); the notices of those that could not be."""
    rows: list[dict[str, Any]] = []
    notices: list[str] = []
    now = utcnow()
    for pid, paper in zip(ids, new):
        own = paper[ingest.OWN]
        if own is None or not own[2]:
            continue
        seen: set[str] = set()
        for name in own[2]:
            try:
                path = files.check_pdf(Path(name))
                size, sha256 = files.fingerprint(path)
            except (UserError, OSError) as exc:
                where = f"{source}:{paper[ingest.LINE]}" if paper[ingest.LINE] else source
                notices.append(text("{where}: {file} not attached: {why}", where=where,
                                    file=name, why=str(exc)))
                continue
            if sha256 in seen:
                continue
            seen.add(sha256)
            rows.append({"paper_id": pid, "path": str(path), "kind": files.LINKED,
                         "size": size, "sha256": sha256, "added_at": now})
    if rows:
        session.execute(insert(PaperFile), rows)
    return notices
