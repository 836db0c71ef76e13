"""
title: Kea
author: Kea
description: One chat message, one exact table across the documents of your knowledge base (a CSV).
version: 0.1.0
license: Apache-2.0
required_open_webui_version: 0.11.1
"""

# An Open WebUI function (a "pipe"). It runs inside Open WebUI and imports nothing from Kea: it
# speaks Kea's run API (POST /v1/runs, POST /v1/runs/{thread}/resume, GET /v1/runs/{thread}),
# whose Server-Sent Events are `progress`, `questions`, `result` and `error`.
#
# - Kea's profiles are listed as models (GET /v1/models).
# - Each Open WebUI chat is one Kea thread (`owui-<chat id>`), run as the Open WebUI user: Kea sees
#   the user's e-mail address (X-Kea-User), so `kea access grant COLLECTION alice@example.com`
#   names people as Open WebUI shows them. The service key of the valves is made with
#   `kea keys create open-webui --service`.
# - Progress events become status lines. Kea's questions open Open WebUI's dialog
#   (`request:user_input`); the chosen answers are listed in the message and sent back as JSON.
#   A cancelled or failed dialog, one Open WebUI closes at its own time cap, or an Open WebUI
#   without the dialog gets the questions as text: the next message answers them.
# - The finished CSV is uploaded into Open WebUI's files and attached to the answer (one `files`
#   event); the answer also links Kea's own download.
# - Title, tag and follow-up generation (`__task__`) are answered at once, never as extractions.
# - Open WebUI's stop button cancels the run on Kea too (DELETE /v1/runs/{thread}); the status
#   line says what was read before the stop (Kea keeps the partial table with the thread).
# - Several Kea servers behind a load balancer (KEA_URL): when the one answering stops under a
#   request, the run goes on on another; the pipe follows the thread (GET /v1/runs/{thread}) to
#   its questions or its answer instead of failing.

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
from pydantic import BaseModel, Field

log = logging.getLogger("kea.pipe")
STOP_WAIT_SECONDS = 5  # how long the stop button waits for Kea's run to stop, to say what it read
FOLLOW_POLL_SECONDS = 1.0  # how often a run is looked at after its server went away under the request

Emitter = Callable[[dict[str, Any]], Awaitable[Any]] | None

# Open WebUI's dialog keeps a question open at most this long (0.12.4 caps it at 60–240 s).
DIALOG_CAP_MS = 240_000
HEADER_CHARS, QUESTION_CHARS, LABEL_CHARS, DESCRIPTION_CHARS = 48, 500, 80, 240
CANCELLED = "You closed the questions dialog, so here are its questions as text."
TIMED_OUT = "The questions dialog closed before it was answered, so here are its questions as text."


class KeaUnavailable(RuntimeError):
    """Kea could not be reached or refused the request; the message says what to do."""


def _cut(text: str, limit: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def dialog_request(form: dict[str, Any], timeout_ms: int) -> dict[str, Any]:
    """Kea's questions form as Open WebUI's `request:user_input` event."""
    questions = []
    for q in form.get("questions", []):
        questions.append(
            {
                "id": str(q["id"])[:64],
                "header": _cut(q.get("header", ""), HEADER_CHARS),
                "question": _cut(q.get("question", ""), QUESTION_CHARS),
                "options": [
                    {"label": _cut(o.get("label", ""), LABEL_CHARS), "description": _cut(o.get("description", ""), DESCRIPTION_CHARS)}
                    for o in q.get("options", [])
                ],
                "allow_other": bool(q.get("allow_other", True)),
            }
        )
    return {
        "type": "request:user_input",
        "data": {"questions": questions, "allow_other": True, "timeout_ms": max(60_000, min(timeout_ms, DIALOG_CAP_MS))},
    }


def chosen_answers(form: dict[str, Any], answers: dict[str, Any]) -> str:
    """The dialog's answers as lines of the message: what the user chose, question by question."""
    lines = []
    for q in form.get("questions", []):
        answer = answers.get(q["id"]) or {}
        if answer.get("type") == "other":
            said = f"“{answer.get('text', '').strip()}”"
        else:
            said = answer.get("label") or "(kept as shown)"
        lines.append(f"- **{q.get('header') or q['id']}:** {said}")
    return "You chose:\n" + "\n".join(lines)


def dialog_answered(outcome: Any) -> bool:
    """True when the dialog came back answered; a cancel, a time-out or an error is not an answer."""
    return isinstance(outcome, dict) and not outcome.get("error") and outcome.get("status", "answered") == "answered"


def fallback_lead(outcome: Any) -> str:
    """Why the questions come as text: a cancel or a time-out is said; no dialog at all is not."""
    if not isinstance(outcome, dict):
        return ""
    if outcome.get("status") == "cancelled":
        return CANCELLED
    if "timed out" in str(outcome.get("error", "")).lower():
        return TIMED_OUT
    return ""


def last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages or []):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
            return str(content or "")
    return ""


def thread_of(chat_id: str | None) -> str | None:
    """The Kea thread of an Open WebUI chat; None for a call without a saved chat (the bare API)."""
    if not chat_id or chat_id.startswith("local:"):
        return None
    return "owui-" + "".join(c if c.isalnum() or c in "-_." else "-" for c in chat_id)[:100]


def model_name(model_id: str) -> str:
    """``kea-document-tables`` → ``Kea · document tables``."""
    return "Kea · " + model_id.removeprefix("kea-").replace("-", " ")


def task_answer(task: str, messages: list[dict[str, Any]]) -> str:
    """Open WebUI's background tasks, answered without running anything. ``messages`` is the
    chat the task is about (the task body's), not the task's own prompt."""
    if task == "title_generation":
        first = next((m for m in messages or [] if m.get("role") == "user"), None)
        request = " ".join(last_user_text([first] if first else []).split())
        title = request if len(request) <= 60 else request[:59].rstrip() + "…"
        return json.dumps({"title": f"Kea: {title}" if title else "Kea table"})
    if task == "tags_generation":
        return json.dumps({"tags": ["Kea", "Tables"]})
    if task == "follow_up_generation":
        return json.dumps({"follow_ups": []})
    return ""


async def sse_events(response: httpx.Response) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of a Server-Sent Events response."""
    name, data = "message", []
    async for line in response.aiter_lines():
        if not line:
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
    if data:
        yield name, json.loads("\n".join(data))


class Pipe:
    class Valves(BaseModel):
        KEA_URL: str = Field(default="http://127.0.0.1:8400", description="Where `kea serve` answers, as Open WebUI's server reaches it.")
        KEA_API_KEY: str = Field(default="", description="A Kea service key: `kea keys create --service open-webui`.")
        DIALOG_SECONDS: int = Field(default=240, description="How long the questions dialog stays open (Open WebUI allows 60–240 s); then the questions are asked as text.")
        ATTACH_CSV: bool = Field(default=True, description="Attach the finished CSV to the answer (besides Kea's download link).")
        TIMEOUT_SECONDS: float = Field(default=3600, description="How long one answer may take, reading included.")

    def __init__(self) -> None:
        self.valves = self.Valves()

    # -- Kea's HTTP API --------------------------------------------------------------------------

    def _client(self, user: str | None = None) -> httpx.AsyncClient:
        headers = {"Accept": "application/json, text/event-stream"}
        if self.valves.KEA_API_KEY:
            headers["Authorization"] = f"Bearer {self.valves.KEA_API_KEY}"
        if user:
            headers["X-Kea-User"] = user
        timeout = httpx.Timeout(self.valves.TIMEOUT_SECONDS, connect=10)
        return httpx.AsyncClient(base_url=self.valves.KEA_URL.rstrip("/"), headers=headers, timeout=timeout)

    @staticmethod
    def _refusal(response: httpx.Response) -> KeaUnavailable:
        try:
            detail = response.json().get("detail") or response.json().get("error", {}).get("message")
        except (ValueError, AttributeError):
            detail = None
        return KeaUnavailable(f"Kea answered {response.status_code}: {detail or response.reason_phrase}")

    async def pipes(self) -> list[dict[str, str]]:
        try:
            async with self._client() as client:
                response = await client.get("/v1/models")
                if response.status_code != 200:
                    raise self._refusal(response)
                return [{"id": m["id"], "name": model_name(m["id"])} for m in response.json().get("data", [])]
        except (httpx.HTTPError, KeaUnavailable) as exc:
            log.warning("Kea's models could not be listed: %s", exc)
            return [{"id": "unreachable", "name": "Kea (not reachable: check the KEA_URL and KEA_API_KEY valves)"}]

    async def _events(self, client: httpx.AsyncClient, path: str, payload: dict[str, Any]) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        async with client.stream("POST", path, json=payload) as response:
            if response.status_code != 200:
                await response.aread()
                raise self._refusal(response)
            async for event in sse_events(response):
                yield event

    # -- one chat turn ---------------------------------------------------------------------------

    async def pipe(
        self,
        body: dict[str, Any],
        __user__: dict[str, Any] | None = None,
        __event_emitter__: Emitter = None,
        __event_call__: Callable[[dict[str, Any]], Awaitable[Any]] | None = None,
        __chat_id__: str | None = None,
        __message_id__: str | None = None,
        __task__: str | None = None,
        __task_body__: dict[str, Any] | None = None,
        __request__: Any = None,
    ) -> str | AsyncIterator[str]:
        messages = body.get("messages") or []
        if __task__:
            return task_answer(str(__task__), (__task_body__ or {}).get("messages") or messages)
        model = str(body.get("model", "")).split(".", 1)[-1]
        if model == "unreachable":
            return "Kea is not reachable from Open WebUI. An admin sets the Kea function's KEA_URL and KEA_API_KEY valves."
        text = last_user_text(messages).strip()
        if not text:
            return "Say which table you need, e.g. “every hardware position on Nordwerk's 2025 invoices”."
        user = __user__ or {}
        email = str(user.get("email") or "")
        if not email:
            return "Kea needs to know who is asking, and this Open WebUI user has no e-mail address."
        thread = thread_of(__chat_id__)
        if thread is None:
            # No saved chat to keep the thread in: Kea's own chat endpoint finds the thread of
            # the conversation from its messages (and answers with a download link).
            return await self._chat_answer(email, model, messages)
        turn = _Turn(self, user, email, model, __event_emitter__, __event_call__, __chat_id__, __message_id__, __request__)
        return turn.run(thread, text)

    async def _chat_answer(self, email: str, model: str, messages: list[dict[str, Any]]) -> str:
        try:
            async with self._client(email) as client:
                response = await client.post("/v1/chat/completions", json={"model": model, "messages": messages})
                if response.status_code != 200:
                    raise self._refusal(response)
                return str(response.json()["choices"][0]["message"]["content"])
        except (KeaUnavailable, httpx.HTTPError) as exc:
            return self.failure(exc)

    def failure(self, exc: Exception) -> str:
        """What the user reads when Kea refused or could not be reached."""
        if isinstance(exc, KeaUnavailable):
            return f"{exc}. Nothing was read."
        log.warning("Kea could not be reached: %r", exc)
        return (
            f"Kea could not be reached at {self.valves.KEA_URL} ({type(exc).__name__}). Nothing was read; "
            "try again in a moment, or ask an admin to check the Kea function's valves."
        )


class _Turn:
    """One answer in one chat: start or resume the thread, show progress, ask, attach."""

    def __init__(
        self, pipe: Pipe, user: dict[str, Any], email: str, model: str, emit: Emitter,
        call: Callable[[dict[str, Any]], Awaitable[Any]] | None, chat_id: str | None, message_id: str | None, request: Any,
    ) -> None:
        self.pipe, self.user, self.email, self.model = pipe, user, email, model
        self.emit, self.call, self.chat_id, self.message_id, self.request = emit, call, chat_id, message_id, request

    async def status(self, description: str, done: bool = False) -> None:
        if self.emit:
            await self.emit({"type": "status", "data": {"description": description, "done": done}})

    async def run(self, thread: str, text: str) -> AsyncIterator[str]:
        try:
            async with self.pipe._client(self.email) as client:
                waiting = await self._waiting(client, thread)
                if waiting is not None:
                    path, payload = f"/v1/runs/{thread}/resume", {"reply": text, "interrupt_id": waiting}
                else:
                    path, payload = "/v1/runs", {"message": text, "thread": thread, "model": self.model}
                await self.status("Kea is reading the request…")
                while path:
                    next_step: tuple[str, dict[str, Any]] | None = None
                    async for name, data in self._steps(client, thread, path, payload):
                        if name == "progress":
                            await self.status(data.get("text") or "Reading…")
                        elif name == "questions":
                            next_step, said = await self._ask(thread, data)
                            yield said
                        elif name == "result":
                            async for piece in self._answer(client, data):
                                yield piece
                        elif name == "error":
                            await self.status("Kea stopped with an error.", done=True)
                            yield str(data.get("message") or "Kea stopped with an error.")
                    path, payload = next_step if next_step else ("", {})
        except (KeaUnavailable, httpx.HTTPError) as exc:
            await self.status("Kea refused the request." if isinstance(exc, KeaUnavailable) else "Kea is not reachable.", done=True)
            yield self.pipe.failure(exc)
        except (asyncio.CancelledError, GeneratorExit):
            # Open WebUI's stop button ends this generator: the run on Kea stops too, and its
            # answer keeps what was read before the stop
            await self._stop(thread)
            raise

    async def _steps(
        self, client: httpx.AsyncClient, thread: str, path: str, payload: dict[str, Any]
    ) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        """The events of one request to Kea. When the connection breaks after the request was
        sent (the Kea server behind the balancer stopped), the run goes on on another server: the
        thread's state, followed until no run is in flight, gives its questions or its answer."""
        try:
            async for event in self.pipe._events(client, path, payload):
                yield event
            return
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            log.warning("The connection to Kea broke under thread %s (%r); following its run", thread, exc)
        await self.status("Kea's server changed; the run goes on…")
        state = await self._follow(client, thread)
        if state.get("status") == "waiting":
            yield "questions", state["questions"]
        elif state.get("result"):
            yield "result", state["result"]
        else:
            yield "error", {"message": "Kea lost this message before it began reading; send it again."}

    async def _follow(self, client: httpx.AsyncClient, thread: str) -> dict[str, Any]:
        """The thread's state once no run is in flight on it."""
        deadline = asyncio.get_running_loop().time() + self.pipe.valves.TIMEOUT_SECONDS
        while True:
            try:
                response = await client.get(f"/v1/runs/{thread}")
            except httpx.TransportError:
                response = None  # the balancer has not noticed the server is gone yet
            if response is not None:
                if response.status_code != 200:
                    raise self.pipe._refusal(response)
                state = response.json()
                if state.get("status") != "running":
                    return dict(state)
            if asyncio.get_running_loop().time() > deadline:
                raise KeaUnavailable(f"Kea did not finish within {self.pipe.valves.TIMEOUT_SECONDS:g} s")
            await asyncio.sleep(FOLLOW_POLL_SECONDS)

    async def _stop(self, thread: str) -> None:
        """Cancel the thread's run on Kea and say in the status line what it had read."""
        try:
            async with self.pipe._client(self.email) as client:
                response = await client.delete(f"/v1/runs/{thread}", params={"wait": STOP_WAIT_SECONDS},
                                               timeout=STOP_WAIT_SECONDS + 5)
            said = (response.json().get("result") or {}).get("message") if response.status_code == 200 else None
            if said:
                await self.status(said.split("\n", 1)[0], done=True)
        except Exception:  # noqa: BLE001 — the chat is stopped either way
            log.warning("Kea could not be asked to stop thread %s", thread, exc_info=True)

    async def _waiting(self, client: httpx.AsyncClient, thread: str) -> str | None:
        """The id of the thread's open question, when the user's message answers one."""
        response = await client.get(f"/v1/runs/{thread}")
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise self.pipe._refusal(response)
        state = response.json()
        if state.get("status") != "waiting":
            return None
        return str(state["questions"]["interrupt_id"])

    async def _ask(self, thread: str, asked: dict[str, Any]) -> tuple[tuple[str, dict[str, Any]] | None, str]:
        """Open the dialog; answered → (the resume to send, the chosen answers); else the text form."""
        form = asked.get("form") or {}
        outcome: Any = None
        if self.call is not None:
            await self.status("Kea asks how it understood the request…")
            try:
                outcome = await self.call(dialog_request(form, self.pipe.valves.DIALOG_SECONDS * 1000))
            except Exception:  # noqa: BLE001 — any failure of the dialog falls back to text
                log.exception("The questions dialog failed")
                outcome = None
        if dialog_answered(outcome):
            reply = {"status": "answered", "answers": dict(outcome.get("answers") or {})}
            resume = (f"/v1/runs/{thread}/resume", {"reply": reply, "interrupt_id": asked["interrupt_id"]})
            return resume, chosen_answers(form, reply["answers"]) + "\n\n"
        await self.status("Waiting for your answer.", done=True)
        lead = fallback_lead(outcome)
        return None, (f"{lead}\n\n" if lead else "") + str(form.get("text", "")).rstrip()

    async def _answer(self, client: httpx.AsyncClient, result: dict[str, Any]) -> AsyncIterator[str]:
        rows, status, documents = result.get("rows", 0), result.get("status"), result.get("documents") or {}
        if status == "done":
            line = f"Done: {rows} rows from {documents.get('extracted', 0)} documents."
        elif status == "sample":
            line = f"A sample: {rows} rows from {documents.get('extracted', 0)} of {documents.get('in_scope', 0)} documents. Reply yes to read them all."
        else:
            line = "Done."
        await self.status(line, done=True)
        note = ""
        # an agent's answer may hold several; an empty table is linked in the answer, not attached
        tables = [t for t in (result.get("tables") or [result]) if t.get("csv") and t.get("rows")]
        if tables and self.pipe.valves.ATTACH_CSV:
            note = await self._attach(client, tables)
        yield str(result.get("markdown") or result.get("message") or "")
        if note:
            yield f"\n\n{note}"

    async def _attach(self, client: httpx.AsyncClient, tables: list[dict[str, Any]]) -> str:
        """Upload each table's CSV into Open WebUI and attach them to this answer (one ``files``
        event); a sentence when that fails (the answer still links every table)."""
        files = []
        for table in tables:
            name = f"kea-table-{str(table.get('extraction_id') or 'table')[:12]}.csv"
            try:
                response = await client.get(str(table["csv"]))
                if response.status_code != 200:
                    raise self.pipe._refusal(response)
                content = response.content
                file = await self._store(name, content)
            except Exception:  # noqa: BLE001 — the table is still linked in the answer
                log.exception("The CSV %s could not be attached", name)
                return "(The CSV could not be attached here; the download link above has it.)"
            files.append({"type": "file", "id": file, "name": name, "size": len(content),
                          "url": f"/api/v1/files/{file}/content", "meta": {"content_type": "text/csv"}})
        if self.emit:
            await self.emit({"type": "files", "data": {"files": files}})
        return ""

    async def _store(self, name: str, content: bytes) -> str:
        """The CSV as an Open WebUI file of this user, linked to this chat message; its id."""
        from fastapi import UploadFile
        from open_webui.models.chats import Chats
        from open_webui.models.users import Users
        from open_webui.routers.files import upload_file_handler
        from starlette.datastructures import Headers

        owner = await Users.get_user_by_id(self.user["id"])
        upload = UploadFile(file=io.BytesIO(content), filename=name, headers=Headers({"content-type": "text/csv"}))
        stored = await upload_file_handler(
            self.request, file=upload, metadata={"source": "kea"}, process=False, process_in_background=False, user=owner
        )
        file_id = str(stored["id"] if isinstance(stored, dict) else stored.id)
        if self.chat_id and self.message_id and not self.chat_id.startswith("local:"):
            await Chats.insert_chat_files(self.chat_id, self.message_id, [file_id], owner.id)
        return file_id
