"""plan: decide how the resolved documents are read.

- up to ``SAMPLE_ABOVE`` (100, fixed: it is about the user's patience, not the profile):
  every document;
- more: a sample of five first (``nodes/sample.py``); the rest only after a "yes", or at once
  for callers that confirm on their own (``confirm="auto"``);
- more than the profile's ``max_documents_total``: nothing; the answer offers narrowing, with
  the documents broken down by folder, year and collection;
- the confirmed rest of a sampled selection: the sample's stored rows are reused, never read again.

``dispatch`` is the fan-out, in waves: one ``Send`` to ``extract_document`` for each of the next
``wave`` (the profile's, 256 by default; the first is twice the concurrency) documents to read; when a wave has finished, ``next_wave`` moves on and
``dispatch`` sends the next one, until none is left and the table is assembled. The number of
pending tasks — LangGraph keeps them in one checkpoint value and its runner waits on every one
of them each time a task finishes — stays bounded however large the scope. A wave ends only
with its slowest document (its tail), but the lanes do not wait for it: a lane no task wants
reads the next wave's first documents ahead, and their tasks take those calls
(``tools/fanout/``).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Send

from core.profile import Profile, profile_of
from core.reading import Reading
from core.selection import DocumentSelection, SelectionEntry
from core.state import DocumentTask, ExtractionState, documents_to_read
from tools.fanout import first_waves
from tools.knowledge.breakdown import breakdown
from tools.services import Services, ServicesSource
from tools.storage.objects import StoreUnavailable, is_store_fault, store_fault_reason

SAMPLE_ABOVE = 100
DEFAULT_WAVE = Profile.wave


async def plan(state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    ids = state.get("document_ids", [])
    svc = await services()
    if len(ids) > profile.max_documents_total:
        return {"answer": await _narrowing(svc, profile, ids)}
    # every task reads the confirmed reading from storage: the tasks themselves stay tiny
    reading = Reading.model_validate(state["reading"])
    await _write_reading(svc, state["extraction_id"], reading)
    phase = state.get("phase", "all")
    if phase == "confirmed":
        await asyncio.to_thread(_reuse_sample, svc, state)
    elif len(ids) > SAMPLE_ABOVE:
        return {"phase": "auto_sample" if state.get("auto_confirm") else "sample", **_first_wave(profile)}
    else:
        phase = "all"
    to_read = documents_to_read({**state, "phase": phase})  # type: ignore[typeddict-item]
    runtime.stream_writer({"kind": "progress", "event": "scope_resolved", "documents": len(to_read)})
    prefetch_first_waves(svc, state["extraction_id"], profile, to_read)
    return {"phase": phase, **_first_wave(profile)}


async def _write_reading(svc: Services, extraction_id: str, reading: Reading) -> None:
    """Store the confirmed reading for the tasks; the object store failing stops the run with what to do."""
    try:
        await asyncio.to_thread(svc.rows.write_reading, extraction_id, reading)
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        raise StoreUnavailable(
            f"The object store failed before any document was read ({store_fault_reason(exc)}), so nothing was read. "
            "Once it is back, the run can continue."
        ) from exc


def prefetch_first_waves(svc: Services, extraction_id: str, profile: Profile, to_read: list[int]) -> None:
    """The first wave's documents, loaded at once (while LangGraph sends the wave), and the
    second's, loaded while the first is read (``next_wave`` does the same for each wave after)."""
    first = first_wave_size(profile)
    first_waves(svc, extraction_id, profile.scope, to_read[:first], to_read[first : first + max(1, profile.wave)])


def first_wave_size(profile: Profile) -> int:
    """The first wave is short: twice the concurrency (at most the profile's ``wave``). LangGraph
    prepares a wave's tasks before any of them runs; for the first, nothing is read meanwhile,
    so a short one starts the lanes sooner. The waves after it are the profile's, prepared
    while the lanes read ahead."""
    return max(1, min(profile.wave, 2 * max(1, profile.concurrency)))


def _first_wave(profile: Profile) -> dict[str, int]:
    return {"wave_start": 0, "wave_size": first_wave_size(profile)}


def _reuse_sample(svc: Services, state: ExtractionState) -> None:
    """The sample's stored outcomes, under this extraction: its documents are not read twice."""
    source = state.get("sample_extraction_id")
    if not source or source == state["extraction_id"]:
        return
    for document_id in state.get("sample_ids") or []:
        svc.rows.copy_outcome(source, state["extraction_id"], document_id)


async def _narrowing(svc: Services, profile: Profile, ids: list[int]) -> dict[str, Any]:
    selection = DocumentSelection(entries=[SelectionEntry(ids=ids)])
    where = await asyncio.to_thread(breakdown, svc.kb, profile.scope, selection)
    message = (
        f"{len(ids)} documents match, more than this profile reads in one request "
        f"({profile.max_documents_total}). Nothing was read. Narrow the request to a folder, a year "
        f"or a collection and ask again; the matching documents are {where.sentence()}."
    )
    return {"status": "needs_narrowing", "message": message, "breakdown": where.model_dump(mode="json")}


def dispatch(state: ExtractionState) -> list[Send] | Literal["sample", "assemble", "__end__"]:
    """Where the run goes after ``plan``, ``sample`` or a finished wave: one task for each
    document of the next wave, in order; the table once none is left."""
    if state.get("answer"):
        return END
    if state.get("phase") in ("sample", "auto_sample") and not state.get("sample_ids"):
        return "sample"
    start, size = state.get("wave_start", 0), state.get("wave_size") or DEFAULT_WAVE
    tasks = [
        Send(
            "extract_document",
            DocumentTask(extraction_id=state["extraction_id"], document_id=i, qualify=state.get("qualify_files", False)),
        )
        for i in documents_to_read(state)[start : start + size]
    ]
    return tasks or "assemble"  # nothing left to read (or a confirmed rest that is empty): the table
