"""OpenReview: a submission by its forum or note id, from API v2's `/notes?id=`.

The answer is `{"notes": [...], "count": n}`; each note's fields sit in `content`, every
one wrapped as `{"value": ...}` (OpenReview docs, "Note: Fields"): `title`, `authors`,
`abstract`, `pdf` (a path on openreview.net), `venue` ("ICML 2024 Poster") and `_bibtex`,
the BibTeX OpenReview itself offers, whose booktitle and year name the venue properly. A
note whose `forum` is another note is a reply; its submission is that forum.
"""

from __future__ import annotations

from datetime import datetime, timezone

from papershelf.formats.bibtex import parse_bibtex
from papershelf.formats.records import FormatError, PaperRecord
from papershelf.metadata.http import Reply, ServiceClient
from papershelf.metadata.services._common import as_dict, as_list, as_str, people, with_raw

__all__ = ["fetch"]

SITE = "https://openreview.net"


def fetch(note_id: str, client: ServiceClient) -> PaperRecord:
    """The submission `note_id` names (a forum id, or the id of a note in its forum)."""
    reply, note = _note(note_id, client)
    forum = as_str(note.get("forum"))
    if forum and forum != as_str(note.get("id")):
        reply, note = _note(forum, client)
    return _record(reply, note)


def _note(note_id: str, client: ServiceClient) -> tuple[Reply, dict[str, object]]:
    """The note with id `note_id`, and the answer it came in."""
    reply = client.get(
        "openreview", "/notes", {"id": note_id}, accept="application/json",
        what=f"OpenReview {note_id}",
    )  # fmt: skip
    data = as_dict(reply.json())
    if "notes" not in data:
        raise reply.malformed("no notes")
    notes = as_list(data["notes"])
    if not notes:
        raise reply.fail(f"not found (OpenReview {note_id})", "not-found")
    return reply, as_dict(notes[0])


def _value(content: dict[str, object], name: str) -> object:
    """A content field's value (API v2 wraps each as {"value": ...})."""
    return as_dict(content.get(name)).get("value")


def _record(reply: Reply, note: dict[str, object]) -> PaperRecord:
    """The paper a submission note describes."""
    content = as_dict(note.get("content"))
    title = " ".join(as_str(_value(content, "title")).split())
    if not title:
        raise reply.malformed("a note without a title")
    note_id = as_str(note.get("id"))
    from_bibtex = _from_bibtex(as_str(_value(content, "_bibtex")))
    venue = from_bibtex.venue if from_bibtex else as_str(_value(content, "venue"))
    year = from_bibtex.year if from_bibtex else None
    if year is None:
        stamp = note.get("pdate") or note.get("cdate")
        if isinstance(stamp, int):
            year = datetime.fromtimestamp(stamp / 1000, tz=timezone.utc).year
    pdf = as_str(_value(content, "pdf"))
    if pdf.startswith("/"):
        pdf = SITE + pdf
    record = PaperRecord(
        entry_type=from_bibtex.entry_type if from_bibtex else "inproceedings",
        title=title,
        authors=people(as_str(name) for name in as_list(_value(content, "authors"))),
        abstract=as_str(_value(content, "abstract")).strip(),
        venue=venue,
        year=year,
        url=f"{SITE}/forum?id={note_id}",
    )
    return with_raw(record, {"openreview": note_id, "pdf": pdf})


def _from_bibtex(source: str) -> PaperRecord | None:
    """The record of OpenReview's own BibTeX for the note, if it has readable BibTeX."""
    if not source.strip():
        return None
    try:
        result = parse_bibtex(source, "OpenReview _bibtex")
    except FormatError:
        return None
    return result.records[0] if result.records else None
