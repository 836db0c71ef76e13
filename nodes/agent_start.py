"""start_turn: a new message of the Universal Agent's conversation begins an answer.

Nothing of the last answer carries over but the conversation: its tables are replaced by a
one-line reference before they ride back into the prompt. Without a language model the agent
cannot think, and says so in one sentence.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command

from core.agent_state import RESET, AgentState
from core.profile import Profile, profile_of
from core.protocol import too_long
from core.reading import folder_list
from tools.services import ServicesSource

log = logging.getLogger(__name__)
NO_MODEL = (
    "I cannot answer without a language model, and none is configured for this assistant (set KEA_MODEL or the "
    "profile's model); for a table across your documents choose the document-tables model kea-document-tables, "
    "which runs on the offline engine without one."
)


async def start_turn(
    state: AgentState, runtime: Runtime[Profile], *, services: ServicesSource, model_given: bool = False
) -> Command[Literal["condense", "__end__"]]:
    profile = profile_of(runtime.context)
    message = HumanMessage(content=state["message"].strip())
    fresh: dict[str, Any] = {
        "confirm": "ask",  # "auto" holds for this message only
        "auto_confirm": state.get("confirm") == "auto" or profile.confirm == "auto",
        "tables": RESET,
        "flags": RESET,
        "rounds": 0,
        "answer": None,
        "messages": [*earlier_tables_as_references(state.get("messages") or []), message],
    }
    if (refusal := too_long(message.text)) is not None:  # never sent to the model, never kept
        fresh["messages"] = fresh["messages"][:-1]
        return Command(goto=END, update={**fresh, "answer": {"status": "failed", "message": refusal}})
    if not model_given and not profile.model:
        fresh["messages"].append(AIMessage(content=NO_MODEL))
        return Command(goto=END, update={**fresh, "answer": {"status": "answered", "message": NO_MODEL}})
    if profile.document_tools:
        fresh["scope"] = await _scope_line(profile, services)
    return Command(goto="condense", update=fresh)


def earlier_tables_as_references(messages: list[AnyMessage]) -> list[ToolMessage]:
    """The extract_records results of earlier answers as one-line references (same ids: replaced)."""
    replaced = []
    for m in messages:
        mark = (m.artifact or {}).get("kea_table") if isinstance(m, ToolMessage) and isinstance(m.artifact, dict) else None
        if mark and not mark.get("referenced"):
            replaced.append(
                ToolMessage(
                    id=m.id, tool_call_id=m.tool_call_id, name=m.name, content=mark["reference"],
                    artifact={"kea_table": {**mark, "referenced": True}},
                )
            )
    return replaced


async def _scope_line(profile: Profile, services: ServicesSource) -> str:
    """What the model may know of the scope up front: its size and largest folders."""
    try:
        hint = await asyncio.to_thread((await services()).kb.scope_hint, profile.scope)
    except Exception:  # noqa: BLE001 — the model can still list the documents itself
        log.exception("The scope of profile %s could not be summarised", profile.name)
        return ""
    folders = folder_list(hint.folders, 8) or "none"
    years = ", ".join(hint.years) or "none"
    return f"The user's scope holds {hint.documents} documents; largest folders: {folders}; years in paths: {years}."
