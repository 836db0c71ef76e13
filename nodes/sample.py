"""sample: the five documents read first when a selection holds more than 100.

``plan`` sends a selection of more than 100 documents here. The five are chosen as likely to
hold wanted rows (``_sample_ids``); asked, only they are read and the answer offers the whole
selection (``offer_sample``); confirmed on its own (``confirm="auto"``), every document is
read, the sample first. Either way the answer names the sample.

Also here: whose waiting selection a run sees (``pending_key``), shared by the nodes that
offer, take and replace it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from graph.profile import Profile, profile_of
from graph.state import ExtractionState, documents_to_read
from tools.engines.reading import Reading
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.selection import DocumentSelection, Scope, SelectionEntry
from tools.services import Services, aservices
from tools.storage.pending import PendingKey, PendingSelections

SAMPLE_SIZE = 5
SEARCH_LIMIT = 500  # pages a term's search looks at, at most, to find the sample


async def sample(state: ExtractionState, runtime: Runtime[Profile]) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    svc = await aservices()
    reading = Reading.model_validate(state["reading"])
    ids = list(state.get("document_ids") or [])
    chosen = await asyncio.to_thread(_sample_ids, svc.kb, profile.scope, reading, ids)
    files = await asyncio.to_thread(_files, svc.kb, profile.scope, chosen, state.get("qualify_files", False))
    update: dict[str, Any] = {"sample_ids": chosen, "sample_files": files, "sample_extraction_id": state["extraction_id"]}
    emit = runtime.stream_writer
    emit({"kind": "progress", "event": "sample_chosen", "documents": len(ids), "files": files})
    emit({"kind": "progress", "event": "scope_resolved", "documents": len(documents_to_read({**state, **update}))})  # type: ignore[typeddict-item]
    return update


def _sample_ids(kb: KnowledgeBase, scope: Scope, reading: Reading, ids: list[int], size: int = SAMPLE_SIZE) -> list[int]:
    """The sample: up to ``size`` of ``ids`` likely to hold wanted rows, best first.

    The one place the sample is chosen. For now a deterministic rule: the documents whose text
    contains most of the reading's terms (its document conditions, row terms and the literal
    values of its row conditions), in scope order among equals, filled up with the first
    documents of the scope. Ranking by meaning takes this function's place.
    """
    position = {document_id: n for n, document_id in enumerate(ids)}
    matched: dict[int, int] = {}
    for term in sample_terms(reading):
        found = kb.search(scope, term, limit=SEARCH_LIMIT)
        for document_id in {hit.document_id for hit in found.hits if hit.document_id in position}:
            matched[document_id] = matched.get(document_id, 0) + 1
    chosen = sorted(matched, key=lambda d: (-matched[d], position[d]))[:size]
    taken = set(chosen)
    chosen += [d for d in ids if d not in taken][: size - len(chosen)]
    return chosen


def sample_terms(reading: Reading) -> list[str]:
    """The words that identify wanted documents and rows, each once, as the reading has them."""
    terms = [*reading.document_conditions, *reading.row_terms]
    terms += [c.value for c in reading.conditions if c.op in ("contains", "equals") and c.value]
    seen: set[str] = set()
    unique = []
    for term in (t.strip() for t in terms):
        if len(term) >= 2 and term.lower() not in seen:
            seen.add(term.lower())
            unique.append(term)
    return unique


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


def pending_store(svc: Services) -> PendingSelections:
    return PendingSelections(svc.kb.pool)
