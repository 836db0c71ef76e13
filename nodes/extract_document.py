"""extract_document: one document read, its records extracted, verified and stored.

Runs once per document (a ``Send``). The reading is the fan-out's (``tools/fanout/``): the
document is loaded with the others of its wave, extracted on one of the profile's lanes (or
taken from the call a free lane made for it ahead), and its rows go straight to storage under
the extraction id — written whole, so a retried task overwrites and never duplicates — and only
counts travel back into the graph. This node decides what the user hears of it: the progress
events, what a failure means (a failing document returns its failure; it never stalls or ends
the run, unless the database or the object store is gone), and the tally.
"""

from __future__ import annotations

import logging
from contextlib import aclosing
from typing import Any

import psycopg
from langgraph.runtime import Runtime
from psycopg_pool import PoolTimeout

from checkpoints.cluster import DatabaseDown
from core.profile import Profile, profile_of
from core.state import DocumentTask
from nodes.cancelled import NOT_READ
from tools.engines import ExtractionError
from tools.engines.usage import Usage
from tools.fanout import DocumentRead, LongDocument, RunCancelled, StoreFault
from tools.knowledge.errors import DocumentNotFound, KnowledgeError
from tools.services import ServicesSource
from tools.storage.objects import StoreUnavailable, store_fault_reason
from tools.storage.table import shorten

log = logging.getLogger(__name__)
FIRST_ROWS = 3  # rows a progress event shows of a finished document
ERROR_CHARS = 300


async def extract_document(task: DocumentTask, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    emit = runtime.stream_writer
    svc = await services()
    document = DocumentRead(svc, profile, task["extraction_id"], task["document_id"], qualify=bool(task.get("qualify")))
    try:
        async with aclosing(document.news()) as news:
            async for item in news:
                if isinstance(item, LongDocument):
                    emit({"kind": "progress", "event": "long_document_started", "file": document.file, "pages": item.pages})
                else:
                    emit({"kind": "progress", "event": "still_reading", "file": document.file, "seconds": item.seconds})
    except RunCancelled:
        return await _not_read(document)
    except (psycopg.OperationalError, PoolTimeout) as exc:
        # not this document's fault: the database is gone, and every other document would wait
        # for it in turn. The run stops at once; what was finished stays stored.
        raise DatabaseDown(
            "Kea's database stopped answering while documents were read, so the run stopped. "
            "Documents finished before are kept: once it answers again, the run continues with the documents not read yet."
        ) from exc
    except StoreFault as fault:
        # the object store failed loading or storing a document: every document would fail the same way
        raise StoreUnavailable(
            f"The object store failed while documents were read ({store_fault_reason(fault.cause)}), so the run stopped. "
            "Documents finished before are kept: once it is back, the run continues with the documents not read yet."
        ) from fault.cause
    except StoreUnavailable:
        raise  # the object store is gone: the same for every document
    except Exception as exc:  # noqa: BLE001 — any failure of one document is reported, never fatal
        error = shorten(_why(exc, document.file, task), ERROR_CHARS)
        emit({"kind": "progress", "event": "document_failed", "file": document.file, "error": error})
        try:
            await document.store_failure(error)
        except Exception:  # noqa: BLE001 — store_csv lists a document without a stored outcome as failed
            log.warning("Could not store why %s failed", document.file, exc_info=True)
        return {"tally": {**_cost(document.usage), "read_ms": document.ms}}
    records = document.records
    unsure = sum(r.match == "unsure" for r in records)
    subject = document.subject if records else None
    emit(
        {
            "kind": "progress",
            "event": "document_done",
            "file": document.file,
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
            # rows that say what they are in the reading's subject: the table shows it first
            "subject_rows": sum(1 for r in records if subject and r.values.get(subject)),
            **_cost(document.usage),
            "read_ms": document.ms,
        }
    }


async def _not_read(document: DocumentRead) -> dict[str, Any]:
    """A document the cancelled run did not read: said so in its outcome, counted nowhere."""
    try:
        await document.store_failure(NOT_READ, settle=False)
    except Exception:  # noqa: BLE001 — without it store_csv lists the document as not stored
        log.warning("Could not note document %s as not read", document.document_id, exc_info=True)
    return {"tally": {}}


def _why(exc: Exception, file: str, task: DocumentTask) -> str:
    """The sentence a user reads of a failed document. An engine's or the knowledge base's own
    refusal says itself; anything else is a fault of Kea's, logged with its traceback."""
    if isinstance(exc, DocumentNotFound):
        return "it was removed from the knowledge base (or may no longer be read by you) after the run started"
    if isinstance(exc, (ExtractionError, KnowledgeError)):
        return str(exc) or type(exc).__name__
    log.exception("Reading %s (document %s, extraction %s) failed unexpectedly", file, task["document_id"], task["extraction_id"])
    return f"Kea failed on it unexpectedly ({type(exc).__name__}); the details are in Kea's log"


def _cost(usage: Usage) -> dict[str, int]:
    return {"model_calls": usage.calls, "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
