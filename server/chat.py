"""The OpenAI-compatible API: ``GET /v1/models`` and ``POST /v1/chat/completions``.

A chat client needs no code of its own: Kea's questions arrive as the text of the form, the
next user message answers them ("yes", "no", or a correction), and the answer ends with the
summary, a Markdown preview table and a download link.

The thread of a message is the one named by ``X-Kea-Thread`` or ``metadata.thread_id``;
otherwise the conversation names it: each answer Kea gives is recorded under a hash of the
user, the model and every message up to that answer, and the next message (which sends that
conversation back) takes that record — once, so two chats that open alike each continue their
own thread. A conversation Kea has not answered yet starts a new thread. The answer names its
thread in the ``X-Kea-Thread`` header and in ``metadata.thread_id``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse, StreamingResponse
from langgraph.types import Command
from pydantic import BaseModel, ConfigDict

from core.protocol import ProgressEvent, QuestionsEvent, clean_text
from core.result import RunResult
from server.accounts import AccountError, NotOwned, check_thread, turn_key
from server.auth import Caller, caller, key_holder
from server.chat_text import render_markdown
from server.context import THREAD_HEADER, Kea
from server.profiles import UnknownModel

router = APIRouter()
STALE_TURNS = 8  # answered questions skipped, at most, to find the one a message answers


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="allow")

    model: str | None = None
    messages: list[dict[str, Any]]
    stream: bool = False
    metadata: dict[str, Any] | None = None


def message_text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of parts; cleaned of control
    characters and invalid Unicode (``core.protocol.clean_text``), so the conversation can be
    hashed, stored and read."""
    if isinstance(content, str):
        return clean_text(content)
    if isinstance(content, list):
        return clean_text("\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text"))
    return ""


@router.get("/v1/models")
async def models(request: Request, who: Caller = Depends(key_holder)) -> dict[str, Any]:
    kea: Kea = request.app.state.kea
    return {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": "kea"} for m in kea.profiles.models()]}


def render(event: RunResult | QuestionsEvent) -> str:
    return event.form.text if isinstance(event, QuestionsEvent) else render_markdown(event)


def _status(event: RunResult | QuestionsEvent | None) -> str:
    if isinstance(event, QuestionsEvent):
        return "questions"
    return event.status if event is not None else "failed"


@router.post("/v1/chat/completions", response_model=None)
async def completions(body: ChatRequest, request: Request, who: Caller = Depends(caller)) -> JSONResponse | StreamingResponse:
    kea: Kea = request.app.state.kea
    try:
        profile_name = kea.profiles.name_of(body.model)
    except UnknownModel as exc:
        raise HTTPException(404, str(exc)) from exc
    model = f"kea-{profile_name}"
    conversation = [
        (str(m.get("role")), message_text(m.get("content")))
        for m in body.messages
        if m.get("role") in ("user", "assistant")
    ]
    if not conversation or conversation[-1][0] != "user" or not conversation[-1][1].strip():
        raise HTTPException(400, "The last message must be the user's, with text: that is what Kea answers.")
    text = conversation[-1][1]
    thread, interrupt_id = await _thread_of(kea, request, body, who.user, profile_name, model, conversation[:-1])
    payload: Any = (
        Command(resume={interrupt_id: text}) if interrupt_id else await kea.runner.message_payload(thread, profile_name, text)
    )
    events = kea.runner.turn(thread, kea.profiles.profile(profile_name, who.user), payload, kea.base_url(request))
    created, reply_id = int(time.time()), f"chatcmpl-{uuid.uuid4().hex}"

    async def remember(content: str, last: RunResult | QuestionsEvent | None) -> None:
        asked = last.interrupt_id if isinstance(last, QuestionsEvent) else None
        await kea.accounts.record_turn(turn_key(who.user, model, [*conversation, ("assistant", content)]), thread, asked)

    metadata = {"thread_id": thread}
    headers = {THREAD_HEADER: thread}
    if not body.stream:
        last: RunResult | QuestionsEvent | None = None
        async for event in events:
            if not isinstance(event, ProgressEvent):
                last = event
        content = render(last) if last is not None else "The run ended without an answer. Ask again."
        await remember(content, last)
        return JSONResponse(
            {
                "id": reply_id, "object": "chat.completion", "created": created, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                "metadata": {**metadata, "status": _status(last)},
            },
            headers=headers,
        )

    def chunk(delta: dict[str, Any], finish: str | None = None, extra: dict[str, Any] | None = None) -> str:
        data = {"id": reply_id, "object": "chat.completion.chunk", "created": created, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], "metadata": extra or metadata}
        return f"data: {json.dumps(data, ensure_ascii=False)}\n\n"

    async def stream() -> AsyncIterator[str]:
        yield chunk({"role": "assistant", "content": ""})
        content, last = "", None
        async for event in events:
            if isinstance(event, ProgressEvent):
                piece = event.text + "  \n"  # a Markdown line break: one status line each
            else:
                last = event
                piece = ("\n" if content else "") + render(event)
            content += piece
            yield chunk({"content": piece})
        await remember(content, last)
        yield chunk({}, "stop", {**metadata, "status": _status(last)})
        yield "data: [DONE]\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream", headers={**headers, "Cache-Control": "no-cache"})


async def _thread_of(
    kea: Kea, request: Request, body: ChatRequest, user: str, profile_name: str, model: str,
    before: list[tuple[str, str]],
) -> tuple[str, str | None]:
    """The message's thread and the open question it answers (None: a new request)."""
    named = request.headers.get(THREAD_HEADER) or (body.metadata or {}).get("thread_id")
    if named:
        try:
            thread = check_thread(str(named))
            recorded = await kea.runner.claim(thread, user, profile_name)
        except AccountError as exc:
            raise HTTPException(400, str(exc)) from exc
        except NotOwned as exc:
            raise HTTPException(404, f"There is no thread {named}.") from exc
        if recorded != profile_name:
            raise HTTPException(400, f"Thread {thread} was started with model kea-{recorded}; continue it there.")
        waiting = await kea.runner.waiting(thread, profile_name)
        return thread, (waiting[0].id if waiting else None)
    key = turn_key(user, model, before)
    first = None
    for _ in range(STALE_TURNS):
        taken = await kea.accounts.take_turn(key, user)
        if taken is None:
            break
        first = first or taken
        if taken.interrupt_id is None:
            return taken.thread, None  # an answer given: the conversation goes on on its thread
        if taken.interrupt_id in {i.id for i in await kea.runner.waiting(taken.thread, profile_name)}:
            return taken.thread, taken.interrupt_id
        # that question was answered already (through a named thread or the run API): look further
    if first is not None:
        return first.thread, None
    thread = f"chat-{uuid.uuid4().hex}"
    await kea.runner.claim(thread, user, profile_name)
    return thread, None
