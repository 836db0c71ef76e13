"""Running a graph to its answer: questions answered by a callback, progress streamed.

``run_to_stop`` is the one driver of a run: every client runs the graph from a payload to its
next stop through it (the HTTP server's ``Runner`` turn by turn; ``run_extraction`` and the
other functions here, for the CLI, the tests and other programs, in a loop that answers the
questions). The Universal Agent's extractions are subgraphs of its run, driven with it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

from langgraph.types import Command

from checkpoints.cluster import DatabaseDown, ServiceError
from checkpoints.runs import Origin, RunRecords
from checkpoints.saver import postgres_checkpointer
from core.profile import Profile
from core.protocol import clean_input
from core.result import Action, RunResult, failed_result
from core.state import Confirm
from graph.extraction import build_extraction_graph
from nodes.cancelled import cancelled_answer
from tools.lifecycle import durable_run
from tools.services import Services, aservices
from tools.storage.objects import ObjectNotFound, StoreUnavailable
from tools.storage.rows import summary_key

Answerer = Callable[[dict[str, Any]], Any | Awaitable[Any]]  # questions payload → resume value
ProgressSink = Callable[[dict[str, Any]], None]
CONTINUE = object()  # the payload of ``continue_extraction``: whatever the thread waits for


@dataclass(frozen=True)
class Durable:
    """Run under a lease in ``runs`` (``tools/lifecycle.py``): cancellable from any process, and
    continued with ``continue_extraction`` if this process dies. ``profile``: how to find the
    profile again (a name, or a path for the CLI); ``narrowing``: options that narrowed it."""

    records: RunRecords
    user: str
    profile: str
    origin: Origin = "cli"
    narrowing: dict[str, Any] = field(default_factory=dict)


async def run_extraction(
    message: str,
    profile: Profile,
    *,
    confirm: Confirm = "ask",
    answer: Answerer | None = None,
    on_progress: ProgressSink | None = None,
    thread_id: str | None = None,
    model: Any = None,
    durable: Durable | None = None,
    services: Services | None = None,
) -> dict[str, Any]:
    """Run one request on a Postgres-checkpointed thread; return the final state's values.
    ``model``: the chat model of discovery mode's search instead of the profile's; ``services``:
    what the graph's nodes run on instead of the process's own.

    With ``confirm="ask"`` each questions interrupt is passed to ``answer`` and the run resumes
    with its reply; without ``answer`` the run stops at the interrupt and the returned values
    hold ``"__interrupt__"`` (resume later with ``resume_extraction``).
    """
    payload = {"message": message, "confirm": confirm}
    return await _drive(
        thread_id or uuid.uuid4().hex, payload, profile, answer, on_progress, _extraction(model, services), durable, services,
    )


async def continue_extraction(
    thread_id: str, profile: Profile, *, answer: Answerer | None = None, on_progress: ProgressSink | None = None,
    model: Any = None, durable: Durable | None = None, agent: str = "document-tables", services: Services | None = None,
) -> dict[str, Any]:
    """Continue whatever ``thread_id`` waits for, in this or any other process: its questions
    (passed to ``answer``; without it the values hold ``"__interrupt__"``), or a run that did not
    end — its process died, or a node stopped with an error — from its last checkpoint, where
    LangGraph re-runs only the tasks without saved results. ``NothingToResume`` when it waits for nothing.
    ``agent``: the graph the thread ran, "document-tables" or "universal"; ``services`` as for
    ``run_extraction``."""
    build = _universal(model, services) if agent == "universal" else _extraction(model, services)
    return await _drive(thread_id, CONTINUE, profile, answer, on_progress, build, durable, services)


async def run_universal(
    message: str,
    profile: Profile,
    *,
    model: Any = None,
    confirm: Confirm = "ask",
    answer: Answerer | None = None,
    on_progress: ProgressSink | None = None,
    thread_id: str | None = None,
    durable: Durable | None = None,
    services: Services | None = None,
) -> dict[str, Any]:
    """One message to the Universal Agent on a Postgres-checkpointed thread, as ``run_extraction``
    runs one request: its extraction forms go to ``answer`` (without it the run stops there).
    ``model``: a chat model instead of the profile's (``build_universal_agent``); ``services`` as
    for ``run_extraction``."""
    payload = {"message": message, "confirm": confirm}
    return await _drive(
        thread_id or uuid.uuid4().hex, payload, profile, answer, on_progress, _universal(model, services), durable, services,
    )


async def resume_universal(
    thread_id: str, reply: Any, profile: Profile, *, model: Any = None, answer: Answerer | None = None,
    on_progress: ProgressSink | None = None, services: Services | None = None,
) -> dict[str, Any]:
    """Resume a Universal Agent thread paused at an extraction form (in this or any other process)."""
    return await _drive(thread_id, Command(resume=_resume_value(reply)), profile, answer, on_progress,
                        _universal(model, services), services=services)


def _universal(model: Any, services: Services | None = None) -> Callable[[Any], Any]:
    from graph.universal import build_universal_agent

    return lambda saver: build_universal_agent(saver, model=model, services=services)


class NothingToResume(ValueError):
    """The thread has no question waiting for an answer."""


async def resume_extraction(
    thread_id: str, reply: Any, profile: Profile, *, answer: Answerer | None = None, on_progress: ProgressSink | None = None,
    model: Any = None, services: Services | None = None,
) -> dict[str, Any]:
    """Resume a thread paused at its questions (in this or any other process); ``services`` as for
    ``run_extraction``."""
    return await _drive(thread_id, Command(resume=_resume_value(reply)), profile, answer, on_progress,
                        _extraction(model, services), services=services)


def _extraction(model: Any, services: Services | None = None) -> Callable[[Any], Any]:
    return lambda saver: build_extraction_graph(saver, model=model, services=services)


async def _drive(
    thread_id: str, payload: Any, profile: Profile, answer: Answerer | None, on_progress: ProgressSink | None,
    build: Callable[[Any], Any] = build_extraction_graph, durable: Durable | None = None,
    services: Services | None = None,
) -> dict[str, Any]:
    """Stream the graph from ``payload`` until it ends, answering questions while ``answer`` can."""
    config: dict[str, Any] = {"configurable": {"thread_id": thread_id}}
    async with postgres_checkpointer() as saver, AsyncExitStack() as stack:
        graph = build(saver)
        snapshot = await graph.aget_state(config) if payload is CONTINUE or isinstance(payload, Command) else None
        if isinstance(payload, Command) and not snapshot.interrupts:
            raise NothingToResume(
                f"Thread {thread_id} has no question waiting, so there is nothing to resume. Send a new request."
            )
        if payload is CONTINUE:
            if not snapshot.interrupts and not pending(snapshot):
                raise NothingToResume(
                    f"Thread {thread_id} is not waiting for anything: its last run ended. Send a new request."
                )
            payload = None  # LangGraph: continue from the last checkpoint
            if snapshot.interrupts:
                if answer is None:
                    return {**snapshot.values, "thread_id": thread_id, "__interrupt__": [i.value for i in snapshot.interrupts]}
                payload = Command(resume=_resume_value(await _asked(answer, snapshot.interrupts[0].value)))
        control = None
        if durable is not None:
            control = await stack.enter_async_context(durable_run(
                durable.records, thread_id, user=durable.user, profile=durable.profile, origin=durable.origin,
                narrowing=durable.narrowing,
            ))
        objects = services.objects if services is not None else None  # None: the process's own
        while True:
            values, interrupts = await run_to_stop(graph, payload, config, profile, on_progress, control, objects)
            if not interrupts:
                break
            if answer is None:
                return {**values, "thread_id": thread_id, "__interrupt__": [i.value for i in interrupts]}
            payload = Command(resume=_resume_value(await _asked(answer, interrupts[0].value)))
    return {**values, "thread_id": thread_id}


def pending(snapshot: Any) -> bool:
    """Whether a thread's run has steps left to run from its checkpoint (not waiting for a reply).

    Not ``snapshot.next``: LangGraph leaves a task out of ``next`` once its writes are saved, so
    a process that died after its last tasks' writes and before the checkpoint that follows them
    shows ``next == ()`` for a run that is not over — the tasks are still there, and continuing
    applies their writes and goes on.
    """
    return bool(snapshot.tasks) and not snapshot.interrupts


async def _asked(answer: Answerer, form: dict[str, Any]) -> Any:
    reply = answer(form)
    return await reply if isinstance(reply, Awaitable) else reply


def _resume_value(reply: Any) -> Any:
    """LangGraph cannot resume with None; no answer is an empty one (which declines)."""
    return "" if reply is None else reply


async def stream_events(graph: Any, payload: Any, config: dict[str, Any], profile: Profile) -> AsyncIterator[tuple[str, Any]]:
    """Run the graph from ``payload``: ("progress", event dict) as it goes, ("interrupt", Interrupt)
    for each question it stops at, and ("state", values) after each step — the last is this run's
    final state, even while another run on the same thread writes checkpoints of its own.

    Progress of graphs running inside the graph (the Universal Agent's extractions) is streamed
    too (``subgraphs=True``); states and questions are the graph's own.

    A new message and a resume value are cleaned of control characters and invalid Unicode
    first (``core.protocol.clean_input``): every client's input enters the graph here.
    """
    if isinstance(payload, Command) and payload.resume is not None:
        payload = dataclasses.replace(payload, resume=clean_input(payload.resume))
    elif isinstance(payload, dict):
        payload = clean_input(payload)
    async for namespace, mode, chunk in graph.astream(
        payload, config, context=profile, stream_mode=["updates", "custom", "values"], subgraphs=True
    ):
        if mode == "custom":
            yield "progress", chunk
        elif namespace:
            continue
        elif mode == "values":
            yield "state", {k: v for k, v in chunk.items() if k != "__interrupt__"}
        elif "__interrupt__" in chunk:
            for item in chunk["__interrupt__"]:
                yield "interrupt", item


async def run_to_stop(
    graph: Any, payload: Any, config: dict[str, Any], profile: Profile, on_progress: ProgressSink | None = None,
    control: Any = None, objects: Any = None,
) -> tuple[dict[str, Any], list[Any]]:
    """Run the graph from ``payload`` to its next stop: this run's final values and the questions
    it stopped at, progress handed to ``on_progress`` as it comes.

    Under a lease (``control`` of ``tools.lifecycle.durable_run``) a cancelled run stops at its
    next step and its answer is settled as cancelled (``settle_cancelled``, in ``objects`` or the
    services' store); it stops at no question.
    """
    values: dict[str, Any] = {}
    interrupts: list[Any] = []
    async for kind, item in stream_events(graph, payload, config, profile):
        if kind == "interrupt":
            interrupts.append(item)
        elif kind == "state":
            values = dict(item)  # this run's own state, whatever else runs on the thread
        elif on_progress:
            on_progress(item)
    if control is not None and control.cancelled:
        if objects is None:  # the graph runs on the process's own services
            objects = (await aservices()).objects
        return await settle_cancelled(graph, config, values, objects), []
    return values, interrupts


async def settle_cancelled(graph: Any, config: dict[str, Any], values: dict[str, Any], objects: Any) -> dict[str, Any]:
    """After a cancelled run: its answer (and stored summary) marked cancelled and partial, in its checkpoint too.

    Only an answer with a stored table changes; the Universal Agent's own text answer and an
    answer given before any document was read stay as they are.
    """
    answer = values.get("answer") or {}
    extraction_id = values.get("extraction_id")
    if not extraction_id or not answer.get("csv") or answer.get("status") == "cancelled":
        return values

    def rewrite() -> Any:
        full = None
        try:
            with objects.open(summary_key(extraction_id)) as handle:
                full = json.loads(handle.read())
        except ObjectNotFound:
            pass
        changed, full = cancelled_answer(answer, full)
        if full is not None:
            data = json.dumps(full, ensure_ascii=False, indent=1).encode("utf-8")
            objects.put_bytes(summary_key(extraction_id), data, "application/json")
        return changed

    changed = await asyncio.to_thread(rewrite)
    # written as the graph's last node, so the thread's state (GET /v1/runs/{thread}) says it too
    await graph.aupdate_state(config, {"answer": changed}, as_node="offer_sample")
    return {**values, "answer": changed}


def stopped_result(exc: BaseException, thread: str | None) -> RunResult:
    """The answer of a run stopped by ``exc``, for every client: what happened, and as actions
    what the user can do. A service that went away (the database, the object store) left the
    finished documents stored: the run continues once it is back."""
    if isinstance(exc, ServiceError):
        actions = [Action(kind="check_services")] if isinstance(exc, DatabaseDown) else []
        if thread and isinstance(exc, (DatabaseDown, StoreUnavailable)):
            actions.append(Action(kind="resume", thread=thread))
        return failed_result(str(exc), thread, actions)
    return failed_result(f"The run stopped with an error: {exc or type(exc).__name__}. Nothing more was read.", thread)
