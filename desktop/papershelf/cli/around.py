"""The papers around a paper and those the library lacks (papershelf.feeds.around):
`around` and `missing`.

    papershelf around KEY [--references|--citing] [--json] [--offline]
    papershelf missing [--min K] [--tag T] [--json] [--offline]

A paper listed is added with `papershelf add` and the DOI or arXiv id it is listed with
(looked up and completed as every `add` is). A handler takes the HTTP client to ask with
(default: the user's, `--offline` honoured).
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from papershelf.cli.arguments import text_argument
from papershelf.core.library import Library
from papershelf.feeds import around as neighbours
from papershelf.feeds.around import Neighbour
from papershelf.messages import text
from papershelf.metadata.http import HttpSettings, ServiceClient, make_client

__all__ = ["around_arguments", "missing_arguments", "run_around", "run_missing"]

_SAYS = {"references": "references", "citing": "citing it"}  # (the listing's headings)
_WHAT = {"references": "references", "citing": "citing papers"}


def around_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", metavar="KEY", type=text_argument,
                        help="the paper's citation key (or a DOI or arXiv id)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--references", action="store_true",
                       help="only the papers it cites")
    which.add_argument("--citing", action="store_true", help="only the papers citing it")
    parser.add_argument("--json", action="store_true", help="list as JSON")
    parser.add_argument("--offline", action="store_true",
                        help="ask no service (only what is cached), as PAPERSHELF_OFFLINE=1")


def run_around(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO,
               client: ServiceClient | None = None) -> int:
    """List the paper's references and the papers citing it, each marked when the
    library has it; exit status 1 when no service answered one of them."""
    doi, arxiv_id, _title = neighbours.identify(library, args.key)
    directions: tuple[neighbours.Direction, ...] = (
        ("references",) if args.references else ("citing",) if args.citing
        else ("references", "citing"))
    if client is None:
        with make_client(HttpSettings(offline=True if args.offline else None)) as own:
            found = neighbours.around(own, doi, arxiv_id, directions, library=library)
    else:
        found = neighbours.around(client, doi, arxiv_id, directions, library=library)
    failed = [d for d in directions if found.failed(d)]
    if args.json:
        listing: dict[str, object] = {d: [_as_json(p) for p in getattr(found, d)]
                                      for d in directions}
        listing |= {"sources": found.sources, "notes": found.notes}
        json.dump(listing, out, ensure_ascii=False, indent=1)
        out.write("\n")
    else:
        for direction in directions:
            papers: list[Neighbour] = getattr(found, direction)
            if direction in failed:
                continue
            have = sum(p.in_library for p in papers)
            count = "1 paper" if len(papers) == 1 else f"{len(papers)} papers"
            out.write(f"{_SAYS[direction]} ({found.sources[direction]}): {count}, {have} in "
                      "your library\n")
            for paper in papers:
                out.write(_line(paper))
    for note in found.notes if failed else ():
        err.write(f"{note}\n")
    for direction in failed:
        err.write(text("no service gave the {what} of {key}", what=_WHAT[direction],
                       key=args.key) + "\n")
    return 1 if failed else 0


def _line(paper: Neighbour, count: int | None = None) -> str:
    mark = "*" if paper.in_library else " "
    year = str(paper.year) if paper.year else "    "
    authors = ", ".join(paper.authors[:3]) + (" et al." if len(paper.authors) > 3 else "")
    identifier = (f"doi:{paper.doi}" if paper.doi else f"arXiv:{paper.arxiv_id}"
                  if paper.arxiv_id else "")
    cited = f"{count}x " if count is not None else ""
    tail = "\t".join(part for part in (authors, identifier) if part)
    return f"{mark} {cited}{year}  {paper.title}\t{tail}\n".replace("\t\n", "\n")


def _as_json(paper: Neighbour) -> dict[str, object]:
    return {"title": paper.title, "authors": list(paper.authors), "year": paper.year,
            "abstract": paper.abstract, "doi": paper.doi, "arxiv_id": paper.arxiv_id,
            "in_library": paper.in_library}


def missing_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--min", type=int, default=2, metavar="K",
                        help="cited by at least K of the papers (default 2)")
    parser.add_argument("--tag", type=text_argument, metavar="T",
                        help="only the papers with tag T cite")
    parser.add_argument("--papers", type=int, default=neighbours.MAX_PAPERS, metavar="N",
                        help="ask about the references of at most N papers, newest first "
                        f"(default {neighbours.MAX_PAPERS})")
    parser.add_argument("--json", action="store_true", help="list as JSON")
    parser.add_argument("--offline", action="store_true",
                        help="ask no service (only what is cached), as PAPERSHELF_OFFLINE=1")


def run_missing(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO,
                client: ServiceClient | None = None) -> int:
    """List the papers cited by at least K of the library's papers (or a tag's) that the
    library lacks, most cited first."""
    if client is None:
        with make_client(HttpSettings(offline=True if args.offline else None)) as own:
            return run_missing(library, args, out, err, own)
    found, notes = neighbours.missing(library, client, args.min, args.tag or "", args.papers)
    for note in notes:
        err.write(f"{note}\n")
    if args.json:
        json.dump([_as_json(m.paper) | {"cited_by": m.count} for m in found], out,
                  ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    for item in found:
        out.write(_line(item.paper, item.count))
    if not found:
        out.write(text("no paper is cited by {k} or more of them that your library lacks",
                       k=args.min) + "\n")
    return 0
