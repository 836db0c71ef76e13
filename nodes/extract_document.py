"""extract_document: one document read, its records extracted, verified and stored.

Runs once per document (a ``Send``). Its rows go straight to storage under the extraction id
— written whole, so a retried task overwrites and never duplicates — and only counts travel
back into the graph. A failing document returns its failure; it never stalls or ends the run.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import weakref
from collections.abc import Awaitable
from typing import Any, TypeVar

import psycopg
from langgraph.config import get_config
from langgraph.runtime import Runtime
from psycopg_pool import PoolTimeout

from checkpoints.cluster import DatabaseDown
from graph.lifecycle import current_control, run_cancelled
from graph.profile import Profile, profile_of
from graph.state import DocumentTask
from nodes.cancelled import NOT_READ
from tools.engines import ExtractionError, engine_named
from tools.engines.grounding import verify_evidence
from tools.engines.reading import DocumentText, Reading, Record
from tools.engines.reasons import explain_no_rows
from tools.engines.usage import Usage, metered
from tools.knowledge.base import DocumentNotFound, KnowledgeError
from tools.document_io import ToStore, document_io
from tools.services import Services, aservices
from tools.storage.objects import StoreUnavailable, is_store_fault, store_fault_reason
from tools.storage.review import PageIndex
from tools.storage.table import shorten

log = logging.getLogger(__name__)
T = TypeVar("T")
FIRST_ROWS = 3  # rows a progress event shows of a finished document
ERROR_CHARS = 300

_semaphores: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, int, bool], asyncio.Semaphore]]" = (
    weakref.WeakKeyDictionary()
)


def _slot(profile: Profile, *, in_hand: bool = False) -> asyncio.Semaphore:
    """The profile's concurrency cap, per event loop (shared by every run of this process); with
    ``in_hand``, the documents extracted or being stored: twice the cap."""
    per_loop = _semaphores.setdefault(asyncio.get_running_loop(), {})
    key = (profile.name, max(1, profile.concurrency), in_hand)
    if key not in per_loop:
        per_loop[key] = asyncio.Semaphore(key[1] * (2 if in_hand else 1))
    return per_loop[key]


def still_reading_seconds() -> float:
    return float(os.environ.get("KEA_STILL_READING_SECONDS", "60"))


async def extract_document(task: DocumentTask, runtime: Runtime[Profile]) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    emit = runtime.stream_writer
    svc = await aservices()
    io = document_io(svc, task["extraction_id"], profile.scope)
    file = f"document {task['document_id']}"
    usage = Usage()
    started = time.monotonic()
    try:
        # before taking a slot: the tasks of a wave load their documents together (tools/document_io.py)
        loaded = await _store_io(io.load(task["document_id"]))
        document = loaded.document
        file = f"{document.collection}:{document.path}" if task.get("qualify") else document.path
        if loaded.stored is not None:
            records = loaded.stored  # stored by an earlier attempt of this run: never read twice
        else:
            # in hand: extracted or waiting to be stored, at most twice the concurrency; the rows
            # of a fast engine never pile up in memory ahead of their storage
            async with _slot(profile, in_hand=True):
                async with _slot(profile):
                    started = time.monotonic()
                    if run_cancelled():  # the run was cancelled: nothing more is read
                        raise RunCancelled()
                    io.reading_started()  # background work waiting for the lanes to be busy goes now
                    if document.page_count > profile.long_document_pages:
                        emit({"kind": "progress", "event": "long_document_started", "file": file, "pages": document.page_count})
                    with metered() as usage:
                        records = await _extract_watched(profile, document, loaded.reading, file, emit)
                records = await _store_io(io.store(ToStore(document, file, records), _store))  # the lane is free for the next document
        elapsed = _since(started)
    except (psycopg.OperationalError, PoolTimeout) as exc:
        # not this document's fault: the database is gone, and every other document would wait
        # for it in turn. The run stops at once; what was finished stays stored.
        raise DatabaseDown(
            "Kea's database stopped answering while documents were read, so the run stopped. "
            f"Documents finished before are kept. Start it again (kea services status), then {_continue_hint()}."
        ) from exc
    except StoreUnavailable:
        raise  # the object store is gone: the same for every document
    except RunCancelled:
        return await _not_read(svc, task, file)
    except Exception as exc:  # noqa: BLE001 — any failure of one document is reported, never fatal
        error = shorten(_why(exc, file, task), ERROR_CHARS)
        emit({"kind": "progress", "event": "document_failed", "file": file, "error": error})
        try:
            await asyncio.to_thread(svc.rows.write_failure, task["extraction_id"], task["document_id"], file, error)
        except Exception:  # noqa: BLE001 — store_csv lists a document without a stored outcome as failed
            pass
        return {"tally": {**_cost(usage), "read_ms": _since(started)}}
    unsure = sum(r.match == "unsure" for r in records)
    emit(
        {
            "kind": "progress",
            "event": "document_done",
            "file": file,
            "rows": len(records),
            "unsure_rows": unsure,
            "first_rows": [[shorten(v) for v in r.values.values()] for r in records[:FIRST_ROWS]],
        }
    )
    return {
        "tally": {
            "extracted": 1,
            "rows": len(records),
            "unsure_rows": unsure,
            **_cost(usage),
            "read_ms": elapsed,
        }
    }


def _continue_hint() -> str:
    """How the user continues this run once the service is back."""
    thread = (get_config().get("configurable") or {}).get("thread_id")
    return f"`kea resume {thread}` reads the documents not read yet" if thread else "ask again"


async def _store_io(work: Awaitable[T]) -> T:
    """A document's load or store; the object store failing stops the run (every document would
    fail the same way) with what to do."""
    try:
        return await work
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        raise StoreUnavailable(
            f"The object store failed while documents were read ({store_fault_reason(exc)}), so the run stopped. "
            f"Documents finished before are kept. Once it is back, {_continue_hint()}."
        ) from exc


class RunCancelled(Exception):
    """The run was cancelled before or while this document was read."""


async def _not_read(svc: Services, task: DocumentTask, file: str) -> dict[str, Any]:
    """A document the cancelled run did not read: said so in its outcome, counted nowhere."""
    try:
        await asyncio.to_thread(svc.rows.write_failure, task["extraction_id"], task["document_id"], file, NOT_READ)
    except Exception:  # noqa: BLE001 — without it store_csv lists the document as not stored
        log.warning("Could not note document %s as not read", task["document_id"], exc_info=True)
    return {"tally": {}}


def _since(started: float) -> int:
    """Milliseconds since ``started``: this document's reading time (estimates are made from it)."""
    return int((time.monotonic() - started) * 1000)


def _why(exc: Exception, file: str, task: DocumentTask) -> str:
    """The sentence a user reads of a failed document. An engine's or the knowledge base's own
    refusal says itself; anything else is a fault of Kea's, logged with its traceback."""
    if isinstance(exc, DocumentNotFound):
        return "it was removed from the knowledge base (or may no longer be read by you) after the run started"
    if isinstance(exc, (ExtractionError, KnowledgeError)):
        return str(exc) or type(exc).__name__
    log.exception("Reading %s (document %s, extraction %s) failed unexpectedly", file, task["document_id"], task["extraction_id"])
    return f"Kea failed on it unexpectedly ({type(exc).__name__}); the details are in Kea's log"


def _store(svc: Services, extraction_id: str, item: ToStore, reading: Reading) -> list[Record]:
    """Verify each record's evidence and note where it stands on its page, then store the
    document's records whole (or why it has none). Runs in a worker thread."""
    document = item.document
    index = PageIndex(document.pages)
    records = [r.model_copy(update={"source": index.context(r.page, r.evidence)}) for r in verify_evidence(item.records, document)]
    why = None if records else explain_no_rows(document, reading).model_dump()
    svc.rows.write(extraction_id, document.id, item.file, records, no_rows=why, notes=document.notes)
    return records


def _cost(usage: Usage) -> dict[str, int]:
    return {"model_calls": usage.calls, "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}


async def _extract_watched(
    profile: Profile, document: DocumentText, reading: Reading, file: str, emit: Any
) -> list[Record]:
    """Extract, saying so every minute while the document is still being read; a cancel of the
    run cuts the call off (and no call starts once the cancel is seen)."""
    engine = engine_named(profile.engine, profile)

    async def call() -> list[Record]:
        if run_cancelled():
            raise RunCancelled()
        return await engine.extract_document(document, reading)

    work = asyncio.ensure_future(call())
    control = current_control()
    stop = asyncio.ensure_future(control.stop.wait()) if control is not None else None
    interval = still_reading_seconds()
    waited = 0.0
    try:
        while True:
            done, _ = await asyncio.wait({work, stop} - {None}, timeout=interval, return_when=asyncio.FIRST_COMPLETED)
            if work in done:
                return work.result()
            if stop is not None and stop in done:
                raise RunCancelled()
            waited += interval
            emit({"kind": "progress", "event": "still_reading", "file": file, "seconds": int(waited)})
    finally:
        work.cancel()  # no-op when finished; stops the engine when the run itself is cancelled
        if stop is not None:
            stop.cancel()
