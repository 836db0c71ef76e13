"""Benchmark: concurrent conversations against ``kea serve`` on loopback, offline engine.

    python -m evals.bench.http_load [--conversations 50] [--documents 50]

C conversations run at once, each through the OpenAI-compatible API as a chat client would:
with its own API key (one user), it asks for the values of one document ("Code, name and amount from doc-00017.txt"), gets the
questions, answers "yes", and gets the table. Every conversation names a different document,
so an answer to another conversation's question shows: the questions must name its document
and the table must hold only its rows. Reported: failures, crossed answers, and the latency of
the questions turn, of the answer turn and of the whole conversation (p50, p99, max).

Bounded: at most 200 conversations, each turn at most 120 s, everything on 127.0.0.1, in a
throwaway KEA_HOME and PostgreSQL cluster. There is no baseline: the figure is the server's
own latency under load (two turns of the same graph the CLI runs).
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time
from typing import Any

from evals.bench.common import command_line, ingest_tiny_documents, isolated_home, machine, save_and_show
from evals.endpoint import served

MAX_CONVERSATIONS = 200
TURN_TIMEOUT = 120.0
MODEL = "kea-document-tables"


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0}
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered), 3), "p99": round(p99, 3), "max": round(ordered[-1], 3)}


async def _conversation(client: Any, number: int) -> dict[str, Any]:
    """One chat: request, questions, "yes", table. Returns its timings and what went wrong."""
    name = f"doc-{number:05d}.txt"
    messages: list[dict[str, str]] = [{"role": "user", "content": f"Code, name and amount from {name}"}]
    outcome: dict[str, Any] = {"document": name, "failed": None, "crossed": False}
    start = time.perf_counter()
    try:
        first = await asyncio.wait_for(client.chat.completions.create(model=MODEL, messages=messages), TURN_TIMEOUT)
        asked = first.choices[0].message.content or ""
        outcome["questions_seconds"] = time.perf_counter() - start
        if "Before I read any document" not in asked:
            outcome["failed"] = f"no questions: {asked[:120]}"
            return outcome
        if name not in asked:
            outcome["crossed"] = True
        messages += [{"role": "assistant", "content": asked}, {"role": "user", "content": "yes"}]
        middle = time.perf_counter()
        second = await asyncio.wait_for(client.chat.completions.create(model=MODEL, messages=messages), TURN_TIMEOUT)
        answer = second.choices[0].message.content or ""
        outcome["answer_seconds"] = time.perf_counter() - middle
        outcome["conversation_seconds"] = time.perf_counter() - start
        files = set(re.findall(r"^\| (doc-\d{5}\.txt) \|", answer, re.MULTILINE))
        if "[table.csv](" not in answer or not files:
            outcome["failed"] = f"no table: {answer[:120]}"
        elif files != {name}:
            outcome["crossed"] = True
    except Exception as exc:  # noqa: BLE001 — a failed conversation is counted, never fatal
        outcome["failed"] = f"{type(exc).__name__}: {exc}"[:200]
    return outcome


async def _load(base_url: str, key: str, conversations: int) -> tuple[list[dict[str, Any]], float]:
    import httpx
    from openai import AsyncOpenAI

    limits = httpx.Limits(max_connections=conversations + 4, max_keepalive_connections=conversations + 4)
    async with httpx.AsyncClient(limits=limits, timeout=TURN_TIMEOUT) as http:
        client = AsyncOpenAI(base_url=f"{base_url}/v1", api_key=key, http_client=http, max_retries=0)
        start = time.perf_counter()
        outcomes = await asyncio.gather(*(_conversation(client, i) for i in range(conversations)))
        return list(outcomes), time.perf_counter() - start


def run(conversations: int, documents: int) -> dict[str, Any]:

    from server.app import create_app
    from server.cli_http import _with_accounts
    from tools.services import services

    conversations = min(conversations, MAX_CONVERSATIONS)
    documents = max(documents, conversations)
    with isolated_home() as home:
        svc = services()
        ingest_tiny_documents(svc.kb, home / "tiny", "tiny", documents)
        svc.kb.grant("tiny", "bench")
        _, key = _with_accounts(lambda accounts: accounts.create_key("bench"))
        with served(create_app(svc), "kea-serve-bench") as port:
            outcomes, seconds = asyncio.run(_load(f"http://127.0.0.1:{port}", key, conversations))
    failed = [o for o in outcomes if o["failed"]]
    return {
        "machine": machine(),
        "conversations": conversations,
        "documents": documents,
        "engine": "offline",
        "seconds": round(seconds, 3),
        "failed": len(failed),
        "failures": [f"{o['document']}: {o['failed']}" for o in failed[:10]],
        "crossed": sum(bool(o["crossed"]) for o in outcomes),
        "questions_latency_seconds": _percentiles([o["questions_seconds"] for o in outcomes if "questions_seconds" in o]),
        "answer_latency_seconds": _percentiles([o["answer_seconds"] for o in outcomes if "answer_seconds" in o]),
        "conversation_latency_seconds": _percentiles(
            [o["conversation_seconds"] for o in outcomes if "conversation_seconds" in o]
        ),
    }


def describe(result: dict[str, Any]) -> list[str]:
    q, a, c = (result[k] for k in ("questions_latency_seconds", "answer_latency_seconds", "conversation_latency_seconds"))
    return [
        (
            f"{result['conversations']} concurrent conversations on loopback ({result['engine']} engine): "
            f"{result['failed']} failed, {result['crossed']} answered another's question, {result['seconds']} s in all"
        ),
        f"Questions turn: p50 {q['p50']} s, p99 {q['p99']} s; answer turn: p50 {a['p50']} s, p99 {a['p99']} s",
        f"Whole conversation: p50 {c['p50']} s, p99 {c['p99']} s, max {c['max']} s",
        *result["failures"],
    ]


def main() -> None:
    parser = command_line(__doc__)
    parser.add_argument("--conversations", type=int, default=50, help=f"conversations at once (at most {MAX_CONVERSATIONS})")
    parser.add_argument("--documents", type=int, default=50, help="documents in the corpus (at least one per conversation)")
    args = parser.parse_args()
    result = run(args.conversations, args.documents)
    save_and_show("http_load", result, describe(result))


if __name__ == "__main__":
    main()
