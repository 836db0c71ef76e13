"""The services a process uses, created once from the environment on first use.

Nodes and the CLI call ``services()``; tests call ``reset_services()`` after pointing
``KEA_HOME`` / ``KEA_DATABASE_URL`` elsewhere. A caller that passes its own services to
``build_extraction_graph(services=...)`` gets them inside that graph's nodes instead
(``using_services``: a context variable, so concurrent runs with different services never mix).
"""

from __future__ import annotations

import contextvars
import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from checkpoints.cluster import database_url
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.vectors import VectorIndex, drop_index, index_for
from tools.storage import open_object_store
from tools.storage.objects import ObjectStore
from tools.storage.rows import RowStore


@dataclass
class Services:
    database_url: str = field(repr=False)  # it holds the cluster's password: never in a log or a test report
    kb: KnowledgeBase
    objects: ObjectStore
    rows: RowStore
    vectors: VectorIndex = field(default=None)  # type: ignore[assignment]  # chunk vectors of kb (Milvus)

    def __post_init__(self) -> None:
        if self.vectors is None:
            self.vectors = index_for(self.kb)

    def close(self) -> None:
        drop_index(self.kb)
        self.kb.close()


_lock = threading.Lock()
_services: Services | None = None
_current: contextvars.ContextVar[Services | None] = contextvars.ContextVar("kea_services", default=None)


def create_services(url: str | None = None) -> Services:
    """New services on ``url`` (default: Kea's database) and the configured object store."""
    url = url or database_url()
    objects = open_object_store()
    return Services(url, KnowledgeBase(url), objects, RowStore(objects))


def services() -> Services:
    if (bound := _current.get()) is not None:
        return bound
    global _services
    with _lock:
        if _services is None:
            _services = create_services()
        return _services


@contextmanager
def using_services(svc: Services) -> Iterator[Services]:
    """``services()`` answers ``svc`` within this block (and the tasks and threads it starts)."""
    token = _current.set(svc)
    try:
        yield svc
    finally:
        _current.reset(token)


def reset_services() -> None:
    global _services
    with _lock:
        if _services is not None:
            _services.close()
        _services = None


async def aservices() -> Services:
    """``services()`` for async code: the first call starts services, which blocks."""
    if (bound := _current.get()) is not None:
        return bound
    if _services is not None:
        return _services
    import asyncio

    return await asyncio.to_thread(services)


def settle_heap() -> None:
    """Once a long-running process has loaded what it runs with (modules, services, models):
    leave those objects out of the garbage collector's full passes.

    A full pass walks every tracked object; with Kea's modules, LangGraph and the ranking model
    loaded that is some 200,000 objects and 100 ms or more, and it comes back every few thousand
    new objects — in the middle of a fan-out, where all its lanes wait for it. What is loaded
    at start stays for the life of the process, so walking it finds nothing to free
    (``gc.freeze``, as servers that fork workers do). Garbage made later is collected as before.
    """
    import gc

    gc.collect()
    gc.freeze()


def with_services(node: Callable[..., Any], svc: Services) -> Callable[..., Any]:
    """``node`` running with ``svc`` as its services (what ``services()`` answers inside it)."""
    @functools.wraps(node)  # type: ignore[arg-type]
    async def bound(state: Any, runtime: Any) -> Any:
        with using_services(svc):
            return await node(state, runtime)

    return bound
