"""Retraction and correction notices (core.retractions): `retractions update` and
`retractions list`.

    papershelf retractions update [--from FILE] [--crossref] [--offline]
    papershelf retractions list [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from papershelf.cli.arguments import library_option
from papershelf.cli.common import CliError
from papershelf.core import retractions
from papershelf.core.library import Library
from papershelf.launch import one_line
from papershelf.metadata import retractions as fetching
from papershelf.metadata.http import HttpSettings, ServiceClient, make_client

__all__ = ["retractions_arguments", "run_retractions"]


def retractions_arguments(parser: argparse.ArgumentParser) -> None:
    """`retractions update [--from FILE] [--crossref]`, `retractions list [--json]`."""
    sub = parser.add_subparsers(dest="retractions_action", metavar="ACTION", required=True)
    p = sub.add_parser("update", parents=[library_option()],
                       help="read Retraction Watch's notices (downloaded as Crossref "
                       "publishes them, or --from a copy); papers they name are flagged")
    p.add_argument("--from", dest="source", metavar="FILE", type=Path,
                   help="a downloaded copy of the Retraction Watch CSV")
    p.add_argument("--crossref", action="store_true",
                   help="also ask Crossref for the updates (update-to, updated-by) of "
                   "every paper with a DOI")
    p.add_argument("--offline", action="store_true",
                   help="ask no service (as PAPERSHELF_OFFLINE=1)")
    p = sub.add_parser("list", parents=[library_option()],
                       help="the library's papers that have a retraction, correction or "
                       "other notice")
    p.add_argument("--json", action="store_true", help="as a JSON list")


def run_retractions(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO,
                    client: ServiceClient | None = None) -> int:
    """Update the notices, or list the papers they name."""
    if args.retractions_action == "list":
        return _list(library, args.json, out)
    if client is None:
        with make_client(HttpSettings(offline=True if args.offline else None)) as own:
            return _update(library, args, own, out, err)
    return _update(library, args, client, out, err)


def _update(library: Library, args: argparse.Namespace, client: ServiceClient,
            out: TextIO, err: TextIO) -> int:
    if args.source is None and client.offline:
        raise CliError("offline: Retraction Watch's notices were not downloaded (--from "
                       "FILE reads a copy)")
    done = fetching.update(library, client, args.source)
    for problem in done.problems:
        err.write(f"{one_line(str(problem))}\n")  # (a cell's ESC or newline escaped)
    if args.crossref:
        if client.offline:
            err.write("offline: Crossref was not asked\n")
        else:
            fetching.check_crossref(library, client, done=done)
        for failed in done.failed:
            err.write(f"not checked: {one_line(failed)}\n")
    stored = ", ".join(f"{n} from {_SOURCES[source]}" for source, n in done.stored.items())
    flagged = retractions.every_paper_notice(library.context)
    papers = len({n.paper_id for n in flagged})
    retracted = len({n.paper_id for n in flagged if n.nature == retractions.RETRACTION})
    out.write(f"notices: {stored}; {papers} paper{'s' if papers != 1 else ''} of the "
              f"library named, {retracted} retracted\n")
    return 1 if done.failed else 0


_SOURCES = {retractions.RETRACTION_WATCH: "Retraction Watch", retractions.CROSSREF: "Crossref"}


def _list(library: Library, as_json: bool, out: TextIO) -> int:
    notices = retractions.every_paper_notice(library.context)
    keys = _keys(library, sorted({n.paper_id for n in notices}))
    if as_json:
        json.dump([{"key": keys.get(n.paper_id, ""), "title": n.title, "nature": n.nature,
                    "date": n.date, "notice_doi": n.notice_doi, "link": n.link,
                    "reason": n.reason, "source": n.source} for n in notices],
                  out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    for n in notices:
        when = f" {n.date}" if n.date else ""
        link = f" {n.link}" if n.link else ""
        out.write(f"{keys.get(n.paper_id, '')}\t{n.nature}{when}{link}\t{n.title}\n")
    if not notices:
        out.write("no paper of the library has a notice (`retractions update` reads them)\n")
    return 0


def _keys(library: Library, ids: list[int]) -> dict[int, str]:
    return {pid: row.key for pid, row in library.rows(ids).items()}
