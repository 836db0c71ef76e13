"""A scripted OpenAI-compatible chat endpoint: FastAPI on 127.0.0.1, served by uvicorn in a thread.

It plays the model. Each ``POST /v1/chat/completions`` is answered by the test's script, a
function of the request (its prompts, its schema, the document it names), with a structured
answer, a cut-off answer, an error (429 with Retry-After, 500, 401...) or a slow answer.
Every request is recorded with the times it arrived and was answered, and the server counts
the requests in flight at once. It speaks both ways of asking for structure: a
``response_format`` JSON schema (the answer is the message content) and function calling
(the answer is a tool call); and it plays a tool-calling agent's model (``tool_call``, ``text``).

``POST /v1/embeddings`` plays an embedding model: each input becomes a normalised bag of its
words hashed into ``EMBEDDING_DIMENSION`` buckets (texts sharing words point the same way), or
whatever ``embed_script`` answers; every input list is recorded in ``embedding_inputs``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

_MARK = re.compile(r"^=== Page (\d+)(?: \(continued\))? ===$", re.MULTILINE)


@dataclass
class Reply:
    """What the endpoint answers to one request."""

    answer: Any = None  # the structured answer (a dict) or raw text
    finish_reason: str = "stop"
    status: int = 200
    error: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    usage: tuple[int, int] = (120, 30)
    tool_calls: list[tuple[str, dict[str, Any]]] | None = None  # an agent's turn: these calls
    plain: bool = False  # an agent's turn: ``answer`` is its text, whatever tools were offered


def tool_call(name: str, args: dict[str, Any]) -> Reply:
    """A tool-calling model's turn that calls ``name`` with ``args``."""
    return Reply(tool_calls=[(name, args)])


def text(content: str) -> Reply:
    """A tool-calling model's turn that answers in text."""
    return Reply(answer=content, plain=True)


def answer(obj: Any, *, delay: float = 0.0, usage: tuple[int, int] = (120, 30)) -> Reply:
    return Reply(answer=obj, delay=delay, usage=usage)


def cut_off(obj: Any) -> Reply:
    """An answer stopped by the output limit: half of its JSON and finish_reason "length"."""
    return Reply(answer=json.dumps(obj)[: max(1, len(json.dumps(obj)) // 2)], finish_reason="length", usage=(120, 4096))


def failure(status: int, message: str, *, code: str | None = None, retry_after: float | None = None) -> Reply:
    headers = {"retry-after": f"{retry_after:g}"} if retry_after is not None else {}
    return Reply(status=status, error={"message": message, "type": "error", "code": code}, headers=headers)


@dataclass
class Seen:
    """One request the endpoint received."""

    body: dict[str, Any]
    started: float
    ended: float = 0.0
    status: int = 0
    finish_reason: str = ""

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])

    @property
    def schema_name(self) -> str:
        if "response_format" in self.body:
            return str(self.body["response_format"]["json_schema"]["name"])
        return str(self.body["tools"][0]["function"]["name"])

    @property
    def reads_request(self) -> bool:
        return self.schema_name == "RequestReading"

    @property
    def document(self) -> str | None:
        found = re.search(r"^Document: (.+)$", self.user, re.MULTILINE)
        return found.group(1) if found and not self.reads_request else None

    def pages(self) -> list[tuple[int, str]]:
        """The marked text of the request: (page, text) in order."""
        marks = list(_MARK.finditer(self.user))
        return [
            (int(m.group(1)), self.user[m.end() + 1 : marks[i + 1].start() if i + 1 < len(marks) else len(self.user)])
            for i, m in enumerate(marks)
        ]


Script = Callable[[Seen], Reply]
EMBEDDING_DIMENSION = 64


def bag_of_words(text: str, dimension: int = EMBEDDING_DIMENSION) -> list[float]:
    """A deterministic stand-in for an embedding model: hashed word counts, L2-normalised."""
    vector = [0.0] * dimension
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dimension] += 1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


class ScriptedEndpoint:
    """The app, the script it follows and what it saw."""

    def __init__(self) -> None:
        self.script: Script = lambda seen: failure(500, "no script")
        self.refuse_json_schema = False
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.base_url = ""
        self.embed_script: Callable[[str, list[str]], Reply | list[list[float]]] = (
            lambda model, texts: [bag_of_words(t) for t in texts]
        )
        self.embedding_inputs: list[tuple[str, list[str]]] = []  # (model, inputs) of each request
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self._complete)
        self.app.post("/v1/embeddings")(self._embed)

    def reset(self, script: Script, *, refuse_json_schema: bool | int = False) -> None:
        """``refuse_json_schema``: True answers a JSON-schema request 400 as most servers do; 500
        answers it as llama-cpp-python's server does (a validation error with status 500)."""
        # A client that gave up (a timeout) leaves its request running here: wait for it, so
        # one test's slow answer is never counted in flight with the next test's calls.
        deadline = time.monotonic() + 30
        while self.in_flight and time.monotonic() < deadline:
            time.sleep(0.02)
        self.script = script
        self.refuse_json_schema = refuse_json_schema
        self.requests = []
        self.max_in_flight = 0

    def extraction_requests(self, document: str | None = None) -> list[Seen]:
        return [s for s in self.requests if not s.reads_request and (document is None or s.document == document)]

    async def _complete(self, request: Request) -> JSONResponse:
        body = await request.json()
        seen = Seen(body=body, started=time.monotonic())
        self.requests.append(seen)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.refuse_json_schema == 500 and "response_format" in body:
                reply = failure(500, "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
                                "  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema']")
            elif self.refuse_json_schema and "response_format" in body:
                reply = failure(400, "response_format of type json_schema is not supported by this model")
            else:
                reply = self.script(seen)
            if reply.delay:
                await asyncio.sleep(reply.delay)
        finally:
            self.in_flight -= 1
            seen.ended = time.monotonic()
        seen.status, seen.finish_reason = reply.status, reply.finish_reason
        if reply.status != 200:
            return JSONResponse({"error": reply.error}, status_code=reply.status, headers=reply.headers)
        return JSONResponse(_completion(body, reply), headers=reply.headers)


    async def _embed(self, request: Request) -> JSONResponse:
        body = await request.json()
        texts = [body["input"]] if isinstance(body["input"], str) else list(body["input"])
        model = str(body.get("model", ""))
        self.embedding_inputs.append((model, texts))
        result = self.embed_script(model, texts)
        if isinstance(result, Reply):
            return JSONResponse({"error": result.error}, status_code=result.status, headers=result.headers)
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(result)]
        usage = {"prompt_tokens": sum(len(t.split()) for t in texts), "total_tokens": sum(len(t.split()) for t in texts)}
        return JSONResponse({"object": "list", "data": data, "model": model, "usage": usage})


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    text = reply.answer if isinstance(reply.answer, str) else json.dumps(reply.answer, ensure_ascii=False)
    message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
    finish = reply.finish_reason
    if reply.tool_calls:
        calls = [
            {"id": f"call_{len(body['messages'])}_{n}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
            for n, (name, args) in enumerate(reply.tool_calls)
        ]
        message = {"role": "assistant", "content": None, "tool_calls": calls}
        finish = "tool_calls"
    elif reply.plain:
        pass
    elif "tools" in body and "response_format" not in body:
        name = body["tools"][0]["function"]["name"]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": name, "arguments": text}}],
        }
        finish = "tool_calls" if finish == "stop" else finish
    prompt, completion = reply.usage
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "scripted"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(endpoint: ScriptedEndpoint) -> Iterator[str]:
    """Serve the endpoint on a free loopback port; yields its base URL (``.../v1``)."""
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(endpoint.app, host="127.0.0.1", port=port, log_level="warning", lifespan="off", access_log=False)
    )
    thread = threading.Thread(target=server.run, name="scripted-openai", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the scripted endpoint did not start")
        time.sleep(0.02)
    endpoint.base_url = f"http://127.0.0.1:{port}/v1"
    try:
        yield endpoint.base_url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
