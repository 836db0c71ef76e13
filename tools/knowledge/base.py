"""The knowledge base in PostgreSQL: collections, access, documents, pages and tables.

``KnowledgeBase`` is the one entry point: its writes (``tools/knowledge/store.py``) and its reads
(``tools/knowledge/queries.py``) share one connection pool (``tools/knowledge/connection.py``).
Every read goes through ``Scope``: the profile's collections, the asking user's access and the
profile's path glob are part of the SQL of every query (``tools/knowledge/clauses.py``), so a
document outside them is never listed, counted, searched or read. Every value reaches SQL as a
bound parameter.
"""

from __future__ import annotations

from tools.knowledge.queries import Queries
from tools.knowledge.store import Store


class KnowledgeBase(Queries, Store):
    """Access to the knowledge base tables; one pool per process."""
