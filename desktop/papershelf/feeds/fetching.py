"""Asking a followed source for what is new, politely, and reading its answer.

Every request goes through the project's HTTP client (metadata.http: its spacing per
service, retries, size limit, offline mode), to the service's root that
PAPERSHELF_<SERVICE>_URL overrides: arXiv's API (`/api/query`, an Atom feed), Crossref
(`/journals/{issn}/works`), OpenAlex (`/works?filter=author.id:…`), Semantic Scholar
(`/graph/v1/author/{id}/papers`, newest published first), DBLP (the author's page
`/pid/{pid}.xml`, records changed since the last check); a feed's own address
goes to whichever service owns its host, else "web". A feed is asked with a conditional
GET (the ETag and Last-Modified of its last answer, kept with the source) past the
client's day-long cache, so a feed that did not change costs a 304 and nothing more.

Feeds are read with feedparser; every XML answer first passes defusedxml (no entity
declarations, no external references: a feed that needs one is refused). What a source
gives is bounded (`MAX_BYTES` read, `MAX_ITEMS` kept); entries without a title are
skipped and repeated ones dropped, and what went wrong is one note for the source.
"""

from __future__ import annotations

import calendar
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import feedparser
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError
from defusedxml.ElementTree import fromstring as safe_xml

from papershelf.core.ingest import normalize_text
from papershelf.feeds.parsing import SPLIT_BYTES, Helper, parts, shares
from papershelf.formats.records import PaperRecord
from papershelf.messages import listed, plural, text
from papershelf.metadata.http import Reply, ServiceClient
from papershelf.metadata.identifiers import parse_identifier
from papershelf.metadata.services import crossref, dblp, openalex
from papershelf.metadata.services._common import (
    as_dict,
    as_list,
    as_str,
    markup_to_text,
    people,
)

__all__ = ["MAX_BYTES", "MAX_ITEMS", "Fetched", "Found", "ask", "fetch", "identities"]

MAX_BYTES = 4 * 1024 * 1024  # (a feed of 200 papers with abstracts is ~0.5 MB)
MAX_ITEMS = 200  # kept of one answer, newest first as the source orders them
ASKED = 100  # entries asked of an API in one check
TITLE_CHARS = 120  # of a feed's own title kept as its name
FIRST_DAYS = 14  # how far back the first check of a journal or author looks
_FEED_TYPES = ("application/atom+xml, application/rss+xml, application/xml;q=0.9, "
               "text/xml;q=0.8, */*;q=0.1")
_ARXIV_ABS_RE = re.compile(r"(?i)arxiv\.org/abs/([^\s?#]+?)(?:v\d+)?$")
_VERSION_RE = re.compile(r"v\d+$")
_AUTHOR_SPLIT_RE = re.compile(r"\s*(?:,|;|\band\b)\s*")


@dataclass
class Found:
    """One paper a source gave: what the inbox shows of it."""

    title: str
    authors: list[str] = field(default_factory=list)
    abstract: str = ""
    url: str = ""
    doi: str = ""
    arxiv_id: str = ""
    venue: str = ""
    published: datetime | None = None


@dataclass
class Fetched:
    """What one check of a source gave: its papers (none when it had not changed), the
    validators for the next check, and the note to keep on the source ('' if none)."""

    items: list[Found] = field(default_factory=list)
    etag: str = ""
    last_modified: str = ""
    not_modified: bool = False
    note: str = ""
    title: str = ""  # the title a feed gives itself ('' if none)


Reader = Callable[[Helper | None], Fetched]  # (`ask`'s: reads the answer)


def identities(item: Found) -> list[str]:
    """What tells `item` apart, best first: "doi:…", "arxiv:…" (no version), "title:…"
    (normalised as the library's duplicate check does)."""
    found = []
    if item.doi:
        found.append("doi:" + item.doi.lower())
    if item.arxiv_id:
        found.append("arxiv:" + _VERSION_RE.sub("", item.arxiv_id))
    if title := normalize_text(item.title):
        found.append("title:" + title)
    return found


def fetch(client: ServiceClient, kind: str, value: str, *, category: bool = False,
          search: bool = False, etag: str = "", last_modified: str = "",
          since: datetime | None = None) -> Fetched:
    """Ask the source (`kind`, `value` as `sources.Spec` has them) for its newest papers.
    Raises ServiceError when it cannot be asked or its answer is not what it should be
    (the caller keeps the error's message as the source's note)."""
    return ask(client, kind, value, category=category, search=search, etag=etag,
               last_modified=last_modified, since=since)(None)


def ask(client: ServiceClient, kind: str, value: str, *, category: bool = False,
        search: bool = False, etag: str = "", last_modified: str = "",
        since: datetime | None = None) -> Reader:
    """`fetch` in two steps: ask the source and read its answer (waiting on the
    network: a thread of its own may do it), and what reads the answer into papers
    (the CPU's work, done where the caller wants it: feeds.inbox.check reads each answer
    as it comes while others are asked, a long feed's parts in its helper process when
    given one: feeds.parsing). Both raise ServiceError as `fetch` says."""
    since = since or datetime.now(timezone.utc) - timedelta(days=FIRST_DAYS)
    if kind == "arxiv":
        query = f"cat:{value}" if category else " AND ".join(
            f"all:{word}" for word in value.split())
        reply = client.get("arxiv", "/api/query", {
            "search_query": query, "sortBy": "submittedDate", "sortOrder": "descending",
            "start": "0", "max_results": str(ASKED)},
            accept="application/atom+xml", max_bytes=MAX_BYTES, cache=False,
            headers=_validators(etag, last_modified), what=f"arXiv {value}")
        return lambda helper: _from_feed(reply, helper)
    if kind in ("issn", "crossref"):
        # (a journal's works, or works found by the words: both newest indexed first)
        path, asked, what = (f"/journals/{quote(value)}/works", {}, f"journal {value}") \
            if kind == "issn" else ("/works", {"query.bibliographic": value},
                                    f"Crossref search {value}")
        reply = client.get("crossref", path, {
            **asked, "filter": f"from-index-date:{since:%Y-%m-%d}", "sort": "indexed",
            "order": "desc", "rows": str(ASKED)},
            accept="application/json", max_bytes=MAX_BYTES, cache=False, what=what)
        return lambda _helper: _from_crossref(reply)
    if kind == "openalex":
        client.require_key("openalex")
        # (an author's works, or works found by the words: newest published first)
        chosen = {"search": value, "filter": f"from_publication_date:{since:%Y-%m-%d}"} \
            if search else {"filter": f"author.id:{value},from_publication_date:"
                                      f"{since:%Y-%m-%d}"}
        reply = client.get("openalex", "/works", {
            **chosen, "sort": "publication_date:desc", "per-page": str(ASKED)},
            accept="application/json", max_bytes=MAX_BYTES, cache=False,
            what=f"OpenAlex search {value}" if search else f"author {value}")
        return lambda _helper: _from_openalex(reply)
    if kind in ("s2author", "dblp"):
        fetched = _s2_author(client, value, since) if kind == "s2author" \
            else _dblp_author(client, value, since)
        return lambda _helper: fetched
    reply = client.get(client.service_for(value), value, accept=_FEED_TYPES,
                       max_bytes=MAX_BYTES, cache=False,
                       headers=_validators(etag, last_modified), what="the feed")
    return lambda helper: _from_feed(reply, helper)


def _from_crossref(reply: Reply) -> Fetched:
    message = as_dict(as_dict(reply.json()).get("message"))
    if not isinstance(message.get("items"), list):
        raise reply.malformed("no list of works")
    return _bounded(reply, (crossref.record_of(as_dict(work)) for work in message["items"]))


def _from_openalex(reply: Reply) -> Fetched:
    results = as_dict(reply.json()).get("results")
    if not isinstance(results, list):
        raise reply.malformed("no results list")
    return _bounded(reply, (openalex.record_of(as_dict(work)) for work in results))


def _s2_author(client: ServiceClient, author: str, since: datetime) -> Fetched:
    """An author's papers from Semantic Scholar published since `since`, newest first."""
    client.require_key("s2")
    reply = client.get("s2", f"/graph/v1/author/{quote(author)}/papers", {
        "fields": "title,authors,year,abstract,externalIds,venue,publicationDate,url",
        "limit": str(ASKED)}, accept="application/json", max_bytes=MAX_BYTES, cache=False,
        what=f"author {author}")
    data = as_dict(reply.json()).get("data")
    if not isinstance(data, list):
        raise reply.malformed("no data list")
    found = []
    for paper in map(as_dict, data):
        title = " ".join(as_str(paper.get("title")).split())
        published = _date(as_str(paper.get("publicationDate")))
        year = paper.get("year")
        if published is None and isinstance(year, int) and 1 <= year <= 9999:
            published = datetime(year, 1, 1, tzinfo=timezone.utc)
        if not title or published is None or published < since:
            continue
        ids = as_dict(paper.get("externalIds"))
        arxiv_id = _VERSION_RE.sub("", as_str(ids.get("ArXiv")))
        names = [as_str(as_dict(a).get("name")) for a in as_list(paper.get("authors"))]
        found.append(Found(title, [a.display() for a in people(n for n in names if n)],
                           " ".join(as_str(paper.get("abstract")).split()),
                           as_str(paper.get("url")), as_str(ids.get("DOI")).lower(), arxiv_id,
                           as_str(paper.get("venue")), published))
    found.sort(key=lambda item: item.published or since, reverse=True)
    return _kept(reply, found, skipped=0)


def _dblp_author(client: ServiceClient, pid: str, since: datetime) -> Fetched:
    """The records of an author's DBLP page changed since `since`, newest first."""
    records = dblp.person(pid, client, cache=False, max_bytes=MAX_BYTES)
    found = []
    for mdate, record in records:
        changed = _date(mdate)
        if changed is None or changed < since:
            continue
        item = _from_record(record)
        item.published = changed
        found.append(item)
    found.sort(key=lambda item: item.published or since, reverse=True)
    return Fetched(found[:MAX_ITEMS], note=text("{n} entries: the newest {kept} kept",
                                                n=len(found), kept=MAX_ITEMS)
                   if len(found) > MAX_ITEMS else "")


def _date(value: str) -> datetime | None:
    """A YYYY-MM-DD date as midnight UTC, or None."""
    try:
        return datetime.strptime(value[:10], "%Y-%m-%d").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def _validators(etag: str, last_modified: str) -> dict[str, str]:
    """The headers of a conditional GET for an answer with these validators."""
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    return headers


def _bounded(reply: Reply, records: Iterable[PaperRecord | None]) -> Fetched:
    """The papers of an API's answer, bounded and without repeats, with the note."""
    items = [_from_record(record) for record in records if record is not None]
    return _kept(reply, items, skipped=0)


def _from_record(record: PaperRecord) -> Found:
    return Found(record.title, [a.display() for a in record.authors], record.abstract,
                 record.url, record.doi.lower(), record.raw.get("eprint", ""), record.venue,
                 datetime(record.year, 1, 1, tzinfo=timezone.utc) if record.year else None)


def _from_feed(reply: Reply, helper: Helper | None = None) -> Fetched:
    """The papers of an RSS or Atom answer (or nothing, for a 304). With a `helper`, a
    long answer is read in parts, most in its process (feeds.parsing), each part's
    papers told to `helper.early` as they are read."""
    if reply.status == 304:
        return Fetched(etag=reply.headers.get("etag", ""), not_modified=True,
                       last_modified=reply.headers.get("last-modified", ""))
    content = reply.content
    broken = ""
    try:
        safe_xml(content)
    except DefusedXmlException:
        raise reply.fail(text("refused: the feed declares entities or refers to outside "
                              "documents"), "malformed") from None
    except (ParseError, ValueError) as error:
        broken = str(error)  # (feedparser reads many a broken feed; if it cannot, this)
    headers = dict(reply.headers)
    split = parts(content, shares()) if helper is not None and not broken \
        and len(content) >= SPLIT_BYTES and helper.ready(_awake) else None
    later = [helper.submit(entries_of, part, headers, reply.url)
             for part in split[1:]] if helper is not None and split else []
    # (no base address given: feedparser would resolve every element's against it, a
    # third of its time; the one address read of an entry, its link, is resolved here)
    parsed = feedparser.parse(split[0] if split else content, response_headers=headers)
    if not parsed.get("version") and not parsed.entries:
        if b"<html" in content[:2048].lower():
            raise reply.malformed(text("a web page, not a feed: has it moved?"))
        if broken:
            raise reply.malformed(text("not well-formed XML: {error}", error=broken))
        raise reply.malformed(text("not an RSS or Atom feed"))
    if parsed.entries and _is_arxiv_error(parsed.entries[0]):
        raise reply.fail(markup_to_text(parsed.entries[0].get("summary", "")), "refused")
    items, skipped = _entries(parsed, reply.url)
    entries = len(parsed.entries)
    title = " ".join(markup_to_text(str(parsed.feed.get("title", ""))).split())
    del parsed  # (its many objects, before the other parts are waited for)
    for part in [None, *later]:
        more, left_out, count = part() if part is not None else (items, skipped, entries)
        if part is not None:
            items += more
            skipped += left_out
            entries += count
        if helper is not None and helper.early is not None and more:
            helper.early(list(more))
    if entries and not items:
        raise reply.malformed(text("not well-formed XML: {error}", error=broken) if broken
                              else text("no entry has a title"))
    fetched = _kept(reply, items, skipped)
    fetched.etag = reply.headers.get("etag", "")
    fetched.last_modified = reply.headers.get("last-modified", "")
    fetched.title = title if len(title) <= TITLE_CHARS else title[:TITLE_CHARS - 1] + "…"
    return fetched


def entries_of(content: bytes, headers: dict[str, str], url: str
               ) -> tuple[list[Found], int, int]:
    """The papers of a part of a feed (feeds.parsing), as a helper process reads them:
    those with a title, how many had none, how many entries in all."""
    items, skipped = _entries(feedparser.parse(content, response_headers=headers), url)
    return items, skipped, len(items) + skipped


def _awake() -> None:
    """Nothing: what a helper process does first (feeds.parsing), importing this."""


def _entries(parsed: Any, url: str) -> tuple[list[Found], int]:
    items: list[Found] = []
    skipped = 0
    for entry in parsed.entries:
        item = _from_entry(entry, url)
        if item is None:
            skipped += 1
        else:
            items.append(item)
    return items, skipped


def _is_arxiv_error(entry: Any) -> bool:
    return "/api/errors" in str(entry.get("id", "")) and entry.get("title") == "Error"


def _from_entry(entry: Any, base: str) -> Found | None:
    """An RSS item or Atom entry of the feed at `base` as a paper; None without a
    title."""
    title = markup_to_text(str(entry.get("title", "")))
    if not title:
        return None
    link = str(entry.get("link", "")).strip()
    if link and not urlsplit(link).scheme:
        link = urljoin(base, link)
    doi, arxiv_id = _doi_and_arxiv(entry, link)
    abstract = markup_to_text(str(entry.get("summary", "")))
    if arxiv_id:  # (arXiv's RSS: "arXiv:2401.00001v1 Announce Type: new Abstract: ...")
        abstract = re.sub(r"^arXiv:\S+\s+Announce Type:\s*\S+\s+Abstract:\s*", "", abstract)
    parsed = entry.get("published_parsed") or entry.get("updated_parsed")
    published = (datetime.fromtimestamp(calendar.timegm(parsed), timezone.utc)
                 if isinstance(parsed, time.struct_time) else None)
    venue = str(entry.get("prism_publicationname", "") or "")
    return Found(title, _names(entry), abstract, link, doi, arxiv_id, venue, published)


def _doi_and_arxiv(entry: Any, link: str) -> tuple[str, str]:
    """The DOI and arXiv id an entry names: arXiv's `<arxiv:doi>`, PRISM's `<prism:doi>`,
    Dublin Core's identifier, its id or its link."""
    doi = arxiv_id = ""
    candidates = [entry.get("arxiv_doi"), entry.get("prism_doi"), entry.get("dc_identifier"),
                  entry.get("id"), link]
    for candidate in candidates:
        value = str(candidate or "").strip()
        if not value:
            continue
        match = _ARXIV_ABS_RE.search(value)
        if match and not arxiv_id:
            arxiv_id = match.group(1)
            continue
        try:
            identifier = parse_identifier(value if "/" in value else f"doi:{value}")
        except ValueError:
            continue
        if identifier.kind == "doi" and not doi:
            doi = identifier.value.lower()
        elif identifier.kind == "arxiv" and not arxiv_id:
            arxiv_id = _VERSION_RE.sub("", identifier.value)
    return doi, arxiv_id


def _names(entry: Any) -> list[str]:
    """The entry's authors, in order ("Alice Smith, Bob Jones" split as well)."""
    names = [str(a.get("name", "")) for a in as_list(entry.get("authors")) if
             isinstance(a, dict)]
    if len(names) <= 1:
        single = names[0] if names else str(entry.get("author", ""))
        names = [n for n in _AUTHOR_SPLIT_RE.split(single) if n]
    return [a.display() for a in people(markup_to_text(n) for n in names)]


def _kept(reply: Reply, items: Sequence[Found], skipped: int) -> Fetched:
    """`items` without repeats (same DOI, arXiv id or title), at most `MAX_ITEMS`, and
    the note saying what was left out."""
    seen: set[str] = set()
    kept: list[Found] = []
    repeated = 0
    for item in items:
        marks = set(identities(item))
        if marks & seen:
            repeated += 1
            continue
        seen |= marks
        kept.append(item)
    notes: list[str] = []
    if skipped:
        notes.append(plural("%n entries without a title skipped", skipped,
                            f"{skipped} entr{'y' if skipped == 1 else 'ies'} without a "
                            "title skipped"))
    if repeated:
        notes.append(plural("%n repeated entries dropped", repeated,
                            f"{repeated} repeated entr{'y' if repeated == 1 else 'ies'} "
                            "dropped"))
    if len(kept) > MAX_ITEMS:
        notes.append(text("{n} entries: the newest {kept} kept", n=len(kept), kept=MAX_ITEMS))
        kept = kept[:MAX_ITEMS]
    return Fetched(kept, note=listed(notes))
