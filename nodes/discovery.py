"""Discovery mode: the model searches the scope and selects the documents to read.

``discover`` (a node of the extraction graph, after the questions) runs the search loop
(``graph/discovery.py``: the Universal Agent's model, tool and condense nodes with the search
tools) on the confirmed reading and its keywords. The loop's last successful
``select_knowledge_documents`` call (by round, then position) is the hand-over; a loop that ends
without one asks the model once for the selection its searches point to (``fallback``,
SelectionFallback). After a search stopped at its result limit only the path conditions of that
answer are kept: the others are checked in each document as a row condition.

The search never changes the confirmed reading: resolve_scope reads the selection, with the
confirmed Location in place of any path the search set. Without a model there is no search:
the whole scope at the confirmed places is read, and the answer says so.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.types import Command

from core.agent_state import DiscoveryState
from core.profile import Profile, profile_of
from core.reading import Reading
from core.selection import DocumentSelection
from core.state import ExtractionState
from nodes.agent_model import ModelFor
from tools.agent.schemas import SelectDocuments, specs_of

log = logging.getLogger(__name__)
NO_MODEL_NOTE = "Discovery mode needs a language model and this profile has none, so every document in scope at the confirmed places was read."
NO_SELECTION_NOTE = "The search selected no document, so every document in scope at the confirmed places was read."
FALLBACK_ASK = (
    "Your search ended without a selection. Call select_knowledge_documents once now with the selection your searches "
    "point to: prefer folders and path globs over single documents."
)
GUIDE = """You find the documents a table is extracted from. You do not extract: select.
Search by keyword (search_documents) for names, numbers and folders; rank by meaning (rank_knowledge_documents)
for a described kind of document; list and read documents to check. Then call select_knowledge_documents with
the documents to read: prefer path globs of folders over lists of ids, and do not verify each row's condition —
every selected document is read whole and each row is checked there. Your last successful selection is read."""


def brief(reading: Reading) -> str:
    """What the search is told: the confirmed request and the keywords that guide it (they never filter)."""
    lines = [f"The request: {reading.request}", f"Understood and confirmed: {reading.describe()}"]
    if reading.exact_keywords:
        lines.append("Exact keywords to search for: " + ", ".join(reading.exact_keywords))
    if reading.semantic_keywords:
        lines.append("Kinds of document to rank by meaning: " + ", ".join(reading.semantic_keywords))
    return "\n".join(lines)


def instructions(profile: Profile, state: Any) -> str:
    return f"{GUIDE}\n\nYou may make {profile.max_discovery_rounds} model calls; then select."


def has_model(profile: Profile, model_given: bool) -> bool:
    return model_given or (profile.engine == "llm" and bool(profile.model))


async def discover(
    state: ExtractionState, runtime: Runtime[Profile], *, loop: Any, model_given: bool
) -> Command[Literal["resolve_scope"]]:
    profile = profile_of(runtime.context)
    reading = Reading.model_validate(state["reading"])
    if not has_model(profile, model_given):
        return Command(goto="resolve_scope", update={"discovery": {"note": NO_MODEL_NOTE}})
    result = await loop.ainvoke({"messages": [HumanMessage(content=brief(reading))], "rounds": 0, "brief": brief(reading)}, context=profile)
    return Command(goto="resolve_scope", update={"discovery": handed_over(result)})


def handed_over(result: dict[str, Any]) -> dict[str, Any]:
    """The loop's hand-over: its last successful selection, else the fallback's, else the whole scope."""
    selections = result.get("selections") or []
    if selections:
        last = selections[-1]
        return {"selection": last["selection"], "source": "search"}
    fallback = result.get("fallback") or {}
    if fallback.get("selection"):
        return {"selection": fallback["selection"], "source": "fallback", "row_conditions": fallback.get("row_conditions") or []}
    return {"note": NO_SELECTION_NOTE}


async def fallback(state: DiscoveryState, runtime: Runtime[Profile], *, model_for: ModelFor) -> dict[str, Any]:
    """SelectionFallback: one call for the selection the searches point to, when none was made."""
    if state.get("selections"):
        return {}
    profile = profile_of(runtime.context)
    messages = [m for m in state["messages"] if not (isinstance(m, AIMessage) and m.tool_calls and m is state["messages"][-1])]
    prompt = [SystemMessage(content=instructions(profile, state)), *messages, HumanMessage(content=FALLBACK_ASK)]
    try:
        reply = await model_for(profile).bind_tools(specs_of(("select_knowledge_documents",))).ainvoke(prompt)
    except Exception:  # noqa: BLE001 — no selection: the whole scope is read, and the answer says so
        log.exception("The selection fallback of profile %s failed", profile.name)
        return {"fallback": None}
    call = next((c for c in getattr(reply, "tool_calls", None) or [] if c["name"] == "select_knowledge_documents"), None)
    if call is None:
        return {"fallback": None}
    try:
        chosen = SelectDocuments.model_validate(call.get("args") or {}).selection()
    except Exception:  # noqa: BLE001 — an invalid answer is no selection
        return {"fallback": None}
    row_conditions: list[str] = []
    if (state.get("flags") or {}).get("search_limited"):
        chosen, row_conditions = paths_only(chosen)
    return {"fallback": {"selection": chosen.model_dump(mode="json"), "row_conditions": row_conditions}}


def paths_only(selection: DocumentSelection) -> tuple[DocumentSelection, list[str]]:
    """Only the path conditions of ``selection``; the content conditions as row conditions (ids dropped:
    a fallback cannot narrow to the documents its searches happened to show)."""
    entries, conditions = [], []
    for entry in selection.entries:
        if entry.content is not None and entry.content.text not in conditions:
            conditions.append(entry.content.text)
        if entry.path_globs or entry.path_regex:
            entries.append(entry.model_copy(update={"content": None, "ids": None}))
    return DocumentSelection(entries=entries), conditions
