"""Followed sources and the inbox they feed (papershelf.feeds): `follow` and `inbox`.

`run_follow` takes the HTTP client to check with (default: the user's, `--offline`
honoured); what the user must fix is a UserError, one line.

    papershelf follow add SOURCE | list | rename SOURCE NAME | remove SOURCE
                      | check [--offline]
    papershelf inbox [--json] | inbox add|star|dismiss|keep|unkeep ID...
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TextIO

from papershelf.cli.arguments import library_option, text_argument
from papershelf.core.gcpause import young_collections_only
from papershelf.core.library import Library
from papershelf.errors import UserError
from papershelf.feeds import inbox, sources
from papershelf.messages import text
from papershelf.metadata.http import HttpSettings, ServiceClient, make_client

__all__ = ["follow_arguments", "inbox_arguments", "run_follow", "run_inbox"]

_SPELLINGS = 'arxiv:cs.LG, arxiv:"query words", a feed\'s https:// address, ' \
             "issn:1234-5678, openalex:A5023888391, s2author:1741101, dblp:h/GeoffreyEHinton, " \
             'openalex:"query words", crossref:"query words"'


def follow_arguments(parser: argparse.ArgumentParser) -> None:
    """`follow add SOURCE`, `follow list`, `follow rename SOURCE NAME`, `follow remove
    SOURCE`, `follow check`."""
    sub = parser.add_subparsers(dest="follow_action", metavar="ACTION", required=True)
    p = sub.add_parser("add", parents=[library_option()],
                       help=f"follow a source ({_SPELLINGS})")
    p.add_argument("source", metavar="SOURCE")
    sub.add_parser("list", parents=[library_option()],
                   help="the sources you follow, and how their last check went")
    p = sub.add_parser("rename", parents=[library_option()],
                       help="call a source NAME (every window shows it; \"\": its address "
                       "again)")
    p.add_argument("source", metavar="SOURCE")
    p.add_argument("name", metavar="NAME", type=text_argument)
    p = sub.add_parser("remove", parents=[library_option()],
                       help="stop following a source (its items stay)")
    p.add_argument("source", metavar="SOURCE")
    p = sub.add_parser("check", parents=[library_option()],
                       help="ask each source for new papers, into your inbox")
    p.add_argument("--offline", action="store_true",
                   help="ask no service (as PAPERSHELF_OFFLINE=1): nothing is checked")


def run_follow(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO,
               client: ServiceClient | None = None) -> int:
    """Follow, list, unfollow or check the member's sources."""
    ctx = library.context
    action = args.follow_action
    if action == "add":
        change, source = sources.follow(ctx, args.source)
        out.write(f"{change.description} (checked at the next `follow check`)\n")
        return 0
    if action == "rename":
        out.write(f"{sources.rename(ctx, args.source, args.name).description}\n")
        return 0
    if action == "remove":
        out.write(f"{sources.unfollow(ctx, args.source).description}\n")
        return 0
    if action == "list":
        for source in sources.sources(ctx):
            checked = (f"checked {source.checked_at:%Y-%m-%d %H:%M}" if source.checked_at
                       else "not checked yet")
            note = f": {source.note}" if source.note else ""
            name = f"{source.name}: " if source.name else ""
            out.write(f"{source.spelling}\t{name}{source.state}, {checked}{note}\n")
        return 0
    if not sources.sources(ctx):
        raise UserError(text("you follow no source: `follow add SOURCE` ({spellings})",
                             spellings=_SPELLINGS))
    if client is None:
        with make_client(HttpSettings(offline=True if args.offline else None)) as own:
            return _check(library, own, out, err)
    return _check(library, client, out, err)


def _check(library: Library, client: ServiceClient, out: TextIO, err: TextIO) -> int:
    if client.offline:
        err.write("offline: no source was checked\n")
        return 1
    failed = 0
    for checked in inbox.check(library, client):
        if checked.failed:
            failed += 1
            err.write(f"{checked.source}: {checked.note}\n")
            continue
        what = "not changed" if checked.not_modified else f"{checked.new} new"
        note = f" ({checked.note})" if checked.note else ""
        out.write(f"{checked.source}: {what}{note}\n")
    return 1 if failed else 0


def inbox_arguments(parser: argparse.ArgumentParser) -> None:
    """`inbox [--json]`, `inbox add|star|dismiss|keep|unkeep ID...`."""
    parser.add_argument("action", nargs="?",
                        choices=["add", "star", "dismiss", "keep", "unkeep"],
                        help="add (as unread papers), star (add, starred), dismiss (for "
                        "good), keep (past the clean-up) or unkeep the items ID...; "
                        "without: list the inbox, best first")
    parser.add_argument("ids", nargs="*", type=int, metavar="ID")
    parser.add_argument("--json", action="store_true", help="list as JSON")
    parser.add_argument("--tag", type=text_argument, metavar="T",
                        help="rank by the papers with tag T alone (a ranking of the tag's "
                        "own)")


_TRIAGE: dict[str, Callable[[Library, list[int]], object]] = {
    "add": inbox.add, "star": inbox.star, "dismiss": inbox.dismiss, "keep": inbox.keep,
    "unkeep": lambda library, ids: inbox.keep(library, ids, kept=False)}


def run_inbox(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """List the member's inbox, or triage items of it."""
    if args.action is None:
        if args.ids:
            raise UserError(text("say what to do with the items: inbox "
                                 "add|star|dismiss|keep|unkeep ID..."))
        with young_collections_only():  # (100,000 items: core.gcpause)
            listed = inbox.items(library, tag=args.tag or "")
        if args.json:
            json.dump([_as_json(item) for item in listed], out, ensure_ascii=False, indent=1)
            out.write("\n")
            return 0
        for item in listed:
            out.write(f"{item.id}\t{item.title}\n\t{item.source or '(unfollowed)'}: "
                      f"{item.why}\n")
        if not listed:
            out.write("the inbox is empty (`follow check` asks your sources)\n")
        return 0
    if args.json or args.tag:
        raise UserError(text("--json and --tag go with listing the inbox"))
    if not args.ids:
        raise UserError(text("name the inbox items to {action} (their ids, from `inbox`)",
                             action=args.action))
    change = _TRIAGE[args.action](library, list(args.ids))
    out.write(f"{getattr(change, 'description', '')}\n")
    return 0


def _as_json(item: inbox.Item) -> dict[str, object]:
    return {
        "id": item.id, "title": item.title, "authors": list(item.authors),
        "abstract": item.abstract, "url": item.url, "doi": item.doi,
        "arxiv_id": item.arxiv_id, "venue": item.venue, "source": item.source,
        "published": item.published.isoformat() if item.published else None,
        "kept": item.kept, "score": item.score, "reason": item.why,
    }
