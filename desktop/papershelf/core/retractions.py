"""Retraction and correction notices: reading them in, and which papers they name.

Notices come from two places. Retraction Watch's database, as Crossref publishes it (a
CSV of about 60,000 rows and 50 MB; its columns as published: `OriginalPaperDOI`,
`OriginalPaperPubMedID`, `RetractionNature`, `RetractionDate`, `RetractionDOI`,
`Reason`, …), is read row by row (`read_csv`: memory stays bounded) and replaces the
notices from there (`replace_source`). Crossref's own `update-to` / `updated-by`
relations of a work (`crossref_entries`, the REST API's `works/{doi}` message) replace
what Crossref said of those DOIs (`replace_for_dois`). Fetching both is
metadata.retractions'; nothing here asks the network.

A paper is a notice's when its DOI, lower-cased, is the notice's `doi_norm`, or its
`pmid` BibTeX field is the notice's `pmid`: the match is made when asked (`flag_clause`
for search's `is:retracted` and `is:corrected`, `natures` for the table's mark,
`notices_of` for the detail pane and the warnings), so a paper imported or edited later
is matched as well. A retraction a later reinstatement undoes still counts as one: the
notices are shown, the user judges.
"""

from __future__ import annotations

import csv
import re
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from itertools import islice
from pathlib import Path
from typing import Any

from sqlalchemy import (
    ColumnElement,
    delete,
    exists,
    func,
    insert,
    literal_column,
    or_,
    select,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Session

from papershelf.core.context import Context
from papershelf.core.models import Base, Notice, Paper, PaperText, utcnow
from papershelf.core.shapes import BIB_FIELDS
from papershelf.errors import UserError
from papershelf.messages import counted, text

RETRACTION, CORRECTION, CONCERN, REINSTATEMENT = (
    "Retraction", "Correction", "Expression of concern", "Reinstatement")
NATURES = (RETRACTION, CONCERN, CORRECTION, REINSTATEMENT)  # (the most serious first)
RETRACTION_WATCH, CROSSREF = "retractionwatch", "crossref"
# The columns a Retraction Watch CSV must have (as Crossref publishes it).
REQUIRED_COLUMNS = ("OriginalPaperDOI", "OriginalPaperPubMedID", "RetractionNature",
                    "RetractionDate", "RetractionDOI")
# Crossref's update types (its `update-to`/`updated-by` `type`) as natures; others
# (new versions, ...) are no notice of this kind.
CROSSREF_TYPES = {
    "retraction": RETRACTION, "partial_retraction": RETRACTION, "withdrawal": RETRACTION,
    "removal": RETRACTION, "correction": CORRECTION, "corrigendum": CORRECTION,
    "erratum": CORRECTION, "addendum": CORRECTION, "clarification": CORRECTION,
    "expression_of_concern": CONCERN, "reinstatement": REINSTATEMENT,
}
# The columns read (the others, titles, authors, institutions, ..., are not kept).
_READ_COLUMNS = (*REQUIRED_COLUMNS, "Reason")
BATCH = 2000  # rows inserted at once
MAX_PROBLEMS = 200  # bad rows named one by one (then only counted)
# A copy read (`--from FILE`, the download) at most: Crossref's file was 50 MB and 60,000
# rows in 2026; a line longer than MAX_LINE (a file without newlines) is read on in
# bounded chunks and skipped, never held whole.
MAX_FILE_BYTES = 400 * 1024 * 1024
MAX_LINES = 2_000_000
MAX_LINE = 1_000_000
_DOI_PREFIX = re.compile(r"^\s*(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_DOI = re.compile(r"^10\.\d{3,9}(?:\.\d+)*/\S+$")
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True)
class NoticeEntry:
    """One notice as read, before it is stored (a row of `notices`)."""

    nature: str
    doi_norm: str = ""
    pmid: str = ""
    date: str = ""  # YYYY-MM-DD, or ''
    notice_doi: str = ""
    notice_url: str = ""
    reason: str = ""
    source: str = RETRACTION_WATCH


@dataclass(frozen=True)
class PaperNotice:
    """A notice of a paper of the library, with what the warnings name it by."""

    paper_id: int
    title: str
    year: int | None
    nature: str
    date: str
    notice_doi: str
    notice_url: str
    reason: str
    source: str

    @property
    def link(self) -> str:
        """Where the notice can be read: its URL, else its DOI's."""
        return self.notice_url or (f"https://doi.org/{self.notice_doi}"
                                   if self.notice_doi else "")


def normalize_doi(value: str) -> str:
    """A DOI as notices are matched by it: without "doi:" or a resolver, lower-cased;
    '' if it is none ("unavailable", blank)."""
    doi = _DOI_PREFIX.sub("", value or "").strip().lower()
    return doi if _DOI.match(doi) else ""


def _pmid(value: str) -> str:
    value = (value or "").strip()
    return value if value.isdigit() and value.strip("0") and len(value) <= 16 else ""


def _date(value: str) -> str:
    """A Retraction Watch date ("5/3/2023 0:00", month first) or an ISO one as
    YYYY-MM-DD; '' if it is neither."""
    value = (value or "").strip()
    if found := _US_DATE.match(value):
        month, day, year = found.groups()
    elif found := _ISO_DATE.match(value):
        year, month, day = found.groups()
    else:
        return ""
    try:
        return datetime(int(year), int(month), int(day)).strftime("%Y-%m-%d")
    except ValueError:
        return ""


def _nature(value: str) -> str:
    wanted = (value or "").strip().lower()
    return next((n for n in NATURES if n.lower() == wanted), "")


def _reason(value: str) -> str:
    """Retraction Watch's reasons ("+Duplication of Image;+Fake Peer Review;") as a
    list read by people."""
    parts = [p.strip().lstrip("+").strip() for p in (value or "").split(";")]
    return "; ".join(p for p in parts if p)


def read_csv(path: str | Path, problems: list[str]) -> Iterator[NoticeEntry]:
    """The notices of a Retraction Watch CSV (its columns as Crossref publishes them),
    read row by row. A row that is no notice (an unknown nature, neither DOI nor PubMed
    id, a line longer than MAX_LINE) is skipped, and named with its line in `problems`
    (the first MAX_PROBLEMS, then counted). A file that is not such a CSV, or bigger
    than any published copy (MAX_FILE_BYTES, MAX_LINES), is a UserError naming it."""
    path = Path(path)
    skipped = 0
    try:
        with path.open(newline="", encoding="utf-8-sig", errors="replace") as handle:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise UserError(text(
                    "{path}: larger than {limit} MB, more than any Retraction Watch CSV; "
                    "not read", path=str(path), limit=MAX_FILE_BYTES // (1024 * 1024)))
            overlong: list[int] = []
            reader = csv.reader(_bounded_lines(handle, path, overlong))
            header = next(reader, [])
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise UserError(text(
                    "{path}: not a Retraction Watch CSV (no column {columns})",
                    path=str(path), columns=", ".join(missing)))
            where = {name: header.index(name) for name in _READ_COLUMNS if name in header}
            while True:
                try:
                    row = next(reader)
                except StopIteration:
                    break
                except csv.Error as error:
                    problem = text("{path}, line {line}: {error}; row skipped",
                                   path=str(path), line=reader.line_num, error=str(error))
                    skipped += _note(problems, problem)
                    continue
                finally:
                    for line in overlong:
                        skipped += _note(problems, text(
                            "{path}, line {line}: longer than {n} characters; row skipped",
                            path=str(path), line=line, n=f"{MAX_LINE:,}"))
                    overlong.clear()
                if not row:  # (a blank line, or one too long)
                    continue
                entry = _entry({name: row[i] if i < len(row) else ""
                                for name, i in where.items()}) \
                    if len(row) <= len(header) else text("more cells than the header has")
                if isinstance(entry, NoticeEntry):
                    yield entry
                else:
                    skipped += _note(problems, text("{path}, line {line}: {problem}; row "
                                                    "skipped", path=str(path),
                                                    line=reader.line_num, problem=entry))
    except OSError as error:
        raise UserError(text("{path}: cannot be read ({error})", path=str(path),
                             error=error.strerror or str(error))) from None
    if skipped:
        problems.append(counted("{path}: %n more rows skipped", skipped, path=str(path)))


def _bounded_lines(handle: Any, path: Path, overlong: list[int]) -> Iterator[str]:
    """The lines of `handle`, each read in chunks of at most MAX_LINE characters: a
    longer one (a file without newlines) is read to its end and dropped, its number put
    in `overlong` and a blank line given instead. More than MAX_LINES lines: UserError."""
    number = 0
    while line := handle.readline(MAX_LINE):
        number += 1
        if number > MAX_LINES:
            raise UserError(text(
                "{path}: more than {n} lines, more than any Retraction Watch CSV; not "
                "read", path=str(path), n=f"{MAX_LINES:,}"))
        if len(line) >= MAX_LINE and not line.endswith(("\n", "\r")):
            while (rest := handle.readline(MAX_LINE)) and not rest.endswith(("\n", "\r")):
                pass
            overlong.append(number)
            line = "\n"
        yield line


def _note(problems: list[str], problem: str) -> int:
    """Keep `problem` if few are kept yet; 1 if it was only counted."""
    if len(problems) < MAX_PROBLEMS:
        problems.append(problem)
        return 0
    return 1


def _printable(value: str) -> str:
    """A cell as a problem line may show it: a control character (a terminal's escape,
    a bell, a newline) written as its escape, never sent to a terminal or a window."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in value)


def _entry(row: dict[str, str]) -> NoticeEntry | str:
    """The notice of one CSV row (its cells by column name), or what is wrong with it."""
    nature = _nature(row.get("RetractionNature") or "")
    if not nature:
        return text("unknown RetractionNature '{value}'",
                    value=_printable((row.get("RetractionNature") or "")[:40]))
    doi = normalize_doi(row.get("OriginalPaperDOI") or "")
    pmid = _pmid(row.get("OriginalPaperPubMedID") or "")
    if not doi and not pmid:
        return text("no OriginalPaperDOI or OriginalPaperPubMedID")
    notice_doi = normalize_doi(row.get("RetractionDOI") or "")
    return NoticeEntry(nature=nature, doi_norm=doi, pmid=pmid,
                       date=_date(row.get("RetractionDate") or ""), notice_doi=notice_doi,
                       notice_url=f"https://doi.org/{notice_doi}" if notice_doi else "",
                       reason=_reason(row.get("Reason") or "")[:2000],
                       source=RETRACTION_WATCH)


def crossref_entries(work: dict[str, Any]) -> list[NoticeEntry]:
    """The notices a Crossref work (the `message` of `works/{doi}`) tells of: each
    `updated-by` is a notice of this work; each `update-to` makes this work a notice of
    the work it names."""
    this = normalize_doi(str(work.get("DOI") or ""))
    found: list[NoticeEntry] = []
    for relation, of_this in (("updated-by", True), ("update-to", False)):
        updates = work.get(relation)
        for update in updates if isinstance(updates, list) else []:
            if not isinstance(update, dict):
                continue
            nature = CROSSREF_TYPES.get(str(update.get("type") or "").lower())
            other = normalize_doi(str(update.get("DOI") or ""))
            paper, notice = (this, other) if of_this else (other, this)
            if nature is None or not paper:
                continue
            found.append(NoticeEntry(
                nature=nature, doi_norm=paper, date=_parts_date(update.get("updated")),
                notice_doi=notice,
                notice_url=f"https://doi.org/{notice}" if notice else "",
                source=CROSSREF))
    return found


def _parts_date(value: Any) -> str:
    """Crossref's partial date ({"date-parts": [[2023, 5, 3]]}) as YYYY-MM-DD, or '' (a
    year of 10**20, or 1e400 that JSON reads as infinity, is no date)."""
    try:
        year, month, day = (int(p) for p in [*value["date-parts"][0], 1, 1][:3])
        if not (1 <= year <= 9999 and 1 <= month <= 12 and 1 <= day <= 31):
            return ""
        return datetime(year, month, day).date().isoformat()
    except (KeyError, IndexError, TypeError, ValueError, OverflowError):
        return ""


# -- storing --------------------------------------------------------------------------


def _insert(session: Session, entries: Iterable[NoticeEntry]) -> int:
    """Insert `entries` a batch at a time (the table's own insert: the ORM's bulk path
    took twice as long for 60,000 rows); how many."""
    table = Base.metadata.tables["notices"]
    now = utcnow()
    count = 0
    batch: list[dict[str, Any]] = []
    for entry in entries:
        batch.append({**entry.__dict__, "loaded_at": now})
        if len(batch) >= BATCH:
            session.execute(insert(table), batch)
            count, batch = count + len(batch), []
    if batch:
        session.execute(insert(table), batch)
        count += len(batch)
    return count


def stage(entries: Iterable[NoticeEntry], folder: str | Path) -> Path:
    """`entries` read to their end into a file in `folder` (a batch at a time), so that
    a big copy is parsed before the library is locked for writing; `staged` gives them
    back."""
    names = [f.name for f in fields(NoticeEntry)]
    target = Path(folder) / "staged-notices.sqlite"
    with closing(sqlite3.connect(target)) as staging:
        staging.execute("PRAGMA journal_mode = OFF")
        staging.execute(f"CREATE TABLE staged ({', '.join(names)})")
        rows = (tuple(entry.__dict__.values()) for entry in entries)
        while batch := list(islice(rows, BATCH)):
            staging.executemany(f"INSERT INTO staged VALUES ({', '.join('?' * len(names))})",
                                batch)
        staging.commit()
    return target


def staged(path: str | Path) -> Iterator[NoticeEntry]:
    """The notices `stage` wrote to `path`, in their order."""
    with closing(sqlite3.connect(path)) as staging:
        for row in staging.execute("SELECT * FROM staged ORDER BY rowid"):
            yield NoticeEntry(*row)


def replace_from_csv(ctx: Context, path: str | Path, problems: list[str]) -> int:
    """Replace the Retraction Watch notices with those of the CSV at `path` (read_csv:
    bad rows go to `problems`), read whole before the write; how many were stored. A
    UserError (no such CSV, too big) leaves the notices as they were."""
    with tempfile.TemporaryDirectory(prefix="papershelf-notices-") as folder:
        return replace_source(ctx, RETRACTION_WATCH, staged(stage(read_csv(path, problems),
                                                                   folder)))


def replace_source(ctx: Context, source: str, entries: Iterable[NoticeEntry]) -> int:
    """Replace every notice from `source` with `entries` (read as they are inserted, in
    batches), in one transaction; how many were stored."""
    with ctx.write() as session:
        session.execute(delete(Notice).where(Notice.source == source))
        count = _insert(session, entries)
        ctx.log(session, {BIB_FIELDS}, None)
    return count


def replace_for_dois(ctx: Context, dois: Iterable[str],
                     entries: Iterable[NoticeEntry]) -> int:
    """Replace what Crossref said of `dois` (normalised) with `entries`: its notices of
    those papers, and those papers' own notices of others."""
    dois = sorted({d for d in dois if d})
    if not dois:
        return 0
    with ctx.write() as session:
        for start in range(0, len(dois), 500):
            part = dois[start:start + 500]
            session.execute(delete(Notice).where(
                Notice.source == CROSSREF,
                or_(Notice.doi_norm.in_(part), Notice.notice_doi.in_(part))))
        count = _insert(session, {e: None for e in entries})
        ctx.log(session, {BIB_FIELDS}, None)
    return count


def count(ctx: Context) -> dict[str, int]:
    """How many notices each source gave."""
    with ctx.read() as session:
        return {source: int(n) for source, n in session.execute(
            select(Notice.source, func.count()).group_by(Notice.source))}


def loaded_at(ctx: Context, source: str) -> datetime | None:
    """When the notices from `source` were last read in (None: never)."""
    with ctx.read() as session:
        newest = session.scalar(select(func.max(Notice.loaded_at)).where(
            Notice.source == source))
    if newest is not None and newest.tzinfo is None:
        newest = newest.replace(tzinfo=timezone.utc)
    return newest


def dois_to_check(ctx: Context, ids: Sequence[int] | None = None) -> list[str]:
    """The DOIs (normalised) of the papers `ids` (None: every paper), to ask Crossref."""
    with ctx.read() as session:
        statement = select(func.lower(func.trim(Paper.doi))).where(Paper.doi != "")
        found: set[str] = set()
        if ids is None:
            found = {normalize_doi(d) for d in session.scalars(statement)}
        else:
            for id_set in ctx.store.id_sets(session, ids):
                found |= {normalize_doi(d)
                          for d in session.scalars(statement.where(Paper.id.in_(id_set)))}
    return sorted(found - {""})


# -- which papers they name -----------------------------------------------------------


def _pmid_of(dialect: str) -> Any:
    """The `pmid` BibTeX field of a paper's texts, as SQL (its JSON path spelled out: a
    bound path does not survive the views' statements compiled with their values)."""
    if dialect == "postgresql":
        return func.cast(PaperText.bib_fields, JSONB).op("->>")(literal_column("'pmid'"))
    return func.json_extract(PaperText.bib_fields, literal_column("'$.pmid'"))


def flag_clause(ctx: Context, natures: Sequence[str]) -> ColumnElement[bool]:
    """A WHERE clause on `papers` keeping the papers with a notice of one of `natures`
    (search's `is:retracted`, `is:corrected`), by DOI (the index on lower(doi)) or by
    PubMed id."""
    by_doi = exists().where(Notice.doi_norm == func.lower(Paper.doi),
                            Notice.nature.in_(natures), Notice.doi_norm != "")
    by_pmid = Paper.id.in_(select(PaperText.paper_id).join(
        Notice, Notice.pmid == _pmid_of(ctx.engine.dialect.name)).where(
        Notice.nature.in_(natures), Notice.pmid != ""))
    return or_(by_doi, by_pmid)


def _any(session: Session) -> bool:
    return session.scalar(select(Notice.id).limit(1)) is not None


def _matched(session: Session, id_set: Any) -> Iterator[tuple[int, Notice]]:
    """(paper id, notice) of each notice of the papers `id_set`."""
    yield from session.execute(select(Paper.id, Notice).join(
        Notice, Notice.doi_norm == func.lower(Paper.doi)).where(
        Paper.id.in_(id_set), Notice.doi_norm != ""))
    yield from session.execute(select(PaperText.paper_id, Notice).join(
        Notice, Notice.pmid == _pmid_of(session.get_bind().dialect.name)).where(
        PaperText.paper_id.in_(id_set), Notice.pmid != ""))


def natures(ctx: Context, session: Session, ids: Sequence[int]) -> dict[int, str]:
    """The most serious nature of the notices of each of the papers `ids` that has one
    (for the table's mark)."""
    found: dict[int, str] = {}
    if not ids or not _any(session):
        return found
    for id_set in ctx.store.id_sets(session, ids):
        for pid, notice in _matched(session, id_set):
            before = found.get(pid)
            if before is None or rank(notice.nature) < rank(before):
                found[pid] = notice.nature
    return found


def notices_of(ctx: Context, ids: Sequence[int]) -> dict[int, list[PaperNotice]]:
    """The notices of each of the papers `ids` that has some, the most serious first,
    then the newest; one per notice even when both DOI and PubMed id match it."""
    found: dict[int, dict[int, PaperNotice]] = {}
    with ctx.read() as session:
        if not ids or not _any(session):
            return {}
        for id_set in ctx.store.id_sets(session, ids):
            rows = list(_matched(session, id_set))
            papers = dict(session.execute(select(Paper.id, Paper.title).where(
                Paper.id.in_({pid for pid, _n in rows}))).all())
            years = dict(session.execute(select(Paper.id, Paper.year).where(
                Paper.id.in_(papers))).all())
            for pid, n in rows:
                found.setdefault(pid, {})[n.id] = PaperNotice(
                    pid, papers.get(pid, ""), years.get(pid), n.nature, n.date, n.notice_doi,
                    n.notice_url, n.reason, n.source)
    return {pid: _ordered(by_id.values()) for pid, by_id in found.items()}


def rank(nature: str) -> int:
    """How serious a nature is (0: a retraction); one this version does not know (any
    member may write `notices`, a newer client may know more) is the least."""
    return NATURES.index(nature) if nature in NATURES else len(NATURES)


def _ordered(notices: Iterable[PaperNotice]) -> list[PaperNotice]:
    """The most serious first, then the newest."""
    ordered = sorted(notices, key=lambda n: n.date, reverse=True)
    ordered.sort(key=lambda n: rank(n.nature))
    return ordered


def retracted(ctx: Context, ids: Sequence[int]) -> list[PaperNotice]:
    """The retraction notice of each retracted paper among `ids` (its newest), in the
    order of `ids`: what an export warns of."""
    found = notices_of(ctx, ids)
    return [notices[0] for pid in dict.fromkeys(ids) if (notices := found.get(pid))
            and notices[0].nature == RETRACTION]


def every_paper_notice(ctx: Context) -> list[PaperNotice]:
    """Every notice of a paper of the library (`retractions list`), paper by paper."""
    with ctx.read() as session:
        if not _any(session):
            return []
        ids = sorted({pid for pid, _n in _matched(session, select(Paper.id))})
    found = notices_of(ctx, ids)
    return [n for pid in ids for n in found.get(pid, [])]


def warning(notice: PaperNotice) -> str:
    """The line an export warns with: "Retracted: <title> (2023, notice 10.xxx)"."""
    year = notice.date[:4] or (str(notice.year) if notice.year else "")
    what = notice.notice_doi or notice.notice_url
    inside = ", ".join(p for p in (year, text("notice {doi}", doi=what) if what else "") if p)
    return text("Retracted: {title} ({details})", title=notice.title or "?",
                details=inside) if inside else text("Retracted: {title}",
                                                    title=notice.title or "?")


def warnings(ctx: Context, ids: Sequence[int]) -> list[str]:
    """One warning line for each retracted paper among `ids` (none: no line)."""
    return [warning(n) for n in retracted(ctx, ids)]
