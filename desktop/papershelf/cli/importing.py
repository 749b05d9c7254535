"""Papers coming in from files and the browser: `import` and `serve-connector` (the
Zotero Connector's server)."""

from __future__ import annotations

import argparse
from typing import TextIO

from papershelf.cli.arguments import port_argument
from papershelf.cli.common import print_error, read_stdin
from papershelf.core.library import ImportReport, Library
from papershelf.core.transfer import ImportOutcome
from papershelf.formats.records import FormatError
from papershelf.launch import one_line


def import_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE")


def run_import(library: Library, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Import each file; a bad file is reported and the others still imported."""

    def each(name: str, result: ImportReport | FormatError) -> None:
        print_import(library, result, out, err)

    outcome = ImportOutcome.collect(library, args.files, "total", each=each,
                                    stdin=read_stdin)
    if len(args.files) > 1:
        out.write(outcome.report.summary() + "\n")
    return 1 if outcome.failed_files else 0


def print_import(library: Library, result: ImportReport | FormatError, out: TextIO,
                 err: TextIO) -> None:
    """What the import of one file did: its summary, notes and each entry that failed."""
    if isinstance(result, FormatError):
        print_error(err, result)
        return
    library.index_pending()
    out.write(result.summary() + "\n")
    for notice in result.notices:
        out.write(f"  note: {notice}\n")
    for problem in result.problems:
        out.write(f"  failed: {problem}\n")



def serve_connector_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=port_argument, default=None, metavar="N",
                   help="the port on 127.0.0.1 (default 23119, Zotero's)")


def run_serve_connector(library: Library, args: argparse.Namespace, out: TextIO,
                        err: TextIO) -> int:
    """The Zotero Connector's server on this library until Ctrl+C: one line per paper
    saved; a port in use (Zotero running) is one error line."""
    from papershelf.core import connector, receiving

    def say(line: str) -> None:
        out.write(one_line(line) + "\n")
        out.flush()

    port = connector.DEFAULT_PORT if args.port is None else args.port
    connector.serve(lambda heard: receiving.Receiver(library, on_saved=heard), port, say)
    return 0

