"""condense: the Universal Agent's history is condensed before it grows too large.

Before each model call: when the serialized state passes the profile's byte budget
(``condense_above_bytes``: every checkpoint carries the whole state), or the prompt nears the
model's input budget (``context_tokens``), the history is condensed without a model:

- the answers before this one become one digest message: what the user asked, what was
  answered, and the earlier tables as their one-line references;
- this answer's tool results before the last round are cut to their first lines;
- if that is still too large, the last round's results are cut to share what remains.

Tool calls and their results are kept or dropped together, so the conversation stays valid.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage, ToolMessage
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime

from core.agent_state import AgentState
from core.profile import Profile, profile_of

DIGEST_ID = "kea-digest"
DIGEST_HEAD = "Earlier in this conversation (condensed to keep it small):"
DIGEST_CHARS = 6000
LINE_CHARS = 300
KEPT_CHARS = 400  # of a tool result before the last round
CONDENSED = " … (condensed to keep the conversation small; call the tool again to see it whole)"
_serde = JsonPlusSerializer()


def state_bytes(state: dict[str, Any]) -> int:
    """The state's size as the checkpointer serializes it."""
    return sum(len(_serde.dumps_typed(value)[1]) for value in state.values())


def prompt_tokens(messages: list[AnyMessage]) -> int:
    """A rough count of the prompt's tokens (about 4 characters each)."""
    return sum(len(str(m.content)) + len(str(getattr(m, "tool_calls", "") or "")) for m in messages) // 4


def oversized(state: dict[str, Any], profile: Profile) -> bool:
    return state_bytes(state) > profile.condense_above_bytes or prompt_tokens(state.get("messages") or []) > profile.context_tokens * 3 // 4


async def condense(state: AgentState, runtime: Runtime[Profile]) -> dict[str, Any]:
    profile = profile_of(runtime.context)
    if not oversized(dict(state), profile):
        return {}
    budget = min(profile.condense_above_bytes, profile.context_tokens * 4 * 3 // 4) // 2
    messages = condensed(list(state["messages"]), budget)
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *messages], "condensed": int(state.get("condensed") or 0) + 1}


def condensed(messages: list[AnyMessage], budget_chars: int) -> list[AnyMessage]:
    """The messages condensed: a digest of earlier answers, this answer's results cut."""
    start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage) and m.id != DIGEST_ID), default=0)
    history, current = messages[:start], messages[start:]
    digest = _digest(history)
    last_round = max((i for i, m in enumerate(current) if isinstance(m, AIMessage) and m.tool_calls), default=len(current))
    kept: list[AnyMessage] = []
    for i, m in enumerate(current):
        if isinstance(m, ToolMessage) and i < last_round:
            m = _cut_tool(m, KEPT_CHARS)
        kept.append(m)
    size = sum(len(str(m.content)) for m in kept) + len(str(digest.content) if digest else "")
    results = [i for i in range(last_round, len(kept)) if isinstance(kept[i], ToolMessage)]
    if size > budget_chars and results:
        share = max(KEPT_CHARS, (budget_chars - (size - sum(len(str(kept[i].content)) for i in results))) // len(results))
        for i in results:
            kept[i] = _cut_tool(kept[i], share)  # type: ignore[arg-type]
    return ([digest] if digest else []) + kept


def _cut_tool(message: ToolMessage, chars: int) -> ToolMessage:
    text = str(message.content)
    if len(text) <= chars:
        return message
    return message.model_copy(update={"content": text[: max(0, chars - len(CONDENSED))].rstrip() + CONDENSED})


def _line(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _digest(history: list[AnyMessage]) -> HumanMessage | None:
    lines: list[str] = []
    for m in history:
        if m.id == DIGEST_ID:
            lines += [line for line in str(m.content).splitlines()[1:] if line]
        elif isinstance(m, HumanMessage):
            lines.append(f"- The user: {_line(m.content)}")
        elif isinstance(m, AIMessage) and str(m.content).strip():
            lines.append(f"- You: {_line(m.content)}")
        elif isinstance(m, ToolMessage) and isinstance(m.artifact, dict) and m.artifact.get("kea_table"):
            lines.append(f"- {m.artifact['kea_table']['reference']}")
    if not lines:
        return None
    while len("\n".join(lines)) > DIGEST_CHARS and len(lines) > 1:
        lines.pop(0)  # the oldest go first
    return HumanMessage(id=DIGEST_ID, content="\n".join([DIGEST_HEAD, *lines]))
