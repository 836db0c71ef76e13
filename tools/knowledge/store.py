"""What ingestion writes to the knowledge base: collections, access grants, documents with their
pages and tables.

Every value reaches SQL as a bound parameter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import psycopg

from tools.knowledge.connection import Connected
from tools.knowledge.errors import KnowledgeError
from tools.knowledge.vocabulary import document_vocabulary
from tools.parsing.base import PARSER_VERSION, ParsedDocument
from tools.visible import visible

LANGUAGE_SAMPLE_CHARS = 2000  # a document's language is told from its first characters


class Store(Connected):
    """The knowledge base's writes: collections and who may read them, then documents."""

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
                "COPY document_tables (document_id, ordinal, page_no, header, rows, title, spanned) FROM STDIN"
            ) as copy:
                for ordinal, table in enumerate(parsed.tables):
                    copy.write_row(
                        (doc_id, ordinal, table.page, _json([_clean(c) for c in table.header]),
                         _json([[_clean(c) for c in r] for r in table.rows]), _json([_clean(t) for t in table.title]),
                         _json(table.spanned))
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


def _clean(text: str) -> str:
    """A document's text as Kea keeps it: its control characters as visible symbols (no engine,
    output or terminal ever gets an escape sequence from a document; PostgreSQL holds no NUL)."""
    return visible(text)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
