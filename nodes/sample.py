"""sample: the five documents read first when a selection holds more than 100.

``plan`` sends a selection of more than 100 documents here. The five are chosen as likely to
hold wanted rows (``tools.knowledge.ranking.choose_sample``: by meaning, else by their terms);
asked, only they are read and the answer offers the whole selection (``offer_sample``); confirmed on its own (``confirm="auto"``), every document is
read, the sample first. Either way the answer names the sample.

Also here: whose waiting selection a run sees (``pending_key``), shared by the nodes that
offer, take and replace it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from core.profile import Profile, profile_of
from core.reading import Reading
from core.selection import DocumentSelection, Scope, SelectionEntry
from core.state import ExtractionState, documents_to_read
from nodes.plan import prefetch_first_waves
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.ranking import choose_sample
from tools.services import ServicesSource
from tools.storage.pending import PendingKey

SAMPLE_SIZE = 5


async def sample(state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    svc = await services()
    reading = Reading.model_validate(state["reading"])
    ids = list(state.get("document_ids") or [])
    chosen = await asyncio.to_thread(choose_sample, svc, reading, ids, SAMPLE_SIZE, scope=profile.scope)
    files = await asyncio.to_thread(_files, svc.kb, profile.scope, chosen, state.get("qualify_files", False))
    update: dict[str, Any] = {"sample_ids": chosen, "sample_files": files, "sample_extraction_id": state["extraction_id"]}
    emit = runtime.stream_writer
    emit({"kind": "progress", "event": "sample_chosen", "documents": len(ids), "files": files})
    to_read = documents_to_read({**state, **update})  # type: ignore[typeddict-item]
    emit({"kind": "progress", "event": "scope_resolved", "documents": len(to_read)})
    prefetch_first_waves(svc, state["extraction_id"], profile, to_read)
    return update


def _files(kb: KnowledgeBase, scope: Scope, ids: list[int], qualify: bool) -> list[str]:
    """The file names of ``ids`` as the table names them, in the order of ``ids``."""
    found = kb.resolve(scope, DocumentSelection(entries=[SelectionEntry(ids=ids)])).documents
    names = {d.id: (f"{d.collection}:{d.path}" if qualify else d.path) for d in found}
    return [names.get(i, f"document {i}") for i in ids]


def pending_key(profile: Profile) -> PendingKey | None:
    """Whose waiting selection this run sees: its thread, profile and user (None without a thread)."""
    try:
        thread = (get_config().get("configurable") or {}).get("thread_id")
    except RuntimeError:  # called outside a run
        return None
    return PendingKey(str(thread), profile.name, profile.user) if thread else None

