"""Reading documents' text out of the knowledge base, several in one round trip.

One code path serves one document (``KnowledgeBase.read_document``) and a batch (the
extraction's loader, ``tools/knowledge/loader.py``): three queries whatever the number of
documents — their heads (checked against the scope), their pages and their tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql

from core.reading import DocumentText, Table

ScopeWhere = tuple[sql.Composable, list[Any]]


def read_documents(
    conn: psycopg.Connection[dict[str, Any]],
    where: ScopeWhere,
    ids: Sequence[int],
    first_page: int | None = None,
    last_page: int | None = None,
    *,
    longer_than: int | None = None,
) -> dict[int, DocumentText | None]:
    """The documents of ``ids`` that are in scope (``where``: the scope as SQL over
    ``documents d JOIN collections c``), by id; a missing id is not in scope or does not exist.

    With ``longer_than``, a document of more pages is answered ``None`` rather than read: the
    caller reads it on its own when it needs it, so a batch never holds many long texts at once.
    """
    clause, params = where
    head = sql.SQL(
        "SELECT d.id, c.name AS collection, d.path, d.title, d.media_type, d.page_count, d.notes FROM documents d"
        " JOIN collections c ON c.id = d.collection_id WHERE d.id = ANY(%s) AND {}"
    ).format(clause)
    heads = {row["id"]: row for row in conn.execute(head, [list(ids), *params]).fetchall()}
    found: dict[int, DocumentText | None] = {}
    wanted = []
    for document_id, row in heads.items():
        if longer_than is not None and row["page_count"] > longer_than:
            found[document_id] = None
        else:
            wanted.append(document_id)
    if not wanted:
        return found
    first, last = first_page or 1, last_page or 1_000_000
    pages: dict[int, list[str]] = {i: [] for i in wanted}
    for row in conn.execute(
        "SELECT document_id, text FROM document_pages WHERE document_id = ANY(%s) AND page_no BETWEEN %s AND %s"
        " ORDER BY document_id, page_no",
        (wanted, first, last),
    ):
        pages[row["document_id"]].append(row["text"])
    tables: dict[int, list[Table]] = {i: [] for i in wanted}
    for row in conn.execute(
        "SELECT document_id, page_no, header, rows, title, spanned FROM document_tables"
        " WHERE document_id = ANY(%s) AND page_no BETWEEN %s AND %s ORDER BY document_id, ordinal",
        (wanted, first, last),
    ):
        tables[row["document_id"]].append(
            Table(page=row["page_no"] - (first - 1), header=row["header"], rows=row["rows"], title=row["title"],
                  spanned=row["spanned"])
        )
    for document_id in wanted:
        row = heads[document_id]
        found[document_id] = DocumentText(
            id=row["id"],
            collection=row["collection"],
            path=row["path"],
            title=row["title"],
            media_type=row["media_type"],
            pages=pages[document_id],
            tables=tables[document_id],
            notes=list(row["notes"] or []),
        )
    return found
