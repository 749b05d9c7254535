"""The window side of `make bench`: open the main window offscreen on a library, measure
one thing, print one JSON object on stdout and exit.

    python -m tests.bench.probe startup|search|scroll|bulk|memory|backup --library PATH_OR_URL
    python -m tests.bench.probe live-watch --library URL --ready FILE --stop FILE --changes N
    python -m tests.bench.probe live-write --library URL --ids JSON --changes N --gap SECONDS
    python -m tests.bench.probe autoexport --library PATH --count N [--delay MS]
    python -m tests.bench.probe savedcounts --library PATH_OR_URL --count N

The library is a file's path or a database URL (a library on PostgreSQL), opened as the
window opens it. `live-watch` and `live-write` are the two windows of the live-update
figure: one stars papers, the other reports when its table showed each star.
`autoexport` gives the library an every-paper and a starred BibTeX auto-export, then
stars N papers in the window, each timed to the starred file rewritten by the window.
`savedcounts` gives the library figure 15's 20 saved searches, then stars N papers in the
window, each timed to the sidebar showing the saved searches' new counts.

The window is built as `papershelf` builds it (`gui/app.py`: the application's names, the
interface language, the library opened with its first-start check, `MainWindow`), but
with a fresh settings file (a reproducible layout at 1280x800) and without the
single-instance server or the crash dialog: an exception ends the probe with status 3.

Everything is observed through public behaviour only: paint events of the table's
viewport, the model's row count and Qt's model signals, the window's actions and signals,
so the probe keeps working while the window's internals change. "Painted" means a paint
event of the viewport has been handled (the time is taken in a zero-timer queued by the
event filter, so it includes the painting itself) and the rows it shows have text.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

PROCESS_START = time.time()  # as early as the probe can see (the parent timed Popen)

TIMEOUT = 120.0  # seconds for any single wait: a hang is reported, not waited out
QUIET_MS = 300  # "settled": no model change and no running job for this long
STOP_GRACE = 10.0  # seconds a live-update watch goes on after the writing window is done
TICK_MS = 10  # the event-loop heartbeat of the bulk-edit measurement
WINDOW_SIZE = (1280, 800)


def search_queries(seed: int = 30) -> list[str]:
    """30 typical queries of the search language: words, pairs and words being typed
    (a prefix), and the field language: authors, titles, years, a venue, negation, OR
    and a group.

    Words come from the generator's real machine-learning vocabulary, which its Zipf
    weights make the most frequent words of the synthetic abstracts.
    """
    from tests.bench.synthetic import FAMILY, ML_WORDS

    rnd = random.Random(seed)
    words = [w for w in ML_WORDS if len(w) >= 4]
    families = [f.lower() for f in FAMILY if f.isascii()]

    def two() -> list[str]:
        return rnd.sample(words, 2)

    singles = rnd.sample(words, 8)
    pairs = [" ".join(two()) for _ in range(6)]
    prefixes = [w[:4] for w in rnd.sample(words, 3)]
    fields = [f"au:{rnd.choice(families)}", f"au:{rnd.choice(families)} {rnd.choice(words)}",
              f"title:{rnd.choice(words)}", f"title:{rnd.choice(words)} year:>=2020",
              f"venue:icml {rnd.choice(words)}", f"year:2020 {rnd.choice(words)}"]
    negated = ["{} -{}".format(*two()) for _ in range(3)]
    either = ["{} OR {}".format(*two()) for _ in range(3)]
    grouped = ["({} OR {}) -{}".format(*rnd.sample(words, 3))]
    return singles + pairs + prefixes + fields + negated + either + grouped


def vm_kb(field: str) -> int:
    """A /proc/self/status field in kB (VmHWM: peak resident set; VmRSS: current)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _crash(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    """An exception anywhere (also in a Qt slot) ends the probe: a result must be real."""
    traceback.print_exception(kind, exc, tb)
    sys.stderr.flush()
    os._exit(3)


class Timeout(Exception):
    """A wait ran out: the window did not get there in TIMEOUT seconds."""


class Heartbeat:
    """An event-loop tick every TICK_MS from its making until `stop` (or the end of a
    `with` block): a long gap between ticks is a moment the window could not paint."""

    def __init__(self) -> None:
        from papershelf.gui.qt import QTimer

        self.started = time.perf_counter()
        self.ticks: list[float] = []  # perf_counter of each tick
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(lambda: self.ticks.append(time.perf_counter()))
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def __enter__(self) -> Heartbeat:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def beats(self, start: float, end: float) -> list[float]:
        """The ticks from `start` to `end`."""
        return [t for t in self.ticks if start <= t <= end]

    def max_stall_ms(self, start: float, end: float) -> float:
        """The longest gap between ticks from `start` to `end` (both ends count)."""
        beats = self.beats(start, end)
        return max(b - a for a, b in zip([start, *beats], [*beats, end])) * 1000


class Probe:
    """One window on one library, and what its table does."""

    def __init__(self, library_path: str, settings_dir: str) -> None:
        from papershelf.gui import i18n, qt
        from papershelf.gui import settings as S
        from papershelf.gui.app import _open_library, first_paint, make_application
        from papershelf.gui.settings import Settings

        self.qt = qt
        self.app = make_application()
        self.translators = i18n.install(Settings().get(S.LANGUAGE))
        self.store = qt.QSettings(str(Path(settings_dir) / "settings.ini"),
                                  qt.QSettings.Format.IniFormat)
        self.marks: dict[str, float] = {}
        self.paints: list[tuple[float, int, int]] = []  # (time, rows, model changes)
        self.changes = 0
        self.last_change = 0.0
        self.first_paint_wall: float | None = None
        self._loop: Any = None
        self._done: Callable[[], bool] | None = None
        self.paint_hook: Callable[[], None] | None = None  # called after each handled paint
        self._filter = _PaintFilter(self)
        # As `papershelf` starts: a library file's first page painted before the library
        # is opened (gui.app.first_paint), else the window built on the opened library.
        window = first_paint(library_path, Settings(self.store), built=self._watch)
        if window is not None:
            self.marks["first_paint"] = time.time()
        library = _open_library(library_path, True)
        if library is None:
            raise SystemExit(f"cannot open {library_path}")
        self.library = library
        self.marks["library_opened"] = time.time()
        if window is None:
            from papershelf.gui.main_window import MainWindow

            window = MainWindow(library, Settings(self.store))
            self._watch(window)
        else:
            window.attach(library)
        self.marks["window_built"] = time.time()

    def _watch(self, window: Any) -> None:
        """Watch the window's table (before it shows)."""
        self.window = window
        self.window.resize(*WINDOW_SIZE)
        self.table = self.window.table
        self.model = self.window.model
        self.viewport = self.table.viewport()
        self.viewport.installEventFilter(self._filter)
        for signal in (self.model.modelReset, self.model.layoutChanged,
                       self.model.rowsInserted, self.model.rowsRemoved):
            signal.connect(self._model_changed)

    # -- what happened ----------------------------------------------------------------

    def _model_changed(self, *_args: object) -> None:
        self.changes += 1
        self.last_change = time.perf_counter()
        self._check()

    def _painted(self) -> None:
        """A viewport paint has been handled (queued from the event filter)."""
        rows = self.model.rowCount()
        if rows and self.first_paint_wall is None:
            self.first_paint_wall = time.time()
        self.paints.append((time.perf_counter(), rows, self.changes))
        if self.paint_hook is not None:
            self.paint_hook()
        self._check()

    def _check(self) -> None:
        if self._loop is not None and self._done is not None and self._done():
            self._loop.quit()

    def wait(self, done: Callable[[], bool], timeout: float | None = None,
             what: str = "the window") -> None:
        """Run the event loop until `done()` (checked on every paint, model change and
        every 50 ms), or raise Timeout (after TIMEOUT seconds unless told)."""
        if done():
            return
        timeout = TIMEOUT if timeout is None else timeout
        qt = self.qt
        loop = qt.QEventLoop()
        self._loop, self._done = loop, done
        poll = qt.QTimer()
        poll.setInterval(50)
        poll.timeout.connect(self._check)
        poll.start()
        expired = []

        def give_up() -> None:
            expired.append(True)
            loop.quit()

        qt.QTimer.singleShot(int(timeout * 1000), loop, give_up)
        loop.exec()
        poll.stop()
        self._loop = self._done = None
        if expired and not done():
            raise Timeout(f"{what} took more than {timeout:.0f} s")

    def pause(self, seconds: float) -> None:
        """Run the event loop for `seconds`."""
        end = time.perf_counter() + seconds
        self.wait(lambda: time.perf_counter() >= end, seconds + 1, "a pause")

    def settle(self, timeout: float | None = None) -> None:
        """Wait until no job runs and the model has not changed for QUIET_MS."""
        quiet = QUIET_MS / 1000
        start = time.perf_counter()

        def idle() -> bool:
            now = time.perf_counter()
            return (not self.window.tasks.busy() and now - self.last_change >= quiet
                    and now - start >= quiet and self.complete())

        self.wait(idle, timeout, "settling")

    def complete(self) -> bool:
        """Whether the model holds the whole view (a model loading big views in steps
        says so with a `complete` property; one that does not is always complete)."""
        return bool(getattr(self.model, "complete", True))

    def text_at(self, row: int) -> str:
        """The title cell's text of a row ('' when the row is not loaded yet)."""
        column = self.model.column_index("title")
        value = self.model.data(self.model.index(row, column))
        return value if isinstance(value, str) else ""

    def visible_rows_shown(self) -> bool:
        """The first and last visible rows have their text (not a placeholder)."""
        height = self.viewport.height()
        top, bottom = self.table.rowAt(0), self.table.rowAt(height - 1)
        if top < 0:
            return False
        if bottom < 0:
            bottom = self.model.rowCount() - 1
        return bool(self.text_at(top)) and bool(self.text_at(bottom))

    def paint_after(self, start: float, ok: Callable[[], bool] = lambda: True,
                    timeout: float | None = None, what: str = "a paint") -> float:
        """Seconds from `start` to the first handled paint after it with rows shown and
        `ok()` true at that moment."""
        found: list[float] = []
        seen = len(self.paints)
        while seen and self.paints[seen - 1][0] >= start:
            seen -= 1

        def done() -> bool:
            nonlocal seen
            while seen < len(self.paints):
                moment, rows, _changes = self.paints[seen]
                seen += 1
                if moment >= start and rows and ok() and self.visible_rows_shown():
                    found.append(moment)
                    return True
            return False

        self.wait(done, timeout, what)
        return found[0] - start

    # -- start-up ----------------------------------------------------------------------

    def show(self) -> None:
        """Show the window and wait for the first paint of rows."""
        self.window.show()
        self.wait(lambda: self.first_paint_wall is not None, what="the first paint")

    def result(self) -> dict[str, Any]:
        """What every probe reports."""
        return {
            "rows": self.model.rowCount(),
            "process_start": PROCESS_START,
            "first_paint_wall": self.first_paint_wall,
            "marks": self.marks,
            "vmhwm_mb": vm_kb("VmHWM") / 1024,
            "vmrss_mb": vm_kb("VmRSS") / 1024,
        }

    def close(self) -> None:
        """Close like the user does; let jobs finish; delete the window now."""
        from papershelf.gui import i18n

        qt = self.qt
        self.window.close()
        self.window.tasks.wait()
        qt.QApplication.processEvents()
        self.window.deleteLater()
        qt.QApplication.sendPostedEvents(None, qt.QEvent.Type.DeferredDelete)
        self.library.close()
        i18n.remove(self.translators)

    # -- search as you type --------------------------------------------------------------

    def search(self, queries: list[str], budget: float | None = None) -> dict[str, Any]:
        """Type each query into the search field letter by letter, as a user does; time
        every keystroke to the table painting the first results of what is typed so far
        (the word being typed is a prefix), or the empty table when nothing matches.

        The next key is pressed once the rows of the last one are painted. With a
        `budget` (seconds), no query starts once it is spent (at least one runs).
        """

        from papershelf.gui.qt import Qt

        field = self.window.search
        results: list[dict[str, Any]] = []
        began = time.perf_counter()
        for query in queries:
            if budget is not None and results and time.perf_counter() - began > budget:
                break
            # Ctrl+F: focus, text selected (typing replaces it)
            self.window.features.listing.focus_search()
            if not field.hasFocus():
                field.setFocus(Qt.FocusReason.ShortcutFocusReason)
            field.clear()
            self.settle()
            keystrokes = []
            for n, key in enumerate(query):
                keystrokes.append(self._keystroke(field, key, query[:n + 1]) * 1000)
            self.settle()
            empty = self.model.rowCount() == 0
            results.append({"query": query, "ms": keystrokes[-1], "keystrokes": keystrokes,
                            "rows": self.model.rowCount(), "empty": empty,
                            "first_matches": empty or self._first_row_matches(query)})
        return {"queries": results}

    def _keystroke(self, field: Any, key: str, typed: str) -> float:
        """Seconds from pressing `key` to the table painting what `typed` finds."""
        from PySide6.QtTest import QTest

        before = self.changes
        start = time.perf_counter()
        QTest.keyClick(field, key)
        wanted = (typed.strip(), not typed[-1:].isspace())

        def arrived() -> bool:
            view = self.model.view
            return self.changes > before and (view.search, view.typing) == wanted

        def answered() -> bool:
            """Rows for the query are in, or it has none (and nothing is coming)."""
            return arrived() and (self.model.rowCount() > 0 or (
                not self.window.tasks.busy() and self.complete()))

        self.wait(answered, what=f"search {typed!r}")
        if self.model.rowCount() == 0:  # time to the first paint of the empty table
            return next((moment for moment, _rows, changes in self.paints
                         if moment >= start and changes > before), self.last_change) - start
        return self.paint_after(start, arrived, what=f"search {typed!r}")

    def _first_row_matches(self, query: str) -> bool:
        """Whether the first row's paper is one the query (as typed) means."""
        from datetime import timezone

        from papershelf.core import query as language

        pid = self.model.id_at(0)
        paper = self.library.paper(pid) if pid is not None else None
        if paper is None:
            return False
        record = paper.record
        added = paper.added_at if paper.added_at.tzinfo else paper.added_at.replace(
            tzinfo=timezone.utc)
        searchable = language.Searchable(
            added=added, title=record.title, abstract=record.abstract, notes=record.notes,
            authors=[a.display() for a in record.authors], venue=record.venue,
            tags=self.library.tags_of([paper.id]).get(paper.id, []), key=paper.key,
            doi=record.doi, entry_type=record.entry_type, starred=paper.starred,
            read_state=paper.read_state, year=record.year)
        return language.evaluate(language.parse(query, typing=True), searchable)

    # -- scrolling and sorting -------------------------------------------------------------

    def scroll_and_sort(self) -> dict[str, Any]:
        """Jump to the end, re-sort by title, by year (both directions), and so on; each
        timed to the next paint showing the rows."""
        from papershelf.gui.qt import Qt

        asc, desc = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder
        title, year = self.model.column_index("title"), self.model.column_index("year")
        steps: list[tuple[str, Callable[[], None]]] = []
        for sort_name, column, order in (("sort_title", title, asc), ("sort_year", year, asc),
                                         ("sort_title", title, desc),
                                         ("sort_year", year, desc)):
            steps.append(("scroll_end", self.table.scrollToBottom))
            steps.append((sort_name, lambda c=column, o=order: self.table.sortByColumn(c, o)))
        samples: list[dict[str, Any]] = []
        bar = self.table.verticalScrollBar()

        def at_end() -> bool:
            return bar.value() == bar.maximum()

        for name, act in steps:
            self.settle()
            first_id, before = self.model.id_at(0), self.changes
            if name == "scroll_end":
                ok = at_end
            else:
                def ok(first_id: int | None = first_id, before: int = before) -> bool:
                    return self.changes > before and self.model.id_at(0) != first_id
            start = time.perf_counter()
            act()
            seconds = self.paint_after(start, ok, what=name)
            samples.append({"step": name, "ms": seconds * 1000})
        return {"samples": samples}

    # -- bulk edits --------------------------------------------------------------------------

    def bulk(self, count: int) -> dict[str, Any]:
        """Select `count` rows, star them, mark them read (each timed, with the longest
        gap between event-loop ticks meanwhile); then undo both and check the library
        is as it was."""
        from sqlalchemy import event

        from papershelf.gui.qt import QItemSelection, QItemSelectionModel

        model = self.model
        self.settle()  # the whole view is in, so `count` rows exist to select
        count = min(count, model.rowCount())
        selection = QItemSelection(model.index(0, 0),
                                   model.index(count - 1, model.columnCount() - 1))
        flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                 | QItemSelectionModel.SelectionFlag.Rows)
        self.table.selectionModel().select(selection, flags)
        self.settle()
        before_counts = self.library.counts()
        commits: list[float] = []

        def committed(_conn: object) -> None:
            commits.append(time.perf_counter())

        event.listen(self.library.engine, "commit", committed)
        changed: list[tuple[float, object]] = []

        def on_changed(change_event: object) -> None:
            changed.append((time.perf_counter(), change_event))
            self._check()

        self.window.ops.changed.connect(on_changed)
        heartbeat = Heartbeat()
        results = {}
        try:
            for name in ("toggle_star", "mark_read"):
                self.settle()
                heartbeat.ticks.clear()
                seen, commits_before = len(changed), len(commits)
                start = time.perf_counter()
                self.window.actions[name].trigger()
                self.wait(lambda seen=seen: len(changed) > seen, what=name)
                end = changed[seen][0]
                painted = end + self.paint_after(end, what=f"the paint after {name}")
                # The stall counts until the table shows the change: a freeze while it
                # catches up is as visible as one during the write.
                change = getattr(changed[seen][1], "change", None)
                results[name] = {
                    "seconds": end - start,
                    "to_paint_seconds": painted - start,
                    "max_stall_ms": heartbeat.max_stall_ms(start, painted),
                    "ticks": len(heartbeat.beats(start, end)),
                    "transactions": len([t for t in commits[commits_before:] if t <= end]),
                    "papers_changed": len(getattr(change, "ids", ()) or ()),
                }
            for _ in range(2):
                self.settle()
                seen = len(changed)
                self.window.undo()  # what Edit > Undo (Ctrl+Z) does
                self.wait(lambda seen=seen: len(changed) > seen, what="undo")
            self.settle()
        finally:
            heartbeat.stop()
            event.remove(self.library.engine, "commit", committed)
        results["selected"] = count
        results["restored"] = self.library.counts() == before_counts
        return results

    def edit(self, edits: int) -> dict[str, Any]:
        """Edit the first row's year `edits` times in the detail pane's Edit tab, as a
        user does (type it, press Enter): each timed from the Enter to the write landing
        and to the table's year cell repainted with the new value; then undo them all
        and check the paper's year is back."""
        self.settle()
        self.table.selectRow(0)
        self.wait(lambda: self.window.detail.current_id() is not None, what="the detail")
        pid = self.window.detail.current_id()
        self.window.actions["edit_fields"].trigger()  # E
        fields = self.window.detail.fields_editor
        year = fields.editor("year")
        original = self.library.paper_fields(pid).get("year")
        column = self.model.column_index("year")
        changed: list[float] = []

        def on_changed(_event: object) -> None:
            changed.append(time.perf_counter())
            self._check()

        self.window.ops.changed.connect(on_changed)
        saved: list[float] = []
        painted: list[float] = []
        for i in range(edits):
            value = str(1900 + i if str(1900 + i) != original else 1899)
            self.settle()
            seen = len(changed)
            year.setText(value)
            start = time.perf_counter()
            year.editingFinished.emit()  # (what Enter sends; offscreen no key reaches it)
            self.wait(lambda seen=seen: len(changed) > seen, what="a field edit")
            shown = self.paint_after(
                start, lambda value=value: str(self.model.data(
                    self.model.index(0, column))) == value, what="the edited year")
            saved.append(changed[seen] - start)
            painted.append(shown)
        for _ in range(edits):
            self.settle()
            seen = len(changed)
            self.window.undo()
            self.wait(lambda seen=seen: len(changed) > seen, what="undo")
        self.settle()
        return {"saved_seconds": saved, "painted_seconds": painted,
                "restored": self.library.paper_fields(pid).get("year") == original}

    def backup(self) -> dict[str, Any]:
        """File > Backups > Back Up Now on this library: how long until the backup is in
        place (quick-checked), how much longer its full integrity check takes, and the
        longest gap between event-loop ticks meanwhile (the window must go on)."""
        from papershelf.core import backup

        self.settle()
        dialog = self.window.features.admin.show_backups()
        assert dialog is not None
        self.wait(lambda: not self.window.tasks.busy(), what="the backups list")
        with Heartbeat() as heartbeat:
            start = time.perf_counter()
            dialog.back_up_button.click()
            self.wait(lambda: dialog.back_up_button.isEnabled(), what="the backup")
            end = time.perf_counter()
            self.wait(lambda: dialog.status.text().endswith(" and checked")
                      or not dialog.status.text().startswith("Backed up"),
                      what="the backup's full check")
            checked = time.perf_counter()
        library_file = backup.library_file(self.library.url)
        assert library_file is not None
        made = [b for b in backup.list_backups(library_file, with_counts=False)
                if b.kind == "manual"]
        for info in made:  # (the cached library stays as it was)
            info.path.unlink()
        dialog.close()
        return {"seconds": end - start, "check_seconds": checked - end,
                "max_stall_ms": heartbeat.max_stall_ms(start, checked),
                "ok": bool(made) and dialog.status.text().endswith(" and checked")}

    def unstarred_rows(self, count: int, seed: int = 13) -> list[int]:
        """`count` rows, picked at random among the first, whose papers are not starred."""
        ids = [self.model.id_at(r) for r in range(min(self.model.rowCount(), 20 * count))]
        known = self.library.rows([pid for pid in ids if pid is not None])
        rows = [r for r, pid in enumerate(ids) if pid in known and not known[pid].starred]
        if len(rows) < count:
            raise SystemExit(f"only {len(rows)} unstarred papers among the first rows")
        return random.Random(seed).sample(rows, count)

    # -- auto-exports ------------------------------------------------------------------------

    def autoexport_stars(self, stars: int, every: Path, starred: Path,
                         delay_ms: int) -> dict[str, Any]:
        """With the auto-exports `every` (every paper) and `starred` (the starred papers)
        in place and the window's quiet time set to `delay_ms`: `stars` unstarred papers
        starred in turn as the user does (the row selected, Star / Unstar), each timed to
        the starred file on disk updated (its modification time) and to the window saying
        the auto-exports are up to date, with the longest gap between event-loop ticks
        from the star to then."""
        exporter = self.window.features.autoexport.exporter
        exporter.delay_ms = delay_ms
        states: list[tuple[float, str]] = []

        def on_state(state: str, _text: str) -> None:
            states.append((time.perf_counter(), state))
            self._check()

        exporter.stateChanged.connect(on_state)
        self.wait(lambda: exporter.state == "ok" and not exporter.pending
                  and not self.window.tasks.busy(), what="the first auto-export refresh")
        self.settle()
        chosen = self.unstarred_rows(stars)
        every_before = every.stat().st_mtime_ns
        samples: list[dict[str, float]] = []
        with Heartbeat() as heartbeat:
            for row in chosen:
                self.table.selectRow(row)
                self.settle()
                before = starred.stat()
                seen = len(states)
                start_ns, start = time.time_ns(), time.perf_counter()
                self.window.actions["toggle_star"].trigger()  # S

                def written(seen: int = seen, before: os.stat_result = before) -> bool:
                    now = starred.stat()
                    return any(state == "ok" for _t, state in states[seen:]) and (
                        now.st_mtime_ns, now.st_ino) != (before.st_mtime_ns, before.st_ino)

                self.wait(written, what="the starred file written")
                told = next(t for t, state in states[seen:] if state == "ok")
                samples.append({
                    "written_ms": (starred.stat().st_mtime_ns - start_ns) / 1e6,
                    "told_ms": (told - start) * 1000,
                    "max_stall_ms": heartbeat.max_stall_ms(start, told),
                })
        self.settle()
        starred_now = self.library.rows([self.model.id_at(r) for r in chosen])
        return {"stars": samples, "delay_ms": exporter.delay_ms,
                "all_starred": all(p.starred for p in starred_now.values()),
                "every_rewritten": every.stat().st_mtime_ns != every_before,
                "starred_kb": starred.stat().st_size / 1024}

    # -- saved searches' counts ----------------------------------------------------------

    def saved_counts(self, stars: int, shown: list[tuple[float, list[int | None]]],
                     heartbeat: Heartbeat, searches: int) -> dict[str, Any]:
        """The sidebar's saved searches' counts: first counted in full as the window
        opens (`searches` of them), then after each of `stars` papers starred as the
        user does (the row selected, Star / Unstar), each timed to the sidebar showing
        the new counts, with the longest gap between event-loop ticks from the star to
        then. `shown` holds (perf_counter, counts) of every time the sidebar set its
        saved searches' counts (`watch_saved`); `heartbeat` ticks since before the
        window showed its first rows (the moment `show` returned)."""
        sidebar = self.window.sidebar
        painted = time.perf_counter()  # (show has just returned: rows are painted)

        def counted() -> bool:
            return len(sidebar.saved()) == searches and bool(shown) and all(
                item.text(1) for item in sidebar._saved_items)

        self.wait(counted, what="the saved searches counted in full")
        self.settle()
        self.wait(lambda: not self.window.tasks.busy(), what="the start-up counts")
        full_at = shown[-1][0]
        startup = {"counted_ms": (full_at - painted) * 1000,
                   "full_counts": len([1 for _t, c in shown
                                       if len(c) == searches and None not in c]),
                   # (the searches are listed at once, their counts filled in as known)
                   "listed_ms": max(0.0, (shown[0][0] - painted) * 1000),  # (0: before)
                   "max_stall_ms": heartbeat.max_stall_ms(painted, max(full_at, painted)),
                   "opening_max_stall_ms": heartbeat.max_stall_ms(heartbeat.started,
                                                                  max(full_at, painted))}
        samples: list[dict[str, float]] = []
        for row in self.unstarred_rows(stars, seed=15):
            self.table.selectRow(row)
            self.settle()
            seen = len(shown)
            start = time.perf_counter()
            self.window.actions["toggle_star"].trigger()  # S
            self.wait(lambda seen=seen: len(shown) > seen, what="the saved counts updated")
            told = shown[seen][0]
            samples.append({"ms": (told - start) * 1000,
                            "max_stall_ms": heartbeat.max_stall_ms(start, told)})
        self.settle()
        self.wait(lambda: not self.window.tasks.busy(), what="the last counts")
        exact = self.library.saved_counts()
        last = shown[-1][1]
        agree = last == [exact[s.id] for s in sidebar.saved()]
        return {"startup": startup, "stars": samples, "agree": agree,
                "searches": len(sidebar.saved())}

    # -- live updates (a library on PostgreSQL) -------------------------------------------

    def starred_at(self, row: int) -> bool | None:
        """Whether the table shows the paper of `row` starred (None: not loaded)."""
        paper = self.model.row_at(row)
        return None if paper is None else bool(paper.starred)

    def watch_stars(self, rows: int, ready: Path, stop: Path, changes: int) -> dict[str, Any]:
        """Watch the stars of the first `rows` rows: after every paint, each row whose
        star changed since the last paint is noted with the time (time.time()).

        Once listening and settled, the rows' ids and stars are written to `ready`. The
        watch ends when `changes` stars have changed, or STOP_GRACE seconds after `stop`
        appears (the other window is done: a change not shown by then never will be).
        """
        live = self.window.features.live.updates
        if live is None:
            raise SystemExit("not a shared library: the window does not listen for changes")
        self.wait(lambda: live.connected, what="listening")
        self.settle()
        shown = self.table.rowAt(self.viewport.height() - 1)
        if 0 <= shown < rows - 1:
            raise SystemExit(f"only {shown + 1} rows are visible; {rows} are watched")
        ids = [self.model.id_at(r) for r in range(rows)]
        starred = {pid: self.starred_at(r) for r, pid in enumerate(ids)}
        seen: dict[int | None, list[tuple[bool | None, float]]] = {pid: [] for pid in ids}
        count = [0]
        moved: list[int] = []

        def painted() -> None:
            now = time.time()
            for r, pid in enumerate(ids):
                if self.model.id_at(r) != pid:
                    moved.append(r)  # (the rows stay put: the view's order ignores stars)
                    continue
                state = self.starred_at(r)
                if state is not None and state != starred[pid]:
                    starred[pid] = state
                    seen[pid].append((state, now))
                    count[0] += 1

        self.paint_hook = painted
        partial = ready.with_name(ready.name + ".partial")
        partial.write_text(json.dumps({"ids": ids, "starred": [starred[i] for i in ids]}))
        os.replace(partial, ready)

        def finished() -> bool:
            if count[0] >= changes:
                return True
            try:
                return time.time() - stop.stat().st_mtime >= STOP_GRACE
            except FileNotFoundError:
                return False

        try:
            self.wait(finished, what=f"{changes} stars changed elsewhere")
        finally:
            self.paint_hook = None
        return {"transitions": {str(pid): noted for pid, noted in seen.items()},
                "seen": count[0], "moved": sorted(set(moved))}

    def write_stars(self, ids: list[int], changes: int, gap: float) -> dict[str, Any]:
        """Star or unstar (whichever it is not) the papers `ids` in turn, `changes` times,
        as a click on the star does, about `gap` seconds apart; the wall time
        (time.time()) each write's transaction was committed at."""
        from sqlalchemy import event

        self.settle()
        commits: list[float] = []

        def committed(_conn: object) -> None:
            commits.append(time.time())  # (as the COMMIT is sent)

        done: list[object] = []

        def on_changed(change_event: object) -> None:
            done.append(change_event)
            self._check()

        event.listen(self.library.engine, "commit", committed)
        self.window.ops.changed.connect(on_changed)
        jitter = random.Random(9)
        made = []
        try:
            for n in range(changes):
                pid = ids[n % len(ids)]
                starred = not self.library.rows([pid])[pid].starred
                commits_before, before = len(commits), len(done)
                self.window.ops.set_starred([pid], starred)

                def written(before: int = before) -> bool:
                    return len(done) > before

                self.wait(written, what="a star")
                mine = commits[commits_before:]
                made.append({"id": pid, "starred": starred, "transactions": len(mine),
                             "commit_wall": mine[-1] if mine else None})
                self.pause(gap * jitter.uniform(0.8, 1.2))
        finally:
            event.remove(self.library.engine, "commit", committed)
        return {"commits": made}

    # -- memory ------------------------------------------------------------------------------

    def scroll_through(self, stops: int = 20) -> None:
        """Scroll from top to bottom in `stops` jumps, each to its paint (for memory)."""
        bar = self.table.verticalScrollBar()
        for n in range(stops + 1):
            value = math.floor(bar.maximum() * n / stops)
            if value == bar.value():
                continue
            start = time.perf_counter()
            bar.setValue(value)
            if n:
                self.paint_after(start, what="a scroll")
        self.settle()


class _PaintFilter:
    """Sees the viewport's paint events (a QObject made lazily, after QApplication)."""

    def __new__(cls, probe: Probe) -> Any:
        qt = probe.qt

        class Filter(qt.QObject):
            def eventFilter(self, watched: Any, event: Any) -> bool:
                if event.type() == qt.QEvent.Type.Paint:
                    qt.QTimer.singleShot(0, probe._painted)
                return False

        return Filter()


def add_auto_exports(library_path: str, folder: Path) -> tuple[Path, Path]:
    """Give the library two BibTeX auto-exports in `folder`, every paper and the starred
    ones, both written (before the window opens, as a library that has them)."""
    from papershelf.core import autoexport
    from papershelf.core.library import Library

    every, starred = folder / "all.bib", folder / "starred.bib"
    library = Library.open(library_path)
    try:
        autoexport.add(library, every)
        autoexport.add(library, starred, "starred")
    finally:
        library.close()
    return every, starred


def add_saved_searches(library_path: str) -> int:
    """Replace the library's saved searches by the 20 of figure 15 (before the window
    opens, as a library that has them); how many there are."""
    from papershelf.core.library import Library
    from tests.bench.savedcounts import SEARCHES, save_searches

    library = Library.open(library_path)
    try:
        save_searches(library)
    finally:
        library.close()
    return len(SEARCHES)


def watch_saved() -> list[tuple[float, list[int | None]]]:
    """(perf_counter, counts) of every time a sidebar sets its saved searches' counts
    from now on (its `set_saved`, wrapped before any window is built; None: a count
    not known yet)."""
    from papershelf.gui.sidebar import Sidebar

    shown: list[tuple[float, list[int | None]]] = []
    original = Sidebar.set_saved

    def set_saved(self: Sidebar, found: list[tuple[Any, int | None]]) -> None:
        original(self, found)
        shown.append((time.perf_counter(), [count for _s, count in found]))

    Sidebar.set_saved = set_saved  # type: ignore[method-assign]
    return shown


def main(argv: list[str] | None = None) -> int:
    global TIMEOUT
    parser = argparse.ArgumentParser(prog="python -m tests.bench.probe")
    parser.add_argument("what", choices=("startup", "search", "scroll", "bulk", "memory",
                                         "backup", "live-watch", "live-write", "edit",
                                         "autoexport", "savedcounts"))
    parser.add_argument("--library", required=True, help="a library file or a URL")
    parser.add_argument("--count", type=int, default=100_000,
                        help="rows to select (bulk); edits made (edit); papers starred "
                             "(autoexport, savedcounts)")
    parser.add_argument("--queries", help="JSON list of queries (search; default: 30)")
    parser.add_argument("--budget", type=float,
                        help="search: start no query after SECONDS (default: no limit)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help=f"seconds for any single wait (default: {TIMEOUT:.0f})")
    parser.add_argument("--changes", type=int, default=50, help="live-*: stars changed")
    parser.add_argument("--rows", type=int, default=10, help="live-watch: rows watched")
    parser.add_argument("--ready", help="live-watch: file written once watching")
    parser.add_argument("--stop", help="live-watch: file that appears when the writer is done")
    parser.add_argument("--ids", help="live-write: JSON list of the paper ids to star")
    parser.add_argument("--gap", type=float, default=0.5,
                        help="live-write: seconds between stars (about)")
    parser.add_argument("--delay", type=int, default=50,
                        help="autoexport: the window's quiet time before a refresh, ms")
    args = parser.parse_args(argv)
    TIMEOUT = args.timeout
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.excepthook = _crash
    with tempfile.TemporaryDirectory(prefix="papershelf-probe-") as folder:
        if args.what == "autoexport":
            exports = add_auto_exports(args.library, Path(folder))
        elif args.what == "savedcounts":
            searches = add_saved_searches(args.library)
            shown = watch_saved()
        # As `papershelf` starts (gui.app.run_gui): a shared library's first page read in
        # a thread while Qt loads.
        from papershelf.core.firstpage_pg import read_ahead

        read_ahead(args.library)
        probe = Probe(args.library, folder)
        heartbeat = Heartbeat() if args.what == "savedcounts" else None
        probe.show()
        result = probe.result()
        if args.what == "startup":
            pass
        elif args.what == "search":
            probe.settle()
            queries = json.loads(args.queries) if args.queries else search_queries()
            result.update(probe.search(queries, args.budget))
        elif args.what == "scroll":
            result.update(probe.scroll_and_sort())
        elif args.what == "bulk":
            result.update(probe.bulk(args.count))
        elif args.what == "backup":
            result.update(probe.backup())
        elif args.what == "edit":
            result.update(probe.edit(args.count))
        elif args.what == "autoexport":
            result.update(probe.autoexport_stars(args.count, *exports, args.delay))
        elif args.what == "savedcounts":
            assert heartbeat is not None
            with heartbeat:
                result.update(probe.saved_counts(args.count, shown, heartbeat, searches))
        elif args.what == "live-watch":
            result.update(probe.watch_stars(args.rows, Path(args.ready), Path(args.stop),
                                            args.changes))
        elif args.what == "live-write":
            result.update(probe.write_stars(json.loads(args.ids), args.changes, args.gap))
        elif args.what == "memory":
            probe.settle()
            probe.scroll_through()
            result.update(vmhwm_mb=vm_kb("VmHWM") / 1024, vmrss_mb=vm_kb("VmRSS") / 1024)
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
        probe.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
