"""resolve_scope: the documents to read — the profile's scope, narrowed only by the confirmed places.

A supplier, a party or a topic never narrows the scope (they are row or document conditions
checked in each document); the documents are returned ranked by meaning (keywords as the
fallback), every one of them. A place that holds no document is answered with the scope's
folders; it is never replaced by a similar document.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command

from graph.profile import Profile, profile_of
from graph.state import ExtractionState
from tools.engines.reading import Reading, ScopeHint, folder_list
from tools.knowledge.paths import BadPattern
from tools.knowledge.places import selection_for
from tools.knowledge.ranking import query_for, rank
from tools.services import aservices


async def resolve_scope(
    state: ExtractionState, runtime: Runtime[Profile]
) -> Command[Literal["plan", "__end__"]]:
    profile = profile_of(runtime.context)
    reading = Reading.model_validate(state["reading"])
    svc = await aservices()
    kb = svc.kb
    try:
        selection, missing = await asyncio.to_thread(selection_for, reading, kb, profile.scope)
        resolution = await asyncio.to_thread(kb.resolve, profile.scope, selection)
    except BadPattern as exc:
        message = f"{exc} Nothing was read. Name a folder, a file, a year or a glob such as 'invoices/**'."
        return Command(goto=END, update={"answer": {"status": "no_documents", "message": message}})
    notes = [f"Nothing in scope is at {m}; the other places were read." for m in missing]
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
        rank, svc, query_for(reading), [d.id for d in resolution.documents], scope=profile.scope
    )
    update = {
        "document_ids": ranking.document_ids,
        "qualify_files": len({d.collection for d in resolution.documents}) > 1,
        "notes": notes,
    }
    return Command(goto="plan", update=update)
