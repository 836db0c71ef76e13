"""A scripted tool-calling chat model: the fake at the language-model boundary of the Universal Agent.

Its answers are a function of the conversation it is sent (``script(messages, tools)``), so
the same script gives the same answers in any process; it records every prompt and the tools
it was offered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

Script = Callable[[list[BaseMessage], list[dict[str, Any]]], AIMessage]


class ScriptedToolModel(BaseChatModel):
    script: Any
    seen: list[tuple[list[BaseMessage], list[dict[str, Any]]]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-tools"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return self.bind(tools=list(tools), **kwargs)

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        tools = list(kwargs.get("tools") or [])
        self.seen.append((list(messages), tools))
        return ChatResult(generations=[ChatGeneration(message=self.script(list(messages), tools))])

    def offered(self, call: int = -1) -> list[str]:
        return [t["function"]["name"] for t in self.seen[call][1]]


def call(name: str, args: dict[str, Any], messages: list[BaseMessage]) -> AIMessage:
    """A model turn that calls one tool (its id unique within the conversation)."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call_{len(messages)}", "type": "tool_call"}])


def say(text: str) -> AIMessage:
    return AIMessage(content=text)


def last_tool(messages: list[BaseMessage]) -> ToolMessage | None:
    """The last tool result of the current answer (after the last user message), if any."""
    for m in reversed(messages):
        if isinstance(m, HumanMessage) and not str(m.id or "").startswith("kea-digest"):
            return None
        if isinstance(m, ToolMessage):
            return m
    return None


def last_user(messages: list[BaseMessage]) -> str:
    return next((str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)), "")


def arguments_of(reading: dict[str, Any]) -> dict[str, Any]:
    """extract_records' arguments that say what ``reading`` (a Reading dict) says."""
    places = reading.get("places") or []
    pick = lambda kind: [p["value"] for p in places if p["kind"] == kind]  # noqa: E731
    return {
        "request": reading["request"],
        "selection": {"folders": pick("folder"), "files": pick("file"), "years": pick("year"), "path_globs": pick("glob")},
        "columns": reading.get("columns") or [],
        "row_condition": reading.get("row_condition"),
        "conditions": reading.get("conditions") or [],
        "row_terms": reading.get("row_terms") or [],
        "document_conditions": reading.get("document_conditions") or [],
        "document_kinds": reading.get("document_kinds") or [],
        "calculations": reading.get("calculations") or [],
    }
