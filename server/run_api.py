"""The run API for rich clients: typed Server-Sent Events instead of chat text.

- ``POST /v1/runs`` ``{"message", "thread"?, "model"?, "confirm"?}``: start a run; ``confirm: "auto"``
  (callers nobody answers) takes the reading as understood and reads a sampled selection whole;
  "yes" as the message of a thread whose answer was a sample reads that sample's selection;
- ``POST /v1/runs/{thread}/resume`` ``{"reply", "interrupt_id"?}``: answer its questions
  (typed text, or the dialog's answers by question id);
- ``GET /v1/runs/{thread}``: the thread's state: its waiting questions or its last result
  (``"status": "running"`` while a run is in flight — also while a replica that died is being
  replaced: any replica answers, and a client whose stream broke reads its answer here);
- ``DELETE /v1/runs/{thread}``: cancel its running extraction, wherever it runs: no model call
  starts once the run sees it, and its answer (status ``cancelled``) says what was read before
  the stop, with the partial table. 409 when nothing runs;
- ``GET /v1/runs/schema``: the JSON schema of the events (``run_events_schema``).

Each POST answers ``text/event-stream`` with the events ``progress``, then ``questions`` or
``result`` (or ``error``); the data of each is the JSON of its typed model. A run goes on to its
answer when its client goes away (read it with GET). A thread belongs to the user who started
it: for anyone else it does not exist (404).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from core.protocol import ErrorEvent, ProgressEvent, QuestionsEvent, QuestionsForm
from core.result import RunResult
from server.accounts import AccountError, NotOwned, check_thread
from server.auth import Caller, caller
from server.chat_text import answer_json, answer_schema
from server.context import THREAD_HEADER, Kea
from server.profiles import UnknownModel
from server.runner import NothingWaiting, NotRunning

router = APIRouter()


class StartRun(BaseModel):
    message: str
    thread: str | None = None
    model: str | None = None
    confirm: Literal["ask", "auto"] = "ask"


class ResumeRun(BaseModel):
    reply: Any = None
    interrupt_id: str | None = None


def _sse(name: str, model: BaseModel) -> str:
    data = json.dumps(answer_json(model), ensure_ascii=False) if isinstance(model, RunResult) else model.model_dump_json()
    return f"event: {name}\ndata: {data}\n\n"


def run_events_schema() -> dict[str, Any]:
    """The JSON schema of the run API's Server-Sent Events, by event name."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Kea run events",
        "description": "Each Server-Sent Event of POST /v1/runs and /v1/runs/{thread}/resume: "
        "the SSE event name selects the schema of its JSON data.",
        "events": {
            "progress": ProgressEvent.model_json_schema(mode="serialization"),
            "questions": QuestionsEvent.model_json_schema(mode="serialization"),
            "result": answer_schema(),
            "error": ErrorEvent.model_json_schema(mode="serialization"),
        },
    }


def _event_stream(events: AsyncIterator[Any]) -> AsyncIterator[str]:
    async def stream() -> AsyncIterator[str]:
        try:
            async for event in events:
                if isinstance(event, ProgressEvent):
                    yield _sse("progress", event)
                elif isinstance(event, QuestionsEvent):
                    yield _sse("questions", event)
                elif isinstance(event, RunResult):
                    yield _sse("result", event)
        except Exception as exc:  # noqa: BLE001 — the stream has begun: the error is an event
            yield _sse("error", ErrorEvent(message=f"The run stopped with an error: {exc}"))

    return stream()


async def _owned(kea: Kea, thread: str, user: str) -> str:
    """The profile of ``user``'s thread; 404 for a thread that is not theirs or does not exist."""
    try:
        return await kea.accounts.thread_profile(check_thread(thread), user)
    except (NotOwned, AccountError) as exc:
        raise HTTPException(404, f"There is no thread {thread}.") from exc


@router.get("/v1/runs/schema")
async def schema() -> dict[str, Any]:
    return run_events_schema()


@router.post("/v1/runs")
async def start(body: StartRun, request: Request, who: Caller = Depends(caller)) -> StreamingResponse:
    kea: Kea = request.app.state.kea
    if not body.message.strip():
        raise HTTPException(400, "The message is empty: say which table you need.")
    try:
        name = kea.profiles.name_of(body.model)
    except UnknownModel as exc:
        raise HTTPException(404, str(exc)) from exc
    thread = body.thread or f"run-{uuid.uuid4().hex}"
    try:
        recorded = await kea.runner.claim(check_thread(thread), who.user, name)
    except AccountError as exc:
        raise HTTPException(400, str(exc)) from exc
    except NotOwned as exc:
        raise HTTPException(404, f"There is no thread {thread}.") from exc
    if recorded != name:
        raise HTTPException(400, f"Thread {thread} was started with model kea-{recorded}; continue it there.")
    payload = await kea.runner.message_payload(thread, name, body.message, confirm=body.confirm)
    events = kea.runner.turn(thread, kea.profiles.profile(name, who.user), payload, kea.base_url(request))
    return StreamingResponse(_event_stream(events), media_type="text/event-stream", headers={THREAD_HEADER: thread})


@router.post("/v1/runs/{thread}/resume")
async def resume(thread: str, body: ResumeRun, request: Request, who: Caller = Depends(caller)) -> StreamingResponse:
    kea: Kea = request.app.state.kea
    name = await _owned(kea, thread, who.user)
    try:
        command = await kea.runner.resume_command(thread, name, body.reply, body.interrupt_id)
    except NothingWaiting as exc:
        raise HTTPException(409, str(exc)) from exc
    events = kea.runner.turn(thread, kea.profiles.profile(name, who.user), command, kea.base_url(request))
    return StreamingResponse(_event_stream(events), media_type="text/event-stream", headers={THREAD_HEADER: thread})


@router.delete("/v1/runs/{thread}")
async def cancel(thread: str, request: Request, wait: float = 15.0, who: Caller = Depends(caller)) -> dict[str, Any]:
    """``wait``: seconds to wait for the run to end (0: answer at once with status "cancelling")."""
    kea: Kea = request.app.state.kea
    await _owned(kea, thread, who.user)
    try:
        ended = await kea.runner.cancel(thread, who.user, wait=min(max(wait, 0.0), 60.0))
    except NotRunning as exc:
        raise HTTPException(409, str(exc)) from exc
    if ended == "cancelling":
        return {"thread": thread, "status": "cancelling",
                "message": f"Thread {thread} is stopping; its answer (GET /v1/runs/{thread}) says what was read before the stop."}
    return await state(thread, request, who)


@router.get("/v1/runs/{thread}")
async def state(thread: str, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    kea: Kea = request.app.state.kea
    name = await _owned(kea, thread, who.user)
    record = await kea.runner.records.get(thread) if kea.runner.records is not None else None
    # a run of a server that died is as good as running: a live replica continues it within seconds
    if record is not None and record.state == "running" and (
        record.origin == "server" or await kea.runner.records.is_alive(thread)
    ):
        return {"thread": thread, "status": "running"}
    snapshot = await kea.runner.graph(name).aget_state(kea.runner.config(thread))
    if snapshot.interrupts:
        first = snapshot.interrupts[0]
        asked = QuestionsEvent(thread=thread, interrupt_id=first.id, form=QuestionsForm.model_validate(first.value))
        return {"thread": thread, "status": "waiting", "questions": asked.model_dump(mode="json")}
    if not snapshot.values or not snapshot.values.get("answer"):
        return {"thread": thread, "status": "new"}
    result = await kea.runner.result(thread, name, dict(snapshot.values), kea.base_url(request))
    return {"thread": thread, "status": result.status, "result": answer_json(result)}
