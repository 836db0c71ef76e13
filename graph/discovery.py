"""Discovery mode's search loop, on the Universal Agent's plumbing (nodes/agent_*.py, condense).

    START ─► condense ─► model ──► Send(tool) × calls ─► condense ─► model …
                           │ no tool call, or the last round
                           ▼
                        fallback (only when nothing was selected) ─► END

The tools are the document tools under the profile's scope without extract_records, and
select_knowledge_documents; ``nodes/discovery.py`` hands the last successful selection over.

Builders wire; nodes (``nodes/``) decide; tools (``tools/``) do the I/O.
"""

from __future__ import annotations

import functools
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from core.agent_state import DiscoveryState
from core.profile import Profile
from nodes.agent_model import ModelFor, call_model, route
from nodes.agent_tool import run_tool
from nodes.condense import condense
from nodes.discovery import fallback, instructions
from tools.agent.schemas import DISCOVERY_TOOLS
from tools.services import ServicesSource, aservices


def build_discovery_loop(model_for: ModelFor, *, services: ServicesSource = aservices) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled search loop (no checkpointer: inside a node it inherits the caller's);
    its tools run on ``services``."""
    nodes = {
        "condense": condense,
        "model": functools.partial(
            call_model, model_for=model_for, tools=DISCOVERY_TOOLS, instructions_for=instructions,
            max_rounds=lambda profile: profile.max_discovery_rounds,
        ),
        "tool": functools.partial(run_tool, services=services, extraction=None, tools=DISCOVERY_TOOLS),
        "fallback": functools.partial(fallback, model_for=model_for),
    }
    builder = StateGraph(DiscoveryState, context_schema=Profile)
    for name, node in nodes.items():
        builder.add_node(name, node)
    builder.add_edge(START, "condense")
    builder.add_edge("condense", "model")
    builder.add_conditional_edges("model", route, {"tool": "tool", "finish": "fallback"})
    builder.add_edge("tool", "condense")
    builder.add_edge("fallback", END)
    return builder.compile(name="kea-discovery")

