"""The services Kea runs on (knowledge base, object store, rows, vectors, selections waiting for a
yes, thread records), and where they come from.

Nodes never look services up: a graph's builder hands each node a ``ServicesSource`` (an
async function giving the services), ``given(svc)`` for services the caller built (tests,
in-memory services, a second database) or ``aservices`` for the process's own, created once
from the environment on the first call. The clients (CLI, server, evaluations) use
``services()``; tests call ``reset_services()`` after pointing ``KEA_HOME`` /
``KEA_DATABASE_URL`` elsewhere.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from checkpoints.cluster import database_url
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.vectors import VectorIndex, drop_index, index_for
from tools.storage import open_object_store
from tools.storage.objects import ObjectStore
from tools.storage.owners import record_extraction
from tools.storage.pending import PendingSelections
from tools.storage.rows import RowStore

RecordExtraction = Callable[[str, str, str, str], bool]
"""Records an extraction under its thread: (extraction id, thread, user, profile) → whether it was
recorded (``tools.storage.owners.record_extraction``)."""


@dataclass
class Services:
    database_url: str = field(repr=False)  # it holds the cluster's password: never in a log or a test report
    kb: KnowledgeBase
    objects: ObjectStore
    rows: RowStore
    vectors: VectorIndex = field(default=None)  # type: ignore[assignment]  # chunk vectors of kb (Milvus)
    # selections waiting for a "yes", and the record of which thread made each extraction: both on
    # kb's database unless given (in-memory ones run the graph without a database)
    pending: PendingSelections = field(default=None)  # type: ignore[assignment]
    record_extraction: RecordExtraction = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.vectors is None:
            self.vectors = index_for(self.kb)
        if self.pending is None:
            self.pending = PendingSelections(self.kb.pool)
        if self.record_extraction is None:
            self.record_extraction = functools.partial(record_extraction, self.kb.pool)

    def close(self) -> None:
        drop_index(self.kb)
        self.kb.close()


_lock = threading.Lock()
_services: Services | None = None

ServicesSource = Callable[[], Awaitable[Services]]
"""What a node is given to reach its services: called when the node first needs them, so a
node that answers a greeting never starts a database."""


def create_services(url: str | None = None) -> Services:
    """New services on ``url`` (default: Kea's database) and the configured object store."""
    url = url or database_url()
    objects = open_object_store()
    return Services(url, KnowledgeBase(url), objects, RowStore(objects))


def services() -> Services:
    """The process's own services, created from the environment on the first call."""
    global _services
    with _lock:
        if _services is None:
            _services = create_services()
        return _services


def reset_services() -> None:
    global _services
    with _lock:
        if _services is not None:
            _services.close()
        _services = None


async def aservices() -> Services:
    """The process's own services for async code (the source a graph's nodes get by default):
    the first call starts them, which blocks, so it runs in a thread."""
    if _services is not None:
        return _services
    return await asyncio.to_thread(services)


def given(svc: Services | None) -> ServicesSource:
    """The source that gives ``svc``; the process's own services (``aservices``) when it is None."""
    if svc is None:
        return aservices

    async def source() -> Services:
        return svc

    return source


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
