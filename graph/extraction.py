"""The extraction graph: one request → one table across every document in scope.

    read_request ─► questions (interrupt) ─► resolve_scope ─► plan ─► Send(extract_document) × N
                                                                        │
                                                               assemble ─► store_csv ─► END

Builders wire; nodes (``nodes/``) decide; tools (``tools/``) do the I/O.
"""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.profile import Profile
from graph.state import ExtractionInput, ExtractionOutput, ExtractionState
from nodes.assemble import assemble
from nodes.extract_document import extract_document
from nodes.plan import dispatch, plan
from nodes.questions import questions
from nodes.read_request import read_request
from nodes.resolve_scope import resolve_scope
from nodes.store_csv import store_csv


def build_extraction_graph(checkpointer: BaseCheckpointSaver[Any] | None = None) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled extraction graph; pass a checkpointer to pause at questions and resume."""
    builder = StateGraph(ExtractionState, context_schema=Profile, input_schema=ExtractionInput, output_schema=ExtractionOutput)
    builder.add_node("read_request", read_request)
    builder.add_node("questions", questions)
    builder.add_node("resolve_scope", resolve_scope)
    builder.add_node("plan", plan)
    builder.add_node("extract_document", extract_document)
    builder.add_node("assemble", assemble)
    builder.add_node("store_csv", store_csv)

    builder.add_edge(START, "read_request")
    builder.add_conditional_edges("plan", dispatch, ["extract_document", END])
    builder.add_edge("extract_document", "assemble")
    builder.add_edge("assemble", "store_csv")
    builder.add_edge("store_csv", END)
    return builder.compile(checkpointer=checkpointer, name="kea-extraction")


# For LangGraph Studio / `langgraph dev`, which attaches its own persistence.
graph = build_extraction_graph()
