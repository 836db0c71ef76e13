"""Documents ordered by keyword hits: the order rank_knowledge_documents gives for now.

One function, ``rank_by_keywords``, with the signature a ranking by meaning takes its place
with: it orders the documents in scope and never leaves one out because of its score (a
document without a hit is simply not listed among the best).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.knowledge.base import KnowledgeBase
from tools.knowledge.selection import Scope

STOP_WORDS = frozenset(
    "a an and are as at be by for from has have in is it of on or that the their this to with all any every which who".split()
)
PAGES_PER_TERM = 500  # matching pages a term's search looks at, at most


@dataclass(frozen=True)
class Ranked:
    document_id: int
    collection: str
    path: str
    score: float  # terms of the query the document contains, weighted by their hits
    line: str  # a line with the first hit


def query_terms(query: str) -> list[str]:
    """The words of a query worth searching for, each once, longest first."""
    words = [w for w in re.findall(r"[\w][\w.\-/]*[\w]|\w", query.lower()) if len(w) > 2 and w not in STOP_WORDS]
    return sorted(dict.fromkeys(words), key=len, reverse=True)


def rank_by_keywords(kb: KnowledgeBase, scope: Scope, query: str, limit: int = 10) -> list[Ranked]:
    """The documents in ``scope`` that contain the query's words, most words (then most pages) first."""
    terms: dict[int, set[str]] = {}
    pages: dict[int, int] = {}
    first: dict[int, tuple[str, str, str]] = {}
    for term in query_terms(query):
        for hit in kb.search(scope, term, limit=PAGES_PER_TERM).hits:
            terms.setdefault(hit.document_id, set()).add(term)
            pages[hit.document_id] = pages.get(hit.document_id, 0) + 1
            first.setdefault(hit.document_id, (hit.collection, hit.path, hit.line))
    ordered = sorted(terms, key=lambda d: (-len(terms[d]), -pages[d], first[d][1]))
    return [
        Ranked(d, first[d][0], first[d][1], len(terms[d]) + min(pages[d], 50) / 100, first[d][2]) for d in ordered[:limit]
    ]
