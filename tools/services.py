"""The services a process uses, created once from the environment on first use.

Nodes and the CLI call ``services()``; tests call ``reset_services()`` after pointing
``KEA_HOME`` / ``KEA_DATABASE_URL`` elsewhere.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from checkpoints.cluster import database_url, kea_home
from tools.knowledge.base import KnowledgeBase
from tools.storage.objects import FileObjectStore, ObjectStore
from tools.storage.rows import RowStore


@dataclass
class Services:
    database_url: str
    kb: KnowledgeBase
    objects: ObjectStore
    rows: RowStore

    def close(self) -> None:
        self.kb.close()


_lock = threading.Lock()
_services: Services | None = None


def services() -> Services:
    global _services
    with _lock:
        if _services is None:
            url = database_url()
            objects = FileObjectStore(kea_home() / "files")
            _services = Services(url, KnowledgeBase(url), objects, RowStore(objects))
        return _services


def reset_services() -> None:
    global _services
    with _lock:
        if _services is not None:
            _services.close()
        _services = None


async def aservices() -> Services:
    """``services()`` for async code: the first call starts services, which blocks."""
    if _services is not None:
        return _services
    import asyncio

    return await asyncio.to_thread(services)
