"""Finding papers: `list` (the filters), `search` (full text) and `saved` (named
queries, listed in the window's sidebar)."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from papershelf.cli.arguments import add_filters, library_option, text_argument
from papershelf.cli.common import saved_search, selected_ids
from papershelf.core.library import Library, PaperDetail, View


def list_arguments(p: argparse.ArgumentParser) -> None:
    add_filters(p)
    p.add_argument("--json", action="store_true", help="print JSON, one object per paper")


def run_list(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """List papers matching the filters."""
    print_papers(library, selected_ids(library, args), args.json, out)
    return 0


def search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--sort", default="added", choices=["added", "best"],
                   help="best: the best matches first (title, then authors, abstract, notes)")
    p.add_argument("--prefix", action="store_true",
                   help="read the last word as the start of a word (3 letters or more), "
                   "as the window's search field does while you type: quant finds "
                   "quantization")
    p.add_argument("--json", action="store_true", help="print JSON, one object per paper")


def run_search(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Full-text search over title, authors, abstract, notes and tags."""
    ids = library.view_ids(View(search=args.query, sort=args.sort, typing=args.prefix))
    print_papers(library, ids, args.json, out)
    return 0


def saved_arguments(p: argparse.ArgumentParser) -> None:
    saved = p.add_subparsers(dest="saved_command", metavar="ACTION", required=True)
    c = saved.add_parser("add", parents=[library_option()], help="save a query under a name")
    c.add_argument("name", metavar="NAME", type=text_argument)
    c.add_argument("query", metavar="QUERY", type=text_argument)
    c.add_argument("--shared", action="store_true",
                   help="every member of a shared library sees it")
    saved.add_parser("list", parents=[library_option()],
                     help="each saved search: name, papers found, query")
    c = saved.add_parser("remove", parents=[library_option()], help="delete a saved search")
    c.add_argument("name", metavar="NAME", type=text_argument)


def run_saved(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add, list or remove saved searches."""
    if args.saved_command == "add":
        library.add_saved_search(args.name, args.query, shared=args.shared)
        out.write(f"saved search {' '.join(args.name.split())} added\n")
    elif args.saved_command == "remove":
        found = saved_search(library, args.name)
        library.remove_saved_search(found.id)
        out.write(f"saved search {found.name} removed\n")
    else:
        searches, counts = library.saved_searches(), library.saved_counts()
        width = max([len(s.name) for s in searches] + [4])
        for found in searches:
            shared = "  (shared)" if found.shared else ""
            out.write(f"{found.name:<{width}}  {counts[found.id]:>6}  {found.query}{shared}\n")
        out.write(f"{len(searches)} saved search{'es' if len(searches) != 1 else ''}\n")
    return 0


def _paper_json(detail: PaperDetail) -> dict[str, Any]:
    record = detail.record
    return {
        "key": detail.key,
        "title": record.title,
        "provisional": record.title_provisional,
        "authors": [a.display() for a in record.authors],
        "venue": record.venue,
        "year": record.year,
        "starred": detail.starred,
        "read_state": detail.read_state,
        "tags": record.tags,
    }


def print_papers(library: Library, ids: list[int], as_json: bool, out: TextIO) -> None:
    """One line per paper (star, read state, key, year, title) and the count; or JSON."""
    if as_json:
        details = library.details(ids)
        json.dump([_paper_json(d) for d in details], out, ensure_ascii=False, indent=2)
        out.write("\n")
        return
    rows = library.rows(ids)
    width = max([len(r.key) for r in rows.values()] + [3])
    state_mark = {"unread": " ", "reading": "~", "read": "✓"}
    for pid in ids:
        row = rows[pid]
        star = "★" if row.starred else " "
        title = row.title + (" (provisional title)" if row.title_provisional else "")
        year = str(row.year or "")
        out.write(f"{star}{state_mark.get(row.read_state, ' ')} {row.key:<{width}}  "
                  f"{year:>4}  {title}\n")
    out.write(f"{len(ids)} paper{'s' if len(ids) != 1 else ''}\n")
