"""resolve_scope: the documents to read — the profile's scope, narrowed only by the confirmed places.

A supplier, a party or a topic never narrows the scope (they are row or document conditions
checked in each document); the documents are returned ranked by meaning (keywords as the
fallback), every one of them. A place that holds no document is answered with the scope's
folders; it is never replaced by a similar document.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command

from core.profile import Profile, profile_of
from core.reading import Reading, ScopeHint, folder_list
from core.selection import DocumentSelection
from core.state import ExtractionState
from tools.knowledge.paths import BadPattern
from tools.knowledge.places import dated_in_places, discovered, places_to_read
from tools.knowledge.ranking import query_for, rank
from tools.services import ServicesSource


async def resolve_scope(
    state: ExtractionState, runtime: Runtime[Profile], *, services: ServicesSource
) -> Command[Literal["plan", "__end__"]]:
    profile = profile_of(runtime.context)
    confirmed = Reading.model_validate(state["reading"])
    svc = await services()
    kb = svc.kb
    found = state.get("discovery") or {}
    notes: list[str] = [found["note"]] if found.get("note") else []
    try:
        # a year beside folders whose paths carry none is their documents' date
        reading = await asyncio.to_thread(dated_in_places, confirmed, kb, profile.scope)
        # … and beside folders whose paths carry one, the date of the documents whose paths do not
        reading, selection, missing, beside = await asyncio.to_thread(places_to_read, reading, kb, profile.scope)
        notes += beside
        if found.get("selection"):  # discovery's selection; the confirmed Location replaces its paths
            chosen = DocumentSelection.model_validate(found["selection"])
            places = selection if reading.places else None
            resolution = await asyncio.to_thread(discovered, kb, profile.scope, chosen, places)
        else:
            resolution = await asyncio.to_thread(kb.resolve, profile.scope, selection)
    except BadPattern as exc:
        message = f"{exc} Nothing was read. Name a folder, a file, a year or a glob such as 'invoices/**'."
        return Command(goto=END, update={"answer": {"status": "no_documents", "message": message}})
    notes += [f"Nothing in scope is at {m}; the other places were read." for m in missing]
    update_reading = _with_fallback_conditions(reading, found.get("row_conditions") or [], notes)
    if update_reading is None and reading is not confirmed:
        update_reading = reading
    if not resolution.complete:
        notes.append(resolution.reason or "The scope could not be resolved completely.")
    if not resolution.documents:
        hint = ScopeHint.model_validate(state["scope_hint"])
        folders = folder_list(hint.folders) or "none"
        where = reading.describe_places() or "your scope"
        message = (
            f"No document in scope matches {where}. Nothing was read. "
            f"The scope holds {hint.documents} documents; its largest folders are: {folders}. "
            "Ask again with one of these places."
        )
        return Command(goto=END, update={"notes": notes, "answer": {"status": "no_documents", "message": message}})
    # read the likeliest documents first; ranking orders, it never leaves a document out
    ranking = await asyncio.to_thread(
        rank, svc, query_for(update_reading or reading), [d.id for d in resolution.documents], scope=profile.scope
    )
    update: dict[str, Any] = {
        "document_ids": ranking.document_ids,
        "qualify_files": len({d.collection for d in resolution.documents}) > 1,
        "notes": notes,
    }
    if update_reading is not None:
        update["reading"] = update_reading.model_dump(mode="json")
    return Command(goto="plan", update=update)


def _with_fallback_conditions(reading: Reading, conditions: list[str], notes: list[str]) -> Reading | None:
    """SelectionFallback's conditions beside the paths (a search stopped at its limit) are checked
    in each document as the row condition, unless the user confirmed a row condition of their own."""
    if not conditions:
        return None
    said = "; ".join(conditions)
    if reading.row_condition or reading.conditions or reading.row_terms:
        notes.append(f"The search stopped at its limit; its conditions ({said}) were not used, the confirmed row condition was.")
        return None
    notes.append(f"The search stopped at its limit, so every document of its folders was read and {said} checked in each row.")
    return reading.model_copy(update={"row_condition": said})
