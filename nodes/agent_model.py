"""model: the Universal Agent's model reads the conversation and answers or calls tools.

It is offered the document tools only when the profile switches them on, and none once the
answer has used ``max_tool_rounds`` model calls (it must answer then). ``route`` sends each
tool call to the ``tool`` node as a task of its own, or ends the answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.types import Send

from core.agent_state import AgentState, ToolTask
from core.profile import Profile, profile_of
from core.templates import system_prompt
from tools.agent.schemas import specs_of, tool_specs
from tools.engines.base import ExtractionError

log = logging.getLogger(__name__)
ModelFor = Callable[[Profile], BaseChatModel]


def profile_model(profile: Profile) -> BaseChatModel:
    """The profile's model: an OpenAI-compatible endpoint (raises ExtractionError when it has none)."""
    from tools.engines.llm.endpoint import ModelSettings, chat_model

    return chat_model(ModelSettings.of(profile))


def model_source(model: "BaseChatModel | ModelFor | None") -> ModelFor:
    """Where a graph's tool loop gets its model: the given one, a function of the profile, or by
    default the profile's own."""
    if model is None:
        return profile_model
    if isinstance(model, BaseChatModel):
        return lambda _profile: model
    return model
LAST_ROUND = "You have used every tool call of this answer: answer the user now with what you found."
LAST_ROUND_ENDED = "I stopped here: this answer used every tool call it may make. Ask me to go on."


Instructions = Callable[[Profile, Any], str]


async def call_model(
    state: AgentState, runtime: Runtime[Profile], *, model_for: ModelFor,
    tools: tuple[str, ...] | None = None, instructions_for: Instructions | None = None, max_rounds: Callable[[Profile], int] | None = None,
) -> dict[str, Any]:
    """One model call. ``tools``, ``instructions_for`` and ``max_rounds`` serve another loop on the
    same plumbing (discovery mode's search); by default the Universal Agent's."""
    profile = profile_of(runtime.context)
    rounds = int(state.get("rounds") or 0)
    specs = specs_of(tools) if tools is not None else tool_specs(profile.document_tools, profile.workspace_tools)
    if instructions_for is not None:
        instructions = instructions_for(profile, state)
    else:
        instructions = system_prompt(profile.template, profile.document_tools, state.get("scope") or "")
    limit = max_rounds(profile) if max_rounds else profile.max_tool_rounds
    if specs and rounds + 1 >= limit:  # the last model call of this answer
        specs, instructions = [], f"{instructions}\n\n{LAST_ROUND}"
    prompt = [SystemMessage(content=instructions), *state["messages"]]
    try:
        model = model_for(profile)
        bound = model.bind_tools(specs) if specs else model
        reply = await bound.ainvoke(prompt)
    except ExtractionError as exc:  # a profile that cannot reach its model: said as the profile says it
        return _failed(str(exc))
    except Exception as exc:  # noqa: BLE001 — the user gets a sentence; the cause goes to the log
        log.exception("The model of profile %s failed", profile.name)
        return _failed(f"The language model could not answer ({type(exc).__name__}); try again in a moment.")
    if not isinstance(reply, AIMessage):
        reply = AIMessage(content=str(getattr(reply, "content", reply)))
    if reply.tool_calls and rounds + 1 >= limit:  # the last round: an answer, no more calls
        reply = AIMessage(content=reply.content or LAST_ROUND_ENDED, id=reply.id)
    return {"messages": [reply], "rounds": rounds + 1}


def _failed(text: str) -> dict[str, Any]:
    return {"messages": [AIMessage(content=text)], "answer": {"status": "failed", "message": text}}


def route(state: AgentState) -> list[Send] | Literal["finish"]:
    """One ``tool`` task per tool call of the model's last message; none: the answer is written."""
    last = state["messages"][-1] if state.get("messages") else None
    if state.get("answer") or not isinstance(last, AIMessage) or not last.tool_calls:
        return "finish"
    tasks, extractions = [], 0
    for position, call in enumerate(last.tool_calls):
        task = ToolTask(
            round=int(state.get("rounds") or 0),
            position=position,
            call={"name": call["name"], "args": call.get("args") or {}, "id": call.get("id") or ""},
            flags=dict(state.get("flags") or {}),
            auto_confirm=bool(state.get("auto_confirm")),
            extractions_before=extractions,
        )
        extractions += call["name"] == "extract_records"
        tasks.append(Send("tool", task))
    return tasks
