"""What a user pastes to name a paper, read into one `Identifier`; and the links a record
names, for opening a paper to read.

`parse_identifier` reads a DOI, an arXiv id, an OpenReview, PMLR, ACL Anthology or DBLP
link or id, in the forms people copy them (prefixes, URLs, percent-encoding, a trailing
period or a tracking parameter from the paste), and takes anything else for a title.
`links` goes the other way: from a record's DOI, URL and BibTeX fields to the pages and
PDFs it names. Nothing here fetches anything: it is text in, text out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, quote, unquote, urlsplit

from papershelf.formats.records import PaperRecord

__all__ = [
    "Identifier",
    "Kind",
    "best_page",
    "best_pdf",
    "links",
    "page_url",
    "parse_identifier",
    "parse_many",
    "pdf_url",
]

Kind = Literal["doi", "arxiv", "openreview", "pmlr", "acl", "dblp", "title"]


@dataclass(frozen=True)
class Identifier:
    """A paper's identifier, normalised: `doi` lower case without a prefix
    ("10.1145/3368089.3409741"); `arxiv` the id without "arXiv:" and with its version if
    one was given ("2402.01234v2", "hep-th/9901001"); `openreview` the forum/note id
    ("01M0N8VgfB"); `pmlr` volume and paper ("v235/scott24a"); `acl` the Anthology id
    ("2023.acl-long.1", "P19-1001"); `dblp` the record key ("conf/icml/ScottC24"); `title`
    the text as given, spaces collapsed."""

    kind: Kind
    value: str


# A DOI: "10.", a registrant code, "/", then anything but spaces (the suffix may hold
# brackets, semicolons and angle brackets; what a paste adds at the end is cut off).
_DOI = r"10\.\d{4,9}(?:\.\d+)*/[^\s\"]+"
_DOI_RE = re.compile(_DOI)
_DOI_WORD_RE = re.compile(r"(?i)\bdoi\s*[:=]?\s*(?=10\.)")
_ARXIV_DOI_RE = re.compile(r"(?i)^10\.48550/arxiv\.(.+)$")
# arXiv: new style (YYMM.NNNNN since 2015, YYMM.NNNN before) and old style
# (archive[.SUBJECT]/YYMMNNN), with an optional version.
_ARXIV_NEW = r"\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:[vV]\d+)?"
_ARXIV_OLD = r"[a-zA-Z]+(?:-[a-zA-Z]+)*(?:\.[A-Za-z]{2})?/\d{2}(?:0[1-9]|1[0-2])\d{3}(?:[vV]\d+)?"
_ARXIV_ID = f"(?:{_ARXIV_NEW}|{_ARXIV_OLD})"
_ARXIV_RE = re.compile(f"^{_ARXIV_ID}$")
_ARXIV_PREFIXED_RE = re.compile(rf"(?i)\barxiv\s*[:.]?\s*({_ARXIV_ID})(?![\w/])")
_ARXIV_HOSTS = frozenset({
    "arxiv.org", "export.arxiv.org", "ar5iv.org", "ar5iv.labs.arxiv.org", "alphaxiv.org",
})
_ARXIV_PATH_RE = re.compile(rf"^/(?:abs|pdf|html|format|ps)/({_ARXIV_ID})(?:\.pdf)?/?$")
_OPENREVIEW_ID_RE = re.compile(r"^[A-Za-z0-9_-]{5,}$")
_PMLR_PATH_RE = re.compile(
    r"^/(?:proceedings/papers/)?([vr]\d+)/([A-Za-z][\w-]*?)"
    r"(?:\.html|\.pdf|/\2(?:-supp)?\.pdf|/)?$")
_PMLR_GITHUB_RE = re.compile(r"^/mlresearch/(v\d+)/[^/]+/assets/([A-Za-z][\w-]*)/\2\.pdf$")
_PMLR_KEY_RE = re.compile(r"(?i)^pmlr-(v\d+)-([a-z][\w-]*)$")
_ACL_ID = r"(?:\d{4}\.[a-zA-Z][a-zA-Z0-9]*(?:-[a-zA-Z0-9]+)*\.\d+|[A-Za-z]\d{2}-\d{4})"
_ACL_RE = re.compile(f"^{_ACL_ID}$")
_ACL_PATH_RE = re.compile(rf"^/(?:anthology/)?({_ACL_ID})(?:\.pdf|\.bib|\.xml)?/?$")
_DBLP_KEY = r"(?:conf|journals|books|series|phd|reference|tr|ms|persons|homepages|informal)" \
            r"/[\w.+-]+(?:/[\w.+-]+)+"
_DBLP_KEY_RE = re.compile(f"^{_DBLP_KEY}$")
_DBLP_PREFIXED_RE = re.compile(rf"(?i)^dblp:\s*({_DBLP_KEY})$")
_DBLP_HOSTS = frozenset({"dblp.org", "dblp.uni-trier.de", "dblp.dagstuhl.de"})
_DBLP_PATH_RE = re.compile(rf"^/rec/(?:(?:bibtex|bib|bibtex1|bibtex2|xml|html)/)?({_DBLP_KEY})$")
_DBLP_SUFFIX_RE = re.compile(r"\.(?:html|bib|xml|ris|nt|ttl|rdf)/?$|/$")
_URL_RE = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>\"]+")
_SCHEMELESS_RE = re.compile(
    r"(?i)^(?:www\.)?(?:[a-z0-9-]+\.)*(?:doi\.org|arxiv\.org|openreview\.net|mlr\.press"
    r"|aclanthology\.org|aclweb\.org|dblp\.org|dblp\.uni-trier\.de|dblp\.dagstuhl\.de)/")
# What a paste adds around an identifier: brackets, quotes, and punctuation at the end.
_WRAPPERS = (("<", ">"), ("(", ")"), ("[", "]"), ('"', '"'), ("'", "'"), ("“", "”"),
             ("‘", "’"), ("«", "»"))
_TRAILING = ".,;:!?'\"”’»"
_SPACES_RE = re.compile(r"\s+")


def parse_identifier(text: str) -> Identifier:
    """The identifier `text` names, or a `title` when it names none.

    Raises ValueError for empty text and for a web link that is not one Papershelf can
    read as a paper (a search with the link as a title would find nothing useful)."""
    cleaned = _SPACES_RE.sub(" ", text).strip()
    if not cleaned:
        raise ValueError("Nothing to look up: paste a DOI, an arXiv id, a paper's link or "
                         "its title.")
    core = _unwrap(cleaned)
    whole = _whole(core)
    if whole is not None:
        return whole
    if " " not in core and _looks_like_url(core):
        raise ValueError(f"{core} is not a link Papershelf can read as a paper; paste its "
                         "DOI, arXiv id or title instead.")
    inside = _inside(cleaned)
    if inside is not None:
        return inside
    return Identifier("title", _title(cleaned))


def parse_many(text: str) -> list[Identifier]:
    """One identifier for each non-empty line of `text` (a pasted list), in order.

    Raises ValueError naming the line of the first that cannot be read."""
    found: list[Identifier] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            found.append(parse_identifier(line))
        except ValueError as exc:
            raise ValueError(f"Line {number}: {exc}") from None
    return found


def _unwrap(text: str) -> str:
    """`text` without the brackets or quotes around it and the punctuation after it."""
    while True:
        before = text
        text = text.rstrip(_TRAILING + " ")
        for opening, closing in _WRAPPERS:
            if text.startswith(opening) and text.endswith(closing) and len(text) > 2:
                text = text[1:-1].strip()
        if text.startswith("<") and ">" not in text:
            text = text[1:]
        if text == before:
            return text


def _title(text: str) -> str:
    """A pasted title: spaces collapsed, without the quotes around it or a final period."""
    text = _SPACES_RE.sub(" ", text).strip()
    for opening, closing in _WRAPPERS[3:]:
        if text.startswith(opening) and text.endswith(closing) and len(text) > 2:
            text = text[1:-1].strip()
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1].rstrip()
    return text


def _looks_like_url(text: str) -> bool:
    return bool(re.match(r"(?i)^(?:https?://|www\.)", text) or _SCHEMELESS_RE.match(text))


def _whole(text: str) -> Identifier | None:
    """The identifier that all of `text` is, if it is one."""
    if _looks_like_url(text):
        return _from_url(text)
    lowered = text.lower()
    for prefix in ("doi:", "doi "):
        if lowered.startswith(prefix):
            return _doi(text[len(prefix):].strip())
    if lowered.startswith("arxiv"):
        match = _ARXIV_PREFIXED_RE.fullmatch(text)
        if match:
            return _arxiv(match.group(1))
    if _DOI_RE.fullmatch(text):
        return _doi(text)
    if _ARXIV_RE.match(text):
        return _arxiv(text)
    if _ACL_RE.match(text):
        return _acl(text)
    match = _DBLP_PREFIXED_RE.match(text)
    if match or _DBLP_KEY_RE.match(text):
        return Identifier("dblp", match.group(1) if match else text)
    match = _PMLR_KEY_RE.match(text)
    if match:
        return Identifier("pmlr", f"{match.group(1).lower()}/{match.group(2)}")
    return None


def _inside(text: str) -> Identifier | None:
    """The first identifier named inside longer text (a reference, a sentence): a link
    Papershelf reads, a DOI, or an id written "arXiv:..."."""
    hits: list[tuple[int, Identifier]] = []
    for match in _URL_RE.finditer(text):
        found = _from_url(_unwrap(match.group()))
        if found is not None:
            hits.append((match.start(), found))
            break
    for match in _DOI_RE.finditer(text):
        doi = _doi(match.group())
        if doi is not None:
            hits.append((match.start(), doi))
            break
    arxiv = _ARXIV_PREFIXED_RE.search(text)
    if arxiv:
        hits.append((arxiv.start(), _arxiv(arxiv.group(1))))
    return min(hits, key=lambda hit: hit[0])[1] if hits else None


def _arxiv(value: str) -> Identifier:
    """An arXiv id as stored: new style as is, version with a lower-case "v"; old style
    with a lower-case archive and an upper-case subject class ("math.GT/0309136")."""
    value = re.sub(r"[vV](\d+)$", r"v\1", value)
    if "/" in value:
        archive, number = value.split("/", 1)
        name, _, subject = archive.partition(".")
        archive = name.lower() + (f".{subject.upper()}" if subject else "")
        value = f"{archive}/{number}"
    return Identifier("arxiv", value)


def _acl(value: str) -> Identifier:
    """An ACL Anthology id as the Anthology writes it: "2023.acl-long.1", "P19-1001"."""
    return Identifier("acl", value.lower() if "." in value else value.upper())


def _trim_doi(value: str) -> str:
    """A DOI without what a paste or a sentence adds after it: closing punctuation, and
    a closing bracket that has no opening one in the DOI."""
    openers = {")": "(", "]": "[", "}": "{", ">": "<"}
    while value:
        last = value[-1]
        unbalanced = last in openers and value.count(last) > value.count(openers[last])
        if last not in _TRAILING and not unbalanced:
            break
        value = value[:-1]
    return value


def _doi(value: str) -> Identifier | None:
    """A DOI (already without "doi:"/a resolver) as an Identifier: the arXiv's DOIs as
    their arXiv id; None if `value` is not a DOI."""
    value = _trim_doi(unquote(value.strip()))
    if value.lower().startswith("doi:"):
        value = value[4:].strip()
    if not _DOI_RE.fullmatch(value):
        return None
    arxiv = _ARXIV_DOI_RE.match(value)
    if arxiv and _ARXIV_RE.match(arxiv.group(1)):
        return _arxiv(arxiv.group(1))
    return Identifier("doi", value.lower())


def _from_url(text: str) -> Identifier | None:
    """The paper a web link names, if it is a link Papershelf reads (None otherwise).
    Query parameters other than the ones that name the paper are ignored."""
    if not re.match(r"(?i)^https?://", text):
        text = "https://" + text
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path)
    if host in ("doi.org", "dx.doi.org") or host.endswith(".doi.org"):
        return _doi(path.lstrip("/"))
    if host in _ARXIV_HOSTS:
        match = _ARXIV_PATH_RE.match(path)
        return _arxiv(match.group(1)) if match else None
    if host == "huggingface.co":
        match = re.match(rf"^/papers/({_ARXIV_ID})/?$", path)
        return _arxiv(match.group(1)) if match else None
    if host == "openreview.net":
        if path.rstrip("/") not in ("/forum", "/pdf", "/attachment"):
            return None
        query = parse_qs(parts.query)
        for name in ("id", "noteId"):
            values = query.get(name)
            if values and _OPENREVIEW_ID_RE.match(values[0]):
                return Identifier("openreview", values[0])
        return None
    if host in ("proceedings.mlr.press", "mlr.press", "jmlr.org"):
        if host == "jmlr.org" and not path.startswith("/proceedings/papers/"):
            return None
        match = _PMLR_PATH_RE.match(path)
        return Identifier("pmlr", f"{match.group(1)}/{match.group(2)}") if match else None
    if host == "raw.githubusercontent.com":
        match = _PMLR_GITHUB_RE.match(path)
        return Identifier("pmlr", f"{match.group(1)}/{match.group(2)}") if match else None
    if host in ("aclanthology.org", "aclweb.org"):
        match = _ACL_PATH_RE.match(path)
        return _acl(match.group(1)) if match else None
    if host in _DBLP_HOSTS:
        match = _DBLP_PATH_RE.match(_DBLP_SUFFIX_RE.sub("", path))
        return Identifier("dblp", match.group(1)) if match else None
    return _publisher_doi(host, path)


def _publisher_doi(host: str, path: str) -> Identifier | None:
    """The DOI in a publisher's link (".../doi/10.1145/...", Springer, bioRxiv, Nature)."""
    if host.endswith("nature.com"):
        match = re.match(r"^/articles/([a-z0-9][\w.-]+?)(?:\.pdf)?/?$", path)
        return Identifier("doi", f"10.1038/{match.group(1).lower()}") if match else None
    match = _DOI_RE.search(path)
    if not match:
        return None
    value = match.group()
    if host.endswith(("biorxiv.org", "medrxiv.org")):
        value = re.sub(r"(?:v\d+)?(?:\.full(?:\.pdf|-text)?|\.abstract|\.pdf)?/?$", "", value)
    else:
        value = re.sub(r"(?i)(?:\.pdf|/pdf|/full|/abstract)/?$", "", value).rstrip("/")
    return _doi(value)


# --- Links a record names -------------------------------------------------------------

_PAGE_ORDER = ("pmlr", "acl", "doi", "url", "arxiv", "openreview", "dblp")
_PDF_ORDER = ("url_pdf", "pmlr_pdf", "acl_pdf", "arxiv_pdf", "openreview_pdf")
_PMLR_KEY_SHAPE_RE = re.compile(r"^[a-z][a-z-]*(\d{2})[a-z]{0,2}$")
# Venues whose proceedings are PMLR volumes (since `_PMLR_SINCE`), named in a booktitle.
_PMLR_VENUES = (
    "international conference on machine learning",
    "artificial intelligence and statistics",
    "conference on learning theory",
)
_PMLR_SINCE = 2013
_LATEX_URL_RE = re.compile(r"\\url\s*\{([^{}]*)\}")
_LATEX_ESCAPE_RE = re.compile(r"\\([_%&#~$])")


def page_url(identifier: Identifier) -> str | None:
    """The web page of the paper `identifier` names (None for a title)."""
    kind, value = identifier.kind, identifier.value
    if kind == "doi":
        return "https://doi.org/" + quote(value, safe="/:;()[]._-~,")
    if kind == "arxiv":
        return f"https://arxiv.org/abs/{value}"
    if kind == "openreview":
        return f"https://openreview.net/forum?id={quote(value, safe='')}"
    if kind == "pmlr":
        return f"https://proceedings.mlr.press/{value}.html"
    if kind == "acl":
        return f"https://aclanthology.org/{value}/"
    if kind == "dblp":
        return f"https://dblp.org/rec/{quote(value, safe='/')}.html"
    return None


def pdf_url(identifier: Identifier) -> str | None:
    """Where the PDF of the paper `identifier` names is, when its kind says so (arXiv,
    OpenReview, PMLR, the ACL Anthology); None otherwise."""
    kind, value = identifier.kind, identifier.value
    if kind == "arxiv":
        return f"https://arxiv.org/pdf/{value}"
    if kind == "openreview":
        return f"https://openreview.net/pdf?id={quote(value, safe='')}"
    if kind == "pmlr":
        volume, paper = value.split("/", 1)
        return f"https://proceedings.mlr.press/{volume}/{paper}/{paper}.pdf"
    if kind == "acl":
        return f"https://aclanthology.org/{value}.pdf"
    return None


def links(record: PaperRecord) -> dict[str, str]:
    """The web pages and PDFs `record` names, for opening it to read: one page per
    identifier it has ("doi", "arxiv", "openreview", "pmlr", "acl", "dblp"), its own
    "url" when that is none of them, the PDFs ("url_pdf" for a PDF link of its own,
    "arxiv_pdf", "openreview_pdf", "pmlr_pdf", "acl_pdf"), and the best of each as
    "page" and "pdf". Only http(s) links come out."""
    found = _identifiers(record)
    out: dict[str, str] = {}
    for kind, identifier in found.items():
        page = page_url(identifier)
        if page:
            out[kind] = page
        pdf = pdf_url(identifier)
        if pdf:
            out[f"{kind}_pdf"] = pdf
    for value in (record.url, _raw(record, "url")):
        url = _web_url(value)
        if url and _from_url(url) is None:
            out.setdefault("url_pdf" if _is_pdf(url) else "url", url)
    pdf = _web_url(_raw(record, "pdf"))
    if pdf and _from_url(pdf) is None:
        out["url_pdf"] = pdf
    page = next((out[key] for key in _PAGE_ORDER if key in out), None)
    best = next((out[key] for key in _PDF_ORDER if key in out), None)
    if page:
        out["page"] = page
    if best:
        out["pdf"] = best
    return out


def best_page(record: PaperRecord) -> str | None:
    """The page to open for reading `record` (proceedings, DOI, its own link, arXiv,
    OpenReview, DBLP, in that order of preference), or None when it names none."""
    return links(record).get("page")


def best_pdf(record: PaperRecord) -> str | None:
    """The PDF to open for reading `record` (its own PDF link, the proceedings', arXiv's,
    OpenReview's), or None when it names none."""
    return links(record).get("pdf")


def _raw(record: PaperRecord, name: str) -> str:
    """A raw BibTeX field of `record` (or one it inherits), as plain text."""
    value = record.raw.get(name) or record.inherited.get(name) or ""
    match = _LATEX_URL_RE.search(value)
    if match:
        value = match.group(1)
    return _LATEX_ESCAPE_RE.sub(r"\1", value).strip().strip("{}").strip()


def _web_url(value: str) -> str | None:
    """`value` if it is an http(s) link with a host and no spaces, else None."""
    value = value.strip()
    if not value or any(ch.isspace() or ord(ch) < 32 for ch in value):
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return value


def _is_pdf(url: str) -> bool:
    return urlsplit(url).path.lower().endswith(".pdf")


def _identifiers(record: PaperRecord) -> dict[str, Identifier]:
    """Every identifier `record` names, at most one of each kind, the first found kept:
    from its DOI, its links, its arXiv fields, an `openreview` field, a DBLP key or
    `biburl`, and the shape of a PMLR entry."""
    found: dict[str, Identifier] = {}

    def add(identifier: Identifier | None) -> None:
        if identifier is not None and identifier.kind != "title":
            found.setdefault(identifier.kind, identifier)

    for value in (record.doi, _raw(record, "doi")):
        if value:
            add(_doi(_strip_resolver(value)))
    for value in (record.url, _raw(record, "url"), _raw(record, "pdf"),
                  _raw(record, "biburl")):
        url = _web_url(value)
        if url:
            add(_from_url(url))
    add(_arxiv_of(record))
    openreview = _raw(record, "openreview")
    if openreview:
        url = _web_url(openreview)
        if url:
            add(_from_url(url))
        elif _OPENREVIEW_ID_RE.match(openreview):
            add(Identifier("openreview", openreview))
    for value in (_raw(record, "howpublished"), _raw(record, "note")):
        match = _URL_RE.search(value)
        if match:
            add(_from_url(_unwrap(match.group())))
    if record.key:
        match = _DBLP_PREFIXED_RE.match(record.key)
        if match:
            add(Identifier("dblp", match.group(1)))
        add(_pmlr_of(record))
    return found


def _strip_resolver(value: str) -> str:
    """A DOI field's value without a resolver or "doi:" in front."""
    value = value.strip()
    match = re.match(r"(?i)^(?:https?://)?(?:dx\.)?doi\.org/|^doi:\s*", value)
    return value[match.end():] if match else value


def _arxiv_of(record: PaperRecord) -> Identifier | None:
    """The arXiv id in a record's BibTeX fields (eprint, a journal or note "arXiv:...")."""
    from papershelf.formats.bibtex import arxiv_id

    fields = {**record.inherited, **record.raw}
    value = arxiv_id({name: _raw(record, name) for name in fields})
    if not value:
        return None
    value = re.sub(r"(?i)^arxiv\s*[:.]?\s*", "", value.strip())
    return _arxiv(value) if _ARXIV_RE.match(value) else None


def _pmlr_of(record: PaperRecord) -> Identifier | None:
    """The PMLR paper a record is, from its key: "pmlr-v235-scott24a" as PMLR writes
    BibTeX keys, or the paper id alone ("scott24a", as PMLR's own volume files have it)
    when the year, a numeric volume and a PMLR venue agree with it."""
    key = record.key or ""
    match = _PMLR_KEY_RE.match(key)
    if match:
        return Identifier("pmlr", f"{match.group(1).lower()}/{match.group(2)}")
    shape = _PMLR_KEY_SHAPE_RE.match(key)
    volume = record.volume or _raw(record, "volume")
    if not shape or not volume.isdigit() or record.year is None:
        return None
    if int(shape.group(1)) != record.year % 100 or record.year < _PMLR_SINCE:
        return None
    where = " ".join(
        _raw(record, name) for name in ("publisher", "series", "booktitle", "journal")
    ) + " " + record.venue + " " + record.publisher
    lowered = where.lower()
    if "pmlr" in lowered or "machine learning research" in lowered or any(
            venue in lowered for venue in _PMLR_VENUES):
        return Identifier("pmlr", f"v{volume}/{key}")
    return None
