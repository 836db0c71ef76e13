"""tool: one tool call of the Universal Agent's model, run in a task of its own.

The arguments are checked against the tool's schema; the document tools read under the
profile's scope and answer text cut to the result budget; ``extract_records`` runs the
extraction graph (``nodes/extract_records.py``) and pins its table to the answer. One
extraction per model turn: a second call in the same turn is told to wait for the first.
A tool that fails unexpectedly is logged; the model reads a sentence.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.config import get_config
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from pydantic import ValidationError

from core.agent_state import ToolTask
from core.profile import Profile, profile_of
from nodes.extract_records import Outcome, extract_records, table_reference
from tools.agent import documents, workspace_tools
from tools.agent.schemas import (
    TOOLS,
    WORKSPACE_TOOL_NAMES,
    ExtractRecords,
    SearchDocuments,
    SelectDocuments,
    agent_tools,
)
from tools.knowledge.errors import KnowledgeError
from tools.services import ServicesSource

log = logging.getLogger(__name__)
ONE_AT_A_TIME = "One table at a time: this call did not run. Call extract_records again once the first one's result is in."
DOCUMENT_TOOL_RUNNERS = {
    "list_documents": documents.list_documents,
    "read_document": documents.read_document,
    "search_documents": documents.search_documents,
    "rank_knowledge_documents": documents.rank_documents,
}


async def run_tool(
    task: ToolTask, runtime: Runtime[Profile], *, services: ServicesSource, extraction: Any, tools: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """One tool call; ``tools`` names the tools another loop offers (by default the agent's)."""
    profile = profile_of(runtime.context)
    call = task["call"]
    name = call["name"]
    try:
        outcome = await _outcome(task, profile, services, extraction, tools)
    except GraphBubbleUp:  # an interrupt (the form) travels on to the agent's caller
        raise
    except KnowledgeError as exc:
        outcome = Outcome(f"{exc}")
    except Exception as exc:  # noqa: BLE001 — the model reads a sentence; the cause goes to the log
        log.exception("Tool %s of profile %s failed", name, profile.name)
        outcome = Outcome(f"The tool {name} failed ({type(exc).__name__}, logged on the server); nothing more was done.")
    artifact = None
    if outcome.table is not None:
        extraction_id = outcome.table.get("extraction_id")
        artifact = {"kea_table": {"extraction_id": extraction_id, "reference": table_reference(outcome.table)}}
    message = ToolMessage(content=outcome.content, tool_call_id=call["id"], name=name, artifact=artifact)
    update: dict[str, Any] = {"messages": [message]}
    if outcome.table is not None:
        update["tables"] = [outcome.table]
    if outcome.flags:
        update["flags"] = outcome.flags
    if outcome.selection is not None:
        update["selections"] = [{"round": task.get("round", 0), "position": task.get("position", 0), **outcome.selection}]
    return update


async def _outcome(
    task: ToolTask, profile: Profile, services: ServicesSource, extraction: Any, tools: tuple[str, ...] | None = None
) -> Outcome:
    call = task["call"]
    name = call["name"]
    offered = set(tools) if tools is not None else set(agent_tools(profile.document_tools, profile.workspace_tools))
    if name not in offered:
        return Outcome(f"There is no tool named {name} here; the tools are: {', '.join(sorted(offered)) or 'none'}.")
    model, _ = TOOLS[name]
    try:
        args = model.model_validate(call.get("args") or {})
    except ValidationError as exc:
        return Outcome(f"The arguments of {name} are not valid: {exc.errors(include_url=False)}. Call it again with valid ones.")
    svc = await services()
    budget = profile.max_result_tokens * 4
    if isinstance(args, ExtractRecords):
        if task["extractions_before"]:
            return Outcome(ONE_AT_A_TIME)
        flags = task["flags"]
        asked = profile.extraction_confirmation != "none" and not flags.get("unasked") and not task["auto_confirm"]
        return await extract_records(
            args, profile, svc, extraction, asked=asked, auto=task["auto_confirm"], sampled=bool(flags.get("sampled"))
        )
    if name in WORKSPACE_TOOL_NAMES:  # the conversation's SQL workspace: this thread's, as this user
        thread = str(get_config()["configurable"]["thread_id"])
        text = await asyncio.to_thread(workspace_tools.run, svc, profile.scope, thread, name, args)
        return Outcome(documents.cut(text, budget))
    if isinstance(args, SelectDocuments):
        text, count = await asyncio.to_thread(documents.select_documents, svc, profile.scope, args)
        chosen = {"selection": args.selection().model_dump(mode="json"), "documents": count} if count else None
        return Outcome(documents.cut(text, budget), selection=chosen)
    if isinstance(args, SearchDocuments):
        text, limited = await asyncio.to_thread(documents.searched, svc, profile.scope, args)
        return Outcome(documents.cut(text, budget), flags={"search_limited": True} if limited else {})
    text = await asyncio.to_thread(DOCUMENT_TOOL_RUNNERS[name], svc, profile.scope, args)  # type: ignore[operator]
    return Outcome(documents.cut(text, budget))
