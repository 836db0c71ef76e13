"""The extraction graph: one request → one table across every document in scope.

    read_request ─► questions (interrupt) ─► [discover] ─► resolve_scope ─► plan ─► Send(extract_document) × wave ◄─┐
        │ "yes"                                                  ▲  │ > 100 documents        │                     │
        └────────► take_selection (the thread's waiting one) ────┘  ▼                        ▼                     │
                                                   sample (5 likely documents) ─► Send   next_wave ─ more left ──┘
                                                                                             │ none left
                                                                                             ▼
                                       END ◄─ offer_sample (only the sample read) ◄─ store_csv ◄─ assemble
                                                                                    └─► END

The documents are sent in waves (the profile's ``wave``, 256 by default): LangGraph's pending
tasks, and what its runner waits on, stay bounded however many documents are in scope. The
engine's lanes stay busy across a wave's end: what a wave's tail leaves free reads the next
wave's documents ahead (``tools/fanout/``).

With the profile's discovery on, ``discover`` runs the search loop (``graph/discovery.py``)
between the questions and the scope; its selection narrows the scope (``nodes/discovery.py``).

A caller that asked the reading back itself (the Universal Agent's extract_records) passes it
as ``confirmed_reading``: read_request goes straight to resolve_scope with it.

Builders wire; nodes (``nodes/``) decide; tools (``tools/``) do the I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from core.profile import Profile
from core.state import ExtractionInput, ExtractionOutput, ExtractionState
from graph.discovery import build_discovery_loop
from nodes.agent_model import ModelFor, model_source
from nodes.assemble import assemble
from nodes.discovery import discover
from nodes.extract_document import extract_document
from nodes.next_wave import next_wave
from nodes.offer_sample import needs_offer, offer_sample
from nodes.plan import dispatch, plan
from nodes.questions import questions
from nodes.read_request import read_request
from nodes.resolve_scope import resolve_scope
from nodes.sample import sample
from nodes.store_csv import store_csv
from nodes.take_selection import take_selection
from tools.services import Services, given

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


def build_extraction_graph(
    checkpointer: BaseCheckpointSaver[Any] | None = None, *, services: Services | None = None,
    model: "BaseChatModel | ModelFor | None" = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled extraction graph; pass a checkpointer to pause at questions and resume.

    Its nodes are handed their services (knowledge base, object store, rows): ``services``
    when given, else the process's own, created from the environment when a node first needs
    them (``tools.services.aservices``). ``model`` is the
    chat model (or a function of the profile giving one) of discovery mode's search; by
    default the profile's, with the llm engine.
    """
    source = given(services)
    model_for = model_source(model)
    loop = build_discovery_loop(model_for, services=source)
    builder = StateGraph(ExtractionState, context_schema=Profile, input_schema=ExtractionInput, output_schema=ExtractionOutput)
    nodes: dict[str, Callable[..., Any]] = {
        "read_request": functools.partial(read_request, services=source),
        "take_selection": functools.partial(take_selection, services=source),
        "questions": functools.partial(questions, services=source),
        "discover": functools.partial(discover, loop=loop, model_given=model is not None),
        "resolve_scope": functools.partial(resolve_scope, services=source),
        "plan": functools.partial(plan, services=source),
        "sample": functools.partial(sample, services=source),
        "extract_document": functools.partial(extract_document, services=source),
        "next_wave": functools.partial(next_wave, services=source),
        "assemble": assemble,
        "store_csv": functools.partial(store_csv, services=source),
        "offer_sample": functools.partial(offer_sample, services=source),
    }
    for name, node in nodes.items():
        builder.add_node(name, node)

    builder.add_edge(START, "read_request")
    builder.add_conditional_edges("plan", dispatch, ["sample", "extract_document", "assemble", END])
    builder.add_conditional_edges("sample", dispatch, ["extract_document", "assemble"])
    builder.add_edge("extract_document", "next_wave")
    builder.add_conditional_edges("next_wave", dispatch, ["extract_document", "assemble"])
    builder.add_edge("assemble", "store_csv")
    builder.add_conditional_edges("store_csv", needs_offer, ["offer_sample", END])
    builder.add_edge("offer_sample", END)
    return builder.compile(checkpointer=checkpointer, name="kea-extraction")


def studio_graph(config: RunnableConfig) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The graph LangGraph Studio / `langgraph dev` runs (``langgraph.json``), built when it asks
    for it rather than when this module is imported; the server attaches its own persistence."""
    return build_extraction_graph()
