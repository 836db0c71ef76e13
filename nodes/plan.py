"""plan: decide how the resolved documents are read — all of them, or only narrowing offered.

``dispatch`` is the fan-out: one ``Send`` to ``extract_document`` per document.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Send

from graph.profile import Profile, profile_of
from graph.state import DocumentTask, ExtractionState
from tools.engines.reading import Reading, folder_list
from tools.knowledge.selection import DocumentSelection, SelectionEntry
from tools.services import aservices


async def plan(state: ExtractionState, runtime: Runtime[Profile]) -> dict[str, object]:
    profile = profile_of(runtime.context)
    ids = state.get("document_ids", [])
    svc = await aservices()
    if len(ids) <= profile.max_documents_total:
        # every task reads the confirmed reading from storage: the tasks themselves stay tiny
        reading = Reading.model_validate(state["reading"])
        await asyncio.to_thread(svc.rows.write_reading, state["extraction_id"], reading)
        return {}
    folders = await asyncio.to_thread(
        svc.kb.folder_summary, profile.scope, 10, DocumentSelection(entries=[SelectionEntry(ids=ids)])
    )
    breakdown = folder_list(folders) or "no folders"
    message = (
        f"{len(ids)} documents match, more than this profile reads in one request "
        f"({profile.max_documents_total}). Nothing was read. Narrow the request to a folder or a year; "
        f"the matching documents are in: {breakdown}."
    )
    return {"answer": {"status": "needs_narrowing", "message": message}}


def dispatch(state: ExtractionState) -> list[Send] | Literal["__end__"]:
    """One task per document, in scope order; each writes its rows to storage itself."""
    if state.get("answer"):
        return END
    return [
        Send(
            "extract_document",
            DocumentTask(
                extraction_id=state["extraction_id"],
                document_id=i,
                qualify=state.get("qualify_files", False),
            ),
        )
        for i in state.get("document_ids", [])
    ]
