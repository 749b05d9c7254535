"""Retraction Watch's database and Crossref's update relations, fetched: the network
side of core.retractions.

`update` downloads Retraction Watch's CSV as Crossref publishes it
(https://api.labs.crossref.org/data/retractionwatch?<contact address>; the root is
PAPERSHELF_RETRACTIONWATCH_URL's when set) into a temporary file, streamed and bounded,
or takes a copy the user downloaded, and replaces the library's notices from it.
`check_crossref` asks Crossref (`works/{doi}`, PAPERSHELF_CROSSREF_URL's root when set)
for the `update-to` and `updated-by` relations of papers' DOIs. Both go through the one
HTTP client (metadata.http): offline mode asks nothing.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from papershelf.core import retractions
from papershelf.core.library import Library
from papershelf.metadata.http import ServiceClient, ServiceError
from papershelf.metadata.services._common import as_dict

__all__ = ["CSV_PATH", "MAX_CSV_BYTES", "Updated", "check_crossref", "csv_url", "update"]

CSV_PATH = "/data/retractionwatch"
MAX_CSV_BYTES = retractions.MAX_FILE_BYTES  # (about 50 MB in 2026)


@dataclass
class Updated:
    """What an update did: notices stored from each source, the rows skipped (each a
    line naming the file and its line), the DOIs Crossref could not answer for."""

    stored: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def csv_url(client: ServiceClient) -> str:
    """Where Crossref publishes Retraction Watch's CSV; it asks for a contact address as
    the query string (PAPERSHELF_CONTACT, or the Network preference)."""
    url = client.base_url("retractionwatch") + CSV_PATH
    return f"{url}?{quote(client.contact, safe='@.+-_')}" if client.contact else url


def download_csv(client: ServiceClient, folder: Path) -> Path:
    """Retraction Watch's CSV, downloaded (past the cache, chunk by chunk, at most
    MAX_CSV_BYTES) into a file in `folder`."""
    target = folder / "retraction_watch.csv"
    with client.download(csv_url(client), max_bytes=MAX_CSV_BYTES,
                         accept="text/csv, */*", service="retractionwatch") as answer, \
            target.open("wb") as out:
        for chunk in answer.chunks():
            out.write(chunk)
    return target


def update(library: Library, client: ServiceClient | None, source: Path | None = None
           ) -> Updated:
    """Replace the library's Retraction Watch notices: from `source` (a downloaded CSV),
    else downloaded through `client`. A ServiceError or a UserError (the file is no such
    CSV) leaves the notices as they were."""
    done = Updated()
    if source is not None:
        done.stored[retractions.RETRACTION_WATCH] = retractions.replace_from_csv(
            library.context, source, done.problems)
        return done
    if client is None:
        raise ValueError("no client to download with")
    with tempfile.TemporaryDirectory(prefix="papershelf-rw-") as folder:
        path = download_csv(client, Path(folder))
        done.stored[retractions.RETRACTION_WATCH] = retractions.replace_from_csv(
            library.context, path, done.problems)
        done.problems = [p.replace(str(path), "Retraction Watch CSV") for p in done.problems]
    return done


def crossref_notices(doi: str, client: ServiceClient) -> list[retractions.NoticeEntry]:
    """The notices Crossref's record of `doi` tells of (none if Crossref has no such
    DOI)."""
    try:
        reply = client.get("crossref", "/works/" + quote(doi, safe="/"),
                           accept="application/json", what=f"DOI {doi}")
    except ServiceError as error:
        if error.kind == "not-found":
            return []
        raise
    data = as_dict(reply.json())
    work = as_dict(data.get("message"))
    if not work:
        raise reply.malformed("no work in the message")
    work.setdefault("DOI", doi)
    return retractions.crossref_entries(work)


def check_crossref(library: Library, client: ServiceClient, ids: Sequence[int] | None = None,
                   cancelled: Callable[[], bool] = lambda: False,
                   done: Updated | None = None) -> Updated:
    """Ask Crossref for the update relations of the DOIs of the papers `ids` (None:
    every paper with one) and replace what it said of them before; a DOI it could not
    answer for is named in `failed` and keeps its notices. Offline, nothing is asked."""
    done = done if done is not None else Updated()
    if client.offline:
        return done
    dois = retractions.dois_to_check(library.context, ids)
    answered: list[str] = []
    entries: list[retractions.NoticeEntry] = []
    for doi in dois:
        if cancelled():
            break
        try:
            entries.extend(crossref_notices(doi, client))
        except ServiceError as error:
            done.failed.append(f"{doi}: {error}")
            if error.kind == "offline":
                break
            continue
        answered.append(doi)
    done.stored[retractions.CROSSREF] = retractions.replace_for_dois(
        library.context, answered, entries)
    return done

