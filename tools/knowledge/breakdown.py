"""Where the documents of a selection are: by folder, by year in the path and by collection.

What an answer offers to narrow a request by when it matches more documents than a profile
reads in one request. Each count is of distinct documents within the scope.
"""

from __future__ import annotations

from core.selection import Breakdown, DocumentSelection, NamedCount, Scope
from tools.knowledge.base import KnowledgeBase


def breakdown(kb: KnowledgeBase, scope: Scope, selection: DocumentSelection, limit: int = 10) -> Breakdown:
    return Breakdown(
        folders=[NamedCount(name=f.folder, documents=f.documents) for f in kb.folder_summary(scope, limit, selection)],
        years=kb.year_counts(scope, selection, limit),
        collections=kb.collection_counts(scope, selection, limit),
    )
