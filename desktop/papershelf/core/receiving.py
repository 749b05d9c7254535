"""What the browser's Zotero Connector asks of a library: its save sessions and writes.

The Connector saves a page in a *session* (its `sessionID`): the items its translator
found (`save_items`) or the page itself (`save_snapshot`), then the PDFs it downloaded
for them (`save_attachment`, naming the item by the Connector's id for it), and, while
its popup is open, the target and tags the user picks (`update_session`). Papershelf has
no collections: the library is the Connector's root target ("L1") and each tag a
collection under it ("T<n>"); saving into a tag puts that tag on the papers.

No write happens on the caller's thread by itself: each goes to the `Runner` the caller
gives, which runs a function of the library and returns its `Change` (one undo step per
request). The command line serialises them with a lock (`serialised`); the window runs
them through its operations, in its write worker. Reads (the tags offered as targets)
use the library directly: its queries open a session of their own per call. No Qt.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from papershelf.core.edits import Change, combined
from papershelf.core.files import fingerprint
from papershelf.core.library import Library
from papershelf.formats.records import PaperRecord, ReadResult
from papershelf.formats.zotero_items import MAX_TAG, ZoteroItem, read_item, webpage
from papershelf.messages import counted, text

Write = Callable[[Library], Change]
Runner = Callable[[Write], Change]

SOURCE = "Zotero Connector"  # what the library's import log names these imports by
LIBRARY_TARGET = "L1"
MAX_SESSIONS = 200  # sessions remembered (the oldest forgotten first)
MAX_ITEMS = 500  # items of one saveItems request


def serialised(library: Library) -> Runner:
    """A Runner that writes on the calling thread, one write at a time."""
    lock = threading.Lock()

    def run(write: Write) -> Change:
        with lock:
            return write(library)

    return run


class Refused(Exception):
    """A request the Connector's server refuses: its HTTP status and error code (as
    Zotero's server_connector.js answers: 400 SESSION_NOT_FOUND, 409 SESSION_EXISTS)."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code


@dataclass(frozen=True)
class Saved:
    """One paper a request saved or changed, for a line on the command line."""

    verb: str  # "saved", "attached", "tagged"
    key: str
    title: str
    detail: str = ""

    def line(self) -> str:
        """`saved Smith2024: Title` / `attached paper.pdf to Smith2024: Title`."""
        what = f"{self.detail} to {self.key}" if self.verb == "attached" else (
            f"{self.key} with {self.detail}" if self.detail else self.key)
        return f"{self.verb} {what}: {self.title}"


@dataclass
class SaveSession:
    """One save of the Connector: the papers it made, by the Connector's ids for them,
    and the target and tags chosen for them so far."""

    id: str
    action: str
    target: str = LIBRARY_TARGET
    tags: list[str] = field(default_factory=list)
    note: str = ""
    papers: dict[str, int] = field(default_factory=dict)
    own_tags: dict[int, set[str]] = field(default_factory=dict)  # the items' own tags
    applied: set[str] = field(default_factory=set)  # tags this session put on
    noted: dict[int, str] = field(default_factory=dict)  # note text it added, by paper
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def _one_step(description: str, changes: Sequence[Change]) -> Change:
    """`changes` as one undo step named `description` (structural if any of them is)."""
    real = [change for change in changes if change.ids or change.structural]
    return _named(combined(description, real), description,
                  any(change.structural for change in real))


def _named(change: Change, description: str, structural: bool) -> Change:
    """`change` named `description`, and structural, as are its undo and its redo (which
    `combined` does not keep: the table would not drop a paper an undo took away)."""
    undo = change.undo
    return replace(change, description=description, structural=structural,
                   undo=None if undo is None else
                   lambda: _named(undo(), description, structural))


def _take_back(done: list[Change]) -> None:
    """Undo what a failed request wrote before it failed, the last first."""
    for change in reversed(done):
        if change.undo is not None:
            change.undo()


def _tag_list(value: Any) -> list[str]:
    """updateSession's tags: a list of strings, or one string of commas (older
    Connectors)."""
    if isinstance(value, str):
        value = value.split(",")
    names: list[str] = []
    for name in value if isinstance(value, list) else []:
        if isinstance(name, str):
            clean = " ".join("".join(c for c in name if c.isprintable()).split())
            clean = clean.strip(",")[:MAX_TAG]
            if clean and clean not in names:
                names.append(clean)
    return names


def _session_id(data: dict[str, Any]) -> str:
    ident = data.get("sessionID")
    if not isinstance(ident, str) or not ident or len(ident) > 200:
        raise Refused(400, "SESSION_ID_NOT_PROVIDED")
    return ident


class Receiver:
    """The Connector's sessions on one library; every write through `run`. `on_saved`
    hears of each paper saved or changed (on the request's thread)."""

    def __init__(self, library: Library, run: Runner | None = None,
                 on_saved: Callable[[Saved], None] | None = None) -> None:
        self.library = library
        self.run = run if run is not None else serialised(library)
        self.on_saved = on_saved
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, SaveSession] = OrderedDict()
        self._tag_ids: dict[str, str] = {}  # tag name -> "T<n>", stable while running
        self.target = LIBRARY_TARGET  # where the next save goes (the last one chosen)
        self._unnamed = 0

    # -- targets ------------------------------------------------------------------------

    def _tag_id(self, name: str) -> str:
        with self._lock:
            if name not in self._tag_ids:
                self._tag_ids[name] = f"T{len(self._tag_ids) + 1}"
            return self._tag_ids[name]

    def _tag_named(self, target: str) -> str | None:
        """The tag a target id stands for (None: the library itself)."""
        if target == LIBRARY_TARGET:
            return None
        with self._lock:
            for name, ident in self._tag_ids.items():
                if ident == target:
                    return name
        raise Refused(400, "COLLECTION_NOT_FOUND")

    def selected_collection(self) -> dict[str, Any]:
        """getSelectedCollection: the library as the root target, its tags under it,
        the target chosen last as the selected one, the tags for autocompletion."""
        name = Path(self.library.location).stem if not self.library.shared \
            else self.library.location
        name = f"Papershelf: {name}"
        tags = self.library.tag_names()
        targets = [{"id": LIBRARY_TARGET, "name": name, "filesEditable": True, "level": 0}]
        targets += [{"id": self._tag_id(tag), "name": tag, "filesEditable": True,
                     "level": 1} for tag in tags]
        chosen = next((t for t in targets[1:] if t["id"] == self.target), None)
        return {
            "libraryID": 1, "libraryName": name, "libraryEditable": True,
            "filesEditable": True, "editable": True,
            "id": chosen["id"] if chosen else None,
            "name": chosen["name"] if chosen else name,
            "targets": targets,
            "tags": {LIBRARY_TARGET: [{"tag": tag, "type": 0} for tag in tags]},
        }

    # -- sessions -----------------------------------------------------------------------

    def _new_session(self, data: dict[str, Any], action: str) -> SaveSession:
        ident = data.get("sessionID")
        with self._lock:
            if ident is None:  # (older Connectors send none: a session of its own)
                self._unnamed += 1
                ident = f"papershelf-{self._unnamed}"
        ident = _session_id({"sessionID": ident})
        with self._lock:
            if ident in self._sessions:
                raise Refused(409, "SESSION_EXISTS")
            session = SaveSession(ident, action, target=self.target)
            self._sessions[ident] = session
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
            return session

    def _session(self, ident: str) -> SaveSession:
        with self._lock:
            session = self._sessions.get(ident)
        if session is None:
            raise Refused(400, "SESSION_NOT_FOUND")
        return session

    def _forget(self, session: SaveSession) -> None:
        with self._lock:
            self._sessions.pop(session.id, None)

    # -- saving -------------------------------------------------------------------------

    def save_items(self, data: dict[str, Any]) -> list[Saved]:
        """saveItems: each item a paper (added, or completing the paper it already
        is), with its tags and notes and the session's target tag."""
        raw_items = data.get("items")
        if not isinstance(raw_items, list) or len(raw_items) > MAX_ITEMS:
            raise Refused(400, "INVALID_ITEMS")
        items = [read_item(item, n) if isinstance(item, dict) else None
                 for n, item in enumerate(raw_items, start=1)]
        usable = [item for item in items if item is not None]
        if not usable:
            raise Refused(400, "INVALID_ITEMS")
        session = self._new_session(data, "saveItems")
        return self._save(session, usable)

    def save_snapshot(self, data: dict[str, Any]) -> list[Saved]:
        """saveSnapshot: the page itself as a webpage paper (its URL and title)."""
        url = data.get("url") or data.get("uri")
        if not isinstance(url, str) or not url.strip():
            raise Refused(400, "URL_NOT_PROVIDED")
        title = data.get("title")
        record = webpage(url, title if isinstance(title, str) else "")
        session = self._new_session(data, "saveSnapshot")
        return self._save(session, [ZoteroItem(record, url)])

    def _save(self, session: SaveSession, items: list[ZoteroItem]) -> list[Saved]:
        with session.lock:
            try:
                self.run(lambda library: self._write_items(library, session, items))
            except BaseException:
                self._forget(session)  # (as Zotero does: the Connector may try again)
                raise
            return self._tell("saved", list(dict.fromkeys(session.papers.values())))

    def _write_items(self, library: Library, session: SaveSession,
                     items: list[ZoteroItem]) -> Change:
        done: list[Change] = []
        try:
            for item in items:
                report = library.import_result(ReadResult(records=[item.record]), SOURCE,
                                               "zotero")
                done.append(library.import_change(report))
                made = report.added_ids or report.merged_ids
                pid: int | None = made[0] if made else None
                if pid is None:
                    pid = library.paper_for(item.record)[0]
                if pid is None:
                    continue
                session.papers[item.connector_id] = pid
                session.own_tags.setdefault(pid, set()).update(item.tags)
                if item.tags:
                    done.append(library.add_tags([pid], item.tags))
                notes = [note for note in item.notes if note]
                if notes:
                    done.append(self._append_notes(library, pid, notes))
            done += self._apply_session(library, session, list(session.papers.values()))
        except BaseException:
            _take_back(done)
            raise
        ids = list(dict.fromkeys(session.papers.values()))
        return _one_step(counted("Save %n papers from the browser", len(ids)), done)

    def _append_notes(self, library: Library, pid: int, notes: list[str]) -> Change:
        detail = library.paper(pid)
        now = detail.record.notes if detail is not None else ""
        new = [note for note in notes if note not in now]
        if not new:
            return Change(text("Edit notes"), frozenset())
        return library.set_notes(pid, "\n\n".join(part for part in (now.rstrip(), *new)
                                                   if part))

    def _apply_session(self, library: Library, session: SaveSession,
                       ids: list[int]) -> list[Change]:
        """Give the session's papers its target tag and tags (taking off the ones it
        put on before and no longer wants, never an item's own), and its note."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        target_tag = self._tag_named(session.target)
        wanted = set(session.tags) | ({target_tag} if target_tag else set())
        changes: list[Change] = []
        gone = session.applied - wanted
        for pid in ids:
            off = gone - session.own_tags.get(pid, set())
            if off:
                changes.append(library.remove_tags([pid], sorted(off)))
        if wanted:
            changes.append(library.add_tags(ids, sorted(wanted)))
        session.applied = wanted
        for pid in ids:
            if session.noted.get(pid, "") != session.note:
                changes.append(self._replace_note(library, session, pid))
        return changes

    def _replace_note(self, library: Library, session: SaveSession, pid: int) -> Change:
        """The note typed in the Connector's popup, at the end of the paper's notes (in
        place of the one it added before)."""
        detail = library.paper(pid)
        now = detail.record.notes if detail is not None else ""
        before = session.noted.get(pid, "")
        if before and now.endswith(before):
            now = now[:-len(before)].rstrip()
        session.noted[pid] = session.note
        return library.set_notes(pid, "\n\n".join(p for p in (now, session.note) if p))

    def update_session(self, data: dict[str, Any]) -> list[Saved]:
        """updateSession: the target and tags (and note) chosen in the Connector's
        popup, applied to the papers the session saved (and to those it saves later)."""
        session = self._session(_session_id(data))
        target = data.get("target", session.target)
        if not isinstance(target, str) or not target:
            raise Refused(400, "COLLECTION_NOT_FOUND")
        self._tag_named(target)  # (refused when unknown)
        note = data.get("note", "")
        with session.lock:
            session.target = target
            self.target = target
            session.tags = _tag_list(data.get("tags"))
            session.note = note.strip()[:100_000] if isinstance(note, str) else ""
            ids = list(dict.fromkeys(session.papers.values()))
            if not ids:
                return []

            def write(library: Library) -> Change:
                done: list[Change] = []
                try:
                    done = self._apply_session(library, session, ids)
                except BaseException:
                    _take_back(done)
                    raise
                return _one_step(counted("Tag %n papers from the browser", len(ids)), done)

            self.run(write)
            return self._tell("tagged", ids, ", ".join(sorted(session.applied)))

    def save_attachment(self, metadata: dict[str, Any], path: Path) -> list[Saved]:
        """saveAttachment: a PDF (at `path`, the request's body) for the paper the
        session saved under the Connector's `parentItemID`."""
        session = self._session(_session_id(metadata))
        parent = metadata.get("parentItemID")
        with session.lock:
            pid = session.papers.get(parent) if isinstance(parent, str) else None
            if pid is None and len(session.papers) == 1 and parent is None:
                pid = next(iter(session.papers.values()))
            if pid is None:
                raise Refused(400, "PARENT_ITEM_NOT_FOUND")
            return self._attach(pid, path)

    def save_standalone(self, metadata: dict[str, Any], path: Path) -> list[Saved]:
        """saveStandaloneAttachment: a PDF open in the browser, as a paper of its own
        (titled as the Connector names it), with the PDF attached."""
        ident = _session_id(metadata)
        url, title = metadata.get("url"), metadata.get("title")
        url = url.strip() if isinstance(url, str) else ""
        title = title.strip() if isinstance(title, str) else ""
        if not url:
            raise Refused(400, "METADATA_NOT_PROVIDED")
        record: PaperRecord = webpage(url, title or Path(url).name)
        saved = self.save_snapshot({"sessionID": ident, "url": url, "title": record.title})
        session = self._session(ident)
        with session.lock:
            ids = list(session.papers.values())
            return saved + self._attach(ids[0], path) if ids else saved

    def _attach(self, pid: int, path: Path) -> list[Saved]:
        _size, sha256 = fingerprint(path)
        if any(a.sha256 == sha256 for a in self.library.attachments(pid)):
            return []  # (saved again: it has it already)
        self.run(lambda library: library.attach_file(pid, path))
        return self._tell("attached", [pid], path.name)

    def _tell(self, verb: str, ids: list[int], detail: str = "") -> list[Saved]:
        rows = self.library.rows(ids)
        saved = [Saved(verb, rows[pid].key, rows[pid].title, detail)
                 for pid in ids if pid in rows]
        if self.on_saved is not None:
            for one in saved:
                self.on_saved(one)
        return saved
