"""Papers from the services and catalogs that own their metadata: `add` (by DOI, arXiv
id, link or title; or BibTeX pasted), `complete` and `catalog`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from papershelf.cli.arguments import key_argument, text_argument
from papershelf.cli.common import CliError, ids_for, print_error
from papershelf.cli.importing import print_import
from papershelf.core.library import Library, UserError
from papershelf.core.transfer import ImportOutcome
from papershelf.formats.bibtex.decode import decode_bibtex
from papershelf.metadata import adding, complete, identifiers
from papershelf.metadata.catalog import catalog_store
from papershelf.metadata.http import HttpSettings, make_client


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ids", nargs="*", metavar="ID", type=text_argument)
    p.add_argument("--bibtex", metavar="FILE",
                   help="add the BibTeX entries of FILE ('-': standard input, e.g. pasted) "
                   "as an import does, merging duplicates; asks no service")
    p.add_argument("--offline", action="store_true",
                   help="ask no service (only what is cached), as PAPERSHELF_OFFLINE=1")


def run_add(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Look each identifier up and add the paper (merging it onto one already there);
    with --bibtex, import BibTeX entries."""
    if args.bibtex is not None:
        if args.ids:
            raise CliError("give identifiers or --bibtex, not both; nothing was added")
        return _add_bibtex(library, args.bibtex, out, err)
    if not args.ids:
        raise CliError("name a paper to add: a DOI, arXiv id, link or title (or --bibtex "
                       "FILE)")
    text = "\n".join(sys.stdin.read() if i == "-" else i for i in args.ids)
    try:
        wanted = identifiers.parse_many(text)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    failed = 0
    with make_client(HttpSettings(offline=True if args.offline else None)) as client:
        for identifier in wanted:
            looked = adding.look_up(identifier, client)
            if looked.error is not None:
                print_error(err, looked.failure)
                failed += 1
                continue
            for note in looked.notes:
                out.write(f"  note: {note}\n")
            (item,) = adding.add_found(library, [looked]).items
            out.write(f"{identifier.value}: {_what_happened(item)}\n")
    return 1 if failed else 0


def _add_bibtex(library: Library, name: str, out: TextIO, err: TextIO) -> int:
    """`add --bibtex FILE|-`: the entries imported as a file's are, whatever the file's
    name (as `import`, entries that cannot be read are reported and the rest added)."""
    notices: list[str] = []
    if name == "-":
        source, text = "standard input", sys.stdin.read()
    else:
        try:
            data = Path(name).read_bytes()
        except OSError as exc:
            raise CliError(f"{name}: cannot read file: {exc.strerror or exc}") from None
        source = name
        text, notices = decode_bibtex(data, name)
    outcome = ImportOutcome.collect_bibtex(library, text, source)
    if outcome.failed_files:
        ((_source, reason),) = outcome.failed_files
        raise CliError(f"{source}: {reason}; nothing was added")
    outcome.report.notices[:0] = notices
    print_import(library, outcome.report, out, err)
    return 0


def _what_happened(item: adding.Added) -> str:
    if item.outcome == "added":
        return f"added as {item.key}"
    if item.outcome == "completed":
        return f"already had it: completed {item.key}"
    return "already had it"



def catalog_arguments(p: argparse.ArgumentParser) -> None:
    catalog = p.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    c = catalog.add_parser("add", help="add a catalog file (paperlists JSON)")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--venue", help="the venue its papers get (default: from the file)")
    c.add_argument("--year", type=int, help="their year (default: from the file)")
    catalog.add_parser("list", help="the catalogs added")
    c = catalog.add_parser("remove", help="forget a catalog")
    c.add_argument("name", metavar="NAME")


def run_catalog(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Add, list or remove the catalogs searched offline."""
    store = catalog_store()
    if args.catalog_command == "add":
        added = store.add(args.file, args.venue, args.year)
        out.write(f"catalog {added.name}: {added.papers} papers, {added.venue} "
                  f"{added.year or ''}\n".replace(" \n", "\n"))
    elif args.catalog_command == "remove":
        try:
            store.remove(args.name)
        except KeyError:
            raise CliError(f"no catalog named {args.name!r} (see `papershelf catalog "
                           "list`)") from None
        out.write(f"catalog {args.name} removed\n")
    else:
        found = store.catalogs()
        for entry in found:
            out.write(f"{entry.name}  {entry.papers} papers  {entry.venue} "
                      f"{entry.year or ''}\n")
        out.write(f"{len(found)} catalog{'s' if len(found) != 1 else ''}\n")
    return 0



def complete_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keys", nargs="*", metavar="KEY", type=key_argument)
    p.add_argument("--provisional", action="store_true",
                   help="every paper whose title is provisional (instead of KEYs)")
    p.add_argument("--accept-confident", action="store_true",
                   help="complete each paper whose best candidate is a clear winner (its "
                   "key, notes, star, read state and tags stay)")
    p.add_argument("--limit", type=int, default=3, metavar="N",
                   help="candidates shown per paper (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON, one object per paper")
    p.add_argument("--offline", action="store_true",
                   help="search the catalogs only, as PAPERSHELF_OFFLINE=1")


def run_complete(library: Library, args: argparse.Namespace, out: TextIO,
                 err: TextIO) -> int:
    """Look papers up, print their candidates and what each would change; with
    --accept-confident, complete the papers with a clear winner."""
    if args.provisional == bool(args.keys):
        raise CliError("name the papers to complete (KEY...) or give --provisional")
    ids = complete.provisional_ids(library) if args.provisional else ids_for(library, args.keys)
    notes: list[str] = []
    with make_client(HttpSettings(offline=True if args.offline else None)) as client:
        proposals = complete.find_candidates(library, ids, catalogs=catalog_store(),
                                             client=client, notes=notes,
                                             limit=max(1, args.limit))
    accepted: dict[int, list[str]] = {}
    failed = 0
    for proposal in proposals:
        for problem in proposal.problems:
            print_error(err, f"{proposal.key}: {problem}")
            failed += 1
        if args.accept_confident and proposal.confident:
            try:
                change = complete.accept(library, proposal)
            except UserError as exc:  # (changed meanwhile, by someone else)
                print_error(err, exc)
                failed += 1
                continue
            if change.ids:
                accepted[proposal.paper_id] = [c.field for c in proposal.options[0].changes]
    if args.json:
        json.dump({"notes": notes,
                   "papers": [_proposal_json(p, accepted.get(p.paper_id)) for p in proposals]},
                  out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 1 if failed else 0
    for note in notes:
        out.write(f"note: {note}\n")
    for proposal in proposals:
        _print_proposal(proposal, accepted.get(proposal.paper_id), out)
    sure = sum(1 for p in proposals if p.confident)
    out.write(f"{len(proposals)} paper{'s' if len(proposals) != 1 else ''} looked up: "
              f"{sure} confident, {len(accepted)} completed\n")
    return 1 if failed else 0


def _shorten(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def _print_proposal(proposal: complete.Proposal, filled: list[str] | None,
                    out: TextIO) -> None:
    what = " (provisional title)" if proposal.provisional else ""
    out.write(f"{proposal.key}: {_shorten(proposal.title, 70)}{what}\n")
    if not proposal.options:
        out.write("  no candidate found\n")
    for number, option in enumerate(proposal.options, start=1):
        record = option.record
        where = " ".join(str(v) for v in (record.venue, record.year) if v)
        sure = "  [confident]" if number == 1 and proposal.confident else ""
        out.write(f"  {number}. {option.score:.2f}  {_shorten(record.title, 80)}"
                  f"{f' ({where})' if where else ''}  [{option.source}]{sure}\n")
        out.write(f"       why: {option.why}\n")
        for change in option.changes:
            old = _shorten(change.old, 50) if change.old else "(none)"
            out.write(f"       {change.field}: {old} → {_shorten(change.new, 120)}\n")
        if not option.changes:
            out.write("       (nothing to change)\n")
    if filled is not None:
        out.write(f"  completed {proposal.key} with {', '.join(filled)}\n")


def _proposal_json(proposal: complete.Proposal, filled: list[str] | None) -> dict[str, Any]:
    return {
        "key": proposal.key,
        "title": proposal.title,
        "provisional": proposal.provisional,
        "confident": proposal.confident,
        "completed": filled or [],
        "problems": list(proposal.problems),
        "candidates": [{
            "score": option.score,
            "source": option.source,
            "why": option.why,
            "title": option.record.title,
            "authors": [a.display() for a in option.record.authors],
            "venue": option.record.venue,
            "year": option.record.year,
            "doi": option.record.doi,
            "url": option.record.url,
            "changes": [{"field": c.field, "old": c.old, "new": c.new}
                        for c in option.changes],
        } for option in proposal.options],
    }

