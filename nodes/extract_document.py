"""extract_document: one document read, its records extracted, verified and stored.

Runs once per document (a ``Send``), on one of the profile's lanes (``tools/lanes.py``), or
taking the call a free lane made for it ahead. Its rows go straight to storage under the extraction id
— written whole, so a retried task overwrites and never duplicates — and only counts travel
back into the graph. A failing document returns its failure; it never stalls or ends the run.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import psycopg
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.runtime import Runtime
from psycopg_pool import PoolTimeout

from checkpoints.cluster import DatabaseDown
from core.profile import Profile, profile_of
from core.reading import Reading, Record
from core.state import DocumentTask
from nodes.cancelled import NOT_READ
from tools.document_io import Ahead, DocumentIO, Loaded, Read, ToStore, document_io
from tools.engines import ExtractionError, engine_named
from tools.engines.grounding import verify_evidence
from tools.engines.reasons import explain_no_rows
from tools.engines.usage import Usage, metered
from tools.knowledge.errors import DocumentNotFound, KnowledgeError
from tools.lanes import Coming, Lanes, lanes_for
from tools.lifecycle import current_control, run_cancelled
from tools.services import Services, ServicesSource
from tools.storage.objects import StoreUnavailable, is_store_fault, store_fault_reason
from tools.storage.review import PageIndex
from tools.storage.table import shorten

log = logging.getLogger(__name__)
T = TypeVar("T")
FIRST_ROWS = 3  # rows a progress event shows of a finished document
ERROR_CHARS = 300


def still_reading_seconds() -> float:
    return float(os.environ.get("KEA_STILL_READING_SECONDS", "60"))


async def extract_document(task: DocumentTask, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    emit = runtime.stream_writer
    svc = await services()
    io = document_io(svc, task["extraction_id"], profile.scope)
    lanes = lanes_for(profile.name, profile.concurrency)
    file = f"document {task['document_id']}"
    read = Read()
    try:
        with lanes.coming() as coming:
            # before taking a lane: the tasks of a wave load their documents together (tools/document_io.py)
            loaded = await _store_io(io.load(task["document_id"]))
            document = loaded.document
            file = f"{document.collection}:{document.path}" if task.get("qualify") else document.path
            if loaded.stored is not None:
                records = loaded.stored  # stored by an earlier attempt of this run: never read twice
            else:
                # in hand: extracted or waiting to be stored, at most twice the concurrency; the rows
                # of a fast engine never pile up in memory ahead of their storage
                ahead = _read_ahead_of(loaded)
                read = ahead.read if ahead is not None else Read()
                async with lanes.in_hand:
                    if ahead is not None:  # a lane no task wanted read it ahead: the call is made, or under way
                        coming.arrived()
                        io.reading_started()  # the lanes are busy: deferred background work may go
                        await _watched(ahead.work, file, emit)
                    else:
                        await _read_on_a_lane(profile, io, lanes, coming, loaded, read, file, emit)
                    # the lane is free already
                    stored = ToStore(document, file, read.records, loaded.failed_before)
                    records = await _store_io(io.store(stored, _store))
    except RunCancelled:
        return await _not_read(svc, task, file)
    except (psycopg.OperationalError, PoolTimeout) as exc:
        # not this document's fault: the database is gone, and every other document would wait
        # for it in turn. The run stops at once; what was finished stays stored.
        raise DatabaseDown(
            "Kea's database stopped answering while documents were read, so the run stopped. "
            "Documents finished before are kept: once it answers again, the run continues with the documents not read yet."
        ) from exc
    except StoreUnavailable:
        raise  # the object store is gone: the same for every document
    except Exception as exc:  # noqa: BLE001 — any failure of one document is reported, never fatal
        error = shorten(_why(exc, file, task), ERROR_CHARS)
        emit({"kind": "progress", "event": "document_failed", "file": file, "error": error})
        try:
            await asyncio.to_thread(svc.rows.write_failure, task["extraction_id"], task["document_id"], file, error)
            io.settled(task["document_id"])
        except Exception:  # noqa: BLE001 — store_csv lists a document without a stored outcome as failed
            pass
        return {"tally": {**_cost(read.usage), "read_ms": read.ms}}
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
            **_cost(read.usage),
            "read_ms": read.ms,
        }
    }


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
            "Documents finished before are kept: once it is back, the run continues with the documents not read yet."
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
    svc.rows.write(
        extraction_id, document.id, item.file, records, no_rows=why, notes=document.notes, failed_before=item.failed_before
    )
    return records


def _cost(usage: Usage) -> dict[str, int]:
    return {"model_calls": usage.calls, "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}


def _read_ahead_of(loaded: Loaded) -> Ahead | None:
    """The call a lane made ahead for this document, unless it ended without the document's
    outcome (cut off by the cancel of an earlier run: the document is read now)."""
    ahead = loaded.ahead
    if ahead is None or (ahead.work.done() and (ahead.work.cancelled() or isinstance(ahead.work.exception(), RunCancelled))):
        return None
    return ahead


async def _read_on_a_lane(
    profile: Profile, io: DocumentIO, lanes: Lanes, coming: Coming, loaded: Loaded, read: Read, file: str, emit: Any
) -> None:
    """The document's engine call, made now on a lane (``tools/lanes.py``). Leaving it, the lane
    reads the next wave's documents ahead when no task wants it."""
    async with lanes.lane(coming, hand_on=io.read_ahead(lanes, functools.partial(_read_ahead, profile, io), profile.concurrency)):
        if run_cancelled():  # the run was cancelled: nothing more is read
            raise RunCancelled()
        io.reading_started()  # background work waiting for the lanes to be busy goes now
        if loaded.document.page_count > profile.long_document_pages:
            emit({"kind": "progress", "event": "long_document_started", "file": file, "pages": loaded.document.page_count})
        await _watched(_read(profile, loaded, read), file, emit)


async def _read_ahead(profile: Profile, io: DocumentIO, loaded: Loaded, read: Read) -> None:
    """A document read ahead, in a task of its own: no LangGraph task's callbacks are its."""
    var_child_runnable_config.set(None)
    if run_cancelled():
        raise RunCancelled()
    io.reading_started()
    await _read(profile, loaded, read)


async def _read(profile: Profile, loaded: Loaded, read: Read) -> None:
    """One engine call, metered and timed into ``read``; a cancel of the run cuts it off (and no
    call starts once the cancel is seen)."""
    started = time.monotonic()
    engine = engine_named(profile.engine, profile)
    control = current_control()
    with metered(read.usage):
        if run_cancelled():
            raise RunCancelled()
        call = asyncio.ensure_future(engine.extract_document(loaded.document, loaded.reading))
        if control is not None:
            control.cut_off_on_cancel(call)
        try:
            read.records = await call
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if control is not None and control.cancelled and not (task and task.cancelling()):
                raise RunCancelled() from None  # the run's cancel, not this task's
            raise
        except Exception:
            if control is not None and control.cancelled:
                raise RunCancelled() from None  # what the engine raised while it was cut off
            raise
        finally:
            read.ms = _since(started)


async def _watched(work: Awaitable[None], file: str, emit: Any) -> None:
    """Wait for a document's engine call, saying so every minute while it is still being read."""
    loop = asyncio.get_running_loop()
    interval = still_reading_seconds()
    waited = 0.0

    def still_reading() -> None:
        nonlocal waited, timer
        waited += interval
        emit({"kind": "progress", "event": "still_reading", "file": file, "seconds": int(waited)})
        timer = loop.call_later(interval, still_reading)

    timer = loop.call_later(interval, still_reading)
    try:
        await work  # a task awaited is cancelled with this one
    finally:
        timer.cancel()
