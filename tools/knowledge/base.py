"""The knowledge base in PostgreSQL: collections, access, documents, pages and tables.

Every read goes through ``Scope``: the profile's collections, the asking user's access and the
profile's path glob are part of the SQL of every query, so a document outside them is never
listed, counted, searched or read. Every value reaches SQL as a bound parameter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from checkpoints.migrations import apply_migrations
from core.reading import DocumentText, FolderCount, ScopeHint
from core.selection import LOCAL_USER, DocumentSelection, Scope, SelectionEntry
from tools.knowledge.documents import read_documents
from tools.knowledge.paths import glob_prefix, glob_to_regex, like_prefix
from tools.knowledge.vocabulary import document_vocabulary
from tools.parsing.base import PARSER_VERSION, ParsedDocument
from tools.visible import visible

DEFAULT_SEARCH_BUDGET_MS = 3000
LANGUAGE_SAMPLE_CHARS = 2000  # a document's language is told from its first characters
_YEAR_IN_PATH = r"(?:^|[^0-9])((?:19|20)[0-9]{2})(?![0-9])"


class KnowledgeError(ValueError):
    """A request to the knowledge base that cannot be served; the message says why."""


class DocumentNotFound(KnowledgeError):
    """The document does not exist or is outside the asking user's scope (indistinguishable)."""


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


class KnowledgeBase:
    """Access to the knowledge base tables; one pool per process."""

    def __init__(self, url: str, *, max_size: int = 10, migrate: bool = True) -> None:
        if migrate:
            apply_migrations(url)
        self.url = url
        self.pool = ConnectionPool(
            url, min_size=1, max_size=max_size, open=True, kwargs={"autocommit": True, "row_factory": dict_row}
        )

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        with self.pool.connection() as conn:
            yield conn  # type: ignore[misc]

    # -- collections and access ----------------------------------------------------------

    def ensure_collection(self, name: str) -> int:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}", name):
            raise KnowledgeError(
                f"Collection name {name!r} is not allowed: use letters, digits, '.', '_' or '-' (up to 63)."
            )
        with self._conn() as conn:
            row = conn.execute(
                "INSERT INTO collections (name) VALUES (%s) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name"
                " RETURNING id",
                (name,),
            ).fetchone()
        assert row is not None
        return int(row["id"])

    def drop_if_unused(self, collection_id: int) -> None:
        """Remove a collection that holds no document and that nobody was given: an ingest that
        read nothing leaves no empty collection behind."""
        with self._conn() as conn:
            conn.execute(
                "DELETE FROM collections c WHERE c.id = %s"
                " AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.collection_id = c.id)"
                " AND NOT EXISTS (SELECT 1 FROM collection_readers r WHERE r.collection_id = c.id)",
                (collection_id,),
            )

    def grant(self, collection: str, user: str) -> None:
        """Let ``user`` read ``collection`` ('*' lets every user read it)."""
        with self._conn() as conn:
            cur = conn.execute(
                "INSERT INTO collection_readers (collection_id, user_id)"
                " SELECT id, %s FROM collections WHERE name = %s ON CONFLICT DO NOTHING",
                (user, collection),
            )
            if cur.rowcount == 0 and not self._collection_exists(conn, collection):
                raise KnowledgeError(f"No collection named {collection!r}.")

    def revoke(self, collection: str, user: str) -> None:
        with self._conn() as conn:
            conn.execute(
                "DELETE FROM collection_readers r USING collections c"
                " WHERE r.collection_id = c.id AND c.name = %s AND r.user_id = %s",
                (collection, user),
            )

    def readers(self, collection: str) -> list[str]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT r.user_id FROM collection_readers r JOIN collections c ON c.id = r.collection_id"
                " WHERE c.name = %s ORDER BY 1",
                (collection,),
            ).fetchall()
        return [r["user_id"] for r in rows]

    @staticmethod
    def _collection_exists(conn: psycopg.Connection[Any], name: str) -> bool:
        return conn.execute("SELECT 1 FROM collections WHERE name = %s", (name,)).fetchone() is not None

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

    def table_headers(self, scope: Scope, limit: int = 10) -> list[list[str]]:
        where, params = _scope_where(scope)
        query = sql.SQL(
            "SELECT t.header, count(*) AS n FROM document_tables t JOIN documents d ON d.id = t.document_id"
            " JOIN collections c ON c.id = d.collection_id WHERE {} GROUP BY t.header ORDER BY n DESC LIMIT %s"
        ).format(where)
        with self._conn() as conn:
            rows = conn.execute(query, [*params, limit]).fetchall()
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
            folders=self.folder_summary(scope, limit=12),
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
            " left(coalesce((SELECT l FROM regexp_split_to_table(p.text, E'\\n') AS l WHERE " + line_match + " LIMIT 1),"
            " p.text), 240) AS line"
            " FROM document_pages p JOIN documents d ON d.id = p.document_id JOIN collections c ON c.id = d.collection_id"
            " WHERE {} AND {} AND " + match + " ORDER BY c.name, d.path, p.page_no LIMIT %s"
        ).format(where, glob_clause)
        try:
            rows = self._timed(query, [text, *params, *glob_params, text, limit + 1], budget_ms)
        except _Stopped:
            return SearchResult([], stopped=True)
        hits = [SearchHit(r["id"], r["collection"], r["path"], r["page_no"], r["line"].strip()) for r in rows[:limit]]
        return SearchResult(hits, limit_hit=len(rows) > limit)

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

    # -- ingestion ----------------------------------------------------------------------------

    def stored_hashes(self, collection_id: int) -> dict[str, str]:
        """The content hash of each stored document; "" for one an older parser read (read it again)."""
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT path, sha256, parser FROM documents WHERE collection_id = %s", (collection_id,)
            ).fetchall()
        return {r["path"]: r["sha256"] if r["parser"] == PARSER_VERSION else "" for r in rows}

    def store_document(self, collection_id: int, path: str, size: int, sha256: str, parsed: ParsedDocument) -> int:
        """Insert or replace one document with its pages, tables, notes and vocabulary, in one transaction."""
        with self._conn() as conn, conn.transaction():
            row = conn.execute(
                "INSERT INTO documents (collection_id, path, title, media_type, size, sha256, page_count, notes,"
                " vocabulary, parser) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (collection_id, path) DO UPDATE SET title = EXCLUDED.title,"
                " media_type = EXCLUDED.media_type, size = EXCLUDED.size, sha256 = EXCLUDED.sha256,"
                " page_count = EXCLUDED.page_count, notes = EXCLUDED.notes, vocabulary = EXCLUDED.vocabulary,"
                " parser = EXCLUDED.parser, ingested_at = now() RETURNING id",
                (
                    collection_id, path, _clean(parsed.title), parsed.media_type, size, sha256, len(parsed.pages),
                    _json([_clean(note) for note in parsed.notes]), _json(document_vocabulary(parsed)), PARSER_VERSION,
                ),
            ).fetchone()
            assert row is not None
            doc_id = int(row["id"])
            conn.execute("DELETE FROM document_pages WHERE document_id = %s", (doc_id,))
            conn.execute("DELETE FROM document_tables WHERE document_id = %s", (doc_id,))
            with conn.cursor().copy("COPY document_pages (document_id, page_no, text) FROM STDIN") as copy:
                for number, text in enumerate(parsed.pages, start=1):
                    copy.write_row((doc_id, number, _clean(text)))
            with conn.cursor().copy(
                "COPY document_tables (document_id, ordinal, page_no, header, rows, title) FROM STDIN"
            ) as copy:
                for ordinal, table in enumerate(parsed.tables):
                    copy.write_row(
                        (doc_id, ordinal, table.page, _json([_clean(c) for c in table.header]),
                         _json([[_clean(c) for c in r] for r in table.rows]), _json([_clean(t) for t in table.title]))
                    )
            # the language its words are stemmed in, told from its first characters, then each page's terms
            conn.execute(
                "UPDATE documents SET language = kea_text_language(%s) WHERE id = %s",
                (_clean("\n".join(parsed.pages)[:LANGUAGE_SAMPLE_CHARS]), doc_id),
            )
            conn.execute(
                "UPDATE document_pages p SET terms = kea_page_terms(d.language, kea_document_label(d.path, d.title),"
                " p.page_no, p.text) FROM documents d WHERE d.id = p.document_id AND d.id = %s",
                (doc_id,),
            )
        return doc_id

    def delete_documents(self, collection_id: int, paths: Sequence[str]) -> int:
        if not paths:
            return 0
        with self._conn() as conn:
            cur = conn.execute(
                "DELETE FROM documents WHERE collection_id = %s AND path = ANY(%s)", (collection_id, list(paths))
            )
        return cur.rowcount


class _Stopped(Exception):
    pass


def _clean(text: str) -> str:
    """A document's text as Kea keeps it: its control characters as visible symbols (no engine,
    output or terminal ever gets an escape sequence from a document; PostgreSQL holds no NUL)."""
    return visible(text)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _ref(row: dict[str, Any]) -> DocumentRef:
    return DocumentRef(int(row["id"]), row["collection"], row["path"], int(row["page_count"]), int(row.get("size") or 0))


def _access_clause(user: str) -> tuple[sql.Composable, list[Any]]:
    if user == LOCAL_USER:
        return sql.SQL("TRUE"), []
    return (
        sql.SQL(
            "EXISTS (SELECT 1 FROM collection_readers r WHERE r.collection_id = c.id AND r.user_id IN (%s, '*'))"
        ),
        [user],
    )


def _scope_where(scope: Scope) -> tuple[sql.Composable, list[Any]]:
    """The scope as SQL over ``documents d JOIN collections c``: access, collections, profile glob."""
    clause, params = _access_clause(scope.user)
    parts, values = [clause], list(params)
    if scope.collections:
        parts.append(sql.SQL("c.name = ANY(%s)"))
        values.append(list(scope.collections))
    if scope.path_glob:
        clause, params = _glob_clause(scope.path_glob)
        parts.append(clause)
        values += params
    return sql.SQL(" AND ").join(parts), values


def _glob_clause(glob: str) -> tuple[sql.Composable, list[Any]]:
    """A glob as SQL; its literal prefix as a LIKE the path index can serve, then the exact regex."""
    prefix = glob_prefix(glob)
    if not prefix:
        return sql.SQL("d.path ~ %s"), [glob_to_regex(glob)]
    return sql.SQL("(d.path LIKE %s AND d.path ~ %s)"), [like_prefix(prefix), glob_to_regex(glob)]


def _entry_clause(entry: SelectionEntry) -> tuple[sql.Composable, list[Any]]:
    parts: list[sql.Composable] = []
    values: list[Any] = []
    if entry.path_globs:
        globs = [_glob_clause(g) for g in entry.path_globs]
        parts.append(sql.SQL("(") + sql.SQL(" OR ").join(c for c, _ in globs) + sql.SQL(")"))
        values += [v for _, params in globs for v in params]
    if entry.path_regex:
        parts.append(sql.SQL("d.path ~ %s"))
        values.append(entry.path_regex)
    if entry.content:
        match = "p.text ~* %s" if entry.content.regex else "strpos(lower(p.text), lower(%s)) > 0"
        parts.append(sql.SQL("EXISTS (SELECT 1 FROM document_pages p WHERE p.document_id = d.id AND " + match + ")"))
        values.append(entry.content.text)
    if entry.ids is not None:
        parts.append(sql.SQL("d.id = ANY(%s)"))
        values.append(list(entry.ids))
    if not parts:
        return sql.SQL("TRUE"), []
    return sql.SQL("(") + sql.SQL(" AND ").join(parts) + sql.SQL(")"), values


def _selection_clause(selection: DocumentSelection) -> tuple[sql.Composable, list[Any]]:
    entries = selection.entries
    if not entries:
        return sql.SQL("TRUE"), []
    clauses, values = [], []
    for entry in entries:
        clause, params = _entry_clause(entry)
        clauses.append(clause)
        values += params
    return sql.SQL("(") + sql.SQL(" OR ").join(clauses) + sql.SQL(")"), values
