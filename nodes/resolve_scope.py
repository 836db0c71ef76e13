"""resolve_scope: the documents to read — the profile's scope, narrowed only by the confirmed places.

A supplier, a party or a topic never narrows the scope (they are row or document conditions
checked in each document). A place that holds no document is answered with the scope's
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
from tools.engines.reading import Place, Reading, ScopeHint, folder_list
from tools.knowledge.base import KnowledgeBase
from tools.knowledge.paths import BadPattern, year_regex
from tools.knowledge.selection import DocumentSelection, Scope, SelectionEntry
from tools.services import aservices


def _glob(place: Place) -> str:
    return f"{place.value.strip('/')}/**" if place.kind == "folder" else place.value


def _alone(place: Place) -> SelectionEntry:
    """The documents a folder, glob or year place names on its own."""
    if place.kind == "year":
        return SelectionEntry(path_regex=year_regex(place.value))
    return SelectionEntry(path_globs=[_glob(place)])


def selection_for(reading: Reading, kb: KnowledgeBase, scope: Scope) -> tuple[DocumentSelection, list[str]]:
    """The confirmed places as a selection, and the places that hold no document in scope.

    Folders and globs are alternatives, years narrow them (invoices + 2025 = invoices of 2025);
    files named outright are read whatever the other places say. A place that holds nothing on
    its own is named, even when the others hold documents.
    """
    paths = [p for p in reading.places if p.kind in ("folder", "glob")]
    years = [p.value for p in reading.places if p.kind == "year"]
    entries: list[SelectionEntry] = []
    if paths or years:
        regex = "|".join(f"({year_regex(y)})" for y in years) or None
        entries.append(SelectionEntry(path_globs=[_glob(p) for p in paths], path_regex=regex))
    missing: list[str] = []
    for place in reading.places:
        if place.kind == "file":
            found = kb.find_by_path_suffix(scope, place.value)
            if found:
                entries.append(SelectionEntry(ids=[d.id for d in found]))
            else:
                missing.append(place.value)
        elif kb.count(scope, DocumentSelection(entries=[_alone(place)])) == 0:
            missing.append(place.value)
    if missing and not entries:
        entries.append(SelectionEntry(ids=[]))  # only files that do not exist were named
    return DocumentSelection(entries=entries), missing


async def resolve_scope(
    state: ExtractionState, runtime: Runtime[Profile]
) -> Command[Literal["plan", "__end__"]]:
    profile = profile_of(runtime.context)
    reading = Reading.model_validate(state["reading"])
    kb = (await aservices()).kb
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
    update = {
        "document_ids": [d.id for d in resolution.documents],
        "qualify_files": len({d.collection for d in resolution.documents}) > 1,
        "notes": notes,
    }
    return Command(goto="plan", update=update)
