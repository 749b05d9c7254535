"""Papers an import finds only by their title or abstract (`importing.find_existing`'s
weak matches): whether the library paper's citation key is its own, and the report's
line about an entry added although it looks like a paper already there."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from papershelf.core import ingest
from papershelf.core.context import Context
from papershelf.core.models import ImportBatch, Paper
from papershelf.formats.bibtex import arxiv_id
from papershelf.messages import text

# The format of the files whose papers have no citation key of their own: the library
# made it from its key pattern (an abstract list's paragraphs have no key).
KEYLESS_FORMAT = "abstracts"


def identities(ctx: Context, session: Session, ids: set[int]
               ) -> dict[int, tuple[bool, list[str], str | None]]:
    """For papers: whether their key is their own (they came from BibTeX, or another
    format with keys, not from an abstract list, whose papers keep a key the library
    made even after the user edited their fields), the keys merged into them, and their
    arXiv id."""
    known: dict[int, tuple[bool, list[str], str | None]] = {}
    stored = ctx.store.read_current(session, sorted(ids), ("bib_fields", "bib_extra"))
    keyless = set(session.scalars(
        select(Paper.id).join(ImportBatch, Paper.import_id == ImportBatch.id)
        .where(Paper.id.in_(sorted(ids)), ImportBatch.format == KEYLESS_FORMAT)))
    for pid in ids:
        values = stored.get(pid, {})
        raw = values.get("bib_fields") or {}
        extra = values.get("bib_extra") or {}
        known[pid] = (bool(raw) and pid not in keyless, list(extra.get("aliases", [])),
                      arxiv_id(raw))
    return known


def added_notice(session: Session, source: str, paper: ingest.Prepared, like: int,
                 how: str) -> str:
    """The report's line on an entry that was added although it has the title (`how`:
    "title") or abstract ("abstract") of the paper `like` already in the library: the
    keys differ and nothing stronger says they are one paper."""
    other = session.scalar(select(Paper.key).where(Paper.id == like))
    where = f"{source}:{paper[ingest.LINE]}" if paper[ingest.LINE] else source
    same = text("the same title") if how == "title" else text("the same abstract")
    return text("{where}: entry '{key}' was added although it looks like '{other}' "
                "({same}): their citation keys differ and no DOI or arXiv id says they "
                "are one paper; Find Duplicates lists the pair", where=where,
                key=paper[ingest.KEY], other=other, same=same)
