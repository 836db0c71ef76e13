"""store_csv: the stored rows streamed into one CSV, stored by reference, and the answer.

The documents' outcomes are read back from storage one at a time (``tools/storage/assembly.py``;
most of them were added while the last waves ran), so the full lists of documents without rows
and of failures come from there, not from graph state; they are stored beside the table as
``summary.json``. The answer carries the first names of each list.

When the object store cannot be read or written, the run stops here with its checkpoint
(``StoreUnavailable``): the rows stay stored, and continuing the thread (its answer's ``resume`` action)
publishes the table once the store is back. The table's files are published together, so a
store that fails part-way never leaves a part of a table under its final name.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from core.profile import Profile, profile_of
from core.state import Answer, ExtractionState, documents_in_table
from tools.services import Services, ServicesSource
from tools.storage.assembly import assemble_table, by_reason
from tools.storage.objects import StoreUnavailable, is_store_fault, store_fault_reason
from tools.storage.table import header

log = logging.getLogger(__name__)
LISTED_NAMES = 20


def _more(shown: int, total: int) -> str:
    return f" and {total - shown} more (all in summary.json)" if total > shown else ""


def not_stored_message(exc: BaseException) -> str:
    """What a user reads when the object store failed at the end: what happened, what is kept,
    what to do."""
    reason = store_fault_reason(exc)
    return (
        f"The table could not be stored: {reason[:200].rstrip('.')}. The rows are kept: once the object store "
        "is back, the run stores the table."
    )


def compose_message(summary: dict[str, Any]) -> str:
    """The answer in sentences: what was read, what it gave, what was left (where the table is, each
    client says: it is in the answer's fields)."""
    lines = [
        f"Understood: {summary['understood']}.",
        f"Read {summary['extracted']} of {summary['documents_in_scope']} documents in scope "
        f"({summary['engine']} engine): {summary['rows']} rows"
        + (f", {summary['unsure_rows']} marked unsure (check the Match column)" if summary["unsure_rows"] else "")
        + ".",
    ]
    if summary.get("model_calls"):
        lines.append(
            f"Model use: {summary['model_calls']} calls, {summary['input_tokens']:,} input and "
            f"{summary['output_tokens']:,} output tokens."
        )
    failed = summary["failed"]
    if failed:
        shown = "; ".join(f"{f['file']}: {f['error']}" for f in failed)
        lines.append(
            f"Failed ({summary['failed_count']}): {shown}{_more(len(failed), summary['failed_count'])}. "
            "The other documents were read; ask again to retry the failed ones."
        )
    if summary["no_rows_from"]:
        lines.append(f"No rows from ({summary['no_rows_count']}):")
        lines += [f"- {group}" for group in by_reason(summary.get("no_rows") or [], summary["no_rows_count"])]
    if summary.get("sample") and summary.get("phase") != "sample":
        how = "confirmed automatically" if summary.get("phase") == "auto_sample" else "read once, for the sample you confirmed"
        lines.append(f"Sample ({how}): {', '.join(summary['sample'])}; its rows are in this table.")
    if summary["calculation_note"]:
        lines.append(summary["calculation_note"])
    lines += summary["notes"]
    return "\n".join(lines)


async def _record(svc: Services, extraction_id: str, thread: str | None, runtime: Runtime[Profile]) -> None:
    """The extraction under its thread, whichever entry point ran it (downloads, workspaces and
    forgetting a thread find it there). A run without a thread (no checkpointer) records nothing."""
    if not thread:
        return
    profile = profile_of(runtime.context)
    try:
        recorded = await asyncio.to_thread(svc.record_extraction, extraction_id, str(thread), profile.user, profile.name)
    except Exception:  # noqa: BLE001 — the table is stored; forgetting still finds it through the checkpoints
        log.exception("Extraction %s could not be recorded under thread %s", extraction_id, thread)
        return
    if not recorded:
        log.debug("Extraction %s was not recorded under thread %s (recorded already, or another user's thread)",
                  extraction_id, thread)


async def store_csv(state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    svc = await services()
    summary = dict(state["summary"] or {})
    extraction_id = state["extraction_id"]
    thread = get_config().get("configurable", {}).get("thread_id")
    await _record(svc, extraction_id, thread, runtime)
    try:
        done = await asyncio.to_thread(assemble_table, svc, extraction_id, documents_in_table(state), summary)
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        log.warning("The table of extraction %s could not be stored", extraction_id, exc_info=True)
        raise StoreUnavailable(not_stored_message(exc)) from exc
    summary |= {
        "rows": done.writer.rows,
        "no_rows_count": len(done.no_rows_from),
        "no_rows_from": done.no_rows_from[:LISTED_NAMES],
        "no_rows": done.no_rows[:LISTED_NAMES],
        "failed_count": len(done.failed),
        "failed": done.failed[:LISTED_NAMES],
        "details": done.urls["summary.json"],
        "notes": done.notes,
    }
    failed_all = summary["extracted"] == 0 and bool(done.failed)
    answer: Answer = {
        "status": "failed" if failed_all else "done",
        "message": compose_message(summary),
        "extraction_id": extraction_id,
        "csv": done.urls["table.csv"],
        "xlsx": done.urls["table.xlsx"],
        "review": done.urls["review.html"],
        "columns": list(summary["columns"]),
        "preview_header": header(list(summary["columns"]))[:-1],  # the preview leaves out Evidence
        "preview": done.writer.preview,
        "preview_note": "The preview is cut to stay small; the CSV holds every row." if done.writer.preview_cut else None,
        "summary": summary,
    }
    if summary.get("calculations") and done.writer.rows:  # the sum is SQL's job: offer the workspace
        answer["actions"] = [{"kind": "calculate", "thread": thread, "extraction_id": extraction_id}]
    return {"answer": answer}
