"""The Universal Agent: a general assistant whose extract_records tool runs the extraction graph.

    START ─► start_turn ─► condense ─► model ──► Send(tool) × calls ─► condense ─► model …
                 │ no model                │ no tool call
                 ▼                         ▼
                END                      finish ─► END

- ``start_turn``: a new message begins an answer; earlier tables become one-line references.
- ``condense``: the history is condensed when the serialized state passes the profile's byte
  budget or the prompt nears the model's input budget.
- ``model``: the profile's chat model, offered the document tools when the profile has them.
- ``tool``: one task per tool call. ``extract_records`` asks its form (an interrupt that
  reaches the caller) and runs the compiled extraction graph inside the task: it shares this
  graph's checkpointer, thread and profile, and its progress reaches this graph's stream
  (``subgraphs=True``). Its table is pinned to the answer, never retyped by the model.
- ``finish``: the answer is the model's text; ``core.result.build_agent_result`` adds the
  tables as blocks, exactly as the extraction stored them.

Builders wire; nodes (``nodes/``) decide; tools (``tools/``) do the I/O.
"""

from __future__ import annotations

import functools
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from core.agent_state import AgentInput, AgentOutput, AgentState
from core.profile import Profile
from graph.extraction import build_extraction_graph
from nodes.agent_answer import finish
from nodes.agent_model import ModelFor, call_model, model_source, route
from nodes.agent_start import start_turn
from nodes.agent_tool import run_tool
from nodes.condense import condense
from tools.services import Services, given


def build_universal_agent(
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    *,
    services: "Services | None" = None,
    model: BaseChatModel | ModelFor | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled Universal Agent; pass a checkpointer to pause at the extraction form and resume.

    ``model`` is a chat model, or a function of the profile giving one; by default the
    profile's own (``Profile.model`` at ``Profile.base_url``). ``services`` as for
    ``build_extraction_graph``: the extraction graph inside runs on the same ones.
    """
    source = given(services)
    model_for = model_source(model)
    # compiled without a checkpointer: inside a task it inherits this graph's (and its thread)
    extraction = build_extraction_graph(None, services=services)
    nodes = {
        "start_turn": functools.partial(start_turn, services=source, model_given=model is not None),
        "condense": condense,
        "model": functools.partial(call_model, model_for=model_for),
        "tool": functools.partial(run_tool, services=source, extraction=extraction),
        "finish": finish,
    }
    builder = StateGraph(AgentState, context_schema=Profile, input_schema=AgentInput, output_schema=AgentOutput)
    for name, node in nodes.items():
        builder.add_node(name, node, destinations=("condense", END) if name == "start_turn" else None)
    builder.add_edge(START, "start_turn")
    builder.add_edge("condense", "model")
    builder.add_conditional_edges("model", route, ["tool", "finish"])
    builder.add_edge("tool", "condense")
    builder.add_edge("finish", END)
    return builder.compile(checkpointer=checkpointer, name="kea-universal")


def studio_graph(config: RunnableConfig) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The Universal Agent as LangGraph Studio / `langgraph dev` runs it (``langgraph.json``),
    built when it asks for it; the server attaches its own persistence."""
    return build_universal_agent()
