"""Every command of `papershelf`, declared once: its name, the module of papershelf.cli
that holds it, its help line and what it runs on.

This module imports nothing of Papershelf, so `launch` reads the names here without
loading the command line. A command's module (`main.GROUPS`) defines its handler,
`run_<function>`, and `<function>_arguments(parser)` if it takes arguments; `function`
is the name in snake_case, or the `code` commands share (star and unstar: `mark`).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

# What the handler gets: the opened library, the library's file without opening it (a
# damaged library can still be restored or salvaged), or nothing but the arguments (the
# command names the libraries it works on itself, and takes no --library).
Runs = Literal["library", "file", "arguments"]


class Command(NamedTuple):
    """One command: as typed, where it lives, its line in `papershelf --help`."""

    name: str
    group: str
    help: str
    code: str = ""
    runs: Runs = "library"
    makes_library: bool = False  # (a missing library named explicitly is made only here)

    @property
    def function(self) -> str:
        """The name its handler and argument builder are made of."""
        return self.code or self.name.replace("-", "_")


COMMANDS: tuple[Command, ...] = (
    Command("import", "importing", "import abstract lists, BibTeX, RIS and CSL-JSON "
            "files, and Zotero's library (zotero.sqlite)", makes_library=True),
    Command("list", "searching", "list papers"),
    Command("search", "searching", "full-text search"),
    Command("star", "triage", "star papers", code="mark"),
    Command("unstar", "triage", "unstar papers", code="mark"),
    Command("mark-read", "triage", "mark papers read", code="mark"),
    Command("mark-reading", "triage", "mark papers as being read", code="mark"),
    Command("mark-unread", "triage", "mark papers unread", code="mark"),
    Command("note", "triage", "set a paper's notes (Markdown); '-' reads standard input; "
            "no text prints them"),
    Command("tag", "triage", "add tags to a paper"),
    Command("untag", "triage", "remove tags from a paper", code="tag"),
    Command("export", "exporting", "write BibTeX, RIS or CSL-JSON (default: every paper, "
            "as BibTeX, to standard output)"),
    Command("cite", "exporting", "a formatted bibliography (APA, IEEE, Chicago, ...) of "
            "the papers with these keys, or of those the filters choose"),
    Command("info", "libraries", "library location, schema version, counts"),
    Command("duplicates", "editing", "list papers that look like the same paper"),
    Command("merge", "editing", "fold the second paper into the first (keeps the first's "
            "key)"),
    Command("key-pattern", "editing", "show or set the citation key pattern for new "
            "papers"),
    Command("regenerate-keys", "editing", "give papers new keys from the current pattern"),
    Command("set-key", "editing", "change a paper's citation key"),
    Command("show", "editing", "every field of a paper (as 'field: value' lines)"),
    Command("set", "editing", "set fields of a paper (its citation key stays; see "
            "set-key)"),
    Command("new", "editing", "add a paper by hand (a title needed); prints its key",
            makes_library=True),
    Command("edit", "editing", "edit a paper's BibTeX entry in $VISUAL or $EDITOR (else "
            "vi)"),
    Command("backup", "libraries", "back the library up (into its backups folder, or to "
            "DEST)"),
    Command("backups", "libraries", "list the library's backups: date, kind, size, papers",
            runs="file"),
    Command("restore", "libraries", "replace the library by a backup (the library it "
            "replaces is kept as a backup)", runs="file"),
    Command("add", "metadata", "add papers by DOI, arXiv id, OpenReview/PMLR/ACL/DBLP link "
            "or title, from the services that own their metadata ('-' reads one per line "
            "from standard input)", makes_library=True),
    Command("attach", "files", "attach a PDF to a paper: copied into the library's files "
            "folder (or linked where it is); its text becomes searchable"),
    Command("detach", "files", "take attached files off a paper (all, or the one named); "
            "the files themselves stay where they are"),
    Command("files", "files", "list the files attached to a paper"),
    Command("download-pdf", "files", "download the PDF each paper names (arXiv, PMLR, "
            "OpenReview, its own link) into the library's files folder and attach it"),
    Command("open", "files", "open a paper's page (or its PDF) with the desktop's browser"),
    Command("upload-files", "files", "send the attached files on this computer that a "
            "shared library lacks, so that every member can open them"),
    Command("serve-connector", "importing", "receive papers from the browser's Zotero "
            "Connector (as Zotero would) until Ctrl+C"),
    Command("saved", "searching", "saved searches: named queries, listed in the window's "
            "sidebar"),
    Command("catalog", "metadata", "conference catalogs searched offline to complete "
            "papers"),
    Command("complete", "metadata", "look papers up (the catalogs added first, then "
            "OpenAlex, Semantic Scholar and DBLP) and show the candidates with what each "
            "would change; exit status 1 if a service answered badly"),
    Command("salvage", "libraries", "copy what can be read of a damaged library into a new "
            "file", runs="file"),
    Command("copy", "libraries", "copy a whole library (papers, tags, notes, your stars and "
            "read states) into a new library file or an empty database on a server, e.g. "
            "a file onto PostgreSQL or back", runs="arguments"),
    Command("init-shared", "libraries", "set up an empty shared library in an empty "
            "PostgreSQL database", runs="arguments"),
    Command("auto-export", "autoexport", "files kept current as the library changes (a "
            ".bib a LaTeX document reads)"),
    Command("annotations", "reading", "a paper's annotations: list, add (highlight a quote "
            "on a page of its PDF), import (those in the PDF), export (Markdown with "
            "page-exact citations, or a PDF), notes, delete"),
    Command("read", "reading", "open the window with a paper's PDF in a reader tab, where "
            "you left it (or at --page N)"),
    Command("follow", "feeds", "follow sources of new papers (arXiv, feeds, journals, "
            "authors): add, list, remove, check"),
    Command("inbox", "feeds", "what the sources you follow brought, best first; add, star, "
            "dismiss or keep items"),
    Command("retractions", "retractions", "retraction and correction notices (Retraction "
            "Watch, Crossref): update, list"),
    Command("around", "around", "a paper's references and the papers citing it (OpenAlex, "
            "Semantic Scholar, Crossref or OpenCitations), those in the library marked"),
    Command("missing", "around", "papers cited by at least K of your papers (or a tag's) "
            "that your library lacks, most cited first"),
)

NAMES: tuple[str, ...] = tuple(command.name for command in COMMANDS)
MAKERS: tuple[str, ...] = tuple(command.name for command in COMMANDS if command.makes_library)
BY_NAME = {command.name: command for command in COMMANDS}
