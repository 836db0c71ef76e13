"""A scripted OpenAI-compatible chat endpoint: FastAPI on 127.0.0.1, served by uvicorn in a thread.

The tests play the model with it, and ``evals.oracle`` plays a perfect one over the unseen
requests; it lives here so that both can import it.

Each ``POST /v1/chat/completions`` is answered by the test's script, a
function of the request (its prompts, its schema, the document it names), with a structured
answer, a cut-off answer, an error (429 with Retry-After, 500, 401...) or a slow answer.
Every request is recorded with the times it arrived and was answered, and the server counts
the requests in flight at once. It speaks both ways of asking for structure: a
``response_format`` JSON schema (the answer is the message content) and function calling
(the answer is a tool call); and it plays a tool-calling agent's model (``tool_call``, ``text``).

Faults of a real endpoint, per request: ``hang()`` never answers (until the test moves on),
``connection_reset()`` drops the connection (a TCP reset; served with ``serve(..., resets=True)``, which
puts a small front between the client and uvicorn that can cut a connection), ``malformed``
answers text that is no JSON, and ``failure`` any status with or without Retry-After.

``POST /v1/embeddings`` plays an embedding model: each input becomes a normalised bag of its
words hashed into ``EMBEDDING_DIMENSION`` buckets (texts sharing words point the same way), or
whatever ``embed_script`` answers; every input list is recorded in ``embedding_inputs``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import re
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from checkpoints.cluster import free_port

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
    hang: bool = False  # no answer at all, until the endpoint is reset or stopped
    reset: bool = False  # the connection is reset instead of answered (needs ``serve(..., resets=True)``)
    trickle: float = 0.0  # send the answer one byte at a time, this many seconds apart (after blanks)


def tool_call(name: str, args: dict[str, Any]) -> Reply:
    """A tool-calling model's turn that calls ``name`` with ``args``."""
    return Reply(tool_calls=[(name, args)])


def text(content: str) -> Reply:
    """A tool-calling model's turn that answers in text."""
    return Reply(answer=content, plain=True)


def reading(columns: list[str], **fields: Any) -> dict[str, Any]:
    """A model's reading of a request (``RequestReading``): a table of these columns as the request
    names them, nothing else read unless ``fields`` say so."""
    base: dict[str, Any] = {
        "kind": "table", "columns": columns, "columns_from": "request", "row_condition": None, "conditions": [],
        "row_terms": [], "document_conditions": [], "places": [], "calculations": [], "notes": [], "unused": [],
    }
    return base | fields


def answer(obj: Any, *, delay: float = 0.0, usage: tuple[int, int] = (120, 30)) -> Reply:
    return Reply(answer=obj, delay=delay, usage=usage)


def cut_off(obj: Any) -> Reply:
    """An answer stopped by the output limit: half of its JSON and finish_reason "length"."""
    return Reply(answer=json.dumps(obj)[: max(1, len(json.dumps(obj)) // 2)], finish_reason="length", usage=(120, 4096))


def hang() -> Reply:
    """No answer: the request stays open until the test moves on (a client must time out)."""
    return Reply(hang=True)


def connection_reset() -> Reply:
    """The connection is cut (TCP reset) after the request was read, before any answer."""
    return Reply(reset=True)


def trickled(obj: Any, every: float = 0.5, blanks: int = 40) -> Reply:
    """A good answer sent so slowly that no single read times out: ``blanks`` spaces, one each
    ``every`` seconds, then the JSON (as a stuck server or a keep-alive proxy does)."""
    return Reply(answer=obj, trickle=every, usage=(120, blanks))


def malformed(text: str) -> Reply:
    """A 200 answer whose message is ``text`` as it is (no JSON, or JSON of another shape)."""
    return Reply(answer=text)


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
    key: str = ""  # the caller's API key (Authorization: Bearer ...): which client asked

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
RESET_HEADER = "x-scripted-reset"
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
        self._released = threading.Event()  # set: hung requests answer (with an error) and end
        self._held = threading.Event()  # set: no request is answered until it is cleared (``answers_held``)
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self._complete)
        self.app.post("/v1/embeddings")(self._embed)

    def reset(self, script: Script, *, refuse_json_schema: bool | int = False) -> None:
        """``refuse_json_schema``: True answers a JSON-schema request 400 as most servers do; 500
        answers it as llama-cpp-python's server does (a validation error with status 500)."""
        # A client that gave up (a timeout) leaves its request running here: wait for it, so
        # one test's slow answer is never counted in flight with the next test's calls.
        self._released.set()
        deadline = time.monotonic() + 30
        while self.in_flight and time.monotonic() < deadline:
            time.sleep(0.02)
        self._released.clear()
        self.script = script
        self.refuse_json_schema = refuse_json_schema
        self.requests = []
        self.max_in_flight = 0

    def release(self) -> None:
        """Let every hung request end (the server is stopping)."""
        self._released.set()

    @contextmanager
    def answers_held(self) -> Iterator[None]:
        """Within the block no request is answered: each waits, then answers as its script says
        (what the model's callers can have done meanwhile is only what needs no answer)."""
        self._held.set()
        try:
            yield
        finally:
            self._held.clear()

    def extraction_requests(self, document: str | None = None) -> list[Seen]:
        return [s for s in self.requests if not s.reads_request and (document is None or s.document == document)]

    async def _complete(self, request: Request) -> JSONResponse:
        body = await request.json()
        seen = Seen(body=body, started=time.monotonic(), key=request.headers.get("authorization", "").removeprefix("Bearer "))
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
            # a client that hung up is no longer in flight here (a cancelled call gave its slot back)
            until = time.monotonic() + reply.delay
            while time.monotonic() < until and not await request.is_disconnected():
                await asyncio.sleep(min(0.05, max(0.0, until - time.monotonic())))
            while reply.hang and not self._released.is_set() and not await request.is_disconnected():
                await asyncio.sleep(0.05)
            while self._held.is_set() and not self._released.is_set() and not await request.is_disconnected():
                await asyncio.sleep(0.01)
        finally:
            self.in_flight -= 1
            seen.ended = time.monotonic()
        seen.status, seen.finish_reason = reply.status, reply.finish_reason
        if reply.reset:
            seen.status = -1
            return JSONResponse({}, headers={RESET_HEADER: "1"})  # the front cuts the connection here
        if reply.hang:
            return JSONResponse({"error": {"message": "released"}}, status_code=503)
        if reply.status != 200:
            return JSONResponse({"error": reply.error}, status_code=reply.status, headers=reply.headers)
        if reply.trickle:
            return self._trickle(_completion(body, reply), reply)
        return JSONResponse(_completion(body, reply), headers=reply.headers)

    def _trickle(self, completion: dict[str, Any], reply: Reply) -> StreamingResponse:
        data = b" " * reply.usage[1] + json.dumps(completion).encode()

        async def slowly() -> Any:
            for i in range(len(data)):
                if self._released.is_set():
                    return  # the test moved on: the client gave up long ago
                yield data[i : i + 1]
                if data[i : i + 1] == b" ":
                    await asyncio.sleep(reply.trickle)

        return StreamingResponse(slowly(), media_type="application/json", headers={"content-length": str(len(data))})


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


class _Front:
    """A TCP front for uvicorn that passes each request through and resets the client's connection
    where the endpoint's answer carries ``RESET_HEADER`` — what a crashing server or a proxy that
    drops connections does to a client."""

    def __init__(self, upstream: int) -> None:
        self.upstream, self.port = upstream, free_port()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="scripted-openai-front", daemon=True)
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("the scripted endpoint's front did not start")

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", self.port))
        self.ready.set()
        self.loop.run_forever()

    def close(self) -> None:
        async def stop() -> None:
            self.server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    @staticmethod
    async def _head(reader: asyncio.StreamReader) -> tuple[bytes, int]:
        """One HTTP/1.1 message head and its Content-Length; (b"", 0) when the peer closed."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return b"", 0
        length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
        return head, int(length.group(1)) if length else 0

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        try:
            while True:
                head, length = await self._head(reader)
                if not head:
                    return
                up_writer.write(head + await reader.readexactly(length))
                await up_writer.drain()
                head, length = await self._head(up_reader)
                if not head or RESET_HEADER.encode() in head.lower():
                    sock = writer.get_extra_info("socket")
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    writer.transport.abort()  # RST, not FIN: the client reads a connection reset
                    return
                writer.write(head)
                while length:  # the body as it comes, so a slow answer stays slow
                    block = await up_reader.read(min(length, 65536))
                    if not block:
                        return
                    writer.write(block)
                    await writer.drain()
                    length -= len(block)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            up_writer.close()
            if not writer.transport.is_closing():
                writer.close()


@contextmanager
def serve(endpoint: ScriptedEndpoint, *, resets: bool = False) -> Iterator[str]:
    """Serve the endpoint on a free loopback port; yields its base URL (``.../v1``). With
    ``resets`` a front that can reset connections stands before it (``connection_reset()`` replies)."""
    with served(endpoint.app, "scripted-openai", lifespan="off") as port:
        front = _Front(port) if resets else None
        endpoint.base_url = f"http://127.0.0.1:{front.port if front else port}/v1"
        try:
            yield endpoint.base_url
        finally:
            endpoint.release()
            if front is not None:
                front.close()


@contextmanager
def served(app: Any, name: str, start_timeout: float = 60, **config: Any) -> Iterator[int]:
    """``app`` served by uvicorn in a thread on a free loopback port (yielded) until the block ends."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False, **config))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"{name} did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def allowed_endpoint(scripted: Any, **options: Any) -> Iterator[Any]:
    """``scripted`` served (``serve``'s options) as the endpoint the operator allows, with a test key;
    the environment as it was afterwards."""
    saved = {name: os.environ.get(name) for name in ("OPENAI_API_KEY", "KEA_ALLOWED_BASE_URLS")}
    os.environ["OPENAI_API_KEY"] = "test"
    try:
        with serve(scripted, **options):
            os.environ["KEA_ALLOWED_BASE_URLS"] = scripted.base_url  # the operator allows this endpoint
            yield scripted
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
