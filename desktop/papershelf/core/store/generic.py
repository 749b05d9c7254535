"""The store for any database SQLAlchemy speaks, in plain SQLAlchemy (see `core.store`).

Written once for every database: a new one works with it as it is, and gets its own
store module only for what it does faster or better (SQLite's is `store.sqlite`). Its
search has no index: each term is a case-insensitive substring of a searched column.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import (
    ClauseElement,
    ColumnElement,
    Connection,
    Engine,
    Select,
    and_,
    create_engine,
    delete,
    false,
    func,
    insert,
    literal,
    or_,
    select,
    true,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from papershelf.core import fields, ingest
from papershelf.core.models import (
    Base,
    Paper,
    PaperAuthor,
    PaperFile,
    PaperTag,
    PaperText,
    Personal,
    Tag,
)
from papershelf.core.search import INDEXED_COLUMNS, ImmediateIndex, SearchIndex, parse_query
from papershelf.core.search.annotated import AnnotatedIndex
from papershelf.formats.records import Author

CHUNK = 5000  # values per IN (...) clause, well under SQLite's variable limit


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    """`items` in slices of at most `size`."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def column_of(name: str) -> Any:
    """The mapped column named `name`, of papers or paper_texts (fields.TEXT_COLUMNS), or
    the user's own value of a personal column (its default where the user has no row;
    the query joins `mine`)."""
    if name in fields.PERSONAL_DEFAULTS:
        default = fields.PERSONAL_DEFAULTS[name]
        column = getattr(Personal, name)
        return column if default is None else func.coalesce(column, default)
    return getattr(PaperText if name in fields.TEXT_COLUMNS else Paper, name)


def mine(user_name: str) -> ColumnElement[bool]:
    """The ON clause joining papers to the user's own personal rows."""
    return and_(Personal.paper_id == Paper.id, Personal.user_name == user_name)


def with_columns(query: Select[Any], columns: Sequence[str], user_name: str) -> Select[Any]:
    """`query` on papers joined to what `columns` need: paper_texts, the user's rows."""
    if not fields.TEXT_COLUMNS.isdisjoint(columns):
        query = query.outerjoin(PaperText, PaperText.paper_id == Paper.id)
    if not fields.PERSONAL_DEFAULTS.keys().isdisjoint(columns):
        query = query.outerjoin(Personal, mine(user_name))
    return query


def authors_by_paper(rows: Iterable[Sequence[Any]], people: dict[tuple[str, str], Author]
                     ) -> dict[int, list[Author]]:
    """Each paper's authors from (paper_id, family, given) rows in author order; one
    Author per name, shared through `people` (a big export names the same people often)."""
    authors: dict[int, list[Author]] = {}
    for pid, family, given in rows:
        person = people.get((family, given))
        if person is None:
            person = people[family, given] = Author(family, given)
        authors.setdefault(pid, []).append(person)
    return authors


T = TypeVar("T")
# Makes what `read_papers` returns of a paper from its id, columns' values, authors, tags.
Make = Callable[[int, Sequence[Any], list[Author], list[str]], T]


class LikeSearch(ImmediateIndex):
    """Search without an index: every term of the query is a case-insensitive substring
    of one of the searched columns (search.INDEXED_COLUMNS) or of an attached file's
    text; nothing is ever pending."""

    def matches(self, query: str, others: bool = True) -> ColumnElement[bool]:
        terms = parse_query(query)
        if not terms:
            return true()
        clauses: list[ColumnElement[bool]] = []
        for term in terms:
            needle = "%" + " ".join(term.words) + "%"
            in_abstract = Paper.id.in_(
                select(PaperText.paper_id).where(PaperText.abstract.ilike(needle)))
            in_files = Paper.id.in_(
                select(PaperFile.paper_id).where(PaperFile.body.ilike(needle)))
            clauses.append(or_(in_abstract, in_files, *(
                getattr(Paper, col).ilike(needle)
                for col in INDEXED_COLUMNS if col != "abstract")))
        result: ColumnElement[bool] = clauses[0] if clauses else false()
        for clause in clauses[1:]:
            result = result & clause
        return result


    def field_matches(self, field: str | None, words: tuple[str, ...],
                      prefix: bool) -> ColumnElement[bool]:
        """The phrase as a case-insensitive substring of the field's column."""
        if field is None:
            return self.matches('"' + " ".join(words) + '"')
        needle = "%" + " ".join(words) + "%"
        if field == "abstract":
            return Paper.id.in_(select(PaperText.paper_id).where(
                PaperText.abstract.ilike(needle)))
        if field == "pdf":
            return Paper.id.in_(select(PaperFile.paper_id).where(PaperFile.body.ilike(needle)))
        column = {"title": Paper.title, "author": Paper.authors_text, "notes": Paper.notes}
        return column[field].ilike(needle)


class GenericStore:
    """`core.store.Store` in plain SQLAlchemy; the base of the faster stores."""

    search: SearchIndex = AnnotatedIndex(LikeSearch(), literal(""))
    # The one user of a single-user database (PostgreSQL's store: the database role).
    user: ColumnElement[str] = literal("")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Whose personal rows this library reads and writes (`Context` sets it on open).
        self.user_name = ""

    @classmethod
    def engine_for(cls, url: str) -> Engine:
        """An engine for `url` with this database's connection settings."""
        return create_engine(url, pool_pre_ping=True)

    @classmethod
    def describe(cls, url: str) -> str:
        """A human name for the library at `url`: its URL without a password."""
        return make_url(url).render_as_string(hide_password=True)

    @contextmanager
    def bulk_session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def id_sets(self, session: Session, ids: Sequence[int]) -> Iterator[Any]:
        yield from chunks(list(ids))

    def read_current(self, session: Session, ids: Sequence[int], columns: Sequence[str]
                     ) -> dict[int, dict[str, Any]]:
        query = with_columns(select(Paper.id, *map(column_of, columns)), columns,
                             self.user_name)
        current: dict[int, dict[str, Any]] = {}
        conn = session.connection()  # Core, not ORM: no per-row ORM work on big selections
        for id_set in self.id_sets(session, ids):
            for row in conn.execute(query.where(Paper.id.in_(id_set))):
                current[row[0]] = dict(zip(columns, row[1:]))
        return current

    def read_papers(self, session: Session, ids: Sequence[int], columns: Sequence[str],
                    make: Make[T]) -> dict[int, T]:
        found: dict[int, T] = {}
        query = with_columns(select(Paper.id, *map(column_of, columns)), columns,
                             self.user_name)
        people: dict[tuple[str, str], Author] = {}  # one Author per name, shared
        conn = session.connection()  # Core rows: no ORM objects for big exports
        for id_set in self.id_sets(session, ids):
            authors = authors_by_paper(conn.execute(
                select(PaperAuthor.paper_id, PaperAuthor.family, PaperAuthor.given)
                .where(PaperAuthor.paper_id.in_(id_set))
                .order_by(PaperAuthor.paper_id, PaperAuthor.position)), people)
            tags: dict[int, list[str]] = {}
            for pid, name in conn.execute(
                    select(PaperTag.paper_id, Tag.name).join(Tag)
                    .where(PaperTag.paper_id.in_(id_set)).order_by(Tag.name)):
                tags.setdefault(pid, []).append(name)
            for row in conn.execute(query.where(Paper.id.in_(id_set))):
                pid = row[0]
                found[pid] = make(pid, row[1:], authors.get(pid, []), tags.get(pid, []))
        return found

    def insert_papers(self, session: Session, papers: Sequence[tuple[Any, ...]],
                      ids: Sequence[int], keys_of: Sequence[str],
                      states: Sequence[tuple[Any, ...]] | tuple[Any, ...],
                      import_id: int | None) -> None:
        if papers:
            self._insert_rows(session, *ingest.insert_rows(papers, ids, keys_of, states,
                                                           import_id))

    def lock_for_adding(self, session: Session) -> None:
        """Hold off other transactions adding papers until this one ends (new papers take
        the ids after the largest, and their keys must not clash). A single-writer
        database (SQLite) already holds its write lock."""

    def clear_leftovers(self, session: Session, first_id: int) -> None:
        """Before papers are added with ids from `first_id` on (past every paper's): the
        rows about papers of those ids that outlived them go, so that no new paper gets
        an old one's star, notes, tags, files or annotations. A library file's foreign
        keys hold only for the programs that switch them on: the sqlite3 shell deletes
        a paper and leaves its rows, and so did salvaging a damaged library."""
        for table in Base.metadata.sorted_tables:
            for key in table.foreign_keys:
                if key.column is Paper.__table__.c.id:
                    session.execute(delete(table).where(key.parent >= first_id))
        session.execute(delete(Tag).where(~Tag.id.in_(select(PaperTag.tag_id))))

    def hold_rows(self, session: Session, ids: Sequence[int], personal: bool) -> None:
        """Lock the papers' rows, and with `personal` the user's own rows of them, in id
        order (SELECT … FOR UPDATE; a database of one writer overrides this)."""
        for id_set in self.id_sets(session, ids):
            session.execute(select(Paper.id).where(Paper.id.in_(id_set))
                            .order_by(Paper.id).with_for_update())
            if personal:
                session.execute(select(Personal.paper_id).where(
                    Personal.paper_id.in_(id_set), Personal.user_name == self.user_name)
                    .order_by(Personal.paper_id).with_for_update())

    def set_indexes_aside(self, session: Session, existing: int, coming: int) -> list[str]:
        """None dropped (a server's indexes stay)."""
        return []

    def restore_indexes(self, session: Session, aside: list[str]) -> None:
        for statement in aside:
            session.connection().exec_driver_sql(statement)

    def set_personal(self, session: Session, id_set: Any, values: dict[str, Any]) -> None:
        """Give the user's personal `values` to the papers of `id_set` (an `id_sets`
        item): one INSERT … ON CONFLICT DO UPDATE, creating the rows that are missing."""
        dialect = {"sqlite": sqlite, "postgresql": postgresql}[session.bind.dialect.name]  # type: ignore[union-attr]
        names = list(values)
        table = Personal.__table__
        stmt = dialect.insert(Personal).from_select(
            ["user_name", "paper_id", *names],
            select(literal(self.user_name), Paper.id,
                   *(literal(values[n], table.c[n].type) for n in names))
            .where(Paper.id.in_(id_set)))
        session.connection().execute(stmt.on_conflict_do_update(
            index_elements=["paper_id", "user_name"],
            set_={n: stmt.excluded[n] for n in names}))

    def keep_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """Nothing: here the user's own rows are all there are, and they travel in the
        undo (a database with many users overrides this)."""

    def fold_others_personal(self, session: Session, from_id: int, into_id: int) -> None:
        """Nothing: there are no other users' rows (see `keep_others_personal`)."""

    def bring_back_others_personal(self, session: Session, ids: Sequence[int]) -> None:
        """Nothing: there are no other users' rows (see `keep_others_personal`)."""

    def deletion(self, session: Session) -> str | None:
        """What names this transaction's deletion of papers for `restoring` (None: a
        database keeping no other users' rows needs no name)."""
        return None

    def restoring(self, session: Session, deletions: Sequence[str | None]) -> None:
        """Nothing: this transaction undoes the `deletions` of papers (puts them back
        with their ids), which only a database keeping other users' rows needs to know."""

    def _insert_rows(self, session: Session, rows: list[tuple[Any, ...]],
                     texts: list[tuple[Any, ...]], authors: list[tuple[Any, ...]],
                     personal: list[tuple[Any, ...]]) -> None:
        """Insert the rows `ingest.insert_rows` gives (JSON as text)."""
        provisional = ingest.INSERT_COLUMNS.index("title_provisional")
        session.execute(insert(Paper), [
            dict(zip(ingest.INSERT_COLUMNS, row)) | {"title_provisional": bool(row[provisional])}
            for row in rows])
        session.execute(insert(PaperText), [
            {"paper_id": pid, "abstract": a, "bib_fields": json.loads(b),
             "bib_extra": e and json.loads(e)}
            for pid, a, b, e in texts])
        if authors:
            session.execute(insert(PaperAuthor), [
                {"paper_id": pid, "position": n, "family": f, "given": g}
                for pid, n, f, g in authors])
        if personal:
            session.execute(insert(Personal), [
                dict(zip(ingest.PERSONAL_INSERT_COLUMNS, row), user_name=self.user_name)
                | {"starred": bool(row[1])} for row in personal])

    def first_ids(self, session: Session, column: ColumnElement[Any],
                  values: Sequence[Any], below: int) -> dict[Any, int]:
        hits: dict[Any, int] = {}
        for chunk in chunks(values):
            for value, pid in self._values_and_ids(session, column, chunk, below):
                hits.setdefault(value, pid)
        return hits

    def _values_and_ids(self, session: Session, column: ColumnElement[Any],
                        chunk: Sequence[Any], below: int) -> Iterable[Any]:
        """(value, id) of the papers under `below` whose `column` is in `chunk`."""
        return session.execute(
            select(column, Paper.id).where(column.in_(chunk), Paper.id < below))

    def keys_starting_with(self, session: Session, prefixes: set[str]) -> set[str]:
        found: set[str] = set()
        for prefix in prefixes:  # range scans on the key index
            found.update(session.scalars(
                select(Paper.key).where(Paper.key >= prefix, Paper.key < prefix + "~")))
        return found

    def prepare_search(self, conn: Connection) -> None:
        return None

    def estimated_rows(self, conn: Connection, query: ClauseElement,
                       values: dict[str, Any] | None = None) -> list[float] | None:
        return None

    def view_ids(self, conn: Connection, query: Select[Any], search: str,
                 values: dict[str, Any] | None = None) -> list[int]:
        return list(conn.execute(query, values).scalars())

    def ids(self, conn: Connection, query: Select[Any]) -> list[int]:
        return list(conn.execute(query).scalars())

    def interrupt(self, conn: Connection) -> None:
        return None
