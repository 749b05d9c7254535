"""Every action of the window, declared once: stable name, text, icon, shortcut, tooltip.

Menus, the toolbar and the table's context menu all reuse the same QAction
objects (Picard's `actions.py`, calibre's `gui2/actions`). Standard shortcuts
come from `QKeySequence.StandardKey` where Qt has one, so they follow the
platform. Single-key triage shortcuts are scoped to the table, so they never
fire while the user types in the search field or the notes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from papershelf.gui.qt import (
    QAction,
    QKeySequence,
    Qt,
    QWidget,
    Translator,
    icon,
)

tr = Translator("Actions")

Key = QKeySequence.StandardKey | str


class Needs(Enum):
    """When an action is enabled."""

    ALWAYS = "always"
    SELECTION = "selection"  # at least one selected paper
    ROWS = "rows"  # the table shows at least one paper
    UNDO = "undo"
    REDO = "redo"
    SEARCH = "search"  # the search field has text


@dataclass(frozen=True)
class ActionSpec:
    """The declaration of one action."""

    name: str
    text: str
    tip: str
    keys: tuple[Key, ...] = ()
    icon: str = ""
    needs: Needs = Needs.ALWAYS
    table_only: bool = False  # shortcut active only while the table has the focus
    short: str = ""  # the toolbar's label, when shorter than the menu text
    checkable: bool = False  # a choice that stays on (View › Sort by Best Match)
    role: QAction.MenuRole = QAction.MenuRole.TextHeuristicRole  # where macOS puts it


def specs() -> list[ActionSpec]:
    """Every action's declaration, in the order the shortcuts dialog lists them."""
    sk = QKeySequence.StandardKey
    sel, rows = Needs.SELECTION, Needs.ROWS
    return [
        # File
        ActionSpec("open_file", tr("Open Library &File…"),
                   tr("Open another library file (this window closes)")),
        ActionSpec("open_shared", tr("Open S&hared Library…"),
                   tr("Open a library a group shares on a PostgreSQL server (this window "
                      "closes)")),
        ActionSpec("new_paper", tr("&New Paper…"),
                   tr("Add a paper by hand: choose its type, then fill in its fields"),
                   ("Ctrl+N",)),
        ActionSpec("import", tr("&Import…"), tr("Import abstract lists and BibTeX files"),
                   (sk.Open,), "import", short=tr("Import")),
        ActionSpec("add_identifiers", tr("Add by I&dentifier…"),
                   tr("Add papers by DOI, arXiv id, OpenReview, PMLR, ACL Anthology or DBLP "
                      "link, or title, looked up online"), ("Ctrl+Shift+N",), short=tr("Add")),
        ActionSpec("export_selection", tr("Export &Selection…"),
                   tr("Write the selected papers to a BibTeX, RIS or CSL-JSON file"),
                   ("Ctrl+E",), "export", needs=sel),
        ActionSpec("export_view", tr("Export &Current List…"),
                   tr("Write every paper of the current list to a BibTeX, RIS or CSL-JSON "
                      "file"), ("Ctrl+Shift+E",), needs=rows),
        ActionSpec("export_starred", tr("Export S&tarred Papers…"),
                   tr("Write every starred paper to a BibTeX, RIS or CSL-JSON file")),
        ActionSpec("export_cited", tr("Export Papers Cited in a &LaTeX Document…"),
                   tr("Choose a document's .aux (or biblatex's .bcf) file: write exactly "
                      "the papers it cites")),
        ActionSpec("export_annotations", tr("&Annotations…"),
                   tr("Write the annotations of the selected papers (none selected: of the "
                      "list) as one Markdown document, with page-exact citations")),
        ActionSpec("export_annotated_pdf", tr("&PDF with Annotations…"),
                   tr("Write a copy of the current paper's PDF with its annotations in, "
                      "for any PDF reader (the library's file is not changed)"), needs=sel),
        ActionSpec("auto_exports", tr("Auto-E&xports…"),
                   tr("Files kept current as the library changes, such as the .bib a "
                      "LaTeX document reads")),
        ActionSpec("backups", tr("&Backups…"),
                   tr("Back the library up now, see its backups, restore one")),
        ActionSpec("quit", tr("&Quit"), tr("Close Papershelf"), (sk.Quit, "Ctrl+Q"),
                   role=QAction.MenuRole.QuitRole),
        # Edit
        ActionSpec("undo", tr("&Undo"), tr("Undo the last change"), (sk.Undo,),
                   needs=Needs.UNDO),
        ActionSpec("redo", tr("&Redo"), tr("Redo the change just undone"), (sk.Redo,),
                   needs=Needs.REDO),
        ActionSpec("copy_bibtex", tr("&Copy BibTeX"),
                   tr("Copy the selected papers' BibTeX to the clipboard"),
                   ("Ctrl+Shift+C",), needs=sel),
        ActionSpec("copy_citation", tr("Copy Ci&tation"),
                   tr("Copy a citation of the selected papers (\\cite{…}, or the form "
                      "chosen in Preferences) to the clipboard"), ("Ctrl+Shift+K",),
                   needs=sel),
        ActionSpec("copy_bibliography", tr("Copy as Formatted &Bibliography"),
                   tr("Copy the selected papers' bibliography in the style chosen in "
                      "Preferences (APA, IEEE, …), for a word processor or as plain text"),
                   ("Ctrl+Shift+B",), needs=sel),
        ActionSpec("paste", tr("Pa&ste"),
                   tr("Add the papers on the clipboard: BibTeX entries, or DOIs, arXiv ids, "
                      "links or titles"), (sk.Paste,), table_only=True),
        ActionSpec("select_all", tr("Select &All"), tr("Select every paper of the list"),
                   (sk.SelectAll,), needs=rows, table_only=True),
        ActionSpec("find", tr("&Find…"), tr("Search titles, abstracts, authors and notes"),
                   (sk.Find,), "search"),
        ActionSpec("delete", tr("&Delete"), tr("Delete the selected papers (can be undone)"),
                   (sk.Delete,), needs=sel, table_only=True),
        ActionSpec("preferences", tr("&Preferences…"),
                   tr("Citation key pattern and BibTeX export defaults"),
                   (sk.Preferences, "Ctrl+,"), role=QAction.MenuRole.PreferencesRole),
        # View
        ActionSpec("filter_all", tr("&All Papers"), tr("Show every paper"), ("Ctrl+1",), "all"),
        ActionSpec("filter_unread", tr("&Unread"), tr("Show the unread papers"), ("Ctrl+2",),
                   "unread"),
        ActionSpec("filter_reading", tr("&Reading"), tr("Show the papers being read"),
                   ("Ctrl+3",), "reading"),
        ActionSpec("filter_read", tr("R&ead"), tr("Show the read papers"), ("Ctrl+4",), "read"),
        ActionSpec("filter_starred", tr("&Starred"), tr("Show the starred papers"),
                   ("Ctrl+5",), "star"),
        ActionSpec("save_search", tr("Save Searc&h…"),
                   tr("Save the current search under a name, listed in the sidebar with "
                      "its count"), needs=Needs.SEARCH),
        ActionSpec("sort_best", tr("Sort by Best &Match"),  # (gui.features.bestmatch)
                   tr("List a search's papers best match first: its words count most in "
                      "the title, then the authors, the abstract, the notes"),
                   checkable=True),
        ActionSpec("reset_layout", tr("Reset &Layout"),
                   tr("Restore the default column widths and pane sizes")),
        # Paper
        ActionSpec("read_pdf", tr("Read PDF"),
                   tr("Read the paper's attached PDF in a tab of the window: highlight, "
                      "annotate, find (Shift+O opens it in your PDF viewer)"),
                   ("Return", "Enter"), needs=sel, table_only=True),
        ActionSpec("close_tab", tr("Close Reader Tab"), tr("Close the reader tab shown"),
                   (sk.Close,)),
        ActionSpec("open_page", tr("Open &Web Page"),
                   tr("Open the paper's page (proceedings, DOI, arXiv…) in the web browser"),
                   ("O",), needs=sel, table_only=True),
        ActionSpec("open_pdf", tr("Open &PDF"),
                   tr("Open the paper's attached PDF, or else its PDF online in the web "
                      "browser"), ("Shift+O",), needs=sel, table_only=True),
        ActionSpec("attach_pdf", tr("Attac&h PDF…"),
                   tr("Attach a PDF file to the current paper, copied into the library's "
                      "files folder (also: drop a PDF on the paper's row)"), needs=sel),
        ActionSpec("download_pdf", tr("Down&load PDF"),
                   tr("Download the PDF each selected paper names (its own link, PMLR, "
                      "arXiv, OpenReview) and attach it"), needs=sel),
        ActionSpec("detach_files", tr("Detach Attached F&iles"),
                   tr("Take the attached files off the selected papers; the files stay in "
                      "the library's files folder (can be undone)"), needs=sel),
        ActionSpec("toggle_star", tr("&Star / Unstar"),
                   tr("Star the selected papers (unstar them if all are starred)"),
                   ("S",), "star", needs=sel, table_only=True, short=tr("Star")),
        ActionSpec("cycle_read", tr("Cycle &Read State"),
                   tr("Unread → reading → read → unread"), ("R",), "reading", needs=sel,
                   table_only=True, short=tr("Read State")),
        ActionSpec("mark_unread", tr("Mark &Unread"), tr("Mark the selected papers unread"),
                   (), "unread", needs=sel),
        ActionSpec("mark_reading", tr("Mark Rea&ding"),
                   tr("Mark the selected papers as being read"), (), "reading", needs=sel),
        ActionSpec("mark_read", tr("Mark R&ead"), tr("Mark the selected papers read"),
                   (), "read", needs=sel),
        ActionSpec("next_paper", tr("&Next Paper"), tr("Go to the next paper (also Down)"),
                   ("J",), needs=rows, table_only=True),
        ActionSpec("previous_paper", tr("Pre&vious Paper"),
                   tr("Go to the previous paper (also Up)"), ("K",), needs=rows,
                   table_only=True),
        ActionSpec("next_unread", tr("Ne&xt Unread Paper"), tr("Go to the next unread paper"),
                   ("U",), "unread", needs=rows, table_only=True),
        ActionSpec("edit_notes", tr("Edit N&otes"), tr("Jump to the notes of the paper"),
                   ("N",), "notes", needs=sel, table_only=True),
        ActionSpec("add_tag", tr("&Add Tag…"), tr("Put a tag on the selected papers"),
                   ("T",), "tag", needs=sel, table_only=True, short=tr("Tag")),
        ActionSpec("remove_tag", tr("Re&move Tag…"), tr("Take a tag off the selected papers"),
                   ("Shift+T",), needs=sel, table_only=True),
        ActionSpec("edit_fields", tr("Edit &Bibliographic Fields"),
                   tr("Edit every field of the current paper: title, authors, year, venue, "
                      "DOI, …"), ("E",), needs=sel, table_only=True),
        ActionSpec("edit_bibtex", tr("Edit BibTeX Sour&ce"),
                   tr("Edit the current paper's BibTeX entry as text"), ("Shift+E",),
                   needs=sel, table_only=True),
        ActionSpec("edit_key", tr("Edit Citation &Key…"),
                   tr("Change the citation key of the current paper"), ("F2",), needs=sel,
                   table_only=True),
        ActionSpec("regenerate_keys", tr("Re&generate Citation Keys…"),
                   tr("Give the selected papers new keys from the key pattern (can be "
                      "undone)"), needs=sel),
        ActionSpec("find_duplicates", tr("&Find Duplicates…"),
                   tr("List papers that look like the same paper, and merge them")),
        ActionSpec("papers_around", tr("Papers Around (b&y Citation)…"),
                   tr("The papers the current paper cites and those citing it, from "
                      "OpenAlex, Semantic Scholar, Crossref or OpenCitations; A adds the "
                      "selected ones"), needs=sel),
        ActionSpec("find_metadata", tr("Find Me&tadata…"),
                   tr("Look the selected papers up (none selected: every paper with a "
                      "provisional title) in your catalogs and online, and complete them "
                      "from the candidate you pick (can be undone)"), ("Ctrl+Shift+M",)),
        # Inbox (gui.features.feeds)
        ActionSpec("follow", tr("Follo&w…"),
                   tr("Follow an arXiv category or search, a journal's or blog's feed, a "
                      "journal by ISSN or an author: their new papers wait in the Inbox")),
        ActionSpec("check_feeds", tr("Chec&k Followed Sources Now"),
                   tr("Ask each source you follow for new papers, into the Inbox")),
        ActionSpec("show_inbox", tr("Show &Inbox"),
                   tr("Show the new papers of the sources you follow, best first"),
                   ("Ctrl+6",)),
        ActionSpec("inbox_add", tr("&Add to Library"),
                   tr("Add the selected inbox items to the library, unread"), ("A",),
                   needs=sel, table_only=True),
        ActionSpec("inbox_star", tr("Add &Starred"),
                   tr("Add the selected inbox items to the library, starred"), ("S",),
                   "star", needs=sel, table_only=True),
        ActionSpec("inbox_dismiss", tr("&Dismiss"),
                   tr("Take the selected items out of the inbox for good (can be undone)"),
                   ("D",), needs=sel, table_only=True),
        ActionSpec("inbox_keep", tr("K&eep / Unkeep"),
                   tr("Keep the selected inbox items past the clean-up of old items "
                      "(unkeep them if all are kept; can be undone)"), ("Shift+K",),
                   needs=sel, table_only=True),
        # Help
        ActionSpec("shortcuts", tr("&Keyboard Shortcuts"), tr("List every keyboard shortcut"),
                   (sk.HelpContents, "F1")),
        ActionSpec("about", tr("&About Papershelf"), tr("Version and library location"),
                   role=QAction.MenuRole.AboutRole),
    ]


def key_sequences(spec: ActionSpec) -> list[QKeySequence]:
    """The shortcuts of an action on this platform (a standard key may have none)."""
    found: list[QKeySequence] = []
    for key in spec.keys:
        sequences = (QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey)
                     else [QKeySequence(key)])
        for sequence in sequences:
            if not sequence.isEmpty() and sequence not in found:
                found.append(sequence)
        if found:
            break  # a standard key wins; the literal is a fallback where it has none
    return found


def shortcut_text(spec: ActionSpec) -> str:
    """The main shortcut as the user reads it ('Ctrl+O'); alternatives are not listed."""
    sequences = key_sequences(spec)
    return sequences[0].toString(QKeySequence.SequenceFormat.NativeText) if sequences else ""


class Actions:
    """The window's actions by stable name, all made here from `specs()`.

    The window keeps them as its `actions` attribute, which hides QWidget.actions();
    calling this object still answers as that method does, so nothing that asks the
    window for its actions breaks.
    """

    def __init__(self, parent: QWidget, table: QWidget) -> None:
        self._parent = parent
        self.specs = {spec.name: spec for spec in specs()}
        self._actions: dict[str, QAction] = {}
        for spec in self.specs.values():
            action = QAction(spec.text, parent)
            action.setObjectName(spec.name)
            if spec.icon:
                action.setIcon(icon(spec.icon))
            sequences = key_sequences(spec)
            if sequences:
                action.setShortcuts(sequences)
            shortcut = shortcut_text(spec)
            action.setToolTip(f"{spec.tip} ({shortcut})" if shortcut else spec.tip)
            action.setStatusTip(spec.tip)
            action.setMenuRole(spec.role)
            if spec.short:
                action.setIconText(spec.short)
            action.setCheckable(spec.checkable)
            if spec.table_only:
                action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                table.addAction(action)
            self._actions[spec.name] = action

    def __call__(self) -> list[QAction]:
        """The actions added to the parent widget (what QWidget.actions() returns)."""
        return QWidget.actions(self._parent)

    def __getitem__(self, name: str) -> QAction:
        return self._actions[name]

    def __iter__(self) -> Iterator[QAction]:
        return iter(self._actions.values())

    def update_enabled(self, *, selected: int, rows: int, can_undo: bool,
                       can_redo: bool, busy: bool = False, searching: bool = False) -> None:
        """Enable each action by what it needs (no writes while a bulk change runs)."""
        for name, spec in self.specs.items():
            ok = {
                Needs.ALWAYS: True,
                Needs.SELECTION: selected > 0,
                Needs.ROWS: rows > 0,
                Needs.UNDO: can_undo,
                Needs.REDO: can_redo,
                Needs.SEARCH: searching,
            }[spec.needs]
            if busy and spec.needs in (Needs.SELECTION, Needs.UNDO, Needs.REDO) \
                    and name not in ("copy_bibtex", "export_selection", "edit_notes"):
                ok = False
            self._actions[name].setEnabled(ok)
