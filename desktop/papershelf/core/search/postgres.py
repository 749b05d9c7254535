"""PostgreSQL's search: queries of the language as tsqueries over a narrow table of each
paper's words (a stored tsvector with a GIN index) walked in id order (`PostgresSearch`),
and over the GIN indexes of the shared notes and tags and of the attached files' text
(their schema: search/pg_schema.py; core.search says more)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Connection,
    FromClause,
    Integer,
    Select,
    and_,
    bindparam,
    column,
    false,
    func,
    literal_column,
    not_,
    or_,
    select,
    table,
    text,
    true,
    union,
    union_all,
)

from papershelf.core import query as q
from papershelf.core.models import Paper, PaperFile
from papershelf.core.search.pg_schema import (
    _PG_CONFIG,
    _PG_DOC_COLUMNS,
    _PG_FILL,
    _PG_NOTES_COLUMNS,
    _PG_WEIGHTS,
    PG_ANNOTATED_PAPERS,
    PG_SEARCH_TABLE,
    pg_files_document,
    pg_notes_document,
)
from papershelf.core.search.terms import (
    PENDING_TABLE,
    Page,
    Term,
    monotone,
    plain_terms,
    text_leaves,
    tree_clause,
    words_only,
)


def _pg_operand(word: str, prefix: bool, weight: str) -> str:
    """One word of a tsquery: quoted, with its prefix mark and weight."""
    quoted = "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"
    marks = ("*" if prefix else "") + weight
    return f"{quoted}:{marks}" if marks else quoted


def pg_tsquery(term: Term, columns: int = 1) -> str | None:
    """`term` as `to_tsquery` input for a document of `columns` weighted columns (a
    phrase within one of them), or of one unweighted column; None if it has no word at
    all (it matches nothing, as in FTS5)."""
    # The parser splits at underscores as FTS5 does; split here already, so a word is
    # one lexeme and a phrase is the only thing that needs one column.
    words = [part for word in term.words for part in word.split("_") if part]
    if not words:
        return None

    def phrase(weight: str) -> str:
        last = len(words) - 1
        return " <-> ".join(_pg_operand(word, term.prefix and n == last, weight)
                            for n, word in enumerate(words))

    if len(words) == 1 or columns == 1:
        return phrase("")
    return " | ".join(f"({phrase(w)})" for w in _PG_WEIGHTS[:columns])


@dataclass(frozen=True)
class _PgQuery:
    """A query's terms as tsqueries: for paper_search's document, for the notes index,
    for the files' text (each a list with one tsquery a term)."""

    doc: list[str]
    notes: list[str]
    files: list[str]

    @classmethod
    def of(cls, query: str) -> _PgQuery | None:
        """None if the query means everything or is more than plain words (`_tree`);
        empty lists if it matches nothing."""
        terms, _node = plain_terms(query)
        if not terms:
            return None
        doc = [pg_tsquery(t, len(_PG_DOC_COLUMNS)) for t in terms]
        if any(q is None for q in doc):
            return cls([], [], [])
        return cls([q for q in doc if q is not None],
                   [pg_tsquery(t, len(_PG_NOTES_COLUMNS)) or "" for t in terms],
                   [pg_tsquery(t) or "" for t in terms])

    def values(self) -> dict[str, str]:
        """The tsqueries by the names of the parameters that hold them (`_ts`)."""
        values = {"search_all": _all(self.doc), "search_notes": _any(self.notes),
                  "search_files": _any(self.files)}
        for n, (doc, notes, files) in enumerate(zip(self.doc, self.notes, self.files)):
            values.update({f"search_doc_{n}": doc, f"search_notes_{n}": notes,
                           f"search_files_{n}": files})
        return values


def _all(queries: list[str]) -> str:
    return " & ".join(f"({q})" for q in queries)


def _any(queries: list[str]) -> str:
    return " | ".join(f"({q})" for q in queries)


def _ts(name: str, query: str) -> ColumnElement[Any]:
    """The tsquery of parameter `name` (of value `query`: see `_PgQuery.values`)."""
    return func.to_tsquery(literal_column(_PG_CONFIG), bindparam(name, query))


_PG_SEARCH = table(PG_SEARCH_TABLE, column("paper_id", Integer), column("doc"))
_PG_PAPERS = Paper.__table__.alias("search_papers")
_PG_NOTES_DOCUMENT: ColumnElement[Any] = literal_column(pg_notes_document("search_papers."))
_PG_FILES = PaperFile.__table__.alias("search_files")
_PG_FILES_DOCUMENT: ColumnElement[Any] = literal_column(pg_files_document("search_files."))


# The document's weight of each text field of the query language (core.query).
_PG_FIELD_WEIGHT = {"title": "A", "author": "B", "abstract": "C"}
INDEXED_FIELDS = frozenset(_PG_FIELD_WEIGHT)


def _pg_expr(node: q.Node) -> str:
    """A tree of words in the document's fields as a tsquery (each phrase within one
    column, as `pg_tsquery`)."""
    match node:
        case q.Text(field, words, prefix):
            term = Term(words, prefix)
            if field is None:
                return f"({pg_tsquery(term, len(_PG_DOC_COLUMNS))})"  # (never None:
                # the language's words hold no underscore)
            return f"({_pg_phrase(words, prefix, _PG_FIELD_WEIGHT[field])})"
        case q.Not(inner):
            return f"!{_pg_expr(inner)}"
        case q.And(nodes):
            return "(" + " & ".join(_pg_expr(n) for n in nodes) + ")"
        case q.Or(nodes):
            return "(" + " | ".join(_pg_expr(n) for n in nodes) + ")"
    return ""


def _pg_phrase(words: tuple[str, ...], prefix: bool, weights: str) -> str:
    """A phrase as a tsquery within one column of those `weights` ("": a document
    without weights); "" if it has no word."""
    parts = [part for word in words for part in word.split("_") if part]
    return " | ".join("(" + " <-> ".join(_pg_operand(w, prefix and n == len(parts) - 1, weight)
                                         for n, w in enumerate(parts)) + ")"
                      for weight in weights or ("",)) if parts else ""


def _pg_matched(document: ColumnElement[Any], tsquery: str) -> ColumnElement[bool]:
    """Whether a tsvector matches `tsquery` (its own parameter: a statement may hold many)."""
    return document.bool_op("@@")(func.to_tsquery(
        literal_column(_PG_CONFIG), bindparam("tsquery", tsquery, unique=True)))


def _pg_tree(doc: ColumnElement[Any], node: q.Node) -> ColumnElement[bool]:
    """Whether a search row's document matches the tree."""
    return _pg_matched(doc, _pg_expr(node))


def _pg_elsewhere(node: q.Node) -> CompoundSelect[Any] | None:
    """The ids of the papers whose notes, tags or files hold a word or phrase of the
    tree (a few, through their GIN indexes); None if it has no word they could hold."""
    found = text_leaves(node)
    if not found:
        return None
    notes = " | ".join(f"({pg_tsquery(Term(t.words, t.prefix), 2)})" for t in found)
    files = " | ".join(f"({pg_tsquery(Term(t.words, t.prefix))})" for t in found)

    return union(select(_PG_PAPERS.c.id.label("id")).where(_pg_matched(_PG_NOTES_DOCUMENT, notes)),
                 select(_PG_FILES.c.paper_id.label("id")).where(
                     _pg_matched(_PG_FILES_DOCUMENT, files)))


def _pg_doc_matches(ids: ColumnElement[Any], name: str,
                    tsquery: str) -> ColumnElement[bool]:
    """Whether the paper `ids` names has a search row matching `tsquery` (by its key)."""
    found = _PG_SEARCH.alias()
    return select(1).where(found.c.paper_id == ids,
                           found.c.doc.bool_op("@@")(_ts(name, tsquery))).exists()


def _by_key(looked_up: Select[Any]) -> ColumnElement[bool]:
    """EXISTS of a select by a paper's key that the server reads for each paper asking,
    always: its OFFSET 0 keeps it from reading every row of the select once (a hash of
    them) instead, as it chooses for what it guesses are many asking (a thousand rows
    from a function: 81,000 papers read for "graph" to look up 1,800)."""
    return looked_up.offset(literal_column("0")).exists()


def _pg_other_hits(parsed: _PgQuery) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """Whether a papers row (`_PG_PAPERS`) has some term in its notes or tags, and
    whether a files row (`_PG_FILES`) has some term in its text (through their GIN
    indexes)."""
    return (_PG_NOTES_DOCUMENT.bool_op("@@")(_ts("search_notes", _any(parsed.notes))),
            _PG_FILES_DOCUMENT.bool_op("@@")(_ts("search_files", _any(parsed.files))))


def pg_annotation_hits(user: ColumnElement[str] | str,
                       phrases: list[tuple[tuple[str, ...], bool]]) -> Select[Any] | None:
    """The ids of the papers with an annotation the connection's role sees holding one of
    the `phrases` (words, prefix) in their quote or their comment (each within one: the
    tsquery of a paper's notes and tags), through their GIN index read by
    PG_ANNOTATED_PAPERS, each once (`Hits`: `user` is the store's `current_user`, which
    the function takes itself); None if no phrase has a word."""
    found = [pg_tsquery(Term(words, prefix), 2) for words, prefix in phrases]
    tsqueries = " | ".join(f"({t})" for t in found if t)
    if not tsqueries:
        return None
    return select(getattr(func, PG_ANNOTATED_PAPERS)(func.to_tsquery(
        literal_column(_PG_CONFIG), bindparam("tsquery", tsqueries, unique=True))).label("id"))


class PostgresSearch:
    """PostgreSQL's `SearchIndex`: the search table of schema 0010 with its GIN index,
    walked in id order, plus the GIN indexes of shared notes and tags and of the files'
    text.

    The same papers as FTS5 for the same query, with these differences: accents are
    removed by PostgreSQL's `unaccent` rules, which also spell out ligatures ("straße"
    finds "strasse", "æ" finds "ae", FTS5 keeps them) and cover more scripts (Greek
    tonos); where `unaccent` could not be installed (not the database's owner, or no
    contrib package) accents count, "erdos" no longer finds "Erdős". Characters that
    PostgreSQL's parser takes for neither letter nor digit (superscripts, fractions;
    non-ASCII punctuation too in a database with the C locale, which also folds case in
    ASCII only) separate words. Phrases do not reach past a column's 16,383rd word, and
    a paper's words are limited to 1 MB (PostgreSQL's tsvector limits).
    """

    # `other_matches` never holds a paper the walk finds: the two are merged in id
    # order without looking for duplicates (which would read every match).
    disjoint_others = True

    def matches(self, query: str, others: bool = True) -> ColumnElement[bool]:
        """A WHERE clause on `papers`: the papers whose title, authors and abstract hold
        every term (through the search table), and, with `others`, those found through
        their notes, tags or files' text. (Without them, the planner knows how many
        papers the search table gives: with their UNION it guessed 200, and read a
        million papers one by one for a common word and a year.)"""
        terms, node = plain_terms(query)
        if terms is None:
            walked = select(_PG_SEARCH.c.paper_id).where(
                self._walk_match(_PG_SEARCH.c.paper_id, _PG_SEARCH.c.doc, node))
            found = self._tree_others(node, disjoint=False) if others else None
            return Paper.id.in_(walked) if found is None else or_(Paper.id.in_(walked),
                                                                  found)
        parsed = _PgQuery.of(query)
        if parsed is None:
            return true()
        if not parsed.doc:
            return false()
        walked = select(_PG_SEARCH.c.paper_id).where(
            _PG_SEARCH.c.doc.bool_op("@@")(_ts("search_all", _all(parsed.doc))))
        if not others:
            return Paper.id.in_(walked)
        return Paper.id.in_(union_all(walked, self._others(parsed, disjoint=False)))

    def driving_match(self, query: str) -> tuple[FromClause, ColumnElement[bool]] | None:
        """The search table as one to walk in id order (`rowid`: the paper's id) and the
        match of every term in its document; None if the query means everything.

        With a first page to show, the server walks the table's key and reads the words
        of papers until it has the page (a common word: a few hundred rows), or finds
        the few papers of a rare word through the GIN index, as it estimates cheaper."""
        walk = select(_PG_SEARCH.c.paper_id.label("rowid"), _PG_SEARCH.c.doc).subquery(
            "search_walk")
        terms, node = plain_terms(query)
        if terms is None:
            return walk, self._walk_match(walk.c.rowid, walk.c.doc, node)
        parsed = _PgQuery.of(query)
        if parsed is None:
            return None
        if not parsed.doc:
            return walk, false()
        return walk, walk.c.doc.bool_op("@@")(_ts("search_all", _all(parsed.doc)))

    def field_matches(self, field: str | None, words: tuple[str, ...],
                      prefix: bool) -> ColumnElement[bool]:
        """Through the weight of the field's column in the search table's document (or
        in the notes index's), or the files' index; None: through all three."""
        if not _pg_phrase(words, prefix, ""):
            return false()

        def matching(document: ColumnElement[Any], weights: str) -> ColumnElement[bool]:
            return _pg_matched(document, _pg_phrase(words, prefix, weights))

        notes = Paper.id.in_(select(_PG_PAPERS.c.id).where(
            matching(_PG_NOTES_DOCUMENT, "A" if field == "notes" else "AB")))
        files = Paper.id.in_(select(_PG_FILES.c.paper_id).where(
            matching(_PG_FILES_DOCUMENT, "")))
        weights = _PG_FIELD_WEIGHT.get(field or "", "ABC")
        doc = Paper.id.in_(select(_PG_SEARCH.c.paper_id).where(
            matching(_PG_SEARCH.c.doc, weights)))
        return {"notes": notes, "pdf": files}.get(field or "", doc) if field is not None \
            else or_(doc, notes, files)

    def field_matches_at(self, ids: ColumnElement[Any], field: str | None,
                         words: tuple[str, ...], prefix: bool) -> ColumnElement[bool]:
        """`field_matches` for the paper whose id is `ids` (a few papers' column):
        EXISTS by its key in each index, where `field_matches`' IN reads every paper
        holding the words (a common word: most of them) to look up a few."""
        if not _pg_phrase(words, prefix, ""):
            return false()

        def matching(document: ColumnElement[Any], weights: str) -> ColumnElement[bool]:
            return _pg_matched(document, _pg_phrase(words, prefix, weights))

        found = _PG_SEARCH.alias("at_search")  # (a name in each EXISTS of its own)
        mine = Paper.__table__.alias("at_notes")
        theirs = PaperFile.__table__.alias("at_files")
        doc = _by_key(select(1).where(found.c.paper_id == ids, matching(
            found.c.doc, _PG_FIELD_WEIGHT.get(field or "", "ABC"))))
        notes = _by_key(select(1).where(mine.c.id == ids, matching(literal_column(
            pg_notes_document(f"{mine.name}.")), "A" if field == "notes" else "AB")))
        files = _by_key(select(1).where(theirs.c.paper_id == ids, matching(literal_column(
            pg_files_document(f"{theirs.name}.")), "")))
        return {"notes": notes, "pdf": files}.get(field or "", doc) if field is not None \
            else or_(doc, notes, files)

    def other_matches(self, query: str, page: Page | None = None
                      ) -> ColumnElement[bool] | None:
        """The papers found by `query` that the walk does not find: some term only in
        their notes, tags or files' text."""
        terms, node = plain_terms(query)
        if terms is None:
            return self._tree_others(node, disjoint=True)
        parsed = _PgQuery.of(query)
        if parsed is None or not parsed.doc:
            return None
        return Paper.id.in_(self._others(parsed, disjoint=True))

    def other_ids(self, query: str) -> Select[Any] | None:
        """The ids of `other_matches`' papers, for a query of plain words (None for
        another, or none)."""
        terms, _node = plain_terms(query)
        parsed = _PgQuery.of(query) if terms is not None else None
        if parsed is None or not parsed.doc:
            return None
        return self._others(parsed, disjoint=True)

    def walked_at(self, ids: ColumnElement[Any], query: str) -> ColumnElement[bool]:
        """Whether the walk of `driving_match` finds the paper whose id is `ids`, for a
        query of plain words (`other_ids`)."""
        parsed = _PgQuery.of(query)
        if parsed is None or not parsed.doc:
            return false()
        walked = _PG_SEARCH.alias("at_walk")
        return _by_key(select(1).where(walked.c.paper_id == ids, walked.c.doc.bool_op("@@")(
            _ts("search_all", _all(parsed.doc)))))

    def walks(self, node: q.Node) -> bool:
        return words_only(node, INDEXED_FIELDS)

    def _walk_match(self, ids: ColumnElement[Any], doc: ColumnElement[Any],
                    node: q.Node) -> ColumnElement[bool]:
        """A search row matching a tree of words, for papers whose notes, tags and
        files hold none of its words when the tree has a NOT (those decide through what
        the document does not hold: they are `_tree_others`')."""
        match = _pg_tree(doc, node)
        elsewhere = _pg_elsewhere(node)
        if elsewhere is None or monotone(node):
            return match
        return and_(match, not_(ids.in_(elsewhere)))

    def _tree_others(self, node: q.Node, disjoint: bool) -> ColumnElement[bool] | None:
        """The papers with notes, tags or files holding a word of the tree that the
        tree matches, all their text counted; `disjoint`: none the walk finds."""
        elsewhere = _pg_elsewhere(node)
        if elsewhere is None:
            return None
        found = [Paper.id.in_(elsewhere), tree_clause(
            node, lambda t: self.field_matches(t.field, t.words, t.prefix))]
        if disjoint and monotone(node):
            found.append(not_(Paper.id.in_(select(_PG_SEARCH.c.paper_id).where(
                _pg_tree(_PG_SEARCH.c.doc, node)))))
        return and_(*found)

    def others_present(self, conn: Connection, query: str) -> bool:
        """Whether some paper has a term of `query` in its notes, tags or files' text
        (through their GIN indexes; a search without them is planned in a millisecond,
        with them in five)."""
        terms, node = plain_terms(query)
        if terms is None:  # (a tree: `au:santos bound`; asked too, or the statement
            elsewhere = _pg_elsewhere(node)  # for none took 3 s over a million papers)
            return elsewhere is not None and bool(conn.execute(
                select(func.count()).select_from(elsewhere.subquery())).scalar())
        parsed = _PgQuery.of(query)
        if parsed is None or not parsed.doc:
            return False
        # (Counted, not EXISTS: for the first match of EXISTS the planner read the
        # papers one by one, all of them when no note holds the words.)
        in_notes, in_files = _pg_other_hits(parsed)
        counted = [select(func.count()).select_from(rows).where(hit).scalar_subquery()
                   for rows, hit in ((_PG_PAPERS, in_notes), (_PG_FILES, in_files))]
        return bool(conn.execute(select(counted[0] + counted[1])).scalar())

    def bound_values(self, query: str) -> tuple[Hashable, dict[str, str]] | None:
        """A query's statements differ from another's by the number of its terms only
        (its tsqueries are parameters)."""
        parsed = _PgQuery.of(query)
        if parsed is None or not parsed.doc:
            return None
        return len(parsed.doc), parsed.values()

    def _others(self, parsed: _PgQuery, disjoint: bool) -> Select[Any]:
        """The ids of papers with a term in their notes, tags or files' text (a few,
        through those indexes) and each other term anywhere; `disjoint`: only those whose
        title, authors and abstract do not hold every term."""
        notes_hit, files_hit = _pg_other_hits(parsed)
        in_notes = select(_PG_PAPERS.c.id.label("id")).where(notes_hit)
        in_files = select(_PG_FILES.c.paper_id.label("id")).where(files_hit)
        found = union(in_notes, in_files).subquery("found")
        ids = found.c.id
        clauses: list[ColumnElement[bool]] = []
        if len(parsed.doc) > 1:
            for n, (doc, notes, files) in enumerate(
                    zip(parsed.doc, parsed.notes, parsed.files)):
                mine = Paper.__table__.alias(f"notes_{n}")
                theirs = PaperFile.__table__.alias(f"files_{n}")
                clauses.append(or_(
                    _pg_doc_matches(ids, f"search_doc_{n}", doc),
                    select(1).where(mine.c.id == ids, literal_column(
                        pg_notes_document(f"{mine.name}.")).bool_op("@@")(
                            _ts(f"search_notes_{n}", notes))
                    ).exists(),
                    select(1).where(theirs.c.paper_id == ids, literal_column(
                        pg_files_document(f"{theirs.name}.")).bool_op("@@")(
                            _ts(f"search_files_{n}", files))
                    ).exists()))
        if disjoint:
            clauses.append(~_pg_doc_matches(ids, "search_all", _all(parsed.doc)))
        return select(ids).where(*clauses)

    # -- papers a bulk load leaves out, indexed afterwards ---------------------------

    def defer(self, conn: Connection, first_id: int) -> bool:
        """Leave papers from `first_id` on without search rows until `close_deferred`
        (the triggers skip them; `index_some` makes their rows in batches afterwards)."""
        conn.execute(text(f"INSERT INTO {PENDING_TABLE} (lo, hi) VALUES (:lo, :hi)"),
                     {"lo": first_id, "hi": 2**62})
        return True

    def close_deferred(self, conn: Connection, first_id: int, last_id: int,
                       index_now: bool = False) -> None:
        """The bulk load from `first_id` ended at `last_id`: only that range stays
        pending, or none if `index_now`."""
        if index_now and last_id >= first_id:
            self._index_range(conn, first_id, last_id)
        if last_id < first_id or index_now:
            conn.execute(text(f"DELETE FROM {PENDING_TABLE} WHERE lo = :lo"),
                         {"lo": first_id})
        else:
            conn.execute(text(f"UPDATE {PENDING_TABLE} SET hi = :hi WHERE lo = :lo"),
                         {"lo": first_id, "hi": last_id})

    def index_deferred(self, conn: Connection, lo: int, hi: int,
                       texts: Sequence[tuple[Any, ...]] = ()) -> None:
        """Make the search rows of the deferred papers `lo`..`hi` now, in the import's
        transaction (from the tables: `texts` is not needed); the range deferred then
        starts after `hi`."""
        self._index_range(conn, lo, hi)
        conn.execute(text(f"UPDATE {PENDING_TABLE} SET lo = :next WHERE lo = :lo"),
                     {"lo": lo, "next": hi + 1})

    def pending(self, conn: Connection) -> int:
        """How many papers wait for their search rows."""
        return int(conn.scalar(text(
            f"SELECT count(*) FROM {PENDING_TABLE} r JOIN papers p "
            "ON p.id BETWEEN r.lo AND r.hi")) or 0)

    def index_some(self, conn: Connection, limit: int) -> int:
        """Make the search rows of up to `limit` pending papers, in the caller's
        transaction; how many ids were covered (0: none pending, or another member's
        window is indexing them right now)."""
        row = conn.execute(text(f"SELECT lo, hi FROM {PENDING_TABLE} ORDER BY lo LIMIT 1 "
                                "FOR UPDATE SKIP LOCKED")).first()
        if row is None:
            return 0
        lo, hi = row
        upto = min(hi, lo + limit - 1)
        self._index_range(conn, lo, upto)
        if upto >= hi:
            conn.execute(text(f"DELETE FROM {PENDING_TABLE} WHERE lo = :lo"), {"lo": lo})
        else:
            conn.execute(text(f"UPDATE {PENDING_TABLE} SET lo = :upto WHERE lo = :lo"),
                         {"lo": lo, "upto": upto + 1})
        return int(upto - lo + 1)

    @staticmethod
    def _index_range(conn: Connection, lo: int, hi: int) -> None:
        conn.execute(text(f"{_PG_FILL} WHERE p.id BETWEEN :lo AND :hi "
                          "ON CONFLICT (paper_id) DO UPDATE SET doc = EXCLUDED.doc"),
                     {"lo": lo, "hi": hi})
