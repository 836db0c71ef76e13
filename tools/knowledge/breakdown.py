"""Where the documents of a selection are: by folder, by year in the path and by collection.

What an answer offers to narrow a request by when it matches more documents than a profile
reads in one request. Each count is of distinct documents within the scope.
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

from core.reading import FolderCount
from core.selection import Breakdown, DocumentSelection, NamedCount, Scope
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.clauses import _YEAR_IN_PATH, _scope_where, _selection_clause


def breakdown(kb: KnowledgeBase, scope: Scope, selection: DocumentSelection, limit: int = 10) -> Breakdown:
    folders = kb.folder_summary(scope, limit, selection)
    where, params = _scope_where(scope)
    chosen, chosen_params = _selection_clause(selection)
    years = sql.SQL(
        "SELECT m[1] AS name, count(DISTINCT d.id) AS documents FROM documents d"
        " JOIN collections c ON c.id = d.collection_id, regexp_matches(d.path, %s, 'g') AS m"
        " WHERE {} AND {} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %s"
    ).format(where, chosen)
    collections = sql.SQL(
        "SELECT c.name AS name, count(*) AS documents FROM documents d JOIN collections c ON c.id = d.collection_id"
        " WHERE {} AND {} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT %s"
    ).format(where, chosen)
    with kb.pool.connection() as conn:
        year_rows = conn.execute(years, [_YEAR_IN_PATH, *params, *chosen_params, limit]).fetchall()
        collection_rows = conn.execute(collections, [*params, *chosen_params, limit]).fetchall()
    return Breakdown(
        folders=[_folder(f) for f in folders],
        years=[_named(r) for r in year_rows],
        collections=[_named(r) for r in collection_rows],
    )


def _folder(folder: FolderCount) -> NamedCount:
    return NamedCount(name=folder.folder, documents=folder.documents)


def _named(row: dict[str, Any]) -> NamedCount:
    return NamedCount(name=str(row["name"]), documents=int(row["documents"]))
