"""The Universal Agent's SQL workspace tools (the Data Analyst's): totals are computed by SQL over
the tables Kea extracted or the tables inside documents, never in the model's head.

``load_table`` names only coordinates (an extraction, a document's table, an earlier result);
Kea reads the rows itself. ``run_sql`` runs one read-only query as the conversation's own role.
Each answers the model with text, within its result budget.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.selection import Scope
from tools.knowledge.errors import KnowledgeError
from tools.workspace import sources
from tools.workspace.catalog import WorkspaceError
from tools.workspace.shape import FormRefused
from tools.workspace.workspace import Workspaces

PREVIEW_ROWS = 20


class LoadTable(BaseModel):
    """Where a table is; exactly one of extraction_id, document_path or query_id."""

    extraction_id: str | None = Field(None, description="An extraction's id (its table from extract_records).")
    document_path: str | None = Field(None, description="A document's path (collection:path when qualified).")
    table: int = Field(1, ge=1, description="With document_path: the table's number in the document (1-based; a sheet for XLSX).")
    query_id: int | None = Field(None, description="An earlier run_sql result, to load again and join.")
    name: str | None = Field(None, description="A name for the table in the workspace; empty for one Kea picks.")


class RunSql(BaseModel):
    query: str = Field(description="One read-only SELECT (or WITH) over the workspace's tables; kea_number(text) reads numbers.")


class ListTables(BaseModel):
    pass


TOOLS: dict[str, tuple[type[BaseModel], str]] = {
    "load_table": (LoadTable, "Load a table into this conversation's SQL workspace: an extraction's table, a table of a "
                   "document, or an earlier query result. Every value is kept as the text it shows."),
    "run_sql": (RunSql, "Run one read-only SQL query over the workspace's tables for totals, averages or counts; "
                "convert numbers with kea_number(column, notation). Answer with its result, never a number of your own."),
    "list_tables": (ListTables, "List the workspace's tables with their columns, row counts and number notations."),
}


def _source(svc: Any, scope: Scope, args: LoadTable) -> sources.Source:
    given = [v for v in (args.extraction_id, args.document_path, args.query_id) if v not in (None, "")]
    if len(given) != 1:
        raise WorkspaceError("Name exactly one of extraction_id, document_path or query_id.")
    if args.extraction_id:
        return sources.ExtractionTable(args.extraction_id)
    if args.query_id is not None:
        return sources.QueryResult(args.query_id)
    collection, _, path = str(args.document_path).rpartition(":")
    if collection:  # narrowed to the collection named, never widened past the profile's own
        within = [collection] if not scope.collections or collection in scope.collections else []
        scope = Scope(user=scope.user, collections=within, path_glob=scope.path_glob)
    found = svc.kb.find_by_path_suffix(scope, path) if scope.collections or not collection else []
    if not found:
        raise WorkspaceError(f"No document in scope is at {args.document_path}; list the documents to find its path.")
    if len(found) != 1:
        raise WorkspaceError(f"{args.document_path} names {len(found)} documents in scope; give its full path.")
    return sources.DocumentTable(found[0].collection, found[0].path, args.table)


def run(svc: Any, scope: Scope, thread: str, name: str, args: BaseModel) -> str:
    """One workspace tool call, answered as text (a refusal is a sentence the model reads)."""
    workspaces = Workspaces(svc.database_url, svc.objects, svc.kb)
    try:
        if isinstance(args, LoadTable):
            loaded = workspaces.load_table(thread, scope.user, _source(svc, scope, args), args.name)
            notations = ", ".join(f"{c}: {n}" for c, n in loaded.notations.items()) or "none"
            return (f"Loaded {loaded.description} as table {loaded.table}: {loaded.rows} rows; columns "
                    f"{', '.join(loaded.columns)}; number notations {notations}.")
        if isinstance(args, RunSql):
            answer = workspaces.run_sql(thread, scope.user, args.query)
            lines = [answer.message, "\t".join(answer.columns)]
            lines += ["\t".join("" if v is None else str(v) for v in row) for row in answer.rows[:PREVIEW_ROWS]]
            lines.append(f"(query {answer.query_id}; all {answer.row_count} rows: {answer.csv})")
            return "\n".join(lines)
        infos, _ = workspaces.tables(thread, scope.user)
        if not infos:
            return "The workspace has no tables yet: load one with load_table."
        return "\n".join(f"{t.table}: {t.rows} rows; columns {', '.join(t.columns)}" for t in infos)
    except (WorkspaceError, FormRefused, KnowledgeError) as exc:
        return f"{name} did not run: {exc}"
    finally:
        workspaces.close()
