"""Annotations from the command line: `annotations list|add|import|export|notes|delete`.

A highlight is made of a quote found on a page of the paper's PDF (the page counted from
1, whatever its label); citations print the page's label. The PDF is read in a worker
process, within bounds (papershelf.reading.bounded).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from papershelf.cli.arguments import (
    add_key,
    keys_argument,
    library_option,
    output_argument,
    tag_argument,
    text_argument,
)
from papershelf.cli.common import CliError, ids_for, output_file, saved_search
from papershelf.core.annotating import COLORS, MARKS, Annotation
from papershelf.core.library import Library
from papershelf.core.shapes import View
from papershelf.core.transfer import write_atomically
from papershelf.launch import one_line
from papershelf.reading import marking
from papershelf.reading.notes import CITE_FORMS


def _page(value: str) -> int:
    try:
        page = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a page number") from None
    if not 1 <= page <= 100_000:
        raise argparse.ArgumentTypeError(f"page {page}: pages are counted from 1")
    return page


def _color(value: str) -> str:
    value = value.strip().lower()
    if value not in COLORS and not (value.startswith("#") and len(value) == 7):
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a colour (one of {', '.join(COLORS)}, or #rrggbb)")
    return value


def read_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("--page", type=_page, metavar="N",
                   help="the page to show, counted from 1 (default: where you left it)")


def run_read(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Check that the paper exists and its PDF is on this computer: the window, which
    `__main__` opens next on `launch.read_arguments`, shows it."""
    (pid,) = ids_for(library, [args.key])
    detail = library.paper(pid)
    if detail is None or detail.local_pdf is None:
        raise CliError(f"{args.key}: no PDF of it is on this computer (attach one with "
                       f"`papershelf attach {args.key} FILE`)")
    return 0


def annotations_arguments(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="annotations_command", metavar="ACTION", required=True)
    c = actions.add_parser("list", parents=[library_option()],
                           help="a paper's annotations in reading order")
    add_key(c)
    c.add_argument("--json", action="store_true", help="print JSON, one object per line")
    c = actions.add_parser("add", parents=[library_option()],
                           help="highlight a quote on a page of the paper's PDF")
    add_key(c)
    c.add_argument("--page", type=_page, required=True, metavar="N",
                   help="the page, counted from 1 (whatever its label)")
    c.add_argument("--quote", type=text_argument, required=True, metavar="TEXT",
                   help="the exact text to highlight (white space and case may differ)")
    c.add_argument("--comment", default="", metavar="TEXT")
    c.add_argument("--color", type=_color, default="yellow", metavar="COLOUR",
                   help=f"{', '.join(COLORS)} or #rrggbb (default: yellow)")
    c.add_argument("--kind", choices=MARKS, default="highlight")
    c.add_argument("--shared", action="store_true",
                   help="every member of a shared library sees it (default: only you)")
    c = actions.add_parser("import", parents=[library_option()],
                           help="read the annotations already in the paper's PDF (once)")
    add_key(c)
    c.add_argument("--shared", action="store_true",
                   help="every member of a shared library sees them")
    c = actions.add_parser("export", parents=[library_option()],
                           help="the annotations of papers as one Markdown document, or "
                           "a copy of a paper's PDF with them")
    c.add_argument("keys", nargs="*", metavar="KEY", type=keys_argument)
    c.add_argument("--tag", metavar="TAG", type=tag_argument, help="the papers with a tag")
    c.add_argument("--saved", metavar="NAME", type=text_argument,
                   help="the papers a saved search finds")
    c.add_argument("--format", choices=("markdown", "pdf"), default="markdown")
    c.add_argument("--cite", choices=CITE_FORMS, default="latex",
                   help="latex: \\cite[p.~3]{key}; pandoc: [@key, p. 3]")
    c.add_argument("-o", "--output", type=output_argument, metavar="FILE")
    c = actions.add_parser("notes", parents=[library_option()],
                           help="add the paper's annotations to its notes, as quotes with "
                           "page-exact citations")
    add_key(c)
    c.add_argument("--cite", choices=CITE_FORMS, default="latex")
    c = actions.add_parser("delete", parents=[library_option()],
                           help="delete annotations by their numbers (see `list`)")
    add_key(c)
    c.add_argument("numbers", nargs="+", type=int, metavar="ID")


def run_annotations(library: Library, args: argparse.Namespace, out: TextIO,
                    err: TextIO) -> int:
    """List, add, import, export, note or delete annotations."""
    action = args.annotations_command
    if action == "export":
        return _export(library, args, out)
    (paper_id,) = ids_for(library, [args.key])
    if action == "list":
        marks = library.annotations_of([paper_id]).get(paper_id, [])
        for mark in marks:
            out.write((json.dumps(_as_json(mark, args.key), ensure_ascii=False)
                       if args.json else _line(mark)) + "\n")
        return 0
    if action == "add":
        _change, made = marking.highlight(
            library, paper_id, args.key, args.page, args.quote, comment=args.comment,
            color=args.color, kind=args.kind, shared=args.shared)
        out.write(f"{made.id}\tp. {made.page_label}\t{made.quote}\n")
        return 0
    if action == "import":
        problems: list[str] = []
        _change, added, there = marking.import_from_file(library, paper_id, args.key,
                                                         shared=args.shared,
                                                         problems=problems)
        for problem in problems:
            err.write(f"warning: {one_line(problem)}\n")
        out.write(f"{added} of the {there} annotations in {args.key}'s PDF imported"
                  + (f" ({there - added} already were)" if there - added else "") + "\n")
        return 0
    if action == "notes":
        _change, added = marking.add_to_notes(library, paper_id, args.key, args.cite)
        out.write(f"{added} annotations added to the notes of {args.key}\n")
        return 0
    known = {m.id for m in library.annotations_of([paper_id]).get(paper_id, [])}
    missing = [str(n) for n in args.numbers if n not in known]
    if missing:
        raise CliError(f"{args.key} has no annotation {', '.join(missing)} (see "
                       f"`papershelf annotations list {args.key}`)")
    library.remove_annotations(args.numbers)
    out.write(f"{len(args.numbers)} annotations of {args.key} deleted\n")
    return 0


def _export(library: Library, args: argparse.Namespace, out: TextIO) -> int:
    if args.keys:
        ids = ids_for(library, args.keys)
    elif args.tag or args.saved:
        search = saved_search(library, args.saved).query if args.saved else ""
        ids = library.view_ids(View(tag=args.tag, search=search))
    else:
        raise CliError("name the papers: KEY..., --tag or --saved")
    target = output_file(args.output)
    if args.format == "pdf":
        if len(ids) != 1 or not target:
            raise CliError("a PDF with annotations is one paper's: name one KEY and -o FILE")
        key = library.rows(ids)[ids[0]].key
        count = marking.export_pdf(library, ids[0], key, Path(target))
        out.write(f"{target}: {key}'s PDF with {count} annotations\n")
        return 0
    text = marking.markdown(library, ids, args.cite)
    if not text:
        raise CliError("none of these papers has annotations")
    if target:
        write_atomically(Path(target), text)
    else:
        out.write(text)
    return 0


def _line(mark: Annotation) -> str:
    what = mark.quote or mark.comment
    extra = f"\t{mark.comment}" if mark.quote and mark.comment else ""
    shared = "\tshared" if mark.shared else ""
    return f"{mark.id}\tp. {mark.page_label}\t{mark.kind}\t{what}{extra}{shared}"


def _as_json(mark: Annotation, key: str) -> dict[str, Any]:
    return {"id": mark.id, "key": key, "kind": mark.kind, "page": mark.page_index + 1,
            "page_label": mark.page_label, "quote": mark.quote, "comment": mark.comment,
            "color": mark.color, "shared": mark.shared, "owner": mark.owner,
            "origin": mark.origin, "rects": [list(r) for r in mark.rects],
            "created": mark.created_at.isoformat(), "modified": mark.modified_at.isoformat()}

