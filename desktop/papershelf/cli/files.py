"""Files with papers: `attach`, `detach`, `files`, `download-pdf`, and `open` (a paper's
page or PDF)."""

from __future__ import annotations

import argparse
import webbrowser
from typing import TextIO

from papershelf.cli.arguments import add_key, key_argument
from papershelf.cli.common import CliError, ids_for, print_error
from papershelf.core.library import Library
from papershelf.metadata import attaching, identifiers
from papershelf.metadata.http import HttpSettings, make_client
from papershelf.opener import open_externally


def attach_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--link", action="store_true",
                   help="link the file where it is instead of copying it")


def run_attach(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Attach a PDF to a paper (copied, or linked) and read its text for search."""
    (pid,) = ids_for(library, [args.key])
    library.attach_file(pid, args.file, link=args.link)
    attached = library.attachments(pid)[-1]  # (the newest)
    where = "linked where it is" if args.link else f"copied into {library.files_folder}"
    out.write(f"attached {attached.name} to {args.key} ({where})\n")
    _index_texts(library, out)
    _problems = library.upload_files()[1] if library.shared else []
    for problem in _problems:  # (the file stays attached; `upload-files` tries again)
        out.write(f"  note: {problem}\n")
    return 0


def _index_texts(library: Library, out: TextIO) -> None:
    """Read the text of newly attached files for search, and say what came of it."""
    read, problems = attaching.index_texts(library)
    for problem in problems:
        out.write(f"  note: {problem}\n")
    readable = read - len(problems)
    if readable:
        out.write(f"  text of {readable} file{'s' if readable > 1 else ''} read: "
                  "search finds it\n")



def detach_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the file's name or number as `papershelf files KEY` lists it")


def run_detach(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Take one or all attached files off a paper; no file is deleted."""
    (pid,) = ids_for(library, [args.key])
    attached = library.attachments(pid)
    if not attached:
        raise CliError(f"{args.key} has no attached files")
    chosen = attached
    if args.file is not None:
        chosen = [a for n, a in enumerate(attached, start=1)
                  if args.file in (str(n), a.name, a.path)]
        if not chosen:
            names = ", ".join(a.name for a in attached)
            raise CliError(f"{args.key} has no attached file {args.file!r} (it has: {names})")
    library.detach_files([a.id for a in chosen])
    for attachment in chosen:
        kept = f" (the file stays in {attachment.location})" if attachment.location else ""
        out.write(f"detached {attachment.name} from {args.key}{kept}\n")
    return 0



def files_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)


def run_files(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """List a paper's attached files: number, name, size, kind, text, where."""
    (pid,) = ids_for(library, [args.key])
    attached = library.attachments(pid)
    for n, attachment in enumerate(attached, start=1):
        state = "searchable" if attachment.indexed else "text not read yet"
        if not attachment.present():
            state = "not on this computer"
        out.write(f"{n}. {attachment.name}  {attachment.size / 1e6:.1f} MB  "
                  f"{attachment.kind}  {state}  {attachment.location or attachment.path}\n")
    out.write(f"{len(attached)} attached file{'s' if len(attached) != 1 else ''}\n")
    return 0



def download_pdf_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keys", nargs="+", metavar="KEY", type=key_argument)
    p.add_argument("--offline", action="store_true",
                   help="ask no server (so nothing is downloaded), as PAPERSHELF_OFFLINE=1")


def run_download_pdf(library: Library, args: argparse.Namespace, out: TextIO,
                     err: TextIO) -> int:
    """Download and attach the PDF each paper names; one line per paper."""
    ids = ids_for(library, args.keys)
    with make_client(HttpSettings(offline=True if args.offline else None)) as client:
        fetched = attaching.download_all(library, ids, client)
    _change, problems = attaching.attach_fetched(library, fetched)
    failed = [item.error for item in fetched if item.error] + problems
    for line in failed:
        print_error(err, line)
    for item in fetched:
        if item.path is not None and item.path.exists():
            out.write(f"{item.key}: downloaded {item.path.name} "
                      f"({item.path.stat().st_size / 1e6:.1f} MB)\n")
    _index_texts(library, out)
    return 1 if failed else 0



def upload_files_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size-limit", type=int, metavar="MB",
                   help="first set the library's limit of one file, in megabytes (100 "
                   "unless set), for every member (its owner only)")


def run_upload_files(library: Library, args: argparse.Namespace, out: TextIO,
                     err: TextIO) -> int:
    """On a shared library, send the contents of the attached files on this computer
    that it lacks, once each, so every member can open them; a line for each refused
    (exit status 1)."""
    if not library.shared:
        raise CliError("a library file keeps its files on this computer: nothing to "
                       "upload (only a shared library keeps their contents)")
    if args.size_limit is not None:
        if args.size_limit <= 0:
            raise CliError(f"--size-limit {args.size_limit}: a number of megabytes over 0")
        library.set_file_size_limit(args.size_limit * 1024 * 1024)
        out.write(f"the library takes files of up to {args.size_limit} MB\n")
    sent, problems = library.upload_files()
    for problem in problems:
        print_error(err, problem)
    out.write(f"{sent} file{'s' if sent != 1 else ''} uploaded to the shared library\n")
    return 1 if problems else 0



def open_arguments(p: argparse.ArgumentParser) -> None:
    add_key(p)
    p.add_argument("--pdf", action="store_true",
                   help="the PDF instead of the page (an attached one first)")
    p.add_argument("--print", action="store_true", dest="print_only",
                   help="print the address instead of opening it")


def run_open(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Open (or print) the best page or PDF address a paper names; with --pdf, an
    attached PDF on this computer comes first (on a shared library, the library's copy
    of one, fetched into this member's cache)."""
    (pid,) = ids_for(library, [args.key])
    detail = library.paper(pid)
    assert detail is not None
    local = detail.local_pdf if args.pdf else None
    if args.pdf and local is None and library.shared:  # (the library's copy, cached)
        local = library.local_path_for(pid)
    if local is not None:
        if args.print_only:
            out.write(f"{local}\n")
        elif (failed := open_externally(local)) is not None:
            raise CliError(failed)
        return 0
    url = (identifiers.best_pdf if args.pdf else identifiers.best_page)(detail.record)
    if url is None:
        raise CliError(f"{args.key}: no {'PDF' if args.pdf else 'page'} address is known "
                       "(add its DOI, arXiv id or a url)")
    if args.print_only or not webbrowser.open(url):
        out.write(url + "\n")
    return 0

