"""The biblatex flavour of the writer, and arXiv identifiers.

biber reads `date`, `journaltitle`, `@online` and `eprint`/`eprinttype` where classic
BibTeX styles read year/month, journal, `@misc` and a URL; `to_biblatex` renames an
entry's fields accordingly. `arxiv_id` finds an entry's arXiv identifier wherever it is
written (the library also matches duplicates by it); `with_arxiv_eprint` adds it to a
classic entry as arXiv's own BibTeX writes it (`eprint`, `archivePrefix`).
"""

from __future__ import annotations

import re

from papershelf.formats.bibtex.fields import MONTHS

__all__ = ["arxiv_id", "to_biblatex", "with_arxiv_eprint"]

_ARXIV_ID = r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)"
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs|pdf)/" + _ARXIV_ID, re.IGNORECASE)
_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\." + _ARXIV_ID + "$", re.IGNORECASE)
_ARXIV_TEXT_RE = re.compile(r"(?:arxiv:|corr\s*,?\s*abs/)\s*" + _ARXIV_ID, re.IGNORECASE)
_ARXIV_BARE_RE = re.compile(_ARXIV_ID + "$")
_MONTH_NUMBERS = {name: f"{i:02d}" for i, name in enumerate(MONTHS, start=1)}
_ONLINE_VENUES = (
    "howpublished", "journal", "journaltitle", "booktitle", "publisher", "institution",
    "school", "organization",
)  # fmt: skip


def arxiv_id(fields: dict[str, str]) -> str | None:
    """The arXiv identifier of an entry's fields, if any: from eprint, doi or url, else an
    `arXiv:...`/`CoRR abs/...` mention in journal, note, howpublished or volume."""
    eprint = fields.get("eprint", "").strip()
    kind = (fields.get("eprinttype") or fields.get("archiveprefix") or "").strip().lower()
    if eprint and (kind == "arxiv" or (not kind and _ARXIV_BARE_RE.match(eprint))):
        return eprint
    match = _ARXIV_DOI_RE.match(fields.get("doi", "").strip())
    if match:
        return match.group(1)
    match = _ARXIV_URL_RE.search(fields.get("url", ""))
    if match:
        return match.group(1).removesuffix(".pdf")
    for name in ("journal", "note", "howpublished", "volume"):
        match = _ARXIV_TEXT_RE.search(fields.get(name, ""))
        if match:
            return match.group(1)
    return None


def _month_number(value: str) -> str | None:
    """'January', 'jan', '1', '{Jan.}' as '01'; None if it is not a month."""
    text = value.strip("{} .").lower()
    if text.isdigit() and 1 <= int(text) <= 12:
        return f"{int(text):02d}"
    return _MONTH_NUMBERS.get(text[:3]) if len(text) >= 3 else None


def to_biblatex(
    entry_type: str, fields: list[tuple[str, str]]
) -> tuple[str, list[tuple[str, str]]]:
    """BibLaTeX names for classic BibTeX fields: date, journaltitle, @online, eprint."""
    values = dict(fields)
    renamed: dict[str, str] = {"archiveprefix": "eprinttype", "primaryclass": "eprintclass"}
    dropped: set[str] = set()
    extra: list[tuple[str, str]] = []
    year = values.get("year", "").strip()
    if "date" not in values and len(year) == 4 and year.isdigit():
        month = _month_number(values.get("month", "")) if "month" in values else None
        if month is not None or "month" not in values:
            renamed["year"] = "date"
            values["year"] = f"{year}-{month}" if month else year
            dropped.add("month")
    if entry_type == "article" and "journaltitle" not in values:
        renamed["journal"] = "journaltitle"
    online = entry_type in ("misc", "online") and "url" in values
    if online and not any(name in values for name in _ONLINE_VENUES):
        entry_type = "online"
    if "eprint" not in values:
        found = arxiv_id(values)
        if found is not None:
            extra = [("eprint", found), ("eprinttype", "arxiv")]
    elif (
        "eprinttype" not in values
        and "archiveprefix" not in values
        and _ARXIV_BARE_RE.match(values["eprint"].strip())
    ):
        extra = [("eprinttype", "arxiv")]
    out: list[tuple[str, str]] = []
    for name, _value in fields:
        if name in dropped:
            continue
        out.append((renamed.get(name, name), values[name]))
    return entry_type, out + extra


def with_arxiv_eprint(fields: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A classic BibTeX entry's fields with `eprint` and `archivePrefix = {arXiv}`, as
    arXiv's own BibTeX has them, when its DOI or URL names an arXiv preprint and it has
    no `eprint` yet."""
    values = dict(fields)
    if "eprint" in values:
        return fields
    found = arxiv_id(values)
    if found is None:
        return fields
    return [*fields, ("eprint", found), ("archiveprefix", "arXiv")]
