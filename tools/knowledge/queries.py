"""What the knowledge base answers: scope resolution, counts and summaries, content search and
documents read for a scope.

Every read is bounded by ``Scope`` through ``_scope_where`` (``tools/knowledge/clauses.py``), so a
document outside the scope is never listed, counted, searched or read. Every value reaches SQL as
a bound parameter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

from core.reading import DocumentText, FolderCount, ScopeHint
from core.selection import LOCAL_USER, DocumentSelection, NamedCount, Scope
from tools.knowledge.clauses import _YEAR_IN_PATH, _access_clause, _glob_clause, _scope_where, _selection_clause
from tools.knowledge.connection import Connected
from tools.knowledge.documents import read_documents
from tools.knowledge.errors import DocumentNotFound, KnowledgeError

DEFAULT_SEARCH_BUDGET_MS = 3000


@dataclass(frozen=True)
class DocumentRef:
    id: int
    collection: str
    path: str
    page_count: int
    size: int = 0


@dataclass(frozen=True)
class Resolution:
    """Documents a selection resolved to, in collection and path order."""

    documents: list[DocumentRef]
    complete: bool = True
    reason: str | None = None


@dataclass(frozen=True)
class SearchHit:
    document_id: int
    collection: str
    path: str
    page: int
    line: str


@dataclass(frozen=True)
class SearchResult:
    hits: list[SearchHit]
    limit_hit: bool = False
    stopped: bool = False

    @property
    def message(self) -> str | None:
        if self.stopped:
            return "The search stopped at its limit (time budget); the results shown may be incomplete."
        if self.limit_hit:
            return f"The search stopped at its result limit ({len(self.hits)} hits); there are more."
        return None


@dataclass(frozen=True)
class CollectionInfo:
    name: str
    documents: int
    folders: list[FolderCount]


class Queries(Connected):
    """The knowledge base's reads, each within a scope."""

    # -- collections ----------------------------------------------------------------------

    def collections(self, user: str = LOCAL_USER, folders: int = 5) -> list[CollectionInfo]:
        """The collections ``user`` may read, with document counts and largest folders."""
        with self._conn() as conn:
            access, params = _access_clause(user)
            rows = conn.execute(
                sql.SQL(
                    "SELECT c.name, count(d.id) AS documents FROM collections c"
                    " LEFT JOIN documents d ON d.collection_id = c.id WHERE {} GROUP BY c.name ORDER BY c.name"
                ).format(access),
                params,
            ).fetchall()
        return [
            CollectionInfo(
                r["name"],
                int(r["documents"]),
                self.folder_summary(Scope(user=user, collections=[r["name"]]), limit=folders) if folders else [],
            )
            for r in rows
        ]

    # -- scope and selections ---------------------------------------------------------------

    def resolve(
        self, scope: Scope, selection: DocumentSelection | None = None, *, budget_ms: int = DEFAULT_SEARCH_BUDGET_MS
    ) -> Resolution:
        """The documents of ``selection`` within ``scope``: profile glob first, then the entries."""
        where, params = _scope_where(scope)
        chosen, chosen_params = _selection_clause(selection or DocumentSelection())
        query = sql.SQL(
            "SELECT d.id, c.name AS collection, d.path, d.page_count, d.size FROM documents d"
            " JOIN collections c ON c.id = d.collection_id WHERE {} AND {} ORDER BY c.name, d.path"
        ).format(where, chosen)
        try:
            rows = self._timed(query, [*params, *chosen_params], budget_ms)
        except _Stopped:
            return Resolution([], complete=False, reason="The selection's content search stopped at its time limit.")
        return Resolution([_ref(r) for r in rows])

    def find_by_path_suffix(self, scope: Scope, suffix: str) -> list[DocumentRef]:
        """Documents whose path ends with ``suffix`` at a folder boundary (a file the user wrote out)."""
        suffix = suffix.strip().strip("/")
        if not suffix:
            return []
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT d.id, c.name AS collection, d.path, d.page_count, d.size FROM documents d"
            " JOIN collections c ON c.id = d.collection_id"
            " WHERE {} AND (lower(d.path) = lower(%s) OR right(lower(d.path), %s) = lower(%s))"
            " ORDER BY c.name, d.path"
        ).format(where)
        with self._conn() as conn:
            rows = conn.execute(query, [*params, suffix, len(suffix) + 1, "/" + suffix]).fetchall()
        return [_ref(r) for r in rows]

    def folder_summary(self, scope: Scope, limit: int = 8, selection: DocumentSelection | None = None) -> list[FolderCount]:
        """The largest folders (every ancestor folder counts its documents), largest first."""
        where, params = _scope_where(scope)
        chosen, chosen_params = _selection_clause(selection or DocumentSelection())
        query = sql.SQL(
            "SELECT array_to_string((string_to_array(d.path, '/'))[1:n], '/') AS folder, count(*) AS documents"
            " FROM documents d JOIN collections c ON c.id = d.collection_id,"
            " generate_series(1, array_length(string_to_array(d.path, '/'), 1) - 1) AS n"
            " WHERE {} AND {} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %s"
        ).format(where, chosen)
        with self._conn() as conn:
            rows = conn.execute(query, [*params, *chosen_params, limit]).fetchall()
        return [FolderCount(folder=r["folder"], documents=int(r["documents"])) for r in rows]

    def years(self, scope: Scope) -> list[str]:
        """Years that stand in document paths of the scope, ascending."""
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT DISTINCT m[1] AS year FROM documents d JOIN collections c ON c.id = d.collection_id,"
            " regexp_matches(d.path, %s, 'g') AS m WHERE {} ORDER BY 1"
        ).format(where)
        with self._conn() as conn:
            rows = conn.execute(query, [_YEAR_IN_PATH, *params]).fetchall()
        return [r["year"] for r in rows]

    def year_counts(self, scope: Scope, selection: DocumentSelection, limit: int = 10) -> list[NamedCount]:
        """Years standing in the selection's paths, each with its documents, most first."""
        return self._named_counts(
            sql.SQL("m[1]"), sql.SQL("count(DISTINCT d.id)"), sql.SQL(", regexp_matches(d.path, %s, 'g') AS m"),
            [_YEAR_IN_PATH], scope, selection, limit,
        )

    def collection_counts(self, scope: Scope, selection: DocumentSelection, limit: int = 10) -> list[NamedCount]:
        """The selection's collections, each with its documents, most first."""
        return self._named_counts(sql.SQL("c.name"), sql.SQL("count(*)"), sql.SQL(""), [], scope, selection, limit)

    def _named_counts(
        self, name: sql.Composable, documents: sql.Composable, joined: sql.Composable, joined_params: list[Any],
        scope: Scope, selection: DocumentSelection, limit: int,
    ) -> list[NamedCount]:
        """The selection's documents counted by ``name`` (an expression over ``d``, ``c`` and
        what ``joined`` adds, with ``joined_params``), ``documents`` each, most first."""
        where, params = _scope_where(scope)
        chosen, chosen_params = _selection_clause(selection)
        query = sql.SQL(
            "SELECT {} AS name, {} AS documents FROM documents d JOIN collections c ON c.id = d.collection_id{}"
            " WHERE {} AND {} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %s"
        ).format(name, documents, joined, where, chosen)
        with self._conn() as conn:
            rows = conn.execute(query, [*joined_params, *params, *chosen_params, limit]).fetchall()
        return [NamedCount(name=str(r["name"]), documents=int(r["documents"])) for r in rows]

    def table_headers(
        self, scope: Scope, limit: int = 10, selection: DocumentSelection | None = None, titled: Sequence[str] = ()
    ) -> list[list[str]]:
        """The most common table headers of the scope (or of a selection in it), most common first;
        those of tables whose title holds one of ``titled`` ("Show Details") before all others."""
        where, params = _scope_where(scope)
        chosen, chosen_params = _selection_clause(selection or DocumentSelection())
        patterns = ["%" + re.sub(r"([\\%_])", r"\\\1", " ".join(t.split())) + "%" for t in titled if t.strip()]
        query = sql.SQL(
            "SELECT t.header, count(*) AS n, bool_or(EXISTS (SELECT 1 FROM jsonb_array_elements_text(t.title) AS l(line)"
            " WHERE l.line ILIKE ANY(%s))) AS titled FROM document_tables t JOIN documents d ON d.id = t.document_id"
            " JOIN collections c ON c.id = d.collection_id WHERE {} AND {} GROUP BY t.header"
            " ORDER BY titled DESC, n DESC, min(d.path COLLATE \"C\"), min(t.ordinal) LIMIT %s"
        ).format(where, chosen)
        with self._conn() as conn:
            rows = conn.execute(query, [patterns, *params, *chosen_params, limit]).fetchall()
        return [list(r["header"]) for r in rows]

    def count(self, scope: Scope, selection: DocumentSelection | None = None) -> int:
        where, params = _scope_where(scope)
        chosen, chosen_params = _selection_clause(selection or DocumentSelection())
        query = sql.SQL(
            "SELECT count(*) AS n FROM documents d JOIN collections c ON c.id = d.collection_id WHERE {} AND {}"
        ).format(where, chosen)
        with self._conn() as conn:
            row = conn.execute(query, [*params, *chosen_params]).fetchone()
        return int(row["n"]) if row else 0

    def scope_hint(self, scope: Scope) -> ScopeHint:
        """What an engine may know of the scope before reading a request."""
        readable = [c.name for c in self.collections(scope.user, folders=0)]
        names = [c for c in readable if not scope.collections or c in scope.collections]
        return ScopeHint(
            documents=self.count(scope),
            collections=names,
            # enough folders that a folder named in words is found wherever it stands
            folders=self.folder_summary(scope, limit=SCOPE_FOLDERS),
            years=self.years(scope),
            table_headers=self.table_headers(scope),
            vocabulary=[term for term, _ in self.vocabulary(scope)],
        )

    # -- content search ---------------------------------------------------------------------

    def search(
        self,
        scope: Scope,
        text: str,
        *,
        regex: bool = False,
        path_glob: str | None = None,
        limit: int = 50,
        budget_ms: int = DEFAULT_SEARCH_BUDGET_MS,
    ) -> SearchResult:
        """Pages whose text contains ``text`` (case-insensitive) or matches the regex ``text``."""
        if not text:
            raise KnowledgeError("Give a text to search for.")
        where, params = _scope_where(scope)
        match, line_match = (
            ("p.text ~* %s", "l ~* %s") if regex else ("strpos(lower(p.text), lower(%s)) > 0", "strpos(lower(l), lower(%s)) > 0")
        )
        glob_clause, glob_params = _glob_clause(path_glob) if path_glob else (sql.SQL("TRUE"), [])
        # The matching line is found by the database too, inside the same time budget.
        query = sql.SQL(
            "SELECT d.id, c.name AS collection, d.path, p.page_no,"
            " left(coalesce((SELECT l FROM regexp_split_to_table(p.text, E'\\n') AS l WHERE {} LIMIT 1),"
            " p.text), 240) AS line"
            " FROM document_pages p JOIN documents d ON d.id = p.document_id JOIN collections c ON c.id = d.collection_id"
            " WHERE {} AND {} AND {} ORDER BY c.name, d.path, p.page_no LIMIT %s"
        ).format(sql.SQL(line_match), where, glob_clause, sql.SQL(match))
        try:
            rows = self._timed(query, [text, *params, *glob_params, text, limit + 1], budget_ms)
        except _Stopped:
            return SearchResult([], stopped=True)
        hits = [SearchHit(r["id"], r["collection"], r["path"], r["page_no"], r["line"].strip()) for r in rows[:limit]]
        return SearchResult(hits, limit_hit=len(rows) > limit)

    # -- what ranking reads ---------------------------------------------------------------------

    def locations(self, scope: Scope, ids: Sequence[int]) -> dict[int, tuple[int, str]]:
        """{id: (collection id, path)} of the documents of ``ids`` that ``scope`` may read."""
        if not ids:
            return {}
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT d.id, d.collection_id, d.path FROM documents d JOIN collections c ON c.id = d.collection_id"
            " WHERE d.id = ANY(%s) AND {}"
        ).format(where)
        with self._conn() as conn:
            rows = conn.execute(query, [list(ids), *params]).fetchall()
        return {int(r["id"]): (int(r["collection_id"]), r["path"]) for r in rows}

    def keyword_scores(
        self, scope: Scope, ids: Sequence[int], terms: Sequence[tuple[str, int]], *,
        budget_ms: int = DEFAULT_SEARCH_BUDGET_MS,
    ) -> dict[int, int] | None:
        """For each document of ``ids`` in scope whose text or path contains any of the ``terms``
        (case-insensitive), the summed weight of those it contains; None when the scan ran past
        ``budget_ms``."""
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT d.id, sum(t.weight) AS score FROM documents d JOIN collections c ON c.id = d.collection_id,"
            " unnest(%s::text[], %s::int[]) AS t(term, weight)"
            " WHERE d.id = ANY(%s) AND {} AND (strpos(lower(d.path), lower(t.term)) > 0 OR EXISTS ("
            "  SELECT 1 FROM document_pages p WHERE p.document_id = d.id AND strpos(lower(p.text), lower(t.term)) > 0))"
            " GROUP BY d.id"
        ).format(where)
        values = [[t for t, _ in terms], [int(w) for _, w in terms], list(ids), *params]
        try:
            rows = self._timed(query, values, budget_ms)
        except _Stopped:
            return None
        return {int(r["id"]): int(r["score"]) for r in rows}

    def phrase_scores(
        self, scope: Scope, ids: Sequence[int], groups: Sequence[tuple[int, int, int, str]], *,
        budget_ms: int = DEFAULT_SEARCH_BUDGET_MS,
    ) -> dict[int, tuple[int, int]] | None:
        """For each document of ``ids`` in scope that names a phrase of ``groups`` (group, weight as
        a term, weight as a word, phrase) by full-text search in the document's own language
        (stemmed, without its stop words), the summed term and word weights of the groups it
        names (each group counted once); None when the search ran past ``budget_ms``."""
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT d.id, sum(m.term) AS term, sum(m.word) AS word FROM documents d"
            " JOIN collections c ON c.id = d.collection_id"
            " CROSS JOIN LATERAL (SELECT g.grp, max(g.term) AS term, max(g.word) AS word"
            "  FROM unnest(%s::int[], %s::int[], %s::int[], %s::text[]) AS g(grp, term, word, phrase)"
            "  WHERE EXISTS (SELECT 1 FROM document_pages p WHERE p.document_id = d.id"
            "   AND p.terms @@ phraseto_tsquery(d.language::regconfig, g.phrase)) GROUP BY g.grp) AS m"
            " WHERE d.id = ANY(%s) AND {} GROUP BY d.id"
        ).format(where)
        values = [*(list(column) for column in zip(*groups, strict=True)), list(ids), *params]
        try:
            rows = self._timed(query, values, budget_ms)
        except _Stopped:
            return None
        return {int(r["id"]): (int(r["term"]), int(r["word"])) for r in rows}

    def _timed(self, query: sql.Composable, params: Sequence[Any], budget_ms: int) -> list[dict[str, Any]]:
        """Run a read under a statement time budget; raise ``_Stopped`` when it runs out."""
        with self._conn() as conn:
            try:
                with conn.transaction():
                    conn.execute("SELECT set_config('statement_timeout', %s, true)", (str(int(budget_ms)),))
                    return conn.execute(query, params).fetchall()
            except psycopg.errors.QueryCanceled as exc:
                raise _Stopped from exc
            except psycopg.errors.InvalidRegularExpression as exc:
                raise KnowledgeError(f"Not a valid regular expression: {exc.diag.message_primary}") from exc

    # -- reading ------------------------------------------------------------------------------

    def read_document(
        self, scope: Scope, document_id: int, first_page: int | None = None, last_page: int | None = None
    ) -> DocumentText:
        """The document's pages (all, or ``first_page``..``last_page``) and tables, if in scope."""
        document = self.read_documents(scope, [document_id], first_page, last_page).get(document_id)
        if document is None:
            raise DocumentNotFound(f"Document {document_id} is not in your scope or does not exist.")
        return document

    def read_documents(
        self, scope: Scope, ids: Sequence[int], first_page: int | None = None, last_page: int | None = None,
        *, longer_than: int | None = None,
    ) -> dict[int, DocumentText | None]:
        """The documents of ``ids`` in scope, by id, in three queries (``tools/knowledge/documents.py``);
        with ``longer_than``, a longer document is answered None instead of read."""
        with self._conn() as conn:
            return read_documents(conn, _scope_where(scope), ids, first_page, last_page, longer_than=longer_than)

    def document_notes(self, scope: Scope, document_id: int) -> list[str]:
        """What the parser could read of the document only in part, if it is in scope."""
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT d.notes FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.id = %s AND {}"
        ).format(where)
        with self._conn() as conn:
            row = conn.execute(query, [document_id, *params]).fetchone()
        if row is None:
            raise DocumentNotFound(f"Document {document_id} is not in your scope or does not exist.")
        return list(row["notes"])

    def vocabulary(self, scope: Scope, limit: int = 500) -> list[tuple[str, int]]:
        """The names the scope's documents use (header cells, ``Key:`` labels), most common first.

        Each comes with the number of documents using it; spellings that differ only in case are
        one name, shown as most documents write it.
        """
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT mode() WITHIN GROUP (ORDER BY v.term) AS term, count(DISTINCT d.id) AS documents"
            " FROM documents d JOIN collections c ON c.id = d.collection_id,"
            " jsonb_array_elements_text(d.vocabulary) AS v(term)"
            " WHERE {} GROUP BY lower(v.term) ORDER BY documents DESC, lower(v.term) LIMIT %s"
        ).format(where)
        with self._conn() as conn:
            rows = conn.execute(query, [*params, limit]).fetchall()
        return [(r["term"], int(r["documents"])) for r in rows]


SCOPE_FOLDERS = 100  # the largest folders a request is read against


class _Stopped(Exception):
    pass


def _ref(row: dict[str, Any]) -> DocumentRef:
    return DocumentRef(int(row["id"]), row["collection"], row["path"], int(row["page_count"]), int(row.get("size") or 0))
