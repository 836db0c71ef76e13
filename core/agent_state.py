"""State of the Universal Agent: the conversation, and this answer's tables by reference.

The messages are what the model reads: tool results cut to the profile's result budget, and
earlier tables replaced by a one-line reference. The tables this answer made travel beside
them as the extraction graph's own small output (an id, the answer with at most 100 preview
rows, never the table), so the answer shows them exactly as the extraction stored them.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from core.state import Confirm

RESET: dict[str, Any] = {"reset": True}


def add_tables(current: list[dict[str, Any]] | None, update: list[dict[str, Any]] | dict[str, Any] | None) -> list[dict[str, Any]]:
    """Append this answer's tables in call order; ``RESET`` starts a new answer with none."""
    if update is None or (isinstance(update, dict) and update.get("reset")):
        return []
    return [*(current or []), *(update if isinstance(update, list) else [update])]


def merge_flags(current: dict[str, Any] | None, update: dict[str, Any] | None) -> dict[str, Any]:
    """Flags of this answer, merged key by key; ``RESET`` clears them."""
    if update is None or update.get("reset"):
        return {}
    return {**(current or {}), **update}


class AgentInput(TypedDict):
    """What a caller passes: the user's message (``confirm="auto"``: nobody answers questions)."""

    message: str
    confirm: NotRequired[Confirm]


class AgentOutput(TypedDict):
    answer: dict[str, Any] | None
    tables: list[dict[str, Any]]


class AgentState(TypedDict):
    message: str
    confirm: NotRequired[Confirm]  # as passed with this message; consumed by start_turn
    auto_confirm: NotRequired[bool]  # this answer runs extract_records without asking
    messages: Annotated[list[AnyMessage], add_messages]
    tables: Annotated[list[dict[str, Any]], add_tables]  # this answer's extractions: ExtractionOutput dicts
    # unasked: the next extract_records call of this answer runs without the form (the user
    # corrected the last one, or its location named nothing); sampled: a sample waits for the user
    flags: Annotated[dict[str, Any], merge_flags]
    rounds: NotRequired[int]  # model calls in this answer
    scope: NotRequired[str]  # the scope in one line, for the instructions (with document tools)
    condensed: NotRequired[int]  # how often the history was condensed (over the whole thread)
    answer: NotRequired[dict[str, Any] | None]  # {"status", "message"}: the model's text, or why there is none


class ToolTask(TypedDict):
    """One tool call, sent to the ``tool`` node on its own (so each extraction has its own task)."""

    call: dict[str, Any]  # {"name", "args", "id"}
    flags: dict[str, Any]  # the answer's flags when the call was made
    auto_confirm: bool
    extractions_before: int  # extract_records calls before this one in the same model turn
    round: NotRequired[int]  # the model call that made it (1 for the first)
    position: NotRequired[int]  # its place among that call's tool calls


def add_selections(current: list[dict[str, Any]] | None, update: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Successful selections of the search, in (round, position) order: parallel calls finish in any order."""
    merged = [*(current or []), *(update or [])]
    return sorted(merged, key=lambda s: (s["round"], s["position"]))


class DiscoveryState(TypedDict):
    """Discovery mode's search loop: the agent's plumbing, and the selections it made."""

    messages: Annotated[list[AnyMessage], add_messages]
    flags: Annotated[dict[str, Any], merge_flags]  # search_limited: a search stopped at its result limit
    selections: Annotated[list[dict[str, Any]], add_selections]  # {"round", "position", "selection", "documents"}
    rounds: NotRequired[int]
    condensed: NotRequired[int]
    brief: NotRequired[str]  # the confirmed reading and keywords, for the instructions
    answer: NotRequired[dict[str, Any] | None]
    fallback: NotRequired[dict[str, Any] | None]  # SelectionFallback's answer: {"selection", "row_conditions"}
