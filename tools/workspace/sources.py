"""Where a workspace table comes from: the caller names coordinates, the server reads the rows.

- ``DocumentTable``: table N (1-based) of a knowledge-base document, named by collection and
  path and read under the asking user's access, as the ingestion parsers stored it. For an XLSX
  workbook, table N is its N-th sheet that holds data (empty sheets are no tables).
- ``ExtractionTable``: the CSV an extraction stored (``record-extraction/{id}/table.csv``).
- ``QueryResult``: the CSV spill file of one of the conversation's own queries.

Rows are never passed in. Each source is recorded as these coordinates, so an expired
workspace is rebuilt from the originals.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

import psycopg

from core.selection import LOCAL_USER, Scope
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.errors import DocumentNotFound
from tools.storage.links import is_expired
from tools.storage.objects import ObjectNotFound, ObjectStore
from tools.storage.rows import extraction_prefix, table_key
from tools.storage.table import FORMULA_STARTS, neutralise
from tools.workspace.catalog import NotYours, WorkspaceError
from tools.workspace.shape import safe_name


@dataclass(frozen=True)
class DocumentTable:
    collection: str
    path: str
    table: int = 1


@dataclass(frozen=True)
class ExtractionTable:
    extraction_id: str


@dataclass(frozen=True)
class QueryResult:
    query_id: int


Source = DocumentTable | ExtractionTable | QueryResult


@dataclass(frozen=True)
class Read:
    """What a source gave: header, rows, how to name and describe it, how to find it again."""

    header: list[str]
    rows: list[list[str]]
    name: str
    description: str
    record: dict[str, Any]
    forms: bool = False  # a document's table: refused when shaped like a form


def source_of(record: dict[str, Any]) -> Source:
    """The source a recorded table was loaded from."""
    kind = record.get("kind")
    if kind == "document":
        return DocumentTable(record["collection"], record["path"], int(record["table"]))
    if kind == "extraction":
        return ExtractionTable(record["extraction_id"])
    return QueryResult(int(record["query_id"]))


def restore(cell: str) -> str:
    """A CSV cell as it was before the writer guarded it against formulas (the ' it added goes)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) and neutralise(cell[1:]) == cell:
        return cell[1:]
    return cell


def read_csv(data: bytes) -> tuple[list[str], list[list[str]]]:
    rows = [[restore(c) for c in row] for row in csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))]
    rows = [row for row in rows if row]
    if not rows:
        raise WorkspaceError("The stored CSV is empty: it has not even a header.")
    return rows[0], rows[1:]


def _stored_csv(objects: ObjectStore, key: str, now: datetime) -> tuple[list[str], list[list[str]]]:
    """A stored CSV that has not expired (stored files are kept 7 days); ``ObjectNotFound`` otherwise."""
    if is_expired(objects.stored_at(key), now):
        raise ObjectNotFound(key)
    with objects.open(key) as handle:
        return read_csv(handle.read())


def read_document(kb: KnowledgeBase, user: str, source: DocumentTable) -> Read:
    scope = Scope(user=user, collections=[source.collection])
    missing = WorkspaceError(
        f"There is no document {source.path!r} in collection {source.collection!r} that you may read."
    )
    found = [d for d in kb.find_by_path_suffix(scope, source.path) if d.path == source.path and d.collection == source.collection]
    if not found:
        raise missing
    try:
        document = kb.read_document(scope, found[0].id)
    except DocumentNotFound as exc:
        raise missing from exc
    count = len(document.tables)
    if not count:
        raise WorkspaceError(f"{source.path} holds no table the parser could read.")
    if not 1 <= source.table <= count:
        raise WorkspaceError(
            f"{source.path} holds {count} table{'s' if count > 1 else ''}; ask for a table from 1 to {count}."
        )
    table = document.tables[source.table - 1]
    stem = PurePosixPath(source.path).stem
    base = safe_name(stem, "document")
    name = base if source.table == 1 else f"{base}_t{source.table}"
    if source.path.lower().endswith(".xlsx"):
        page = document.pages[table.page - 1] if 0 < table.page <= len(document.pages) else ""
        where = f"sheet {page.split(chr(10), 1)[0]!r} (sheet {source.table} with data)"
    else:
        where = f"table {source.table} (page {table.page})"
    record = {"kind": "document", "collection": source.collection, "path": source.path, "table": source.table}
    # the rules judge the table as the document holds it: a merged cell once in its row
    header, rows = table.as_held()
    return Read(header, rows, name, f"{where} of {source.collection}:{source.path}", record, forms=True)


def _extraction_owner(conn: psycopg.Connection[Any], extraction_id: str) -> str | None:
    row = conn.execute(
        "SELECT t.user_id FROM thread_extractions e JOIN chat_threads t USING (thread_id) WHERE e.extraction_id = %s",
        (extraction_id,),
    ).fetchone()
    return str(row["user_id"]) if row else None


def read_extraction(
    conn: psycopg.Connection[Any], objects: ObjectStore, user: str, source: ExtractionTable, now: datetime
) -> Read:
    """An extraction's table; one made over the HTTP API only for its owner, others only locally."""
    try:
        extraction_prefix(source.extraction_id)
    except ValueError as exc:
        raise WorkspaceError(f"{source.extraction_id!r} is not an extraction id.") from exc
    owner = _extraction_owner(conn, source.extraction_id)
    if (owner or LOCAL_USER) != user:
        raise NotYours(f"There is no extraction {source.extraction_id} of yours.")
    try:
        header, rows = _stored_csv(objects, table_key(source.extraction_id), now)
    except ObjectNotFound as exc:
        raise WorkspaceError(
            f"There is no stored table for extraction {source.extraction_id} (stored tables are kept 7 days)."
        ) from exc
    record = {"kind": "extraction", "extraction_id": source.extraction_id}
    name = "extraction_" + re.sub(r"[^a-z0-9]", "", source.extraction_id.lower())[:8]
    return Read(header, rows, name, f"the table of extraction {source.extraction_id}", record)


def read_result(
    conn: psycopg.Connection[Any], objects: ObjectStore, thread: str, source: QueryResult, now: datetime
) -> Read:
    """The spill file of query N of this thread (queries of other threads are not found)."""
    row = conn.execute(
        "SELECT query, csv_key FROM workspace_queries WHERE id = %s AND thread_id = %s AND NOT forgotten",
        (source.query_id, thread),
    ).fetchone()
    if row is None or not row["csv_key"]:
        raise WorkspaceError(f"Query {source.query_id} of this conversation left no result to load.")
    try:
        header, rows = _stored_csv(objects, row["csv_key"], now)
    except ObjectNotFound as exc:
        raise WorkspaceError(
            f"The result of query {source.query_id} has expired (results are kept 7 days); run the query again."
        ) from exc
    record = {"kind": "result", "query_id": source.query_id, "query": row["query"]}
    return Read(header, rows, f"result_{source.query_id}", f"the result of query {source.query_id}", record)
