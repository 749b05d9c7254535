"""The first screenful of a library file, read with the standard library's sqlite3.

The window paints its first rows from this before SQLAlchemy and the rest of the core
are imported (importing them takes longer than Qt's whole start: about 0.3 s of SQLAlchemy
against 0.2 s for a bare Qt window with a table), then opens the library as always and
takes over (`gui.main_window`). It answers only the questions of that first paint: the
sidebar's counts, the ids of the remembered view (filter, tag, sort; never a search) and
their rows, each exactly as `core.views` answers it (the tests compare the two on random
libraries and views).

Only a library file of the schema this code knows, read-only, and only when nothing
needs doing first: no file yet, an older or newer schema, a library that would get the
sample papers, any error at all: `FirstPage.open` returns None and the window starts the
ordinary way. It never writes and never creates a file. A database URL is handed to
`core.firstpage_pg` (a shared library's first page: the same queries, through libpq),
whose `open_first_page` opens either.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from papershelf.core import paths
from papershelf.core.shapes import FILTERS, READ_STATES, Counts, PaperRow, View

# The schema the queries below are written for (core.db.SCHEMA_HEAD; a test says when a
# migration makes them stale).
SCHEMA = "0027"  # (0013 to 0027 changed no column these queries read on a file)
SAMPLE_FLAG = "sample_imported"  # (core.importing.SAMPLE_FLAG)
# A library of fewer papers is counted before the window shows (the sidebar's counts); a
# bigger one is counted after, in the background (gui.features.listing).
COUNTED_BEFORE_SHOWN = 50_000
# A view's order, as core.views._order (SQLite's lower() is the one it calls, too);
# `{false}`: the dialect's false (FirstPage.FALSE).
_ORDER = {
    "title": "lower(p.title)",
    "authors": "p.authors_sort",
    "venue": "p.venue",
    "year": "p.year",
    "added": None,
    "starred": "coalesce(m.starred, {false})",
    "read_state": "coalesce(m.read_state, 'unread')",
    "key": "p.key",
    "progress": "coalesce((m.last_page + coalesce(m.last_position, 0.0)) "
                "/ nullif(m.page_count, 0), -1.0)",
    "last_read": "m.last_read_at",  # (never read: first up, last down, as core.views)
}
# The user's personal rows (core.store: '' on a file, the role on a server).
_MINE = "LEFT OUTER JOIN personal m ON m.paper_id = p.id AND m.user_name = {user}"
_ROW = ("SELECT p.id, p.key, p.title, p.title_provisional, p.authors_text, p.venue, "
        "p.year, coalesce(m.starred, {false}), coalesce(m.read_state, 'unread'), p.added_at, "
        "m.last_page, m.page_count, m.last_read_at "
        f"FROM papers p {_MINE} WHERE p.id IN ({{marks}})")
_CHUNK = 500  # ids per IN list (SQLite's limit of bound values is far above)


def library_file(target: str | None) -> Path | None:
    """The file `Library.open(target)` would open (core.db.resolve_target), or None for a
    database URL."""
    if not target:
        target = os.environ.get(paths.LIBRARY_ENV) or str(paths.default_library_path())
    if "://" in target:
        return None
    return Path(target).expanduser().resolve()


def library_url(target: str | None) -> str | None:
    """The URL `Library.open(target)` opens, as core.db.resolve_target gives it, without
    importing SQLAlchemy (a URL is not checked here: opening it is); None for a folder."""
    if not target:
        target = os.environ.get(paths.LIBRARY_ENV) or str(paths.default_library_path())
    if "://" in target:
        return target
    path = Path(target).expanduser().resolve()
    return None if path.is_dir() else f"sqlite:///{path}"


def _added(value: object) -> datetime:
    # As SQLAlchemy's SQLite DateTime reads it: naive, "YYYY-MM-DD HH:MM:SS[.ffffff]".
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


class FirstPage:
    """Read-only answers for the first paint, from a library file of schema SCHEMA (a
    shared library's: `core.firstpage_pg.SharedFirstPage`, the same queries)."""

    # The dialect's words in the queries: a bound value's mark, the user whose personal
    # rows are read (core.store: '' on a file, the role on a server), false.
    MARK = "?"
    USER = "''"
    FALSE = "0"
    shared = False  # (a library file: one user's)
    user_name = ""
    # What a query may raise (the library changed or went away since `open`).
    errors: tuple[type[Exception], ...] = (sqlite3.Error, OSError)

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db: Any = connection

    @classmethod
    def open(cls, target: str | None) -> FirstPage | None:
        """The first page of the library file at `target`, or None when the window must
        start the ordinary way (see the module's docstring; a shared library's first page
        is core.firstpage_pg's, and `firstpage_pg.open_first_page` opens either)."""
        path = library_file(target)
        if path is None or not path.is_file():
            return None
        try:
            uri = f"file:{quote(str(path))}?mode=ro"
            connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
        except (sqlite3.Error, OSError, ValueError):
            return None
        try:
            connection.execute("PRAGMA query_only = 1")
            schema = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            sampled = connection.execute("SELECT 1 FROM meta WHERE name = ?",
                                         (SAMPLE_FLAG,)).fetchone()
            if schema != [(SCHEMA,)] or sampled is None:
                connection.close()
                return None
        except (sqlite3.Error, OSError, ValueError):
            connection.close()
            return None
        return cls(path, connection)

    def close(self) -> None:
        self._db.close()

    def _rows(self, sql: str, values: Sequence[object] | None = ()) -> list[Any]:
        """The rows of a query written with `?` for its values, `{user}` for USER and
        `{false}` for FALSE."""
        sql = sql.format(user=self.USER, false=self.FALSE).replace("?", self.MARK)
        return list(self._db.execute(sql, values).fetchall())

    @property
    def url(self) -> str:
        """The library's URL, as `Library.url` gives it."""
        return f"sqlite:///{self.path}"

    @property
    def location(self) -> str:
        """The library's name, as `Library.location` gives it (its file path)."""
        return str(self.path)

    # -- what the first paint asks (the names and answers of core.library.Library) ------

    def size_estimate(self) -> int:
        return int(self._rows("SELECT max(id) FROM papers")[0][0] or 0)

    def counts(self) -> Counts:
        rows = self._rows
        total = int(rows("SELECT count(id) FROM papers")[0][0])
        starred = int(rows("SELECT count(*) FROM personal WHERE user_name = {user} "
                           "AND starred")[0][0])
        by_state = dict(rows(
            "SELECT read_state, count(paper_id) FROM personal WHERE user_name = {user} "
            "AND read_state != 'unread' GROUP BY read_state"))
        tags = self.tag_counts()
        unread = total - sum(by_state.values())
        recent = int(rows("SELECT count(*) FROM personal WHERE user_name = {user} "
                          "AND last_read_at IS NOT NULL")[0][0])
        return Counts(all=total, unread=unread, reading=by_state.get("reading", 0),
                      read=by_state.get("read", 0), starred=starred, tags=tags,
                      recent=recent)

    def tag_counts(self) -> dict[str, int]:
        """Each tag's papers, by name (Counts.tags)."""
        return dict(self._rows(
            "SELECT t.name, count(pt.paper_id) FROM tags t LEFT OUTER JOIN paper_tags pt "
            "ON t.id = pt.tag_id GROUP BY t.id ORDER BY lower(t.name)"))

    def tag_names(self) -> list[str]:
        return [name for (name,) in self._rows("SELECT name FROM tags ORDER BY lower(name)")]

    def answers(self, view: View) -> bool:
        """Whether `view_ids` can answer this view (no search, a known filter and sort)."""
        return (not view.search.strip() and view.sort in _ORDER
                and view.filter in FILTERS)

    def view_ids(self, view: View, limit: int | None = None) -> list[int]:
        """The ids a view shows, in its order, as core.views.view_ids (see `answers`)."""
        if not self.answers(view):
            raise ValueError(f"the first page cannot answer {view!r}")
        where: list[str] = []
        values: list[object] = []
        if view.starred_only:
            where.append("p.id IN (SELECT paper_id FROM personal WHERE user_name = {user} "
                         "AND starred)")
        if view.filter == "unread":  # (no row of the user: unread; querysql.not_mine)
            where.append("NOT EXISTS (SELECT 1 FROM personal WHERE paper_id = p.id AND "
                         "user_name = {user} AND read_state != 'unread')")
        elif view.filter in READ_STATES:
            where.append("p.id IN (SELECT paper_id FROM personal WHERE user_name = {user} "
                         "AND read_state = ?)")
            values.append(view.filter)
        elif view.filter == "recent":
            where.append("p.id IN (SELECT paper_id FROM personal WHERE user_name = {user} "
                         "AND last_read_at IS NOT NULL)")
        sort, descending = view.sort, view.descending
        if view.filter == "recent" and sort == "added":  # (newest read first)
            sort, descending = "last_read", not descending
        if view.tag:  # (ignoring case, as the core's views and search match tags)
            tags = [tid for tid, name in self._rows("SELECT id, name FROM tags")
                    if name.lower() == view.tag.lower()]
            where.append("p.id IN (SELECT paper_id FROM paper_tags WHERE tag_id IN "
                         f"({', '.join('?' * len(tags)) or 'NULL'}))")
            values.extend(tags)
        column = _ORDER[sort]
        direction = "DESC" if descending else "ASC"
        nulls = (" NULLS LAST" if descending else " NULLS FIRST") if sort == "last_read" else ""
        order = f"p.id {direction}" if column is None else \
            f"{column} {direction}{nulls}, p.id {direction}"
        join = _MINE if sort not in ("title", "authors", "venue", "year", "added", "key") \
            else ""
        sql = (f"SELECT p.id FROM papers p {join} "
               f"{'WHERE ' + ' AND '.join(where) if where else ''} ORDER BY {order}")
        if limit is not None:
            sql += " LIMIT ?"
            values.append(limit)
        return [pid for (pid,) in self._rows(sql, values)]

    def rows(self, ids: Sequence[int]) -> dict[int, PaperRow]:
        found: dict[int, PaperRow] = {}
        for start in range(0, len(ids), _CHUNK):
            part = list(ids[start:start + _CHUNK])
            sql = _ROW.replace("{marks}", ", ".join("?" * len(part)))
            for (pid, key, title, provisional, authors, venue, year, starred, read_state,
                 added, last_page, page_count, last_read) in self._rows(sql, part):
                found[pid] = PaperRow(
                    id=pid, key=key, title=title, title_provisional=bool(provisional),
                    authors=authors, venue=venue, year=year, starred=bool(starred),
                    read_state=read_state, added_at=_added(added), last_page=last_page,
                    page_count=page_count,
                    last_read_at=None if last_read is None else _added(last_read))
        return found
